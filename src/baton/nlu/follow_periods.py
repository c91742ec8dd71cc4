"""A follow-up's periods: a period said replaces the previous one (a comparison of the same kind
follows it), a year or a half said alone is read against the previous period ("去年呢" after this
year's May: May last year, or the whole year? asked), and a comparison word compares the
inherited period."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Literal

from baton import patterns
from baton.contracts.conversation import PartName
from baton.contracts.semantic import OPEN_START, Comparison, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.periods import against_named, resolve_periods, two_turns_compared, two_years_back, window_fits
from baton.nlu.ties import Reading


def periods_of(
    parent: SemanticQuery, r: Reading, as_of: date, earlier: TimeRange | None = None
) -> tuple[TimeRange, Comparison | None, list[PartName]]:
    """The follow-up's period (or the inherited one) and its comparison; a bare change after two
    periods ("6月GMV", "5月呢", "变化多少") is the later against the earlier (``earlier``)."""
    cues = r.cues
    asks_comparison = cues.comparison_kind is not None or cues.earlier or (cues.change and not cues.why)
    named = r.periods[0].match if len(r.periods) == 1 and r.periods[0].error is None else None
    if named is not None and cues.compare_word and cues.comparison_kind is None and not cues.why:
        # "6月的GMV" then "和5月比呢": the previous question's period against the one named
        averaged = (cues.average_per or parent.average_per) is not None
        current, against = against_named(parent.time_range, named, averaged=averaged)
        return current, against, ["comparison"]
    if r.periods:
        time_range, comparison = resolve_periods(r.scan, cues, r.periods)
        if comparison is None and len(r.periods) == 1:
            time_range = _before_the_parents(parent.time_range, time_range, r.periods[0])
            time_range = _half_of_the_parents(parent.time_range, time_range, as_of)
            time_range = _in_the_parents_year(parent.time_range, time_range, as_of)
            _year_or_same_period(parent.time_range, time_range, r.scan.norm)
            _this_period_a_year_back(parent.time_range, time_range, r.scan.norm)
        if comparison is None and parent.comparison is not None and not cues.why:
            if time_range.start == OPEN_START:  # a comparison, then "历史累计呢": nothing before all time
                said = time_range.text or ""
                raise AmbiguousQuestion(*both("nlu.all_time_compared", period=said), detail={"period": said})
            _which_side_replaced(parent.comparison, r)
            comparison = _same_kind(parent.comparison, time_range, as_of)
        parts: list[PartName] = ["period"]
        if comparison is not None and (asks_comparison or parent.comparison is None):
            parts.append("comparison")
        return time_range, comparison, parts
    time_range = parent.time_range
    if not asks_comparison:
        return time_range, parent.comparison, []
    if time_range.start == OPEN_START:  # "GMV all time", then "vs last year?": nothing before all time
        said = time_range.text or ""
        raise AmbiguousQuestion(*both("nlu.all_time_compared", period=said), detail={"period": said})
    if cues.earlier in ("two_years", "two_years_before"):  # "跟前年同期比": in the year before last
        return time_range, two_years_back(time_range, time_range.period_kind, cues.earlier, as_of), ["comparison"]
    if cues.earlier:  # "上周同期呢" / "上月同期呢": the same days a week or a month before
        shift = timedelta(days=7)
        start, end = (
            (time_range.start - shift, time_range.end - shift)
            if cues.earlier == "week"
            else timeexpr.same_days_last_month(time_range.start, time_range.end)
        )
        return time_range, Comparison(kind="custom", range=TimeRange(start=start, end=end)), ["comparison"]
    if cues.comparison_kind is None and parent.comparison is not None:
        # "上个月app的GMV同比" then "降了多少": the change already asked, against the same period
        return time_range, parent.comparison, []
    if cues.comparison_kind is None and earlier is not None and not cues.why and earlier != time_range:
        # "June's total", "and May?", "what's the change?": June against May, never May against April
        later, compared = two_turns_compared(time_range, earlier)
        moved: list[PartName] = ["comparison"] if later.start == time_range.start else ["period", "comparison"]
        return later, compared, moved
    kind = cues.comparison_kind or "previous_period"
    each_unit = cues.window == (1, cues.grain or parent.grain)  # "近8周每周" then "哪几周环比下降了": each week
    if not each_unit and not window_fits(time_range, cues.window):  # a month, then "how did it do the week before?"
        said = time_range.text or f"{time_range.start} – {time_range.end}"
        raise AmbiguousQuestion(*both("nlu.window_mismatch", period=said), detail={"period": said, "follow_up": True})
    compared = comparison_of(kind, time_range, as_of)
    adds = r.ties is not None and r.ties.add and not r.ties.replace
    if adds and parent.comparison is not None and parent.comparison.kind != kind:  # YoY, then "加上环比呢"
        words = [r.scan.text[a:b] for a, b in cues.comparison_spans()]
        raise AmbiguousQuestion(*both("nlu.two_comparisons", words=", ".join(words)), detail={"words": words})
    replaced = r.ties is not None and r.ties.replace and not _A_COMPARISON_NAMED.search(r.scan.norm)
    if replaced and parent.comparison is None and not cues.why:
        # "换成前一周", "switch to the week before": that period instead, never set beside it
        return compared.range.model_copy(update={"text": None}), None, ["period"]
    return time_range, compared, ["comparison"]


_A_COMPARISON_NAMED = patterns.compile(
    r"环比|同比|对比|相比|比较|\b(?:yoy|mom|wow|qoq|vs\.?|versus|compared?|against)\b|\bover[- ]\w+\b", re.I
)
"""A comparison named as such ("换成同比", "switch to MoM"), where "换成前一周" names a period."""

_ONE_BEFORE = patterns.compile(r"(?:上|前)一(?:个)?\s*(?:月|季度?|周|星期|礼拜|年)", re.I)
"""The one before, said with 一 ("上一个月", "前一季度"): in a conversation, the period before the
one just discussed, where "上个月" alone is counted from today."""


def _before_the_parents(parent: TimeRange, said: TimeRange, reading: timeexpr.PeriodReading) -> TimeRange:
    """ "今年3月的GMV" then "上一个月呢": February, the month before March — never June."""
    match = reading.match
    if match is None or not _ONE_BEFORE.fullmatch(match.text.strip()):
        return said
    if timeexpr.range_grain(parent.start, parent.end) != match.grain:
        return said
    start, end = timeexpr.previous_period(parent.start, parent.end, match.grain)
    return TimeRange(start=start, end=end, text=match.text, period_kind=match.grain)


_YEAR_WORDS = patterns.compile(r"\d{4}|年|\byears?\b|\bfy\d", re.I)
_CALENDAR_NAME = patterns.compile(
    r"(?:\d{1,2}|[一二三四五六七八九十]{1,3})\s*月(?!\s*[前后])|\bq[1-4]\b|[一二三四1-4]\s*季度|[上下]半年|\bh[12]\b"
    r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\b(?:first|second) half\b",
    re.I,
)
_RELATIVE = patterns.compile(
    r"上个?|下个?|本|这个?|今|去|前|近|最近|\blast\b|\bthis\b|\bnext\b|\bprevious\b|\bpast\b", re.I
)
"""A period named by the calendar ("4月", "June", "Q1"), not relative to today ("上个月", "last month")."""
_PAST_YEAR = patterns.compile(
    r"(?:19|20)\d{2}|去年|前年|上一?年|\blast year\b|\bthe year before\b|\bprevious year\b", re.I
)


_WHOLE_SAID = patterns.compile(r"全年|整年|\b(?:whole|full|entire|all)\b", re.I)


def _whole_year(r: TimeRange) -> bool:
    return (r.start.month, r.start.day, r.end.month, r.end.day) == (1, 1, 12, 31) and r.start.year == r.end.year


_TO_DATE_ABBREVIATION = patterns.compile(r"\b[wmqy]td\b", re.I)
_YEAR_IN_DIGITS = patterns.compile(r"(?<!\d)\d{4}(?!\d)")


def _year_or_same_period(parent: TimeRange, said: TimeRange, question: str) -> None:
    """ "上个月各渠道GMV" then "去年呢": all of last year, or June of last year? A whole past year
    said alone after a shorter period is asked back with both sets of dates, never read as
    one of them ("去年全年" / "the whole of last year" and "去年同期" say which)."""
    if not _whole_year(said) or _whole_year(parent) or _WHOLE_SAID.search(question):
        return
    shift = said.start.year - parent.start.year
    if shift > 0 or (shift == 0 and _YEAR_IN_DIGITS.search(said.text or "")):
        return  # "February 2013" then "same for 2013": its own year, the same period being what was shown
    # "大促期间的GMV" (an event in Nov 2025) then "去年呢": all of 2025 (which holds it), or the event a year before?
    shift = shift if shift < 0 else -1
    same = (timeexpr.shift_years(parent.start, shift), timeexpr.shift_years(parent.end, shift))
    words, before = said.text or str(said.start.year), parent.text or f"{parent.start}..{parent.end}"
    fields = {
        "said": words,
        "parent": f"{before} ({parent.start} – {parent.end})",
        "year": f"{said.start} – {said.end}",
        "same": f"{same[0]} – {same[1]}",
        "same_from": str(same[0]),
        "same_to": str(same[1]),
    }
    raise AmbiguousQuestion(*both("conversation.year_or_same_period", **fields), detail={"follow_up": True, **fields})


def _this_period_a_year_back(parent: TimeRange, said: TimeRange, question: str) -> None:
    """ "上个月GMV" then "去年这个月呢": this month (July) a year back, or the month just discussed
    (June)? Asked back with both sets of dates, unless the previous answer was about that same period."""
    found = vocab.THIS_PERIOD_LAST_YEAR.search(question)
    if found is None:
        return
    same = (timeexpr.shift_years(parent.start, -1), timeexpr.shift_years(parent.end, -1))
    if same == (said.start, said.end):
        return
    fields = {
        "said": found.group(0),
        "parent": f"{parent.text or ''} ({parent.start} – {parent.end})".strip(),
        "same": f"{same[0]} – {same[1]}",
        "current": f"{said.start} – {said.end}",
    }
    raise AmbiguousQuestion(*both("conversation.this_period_or_that", **fields), detail={"follow_up": True, **fields})


_HALF_SAID = patterns.compile(r"(?:the\s+)?(?:first|second|other)\s+half|[上下前后]半年?", re.I)


def _half_of_the_parents(parent: TimeRange, said: TimeRange, as_of: date) -> TimeRange:
    """ "the first half of June" then "second half?": June's second half (06-16 to its end);
    "今年上半年" then "下半年呢": this year's — never the latest second half of another year. A
    half that has not begun by ``as_of`` is asked back with the latest one's dates."""
    words = (said.text or "").strip()
    if not _HALF_SAID.fullmatch(words) or parent.start.year != parent.end.year:
        return said
    second = words.lower().startswith(("second", "other", "下", "后"))
    first_day = parent.start.replace(day=1)
    last_day = (first_day + timedelta(days=32)).replace(day=1) - timedelta(days=1)
    month_half = (parent.start.day, parent.end) in ((1, first_day.replace(day=15)), (16, last_day))
    if month_half and "年" not in words:  # "the first half of June" then "second half?": of June
        start, end = (first_day.replace(day=16), last_day) if second else (first_day, first_day.replace(day=15))
    else:
        year = parent.start.year
        start, end = (date(year, 7, 1), date(year, 12, 31)) if second else (date(year, 1, 1), date(year, 6, 30))
    if start >= as_of:
        detail = {"period": words, "latest": [said.start.isoformat(), said.end.isoformat()]}
        raise AmbiguousQuestion(
            *both("conversation.half_not_begun", period=words, start=start, latest=said.start, latest_end=said.end),
            detail=detail,
        )
    return said.model_copy(update={"start": start, "end": min(end, as_of - timedelta(days=1))})


