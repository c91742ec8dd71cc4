"""The rules a follow-up's merge applies: what must be asked in one question, what a place, a
bound or a why said after the previous answer means, and the checks the merged query passes —
each small, named, and asked back when it cannot apply, never guessed."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.semantic import Comparison, Grain, MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.errors import AmbiguousQuestion, InvalidInput
from baton.messages import both
from baton.nlu import vocabulary as vocab
from baton.nlu.bounds import threshold_of
from baton.nlu.catalog_checks import check_share_compared
from baton.nlu.cues import Cues
from baton.nlu.guards import check_place_among_members, check_ranking_of_one_period
from baton.nlu.lexicon import Hit
from baton.nlu.parser import Planner
from baton.nlu.ranking import ranking_metric
from baton.nlu.ties import Reading

ALL_GROUPS = patterns.compile(vocab.ALL_OF_THEM.pattern + r"|每个|各个|\bevery\b|\beach\b", re.I)
"""Every group said of the breakdown a ranking was over: the ranking goes, every group is shown."""


def check_metric_or_member(catalog: Catalog, metric_hits: Sequence[Hit]) -> None:
    """ "GMV by channel" then "what about new users": the metric new users, or the GMV of new
    users? When the follow-up's only metric words also name a member, asked back."""
    double = [h for h in metric_hits if {"metric", "member"} <= h.kinds]
    if not double or len(double) != len(metric_hits):
        return
    hit = double[0]
    metric = next(t.target for t in hit.terms if t.kind == "metric")
    dimension, _, member = next(t.target for t in hit.terms if t.kind == "member").partition(":")
    labels = {
        lang: (catalog.metrics[metric].label.for_lang(lang), catalog.member_label(dimension, member, lang))
        for lang in ("en", "zh")
    }
    raise AmbiguousQuestion(
        *both(
            "conversation.metric_or_member",
            said=hit.text,
            metric=labels["en"][0],
            member=labels["en"][1],
            metric_zh=labels["zh"][0],
            member_zh=labels["zh"][1],
        ),
        detail={"metric": metric, "member": f"{dimension}:{member}", "follow_up": True},
    )


def place_of_the_previous_rows(parent: SemanticQuery, r: Reading) -> str | None:
    """ "GMV排名" then "第三名的订单量呢", "排第一的那个渠道退款率多少", "the bottom one's orders?",
    "最低的那个为什么下降了": a place said of the rows the previous answer listed, with another
    metric (or a why) not ranked by it, is that row's figure — never a new ranking by the other
    metric or the whole's why; the words that say the place are returned (``None``: no such
    place). "订单量最高的呢" ranks by orders."""
    cues, terms = r.cues, r.terms
    placed = cues.top_n is not None or cues.rank_place is not None or cues.best or bool(cues.spans.get("ranking"))
    listed = bool(parent.dimensions) or parent.grain is not None
    other = bool(terms.metrics) and tuple(terms.metrics) != parent.metrics
    # "最高的那个品类上上周是多少": that one, the highest listed, in another period — not "which is highest then?"
    with_the = vocab.THE_ONE_WITH.search(r.scan.norm)  # "what is the refund rate of the one with the lowest GMV"
    the_one = vocab.THE_PLACED_ONE.search(r.scan.norm) is not None and (
        with_the is not None or not vocab.WHICH_ASKED.search(r.scan.norm)
    )
    if not (placed and listed and (other or cues.why or the_one)):
        return None
    # "which one converts best?" ranks by the metric; "is the bottom one's refund rate the highest?"
    # asks of the row placed (its superlative is the claim of the yes/no, never a new ranking)
    ranked_by = ranking_metric(r.scan, terms.metric_hits, list(terms.metrics))
    if with_the is not None:  # the metric right after "the one with the lowest" is what the rows are placed by
        after = [
            h
            for h in terms.metric_hits
            if h.start >= with_the.end() and not r.scan.norm[with_the.end() : h.start].strip()
        ]
        ranked_by = next((t.target for h in after[:1] for t in h.terms if t.kind == "metric"), ranked_by)
    # "refund rate of the one with the lowest GMV": the row listed by GMV, never a ranking by refund rate
    # (the rows listed are placed by the first metric shown: "退款率最低的那个" after GMV and refund rate
    # by channel ranks by refund rate anew)
    of_the_listed = the_one and ranked_by is not None and ranked_by == parent.metrics[0] and other
    if not cues.why and not cues.yes_no and ranked_by is not None and not of_the_listed:
        return None
    if not cues.why and _switched_then_ranked(r):  # "订单量呢，哪个月最低": a new ranking by orders
        return None
    spans = sorted(cues.spans.get("ranking", []))  # the place's words, never the "what" asking of the row
    return (
        " ".join(r.scan.text[s:e] for s, e in spans if not vocab.WHICH_ASKED.fullmatch(r.scan.text[s:e])) or r.scan.text
    )


