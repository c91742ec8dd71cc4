"""One handler per kind of time expression: it turns a rule's match into a raw period."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, timedelta

from baton import patterns
from baton.contracts.semantic import OPEN_START
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.timeexpr.arithmetic import _MONTHS_PER, _month_end, _period_end, _period_start, _PeriodGrain, _shift
from baton.nlu.timeexpr.raw import (
    _MONTH_NAMES,
    _ORDINALS,
    _calendar,
    _Ctx,
    _en_int,
    _group,
    _Handler,
    _invalid,
    _num,
    _Raw,
    _year_of,
)

# ---------------------------------------------------------------- handlers


def _days_ago(k: int) -> _Handler:
    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        day = ctx.as_of - timedelta(days=k)
        return _Raw(day, day, "day")

    return handle


def _all_time(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "all time", "历史累计": every day up to the as-of date, from before any warehouse's first row
    (:data:`OPEN_START`, shown by its words, never as a date)."""
    return _Raw(OPEN_START, ctx.last, "custom")


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


def weekday_index(said: str) -> int:
    """Monday 0 … Sunday 6 of a weekday said after 周 / 星期 ("一", "日", "天", "7")."""
    return _WEEKDAY_CN[said] if said in _WEEKDAY_CN else int(said) - 1


def _monday(ctx: _Ctx, weeks_back: int) -> date:
    """The Monday of the week ``weeks_back`` weeks before the as-of week."""
    return ctx.as_of - timedelta(days=ctx.as_of.weekday(), weeks=weeks_back)


def _weekday_of_week(weeks_back: int) -> _Handler:
    """上周三 / 本周一: that weekday of the week ``weeks_back`` weeks before the as-of week."""

    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        weekday = weekday_index(m.group("wd"))
        monday = _monday(ctx, weeks_back)
        day = monday + timedelta(days=weekday)
        return _Raw(day, day, "day")

    return handle


