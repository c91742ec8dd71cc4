"""The walk of a simple question: plan → sql → policy → execute → chart → report.

Each step is typed and checkpointed by the run driver; the answer is a pure function of the
checkpoints and the run's evidence, so replay rebuilds it without the warehouse and resume
never runs a finished step twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from baton.contracts.agent_outputs import QualityFlag
from baton.contracts.answer import Answer, AnswerTimeRange, ResultTable
from baton.contracts.common import Language
from baton.contracts.query import QueryResult, TableLoad
from baton.contracts.run import RunKind
from baton.contracts.semantic import SemanticQuery
from baton.errors import BatonError, BudgetExceeded, TimeExpressionError
from baton.messages import both, text
from baton.orchestrator.data_span import DataStart, before_data_notes, check_periods, read_data_start
from baton.orchestrator.driver import GateInput, Pipeline, StepSpec, base_fields, failure_answer, stopped_text
from baton.orchestrator.planning import PlanOutput, assumptions, freshness_text, plan, recheck_plan
from baton.orchestrator.unnamed_groups import UnnamedGroups, unnamed_groups, unnamed_notes, unnamed_query
from baton.sql import ApprovedSql

if TYPE_CHECKING:
    from baton.catalog.model import Catalog, Metric

ANSWER_QUERY = "answer"


class SqlDraft(BaseModel):
    """The compiled statement, before the firewall."""

    model_config = ConfigDict(extra="forbid")
    sql: str
    dialect: str
    tables: list[str]
    plain: bool = False
    """Compiled plain (``compile_query``): no zeros for quiet periods, no ties past a top N."""
    filled: bool = False
    """Periods and members without rows are zeros in it (``baton.catalog.spine``)."""


class Executed(BaseModel):
    """What running the approved statement produced (the rows live in the run's evidence)."""

    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    pii_allowed: bool
    freshness: list[TableLoad] = []
    incomplete_days: list[date] = []
    """Days marked on a daily chart (current period, day grain only)."""
    incomplete_current: list[date] = []
    """Incomplete days inside the current period, at any grain (stated with the answer)."""
    incomplete_comparison: list[date] = []
    """Incomplete days inside the comparison period (stated with the answer)."""
    incomplete_tables: dict[str, list[date]] = {}
    """Each table read and its incomplete days (a rate's denominator may be half loaded alone)."""
    understated: bool = True
    """Missing rows lower every metric asked (sums, counts, distinct counts); a rate, an average
    or a share may move either way, and its caveat says so."""
    data_start: DataStart | None = None
    """The metrics' tables' first day with rows (a period starting before it says so)."""
    unnamed: UnnamedGroups = UnnamedGroups()
    """The groups with an empty key a ranking by a dimension left out."""
    whole_move: Literal["up", "down", "none"] | None = None
    """How all groups together moved, for a contribution whose whole a minimum group size keeps out
    of the ranking's statement (one more, of the total): a premise the answer must still check."""


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
        from baton.catalog.compiler import compile_query, source_tables

        catalog, engine = self.scope.session.catalog, self.scope.session.engine
        # a group the user's minimum group size hides is no zero, and the firewall counts the
        # groups it hid only on the outermost level: such a user's statement is plain
        floored = self._floored(source_tables(self.query, catalog))
        compiled = compile_query(
            self.query, catalog, dialect=engine.dialect, plain=floored, fill_gaps=engine.fills_series_gaps
        )
        return SqlDraft(
            sql=compiled.sql,
            dialect=compiled.dialect,
            tables=list(compiled.tables),
            plain=floored,
            filled=compiled.filled,
        )

    def _floored(self, tables: Sequence[str]) -> bool:
        """Whether the user reads one of ``tables`` only in groups of a minimum size."""
        floors = self.scope.governed.principal.aggregate_only
        return any((rule := floors.get(t)) is not None and rule.min_group_size > 1 for t in tables)

    def _approve(self) -> ApprovedSql:
        return self.scope.governed.approve(self.scope.need("sql", SqlDraft).sql, name=ANSWER_QUERY)

    def _reapprove(self, done: ApprovedSql) -> ApprovedSql:
        """Resumed after the check: grants may have changed and approvals expire, so the stored
        approval is never trusted; the statement is checked again as the user is now permitted
        (and compiled again when a minimum group size now asks for a plain statement)."""
        draft = self.scope.need("sql", SqlDraft)
        sql = self._compile().sql if not draft.plain and self._floored(draft.tables) else draft.sql
        return self.scope.governed.approve(sql, name=ANSWER_QUERY, recheck=True)

    def _execute(self) -> Executed:
        scope = self.scope
        governed = scope.governed
        result = governed.execute(scope.need("policy", ApprovedSql), name=ANSWER_QUERY)
        draft = scope.need("sql", SqlDraft)
        freshness = scope.freshness_of(draft.tables)
        self._has_data(freshness)
        start = read_data_start(scope, self.query)  # after the answer: its evidence is the run's first
        check_periods(self.query, start)
        by_table = {table: self._incomplete_days(table) for table in self._dated_tables(draft)}
        current = sorted({d for days, _ in by_table.values() for d in days})
        comparison = sorted({d for _, days in by_table.values() for d in days})
        return Executed(
            unnamed=self._unnamed(draft),
            whole_move=self._whole_move(draft),
            evidence_id=result.evidence_id,
            pii_allowed=not governed.principal.pii,
            freshness=freshness,
            incomplete_days=current if self.query.grain == "day" else [],
            incomplete_current=current,
            incomplete_comparison=comparison,
            incomplete_tables={t: sorted({*now, *then}) for t, (now, then) in by_table.items() if now or then},
            understated=not self.query.share
            and all(_lowered_by_missing_rows(self.scope.session.catalog.metrics[m]) for m in self.query.metrics),
            data_start=start,
        )

    def _has_data(self, freshness: list[TableLoad]) -> None:
        """A period that starts after the newest loaded day of the metrics' own tables has no data
        yet: "0" would read as a fact about the business, so it is refused like "本月" on its first
        day. A joined dimension table's dates say nothing about it, nor do a table's about a
        measure dated by another of its columns ("archived users" by ``archived_at``): whether
        that column has a row from the period's start on is read instead."""
        catalog = self.scope.session.catalog
        measures = [m for metric in self.query.metrics for m in catalog.measures_of(metric)]
        own_dated = {
            (m.table, m.time_column)
            for m in measures
            if m.time_column is not None and m.time_column != catalog.tables[m.table].time_column
        }
        own = {m.table for m in measures if (m.table, m.time_column) not in own_dated}
        newest = [t.max_data_date for t in freshness if t.max_data_date is not None and t.table_name in own]
        tr = self.query.time_range
        said = tr.text or f"{tr.start}~{tr.end}"
        if newest and tr.start > min(newest):
            raise TimeExpressionError(*both("answer.no_data_in_period", text=said, start=tr.start, newest=min(newest)))
        for table, column in sorted(own_dated):
            if self.scope.governed.first_day(table, column, after=tr.start - timedelta(days=1)) is None:
                raise TimeExpressionError(*both("answer.no_rows_dated_from", text=said, start=tr.start, column=column))

    def _unnamed(self, draft: SqlDraft) -> UnnamedGroups:
        """The groups with an empty key a ranking by a dimension left out (one more statement)."""
        from baton.catalog.compiler import compile_query

        unranked = unnamed_query(self.query)
        if unranked is None:
            return UnnamedGroups()
        catalog, governed = self.scope.session.catalog, self.scope.governed
        compiled = compile_query(unranked, catalog, dialect=self.scope.session.engine.dialect, plain=True)  # data only
        result = governed.execute(governed.approve(compiled.sql, name="unnamed_groups"), name="unnamed_groups")
        return unnamed_groups(unranked, result, catalog)

    def _whole_move(self, draft: SqlDraft) -> Literal["up", "down", "none"] | None:
        """A contribution's whole read by a user with a minimum group size: the ranking's statement
        cannot hold it (the hidden groups are out of it), so the total's change is one more governed
        statement — a single group the floor judges like any other (review s29)."""
        from baton.catalog.compiler import compile_query

        query = self.query
        if not (query.contribution and draft.plain and query.comparison is not None):
            return None
        total = SemanticQuery(
            metrics=query.metrics[:1],
            filters=query.filters,
            time_range=query.time_range,
            where=query.where,
            as_of=query.as_of,
            comparison=query.comparison,
            average_per=query.average_per,
        )
        catalog, governed = self.scope.session.catalog, self.scope.governed
        compiled = compile_query(total, catalog, dialect=self.scope.session.engine.dialect, plain=True)
        result = governed.execute(governed.approve(compiled.sql, name="contribution_whole"), name="contribution_whole")
        names = [c.name for c in result.columns]
        column = f"{compiled.columns[0]}_change"
        if not result.rows or column not in names or result.rows[0][names.index(column)] is None:
            return None
        change = float(result.rows[0][names.index(column)])
        return "up" if change > 0 else "down" if change < 0 else "none"

    def _spans(self) -> list[tuple[date, date]]:
        """The current period's days, and the comparison's when there is one."""
        tr, cmp = self.query.time_range, self.query.comparison
        return [(tr.start, tr.end)] + ([(cmp.range.start, cmp.range.end)] if cmp is not None else [])

    def _dated_tables(self, draft: SqlDraft) -> list[str]:
        """The tables whose rows the metrics count by the table's own time column — the one its rows
        are loaded by: a rate's numerator and denominator tables both (conversion: orders and
        traffic), never a joined dimension table."""
        catalog = self.scope.session.catalog
        if any((e - s).days >= 400 for s, e in self._spans()):
            return []
        return [
            t
            for t in draft.tables
            if any(set(catalog.dated_by(m, t)) == {catalog.tables[t].time_column} for m in self.query.metrics)
        ]

    def _incomplete_days(self, table: str) -> tuple[list[date], list[date]]:
        """The days of the current and of the comparison period whose rows of ``table`` fall far
        below the same weekday of earlier weeks (a partly loaded day): a daily series marks them
        instead of presenting them as real dips, and a total or a comparison says its periods
        include them. The row counts are one more governed query per table. Any table is checked
        (a small table's load can stop half way too)."""
        from baton.catalog.quality_queries import daily_row_counts
        from baton.stats import completeness, peak_days_a_year_back

        catalog = self.scope.session.catalog
        tr, cmp = self.query.time_range, self.query.comparison
        spans = self._spans()
        start = min(s for s, _ in spans) - timedelta(weeks=8)
        end = max(e for _, e in spans)
        asked = [d for s, e in spans for d in (s + timedelta(days=i) for i in range((e - s).days + 1))]
        a_year_back = peak_days_a_year_back(asked, catalog.calendar)  # a peak day is judged by last year's event
        result = self.scope.governed.run("completeness", daily_row_counts(catalog, table, start, end, a_year_back))
        counts = {date.fromisoformat(str(r[0])[:10]): int(r[1]) for r in result.rows if r[0] is not None}
        # a day without any row between loaded days is checked too (0 rows: a load that failed),
        # so a series' zero for it (baton.catalog.spine) is marked, not read as a quiet day
        first, last = min((d for d in counts if d >= start), default=end), max(counts, default=end)
        loaded = [first + timedelta(days=i) for i in range((last - first).days + 1)]
        days = [d for d in loaded if any(s <= d <= e for s, e in spans)]
        bad = [c.day for c in completeness(counts, days, catalog.calendar) if c.incomplete]
        if cmp is not None and cmp.days:  # the usual level of a single day: only the days compared with
            in_comparison = [d for d in bad if d in cmp.days]
        else:
            in_comparison = [d for d in bad if cmp is not None and cmp.range.start <= d <= cmp.range.end]
        return [d for d in bad if tr.start <= d <= tr.end], in_comparison

    def _evidence(self) -> QueryResult:
        return self.scope.result_of(self.scope.need("execute", Executed).evidence_id)

    def _table(self) -> ResultTable:
        r = self._evidence()
        return ResultTable(columns=r.columns, rows=r.rows, row_count=r.row_count, truncated=r.truncated)

    def _with_hidden_groups(self, narrative: str) -> str:
        said = with_hidden_groups(narrative, self._evidence(), self.scope.language)
        moved = self.scope.need("execute", Executed).whole_move
        return said + whole_moved_the_other_way(self.query, moved, self.scope.session.catalog, self.scope.language)

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
        from baton.agents.buckets import gap_notes, partial_notes
        from baton.agents.calendar_notes import events_in_one_period

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
            answer=self._with_hidden_groups(scope.need("report", Narrative).text) + why_pointer(query, lang),
            semantic_query=query,
            sql=approved.display_sql or approved.sql,
            result=self._table(),
            metrics=planned.metrics,
            time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
            data_freshness=freshness,
            assumptions=[
                *assumptions(query, lang),
                *partial_notes(query, self._table(), lang),
                *([] if self._evidence().suppressed_groups else gap_notes(query, self._table(), lang)),
                *planned.notes,
                *planned.grant_notes,
                *fresh_notes,
                *before_data_notes(query, executed.data_start, lang),
                *(f.assumption for f in flags if f.assumption),
                *period_notes(query, executed, lang),
                *overlap_notes(query, scope.session.catalog, lang),
                # a series compares each period with its own: its chart marks the event days instead
                *([] if query.grain else events_in_one_period(scope.session.catalog, query, lang)),
                *unfilled_notes(query, scope.session.catalog, scope.need("sql", SqlDraft), lang),
                *whole_period_notes(query, lang),
                *unnamed_notes(query, executed.unnamed, scope.session.catalog, lang),
                *suppression_notes([self._evidence()], lang),
            ],
            chart=scope.need("chart", ChartOutput).spec,
            quality_flags=flags,
        )

    def _flags(self, executed: Executed) -> list[QualityFlag]:
        """One flag per table and partly loaded day; a series' day is stated once, with its first
        table (a period's caveat, period_notes, states the days of a total)."""
        lang = self.scope.language
        effect = incomplete_effect(executed, lang)
        days_of = executed.incomplete_tables or self._first_table(executed)
        stated: set[date] = set()
        flags: list[QualityFlag] = []
        for table, days in days_of.items():
            for day in days:
                said = day in executed.incomplete_days and day not in stated
                if said:
                    stated.add(day)
                flags.append(
                    QualityFlag(
                        table=table,
                        date=day,
                        issue="incomplete",
                        message=text("answer.incomplete_day", lang),
                        affects_period=True,
                        assumption=text("answer.incomplete_day_assumption", lang, day=day.isoformat(), effect=effect)
                        if said
                        else None,
                    )
                )
        return flags

    def _first_table(self, executed: Executed) -> dict[str, list[date]]:
        """A run saved before days were kept per table: its days, of the metric's first table."""
        days = sorted({*executed.incomplete_current, *executed.incomplete_comparison})
        return {self.scope.need("sql", SqlDraft).tables[0]: days} if days else {}

    def gate_input(self, answer: Answer) -> GateInput:
        from baton.agents.narration import named_row
        from baton.agents.narrator import (
            MAX_LISTED,
            Narrator,
            asked_place,
            boundary_tie,
            ends_gap,
            fails_bound,
            member_gap,
            said_words,
        )
        from baton.catalog.compiler import bounded_column, checked_bound
        from baton.numbers import direction_of

        catalog, query = self.scope.session.catalog, self.query
        table = answer.result
        assert table is not None
        names = [c.name for c in table.columns]
        derived: list[Any] = [table.row_count, len(table.rows), len(query.metrics), query.time_range.days]
        derived += query.stated_numbers  # "前3", "排名第2", "超过5%"
        derived += [len({row[names.index(d)] for row in table.rows}) for d in query.dimensions if d in names]
        derived += hidden_group_numbers(self._evidence())
        rows = [dict(zip(names, row, strict=True)) for row in table.rows]
        members = [r for r in rows if named_row(query, r)]  # the groups a sentence counts (no empty key)
        derived.append(len(members))
        derived += [sum(1 for r in rows if r.get(m) is not None) for m in query.metrics]  # "12 points", values only
        tie = boundary_tie(query, rows)
        derived += [tie.place, tie.tied] if tie is not None else []  # "第3名有2个并列"
        derived += [len(table.rows) - MAX_LISTED] if len(table.rows) > MAX_LISTED else []  # "…还有 353 个"
        place = asked_place(query, query.metrics[0], rows) if query.metrics[0] in names else None
        derived += [place] if place is not None else []  # "网页在 4 个渠道中排第 2"
        checked = checked_bound(query)
        bounded = bounded_column(query) if checked is not None else None  # a value, or a share
        if checked is not None and bounded in names:  # "4 个渠道中有 1 个…不高于…：否"
            at = names.index(bounded)
            derived.append(sum(fails_bound(row[at], checked) for row in table.rows))
        for metric in query.metrics:
            if query.premise_asked and f"{metric}_change" in names:  # "4 个渠道中有 1 个…没有上升：否"
                moved = sum(direction_of(r[f"{metric}_change"]) == query.premise for r in members)
                derived += [moved, len(members) - moved]
            if catalog.metrics[metric].unit == "ratio" and f"{metric}_change" in names:
                at = names.index(f"{metric}_change")  # a rate's change is said in points too, with its sign
                derived += [float(row[at]) * 100 for row in table.rows if row[at] is not None]
            # "华东比华南高 ¥3,632,092.70（34.50%）", "最高比最低高…", "…的 3.22 倍": two cells' difference
            # and ratio; a rate's gap is said in points, the difference × 100
            gap = (member_gap(query, metric, rows) or ends_gap(query, metric, rows)) if metric in names else None
            if gap is not None:
                derived += [abs(gap[2]), abs(gap[2]) * 100, *([abs(gap[3]), gap[3] + 1] if gap[3] is not None else [])]
            if query.ratio and not query.difference and f"{metric}_change_pct" in names:  # "6月是5月的 0.83 倍"
                at = names.index(f"{metric}_change_pct")
                derived += [float(row[at]) + 1 for row in table.rows if row[at] is not None]
        return GateInput(
            evidence=table.rows,
            derived=derived,
            labels=[
                query.time_range.text or "",
                said_words(query.time_range, self.scope.language) or "",
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


def whole_moved_the_other_way(
    query: SemanticQuery, moved: Literal["up", "down", "none"] | None, catalog: Catalog, language: Language
) -> str:
    """A contribution read under a minimum group size whose whole (the total's own statement) did not
    move the asked way: said, as the unfloored answer's whole sentence says it."""
    way = "down" if query.order == "asc" else "up"
    if moved is None or moved == way:
        return ""
    dimension = catalog.dimensions[query.dimensions[0]].label.for_lang(language)
    move, word = text(f"answer.change_move_{way}", language), text(f"answer.change_word_change_{way}", language)
    return text("answer.contribution_other_way_hidden", language, dimension=dimension, move=move, word=word)


def hidden_group_numbers(result: QueryResult) -> list[int]:
    """The numbers :func:`with_hidden_groups` may say, for the output gate."""
    return [result.suppressed_groups or 0, result.min_group_size or 0]


def _lowered_by_missing_rows(metric: Metric) -> bool:
    """A sum, a count or a distinct count only falls when rows are missing; a rate, an average or
    a share may move either way."""
    return metric.additive or metric.distinct_count


def whole_period_notes(query: SemanticQuery, language: Language) -> list[str]:
    """The partial weeks or months at the period's edges a ranking of them (or a bound) left out."""
    from baton.catalog.spine import whole_query

    whole = whole_query(query)
    if whole is None:
        return []
    grain = text(f"answer.grain_{query.grain}", language)
    first, last = whole.time_range.start.isoformat(), whole.time_range.end.isoformat()
    key = "answer.whole_periods_bound" if query.threshold is not None else "answer.whole_periods"
    notes = [text(key, language, grain=grain, first=first, last=last)]
    if whole.comparison is not None:  # the period compared with loses the same days
        before = whole.comparison.range
        notes.append(
            text(
                "answer.whole_periods_compared",
                language,
                grain=grain,
                first=before.start.isoformat(),
                last=before.end.isoformat(),
            )
        )
    return notes


def unfilled_notes(query: SemanticQuery, catalog: Catalog, draft: SqlDraft, language: Language) -> list[str]:
    """A ranking from the lowest whose statement could not list the keys without rows (a long
    series, an engine without a spine, a minimum group size): what it cannot rank is said."""
    lowest = query.order == "asc" and (query.top_n is not None or query.rank_place is not None)
    if not lowest or draft.filled or not all(catalog.metrics[m].amount_or_count for m in query.metrics):
        return []
    return [text("answer.unfilled_ranking", language)]


def overlap_notes(query: SemanticQuery, catalog: Catalog, language: Language) -> list[str]:
    """A share of a distinct count: one counted thing may fall in several groups (a customer
    under two members of a dimension), so the groups' shares need not add up to 100 %. Members
    taken together ("app和小程序的买家数加起来"): a distinct count counts one in both once, and a rate
    is computed on the pooled rows — never the members' values added."""
    notes: list[str] = []
    if query.share and (query.dimensions or query.share_filters or query.grain is not None):
        notes += [
            text("answer.share_overlap", language, metric=catalog.metrics[m].label.for_lang(language))
            for m in query.metrics
            if catalog.metrics[m].distinct_count
        ]
    sep = text("answer.list_sep", language)
    for f in () if query.share else query.filters:
        if f.exclude or len(f.members) < 2 or f.dimension in query.dimensions:
            continue
        members = sep.join(catalog.member_label(f.dimension, m, language) for m in f.members)
        for m in query.metrics:
            info = catalog.metrics[m]
            key = "answer.pooled_distinct" if info.distinct_count else "answer.pooled_ratio" if info.is_ratio else None
            if key is not None:
                notes.append(text(key, language, metric=info.label.for_lang(language), members=members))
    return notes


def incomplete_effect(executed: Executed, language: Language) -> str:
    """How missing rows move the value: down for a sum or a count, either way for a rate."""
    return text("answer.incomplete_understated" if executed.understated else "answer.incomplete_biased", language)


def period_notes(query: SemanticQuery, executed: Executed, language: Language) -> list[str]:
    """The caveat that a period's value includes incomplete days (a daily series states each
    marked day itself), and that the change then does not compare like with like."""
    from baton.nlu.interpret import period_text

    notes: list[str] = []
    compared = query.comparison is not None
    shown = set(executed.incomplete_days)
    current = [d for d in executed.incomplete_current if d not in shown]
    tr = query.time_range
    if current:
        notes.append(
            text(
                "answer.incomplete_in_current",
                language,
                period=period_text(tr.start, tr.end, None, language),
                days=", ".join(d.isoformat() for d in current),
                effect=incomplete_effect(executed, language),
                compare=text("answer.incomplete_not_like_for_like", language) if compared else "",
            )
        )
    if query.comparison is not None and executed.incomplete_comparison:
        c = query.comparison.range
        notes.append(
            text(
                "answer.incomplete_in_comparison",
                language,
                period=period_text(c.start, c.end, None, language),
                days=", ".join(d.isoformat() for d in executed.incomplete_comparison),
                effect=incomplete_effect(executed, language),
                compare=text("answer.incomplete_not_like_for_like", language),
            )
        )
    return notes


def why_pointer(query: SemanticQuery, language: Language) -> str:
    """ "上个月GMV为什么下降" asked as a question: the change is the answer, and the sentence
    says where its drivers are found — never an answer that claims to give reasons it lacks."""
    return text("answer.why_needs_analysis", language) if query.intent == "why" else ""
