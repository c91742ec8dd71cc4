"""Periods of a question beyond what :mod:`baton.nlu.timeexpr` reads alone: how several periods
make one period and a comparison (the catalog's calendar events are read by :mod:`baton.nlu.events`)."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from baton import patterns
from baton.catalog.spine import whole_inside
from baton.contracts.common import LANGUAGES
from baton.contracts.semantic import OPEN_START, Comparison, Grain, TimeRange, periods_before
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.scan import Scan


@dataclass
class PeriodCues:
    """The operators that decide how a question's periods are compared."""

    comparison_kind: Literal["previous_period", "same_period_last_year"] | None = None
    as_of: date | None = None
    """The as-of date the question is read against (the year before last of "前年同期" is counted from it)."""
    compare_word: bool = False
    """A comparison word stands next to the periods ("6月和5月比"), not next to a member."""
    window: tuple[int, str] | None = None
    """The length a previous-period word names ("前7天", "the 30 days before"): n units."""
    each_over: bool = False
    """The word is one of a period over the one before ("月环比", "wow", "month over month"), which
    said over several whole periods compares each with its own; "the week before" names one week."""
    change: bool = False
    why: bool = False
    earlier: Literal["week", "month", "two_years", "two_years_before"] | None = None
    """The same days a week, a month or two years earlier ("上周同期", "上月同期", "前年同期"): the range
    shifted back by it."""
    first_is_asked: bool = False
    """The first of two periods is the one asked about, whatever words stand between them
    ("上上个月的GMV与上个月相比": May, against June)."""
    side_by_side: bool = False
    """"5月和6月的GMV分别是多少": two periods, each asked for its value (no breakdown, no total
    the "分别"/"each" could belong to instead)."""
    average_per: Grain | None = None
    """An average per day (week, month …) is asked for: it compares periods of different lengths."""
    grain: Grain | None = None
    """The series' grain ("每个月"): a previous-period word of one such period ("mom" over "monthly")
    compares each period with the one before it, whatever the whole range's length; set here when
    such a word is said over several whole periods and no grain is ("今年GMV月环比")."""
    moved: bool = False
    """A direction is said ("降了", "rose", "比3月低"): with a why over a range, its ends are compared."""


_BESIDE = patterns.compile(r"[\s，,、的:：]*")


def until_inside_its_period(scan: Scan, periods: list[timeexpr.PeriodReading]) -> list[timeexpr.PeriodReading]:
    """ "截止到6月20号，6月的GMV", "二季度截至5月20号", "as of June 20, this year's orders": a day said as
    an end, right beside a named period that holds it (a month, a quarter, 4到6月, 618期间 …), is that
    period up to the day — one period of its kind, whose previous period is the same days of the one
    before. A window counted back from today ("近30天", "过去两周") is no period to cut: "as of June
    20, the last 30 days" ends elsewhere, asked back by the guard after. Set against another period
    ("截止到6月28号，6月和5月比"), the base would be whole: asked back."""
    for i, (first, second) in enumerate(itertools.pairwise(periods)):
        joined = _cut_at_its_end(scan, first, second) or _cut_at_its_end(scan, second, first)
        if joined is None:
            continue
        if len(periods) > 2:
            others = [p.match.text for p in periods if p not in (first, second) and p.match is not None]
            said = joined.match.text if joined.match is not None else ""
            raise AmbiguousQuestion(
                *both("nlu.cut_period_against_another", cut=said, others=", ".join(others)),
                detail={"reason": "cut_period_against_another", "periods": [said, *others]},
            )
        return [*periods[:i], joined, *periods[i + 2 :]]
    return periods


def a_period_left_out(
    scan: Scan, periods: list[timeexpr.PeriodReading], as_of: date, before: TimeRange | None = None
) -> tuple[list[timeexpr.PeriodReading], tuple[int, int] | None]:
    """ "flights in Q4 2013 excluding December", "上半年每月GMV，不含6月", "6月除外": a period said with an
    exclusion word, inside the one other period of the question (in its year, when its own year is
    not said) and at one of its ends, is left out of it — the days that remain, one run of them (whole
    months or weeks when they are so, else custom days compared with as many days before) — and the
    span of the exclusion word it took
    (no member's exclusion any more). Left out of the middle, the days are two runs; followed by a
    member in the same exclusion ("不含6月的直播", "excluding June and live stream": June's live
    stream, or June and live stream?) — both asked back. Anything else is left to the readers after.
    A year said apart from the period left out ("GMV in 2025 excluding December") is the other one; in a
    follow-up ("GMV in H1", then "excluding June"), the period of the question ``before``."""
    given = periods
    periods = _the_year_apart(scan, periods, as_of)
    if any(p.match is None or p.error is not None for p in periods):
        return given, None
    if len(periods) == 2:
        pairs = [(periods[0], periods[1]), (periods[1], periods[0])]
    elif len(periods) == 1 and before is not None:  # the span (-1, -1): said in the question before
        kind = before.period_kind or "custom"
        asked = timeexpr.TimeMatch(before.start, before.end, (-1, -1), before.text or "", kind, False)
        pairs = [(periods[0], timeexpr.PeriodReading(span=(-1, -1), match=asked))]
    else:
        return given, None
    unplaced: list[tuple[str, str]] = []  # (the period left out, the one it is no end of)
    for inner, outer in pairs:
        said = _left_out_said(scan, inner)
        if said is None:
            continue
        (first, last), words = said
        left, whole = _in_the_year_of(_match(inner), _match(outer)), _match(outer)
        if left is None or (left.start, left.end) == (whole.start, whole.end):
            unplaced.append((_match(inner).text.strip(), whole.text.strip() or whole.start.isoformat()))
            continue
        inner_text = _match(inner).text.strip()
        if whole.start < left.start and left.end < whole.end:  # two runs of days
            raise ask_back_period("nlu.period_left_out_of_the_middle", left=inner_text, whole=whole.text.strip())
        if _a_member_in_the_same_exclusion(scan, inner, last):
            raise ask_back_period("nlu.period_and_member_left_out", left=inner_text, whole=whole.text.strip())
        start, end = (
            (left.end + timedelta(days=1), whole.end)
            if left.start == whole.start
            else (whole.start, left.start - timedelta(days=1))
        )
        for word in words:
            scan.claim(*word)
        left_out = scan.text[first:last].strip()
        text = f"{whole.text.strip()}（{left_out}）" if _CJK.search(left_out) else f"{whole.text.strip()} {left_out}"
        span = outer.span if outer.span != (-1, -1) else (first, last)
        if outer.span == (-1, -1):
            text = text.strip()
        elif _BESIDE.fullmatch(scan.norm[min(outer.span[1], last) : max(outer.span[0], first)]):
            span = (min(outer.span[0], first), max(outer.span[1], last))  # said as one: claimed as one
            text = scan.text[span[0] : span[1]]
        kind = _whole_units(start, end, (_match(inner).grain, whole.grain))
        remaining = timeexpr.TimeMatch(start, end, span, text, kind, whole.clamped)
        return [timeexpr.PeriodReading(span=span, match=remaining)], words[0]
    if unplaced:  # "2025年Q1 excluding June"; "excluding June" after Jan–May: never a member left out instead
        said_left, said_whole = unplaced[0]
        raise ask_back_period("nlu.period_left_out_unplaced", said=said_left, whole=said_whole)
    return given, None


