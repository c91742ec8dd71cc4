"""Child → parent merge: data verbatim, summary and issues as tracking entries, reasoning discarded.

The parent never re-tells a child's numbers: ``result.data`` is stored exactly as the typed
output (JSON mode, Decimals as exact strings), its findings and structured facts become
ledger entries that point back to it, and the child's ``reasoning`` is never read. Results of
parallel children are merged in a fixed order (by task id), whatever order they finished in.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from baton.context.compress import resolve
from baton.context.ledger import Ledger
from baton.contracts.agent_outputs import AgentOutputBase
from baton.contracts.handoff import AgentReport
from baton.contracts.ledger import EntryKind, LedgerEntry


def data_key(agent: str) -> str:
    """The ledger slot of an agent's output (what other agents declare as a needed key)."""
    return f"{agent}.output"


def merge_report(
    ledger: Ledger,
    report: AgentReport[Any],
    *,
    agent: str,
    step: int,
    context_id: str | None = None,
) -> list[LedgerEntry]:
    """Merge one child's report into the ledger; returns the entries written, in order."""
    written: list[LedgerEntry] = []

    def add(kind: EntryKind, **kw: Any) -> LedgerEntry:
        return ledger.add(kind, source_agent=agent, step=step, context_id=context_id, **kw)

    if report.result is not None:
        output: AgentOutputBase = report.result.data
        data_entry = add(
            "data",
            key=data_key(agent),
            data=output.model_dump(mode="json"),
            confidence=output.confidence,
        )
        written.append(data_entry)
        refs = (data_entry.entry_id,)
        for finding in output.findings:
            written.append(
                add(
                    "finding",
                    text=resolve(finding),
                    confidence=finding.confidence,
                    evidence_ids=finding.evidence_ids,
                    references=refs,
                )
            )
        for number in output.key_numbers():
            if number.is_fact:
                written.append(
                    add(
                        "fact",
                        fact=number,
                        confidence=output.confidence,
                        evidence_ids=(number.evidence_id,),
                        references=refs,
                    )
                )
        if report.result.summary:
            written.append(add("summary", text=report.result.summary, references=refs))
    for issue in report.issues:
        written.append(add("issue", text=issue))
    return written


@dataclass(frozen=True)
class ChildResult:
    """One parallel child's report with the agent and step it ran as."""

    agent: str
    step: int
    report: AgentReport[Any]
    context_id: str | None = None


def merge_parallel(ledger: Ledger, results: Iterable[ChildResult]) -> list[LedgerEntry]:
    """Merge parallel children in a fixed order (task id, then agent), not completion order."""
    ordered = sorted(results, key=lambda r: (r.report.task_id, r.agent, r.step))
    written: list[LedgerEntry] = []
    for result in ordered:
        written += merge_report(
            ledger, result.report, agent=result.agent, step=result.step, context_id=result.context_id
        )
    return written
