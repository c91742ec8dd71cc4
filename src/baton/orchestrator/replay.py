"""Resume and replay runs from the run store, the same way for every kind of run.

*Resume* continues a run from its last completed step through the run driver: completed steps
are read from their checkpoints, never re-run; the grants check and the firewall's approval
are checked again. *Replay* re-renders a run's answer from its checkpoints and evidence alone
(the warehouse may be gone), so it reproduces the report byte for byte; ``re_execute_run``
runs every recorded statement again, through the firewall as the same user, and says which
results changed (for example because the data version moved).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from baton.contracts.answer import Answer
from baton.contracts.run import RunKind
from baton.errors import InvalidInput
from baton.messages import both
from baton.orchestrator.driver import PipelineFactory, RunScope, drive, finalize, load_outputs
from baton.orchestrator.run import RunContext
from baton.orchestrator.session import Session
from baton.warehouse.compare import results_match


class ReExecution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    evidence_id: str
    changed: bool
    reason: str
    old_version: str
    new_version: str


def pipeline_for(kind: RunKind) -> PipelineFactory:
    """The pipeline a run of ``kind`` walks (the registry of run kinds)."""
    from baton.orchestrator.analyze import ANALYZE
    from baton.orchestrator.ask import ASK
    from baton.orchestrator.query import QUERY

    pipelines: dict[RunKind, PipelineFactory] = {"ask": ASK, "analyze": ANALYZE, "query": QUERY}
    return pipelines[kind]


def resume_run(session: Session, run_id: str) -> Answer:
    """Continue a run from its checkpoints (a finished run answers as it did)."""
    state = session.store.load(run_id)
    if state.status == "done" and state.answer is not None:
        return state.answer
    return drive(session, pipeline_for(state.kind), RunContext.resume(run_id, session.store, session.runs_dir))


def replay_run(session: Session, run_id: str) -> Answer:
    """The run's answer, rebuilt from checkpoints and evidence only (no warehouse access).

    A run that never finished its steps (refused, asked back, cancelled, stopped by a budget)
    replays as the answer it ended with; one with no answer at all must be resumed."""
    state = session.store.load(run_id)
    scope = RunScope(session, state, None, state.question)
    pipeline = pipeline_for(state.kind)(scope)
    load_outputs(pipeline, scope)
    finished = all(step.key in scope.outputs for step in pipeline.steps())
    if finished and state.status == "done":
        return finalize(pipeline, scope)
    if state.answer is not None:
        return state.answer
    raise InvalidInput(*both("answer.replay_unfinished", run_id=run_id))


def re_execute_run(session: Session, run_id: str) -> list[ReExecution]:
    """Every recorded statement run again as the run's user; which results changed."""
    state = session.store.load(run_id)
    governed = session.governed(state.user, state.language)
    out: list[ReExecution] = []
    for record in state.sql:
        old = state.evidence_by_id(record.evidence_id) if record.evidence_id is not None else None
        if old is None or old.result is None:
            continue
        fresh = governed.execute(governed.approve(record.draft, name=record.name), name=record.name)
        same, reason = results_match(fresh.rows, old.result.rows, ordered=True)
        out.append(
            ReExecution(
                name=record.name,
                evidence_id=old.evidence_id,
                changed=not same,
                reason=reason,
                old_version=old.source_version,
                new_version=fresh.data_version,
            )
        )
    return out