def _the_year_apart(scan: Scan, periods: list[timeexpr.PeriodReading], as_of: date) -> list[timeexpr.PeriodReading]:
    """ "GMV in 2025 excluding December": the one period read with a year said apart, as two — the
    year, and the period with it — when an exclusion word is right before the period."""
    if len(periods) != 1 or periods[0].year_said is None or periods[0].match is None:
        return periods
    (period,) = periods
    said = period.year_said
    assert said is not None
    if vocab.PERIOD_LEFT_OUT.search(scan.norm, 0, period.span[0]) is None:
        return periods
    years = [r for r in timeexpr.read_periods(scan.text[said[0] : said[1]], as_of) if r.match is not None]
    if len(years) != 1 or years[0].error is not None:
        return periods
    year = dataclasses.replace(years[0], span=said)
    return sorted([year, dataclasses.replace(period, year_said=None)], key=lambda p: p.span)


def _a_member_in_the_same_exclusion(scan: Scan, inner: timeexpr.PeriodReading, last: int) -> bool:
    """Whether a member is listed with the period left out, in one exclusion: after it ("excluding June
    and live stream", "June's live stream", "不含6月的直播", "excluding June, live stream and web" —
    unless "only" keeps it: "except June, app only"; a Chinese comma or a closing 外 ends the exclusion)
    or before it ("直播和6月都不算")."""
    if last == inner.span[1]:  # "除6月外华东的GMV": 外 closed the exclusion before the member
        joined = _THEN_A_MEMBER.match(scan.norm, last)
        assert joined is not None  # every part is optional
        member = next(((s, e) for s, e in scan.members if s == joined.end()), None)
        # "上半年，不含6月，华东的GMV": a Chinese comma alone ends it ("，以及直播" goes on)
        ended = scan.text[last : joined.end()].strip() == "，"
        clause = _CLAUSE_END.search(scan.norm, member[1]) if member is not None else None
        rest = scan.norm[member[1] : clause.start() if clause else len(scan.norm)] if member is not None else ""
        if member is not None and not ended and not _ONLY_IN.search(rest):  # "app and web only"
            return not _ONLY_IN.search(joined.group())
    before = scan.norm[: inner.span[0]]
    return any(
        _A_JOIN_ONLY.fullmatch(before[e:]) and "，" not in scan.text[e : inner.span[0]]  # "华东，6月除外": apart
        for _s, e in scan.members
        if e <= inner.span[0]
    )


_UNITS: dict[str, Literal["week", "month", "quarter"]] = {"week": "week", "month": "month", "quarter": "quarter"}


def _whole_units(start: date, end: date, grains: Sequence[str]) -> Grain:
    """The days that remain, typed as whole weeks (months, quarters) of the unit left out or of the
    period they were left out of — "Q2 excluding June" is two months, compared as "4月到5月" is (review
    s26: as days, its 环比 began on Jan 30) — or custom days."""
    for grain in grains:
        unit = _UNITS.get(grain)
        whole = unit is not None and timeexpr.period_bounds(start, unit)[0] == start
        if unit is not None and whole and timeexpr.period_bounds(end, unit)[1] == end:
            return unit
    return "custom"  # type: ignore[return-value]


def _left_out_said(scan: Scan, inner: timeexpr.PeriodReading) -> tuple[tuple[int, int], list[tuple[int, int]]] | None:
    """Where ``inner`` is said left out, with its exclusion word ("excluding December", "除6月外", "6月
    除外"), and the spans of its words — the exclusion word first, all still free — or ``None``."""
    before = vocab.PERIOD_LEFT_OUT.search(scan.norm, 0, inner.span[0])
    if before is not None:
        closed = _CLOSED.match(scan.norm, inner.span[1])  # "除6月外": the 外 closes it
        last = closed.end() if closed is not None else inner.span[1]
        words = [(before.start(), inner.span[0]), *([(inner.span[1], last)] if last > inner.span[1] else [])]
    else:
        after = vocab.EXCLUDE_AFTER.match(scan.norm, inner.span[1])
        if after is None or after.end() == inner.span[1]:
            return None
        last = after.end()
        words = [(inner.span[1], last)]
    if not all(scan.free(a, b) for a, b in words):  # the periods themselves are claimed already
        return None
    first = words[0][0] if before is not None else inner.span[0]
    return (first, last), words


