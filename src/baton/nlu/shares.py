"""The whole a share is of, when the question names it with a member.

"新用户的订单中APP占比多少", "上个月华东地区里，新用户订单占比", "手机数码的GMV占华东GMV的比例",
"among new users, what percentage of orders came from the app", "what percentage of East China
GMV came from phones": members of two dimensions, one of them the whole (it filters both the
part and the whole) and the other the part. The words that mark the whole are a locative after
the member ("…中 / 里 / 当中", optionally after its dimension word and a metric), "占" before it,
and "among / within" — or "of" with a metric after the member — in English. Without such a
word two dimensions stay asked back: which one is the whole?

A breakdown is the whole the same way ("每个区域的订单中APP占多少", "各渠道里新用户GMV占比",
"for each region, what percent of its orders came from the app", "new users' share of orders
in each channel"): then a member is the part, and each group is its own whole.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from baton import patterns
from baton.nlu.lexicon import Hit
from baton.nlu.reading import Member
from baton.nlu.scan import Scan

INSIDE = patterns.compile(r"\s*(?:当中|之中|里面|中|里|内)")
"""A locative after a member or its metric ("新用户的订单中", "APP的订单里"): the place, not a figure."""
_OF_ZH = patterns.compile(r"占\s*了?\s*(?:全国|全部|整体|总体|全平台|所有)?\s*的?\s*$")
_AMONG = patterns.compile(r"\b(?:among|within|amongst)\s+(?:the\s+)?(?:all\s+)?$", re.I)
_OF_EN = patterns.compile(r"\bof\s+(?:the\s+)?(?:all\s+|overall\s+|total\s+|nationwide\s+)?$", re.I)
_OWN = patterns.compile(r"\s*(?:'s|’s|')?\s*", re.I)
_LINK = patterns.compile(r"\s*的?\s*")
_PART_AFTER = patterns.compile(
    r"\s*(?:的\s*)?(?:占|份额|比例|比重|贡献|带来)|\s*(?:['’]s?\s+)?(?:share|percentage|portion)\b", re.I
)
_SHARE_OF = patterns.compile(r"\b(?:share|percentage|proportion|portion|fraction|percent)\s+of\s+(?:the\s+)?$", re.I)
_IN_METRIC = patterns.compile(r"\s+(?:in|among|within|of)\s+(?:the\s+|all\s+|total\s+)?", re.I)
_PART_BEFORE = patterns.compile(r"\b(?:from|through|via)\s+(?:the\s+)?$", re.I)
_EACH_ZH = patterns.compile(r"每一?个?\s*$")
_ALL_ZH = patterns.compile(r"各\s*$")
_IN_EACH_ZH = patterns.compile(r"\s*在\s*(?:各|每一?个?|不同)")
""" "APP在各区域的GMV占比": the member is the part, inside each group (or across them: asked)."""
_IN_EACH_GROUP = patterns.compile(r"\s*在\s*(?:每一?个?|各[^的占]{1,6}?(?:中|里|内))")
""" "新客GMV在每个渠道的占比", "…在各渠道中的占比": the member's metric inside each group (or
across them: asked), where "APP的订单在各区域的占比" is its split across the groups."""
_OF_EVERYTHING = patterns.compile(
    r"占\s*(?:全国|全部|整体|总体|全平台|大盘|总)|\b(?:share|percentage|proportion|fraction|percent)\s+of\s+"
    r"(?:the\s+)?(?:total|overall|all|whole|company(?:-wide)?)\b",
    re.I,
)
_SCOPE_BEFORE = patterns.compile(r"(?:\b(?:in|within|among|for|of|at)\s*|[:：,，]\s*)$", re.I)
_POSSESSED_SHARE = patterns.compile(r"(?:'s?|s')\s+(?:share|percentage|proportion|fraction)\s+of\s+(?:the\s+)?", re.I)
_THE_WHOLE_PLACE = patterns.compile(r"全国|全平台|大盘")
_IN_OPENING = patterns.compile(r"^\s*(?:in|within|for)\s+(?:the\s+)?$", re.I)
_CLAUSE_COMMA = patterns.compile(r"\s*[,，]")
_PERIOD_WORDS = patterns.compile(r"[\s\d上下本这今去前近个月周年天日季度号半]+")
"""A Chinese period said between a member and its metric ("上个月", "今年", "近30天")."""
_EACH_EN = patterns.compile(r"\b(?:for|in|within|inside)\s+(?:each|every)\s+(?:of\s+the\s+)?$", re.I)


def whole_dimensions(scan: Scan, members: list[Member], hits: list[Hit]) -> tuple[set[str], list[Hit]]:
    """The dimensions whose named members a marker makes the share's whole, and the members
    only the weaker marker marked. "of X GMV" is the weaker one: "the share of app orders among
    new users" is among new users."""
    strong: set[str] = set()
    weak: list[Member] = []
    for member in members:
        if member.excluded:
            continue
        marker = _marker(scan, member.hit, hits)
        if marker == "strong":
            strong.add(member.dimension)
        elif marker is not None:
            weak.append(member)
    return (strong, []) if strong else ({m.dimension for m in weak}, [m.hit for m in weak])


