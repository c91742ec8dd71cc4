"""The chart agent: an answered query and its result table -> a validated Vega-Lite spec.

The intent comes from the query, not from guessing at the table: a time grain is a trend
(line), a comparison with an earlier period is a period comparison (grouped bars with the
change labelled), dimensions are a comparison across members (sorted bars), and a single value
needs no chart. Labels come from the catalog in the answer's language; member codes
(``app``) are shown as their catalog labels (``APP``/``app``, ``小程序``/``mini program``).
No plotting code is generated: :mod:`baton.charts` builds and validates a declarative spec.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime as dt
from dataclasses import dataclass
from typing import Any

from baton.catalog.compiler import shown_metric, value_column
from baton.catalog.model import Catalog, member_key
from baton.charts import (
    ChartChoice,
    ChartColumn,
    ChartMark,
    ChartNotApplicable,
    ChartRequest,
    Intent,
    build_spec,
    choose_chart,
)
from baton.charts.model import CellValue
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import capitalised, text
from baton.nlu.interpret import bound_said, value_label
from baton.numbers import possessive
from baton.stats import peak_window_for

PERIOD_COLUMN = "period"


@dataclass(frozen=True)
class ChartPlan:
    """What the agent decided: the request it built, the chosen kind and the spec (``None``
    when the result is best read as a table)."""

    request: ChartRequest | None
    choice: ChartChoice
    spec: dict[str, Any] | None


def _month_end(day: dt.date) -> int:
    return calendar.monthrange(day.year, day.month)[1]


def span_label(start: dt.date, end: dt.date, language: Language) -> str:
    """A period as a reader names it: ``2026年6月``/``Jun 2026``, ``2026年第2季度``/``Q2 2026``,
    ``2026年``, ``2026年1月 至 2026年6月``; other spans as their dates."""
    whole_months = start.day == 1 and end.day == _month_end(end)
    if whole_months and (start.year, start.month) == (end.year, end.month):
        return text("charts.month", language, date=start)
    if whole_months and (start.month, end.month, start.year) == (1, 12, end.year):
        return text("charts.year", language, year=start.year)
    quarter = (start.month - 1) // 3 + 1
    if whole_months and start.month % 3 == 1 and end.month == start.month + 2 and start.year == end.year:
        return text("charts.quarter", language, year=start.year, q=quarter)
    if whole_months and (start.month, end.month) == (1, 12):
        first, last = text("charts.year", language, year=start.year), text("charts.year", language, year=end.year)
        return text("charts.span", language, start=first, end=last)
    if whole_months:
        first, last = text("charts.month", language, date=start), text("charts.month", language, date=end)
        return text("charts.span", language, start=first, end=last)
    if start == end:
        return start.isoformat()
    return text("charts.span", language, start=start.isoformat(), end=end.isoformat())


def scope_label(query: SemanticQuery, catalog: Catalog, language: Language) -> str:
    """The filters a chart's numbers are restricted to, as its title states them: each
    dimension with its members (``区域：华东``) or exclusions (``渠道：不含直播``), then any
    semantic-layer conditions and the bound that kept the groups (``订单量：高于 8,000``); empty
    when the query has none."""
    sep = text("charts.list_sep", language)
    parts = []
    for f in query.filters:
        members = text("charts.members_sep", language).join(
            catalog.member_label(f.dimension, m, language) for m in f.members
        )
        key = "charts.scope_excluded" if f.exclude else "charts.scope_member"
        parts.append(text(key, language, dim=catalog.dimensions[f.dimension].label.for_lang(language), members=members))
    parts += list(query.where)
    bound = query.threshold
    if bound is not None and bound.check == "keep":  # the groups charted are those that passed it
        parts.append(text("charts.scope_bound", language, **bound_said(query, catalog, language)))
    return sep.join(parts)


def when_label(start: dt.date, end: dt.date, scope: str, language: Language) -> str:
    """The period, followed by the scope when there is one (``2026年6月，区域：华东``)."""
    when = span_label(start, end, language)
    return text("charts.when_scope", language, when=when, scope=scope) if scope else when


def intent_of(query: SemanticQuery) -> Intent | None:
    """The chart intent the query implies (``None``: a single value, shown as a table)."""
    if query.comparison is not None:
        return "period_comparison"
    if query.grain is not None:
        return "trend"
    if query.dimensions and query.intent == "share":
        # parts of a whole: donut for few parts, else stacked bar; a part's share inside each group
        # ("各区域中直播的占比") is no part of one whole: its shares side by side
        return "compare" if query.share_within else "share"
    if query.dimensions and len(query.metrics) == 2 and query.top_n is None:
        return "relationship"  # two measures across members: scatter
    if query.dimensions:
        return "compare"
    return None


def _as_date(value: Any) -> CellValue:
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.datetime.fromisoformat(value) if "T" in value or " " in value else dt.date.fromisoformat(value)
        except ValueError:
            return value
    return value  # type: ignore[no-any-return]


def _cell(value: Any) -> CellValue:
    if value is None or isinstance(value, str | int | float | bool | dt.date):
        return value
    try:
        return float(value)
    except (TypeError, ValueError):
        return str(value)


def _peak_mark(query: SemanticQuery, rows: list[tuple[CellValue, ...]], language: Language) -> tuple[ChartMark, ...]:
    """A single-series trend marks its highest point (the one the narrative names)."""
    if query.grain is None or query.dimensions or query.comparison is not None or len(rows) < 3:
        return ()
    valued = [(r[0], r[-1]) for r in rows if isinstance(r[-1], int | float) and isinstance(r[0], dt.date)]
    if not valued:
        return ()
    at, _ = max(valued, key=lambda pair: float(pair[1]))
    assert isinstance(at, dt.date)
    return (ChartMark("peak", at, text("charts.peak", language)),)


class ChartAgent:
    """Builds the chart of an answer from the catalog's labels; deterministic, no model."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def _member(self, dimension: str, value: Any, language: Language) -> CellValue:
        if value is None:
            return None
        info = self.catalog.dimensions[dimension].members.get(member_key(value))
        return info.label.for_lang(language) if info else _cell(value)

    def title(self, query: SemanticQuery, metric: str, language: Language) -> str:
        """The chart's title: the metric, breakdown, grain or comparison, the period and every
        filter of the query (from the SemanticQuery, never from the question's words)."""
        label = value_label(self.catalog, query, metric, language)
        if intent_of(query) == "relationship":
            second = value_label(self.catalog, query, query.metrics[1], language)
            label = text("charts.two_measures", language, label=label, second=second)
        if query.share and query.comparison is not None:  # "成交总额占比环比": the shares are charted
            label = text("charts.share_of", language, label=label)
        tr = query.time_range
        when = when_label(tr.start, tr.end, scope_label(query, self.catalog, language), language)
        titled = {"label": capitalised(label), "label_zh": label, "when": when}
        dims = self._dims_text(query, language) if query.dimensions else ""
        if query.comparison is not None:
            # the breakdown reads on the x axis; the other report formats quote this title as it is
            kind = text(f"charts.vs_{query.comparison.kind}", language)
            return text("charts.title_comparison", language, kind=kind, **titled)
        if query.grain is not None:
            every = text(f"charts.every_{query.grain}", language)
            key = "charts.title_trend_by" if dims else "charts.title_trend"
            return text(key, language, every=every, label=label, dims=dims, when=when)
        if dims and query.top_n is not None:
            word = text("charts.bottom" if query.order == "asc" else "charts.top", language)
            return text("charts.title_top", language, word=word, count=query.top_n, dims=dims, label=label, when=when)
        if dims and intent_of(query) == "share":
            return text("charts.title_share", language, dims=dims, metric=label, when=when)
        if dims and query.share_within:
            part = self._part_text(query, language)
            fields = {"owner": possessive(part, language), "dims": dims, "metric": label, "when": when}
            return text("charts.title_share_within", language, **fields)
        if dims:
            return text("charts.title_by", language, dims=dims, **titled)
        return text("charts.title", language, **titled)

    def _part_text(self, query: SemanticQuery, language: Language) -> str:
        """The part a share is of, by its members' labels ("直播", "new users")."""
        return text("charts.dims_sep", language).join(
            self.catalog.member_label(f.dimension, m, language) for f in query.share_filters for m in f.members
        )

    def _dims_text(self, query: SemanticQuery, language: Language) -> str:
        labels = [self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions]
        return text("charts.dims_sep", language).join(labels)

    def request(self, query: SemanticQuery, table: ResultTable, language: Language) -> ChartRequest | None:
        """The chart request for ``table``; ``None`` when there is nothing to chart."""
        names = [c.name for c in table.columns]
        metric = shown_metric(query, names)
        if metric is None or not table.rows:
            return None
        picks: list[tuple[int, ChartColumn, str]] = []  # (source index, column, kind of conversion)
        if PERIOD_COLUMN in names and query.grain is not None:
            picks.append(
                (
                    names.index(PERIOD_COLUMN),
                    ChartColumn(
                        PERIOD_COLUMN, "time", text(f"charts.grain_{query.grain}", language), grain=query.grain
                    ),
                    "time",
                )
            )
        for dim in query.dimensions:
            if dim in names:
                label = capitalised(self.catalog.dimensions[dim].label.for_lang(language))
                picks.append((names.index(dim), ChartColumn(dim, "dimension", label), f"member:{dim}"))
        picks += self._measure_picks(query, names, metric, language)
        rows: list[tuple[CellValue, ...]] = []
        for row in table.rows:
            cells: list[CellValue] = []
            for index, _column, how in picks:
                raw = row[index]
                if how == "time":
                    cells.append(_as_date(raw))
                elif how.startswith("member:"):
                    cells.append(self._member(how.split(":", 1)[1], raw, language))
                else:
                    cells.append(_cell(raw))
            rows.append(tuple(cells))
        return ChartRequest(
            columns=tuple(c for _, c, _ in picks),
            rows=tuple(rows),
            language=language,
            title=self.title(query, metric, language),
            intent=intent_of(query),
            marks=_peak_mark(query, rows, language),
        )

    def _measure_picks(
        self, query: SemanticQuery, names: list[str], metric: str, language: Language
    ) -> list[tuple[int, ChartColumn, str]]:
        """The measures charted: this period's and the other's (their shares for a share), a part's
        share in each group, or the metric (with a second one for a relationship)."""
        column = value_column(query, metric)  # "revenue", or "revenue_per_day" ("_per_month" …)
        unit, currency = self.catalog.metrics[metric].unit, self.catalog.currency_of(metric)
        picks: list[tuple[int, ChartColumn, str]] = []
        if query.comparison is not None and f"{column}_previous" in names:
            tr, prev = query.time_range, query.comparison.range
            current_label = text("charts.current_period", language, span=span_label(tr.start, tr.end, language))
            previous_label = text("charts.previous_period", language, span=span_label(prev.start, prev.end, language))
            previous = f"{column}_previous"
            if query.share:  # each period's share of its own whole, side by side
                column, previous, unit, currency = f"{column}_share", f"{previous}_share", "ratio", None
            picks.append((names.index(column), ChartColumn(column, "measure", current_label, unit, currency), "value"))
            picks.append(
                (names.index(previous), ChartColumn(previous, "measure", previous_label, unit, currency), "value")
            )
        elif query.share_within and f"{column}_share" in names:  # each group's own share, side by side
            part = self._part_text(query, language)
            share = text("charts.share_measure", language, owner=possessive(part, language))
            picks.append(
                (names.index(f"{column}_share"), ChartColumn(f"{column}_share", "measure", share, "ratio"), "value")
            )
        else:
            label = capitalised(value_label(self.catalog, query, metric, language))
            picks.append((names.index(column), ChartColumn(column, "measure", label, unit, currency), "value"))
            if intent_of(query) == "relationship":  # two measures across members: both go on the chart
                second = query.metrics[1]
                other = self.catalog.metrics[second]
                picks.append(
                    (
                        names.index(value_column(query, second)),
                        ChartColumn(
                            value_column(query, second),
                            "measure",
                            capitalised(value_label(self.catalog, query, second, language)),
                            other.unit,
                            self.catalog.currency_of(second),
                        ),
                        "value",
                    )
                )
        return picks

    def plan(
        self, query: SemanticQuery, table: ResultTable, language: Language, incomplete: tuple[dt.date, ...] = ()
    ) -> ChartPlan:
        """Choose and build the chart; a result that is a table yields ``spec=None``. Incomplete
        days (from the quality check) are marked and drawn distinctly, never dropped."""
        req = self.request(query, table, language)
        if req is not None and incomplete:
            label = text("charts.incomplete_mark", language)
            req = dataclasses.replace(req, marks=(*req.marks, *(ChartMark("incomplete", d, label) for d in incomplete)))
        if req is None or intent_of(query) is None:
            reason = text("charts.no_chart_single_value", language)
            return ChartPlan(req, ChartChoice("table", reason), None)
        choice = choose_chart(req)
        if choice.kind == "table":
            return ChartPlan(req, choice, None)
        try:
            spec = build_spec(req, choice)
        except ChartNotApplicable:
            return ChartPlan(req, ChartChoice("table", choice.reason), None)
        return ChartPlan(req, choice, spec)


