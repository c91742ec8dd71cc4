"""Sentences of a figure against another period: one figure's change (with a premise the data
contradicts, or a direction asked, answered first), each group's largest rise and fall, the groups
that moved the way a yes/no asked, a ranking by the change, the ratio of two periods."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from functools import partial
from typing import Any

from baton.agents.change_ranking import change_ranking_sentence, change_text
from baton.agents.narration import NarratorBase, Sentence, named_row, polish
from baton.catalog.spine import counterpart_start
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import capitalised, text
from baton.nlu.interpret import compared_with, period_text, value_label
from baton.nlu.timeexpr import period_bounds
from baton.numbers import direction_of, format_exact, plural_noun
from baton.numbers import format_signed_percent as format_pct


def premise_sentence(query: SemanticQuery, label: str, change: Any, language: Language) -> str:
    """ "问题说成交总额下降，但实际上升：" before a comparison whose data moved against the direction
    the question took for granted ("上个月web订单是不是下降了" when they rose); a direction asked
    ("6月GMV比5月高吗") is answered yes or no, either way; no change known, nothing is said."""
    if query.premise is None or change is None:
        return ""
    actual = direction_of(change)
    if query.premise_asked:
        verdict = "answer.comparison_asked_yes" if actual == query.premise else "answer.comparison_asked_no"
        return text(verdict, language, label=label, actual=text(f"answer.premise_{actual}", language))
    if actual == query.premise:
        return ""
    return text(
        "answer.comparison_premise_wrong",
        language,
        label=label,
        said=text(f"answer.premise_{query.premise}", language),
        actual=text(f"answer.premise_{actual}", language),
    )


def _comparison_key(by: dict[str, str], pct: Any) -> str:
    """The sentence of one figure against another: with its change said, and in percent unless its
    base is at or below zero (or the change is unknown)."""
    if by and pct is None:
        return "answer.comparison_change_only"
    return "answer.comparison_by" if by else "answer.comparison"


class ComparedSentences(NarratorBase):
    """The sentences of a comparison."""

    def _compared_where(self, say: Sentence) -> dict[str, str]:
        """What a sentence of a comparison says around its figures: the label, filters, period,
        the kind of comparison and the period compared with."""
        kind, previous_period = compared_with(say.query, say.language)
        label = value_label(self.catalog, say.query, say.metric, say.language)
        return {
            "label": label,
            "filters": say.filters,
            "period": say.period,
            "kind": kind,
            "previous_period": previous_period,
        }

    def _comparison_sentence(self, say: Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        label = value_label(self.catalog, query, metric, language)
        cmp = query.comparison
        assert cmp is not None
        kind, prev_period = compared_with(query, language)
        one_row = len(rows) == 1 and (query.dimensions or query.grain is not None)
        if (not query.dimensions and query.grain is None) or one_row:  # one figure against one figure
            row = rows[0]
            if one_row:  # "2026年6月GMV最高的区域，和上月相比": the one group, by name
                named = self._row_label(query, row, language)
                filters = text("answer.filters", language, parts=named) + filters
            if one_row and query.grain is not None and "period" in row and cmp.kind == "same_period_last_year":
                # "GMV最高的一天" then "去年同一天呢": its own day last year, never the whole range's
                prev_period = self._own_last_year(query, str(row["period"])[:10], language) or prev_period
            cur, prev, pct = row[metric], row[f"{metric}_previous"], row[f"{metric}_change_pct"]
            change = row.get(f"{metric}_change")
            by = {}  # "比去年同期多了多少钱": an amount or a count says by how much, with its sign; a rate in points
            info = self.catalog.metrics[metric]
            if change is not None and (info.amount_or_count or info.unit == "ratio" or pct is None):
                by = {"change": change_text(self.catalog, metric, change, language, fmt)}
            said = self._premise_not_met(query, metric, change, language)
            ratio = self._period_ratio(
                query, cur, prev, query.time_range.text or period, cmp.range.text or prev_period, language
            )
            return (
                said
                + polish(
                    text(
                        _comparison_key(by, pct),
                        language,
                        **by,
                        label=label,
                        filters=filters,
                        period=period,
                        current=fmt(cur),
                        previous_period=prev_period,
                        previous=fmt(prev),
                        kind=kind,
                        pct=format_pct(pct, language),
                    ),
                    language,
                    period,
                )
                + ratio
            )
        return self._groups_compared(say, label, filters, kind, prev_period)

    @staticmethod
    def _own_last_year(query: SemanticQuery, key: str, language: Language) -> str | None:
        """The days last year one period of a series met in its row, as the compiler moved them
        (:func:`baton.catalog.spine.counterpart_start`), within the comparison's own range."""
        cmp = query.comparison
        assert cmp is not None and query.grain is not None
        day = date.fromisoformat(key)
        start, end = (day, day) if query.grain == "day" else period_bounds(day, query.grain)
        start, end = max(start, query.time_range.start), min(end, query.time_range.end)
        first, last = counterpart_start(query, start), counterpart_start(query, end)
        if first is None or last is None:
            return None
        first, last = max(first, cmp.range.start), min(last, cmp.range.end)
        return period_text(first, last, None, language) if first <= last else None

    def _groups_compared(self, say: Sentence, label: str, filters: str, kind: str, prev_period: str) -> str:
        """Each group against its own previous: the largest fall and rise of the members (or none, when
        no group has a value on both sides), then the groups a yes/no or "which" asked about."""
        query, metric, rows, period, _filters, language, fmt = say
        if query.top_n is not None and query.rank_by == "value" and query.grain is None and not query.premise_asked:
            return self._ranked_compared(say, label, filters, kind, prev_period)
        filters += self._among_the_kept(query, len(rows), language)
        asked = self._groups_asked(say) if query.premise_asked else ""
        # the largest rise and fall in percent are of members, never of an empty key; the members with
        # a change and no percent (from zero, or from a base below it) are said apart, with their change
        named = [r for r in rows if named_row(query, r)]
        pct_of = f"{metric}_change_pct"
        ranked = sorted((r for r in named if r.get(pct_of) is not None), key=lambda r: float(r[pct_of]))
        apart = self._no_percent_aside(say, [r for r in named if r.get(pct_of) is None])
        where = {
            "label": label,
            "groups": self._group_word(query, language),
            "filters": filters,
            "period": period,
            "kind": kind,
            "previous_period": prev_period,
        }
        if not ranked:  # no group has a percent change: no largest rise or fall to name
            key = "answer.comparison_groups_no_pct" if apart else "answer.comparison_groups_no_rate"
            return text(key, language, **where) + apart + asked
        low, high = ranked[0], ranked[-1]
        # of the members ranked in percent; those said apart carry their own signs
        falls_only = float(high[pct_of]) < 0
        rises_only = float(low[pct_of]) > 0
        return (
            text(
                "answer.comparison_groups",
                language,
                **where,
                low_word=text("answer.smallest_rise" if rises_only else "answer.largest_fall", language),
                low=self._row_label(query, low, language),
                low_pct=self._relative_and_points(metric, low, language, fmt),
                low_value=fmt(low[metric]),
                high_word=text("answer.smallest_fall" if falls_only else "answer.largest_rise", language),
                high=self._row_label(query, high, language),
                high_pct=self._relative_and_points(metric, high, language, fmt),
                high_value=fmt(high[metric]),
            )
            + apart
            + self._empty_key_aside(say, changed=True)
            + asked
        )

    def _ranked_compared(self, say: Sentence, label: str, filters: str, kind: str, prev_period: str) -> str:
        """ "上个月GMV最高的3个品类，和前一个月比": the groups ranked, in their order, each with its value and
        change — the top one is never left out for the largest rise and fall among them (p70)."""
        query, metric, rows, period, _filters, language, fmt = say
        count = min(len(rows), query.top_n or len(rows))
        groups = self._group_word(query, language)
        if language == "en" and count != 1 and len(query.dimensions) == 1:
            groups = plural_noun(groups)
        items = self._items(
            query,
            rows,
            language,
            lambda r: text(
                "answer.value_and_change",
                language,
                value=fmt(r[metric]),
                pct=self._relative_and_points(metric, r, language, fmt),
            ),
        )
        word = text("answer.bottom_word" if query.order == "asc" else "answer.top_word", language)
        return text(
            "answer.comparison_ranked",
            language,
            word=word,
            count=count,
            groups=groups,
            label=label,
            filters=filters,
            period=period,
            kind=kind,
            previous_period=prev_period,
            items=items,
        )

    def _premise_not_met(self, query: SemanticQuery, metric: str, change: Any, language: Language) -> str:
        return premise_sentence(query, value_label(self.catalog, query, metric, language), change, language)

    def _groups_asked(self, say: Sentence) -> str:
        """Whether every group (or any) moved the way a yes/no asked, and which groups decide it:
        "6月各渠道GMV都比5月高吗" names those that did not rise ("4 个渠道中有 1 个渠道的成交总额没有
        上升：否（APP（-28.07%））"); "有渠道GMV比5月低吗" names those that fell. A change that could not be
        computed (no previous value) is no move either way."""
        query, metric, rows, _period, _filters, language, _fmt = say
        rows = [r for r in rows if named_row(query, r)]  # the groups counted are members
        moved = [r for r in rows if direction_of(r.get(f"{metric}_change")) == query.premise]
        fields = {
            "label": capitalised(value_label(self.catalog, query, metric, language)),  # opens a sentence
            "counted": self._counted_groups(query, len(rows), language),
            "actual": text(f"answer.premise_{query.premise}", language),
        }
        if query.premise_asked in ("any", "which"):  # "有渠道…低吗": yes or no; "哪些渠道下降了": those, or none
            key = f"answer.comparison_groups_{query.premise_asked}"
            if not moved:
                return text(f"{key}_none", language, **fields)
            items = self._changes_listed(query, metric, moved, language)
            n = self._counted_groups(query, len(moved), language)
            return text(key, language, moved=n, items=items, **fields)
        against = [r for r in rows if r not in moved]
        if not against:
            return text("answer.comparison_groups_asked_yes", language, **fields)
        return text(
            "answer.comparison_groups_asked_no",
            language,
            failed=self._counted_groups(query, len(against), language),
            not_moved=text(f"answer.premise_not_{query.premise}", language),
            items=self._changes_listed(query, metric, against, language),
            **fields,
        )

    def _changes_listed(self, query: SemanticQuery, metric: str, rows: list[dict[str, Any]], language: Language) -> str:
        """Each row's label and relative change ("APP（-28.07%）"), the first ``MAX_LISTED``."""
        fmt = self._formatter(metric, language)
        return self._items(query, rows, language, lambda r: self._relative_and_points(metric, r, language, fmt))

    def _change_ranking_sentence(self, say: Sentence) -> str:
        query, metric, rows, _, _, language, fmt = say
        where = self._compared_where(say)
        label_of = partial(self._row_label, query, language=language)
        return change_ranking_sentence(self.catalog, query, metric, rows, language, where, label_of, fmt)

    @staticmethod
    def _period_ratio(
        query: SemanticQuery, current: Any, previous: Any, period: str, previous_period: str, language: Language
    ) -> str:
        """ "6月是5月的 0.83 倍": the ratio of two periods said, when the question asked for it."""
        if not query.ratio or query.difference or current is None or previous is None:
            return ""
        if float(previous) <= 0:  # a ratio to a base at or below zero says nothing ("-3.14 is 0.58 times -5.44")
            return text("answer.no_period_ratio", language)
        times = float(current) / float(previous)
        return text(
            "answer.period_ratio",
            language,
            first=period,
            second=previous_period,
            times=f"{times:,.2f}",
            pct=format_exact(times, "ratio", language),
        )

    def _no_percent_aside(self, say: Sentence, rows: list[dict[str, Any]]) -> str:
        """ "HA (+2.30) has no change in percent, its earlier value not above zero": the members left
        out of the largest rise and fall in percent, each with its change, never left unsaid."""
        query, metric, _rows, _period, _filters, language, fmt = say
        moved = [r for r in rows if r.get(f"{metric}_change") is not None]
        if not moved:
            return ""
        items = self._items(
            query, moved, language, lambda r: change_text(self.catalog, metric, r[f"{metric}_change"], language, fmt)
        )
        return text("answer.no_percent_apart", language, items=items)

    def _relative_and_points(
        self, metric: str, row: dict[str, Any], language: Language, fmt: Callable[[Any], str]
    ) -> str:
        """A group's relative change, and a rate's change in points beside it ("-27.80%, -1.12
        个百分点"): a rate's relative change alone reads like points. A change with no percent (from
        zero, or from a negative base) is said as itself ("+2.30"), never as "n/a"."""
        change = row.get(f"{metric}_change")
        if row.get(f"{metric}_change_pct") is None and change is not None:
            return text(
                "answer.change_no_pct", language, change=change_text(self.catalog, metric, change, language, fmt)
            )
        pct = format_pct(row.get(f"{metric}_change_pct"), language)
        if self.catalog.metrics[metric].unit != "ratio" or change is None:
            return pct
        points = change_text(self.catalog, metric, row[f"{metric}_change"], language, fmt)
        return pct + text("answer.list_sep", language) + points

    def _among_the_kept(self, query: SemanticQuery, count: int, language: Language) -> str:
        """ "（最高的 2 个渠道中）": "各渠道GMV环比" then "前2" — the largest rise is of those two, never
        said as if of every channel."""
        if query.top_n is None or query.rank_by != "value" or not query.dimensions:
            return ""
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        n = min(count, query.top_n)
        if language == "en" and n != 1 and len(query.dimensions) == 1:
            dims = plural_noun(dims)
        side = "answer.among_bottom" if query.order == "asc" else "answer.among_top"
        return text(side, language, n=n, dims=dims)


__all__ = ["ComparedSentences"]
