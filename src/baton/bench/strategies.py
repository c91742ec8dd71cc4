"""The four ways of passing context the benchmark compares, on the same chain.

* ``full_history`` — every earlier agent message (reasoning, tool output, summary, output JSON)
* ``last_output``  — only the previous agent's message
* ``window``       — the last ``WINDOW_K`` agent messages
* ``baton``        — Baton: ledger merge, relay envelope with invariants, must_keep header,
  layered compression, slicing with grants, token budget

Every strategy gets the same frame (task, the user's initial constraints, the agent's
instruction, project context, answer format); they differ only in what they pass about
earlier steps. No LLM is involved: the benchmark measures what each receiving agent is given.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from baton.bench.chain import INITIAL_CONSTRAINTS, INSTRUCTIONS, PII_COLUMN, PROJECT_CONTEXT, TASK, ChainStep
from baton.context.compress import StepRecord
from baton.context.ledger import Ledger
from baton.context.merge import data_key, merge_report
from baton.context.relay import check_chain, integrity_hash, pass_baton, start_relay
from baton.context.render import outline_schema
from baton.context.slicing import AgentSpec, Grants, PacketRequest, build_packet
from baton.context.tokens import count_tokens
from baton.contracts.agent_outputs import OUTPUT_MODELS, AgentName
from baton.contracts.handoff import Baton, MustKeep, output_schema
from baton.contracts.ledger import LedgerSnapshot
from baton.messages import bilingual

STRATEGIES: tuple[str, ...] = ("full_history", "last_output", "window", "baton")
WINDOW_K = 3
BENCH_TOKEN_BUDGET = 3000
"""Baton's per-packet budget in the benchmark; when it binds, older history goes first (never must_keep)."""
RUN_ID = "bench-handoff"

NEEDED_KEYS: dict[AgentName, tuple[str, ...]] = {
    "sql": (data_key("insight"),),
    "quality": (data_key("sql"),),
    "stats": (data_key("sql"), data_key("quality")),
    "trend": (data_key("sql"),),
    "insight": (data_key("stats"), data_key("trend")),
    "report": (data_key("insight"), data_key("stats")),
}
BENCH_GRANTS = Grants(user_id="analyst-demo", pii_columns=frozenset({PII_COLUMN}), pii_allowed=False)


def agent_spec(agent: AgentName) -> AgentSpec:
    return AgentSpec(
        name=agent,
        instruction=INSTRUCTIONS[agent],
        output_model=OUTPUT_MODELS[agent],
        needed_keys=NEEDED_KEYS[agent],
    )


@dataclass(frozen=True)
class Delivery:
    """What one receiving agent was given, plus what the strategy carried as its memory."""

    step: int
    agent: str
    text: str
    tokens: int
    memory: tuple[str, ...]
    frame_hash: str | None = None


@dataclass(frozen=True)
class StrategyRun:
    name: str
    deliveries: tuple[Delivery, ...]
    ledger: LedgerSnapshot | None = None
    snapshots: tuple[LedgerSnapshot, ...] = ()
    batons: tuple[Baton, ...] = ()


def raw_message(step: ChainStep) -> str:
    """An agent's whole reply as chat-style frameworks pass it on."""
    report = step.report
    summary = report.result.summary if report.result is not None else ""
    lines = [
        f"## [{step.agent} · step {step.step}]",
        bilingual("prompt.bench_reasoning", reasoning=report.reasoning or ""),
        bilingual("prompt.bench_tool_output", output=step.tool_output),
    ]
    sep = bilingual("prompt.bench_item_sep")
    if step.new_constraints:
        lines.append(bilingual("prompt.bench_constraints_added", constraints=sep.join(step.new_constraints)))
    if step.notes:
        lines.append(bilingual("prompt.bench_notes", notes=step.notes))
    lines.append(f"Summary: {summary}")
    if report.issues:
        lines.append("Issues: " + sep.join(report.issues))
    lines.append("Output JSON: " + json.dumps(step.output.model_dump(mode="json"), ensure_ascii=False))
    return "\n".join(lines)


