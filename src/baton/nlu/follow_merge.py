"""A follow-up's reading laid over the previous question, stage by stage.

Each stage takes one part of the question — what must be asked in one question, the metric,
the period and its grain, the filters and shares, the breakdown, the ranking, the share, average
and why, the bound — changes it where the follow-up says, keeps it otherwise, and notes what it
changed. A stage that cannot apply the follow-up to the previous question asks back.
"""

from __future__ import annotations

import re
from datetime import date

from baton import patterns
from baton.catalog.compiler import share_comparison_built
from baton.catalog.model import Metric
from baton.contracts.common import LANGUAGES
from baton.contracts.semantic import Comparison, Grain, MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both, text
from baton.nlu import vocabulary as vocab
from baton.nlu.catalog_checks import check_share_compared
from baton.nlu.change_words import premise_asked
from baton.nlu.cues import contribution_of_value_or_change
from baton.nlu.follow_groups import broken_down_again, dimensions_of, filters_of, shares_within
from baton.nlu.follow_parts import PARTS, FollowUp, Part, compare_parts, inherited_parts
from baton.nlu.follow_periods import comparison_of, periods_of
from baton.nlu.follow_pointed import RowsPointedAt
from baton.nlu.follow_pointers import ListedRows, Pointed
from baton.nlu.follow_rules import (
    ALL_GROUPS,
    FloorScope,
    check_follow_up,
    check_metric_or_member,
    each_of_one_member,
    every_group_after_one,
    floor_kept,
    intent_of,
    kept_bound,
    member_placed,
    place_of_the_previous_rows,
    said_bound,
    still_why,
    still_within,
    verdict_asked,
)
from baton.nlu.guards import ONLY_BEFORE, listing_order, ranked_ends, two_members_apart
from baton.nlu.parser import Planner
from baton.nlu.periods import each_against_the_one_before
from baton.nlu.rank_within import ranked_each_period
from baton.nlu.shares import whole_dimensions
from baton.nlu.ties import ADD_METRIC, Reading

_COMPARING = patterns.compile(r"比|\b(?:vs|versus|compared?|than|against|yoy|mom|wow|qoq|over)\b", re.I)
"""Words that ask a comparison of periods ("同比", "和去年比", "vs last year"), not a period to show
("去年同期", "the same month last year")."""
_ITS_VALUE = patterns.compile(
    r"多少|数值|数字|\b(?:what\s+(?:was|is)|how\s+much|how\s+many|figure|value|number)\b",
    re.I,
)
"""Words that ask the value of what was ranked ("去年同期是多少", "what was it last year?"): the
leader set beside its value then, never the groups ranked again ("去年同期这个排名呢", "show me that
for last year" point at the ranking)."""


class NothingChanged(Exception):
    """The follow-up named nothing Baton could lay over the previous question."""


_IN_PERCENT = patterns.compile(r"(?:in\s+)?percent(?:age)?(?:[- ]?wise|\s+terms)?|按?百分比(?:看|算)?|%", re.I)
"""A follow-up that says only "in percent": of a change ranked as an amount, the percent change."""


