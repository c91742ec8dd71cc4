"""What the catalog-term reader found, and the readers that need it: the words joining terms
("华东和华南", "GMV plus AOV"), members compared with each other ("华东比华南多多少"),
clauses that only set the scene ("我在准备周会，…"), and ratios the catalog does not define
("orders per buyer")."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field

from baton import patterns
from baton.contracts.semantic import Correction, SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues
from baton.nlu.lexicon import Hit
from baton.nlu.scan import Scan

_PER_ZH_BEFORE = patterns.compile(r"每(?![个位名一])(?P<w>[\u4e00-\u9fff]{1,3}?)的?\s*$")
"""每 right before a noun ("每用户GMV", "每人GMV"): per one; "每个客户的订单量" is each one's, a breakdown."""
_WORD_AFTER = patterns.compile(
    r"(?:(?:of|the|a|an|each|every|one|all|these|those|that|this|its|their|our)\s+)*(?P<unit>[^\W\d_]+)", re.I
)
"""The unit after "per" / "for each", past the words that say none ("for each of the regions", "per a user")."""
_PER = patterns.compile(r"\s*(?:\bper\b|\bfor each\b|\bfor every\b)\s*", re.I)


@dataclass(frozen=True)
class Member:
    dimension: str
    member: str
    hit: Hit
    excluded: bool


@dataclass
class Terms:
    metrics: list[str] = field(default_factory=list)
    dims: list[str] = field(default_factory=list)
    members: list[Member] = field(default_factory=list)
    dims_naming_a_set: set[str] = field(default_factory=set)
    all_said: dict[str, str] = field(default_factory=dict)
    """A dimension's every member said with nothing excluded ("所有区域" → "所有区域"): one total, or each?"""
    others_than: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A follow-up's "other <dimension>" → the members the question before kept, now left out."""
    every_of: set[str] = field(default_factory=set)
    """Dimensions said with "all" / "所有", however read ("所有渠道里哪个最高": ranked over every channel)."""
    metric_hits: list[Hit] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    ratios_read: list[Correction] = field(default_factory=list)
    """Two metrics said one over the other, read as the catalog's ratio of them ("signups over visits")."""

    @property
    def any(self) -> bool:
        return bool(self.metrics or self.dims or self.members or self.dims_naming_a_set)


_PER_BEFORE = patterns.compile(r"(?:(?<![A-Za-z])(?:per|each|every)|每(?:一?[个位名])?)\s*$", re.I)
"""A member said after "per" / "每位" / "每" ("GMV per new user", "每位老客的订单量", "每新客GMV"): a ratio to a count
the catalog may not define, never the member's total."""


def check_per_member(scan: Scan, members: list[Member]) -> None:
    """Ask back a metric "per" a member: reading it as a filter would answer the member's total."""
    for m in members:
        per = _PER_BEFORE.search(scan.norm, 0, m.hit.start)
        if per is not None:
            phrase = scan.text[per.start() : m.hit.end].strip()
            raise AmbiguousQuestion(*both("nlu.per_member", phrase=phrase), detail={"reason": "per_member"})


