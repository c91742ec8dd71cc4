"""Whether the periods a question names lie inside the data its metrics are read from.

A day before a table's first loaded row has no rows, and no rows read as zero: "2024年的订单量"
on a warehouse loaded from 2025 would answer "—", a comparison whose earlier period starts before
the data ("最近12个月GMV同比", half of its base missing) would report a growth that is only the
data beginning, and a per-day average would count the missing days as zero. The first day of each
metric's own table (``MIN`` of its time column up to the last day asked) is read like freshness,
as system metadata; what follows from it is a pure function of the query and that day:

* every period before the data: asked back (there is nothing to show);
* a comparison with either period starting before the data: asked back (not like for like);
* a per-day average starting before the data: asked back (the days before would count as zero);
* any other period starting before the data (a total, a series): answered, with a note that
  the value holds the data from its first day on.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from baton.catalog.spine import counterpart_start, period_starts
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import OPEN_START, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, TimeExpressionError
from baton.messages import average_fields, both, localized, text

if TYPE_CHECKING:
    from baton.orchestrator.driver import RunScope


class DataStart(BaseModel):
    """The first day with rows of the metrics' own tables (the latest, when they are several:
    a ratio of two tables is known from the later one's first day on)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    table: str
    day: date


def read_data_start(scope: RunScope, query: SemanticQuery) -> DataStart | None:
    """The first day of the tables the metrics read, as one traced tool call of system metadata
    (like freshness: the span of the data, the same for every user, no statement budget spent);
    ``None`` when no table has a time column or a row."""
    catalog = scope.session.catalog
    tables = dict.fromkeys(m.table for metric in query.metrics for m in catalog.measures_of(metric))
    dated = {t: column for t in tables if (column := catalog.tables[t].time_column) is not None}
    if not dated:
        return None
    last = max(p.end for p in _periods(query))
    ctx, governed = scope.running, scope.governed

    def read() -> DataStart | None:
        found: list[DataStart] = []
        for table, column in dated.items():
            # nothing up to the last day asked: the data starts later, or not at all
            day = governed.first_day(table, column, up_to=last) or governed.first_day(table, column, after=last)
            if day is not None:
                found.append(DataStart(table=table, day=day))
        return max(found, key=lambda s: s.day, default=None)

    ctx.policy_decision("allow", tool="warehouse.data_start", reason="system metadata (the first day a table holds)")
    return ctx.tool_call("warehouse.data_start", {"tables": list(dated), "up_to": last.isoformat()}, read)


def all_time_from_the_data(scope: RunScope, query: SemanticQuery) -> SemanticQuery:
    """All time ("GMV all time", "历史累计"; :data:`OPEN_START`) from the earliest first day of the
    metrics' tables, each by the column its measure is dated by — read before the statement is
    built, so its dates are shown and a series starts with the data (a first week the data cuts is
    an edge the compiler leaves out of a ranking, never the lowest week). A table with no rows
    leaves it open."""
    if query.time_range.start != OPEN_START:
        return query
    catalog = scope.session.catalog
    measures = [m for metric in query.metrics for m in catalog.measures_of(metric)]
    dated = sorted({(m.table, c) for m in measures if (c := m.time_column or catalog.tables[m.table].time_column)})
    if not dated:
        return query
    end, ctx, governed = query.time_range.end, scope.running, scope.governed

    def read() -> date | None:
        return min((d for t, c in dated if (d := governed.first_day(t, c, up_to=end)) is not None), default=None)

    ctx.policy_decision("allow", tool="warehouse.data_start", reason="system metadata (the first day a table holds)")
    tables = [t for t, _ in dated]
    first = ctx.tool_call("warehouse.data_start", {"tables": tables, "up_to": end.isoformat()}, read)
    if first is None:
        return query
    return query.model_copy(update={"time_range": query.time_range.model_copy(update={"start": first})})


