"""Resume and replay runs from the run store.

*Resume* continues a run from its last completed step: completed steps are read from their
checkpoints, never re-run. *Replay* re-renders a run's answer from its recorded evidence
alone (the warehouse may be gone), so it reproduces the report byte for byte; with
``--re-execute`` it also runs every approved statement again, through the firewall as the
same user, and says which results changed (for example because the data version moved).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from baton.contracts.answer import Answer
from baton.contracts.run import RunState
from baton.errors import InvalidInput
from baton.evals.graders import results_match
from baton.orchestrator.ask import ExplainInput, drive_ask, explain
from baton.orchestrator.run import RunContext
from baton.orchestrator.session import Session
from baton.sql import approve


class ReExecution(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    evidence_id: str
    changed: bool
    reason: str
    old_version: str
    new_version: str


def resume_run(session: Session, run_id: str) -> Answer:
    state = session.store.load(run_id)
    if state.status == "done" and state.answer is not None:
        return state.answer
    if state.kind == "analyze":
        from baton.orchestrator.analyze import resume_analysis

        return resume_analysis(session, run_id)
    return drive_ask(session, RunContext.resume(run_id, session.store, session.runs_dir))


def replay_run(session: Session, run_id: str) -> Answer:
    """The run's answer, rebuilt from checkpoints and evidence only (no warehouse access)."""
    state = session.store.load(run_id)
    if state.kind == "analyze":
        from baton.orchestrator.analyze import replay_analysis

        return replay_analysis(session, state)
    return _replay_ask(session, state)


def _replay_ask(session: Session, state: RunState) -> Answer:
    executed = state.checkpoints.get("execute")
    if executed is None:
        if state.answer is not None:  # a refusal or clarification: nothing was executed
            return state.answer
        raise InvalidInput(
            f"Run {state.run_id} stopped before executing anything; resume it instead.",
            f"运行 {state.run_id} 在执行查询前就已停止，请改用 resume 继续。",
        )
    return explain(session.catalog, state, ExplainInput.model_validate(executed))


def re_execute_run(session: Session, run_id: str) -> list[ReExecution]:
    state = session.store.load(run_id)
    principal = session.principal(state.user)
    catalog = session.catalog
    large = {t: catalog.time_column(t) for t, info in catalog.tables.items() if info.large}
    out: list[ReExecution] = []
    for record in state.sql:
        if record.evidence_id is None:
            continue
        old = state.evidence_by_id(record.evidence_id)
        if old is None or old.result is None:
            continue
        approved = approve(
            record.draft,
            principal=principal,
            schema=session.schema,
            dialect="postgres" if session.settings.dialect == "postgres" else "duckdb",
            language=state.language,
            row_limit=session.settings.row_cap,
            large_tables=large,
        )
        session.registry.register(approved)
        fresh = session.runner.run(approved.approved_sql_id, user=state.user)
        same, reason = results_match(fresh.rows, old.result.rows, ordered=True)
        out.append(
            ReExecution(
                name=record.name,
                evidence_id=record.evidence_id,
                changed=not same,
                reason=reason,
                old_version=old.source_version,
                new_version=fresh.data_version,
            )
        )
    return out
