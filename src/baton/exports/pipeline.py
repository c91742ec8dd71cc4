"""The preview of an export as a run of kind ``export`` on the one run driver.

Its question is ``export <run_id> <format>``; its user is the exporting user. Three steps, each
checkpointed and traced like every run's:

* ``source`` — the exported run is one the user may see (the owner, or ``runs: all``; anyone
  else gets the error ``runs show`` gives), and it read a result table (the ``answer`` statement
  of ask/query, the ``statement`` of a sql run). Whether that statement returns detail rows is
  decided from its parse (:func:`baton.sql.detail.returns_detail_rows`); detail rows for a user
  without ``export_detail`` are refused here, before anything runs.
* ``policy`` — the statement the run drafted is approved again by the firewall *as the exporting
  user under today's policy* (today's grants, row filters, masking, row cap, cost budget): the
  run's old rows are never reused.
* ``execute`` — the approved id runs; its rows are the export's evidence, and what the preview
  shows and the approval writes.

The answer only counts rows and columns (the output gate checks it); its result table is the
*preview* — the first :data:`~baton.contracts.export.PREVIEW_ROWS` rows, the full row count,
flagged as detail rows or not (so every report of this run obeys ``export_detail`` too) — never
every row: the rows leave only as the approved file. The full rows stay in the run's evidence,
which no report of an unapproved export serves (:func:`baton.report.deliver.check_run_export`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict

from baton.contracts.answer import Answer, ResultTable
from baton.contracts.export import EXPORT_FORMATS, PREVIEW_ROWS, ExportFormat, MaskedColumn
from baton.contracts.run import RunKind
from baton.errors import BatonError, ExportNotPermitted, InvalidInput
from baton.messages import both, text
from baton.numbers import format_exact
from baton.orchestrator.access import check_can_view
from baton.orchestrator.ask import ANSWER_QUERY, suppression_notes
from baton.orchestrator.driver import GateInput, Pipeline, StepSpec, base_fields
from baton.orchestrator.replay import register_pipeline
from baton.orchestrator.sql_run import STATEMENT
from baton.sql import ApprovedSql
from baton.sql.detail import returns_detail_rows

EXPORT_QUERY = "export"
"""The name the export's statement and evidence are recorded under."""
SOURCE_STATEMENTS = (ANSWER_QUERY, STATEMENT)
"""The statements whose result is a run's result table."""

T = TypeVar("T")


def export_question(run_id: str, fmt: ExportFormat) -> str:
    """The export run's question: what ``runs list`` shows, and what a resumed run reads back."""
    return f"export {run_id} {fmt}"


def parse_question(question: str) -> tuple[str, ExportFormat]:
    parts = question.split()
    if len(parts) != 3 or parts[0] != "export" or parts[2] not in EXPORT_FORMATS:
        raise InvalidInput(*both("exports.bad_format", raw=question), detail={"question": question[:200]})
    return parts[1], parts[2]


def mask_how(style: str, language: str) -> str:
    key = {"phone": "exports.mask_phone", "email": "exports.mask_email"}.get(style, "exports.mask_full")
    return text(key, "zh" if language == "zh" else "en")


class ExportSource(BaseModel):
    """The exported run's statement, as drafted (before any firewall rewrite)."""

    model_config = ConfigDict(extra="forbid")
    source_run_id: str
    format: ExportFormat
    name: str
    statement: str
    dialect: str
    detail_rows: bool


class ExportRows(BaseModel):
    """What running it today produced (the rows live in the run's evidence)."""

    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    pii_allowed: bool
    masked: list[MaskedColumn] = []


