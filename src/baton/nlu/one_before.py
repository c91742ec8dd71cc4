"""A follow-up that is only "the one before" or "the one after" ("how about the month before?",
"那前一个月呢", "下个月呢", "the next quarter?"): the previous question asked again for the period
before (or after) its own — never the same period compared with that one, and never the period
before (or after) today.

"The month before" inside a question sets a comparison ("GMV last month vs the month before");
said alone after a question, it moves that question: "which channel had the highest conversion
rate last month" then "how about the month before" asks which channel was highest in May.
"""

from __future__ import annotations

import re
from datetime import date, timedelta

from baton import patterns
from baton.catalog.spine import whole_period_count
from baton.contracts.semantic import Comparison, Grain, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import timeexpr
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.follow_periods import comparison_of
from baton.nlu.follow_pointers import ListedRows, listed_period
from baton.nlu.periods import each_against_the_one_before

_ZH = patterns.compile(
    r"\s*(?:那|那么|那再|再)?\s*(?:往)?(?:再)?(?:前|上)一(?:个)?\s*(?P<u>天|日|周|星期|礼拜|月|季度?)"
    r"\s*(?:呢|的呢|的情况呢|怎么样|如何)?\s*[?？。]?\s*"
)
_EN = patterns.compile(
    r"\s*(?:(?:and|so|ok|okay)[,\s]+)?(?:(?:how|what)\s+about\s+)?(?:for\s+)?(?:the\s+)?"
    r"(?:(?P<u>day|week|month|quarter)\s+before(?:\s+(?:that|it|then))?|(?:previous|prior|preceding)\s+(?P<u2>day|week|month|quarter))"
    r"\s*[?.!]?\s*",
    re.I,
)
_ZH_AGAIN = patterns.compile(
    r"\s*(?:那|那么)?\s*再\s*(?:往)?\s*(?P<side>上|前|下|后)个?\s*(?P<u>天|日|周|星期|礼拜|月|季度?)"
    r"\s*(?:呢|的呢|的情况呢|怎么样|如何)?\s*[?？。]?\s*"
)
"""再 before a period word of the previous one's unit ("上个月" then "再上个月呢"): one more back (or on),
from the previous question's period — never last month again."""
_EN_THAT = patterns.compile(
    r"\s*(?:(?:and|so|ok|okay)[,\s]+)?(?:(?:how|what)\s+about\s+)?(?:for\s+)?the\s+one\s+(?P<side>before|after)"
    r"(?:\s+(?:that|it|then))?\s*[?.!]?\s*",
    re.I,
)
""""and the one before that": the unit is the previous question's period's own."""
_ZH_AFTER = patterns.compile(
    r"\s*(?:那|那么|那再|再)?\s*(?:往)?(?:再)?(?:后|下)一?(?:个)?\s*(?P<u>天|日|周|星期|礼拜|月|季度?)"
    r"\s*(?:呢|的呢|的情况呢|怎么样|如何)?\s*[?？。]?\s*"
)
_EN_AFTER = patterns.compile(
    r"\s*(?:(?:and|so|ok|okay)[,\s]+)?(?:(?:how|what)\s+about\s+)?(?:for\s+)?(?:the\s+)?"
    r"(?:(?P<u>day|week|month|quarter)\s+after(?:\s+(?:that|it|then))?|(?:next|following)\s+(?P<u2>day|week|month|quarter))"
    r"\s*[?.!]?\s*",
    re.I,
)
_DAYS_BEFORE = patterns.compile(
    r"\s*(?:(?:and|so|ok|okay)[,\s]+)?(?:(?:how|what)\s+about\s+)?(?:for\s+)?the\s+(?P<n>\d{1,3})\s+days\s+before"
    r"(?:\s+(?:that|it|then))?\s*[?.!]?\s*"
    r"|\s*(?:那|那么)?\s*再?\s*往?前\s*(?P<n_zh>\d{1,3}|[一二两三四五六七八九十]{1,3})\s*天"
    r"\s*(?:呢|的呢|怎么样|如何)?\s*[?？。]?\s*",
    re.I,
)
"""The days before a run of days as long ("最近7天" then "再往前7天呢", "the 7 days before that"): the
same run moved back — said of another length, read on its own."""
_UNITS: dict[str, Grain] = {
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "季": "quarter",
    "季度": "quarter",
    "day": "day",
    "week": "week",
    "month": "month",
    "quarter": "quarter",
}