@dataclass(frozen=True)
class ShareMarks:
    """What a share question's words make of its dimensions."""

    whole: set[str] = field(default_factory=set)
    """Dimensions whose named members are the whole ("新用户的订单中")."""
    inside: set[str] = field(default_factory=set)
    """Breakdown dimensions each of whose groups is its own whole ("每个区域的订单中")."""
    part: set[str] = field(default_factory=set)
    """Dimensions whose named members the words make the part ("APP占", "came from the app")."""
    everything: bool = False
    """The whole is said to be everything ("占全国GMV的比例", "share of total GMV"): every named
    member is the part, of however many dimensions ("华东APP的GMV占全国的比例")."""
    bare: bool = False
    """ "app new users' share of June orders": the members said before a possessive share, a bare
    metric after it and nothing else — with no breakdown, every member named is the part."""
    weak: bool = False
    """Only "of X orders" marks the whole, and the breakdown is named before it: "which region
    had the highest share of app orders" may as well be app's share inside each region, so it
    is asked back ("share of East China GMV by category" breaks the named whole down)."""


def share_marks(scan: Scan, members: list[Member], dims: list[str], hits: list[Hit]) -> ShareMarks:
    """The whole and the part a share question marks (see the module docstring)."""
    whole, weak = whole_dimensions(scan, members, hits)
    named_dims = [h for h in hits if {t.target for t in h.terms if t.kind == "dimension"} & set(dims)]
    return ShareMarks(
        whole=whole,
        weak=any(d.start < w.start for d in named_dims for w in weak),
        inside=breakdown_wholes(scan, dims, hits),
        part={m.dimension for m in members if not m.excluded and _names_the_part(scan, m.hit, hits)},
        everything=_of_everything(scan, hits, members),
        bare=_of_a_bare_metric(scan, hits),
    )


def _of_a_bare_metric(scan: Scan, hits: list[Hit]) -> bool:
    """ "App new users' share of June orders": every member before the possessive share, and after
    it a metric alone — a member or a dimension said after it ("… of June GMV in East China")
    may scope the whole, so it is no bare whole."""
    said = _POSSESSED_SHARE.search(scan.norm)
    if said is None:
        return False
    later = [h for h in hits if h.start >= said.end()]
    if not later or not all(h.kinds == {"metric"} for h in later):
        return False
    # the members one run of names ending at the possessive: "in East China app's share" scopes East China
    at = said.start() + (scan.norm[said.start()] not in "'’")  # "users' share": the names end after the s
    named = sorted((h for h in hits if "member" in h.kinds and h.end <= at), key=lambda h: h.start)
    for hit in reversed(named):
        if scan.norm[hit.end : at].strip():
            return False
        at = hit.start
    return bool(named) and not _SCOPE_BEFORE.search(scan.norm, 0, at)


def _of_everything(scan: Scan, hits: list[Hit], members: list[Member]) -> bool:
    """The whole said as everything: the metric right after it ("占全国GMV的比例", "share of total
    GMV"), or 全国 / 全平台 / 大盘 with nothing after ("占全国的比例"). A member or a dimension said after it
    scopes the whole ("占全国APP的", "占全部品类的", "share of total GMV in East China"), unless it is
    left out, marked as the part or said after the part ("share of total GMV came from East China
    excluding app", "… came from the app in East China")."""
    said = _OF_EVERYTHING.search(scan.norm)
    if said is None:
        return False
    later = sorted((h for h in hits if h.start >= said.end()), key=lambda h: h.start)
    parts = [m.hit.start for m in members if not m.excluded and _names_the_part(scan, m.hit, hits)]
    apart = {id(m.hit) for m in members if m.excluded or m.hit.start in parts}
    first_part = min(parts, default=len(scan.norm))  # "came from the app in East China": East China is the part's
    right_after = later and later[0].kinds == {"dimension"} and not scan.norm[said.end() : later[0].start].strip(" 的")
    if right_after or any("member" in h.kinds and id(h) not in apart and h.start < first_part for h in later):
        return False
    if not later:
        return _THE_WHOLE_PLACE.search(said.group(0)) is not None
    return "metric" in later[0].kinds


def _names_the_part(scan: Scan, hit: Hit, hits: list[Hit]) -> bool:
    """ "APP占…", "APP的订单占比", "app share of orders", "new users' share", "orders from the
    app", "the share of new users in orders" (the member between "share of" and its metric),
    "APP在各区域的…占比", "新客GMV在每个渠道的占比"."""
    end = _past_attached(scan, hit.end, hits, kinds={"dimension"})
    after_metric = _past_attached(scan, end, hits, kinds={"metric"})
    after = any(_PART_AFTER.match(scan.norm, at) is not None for at in {end, after_metric})
    into = _IN_METRIC.match(scan.norm, end)
    share_of_in = (
        _SHARE_OF.search(scan.norm[: hit.start]) is not None
        and into is not None
        and any(h.start == into.end() and "metric" in h.kinds for h in hits)
    )
    in_each = _IN_EACH_ZH.match(scan.norm, end) is not None or _IN_EACH_GROUP.match(scan.norm, after_metric) is not None
    return after or share_of_in or in_each or _PART_BEFORE.search(scan.norm[: hit.start]) is not None


