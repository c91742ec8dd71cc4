"""Resume and replay runs from the run store, the same way for every kind of run.

*Resume* continues a run from its last completed step through the run driver, as the run's
owner and under the grants they hold now: every finished step's statements are approved
again, and a step whose approval changed is recomputed with everything after it (the driver's
``_discard_stale``). *Replay* re-renders a run's answer from its checkpoints and evidence
alone (the warehouse may be gone), so it reproduces the report byte for byte — shown only to
the owner while their grants are unchanged, or to a ``runs: all`` user (:mod:`access`).
``re_execute_run`` runs the question again as a new run under today's grants and says which
statements' results changed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from baton.contracts.answer import Answer
from baton.contracts.query import QueryResult
from baton.contracts.run import RunKind
from baton.errors import InvalidInput
from baton.messages import both
from baton.orchestrator.access import check_can_continue, check_can_view, check_data_visible, recorded_fingerprint
from baton.orchestrator.driver import PipelineFactory, RunScope, drive, finalize, load_outputs, start
from baton.orchestrator.run import RunContext
from baton.orchestrator.session import Session
from baton.warehouse.compare import results_match


class ReExecution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    evidence_id: str
    new_evidence_id: str
    changed: bool
    reason: Literal["same", "row_count", "values"]
    """What changed — never the rows themselves (the old ones may be outside today's grants)."""
    old_version: str
    new_version: str
    grants_changed: bool = False


_REGISTERED: dict[RunKind, PipelineFactory] = {}
"""Run kinds a higher package defines (``baton.exports``: ``export``), registered on import."""


def register_pipeline(kind: RunKind, factory: PipelineFactory) -> None:
    """Make a run kind defined above the orchestrator resumable and replayable."""
    _REGISTERED[kind] = factory


def pipeline_for(kind: RunKind) -> PipelineFactory:
    """The pipeline a run of ``kind`` walks (the registry of run kinds)."""
    from baton.orchestrator.analyze import ANALYZE
    from baton.orchestrator.ask import ASK
    from baton.orchestrator.query import QUERY
    from baton.orchestrator.sql_run import SQL

    pipelines: dict[RunKind, PipelineFactory] = {"ask": ASK, "analyze": ANALYZE, "query": QUERY, "sql": SQL}
    pipelines.update(_REGISTERED)
    if kind not in pipelines:  # a kind whose package this process has not loaded
        raise InvalidInput(*both("runs.kind_not_loaded", kind=kind), detail={"kind": kind})
    return pipelines[kind]


def resume_run(session: Session, run_id: str, user: str | None = None) -> Answer:
    """Continue a run from its checkpoints, as its owner (``user`` must be the owner). A
    finished run answers as it did only while the owner's grants hold; otherwise it is refused
    (permission_denied) — old rows never come back under new grants."""
    state = session.store.load(run_id)
    check_can_continue(session, state, user)
    if state.status == "done" and state.answer is not None:
        check_data_visible(session, state, user)
        return state.answer
    return drive(session, pipeline_for(state.kind), RunContext.resume(run_id, session.store, session.runs_dir))


def replay_run(session: Session, run_id: str, user: str | None = None) -> Answer:
    """The run's answer, rebuilt from checkpoints and evidence only (no warehouse access),
    for a user who may see its data today (:func:`access.check_data_visible`).

    A run that did not finish as ``done`` (refused, asked back, cancelled, failed, stopped by a
    budget) replays as the answer it ended with, never as answered; one with no answer at all
    must be resumed."""
    state = session.store.load(run_id)
    check_data_visible(session, state, user)
    if state.status != "done":
        if state.answer is not None:
            return state.answer
        raise InvalidInput(*both("answer.replay_unfinished", run_id=run_id))
    if state.kind not in ("ask", "analyze", "query", "sql", *_REGISTERED) and state.answer is not None:
        return state.answer  # a kind this process has not loaded: the answer it ended with
    scope = RunScope(session, state, None, state.question)
    pipeline = pipeline_for(state.kind)(scope)
    load_outputs(pipeline, scope)
    if all(step.key in scope.outputs for step in pipeline.steps()):
        return finalize(pipeline, scope)
    if state.answer is not None:
        return state.answer
    raise InvalidInput(*both("answer.replay_unfinished", run_id=run_id))


def re_execute_run(session: Session, run_id: str, user: str | None = None) -> tuple[Answer, list[ReExecution]]:
    """The run's question asked again, as a new run of ``user`` (default: the session's user)
    under today's grants; each statement's result compared with the stored one (by name, in
    order). Old rows are compared, never shown."""
    old = session.store.load(run_id)
    asking = check_can_view(session, old, user)
    answer = start(
        session, pipeline_for(old.kind), old.question, as_of=old.as_of, user=asking.user, language=old.language
    )
    new = session.store.load(answer.run_id)
    grants_changed = recorded_fingerprint(old) != new.grants_fingerprint
    fresh: dict[str, list[QueryResult]] = {}
    for record in new.sql:
        evidence = new.evidence_by_id(record.evidence_id) if record.evidence_id else None
        if evidence is not None and evidence.result is not None:
            fresh.setdefault(record.name, []).append(evidence.result)
    out: list[ReExecution] = []
    for record in old.sql:
        before = old.evidence_by_id(record.evidence_id) if record.evidence_id is not None else None
        if before is None or before.result is None or not fresh.get(record.name):
            continue
        after = fresh[record.name].pop(0)
        same, _said = results_match(after.rows, before.result.rows, ordered=True)  # _said quotes rows: not shown
        reason = "same" if same else "row_count" if after.row_count != before.result.row_count else "values"
        out.append(
            ReExecution(
                name=record.name,
                evidence_id=before.evidence_id,
                new_evidence_id=after.evidence_id,
                changed=not same,
                reason=reason,
                old_version=before.source_version,
                new_version=after.data_version,
                grants_changed=grants_changed,
            )
        )
    return answer, out