_SAID_ZH: dict[Grain, str] = {"day": "前一天", "week": "前一周", "month": "前一个月", "quarter": "前一个季度"}
_SAID_ZH_AFTER: dict[Grain, str] = {"day": "后一天", "week": "后一周", "month": "后一个月", "quarter": "后一个季度"}


def the_one_before(
    question: str, parent: SemanticQuery, as_of: date, listed: ListedRows | None = None
) -> tuple[SemanticQuery, bool] | None:
    """``parent`` moved to the period before its own when ``question`` says only that, in the
    parent's own unit (a month before a month); ``None`` for any other question. The bool says
    whether the parent's comparison was dropped (a named period does not move with it). After a
    ranking of periods that listed one ("最低的是哪周" then "那前一周呢"), the one before that one;
    said after a range of several such periods ("最近8周" then "前一周呢"), asked back: before which?"""
    return _the_one_beside(question, parent, as_of, listed, after=False) or _the_days_before(question, parent, as_of)


def _days_said(said: str) -> int | None:
    try:
        return int(said) if said.isdigit() else parse_cn_int(said)
    except ValueError:  # "二二天": no number
        return None


def _the_days_before(question: str, parent: SemanticQuery, as_of: date) -> tuple[SemanticQuery, bool] | None:
    said = _DAYS_BEFORE.fullmatch(question)
    current = parent.time_range
    days = (current.end - current.start).days + 1
    if said is None or _days_said(said.group("n") or said.group("n_zh")) != days:
        return None
    if timeexpr.range_grain(current.start, current.end) in ("month", "quarter", "half", "year"):
        return None  # "上个月" then "前30天呢": the month before, or the 30 days? read on its own
    shift = timedelta(days=days)
    words = f"前{days}天" if said.group("n_zh") else f"the {days} days before"
    moved = TimeRange(start=current.start - shift, end=current.end - shift, text=words)
    return _moved(parent.model_copy(update={"corrections": ()}), moved, as_of)


def the_one_after(
    question: str, parent: SemanticQuery, as_of: date, listed: ListedRows | None = None
) -> tuple[SemanticQuery, bool] | None:
    """As :func:`the_one_before`, the period after the parent's ("3月GMV" then "下个月呢": April,
    never the month after today); ``None`` when that period is not over by ``as_of`` (the
    question is then read on its own, and a period without data is asked back as always)."""
    return _the_one_beside(question, parent, as_of, listed, after=True)