def ask_back_period(key: str, **fields: str) -> AmbiguousQuestion:
    return AmbiguousQuestion(*both(key, **fields), detail={"reason": key.split(".", 1)[1]})


_CLOSED = patterns.compile(r"\s*(?:以外|之外|外)")
_JOIN = (
    r"(?:的|和|与|及|以及|跟|还有|还|、|,|'s|’s|\band\b|\bor\b|\bplus\b|&|\bas well as\b|\balso\b|\btoo\b"
    r"|\b(?:together|along) with\b)"
)
_THEN_A_MEMBER = patterns.compile(rf"(?:\s*{_JOIN})*\s*(?:(?:only|just)\s+)?(?:the\s+)?", re.I)
_A_JOIN_ONLY = patterns.compile(rf"(?:\s*{_JOIN})+\s*", re.I)
_ONLY_IN = patterns.compile(r"\b(?:only|just|alone)\b", re.I)
_CLAUSE_END = patterns.compile(r"[,;.?!，。；？！]")


def _in_the_year_of(left: timeexpr.TimeMatch, whole: timeexpr.TimeMatch) -> timeexpr.TimeMatch | None:
    """``left`` as a part of ``whole``: as said, or moved to ``whole``'s year when it does not say its own
    ("2024年下半年不含12月": December 2024); ``None`` when it is no part of it."""
    if whole.start <= left.start and left.end <= whole.end:
        return left
    years = whole.start.year - left.start.year
    if not years or whole.start.year != whole.end.year or _A_YEAR.search(left.text):
        return None
    try:
        moved = dataclasses.replace(
            left,
            start=left.start.replace(year=left.start.year + years),
            end=left.end.replace(year=left.end.year + years),
        )
    except ValueError:  # February 29
        return None
    return moved if whole.start <= moved.start and moved.end <= whole.end else None


_A_YEAR = patterns.compile(r"\d{4}|\d{2}\s*年|(?:今|去|前|明|后|本|上|下|这一?|那一?)年|\byears?\b|\bytd\b", re.I)
"""A period's own year said ("2025年12月", "去年12月", "last year's December"); 上半年's 年 is none."""
_CJK = patterns.compile(r"[\u4e00-\u9fff]")


def _cut_at_its_end(
    scan: Scan, day: timeexpr.PeriodReading, period: timeexpr.PeriodReading
) -> timeexpr.PeriodReading | None:
    """``period`` up to ``day``, when ``day`` is said as an end ("截止到", "as of") right beside it."""
    end, whole = day.match, period.match
    before = vocab.UNTIL_BEFORE.search(scan.norm, 0, day.span[0])
    if end is None or whole is None or before is None or end.grain != "day" or _ROLLING.match(whole.text.strip()):
        return None
    if not whole.start < end.start <= whole.end:
        return None
    if day.span < period.span:  # "截止到6月20号，6月"
        start, between = before.start(), scan.norm[day.span[1] : period.span[0]]
    else:  # "二季度截至5月20号"
        start, between = period.span[0], scan.norm[period.span[1] : before.start()]
    if not _BESIDE.fullmatch(between):
        return None
    span = (start, max(day.span[1], period.span[1]))
    clamped = end.clamped or whole.clamped
    kind = whole.grain if _one_calendar(whole) else "custom"  # a cut 4到6月 is days: its base the days before
    cut = timeexpr.TimeMatch(whole.start, end.end, span, scan.text[span[0] : span[1]], kind, clamped)
    return timeexpr.PeriodReading(span=span, match=cut)


def _one_calendar(period: timeexpr.TimeMatch) -> bool:
    """Whether a period is one week, month, quarter, half or year (so far), never a run of them."""
    if period.grain not in ("week", "month", "quarter", "half", "year"):
        return False
    first, last = timeexpr.period_bounds(period.start, period.grain)
    return period.start == first and period.end <= last


_ROLLING = patterns.compile(
    r"(?:近|最近|过去|前)|(?:the\s+)?(?:last|past|previous|prior|trailing|rolling)\s+\d|(?:the\s+)?(?:last|past|trailing)\s+(?:two|three|four|five|six|seven|eight|nine|ten|\w+teen|twenty|thirty|couple)",
    re.I,
)
"""A window counted back from today ("近30天", "过去两周", "the last 30 days"), never a named period."""


