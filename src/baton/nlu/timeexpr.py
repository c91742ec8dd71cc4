"""Bilingual (Chinese + English) time expressions -> inclusive date ranges.

Why our own parser: no PyPI library turns Chinese period expressions into *ranges* reliably —
jionlp fails on 上个月 / 本月, dateparser returns points in time rather than periods, and
recognizers-text (Microsoft) is unmaintained. A question's time range decides which rows an
answer counts, so this module is small, table-tested and explicit about every decision.

Conventions (``as_of`` is the analysis date; complete data exists up to ``as_of - 1``):

* Ranges are inclusive ``[start, end]`` and never end after ``as_of - 1``. A period that
  straddles ``as_of - 1`` (本月, this year, a year-less "7月" in July) is cut there and marked
  ``clamped=True``; a period that starts after it (今天, 明年, "2026年7月" on 2026-07-01) raises
  :class:`TimeExpressionError` ("no data yet"), as do impossible dates (2026年13月, 2026-02-30).
* "last N days" / 近N天 is ``[as_of - N, as_of - 1]`` (grain ``custom``). "last N weeks / months /
  quarters / years" (近3个月, past 2 quarters, 最近一周) is the N *complete calendar periods
  before the current one*, e.g. on 2026-07-15 近3个月 = 2026-04-01..2026-06-30. We chose whole
  periods so that month-over-month comparisons and monthly charts line up with calendar months;
  the grain of such a range is the period kind ("month"), meaning "whole months". Years are the
  exception: 近一年 / the past year / last 2 years are the 12 (24) whole months before the current
  one, as people mean them (a calendar year is 去年 / last year).
* last week / 上周 is the previous ISO week (Monday..Sunday); 上上周 / 上上个月 go two back.
* A year-less month, quarter, half or day means the most recent one that has started on or
  before ``as_of - 1`` (on 2026-07-01: 12月 -> 2025-12, 6月 -> 2026-06, 三季度 -> 2025 Q3).
* A bare 4-digit number counts as a year only when it is 19xx/20xx standing alone (not part of a
  number, an amount, a count such as "2000 customers" / "2000个", or after "top" / 前 / 第).
* English "May" is a month only next to a year or a day number, or after "in" / "during".
  Latin tokens (Q2, H1, MTD) must stand alone: "SQ2X" does not contain a quarter.
* "去年同期" / "same period last year" are comparison markers, not ranges: they are skipped
  (use :func:`same_period_last_year`).
* "X以来" / "X至今" / "since X" / "X to date" extend X to ``as_of - 1``.
* :func:`parse_time_range` joins "从X到Y", "X至Y", "X-Y", "between X and Y", "from X to Y" into
  ``start(X)..end(Y)``; a year-less side takes the other side's year. With several unrelated
  expressions it returns the first one (the question's main range).
* :func:`previous_period`: a whole calendar period (or run of N whole periods) of the given grain
  maps to the previous one (June -> May 1..31; 2026Q2 -> 2026Q1); a clamped partial period that
  starts on a period boundary maps to the same days of the previous period (2026-06-01..15 ->
  2026-05-01..15, capped at month end); a weekend (Saturday and Sunday) maps to the weekend
  before, never to the Thursday and Friday before it; anything else shifts back by its own length.

Input is normalised with NFKC character by character (full-width digits and spaces work); the
normalised text has the same length as the input, so spans index the original text.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import Literal

from baton import patterns
from baton.errors import AmbiguousQuestion, TimeExpressionError
from baton.messages import both
from baton.messages import text as message
from baton.nlu.cn_numerals import parse_cn_int

__all__ = [
    "Grain",
    "TimeMatch",
    "comparison_range",
    "find_time_expressions",
    "parse_time_range",
    "previous_period",
    "range_grain",
    "same_days_last_month",
    "same_period_last_year",
]

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


# ---------------------------------------------------------------- resolution helpers


@dataclass(frozen=True)
class _Anchor:
    """Where a calendar expression sits, so a range's year-less side can take the other's year."""

    kind: _Kind
    year: int
    a: int  # month, quarter or half number (unused for years)
    b: int  # day of month (days only)
    year_explicit: bool


@dataclass(frozen=True)
class _Raw:
    """A resolved expression before the data cut-off is applied."""

    start: date
    end: date
    grain: Grain
    anchor: _Anchor | None = None
    parts: tuple[_Raw, _Raw] | None = None  # a span's first and last period ("5月到6月")
    loose_edge: bool = False
    """A month's end or start said loosely ("5月底", "end of May"): one end of a range, never a period alone."""


@dataclass(frozen=True)
class _Ctx:
    as_of: date

    @property
    def last(self) -> date:
        return self.as_of - timedelta(days=1)


def _invalid(text: str, reason: str, **fields: object) -> TimeExpressionError:
    """``text`` is not a date or period; ``reason`` is the message key saying why."""
    reason_en, reason_zh = both(reason, **fields)
    return TimeExpressionError(
        *both("nlu.invalid_time", text=text, reason=reason_en, reason_zh=reason_zh),
        detail={"text": text},
    )


def _no_data(text: str, start: date, last: date) -> TimeExpressionError:
    return TimeExpressionError(
        *both("nlu.no_data_yet", text=text, start=start, last=last),
        detail={"text": text, "start": start.isoformat(), "latest_complete_day": last.isoformat()},
    )


def _bounds(kind: _Kind, year: int, a: int, b: int) -> tuple[date, date]:
    if kind == "year":
        return date(year, 1, 1), date(year, 12, 31)
    if kind == "month":
        return date(year, a, 1), _month_end(year, a)
    if kind == "quarter":
        first = date(year, 3 * a - 2, 1)
        return first, _month_end(year, 3 * a)
    if kind == "half":
        return date(year, 6 * a - 5, 1), _month_end(year, 6 * a)
    day = date(year, a, b)
    return day, day


def _calendar(kind: _Kind, year: int | None, a: int, b: int, *, text: str, ctx: _Ctx) -> _Raw:
    """A named calendar period; without a year, the latest one started by as_of - 1."""
    limits = {"month": 12, "quarter": 4, "half": 2}
    if kind in limits and not 1 <= a <= limits[kind]:
        kind_zh = message(f"nlu.period_{kind}", "zh")
        raise _invalid(text, "nlu.no_such_period", kind=kind, kind_zh=kind_zh, number=a)
    if kind == "day":
        if not 1 <= a <= 12:
            raise _invalid(text, "nlu.no_such_month", month=a)
        if not 1 <= b <= 31 or (b > 29 and b > calendar.monthrange(2000, a)[1]):
            raise _invalid(text, "nlu.no_such_day", month=a, day=b)
    explicit = year is not None
    if year is None:
        year = ctx.last.year
        while True:
            try:
                first, _ = _bounds(kind, year, a, b)
            except ValueError:  # Feb 29 in a common year: go back to a leap year
                year -= 1
                continue
            if first <= ctx.last:
                break
            year -= 1
    if not 1 <= year <= 9998:
        raise _invalid(text, "nlu.year_out_of_range", year=year)
    try:
        first, last = _bounds(kind, year, a, b)
    except ValueError as exc:
        raise _invalid(text, "nlu.no_such_date", year=year, month=a, day=b) from exc
    grain: Grain = kind
    return _Raw(first, last, grain, _Anchor(kind, year, a, b, explicit))


def _reanchor(raw: _Raw, year: int, text: str, ctx: _Ctx) -> _Raw:
    if raw.anchor is None or raw.anchor.year_explicit:
        return raw
    anchor = raw.anchor
    resolved = _calendar(anchor.kind, year, anchor.a, anchor.b, text=text, ctx=ctx)
    return replace(resolved, anchor=replace(resolved.anchor, year_explicit=False) if resolved.anchor else None)


# ---------------------------------------------------------------- patterns

_FRAGMENTS = {  # in order: a fragment may use those after it
    # a month by the part of it asked about: 6月, 2025年6月, 上个月, 上上个月, 本月
    "MONTH_CN": (
        r"(?:<CNB>(?:<YEAR_CN>)?<MCN>\s*月份?|(?P<rel><UP>上个?月份?|<UP>(?:一个|一|个)?月份?|本月份?|这个?月|当月))"
    ),
    "MONTH_EN": (
        r"(?:<MON_ANY>(?:<YEAR_SUF>)?|(?P<rel>(?:the\s+)?(?:last|previous|prior|this|current)\s+month(?![A-Za-z])))"
    ),
    "NB": r"(?<![A-Za-z0-9])",
    "NA": r"(?![A-Za-z0-9])",
    "CNUM": r"(?:\d{1,3}|[零〇一二两三四五六七八九十百]{1,4}|[俩仨])",
    "ENUM": (
        r"(?:\d{1,3}|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)"
        r"(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?"
        r"|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
        r"|one|two|three|four|five|six|seven|eight|nine|ten|a)"
    ),
    "YEAR_CN": (
        r"(?:(?P<y>[12]\d{3})\s*年度?|(?P<ycn>[〇零一二三四五六七八九]{4})年度?"
        r"|(?<![\d.近前后第])(?P<ys>\d{2})年度?(?![以之内来间])"
        r"|(?P<yrel>今年|本年|去年|前年|明年))\s*"
    ),
    "YEAR_PRE": (
        r"(?:(?P<y>[12]\d{3})\s*(?:年\s*)?[-/]?\s*|(?<![\d.近前后第])(?P<ys>\d{2})年\s*"
        r"|(?P<yrel>今年|本年|去年|前年|明年)\s*)"
    ),
    "YEAR_SUF": (
        r"(?:\s*'(?P<yy>\d{2})(?!\d)|\s*,?\s*(?:of\s+|in\s+)?(?P<y2>[12]\d{3})(?!\d)"
        r"|\s+(?:of\s+)?(?:the\s+)?(?P<yen>this|current|last|previous|prior|next)\s+year(?![A-Za-z]))"
    ),
    "MCN": r"(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])",
    "MCN2": r"(?P<m2>\d{1,2}|十[一二]?|[一二三四五六七八九])",
    "DCN": r"(?P<d>\d{1,2}|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])",
    "DCN2": r"(?P<d2>\d{1,2}|三十一?|二十[一二三四五六七八九]?|十[一二三四五六七八九]?|[一二三四五六七八九])",
    "MON_ANY": (
        r"(?P<mn>january|february|march|april|may|june|july|august|september|october|november"
        r"|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![A-Za-z])"
    ),
    "MON_NOMAY": (
        r"(?P<mn>january|february|march|april|june|july|august|september|october|november"
        r"|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![A-Za-z])"
    ),
    "MON2": (
        r"(?P<mn2>january|february|march|april|may|june|july|august|september|october|november"
        r"|december|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![A-Za-z])"
    ),
    "MON_SAFE": (
        r"(?P<mn>january|february|march|april|june|july|august|september|october|november"
        r"|december|sept|feb|apr|jun|jul|aug|sep|oct|nov)(?![A-Za-z])"
    ),
    "CNB": r"(?<![\d零〇一二两三四五六七八九十])",
    # 上 / 下 as "previous / next", not inside 以上 (above), 线上 (online), 之下, 早上 ...
    "UP": r"(?<![以之线早晚马])上",
    "DOWN": r"(?<![以之线])下",
}