def _weekend(weeks_back: int) -> _Handler:
    """Saturday and Sunday of the week ``weeks_back`` weeks before the as-of week."""

    def handle(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
        monday = _monday(ctx, weeks_back)
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
    this_monday = _monday(ctx, 0)
    if m.group(0).split()[0].lower() in {"last", "previous"} and day >= this_monday:
        earlier = day - timedelta(days=7)
        detail = {"missing": "time_range", "period": text, "suggestions": [day.isoformat(), earlier.isoformat()]}
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
    """this week / month-to-date / QTD / current year / since the start of the year ..."""
    unit = (_group(m, "u") or _group(m, "u2") or _group(m, "u3") or "").lower()
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


def _dot_day(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "6.12 订单量": the month and the day of a Chinese dotted date, in the latest such day."""
    month, day = int(_group(m, "m") or _group(m, "m2") or "0"), int(_group(m, "d") or _group(m, "d2") or "0")
    return _calendar("day", None, month, day, text=text, ctx=ctx)


def _week_ending(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "the week ending June 28": the seven days that end on the day named — a calendar week when
    it is a Sunday, else those seven days as said (a retail week may end on any weekday)."""
    day = _day(m, ctx, text).start
    return _Raw(day - timedelta(days=6), day, "week" if day.weekday() == 6 else "custom")


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


def _days_of_week(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The first or last N days of a week counted from today ("本周前两天", "上周后三天"): Monday
    on, or back from Sunday."""
    said = _group(m, "wk") or ""
    weeks_back = 0 if said[:1] in {"本", "这", "当"} else said.count("上")
    monday = _monday(ctx, weeks_back)
    n = parse_cn_int(_group(m, "n") or "")
    if not 1 <= n <= 7:
        raise _invalid(text, "nlu.no_such_day_of_week", n=n)
    if (_group(m, "which") or "") in {"前", "头"}:
        return _Raw(monday, monday + timedelta(days=n - 1), "custom")
    return _Raw(monday + timedelta(days=7 - n), monday + timedelta(days=6), "custom")


def _days_of_week_en(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """ "Monday to Friday last week", "this week's Mon-Wed", "weekdays of last week": those days of a
    calendar week counted from the as-of week, Monday first; a range said backwards is invalid.
    One day ("Wednesday last week", "last week's Wed") is that day of the week."""
    said = (_group(m, "wk") or "").lower()
    weeks_back = 2 if _group(m, "wbl") else 0 if said == "this" else 1
    monday = _monday(ctx, weeks_back)
    if one := _group(m, "one"):
        day = monday + timedelta(days=_WEEKDAY_EN[one.lower()])
        return _Raw(day, day, "day")
    a, b = _group(m, "a"), _group(m, "b")
    first, last = (_WEEKDAY_EN[a.lower()], _WEEKDAY_EN[b.lower()]) if a and b else (0, 4)  # weekdays: Mon–Fri
    if last < first:
        start, end = monday + timedelta(days=first), monday + timedelta(days=last)
        raise _invalid(text, "nlu.range_reversed", start=start, end=end)
    return _Raw(monday + timedelta(days=first), monday + timedelta(days=last), "custom")


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
            "period": text,
            "suggestions": [f"{_group(m, 'y')}-{a:02d}-{b:02d}", f"{_group(m, 'y')}-{b:02d}-{a:02d}"],
        }
        raise AmbiguousQuestion(*both("nlu.which_date_order", text=text), detail=detail)
    month, day = (a, b) if a <= 12 else (b, a)
    return _calendar("day", int(_group(m, "y") or 0), month, day, text=text, ctx=ctx)


def _first_months(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The first N months (or quarters) of a year, from January 1: whole months, so the period before
    the first two months is November and December, not the 59 days before."""
    year = _year_of(m, ctx)
    assert year is not None
    raw = _group(m, "n") or ""
    n = _en_int(raw) if raw.isascii() and not raw.isdigit() else parse_cn_int(raw)
    kind: _PeriodGrain = "quarter" if _group(m, "q") else "month"
    if not 1 <= n <= (4 if kind == "quarter" else 12):
        raise _invalid(text, "nlu.no_such_period", kind=kind, kind_zh=message(f"nlu.period_{kind}", "zh"), number=n)
    return _Raw(date(year, 1, 1), _month_end(year, n * 3 if kind == "quarter" else n), kind)


def _half(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    token = (_group(m, "h") or "").lower()
    h = 1 if token in ("上", "1", "first", "1st") else 2
    return _calendar("half", _year_of(m, ctx), h, 0, text=text, ctx=ctx)


def _month_number(m: re.Match[str]) -> int:
    name = _group(m, "mn")
    return _MONTH_NAMES[name.lower()[:3]] if name else _num(m, "m")


def _month(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    return _calendar("month", _year_of(m, ctx), _month_number(m), 0, text=text, ctx=ctx)


def _month_listed_before(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """The "3" of "3、4月": the month 3月, called so."""
    return replace(_month(m, ctx, text), label=m.group(0).strip() + "月")


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
    second = _group(m, "mn2")
    last_m = _MONTH_NAMES[second.lower()[:3]] if second else _num(m, "m2")
    return _whole_months(_year_of(m, ctx), _month_number(m), last_m, text, ctx)


def _whole_months(year: int | None, first_m: int, last_m: int, text: str, ctx: _Ctx) -> _Raw:
    """From the first month to the last, whole: the year (said, or the latest the last month has
    begun in) is the last month's, and the first month's the year before when it comes later."""
    last = _calendar("month", year, last_m, 0, text=text, ctx=ctx)
    first_year = last.start.year - (1 if first_m > last_m else 0)
    first = _calendar("month", first_year, first_m, 0, text=text, ctx=ctx)
    return _Raw(first.start, last.end, "month", parts=(first, last))


def _month_until_day(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """6月截至20号 / June through the 20th: the month from its first day to the day said — a month
    so far, whose previous period is the same days of the month before."""
    month = _calendar("month", _year_of(m, ctx), _month_number(m), 0, text=text, ctx=ctx)
    assert month.anchor is not None
    last = _calendar("day", month.anchor.year, month.anchor.a, _num(m, "d2"), text=text, ctx=ctx)
    return _Raw(month.start, last.end, "month")


def month_pair_last(m: re.Match[str]) -> int | None:
    """The second month of "一二月" / "十一二月" (the 十 of 十二 said once), when it follows the
    first; None for two months that are not in a row ("二五月" is no period)."""
    first = _num(m, "m")
    second = 12 if first == 11 and _group(m, "m2") == "二" else _num(m, "m2")
    return second if second == first + 1 else None


def _month_pair(m: re.Match[str], ctx: _Ctx, text: str) -> _Raw:
    """一二月 / 2025年十一二月: both whole months, start..end, as "1-2月" reads."""
    last_m = month_pair_last(m)
    assert last_m is not None
    return _whole_months(_year_of(m, ctx), _num(m, "m"), last_m, text, ctx)


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
