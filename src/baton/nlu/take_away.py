"""A follow-up that only takes a part away from the previous question ("去掉同比", "不分月，给个总数",
"不按渠道分", "全部列出来", "不要占比", "去掉同比，只看上个月", "no need to split by month, just the
total", "drop the comparison"): the previous question asked again without that part.

Every clause must take away a part the previous question has, as the clause names it — the
comparison of the kind said (同比 is not 环比), the grain said, a breakdown by a dimension it was
broken down by, a ranking, a share — or name its own period ("只看上个月" after "上个月GMV同比").
Each clause is read against the question as the clauses before it left it. Anything else is not
read here, and the follow-up is read as any other, where what is not understood is asked back:
a part the previous question does not have, a word that fits two of its dimensions, a total of
ranked groups (the rows listed, or all of them?), a money word beside a count, a clause that
undoes another ("全部列出来，不按品类分"), or what would leave a ranking with nothing to rank.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from pydantic import ValidationError

from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.follow_parts import dropped_parts

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
    made only of such clauses, or one of them takes away nothing the question before it has."""
    if not _plain(parent):
        return None
    whole = put_back_said(question)  # "add live stream and web back": one clause
    if whole is not None:
        update = _taken(whole.groupdict(), parent, catalog, as_of)
        back = _rebuilt(parent, update) if update is not None else None
        if back is not None:
            return back
    clauses = [c for c in vocab.TAKE_AWAY_BREAK.split(question.strip()) if c.strip()]
    said = [vocab.TAKE_AWAY.fullmatch(clause) for clause in clauses]
    if not said or any(s is None for s in said):
        return None
    groups = [s.groupdict() for s in said if s is not None]
    if _undoes_itself(groups):
        return None
    query = parent
    for group in groups:
        update = _taken(group, query, catalog, as_of)
        after = _rebuilt(query, update) if update is not None else None
        if after is None and not _said_again(group, parent, query, catalog, as_of):
            return None
        query = after or query
    return query if query is not parent else None


def put_back_said(question: str) -> re.Match[str] | None:
    """``question`` read whole as a put-back ("把直播和小程序加回来", "add live stream and web back"), or ``None``."""
    said = vocab.TAKE_AWAY.fullmatch(question.strip())
    return said if said is not None and said.group("put_back") else None


def taken_first(
    question: str, parent: SemanticQuery, catalog: Catalog, as_of: date
) -> tuple[SemanticQuery, str] | None:
    """ "去掉同比，那天各渠道分别多少": ``parent`` without the parts the leading clauses take away, and
    the rest of ``question`` (to be read as a follow-up of that); ``None`` when no clause leads
    that way, or nothing is left after them (:func:`taken_away` reads that)."""
    said = [vocab.TAKE_AWAY.fullmatch(c) for c in vocab.TAKE_AWAY_BREAK.split(question.strip()) if c.strip()]
    if _undoes_itself([s.groupdict() for s in said if s is not None]):
        return None  # asked back as said whole
    ends = [m.end() for m in vocab.TAKE_AWAY_BREAK.finditer(question)]
    for end in reversed(ends):  # the longest run of leading clauses that all take something away
        head, rest = question[:end], question[end:].strip()
        without = taken_away(head, parent, catalog, as_of) if rest else None
        if without is not None:
            return without, rest
    return None


def _undoes_itself(groups: list[dict[str, str | None]]) -> bool:
    """ "全部列出来，不按品类分": every row, and no rows?"""
    return any(g["every_row"] for g in groups) and any(g["breakdown"] or g["total"] for g in groups)


def _said_again(
    said: dict[str, str | None], parent: SemanticQuery, query: SemanticQuery, catalog: Catalog, as_of: date
) -> bool:
    """A clause that takes away again what a clause before it took ("不分月，给个总数", "去掉同比，只看
    上个月"): it would have taken only parts of ``parent`` that ``query`` no longer has."""
    update = _taken(said, parent, catalog, as_of)
    alone = _rebuilt(parent, update) if update is not None else None
    return alone is not None and set(dropped_parts(parent, alone)) <= set(dropped_parts(parent, query))