def _switched_then_ranked(r: Reading) -> bool:
    """ "订单量呢，哪个月最低", "AOV呢 哪个最高", "what about orders? which month was lowest": the metric
    switched to in a clause of its own, then a ranking asked — of the new metric, not a row listed."""
    ranking = r.cues.spans.get("ranking", [])
    hits = r.terms.metric_hits
    if not ranking or not hits:
        return False
    first_ranked, last_metric = min(s for s, _ in ranking), max(h.end for h in hits)
    return last_metric <= first_ranked and _SWITCH_ENDS.search(r.scan.norm, last_metric, first_ranked) is not None


_SWITCH_ENDS = patterns.compile(r"呢|[，,;；?？]")
"""Where the clause that switches the metric ends ("订单量呢，…", "what about orders? …")."""


def still_why(parent: SemanticQuery, r: Reading) -> bool:
    """A follow-up to a why that only moves its scope — a filter, a metric, a period ("only East
    China", "and for orders?", "那5月呢") — asks the same why of the new scope; one that asks for a
    breakdown, a ranking, a share, a series or a total asks for figures."""
    cues = r.cues
    figures = cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank or cues.share
    figures = figures or cues.breakdown or cues.grain is not None or cues.trend or cues.total or bool(r.terms.dims)
    return parent.intent == "why" and not figures and cues.comparison_kind is None


def each_of_one_member(
    r: Reading, filters: list[MemberFilter], dims: list[str], grain: Grain | None, metrics: tuple[str, ...]
) -> None:
    """ "新用户的AOV", "老用户的呢", then "what's the AOV for each?" (or "都比5月高吗" after one member): each
    of which members? asked, never the last one alone. Of several metrics ("华东的GMV和订单量" then "去年同期
    分别是多少") each is a metric."""
    one_member = any(len(f.members) == 1 and not f.exclude for f in filters)
    each = r.cues.separately and len(metrics) == 1
    every = r.cues.yes_no and "都" in r.scan.norm  # "app的GMV" then "都比5月高吗": all of what?
    if (each or every) and not dims and grain is None and not r.terms.members and one_member:
        raise AmbiguousQuestion(*both("conversation.breakdown_of_what"), detail={"missing": "breakdown"})


def every_group_after_one(r: Reading, parent: SemanticQuery, comparison: Comparison | None, groups: bool) -> bool:
    """ "哪个区域GMV环比下降最多" then "都比5月低吗": a yes/no of every (or any) group after a ranking that
    picked one group (or ranked by the change) asks of every group; after "最高的3个区域" 都 means those 3."""
    cues = r.cues
    asked = cues.yes_no and (cues.every or cues.any_group) and cues.premise is not None
    one = parent.top_n == 1 or parent.rank_place is not None or parent.rank_by != "value"
    return asked and one and comparison is not None and groups


def member_placed(
    r: Reading, filters: list[MemberFilter], comparison: Comparison | None, *, share: bool
) -> MemberFilter | None:
    """ "各区域GMV" then "华南排第几" / "where does web rank?": the filter of the one member named this turn
    whose place is asked — ranked among its own dimension's members, as the question alone would be."""
    named = [m for m in r.terms.members if not m.excluded]
    first = r.cues.yes_no and r.cues.best and r.cues.top_n is None and r.cues.rank_place is None  # "is app the best?"
    if not (r.cues.place_asked or first) or comparison is not None or share or len(named) != 1:
        return None
    member = named[0]
    return next((f for f in filters if f.dimension == member.dimension and f.members == (member.member,)), None)


