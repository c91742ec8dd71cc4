"""Follow-up questions: the previous question's reading, changed only where the follow-up says.

Document 04's parent → child inheritance, for questions: a follow-up ("那华南呢？", "换成按周看",
"只看新用户", "和去年比呢", "按品类拆开", "为什么app下降了？") is read like any question — every word
accounted for — but may leave out what it inherits. Its reading is then laid over the
previous one, part by part, each change named:

- a metric replaces the metrics; a period replaces the period (a comparison of the same kind
  follows it);
- members replace the filter on their dimension, or add one; a single member of a dimension
  the previous answer was broken down by narrows to that member;
- a dimension word adds a breakdown ("换成"/"instead" replaces them); a grain makes a series;
  a comparison word compares the inherited period; a ranking, a share or a why applies to the
  inherited rest.

A follow-up that changes nothing Baton can place, or that cannot apply to the previous
question (a dimension its metric has no breakdown by), is asked back — never guessed. A
question that stands on its own (it names a metric and a period and no word ties it to the
previous one) is answered on its own, and says it inherited nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from typing import Literal, get_args

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.conversation import PartName
from baton.contracts.semantic import Comparison, Grain, MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.errors import AmbiguousQuestion, InvalidInput, OutOfScope
from baton.messages import both, text
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.bounds import threshold_of
from baton.nlu.change_words import kept_by_change, premise_asked
from baton.nlu.cues import Cues
from baton.nlu.follow_groups import broken_down_again, dimensions_of, filters_of, shares_within
from baton.nlu.follow_periods import periods_of
from baton.nlu.guards import (
    check_ranking_of_one_period,
    listing_order,
    ranked_ends,
    the_groups_that_moved,
    two_members_apart,
)
from baton.nlu.lexicon import Hit, normalise
from baton.nlu.metric_words import metric_over_the_previous
from baton.nlu.one_before import the_one_after, the_one_before
from baton.nlu.parser import Planner
from baton.nlu.rank_within import ranked_each_period
from baton.nlu.ranking import ranking_metric
from baton.nlu.ties import ADD_METRIC, Reading, has_ties

LANGS: tuple[Language, ...] = ("en", "zh")
Part = PartName
PARTS: tuple[Part, ...] = get_args(PartName)
"""The parts of a question a follow-up keeps or changes, in the order the lead names them."""


@dataclass(frozen=True)
class FollowUp:
    """A follow-up's query, and what it changed and kept of the previous question."""

    query: SemanticQuery
    changed: tuple[Part, ...]
    inherited: tuple[Part, ...]
    standalone: bool = False