def resolve_periods(
    scan: Scan, cues: PeriodCues, periods: list[timeexpr.PeriodReading]
) -> tuple[TimeRange, Comparison | None]:
    """The period asked about and the one it is compared with: one period with a comparison
    word, two periods with a comparison word between them ("X vs Y": X is asked about;
    "compare X and Y": the later one), or the two ends of a range whose change is asked
    ("5月到6月GMV涨了多少"). Two periods and no such word are asked back, and so is a
    comparison of periods of different lengths."""
    for period in periods:
        if period.error is not None:
            raise period.error
    compared = cues.compare_word or cues.change or cues.comparison_kind is not None
    relative = [p for p in periods if p.match is not None and _RELATIVE.fullmatch(p.match.text.strip())]
    named = [p for p in periods if p.match is not None and p not in relative]
    # "2025年9月…和上个月比": the named period first, then the one counted from today; "上上个月和上个月"
    # and "上个月跟5月比" are compared as said
    absolute = len(named) == 1 and _names_its_dates(_match(named[0]).text)
    after = absolute and len(relative) == 1 and named[0].span < relative[0].span
    if compared and after and cues.comparison_kind is None:
        against = _previous_said_from_today(_match(named[0]), _match(relative[0]))
        if against is not None:
            return against
    found: list[timeexpr.PeriodReading] = []
    twice: list[timeexpr.PeriodReading] = []
    for p in periods:  # "618活动期间（6月1号到18号）": the same dates said twice are one period
        if p.match is not None and all(_dates(p) != _dates(f) for f in found):
            found.append(p)
        elif p.match is not None:
            twice.append(p)
    if twice and compared and len(found) == 1 and cues.comparison_kind is None:
        a_year_back = _last_month_name_a_year_back(_match(found[0]), _match(twice[0]))
        if a_year_back is not None:  # "GMV this June vs last June": June 2025
            return a_year_back
        # "GMV in June compared with 2026-06": both read as June 2026; compared with itself
        # is no comparison, and dropping it would answer another question
        said = [_match(p).text for p in (*found, *twice)]
        raise AmbiguousQuestion(
            *(
                message("nlu.same_period_compared", lang, periods=message("answer.list_sep", lang).join(said))
                for lang in ("en", "zh")
            ),
            detail={"periods": said},
        )
    if not found:
        raise AmbiguousQuestion(*both("nlu.which_period"), detail={"missing": "time_range"})
    if len(found) == 2 and cues.comparison_kind is not None:
        return _the_named_comparison(cues.comparison_kind, _match(found[0]), _match(found[1]))
    if len(found) > 2:
        raise AmbiguousQuestion(*both("nlu.too_many_periods"), detail={"periods": [_match(p).text for p in found]})
    if len(found) == 2 and compared:
        a_year_earlier = _the_year_before_said(_match(found[0]), _match(found[1]))
        if a_year_earlier is not None:
            return a_year_earlier
    if len(found) == 2 and not compared and _added_up_said(scan, _match(found[0]), _match(found[1])):
        added = _added_up(scan, _match(found[0]), _match(found[1]))
        if added is not None:
            return added, None
    if len(found) == 2:
        return _two_periods(scan, cues, _match(found[0]), _match(found[1]))
    reading = found[0]
    if compared and _said_as_base(scan.text, _match(reading).span):
        text = _match(reading).text
        raise AmbiguousQuestion(*both("nlu.only_the_base", period=text), detail={"period": text})
    moved = cues.change or (cues.why and cues.moved)  # "从5月到6月GMV为什么降了": why it fell from May to June
    if reading.ends is not None and moved and cues.comparison_kind is None and not _THROUGHOUT.search(scan.norm):
        earlier, later = reading.ends  # "从5月到6月涨了多少": the change from one end to the other
        before = timeexpr.previous_period(later.start, later.end, later.grain)
        if before != (earlier.start, earlier.end):
            text = _match(reading).text
            raise AmbiguousQuestion(*both("nlu.range_change", period=text), detail={"period": text})
        return _compared(later, earlier, averaged=cues.average_per is not None)
    return _one_period(cues, _match(reading))


_THROUGHOUT = patterns.compile(
    r"一直|持续|连续|不断|逐[日周月]|\b(?:kept|keep|steadily|continuously|throughout)\b", re.I
)
"""A move throughout a range ("5月到6月一直在降"), not from one end to the other."""


_NAMED_PREVIOUS = patterns.compile(r"(?:比|较|与)(上(?:个)?(?:月|周|季度))(?:相比|对比)?")
"""A previous-period cue that is also a period of its own: "比上个月" is "than the month before"
or "than last month"."""


def named_previous(
    scan: Scan,
    cues: PeriodCues,
    spans: Sequence[tuple[int, int]],
    periods: list[timeexpr.PeriodReading],
    as_of: date,
) -> list[timeexpr.PeriodReading]:
    """Read "比上个月" / "比上周" next to one named period. It is the previous-period cue unless last
    month (as of today) is the month right after the period: then "上上个月比上个月多多少" sets May
    against June as said (never May against April), and after any other period ("5月比上个月",
    asked in July) the two readings are asked back."""
    if cues.comparison_kind != "previous_period" or len(spans) != 1 or len(periods) != 1:
        return periods
    asked = periods[0].match
    start, end = spans[0]
    said = _NAMED_PREVIOUS.fullmatch(scan.norm, start, end)
    if asked is None or said is None:
        return periods
    blanked = " " * said.start(1) + scan.text[said.start(1) : said.end(1)] + " " * (len(scan.text) - said.end(1))
    literal = next((p for p in timeexpr.read_periods(blanked, as_of) if p.match is not None), None)
    if literal is None or literal.match is None:
        return periods
    before = timeexpr.comparison_range("previous_period", asked.start, asked.end, grain=asked.grain)
    named = (literal.match.start, literal.match.end)
    follows = timeexpr.previous_period(*named, literal.match.grain) == (asked.start, asked.end)
    if not follows:  # "2025年5月比上个月": June 2026 is no reading of it
        return periods
    if not asked.text.startswith("上上"):
        raise _previous_or_named(asked.text, said.group(1), before, named)
    cues.comparison_kind, cues.window, cues.first_is_asked = None, None, True
    return sorted([*periods, literal], key=lambda p: p.span)


_RELATIVE = patterns.compile(
    r"上(?:一|个|一个)?(?:月份?|周|星期|礼拜|季度?)|(?:last|previous|prior|the\s+previous|the\s+prior)\s+"
    r"(?:month|week|quarter)",
    re.I,
)
"""A period counted back from today that, next to a named period, usually means the one before it."""
_FROM_TODAY = patterns.compile(
    r"上|去年|前年|今|本|这|昨|前天|近|最近|过去|\b(?:last|previous|prior|this|past|yesterday|ago)\b", re.I
)
_CALENDAR_UNIT = patterns.compile(
    r"\d|[一二三四五六七八九十]\s*(?:月|季度)|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b",
    re.I,
)