def _plain(parent: SemanticQuery) -> bool:
    """A previous question of the shapes a part can be taken from without leaving another part
    without its footing (no why, bound, ratio, premise, average or raw query parts; a gap of two
    members only loses its groups: "老用户比新用户多多少" then "给个合计")."""
    return not (
        parent.intent == "why"
        or parent.threshold is not None
        or parent.gap_of_the_ends
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


def _taken(said: dict[str, str | None], query: SemanticQuery, catalog: Catalog, as_of: date) -> dict[str, Any] | None:
    """What one clause changes of ``query``; ``None`` when it takes away nothing ``query`` has. A
    filter taken away from a question with none, or "the filter" of two, is asked back (raised)."""
    if query.difference:  # a gap of two members: only its groups go ("给个合计"), and the gap with them
        update = _taken(said, query.model_copy(update={"difference": False}), catalog, as_of)
        gone = update is not None and not update.get("dimensions", query.dimensions)
        return update | {"difference": False} if update is not None and gone else None
    if said["comparison"]:
        return {"comparison": None} if _comparison_said(said, query) else None
    if said["grain"]:
        grain = vocab.TAKE_AWAY_GRAINS[(said["g"] or said["g_en"] or said["g_adv"] or "").lower()]
        if query.grain != grain or query.each_period_before or query.rank_each_period or query.ranked:
            return None  # another grain, each period against its own, or a ranking of the periods
        return {"grain": None}
    if said["breakdown"]:
        named = said["dim"] or said["dim_away"] or said["dim_en"]
        dims = _dimensions_named(named, query, catalog) if named else query.dimensions
        if not dims:
            return None
        kept = tuple(d for d in query.dimensions if d not in dims)
        return {"dimensions": kept} | ({} if kept else _RANKING | _SHARE)
    if said["total"]:  # the groups summed; a series of groups stays a series ("上周各渠道每天的GMV", "合计呢")
        if query.ranked or (said["total_money"] and not _money(query, catalog)):
            return None  # the rows listed summed, or all of them? / "总额" of a count
        if query.dimensions:
            return {"dimensions": ()} | _SHARE
        return {"grain": None} if query.grain is not None and not query.each_period_before else None
    if said["every_row"]:
        return _RANKING if query.ranked and query.dimensions else None
    if said["share"]:
        money = said["share_money"] or said["share_money_en"]
        return _SHARE if query.share and (not money or _money(query, catalog)) else None
    if said["metric_away"]:  # "去掉订单量", "drop orders": one of several metrics, the rest kept
        away = _metrics_named(said["metric_away"], query, catalog)
        left = tuple(m for m in query.metrics if m not in away)
        return {"metrics": left} if away and left and not query.ranked and query.threshold is None else None
    if said["filter"]:  # "去掉筛选", "remove the filter": every member kept or left out, no longer
        every = said["all_zh"] or said["all_en"] or said["filters"]
        if not query.filters:  # "去掉筛选" of a question with none: said so, never "not about the data"
            raise AmbiguousQuestion(*both("conversation.no_filter_to_remove"), detail={"follow_up": True})
        if query.share_filters:
            return None
        if not every and len({f.dimension for f in query.filters}) > 1:  # "the filter" of two: which one?
            raise _which_filter(query, catalog)
        return {"filters": ()}
    if said["put_back"]:  # "把直播加回来", "add live stream back": a member left out, kept again
        word = next(w for w in (said[k] for k in vocab.PUT_BACK_WORDS) if w)
        return _put_back(word, query, catalog)
    if said["only"] and said["period"]:
        period = timeexpr.parse_time_range(said["period"], as_of)
        whole = period is not None and period.span == (0, len(said["period"].strip()))
        same = period is not None and (period.start, period.end) == (query.time_range.start, query.time_range.end)
        return {"comparison": None} if whole and same and _comparison_said({}, query) else None
    return None


def _which_filter(query: SemanticQuery, catalog: Catalog) -> AmbiguousQuestion:
    """ "remove the filter" after "华东APP的GMV": the region's, the channel's, or both? Asked."""
    labels = {
        lang: message("answer.and_sep", lang).join(
            dict.fromkeys(catalog.dimensions[f.dimension].label.for_lang(lang) for f in query.filters)
        )
        for lang in LANGUAGES
    }
    return AmbiguousQuestion(
        *(message("conversation.which_filter", lang, dimensions=labels[lang]) for lang in LANGUAGES),
        detail={"follow_up": True, "dimensions": [f.dimension for f in query.filters]},
    )


def _comparison_said(said: dict[str, str | None], query: SemanticQuery) -> bool:
    """Whether ``query`` has the comparison the clause names (同比 only a year-on-year one), and
    may lose it: a ranking by the change keeps its comparison (what would it rank by?)."""
    if query.comparison is None or query.rank_by != "value":
        return False
    word = (said.get("cmp_zh") or said.get("cmp_en") or "").lower()
    kind = vocab.TAKE_AWAY_COMPARISONS.get(word)
    return kind is None or kind == query.comparison.kind


def _money(query: SemanticQuery, catalog: Catalog) -> bool:
    """Every metric is money: "金额" / "amounts" names its value, never a count's."""
    return all(catalog.metrics[m].unit == "currency" for m in query.metrics)


def _dimensions_named(word: str, query: SemanticQuery, catalog: Catalog) -> tuple[str, ...]:
    """The one dimension of ``query``'s breakdown ``word`` names by key, label or synonym; none
    when it names none, or two (which one is not guessed)."""
    said = word.strip().lower()
    found = []
    for key in query.dimensions:
        dim = catalog.dimensions[key]
        names = {key.lower(), dim.label.zh, dim.label.en.lower(), *(s.lower() for s in dim.synonyms)}
        names |= {n + "s" for n in names if n.isascii()}
        if said in names:
            found.append(key)
    return tuple(found) if len(found) == 1 else ()


def _metrics_named(word: str, query: SemanticQuery, catalog: Catalog) -> tuple[str, ...]:
    """The one metric of ``query`` ``word`` names by key, label or synonym; none when it names none."""
    said = word.strip().lower()
    found = [
        key
        for key in query.metrics
        if said
        in {
            key.lower(),
            catalog.metrics[key].label.zh.lower(),
            catalog.metrics[key].label.en.lower(),
            *(s.lower() for s in catalog.metrics[key].synonyms),
        }
    ]
    return tuple(found) if len(found) == 1 else ()


def _put_back(word: str, query: SemanticQuery, catalog: Catalog) -> dict[str, Any] | None:
    """``query``'s filters with the member ``word`` names no longer left out (every member left
    out, for "都" / "them"); ``None`` when ``word`` names no member ``query`` leaves out, or
    "it" of several."""
    left_out = [(f, m) for f in query.filters if f.exclude for m in f.members]
    said = word.strip().lower()
    if vocab.PUT_BACK_ALL.fullmatch(said):
        found = left_out
    elif vocab.PUT_BACK_ONE.fullmatch(said):
        found = left_out if len(left_out) == 1 else []
    else:  # "把直播和小程序加回来": each word one member left out ("phones & digital" whole first)
        found = []
        one = sum(said in _member_names(catalog, f.dimension, m) for f, m in left_out) == 1
        for name in [said] if one else vocab.PUT_BACK_JOIN.split(said):
            named = [(f, m) for f, m in left_out if name.strip() in _member_names(catalog, f.dimension, m)]
            if len(named) != 1:
                return None
            found += named
    if not found:
        return None
    back = {(f.dimension, m) for f, m in found}
    filters = []
    for flt in query.filters:
        kept = tuple(m for m in flt.members if (flt.dimension, m) not in back) if flt.exclude else flt.members
        if kept:
            filters.append(flt.model_copy(update={"members": kept}))
    return {"filters": tuple(filters)}


def _member_names(catalog: Catalog, dimension: str, key: str) -> set[str]:
    """How a question names one member: key, labels, synonyms, alone or with the dimension's name
    ("直播", "直播渠道", "the live stream channel")."""
    dim = catalog.dimensions[dimension]
    member = dim.members.get(key)
    names = {key.lower()}
    if member is not None:
        names |= {member.label.zh, member.label.en.lower(), *(s.lower() for s in member.synonyms)}
    dims = {dim.label.zh, dim.label.en.lower(), *(s.lower() for s in dim.synonyms)}
    joined = {n + d if not n.isascii() or not d.isascii() else f"{n} {d}" for n in names for d in dims}
    return names | joined | {n + "s" for n in joined if n.isascii()}


def _rebuilt(query: SemanticQuery, update: dict[str, Any]) -> SemanticQuery | None:
    """``query`` with ``update``. The intent is read again from what is left, as the planner
    reads it from a question (a comparison, a ranking, a share, a series, a breakdown or one
    value): the old one may name a part taken away. ``None`` when the result is no valid
    question, or a ranking is left with nothing to rank."""
    data = query.model_dump() | update | {"corrections": ()}
    ranked = data["top_n"] is not None or data["rank_place"] is not None
    ranked = ranked or (query.intent == "ranking" and "top_n" not in update)
    if ranked and not data["dimensions"] and data["grain"] is None:
        return None
    shapes = (
        (data["comparison"] is not None and not ranked, "comparison"),
        (ranked, "ranking"),
        (data["share"], "share"),
        (data["grain"] is not None, "trend"),
        (bool(data["dimensions"]), "breakdown"),
    )
    data["intent"] = next((intent for holds, intent in shapes if holds), "value")
    try:
        return SemanticQuery.model_validate(data)
    except ValidationError:
        return None


__all__ = ["put_back_said", "taken_away", "taken_first"]
