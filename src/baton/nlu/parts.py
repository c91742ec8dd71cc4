"""Questions of several parts: what one answer can hold, and what it would silently drop.

Analysts ask two things at once ("上个月GMV多少，哪个区域最高", "各区域GMV和全国GMV", "上个月的退款率，
以及家电品类的退款率"). One query answers one of them; the member's filter, the breakdown or the
ranking of one part would answer for both. These readers find such questions by their clauses:
where one part can carry the other (every group's value, then which is highest: the whole ranking,
highest first) it is read so; where it cannot, the question is asked back, never half-answered.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Sequence

from baton import patterns
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues
from baton.nlu.reading import Member, Terms
from baton.nlu.scan import Scan

_CLAUSE_SPLIT = patterns.compile(r"[，,;；。?？！!]|以及|还有|同时|&|\band\s+(?=what\b|how\b|which\b)", re.I)
"""Where one part of a question ends: punctuation, 以及 / 还有 / 同时, or "and" before a question word."""
_VALUE_ASKED = patterns.compile(r"多少|几|\bhow (?:much|many)\b|\bwhat (?:was|were|is|are)\b|\btotal\b|总", re.I)
"""A clause that asks a value ("GMV多少", "how many orders", "the total")."""
_SUPERLATIVE = vocab.SUPERLATIVE.pattern + r"|最|\btop\b"
_WHICH = r"哪个|哪一个|哪家|谁|\bwhich\b"
_COMPARATIVE = (
    r"更|[高低多少大小](?:一些|一点|些)?\s*(?:呢|啊)?\s*[?？。]?\s*$|\bhigher\b|\blower\b|\bmore\b|\bless\b"
    r"|\bfewer\b|\bbigger\b|\blarger\b|\bsmaller\b|\bbetter\b|\bworse\b"
)
_THEN_WHICH = (
    r"[^，,;；?？]*?(?P<sep>[，,;；?？&]|以及|还有|\band\b|\s(?=哪个|哪一个|谁)|和(?=最|哪))\s*(?:and\s+)?"
    rf"(?:(?:{_WHICH})[^，,;；]{{0,20}}?(?:{_COMPARATIVE})|[^，,;；?？]{{0,20}}?(?:{_SUPERLATIVE}))"
)
_EACH_THEN_BEST = patterns.compile(
    r"(?:各|每个|每一个|分别|\bby\b|\beach\b|\bper\b|\brespectively\b)" + _THEN_WHICH, re.I
)
"""Each group's value asked, then which is highest in a clause of its own ("各区域上个月退款率多少，哪个
最高", "app和小程序分别多少，哪个高", "各品类的订单量以及最少的品类", "GMV by channel last month and
which was highest")."""
_VALUES_THEN_WHICH = patterns.compile(r"\S" + _THEN_WHICH, re.I)
"""Named members' values, then which is higher in a clause of its own ("GMV for app and web last month,
and which was higher")."""
_TOTAL_THEN_WHICH = patterns.compile(
    r"^(?P<first>[^，,;；?？]*(?:多少|\bhow (?:much|many)\b|\bwhat (?:was|were|is|are)\b)[^，,;；?？]*)"
    rf"(?:[，,;；?？]|\band\b)\s*(?:and\s+)?(?:{_WHICH}|哪些|哪几个)",
    re.I,
)
_SUPERLATIVE_SAID = patterns.compile(_SUPERLATIVE, re.I)
TOTAL_JOINED = patterns.compile(
    r"(?:[,，、&]|\band\b|\bplus\b|\bwith\b|和|与|以及|及|跟|还有)\s*(?:the\s+)?(?:q[1-4]\s+|h[12]\s+|\d{4}\s+)?"
    r"(?:overall\s+|grand\s+|whole\s+)?"
    r"(?:\btotals?\b(?=\s*(?:[,.?!;]|$|\btoo\b|\bas well\b|\bper\b|\bfor each\b|\bby\b))"
    r"|\boverall\b(?=\s*(?:[,.?!;]|$))|(?:全国|整体|总体|大盘|全平台)(?!各))"
    r"|(?:总数|总量|总额|总和|合计|总计|\btotals?\b(?:\s+[a-z]+)?|\boverall\b)\s*(?:[,，]|和|与|以及|及|\band\b|&)\s*"
    r"(?:the\s+)?"
    r"(?:各|每个|分|按|\bby\b|\beach\b|\bper\b|\bfor each\b)",
    re.I,
)
"""The total joined to a breakdown as a second thing asked ("June GMV for each channel and the
total", "orders by user type, and the total", "各区域GMV和全国GMV", "and Q2 total per channel",
"订单总数和各渠道订单数", "total and by channel")."""
_EACH_SAID = patterns.compile(vocab.SEPARATELY.pattern + r"|各|每个|\bper\b", re.I)
_METRIC = "\x00"
"""Where a catalog metric was named, in :func:`total_and_each`'s copy of the question."""
_JOINER = r"(?:[,，、&]|\band\b|\bplus\b|和|与|以及|及|跟|还有)"
_WHOLE_WORD = r"(?:总|整体|总体|全部|\btotal\b|\boverall\b)"
_GROUPED = r"(?:各|每个|分|按|\bby\b|\bfor each\b|\bper\b|\beach\b)"
_TOTAL_AND_EACH = patterns.compile(
    rf"{_WHOLE_WORD}\s*(?:的\s*)?{_METRIC}\s*{_JOINER}\s*(?:the\s+)?(?:{_METRIC}\s*)?{_GROUPED}"
    rf"|{_GROUPED}[^，,;；?？]*?{_METRIC}\s*{_JOINER}\s*(?:the\s+)?{_WHOLE_WORD}\s*(?:的\s*)?{_METRIC}",
    re.I,
)