def _names_its_dates(text: str) -> bool:
    """A period said by its calendar name ("2025年9月", "去年12月", "今年Q1", "last December"),
    not only counted from today ("上上个月", "last week")."""
    return not _FROM_TODAY.search(text) or _CALENDAR_UNIT.search(text) is not None


def _previous_said_from_today(
    asked: timeexpr.TimeMatch, said: timeexpr.TimeMatch
) -> tuple[TimeRange, Comparison] | None:
    """ "2026年6月GMV最高的区域，和上月相比", "Sep 2025 compared with last month": "last month"
    is counted from today. When that is the named period itself, only the month before it is
    meant; when it is neither the named period nor the one before it, both readings are asked
    back. None: it is the period before, compared as said."""
    before = timeexpr.previous_period(asked.start, asked.end, asked.grain)
    today = (said.start, said.end)
    if today == before:
        return None
    if today == (asked.start, asked.end):
        previous = timeexpr.TimeMatch(before[0], before[1], said.span, "", asked.grain, False)
        return _against(asked, previous, "previous_period")
    raise _previous_or_named(asked.text, said.text, before, today)


def _previous_or_named(
    period: str, said: str, before: tuple[date, date], named: tuple[date, date]
) -> AmbiguousQuestion:
    """ "5月比上个月" asked in July: the period before May, or last month as of today? Both offered."""
    spans = [f"{before[0]}~{before[1]}", f"{named[0]}~{named[1]}"]
    return AmbiguousQuestion(
        *both("nlu.previous_or_named", period=period, said=said, before=spans[0], named=spans[1]),
        detail={"periods": [period, said], "suggestions": spans},
    )


def _added_up_said(scan: Scan, first: timeexpr.TimeMatch, second: timeexpr.TimeMatch) -> bool:
    """ "4月和5月的GMV加起来", "GMV for April and May combined": an add-up word after both periods,
    in one clause with them, and no "each" ("4月一共多少，5月一共多少" asks two totals)."""
    end = max(first.span[1], second.span[1])
    start = min(first.span[0], second.span[0])
    word = vocab.ADDED_UP.search(scan.norm, end)
    if word is None or vocab.SEPARATELY.search(scan.norm):
        return False
    return _CLAUSE_BREAK.search(scan.norm, start, word.start()) is None


_CLAUSE_BREAK = patterns.compile(r"[，,;；。?？!！]")


def _added_up(scan: Scan, first: timeexpr.TimeMatch, second: timeexpr.TimeMatch) -> TimeRange | None:
    """Two periods added up ("4月和5月的GMV加起来", "GMV for April and May combined") are the span
    from the first to the last, when one ends the day before the other starts; periods apart
    would take in the days between (asked back as two periods)."""
    a, b = sorted((first, second), key=lambda m: m.start)
    if (b.start - a.end).days != 1:
        return None
    said = scan.text[min(first.span[0], second.span[0]) : max(first.span[1], second.span[1])]
    return TimeRange(start=a.start, end=b.end, text=said)


def _dates(reading: timeexpr.PeriodReading) -> tuple[date, date] | None:
    return (reading.match.start, reading.match.end) if reading.match is not None else None


def _match(reading: timeexpr.PeriodReading) -> timeexpr.TimeMatch:
    assert reading.match is not None
    return reading.match


_BASE_BEFORE = patterns.compile(
    r"(?:(?<!占)比|较|相比|相较|对比|环比|同比|比起|(?<![A-Za-z])(?:vs\.?|versus|against|than(?: in)?|"
    r"(?:compared|relative|as against)(?: with| to)?)(?: the| in| that of)?)\s*$",
    re.I,
)
_BASE_AROUND = patterns.compile(r"(?:和|跟|与|同)\s*$")
_BASE_AFTER = patterns.compile(r"\s*的?(?:相比|比较|对比|比)")


def _said_as_base(text: str, span: tuple[int, int]) -> bool:
    """Whether a period is said as what something is compared with ("GMV比5月变化了多少",
    "GMV change vs May", "和5月相比"): alone, it is the base, never the period asked about."""
    before = text[: span[0]]
    return bool(_BASE_BEFORE.search(before) or (_BASE_AROUND.search(before) and _BASE_AFTER.match(text, span[1])))