def claim_member_lists(scan: Scan, cues: Cues, members: list[Member]) -> None:
    """The words joining members of one dimension ("华东和华南", "web plus app"); a sum word
    ("加", "plus") asks for their total. Metrics joined by "plus" are simply listed."""
    ordered = sorted({id(m.hit): m for m in members}.values(), key=lambda m: m.hit.start)
    joins: dict[str, set[bool]] = {}
    for prev, nxt in itertools.pairwise(ordered):
        between = scan.norm[prev.hit.end : nxt.hit.start]
        phrase = scan.text[prev.hit.start : nxt.hit.end]
        if prev.dimension == nxt.dimension and between.isspace() and _LATIN_PAIR.fullmatch(phrase):
            # "household appliances": one category named in two words, or two? (Chinese lists
            # members side by side, "华东华南"; English joins them: "home goods and appliances")
            raise AmbiguousQuestion(
                *both("nlu.adjacent_members", phrase=phrase), detail={"reason": "adjacent_members", "phrase": phrase}
            )
        if prev.dimension != nxt.dimension:
            if not (prev.excluded or nxt.excluded):  # "除了直播和华东以外": both taken out, a list of exclusions
                _no_list_across_dimensions(scan, prev, nxt)
            continue
        listed = vocab.LIST_JOIN.match(between) is not None
        summed = listed and bool(vocab.SUM_JOIN.search(between))
        if summed or not listed or vocab.COMPARE.search(between):  # "华东、华南加华北" is one list
            joins.setdefault(prev.dimension, set()).add(summed)
        if listed and scan.free(prev.hit.end, nxt.hit.start):
            scan.claim(prev.hit.end, nxt.hit.start)
            cues.total = cues.total or summed
    for dimension, kinds in joins.items():
        if kinds == {True, False}:  # "east china vs north + south": a sum set against a member
            named = [m.member for m in ordered if m.dimension == dimension]
            raise AmbiguousQuestion(*both("nlu.sum_against_member"), detail={"members": named})


def _no_list_across_dimensions(scan: Scan, prev: Member, nxt: Member) -> None:
    """ "华东或者直播", "app和华南各自", "East China and for live stream, respectively",
    "channel is app or category is beauty": members of two dimensions joined as a list (past the
    catalog terms between them) ask for either one, or each on its own — never both at once, the
    filter Baton would build ("华东的直播" says that): asked back naming both."""
    chars = list(scan.norm[prev.hit.end : nxt.hit.start])
    for start, end in scan.terms:  # "华东的GMV和直播的GMV": the metric's name is no join
        for i in range(max(start, prev.hit.end), min(end, nxt.hit.start)):
            chars[i - prev.hit.end] = " "
    if _JOINED_ACROSS.fullmatch("".join(chars)):
        phrase = scan.text[prev.hit.start : nxt.hit.end]
        raise AmbiguousQuestion(
            *both("nlu.members_of_two_dimensions", first=prev.hit.text, second=nxt.hit.text, phrase=phrase),
            detail={"reason": "members_of_two_dimensions", "members": [prev.member, nxt.member]},
        )


_JOINED_ACROSS = patterns.compile(
    r"[\s的,，]*(?:\b(?:is|for|from|in|of|via|through|where)\s+)*"
    r"(?:和|与|及|以及|跟|或者|或是|或|还是|、|/|&|\+|\band\b|\bor\b|\bas well as\b|\bplus\b|\bvs\.?|\bversus\b)"
    r"[\s,，]*(?:\b(?:is|for|from|in|of|via|through|the|also)\s+)*[\s的]*",
    re.I,
)
"""A list word between two members, with only catalog terms, "的" and prepositions beside it."""


_LATIN_PAIR = patterns.compile(r"[A-Za-z][A-Za-z &'-]*\s+[A-Za-z][A-Za-z &'-]*")
"""Two English member words side by side."""


_ON = patterns.compile(r"上(?![个一二两三四五六七八九十月周星季年半次回期天日线升涨市架新午门面下])")
"""Locative "上" ("APP上", "在网页上"), not the "上" of "上个月" or "上周" (read as periods before)."""


def claim_member_places(scan: Scan, members: list[Member]) -> None:
    """ "上个月APP上的订单量": "上" right after a member says where, as "里" and "中" do."""
    for member in members:
        on = _ON.match(scan.norm, member.hit.end)
        if on and scan.free(on.start(), on.end()):
            scan.claim(on.start(), on.end())
        whole = _WHOLE_OF.search(scan.norm, 0, member.hit.start)  # "整个华南": all of it, a filter of it
        if whole and not member.excluded and scan.free(whole.start(), whole.end()):
            scan.claim(whole.start(), whole.end())