def clauses(scan: Scan, split: re.Pattern[str] = _CLAUSE_SPLIT) -> list[tuple[int, int]]:
    """The question's clauses, as spans of its text, empty ones left out."""
    cuts = [0, *(m.end() for m in split.finditer(scan.norm)), len(scan.norm) + 1]
    return [(a, b) for a, b in itertools.pairwise(cuts) if scan.norm[a:b].strip(" ，,;；。?？！!")]


def each_then_best(scan: Scan, terms: Terms) -> bool:
    """Whether every group's value is asked and then which is best ("各区域的GMV，以及最高的是哪个"),
    not the best alone: the clause before holds the metric asked ("各区域中，GMV最高的是哪个" does not)."""
    m = _EACH_THEN_BEST.search(scan.norm)
    if m is None and len({x.member for x in terms.members if not x.excluded}) >= 2:
        m = _VALUES_THEN_WHICH.search(scan.norm)
    if m is None:
        return False
    sep = m.start("sep")
    return any(s < sep and not _CLAUSE_SPLIT.search(scan.norm, s, sep) for s, _ in scan.metrics)


_AND_SPLIT = patterns.compile(_CLAUSE_SPLIT.pattern + r"|\band\b", re.I)
"""Clauses, and English parts joined by "and" ("GMV by channel and the share of app")."""


def _clause_of(spans: list[tuple[int, int]], at: int) -> int:
    return next((i for i, (a, b) in enumerate(spans) if a <= at < b), -1)


def _members_after_their_breakdown(
    scan: Scan, terms: Terms, spans: list[tuple[int, int]], dims: Sequence[str]
) -> Iterator[tuple[str, set[int], list[Member]]]:
    """Each dimension said with a metric in a clause, whose members are named only in later
    clauses: the dimension, the members' clauses and the members."""
    if len(spans) < 2:
        return
    for dim in dims:
        said = [h.start for h in terms.hits if any(t.kind == "dimension" and t.target == dim for t in h.terms)]
        members = [m for m in terms.members if m.dimension == dim and not m.excluded]
        if not said or not members:
            continue
        first = _clause_of(spans, min(said))
        later = {_clause_of(spans, m.hit.start) for m in members}
        if any(_clause_of(spans, s) == first for s, _ in scan.metrics) and min(later) > first:
            yield dim, later, members