def _one_period(cues: PeriodCues, period: timeexpr.TimeMatch) -> tuple[TimeRange, Comparison | None]:
    main = TimeRange(start=period.start, end=period.end, text=period.text, period_kind=period.grain)
    compared = cues.earlier or cues.comparison_kind or cues.change or cues.why
    if main.start == OPEN_START and compared:  # "all time vs last year": all time has no period before it
        raise AmbiguousQuestion(*both("nlu.all_time_compared", period=period.text), detail={"period": period.text})
    if cues.earlier == "week":
        if (period.end - period.start).days >= 7:  # "今年和上周同期比" is not a week-earlier comparison
            raise AmbiguousQuestion(
                *both("nlu.week_earlier_too_long", period=period.text), detail={"period": period.text}
            )
        shift = timedelta(days=7)
        return main, Comparison(kind="custom", range=TimeRange(start=period.start - shift, end=period.end - shift))
    if cues.earlier == "month":  # "6月前15天，上月同期": May 1 to 15, never the 15 days before June
        start, end = timeexpr.same_days_last_month(period.start, period.end)
        return main, Comparison(kind="custom", range=TimeRange(start=start, end=end))
    if cues.earlier in ("two_years", "two_years_before"):  # "和前年同期比": in the year before last
        return main, two_years_back(main, period.grain, cues.earlier, cues.as_of or period.end + timedelta(days=1))
    kind = cues.comparison_kind or ("previous_period" if cues.change or cues.why else None)
    if kind is None:
        return main, None
    start, end = timeexpr.comparison_range(kind, period.start, period.end, grain=period.grain)
    if kind == "previous_period" and vocab.DAYS_OF_A_WEEK.search(period.text) and _one_week(period):
        start, end = period.start - timedelta(days=7), period.end - timedelta(days=7)  # "上周一到周五环比"
    if cues.grain is None and cues.each_over and _each_unit(period, cues.window):  # "今年GMV月环比": each month
        cues.grain = cues.window[1]  # type: ignore[assignment,index]
    # "本周GMV周环比" with the week under way: its days so far against the same days of the week before
    so_far = period.clamped and cues.window == (1, period.grain)
    if cues.window is not None and not _spans(period, *cues.window) and cues.window != (1, cues.grain) and not so_far:
        raise AmbiguousQuestion(
            *both("nlu.window_mismatch", period=period.text), detail={"period": period.text, "window": cues.window}
        )
    return main, Comparison(kind=kind, range=TimeRange(start=start, end=end))


_FOUR_DIGIT_YEAR = patterns.compile(r"(?<!\d)[12]\d{3}(?!\d)")
_LAST_YEAR = patterns.compile(r"去年|上一?年|(?:the\s+)?(?:last|previous|prior)\s+year", re.I)
_THIS_YEAR = patterns.compile(r"今年|本年|\bthis\s+year", re.I)


def _the_year_before_said(asked: timeexpr.TimeMatch, year: timeexpr.TimeMatch) -> tuple[TimeRange, Comparison] | None:
    """ "今年6月GMV比去年低吗", "今年618期间GMV比去年低", "Q2 this year vs last year": a period said
    of this year set against the bare year before is that period a year earlier (the whole year is
    no like for like). A run of days ("618期间GMV比去年低吗", "6月1日到18日") or of months from January
    ("2026年前三个月") is set against the same days without 今年 said; "June vs last year" may mean
    the whole year: still asked back."""
    if year.grain != "year" or not _LAST_YEAR.fullmatch(year.text.strip()) or asked.grain == "year":
        return None
    # "2026年前三个月", "2026年1-3月": months from January of a year said, never a window that starts there
    from_january = asked.grain == "month" and asked.start.month == 1 and asked.start.day == 1 and asked.end.month > 1
    from_january = from_january and _FOUR_DIGIT_YEAR.search(asked.text) is not None
    if not _THIS_YEAR.search(asked.text) and asked.grain not in ("day", "custom") and not from_january:
        return None
    if asked.start.year != asked.end.year or asked.start.year != year.start.year + 1:
        return None
    start, end = timeexpr.comparison_range("same_period_last_year", asked.start, asked.end, grain=asked.grain)
    return _against(asked, dataclasses.replace(year, start=start, end=end), "same_period_last_year")


def _last_month_name_a_year_back(
    first: timeexpr.TimeMatch, second: timeexpr.TimeMatch
) -> tuple[TimeRange, Comparison] | None:
    """ "GMV this June vs last June", "June vs last June": "last June" read alone is the latest June,
    the same dates as the June set against it — beside it, it is the June a year before."""
    last = [m for m in (first, second) if _LAST_MONTH_NAME.fullmatch(m.text.strip())]
    if len(last) != 1 or first.grain != "month":
        return None
    asked = second if last[0] is first else first
    start, end = timeexpr.comparison_range("same_period_last_year", asked.start, asked.end, grain=asked.grain)
    return _against(asked, dataclasses.replace(last[0], start=start, end=end), "same_period_last_year")


_LAST_MONTH_NAME = patterns.compile(
    r"(?:last|this\s+past)\s+(?:january|february|march|april|may|june|july|august|september|october|november"
    r"|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?",
    re.I,
)
"""A month said by its name after "last" ("last June") — never "last month", which is the month before today."""


_OVER_BETWEEN = patterns.compile(r"\s*over\s*", re.I)


def _two_periods(
    scan: Scan, cues: PeriodCues, first: timeexpr.TimeMatch, second: timeexpr.TimeMatch
) -> tuple[TimeRange, Comparison]:
    between = scan.text[first.span[1] : second.span[0]]
    over = _OVER_BETWEEN.fullmatch(between) is not None  # "Q2 over Q1?": one against the other
    than = _THAN_BETWEEN.fullmatch(between)  # "more orders in June than in May": June against May
    if than is not None:
        scan.claim(first.span[1], second.span[0])
    over = over or than is not None
    if not (vocab.COMPARE.search(between) or over or cues.compare_word or cues.change or cues.side_by_side):
        raise AmbiguousQuestion(*both("nlu.two_periods"), detail={"periods": [first.text, second.text]})
    # "X 相比 Y", "X compared with Y", "X比Y": X is the period asked about; "compare X and Y", "X vs Y",
    # "X对比Y": the later one, against the earlier (a change runs forward in time)
    word = vocab.COMPARE.search(between)
    joined = word is not None and _SYMMETRIC_JOIN.fullmatch(word.group(0)) is None
    directed = joined or cues.first_is_asked or than is not None  # "higher in May than in June": May asked
    current, previous = (first, second) if directed or first.start > second.start else (second, first)
    return _compared(current, previous, averaged=cues.average_per is not None)