def _p(template: str) -> re.Pattern[str]:
    for name, fragment in _FRAGMENTS.items():
        template = template.replace(f"<{name}>", fragment)
    return patterns.compile(template, re.IGNORECASE | re.ASCII)


_Handler = Callable[[re.Match[str], _Ctx, str], _Raw]


@dataclass(frozen=True)
class _Rule:
    name: str
    pattern: re.Pattern[str]
    handler: _Handler | None  # None: a recognised non-range (e.g. 去年同期) that blocks shorter matches
    guard: Callable[[re.Match[str]], bool] | None = None


_REL_YEAR = {
    "今年": 0,
    "本年": 0,
    "去年": -1,
    "前年": -2,
    "明年": 1,
    "this": 0,
    "current": 0,
    "last": -1,
    "previous": -1,
    "prior": -1,
    "next": 1,
}
_MONTH_NAMES = {
    name: i + 1
    for i, name in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"))
}
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_ORDINALS |= {"第一个": 1, "首个": 1, "最后一个": 4, "最后一": 4}  # 去年最后一个季度
_EN_NUMBERS = {
    word: i
    for i, word in enumerate(
        (
            *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
            *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
            *("eighteen", "nineteen"),
        )
    )
}
_EN_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80}
_EN_TENS["ninety"] = 90


def _en_int(token: str) -> int:
    token = token.lower().replace("-", " ")
    if token.isascii() and token.isdigit():
        return int(token)
    if token == "a":
        return 1
    total = 0
    for part in token.split():
        total += _EN_TENS.get(part, 0) + _EN_NUMBERS.get(part, 0)
    return total


def _group(m: re.Match[str], name: str) -> str | None:
    return m.groupdict().get(name)


def _year_of(m: re.Match[str], ctx: _Ctx) -> int | None:
    for key in ("y", "y2"):
        value = _group(m, key)
        if value:
            return int(value)
    value = _group(m, "ycn")
    if value:
        return parse_cn_int(value)
    value = _group(m, "yy") or _group(m, "ys")
    if value:
        return 2000 + int(value)  # Q2'26, jun '25, 25年双11
    rel = _group(m, "yrel") or _group(m, "yen")
    if rel:
        return ctx.as_of.year + _REL_YEAR[rel.lower()]
    return None


def _num(m: re.Match[str], name: str) -> int:
    value = _group(m, name)
    assert value is not None
    return parse_cn_int(value)


# ---------------------------------------------------------------- handlers


def _days_ago(k: int) -> _Handler:
    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        day = ctx.as_of - timedelta(days=k)
        return _Raw(day, day, "day")

    return handle


def _current(grain: _PeriodGrain) -> _Handler:
    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        return _Raw(_period_start(ctx.as_of, grain), _period_end(ctx.as_of, grain), grain)

    return handle


def _previous(grain: _PeriodGrain, n: int) -> _Handler:
    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        start = _shift(_period_start(ctx.as_of, grain), grain, -n)
        return _Raw(start, _period_end(start, grain), grain)

    return handle


_WEEKDAY_CN = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "七": 6}
_WEEKDAY_EN = {
    "monday": 0, "mon": 0, "tuesday": 1, "tue": 1, "tues": 1, "wednesday": 2, "wed": 2,
    "thursday": 3, "thu": 3, "thurs": 3, "friday": 4, "fri": 4, "saturday": 5, "sat": 5, "sunday": 6, "sun": 6,
}  # fmt: skip


def _weekday_of_week(weeks_back: int) -> _Handler:
    """上周三 / 本周一: that weekday of the week ``weeks_back`` weeks before the as-of week."""

    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        raw = m.group("wd")
        weekday = _WEEKDAY_CN.get(raw, int(raw) - 1 if raw.isdigit() else 0)
        monday = ctx.as_of - timedelta(days=ctx.as_of.weekday(), weeks=weeks_back)
        day = monday + timedelta(days=weekday)
        return _Raw(day, day, "day")

    return handle


def _weekend(weeks_back: int) -> _Handler:
    """Saturday and Sunday of the week ``weeks_back`` weeks before the as-of week."""

    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        monday = ctx.as_of - timedelta(days=ctx.as_of.weekday(), weeks=weeks_back)
        return _Raw(monday + timedelta(days=5), monday + timedelta(days=6), "weekend")

    return handle


def _last_weekday_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "on Wednesday" / "past Wednesday": the most recent such day before the as-of date.
    "last Wednesday" means that day too, or the Wednesday of last week: when the two differ
    (the most recent one is in the as-of week), the question is asked back with both dates."""
    weekday = _WEEKDAY_EN[m.group("wd").lower()]
    if m.group(0).split()[0].lower() == "this":  # "this Friday": the Friday of the as-of week
        day = ctx.as_of + timedelta(days=weekday - ctx.as_of.weekday())
        return _Raw(day, day, "day")
    back = (ctx.as_of.weekday() - weekday) % 7 or 7
    day = ctx.as_of - timedelta(days=back)
    this_monday = ctx.as_of - timedelta(days=ctx.as_of.weekday())
    if m.group(0).split()[0].lower() in {"last", "previous"} and day >= this_monday:
        earlier = day - timedelta(days=7)
        detail = {"missing": "time_range", "suggestions": [day.isoformat(), earlier.isoformat()]}
        raise AmbiguousQuestion(*both("nlu.which_weekday", text=text, recent=day, earlier=earlier), detail=detail)
    return _Raw(day, day, "day")


def _previous_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """English "last/previous week|month|quarter|year" and "the month before last"."""
    unit = (_group(m, "u") or _group(m, "u2") or "").lower()
    return _previous(_UNIT_GRAIN[unit], 2 if _group(m, "two") else 1)(m, ctx, text)


def _ago_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "2 months ago", "three weeks ago": the whole calendar unit that many back (a day: that day)."""
    unit = m.group("u").lower().rstrip("s")
    n = _en_int(m.group("n"))
    return _days_ago(n)(m, ctx, text) if unit == "day" else _previous(_UNIT_GRAIN[unit], n)(m, ctx, text)