def each_then_a_share(scan: Scan, cues: Cues, terms: Terms) -> list[Member]:
    """ "各渠道的订单量，以及直播的占比", "orders by channel, and what share did live stream take?":
    every group's value, then one group's share — two asks, both answered by every group with its
    share. The group named after them is no filter (the other groups' rows would be dropped); it
    is returned. "各渠道中APP的GMV占比", one clause, is APP's share alone."""
    spans = clauses(scan, _AND_SPLIT) if cues.share else []
    shares = {_clause_of(spans, a) for a, _ in cues.spans.get("share", [])}
    for _, later, members in _members_after_their_breakdown(scan, terms, spans, terms.dims):
        if later <= shares:
            return members
    return []


def each_then_members(scan: Scan, terms: Terms) -> tuple[str, list[str]] | None:
    """ "各区域上个月GMV，以及华东比华南高多少", "GMV by region last month, and how much higher was
    East than South?", "各渠道6月GMV，以及APP和小程序哪个更高": every group's value, then something of
    groups named in a later clause — two questions; filtered to those groups, the others' rows
    would be dropped. The dimension and its members so named, to ask back; "…，只看APP和小程序"
    narrows, and a share is read (:func:`each_then_a_share`)."""
    spans = clauses(scan)
    dims = [*terms.dims, *sorted(terms.dims_naming_a_set)]  # "各区域…" and "所有区域…"
    for dim, later, members in _members_after_their_breakdown(scan, terms, spans, dims):
        if any(_ONLY.search(scan.norm, *spans[i]) for i in later):  # "…，只看APP和小程序" narrows
            continue
        if _candidates_of_which(scan, terms, dim, [spans[i] for i in later], members):
            continue
        return dim, list(dict.fromkeys(m.member for m in members))
    return None


def _candidates_of_which(
    scan: Scan, terms: Terms, dim: str, later: list[tuple[int, int]], members: list[Member]
) -> bool:
    """ "which channel had fewer orders last month, app or web?", "哪个渠道订单多，APP还是网页？": the
    members after a which-question of their dimension, alone in their clause, are its candidates."""
    which_before = any(
        _WHICH_BEFORE.search(scan.norm, 0, h.start) is not None
        for h in terms.hits
        if any(t.kind == "dimension" and t.target == dim for t in h.terms)
    )
    if not which_before:
        return False
    rest = [scan.norm[a:b] for a, b in later]
    for m in members:
        rest = [r.replace(scan.norm[m.hit.start : m.hit.end], " ") for r in rest]
    return all(_ONLY_JOINERS.fullmatch(r) for r in rest)


_WHICH_BEFORE = patterns.compile(rf"(?:{_WHICH})\s*$", re.I)
_ONLY_JOINERS = patterns.compile(
    r"[\s,，:：;；?？.。!！]*(?:(?:\bor\b|\band\b|\bvs\.?|还是|或者?|和|跟)[\s,，?？.。]*)*", re.I
)


def total_then_which(scan: Scan, terms: Terms, *, bounded: bool = False) -> bool:
    """ "上个月GMV多少，哪个区域最高", "上个月总GMV以及最高的区域", "total orders in May and which channel
    was the highest?", "what was last month's GMV, and the top region?": the total, then the group
    that ranks first — two questions; the ranking alone drops the total. "GMV最高是多少，哪个渠道" asks
    the top value and whose it is, "GMV和订单量最高的渠道" ranks by a second metric: one question; a
    first part that bounds (``bounded``: "环比增长超过5%，增长最多的3个品类") is no total."""
    m = _TOTAL_THEN_WHICH.search(scan.norm)
    if m is not None and _SUPERLATIVE_SAID.search(m.group("first")) is None:
        return True
    return not bounded and _total_then_best(scan, terms)