class FollowUpMerge(RowsPointedAt):
    """``parent`` changed where the follow-up's reading ``r`` says; :meth:`build` runs the stages."""

    def __init__(
        self,
        planner: Planner,
        parent: SemanticQuery,
        r: Reading,
        as_of: date,
        default_breakdown: str | None,
        earlier: TimeRange | None,
        listed: ListedRows | None = None,
    ) -> None:
        self.planner, self.parent, self.r = planner, parent, r
        self.listed = listed
        self.pointed: Pointed | None = None
        self.by_place = False
        self.cues, self.terms = r.cues, r.terms
        self.as_of, self.default_breakdown, self.earlier = as_of, default_breakdown, earlier
        self.changed: list[Part] = []
        self.metrics: tuple[str, ...] = parent.metrics
        self.time_range: TimeRange = parent.time_range
        self.comparison: Comparison | None = parent.comparison
        self.grain: Grain | None = parent.grain
        self.filters: list[MemberFilter] = list(parent.filters)
        self.share_filters: tuple[MemberFilter, ...] = ()
        self.dims: list[str] = list(parent.dimensions)
        self.ranked = False
        self.placed: MemberFilter | None = None
        self.asked_member: str | None = None
        self.every_group = False
        self.left_behind = False  # the previous ranking, for another kind of figure
        self.top_n: int | None = None
        self.place: int | None = None
        self.order = parent.order
        self.rank_by = parent.rank_by
        self.contribution = parent.contribution
        self.share = parent.share
        self.average_per = parent.average_per
        self.why = False

    def build(self) -> FollowUp:
        self._one_question_only()
        self._metrics()
        self._period_and_grain()
        self._filters_and_shares()
        self._member_and_breakdown()
        self._rows_pointed_at()
        self._ranking()
        self._ranked_by_change()
        self._share_average_why()
        self._something_changed()
        return self._checked(self._query())

    def _one_question_only(self) -> None:
        """What is asked in one question, never laid over the previous answer: a gap, the total of
        a ranked few, a pointer to a ranked row, a bound of a metric named anew."""
        cues, terms, parent, r = self.cues, self.terms, self.parent, self.r
        check_metric_or_member(self.planner.catalog, terms.metric_hits)
        gap_of_figures = vocab.GAP.search(r.scan.norm) and not r.periods and cues.comparison_kind is None
        if (gap_of_figures or cues.difference or cues.ratio) and cues.members_apart is None:
            # "差多少", "what's app minus web?", "几倍" after two figures: a gap is asked in one question
            raise AmbiguousQuestion(*both("conversation.gap_in_one_question"), detail={"follow_up": True})
        ranked_now = cues.top_n is not None or cues.rank_place is not None
        if cues.total and (parent.top_n is not None or parent.rank_place is not None or ranked_now):
            # "GMV前两名的品类" then "合计多少", "各品类占比" then "前两名加起来占多少": the top N's total is
            # not added up, never all of GMV, nor the top N of another breakdown
            n = cues.top_n or parent.top_n or 1
            side = ranked_ends(parent.order)
            raise AmbiguousQuestion(*both("nlu.total_of_ranked", n=n, **side), detail={"top_n": n, "follow_up": True})
        if r.ties is not None and r.ties.pointer:
            # "GMV最高的渠道" then "它的订单量呢": that channel's orders, not the top channel by orders
            self.pointed = self._pointed(r.ties.pointer)
        placed_said = place_of_the_previous_rows(parent, r)
        if placed_said is not None:  # "第三名的订单量呢": the row the previous answer placed third
            self.pointed = self._placed(placed_said)
            self.by_place = True
            if r.ties is not None and r.ties.placed_away:
                self.pointed = self._placed_taken_away(placed_said, self.pointed)
        elif r.ties is not None and r.ties.placed_away:  # "去掉最高的那个" of rows no place can name
            raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True})
        whole = bool(terms.metrics) and bool(terms.dims)  # "订单量超过9000的品类有哪些": all but the period said
        bound = cues.bound
        of_a_metric = bound is not None and any(
            (h.start, h.end) == bound.term and "metric" in h.kinds for h in terms.hits
        )  # "which regions were above 8%": a bound said beside the groups, of the metric shown
        if bound is not None and (terms.metrics or of_a_metric) and not whole:
            # "那订单量超过10000的呢": a bound of a metric named anew is asked in one question; one of the
            # metric shown ("any below 2%?", "涨幅超过16%的有哪些") keeps the groups the conversation holds
            raise AmbiguousQuestion(*both("conversation.new_bound_in_one_question"), detail={"follow_up": True})

    def _metrics(self) -> None:
        """A metric replaces the metrics; "refund rate too" adds it beside them."""
        terms, r = self.terms, self.r
        metrics = tuple(terms.metrics) or self.parent.metrics
        adds = r.ties is not None and not r.ties.replace and ADD_METRIC.search(r.scan.norm) is not None
        if terms.metrics and not terms.members and adds:  # "refund rate too": beside GMV
            metrics = tuple(dict.fromkeys((*self.parent.metrics, *terms.metrics)))
        if metrics != self.parent.metrics:
            self.changed.append("metric")
            self._only_the_rows_of_a_count()
        self.metrics = metrics

    def _only_the_rows_of_a_count(self) -> None:
        """ "Booking value by country" then "only instant bookings": a count of some rows (a metric with
        a condition of its own), said after "only" where an amount of those rows was shown, is the
        amount of those rows only, or the count instead? Asked back (p71: it was read as the count)."""
        catalog, scan = self.planner.catalog, self.r.scan
        said = [
            (hit.text, new)
            for hit in self.terms.metric_hits
            if ONLY_BEFORE.search(scan.norm[: hit.start])
            for new in (t.target for t in hit.terms if t.kind == "metric")
            if new not in self.parent.metrics  # "booking value and instant bookings" then "only instant bookings"
        ]
        for words, new in said:
            count = catalog.metrics[new]
            for old in self.parent.metrics:
                if _some_rows_of(count, catalog.metrics[old]):
                    raise _only_the_rows_asked(words, new, count, catalog.metrics[old])

    def _period_and_grain(self) -> None:
        """A period replaces the period (its comparison follows); a grain makes a series, which
        replaces a comparison it was drawn against (last year's is drawn beside it)."""
        cues, parent, r = self.cues, self.parent, self.r
        time_range, comparison, period_parts = periods_of(parent, r, self.as_of, self.earlier)
        same_dates = (time_range.start, time_range.end) == (parent.time_range.start, parent.time_range.end)
        if r.periods and same_dates and "comparison" not in period_parts and not self.terms.any:
            # "再上个月呢" read against today is the previous answer's own month: a period relative to
            # the previous one is asked back, never answered as if it had changed ("上个月订单量呢"
            # names the period again beside what it changes)
            said = time_range.text or f"{time_range.start}..{time_range.end}"
            raise AmbiguousQuestion(*both("conversation.same_period", period=said), detail={"period": said})
        self.changed += [part for part in period_parts if not (part == "period" and same_dates)]
        series = Planner.default_grain(time_range) if cues.trend and parent.grain is None else parent.grain
        grain = cues.grain or series
        if cues.why and cues.grain is None and not cues.trend and comparison is not None:
            grain = None  # "why?" after a weekly series beside last year: the change of the whole period explained
        # "GMV by day" then "the average per day?" / "total vs the week before?": the period's one figure ("每个月"
        # then "日均呢" is a series of averages, asked back); a total after a series by groups ("各渠道每天的GMV" then
        # "合计呢") sums the groups, each day
        same_unit = cues.average_per is not None and cues.average_per == parent.grain  # "by day" then "per day?"
        whole_period = same_unit or (cues.total and not parent.dimensions)
        if whole_period and cues.grain is None and not cues.trend:
            grain = None
        if grain != parent.grain:
            self.changed.append("grain")
        if grain is None and parent.each_period_before and comparison == parent.comparison:
            # "今年每个月GMV环比" then "合计呢": the whole range against the period before it, never the months' own
            comparison = comparison_of("previous_period", time_range, self.as_of)
        yearly = comparison is not None and comparison.kind == "same_period_last_year" and not cues.why
        if grain is not None and comparison is not None and not yearly:  # a series beside last year's is drawn
            if self._each_before(comparison, grain):  # "每个月GMV" then "环比呢": each month against its month before
                comparison = each_against_the_one_before(time_range, grain)
            elif "comparison" in self.changed or cues.why:
                raise AmbiguousQuestion(
                    *(
                        text("nlu.grain_with_comparison", lang, grain=text(f"answer.grain_{grain}", lang))
                        for lang in LANGUAGES
                    ),
                    detail={"grain": grain},
                )
            else:
                comparison = None  # a series replaces the comparison it was drawn against
        if self._period_instead(comparison):  # "华东占全国多少" then "去年同期呢": the share in that period
            assert comparison is not None
            named = (
                None if comparison.kind == "custom" else text(f"answer.interpret_{comparison.kind}", self.r.language)
            )
            time_range, comparison = comparison.range.model_copy(update={"text": named}), None
            kept: list[Part] = [p for p in self.changed if p != "comparison"]
            self.changed = [*kept, "period"]
        self.time_range, self.comparison, self.grain = time_range, comparison, grain

    def _each_before(self, comparison: Comparison, grain: Grain) -> bool:
        """Whether a series' comparison is each period against the one before it: 环比 said now
        ("每个月GMV" then "环比呢") or kept from a series that was so ("今年每个月GMV环比" then "去年呢")."""
        cues = self.cues
        said = cues.comparison_kind == "previous_period" or (
            self.parent.each_period_before and "comparison" not in self.changed
        )
        one_before = cues.window in (None, (1, grain))
        return comparison.kind == "previous_period" and said and one_before and not cues.why

    def _period_instead(self, comparison: Comparison | None) -> bool:
        """A share or a ranking followed by a comparison alone ("去年同期呢", "and the same month last
        year?"): the share then, never its change (not built), and the groups ranked then — p67: the
        leader now set beside its value a year ago answered "who led then?" with the wrong region.
        The top days or weeks of a series are compared with their own days a year before.
        "同比变化呢", "和去年比呢" ask for the change and are read so."""
        cues, parent = self.cues, self.parent
        asked = comparison is not None and "comparison" in self.changed and not self.r.periods
        said = [self.r.scan.norm[s:e] for s, e in cues.comparison_spans()]
        if cues.compare_word or any(_COMPARING.search(w) for w in said):  # "同比呢", "和去年比呢": the change
            return False
        # groups ranked; periods ranked ("最低的3周") are set beside their own days a year before
        ranked = (parent.top_n is not None or parent.rank_place is not None) and parent.grain is None
        ranked = ranked and not _ITS_VALUE.search(self.r.scan.norm)
        return (
            asked
            and (parent.share or ranked)
            and parent.comparison is None
            and not (cues.change or cues.why or cues.grain)
        )

    def _filters_and_shares(self) -> None:
        """Members replace or add to the filters; a share asked now of members named takes them as
        its parts of the unfiltered whole, as the question asked whole reads them."""
        cues, terms, parent, r = self.cues, self.terms, self.parent, self.r
        if cues.share and parent.share and whole_dimensions(r.scan, terms.members, terms.hits)[0]:
            # "直播占各区域多少" then "直播的成交总额中各区域占多少", "…的比例" then "占华东整体GMV呢": a new
            # whole for the share is asked in one question, never laid over the previous part and whole
            raise AmbiguousQuestion(*both("conversation.share_whole_in_one_question"), detail={"follow_up": True})
        named = {m.dimension for m in terms.members if not m.excluded}
        others = set(parent.dimensions) - named if named and len(parent.dimensions) > 1 else set()
        if cues.share and not parent.share and parent.dimensions and (named - set(parent.dimensions) or others):
            # "各渠道订单量" / "GMV最高的区域" then "新客占比呢": new users' share inside each group (or of the
            # one ranked), or how their orders split across the groups? asked, never the member as the whole;
            # so too after "按渠道、新老客" (new users are one of the groups, channels the others)
            raise AmbiguousQuestion(
                *both("nlu.share_within_or_across"), detail={"dimensions": list(parent.dimensions), "follow_up": True}
            )
        if r.ties is not None and r.ties.together:
            self._summed_with_the_one_before()
        filters, share_filters, filter_parts = filters_of(parent, r, self.planner.catalog)
        self.changed += filter_parts
        dims = dimensions_of(parent, r, filters)
        filters, widened = broken_down_again(parent, r, filters, dims)
        self.changed += ["filter"] if widened and "filter" not in self.changed else []
        if cues.members_apart is not None:  # "手机的订单量" then "比食品多吗": both, side by side
            filters, dims = self._members_apart(cues.members_apart, filters, dims)
        said_parts = [
            f
            for f in filters
            if not f.exclude
            and f.dimension in parent.dimensions
            and any(m.dimension == f.dimension for m in terms.members)
        ]
        new_share = cues.share and not parent.share and not share_filters
        mix_of_one = any(d not in parent.dimensions for d in terms.dims)  # "那华东各渠道的订单量占比": its channel mix
        if new_share and len(parent.dimensions) == 1 and len(said_parts) == 1 and not mix_of_one:
            # "各渠道的GMV" then "直播占比多少" / "直播和网页各占多少": each one's share of the whole, as
            # "上个月直播和网页的GMV各占多少" reads — never of the named members' own sum
            part = said_parts[0]
            share_filters, filters = (part,), [f for f in filters if f is not part]
            dims = list(parent.dimensions) if len(part.members) > 1 else []
        included = [f for f in filters if not f.exclude]
        said_again = len(included) == 1 and all(  # "华东买家数" then "华东占全国的比例": the member kept, said again
            not m.excluded and m.dimension == included[0].dimension and m.member in included[0].members
            for m in terms.members
        )
        if new_share and not share_filters and said_again and not dims:
            # "上个月新用户GMV" then "占比呢" / "占总GMV的比例呢": the member's share of the unfiltered whole
            share_filters, filters = (included[0],), [f for f in filters if f is not included[0]]
        side_by_side = [f for f in included if f.dimension in dims and len(f.members) > 1]
        if new_share and not share_filters and not terms.members and len(side_by_side) == 1:
            # "上个月华东和华南GMV" then "各占全国多少" / "占比呢": each one's share of the unfiltered whole, as
            # "上个月华东和华南的GMV占比" is read — never of the two's own sum
            share_filters, filters = (side_by_side[0],), [f for f in filters if f is not side_by_side[0]]
        fresh = [f for f in included if f not in parent.filters and f.dimension not in dims]
        drilled = mix_of_one and len(fresh) == 1 and fresh[0].dimension in parent.dimensions
        if new_share and not share_filters and len(fresh) == 1 and not drilled:
            # "app GMV" then "what % of app GMV was new users?": new users, the one member named anew, are
            # the part; the whole is what the previous answer measured, as the question asked whole reads it
            share_filters, filters = (fresh[0],), [f for f in filters if f is not fresh[0]]
        if cues.total and not terms.dims and dims:
            dims = []  # "合计呢", "in total?": the breakdown goes
        self.filters, self.share_filters, self.dims = filters, share_filters, dims

    def _summed_with_the_one_before(self) -> None:
        """ "和家用电器加起来多少": members of one dimension the previous question kept (or left out)
        join it, one total; a period, a metric or a broken-down dimension summed this way is asked
        back — never answered as the new part alone."""
        parent, terms, r = self.parent, self.terms, self.r
        named = {m.dimension for m in terms.members if not m.excluded}
        kept = {f.dimension for f in parent.filters}
        new_metric = bool(terms.metrics) and tuple(terms.metrics) != parent.metrics
        members = {m.member for m in terms.members if not m.excluded}
        # "除华东外的GMV" then "和华南加起来多少": 华南 is in already — added to what? asked
        inside = any(f.exclude and not members <= set(f.members) for f in parent.filters if f.dimension in named)
        if len(named) != 1 or not named <= kept - set(parent.dimensions) or new_metric or r.periods or inside:
            raise AmbiguousQuestion(*both("conversation.sum_in_one_question"), detail={"follow_up": True})

    def _members_apart(
        self, dimension: str, filters: list[MemberFilter], dims: list[str]
    ) -> tuple[list[MemberFilter], list[str]]:
        """The members set against each other, broken down by their dimension: one row each, as
        "手机的订单量比食品多吗" asked whole reads them. One side named alone is set against the previous
        answer's member — the first of a pair compared before ("APP比网页高多少" then "和小程序比呢")."""
        said = [f for f in filters if f.dimension == dimension and not f.exclude]
        named = [m for f in said for m in f.members]
        before = [f for f in self.parent.filters if f.dimension == dimension and not f.exclude]
        kept_side = before[0].members[:1] if self.cues.against_previous and before else ()
        members = tuple(dict.fromkeys((*kept_side, *named)))
        if not members:  # "各区域GMV占比" then "华东比华南高多少": named as the share's parts, not filters
            return filters, dims
        kept = [f for f in filters if f not in said]
        both_members = MemberFilter(dimension=dimension, members=members)
        return [*kept, both_members], [*dims, dimension] if dimension not in dims else dims

    def _member_and_breakdown(self) -> None:
        """A member whose place is asked is ranked among its own dimension's members; a ranking or
        a breakdown asked of a single figure takes the remembered breakdown, or is asked back."""
        cues, terms, parent, r = self.cues, self.terms, self.parent, self.r
        self.ranked = cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank
        wants_breakdown = self.ranked or cues.breakdown or (r.ties is not None and r.ties.breakdown)
        each_of_one_member(r, self.filters, self.dims, self.grain, self.metrics)
        placed = member_placed(r, self.filters, self.comparison, share=cues.share)
        if placed is not None:  # "各区域GMV" then "华南排第几": every region ranked, 华南's place said
            self.asked_member = placed.members[0]
            self.dims = [placed.dimension]
            self.filters = [f for f in self.filters if f is not placed]
        elif (
            parent.asked_member is not None
            and self.dims == list(parent.dimensions)
            and not (terms.members or cues.share or self.ranked or cues.why)
            and self.grain == parent.grain
            and self.comparison is None
        ):
            self.asked_member = parent.asked_member  # "华南排第几" then "那订单量呢": 华南's place by orders
        self.placed = placed
        if wants_breakdown and not self.dims and self.grain is None:
            if self.ranked and any(m.dimension in parent.dimensions for m in terms.members):
                # "各渠道的转化率" then "app是最高的吗": app among the channels, never app's top region
                raise AmbiguousQuestion(*both("nlu.ranking_of_one"), detail={"dimensions": list(parent.dimensions)})
            breakdown = self.default_breakdown
            if breakdown is None or not self.planner.breakdown_fits(self.metrics, breakdown):
                raise AmbiguousQuestion(*both("conversation.breakdown_of_what"), detail={"missing": "breakdown"})
            self.dims = [breakdown]
        if self.dims != list(parent.dimensions):
            self.changed.append("breakdown")
        said_of = (terms.dims_naming_a_set | set(terms.dims)) & set(parent.dimensions)
        self.every_group = not self.ranked and bool(said_of) and ALL_GROUPS.search(r.scan.norm) is not None

    def _ranking(self) -> None:
        """A ranking said replaces the previous one ("换成最低的": the bottom N, the count kept);
        every group said ends it; otherwise the previous ranking goes on."""
        cues, parent = self.cues, self.parent
        if self.pointed is not None and not self.ranked:  # the rows pointed at are named, no longer ranked
            if parent.top_n is not None or parent.rank_place is not None:
                self.changed.append("ranking")
            self.top_n, self.place, self.rank_by = None, None, "value"
            return
        if (
            not self.ranked
            and not self.every_group
            and (parent.top_n is not None or parent.rank_place is not None)
            and "metric" in self.changed
            and self._better(self.metrics) != self._better(parent.metrics)
            and any(d in self.dims for d in parent.dimensions)  # "APP的退款率呢": one member, no ranking left
        ):
            # "退款率最好的渠道" then "那GMV呢": which end is "best" differs; asked, never carried over
            raise AmbiguousQuestion(*both("conversation.ranking_direction"), detail={"missing": "order"})
        # "最高的3个区域" then "换成最低的" / "what about the bottom ones": the bottom 3, the count kept
        # "which regions contributed to the decline?": every one ranked, never the top one (review s29)
        top_end = (parent.top_n or 1) if cues.best and cues.rank_place is None and not cues.several else None
        self.top_n = (cues.top_n or top_end) if self.ranked else parent.top_n
        self.place = cues.rank_place if self.ranked else parent.rank_place
        self.left_behind = self._ranking_left_behind() or self._drilled_into_one()
        if (self.every_group or self.left_behind) and (self.top_n is not None or self.place is not None):
            self.top_n, self.place = None, None  # "最低的区域" then "show all regions with …": every one
            self.changed.append("ranking")
        if self.ranked and not cues.place_bare:
            self.order = self.planner.order_of(cues, self.metrics)
        if self.ranked:
            self.changed.append("ranking")
        grouped = self.comparison is not None and bool(self.dims)
        self.rank_by = parent.rank_by if not self.ranked and grouped else "value"

    def _drilled_into_one(self) -> bool:
        """ "退款率最高的两个品类" then "家用电器按渠道看看": one of the groups ranked, broken down by
        another dimension — the top two were of categories, never of that category's channels. The
        groups a top N was taken inside are no ranked groups: "每个渠道GMV最高的2个区域" then "只看web"
        is web's top two regions."""
        parent = self.parent
        if self.ranked or (parent.top_n is None and parent.rank_place is None):
            return False
        ranked = set(parent.dimensions) - set(parent.rank_within) - set(self.dims)
        named = {m.dimension for m in self.terms.members if not m.excluded}
        return bool(ranked & named) and bool(self.dims)

    def _ranking_left_behind(self) -> bool:
        """A follow-up that asks another kind of figure than a ranked few: the gap of two members
        it names ("前三名" then "手机数码比服饰鞋包多多少"), several members named ("卖得最好的品类"
        then "手机数码和服饰鞋包的笔单价": both, never the top one of them), or a series of what ranked
        groups ("退款率最高的渠道" then "直播每个月的退款率走势"): the months of one member, never its top one."""
        parent = self.parent
        if self.ranked or (parent.top_n is None and parent.rank_place is None and parent.intent != "ranking"):
            return False
        named = {m.dimension for m in self.terms.members if not m.excluded}
        of_ranked = bool(named) and named <= set(parent.dimensions)  # members of the groups ranked
        apart = self.cues.difference and self.cues.members_apart is not None
        series = self.grain is not None and parent.grain is None and bool(parent.dimensions)
        # several named of the one dimension ranked over all its members (a ranking among members
        # the previous question kept, "华东、华南、华北里最高的" then "华东和华南呢", goes on among them)
        several = len({m.member for m in self.terms.members if not m.excluded}) > 1
        several = several and len(parent.dimensions) == 1 and not any(f.dimension in named for f in parent.filters)
        return of_ranked and (apart or series or several)

    def _ranked_by_change(self) -> None:
        """A ranking said after a comparison ranks by the change when its words say which way; a
        change ranking goes on to a new count, never to an end or a place its words leave open."""
        cues, parent, r = self.cues, self.parent, self.r
        if not self.ranked:
            return
        dims, comparison = self.dims, self.comparison
        keyed = bool(dims) or self.grain is not None  # groups, or the periods of a series ("哪一周同比下降最多")
        if cues.change and (comparison is not None or parent.comparison is not None):
            # "上个月各品类GMV同比" then "增长最多的是哪个": by the change, when the words say which way
            if cues.ranked_change is None or comparison is None or not keyed:
                raise AmbiguousQuestion(
                    *both("nlu.rank_by_change"), detail={"dimensions": list(dims), "follow_up": True}
                )
            self.rank_by, self.order = cues.ranked_change
            self.contribution = cues.contribution is not None
            self.planner.check_share_of_a_move(cues.share_of_a_move, dims, self.filters)
            if cues.contribution:  # "主要是哪个品类拖累的": of an amount or a count only
                self.planner.check_contribution(cues.contribution, self.metrics, list(dims), self.rank_by, self.grain)
        elif parent.rank_by != "value" and comparison is not None and keyed:
            # "降幅最大的区域" then "那前3呢": the top 3 by the same change; "最低的呢" of a change ranking
            # (the smallest fall, or the largest rise?) is asked back
            said = " ".join(r.scan.text[s:e] for s, e in cues.spans.get("ranking", []))
            if vocab.SUPERLATIVE.search(said) or vocab.ASCENDING.search(said) or cues.quality is not None:
                raise AmbiguousQuestion(
                    *both("nlu.rank_by_change"), detail={"dimensions": list(dims), "follow_up": True}
                )
            if self.place is not None:  # "增长最快的渠道" then "第二名呢": a place by a change is not stated
                said_place = both("nlu.place_by_change", place=self.place)
                raise AmbiguousQuestion(*said_place, detail={"reason": "place_by_change"})
            self.rank_by, self.order = parent.rank_by, parent.order

    def _share_average_why(self) -> None:
        """A share, an average per period and a why go on once asked; a why compares with the
        period before when nothing else is compared."""
        cues, parent = self.cues, self.parent
        said = [self.r.scan.text[s:e] for s, e in cues.spans.get("share", [])]
        if cues.share_contributed and self.comparison is not None and not (cues.change or parent.share):
            raise contribution_of_value_or_change(cues.share_contributed)  # "…环比" then "哪个贡献最大"
        in_percent = cues.share and said and all(_IN_PERCENT.fullmatch(w.strip()) for w in said)
        if in_percent and self.comparison is not None:
            # "which region grew the most" then "in percent terms?": the change in percent (p75), never
            # shares; a change shown in percent already changes nothing (asked back as such)
            cues.share = False
            if self.rank_by == "change":
                self.rank_by = "change_pct"
                self.changed.append("ranking")
        self.share = cues.share or parent.share
        if self.share and not parent.share:
            self.changed.append("share")
        catalog = self.planner.catalog
        rates = [m for m in self.metrics if catalog.metrics[m].is_ratio or catalog.metrics[m].unit == "ratio"]
        if parent.share and not cues.share and rates and "metric" in self.changed:
            # "前两名占比多少" then "它们的退款率呢": a rate has no shares; the shares go, said so, and
            # their parts stay what the rows are read of
            self.filters = [*self.filters, *self.share_filters]
            self.share, self.share_filters = False, ()
            self.changed.append("share")
        self.average_per = cues.average_per or parent.average_per  # "日均GMV" then "那华南呢": per day
        if cues.average_per is not None and cues.average_per != parent.average_per:
            self.changed.append("metric")
        if self.average_per is not None:  # "换成按周看", "那转化率呢" after an average: asked, never dropped
            self.planner.check_average(self.average_per, list(self.metrics), self.grain, self.share)
        self.why = cues.why or still_why(parent, self.r)  # "why did it drop?" then "only East China"
        if cues.why and parent.intent != "why":
            self.changed.append("why")
        if cues.why and self.share and not cues.share and self.r.terms.metrics:
            # "各渠道GMV占比" then "为什么app的GMV下降了": the value's why (a bare "为什么下降了" is the share's: asked)
            self.filters = [*self.filters, *self.share_filters]
            self.share, self.share_filters = False, ()
            self.changed.append("share")
        if self.why and self.comparison is None:
            self.comparison = comparison_of("previous_period", self.time_range, self.as_of)
        if cues.bound is not None:  # "any below 2%?": the groups shown, kept by a bound
            self.changed.append("threshold")

    def _something_changed(self) -> None:
        which_moved = bool(self.cues.spans.get("which_moved")) and self.comparison is not None  # "哪些下降了"
        if not self.changed and not verdict_asked(self.cues, self.parent, self.comparison) and not which_moved:
            raise NothingChanged

    def _each_period(self) -> bool:
        """ "每个月GMV最高的渠道" then "换成订单量" / "只看华东": still the top of each month."""
        parent, dims = self.parent, self.dims
        said_each = ranked_each_period(self.r.scan, self.cues, self.terms)  # "每个月最高的渠道呢"
        each = (parent.rank_each_period or said_each) and self.grain is not None and len(dims) == 1
        each = each and self.place is None and self.top_n is not None and self.comparison is None
        return each and not self.share and self.average_per is None and parent.threshold is None

    def _ranked_keys(self, rank_within: tuple[str, ...], each_period: bool) -> None:
        """ "各区域的GMV" then "最高的3个品类呢": the top of each region, or the top pairs? asked, unless
        the previous question ranked these pairs already (as pairs, or inside each group)."""
        parent = self.parent
        if (self.top_n is None and self.place is None) or each_period:
            return
        ranked_before = parent.top_n is not None or parent.rank_place is not None
        same_keys = ranked_before and set(parent.dimensions) == set(self.dims) and parent.grain == self.grain
        no_longer_each = (parent.rank_within and not rank_within) or parent.rank_each_period  # the top of each
        combination = self.cues.combination or (same_keys and not no_longer_each)
        self.planner.check_ranked_keys(list(self.dims), self.grain, combination=combination)

    def _gap(self) -> bool:
        """The gap of two figures goes on while the follow-up keeps two figures apart."""
        parent = self.parent
        # a whole ranking's ends, or its top two ("最高的两个区域差多少" then "按订单量呢")
        ends = parent.intent == "ranking" and self.top_n in (None, 2) and self.place is None and bool(self.dims)
        asked = parent.difference or (self.cues.members_apart is not None and self.cues.difference)
        pair = [d for d in parent.dimensions if any(f.dimension == d for f in parent.filters)]
        whole = bool(pair) and not any(f.dimension in pair for f in self.filters)
        if parent.difference and whole and not self.cues.difference:
            # "华东比华北高多少" then "全国呢": the whole's figure; "所有区域呢": every region, each one
            every = set(pair) & (self.terms.dims_naming_a_set | set(self.terms.dims))
            self.dims = [d for d in self.dims if d not in pair or d in every]
            return False
        gap = asked and (two_members_apart(self.dims, self.filters) or ends)  # "最高和最低差多少"
        if asked and (not gap or self.comparison is not None or self.grain is not None):
            # "华东和华南的GMV差多少" then "去年同期呢": the gap of each one's change is not built, never dropped
            raise AmbiguousQuestion(*both("nlu.gap_per_group"), detail={"follow_up": True})
        return gap

    def _threshold(self, gap: bool) -> Threshold | None:
        """A bound said keeps the groups the conversation holds; the previous bound goes on where
        the follow-up can carry it, or is asked back."""
        parent, comparison, ranked = self.parent, self.comparison, self.ranked
        if self.cues.bound is not None and len(self.dims) > 1 and not self.cues.combination:
            # "各区域各渠道GMV" then "那订单量超过10000的渠道呢": the channels' totals, or the cells? asked
            raise self.planner.bound_of_which_groups(self.cues.bound.said, self.dims)
        if self.cues.bound is not None:  # "Q2各品类GMV同比" then "涨幅超过20%的有哪些": the groups shown
            kept = self.top_n is not None or self.place is not None or self.asked_member is not None
            kept_ranking = kept or parent.intent == "ranking"
            beside = ranked or gap or kept_ranking
            return said_bound(
                self.planner, self.r, self.metrics, self.dims, self.grain, comparison, ranked=beside, share=self.share
            )
        named = {m.dimension for m in self.terms.members if not m.excluded}
        bound = parent.threshold
        if bound is not None and bound.metric not in self.metrics and named & set(parent.dimensions):
            # "GMV超过1000万的区域" then "那华北和华中的订单量分别多少": the groups are named, the bound goes
            self.changed.append("threshold")
            return None
        of = parent.threshold.of if parent.threshold is not None else "value"
        scope = FloorScope(self.metrics, self.dims, self.grain, self.filters, self.time_range)
        if of in ("change", "change_pct"):  # its comparison is its own
            beside = ranked or gap or self.share or comparison is None
        elif of == "share":  # its share is its own
            beside = ranked or gap or not self.share or comparison is not None
        else:  # a floor goes on beside its ranking ("那今年2月呢"), never beside another
            ranked = ranked and not (floor_kept(parent, scope) and self.rank_by == "value")
            beside = ranked or gap or self.share or comparison is not None
        return kept_bound(parent, scope, beside)

    def _query(self) -> SemanticQuery:
        cues, parent = self.cues, self.parent
        rank_within = still_within(parent, self.dims, self.top_n, self.place, self.comparison, self.grain, self.share)
        each_period = self._each_period()
        self._ranked_keys(rank_within, each_period)
        gap = self._gap()
        groups = bool(self.dims) or self.grain is not None
        if not self.ranked and not self.why and every_group_after_one(self.r, parent, self.comparison, groups):
            self.top_n, self.place, self.rank_by = None, None, "value"  # "下降最多的区域" then "都比5月低吗"
            self.changed.append("ranking")
        compared = self.comparison is not None and self.rank_by == "value" and not self.why
        asked = premise_asked(cues, compared=compared, groups=groups, metrics=len(self.metrics))
        threshold = self._threshold(gap)
        if cues.bound is not None:
            asked = None  # the bound decides which groups are named
        # a why goes on with its premise, unless the metric changed ("换成订单量": orders' move is unsaid)
        kept_premise = parent.premise if "metric" not in self.changed else None
        premise = (cues.premise if cues.why else kept_premise) if self.why else cues.premise if asked else None
        placed, asked_member = self.placed, self.asked_member
        contribution = self.contribution and self.rank_by == "change" and bool(self.dims) and self.grain is None
        if contribution:  # "哪个渠道对GMV下降贡献最大" then "那买家数呢": of an amount or a count only
            self.planner.check_contribution("", self.metrics, list(self.dims), self.rank_by, self.grain)
        return SemanticQuery(
            metrics=self.metrics,
            dimensions=tuple(self.dims),
            filters=tuple(self.filters),
            time_range=self.time_range,
            grain=self.grain,
            comparison=self.comparison,
            top_n=self.top_n if groups and asked_member is None else None,  # "is app the best?": every one ranked
            rank_place=self.place if groups else None,
            order=self.order,
            listed=listing_order(cues, self.order, self.top_n, self.place, self.share)
            if self.ranked
            else parent.listed,
            rank_by=self.rank_by,
            contribution=contribution,
            rank_within=rank_within,
            rank_each_period=each_period,
            intent=intent_of(
                self.why,
                self.comparison,
                self.share,
                self.ranked or (parent.intent == "ranking" and not self.left_behind),
                self.grain,
                self.dims,
            ),
            share=self.share,
            share_filters=self.share_filters if self.share else (),
            share_within=shares_within(parent, self.r, self.dims) if self.share else (),
            premise=premise,
            premise_asked=asked,
            asked_member=asked_member,
            place_asked=(placed is not None and cues.place_asked)
            or (placed is None and asked_member is not None and parent.place_asked),
            average_per=self.average_per,
            threshold=threshold,
            difference=gap,
            ratio=(parent.ratio or (cues.ratio and cues.members_apart is not None)) and gap,
            corrections=(*self.r.corrections, *self._pointer_read_as()),
            where=parent.where,
            as_of=self.as_of,
        )

    def _checked(self, query: SemanticQuery) -> FollowUp:
        """The merged query passes a question's checks; what it changed, and what it no longer keeps
        (a comparison a series replaced, a ranking a single member ends), is named — the reader is
        never told a part was kept that was not."""
        parent = self.parent
        query = self._share_not_compared(query)
        check_follow_up(self.planner, query)
        check_share_compared(query, self.r.scan.norm)
        if self.changed and _same_question(parent, query):
            # "app在各区域订单中的占比" then "app's orders by region, as shares": words read as a change
            # that changes nothing are another question Baton did not build, never the same answer again
            raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True})
        added = [d for d in query.dimensions if d not in parent.dimensions and d not in query.share_within]
        if self.listed is not None and self.listed.across_turns:  # "华东", "华南呢", "这两个分别占多少": each
            added = [d for d in added if d not in {f.dimension for f in query.share_filters}]
        if query.share_filters and added:
            # "what share of GMV came from new users" then "by channel": inside each channel, or across?
            # asked, as the same question asked whole is
            named = [f.dimension for f in query.share_filters]
            raise AmbiguousQuestion(
                *both("nlu.share_within_or_across"), detail={"dimensions": [*added, *named], "follow_up": True}
            )
        dropped, _ = compare_parts(parent, query)
        parts: list[Part] = [p for p in PARTS if p in self.changed or p in dropped]
        return FollowUp(query, changed=tuple(parts), inherited=inherited_parts(parent, parts))

    def _share_not_compared(self, query: SemanticQuery) -> SemanticQuery:
        """A share asked anew of an answer compared in a way shares are not ("环比呢" of each month,
        then "华东占全国的比例是多少"): the shares, the comparison the follow-up never said dropped
        and named as dropped — never a question back about a comparison it did not ask. A change
        asked of the share ("华东占比变化了多少") keeps the comparison, and is asked back."""
        cues = self.cues
        kept = query.comparison is not None and "comparison" not in self.changed and not cues.comparison_spans()
        moved = cues.change or cues.premise is not None or cues.why
        if not (query.share and not self.parent.share and kept) or moved or share_comparison_built(query):
            return query
        update: dict[str, object] = {"comparison": None, "intent": "share"}
        if query.rank_by != "value":  # "哪个渠道对GMV下降贡献最大" then "各渠道占比呢": the shares, unranked
            update.update(rank_by="value", top_n=None, rank_place=None, contribution=False, order="desc")
        return query.model_copy(update=update)

    def _better(self, metrics: tuple[str, ...]) -> str | None:
        return self.planner.catalog.metrics[metrics[0]].better


