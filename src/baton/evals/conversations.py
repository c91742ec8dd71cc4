"""The conversation eval: chains of two to four turns, every turn graded by executing gold SQL.

A case is one conversation (JSONL, one per line): its turns in order, each with the status
it must end in, the kind of run it must be (a why-question turns into an analysis), the gold
SQL of the question *as the conversation means it* (or, for an analysis, the scope it must be
about) and what the follow-up inherits. The turns run as one :class:`~baton.orchestrator.
conversation.Conversation` on the real pipeline; each turn is scored like an eval case
(right, asked back, silently wrong). A turn is right only if its interpretation names every
part it inherited — the reader must see what was carried over.
"""

from __future__ import annotations

import time
from datetime import date
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from baton.config import Settings
from baton.contracts.answer import Answer
from baton.contracts.semantic import SemanticQuery
from baton.evals.runner import CaseResult, EvalCase, EvalReport, Outcome, Split, compare_answer, gold_rows, load_jsonl
from baton.messages import text
from baton.orchestrator.session import Session


class TurnCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    question: str
    expect_status: Literal["answered", "clarification_needed", "refused", "failed"]
    expect_kind: Literal["ask", "analyze"] = "ask"
    expect_code: str | None = None
    gold_sql: str | None = None
    gold_scope: dict[str, Any] | None = None
    ordered: bool = False
    changes: tuple[str, ...] = ()
    inherits: tuple[str, ...] = ()


class ConversationCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: str
    split: Split = "dev"
    lang: Literal["zh", "en"]
    as_of: date = date(2026, 7, 1)
    user: str | None = None
    phrasing: str = "follow_up"
    turns: tuple[TurnCase, ...]


def default_conversations() -> Path:
    return Path(str(resources.files("baton.demo").joinpath("data/eval/conversations.jsonl")))


def load_conversations(path: Path) -> list[ConversationCase]:
    return load_jsonl(path, ConversationCase)


def grade_conversation(session: Session, case: ConversationCase) -> list[CaseResult]:
    """Every turn of one conversation, run in order on one conversation."""
    chain = session.conversation(user=case.user or session.user)
    results = []
    for number, turn in enumerate(case.turns, start=1):
        started = time.perf_counter()
        answer = chain.ask(turn.question, as_of=case.as_of)
        ok, reason = _grade_turn(session, case, turn, answer)
        outcome: Outcome = "right" if ok else "silently_wrong" if answer.status == "answered" else "asked_back"
        results.append(
            CaseResult(
                id=f"{case.id}#{number}",
                split=case.split,
                phrasing=case.phrasing,
                run_id=answer.run_id,
                lang=case.lang,
                outcome=outcome,
                status=answer.status,
                reason=reason,
                seconds=round(time.perf_counter() - started, 3),
            )
        )
    return results


def _grade_turn(session: Session, case: ConversationCase, turn: TurnCase, answer: Answer) -> tuple[bool, str]:
    if answer.status != turn.expect_status:
        detail = f" ({answer.error.code}: {answer.error.message})" if answer.error else ""
        return False, f"status {answer.status} != {turn.expect_status}{detail}"
    if turn.expect_code is not None and (answer.error is None or answer.error.code != turn.expect_code):
        return False, f"code {answer.error.code if answer.error else None} != {turn.expect_code}"
    if answer.status != "answered":
        return True, "ok"
    kind = session.store.load(answer.run_id).kind
    if kind != turn.expect_kind:
        return False, f"kind {kind} != {turn.expect_kind}"
    said = _names_inherited(answer, turn) or _names_changed(answer, turn)
    if said is not None:
        return False, said
    if turn.gold_scope is not None:
        return _scope_matches(answer, turn.gold_scope)
    if turn.gold_sql is None:
        return False, "answered turn without gold SQL or scope"
    gold = EvalCase(
        id=case.id, question=turn.question, lang=case.lang, expect_status="answered", gold_sql=turn.gold_sql
    )
    return compare_answer(answer, *gold_rows(session, gold), ordered=turn.ordered)


def _names_inherited(answer: Answer, turn: TurnCase) -> str | None:
    """Why the interpretation fails to name what the follow-up inherited (None: it does)."""
    if not turn.inherits:
        return None
    info, said = answer.follow_up, answer.interpretation or ""
    if info is None:
        return "no follow-up information on the answer"
    missing = [p for p in turn.inherits if p not in info.inherited]
    if missing:
        return f"did not inherit {missing} (inherited {list(info.inherited)})"
    unnamed = [p for p in turn.inherits if text(f"conversation.part_{p}", answer.language) not in said]
    return f"interpretation does not name {unnamed}" if unnamed else None


def _names_changed(answer: Answer, turn: TurnCase) -> str | None:
    """Why the follow-up fails to say what the case says it changed (None: it does) — a turn read
    as another change ("only flights from JFK" read as a new metric) is no right answer."""
    if not turn.changes:
        return None
    info = answer.follow_up
    if info is None:
        return "no follow-up information on the answer"
    missing = [p for p in turn.changes if p not in info.changed]
    return f"did not change {missing} (changed {list(info.changed)})" if missing else None


def _scope_matches(answer: Answer, scope: dict[str, Any]) -> tuple[bool, str]:
    """An analysis turn: about the right metric, members and period."""
    query = answer.semantic_query
    if query is None:
        return False, "analysis without a query"
    if scope.get("metric") and scope["metric"] not in query.metrics:
        return False, f"metric {query.metrics} != {scope['metric']}"
    wanted = {dim: set(members) for dim, members in (scope.get("filters") or {}).items()}
    got = {f.dimension: set(f.members) for f in query.filters if not f.exclude}
    if wanted != got:
        return False, f"filters {got} != {wanted}"
    period = scope.get("period")
    if period and [query.time_range.start.isoformat(), query.time_range.end.isoformat()] != list(period):
        return False, f"period {query.time_range.start}..{query.time_range.end} != {period}"
    return _baseline_matches(query, scope)


def _baseline_matches(query: SemanticQuery, scope: dict[str, Any]) -> tuple[bool, str]:
    """An analysis explains a change against a baseline: the scope's ``comparison`` period, else
    the period before the analysed one (what "why did it drop" compares with)."""
    from baton.nlu.timeexpr import comparison_range

    if query.comparison is None:
        return False, "analysis without a comparison period"
    got = [query.comparison.range.start.isoformat(), query.comparison.range.end.isoformat()]
    wanted = scope.get("comparison")
    if wanted is None:
        rng = query.time_range
        start, end = comparison_range("previous_period", rng.start, rng.end, as_of=query.as_of)
        wanted = [start.isoformat(), end.isoformat()]
    if got != list(wanted):
        return False, f"comparison {got[0]}..{got[1]} != {wanted}"
    return True, "ok"


def run_conversations(settings: Settings, path: Path | None = None, *, split: str | None = None) -> EvalReport:
    path = path or default_conversations()
    cases = [c for c in load_conversations(path) if split is None or c.split == split]
    session = Session(settings, remember=False)
    try:
        results = [r for case in cases for r in grade_conversation(session, case)]
    finally:
        session.close()
    return EvalReport(datasets=[str(path)], cases=results)


__all__ = ["ConversationCase", "TurnCase", "default_conversations", "load_conversations", "run_conversations"]