_TOTAL_THEN_BEST = patterns.compile(
    r"^(?P<first>[^；;?？]*?)\s*(?P<sep>[，,;；]\s*(?:and\s+)?|\band\b|以及|还有|并且|同时|和)\s*"
    rf"(?P<second>[^，,;；?？]*?(?:{_SUPERLATIVE}|{_WHICH})[^，,;；?？]*?)\s*[?？。.!！]*\s*$",
    re.I,
)


_VALUE_OR_TOTAL = patterns.compile(_VALUE_ASKED.pattern + r"|合计|一共|\boverall\b", re.I)
"""A value asked (:data:`_VALUE_ASKED`), or a total said in so many words."""


def _total_then_best(scan: Scan, terms: Terms) -> bool:
    """A first part that names a metric and nothing it is broken down by or filtered to, then a
    part that ranks groups by no metric but those (see :func:`total_then_which`)."""
    m = _TOTAL_THEN_BEST.search(scan.norm)
    if m is None or _SUPERLATIVE_SAID.search(m.group("first")):
        return False
    joined = m.group("sep").strip(" ，,;；") != ""  # "以及", ", and": a second thing asked
    if not joined and not _VALUE_OR_TOTAL.search(m.group("first")):
        return False  # "GMV上个月，哪个渠道最高": one ranking, said in two breaths
    sep, second = m.start("sep"), m.start("second")
    first = {t.target for h in terms.metric_hits if h.end <= sep for t in h.terms if t.kind == "metric"}
    later = {t.target for h in terms.metric_hits if h.start >= second for t in h.terms if t.kind == "metric"}
    grouped = [s for s, e in scan.terms if e <= sep and (s, e) not in scan.metrics]  # "各区域的GMV", "华东GMV"
    return bool(first) and not grouped and later <= first


def whole_then_a_member(scan: Scan, terms: Terms) -> str | None:
    """ "上个月GMV多少；app多少", "上个月的退款率，以及家电品类的退款率": a first clause that asks a
    metric of no member, then a clause that asks it of a member — the whole and the member, two
    figures; the member's filter would silently answer for both. The member as said, if so."""
    parts = clauses(scan)
    if len(parts) < 2 or not _only_metrics(scan, parts[0]):
        return None
    start, end = parts[0]
    named = {scan.norm[s:e] for s, e in scan.metrics if start <= s < end}
    asked = _VALUE_ASKED.search(scan.norm, start, end) is not None
    for m in terms.members:
        if m.excluded or m.hit.start < end:
            continue
        a, b = next((a, b) for a, b in parts if a <= m.hit.start < b)
        later = [scan.norm[s:e] for s, e in scan.metrics if a <= s < b]
        if (asked and (later or _VALUE_ASKED.search(scan.norm, a, b))) or named & set(later):
            return m.hit.text
    return None


_WHICH_PASS = patterns.compile(r"哪些|哪几个|哪几|哪个|\bwhich\b", re.I)
_ONLY = patterns.compile(r"只看|只要|只列|只留|仅|\bonly\b|\bjust\b", re.I)