def _same_question(parent: SemanticQuery, query: SemanticQuery) -> bool:
    """Whether a follow-up's query asks exactly what the previous one did."""
    volatile = {"corrections", "as_of"}
    return parent.model_dump(exclude=volatile) == query.model_dump(exclude=volatile)


def _some_rows_of(count: Metric, shown: Metric) -> bool:
    """Whether ``count`` counts some of the rows ``shown`` — an amount, on the same table — adds up."""
    if not _counts_rows(count) or count.table is None or count.table != shown.table or _counts_rows(shown):
        return False
    return _a_condition_of_its_own(count, shown)


def _only_the_rows_asked(said: str, new: str, count: Metric, shown: Metric) -> AmbiguousQuestion:
    return AmbiguousQuestion(
        *(
            text(
                "conversation.only_the_rows_of_a_count",
                lang,
                count=count.label.for_lang(lang),
                shown=shown.label.for_lang(lang),
                said=said,
            )
            for lang in LANGUAGES
        ),
        detail={"follow_up": True, "reason": "only_the_rows_of_a_count", "metric": new},
    )


def _a_condition_of_its_own(metric: Metric, shown: Metric) -> bool:
    """Whether a simple metric counts only some of the rows ``shown`` is of: by a condition in its
    expression, or a filter ``shown`` does not have (review s25: "only lux listings")."""
    in_expression = metric.expression is not None and _CONDITION.search(metric.expression) is not None
    narrower = set(shown.filters) < set(metric.filters)  # review s26: net revenue's paid ≠ orders' paid+refunded
    return in_expression or narrower


def _counts_rows(metric: Metric) -> bool:
    """Whether a metric counts rows ("COUNT(*)", "SUM(1)", "SUM(CASE WHEN … THEN 1 ELSE 0 END)")."""
    expression = metric.expression or ""
    return metric.unit == "count" or _COUNTS.search(expression) is not None


_COUNTS = patterns.compile(r"^\s*COUNT\s*\(|^\s*SUM\s*\(\s*1\s*\)|\bTHEN\s+1\s+ELSE\s+0\b", re.I)
_CONDITION = patterns.compile(r"\bCASE\s+WHEN\b|\bFILTER\s*\(\s*WHERE\b|\bIF\s*\(", re.I)


__all__ = ["FollowUpMerge", "NothingChanged"]