def _in_the_parents_year(parent: TimeRange, said: TimeRange, as_of: date) -> TimeRange:
    """ "2025年3月的GMV" then "4月呢": a month, quarter or half said without a year is in the
    year the previous question named (April 2025, not the latest April), when that year was
    said and the period in it has ended by ``as_of``."""
    words, before = said.text or "", parent.text or ""
    same_year = parent.start.year == parent.end.year and said.start.year == said.end.year
    named = _CALENDAR_NAME.search(words) is not None and _RELATIVE.search(words) is None
    if not same_year or not named or _YEAR_WORDS.search(words) or not _PAST_YEAR.search(before):
        return said
    shift = parent.start.year - said.start.year
    if shift == 0:
        return said
    kind = said.period_kind
    to_date = vocab.SO_FAR.search(words) or _TO_DATE_ABBREVIATION.search(words)  # "Q1 to date": as said
    if kind in ("month", "quarter", "half", "year") and not to_date:  # this quarter cut at today, moved: whole
        said = said.model_copy(update={"end": timeexpr.period_bounds(said.start, kind)[1]})
    start, end = timeexpr.shift_years(said.start, shift), timeexpr.shift_years(said.end, shift)
    month_end = (said.end + timedelta(days=1)).day == 1
    if month_end:
        end = timeexpr.shift_years(said.end + timedelta(days=1), shift) - timedelta(days=1)
    return said if end >= as_of else said.model_copy(update={"start": start, "end": end})


