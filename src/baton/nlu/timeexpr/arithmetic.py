"""Calendar arithmetic on inclusive date ranges: period bounds, the previous and next period, the same period a year or a month before."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from baton.errors import TimeExpressionError
from baton.messages import both

Grain = Literal["day", "week", "month", "quarter", "half", "year", "weekend", "custom"]
_Kind = Literal["day", "month", "quarter", "half", "year"]
_PeriodGrain = Literal["week", "month", "quarter", "half", "year"]

_PERIOD_GRAINS: tuple[_PeriodGrain, ...] = ("week", "month", "quarter", "half", "year")
_MONTHS_PER: dict[str, int] = {"month": 1, "quarter": 3, "half": 6, "year": 12}


@dataclass(frozen=True)
class TimeMatch:
    """One recognised time expression and the inclusive date range it means."""

    start: date
    end: date
    span: tuple[int, int]
    text: str
    grain: Grain
    clamped: bool


# ---------------------------------------------------------------- calendar arithmetic


def _month_end(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _add_months(d: date, months: int) -> date:
    """Move by whole months, capping the day at the target month's end (Mar 31 - 1 -> Feb 28)."""
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    return date(year, month + 1, min(d.day, calendar.monthrange(year, month + 1)[1]))


def _period_start(d: date, grain: _PeriodGrain) -> date:
    if grain == "week":
        return d - timedelta(days=d.weekday())
    size = _MONTHS_PER[grain]
    return date(d.year, (d.month - 1) // size * size + 1, 1)


def _period_end(d: date, grain: _PeriodGrain) -> date:
    if grain == "week":
        return _period_start(d, grain) + timedelta(days=6)
    return _add_months(_period_start(d, grain), _MONTHS_PER[grain]) - timedelta(days=1)


def period_bounds(d: date, grain: _PeriodGrain) -> tuple[date, date]:
    """The first and last day of the week, month, quarter, half or year that holds ``d``."""
    return _period_start(d, grain), _period_end(d, grain)


def _shift(d: date, grain: _PeriodGrain, n: int) -> date:
    if grain == "week":
        return d + timedelta(weeks=n)
    return _add_months(d, n * _MONTHS_PER[grain])


def _periods_between(first_start: date, last_start: date, grain: _PeriodGrain) -> int:
    """How many periods from the one starting at first_start to the one at last_start, inclusive."""
    if grain == "week":
        return (last_start - first_start).days // 7 + 1
    months = (last_start.year - first_start.year) * 12 + last_start.month - first_start.month
    return months // _MONTHS_PER[grain] + 1


def previous_period(start: date, end: date, grain: Grain) -> tuple[date, date]:
    """The comparison range for 环比 / MoM / period over period (rules in the module docstring)."""
    if start > end:
        raise TimeExpressionError(*both("nlu.range_reversed", start=start, end=end))
    if grain in _PERIOD_GRAINS:
        pg: _PeriodGrain = grain
        if start == _period_start(start, pg):
            last_start = _period_start(end, pg)
            n = _periods_between(start, last_start, pg)
            new_start = _shift(start, pg, -n)
            last_period_end = _period_end(_shift(last_start, pg, -n), pg)
            if end == _period_end(end, pg):
                return new_start, last_period_end
            return new_start, min(_shift(end, pg, -n), last_period_end)
    if grain == "weekend":  # the weekend before, never the Thursday and Friday before it
        return start - timedelta(weeks=1), end - timedelta(weeks=1)
    length = (end - start).days + 1
    return start - timedelta(days=length), start - timedelta(days=1)


def next_period(start: date, end: date, grain: Grain) -> tuple[date, date]:
    """The whole period after ``start``..``end``, which is one whole ``grain`` (a day: the next day)."""
    if grain in _PERIOD_GRAINS:
        pg: _PeriodGrain = grain
        following = _shift(start, pg, 1)
        return following, _period_end(following, pg)
    length = (end - start).days + 1
    return end + timedelta(days=1), end + timedelta(days=length)


def range_grain(start: date, end: date, as_of: date | None = None) -> Grain:
    """The kind of period a range is when only its dates are known (a follow-up's inherited
    range, a model's reading), so that "the previous period" means what the rule planner means
    by it: whole ISO weeks; whole years, halves, quarters or months (the largest that fits:
    January to June is a half); a month or a week so far, ending the day before ``as_of``
    ("本月", "本周"); a Saturday and the Sunday after it, a weekend; else days. Dates alone cannot
    tell "今年" from "本月" on 1 to 14 January (the month is taken), nor a weekend from the last
    two days that happen to be one (the weekend is taken)."""
    so_far = as_of is not None and end == as_of - timedelta(days=1)
    if start.weekday() == 0 and end.weekday() == 6 and (end - start).days % 7 == 6:
        return "week"
    if start.day == 1:
        for grain in ("year", "half", "quarter", "month"):
            if start == _period_start(start, grain) and end == _period_end(end, grain):
                return grain
        if so_far:
            return "month"
    if so_far and start.weekday() == 0 and (end - start).days < 7:
        return "week"
    if start.weekday() == 5 and (end - start).days == 1:
        return "weekend"
    return "day"


def comparison_range(
    kind: Literal["previous_period", "same_period_last_year"],
    start: date,
    end: date,
    *,
    grain: Grain | None = None,
    as_of: date | None = None,
) -> tuple[date, date]:
    """The one place "the previous period" (环比) and "the same period last year" (同比) of a range
    are computed, for the rule planner (``grain`` read from the words), follow-ups and a model's
    reading (``grain`` read back from the dates by :func:`range_grain`)."""
    if kind == "same_period_last_year":  # a week said as one (上周, 第25周): its ISO week; dates alone: the dates
        return same_week_last_year(start, end) if grain == "week" else same_period_last_year(start, end)
    return previous_period(start, end, grain or range_grain(start, end, as_of))


def same_days_last_month(start: date, end: date) -> tuple[date, date]:
    """上月同期: the same days one month earlier (June 1..15 -> May 1..15); a month's last day
    stays its last day (June 30 -> May 31), and a day the earlier month lacks is its last."""
    if start > end:
        raise TimeExpressionError(*both("nlu.range_reversed", start=start, end=end))
    new_start, new_end = _add_months(start, -1), _add_months(end, -1)
    if end == _month_end(end.year, end.month):
        new_end = _month_end(new_end.year, new_end.month)
    return new_start, new_end


def same_week_last_year(start: date, end: date) -> tuple[date, date]:
    """同比 of a week: the same ISO week and weekdays a year earlier (week 25 against week 25, Monday
    against Monday), not the same dates, which fall on other weekdays; a week 53 the year before
    lacks is the week 52 weeks earlier."""
    year, week, weekday = start.isocalendar()
    try:
        new_start = date.fromisocalendar(year - 1, week, weekday)
    except ValueError:
        new_start = start - timedelta(weeks=52)
    return new_start, new_start + (end - start)


def shift_years(d: date, years: int) -> date:
    """The same day ``years`` years later (earlier when negative); 29 February becomes the 28th."""
    try:
        return d.replace(year=d.year + years)
    except ValueError:  # Feb 29 -> Feb 28
        return d.replace(year=d.year + years, day=28)


def same_period_last_year(start: date, end: date) -> tuple[date, date]:
    """The same dates one year earlier (同比 / YoY); Feb 29 becomes Feb 28.

    A run of whole months stays whole: 2029-02-01..2029-02-28 -> 2028-02-01..2028-02-29.
    """
    if start > end:
        raise TimeExpressionError(*both("nlu.range_reversed", start=start, end=end))
    new_start, new_end = shift_years(start, -1), shift_years(end, -1)
    if start.day == 1 and end == _month_end(end.year, end.month):
        new_end = _month_end(new_end.year, new_end.month)
    return new_start, new_end