def _each_of_one_member(
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


def _every_group_after_one(r: Reading, parent: SemanticQuery, comparison: Comparison | None, groups: bool) -> bool:
    """ "哪个区域GMV环比下降最多" then "都比5月低吗": a yes/no of every (or any) group after a ranking that
    picked one group (or ranked by the change) asks of every group; after "最高的3个区域" 都 means those 3."""
    cues = r.cues
    asked = cues.yes_no and (cues.every or cues.any_group) and cues.premise is not None
    one = parent.top_n == 1 or parent.rank_place is not None or parent.rank_by != "value"
    return asked and one and comparison is not None and groups


_ALL_GROUPS = patterns.compile(vocab.ALL_OF_THEM.pattern + r"|每个|各个|\bevery\b|\beach\b", re.I)
"""Every group said of the breakdown a ranking was over: the ranking goes, every group is shown."""


def read_follow_up(
    planner: Planner,
    question: str,
    parent: SemanticQuery,
    *,
    as_of: date,
    default_breakdown: str | None = None,
    prefer: Sequence[str] = (),
    earlier: TimeRange | None = None,
) -> FollowUp:
    """``question`` as it follows ``parent``: a whole question of its own, or ``parent``
    changed where the follow-up says. A breakdown asked for without its dimension ("拆开看看",
    "top 3?" of a single figure) is asked back, or by ``default_breakdown`` when given.
    ``earlier``: the period of the turn before ``parent`` when ``parent`` changed only the period
    ("6月GMV" then "5月呢"): a bare change asked next ("变化多少") is between those two periods."""
    before = the_one_before(question, parent, as_of) or the_one_after(question, parent, as_of)
    if before is not None:  # "how about the month before" / "下个月呢": the same question, a period moved
        query, dropped = before
        moved: list[Part] = ["period", "comparison"] if dropped else ["period"]
        return FollowUp(query, changed=tuple(moved), inherited=_inherited(parent, moved))
    standalone_error: AmbiguousQuestion | OutOfScope | None = None
    if not has_ties(question):
        try:
            query = planner.plan(question, as_of=as_of, default_breakdown=default_breakdown, prefer=prefer)
            return FollowUp(query, changed=(), inherited=(), standalone=True)
        except (AmbiguousQuestion, OutOfScope) as exc:
            standalone_error = exc
    kept = kept_by_change(question)  # "各区域GMV" then "哪些环比下降了": the groups that moved, named
    try:
        reading = planner.read(question, as_of=as_of, context=parent, prefer=prefer, which_moved=kept is not None)
    except OutOfScope as exc:
        unknown = [str(w) for w in exc.detail.get("unknown", [])]
        bound = next(
            (m for m in vocab.THRESHOLD.finditer(normalise(question)) if m.group("op") or m.group("post")), None
        )
        if bound is not None and not exc.detail.get("final"):  # "都超过500万吗" after a breakdown: never "not data"
            raise AmbiguousQuestion(*both("conversation.bound_in_one_question"), detail={"follow_up": True}) from None
        if exc.detail.get("final") or not unknown or not has_ties(question):
            raise (standalone_error or exc) from None
        # "What about Tmall?": a follow-up naming something Baton does not know is asked back
        raise AmbiguousQuestion(
            *Planner.not_understood(unknown), detail={"unknown": unknown, "follow_up": True}
        ) from None
    metric_over_the_previous(reading.scan, reading.terms.metric_hits, parent.metrics)
    try:
        follow = _merge(planner, parent, reading, as_of, default_breakdown, earlier)
    except _NothingChanged:
        if standalone_error is not None and not isinstance(standalone_error, AmbiguousQuestion):
            raise standalone_error from None
        raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True}) from None
    if kept is None:
        return follow
    directed = follow.query.model_copy(update={"premise": reading.cues.premise})  # the direction said
    return replace(follow, query=the_groups_that_moved(directed, kept))


def _check_metric_or_member(catalog: Catalog, metric_hits: Sequence[Hit]) -> None:
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


def _kept_bound(
    parent: SemanticQuery, metrics: tuple[str, ...], beside: bool, dims: list[str], grain: Grain | None
) -> Threshold | None:
    """ "退款率超过5%的品类" then "那5月呢": the bound goes on with the groups it kept, and a yes/no of
    one total ("超过4000万吗" then "那5月呢") with the total; one the follow-up cannot carry (another
    metric, a ranking, a share, a comparison, groups gained or lost) is asked back, never dropped."""
    bound = parent.threshold
    if bound is None:
        return None
    regrouped = list(dims) != list(parent.dimensions) or grain != parent.grain
    grouped = bool(dims) or grain is not None
    if (
        bound.metric not in metrics
        or len(metrics) > 1
        or beside
        or (bound.check == "all" and regrouped)
        or (not grouped and bound.check == "keep")
    ):
        raise AmbiguousQuestion(*both("conversation.bound_in_one_question"), detail={"follow_up": True})
    return bound