def verdict_asked(cues: Cues, parent: SemanticQuery, comparison: Comparison | None) -> bool:
    """ "Q2各品类GMV同比" then "都涨了吗": the same comparison, now with a direction asked of it — a
    verdict the previous answer did not give, not a question that changes nothing."""
    asked = cues.yes_no and cues.premise is not None and (cues.every or cues.any_group or not parent.dimensions)
    return asked and comparison is not None and parent.premise_asked is None


def still_within(
    parent: SemanticQuery,
    dims: Sequence[str],
    top_n: int | None,
    place: int | None,
    comparison: Comparison | None,
    grain: Grain | None,
    share: bool,
) -> tuple[str, ...]:
    """The groups a top N is still taken inside ("每个渠道GMV最高的2个品类" then "那订单量呢"): kept
    while the follow-up keeps both keys and a plain top N; () otherwise (then asked back)."""
    keys = set(parent.rank_within) < set(dims) and len(dims) == len(parent.dimensions)
    plain = top_n is not None and place is None and comparison is None and grain is None and not share
    return parent.rank_within if parent.rank_within and keys and plain else ()


@dataclass(frozen=True)
class FloorScope:
    """What a follow-up asks for that a bound said before must fit: its metrics, groups, series,
    filters and period."""

    metrics: tuple[str, ...]
    dims: Sequence[str]
    grain: Grain | None
    filters: Sequence[MemberFilter]
    time_range: TimeRange


def floor_kept(parent: SemanticQuery, child: FloorScope) -> bool:
    """ "订单量超过8000的品类中退款率最高的2个" then "那今年2月呢": a bound on another metric than the one
    listed or ranked (a floor) goes on while the follow-up keeps both metrics, the groups, the
    filters and a period as long — "按渠道呢", "那华东呢", "上周呢" (the channels', East China's or a
    week's orders above 8000, or the categories' as they were?) are asked back."""
    bound = parent.threshold
    days = (parent.time_range.end - parent.time_range.start).days
    child_days = (child.time_range.end - child.time_range.start).days
    return (
        bound is not None
        and bound.check == "keep"
        and bound.of == "value"
        and bound.metric != parent.metrics[0]
        and tuple(child.metrics) == tuple(parent.metrics)
        and list(child.dims) == list(parent.dimensions)
        and child.grain == parent.grain
        and _narrowing(child.filters, parent) == _narrowing(parent.filters, parent)
        and abs(child_days - days) <= 3  # a month for a month ("今年2月" after June), never a week
        and parent.rank_by == "value"
    )


def _narrowing(filters: Sequence[MemberFilter], parent: SemanticQuery) -> set[MemberFilter]:
    """The filters that change what a floor's bound counts: all but a group of the breakdown left
    out ("去掉服饰鞋包呢" leaves every other category's orders as they were)."""
    return {f for f in filters if not (f.exclude and f.dimension in parent.dimensions)}


def kept_bound(parent: SemanticQuery, child: FloorScope, beside: bool) -> Threshold | None:
    """ "退款率超过5%的品类" then "那5月呢": the bound goes on with the groups it kept, and a yes/no of
    one total ("超过4000万吗" then "那5月呢") with the total; one the follow-up cannot carry (another
    metric, a ranking, a share, a comparison, groups gained or lost) is asked back, never dropped."""
    bound = parent.threshold
    if bound is None:
        return None
    metrics, dims, grain = child.metrics, child.dims, child.grain
    regrouped = list(dims) != list(parent.dimensions) or grain != parent.grain
    grouped = bool(dims) or grain is not None
    split = set(parent.dimensions) < set(dims)  # "超过1000万的区域" then "按渠道拆开看": the regions' or the cells'?
    if (
        bound.metric not in metrics
        or (len(metrics) > 1 and not floor_kept(parent, child))
        or beside
        or (bound.check == "all" and regrouped)
        or (not grouped and bound.check == "keep")
        or split
    ):
        raise AmbiguousQuestion(*both("conversation.bound_in_one_question"), detail={"follow_up": True})
    return bound


