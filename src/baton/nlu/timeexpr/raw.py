"""What a matched time expression resolves to before it is anchored (a raw period and its context), and the pattern language the rules are written in."""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, timedelta

from baton import patterns
from baton.errors import TimeExpressionError
from baton.messages import both
from baton.messages import text as message
from baton.nlu.cn_numerals import approximate, parse_cn_int, rough_number_asked
from baton.nlu.timeexpr.arithmetic import Grain, _Kind, _month_end

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
    label: str | None = None
    """What the period is called where its own words do not say it (the "3" of "3、4月" is 3月)."""


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
    """The count a group says; a rough one ("近两三个月") is asked back, never read as 23."""
    value = _group(m, name)
    assert value is not None
    if approximate(value):
        raise rough_number_asked(m.group(0))
    return parse_cn_int(value)