class ExportPipeline(Pipeline):
    kind: ClassVar[RunKind] = "export"
    question_limit: ClassVar[int] = 200

    raised: BatonError | None = None
    """The typed error that ended the preview (the service re-raises it to the caller)."""

    def steps(self) -> Sequence[StepSpec[Any]]:
        return (
            StepSpec("source", ExportSource, self._kept(self._source), "plan_sql", recheck=self._recheck_source),
            StepSpec("policy", ApprovedSql, self._kept(self._approve), "policy_check", recheck=self._reapprove),
            StepSpec("execute", ExportRows, self._kept(self._execute), "execute"),
        )

    def _kept(self, step: Callable[[], T]) -> Callable[[], T]:
        def run() -> T:
            try:
                return step()
            except BatonError as exc:
                self.raised = exc
                raise

        return run

    # -- steps ----------------------------------------------------------------------------------
    def _source(self) -> ExportSource:
        scope = self.scope
        state, session = scope.state, scope.session
        run_id, fmt = parse_question(scope.question)
        state.interpretation = text(
            "exports.interpretation", state.language, run_id=run_id, format=fmt, user=state.user
        )
        source = session.store.load(run_id)
        check_can_view(session, source, state.user)
        record = next((r for r in reversed(source.sql) if r.name in SOURCE_STATEMENTS and r.evidence_id), None)
        if record is None or source.kind == "export":
            raise InvalidInput(
                *both("exports.nothing_to_export", run_id=run_id), detail={"reason": "nothing_to_export"}
            )
        dialect = session.engine.dialect
        out = ExportSource(
            source_run_id=run_id,
            format=fmt,
            name=record.name,
            statement=record.draft,
            dialect=dialect,
            detail_rows=returns_detail_rows(record.draft, dialect),
        )
        self._check_detail(out)
        scope.running.policy_decision(
            "allow", gate="export", source_run_id=run_id, format=fmt, detail_rows=out.detail_rows, user=state.user
        )
        return out

    def _check_detail(self, source: ExportSource) -> None:
        """Detail rows leave only for a user whose roles allow ``export_detail``."""
        user = self.scope.state.user
        if source.detail_rows and not self.scope.session.principal(user).can_export_detail:
            raise ExportNotPermitted(
                *both("exports.detail_not_permitted", user=user),
                detail={"user": user, "run_id": source.source_run_id, "format": source.format},
            )

    def _recheck_source(self, done: ExportSource) -> ExportSource:
        self._check_detail(done)
        return done

    def _approve(self) -> ApprovedSql:
        return self.scope.governed.approve(self.scope.need("source", ExportSource).statement, name=EXPORT_QUERY)

    def _reapprove(self, done: ApprovedSql) -> ApprovedSql:
        """Resumed: the stored approval is never trusted; approved again as the user is now permitted."""
        statement = self.scope.need("source", ExportSource).statement
        return self.scope.governed.approve(statement, name=EXPORT_QUERY, recheck=True)

    def _execute(self) -> ExportRows:
        scope = self.scope
        approved = scope.need("policy", ApprovedSql)
        governed = scope.governed
        result = governed.execute(approved, name=EXPORT_QUERY)
        principal = governed.principal
        masked = []
        for label in approved.masked_columns:
            table, _, column = label.partition(".")
            style = principal.mask_styles.get((table, column), "full")
            masked.append(MaskedColumn(column=label, style=style, how=mask_how(style, scope.language)))
        return ExportRows(evidence_id=result.evidence_id, pii_allowed=not principal.pii, masked=masked)

    # -- the answer ------------------------------------------------------------------------------
    def compose(self) -> Answer:
        scope = self.scope
        state, lang = scope.state, scope.language
        source = scope.need("source", ExportSource)
        approved = scope.need("policy", ApprovedSql)
        rows = scope.need("execute", ExportRows)
        result = scope.result_of(rows.evidence_id)
        table = ResultTable(  # the preview only: the rows leave only as the approved file
            columns=result.columns,
            rows=result.rows[:PREVIEW_ROWS],
            row_count=result.row_count,
            truncated=result.truncated,
            detail_rows=source.detail_rows,
        )
        sep = text("answer.clause_sep", lang)
        notes = []
        if rows.masked:
            columns = sep.join(f"{m.column}: {m.how}" for m in rows.masked)
            notes.append(text("exports.masked_note", lang, user=state.user, columns=columns))
        if approved.row_filters_applied:
            filters = sep.join(approved.row_filters_applied)
            notes.append(text("exports.filters_note", lang, user=state.user, filters=filters))
        said = text(
            "exports.preview",
            lang,
            rows=format_exact(result.row_count, "count", lang),
            columns=format_exact(len(result.columns), "count", lang),
        )
        return Answer(
            **base_fields(state),
            status="answered",
            answer=said,
            sql=approved.display_sql or approved.sql,
            result=table,
            assumptions=[*notes, *suppression_notes([result], lang)],
        )

    def gate_input(self, answer: Answer) -> GateInput:
        """The text only counts rows and columns."""
        table = answer.result
        assert table is not None
        return GateInput(
            evidence=[],
            derived=[table.row_count, len(table.columns)],
            labels=[],
            pii_allowed=self.scope.need("execute", ExportRows).pii_allowed,
        )


register_pipeline("export", ExportPipeline)