def breakdown_wholes(scan: Scan, dims: list[str], hits: list[Hit]) -> set[str]:
    """The breakdown's dimensions a marker makes each group's own whole: its metric and a
    locative ("各区域的订单中"), a locative right after "每个" ("每个渠道里") or after "各" and before
    a member ("各区域中直播的…"), or "for / in each" ("for each region"). "各品类中哪个…" picks
    among the groups: no whole."""
    marked: set[str] = set()
    for hit in hits:
        named = {t.target for t in hit.terms if t.kind == "dimension"} & set(dims)
        if not named:
            continue
        before = scan.norm[: hit.start]
        after_metric = _past_attached(scan, hit.end, hits, kinds={"metric"})
        of_its_metric = after_metric > hit.end and INSIDE.match(scan.norm, after_metric) is not None
        inside = INSIDE.match(scan.norm, hit.end)
        each_inside = inside is not None and _EACH_ZH.search(before) is not None
        # "各区域中直播的GMV占比": a member right after "各…中" is the part inside each group
        each_inside = each_inside or (
            inside is not None and _ALL_ZH.search(before) is not None and _a_member_at(inside.end(), hits)
        )
        if of_its_metric or each_inside or _EACH_EN.search(before):
            marked |= named
    return marked


def _for_after_the_metric(before: str, hits: list[Hit]) -> bool:
    """ "share of app in revenue for 华南": "for" right after the share's metric, its part named before it."""
    said = _FOR_END.search(before)
    if said is None:
        return False
    metric = next(
        (h for h in hits if "metric" in h.kinds and h.end <= said.start() and not before[h.end : said.start()].strip()),
        None,
    )
    return metric is not None and any("member" in h.kinds and h.end <= metric.start for h in hits)


_FOR_END = patterns.compile(r"\b(?:for|within)\s+(?:the\s+)?$", re.I)


def _a_member_at(at: int, hits: list[Hit]) -> bool:
    return any(h.start == at and "member" in h.kinds for h in hits)


def _marker(scan: Scan, hit: Hit, hits: list[Hit]) -> str | None:
    before = scan.norm[: hit.start]
    if _OF_ZH.search(before) or _AMONG.search(before):
        return "strong"
    end = _past_attached(scan, hit.end, hits, kinds={"dimension"})
    if _IN_OPENING.search(before) and _CLAUSE_COMMA.match(scan.norm, end) and _part_named_after(hits, end):
        return "strong"  # "In East China, what share of … came from new customers?"
    if _for_after_the_metric(before, hits):
        return "strong"  # "share of app in revenue for South China": the whole is South China's revenue
    after_metric = _past_attached(scan, _past_a_period(scan, end), hits, kinds={"metric"})
    if any(INSIDE.match(scan.norm, at) is not None for at in {end, after_metric}):
        return "strong"
    if _OF_EN.search(before) and after_metric > end:  # "of East China GMV": the member's metric
        return "weak"
    return None


def metric_said_of(scan: Scan, hit: Hit, hits: list[Hit]) -> Hit | None:
    """The metric a member is said of, right after it ("新用户(的)订单量", "APP的访客数",
    "new-user orders"), past its dimension word ("华东地区的GMV")."""
    end = _past_attached(scan, hit.end, hits, kinds={"dimension"})
    after = _past_attached(scan, end, hits, kinds={"metric"})
    return next((h for h in hits if h.end == after and "metric" in h.kinds), None) if after > end else None


def _part_named_after(hits: list[Hit], at: int) -> bool:
    """A member named after ``at`` — the part, when the member before is the whole ("In East China,
    … from new customers"); "For East China, what share of total GMV does it make up?" names none."""
    return any("member" in h.kinds for h in hits if h.start > at)


def _past_a_period(scan: Scan, at: int) -> int:
    """Past a period read right after ``at`` ("华东上个月GMV里": the member's metric, a period between)."""
    start = at + len(scan.norm[at:]) - len(scan.norm[at:].lstrip())
    span = next(((s, e) for s, e in scan.claimed if s == start and _PERIOD_WORDS.fullmatch(scan.norm[s:e])), None)
    return span[1] if span is not None else at


def _past_attached(scan: Scan, at: int, hits: list[Hit], *, kinds: set[str]) -> int:
    """Past a term of ``kinds`` right after ``at`` ("华东" + "地区", "新用户" + "的订单")."""
    link = _OWN.match(scan.norm, at) if scan.norm[at : at + 1] in {"'", "’"} else _LINK.match(scan.norm, at)
    start = link.end() if link else at
    nxt = next((h for h in hits if h.start == start and h.kinds & kinds), None)
    return nxt.end if nxt is not None else at
