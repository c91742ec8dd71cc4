"""Assembling the SemanticQuery of a read question (the last step of the rule planner), stage
by stage, each asking back what it cannot build rather than dropping it."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date
from typing import Literal

from baton.contracts.common import LANGUAGES
from baton.contracts.semantic import Comparison, Correction, Grain, MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu.bounds import threshold_of
from baton.nlu.catalog_checks import CatalogChecks, check_share_compared
from baton.nlu.change_words import premise_asked
from baton.nlu.cues import ChangeMeasure, Cues
from baton.nlu.guards import (
    A_PLACE,
    ask_back,
    check_place_among_members,
    check_ranking_of_one_period,
    first_asked,
    listing_order,
    place_is_asked,
    two_members_apart,
)
from baton.nlu.periods import each_against_the_one_before
from baton.nlu.reading import Terms
from baton.nlu.shares import ShareMarks

MAX_RANKED = 1000
"""The most rows a top N (or a place) of a ranking names (``SemanticQuery.top_n``)."""

Order = Literal["desc", "asc"]


@dataclasses.dataclass(frozen=True)
class _Ranking:
    """How the question ranks its groups: what is listed, in which order, by which measure."""

    top_n: int | None
    place: int | None
    order: Order
    rank_by: ChangeMeasure | Literal["value"]
    within: tuple[str, ...]
    """ "每个渠道GMV最高的2个品类": the top N inside each group of these dimensions."""
    each_period: bool
    """ "每个月GMV最高的渠道": the top N inside each period of the series."""
    asked_member: str | None
    """ "华东是不是GMV最高的区域": every group ranked, and where this member stands."""
    filters: list[MemberFilter]
    ranked: bool


class QueryAssembly(CatalogChecks):
    """Builds the SemanticQuery of a read question, stage by stage: breakdown and filters, grain
    and comparison, ranking, share, average, threshold. A stage that cannot build what the
    question says asks back; none drops it."""

    def build(
        self,
        cues: Cues,
        terms: Terms,
        time_range: TimeRange,
        comparison: Comparison | None,
        corrections: tuple[Correction, ...],
        as_of: date,
        *,
        marks: ShareMarks,
    ) -> SemanticQuery:
        """The query of a question read in full (its cues, terms and resolved periods)."""
        dims = self._breakdown(cues, terms)
        filters, share_filters = self._filters(cues, terms, dims, marks)
        self._no_filter_of_nothing(filters)
        self.check_dimensions(terms.metrics, dims, [f.dimension for f in (*filters, *share_filters)])
        self.check_metric_filters(terms.metrics, dims, filters, share_filters)
        grain, comparison = self._grain_and_comparison(cues, time_range, comparison)
        ranking = self._ranking(cues, terms, dims, filters, time_range, grain, comparison)
        share = cues.share
        within = self._share_within(cues, terms, dims, share_filters, comparison, grain, marks)
        if cues.average_per is not None:
            self.check_average(cues.average_per, terms.metrics, grain, share)
        threshold = self._threshold(cues, terms, dims, grain, comparison, ranked=ranking.ranked)
        compared = comparison is not None and ranking.rank_by == "value"
        query = SemanticQuery(
            metrics=tuple(terms.metrics),
            dimensions=tuple(dims),
            filters=tuple(ranking.filters),
            time_range=time_range,
            grain=grain,
            comparison=comparison,
            top_n=ranking.top_n,
            rank_place=ranking.place,
            order=ranking.order,
            listed=listing_order(cues, ranking.order, ranking.top_n, ranking.place, share),
            rank_by=ranking.rank_by,
            contribution=cues.contribution is not None,
            rank_within=ranking.within,
            rank_each_period=ranking.each_period,
            intent=_intent(cues, dims, grain, comparison, ranking),
            share=share,
            share_filters=tuple(share_filters),
            share_within=tuple(within),
            # one direction asked beside several metrics ("orders and AOV, and did AOV go up"): of which? none
            premise=cues.premise
            if cues.why or (compared and threshold is None and not (cues.yes_no and len(terms.metrics) > 1))
            else None,
            asked_member=ranking.asked_member,
            place_asked=ranking.asked_member is not None and cues.place_asked,
            premise_asked=premise_asked(
                cues, compared=compared, groups=bool(dims) or grain is not None, metrics=len(terms.metrics)
            ),
            threshold=threshold,
            average_per=cues.average_per,
            difference=cues.difference
            and (two_members_apart(dims, ranking.filters) or cues.both_ends or ranking.top_n == 2),
            ratio=cues.ratio,
            corrections=corrections,
            as_of=as_of,
        )
        self.check_average_periods(query)
        check_place_among_members(query.rank_place, query.dimensions, query.filters)
        _no_gap_or_ratio_unbuilt(query, cues)
        check_share_compared(query)
        return query

    @staticmethod
    def _breakdown(cues: Cues, terms: Terms) -> list[str]:
        """The dimensions named, or those a "所有…都" check runs over, one by one."""
        dims = list(terms.dims)
        if cues.all_of_them == "each" and not dims:  # "所有渠道GMV都超过100万吗", "所有渠道都有订单吗": each one
            dims = sorted(terms.dims_naming_a_set)
        elif cues.all_of_them == "unsaid" and cues.bound is not None and not dims:
            # "所有渠道GMV超过4000万吗": their sum, or each one? asked, never guessed
            raise ask_back(
                "nlu.check_sum_or_each", {"dimensions": sorted(terms.dims_naming_a_set), "reason": "check_sum_or_each"}
            )
        unsaid = [said for dim, said in terms.all_said.items() if dim not in dims]
        if unsaid and not dims and not cues.total and cues.all_of_them is None and cues.bound is None:
            # "上周所有区域的笔单价": all of them as one figure, or each one? asked, never one total unsaid
            raise ask_back("nlu.all_together_or_each", {"reason": "all_together_or_each"}, said=unsaid[0])
        return dims

    def _grain_and_comparison(
        self, cues: Cues, time_range: TimeRange, comparison: Comparison | None
    ) -> tuple[Grain | None, Comparison | None]:
        """The series' grain, and the comparison kept beside it: a change word over a series is
        the series itself ("近4周每周的取消率有没有变高"); each period is drawn beside its last year
        ("每月GMV同比") or the period before it ("今年每个月GMV环比"); any other comparison the
        question names cannot be drawn per period yet, so it is asked back."""
        grain = cues.grain
        if cues.trend and grain is None:
            grain = self.default_grain(time_range)
        if comparison is None or grain is None:
            return grain, comparison
        implied = comparison.kind == "previous_period" and cues.comparison_kind is None and not cues.why
        if comparison.kind == "same_period_last_year" and not cues.why:
            return grain, comparison  # "2026年每月GMV同比": each period of the series beside its own last year
        one_before = cues.window in (None, (1, grain))  # "每周GMV月环比" names another period: asked back
        said_before = cues.comparison_kind == "previous_period" and comparison.kind == "previous_period"
        if said_before and one_before and not cues.why:
            return grain, each_against_the_one_before(time_range, grain)  # "今年每个月GMV环比"
        if not implied:
            raise AmbiguousQuestion(
                *(
                    message("nlu.grain_with_comparison", lang, grain=message(f"answer.grain_{grain}", lang))
                    for lang in LANGUAGES
                ),
                detail={"grain": grain},
            )
        return grain, None

    def _ranking(
        self,
        cues: Cues,
        terms: Terms,
        dims: list[str],
        filters: list[MemberFilter],
        time_range: TimeRange,
        grain: Grain | None,
        comparison: Comparison | None,
    ) -> _Ranking:
        top_n, place = cues.top_n, cues.rank_place
        longest = max(top_n or 0, place or 0)
        if longest > MAX_RANKED:  # "top 5000 categories": more than a ranking lists
            raise AmbiguousQuestion(
                *both("nlu.ranking_too_long", n=longest, most=MAX_RANKED), detail={"reason": "ranking_too_long"}
            )
        self.check_share_of_a_move(cues.share_of_a_move, dims, filters)  # "what share of the decline came from app"
        if (top_n is not None or place is not None or cues.best or cues.rank) and not dims and grain is None:
            raise AmbiguousQuestion(*self.with_examples("nlu.ranking_of_what"), detail={"missing": "breakdown"})
        if cues.breakdown and not dims and grain is None:
            raise AmbiguousQuestion(*self.with_examples("nlu.breakdown_by_what"), detail={"missing": "breakdown"})
        several = False  # "which categories had the most": the whole ranking, highest first
        if cues.best and top_n is None and place is None and not cues.both_ends:
            several = cues.several or self._named_in_plural(terms, dims, _among(cues))
            cues.rank = cues.rank or several
            top_n = None if several else 1  # "ranked second-lowest": the place is the ranking
        within, each_period = _ranked_inside_each(cues, dims, grain, comparison, top_n, place, several)
        if not (within or each_period) and (top_n is not None or place is not None or several):
            # of each group, or of the pairs?
            self.check_ranked_keys(dims, grain, combination=cues.combination)
        ranked = bool(top_n or place or cues.rank)
        if ranked or cues.best:  # "was June our worst month this year?": one month ranked is no ranking
            check_ranking_of_one_period(time_range, grain, dims)
        asked_member, filters, top_n = _member_placed(cues, terms, dims, filters, comparison, top_n, place, ranked)
        order = self.order_of(cues, terms.metrics) if (ranked or cues.best) else cues.order
        keyed = [*dims, *(["period"] if grain is not None else [])]  # "哪一周同比下降最多": weeks ranked too
        rank_by, order = _ranked_by(cues, keyed, comparison, top_n, place, ranked, order)
        if cues.contribution:
            self.check_contribution(cues.contribution, terms.metrics, dims, rank_by, grain)
        if (
            top_n is not None and place is not None
        ):  # "最高的一天和第二高的一天": a top and a place, asked one at a time
            raise AmbiguousQuestion(*both("nlu.two_rankings"), detail={"rankings": [f"top {top_n}", f"#{place}"]})
        return _Ranking(top_n, place, order, rank_by, within, each_period, asked_member, filters, ranked)

    def _share_within(
        self,
        cues: Cues,
        terms: Terms,
        dims: list[str],
        share_filters: list[MemberFilter],
        comparison: Comparison | None,
        grain: Grain | None,
        marks: ShareMarks,
    ) -> list[str]:
        """The breakdown's dimensions each group's share is taken inside ("每个区域的订单中…")."""
        if not cues.share:
            return []
        parted = {f.dimension for f in share_filters}
        within = [d for d in dims if (d in marks.inside or d in marks.whole) and d not in parted]
        self.check_share(terms.metrics, dims, share_filters, comparison, grain)
        if within and set(within) == set(dims) and not share_filters:  # "每个区域的订单中占比": of what?
            raise ask_back("nlu.share_of_what", {"dimensions": within})
        if len(dims) > 1 and not within:
            # "channel mix of GMV for new vs returning users": each cell of the grand total, or
            # the channels inside each user type? asked, as a part beside a breakdown is
            raise ask_back("nlu.share_within_or_across", {"dimensions": dims})
        return within

    def _threshold(
        self,
        cues: Cues,
        terms: Terms,
        dims: list[str],
        grain: Grain | None,
        comparison: Comparison | None,
        *,
        ranked: bool,
    ) -> Threshold | None:
        """ "退款率超过5%的品类": the groups that pass, with no ranking beside it."""
        if cues.bound is None:
            return None
        share = cues.share
        of_change = cues.bound.change is not None  # "环比增长超过5%的品类": compared, and kept by the change
        beside = (share and not cues.bound.share) or cues.difference or cues.ratio
        beside = beside or (comparison is not None and not of_change)
        beside = beside or (bool(dims) and grain is not None)  # "每天GMV超过200万的渠道": every day, or any?
        # "top 3 by refund rate among those with at least 5000 orders": a ranking of the groups a bound
        # on another metric keeps; a bound beside a ranking of its own metric stays asked back
        # "refund rate by category among those with more than 8000 orders": the same floor, with no ranking
        floor_of = terms.metrics[0] if not beside and len(terms.metrics) == 2 else None
        floor_of = floor_of if floor_of is not None and self._said_as_a_floor(cues, terms, dims) else None
        # "日均订单量": a per-day figure of one metric would bound the other per day too — asked back
        floor_of = floor_of if cues.average_per is None else None
        beside = beside or ((ranked or cues.best) and floor_of is None)
        groups = bool(dims) or grain is not None
        bound_end = max((e for _, e in cues.spans.get("threshold", [])), default=None)
        said_after = bound_end is not None and any(
            h.start >= bound_end and any(t.kind == "dimension" and t.target in dims for t in h.terms)
            for h in terms.hits
        )
        if len(dims) > 1 and said_after and not cues.combination:
            # "上个月GMV超过1000万的区域，按渠道拆开看": the regions' totals, or each region × channel? Never
            # the cells bounded as if they were the regions ("各区域各渠道GMV超过100万的": the cells, said so)
            raise self.bound_of_which_groups(cues.bound.said, dims)
        threshold = threshold_of(
            cues.bound,
            self.catalog,
            terms.metric_hits,
            terms.metrics,
            groups=groups,
            beside=beside,
            yes_no=cues.yes_no,
            compared=comparison is not None,
            shared=share,
            ranked_by=floor_of,
        )
        if cues.yes_no and (not groups or cues.every):  # "超过1.5亿吗", "每个渠道都超过100万吗": a check
            threshold = threshold.model_copy(update={"check": "all"})
        return threshold

    def _said_as_a_floor(self, cues: Cues, terms: Terms, dims: Sequence[str]) -> bool:
        """A bound said as the groups a ranking is among — "订单量超过8000的品类中退款率最高的3个",
        "… among those with at least 5000 orders" — in the ranking's own clause, its group word
        (if any) the breakdown's; with no ranking, the groups whose other metric is listed ("refund
        rate by category among those with more than 8000 orders"). Any other bound beside a ranking
        ("GMV最高的3个品类中退款率超过5%的", "which of the top 3 … had …", "… among users with more
        than 2 orders", "which ones made the top 3") may bound the groups ranked, or other rows; a
        bare "those" beside a count of people ("buyers by channel among those with more than 2
        orders") may be the people; a member said of the bounded metric, or a total asked, is of
        that metric alone or of the groups together: each asked back."""
        assert cues.bound is not None
        floor = cues.bound.floor
        if floor is None or floor.membership:
            return False
        if floor.member_of_its_metric is not None and cues.bound.term is not None:
            raise self._member_of_the_floor(terms, floor.member_of_its_metric, cues.bound.term)
        ranked = cues.spans.get("ranking", [])
        if not all(floor.clause[0] <= s and e <= floor.clause[1] for s, e in ranked):
            return False
        if not ranked and (not dims or cues.grain is not None or floor.total_said):
            return False  # with no ranking, each group of a breakdown listed
        if floor.group is None and any(self._counts_people(m) for m in terms.metrics[:1]):
            return False
        if floor.group is None:
            return True
        named = {
            t.target for h in terms.hits if (h.start, h.end) == floor.group for t in h.terms if t.kind == "dimension"
        }
        return bool(named & set(dims))

    @staticmethod
    def _member_of_the_floor(terms: Terms, member: tuple[int, int], term: tuple[int, int]) -> AmbiguousQuestion:
        """ "上个月华东订单量超过2000的品类中退款率最高的2个": 华东 is said of the bounded metric — of it
        only, or of the one ranked too? Asked back by name."""
        said = {(h.start, h.end): h.text for h in terms.hits}
        other = next((h.text for h in terms.metric_hits if (h.start, h.end) != term), "")
        words = {"member": said.get(member, ""), "metric": said.get(term, ""), "first": other}
        return AmbiguousQuestion(
            *both("nlu.member_of_one_metric", **words), detail={**words, "reason": "member_of_floor"}
        )

    def _counts_people(self, metric: str) -> bool:
        """A distinct count ("buyers"), or a ratio over one ("GMV per buyer"): "those" beside it may
        be the people counted, not the groups."""
        info = self.catalog.metrics[metric]
        denominator = info.denominator if isinstance(info.denominator, str) else None
        return info.distinct_count or (denominator in self.catalog.metrics and self._counts_people(denominator))

    def order_of(self, cues: Cues, metrics: Sequence[str]) -> Literal["desc", "asc"]:
        """The ranking direction; "best"/"worst" follow the metric's declared ``better``."""
        if cues.quality is None:
            return cues.order
        better = self.catalog.metrics[metrics[0]].better
        if better is None:
            raise ask_back("nlu.better_unknown", {"metric": metrics[0]})
        good_is_high = better == "higher"
        return "desc" if (cues.quality == "good") == good_is_high else "asc"

    def _named_in_plural(self, terms: Terms, dims: Sequence[str], among: tuple[int, int] | None = None) -> bool:
        """A grouping named in the English plural ("which categories had the highest GMV", "top
        channels"): several groups are asked for, however many there are — never by the plural of
        the groups a bound keeps (``among``: "… among categories with over 8000 orders")."""
        for hit in terms.hits:
            if among is not None and among[0] <= hit.start < among[1]:
                continue
            word = hit.text.lower()
            if hit.kinds != {"dimension"} or hit.terms[0].target not in dims or not word.isascii():
                continue
            dim = self.catalog.dimensions[hit.terms[0].target]
            names = {dim.label.en.lower(), *(s.lower() for s in dim.synonyms)}
            singular = {word[:-1] if word.endswith("s") else "", word[:-3] + "y" if word.endswith("ies") else ""}
            singular |= {word[:-2]} if word.endswith("es") else set()
            if (singular - {""}) & names:
                return True
        return False

    def _filters(
        self, cues: Cues, terms: Terms, dims: list[str], marks: ShareMarks
    ) -> tuple[list[MemberFilter], list[MemberFilter]]:
        """Member filters by dimension, and the filters of a share's part. Several members of
        one dimension are shown one by one — their dimension is added to ``dims`` — unless the
        question asks for their total; with a share, the members of one dimension are the part
        whose share of the whole is asked — across a breakdown the whole is the filtered total
        ("华东各品类GMV占比"), unless the breakdown's groups are marked as the whole
        ("每个区域的订单中APP占多少"); members of the breakdown's own dimension are the part of
        the whole unfiltered by them ("各渠道中APP的GMV占比": APP's share of all channels, not
        100 %; "各区域中华东和华南的GMV占比": each of the national total); a whole said to be
        everything ("占全部成交额", "share of total GMV") leaves every filter to the part; a member marked as the
        part beside an unmarked breakdown ("app share of orders by region": within each region,
        or across them?) is asked back."""
        explicit = list(dims)
        by_dim: dict[tuple[str, bool], list[str]] = {}
        for m in terms.members:
            bucket = by_dim.setdefault((m.dimension, m.excluded), [])
            if m.member not in bucket:
                bucket.append(m.member)
        filters = [MemberFilter(dimension=d, members=tuple(ms), exclude=ex) for (d, ex), ms in by_dim.items()]
        for f in filters:
            narrowed = f.dimension in cues.narrowed and bool(explicit)  # "只看app和小程序，各区域GMV": one subset
            if not f.exclude and len(f.members) > 1 and not cues.total and not narrowed and f.dimension not in dims:
                dims.append(f.dimension)
        if not cues.share or not filters:
            return filters, []
        shown = [f for f in filters if not f.exclude and f.dimension in explicit]
        if shown:  # "各渠道中APP的GMV占比": members of the breakdown's own dimension, of the unfiltered whole
            return [f for f in filters if f not in shown], shown
        whole = marks.whole | set(explicit)  # a breakdown's members are never the part
        if marks.everything and not marks.whole and not set(explicit) & marks.inside:
            # "除了APP以外，各渠道占全部成交额的百分之多少", "share of total GMV … excluding app": the whole
            # is said to be everything, so every member named or left out is of the part only
            return [], filters
        if explicit and not set(explicit) & marks.inside:
            parts = [f.dimension for f in filters if f.dimension in marks.part and f.dimension not in whole]
            if marks.weak:
                parts += [f.dimension for f in filters if f.dimension in marks.whole and f.dimension not in explicit]
            if parts:
                raise ask_back("nlu.share_within_or_across", {"dimensions": [*explicit, *parts]})
            return filters, []  # a share across a breakdown: of the filtered whole
        # "除了直播以外，APP的GMV占比": what is excluded leaves the whole, what is named is the part;
        # only an exclusion ("非直播的GMV占比") is itself the part. Members a word marks as the whole
        # ("新用户的订单中", "among new users") filter the whole (nlu/shares.py).
        named = [f for f in filters if not f.exclude and f.dimension not in whole] or [
            f for f in filters if f.dimension not in whole
        ]
        share_dims = {f.dimension for f in named}
        if len(share_dims) > 1 and set(explicit) & marks.inside and len(share_dims & marks.part) == 1:
            # "华东每个品类的订单中直播占多少": 直播 is marked the part, 华东 bounds each group's whole
            share_dims &= marks.part
            named = [f for f in named if f.dimension in share_dims]
        # "华东APP的GMV占全国的比例", "app new users' share of June orders": both the part
        if len(share_dims) > 1 and (marks.everything or marks.bare) and not explicit:
            return [f for f in filters if f not in named], named
        if len(share_dims) != 1:
            raise ask_back("nlu.share_of_what", {"dimensions": sorted(share_dims)})
        (share_dim,) = share_dims
        part = [f for f in named if f.dimension == share_dim]
        return [f for f in filters if f not in part], part


def _ranked_inside_each(
    cues: Cues,
    dims: list[str],
    grain: Grain | None,
    comparison: Comparison | None,
    top_n: int | None,
    place: int | None,
    several: bool,
) -> tuple[tuple[str, ...], bool]:
    """A top N inside each group of a dimension, or inside each period of a series."""
    if top_n is None or place is not None or several:
        return (), False
    plain_series = comparison is None and not (cues.share or cues.difference or cues.bound)
    simple = plain_series and (grain is None or cues.which_time)  # a group's top period: "每个渠道最高的月份"
    if cues.rank_within is not None and simple:
        return (cues.rank_within,), False
    if cues.rank_each_period and plain_series:
        return (), grain is not None and len(dims) == 1
    return (), False


def _member_placed(
    cues: Cues,
    terms: Terms,
    dims: list[str],
    filters: list[MemberFilter],
    comparison: Comparison | None,
    top_n: int | None,
    place: int | None,
    ranked: bool,
) -> tuple[str | None, list[MemberFilter], int | None]:
    """A ranking beside one member of its own dimension asks where that member stands: the
    member, the filters without it and the top N left (none: every group is ranked)."""
    one = [f for f in filters if f.dimension in dims and len(f.members) == 1 and not f.exclude]
    if ranked and one and (first_asked(cues, dims, top_n, place, comparison) or place_is_asked(cues, dims, comparison)):
        # "华东是不是GMV最高的区域": every region ranked, and whether 华东 is first
        return one[0].members[0], [f for f in filters if f is not one[0]], None
    if ranked and one:
        raise ask_back("nlu.ranking_of_one", {"dimensions": dims})  # "show East China's top region"
    if ranked and any(A_PLACE.search(said) for said in cues.place_said):
        other = [m for m in terms.members if not m.excluded and m.dimension not in dims]
        if len(other) == 1:  # "华南GMV在各渠道里排第几": a region's place among channels?
            said = other[0].hit.text
            raise ask_back("nlu.place_of_other_kind", {"member": said, "dimensions": dims}, member=said)
    return None, filters, top_n


def _ranked_by(
    cues: Cues,
    dims: list[str],
    comparison: Comparison | None,
    top_n: int | None,
    place: int | None,
    ranked: bool,
    order: Order,
) -> tuple[ChangeMeasure | Literal["value"], Order]:
    """A ranking beside a comparison is by the value, or by the change when the question says
    which way ("哪个渠道GMV环比下降最多"); where it does not say, asked, never dropped."""
    if ranked and comparison is not None and cues.quality is not None and not cues.change:
        # "上个月GMV环比表现最差的渠道": the worst value, or the worst change?
        raise ask_back("nlu.rank_value_or_change", {"dimensions": dims})
    if cues.rank and comparison is not None and top_n is None and place is None and not cues.change and dims:
        # "各渠道GMV环比，从低到高排": sorted by the value, or by the change?
        raise ask_back("nlu.rank_value_or_change", {"dimensions": dims})
    if not (ranked and comparison is not None and cues.change and not cues.value_ranked):
        return "value", order
    if cues.ranked_change is None or not dims:
        raise ask_back("nlu.rank_by_change", {"dimensions": dims})
    if place is not None:  # a place by a change is not stated: asked, never shown as the first
        raise ask_back("nlu.place_by_change", {"reason": "place_by_change"}, place=place)
    return cues.ranked_change


def _intent(
    cues: Cues, dims: list[str], grain: Grain | None, comparison: Comparison | None, ranking: _Ranking
) -> Literal["why", "comparison", "share", "ranking", "trend", "breakdown", "value"]:
    if cues.why:
        return "why"
    if comparison:
        return "comparison"
    if cues.share:
        return "share"
    if ranking.top_n or ranking.place or (cues.rank and (dims or grain)):
        return "ranking"
    if grain:
        return "trend"
    return "breakdown" if dims else "value"


def _no_gap_or_ratio_unbuilt(query: SemanticQuery, cues: Cues) -> None:
    """A gap per month or inside each group, or a ratio of anything but two members (or two
    periods' totals), is not built: asked back."""
    gap_said = cues.difference and not query.difference  # "by region, new minus returning orders"
    if gap_said or (query.difference and (query.grain is not None or query.comparison is not None)):
        # "今年每月华东比华南多多少"
        raise ask_back("nlu.gap_per_group", {"dimensions": list(query.dimensions), "grain": query.grain})
    two_periods = query.comparison is not None and query.comparison.kind == "custom"
    if query.ratio and not query.difference and not (two_periods and not query.dimensions and query.grain is None):
        # "GMV和订单量的比值", "GMV增长了几倍"
        raise ask_back("nlu.ratio_of_two", {"ratio": True})


def _among(cues: Cues) -> tuple[int, int] | None:
    """The span of a bound said as the groups a ranking is among ("among categories with over 8000")."""
    if cues.bound is None or cues.bound.floor is None:
        return None
    return cues.bound.floor.span