_WHOLE_OF = patterns.compile(r"整个\s*$")
"""A whole word before a member ("整个华南的GMV", "整个小程序呢"): the member's whole, read as its filter."""


def claim_term_lists(scan: Scan, hits: list[Hit]) -> None:
    """ "net revenue for each region, plus the discount amount": catalog terms joined by list
    words are listed (members of one dimension were joined above, where "plus" sums)."""
    for prev, nxt in itertools.pairwise(sorted(hits, key=lambda h: h.start)):
        between = scan.norm[prev.end : nxt.start]
        if between.strip() and vocab.LIST_JOIN.match(between) and scan.free(prev.end, nxt.start):
            scan.claim(prev.end, nxt.start)


def one_period(periods: list[timeexpr.PeriodReading]) -> bool:
    """At most one period said (the same dates said twice are one)."""
    return len({(p.match.start, p.match.end) for p in periods if p.match}) <= 1


def compares_members(cues: Cues, terms: Terms, periods: list[timeexpr.PeriodReading]) -> bool:
    """A comparison word between members of one dimension, in a question with one period."""
    dims = [m.dimension for m in terms.members if not m.excluded]
    several = any(dims.count(d) > 1 for d in dims)
    if several and cues.why:  # "why is GMV lower in East China than in South China"
        raise AmbiguousQuestion(*both("nlu.why_between_members"), detail={"members": [m.member for m in terms.members]})
    return several and one_period(periods) and cues.comparison_kind is None and not cues.earlier


def member_set_against(scan: Scan, cues: Cues, terms: Terms, periods: list[timeexpr.PeriodReading]) -> Member | None:
    """The one member a follow-up names next to a comparison word, with no period ("比食品多吗", "和华南
    比呢", "is that higher than appliances?", "是华南的几倍", "和华南差多少"): set against the previous
    answer, never read as that member's change over time."""
    named = [m for m in terms.members if not m.excluded]
    if len(named) != len(terms.members) or len(named) != 1 or periods:
        return None
    if cues.comparison_kind is not None or cues.earlier or cues.why or cues.total:  # "跟华南一起呢": summed
        return None
    member = named[0]
    a, b = member.hit.start, member.hit.end
    words = [
        m
        for m in vocab.COMPARE.finditer(scan.norm)
        if m.group(0) != "比" or vocab.AGAINST_BY_BI.match(scan.norm, m.start())
    ]
    said = any(0 <= a - m.end() <= 1 or 0 <= m.start() - b <= 1 for m in words)
    times = cues.ratio and _TIMES_OF.match(scan.norm, b) is not None  # "是华南的几倍"
    gap = _GAP_TO.match(scan.norm, b) is not None  # "和华南差多少"
    return member if said or times or gap else None


def against_the_previous_member(member: Member, context: SemanticQuery) -> bool:
    """Whether the previous answer is one member of ``member``'s dimension ("手机的订单量" then "比食品
    多吗"), or a pair's gap whose first member the new one replaces the second beside ("APP比网页高多少"
    then "和小程序比呢"): the two are then shown side by side; set against anything else (the whole, a
    breakdown) the question is asked back, naming both sides."""
    before = [f for f in context.filters if f.dimension == member.dimension and not f.exclude]
    if len(before) != 1 or member.member in before[0].members:
        return False
    one = len(before[0].members) == 1 and member.dimension not in context.dimensions
    pair = context.difference and len(before[0].members) == 2  # "APP比网页高多少" then "和小程序比呢": APP's
    return one or pair


_TIMES_OF = patterns.compile(r"\s*的?\s*(?:" + vocab.RATIO.pattern + ")", re.I)
_GAP_TO = patterns.compile(r"\s*(?:之间)?的?\s*(?:" + vocab.GAP_BETWEEN.pattern + ")", re.I)