def _ago_cn(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "两个月前", "3天前", "两周前": the whole calendar unit that many back (a day: that day),
    as "2 months ago" is read."""
    unit = _CN_UNITS[(_group(m, "u") or "").replace("个", "")]
    n = _num(m, "n")
    return _days_ago(n)(m, ctx, text) if unit == "day" else _previous(_UNIT_GRAIN[unit], n)(m, ctx, text)


def _same_day_last_year(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "去年的今天", "this day last year": the as-of date a year back (29 February: the 28th)."""
    try:
        day = ctx.as_of.replace(year=ctx.as_of.year - 1)
    except ValueError:
        day = ctx.as_of.replace(year=ctx.as_of.year - 1, day=28)
    return _Raw(day, day, "day")


def _same_day_last_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "上个月的今天": the as-of day of the month before (31 March: the last day of February)."""
    first = ctx.as_of.replace(day=1) - timedelta(days=1)  # the last day of the month before
    day = first.replace(day=min(ctx.as_of.day, first.day))
    return _Raw(day, day, "day")


def _same_day_last_week(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "上周的今天": the as-of date seven days back."""
    day = ctx.as_of - timedelta(days=7)
    return _Raw(day, day, "day")


def _this_period_last_year(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "去年这个月", "this quarter last year": the whole period a year before the current one — the
    same month or quarter of last year, or the week 52 weeks back (weekdays aligned)."""
    said: dict[str, _PeriodGrain] = {"zh_w": "week", "zh_m": "month", "zh_q": "quarter"}
    named = [g for k, g in said.items() if _group(m, k)]
    grain = named[0] if named else _UNIT_GRAIN[(_group(m, "u") or "").lower()]
    start = _shift(_period_start(ctx.as_of, grain), grain, -52 if grain == "week" else -(12 // _MONTHS_PER[grain]))
    return _Raw(start, _period_end(start, grain), grain)


def _current_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """this week / month-to-date / QTD / current year ..."""
    unit = (_group(m, "u") or _group(m, "u2") or "").lower()
    return _current(_UNIT_GRAIN[unit])(m, ctx, text)


_UNIT_GRAIN: dict[str, _PeriodGrain] = {
    "week": "week",
    "w": "week",
    "month": "month",
    "m": "month",
    "quarter": "quarter",
    "q": "quarter",
    "year": "year",
    "y": "year",
    "wk": "week",
    "mo": "month",
    "mth": "month",
    "qtr": "quarter",
    "yr": "year",
}


def _last_n(unit: str, n: int, ctx: _Ctx, text: str) -> _Raw:
    if n <= 0:
        raise _invalid(text, "nlu.periods_at_least_one")
    if unit == "day":
        return _Raw(ctx.as_of - timedelta(days=n), ctx.last, "custom")
    if unit == "year":  # "近一年", "the past 2 years": the trailing whole months, not calendar years
        unit, n = "month", 12 * n
    grain = _UNIT_GRAIN[unit]
    current = _period_start(ctx.as_of, grain)
    return _Raw(_shift(current, grain, -n), current - timedelta(days=1), grain)


_CN_UNITS = {
    "天": "day", "日": "day", "周": "week", "星期": "week", "礼拜": "week", "月": "month",
    "季度": "quarter", "季": "quarter", "年": "year",
}  # fmt: skip
"""A Chinese unit of time, as the English unit word (:data:`_UNIT_GRAIN` names its grain)."""


def _last_n_cn(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    unit_text = (_group(m, "u") or "").replace("个", "").replace("自然", "")
    return _last_n(_CN_UNITS[unit_text], _num(m, "n"), ctx, text)


def _last_n_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "the last 7 days", "past 3 months", "last 7d", "prev 2 wks"."""
    said = (_group(m, "u") or "").lower().rstrip("s")
    unit = "day" if said in ("day", "d") else _UNIT_GRAIN[said]
    return _last_n(unit, _en_int(_group(m, "n") or ""), ctx, text)


def _quarter(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    token = _group(m, "q") or _group(m, "q2")
    q = _ORDINALS[(_group(m, "ord") or "").lower()] if token is None else parse_cn_int(token)
    return _calendar("quarter", _year_of(m, ctx), q, 0, text=text, ctx=ctx)


_NTH_WEEK = {"first": 1, "second": 2, "third": 3, "fourth": 4, "一": 1, "二": 2, "三": 3, "四": 4}
_XUN = {"上": (1, 10), "中": (11, 20), "下": (21, 31)}


def _part_of_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """Days of a month by their position: week N is days 7N-6..7N, the last week its last seven
    days, 上/中/下旬 days 1-10, 11-20 and 21 to the end."""
    month = _month_said(m, ctx, text)
    first, last = month.start, month.end
    xun, nth = _group(m, "xun"), (_group(m, "nth") or "").lower()
    if xun:
        low, high = _XUN[xun]
        start, end = first.replace(day=low), last if xun == "下" else first.replace(day=high)
    elif _group(m, "first"):
        start, end = first, first + timedelta(days=6)
    elif nth in {"last", "final"} or _group(m, "last"):
        start, end = last - timedelta(days=6), last
    else:
        n = _NTH_WEEK.get(nth) or int(nth)
        start = first + timedelta(days=7 * (n - 1))
        end = start + timedelta(days=6)
    return _Raw(start, end, "custom")


def _week_containing(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "the week of June 15", "6月15日那周": the Monday-to-Sunday week the day falls in."""
    day = _day(m, ctx, text).start
    monday = day - timedelta(days=day.weekday())
    return _Raw(monday, monday + timedelta(days=6), "week")


def _week_of_iso_day(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "the week of 2026-06-22": the Monday-to-Sunday week that day falls in."""
    year, month, day_of_month = (int(part) for part in (_group(m, "iso") or "").split("-"))
    try:
        day = date(year, month, day_of_month)
    except ValueError as exc:
        raise _invalid(text, "nlu.no_such_date", year=year, month=month, day=day_of_month) from exc
    monday = day - timedelta(days=day.weekday())
    return _Raw(monday, monday + timedelta(days=6), "week")


def _fortnight(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    return _last_n("week", 2, ctx, text)


def _last_n_abbrev(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    unit = {"d": "day", "w": "week", "m": "month"}[(_group(m, "u") or "").lower()]
    return _last_n(unit, int(_group(m, "n") or "0"), ctx, text)


def _half_of_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """Days 1-15 of a month, or 16 to its end."""
    month = _month_said(m, ctx, text)
    first_half = (_group(m, "h") or "").lower() in {"first", "1st", "上", "前"}
    start, end = (month.start, month.start.replace(day=15)) if first_half else (month.start.replace(day=16), month.end)
    return _Raw(start, end, "custom")


def _days_of_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The first or last N days of a month ("the first 10 days of June", "上个月前10天"), or N weeks
    of seven days ("6月头两周", "the last two weeks of June"), as its last week is its last seven."""
    month = _month_said(m, ctx, text)
    said = _group(m, "n") or ""
    n = _en_int(said) if said.isascii() else parse_cn_int(said)
    n *= 7 if (_group(m, "u") or "days").lower() != "days" else 1
    if not 1 <= n <= (month.end - month.start).days + 1:
        raise _invalid(text, "nlu.no_such_day", month=month.start.month, day=n)
    if (_group(m, "which") or "").lower() in {"first", "前", "头", "月初"}:
        return _Raw(month.start, month.start + timedelta(days=n - 1), "custom")
    return _Raw(month.end - timedelta(days=n - 1), month.end, "custom")


def _edge_of_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The end of May (its last day) or its start (its first day): an end of a range."""
    month = _month_said(m, ctx, text)
    edge = " ".join((_group(m, "edge") or _group(m, "edge2") or "").lower().split())
    day = month.start if edge in {"start", "beginning", "first day", "第一天", "首日"} else month.end
    return _Raw(day, day, "day", loose_edge=edge in {"end", "start", "beginning", "底", "末"})


def _us_day(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """6/18/2025 is June 18; 6/5/2025 could be June 5 or May 6, so it is asked back."""
    a, b = int(_group(m, "m") or 0), int(_group(m, "d") or 0)
    if a <= 12 and b <= 12 and a != b:
        detail = {
            "missing": "time_range",
            "suggestions": [f"{_group(m, 'y')}-{a:02d}-{b:02d}", f"{_group(m, 'y')}-{b:02d}-{a:02d}"],
        }
        raise AmbiguousQuestion(*both("nlu.which_date_order", text=text), detail=detail)
    month, day = (a, b) if a <= 12 else (b, a)
    return _calendar("day", int(_group(m, "y") or 0), month, day, text=text, ctx=ctx)


def _first_months(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The first N months of a year, from January 1."""
    year = _year_of(m, ctx)
    assert year is not None
    raw = _group(m, "n") or ""
    n = _en_int(raw) if raw.isascii() and not raw.isdigit() else parse_cn_int(raw)
    if not 1 <= n <= 12:
        raise _invalid(text, "nlu.no_such_period", kind="month", kind_zh=message("nlu.period_month", "zh"), number=n)
    return _Raw(date(year, 1, 1), _month_end(year, n), "custom")


def _half(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    token = (_group(m, "h") or "").lower()
    h = 1 if token in ("上", "1", "first", "1st") else 2
    return _calendar("half", _year_of(m, ctx), h, 0, text=text, ctx=ctx)


def _month_number(m: re.Match[str]) -> int:
    name = _group(m, "mn")
    return _MONTH_NAMES[name.lower()[:3]] if name else _num(m, "m")


def _month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    return _calendar("month", _year_of(m, ctx), _month_number(m), 0, text=text, ctx=ctx)


def _month_said(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The month a part of a month is of: named ("6月", "June 2025") or counted from the as-of
    month ("上个月", "上上个月", "本月", "last month", "this month")."""
    rel = _group(m, "rel")
    if rel is None:
        return _month(m, ctx, text)
    rel = rel.lower()
    if rel.startswith(("本", "这", "当")) or "this" in rel or "current" in rel:
        return _current("month")(m, ctx, text)
    return _previous("month", 2 if rel.startswith("上上") else 1)(m, ctx, text)


def _day_of_month_said(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "上个月5号": that day of the month counted from the as-of month."""
    month = _month_said(m, ctx, text)
    n = _num(m, "d")
    if not 1 <= n <= (month.end - month.start).days + 1:
        raise _invalid(text, "nlu.no_such_day", month=month.start.month, day=n)
    day = month.start + timedelta(days=n - 1)
    return _Raw(day, day, "day")


def _last_named_month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "last December": the latest December before the as-of month (this year's if it is past)."""
    number = _month_number(m)
    year = ctx.as_of.year if number < ctx.as_of.month else ctx.as_of.year - 1
    return _calendar("month", year, number, 0, text=text, ctx=ctx)


def _day(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    return _calendar("day", _year_of(m, ctx), _month_number(m), _num(m, "d"), text=text, ctx=ctx)


_HOLIDAYS: dict[str, tuple[int, int]] = {
    "new_year": (1, 1),
    "valentine": (2, 14),
    "halloween": (10, 31),
    "christmas_eve": (12, 24),
    "christmas": (12, 25),
}
"""Holidays on the same day every year, known everywhere; a warehouse's own events (sales
seasons, lunar holidays) come from its catalog's calendar instead."""


def _holiday(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    name = next(key for key, value in m.groupdict().items() if value and key in _HOLIDAYS)
    month, day = _HOLIDAYS[name]
    return _calendar("day", _year_of(m, ctx), month, day, text=text, ctx=ctx)


def _year(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    year = _year_of(m, ctx)
    assert year is not None
    return _calendar("year", year, 0, 0, text=text, ctx=ctx)


def _iso_week(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    week = parse_cn_int(_group(m, "w") or _group(m, "w2") or _group(m, "w3") or "0")
    y3 = _group(m, "y3")
    year = int(y3) if y3 else _year_of(m, ctx)
    if not 1 <= week <= 53:
        raise _invalid(text, "nlu.no_such_week", year=year or ctx.last.year, week=week)
    if year is None:
        year = ctx.last.isocalendar().year
        if week > date(year, 12, 28).isocalendar().week or date.fromisocalendar(year, week, 1) > ctx.last:
            year -= 1
    try:
        monday = date.fromisocalendar(year, week, 1)
    except ValueError as exc:
        raise _invalid(text, "nlu.no_such_week", year=year, week=week) from exc
    return _Raw(monday, monday + timedelta(days=6), "week")


def _month_span(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """2026年1-3月 / 1月到3月 / Jan-Mar 2026: whole months, start..end."""
    year = _year_of(m, ctx)
    first_m = _month_number(m)
    second = _group(m, "mn2")
    last_m = _MONTH_NAMES[second.lower()[:3]] if second else _num(m, "m2")
    last = _calendar("month", year, last_m, 0, text=text, ctx=ctx)
    first_year = last.start.year - (1 if first_m > last_m else 0)
    first = _calendar("month", first_year, first_m, 0, text=text, ctx=ctx)
    return _Raw(first.start, last.end, "month", parts=(first, last))


def _day_span(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """6月1日-15日 / June 1-15, 2026: days within one month."""
    first = _day(m, ctx, text)
    assert first.anchor is not None
    last = _calendar("day", first.anchor.year, first.anchor.a, _num(m, "d2"), text=text, ctx=ctx)
    if last.start < first.start:
        raise _invalid(text, "nlu.ends_before_start_date")
    return _Raw(first.start, last.end, "custom")


def _month_first_span(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """5/20-6/10: May 20 to June 10, both ends month first, in the year the first end takes (the
    next year when the end's month is earlier: "12/20-1/5" runs into January)."""
    first = _day(m, ctx, text)
    assert first.anchor is not None
    year = first.anchor.year + (1 if _num(m, "m2") < _num(m, "m") else 0)
    last = _calendar("day", year, _num(m, "m2"), _num(m, "d2"), text=text, ctx=ctx)
    if last.start < first.start:
        raise _invalid(text, "nlu.ends_before_start_date")
    return _Raw(first.start, last.end, "custom")


_AMOUNT_AFTER = patterns.compile(
    r"\s*(?:个|条|元|块|件|笔|人|家|次|单|万|千|百|亿|台|份|行|位|名|户|"
    r"rows?|customers?|users?|items?|orders?|units?|people|dollars?|yuan|rmb|usd|cny)(?![A-Za-z])",
    re.IGNORECASE | re.ASCII,
)
_COUNT_BEFORE = patterns.compile(r"(?:(?<![A-Za-z])top|前|第|共)\s*$", re.IGNORECASE | re.ASCII)
_YEAR_ALONE = patterns.compile(r"(?:19|20)\d\d(?!\d)")


def _bare_year_ok(m: re.Match[str]) -> bool:
    """A 4-digit number is a year only when it stands alone (see the module docstring)."""
    text, start, end = m.string, m.start(), m.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if before and ((before.isascii() and (before.isalnum() or before in "_.$#/:'")) or before in "¥€£"):
        return False
    if before == "-" and not re.search(r"(?<!\d)(?:19|20)\d\d\s*$", text[: start - 1]):
        return False
    if after and after.isascii() and (after.isalnum() or after in "_%/:"):
        return False
    if after == "." and text[end + 1 : end + 2].isdigit():
        return False
    if after == "-" and not _YEAR_ALONE.match(text, end + 1):
        return False
    return not (_AMOUNT_AFTER.match(text, end) or _COUNT_BEFORE.search(text, 0, start))


_CN_WEEK = r"(?:周|星期|礼拜)"
_MONTH_WORD = (
    r"(?<![A-Za-z0-9])(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![A-Za-z])"
)
"""A month's English name, ungrouped: what a listed month word stands beside."""
_RULES: tuple[_Rule, ...] = (
    # comparison markers, not ranges
    _Rule("same_period_cn", _p(r"(?:去年|<UP>年|<UP>一年|<UP>个?月|<UP>周|<UP>个?季度)同期"), None),
    _Rule(
        "same_period_en",
        _p(
            r"<NB>same\s+(?:period|time|day|week|month|quarter)\s+(?:of\s+|in\s+)?(?:the\s+)?"
            r"(?:last|previous|prior)\s+(?:year|month|week|quarter)<NA>"
        ),
        None,
    ),
    # single days relative to as_of
    _Rule(
        "same_day_last_year",
        _p(r"去年的?(?:今天|今日|同一天|这一?天)|<NB>(?:this|the\s+same)\s+day\s+last\s+year<NA>"),
        _same_day_last_year,
    ),
    _Rule(
        "same_day_last_month",
        _p(r"上个?月的?(?:今天|今日|同一天|这一?天)|<NB>(?:this|the\s+same)\s+day\s+last\s+month<NA>"),
        _same_day_last_month,
    ),
    _Rule(
        "same_day_last_week",
        _p(r"上个?(?:周|星期|礼拜)的?(?:今天|今日)|<NB>(?:this|the\s+same)\s+day\s+last\s+week<NA>"),
        _same_day_last_week,
    ),
    _Rule("today", _p(r"今天|今日|<NB>today<NA>"), _days_ago(0)),
    _Rule("yesterday", _p(r"昨天|昨日|<NB>yesterday<NA>"), _days_ago(1)),
    _Rule("day_before_yesterday", _p(r"前天|<NB>(?:the\s+)?day\s+before\s+yesterday<NA>"), _days_ago(2)),
    _Rule("three_days_ago", _p(r"大前天"), _days_ago(3)),
    # weekdays: 上周三 (the Wednesday of last week), 本周一, last Wednesday (the latest before today)
    _Rule(
        "weekday_week_before_last_cn",
        _p(r"<UP>上个?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"),
        _weekday_of_week(2),
    ),
    _Rule(
        "weekday_last_week_cn",
        _p(r"<UP>(?:一个|一|个)?(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"),
        _weekday_of_week(1),
    ),
    _Rule(
        "weekday_this_week_cn", _p(r"(?:本|这个?|当)(?:周|星期|礼拜)(?P<wd>[一二三四五六日天1-7])"), _weekday_of_week(0)
    ),
    _Rule(
        "weekday_en",
        _p(
            r"<NB>(?:last|past|previous|on|this)\s+(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday"
            r"|mon|tues?|wed|thurs?|fri|sat|sun)<NA>"
        ),
        _last_weekday_en,
    ),
    # last N days / weeks / months / quarters / years
    _Rule(
        "last_n_cn",
        _p(r"(?:最近|近|过去的?)\s*(?P<n><CNUM>)\s*(?P<u>天|日|个?(?:周|星期|礼拜)|个?(?:自然)?月|个?季度|个?季|年)"),
        _last_n_cn,
    ),
    # the past year: the twelve whole months before the current one, like 近一年
    _Rule(
        "past_year_en",
        _p(r"<NB>(?:the\s+)?(?:past|trailing)\s+year<NA>"),
        lambda m, ctx, text: _last_n("year", 1, ctx, text),
    ),
    # the last half year: the six whole months before the current one, like 近6个月
    _Rule(
        "last_half_year",
        _p(r"(?:最近|近|过去的?)\s*(?:半年|半个年)|<NB>(?:the\s+)?(?:last|past|previous|prior)\s+half[- ]year<NA>"),
        lambda m, ctx, text: _last_n("month", 6, ctx, text),
    ),
    _Rule(  # "the past week", "over the past month": the one before the current, as 过去一周 is
        "past_one_en",
        _p(r"<NB>(?:the\s+)?past\s+(?P<u>week|month|quarter)<NA>"),
        lambda m, ctx, text: _last_n(_UNIT_GRAIN[m.group("u").lower()], 1, ctx, text),
    ),
    _Rule(
        "last_n_en",
        _p(
            r"<NB>(?:last|past|previous|prev|prior|trailing)\s+(?P<n><ENUM>)\s*"
            r"(?P<u>days?|weeks?|months?|quarters?|years?|d|wks?|mths?|mos?|qtrs?|yrs?)<NA>"
        ),
        _last_n_en,
    ),
    # the current period's whole namesake a year back: 去年这个月, 去年本季度, "this month last year"
    # (去年当月 / 当季 is the same period of last year as the one discussed: a comparison word)
    _Rule(
        "this_period_last_year",
        _p(
            r"(?:去年|上一年)的?\s*(?:(?P<zh_w>本周|这周)|(?P<zh_m>本月份?|这个?月)|(?P<zh_q>本季度?|这个?季度))"
            r"|<NB>(?:this|the\s+current)\s+(?P<u>week|month|quarter)\s+(?:of\s+)?last\s+year<NA>"
        ),
        _this_period_last_year,
    ),
    # the current period, to date
    _Rule("this_week_cn", _p(r"本周|这周|这个?" + _CN_WEEK + "|本星期|本礼拜|当周"), _current("week")),
    _Rule(
        "this_month_cn", _p(r"本月份?|这个?月|当月|(?:本月)?月初(?=\s*(?:至今|以来|到现在|到目前))"), _current("month")
    ),
    _Rule("this_quarter_cn", _p(r"本季度?|这个?季度|当季度?|当前季度"), _current("quarter")),
    _Rule("this_year_cn", _p(r"今年|本年度?|(?:今年)?年初(?=\s*(?:至今|以来|到现在|到目前))"), _current("year")),
    _Rule(
        "this_period_en",
        _p(
            r"<NB>(?:(?:so\s+far\s+)?(?:this|current)\s+(?P<u>week|month|quarter|year|wk|mth|mo|qtr|yr)"
            r"|(?P<u2>week|month|quarter|year)[- ]to[- ]date)<NA>"
        ),
        _current_en,
    ),
    _Rule(
        "to_date_abbrev",
        _p(r"<NB>(?P<u>[wmqy])td<NA>"),
        _current_en,
    ),
    # weekends: 上周末 / last weekend (Saturday and Sunday of last week), 本周末 / this weekend
    _Rule(
        "weekend_before_last",
        _p(r"<UP>上个?周末|<NB>(?:the\s+)?weekend\s+before\s+last<NA>"),
        _weekend(2),
    ),
    _Rule("last_weekend", _p(r"<UP>个?周末|<NB>(?:last|past|previous)\s+weekend<NA>"), _weekend(1)),
    _Rule("this_weekend", _p(r"(?:本|这个?)周末|<NB>this\s+weekend<NA>"), _weekend(0)),
    # previous periods
    _Rule("week_before_last_cn", _p(r"<UP>上个?" + _CN_WEEK + r"|大上个?" + _CN_WEEK), _previous("week", 2)),
    _Rule("last_week_cn", _p(r"<UP>(?:一个|一|个)?" + _CN_WEEK), _previous("week", 1)),
    _Rule("month_before_last_cn", _p(r"<UP>上个?月份?"), _previous("month", 2)),
    _Rule("last_month_cn", _p(r"<UP>(?:一个|一|个)?月份?"), _previous("month", 1)),
    _Rule("quarter_before_last_cn", _p(r"<UP>上个?季度"), _previous("quarter", 2)),
    _Rule("last_quarter_cn", _p(r"<UP>(?:一个|一|个)?季度?"), _previous("quarter", 1)),
    _Rule("last_year_cn", _p(r"(?:去年|<UP>一年|<UP>年)(?:度|全年|整年)?"), _previous("year", 1)),
    _Rule("year_before_last_cn", _p(r"前年(?:全年|整年)?"), _previous("year", 2)),
    _Rule(
        "previous_en",
        _p(
            r"<NB>(?:(?:last|previous|prev|prior|most\s+recent|latest)\s+(?P<u>week|month|quarter|year|wk|mth|mo|qtr|yr)"
            r"|the\s+(?P<u2>week|month|quarter|year)\s+before\s+(?P<two>last))<NA>"
        ),
        _previous_en,
    ),
    # "两个月前" (one period; "三个月前至今" / "以来" / "到现在" extend it to the latest day, as "since 3
    # months ago" is; never the start of another range: "三个月前到上个月", "三个月前开始")
    _Rule(
        "ago_cn",
        _p(
            r"<CNB>(?P<n><CNUM>)\s*(?P<u>天|个?(?:周|星期|礼拜)|个月|个?季度)\s*(?:之前|以前|前)"
            r"(?!\s*(?:(?:至|到)(?!今|\s*(?:现在|目前|当前|今天|今日))|开始|起|的?[一二三四五六七八九十\d]))"
        ),
        _ago_cn,
    ),
    _Rule("ago_en", _p(r"<NB>(?P<n><ENUM>)\s+(?P<u>days?|weeks?|months?|quarters?|years?)\s+ago<NA>"), _ago_en),
    # future periods: recognised so that they fail loudly ("no data yet") instead of being ignored
    _Rule("next_week_cn", _p(r"<DOWN>(?:一个|一|个)?" + _CN_WEEK), _previous("week", -1)),
    _Rule("next_month_cn", _p(r"<DOWN>(?:一个|一|个)?月份?"), _previous("month", -1)),
    _Rule("next_quarter_cn", _p(r"<DOWN>(?:一个|一|个)?季度?"), _previous("quarter", -1)),
    _Rule("next_year_cn", _p(r"明年|下一年"), _previous("year", -1)),
    _Rule(
        "next_en",
        _p(r"<NB>next\s+(?P<u>week|month|quarter|year)<NA>"),
        lambda m, ctx, text: _previous(_UNIT_GRAIN[m.group("u").lower()], -1)(m, ctx, text),
    ),
    # ISO weeks: 2026年第23周, 第23周, week 23 of 2026, 2026-W23
    _Rule(
        "iso_week",
        _p(
            r"(?:(?:<YEAR_CN>)?第\s*(?P<w>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:周|星期)"
            r"|<NB>(?:(?P<y3>[12]\d{3})-?W(?P<w2>\d{1,2})|(?:week|wk)\.?\s*(?P<w3>\d{1,2})(?:<YEAR_SUF>)?)<NA>)"
        ),
        _iso_week,
    ),
    # quarters
    _Rule(
        "quarter_cn",
        _p(r"(?<!\d)(?:<YEAR_CN>)?(?:第?\s*(?P<q>[一二三四1-4])\s*季度|第\s*(?P<q2>[一二三四1-4])\s*季)"),
        _quarter,
    ),
    _Rule("quarter_nth_cn", _p(r"<YEAR_CN>的?\s*(?P<ord>第一个|首个|最后一个?)\s*季度"), _quarter),
    _Rule("quarter_q", _p(r"<NB>(?:<YEAR_PRE>)?Q(?P<q>[1-4])(?:<YEAR_SUF>)?<NA>"), _quarter),
    _Rule(
        "quarter_en",
        _p(r"<NB>(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:<YEAR_SUF>)?<NA>"),
        _quarter,
    ),
    # a part of a month: the last week of May, the first week of June, 6月上旬/中旬/下旬, 5月最后一周
    _Rule(
        "week_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<nth>first|second|third|fourth|last|final)\s+week\s+of\s+<MONTH_EN>"),
        _part_of_month,
    ),
    _Rule(
        "part_of_month_cn",
        _p(
            r"<MONTH_CN>的?\s*(?:(?P<xun>上|中|下)旬|第(?P<nth>[一二三四1-4])(?:个)?(?:周|星期|礼拜)"
            r"|(?P<last>最后一)(?:个)?(?:周|星期|礼拜)|(?P<first>头一?|第一)(?:个)?(?:周|星期|礼拜))"
        ),
        _part_of_month,
    ),
    # the week a day falls in: the week of June 15, 6月15日那周 / 所在的那一周
    _Rule(
        "week_containing_en",
        _p(r"<NB>(?:the\s+)?week\s+of\s+<MON_ANY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:<YEAR_SUF>)?<NA>"),
        _week_containing,
    ),
    _Rule(
        "week_of_iso_day",
        _p(r"<NB>(?:the\s+)?week\s+of\s+(?P<iso>[12]\d{3}-\d{2}-\d{2})(?![\d-])"),
        _week_of_iso_day,
    ),
    _Rule(
        "week_containing_cn",
        _p(
            r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]\s*"
            r"(?:那|这|所在的?|所处的?)\s*(?:那|这)?\s*(?:一)?\s*(?:个)?\s*(?:周|星期|礼拜)"
        ),
        _week_containing,
    ),
    # a fortnight: the last two whole weeks, like 近两周
    _Rule("fortnight", _p(r"<NB>(?:the\s+)?(?:last|past|previous)\s+fortnight<NA>"), _fortnight),
    # L7D, L4W, L3M: the last N days, weeks or months
    _Rule("last_n_abbrev", _p(r"<NB>L(?P<n>\d{1,3})(?P<u>[DWM])<NA>"), _last_n_abbrev),
    # the first half of June, the last ten days of June, 6月上半月, the end of May, 5月底
    _Rule(
        "half_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<h>first|second|1st|2nd)\s+half\s+of\s+<MONTH_EN>"),
        _half_of_month,
    ),
    _Rule("half_of_month_cn", _p(r"<MONTH_CN>的?\s*(?P<h>上|下|前|后)半个?月"), _half_of_month),
    _Rule(
        "days_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<which>first|last)\s+(?P<n><ENUM>)\s+(?P<u>days|weeks)\s+of\s+<MONTH_EN>"),
        _days_of_month,
    ),
    _Rule(
        "edge_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<edge>end|start|beginning|first\s+day|last\s+day)\s+of\s+<MONTH_EN>"),
        _edge_of_month,
    ),
    _Rule(
        "edge_of_month_cn",
        _p(r"<MONTH_CN>(?:(?P<edge>底|末)|的?\s*(?P<edge2>第一天|首日|最后一天|最后1天|末日))"),
        _edge_of_month,
    ),
    # after the edges: "上个月最后一天" is a day, not the last one day of a month
    _Rule(
        "days_of_month_cn",
        _p(
            r"<MONTH_CN>的?\s*(?P<which>前|头|后|最后|月初|月底|月末)(?:的|最后)?\s*(?P<n><CNUM>)\s*"
            r"(?:[天日]|个?(?P<u>周|星期|礼拜))"
        ),
        _days_of_month,
    ),
    _Rule("day_us", _p(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>[12]\d{3})(?![\d/])"), _us_day),
    # 6/18: month first, as both Chinese and US dates write it — only when the day cannot be a
    # month (6/5 could be May 6 written day first, and is left to be asked)
    _Rule("day_slash", _p(r"(?<![\d/.])(?P<m>1[0-2]|0?[1-9])/(?P<d>1[3-9]|2\d|3[01])(?![\d/.%])"), _day),
    # day first when only the day can be over 12 ("15/6": 15 June); "6/5" stays unread, either way round
    _Rule("day_slash_dm", _p(r"(?<![\d/.])(?P<d>1[3-9]|2\d|3[01])/(?P<m>1[0-2]|0?[1-9])(?![\d/.%])"), _day),
    # the first N months of a year: 今年前六个月, 2025年前3个月, the first six months of 2026
    _Rule(
        "first_months_cn",
        _p(r"(?:(?P<y>[12]\d{3})\s*年|(?P<yrel>今年|本年|去年|前年))的?\s*(?:前|头)\s*(?P<n><CNUM>)\s*个月"),
        _first_months,
    ),
    _Rule(
        "first_months_en",
        _p(
            r"<NB>(?:the\s+)?first\s+(?P<n><ENUM>)\s+months\s+of\s+"
            r"(?:(?P<y>[12]\d{3})|(?P<yen>this|current|last|previous)\s+year)<NA>"
        ),
        _first_months,
    ),
    # halves
    _Rule("half_cn", _p(r"(?:<YEAR_CN>)?(?P<h>上|下)半年度?"), _half),
    _Rule("half_h", _p(r"<NB>(?:<YEAR_PRE>)?H(?P<h>[12])(?:<YEAR_SUF>)?<NA>"), _half),
    _Rule(
        "half_en",
        _p(
            r"<NB>(?P<h>first|second|1st|2nd)\s+half"
            r"(?!\s+of\s+(?:the\s+|this\s+|last\s+)?(?:month|week|quarter|day))"
            r"(?:\s+of\s+the\s+year|<YEAR_SUF>)?<NA>"
        ),
        _half,
    ),
    # months
    _Rule("month_cn", _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月份?"), _month),
    _Rule("month_numeric", _p(r"(?<![\d./])(?P<y>[12]\d{3})[-/](?P<m>0?[1-9]|1[0-2])(?!\d)"), _month),
    _Rule("month_en_year", _p(r"<NB><MON_ANY><YEAR_SUF>"), _month),
    _Rule("month_en", _p(r"<NB><MON_SAFE>"), _month),
    _Rule("month_en_in", _p(r"<NB>(?:in|during|since)\s+(?P<t><MON_ANY>)"), _month),
    # "last December": the latest December before the as-of month
    _Rule("month_en_last", _p(r"<NB>(?:last|this\s+past)\s+<MON_ANY><NA>"), _last_named_month),
    _Rule(  # "may and june", "jan, feb and mar", "may vs april": a month word that is also a word, before a month
        "month_listed_before",
        _p(
            r"<NB>(?P<t>(?P<mn>may|mar|jan|dec))(?=\s*(?:,|，|、|/|&|and\b|or\b|vs\b\.?|versus\b|against\b"
            r"|compared\s+(?:with|to)\b)\s*(?:and\s+|or\s+)?" + _MONTH_WORD + ")"
        ),
        _month,
    ),
    _Rule(  # "april, may and june", "june or may": … or listed after one
        "month_listed_after",
        _p(_MONTH_WORD + r"\s*(?:,|，|、|/|&|and\b|or\b)\s*(?:and\s+|or\s+)?(?P<t>(?P<mn>may|mar|jan|dec))<NA>"),
        _month,
    ),
    _Rule(  # "orders by region, may": May alone after a comma, at the end of the question
        "month_may_alone",
        _p(r"(?<=[,，:：;])\s*(?P<t>(?P<mn>may))\s*[?.!]?\s*$"),
        _month,
    ),
    _Rule(  # "what about May?", "and for May?", "May?": May alone closing a (follow-up) question
        "month_may_closing",
        _p(r"(?:^\s*|<NB>(?:about|for)\s+)(?P<t>(?P<mn>may))\s*[?.!]?\s*$"),
        _month,
    ),
    _Rule(
        "month_en_against",
        _p(r"<NB>(?:vs\.?|versus|than|against|and|compared?\s+(?:with|to))\s+(?P<t>(?P<mn>may))<NA>"),
        _month,
    ),
    _Rule(  # "Compare June GMV to May": "to May" after "compare" is the other side, not a range's end
        "month_en_compare_to",
        _p(r"<NB>compare<NA>[^?.!;]{1,60}?<NB>(?:to|with)\s+(?P<t>(?P<mn>may))<NA>"),
        _month,
    ),
    _Rule(  # "May GMV vs April", "How does May GMV compare to April?": May opening a question (or
        # after "what was", "how does", "the") and set against another month is the month, not "may I"
        "month_may_against",
        _p(
            r"(?:^\s*|<NB>(?:what(?:'s|\s+(?:is|was|were))?|how\s+(?:does|did|do|was|is|were)|show(?:\s+me)?"
            r"|give\s+me|compare|the|is|was|were)\s+)(?P<t>(?P<mn>may))<NA>"
            r"(?!\s+(?:i|we|you|he|she|they|it|this|that|these|those|there|be|have|not|also|still)(?![A-Za-z]))"
            r"(?=[^?.!;]{1,60}?<NB>(?:vs\.?|versus|than|against|compared?\s+(?:with|to)|compare\s+(?:with|to))\s+<MON2>)"
        ),
        _month,
    ),
    _Rule(
        "month_span_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*(?:月份?)?\s*(?:-|~|–|—|到|至)\s*<MCN2>\s*月份?"),
        _month_span,
    ),
    _Rule(
        "month_span_en",
        _p(r"<NB><MON_ANY>\s*(?:-|–|~|<NB>(?:to|through|until)\s)\s*<MON2>(?:<YEAR_SUF>)?"),
        _month_span,
    ),
    # days
    _Rule(
        "day_iso",
        _p(r"(?<![\d./])(?P<y>[12]\d{3})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)"),
        _day,
    ),
    _Rule("day_cn", _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]"), _day),
    # a day of a month counted from the as-of month: 上个月5号, 上上个月的10日, 本月3号
    _Rule(
        "day_of_relative_month_cn",
        _p(r"(?P<rel><UP>上个?月份?|<UP>(?:一个|一|个)?月份?|本月份?|这个?月|当月)的?\s*<DCN>\s*[日号](?!\s*[至到~-])"),
        _day_of_month_said,
    ),
    _Rule(
        "day_en_month_first",
        _p(r"<NB><MON_NOMAY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:<YEAR_SUF>)?<NA>"),
        _day,
    ),
    _Rule(
        "day_en_day_first",
        _p(r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?<MON_NOMAY>(?:<YEAR_SUF>)?<NA>"),
        _day,
    ),
    _Rule(
        "day_en_day_first_may",
        _p(r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mn>may)\s*,?\s*(?P<y2>[12]\d{3})<NA>"),
        _day,
    ),
    _Rule(
        "day_en_may_first",
        _p(r"<NB>(?P<mn>may)\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*,?\s*(?P<y2>[12]\d{3})<NA>"),
        _day,
    ),
    _Rule(  # "May 1" with no year where a date is expected ("between May 1 and May 5", "on May 3")
        "day_en_may_in_context",
        _p(
            r"<NB>(?:between|from|on|since|until|till|through|to|and|vs\.?|versus|than)\s+"
            r"(?P<t>(?P<mn>may)\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?)(?!\d|,\s*\d)"
        ),
        _day,
    ),
    _Rule(
        "day_span_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]?\s*(?:-|~|–|—|到|至)\s*<DCN2>\s*[日号]"),
        _day_span,
    ),
    _Rule(  # "6.1-6.15", "6.1到6.15": month.day, both ends in one month
        "day_span_dot",
        _p(
            r"(?<![\d.])(?P<m>1[0-2]|0?[1-9])\.<DCN>\s*(?:-|~|–|—|到|至)\s*(?:(?P=m)\.)?<DCN2>(?![\d.%％万千百亿倍元块个a-zA-Z])"
        ),
        _day_span,
    ),
    _Rule(  # "6/1-6/18", "5/20到6/10", "5.20-6.10": month first at both ends, which a day over 12 at
        # either end (or one month at both) says; "6/5-7/5" could be either way round and stays unread
        "day_span_month_first",
        _p(
            r"(?<![\d/.])(?P<m>1[0-2]|0?[1-9])(?P<sep>[/.])(?P<d>\d{1,2})\s*(?:-|~|–|—|到|至)\s*"
            r"(?P<m2>1[0-2]|0?[1-9])(?P=sep)(?P<d2>\d{1,2})(?![\d/.%％万千百亿倍元块个a-zA-Z])"
        ),
        _month_first_span,
        lambda m: int(m["d"]) > 12 or int(m["d2"]) > 12 or (m["sep"] == "/" and int(m["m"]) == int(m["m2"])),
    ),
    _Rule(  # "1-15 June", "1st to 15th of May": days of one month, the days said first
        "day_span_en_day_first",
        _p(
            r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|~|<NB>to<NA>)\s*(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
            r"<MON_ANY>(?:<YEAR_SUF>)?<NA>"
        ),
        _day_span,
    ),
    _Rule(
        "day_span_en",
        _p(
            r"<NB><MON_NOMAY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|~)\s*(?P<d2>\d{1,2})(?:st|nd|rd|th)?"
            r"(?!\d)(?:\s*,?\s*(?P<y2>[12]\d{3})(?!\d))?<NA>"
        ),
        _day_span,
    ),
    # holidays on a fixed day: 2025年圣诞节, Christmas Day 2025, New Year's Day last year
    _Rule(
        "holiday",
        _p(
            r"(?:<YEAR_PRE>)?(?:(?P<new_year>元旦|<NB>new\s+year'?s\s+day<NA>)|(?P<valentine>情人节"
            r"|<NB>valentine'?s(?:\s+day)?<NA>)|(?P<halloween>万圣节|<NB>halloween<NA>)"
            r"|(?P<christmas_eve>平安夜|<NB>christmas\s+eve<NA>)|(?P<christmas>圣诞节?|<NB>christmas(?:\s+day)?<NA>))"
            r"(?:当天|那天)?(?:<YEAR_SUF>)?"
        ),
        _holiday,
    ),
    # years
    _Rule(
        "year_cn",
        _p(
            r"(?<!\d)(?:(?P<y>[12]\d{3})|(?P<ycn>[〇零一二三四五六七八九]{4}))\s*(?:年(?:度|全年|整年)?|全年|整年)"
            r"|(?<![\d.近前后第])(?P<ys>\d{2})年(?:度|全年|整年)?(?![以之内来间])"
        ),
        _year,
    ),
    _Rule("year_bare", _p(r"(?P<y>(?:19|20)\d\d)"), _year, _bare_year_ok),
)

# "X以来", "X至今", "X起", "从X开始", "X so far", "X to date", "X onwards": from the start of X to the
# latest complete day (the planner asks back a change said from a point on: "从5月开始下降了多少").
_UNTIL_NOW = _p(
    r"\s*(?:以来|至今(?!年)|迄今|(?:到|至|直到|截至|截止到?)\s*(?:今天|今日|现在|目前|当前)(?:为止)?"
    r"|(?:起|开始)(?!\s*(?:算|了|的?时候?|之前|以前|前|以来))"
    r"|(?:up\s+)?(?:to|until|till|through)\s+(?:today|now|date)<NA>|so\s+far<NA>|to\s+date<NA>"
    r"|onwards?<NA>|and\s+(?:after|later)<NA>)"
)
_SINCE_BEFORE = _p(r"<NB>since\s+(?:the\s+(?:start|beginning)\s+of\s+)?$")
_FROM_BEFORE = _p(r"(?:自从|自|从|<NB>from\s+)\s*$")
_RANGE_JOIN = _p(r"\s*(?:-|~|–|—|截至|截止到?|截止至|直到|到|至|<NB>(?:to|through|thru|until|till)<NA>)\s*")
_AND_JOIN = _p(r"\s*<NB>and<NA>\s*")
_BETWEEN_BEFORE = _p(r"<NB>between\s+$")
_RANGE_PREFIX = _p(r"(?:从|自|由|<NB>between\s+|<NB>from\s+)\s*$")


_SPAN_RULES = frozenset(
    {
        "month_span_cn",
        "month_span_en",
        "day_span_cn",
        "day_span_en",
        "day_span_dot",
        "day_span_month_first",
        "day_span_en_day_first",
    }
)


def _normalise(text: str) -> str:
    """NFKC per character (full-width digits/spaces -> ASCII), keeping every offset unchanged."""
    chars = []
    for ch in text:
        folded = unicodedata.normalize("NFKC", ch)
        chars.append(folded if len(folded) == 1 else ch)
    normalised = "".join(chars)
    assert len(normalised) == len(text)
    return normalised


@dataclass(frozen=True)
class _Found:
    span: tuple[int, int]
    raw: _Raw
    year_first: bool = False
    """The expression's own year is said before it ("2025年5月", "2025 Q1"), not after ("Q1 2025")."""
    error: TimeExpressionError | AmbiguousQuestion | None = None


def _candidates(norm: str) -> list[tuple[int, int, int, _Rule, re.Match[str]]]:
    found = []
    for index, rule in enumerate(_RULES):
        for m in rule.pattern.finditer(norm):
            if rule.guard is not None and not rule.guard(m):
                continue
            start, end = m.span("t") if "t" in rule.pattern.groupindex else m.span()
            if end > start:
                found.append((start, end, index, rule, m))
    found.sort(key=lambda c: (c[0] - c[1], c[0], c[2]))  # longest first, then leftmost
    chosen: list[tuple[int, int, int, _Rule, re.Match[str]]] = []
    for cand in found:
        if all(cand[1] <= other[0] or cand[0] >= other[1] for other in chosen):
            chosen.append(cand)
    chosen.sort(key=lambda c: c[0])
    return chosen


def _to_now(raw: _Raw, ctx: _Ctx) -> _Raw:
    grain: Grain = "custom"
    if raw.grain in _PERIOD_GRAINS:
        pg: _PeriodGrain = raw.grain
        if _period_start(ctx.last, pg) == raw.start:
            grain = pg
    return _Raw(raw.start, max(ctx.as_of, raw.end), grain)


def _scan(text: str, as_of: date) -> tuple[str, list[_Found]]:
    norm = _normalise(text)
    ctx = _Ctx(as_of)
    result: list[_Found] = []
    cursor = 0
    for cand_start, cand_end, _, rule, m in _candidates(norm):
        start, end = cand_start, cand_end
        if start < cursor:
            continue  # swallowed by an earlier "…以来 / …至今" extension
        cursor = end
        if rule.handler is None:
            continue
        raw = rule.handler(m, ctx, text[start:end])
        suffix = _UNTIL_NOW.match(norm, end)
        since = _SINCE_BEFORE.search(norm, 0, start)
        if rule.name in _SPAN_RULES:
            prefix = _RANGE_PREFIX.search(norm, 0, start)
            if prefix:
                start = prefix.start()
        if suffix or since:
            raw = _to_now(raw, ctx)
            if suffix:
                end = suffix.end()
                prefix = _FROM_BEFORE.search(norm, 0, start)
                if prefix:
                    start = prefix.start()
            if since:
                start = since.start()
            cursor = end
        result.append(_Found((start, end), raw, _year_first(m, cand_start)))
    return norm, result


_YEAR_GROUPS = ("y", "ycn", "ys", "yrel", "y2", "yy", "yen", "y3")


def _year_first(m: re.Match[str], start: int) -> bool:
    said = [m.start(g) for g in _YEAR_GROUPS if g in m.re.groupindex and m.group(g)]
    return bool(said) and said[0] == start


def _finish(raw: _Raw, span: tuple[int, int], text: str, as_of: date) -> TimeMatch:
    last = as_of - timedelta(days=1)
    matched = text[span[0] : span[1]]
    if raw.start > last:
        raise _no_data(matched, raw.start, last)
    return TimeMatch(raw.start, min(raw.end, last), span, matched, raw.grain, raw.end > last)


def find_time_expressions(text: str, as_of: date) -> list[TimeMatch]:
    """Every time expression in ``text``: non-overlapping, left to right, longest match wins."""
    _, found = _scan(text, as_of)
    return [_finish(f.raw, f.span, text, as_of) for f in found]


def _join(first: _Found, second: _Found, text: str, ctx: _Ctx) -> tuple[_Raw, _Raw, _Raw]:
    """start(X)..end(Y), and X and Y themselves; a year-less side takes the other side's year."""
    x, y = first.raw, second.raw
    x_text = text[first.span[0] : first.span[1]]
    y_text = text[second.span[0] : second.span[1]]
    xa, ya = x.anchor, y.anchor
    if xa and ya:
        if xa.year_explicit and not ya.year_explicit:
            y = _reanchor(y, xa.year, y_text, ctx)
            if y.end < x.start:
                y = _reanchor(y, xa.year + 1, y_text, ctx)
        elif not xa.year_explicit:
            x = _reanchor(x, ya.year, x_text, ctx)
            if x.start > y.end or (not ya.year_explicit and x.start > y.start):
                x = _reanchor(x, ya.year - 1, x_text, ctx)
    if x.start > y.end:
        joined = text[first.span[0] : second.span[1]]
        raise _invalid(joined, "nlu.ends_before_start_time")
    grain: Grain = x.grain if x.grain == y.grain and x.grain in _PERIOD_GRAINS else "custom"
    return _Raw(x.start, y.end, grain), x, y  # "this year through May" ends with May


@dataclass(frozen=True)
class PeriodReading:
    """One period a question names (a range ``X到Y`` joined into one), or why it cannot be one."""

    span: tuple[int, int]
    match: TimeMatch | None
    error: TimeExpressionError | AmbiguousQuestion | None = None
    ends: tuple[TimeMatch, TimeMatch] | None = None
    """A range's two ends when they are periods of one kind ("5月到6月": May and June)."""
    year_said: tuple[int, int] | None = None
    """Where the year this period takes is said apart from it ("Q1 and Q2 GMV this year")."""

    @property
    def spans(self) -> tuple[tuple[int, int], ...]:
        """The words this reading accounts for."""
        return (self.span,) if self.year_said is None else (self.span, self.year_said)


def _ends(
    x: _Raw, x_span: tuple[int, int], y: _Raw, y_span: tuple[int, int], text: str, as_of: date
) -> tuple[TimeMatch, TimeMatch] | None:
    if x.grain != y.grain or x.grain not in _PERIOD_GRAINS:
        return None
    try:
        return _finish(x, x_span, text, as_of), _finish(y, y_span, text, as_of)
    except TimeExpressionError:
        return None


def _is_range(norm: str, first: _Found, second: _Found) -> bool:
    between = norm[first.span[1] : second.span[0]]
    return bool(
        _RANGE_JOIN.fullmatch(between)
        or (_AND_JOIN.fullmatch(between) and _BETWEEN_BEFORE.search(norm, 0, first.span[0]))
    )


def read_periods(text: str, as_of: date) -> list[PeriodReading]:
    """Every period of ``text``, left to right, ranges joined; an invalid one (a future month, a
    31st of February) is returned with its error instead of raising, so a question that turns
    out not to be about the data is refused for that, not for its date."""
    norm, found = _scan(text, as_of)
    found = _shared_years(norm, found, text, _Ctx(as_of))
    found, year_said = _year_apart(norm, found, text, _Ctx(as_of))
    found = _week_beside_a_week_of_a_month(norm, found, text)
    out: list[PeriodReading] = []
    i = 0
    while i < len(found):
        first = found[i]
        step = 1
        try:
            if first.error is not None:
                raise first.error
            if i + 1 < len(found) and _is_range(norm, first, found[i + 1]):
                second = found[i + 1]
                raw, x, y = _join(first, second, text, _Ctx(as_of))
                prefix = _RANGE_PREFIX.search(norm, 0, first.span[0])
                span = (prefix.start() if prefix else first.span[0], second.span[1])
                step = 2
                ends = _ends(x, first.span, y, second.span, text, as_of)
            else:
                raw, span = first.raw, first.span
                if raw.loose_edge and not _UNTIL_BEFORE.search(norm, 0, span[0]):
                    # "5月底GMV": its last day, or its last days? asked, never guessed ("到3月底" is an end)
                    said = text[span[0] : span[1]]
                    raise AmbiguousQuestion(
                        *both("nlu.edge_of_month_alone", said=said, day=raw.start.isoformat()),
                        detail={"missing": "time_range", "words": said},
                    )
                parts = raw.parts
                ends = (
                    _ends(parts[0], (0, 0), parts[1], (0, 0), text, as_of) if parts and parts[0] != parts[1] else None
                )
            out.append(PeriodReading(span, _finish(raw, span, text, as_of), ends=ends, year_said=year_said))
        except (TimeExpressionError, AmbiguousQuestion) as exc:
            out.append(PeriodReading(first.span, None, exc, year_said=year_said))
        i += step
    return out


_UNTIL_BEFORE = _p(r"(?:到|至|截至|截止|<NB>(?:to|through|thru|by|until|till|up\s+to|as\s+of)<NA>)\s*(?:the\s+)?$")
_COMPARED = _p(r"对比|相比|比较?|较|<NB>(?:vs\.?|versus|against|compared?\s+(?:with|to))(?![A-Za-z])")
_AND = _p(r"和|与|及|、|,|，|&|<NB>and<NA>")
_NOT_SHARED = _p(r"\d|到|至|-|~|–|—|<NB>(?:to|through|thru|until|till|from|between|since)<NA>")
_QUALIFIER_GAP = _p(
    r"[\s的]*(?:(?!(?:and|or|vs|versus|against|than|compared?|with|to|through|thru|until|till|from|since|over|on|"
    r"growth|grow|grew|change|changed|up|down|rise|rose|fall|fell|drop|dropped|increase|decrease)(?![A-Za-z]))"
    r"[A-Za-z][A-Za-z'&/-]*(?![A-Za-z'&/-])[\s的]*)*"  # whole words: a failed match backtracks linearly
)
"""What may stand between a year and the periods it qualifies: "的", spaces and Latin words
such as a metric's name ("Q1 and Q2 GMV this year") — no comparison, range or change word."""


_WEEK_OF_A_MONTH = _p(r"月份?的?\s*第\s*[一二三四1-4]\s*个?\s*(?:周|星期|礼拜)")
_BARE_WEEK = _p(r"第\s*(?P<w>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:周|星期|礼拜)")


def _week_beside_a_week_of_a_month(norm: str, found: list[_Found], text: str) -> list[_Found]:
    """ "6月第3周的GMV比第2周低": a bare 第N周 beside a week of a month may be that month's week
    or the year's (ISO) week N — asked back rather than read as the year's."""
    month_week = _WEEK_OF_A_MONTH.search(norm)
    if month_week is None:
        return found
    out = []
    for f in found:
        bare = _BARE_WEEK.fullmatch(norm, *f.span)
        if bare is None or f.error is not None or f.span[0] <= month_week.start() < f.span[1]:
            out.append(f)
            continue
        said = text[f.span[0] : f.span[1]]
        other = text[_month_start(norm, month_week.start()) : month_week.end()]
        error = AmbiguousQuestion(
            *both("nlu.week_of_the_year_or_month", week=said, other=other, n=parse_cn_int(bare.group("w"))),
            detail={"missing": "time_range", "period": said},
        )
        out.append(replace(f, error=error))
    return out


def _month_start(norm: str, at: int) -> int:
    """Where the month before 月 at ``at`` is said ("6" of "6月", "十二" of "十二月")."""
    start = at
    while start > 0 and (norm[start - 1].isdigit() or norm[start - 1] in "一二三四五六七八九十"):
        start -= 1
    return start


def _reanchored(found: _Found, year: int, text: str, ctx: _Ctx) -> _Found:
    try:
        return replace(found, raw=_reanchor(found.raw, year, text[found.span[0] : found.span[1]], ctx))
    except TimeExpressionError as exc:
        return replace(found, error=exc)


def _shared_years(norm: str, found: list[_Found], text: str, ctx: _Ctx) -> list[_Found]:
    """A year said once for coordinated periods of one kind holds for all of them, as it does for
    a range. Said with the first, it reaches forward ("2025年4月、5月和6月", "去年Q1和Q2", "the
    second half of 2025 vs the first half"); said after the last, it reaches back over "and"
    ("Q1, Q2 and Q3 2025"). Said before the second only, it marks that one ("6月和去年5月": this
    June). Asked back: a year after the second across a comparison word ("June vs May last
    year": last year's June too, or this June?), and a period it would put before the one it came
    with ("2025年12月和1月": January 2025 or 2026?)."""
    out = list(found)
    year_of: dict[int, int] = {}  # a period's year, said or shared
    for i, f in enumerate(out):
        if f.raw.anchor is not None and f.raw.anchor.year_explicit:
            year_of[i] = f.raw.anchor.year
    for i in range(len(out) - 1):  # forward
        if i in year_of and i + 1 not in year_of and (between := _coordinated(norm, out[i], out[i + 1])):
            listed = not _COMPARED.search(between)
            out[i + 1] = _shared(out[i + 1], out[i], year_of[i], text, ctx, listed=listed)
            year_of[i + 1] = year_of[i]
    for i in range(len(out) - 2, -1, -1):  # backward
        a, b = out[i], out[i + 1]
        if i in year_of or i + 1 not in year_of or b.year_first:
            continue
        between = _coordinated(norm, a, b)
        if not between:
            continue
        if not _COMPARED.search(between):
            out[i] = _shared(a, b, year_of[i + 1], text, ctx)
            year_of[i] = year_of[i + 1]
        elif a.raw.anchor is not None and a.raw.anchor.year != year_of[i + 1]:
            out[i] = replace(a, error=_which_year(text, a, b, a.raw.anchor.year, year_of[i + 1]))
    return out


def _coordinated(norm: str, a: _Found, b: _Found) -> str:
    """The words between two periods of one kind joined by "and" or a comparison word ("" if not)."""
    xa, ya = a.raw.anchor, b.raw.anchor
    if xa is None or ya is None or xa.kind != ya.kind or xa.kind == "year" or a.raw.parts or b.raw.parts:
        return ""
    if (xa.a, xa.b) == (ya.a, ya.b):  # "June 18 vs June 18 last year": one date in two years
        return ""
    between = norm[a.span[1] : b.span[0]]
    if len(between) > 40 or _NOT_SHARED.search(between) or not (_COMPARED.search(between) or _AND.search(between)):
        return ""
    return between or " "


def _shared(target: _Found, source: _Found, year: int, text: str, ctx: _Ctx, *, listed: bool = False) -> _Found:
    """``target`` in ``year``. Listed after ``source`` and then before it, while the next year
    would make it the period right after ("2025年12月和1月"), it is asked back."""
    moved = _reanchored(target, year, text, ctx)
    if moved.error is not None or not listed or moved.raw.start >= source.raw.start:
        return moved
    following = _reanchored(target, year + 1, text, ctx)
    if following.error is None and following.raw.start == source.raw.end + timedelta(days=1):
        latest = target.raw.anchor.year if target.raw.anchor is not None else year
        return replace(target, error=_which_year(text, target, source, latest, year))
    return moved


def _which_year(text: str, period: _Found, other: _Found, latest: int, year: int) -> AmbiguousQuestion:
    said = text[period.span[0] : period.span[1]]
    return AmbiguousQuestion(
        *both("nlu.which_year_of", period=said, latest=latest, other=text[other.span[0] : other.span[1]], year=year),
        detail={"missing": "time_range", "period": said, "years": [year, latest]},
    )


def _whole_year(raw: _Raw) -> int | None:
    first = raw.start
    return first.year if raw.grain == "year" and (first.month, first.day) == (1, 1) else None


def _year_apart(norm: str, found: list[_Found], text: str, ctx: _Ctx) -> tuple[list[_Found], tuple[int, int] | None]:
    """ "Compare Q1 and Q2 GMV this year", "今年的6月": a year said apart from the year-less
    periods of one kind it qualifies, and joined to none of them by a word that would make it
    a period of its own ("今年和6月比", "from 2025 to June", "June compared with this year"), is
    their year: "Q4 GMV last year" is Q4 2025, "Q2 GMV this year vs last year" Q2 2026 against Q2
    2025."""
    years = [f for f in found if _whole_year(f.raw) is not None]
    rest = [f for f in found if f not in years]
    kinds = {f.raw.anchor.kind if f.raw.anchor is not None and not f.raw.anchor.year_explicit else None for f in rest}
    if len(years) != 1 or not rest or len(kinds) != 1 or None in kinds or "year" in kinds:
        return found, None
    year = years[0]
    nearest = min(rest, key=lambda f: abs(f.span[0] - year.span[0]))
    lo, hi = sorted((nearest.span, year.span))
    between = norm[lo[1] : hi[0]]
    if not _QUALIFIER_GAP.fullmatch(between):
        return found, None
    said = _whole_year(year.raw)
    assert said is not None
    return [_reanchored(f, said, text, ctx) for f in rest], year.span


def parse_time_range(text: str, as_of: date) -> TimeMatch | None:
    """The question's one time range (ranges like 从X到Y joined), or None when there is none."""
    norm, found = _scan(text, as_of)
    if not found:
        return None
    if len(found) >= 2:
        first, second = found[0], found[1]
        between = norm[first.span[1] : second.span[0]]
        joined = _RANGE_JOIN.fullmatch(between) or (
            _AND_JOIN.fullmatch(between) and _BETWEEN_BEFORE.search(norm, 0, first.span[0])
        )
        if joined:
            raw, _, _ = _join(first, second, text, _Ctx(as_of))
            prefix = _RANGE_PREFIX.search(norm, 0, first.span[0])
            start = prefix.start() if prefix else first.span[0]
            return _finish(raw, (start, second.span[1]), text, as_of)
    return _finish(found[0].raw, found[0].span, text, as_of)