def said_bound(
    planner: Planner,
    r: Reading,
    metrics: tuple[str, ...],
    dims: list[str],
    grain: Grain | None,
    comparison: Comparison | None,
    *,
    ranked: bool,
    share: bool,
) -> Threshold:
    """A bound said in a follow-up ("any below 2%?", "涨幅超过20%的有哪些") over the groups the
    conversation holds, read as the question alone would read it: on the value, the change or the
    share; of every group (a yes/no with 都 / every) or the groups that pass."""
    cues = r.cues
    assert cues.bound is not None
    groups = bool(dims) or grain is not None
    bound = cues.bound
    of_the_groups = any(
        (h.start, h.end) == bound.term and {t.target for t in h.terms if t.kind == "dimension"} & set(dims)
        for h in r.terms.hits
    )
    if of_the_groups:  # "which regions were above 8%": said of the groups held, a bound of the metric shown
        bound = dataclasses.replace(bound, term=None)
    threshold = threshold_of(
        bound,
        planner.catalog,
        r.terms.metric_hits,
        metrics,
        groups=groups,
        # a value's or a share's bound beside a comparison is not built (the share of which period?)
        beside=ranked or (share and not bound.share) or (comparison is not None and bound.change is None),
        yes_no=cues.yes_no,
        compared=comparison is not None,
        shared=share,
    )
    if cues.yes_no and (not groups or cues.every) and threshold.of in ("value", "share"):
        return threshold.model_copy(update={"check": "all"})
    return threshold


def intent_of(
    why: bool, comparison: Comparison | None, share: bool, ranked: bool, grain: Grain | None, dims: list[str]
) -> Literal["value", "breakdown", "share", "trend", "ranking", "comparison", "why"]:
    """As the rule planner decides it; a ranking ("rank them", "top 3") sorts by the metric."""
    if why:
        return "why"
    if comparison is not None:
        return "comparison"
    if share:
        return "share"
    if ranked and (dims or grain):
        return "ranking"
    if grain is not None:
        return "trend"
    return "breakdown" if dims else "value"


def check_follow_up(planner: Planner, query: SemanticQuery) -> None:
    """The checks a question's reading passes, asked back: a follow-up that cannot apply to
    the previous question is a question to the user, not an invalid input."""
    filtered = [f.dimension for f in (*query.filters, *query.share_filters)]
    planner.check_average_periods(query)  # "月均GMV" then "那上周呢": no whole month
    try:
        planner.check_dimensions(list(query.metrics), list(query.dimensions), filtered)
        planner.check_metric_filters(query.metrics, query.dimensions, query.filters, query.share_filters)
        if query.share:
            planner.check_share(
                list(query.metrics), list(query.dimensions), list(query.share_filters), query.comparison, query.grain
            )
            check_share_compared(query)
    except InvalidInput as exc:
        raise AmbiguousQuestion(exc.message_en, exc.message_zh, detail={**exc.detail, "follow_up": True}) from exc
    if query.top_n is not None or query.rank_place is not None or query.intent == "ranking":
        check_ranking_of_one_period(query.time_range, query.grain, query.dimensions)  # "6月是不是最少的"
    check_place_among_members(query.rank_place, query.dimensions, query.filters)  # "the third" of two kept
    ranked_one = [f for f in query.filters if f.dimension in query.dimensions and len(f.members) == 1]
    if (query.top_n is not None or query.rank_place is not None) and ranked_one and not ranked_one[0].exclude:
        raise AmbiguousQuestion(*both("nlu.ranking_of_one"), detail={"dimensions": list(query.dimensions)})


__all__ = [
    "ALL_GROUPS",
    "check_follow_up",
    "check_metric_or_member",
    "each_of_one_member",
    "every_group_after_one",
    "intent_of",
    "kept_bound",
    "member_placed",
    "place_of_the_previous_rows",
    "said_bound",
    "still_why",
    "still_within",
    "verdict_asked",
]