def context_clauses(
    scan: Scan, terms: Terms, periods: list[timeexpr.PeriodReading], operators: list[tuple[int, int]]
) -> list[Correction]:
    """Clauses that only set the scene ("我在准备周会", "Prepping for Monday's review."): a
    scene word; no operator, negation, narrowing word ("只看", "only") or number; and no catalog
    term or period the rest of the question does not name again. They are claimed and stated,
    never silently dropped."""
    bounds = [0, *(m.end() for m in vocab.CLAUSE_BREAK.finditer(scan.norm)), len(scan.norm)]
    clauses = [(a, b) for a, b in itertools.pairwise(bounds) if scan.norm[a:b].strip()]
    if len(clauses) < 2:
        return []
    in_period = [any(a <= i < b for a, b in (p.span for p in periods)) for i in range(len(scan.norm))]
    blanked = "".join(" " if inside else ch for inside, ch in zip(in_period, scan.norm, strict=True))
    out = []
    for start, end in clauses:
        if not _only_context(scan.norm[start:end], blanked[start:end]):
            continue
        if any(start <= a < end for a, _ in operators) or not _restated(start, end, terms, periods):
            continue
        scan.claim(start, end)
        periods[:] = [p for p in periods if not start <= p.span[0] < end]  # restated elsewhere
        said = scan.text[start:end].strip(" ，,。.:：;；!！?？")
        out.append(Correction(written=said, read_as="", kind="context"))
    return out


def _only_context(said: str, without_periods: str) -> bool:
    if not vocab.CONTEXT_MARKERS.search(said) or vocab.NEGATION.search(said) or vocab.RESTRICTION.search(said):
        return False
    return not any(ch.isdigit() for ch in vocab.TIME_OF_DAY.sub("", without_periods))


def _restated(start: int, end: int, terms: Terms, periods: list[timeexpr.PeriodReading]) -> bool:
    """Whether every catalog term and period of the clause is named again outside it."""
    outside = {t.target for h in terms.hits if not start <= h.start < end for t in h.terms}
    if any(not {t.target for t in h.terms} & outside for h in terms.hits if start <= h.start < end):
        return False
    elsewhere = {(p.match.start, p.match.end) for p in periods if p.match and not start <= p.span[0] < end}
    return all(
        p.match is not None and (p.match.start, p.match.end) in elsewhere for p in periods if start <= p.span[0] < end
    )


def ratio_of_terms(scan: Scan, terms: Terms, unknown: list[str]) -> list[str]:
    """ "orders per buyer", "GMV per visitor", "GMV per user": a ratio the catalog does not define
    (a catalog ratio such as "GMV per buyer" is one term and never reaches here). The word after
    "per" that no reader took (not a day, a region) is what it is divided by, even a filler noun
    (a member after "per" is asked back: :func:`check_per_member`)."""
    out = []
    for hit in terms.metric_hits:
        each = _PER_ZH_BEFORE.search(scan.norm, 0, hit.start)
        if each is not None and scan.free(each.start("w"), each.end("w")):  # "每用户GMV", "每人GMV"
            out.append(scan.text[each.start() : hit.end])
            continue
        per = _PER.match(scan.norm, hit.end)
        if per is None:
            continue
        named = next((h for h in terms.metric_hits if h.start == per.end()), None)
        after = _WORD_AFTER.match(scan.norm, per.end())
        first = scan.norm[per.end() :].split()
        word = named.text if named else (first[0].strip("?？,.!") if first else "")
        untaken = after is not None and scan.free(after.start("unit"), after.end("unit"))
        word = after.group(0) if untaken and after is not None and not named else word
        if named or word in {w for u in unknown for w in u.split()} or untaken:
            out.append(f"{hit.text} per {word}" if per.group(0).strip() == "per" else hit.text + per.group(0) + word)
    return out


__all__ = [
    "Member",
    "Terms",
    "claim_member_lists",
    "claim_term_lists",
    "compares_members",
    "context_clauses",
    "one_period",
    "ratio_of_terms",
]
