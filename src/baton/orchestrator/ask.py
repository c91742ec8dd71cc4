"""The walk of a simple question: plan → sql → policy → execute → chart → report.

Each step is typed and checkpointed by the run driver; the answer is a pure function of the
checkpoints and the run's evidence, so replay rebuilds it without the warehouse and resume
never runs a finished step twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

from baton.contracts.agent_outputs import QualityFlag
from baton.contracts.answer import Answer, AnswerTimeRange, ResultTable
from baton.contracts.common import Language
from baton.contracts.query import QueryResult, TableLoad
from baton.contracts.run import RunKind
from baton.contracts.semantic import SemanticQuery
from baton.errors import BatonError, BudgetExceeded
from baton.messages import text
from baton.orchestrator.driver import GateInput, Pipeline, StepSpec, base_fields, failure_answer, stopped_text
from baton.orchestrator.planning import PlanOutput, assumptions, freshness_text, plan, recheck_plan
from baton.sql import ApprovedSql

ANSWER_QUERY = "answer"


class SqlDraft(BaseModel):
    """The compiled statement, before the firewall."""

    model_config = ConfigDict(extra="forbid")
    sql: str
    dialect: str
    tables: list[str]


class Executed(BaseModel):
    """What running the approved statement produced (the rows live in the run's evidence)."""

    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    pii_allowed: bool
    freshness: list[TableLoad] = []
    incomplete_days: list[date] = []


class ChartOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")
    spec: dict[str, Any] | None = None


class Narrative(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str
    by_model: bool = False
    fallback_reason: str | None = None


class AskPipeline(Pipeline):
    kind: ClassVar[RunKind] = "ask"

    def steps(self) -> Sequence[StepSpec[Any]]:
        return (
            StepSpec("plan", PlanOutput, lambda: plan(self.scope), "clarify_metric", recheck=self._recheck_plan),
            StepSpec("sql", SqlDraft, self._compile, "plan_sql"),
            StepSpec("policy", ApprovedSql, self._approve, "policy_check", recheck=self._reapprove),
            StepSpec("execute", Executed, self._execute, "execute"),
            StepSpec("chart", ChartOutput, self._chart),
            StepSpec("report", Narrative, self._narrate, "explain"),
        )

    # -- steps ----------------------------------------------------------------------------------
    @property
    def query(self) -> SemanticQuery:
        return self.scope.need("plan", PlanOutput).query

    def _recheck_plan(self, done: PlanOutput) -> PlanOutput:
        return recheck_plan(self.scope, done)

    def _compile(self) -> SqlDraft:
        from baton.catalog.compiler import compile_query

        compiled = compile_query(self.query, self.scope.session.catalog, dialect=self.scope.session.engine.dialect)
        return SqlDraft(sql=compiled.sql, dialect=compiled.dialect, tables=list(compiled.tables))

    def _approve(self) -> ApprovedSql:
        return self.scope.governed.approve(self.scope.need("sql", SqlDraft).sql, name=ANSWER_QUERY)

    def _reapprove(self, done: ApprovedSql) -> ApprovedSql:
        """Resumed after the check: grants may have changed and approvals expire, so the stored
        approval is never trusted; the statement is checked again as the user is now permitted."""
        return self.scope.governed.approve(self.scope.need("sql", SqlDraft).sql, name=ANSWER_QUERY, recheck=True)

    def _execute(self) -> Executed:
        scope = self.scope
        governed = scope.governed
        result = governed.execute(scope.need("policy", ApprovedSql), name=ANSWER_QUERY)
        draft = scope.need("sql", SqlDraft)
        return Executed(
            evidence_id=result.evidence_id,
            pii_allowed=not governed.principal.pii,
            freshness=scope.freshness_of(draft.tables),
            incomplete_days=self._incomplete_days(draft),
        )

    def _incomplete_days(self, draft: SqlDraft) -> list[date]:
        """For a daily series, the days whose rows fall far below the same weekday of earlier
        weeks (a partly loaded day), so the answer marks them instead of presenting them as
        real dips. The row counts are one more governed query. Any table is checked (a small
        table's load can stop half way too) when the series is dated by the table's own time
        column, the one its rows are loaded by."""
        from baton.catalog.quality_queries import daily_row_counts
        from baton.stats import completeness

        query, catalog = self.query, self.scope.session.catalog
        table = draft.tables[0]
        dated_by = {catalog.time_column_of(m) for m in catalog.measures_of(query.metrics[0]) if m.table == table}
        if query.grain != "day" or query.time_range.days > 400 or dated_by != {catalog.tables[table].time_column}:
            return []
        start = query.time_range.start - timedelta(weeks=8)
        result = self.scope.governed.run("completeness", daily_row_counts(catalog, table, start, query.time_range.end))
        counts = {date.fromisoformat(str(r[0])[:10]): int(r[1]) for r in result.rows if r[0] is not None}
        days = sorted(d for d in counts if query.time_range.start <= d <= query.time_range.end)
        return sorted(c.day for c in completeness(counts, days, catalog.calendar) if c.incomplete)

    def _evidence(self) -> QueryResult:
        return self.scope.result_of(self.scope.need("execute", Executed).evidence_id)

    def _table(self) -> ResultTable:
        r = self._evidence()
        return ResultTable(columns=r.columns, rows=r.rows, row_count=r.row_count, truncated=r.truncated)

    def _with_hidden_groups(self, narrative: str) -> str:
        return with_hidden_groups(narrative, self._evidence(), self.scope.language)

    def _chart(self) -> ChartOutput:
        """The answer's chart spec (declarative; no code runs); a chart that cannot be built
        never costs the answer."""
        from baton.agents.chart import chart_for_answer

        incomplete = tuple(self.scope.need("execute", Executed).incomplete_days)
        try:
            spec = chart_for_answer(
                self.scope.session.catalog, self.query, self._table(), self.scope.language, incomplete
            )
        except BatonError:
            spec = None
        return ChartOutput(spec=spec)

    def _narrate(self) -> Narrative:
        """The answer's prose: the deterministic narrator, or — with ``[llm] narrator = true`` —
        the model's, when the output gate passes it (else the deterministic one, with the reason)."""
        from baton.agents.narrator import Narrator

        scope = self.scope
        settings = scope.session.settings.llm
        if settings is None or not settings.narrator:
            return Narrative(text=Narrator(scope.session.catalog).compose(self.query, self._table(), scope.language))
        from baton.agents.llm_narrator import gated_model_narrative
        from baton.errors import ModelFailure
        from baton.orchestrator.model_calls import RunModel

        try:
            model = RunModel(
                scope.session.model_provider, scope.running, purpose="narrate", max_tokens=settings.max_tokens
            )
        except ModelFailure as exc:
            said = Narrator(scope.session.catalog).compose(self.query, self._table(), scope.language)
            return Narrative(text=said, fallback_reason=str(exc.detail.get("reason", exc.error_code)))
        told = gated_model_narrative(
            model,
            catalog=scope.session.catalog,
            query=self.query,
            table=self._table(),
            interpretation=scope.state.interpretation or "",
            facts=None,
            language=scope.language,
        )
        decision = "allow" if told.used_model else "deny"
        scope.running.policy_decision(decision, gate="model_narrative", reason=told.reason)
        return Narrative(text=told.text, by_model=told.used_model, fallback_reason=told.reason)

    # -- the answer ------------------------------------------------------------------------------
    def compose(self) -> Answer:
        scope = self.scope
        lang, query = scope.language, self.query
        planned = scope.need("plan", PlanOutput)
        executed = scope.need("execute", Executed)
        approved = scope.need("policy", ApprovedSql)
        freshness, fresh_notes = freshness_text(executed.freshness, query, lang)
        flags = self._flags(executed)
        return Answer(
            **base_fields(scope.state),
            status="answered",
            answer=self._with_hidden_groups(scope.need("report", Narrative).text),
            semantic_query=query,
            sql=approved.display_sql or approved.sql,
            result=self._table(),
            metrics=planned.metrics,
            time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
            data_freshness=freshness,
            assumptions=[
                *assumptions(query, lang),
                *planned.notes,
                *planned.grant_notes,
                *fresh_notes,
                *(f.assumption or "" for f in flags),
                *suppression_notes([self._evidence()], lang),
            ],
            chart=scope.need("chart", ChartOutput).spec,
            quality_flags=flags,
        )

    def _flags(self, executed: Executed) -> list[QualityFlag]:
        lang = self.scope.language
        tables = self.scope.need("sql", SqlDraft).tables[:1]
        return [
            QualityFlag(
                table=table,
                date=day,
                issue="incomplete",
                message=text("answer.incomplete_day", lang),
                affects_period=True,
                assumption=text("answer.incomplete_day_assumption", lang, day=day.isoformat()),
            )
            for table in tables
            for day in executed.incomplete_days
        ]

    def gate_input(self, answer: Answer) -> GateInput:
        from baton.agents.narrator import Narrator

        catalog, query = self.scope.session.catalog, self.query
        table = answer.result
        assert table is not None
        names = [c.name for c in table.columns]
        derived: list[Any] = [table.row_count, len(table.rows), len(query.metrics), query.time_range.days]
        derived += [query.top_n] if query.top_n is not None else []
        derived += [len({row[names.index(d)] for row in table.rows}) for d in query.dimensions if d in names]
        derived += hidden_group_numbers(self._evidence())
        return GateInput(
            evidence=table.rows,
            derived=derived,
            labels=[
                query.time_range.text or "",
                query.comparison.range.text or "" if query.comparison else "",
                *query.where,
                *(c.written for c in query.corrections),
                *self.scope.session.planning_catalog.labels(),
            ],
            pii_allowed=self.scope.need("execute", Executed).pii_allowed,
            regenerate=lambda: self._with_hidden_groups(Narrator(catalog).compose(query, table, self.scope.language)),
        )

    def partial(self, exc: BudgetExceeded) -> Answer:
        """Stopped by a budget: keep what finished (the query result, if any) and say so."""
        state = self.scope.state
        answer = failure_answer(state, exc, state.semantic_query)
        result = None
        if state.evidence and state.evidence[-1].result is not None:
            r = state.evidence[-1].result
            result = ResultTable(columns=r.columns, rows=r.rows, row_count=r.row_count, truncated=r.truncated)
        return answer.model_copy(update={"answer": stopped_text(state, exc), "partial": True, "result": result})


ASK = AskPipeline


def suppression_notes(results: Sequence[QueryResult], language: Language) -> list[str]:
    """What the minimum group size of an aggregate-only table did to these results, once."""
    sizes = sorted({r.min_group_size for r in results if r.min_group_size is not None})
    return [text("answer.suppression_rule", language, k=k) for k in sizes]


def with_hidden_groups(said: str, result: QueryResult, language: Language) -> str:
    """``said``, and how many groups the user's minimum group size left out of ``result`` (an
    aggregate-only table): the reader must know the list is not the whole."""
    if not result.suppressed_groups or result.min_group_size is None:
        return said
    note = text("answer.suppressed_groups", language, n=result.suppressed_groups, k=result.min_group_size)
    return f"{said} {note}"


def hidden_group_numbers(result: QueryResult) -> list[int]:
    """The numbers :func:`with_hidden_groups` may say, for the output gate."""
    return [result.suppressed_groups or 0, result.min_group_size or 0]