def check_periods(query: SemanticQuery, start: DataStart | None) -> None:
    """Ask back what the data cannot answer (see the module docstring)."""
    if start is None:
        return
    current, first = query.time_range, start.day
    if current.end < first:
        raise TimeExpressionError(
            *both("answer.no_data_before_start", first=first, **_span(current)),
            detail={"reason": "period_before_data", "first_day": first.isoformat()},
        )
    if query.comparison is not None:
        if current.start >= first and query.comparison.range.start < first:
            suggested = series_with_data_before(query, first)
            if suggested is not None:  # "2025年每个月GMV环比": January has no December in the data
                raise _series_before_data(query, first, suggested)
        for period, role in ((query.comparison.range, "comparison"), (current, "current")):
            if period.start < first:
                raise AmbiguousQuestion(
                    *both(f"answer.{role}_before_data", first=first, days=_days_before(period, first), **_span(period)),
                    detail={"reason": "comparison_before_data", "first_day": first.isoformat()},
                )
    if query.average_per is not None and current.start < first:
        raise AmbiguousQuestion(
            *both(
                "answer.average_before_data",
                period=_said(current),
                first=first,
                start=current.start,
                end=current.end,
                days=_days_before(current, first),
                **average_fields(query.average_per),
            ),
            detail={"reason": "average_before_data", "suggestions": [f"{first}~{current.end}"]},
        )


def series_with_data_before(query: SemanticQuery, first: date) -> tuple[date, date] | None:
    """The part of a series compared period by period (each against the one before it, or its own
    last year) whose every period has its counterpart inside the data from ``first`` on: the
    periods whose counterpart starts earlier are cut from its start. None for a comparison of
    whole ranges, or when no period is left."""
    current = query.time_range
    if query.grain is None or counterpart_start(query, current.start) is None:
        return None
    starts = period_starts(current.start, current.end, query.grain)
    kept = [s for s in starts if (counterpart_start(query, s) or date.min) >= first]
    return (kept[0], current.end) if kept else None


def _series_before_data(query: SemanticQuery, first: date, suggested: tuple[date, date]) -> AmbiguousQuestion:
    assert query.grain is not None
    return AmbiguousQuestion(
        *(
            text(
                "answer.series_before_data",
                lang,
                grain=text(f"answer.grain_{query.grain}", lang),
                first=first,
                start=suggested[0],
                end=suggested[1],
            )
            for lang in LANGUAGES
        ),
        detail={
            "reason": "comparison_before_data",
            "first_day": first.isoformat(),
            "suggestions": [f"{suggested[0]}~{suggested[1]}"],
            "missing": "time_range",
            "period": query.time_range.text or "",
        },
    )


def before_data_notes(query: SemanticQuery, start: DataStart | None, language: Language) -> list[str]:
    """The note of an answered period that starts before the data (a total or a series)."""
    if start is None or not query.time_range.start < start.day <= query.time_range.end:
        return []
    tr = query.time_range
    if tr.start == OPEN_START:  # all time: from the data's first day, never from a date before it
        return [text("answer.all_time_from", language, first=start.day)]
    return [
        text(
            "answer.range_before_data",
            language,
            start=tr.start,
            first=start.day,
            before=start.day - timedelta(days=1),
        )
    ]


def _periods(query: SemanticQuery) -> list[TimeRange]:
    return [query.time_range] + ([query.comparison.range] if query.comparison is not None else [])


def _said(period: TimeRange) -> str:
    return period.text or f"{period.start}~{period.end}"


def _span(period: TimeRange) -> dict[str, str]:
    """``period`` / ``period_zh``: the words that named it, with its dates (all time by its end
    alone: its start is no date anyone said)."""
    if period.start == OPEN_START:
        from baton.nlu.interpret import period_text

        return {
            "period": period_text(period.start, period.end, None, "en"),
            "period_zh": period_text(period.start, period.end, None, "zh"),
        }
    key = "answer.span_named" if period.text else "answer.span"
    return localized("period", key, text=period.text, start=period.start, end=period.end)


def _days_before(period: TimeRange, first: date) -> int:
    return (min(period.end + timedelta(days=1), first) - period.start).days
