"""RunContext: one run's state machine, trace, budgets and store, in one place.

Every agent step and every tool call goes through it, which is how the invariants hold
without each agent remembering them: a policy decision is traced before every tool call;
the state is saved after every transition; budgets are checked before work starts, so no
retry loop can run unbounded; completed steps are checkpointed so `baton runs resume`
continues where a crash stopped, without re-running them.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.contracts.query import QueryResult
from baton.contracts.run import Budget, Evidence, RunKind, RunState, SqlRecord, Step, Terminal
from baton.contracts.trace import EventType, TraceEvent
from baton.errors import BatonError, BudgetExceeded
from baton.messages import both
from baton.orchestrator.store import RunStore, SqliteRunStore
from baton.trace.writer import TraceWriter, args_hash

if TYPE_CHECKING:
    from baton.sql import ApprovedSql

T = TypeVar("T")

RunObserver = Callable[[RunState, TraceEvent | None], None]
"""Told of a run's moves as they happen (``baton serve`` streams them): each trace event, and
``None`` when the run enters a state. Called on the run's thread; it must not raise."""


def new_run_id() -> str:
    return "run_" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "_" + secrets.token_hex(3)


def open_store(runs_dir: Path) -> SqliteRunStore:
    return SqliteRunStore(runs_dir / "runs.sqlite")


class _IndexedTrace(TraceWriter):
    """The run's trace file, its events indexed in the run store with the next state save (one
    commit per checkpoint, not one per event); what is left is indexed when the trace closes."""

    def __init__(
        self, run_id: str, directory: Path, store: RunStore, told: Callable[[TraceEvent], None] | None = None
    ) -> None:
        super().__init__(run_id, directory)
        self._store = store
        self._told = told
        self._unindexed: list[TraceEvent] = []

    def emit(self, type_: EventType, actor: str = "baton", **payload: Any) -> TraceEvent:
        event = super().emit(type_, actor, **payload)
        self._unindexed.append(event)
        if self._told is not None:
            self._told(event)
        return event

    def unindexed(self) -> list[TraceEvent]:
        """The events not indexed yet (handed to the store, so forgotten here)."""
        events, self._unindexed = self._unindexed, []
        return events

    def close(self) -> None:
        if self._unindexed:
            self._store.index_events(self.unindexed())
        super().close()


