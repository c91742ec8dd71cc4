"""Follow-ups that point at the rows the previous answer listed: "上个月GMV最高的两个区域" then
"这两个区域的订单量呢", "top 3 channels by GMV" then "what about their orders", "上个月哪天GMV最高"
then "那天各渠道的GMV".

The rows are the previous answer's, read from its result (:class:`ListedRows`), never the
previous question asked again: a top 2 by GMV is not the top 2 by orders. A pointer is read as
those rows only when it fits them — a count said ("这三个") that is not how many were listed, a
singular ("它", "that day") over several rows, or rows of two keys are asked back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from itertools import pairwise

from baton import patterns
from baton.catalog.model import Catalog
from baton.catalog.spine import bucket_end
from baton.contracts.common import Language
from baton.contracts.semantic import Correction, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both, text
from baton.nlu import vocabulary as vocab
from baton.nlu.cn_numerals import parse_cn_int
from baton.numbers import bucket_label, direction_of

MAX_POINTED = 10
"""At most this many listed rows are pointed at; a longer list is named member by member."""


@dataclass(frozen=True)
class ListedRows:
    """The keys of the rows an answer listed, when they are of one key: members of one dimension
    (``dimension``), or periods of one grain (``grain``, their first days in ``keys``)."""

    keys: tuple[str, ...]
    dimension: str | None = None
    grain: Grain | None = None
    values: tuple[float | None, ...] = ()
    """The value each key was ranked by (the first metric's), when the answer ranked by the value."""
    across_turns: bool = False
    """The keys are the members of the last two answers, one each ("6月华东GMV", "华南呢"): a plural
    pointer ("这两个", "them") stands for both."""


def named_across_turns(parent: SemanticQuery, earlier_filter: MemberFilter | None) -> ListedRows | None:
    """ "6月华东GMV", "华南呢": the two members the last two answers were of, one figure each, which
    "这两个分别占多少" points at — never the last one alone."""
    if earlier_filter is None or parent.dimensions or parent.grain is not None or earlier_filter.exclude:
        return None
    now = one_member_kept(parent, earlier_filter.dimension)
    if now is None or len(earlier_filter.members) != 1 or (now,) == earlier_filter.members:
        return None
    return ListedRows((*earlier_filter.members, now), dimension=earlier_filter.dimension, across_turns=True)


def one_member_kept(query: SemanticQuery, dimension: str) -> str | None:
    """The one member ``query`` keeps of ``dimension`` ("华南呢": 华南), when one filter keeps just it."""
    now = [f for f in query.filters if f.dimension == dimension]
    if len(now) != 1 or now[0].exclude or len(now[0].members) != 1:
        return None
    return now[0].members[0]


def listed_rows(query: SemanticQuery, columns: list[str], rows: list[list[object]]) -> ListedRows | None:
    """What an answer of ``query`` listed, read from its result table: one dimension's members,
    or one grain's periods, at most :data:`MAX_POINTED` of them."""
    if len(query.dimensions) + (query.grain is not None) != 1 or not 0 < len(rows) <= MAX_POINTED:
        return None
    key = query.dimensions[0] if query.dimensions else "period"
    if key not in columns:
        return None
    at = columns.index(key)
    kept = [row for row in rows if row[at] is not None]
    change = f"{query.metrics[0]}_change"
    if query.premise_asked == "which" and change in columns:  # "哪几个月环比下降了": the ones it named
        kept = [row for row in kept if direction_of(row[columns.index(change)]) == query.premise]
    keys = tuple(str(row[at]) for row in kept)
    if not keys or len(set(keys)) != len(keys):
        return None
    metric = query.metrics[0]
    valued = query.rank_by == "value" and metric in columns and query.comparison is None
    values = tuple(_number(row[columns.index(metric)]) for row in kept) if valued else ()
    return ListedRows(
        keys, dimension=query.dimensions[0] if query.dimensions else None, grain=query.grain, values=values
    )


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float, str)) and _NUMERIC.fullmatch(str(value)) else None