_THAN_BETWEEN = patterns.compile(r"\s*than(?:\s+in)?\s*", re.I)
"""The comparative's "than" between two periods ("higher in June than in May"): the first is asked about."""
_SYMMETRIC_JOIN = patterns.compile(r"\s*(?:vs\.?|versus|对比)\s*", re.I)
"""A join that names two periods side by side without saying which is asked about."""


def _the_named_comparison(
    kind: Literal["previous_period", "same_period_last_year"], first: timeexpr.TimeMatch, second: timeexpr.TimeMatch
) -> tuple[TimeRange, Comparison]:
    """ "6月GMV环比5月", "6月同比去年6月": a comparison word and the period it means, named too
    after the period asked about — one comparison. Two periods the word does not join that way
    ("6月环比4月", "5月环比6月") are asked back."""
    if timeexpr.comparison_range(kind, first.start, first.end, grain=first.grain) == (second.start, second.end):
        return _against(first, second, kind)
    raise AmbiguousQuestion(*both("nlu.too_many_periods"), detail={"periods": [first.text, second.text]})


def against_named(
    current: TimeRange, named: timeexpr.TimeMatch, *, averaged: bool = False
) -> tuple[TimeRange, Comparison]:
    """ "6月的GMV" then "和5月比呢": the previous question's period against the one the follow-up
    names, with the checks of two named periods (the same length unless ``averaged``, no shared day)."""
    said = timeexpr.TimeMatch(current.start, current.end, (0, 0), current.text or "", "custom", False)
    if _RELATIVE.fullmatch(named.text.strip()):  # "和上个月比呢" after "2025年9月的GMV"
        said = dataclasses.replace(said, grain=named.grain)
        against = _previous_said_from_today(said, named)
        if against is not None:
            return against
    return _compared(said, named, averaged=averaged)


def two_turns_compared(one: TimeRange, other: TimeRange) -> tuple[TimeRange, Comparison]:
    """The periods of two turns ("6月GMV" then "5月呢", "变化多少" / "两者对比一下"): the later
    against the earlier, with the checks of two named periods (the same length, no shared day)."""
    later, earlier = sorted((one, other), key=lambda p: p.start, reverse=True)
    said = [
        timeexpr.TimeMatch(p.start, p.end, (0, 0), p.text or f"{p.start}~{p.end}", "custom", False)
        for p in (later, earlier)
    ]
    _compared(*said)  # asked back when the two differ in length or share a day
    return later, Comparison(kind="custom", range=earlier)


def _compared(
    current: timeexpr.TimeMatch, previous: timeexpr.TimeMatch, *, averaged: bool = False
) -> tuple[TimeRange, Comparison]:
    """``current`` against ``previous``; periods of different lengths (a month against a year)
    are asked back rather than compared — unless each is averaged per day (week …)."""
    days = sorted(((current.end - current.start).days + 1, (previous.end - previous.start).days + 1))
    if days[1] > days[0] * 1.15 and not averaged:
        raise AmbiguousQuestion(
            *both("nlu.periods_differ", current=current.text, previous=previous.text),
            detail={"periods": [current.text, previous.text]},
        )
    return _against(current, previous, "custom")


def _against(
    current: timeexpr.TimeMatch,
    previous: timeexpr.TimeMatch,
    kind: Literal["previous_period", "same_period_last_year", "custom"],
) -> tuple[TimeRange, Comparison]:
    """The period asked about and the one it is compared with, each with the words that named it;
    periods sharing days ("最近7天 vs 上周") are asked back, as a day can be in only one of them."""
    if current.start <= previous.end and previous.start <= current.end:
        raise AmbiguousQuestion(
            *both(
                "nlu.periods_overlap",
                current=current.text,
                previous=previous.text,
                current_span=f"{current.start}~{current.end}",
                previous_span=f"{previous.start}~{previous.end}",
            ),
            detail={"periods": [current.text, previous.text], "reason": "periods_overlap"},
        )
    return (
        TimeRange(start=current.start, end=current.end, text=current.text or None),
        Comparison(kind=kind, range=TimeRange(start=previous.start, end=previous.end, text=previous.text or None)),
    )


_SATURDAY = 5


def _one_week(period: timeexpr.TimeMatch) -> bool:
    return period.start.isocalendar()[:2] == period.end.isocalendar()[:2]


def _each_unit(period: timeexpr.TimeMatch, window: tuple[int, str] | None) -> bool:
    """Whether a comparison word of one period ("月环比", "w/w") is said over a range of several
    whole such periods ("今年GMV月环比": January to June) — each of them against the one before."""
    if window is None or window[0] != 1 or window[1] not in ("day", "week", "month", "quarter", "year"):
        return False
    grain: Grain = window[1]  # type: ignore[assignment]
    return not _spans(period, 1, grain) and periods_before(period.start, period.end, grain) is not None


def _spans(period: timeexpr.TimeMatch | TimeRange, n: int, unit: str) -> bool:
    """Whether ``period`` is ``n`` ``unit``s long ("近7天…跟前7天比", "the 30 days before that")."""
    days = (period.end - period.start).days + 1
    months = (period.end.year - period.start.year) * 12 + period.end.month - period.start.month + 1
    whole_months = period.start.day == 1 and (period.end + timedelta(days=1)).day == 1
    return {
        "day": days == n,
        "week": days == 7 * n,
        "weekend": days == 2 * n and period.start.weekday() == _SATURDAY,
        "month": whole_months and months == n,
        "quarter": whole_months and months == 3 * n,
        "year": whole_months and months == 12 * n,
    }[unit]


def window_fits(period: TimeRange, window: tuple[int, str] | None) -> bool:
    """Whether a previous-period phrase's length ("the week before", "前7天") fits ``period``:
    a follow-up's "how about the week before?" after a month names no comparison of it."""
    return window is None or _spans(period, *window)