class RunContext:
    def __init__(
        self,
        state: RunState,
        store: RunStore,
        runs_dir: Path,
        *,
        resumed: bool = False,
        observer: RunObserver | None = None,
    ) -> None:
        self.state = state
        self.store = store
        self.resumed = resumed
        self.observer = observer
        told = (lambda event: observer(self.state, event)) if observer is not None else None
        self.trace = _IndexedTrace(state.run_id, runs_dir, store, told)
        self.started = time.perf_counter()
        self.current_step: str | None = None
        """The pipeline step running now (the run driver sets it; statements are recorded with it)."""
        if resumed:
            self.trace.emit("run_started", resumed=True, step=state.step, completed=list(state.completed_steps))
        self.save()

    # -- construction --------------------------------------------------------------------
    @classmethod
    def start(
        cls,
        *,
        kind: RunKind,
        question: str,
        user: str,
        language: Language,
        as_of: date,
        store: RunStore,
        runs_dir: Path,
        budget: Budget | None = None,
        config_path: str | None = None,
        run_id: str | None = None,
        question_limit: int = 2000,
        conversation_id: str | None = None,
        parent_run_id: str | None = None,
        observer: RunObserver | None = None,
    ) -> RunContext:
        state = RunState(
            run_id=run_id or new_run_id(),
            kind=kind,
            question=question[:question_limit],
            user=user,
            language=language,
            as_of=as_of,
            started_at=datetime.now(UTC),
            budget=budget or Budget(),
            config_path=config_path,
            conversation_id=conversation_id,
            parent_run_id=parent_run_id,
        )
        ctx = cls(state, store, runs_dir, observer=observer)
        ctx.trace.emit(
            "run_started",
            question=state.question,
            user=user,
            as_of=as_of.isoformat(),
            entry=kind,
            budget=state.budget.model_dump(),
            conversation_id=conversation_id,
            parent_run_id=parent_run_id,
        )
        return ctx

    @classmethod
    def resume(cls, run_id: str, store: RunStore, runs_dir: Path) -> RunContext:
        state = store.load(run_id)
        state.status = "running"
        state.finished_at = None
        return cls(state, store, runs_dir, resumed=True)

    # -- state machine ---------------------------------------------------------------------
    def save(self) -> None:
        self.store.save(self.state, self.trace.unindexed())

    def enter(self, step: Step) -> None:
        """Start a state-machine step (saved with the step's checkpoint when it completes)."""
        self._charge_step()
        self.state.step = step
        if self.observer is not None:
            self.observer(self.state, None)

    def complete(self, step: str, checkpoint: Any = None) -> None:
        """Mark a step (a state or a relay agent) done, with what it produced."""
        if step not in self.state.completed_steps:
            self.state.completed_steps.append(step)
        if checkpoint is not None:
            self.state.checkpoints[step] = checkpoint
        self.save()

    def completed(self, step: str) -> Any | None:
        return self.state.checkpoints.get(step) if step in self.state.completed_steps else None

    def discard(self, steps: list[str], reason: str) -> None:
        """Forget finished steps (resume found their approvals no longer hold): their
        checkpoints, statements and the evidence only they used; they run again."""
        if not steps:
            return
        state = self.state
        dropped = [r for r in state.sql if r.step in steps or r.step is None]
        state.sql = [r for r in state.sql if r not in dropped]
        kept_evidence = {r.evidence_id for r in state.sql}
        state.evidence = [e for e in state.evidence if e.evidence_id in kept_evidence]
        state.completed_steps = [s for s in state.completed_steps if s not in steps]
        for step in steps:
            state.checkpoints.pop(step, None)
        state.grants_fingerprint = state.policy_version = None
        state.answer, state.error = None, None  # an earlier answer was built from what is discarded
        self.policy_decision("discard", gate="resume", steps=steps, reason=reason, statements=len(dropped))
        self.save()

    def finish(self, status: Terminal, answer: Answer | None = None, error: dict[str, Any] | None = None) -> None:
        self.state.step = status
        self.state.status = status
        self.state.answer = answer
        self.state.error = error
        self.state.finished_at = datetime.now(UTC)
        self.save()
        if answer is not None:
            self.trace.emit("answer_created", status=answer.status, answer=answer.answer[:2000])
        self.trace.emit(
            "run_finished",
            status=status,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 3),
            cost=self.state.usage.model_dump(),
        )
        self.trace.close()

    # -- budgets -------------------------------------------------------------------------
    def charge_step(self) -> None:
        """One unit of work (a state or an agent step) against the step budget."""
        self._charge_step()

    def _charge_step(self) -> None:
        self.state.usage.steps += 1
        if self.state.usage.steps > self.state.budget.max_steps:
            raise BudgetExceeded(
                *both("runs.steps_exceeded", limit=self.state.budget.max_steps),
                detail={"budget": "max_steps", "limit": self.state.budget.max_steps},
            )

    def charge_tokens(self, tokens: int) -> None:
        self.state.usage.tokens += tokens
        if self.state.usage.tokens > self.state.budget.max_tokens:
            raise BudgetExceeded(
                *both("runs.tokens_exceeded", limit=self.state.budget.max_tokens),
                detail={"budget": "max_tokens", "limit": self.state.budget.max_tokens},
            )

    def charge_cost(self, cost: float) -> None:
        self.state.usage.cost += cost
        limit = self.state.budget.max_cost
        if limit is not None and self.state.usage.cost > limit:
            raise BudgetExceeded(
                *both("runs.cost_exceeded", limit=limit),
                detail={"budget": "max_cost", "limit": limit},
            )

    def affords(self, tool_calls: int, cost: float) -> bool:
        """Whether this many more tool calls and this much more cost stay within the budget (a
        batch of statements started together must not be able to run past it)."""
        usage, budget = self.state.usage, self.state.budget
        within_cost = budget.max_cost is None or usage.cost + cost <= budget.max_cost
        return usage.tool_calls + tool_calls <= budget.max_tool_calls and within_cost

    # -- tools -----------------------------------------------------------------------------
    def policy_decision(self, decision: str, **payload: Any) -> None:
        self.trace.emit("policy_decision", decision=decision, **payload)

    def tool_call(
        self,
        tool: str,
        args: dict[str, Any],
        fn: Callable[[], T],
        describe: Callable[[T], dict[str, Any]] | None = None,
    ) -> T:
        """Run one tool call under the tool-call budget, traced with latency and outcome
        (and what ``describe`` says of the result, e.g. a model call's tokens).

        The caller must have traced the policy decision that allows it (tests check the order).
        """
        if self.state.usage.tool_calls >= self.state.budget.max_tool_calls:
            raise BudgetExceeded(
                *both("runs.tool_calls_exceeded", limit=self.state.budget.max_tool_calls),
                detail={"budget": "max_tool_calls", "limit": self.state.budget.max_tool_calls},
            )
        self.state.usage.tool_calls += 1
        started = time.perf_counter()

        def traced(ok: bool, error_code: str | None, **failure: Any) -> None:
            self.trace.emit(
                "tool_call",
                tool=tool,
                args_hash=args_hash(args),
                latency_ms=round((time.perf_counter() - started) * 1000, 3),
                ok=ok,
                error_code=error_code,
                **failure,
            )

        try:
            result = fn()
        except Exception as exc:
            # the trace keeps what the tool said: the error's internal part (an engine's text)
            said = {"error": exc.to_trace_dict("en")} if isinstance(exc, BatonError) else {}
            traced(False, getattr(exc, "error_code", "tool_failure"), **said)
            raise
        traced(True, None, **(describe(result) if describe is not None else {}))
        return result

    def record_query(self, name: str, approved: ApprovedSql, result: QueryResult, *, user: str) -> None:
        """A statement's lifecycle (draft -> approved id -> evidence), kept for audit and re-execution."""
        self.state.sql.append(
            SqlRecord(
                name=name,
                draft=approved.original_sql,
                approved_sql_id=approved.approved_sql_id,
                approved_sql=approved.sql,
                evidence_id=result.evidence_id,
                step=self.current_step,
            )
        )
        if self.state.grants_fingerprint is None:
            self.state.grants_fingerprint, self.state.policy_version = (
                approved.grants_fingerprint,
                approved.policy_version,
            )
        self.add_query_evidence(result, name=name, user=user)

    def log_statement(self, approved: ApprovedSql) -> None:
        """A statement about to run, counted whether it then succeeds or fails (an error is an
        answer too), for per-user query budgets."""
        self.store.log_statement(self.state.run_id, approved.user, approved.approved_sql_id, approved.tables)

    def statements_since(self, user: str, tables: Sequence[str], since: datetime) -> int:
        """How many statements ``user`` ran on any of ``tables`` since ``since`` (every run)."""
        return self.store.count_statements(user, tables, since)

    def add_query_evidence(self, result: QueryResult, *, name: str, user: str) -> Evidence:
        existing = self.state.evidence_by_id(result.evidence_id)
        if existing is not None:
            return existing
        evidence = Evidence(
            evidence_id=result.evidence_id,
            source_type="query_result",
            source_uri=f"approved_sql:{result.approved_sql_id}",
            source_version=result.data_version,
            excerpt=f"{name}: {result.row_count} rows, columns {', '.join(c.name for c in result.columns)}",
            confidence=1.0,
            acl={"owner": user, "visibility": "private"},
            result=result,
        )
        self.state.evidence.append(evidence)
        self.trace.emit(
            "evidence_selected", evidence_ids=[evidence.evidence_id], name=name, data_version=result.data_version
        )
        return evidence


def record_failed_run(
    *,
    runs_dir: Path,
    kind: RunKind,
    question: str,
    user: str,
    language: Language,
    as_of: date,
    error: dict[str, Any],
) -> str:
    """Persist a run that failed before a session existed (bad config, unreadable input)."""
    store = open_store(runs_dir)
    try:
        ctx = RunContext.start(
            kind=kind, question=question, user=user, language=language, as_of=as_of, store=store, runs_dir=runs_dir
        )
        ctx.policy_decision("stop", error=error)
        ctx.finish("failed", None, error=error)
        return ctx.state.run_id
    finally:
        store.close()