def each_then_which_pass(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "上个月各渠道GMV，哪些超过500万", "各区域GMV是多少，哪几个超过800万": every group's value asked in
    a clause, then which of them pass a bound in the next — two answers; the bound alone drops the
    groups that fail it, so it is asked back. "各渠道GMV，只看超过500万的" keeps those that pass, and
    "各渠道中GMV超过500万的有哪些" asks no value first: one question each."""
    spans = cues.spans.get("threshold", [])
    if not spans:
        return
    start = min(a for a, _ in spans)
    cut = max((m.end() for m in _CLAUSE_SPLIT.finditer(scan.norm, 0, start)), default=None)
    if cut is None or _ONLY.search(scan.norm, cut) or not _WHICH_PASS.search(scan.norm, cut):
        return
    grouped = any(h.end <= cut and "dimension" in h.kinds for h in terms.hits)
    if grouped and any(e <= cut for _, e in scan.metrics):
        said = scan.text[cut:].strip(" ？?。")
        raise AmbiguousQuestion(*both("nlu.each_then_which_pass", said=said), detail={"reason": "each_then_which_pass"})


def total_and_each(scan: Scan) -> str | None:
    """ "上个月总GMV和各渠道GMV", "total GMV and GMV by channel", "各渠道GMV和总GMV": the total of a
    metric and the metric by group, joined as two things asked (the metric named between; what
    :data:`TOTAL_JOINED` cannot see, as it knows no metric). The words as said, if so."""
    masked = scan.norm
    for start, end in sorted(scan.metrics, reverse=True):
        masked = masked[:start] + _METRIC + masked[end:]
    m = _TOTAL_AND_EACH.search(masked)
    return None if m is None else m.group(0).replace(_METRIC, "…")


_TOTAL_SAID = patterns.compile(r"(?:总|一共|合计).*(?:多少|几)")
"""A total asked in so many words ("总GMV多少"); "total GMV last month, by channel" is the breakdown."""
_BY_BEFORE = patterns.compile(r"(?:按|分|\bby\b|\bper\b)\s*$", re.I)
_SPLIT_SAID = patterns.compile(r"拆|细分|分开|\bbreak(?:ing)?\s+(?:it\s+|that\s+)?down\b|\bsplit\b", re.I)


def whole_then_each(scan: Scan) -> bool:
    """ "6月新注册用户多少，各渠道分别多少", "上个月总GMV多少，按渠道拆一下": a first clause asking a
    metric's value, of nothing else, then a clause asking it of each group or splitting it — the
    total and each, two answers. A breakdown said
    after a comma with no value asked of it ("orders last month, per channel") is the question's."""
    parts = clauses(scan)
    if len(parts) < 2 or not _only_metrics(scan, parts[0]):
        return False
    start, end = parts[0]
    if not _VALUE_ASKED.search(scan.norm, start, end):
        return False
    grouped = [s for s, e in scan.terms if s >= end and (s, e) not in scan.metrics and (s, e) not in scan.members]
    each = _EACH_SAID.search(scan.norm, end) is not None and _value_asked_after(scan, end)
    split = _SPLIT_SAID.search(scan.norm, end) is not None  # "…多少，按渠道拆一下"
    total_then_by = _TOTAL_SAID.search(scan.norm, start, end) is not None and any(
        _BY_BEFORE.search(scan.norm, end, s) for s in grouped
    )  # "上个月总订单量多少，分区域看看"
    return bool(grouped) and (each or split or total_then_by)


def average_in_a_later_clause(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "去年全年GMV和订单量，以及月均GMV": an average said of a metric in a clause after metrics
    asked plain — their totals and one average, never every metric averaged. "上个月GMV，日均多少"
    averages the one metric said: no second metric follows the average."""
    if cues.average_per is None:
        return
    said = [(a, b) for key, spans in cues.spans.items() if key.startswith("average_per:") for a, b in spans]
    start, end = min(a for a, _ in said), max(b for _, b in said)
    plain = [h for h in terms.metric_hits if h.end <= start and _CLAUSE_SPLIT.search(scan.norm, h.end, start)]
    if plain and any(h.start >= start for h in terms.metric_hits):
        raise AmbiguousQuestion(
            *both(
                "nlu.average_in_a_later_clause", words=scan.text[start:end], metrics=", ".join(h.text for h in plain)
            ),
            detail={"words": scan.norm[start:end], "plain": [h.text for h in plain]},
        )


def _only_metrics(scan: Scan, clause: tuple[int, int]) -> bool:
    """A clause naming metrics and nothing else of the catalog (no member, no dimension)."""
    said = [(s, e) for s, e in scan.terms if clause[0] <= s < clause[1]]
    return bool(said) and all(span in scan.metrics for span in said)


def _value_asked_after(scan: Scan, start: int) -> bool:
    return _VALUE_ASKED.search(scan.norm, start) is not None or vocab.SEPARATELY.search(scan.norm, start) is not None


__all__ = [
    "TOTAL_JOINED",
    "average_in_a_later_clause",
    "clauses",
    "each_then_best",
    "total_then_which",
    "whole_then_a_member",
    "whole_then_each",
]