def chart_for_answer(
    catalog: Catalog,
    query: SemanticQuery,
    table: ResultTable,
    language: Language,
    incomplete: tuple[dt.date, ...] = (),
) -> dict[str, Any] | None:
    """The validated Vega-Lite spec for an answer, or ``None`` when it reads best as a table."""
    return ChartAgent(catalog).plan(query, table, language, incomplete).spec


def analysis_chart(
    catalog: Catalog,
    query: SemanticQuery,
    daily: list[dict[str, Any]],
    language: Language,
    *,
    incomplete: list[dt.date],
    change_points: list[dt.date],
) -> dict[str, Any] | None:
    """The analysis report's chart: the metric per day across the comparison and current periods,
    with incomplete days drawn distinctly (never dropped), the catalog's calendar events and change points
    marked. ``daily`` are the sql agent's daily rows (``period`` plus the metric column)."""
    metric = query.metrics[0]
    info = catalog.metrics[metric]
    start = query.comparison.range.start if query.comparison is not None else query.time_range.start
    end = query.time_range.end
    rows: list[tuple[dt.date, CellValue]] = []
    for row in daily:
        day = dt.date.fromisoformat(str(row["period"]))
        value = row.get(metric)
        if start <= day <= end and isinstance(value, int | float | str):
            rows.append((day, value))
    if len(rows) < 2:
        return None
    marks: list[ChartMark] = [
        ChartMark("incomplete", day, text("charts.incomplete_mark", language))
        for day in incomplete
        if start <= day <= end
    ]
    for day, _value in rows:
        peak = peak_window_for(day, catalog.calendar)
        if peak is not None and peak.is_peak_day(day):
            marks.append(ChartMark("peak", day, peak.label(language)))
    marks += [ChartMark("change_point", day, text("charts.change_point", language)) for day in change_points]
    label = info.label.for_lang(language)
    when = when_label(start, end, scope_label(query, catalog, language), language)
    title = text("charts.title_daily", language, label=label, when=when)
    request = ChartRequest(
        columns=(
            ChartColumn("period", "time", text("charts.date_axis", language), grain="day"),
            ChartColumn(metric, "measure", label, unit=info.unit, currency=catalog.currency_of(metric)),
        ),
        rows=tuple(rows),
        language=language,
        title=title,
        intent="trend",
        marks=tuple(marks),
    )
    return build_spec(request, choose_chart(request))
