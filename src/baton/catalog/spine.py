"""Periods and members without rows: the gaps of a breakdown or a series, filled with zeros by
the query itself.

A day (week, month …) or a member on which nothing happened has no rows, so ``GROUP BY`` leaves
it out: a series of orders per day would skip the day, its line would jump the gap, and "the
quietest day" or "the two categories with the fewest orders" would name others. The compiler
joins the measured rows onto every key the *table* holds in the question's range (the
``loaded`` CTE: its periods and members, whatever the question's other filters) — periods as a
``VALUES`` spine of literal dates (every engine reads it, the firewall sees no table function),
members as the table has them — and a sum or a count is 0 where nothing was measured, a cell of
the query's result like any other.

Periods are filled between the first and the last on which the table has rows. Before them the
data may not have started (the data span says so), after them it may not be loaded (freshness
says so), and a zero there would be a claim the data cannot back; a day inside without any row
in the table is flagged incomplete by the completeness check (a load that failed), so its 0 is
marked. Members are those the table holds in the range (a member never seen there is unknown).
Rates and averages are not filled: with nothing measured they have no value. Nor is a series of
more than ``MAX_PERIODS`` periods: its spine would outgrow the SQL the firewall parses. The
answer names the periods such a series lacks (``missing_periods``).
"""

from __future__ import annotations

from datetime import date, timedelta

from sqlglot import exp

from baton.catalog.model import Catalog
from baton.contracts.semantic import Grain, SemanticQuery, TimeRange, periods_before

MAX_PERIODS = 750
"""The longest spine: every weekly or monthly series, a daily one of up to two years."""
MEASURED = "measured"
LOADED = "loaded"
SOURCE = "source"
"""The column of ``loaded`` naming which of several tables a row is of."""
_SPINE = "spine"
_GRID = "grid"


