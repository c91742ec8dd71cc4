"""A top N inside each group ("每个渠道GMV最高的2个品类", "top 2 categories in each region"): of
the two dimensions a ranking names, one is marked as the groups ("每个渠道", "各区域", "in each
region", "per channel") and the other is named right after the ranking words ("最高的2个品类",
"top 2 categories"). Anything less clear — both marked, neither, a third key — is left to be asked
back (within each group, or the combinations as a whole?)."""

from __future__ import annotations

import re

from baton import patterns
from baton.nlu.cues import Cues
from baton.nlu.reading import Terms
from baton.nlu.scan import Scan

_EACH = patterns.compile(
    r"(?:每一?个|各个?|每)\s*$|\b(?:each|every|per|for each|in each|within each|within every)\s+$", re.I
)
"""What marks a dimension as the groups inside which the ranking is taken."""
_RIGHT_AFTER = patterns.compile(r"[\s的]*")
"""What may stand between the ranking words and the dimension they rank ("前三的品类", "top 2 categories")."""


def ranked_within(scan: Scan, cues: Cues, terms: Terms) -> str | None:
    """The dimension inside whose groups the question's top N is taken, or None."""
    asked = cues.top_n is not None or (cues.best and not cues.several and not cues.both_ends)
    if not asked or cues.combination or cues.grain is not None or len(terms.dims) != 2:
        return None
    named = {h.terms[0].target: h for h in terms.hits if h.kinds == {"dimension"}}
    if set(named) != set(terms.dims):
        return None
    ends = [end for _, end in cues.spans.get("ranking", [])]
    ranked = [
        d
        for d, h in named.items()
        if any(end <= h.start and _RIGHT_AFTER.fullmatch(scan.norm[end : h.start]) for end in ends)
    ]
    each = [d for d, h in named.items() if _EACH.search(scan.norm, 0, h.start)]
    if len(ranked) != 1 or len(each) != 1 or ranked == each:
        return None
    return each[0]


def periods_ranked_within(scan: Scan, cues: Cues, terms: Terms) -> str | None:
    """The dimension inside whose groups the question ranks its periods ("每个渠道今年GMV最高的月份",
    "今年每个渠道GMV最高的是哪个月", "each channel's best month"): one dimension, marked as the groups,
    and the periods asked for by which ("哪个月", "月份") — the top period of each group."""
    asked = cues.top_n is not None or (cues.best and not cues.several and not cues.both_ends)
    if not asked or not cues.which_time or cues.combination or len(terms.dims) != 1:
        return None
    (dim,) = terms.dims
    hits = [h for h in terms.hits if h.kinds == {"dimension"} and h.terms[0].target == dim]
    marked = [h for h in hits if _EACH.search(scan.norm, 0, h.start) or _EACH_AFTER.match(scan.norm, h.end)]
    return dim if len(hits) == 1 and marked else None


_EACH_AFTER = patterns.compile(r"'s\b|\s+each\b", re.I)
"""English marks a group after it: "each channel's best month", "channels each"."""


_EACH_PERIOD = patterns.compile(r"^(?:每|各|逐)|\b(?:each|every|per)\b", re.I)
"""A grain said of each period ("每个月", "各季度", "each month", "per week"), not "按月" / "by month"
(a series of the top groups overall, or the top of each period? asked back)."""


def ranked_each_period(scan: Scan, cues: Cues, terms: Terms) -> bool:
    """Whether the question's top N is taken inside each period of its series ("每个月GMV最高的渠道",
    "top 2 categories by orders each month"): one dimension ranked, the grain said of each period."""
    asked = cues.top_n is not None or (cues.best and not cues.several and not cues.both_ends)
    if not asked or cues.grain is None or cues.which_time or cues.combination or cues.trend or len(terms.dims) != 1:
        return False
    said = cues.spans.get(f"grain:{cues.grain}", [])
    ranking = [start for start, _ in cues.spans.get("ranking", [])]
    # "每个月GMV最高的渠道": each period said before the ranking ("最低的2个品类每个月的GMV" is the lowest
    # two overall, month by month); English says it after ("the top 2 categories each month")
    placed = all(e <= min(ranking, default=0) or scan.text[s:e].isascii() for s, e in said)
    return bool(said) and placed and all(_EACH_PERIOD.search(scan.text[s:e]) for s, e in said)


__all__ = ["ranked_each_period", "ranked_within"]
