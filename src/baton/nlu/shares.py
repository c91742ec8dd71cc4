"""The whole a share is of, when the question names it with a member.

"新用户的订单中APP占比多少", "上个月华东地区里，新用户订单占比", "手机数码的GMV占华东GMV的比例",
"among new users, what percentage of orders came from the app", "what percentage of East China
GMV came from phones": members of two dimensions, one of them the whole (it filters both the
part and the whole) and the other the part. The words that mark the whole are a locative after
the member ("…中 / 里 / 当中", optionally after its dimension word and a metric), "占" before it,
and "among / within" — or "of" with a metric after the member — in English. Without such a
word two dimensions stay asked back: which one is the whole?
"""

from __future__ import annotations

import re

from baton.nlu.lexicon import Hit
from baton.nlu.reading import Member
from baton.nlu.scan import Scan

_INSIDE = re.compile(r"\s*(?:当中|之中|里面|中|里|内)")
_OF_ZH = re.compile(r"占\s*了?\s*$")
_AMONG = re.compile(r"\b(?:among|within|amongst)\s+(?:the\s+)?(?:all\s+)?$", re.I)
_OF_EN = re.compile(r"\bof\s+(?:the\s+)?(?:all\s+)?$", re.I)
_OWN = re.compile(r"\s*(?:'s|’s|')?\s*", re.I)
_LINK = re.compile(r"\s*的?\s*")


def whole_dimensions(scan: Scan, members: list[Member], hits: list[Hit]) -> set[str]:
    """The dimensions whose named members a marker makes the share's whole. "of X GMV" is the
    weaker marker: "the share of app orders among new users" is among new users."""
    strong: set[str] = set()
    weak: set[str] = set()
    for member in members:
        if member.excluded:
            continue
        marker = _marker(scan, member.hit, hits)
        if marker is not None:
            (strong if marker == "strong" else weak).add(member.dimension)
    return strong or weak


def _marker(scan: Scan, hit: Hit, hits: list[Hit]) -> str | None:
    before = scan.norm[: hit.start]
    if _OF_ZH.search(before) or _AMONG.search(before):
        return "strong"
    end = _past_attached(scan, hit.end, hits, kinds={"dimension"})
    after_metric = _past_attached(scan, end, hits, kinds={"metric"})
    if any(_INSIDE.match(scan.norm, at) is not None for at in {end, after_metric}):
        return "strong"
    if _OF_EN.search(before) and after_metric > end:  # "of East China GMV": the member's metric
        return "weak"
    return None


def _past_attached(scan: Scan, at: int, hits: list[Hit], *, kinds: set[str]) -> int:
    """Past a term of ``kinds`` right after ``at`` ("华东" + "地区", "新用户" + "的订单")."""
    link = _OWN.match(scan.norm, at) if scan.norm[at : at + 1] in {"'", "’"} else _LINK.match(scan.norm, at)
    start = link.end() if link else at
    nxt = next((h for h in hits if h.start == start and h.kinds & kinds), None)
    return nxt.end if nxt is not None else at
