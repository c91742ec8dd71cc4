"""A SQL statement a person wrote (`baton sql run`, ``Session.sql``) as a run like any other.

Every read of the warehouse leaves a run and a trace, whoever asks and however: a statement
walks the one run driver as a run of kind ``sql``. Its question is the SQL text; its
interpretation says it is a statement run as that user. Two steps, both checkpointed:

* ``policy`` — the firewall approves the statement as the run's user through the session's
  governed query (the policy_decision, allow or deny, is traced before anything runs; a
  refusal ends the run as refused with the firewall's code). On resume it is approved again
  as the user is now permitted.
* ``execute`` — the approved id runs (the tool_call), its result becomes the run's evidence
  (evidence_selected), and the catalog's freshness source says how fresh the data is.

The answer is a pure function of the checkpoints and the evidence (replay rebuilds it without
the warehouse): the result table, the statement as it ran, and a text that only counts rows
("3 rows."), which the output gate checks against the row count. Whether the rows are detail
rows or aggregates (:func:`baton.sql.detail.returns_detail_rows`) travels on the result, so a
report of detail rows can be refused to a user without ``export_detail``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from baton.contracts.answer import Answer, ResultTable
from baton.contracts.query import QueryResult, TableLoad
from baton.contracts.run import RunKind
from baton.errors import BudgetExceeded
from baton.messages import text
from baton.orchestrator.ask import hidden_group_numbers, suppression_notes, with_hidden_groups
from baton.orchestrator.driver import GateInput, Pipeline, StepSpec, base_fields, failure_answer, stopped_text
from baton.orchestrator.planning import freshness_text
from baton.sql import ApprovedSql
from baton.sql.detail import returns_detail_rows
from baton.sql.statement import MAX_SQL_CHARS

STATEMENT = "statement"
"""The name the statement's lifecycle and evidence are recorded under."""


class SqlExecuted(BaseModel):
    """What running the approved statement produced (the rows live in the run's evidence)."""

    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    pii_allowed: bool
    freshness: list[TableLoad] = []


class SqlPipeline(Pipeline):
    kind: ClassVar[RunKind] = "sql"
    question_limit: ClassVar[int] = MAX_SQL_CHARS
    """The run keeps the whole statement (the firewall's own limit), so the audit record is the
    statement that ran and a resumed run approves the same text."""

    def steps(self) -> Sequence[StepSpec[Any]]:
        return (
            StepSpec("policy", ApprovedSql, self._approve, "policy_check", recheck=self._reapprove),
            StepSpec("execute", SqlExecuted, self._execute, "execute"),
        )

    # -- steps ----------------------------------------------------------------------------------
    def _approve(self) -> ApprovedSql:
        state, statement = self.scope.state, self.scope.question
        state.interpretation = text("answer.sql_interpretation", state.language, user=state.user)
        return self.scope.governed.approve(statement, name=STATEMENT)

    def _reapprove(self, done: ApprovedSql) -> ApprovedSql:
        """Resumed after the check: the stored approval is never trusted; the statement is
        approved again as the user is now permitted (its cost was charged the first time)."""
        return self.scope.governed.approve(done.original_sql, name=STATEMENT, recheck=True)

    def _execute(self) -> SqlExecuted:
        scope = self.scope
        approved = scope.need("policy", ApprovedSql)
        result = scope.governed.execute(approved, name=STATEMENT)
        return SqlExecuted(
            evidence_id=result.evidence_id,
            pii_allowed=not scope.governed.principal.pii,
            freshness=scope.freshness_of(approved.tables),
        )

    # -- the answer ------------------------------------------------------------------------------
    def _table(self, approved: ApprovedSql) -> ResultTable:
        r = self._result()
        return ResultTable(
            columns=r.columns,
            rows=r.rows,
            row_count=r.row_count,
            truncated=r.truncated,
            detail_rows=returns_detail_rows(approved.original_sql, approved.dialect),
        )

    def _rows_text(self, table: ResultTable, approved: ApprovedSql) -> str:
        lang = self.scope.language
        if table.truncated:
            return text("answer.sql_truncated", lang, rows=f"{table.row_count:,}", cap=f"{approved.row_limit:,}")
        if table.row_count == 1:
            return text("answer.sql_one_row", lang)
        return text("answer.sql_rows", lang, rows=f"{table.row_count:,}")

    def _notes(self, approved: ApprovedSql) -> list[str]:
        state = self.scope.state
        notes = []
        if approved.masked_columns:
            columns = text("answer.clause_sep", state.language).join(approved.masked_columns)
            notes.append(text("answer.sql_masked", state.language, user=state.user, columns=columns))
        if approved.row_filters_applied:
            filters = text("answer.clause_sep", state.language).join(approved.row_filters_applied)
            notes.append(text("answer.sql_row_filters", state.language, user=state.user, filters=filters))
        return notes

    def compose(self) -> Answer:
        scope = self.scope
        approved = scope.need("policy", ApprovedSql)
        executed = scope.need("execute", SqlExecuted)
        table = self._table(approved)
        freshness, _notes = freshness_text(executed.freshness, None, scope.language)
        result = self._result()
        return Answer(
            **base_fields(scope.state),
            status="answered",
            answer=with_hidden_groups(self._rows_text(table, approved), result, scope.language),
            sql=approved.display_sql or approved.sql,
            result=table,
            data_freshness=freshness,
            assumptions=[*self._notes(approved), *suppression_notes([result], scope.language)],
        )

    def _result(self) -> QueryResult:
        return self.scope.result_of(self.scope.need("execute", SqlExecuted).evidence_id)

    def gate_input(self, answer: Answer) -> GateInput:
        """The text only counts rows: its numbers must be the row count or the row cap (no
        result cell may stand in for one)."""
        table = answer.result
        assert table is not None
        approved = self.scope.need("policy", ApprovedSql)
        return GateInput(
            evidence=[],
            derived=[table.row_count, len(table.rows), approved.row_limit, *hidden_group_numbers(self._result())],
            labels=[],
            pii_allowed=self.scope.need("execute", SqlExecuted).pii_allowed,
        )

    def partial(self, exc: BudgetExceeded) -> Answer:
        """Stopped by a budget: the result, when the statement ran, with its detail flag."""
        state = self.scope.state
        answer = failure_answer(state, exc, None)
        result = None
        approved = self.scope.get("policy", ApprovedSql)
        if state.evidence and state.evidence[-1].result is not None:
            r = state.evidence[-1].result
            detail = approved is None or returns_detail_rows(approved.original_sql, approved.dialect)
            result = ResultTable(
                columns=r.columns, rows=r.rows, row_count=r.row_count, truncated=r.truncated, detail_rows=detail
            )
        return answer.model_copy(update={"answer": stopped_text(state, exc), "partial": True, "result": result})


SQL = SqlPipeline
