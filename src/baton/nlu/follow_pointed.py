"""The stage of a follow-up that points at the rows the previous answer listed ("这两个区域的订单量呢",
"their AOV in May", "那天各渠道的GMV", "第三名的订单量呢"): which rows the words name
(``baton.nlu.follow_pointers``), and how they change the previous question — a filter on their
members, their shares of the whole, or their one period with any comparison said of it.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from baton.catalog.spine import whole_period_count
from baton.contracts.semantic import Comparison, Correction, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.nlu.cues import Cues
from baton.nlu.follow_parts import Part
from baton.nlu.follow_periods import comparison_of
from baton.nlu.follow_pointers import (
    PERIOD_POINTER,
    ListedRows,
    Pointed,
    not_placed,
    period_pointer_count,
    period_pointer_grain,
    placed_rows,
    pointed_rows,
    pointer_count,
    pointer_read_as,
    singular_pointer,
)
from baton.nlu.parser import Planner
from baton.nlu.reading import Terms
from baton.nlu.ties import Reading


def _periods_of_the_question(parent: SemanticQuery, found: re.Match[str]) -> int | str | None:
    """How many whole periods of the pointer's unit the previous question held — its period and the
    one compared with ("6月对比5月": two months) — or None when they are not whole ones."""
    grain = period_pointer_grain(found)
    ranges = [parent.time_range, *([parent.comparison.range] if parent.comparison is not None else [])]
    counts = [whole_period_count(r.start, r.end, grain) for r in ranges]
    if None in counts:
        return None
    total = sum(c for c in counts if c is not None)
    return total if found.group("pn") or found.group("pn_en") else ("any" if total > 1 else None)


class RowsPointedAt:
    """The pointer stage of :class:`baton.nlu.follow_merge.FollowUpMerge` (its state, declared here)."""

    planner: Planner
    parent: SemanticQuery
    r: Reading
    cues: Cues
    terms: Terms
    as_of: date
    listed: ListedRows | None
    pointed: Pointed | None
    by_place: bool
    ranked: bool
    share: bool
    changed: list[Part]
    filters: list[MemberFilter]
    share_filters: tuple[MemberFilter, ...]
    dims: list[str]
    time_range: TimeRange
    grain: Grain | None
    comparison: Comparison | None

    def _pointed(self, said: str) -> Pointed | None:
        """The rows a pointer stands for: a ranking's rows ("这两个区域", "their"), or the one period
        a ranking of periods listed ("那天"). Said of an answer that ranked nothing, it only ties
        the follow-up (a count said must still be the rows listed); "那天" after one day's figure is
        that day."""
        parent, listed = self.parent, self.listed
        ranked = parent.top_n is not None or parent.rank_place is not None
        found = PERIOD_POINTER.fullmatch(said.strip())
        period = found is not None
        several = found is not None and (found.group("pzh") or found.group("pen")) is not None
        if found is not None and several and parent.grain is None:  # "上个月各渠道的GMV" then "这两周的订单量"
            if _periods_of_the_question(parent, found) == (period_pointer_count(found) or "any"):
                return None  # "6月对比5月" then "这两个月各渠道的": the two months the question holds
            raise not_placed(said)
        if period and (parent.grain is None or self.r.periods):
            return None  # "6月18日的GMV" then "那天各渠道的呢": its own period; "6月1日那天": the day said
        named = [m for m in self.terms.members if listed is not None and m.dimension == listed.dimension]
        if named and not period:
            if singular_pointer(said):  # "直播这个渠道呢", "what about live stream and its orders?": the one named
                self._noun_of_the_member(said, {m.dimension for m in named})
                return None
            raise not_placed(said)  # "这两个区域和西南": the two, and one more?
        if listed is not None and listed.dimension is not None and not period:
            self._noun_after_fits(said, listed.dimension)
        if listed is not None and listed.across_turns:  # "华东", "华南呢", then "这两个": both; "它": the last
            return None if singular_pointer(said) else pointed_rows(said, listed, parent)
        count = pointer_count(said)
        if listed is None and count is not None and count > 1 and count != len(parent.metrics):
            raise not_placed(said)  # "这两个" of one figure: two of what? never dropped unread
        if ranked or period:
            return pointed_rows(said, listed, parent)
        if listed is not None and listed.dimension is not None and pointer_count(said) is not None:
            pointed_rows(said, listed, parent)  # "这两个区域" after seven: asked back
        return None

    def _noun_of_the_member(self, said: str, dimensions: set[str]) -> None:
        """ "直播这个渠道呢": the dimension word after the pointer names the member's kind, never a breakdown."""
        norm = self.r.scan.norm
        at = norm.find(said.lower())
        end = at + len(said) if at >= 0 else -1
        for hit in self.terms.hits:
            kinds = {t.target for t in hit.terms if t.kind == "dimension"} & dimensions
            if end >= 0 and kinds and norm[end : hit.start].strip() == "":
                self.terms.dims[:] = [d for d in self.terms.dims if d not in kinds]

    def _noun_after_fits(self, said: str, dimension: str) -> None:
        """ "这两个渠道的订单量" after two regions: the word after a pointer names the rows' own kind."""
        norm = self.r.scan.norm
        at = norm.find(said.lower())
        end = at + len(said) if at >= 0 else -1
        for hit in self.terms.hits:
            kinds = {t.target for t in hit.terms if t.kind == "dimension"}
            if end >= 0 and kinds and norm[end : hit.start].strip() == "" and dimension not in kinds:
                raise not_placed(said)

    def _placed(self, said: str) -> Pointed:
        """The rows a place names among those listed: a bare place ("第三名") in the previous
        ranking's direction, one with its own ("最低的那个") in that one, by the previous metric."""
        cues, parent = self.cues, self.parent
        if cues.place_bare and not parent.ranked:  # "第二个" of a series or of members named: in which order?
            raise not_placed(said)
        order = parent.order if cues.place_bare else self.planner.order_of(cues, parent.metrics)
        place = cues.rank_place if cues.rank_place is not None else None
        return placed_rows(said, self.listed, parent, place=place, count=cues.top_n or 1, order=order)

    def _placed_taken_away(self, said: str, pointed: Pointed) -> Pointed:
        """ "去掉最高的那个", "without the top one": the rows listed but the one placed, of a breakdown
        that ranked and compared nothing and shows no share (after a top 3, the other two or all the
        others? of a share, within which whole? asked back)."""
        parent = self.parent
        ranked = parent.top_n is not None or parent.rank_place is not None
        if pointed.filter is None:  # a period of a series placed: not taken away here
            raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True})
        if len(parent.metrics) > 1:  # the highest by GMV, or by orders? (the rows listed hold the first's values)
            raise AmbiguousQuestion(*both("conversation.placed_by_which_metric", said=said), detail={"follow_up": True})
        if ranked or parent.comparison is not None or parent.share or self.cues.share:
            raise AmbiguousQuestion(*both("conversation.placed_away_which", said=said), detail={"follow_up": True})
        return dataclasses.replace(pointed, filter=pointed.filter.model_copy(update={"exclude": True}))

    def _taken_away(self, away: MemberFilter) -> None:
        """The filters with ``away``'s members taken out: out of a list kept ("只看APP、网页、直播" then
        "去掉最高的那个"), added to those left out, or a filter of its own."""
        filters, placed = [], False
        for f in self.filters:
            if f.dimension != away.dimension:
                filters.append(f)
                continue
            placed = True
            members = (*f.members, *away.members) if f.exclude else tuple(m for m in f.members if m not in away.members)
            if not members:
                raise not_placed(self.pointed.said if self.pointed is not None else "")
            filters.append(f.model_copy(update={"members": members}))
        self.filters = filters if placed else [*filters, away]

    def _rows_pointed_at(self) -> None:
        """The pointed rows replace the ranking: a filter on their members (each one shown), or
        their one period (no longer a series, unless the follow-up asks one)."""
        pointed = self.pointed
        if pointed is None:
            return
        if self.by_place:  # the place named the rows: no ranking of the new metric
            self.ranked = False
        across = self.listed is not None and self.listed.across_turns  # "华东", "华南呢", then "这两个…"
        each = not self.cues.total  # "their combined share", "它们一共多少": one figure of both
        if pointed.filter is not None and (self.share or self.cues.share):  # "这两个区域的GMV占比": of the whole
            self.share_filters = (pointed.filter,)
            if across:  # "这两个分别占多少": the two members' shares, no longer a filter to the last one
                self.filters = [f for f in self.filters if f.dimension != pointed.filter.dimension]
            if pointed.filter.dimension not in self.dims and (each or not across):
                self.dims.append(pointed.filter.dimension)
            self.changed.append("filter")
        elif pointed.filter is not None and pointed.filter.exclude:  # "去掉最高的那个": the others, still by it
            self._taken_away(pointed.filter)
            self.changed.append("filter")
        elif pointed.filter is not None:
            dim = pointed.filter.dimension
            self.filters = [*(f for f in self.filters if f.dimension != dim), pointed.filter]
            if across and each and dim not in self.dims:
                self.dims.append(dim)  # "华东", "华南呢", "这两个的订单量": each one's, as each was shown
            if len(pointed.filter.members) == 1 and dim in self.dims:  # "它的订单量": one figure
                self.dims.remove(dim)
            self.changed.append("filter")
        if pointed.period is not None:
            self.time_range = pointed.period
            self.grain = self.cues.grain or pointed.grain
            # "那天…同比", "that week vs the week before": the comparison said, of the period pointed at
            said = self.comparison is not None and "comparison" in self.changed
            kind = self.comparison.kind if self.comparison is not None else None
            if said and kind in ("previous_period", "same_period_last_year"):
                self.comparison = comparison_of(kind, pointed.period, self.as_of)
            elif said and kind != "custom":  # a week earlier of a period pointed at: not placed
                raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True})
            elif self.comparison is not None and not said:  # the comparison of the previous ranking goes
                self.comparison = None
                self.changed.append("comparison")
            self.changed.append("period")

    def _pointer_read_as(self) -> tuple[Correction, ...]:
        if self.pointed is None:
            return ()
        return (pointer_read_as(self.pointed, self.planner.catalog, self.r.language),)


__all__ = ["RowsPointedAt"]