_NUMERIC = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def placed_rows(
    said: str, listed: ListedRows | None, parent: SemanticQuery, *, place: int | None, count: int, order: str
) -> Pointed:
    """The rows a place says among those the previous answer listed ("第三名的订单量呢": the third
    highest by the previous metric; "最低的那个", "the bottom one's"; "前两名的…": the top two), by the
    values it showed. A place tied with its neighbour, beyond the rows, or rows without values is
    asked back naming the words."""
    if listed is None or not listed.values or None in listed.values:
        raise _place_not_placed(said)
    ranked = sorted(zip(listed.values, listed.keys, strict=True), key=lambda p: p[0] or 0.0, reverse=order == "desc")
    first = (place or 1) - 1
    last = first + (1 if place is not None else count)
    if last > len(ranked) or (last < len(ranked) and ranked[last - 1][0] == ranked[last][0]):
        raise _place_not_placed(said)  # past the rows, or tied at the edge
    if first > 0 and ranked[first - 1][0] == ranked[first][0]:
        raise _place_not_placed(said)
    keys = tuple(k for _, k in ranked[first:last])
    if listed.dimension is not None:
        return Pointed(said, filter=MemberFilter(dimension=listed.dimension, members=keys))
    if len(keys) != 1 or listed.grain is None:
        raise _place_not_placed(said)
    return Pointed(said, period=_period_inside(keys[0], listed.grain, parent, None))  # its dates, not "第三名"


_COUNT = r"(?P<n>[两二三四五六七八九十几]|\d+)"
ROWS_POINTER = patterns.compile(
    rf"(?:这|那){_COUNT}?个(?![月季周星礼天年日])|(?:这|那)俩个?(?![月季周星礼天年日])|(?:这|那)些|(?<!其)它们|(?<!其)它"
    r"|\b(?:these|those)(?:\s+(?P<n_en>two|three|four|five|six|seven|eight|nine|ten|\d+))?\b|\bits\b|\btheir\b"
    r"|\bthem\b|\bthey\b|(?<=\band )it\b(?=\s+(?:last|this|in|on|for|the|during|yesterday|\d))"
    r"|(?<=\babout )it\b|(?<=\bhow did )it\b|(?<=\bhow does )it\b|(?<=\bhow was )it\b|(?<=\bshow )it\b"
    r"|\b(?:that|this)\s+one\b",
    re.I,
)
"""Words that point at the rows listed ("这两个", "这俩", "那三个", "这些", "它们", "these two", "their", "them",
"that one")."""
PERIOD_POINTER = patterns.compile(
    r"(?P<zh>那一?天|那一?周|那个月|那一个月|那个季度)|\bthat (?P<en>day|date|week|month|quarter)\b"
    r"|(?:这|那)(?!(?:[两二三四五六七八九十几]|\d+)(?:月|季度))(?:(?P<pn>[两二三四五六七八九十几]|\d+)个?|些)"
    r"(?P<pzh>天|周|星期|月|季度)"
    r"|\b(?:these|those)(?:\s+(?P<pn_en>two|three|four|five|six|seven|eight|nine|ten|\d+))?"
    r"\s+(?P<pen>days|dates|weeks|months|quarters)\b",
    re.I,
)
"""Words that point at the period listed ("那天", "that week"), or at the periods ("这两个月",
"those weeks"); "那5月" is May, never five months."""
_PERIOD_WORDS: dict[str, Grain] = {**vocab.PERIOD_UNITS, "date": "day"}  # type: ignore[dict-item]
_EN_COUNTS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


@dataclass(frozen=True)
class Pointed:
    """The rows a follow-up's pointer stands for: a filter on their members, or their period(s)."""

    said: str
    filter: MemberFilter | None = None
    period: TimeRange | None = None
    grain: Grain | None = None
    """The grain of several periods pointed at ("这两个月": by month), kept as the series'."""


def pointed_rows(said: str, listed: ListedRows | None, parent: SemanticQuery) -> Pointed:
    """The rows ``said`` points at, or a question back naming why they cannot be placed."""
    if listed is None:
        raise not_placed(said)
    period = PERIOD_POINTER.fullmatch(said.strip())
    if period is not None:
        grain = period_pointer_grain(period)
        several = period.group("pzh") is not None or period.group("pen") is not None
        if listed.grain != grain or (len(listed.keys) == 1) == several:
            raise not_placed(said)
        if several:
            return _periods_pointed(said, period, listed, parent)
        return Pointed(said, period=_period_inside(listed.keys[0], grain, parent, said))
    count = pointer_count(said)
    singular = count is None and singular_pointer(said)
    if listed.dimension is None or (count is not None and count != len(listed.keys)):
        raise not_placed(said)
    if singular and len(listed.keys) != 1:
        raise not_placed(said)
    return Pointed(said, filter=MemberFilter(dimension=listed.dimension, members=listed.keys))