def _which_side_replaced(previous: Comparison, r: Reading) -> None:
    """ "6月GMV对比4月" then "那5月呢": May instead of June (against April), or instead of April
    (June against May)? A named comparison period does not move with the period, and dropping it
    would answer neither: asked back."""
    if previous.kind == "custom" and len(r.periods) == 1:
        said = r.scan.text[r.periods[0].span[0] : r.periods[0].span[1]]
        raise AmbiguousQuestion(
            *both(
                "conversation.which_side_replaced", said=said, against=previous.range.text or str(previous.range.start)
            ),
            detail={"reason": "which_side_replaced", "follow_up": True},
        )


def _same_kind(previous: Comparison, time_range: TimeRange, as_of: date) -> Comparison | None:
    """The previous question's comparison, moved to the follow-up's period (a named custom
    period or a weekday baseline does not move: dropped, and the change says so)."""
    if previous.kind in ("previous_period", "same_period_last_year"):
        return comparison_of(previous.kind, time_range, as_of)
    return None


def comparison_of(
    kind: Literal["previous_period", "same_period_last_year"], time_range: TimeRange, as_of: date
) -> Comparison:
    """The previous period (or the same period last year) of ``time_range``, as a follow-up sets it."""
    start, end = timeexpr.comparison_range(
        kind, time_range.start, time_range.end, grain=time_range.period_kind, as_of=as_of
    )
    return Comparison(kind=kind, range=TimeRange(start=start, end=end))
