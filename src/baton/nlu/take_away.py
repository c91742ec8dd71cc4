"""A follow-up that only takes a part away from the previous question ("去掉同比", "不分月，给个总数",
"不按渠道分", "全部列出来", "不要占比", "去掉同比，只看上个月", "no need to split by month, just the
total", "drop the comparison"): the previous question asked again without that part.

Every clause must take away a part the previous question has — a comparison, a grain, a breakdown
by a dimension it was broken down by, a ranking, a share — or name its own period ("只看上个月"
after "上个月GMV同比"). Anything else (a clause Baton cannot place, a part the previous question
does not have, a shape where taking one part away leaves another without its footing) is not
read here: the follow-up is then read as any other, where what is not understood is asked back.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from pydantic import ValidationError

from baton.catalog.model import Catalog
from baton.contracts.semantic import SemanticQuery
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab

_RANKING: dict[str, Any] = {
    "top_n": None,
    "rank_place": None,
    "listed": None,
    "rank_within": (),
    "rank_each_period": False,
    "rank_by": "value",
    "order": "desc",
}
_SHARE: dict[str, Any] = {"share": False}


def taken_away(question: str, parent: SemanticQuery, catalog: Catalog, as_of: date) -> SemanticQuery | None:
    """``parent`` without the parts ``question`` takes away, or ``None`` when ``question`` is not
    made only of such clauses, or one of them takes away nothing ``parent`` has."""
    if not _plain(parent):
        return None
    clauses = [c for c in vocab.TAKE_AWAY_BREAK.split(question.strip()) if c.strip()]
    update: dict[str, Any] = {}
    for clause in clauses:
        said = vocab.TAKE_AWAY.fullmatch(clause)
        if said is None:
            return None
        part = _taken(said.groupdict(), parent, catalog, as_of)
        if part is None:
            return None
        update |= part
    if not update:
        return None
    return _rebuilt(parent, update)


def _plain(parent: SemanticQuery) -> bool:
    """A previous question of the shapes a part can be taken from without leaving another part
    without its footing (no why, bound, gap, ratio, premise, average or raw query parts)."""
    return not (
        parent.intent == "why"
        or parent.threshold is not None
        or parent.difference
        or parent.ratio
        or parent.premise is not None
        or parent.premise_asked is not None
        or parent.asked_member is not None
        or parent.average_per is not None
        or parent.share_filters
        or parent.share_within
        or parent.where
        or parent.order_by
        or parent.limit is not None
    )


def _taken(said: dict[str, str | None], parent: SemanticQuery, catalog: Catalog, as_of: date) -> dict[str, Any] | None:
    """What one clause changes of ``parent``; ``None`` when it takes away nothing ``parent`` has."""
    ranked = parent.top_n is not None or parent.rank_place is not None or parent.intent == "ranking"
    if said["comparison"]:  # a ranking by the change keeps its comparison: what would it rank by?
        return {"comparison": None} if parent.comparison is not None and parent.rank_by == "value" else None
    if said["grain"]:
        if parent.grain is None or parent.each_period_before or parent.rank_each_period:
            return None
        return {"grain": None}
    if said["breakdown"]:
        named = said["dim"] or said["dim_away"] or said["dim_en"]
        dims = _dimensions_named(named, parent, catalog) if named else parent.dimensions
        if not dims:
            return None
        kept = tuple(d for d in parent.dimensions if d not in dims)
        return {"dimensions": kept} | ({} if kept else _RANKING | _SHARE)
    if said["total"]:  # the groups summed; a series of groups stays a series ("上周各渠道每天的GMV", "合计呢")
        if parent.dimensions:
            return {"dimensions": ()} | _RANKING | _SHARE
        if parent.grain is None or parent.each_period_before:
            return None
        return {"grain": None} | _RANKING
    if said["every_row"]:
        return _RANKING if ranked and parent.dimensions else None
    if said["share"]:
        return _SHARE if parent.share else None
    if said["only"] and said["period"]:
        period = timeexpr.parse_time_range(said["period"], as_of)
        whole = period is not None and period.span == (0, len(said["period"].strip()))
        same = period is not None and (period.start, period.end) == (parent.time_range.start, parent.time_range.end)
        dropped = whole and same and parent.comparison is not None and parent.rank_by == "value"
        return {"comparison": None} if dropped else None
    return None


def _dimensions_named(word: str, parent: SemanticQuery, catalog: Catalog) -> tuple[str, ...]:
    """The dimensions of ``parent``'s breakdown ``word`` names by key, label or synonym."""
    said = word.strip().lower()
    found = []
    for key in parent.dimensions:
        dim = catalog.dimensions[key]
        names = {key.lower(), dim.label.zh, dim.label.en.lower(), *(s.lower() for s in dim.synonyms)}
        names |= {n + "s" for n in names if n.isascii()}
        if said in names:
            found.append(key)
    return tuple(found)


def _rebuilt(parent: SemanticQuery, update: dict[str, Any]) -> SemanticQuery | None:
    """``parent`` with ``update``, its intent read again from what is left; ``None`` when the
    result is no valid question."""
    data = parent.model_dump() | update | {"corrections": ()}
    ranked = data["top_n"] is not None or data["rank_place"] is not None
    ranked = ranked or (parent.intent == "ranking" and "top_n" not in update and bool(data["dimensions"]))
    data["intent"] = (
        "comparison"
        if data["comparison"] is not None and not ranked
        else "ranking"
        if ranked
        else "share"
        if data["share"]
        else "trend"
        if data["grain"] is not None
        else "breakdown"
        if data["dimensions"]
        else "value"
    )
    try:
        return SemanticQuery.model_validate(data)
    except ValidationError:
        return None


__all__ = ["taken_away"]