def _said_bound(
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
    threshold = threshold_of(
        cues.bound,
        planner.catalog,
        r.terms.metric_hits,
        metrics,
        groups=groups,
        # a value's or a share's bound beside a comparison is not built (the share of which period?)
        beside=ranked or (share and not cues.bound.share) or (comparison is not None and cues.bound.change is None),
        yes_no=cues.yes_no,
        compared=comparison is not None,
        shared=share,
    )
    if cues.yes_no and (not groups or cues.every) and threshold.of in ("value", "share"):
        return threshold.model_copy(update={"check": "all"})
    return threshold


def _still_why(parent: SemanticQuery, r: Reading) -> bool:
    """A follow-up to a why that only moves its scope — a filter, a metric, a period ("only East
    China", "and for orders?", "那5月呢") — asks the same why of the new scope; one that asks for a
    breakdown, a ranking, a share, a series or a total asks for figures."""
    cues = r.cues
    figures = cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank or cues.share
    figures = figures or cues.breakdown or cues.grain is not None or cues.trend or cues.total or bool(r.terms.dims)
    return parent.intent == "why" and not figures and cues.comparison_kind is None


def _place_of_the_previous_rows(parent: SemanticQuery, r: Reading) -> None:
    """ "GMV排名" then "第三名的订单量呢", "排第一的那个渠道退款率多少", "the bottom one's orders?",
    "最低的那个为什么下降了": a place said of the rows the previous answer listed, with another
    metric (or a why) not ranked by it, is that row's figure — asked back naming the row, never
    a new ranking by the other metric or the whole's why. "订单量最高的呢" ranks by orders."""
    cues, terms = r.cues, r.terms
    placed = cues.top_n is not None or cues.rank_place is not None or cues.best or bool(cues.spans.get("ranking"))
    listed = bool(parent.dimensions) or parent.grain is not None
    other = bool(terms.metrics) and tuple(terms.metrics) != parent.metrics
    if not (placed and listed and (other or cues.why)):
        return
    if not cues.why and ranking_metric(r.scan, terms.metric_hits, list(terms.metrics)) is not None:
        return
    said = " ".join(r.scan.text[s:e] for s, e in cues.spans.get("ranking", [])) or r.scan.text
    raise AmbiguousQuestion(*both("conversation.pointer_after_ranking", said=said), detail={"follow_up": True})


class _NothingChanged(Exception):
    """The follow-up named nothing Baton could lay over the previous question."""


def _merge(
    planner: Planner,
    parent: SemanticQuery,
    r: Reading,
    as_of: date,
    default_breakdown: str | None,
    earlier: TimeRange | None = None,
) -> FollowUp:
    cues, terms = r.cues, r.terms
    _check_metric_or_member(planner.catalog, terms.metric_hits)
    gap_of_figures = vocab.GAP.search(r.scan.norm) and not r.periods and cues.comparison_kind is None
    if gap_of_figures or cues.difference or cues.ratio:
        # "差多少", "what's app minus web?", "几倍" after two figures: a gap is asked in one question
        raise AmbiguousQuestion(*both("conversation.gap_in_one_question"), detail={"follow_up": True})
    if cues.total and (parent.top_n is not None or parent.rank_place is not None):
        # "GMV前两名的品类" then "合计多少": the top N's total is not added up, never all of GMV
        n = parent.top_n or 1
        side = ranked_ends(parent.order)
        raise AmbiguousQuestion(*both("nlu.total_of_ranked", n=n, **side), detail={"top_n": n, "follow_up": True})
    if r.ties is not None and r.ties.pointer and (parent.top_n is not None or parent.rank_place is not None):
        # "GMV最高的渠道" then "它的订单量呢": that channel's orders, not the top channel by orders
        said = r.ties.pointer
        raise AmbiguousQuestion(*both("conversation.pointer_after_ranking", said=said), detail={"follow_up": True})
    _place_of_the_previous_rows(parent, r)
    if cues.bound is not None and (terms.metrics or cues.bound.term is not None):
        # "那订单量超过10000的呢": a bound of a metric named anew is asked in one question; one of the
        # metric shown ("any below 2%?", "涨幅超过16%的有哪些") keeps the groups the conversation holds
        raise AmbiguousQuestion(*both("conversation.bound_in_one_question"), detail={"follow_up": True})
    changed: list[Part] = []
    metrics = tuple(terms.metrics) or parent.metrics
    if (
        terms.metrics
        and not terms.members
        and r.ties is not None
        and not r.ties.replace
        and ADD_METRIC.search(r.scan.norm)
    ):
        metrics = tuple(dict.fromkeys((*parent.metrics, *terms.metrics)))  # "refund rate too": beside GMV
    if metrics != parent.metrics:
        changed.append("metric")
    time_range, comparison, period_parts = periods_of(parent, r, as_of, earlier)
    same_dates = (time_range.start, time_range.end) == (parent.time_range.start, parent.time_range.end)
    if r.periods and same_dates and "comparison" not in period_parts and not terms.any:
        # "再上个月呢" read against today is the previous answer's own month: a period relative to
        # the previous one is asked back, never answered as if it had changed ("上个月订单量呢"
        # names the period again beside what it changes)
        said = time_range.text or f"{time_range.start}..{time_range.end}"
        raise AmbiguousQuestion(*both("conversation.same_period", period=said), detail={"period": said})
    changed += [part for part in period_parts if not (part == "period" and same_dates)]
    grain = cues.grain or (_default_grain(time_range) if cues.trend and parent.grain is None else parent.grain)
    if cues.why and cues.grain is None and not cues.trend and comparison is not None:
        grain = None  # "why?" after a weekly series beside last year: the change of the whole period explained
    if grain != parent.grain:
        changed.append("grain")
    yearly = comparison is not None and comparison.kind == "same_period_last_year" and not cues.why
    if grain is not None and comparison is not None and not yearly:  # a series beside last year's is drawn
        if "comparison" in changed or cues.why:
            raise AmbiguousQuestion(
                *(text("nlu.grain_with_comparison", lang, grain=text(f"answer.grain_{grain}", lang)) for lang in LANGS),
                detail={"grain": grain},
            )
        comparison = None  # a series replaces the comparison it was drawn against
    others = [m for m in terms.members if not m.excluded and m.dimension not in parent.dimensions]
    if cues.share and not parent.share and parent.dimensions and others:
        # "各渠道订单量" / "GMV最高的区域" then "新客占比呢": new users' share inside each group (or of the
        # one ranked), or how their orders split across the groups? asked, never the member as the whole
        raise AmbiguousQuestion(
            *both("nlu.share_within_or_across"), detail={"dimensions": list(parent.dimensions), "follow_up": True}
        )
    filters, share_filters, filter_parts = filters_of(parent, r, planner.catalog)
    changed += filter_parts
    dims = dimensions_of(parent, r, filters)
    filters, widened = broken_down_again(parent, r, filters, dims)
    changed += ["filter"] if widened and "filter" not in changed else []
    said_parts = [
        f
        for f in filters
        if not f.exclude and f.dimension in parent.dimensions and any(m.dimension == f.dimension for m in terms.members)
    ]
    if cues.share and not parent.share and not share_filters and len(parent.dimensions) == 1 and len(said_parts) == 1:
        # "各渠道的GMV" then "直播占比多少" / "直播和网页各占多少": each one's share of the whole, as
        # "上个月直播和网页的GMV各占多少" reads — never of the named members' own sum
        part = said_parts[0]
        share_filters, filters = (part,), [f for f in filters if f is not part]
        dims = list(parent.dimensions) if len(part.members) > 1 else []
    included = [f for f in filters if not f.exclude]
    if cues.share and not parent.share and not share_filters and not terms.members and not dims and len(included) == 1:
        # "上个月新用户GMV" then "占比呢" / "占总GMV的比例呢": the member's share of the unfiltered whole
        share_filters, filters = (included[0],), [f for f in filters if f is not included[0]]
    side_by_side = [f for f in included if f.dimension in dims and len(f.members) > 1]
    if cues.share and not parent.share and not share_filters and not terms.members and len(side_by_side) == 1:
        # "上个月华东和华南GMV" then "各占全国多少" / "占比呢": each one's share of the unfiltered whole, as
        # "上个月华东和华南的GMV占比" is read — never of the two's own sum
        share_filters, filters = (side_by_side[0],), [f for f in filters if f is not side_by_side[0]]
    if cues.total and not terms.dims and dims:
        dims = []  # "合计呢", "in total?": the breakdown goes
    ranked = cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank
    wants_breakdown = ranked or cues.breakdown or (r.ties is not None and r.ties.breakdown)
    _each_of_one_member(r, filters, dims, grain, metrics)
    placed = _member_placed(r, filters, comparison, share=cues.share)
    asked_member = placed.members[0] if placed is not None else None
    if placed is not None:  # "各区域GMV" then "华南排第几": every region ranked, 华南's place said
        dims = [placed.dimension]
        filters = [f for f in filters if f is not placed]
    elif (
        parent.asked_member is not None
        and dims == list(parent.dimensions)
        and not (terms.members or cues.share or ranked or cues.why)
        and grain == parent.grain
        and comparison is None
    ):
        asked_member = parent.asked_member  # "华南排第几" then "那订单量呢": 华南's place by orders
    if wants_breakdown and not dims and grain is None:
        if ranked and any(m.dimension in parent.dimensions for m in terms.members):
            # "各渠道的转化率" then "app是最高的吗": app among the channels, never app's top region
            raise AmbiguousQuestion(*both("nlu.ranking_of_one"), detail={"dimensions": list(parent.dimensions)})
        if default_breakdown is None or not planner.breakdown_fits(metrics, default_breakdown):
            raise AmbiguousQuestion(*both("conversation.breakdown_of_what"), detail={"missing": "breakdown"})
        dims = [default_breakdown]
    if dims != list(parent.dimensions):
        changed.append("breakdown")
    said_of = (terms.dims_naming_a_set | set(terms.dims)) & set(parent.dimensions)
    every_group = not ranked and bool(said_of) and _ALL_GROUPS.search(r.scan.norm) is not None
    if (
        not ranked
        and not every_group
        and (parent.top_n is not None or parent.rank_place is not None)
        and "metric" in changed
        and _better(planner, metrics) != _better(planner, parent.metrics)
        and any(d in dims for d in parent.dimensions)  # "APP的退款率呢": one member, no ranking left
    ):
        # "退款率最好的渠道" then "那GMV呢": which end is "best" differs; asked, never carried over
        raise AmbiguousQuestion(*both("conversation.ranking_direction"), detail={"missing": "order"})
    # "最高的3个区域" then "换成最低的" / "what about the bottom ones": the bottom 3, the count kept
    top_end = (parent.top_n or 1) if cues.best and cues.rank_place is None else None
    top_n = (cues.top_n or top_end) if ranked else parent.top_n
    place = cues.rank_place if ranked else parent.rank_place
    if every_group and (top_n is not None or place is not None):
        top_n, place = None, None  # "最低的区域" then "show all regions with …": every one, the ranking gone
        changed.append("ranking")
    order = planner.order_of(cues, metrics) if ranked and not cues.place_bare else parent.order
    if ranked:
        changed.append("ranking")
    rank_by = parent.rank_by if not ranked and comparison is not None and dims else "value"
    if ranked and cues.change and (comparison is not None or parent.comparison is not None):
        # "上个月各品类GMV同比" then "增长最多的是哪个": by the change, when the words say which way
        if cues.ranked_change is None or comparison is None or not dims:
            raise AmbiguousQuestion(*both("nlu.rank_by_change"), detail={"dimensions": list(dims), "follow_up": True})
        rank_by, order = cues.ranked_change
    elif ranked and parent.rank_by != "value" and comparison is not None and dims:
        # "降幅最大的区域" then "那前3呢": the top 3 by the same change; "最低的呢" of a change ranking
        # (the smallest fall, or the largest rise?) is asked back
        said = " ".join(r.scan.text[s:e] for s, e in cues.spans.get("ranking", []))
        if vocab.SUPERLATIVE.search(said) or vocab.ASCENDING.search(said) or cues.quality is not None:
            raise AmbiguousQuestion(*both("nlu.rank_by_change"), detail={"dimensions": list(dims), "follow_up": True})
        if place is not None:  # "增长最快的渠道" then "第二名呢": a place by a change is not stated
            raise AmbiguousQuestion(*both("nlu.place_by_change", place=place), detail={"reason": "place_by_change"})
        rank_by, order = parent.rank_by, parent.order
    share = cues.share or parent.share
    if share and not parent.share:
        changed.append("share")
    average_per = cues.average_per or parent.average_per  # "日均GMV" then "那华南呢": South China's, per day
    if cues.average_per is not None and cues.average_per != parent.average_per:
        changed.append("metric")
    if average_per is not None:  # "换成按周看", "那转化率呢" after an average: asked, never silently dropped
        planner.check_average(average_per, list(metrics), grain, share)
    why = cues.why or _still_why(parent, r)  # "why did it drop?" then "only East China": East China's why
    if cues.why and parent.intent != "why":
        changed.append("why")
    if why and comparison is None:
        start, end = timeexpr.comparison_range("previous_period", time_range.start, time_range.end, as_of=as_of)
        comparison = Comparison(kind="previous_period", range=TimeRange(start=start, end=end))
    if cues.bound is not None:  # "any below 2%?": the groups shown, kept by a bound
        changed.append("threshold")
    which_moved = bool(cues.spans.get("which_moved")) and comparison is not None  # "哪些下降了" after 同比
    if not changed and not _verdict_asked(cues, parent, comparison) and not which_moved:
        raise _NothingChanged
    rank_within = _still_within(parent, dims, top_n, place, comparison, grain, share)
    # "每个月GMV最高的渠道" then "换成订单量" / "只看华东": still the top of each month
    said_each = ranked_each_period(r.scan, cues, r.terms)  # "每个月最高的渠道呢"
    each_period = (parent.rank_each_period or said_each) and grain is not None and len(dims) == 1
    each_period = each_period and place is None and top_n is not None and comparison is None and not share
    each_period = each_period and average_per is None and parent.threshold is None
    if (top_n is not None or place is not None) and not each_period:
        # "各区域的GMV" then "最高的3个品类呢": the top of each region, or the top pairs? asked, unless
        # the previous question ranked these pairs already (as pairs, or inside each group)
        ranked_before = parent.top_n is not None or parent.rank_place is not None
        same_keys = ranked_before and set(parent.dimensions) == set(dims) and parent.grain == grain
        no_longer_each = (parent.rank_within and not rank_within) or parent.rank_each_period  # the top of each
        planner.check_ranked_keys(list(dims), grain, combination=cues.combination or (same_keys and not no_longer_each))
    ends = parent.intent == "ranking" and top_n is None and place is None and bool(dims)  # "最高和最低差多少"
    gap = parent.difference and (two_members_apart(dims, filters) or ends)
    if parent.difference and (not gap or comparison is not None or grain is not None):
        # "华东和华南的GMV差多少" then "去年同期呢": the gap of each one's change is not built, never dropped
        raise AmbiguousQuestion(*both("nlu.gap_per_group"), detail={"follow_up": True})
    if not ranked and not why and _every_group_after_one(r, parent, comparison, bool(dims) or grain is not None):
        top_n, place, rank_by = None, None, "value"  # "下降最多的区域" then "都比5月低吗": every region
        changed.append("ranking")
    compared = comparison is not None and rank_by == "value" and not why
    asked = premise_asked(cues, compared=compared, groups=bool(dims) or grain is not None, metrics=len(metrics))
    threshold: Threshold | None
    if cues.bound is not None:  # "Q2各品类GMV同比" then "涨幅超过20%的有哪些": the groups shown, kept by it
        kept_ranking = top_n is not None or place is not None or asked_member is not None or parent.intent == "ranking"
        threshold = _said_bound(
            planner, r, metrics, dims, grain, comparison, ranked=ranked or gap or kept_ranking, share=share
        )
        asked = None  # the bound decides which groups are named
    else:
        of = parent.threshold.of if parent.threshold is not None else "value"
        if of in ("change", "change_pct"):  # its comparison is its own
            beside = ranked or gap or share or comparison is None
        elif of == "share":  # its share is its own
            beside = ranked or gap or not share or comparison is not None
        else:
            beside = ranked or gap or share or comparison is not None
        threshold = _kept_bound(parent, metrics, beside, dims, grain)
    query = SemanticQuery(
        metrics=metrics,
        dimensions=tuple(dims),
        filters=tuple(filters),
        time_range=time_range,
        grain=grain,
        comparison=comparison,
        top_n=top_n if (dims or grain) and asked_member is None else None,  # "is app the best?": every one ranked
        rank_place=place if (dims or grain) else None,
        order=order,
        listed=listing_order(cues, order, top_n, place, share) if ranked else parent.listed,
        rank_by=rank_by,
        rank_within=rank_within,
        rank_each_period=each_period,
        intent=_intent(why, comparison, share, ranked or parent.intent == "ranking", grain, dims),
        share=share,
        share_filters=share_filters if share else (),
        share_within=shares_within(parent, r, dims) if share else (),
        premise=(cues.premise if cues.why else parent.premise) if why else cues.premise if asked else None,
        premise_asked=asked,
        asked_member=asked_member,
        place_asked=(placed is not None and cues.place_asked)
        or (placed is None and asked_member is not None and parent.place_asked),
        average_per=average_per,
        threshold=threshold,
        difference=gap,
        ratio=parent.ratio and gap,
        corrections=r.corrections,
        where=parent.where,
        as_of=as_of,
    )
    _check(planner, query)
    added = [d for d in query.dimensions if d not in parent.dimensions and d not in query.share_within]
    if query.share_filters and added:
        # "what share of GMV came from new users" then "by channel": inside each channel, or across? asked,
        # as the same question asked whole is
        named = [f.dimension for f in query.share_filters]
        raise AmbiguousQuestion(
            *both("nlu.share_within_or_across"), detail={"dimensions": [*added, *named], "follow_up": True}
        )
    # what the follow-up said, and whatever else the final query no longer keeps (a comparison a
    # series replaced, a ranking a single member ends): the reader is never told a part was kept
    # that was not
    dropped, _ = compare_parts(parent, query)
    parts: list[Part] = [p for p in PARTS if p in changed or p in dropped]
    return FollowUp(query, changed=tuple(parts), inherited=_inherited(parent, parts))


def _kind_of(query: SemanticQuery) -> str | None:
    return query.comparison.kind if query.comparison is not None else None


def _better(planner: Planner, metrics: tuple[str, ...]) -> str | None:
    return planner.catalog.metrics[metrics[0]].better


def _still_within(
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


def _intent(
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


def _check(planner: Planner, query: SemanticQuery) -> None:
    """The checks a question's reading passes, asked back: a follow-up that cannot apply to
    the previous question is a question to the user, not an invalid input."""
    filtered = [f.dimension for f in (*query.filters, *query.share_filters)]
    planner.check_average_periods(query)  # "月均GMV" then "那上周呢": no whole month
    try:
        planner.check_dimensions(list(query.metrics), list(query.dimensions), filtered)
        if query.share:
            planner.check_share(
                list(query.metrics), list(query.dimensions), list(query.share_filters), query.comparison, query.grain
            )
    except InvalidInput as exc:
        raise AmbiguousQuestion(exc.message_en, exc.message_zh, detail={**exc.detail, "follow_up": True}) from exc
    if query.top_n is not None or query.rank_place is not None or query.intent == "ranking":
        check_ranking_of_one_period(query.time_range, query.grain, query.dimensions)  # "6月是不是最少的"
    ranked_one = [f for f in query.filters if f.dimension in query.dimensions and len(f.members) == 1]
    if (query.top_n is not None or query.rank_place is not None) and ranked_one and not ranked_one[0].exclude:
        raise AmbiguousQuestion(*both("nlu.ranking_of_one"), detail={"dimensions": list(query.dimensions)})


def _verdict_asked(cues: Cues, parent: SemanticQuery, comparison: Comparison | None) -> bool:
    """ "Q2各品类GMV同比" then "都涨了吗": the same comparison, now with a direction asked of it — a
    verdict the previous answer did not give, not a question that changes nothing."""
    asked = cues.yes_no and cues.premise is not None and (cues.every or cues.any_group or not parent.dimensions)
    return asked and comparison is not None and parent.premise_asked is None


def _member_placed(
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


def _inherited(parent: SemanticQuery, changed: list[Part]) -> tuple[Part, ...]:
    kept: list[Part] = []
    if "metric" not in changed:
        kept.append("metric")
    if "period" not in changed:
        kept.append("period")
    if parent.filters and "filter" not in changed and "exclusion" not in changed:
        kept.append("filter")
    if parent.dimensions and "breakdown" not in changed:
        kept.append("breakdown")
    if parent.grain is not None and "grain" not in changed:
        kept.append("grain")
    if parent.comparison is not None and "comparison" not in changed and "grain" not in changed:
        kept.append("comparison")
    if (parent.top_n is not None or parent.rank_place is not None) and "ranking" not in changed:
        kept.append("ranking")
    if parent.share and "share" not in changed:
        kept.append("share")
    if parent.threshold is not None and "threshold" not in changed:
        kept.append("threshold")
    return tuple(kept)


def compare_parts(parent: SemanticQuery, child: SemanticQuery) -> tuple[tuple[Part, ...], tuple[Part, ...]]:
    """What ``child`` changed and kept of ``parent``, read from the two queries (for a
    follow-up a model read, which says no words of its own about it)."""
    changed: list[Part] = []
    pairs: tuple[tuple[Part, object, object], ...] = (
        ("metric", parent.metrics, child.metrics),
        ("period", (parent.time_range.start, parent.time_range.end), (child.time_range.start, child.time_range.end)),
        ("grain", parent.grain, child.grain),
        ("comparison", _kind_of(parent), _kind_of(child)),  # moved with the period: kept
        ("breakdown", parent.dimensions, child.dimensions),
        ("ranking", (parent.top_n, parent.rank_place, parent.order), (child.top_n, child.rank_place, child.order)),
        ("share", parent.share, child.share),
        ("threshold", parent.threshold, child.threshold),
        ("why", parent.intent == "why", child.intent == "why"),
    )
    changed += [part for part, before, after in pairs if before != after]
    before_f, after_f = set(parent.filters), set(child.filters)
    if {f for f in before_f ^ after_f if not f.exclude}:
        changed.append("filter")
    if {f for f in before_f ^ after_f if f.exclude}:
        changed.append("exclusion")
    return tuple(p for p in PARTS if p in changed), _inherited(parent, changed)


def _default_grain(time_range: TimeRange) -> Grain:
    return Planner.default_grain(time_range)


__all__ = ["PARTS", "FollowUp", "Part", "compare_parts", "read_follow_up"]