def _frame(step: ChainStep, title: str, body: Sequence[str]) -> str:
    model = OUTPUT_MODELS[step.agent]
    lines = [bilingual("prompt.task"), TASK.question]
    if TASK.goal:
        lines.append(TASK.goal)
    lines.append(bilingual("prompt.constraints"))
    lines += [f"- {c}" for c in INITIAL_CONSTRAINTS]
    lines.append(bilingual("prompt.bench_your_step", agent=step.agent, task_id=step.report.task_id))
    lines.append(INSTRUCTIONS[step.agent])
    lines.append(bilingual("prompt.project", project=PROJECT_CONTEXT))
    if body:
        lines.append(title)
        lines += list(body)
    lines.append(bilingual("prompt.answer_format"))
    lines.append(bilingual("prompt.reply_with", schema=outline_schema(output_schema(model))))
    return "\n".join(lines) + "\n"


def run_text_strategy(name: str, chain: Sequence[ChainStep]) -> StrategyRun:
    """full_history, last_output or window: earlier raw messages, selected by position."""
    messages = [raw_message(s) for s in chain]
    deliveries = []
    for idx, step in enumerate(chain):
        if name == "full_history":
            chosen = list(range(idx))
            title = bilingual("prompt.bench_full_history")
        elif name == "last_output":
            chosen = [idx - 1] if idx >= 1 else []
            title = bilingual("prompt.bench_last_output")
        elif name == "window":
            chosen = list(range(max(0, idx - WINDOW_K), idx))
            title = bilingual("prompt.bench_window", k=WINDOW_K)
        else:
            raise ValueError(f"unknown text strategy {name!r}")
        text = _frame(step, title, [messages[i] for i in chosen])
        memory = tuple(chain[i].report.task_id for i in chosen)
        deliveries.append(Delivery(step.step, step.agent, text, count_tokens(text), memory))
    return StrategyRun(name, tuple(deliveries))


def run_baton(chain: Sequence[ChainStep]) -> StrategyRun:
    """Baton, end to end through ``baton.context``: packet → agent report → merge → pass baton."""
    ledger = Ledger()
    records: list[StepRecord] = []
    deliveries: list[Delivery] = []
    snapshots: list[LedgerSnapshot] = []
    batons: list[Baton] = []
    for step in chain:
        spec = agent_spec(step.agent)
        prev = batons[-1] if batons else None
        snapshot = ledger.snapshot()
        snapshots.append(snapshot)
        context_id = f"ctx-{RUN_ID}-{step.step:03d}"
        packet, text = build_packet(
            PacketRequest(
                spec=spec,
                task=prev.task if prev else TASK,
                constraints=prev.constraints if prev else INITIAL_CONSTRAINTS,
                must_keep=prev.must_keep if prev else MustKeep(),
                snapshot=snapshot,
                history=tuple(records),
                step=step.step,
                project_context=PROJECT_CONTEXT,
                grants=BENCH_GRANTS,
                task_id=step.report.task_id,
                notes=prev.notes if prev else None,
                parent_context_id=prev.lineage.context_id if prev else None,
                context_id=context_id,
                token_budget=BENCH_TOKEN_BUDGET,
            )
        )
        deliveries.append(
            Delivery(
                step.step,
                step.agent,
                text,
                packet.token_count or 0,
                tuple(e.entry_id for e in snapshot.entries),
                integrity_hash(packet.task, packet.constraints),
            )
        )
        merge_report(ledger, step.report, agent=step.agent, step=step.step, context_id=context_id)
        if prev is None:
            baton = start_relay(
                TASK,
                step.output,
                run_id=RUN_ID,
                constraints=INITIAL_CONSTRAINTS + step.new_constraints,
                notes=step.notes,
                expected_output=spec.output_model,
                context_id=context_id,
            )
        else:
            baton = pass_baton(
                prev,
                step.output,
                new_constraints=step.new_constraints,
                notes=step.notes,
                expected_output=spec.output_model,
                context_id=context_id,
            )
        batons.append(baton)
        records.append(StepRecord(step.step, step.agent, step.output))
    check_chain(batons, [OUTPUT_MODELS[s.agent] for s in chain])
    final = ledger.snapshot()
    return StrategyRun("baton", tuple(deliveries), final, (*snapshots, final), tuple(batons))


def run_strategy(name: str, chain: Sequence[ChainStep]) -> StrategyRun:
    if name == "baton":
        return run_baton(chain)
    return run_text_strategy(name, chain)