def period_start(day: date, grain: Grain) -> date:
    """``DATE_TRUNC(grain, day)`` as every engine computes it (weeks start on Monday)."""
    if grain == "day":
        return day
    if grain == "week":
        return day - timedelta(days=day.weekday())
    if grain == "month":
        return day.replace(day=1)
    if grain == "quarter":
        return date(day.year, 3 * ((day.month - 1) // 3) + 1, 1)
    return date(day.year, 1, 1)


def bucket_end(start: date, grain: str) -> date | None:
    """The last day of the bucket starting ``start`` (None for a day, which is never cut)."""
    if grain == "week":
        return start + timedelta(days=6)
    months = {"month": 1, "quarter": 3, "year": 12}.get(grain)
    if months is None:
        return None
    total = start.month - 1 + months
    return date(start.year + total // 12, total % 12 + 1, 1) - timedelta(days=1)


def missing_periods(query: SemanticQuery, periods: list[date]) -> list[date]:
    """The periods between the first and the last of ``periods`` (a series' cells) that it lacks."""
    if query.grain is None or not periods:
        return []
    have = set(periods)
    return [d for d in period_starts(min(periods), max(periods), query.grain) if d not in have]


def period_starts(start: date, end: date, grain: Grain) -> list[date]:
    """The first day of every ``grain`` bucket that holds a day of ``start``..``end``."""
    starts: list[date] = []
    day = start
    while day <= end:
        first = period_start(day, grain)
        if not starts or starts[-1] != first:
            starts.append(first)
        day += timedelta(days=1)
    return starts


def whole_period_count(start: date, end: date, grain: Grain) -> int | None:
    """How many days (weeks, months …) ``start``..``end`` holds, when it holds whole ones only
    (None when it cuts one at an edge: 2026 Q2 is 13 weeks and two days)."""
    if grain == "day":
        return (end - start).days + 1
    closing = period_start(end, grain)
    if period_start(start, grain) != start or bucket_end(closing, grain) != end:
        return None
    return len(period_starts(start, end, grain))


def whole_periods(query: SemanticQuery) -> tuple[date, date] | None:
    """The part of a ranking of weeks, months, quarters or years — or of those a bound keeps —
    that holds whole ones only, when the asked period cuts one at an edge ("2025年GMV最低的一周":
    2025-12-29 holds 3 days of 2025; a 3-day week is no "lowest week", nor one "below 20,000
    orders"); None when nothing is cut, or nothing whole is left."""
    ranked = query.top_n is not None or query.rank_place is not None or query.intent == "ranking"
    if query.rank_each_period and query.threshold is None:  # the groups inside each period are ranked, not it
        return None
    if not (ranked or query.threshold is not None) or query.grain in (None, "day"):
        return None
    assert query.grain is not None
    start, end = query.time_range.start, query.time_range.end
    inside = whole_inside(start, end, query.grain)
    return None if inside == (start, end) else inside


def whole_query(query: SemanticQuery) -> SemanticQuery | None:
    """``query`` over its :func:`whole_periods`; the period it is compared with loses the same
    days at each end — the same dates a year back, or the same days of a weekday-aligned comparison —
    so each week (month …) still meets its own ("今年GMV最高的3周，同比": the week of 2026-06-15 against
    the same ISO week of 2025, never rows shifted by 369 days). None when nothing is cut."""
    whole = whole_periods(query)
    if whole is None:
        return None
    (start, end), current = whole, query.time_range
    update: dict[str, object] = {"time_range": TimeRange(start=start, end=end, text=current.text)}
    if query.comparison is not None:
        before = query.comparison.range
        if (before.start, before.end) == (_year_back(current.start), _year_back(current.end)):
            moved = TimeRange(start=_year_back(start), end=_year_back(end), text=before.text)  # the same dates
        else:  # a weekday-aligned comparison: the same days earlier
            moved = TimeRange(
                start=before.start + (start - current.start), end=before.end - (current.end - end), text=before.text
            )
        update["comparison"] = query.comparison.model_copy(update={"range": moved})
    return query.model_copy(update=update)


def _year_back(day: date) -> date:
    """The same date a year earlier (29 February: the 28th)."""
    try:
        return day.replace(year=day.year - 1)
    except ValueError:
        return day.replace(year=day.year - 1, day=28)


def counterpart_start(query: SemanticQuery, start: date) -> date | None:
    """The first day of the rows a series compared period by period sets against its period
    starting ``start``: the period before it (each against the one before), or its own last year —
    a calendar year back, or the days the comparison is aligned by (a weekday-aligned week is 364
    days back), as the compiler moves those rows. None for any other query."""
    grain, comparison, current = query.grain, query.comparison, query.time_range
    if grain is None or comparison is None:
        return None
    if query.each_period_before:
        before = periods_before(start, bucket_end(start, grain) or start, grain)  # a day is its own end
        return before[0] if before is not None else None
    if comparison.kind != "same_period_last_year":
        return None
    if comparison.range.start == _year_back(current.start):
        return _year_back(start)
    return start - (current.start - comparison.range.start)


def whole_inside(start: date, end: date, grain: Grain) -> tuple[date, date] | None:
    """The longest part of ``start``..``end`` that holds whole weeks (months …) only; None when
    it holds not one."""
    if grain == "day":
        return start, end
    opening, closing = period_start(start, grain), period_start(end, grain)
    opening_end = bucket_end(opening, grain)
    assert opening_end is not None
    first = start if opening == start else opening_end + timedelta(days=1)
    last = end if bucket_end(closing, grain) == end else closing - timedelta(days=1)
    return None if first > last else (first, last)


def _filled(value: str, period: str, source: int | None) -> exp.Expr:
    """A value of the spine: 0 where nothing was measured — for a value of one of several tables,
    only between that table's first and last period (before it starts there is no data, not 0)."""
    zero = exp.func("COALESCE", exp.column(value, table=MEASURED), exp.Literal.number(0))
    if source is None:
        return zero
    inside = _between_loaded(period, source)
    return exp.Case(ifs=[exp.If(this=inside, true=zero)], default=exp.column(value, table=MEASURED))


def _between_loaded(period: str, source: int | None = None) -> exp.Expr:
    """The spine's period between the first and the last one ``loaded`` holds (of one ``source``)."""
    ends = []
    for f in ("MIN", "MAX"):
        end = exp.select(exp.func(f, exp.column(period)), copy=False).from_(exp.table_(LOADED), copy=False)
        if source is not None:
            end = end.where(exp.column(SOURCE).eq(exp.Literal.number(source)), copy=False)
        ends.append(end.subquery(copy=False))
    return exp.Between(this=exp.column(period, table=_SPINE), low=ends[0], high=ends[1])


def fills_gaps(query: SemanticQuery, catalog: Catalog) -> bool:
    """A breakdown or a series (no comparison) of sums and counts, not cut by a --where, of at
    most ``MAX_PERIODS`` periods."""
    keyed = query.grain is not None or bool(query.dimensions)
    return (
        keyed
        and (
            query.grain is None
            or len(period_starts(query.time_range.start, query.time_range.end, query.grain)) <= MAX_PERIODS
        )
        and query.comparison is None
        and query.average_per is None
        and not query.where
        and all(catalog.metrics[m].amount_or_count for m in query.metrics)
    )


def on_spine(
    query: SemanticQuery, period: str, dimensions: list[str], values: list[str], own: dict[str, int] | None = None
) -> exp.Select:
    """``SELECT [period,] dims…, COALESCE(m, 0) …`` over every key the ``loaded`` CTE holds (the
    spine of the query's periods between its first and last, times its members), left-joined to
    the ``measured`` CTE. ``own``: of a series of several tables, each value's table (its
    ``SOURCE`` in ``loaded``) — its zeros only between that table's first and last period."""
    outs: list[exp.Expr] = [exp.column(d, table=_GRID).as_(d) for d in dimensions]
    outs += [_filled(v, period, (own or {}).get(v) if query.grain is not None else None).as_(v) for v in values]
    same: list[exp.Expr] = [
        exp.NullSafeEQ(this=exp.column(d, table=_GRID), expression=exp.column(d, table=MEASURED)) for d in dimensions
    ]
    grid = (
        exp.select(*[exp.column(d) for d in dimensions], copy=False)
        .distinct(copy=False)
        .from_(exp.table_(LOADED), copy=False)
        .subquery(_GRID, copy=False)
    )
    if query.grain is None:
        select = exp.select(*outs, copy=False).from_(grid, copy=False)
        return select.join(exp.table_(MEASURED), on=exp.and_(*same, copy=False), join_type="LEFT", copy=False)
    literals = [
        exp.Tuple(expressions=[exp.Literal.string(d.isoformat())])
        for d in period_starts(query.time_range.start, query.time_range.end, query.grain)
    ]
    listed = exp.Values(expressions=literals, alias=exp.TableAlias(this=exp.to_identifier("v"), columns=[period]))
    as_date = exp.cast(exp.column(period), exp.DataType.build(exp.DataType.Type.DATE)).as_(period)
    as_dates = exp.select(as_date, copy=False).from_(listed, copy=False)
    select = exp.select(exp.column(period, table=_SPINE).as_(period), *outs, copy=False)
    select = select.from_(as_dates.subquery(_SPINE, copy=False), copy=False)
    if dimensions:
        select = select.join(grid, join_type="CROSS", copy=False)
    same.insert(0, exp.column(period, table=_SPINE).eq(exp.column(period, table=MEASURED)))
    select = select.join(exp.table_(MEASURED), on=exp.and_(*same, copy=False), join_type="LEFT", copy=False)
    between = _between_loaded(period)
    return select.where(between, copy=False)