def _the_one_beside(
    question: str, parent: SemanticQuery, as_of: date, listed: ListedRows | None, *, after: bool
) -> tuple[SemanticQuery, bool] | None:
    side = "after" if after else "before"
    again = _ZH_AGAIN.fullmatch(question) or _EN_THAT.fullmatch(question)
    if again is not None and (again.group("side") in ("下", "后", "after")) != after:
        again = None
    zh = (_ZH_AFTER if after else _ZH).fullmatch(question) or (again if again and again.re is _ZH_AGAIN else None)
    said = zh or (_EN_AFTER if after else _EN).fullmatch(question) or again
    if said is None:
        return None
    current = parent.time_range
    if said.re is _EN_THAT and (
        parent.rank_place is not None or (parent.top_n is not None and bool(parent.dimensions))
    ):
        raise AmbiguousQuestion(  # "the third highest region" then "and the one before that": a place, or a month?
            *both("conversation.place_or_period_beside", said=question.strip(), period=current.text or ""),
            detail={"follow_up": True},
        )
    word = (said.groupdict().get("u") or said.groupdict().get("u2") or "").lower()  # only English has u2
    unit = _UNITS.get(word) or _UNITS.get(timeexpr.range_grain(current.start, current.end))
    if unit is None:  # "the one before that" of a run of days: before what?
        return None
    words = (_SAID_ZH_AFTER if after else _SAID_ZH)[unit] if zh else f"the {unit} {side}"
    row = _the_row_listed(parent, listed, unit)  # "今年哪周GMV最高" then "前一周呢": before the week listed
    if row is None and timeexpr.range_grain(current.start, current.end) != unit:
        return None
    if row is None and not _one_period(current, unit):  # "最近8周" then "前一周呢": before which week?
        raise AmbiguousQuestion(
            *both("conversation.one_beside_which", said=question.strip(), period=current.text or ""),
            detail={"follow_up": True},
        )
    step = timeexpr.next_period if after else timeexpr.previous_period
    start, end = step(*(row or (current.start, current.end)), unit)
    named = parent.comparison
    if (
        row is None
        and named is not None
        and named.kind == "custom"
        and (named.range.start, named.range.end) == (start, end)
    ):
        start, end = step(start, end, unit)  # "6月和5月对比" then "再往前一个月呢": April, past both months shown
    if end >= as_of:  # not over yet: read on its own (no data yet is asked back there)
        return None
    # p72: "the week before" is a week said as one — its same week last year is the ISO week, never the dates
    whole = (start, end) == timeexpr.period_bounds(start, unit) if unit != "day" else start == end
    moved = TimeRange(start=start, end=end, text=words, period_kind=unit if whole else None)
    parent = parent.model_copy(update={"corrections": ()})  # the words of the question before, not of this one
    if row is not None:  # the one beside the period listed: its own figure, no longer a ranking
        # "环比下降最多的一周" then "前一周呢": still against its own week before
        kind = "previous_period" if parent.each_period_before else parent.comparison.kind if parent.comparison else None
        comparison = None
        if kind in ("previous_period", "same_period_last_year"):
            comparison = comparison_of(kind, moved, as_of)
        update = {"grain": None, "top_n": None, "rank_place": None, "rank_by": "value", "threshold": None}
        intent = "comparison" if comparison is not None else "value"
        plain = parent.model_copy(update={**update, "intent": intent, "comparison": comparison, "premise_asked": None})
        return plain.model_copy(update={"time_range": moved}), parent.comparison is not None and comparison is None
    return _moved(parent, moved, as_of)


def _one_period(span: TimeRange, unit: Grain) -> bool:
    """Whether ``span`` is one whole day, week, month or quarter."""
    return whole_period_count(span.start, span.end, unit) == 1


def _the_row_listed(parent: SemanticQuery, listed: ListedRows | None, unit: Grain) -> tuple[date, date] | None:
    """The one period of ``unit`` a ranking of periods listed ("最低的是哪周": the week of 06-22)."""
    ranked = parent.top_n is not None or parent.rank_place is not None
    if not ranked or listed is None or listed.grain != unit or len(listed.keys) != 1 or parent.dimensions:
        return None
    return listed_period(listed.keys[0], unit)


def _moved(parent: SemanticQuery, moved: TimeRange, as_of: date) -> tuple[SemanticQuery, bool]:
    """``parent`` over ``moved``; a comparison with the previous period or last year moves with it
    (each period against the one before it stays so: "上季度每个月GMV环比" then "前一个季度呢")."""
    comparison: Comparison | None = None
    previous = parent.comparison
    if parent.each_period_before:
        assert parent.grain is not None
        comparison = each_against_the_one_before(moved, parent.grain)
    elif previous is not None and previous.kind in ("previous_period", "same_period_last_year"):
        comparison = comparison_of(previous.kind, moved, as_of)
    dropped = parent.comparison is not None and comparison is None
    return parent.model_copy(update={"time_range": moved, "comparison": comparison}), dropped


__all__ = ["the_one_after", "the_one_before"]
