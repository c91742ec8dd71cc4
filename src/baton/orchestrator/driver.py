"""The one run driver: every kind of run (ask, analyze) walks here.

A pipeline is a sequence of typed steps. The driver starts or resumes the run, walks the
steps — a finished step is read back from its checkpoint (validated into its output model),
never run again; an unfinished one enters its state, runs, and is checkpointed — then builds
the answer from the checkpoints (the same function replay calls), passes it through the output
gate and finishes the run. Budgets, cancellation (Ctrl-C), typed failures, partial answers and
internal errors are handled here once, the same way for every kind of run.

On resume, a finished step that declares a ``recheck`` (the grants check, the firewall's
approval) is checked again as the user is now permitted, before any later step uses it.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from baton.contracts.answer import Answer, ErrorInfo, Status
from baton.contracts.common import Language
from baton.contracts.gate import GateDecision
from baton.contracts.query import QueryResult, TableLoad
from baton.contracts.run import Budget, RunKind, RunState, Step, Terminal
from baton.contracts.semantic import SemanticQuery
from baton.errors import (
    AmbiguousQuestion,
    BatonError,
    BudgetExceeded,
    InsufficientEvidence,
    InternalFailure,
    InvalidInput,
    PolicyRefusal,
    QuestionRefused,
    TimeExpressionError,
    UnknownMetric,
    UserCancelled,
)
from baton.messages import both, text, use_examples
from baton.orchestrator.run import RunContext

if TYPE_CHECKING:
    from baton.orchestrator.governed import GovernedQuery
    from baton.orchestrator.session import Session
    from baton.policy.output_gate import ClaimSupport

Out = TypeVar("Out", bound=BaseModel)


class RunScope:
    """One run as its steps see it: the session, the run's state and the outputs so far.

    ``ctx`` is ``None`` on replay (nothing may run; only checkpoints are read)."""

    def __init__(self, session: Session, state: RunState, ctx: RunContext | None, question: str) -> None:
        self.session = session
        self.state = state
        self.ctx = ctx
        self.question = question
        self.outputs: dict[str, BaseModel] = {}

    @property
    def language(self) -> Language:
        return self.state.language

    @property
    def running(self) -> RunContext:
        if self.ctx is None:
            raise InvalidInput(*both("answer.replay_cannot_run"))
        return self.ctx

    @cached_property
    def governed(self) -> GovernedQuery:
        """The run's governed query path: firewall as the run's user, traced into the run."""
        return self.session.governed(self.state.user, self.language, self.running)

    def get(self, key: str, model: type[Out]) -> Out | None:
        out = self.outputs.get(key)
        return out if isinstance(out, model) else None

    def need(self, key: str, model: type[Out]) -> Out:
        out = self.get(key, model)
        if out is None:
            raise InvalidInput(*both("answer.missing_step", step=key, run_id=self.state.run_id))
        return out

    def result_of(self, evidence_id: str) -> QueryResult:
        """The query result a step recorded as evidence (live and on replay)."""
        evidence = self.state.evidence_by_id(evidence_id)
        if evidence is None or evidence.result is None:
            raise InsufficientEvidence(*both("answer.evidence_missing", evidence_id=evidence_id))
        return evidence.result

    def freshness_of(self, tables: Sequence[str]) -> list[TableLoad]:
        """How fresh ``tables`` are: the warehouse's freshness read once per run, as a traced
        tool call (system metadata from the catalog's freshness source, allowed for every user)."""
        ctx, governed = self.running, self.governed
        ctx.policy_decision("allow", tool="warehouse.freshness", reason="system metadata (catalog freshness source)")
        read = list(tables)
        return ctx.tool_call("warehouse.freshness", {"tables": read}, governed.freshness).for_tables(read)


@dataclass(frozen=True)
class StepSpec(Generic[Out]):
    """One step of a pipeline: its checkpoint key, output model and what it does."""

    key: str
    output: type[Out]
    run: Callable[[], Out]
    state: Step | None = None
    absorb: Callable[[Out], None] | None = None
    recheck: Callable[[Out], Out] | None = None


@dataclass
class GateInput:
    """What the output gate checks an answer's text against."""

    evidence: list[list[Any]]
    derived: list[Any]
    labels: list[str]
    claims: ClaimSupport | None = None
    pii_allowed: bool = False
    regenerate: Callable[[], str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Pipeline:
    """A kind of run. Subclasses list their steps, build the answer from checkpoints, and say
    what the gate checks it against; one instance serves one run."""

    kind: ClassVar[RunKind]
    question_limit: ClassVar[int] = 2000
    """How much of the question the run keeps (a resumed run reads it back from the state)."""

    def __init__(self, scope: RunScope) -> None:
        self.scope = scope

    def steps(self) -> Sequence[StepSpec[Any]]:
        raise NotImplementedError

    def compose(self) -> Answer:
        """The answered Answer as a pure function of the checkpoints (live and on replay)."""
        raise NotImplementedError

    def gate_input(self, answer: Answer) -> GateInput:
        raise NotImplementedError

    def partial(self, exc: BudgetExceeded) -> Answer:
        """Stopped by a budget: what the finished steps produced, marked partial."""
        return failure_answer(self.scope.state, exc, self.scope.state.semantic_query)


PipelineFactory = Callable[[RunScope], Pipeline]


def start(
    session: Session,
    factory: PipelineFactory,
    question: str,
    *,
    as_of: date | None = None,
    user: str | None = None,
    budget: Budget | None = None,
    run_id: str | None = None,
    language: Language | None = None,
    conversation_id: str | None = None,
    parent_run_id: str | None = None,
) -> Answer:
    """Start a run of ``factory``'s kind for ``question`` and drive it to its end; the run
    speaks ``language``, else the question's (a command line has no language of its own)."""
    from baton.nlu.gate import detect_language

    if language is None:
        language = "zh" if detect_language(question or "") == "zh" else "en"
    kind: RunKind = getattr(factory, "kind")  # noqa: B009 - a Pipeline class
    ctx = RunContext.start(
        kind=kind,
        question=question,
        user=user or session.user,
        language=language,
        as_of=as_of or session.settings.as_of or date.today(),
        store=session.store,
        runs_dir=session.runs_dir,
        budget=budget or session.settings.budget,
        config_path=str(session.settings.config_path),
        run_id=run_id,
        question_limit=getattr(factory, "question_limit", 2000),
        conversation_id=conversation_id,
        parent_run_id=parent_run_id,
        observer=session.observer,
    )
    if conversation_id is not None:
        session.store.add_turn(conversation_id, ctx.state.run_id)
    return drive(session, factory, ctx, question)


def drive(session: Session, factory: PipelineFactory, ctx: RunContext, question: str | None = None) -> Answer:
    """Run (or continue) ``ctx``'s run: the step loop, the answer, the gate, the one error block.

    The state keeps at most ``question_limit`` characters of the question (2,000); the planner sees ``question``
    (the full text) on a fresh run, so an oversized question is refused, not silently cut."""
    from baton.orchestrator.examples import example_terms

    with use_examples(
        example_terms(session.planning_catalog)
    ):  # its messages name this catalog's terms, members read from the data too
        return _drive(session, factory, ctx, question)


def _drive(session: Session, factory: PipelineFactory, ctx: RunContext, question: str | None) -> Answer:
    state = ctx.state
    scope = RunScope(session, state, ctx, question if question is not None else state.question)
    pipeline = factory(scope)
    try:
        _walk(pipeline, scope, ctx)
        answer = finalize(pipeline, scope)
        ctx.finish(terminal_of(answer.status), answer)
    except KeyboardInterrupt:
        exc = UserCancelled(*both("answer.cancelled"))
        ctx.policy_decision("stop", error=exc.to_trace_dict(state.language))
        ctx.finish("cancelled", failure_answer(state, exc, state.semantic_query), error=exc.to_dict(state.language))
        raise
    except BudgetExceeded as exc:
        answer = pipeline.partial(exc)
        ctx.policy_decision("stop", gate="cost", error=exc.to_trace_dict(state.language))
        ctx.finish("failed", answer, error=exc.to_dict(state.language))
    except BatonError as exc:
        answer = failure_answer(state, exc, state.semantic_query)
        # the trace keeps the error's internal part (an engine's text); the answer and the
        # stored run keep only what the user may read
        ctx.policy_decision(
            "deny" if isinstance(exc, PolicyRefusal) else "stop", error=exc.to_trace_dict(state.language)
        )
        ctx.finish(terminal_of(answer.status), answer, error=exc.to_dict(state.language))
    except Exception as exc:
        ctx.trace.emit(
            "tool_call", tool="internal", ok=False, error_code="tool_failure", traceback=traceback.format_exc()
        )
        error = InternalFailure(*both("answer.internal_error", error=type(exc).__name__))
        answer = failure_answer(state, error, state.semantic_query)
        ctx.finish("failed", answer, error=error.to_dict(state.language))
    return answer


def _walk(pipeline: Pipeline, scope: RunScope, ctx: RunContext) -> None:
    steps = list(pipeline.steps())
    if ctx.resumed:
        _discard_stale(steps, scope, ctx)
    for index, step in enumerate(steps):
        ctx.current_step = step.key
        saved = ctx.completed(step.key)
        if saved is None:
            if step.state is not None:
                ctx.enter(step.state)
            else:
                ctx.charge_step()  # every step counts against the step budget
            output = step.run()
            ctx.complete(step.key, output.model_dump(mode="json"))
        else:
            output = step.output.model_validate(saved)
            later_open = any(ctx.completed(s.key) is None for s in steps[index + 1 :])
            if ctx.resumed and step.recheck is not None and later_open:
                output = step.recheck(output)
        scope.outputs[step.key] = output
        if step.absorb is not None:
            step.absorb(output)


def _discard_stale(steps: list[StepSpec[Any]], scope: RunScope, ctx: RunContext) -> None:
    """Resumed: every statement a finished step ran is approved again as the user is now
    permitted (a refusal ends the run). The first step whose approvals changed — other grants,
    another policy version — is discarded with every step after it, so no result read under
    the old grants reaches the new answer; those steps run again."""
    state = ctx.state
    finished = [step.key for step in steps if ctx.completed(step.key) is not None]
    if not state.sql or not finished:
        return
    legacy = any(record.step is None for record in state.sql)  # stored before statements knew their step
    for index, key in enumerate(finished):
        records = state.sql if legacy else [r for r in state.sql if r.step == key]
        if not records:
            continue
        fresh = [scope.governed.approve(r.draft, name=r.name, recheck=True).approved_sql_id for r in records]
        if fresh != [r.approved_sql_id for r in records]:
            ctx.discard(finished[index:], reason="approval_changed")
            return
        if legacy:
            return


def load_outputs(pipeline: Pipeline, scope: RunScope) -> None:
    """Every finished step's checkpoint, validated into its output model (replay)."""
    for step in pipeline.steps():
        saved = scope.state.checkpoints.get(step.key) if step.key in scope.state.completed_steps else None
        if saved is not None:
            scope.outputs[step.key] = step.output.model_validate(saved)


def finalize(pipeline: Pipeline, scope: RunScope) -> Answer:
    """Checkpoints -> Answer -> output gate; the same path live and on replay. A narrative the
    gate blocks is regenerated once when the pipeline can, then refused (``output_blocked``)."""
    from baton.policy.output_gate import check_output, refusal

    answer = pipeline.compose()
    gate = pipeline.gate_input(answer)

    def check(candidate: str) -> GateDecision:
        return check_output(
            candidate,
            evidence=gate.evidence,
            derived=gate.derived,
            language=answer.language,
            claims=gate.claims,
            pii_allowed=gate.pii_allowed,
            labels=gate.labels,
        )

    shown, decision = answer.answer, check(answer.narrative())
    if not decision.ok and gate.regenerate is not None:
        first = decision
        shown = gate.regenerate()
        decision = check(shown)
        action = "regenerated" if decision.ok else "refused"
        decision = decision.model_copy(update={"action": action, "replaced": first.violations})
    elif not decision.ok:
        decision = decision.model_copy(update={"action": "refused"})
    if scope.ctx is not None:
        scope.ctx.trace.emit("policy_decision", **gate_event(decision))
    if decision.ok:
        return answer.model_copy(update={"answer": shown, "gate": decision})
    blocked = failure_answer(scope.state, refusal(decision, answer.language), answer.semantic_query)
    return blocked.model_copy(update={"gate": decision})


def gate_event(decision: GateDecision) -> dict[str, Any]:
    """The output gate's decision as a trace payload (the decision is traced, not just taken)."""
    return {
        "gate": "output",
        "decision": "allow" if decision.ok else "deny",
        "action": decision.action,
        "numbers_checked": decision.numbers_checked,
        "violations": [v.model_dump() for v in [*decision.replaced, *decision.violations]],
        "rounding_rule": decision.rounding_rule,
    }


def base_fields(state: RunState) -> dict[str, Any]:
    """The fields every Answer of a run carries."""
    return {
        "run_id": state.run_id,
        "question": state.question,
        "language": state.language,
        "user": state.user,
        "as_of": state.as_of,
        "interpretation": state.interpretation,
        "conversation_id": state.conversation_id,
        "follow_up": state.follow_up,
    }


TERMINAL_OF: dict[Status, Terminal] = {
    "answered": "done",
    "clarification_needed": "asked_back",
    "refused": "refused",
    "failed": "failed",
}
"""How a run ends for each kind of answer (the web app's progress stream reads the same table)."""


def terminal_of(status: Status) -> Terminal:
    return TERMINAL_OF[status]


STATUS_OF_ERROR: tuple[tuple[type[BatonError], Status], ...] = (
    (AmbiguousQuestion, "clarification_needed"),
    (TimeExpressionError, "clarification_needed"),  # a date that does not exist, or has no data yet
    (PolicyRefusal, "refused"),
    (UnknownMetric, "refused"),
    (QuestionRefused, "refused"),
)
"""The status a run ends with when a question is not answered: asked back for what the user can
restate, refused for what Baton will not compute or may not do; anything else failed (Baton,
a tool or the warehouse did)."""


def status_for(exc: BatonError) -> Status:
    return next((status for kind, status in STATUS_OF_ERROR if isinstance(exc, kind)), "failed")


def failure_answer(state: RunState, exc: BatonError, query: SemanticQuery | None) -> Answer:
    """A run that ended without an answer: its status, the typed error and its message."""
    language = state.language
    return Answer(
        **base_fields(state),
        status=status_for(exc),
        answer=exc.message(language),
        semantic_query=query,
        error=ErrorInfo(code=exc.error_code, message=exc.message(language), detail=_jsonable(exc.detail)),
        suggestions=[str(s) for s in exc.detail.get("suggestions", [])],
    )


def stopped_text(state: RunState, exc: BudgetExceeded) -> str:
    """What a budget stop says: the limit, the finished steps, and that the rest is partial."""
    finished = ", ".join(state.completed_steps) or "-"
    return text("answer.budget_stopped", state.language, message=exc.message(state.language), finished=finished)


def _jsonable(detail: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, str | int | float | bool | list | dict | type(None)) else str(v))
        for k, v in detail.items()
    }