def claim_its_length(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """Claim a period's length said right after it when it is that period's number of days
    ("上周末两天的GMV"); a number that is not its length stays unread and is asked back."""
    for period in periods:
        if period.match is None:
            continue
        said = vocab.ITS_LENGTH_IN_DAYS.match(scan.text, period.span[1])
        if said is None:
            continue
        number = (said.group(1) or said.group(2)).lower()
        days = vocab.EN_NUMBERS.get(number) or parse_cn_int(number)
        if _spans(period.match, days, "day"):
            scan.claim(*said.span())


def claim_compare_words(scan: Scan, members: list[tuple[int, int]], periods: Sequence[tuple[int, int]] = ()) -> bool:
    """Claim the comparison words of a comparison of periods; one next to a member ("跟华东比",
    "compared with East China") compares members, is left unread and so asked back — unless a
    period follows it ("apparel vs Q1": the member's Q2 against its Q1). Whether any was claimed."""
    claimed = False
    for m in vocab.COMPARE.finditer(scan.norm):
        before_period = any(0 <= a - m.end() <= 1 for a, _ in periods)
        near_member = not before_period and any(0 <= m.start() - b <= 1 or 0 <= a - m.end() <= 1 for a, b in members)
        if scan.free(m.start(), m.end()) and not near_member:
            scan.claim(m.start(), m.end())
            claimed = True
    return claimed


_MONTH_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_HALF_THEN_BARE_HALF = (
    patterns.compile(
        rf"(?P<first>\b(?:the\s+)?(?:first|second|1st|2nd)\s+half\s+of\s+(?P<month>{_MONTH_NAME}(?:\s+[12]\d{{3}})?))"
        r"(?P<between>\s*,?\s*(?:vs\.?|versus|and|compared\s+(?:with|to)|against|to)\s+)"
        r"(?P<second>(?:the\s+)?(?:first|second|1st|2nd)\s+half)\b(?!\s+of\b)",
        re.I,
    ),
    patterns.compile(
        r"(?P<first>(?P<month>(?:[12]\d{3}\s*年\s*)?\d{1,2}\s*月份?|上个?月|本月|这个月)的?\s*[上下前后]半个?月)"
        r"(?P<between>\s*(?:和|与|跟|对比|相比|比|vs\.?)\s*)(?P<second>[上下前后]半个?月)"
    ),
)


def half_of_the_same_month(text: str) -> str:
    """ "the first half of June vs the second half", "6月上半月和下半月": a bare half said right after a
    half of a named month is that month's other half — never the second half of the year, of
    another length — so the month is said with it before the periods are read."""
    for pattern in _HALF_THEN_BARE_HALF:
        found = pattern.search(text)
        if found is None:
            continue
        month, second = found.group("month"), found.group("second")
        said = f"{second} of {month}" if pattern is _HALF_THEN_BARE_HALF[0] else f"{month}{second}"
        return text[: found.start("second")] + said + text[found.end("second") :]
    return text


def two_years_back(
    time_range: TimeRange, grain: str | None, said: Literal["two_years", "two_years_before"], as_of: date
) -> Comparison:
    """The same period in the year before last ("前年同期", "two years ago": the as-of date's year less
    two), or two years before the period (``two_years_before``: "two years earlier"): moved back a year
    at a time, as "同比" moves it (a week said as one to its ISO week), so a leap day lands as it would.
    A period not after the year before last has no same period in it: asked back (review s25)."""
    years = 2 if said == "two_years_before" else time_range.start.year - (as_of.year - 2)
    if years < 1:
        period = time_range.text or f"{time_range.start} – {time_range.end}"
        raise AmbiguousQuestion(
            *both("nlu.year_before_last_not_before", period=period, year=str(as_of.year - 2)),
            detail={"reason": "year_before_last_not_before", "period": period},
        )
    week: Grain | None = "week" if grain == "week" else None
    start, end = time_range.start, time_range.end
    for _ in range(years):
        start, end = timeexpr.comparison_range("same_period_last_year", start, end, grain=week)
    return Comparison(kind="custom", range=TimeRange(start=start, end=end))


def each_against_the_one_before(time_range: TimeRange, grain: Grain) -> Comparison:
    """A series with 环比 ("今年每个月GMV环比", "weekly GMV wow"): each period against the one
    before it (January against December) — a range of whole periods only; part of one has no
    period before it of the same days, so it is asked back, never compared with something else."""
    before = periods_before(time_range.start, time_range.end, grain)
    if before is None:
        grain_words = {lang: message(f"answer.grain_{grain}", lang) for lang in LANGUAGES}
        inside = whole_inside(time_range.start, time_range.end, grain)
        raise AmbiguousQuestion(
            *(
                message("nlu.series_before_not_whole", lang, grain=grain_words[lang], period=time_range.text or "")
                + (
                    ""
                    if inside is None
                    else message(
                        "nlu.series_before_whole_inside",
                        lang,
                        grain=grain_words[lang],
                        start=inside[0].isoformat(),
                        end=inside[1].isoformat(),
                    )
                )
                for lang in LANGUAGES
            ),
            detail={
                "grain": grain,
                "reason": "series_before_not_whole",
                "missing": "time_range",
                "period": time_range.text or "",
                "whole_inside": inside and [d.isoformat() for d in inside],
            },
        )
    return Comparison(kind="previous_period", range=TimeRange(start=before[0], end=before[1]))


__all__ = [
    "PeriodCues",
    "against_named",
    "claim_compare_words",
    "claim_its_length",
    "each_against_the_one_before",
    "half_of_the_same_month",
    "named_previous",
    "resolve_periods",
    "window_fits",
]
