"""Which metric a ranking ranks by, when a question names several.

"orders for the top 2 channels by AOV" shows orders of the two channels with the highest AOV;
"上个月笔单价最高的两个渠道的订单量" the same. The compiler ranks by a query's first metric, so the
metric the ranking words are attached to is put first; the words that attach it are "by X",
"highest X", "按X", "X最高 / X前三 / X排名". A ranking whose metric cannot be told ("GMV和订单量最高的
3个渠道", "rank channels, GMV and orders") is asked back rather than ranked by whichever metric
came first.
"""

from __future__ import annotations

import re

from baton import patterns
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues
from baton.nlu.lexicon import Hit, normalise
from baton.nlu.scan import Scan

_RANKED_AFTER = patterns.compile(
    r"\s*的?\s*(?:最高|最低|最大|最小|最多|最少|最好|最差|前\s*[0-9一二两三四五六七八九十]|后\s*[0-9一二两三四五六七八九十]"
    r"|倒数|排名|排行|排序|从高到低|从低到高|由高到低|由低到高|第\s*(?:\d+|[一二两三四五六七八九十])\s*(?:高|低|大|小|多|少|名|位))"
    r"|\s+(?:(?:is|was|are|were)\s+)?(?:the\s+)?(?:best|worst|highest|lowest|most|least|fewest|largest|smallest|biggest)\b",
    re.I,
)
"""Ranking words right after a metric ("GMV最高的", "converts best", "whose refund rate is lowest")."""
_RANKED_BEFORE = patterns.compile(
    r"(?:按照|按|根据|以)\s*$"
    r"|\bby\s+(?:the\s+)?$"
    r"|(?<!\bat )\b(?:highest|lowest|largest|smallest|biggest|most|least|fewest|best|worst|top|bottom)\s+(?:\d+\s+)?$",
    re.I,
)


def ranking_metric(scan: Scan, hits: list[Hit], metrics: list[str]) -> str | None:
    """The one metric of ``metrics`` the ranking words attach to; ``None`` when no single one
    does (none, several, or one in a list of metrics: "by GMV and orders")."""
    attached: dict[str, Hit] = {}
    for hit in hits:
        named = [t.target for t in hit.terms if t.kind == "metric" and t.target in metrics]
        before, after = scan.norm[: hit.start], scan.norm[hit.end :]
        if named and (_RANKED_BEFORE.search(before) or _RANKED_AFTER.match(after)):
            attached.setdefault(named[0], hit)
    if len(attached) != 1:
        return None
    ((metric, hit),) = attached.items()
    listed = any(
        other is not hit
        and (
            vocab.LIST_JOIN.match(scan.norm[other.end : hit.start])
            or vocab.LIST_JOIN.match(scan.norm[hit.end : other.start])
        )
        for other in hits
    )
    return None if listed else metric


def ranks(cues: Cues) -> bool:
    """Whether the question ranks (top/bottom N, best/worst, "rank …")."""
    return cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank


_N_WORD = r"(?:\d+|[一二两三四五六七八九十])"
_RANKING_INSIDE_RANKING = patterns.compile(
    rf"(?:前|最[高低多少大小好差]的?)\s*{_N_WORD}\s*[个名位家]?[^，。？?]{{0,12}}?(?:里|中|当中|之中|里面)"
    r"[^，。？?]{0,8}?(?:哪个|哪一个|哪些|谁)[^，。？?]{0,6}?最[高低多少大小好差]?"
    r"|\b(?:top|bottom)[- ]?\d+[^?.!]{0,40}?\b(?:which|who)\b[^?.!]{0,30}?\b(?:the )?"
    r"(?:lowest|highest|least|most|smallest|largest|biggest|fewest|worst|best)\b",
    re.I,
)
"""A ranking asked inside a ranking ("GMV最高的5个区域里哪个最低", "of the top 5 regions, which
is the lowest"): one query ranks once, so the second superlative would be dropped."""


def check_ranking_inside_ranking(question: str) -> None:
    """Ask back a superlative asked among the groups another ranking picked."""
    found = _RANKING_INSIDE_RANKING.search(normalise(question))
    if found is not None:
        phrase = question[found.start() : found.end()]
        raise AmbiguousQuestion(*both("nlu.ranking_inside_ranking", phrase=phrase), detail={"reason": "two_rankings"})