def _periods_pointed(said: str, found: re.Match[str], listed: ListedRows, parent: SemanticQuery) -> Pointed:
    """ "这两个月", "those weeks": the periods listed, as one span by the listed grain — when they
    follow one another. Periods apart are asked back: one span would hold the periods between."""
    count = period_pointer_count(found)
    assert listed.grain is not None
    if count is not None and count != len(listed.keys):
        raise not_placed(said)
    spans = sorted(listed_period(key, listed.grain) for key in listed.keys)
    if any((b[0] - a[1]).days != 1 for a, b in pairwise(spans)):
        keys = sorted(listed.keys)
        raise AmbiguousQuestion(
            *(
                text(
                    "conversation.pointed_periods_apart",
                    lang,
                    said=said,
                    periods=text("answer.list_sep", lang).join(bucket_label(k, listed.grain, lang) for k in keys),
                )
                for lang in ("en", "zh")
            ),
            detail={"follow_up": True},
        )
    span = TimeRange(
        start=max(spans[0][0], parent.time_range.start), end=min(spans[-1][1], parent.time_range.end), text=said
    )
    return Pointed(said, period=span, grain=listed.grain)


def period_pointer_grain(found: re.Match[str]) -> Grain:
    """The unit a period pointer names ("那天": day, "这两个星期": week, "those months": month)."""
    word = (found.group("zh") or found.group("en") or found.group("pzh") or found.group("pen")).lower()
    return "week" if word == "星期" else next(g for w, g in _PERIOD_WORDS.items() if word.rstrip("s").endswith(w))


def period_pointer_count(found: re.Match[str]) -> int | None:
    """The number a pointer at several periods says ("这两个月": 2; "那几天", "those weeks": None)."""
    n = found.group("pn") or found.group("pn_en")
    return None if n is None or n == "几" else _EN_COUNTS.get(n.lower()) or parse_cn_int(n)


def singular_pointer(said: str) -> bool:
    """Whether a pointer stands for one row ("它", "its", "it", "这个", "那个", "that one")."""
    return re.sub(r"\s+", " ", said.strip().lower()) in ("它", "its", "it", "这个", "那个", "that one", "this one")


def pointer_count(said: str) -> int | None:
    """The number a pointer says ("这两个": 2, "these three": 3), if any."""
    found = ROWS_POINTER.fullmatch(said.strip())
    if found is None:
        return None
    if "俩" in said:  # "这俩": these two
        return 2
    n = found.group("n") or found.group("n_en")
    if n is None or n == "几":
        return None
    return _EN_COUNTS.get(n.lower()) or parse_cn_int(n)


def pointer_read_as(pointed: Pointed, catalog: Catalog, language: Language) -> Correction:
    """The pointer and the rows it was read as, stated with the interpretation."""
    if pointed.period is not None:
        read_as = pointed.period.start.isoformat()
        if pointed.period.end != pointed.period.start:
            read_as = text("answer.span", language, start=pointed.period.start, end=pointed.period.end)
    else:
        assert pointed.filter is not None
        dim = pointed.filter.dimension
        read_as = text("answer.list_sep", language).join(
            catalog.member_label(dim, m, language) for m in pointed.filter.members
        )
    return Correction(written=pointed.said, read_as=read_as, kind="pointer")


def listed_period(key: str, grain: Grain) -> tuple[date, date]:
    """The days of the period a listed row's key starts ("2026-06-15" by week: to 2026-06-21)."""
    start = date.fromisoformat(key[:10])
    return start, bucket_end(start, grain) or start  # a day is its own end


def _period_inside(key: str, grain: Grain, parent: SemanticQuery, said: str | None) -> TimeRange:
    """A listed period, as much of it as the previous question covered (a week cut by its range)."""
    start, end = listed_period(key, grain)
    inside = (max(start, parent.time_range.start), min(end, parent.time_range.end))
    whole = inside == (start, end)  # p72: "that week" is a week said as one, unless its range cut it
    return TimeRange(start=inside[0], end=inside[1], text=said, period_kind=grain if whole else None)


def _place_not_placed(said: str) -> AmbiguousQuestion:
    return AmbiguousQuestion(*both("conversation.pointer_after_ranking", said=said), detail={"follow_up": True})


def not_placed(said: str) -> AmbiguousQuestion:
    """The question back for a pointer whose rows cannot be placed, naming its words."""
    return AmbiguousQuestion(*both("conversation.pointer_not_placed", said=said), detail={"follow_up": True})


__all__ = [
    "MAX_POINTED",
    "PERIOD_POINTER",
    "ROWS_POINTER",
    "ListedRows",
    "Pointed",
    "listed_period",
    "listed_rows",
    "named_across_turns",
    "not_placed",
    "one_member_kept",
    "period_pointer_count",
    "period_pointer_grain",
    "placed_rows",
    "pointed_rows",
    "pointer_count",
    "pointer_read_as",
    "singular_pointer",
]
