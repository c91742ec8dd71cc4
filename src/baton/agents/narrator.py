"""The answer sentence, templated from the result table (no LLM needed).

Every number in the sentence is formatted from a result cell by :mod:`baton.numbers` (exact
value, thousands separators, two decimals for money in the metric's currency, a percentage
for ratios), so the output gate can trace each one back to evidence.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from baton.agents.bound_sentences import BoundSentences, bounded_key, fails_bound
from baton.agents.buckets import partial_buckets
from baton.agents.narration import MAX_LISTED, Sentence, by_time, named_row, no_key_labels, period_of, polish
from baton.agents.ranked_sentences import RankedSentences, asked_place
from baton.agents.shares_compared import SharesCompared
from baton.agents.within_groups import within_groups_sentence
from baton.catalog.compiler import checked_bound, share_of_the_range
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery, TimeRange
from baton.messages import capitalised, text
from baton.nlu.interpret import (
    averaged_row,
    bound_said,
    bounded_label,
    filters_text,
    period_text,
    share_part,
    value_label,
    where_text,
)
from baton.numbers import bucket_label, format_exact, plural_noun, possessive
from baton.numbers import format_signed_percent as format_pct

_LEADING_PREPOSITION = re.compile(r"^(?:from|in|during|on|for)\s+(?=\S)", re.I)
"""A preposition the user said before a period; the sentences bring their own ("for")."""


def _ranked(query: SemanticQuery) -> bool:
    """Rows ordered by a metric, or cut to the top N: a ranking, not a time series."""
    keys = [k.lstrip("-") for k in query.order_by]
    return query.top_n is not None or (bool(keys) and keys[0] in query.metrics)


def _ranked_by_another(query: SemanticQuery, metric: str) -> bool:
    """Rows ranked by one metric (the first order key, else the first metric of a ranking), and
    ``metric`` another one shown beside it."""
    if query.order_by:
        key = query.order_by[0].lstrip("-")
        ranked_by = key if key in query.metrics else None
    else:
        ranked_by = query.metrics[0] if query.top_n is not None or query.intent == "ranking" else None
    return ranked_by is not None and len(query.metrics) > 1 and metric != ranked_by


class BoundaryTie(NamedTuple):
    """The rows a top N kept past N because they tie its last place."""

    place: int
    """The place they share (the N-th or better)."""
    tied: int
    """How many rows share it."""
    value: Any
    """Their value of the ranked metric."""


def member_gap(
    query: SemanticQuery, metric: str, rows: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any], float, float | None] | None:
    """ "华东比华南高多少": the two rows in the order the question named them, the first minus
    the second and that as a share of the second — arithmetic on two result cells, which the
    output gate is handed as derived values."""
    if not query.difference or len(rows) != 2 or len(query.dimensions) != 1:
        return None
    (dim,) = query.dimensions
    named = next((f.members for f in query.filters if f.dimension == dim and not f.exclude), ())
    by_member = {str(r.get(dim)): r for r in rows}
    if len(named) != 2 or set(by_member) != set(named) or any(r[metric] is None for r in rows):
        return None
    first, second = by_member[named[0]], by_member[named[1]]
    difference = float(first[metric]) - float(second[metric])
    relative = difference / float(second[metric]) if float(second[metric]) > 0 else None  # of a positive base
    return first, second, difference, relative


def ends_gap(
    query: SemanticQuery, metric: str, rows: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any], float, float | None] | None:
    """ "GMV最高和最低的区域差多少": as :func:`member_gap`, for a whole ranking's highest and lowest
    rows — the highest minus the lowest, and that as a share of the lowest."""
    if not query.gap_of_the_ends or member_gap(query, metric, rows) is not None:
        return None
    # the ends of the members: a group of an empty key (NULL) is none of them
    valued = [r for r in rows if r.get(metric) is not None and named_row(query, r)]
    if len(valued) < 2:
        return None
    high, low = max(valued, key=lambda r: float(r[metric])), min(valued, key=lambda r: float(r[metric]))
    difference = float(high[metric]) - float(low[metric])
    return high, low, difference, difference / float(low[metric]) if float(low[metric]) > 0 else None


def boundary_tie(query: SemanticQuery, rows: list[dict[str, Any]]) -> BoundaryTie | None:
    """The tie at a top N's last place, when the statement kept more than N rows for it (rows
    in ranked order, as the compiler returns them)."""
    if query.top_n is None or len(rows) <= query.top_n or query.rank_within or query.rank_each_period:
        # each group's top: its own ties
        return None
    column = f"{query.metrics[0]}_share" if query.share else query.metrics[0]  # a share is ranked by it
    column = column if query.rank_by == "value" else f"{query.metrics[0]}_{query.rank_by}"  # … a change by its own
    ranked = [averaged_row(query, row)[column] for row in rows]
    tied = ranked.count(ranked[-1])
    return BoundaryTie(len(rows) - tied + 1, tied, ranked[-1])


def said_words(period: TimeRange, language: Language) -> str | None:
    """A period's own words as a sentence says them: "GMV for June 20 to July 10", not "for
    from" (the output gate takes them as period text, like the words asked)."""
    if language != "en":
        return period.text
    return _LEADING_PREPOSITION.sub("", period.text or "") or period.text


class Narrator(SharesCompared, BoundSentences, RankedSentences):
    """The answer sentence of a query's result: one sentence per metric, of the kind the query asks."""

    def compose(self, query: SemanticQuery, table: ResultTable, language: Language) -> str:
        names = [c.name for c in table.columns]
        rows = [averaged_row(query, dict(zip(names, r, strict=True))) for r in table.rows]
        tr = query.time_range
        period = period_text(tr.start, tr.end, said_words(tr, language), language)
        filters = filters_text(query.filters, self.catalog, language) + where_text(query.where, language)
        if query.threshold is not None and rows and checked_bound(query) is not None:  # "超过1.5亿吗"
            fmt = bounded_label(query, self.catalog, language)[1]
            say = Sentence(query, bounded_key(query), rows, period, filters, language, fmt)
            checked = (
                self._checked_total_sentence
                if not query.dimensions and query.grain is None
                else self._checked_groups_sentence
            )
            return polish(checked(say), language, period)
        # "top 3 by refund rate, only those with ≥5000 orders" (a floor): said with the bound
        bound = query.threshold
        floor = bound is not None and (query.ranked or bound.metric != query.metrics[0])
        if bound is not None and (not floor or (not rows and query.rank_place is None)):
            # "退款率超过5%的品类": those that pass, or that none did (no rows of a floor: none passed it,
            # but a place past the last ranked is no such claim)
            say = Sentence(
                query, bound.metric, rows, period, filters, language, self._formatter(bound.metric, language)
            )
            return polish(self._threshold_sentence(say), language, period)
        if floor:
            filters += self._floor_text(query, language)
        if not rows:
            return text("answer.no_rows", language, period=period, filters=filters)
        sentences = [self._metric_sentence(query, m, rows, period, filters, language) for m in query.metrics]
        if query.threshold is not None and query.top_n is not None and len(rows) < query.top_n:
            sentences.append(text("answer.floor_fewer", language, count=len(rows), n=query.top_n))
        tie = boundary_tie(query, rows)
        if tie is not None:
            sentences.append(self._tie_sentence(query, tie, len(rows), language))
        return text("answer.metric_sep", language).join(polish(s, language, period) for s in sentences)

    def _floor_text(self, query: SemanticQuery, language: Language) -> str:
        """ "（只在订单量高于 8,000 的分组中排名）": the bound on another metric that kept the groups
        ranked, or listed ("（只看订单量高于 8,000 的分组）")."""
        key = "answer.ranked_floor" if query.ranked else "answer.kept_floor"
        return text(key, language, **bound_said(query, self.catalog, language))

    def _tie_sentence(self, query: SemanticQuery, tie: BoundaryTie, count: int, language: Language) -> str:
        """Why a top N lists more than N rows ("Place 3 is shared by 2 (1,234), so all 4 are listed")."""
        metric = query.metrics[0]
        unit = "ratio" if query.share else self.catalog.metrics[metric].unit
        value = format_exact(tie.value, unit, language, self.catalog.currency_of(metric))
        return text("answer.tied_at_boundary", language, place=tie.place, tied=tie.tied, value=value, count=count)

    def _metric_sentence(
        self,
        query: SemanticQuery,
        metric: str,
        rows: list[dict[str, Any]],
        period: str,
        filters: str,
        language: Language,
    ) -> str:
        label = value_label(self.catalog, query, metric, language)
        fmt = self._formatter(metric, language)
        say = Sentence(query, metric, rows, period, filters, language, fmt)
        if query.asked_member is not None and metric == query.metrics[0]:
            return self._first_asked_sentence(say)
        if query.share and query.comparison is not None:  # "各渠道GMV占比环比"
            return self._shares_compared(say)
        if query.share:
            return self._share_sentence(say)
        if (query.rank_within or query.rank_each_period) and metric == query.metrics[0]:  # "每个渠道GMV最高的2个品类"
            where = {"label": label, "filters": filters, "period": period}
            return within_groups_sentence(self.catalog, query, metric, rows, language, where, fmt)
        if _ranked_by_another(query, metric) and query.comparison is None:
            return self._alongside_sentence(say)
        if query.rank_place is not None and query.comparison is None:
            return self._place_sentence(say)
        if query.comparison is not None and query.rank_by != "value":
            return self._change_ranking_sentence(say)
        if query.comparison is not None:
            return self._comparison_sentence(say)
        if query.grain is not None:
            return self._grain_sentence(say)
        if query.dimensions:
            return self._breakdown_sentence(say)
        value = rows[0][metric]
        total = rows[0].get(f"{metric}_total") if query.average_per is not None else None
        if total is not None:  # "本周GMV，日均多少": the average, and the total it is of
            fields = {"label": label, "filters": filters, "period": period, "value": fmt(value)}
            return text("answer.value_averaged", language, total=fmt(total), **fields)
        return text("answer.value", language, label=label, filters=filters, period=period, value=fmt(value))

    def _share_sentence(self, say: Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        """Each part's value with its share of the whole ("New users: ¥1.00 (25.00%)")."""
        label = value_label(self.catalog, query, metric, language)
        share_col = f"{metric}_share"

        # with a grain, the whole is each period's own: a share is "of that month's total" — unless the
        # periods themselves are the parts ("各月GMV占全年的比例"), each of the range's total
        of_each_period = query.grain is not None and not share_of_the_range(query)
        grain = text(f"answer.grain_{query.grain}", language) if of_each_period else ""

        group = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.share_within
        )

        def item(row: dict[str, Any], name: str) -> str:
            share = format_exact(row.get(share_col), "ratio", language)
            key = (
                "answer.share_item_in_group"
                if group
                else "answer.share_item_in_period"
                if grain
                else "answer.share_item"
            )
            return text(key, language, item=name, value=fmt(row[metric]), share=share, grain=grain, group=group)

        if query.dimensions or query.grain is not None:
            if query.grain is None and query.top_n is None and not query.order_by:
                # parts largest first, as the table shows them; a ranking keeps its own order
                low_first = query.listed == "asc"  # "从低到高": smallest share first, as said
                rows = sorted(rows, key=lambda r: float(r.get(share_col) or 0), reverse=not low_first)
            shown = rows[:MAX_LISTED]
            items = text("answer.list_sep", language).join(item(r, self._row_label(query, r, language)) for r in shown)
            more = text("answer.more_items", language, count=len(rows) - len(shown)) if len(rows) > len(shown) else ""
            where = {"label": label, "filters": filters, "period": period, "items": items, "more": more}
            if group:  # each region its own whole: "APP's orders, each with its share of its region's"
                named = share_part(query.share_filters, self.catalog, language) if query.share_filters else ""
                part = text("answer.shares_in_groups_part", language, part=named) if named else ""
                return text("answer.shares_in_groups", language, group=group, part=part, **where)
            if not grain:
                apart = tuple(f for f in query.share_filters if f.dimension not in query.dimensions)
                if apart:  # "华东各品类GMV占全国的比例": 华东's categories, each of the national total
                    named = share_part(apart, self.catalog, language)
                    where["label"] = text("answer.label_of_part", language, label=label, part=named)
                whole = rows[0].get(f"{metric}_whole") if rows else None
                if whole is not None:  # "各渠道GMV占比": the whole the shares are of, stated
                    return text("answer.shares_of_whole", language, whole=fmt(whole), **where)
                return text("answer.shares", language, **where)
            if query.dimensions or not query.share_filters:
                return text("answer.shares_by_period", language, grain=grain, **where)
            part = share_part(query.share_filters, self.catalog, language)
            return text("answer.shares_over_time", language, grain=grain, owner=possessive(part, language), **where)
        part = share_part(query.share_filters, self.catalog, language)
        whole = rows[0].get(f"{metric}_whole")
        where = {"label": label, "filters": filters, "period": period, "item": item(rows[0], part)}
        if whole is not None:  # "总GMV多少，app占多少": the whole as well as the part
            return text("answer.share_value_of_whole", language, whole=fmt(whole), **where)
        return text("answer.share_value", language, **where)

    def _grain_sentence(self, say: Sentence) -> str:
        """A series per group, first and last in time within each group; edge buckets the
        period cuts are named and left out of first→last; a ranking over periods is listed."""
        query, metric, rows, period, filters, language, fmt = say
        label = value_label(self.catalog, query, metric, language)
        assert query.grain is not None
        if _ranked(query):
            return self._ranked_sentence(say)
        partial = {b.label for b in partial_buckets(query, rows)}
        grain = text(f"answer.grain_{query.grain}", language)
        note = ""
        if partial:
            shown = (bucket_label(b, query.grain, language) for b in sorted(partial))  # "year 2026", not its first day
            buckets = text("answer.list_sep", language).join(shown)
            named = query.grain in ("month", "quarter", "year")  # "2026 Q1" names itself; a week is named by its Monday
            key = "answer.series_partial_named" if named else "answer.series_partial"
            note = text(key, language, grain=grain, buckets=buckets)
            note = " " + capitalised(note.lstrip()) if language == "en" else note  # "Year 2026 holds …"
        if query.dimensions:
            return self._group_series(say, grain, partial) + note
        full = [r for r in by_time(rows) if period_of(r) not in partial] or by_time(rows)
        # first and last with a value: a metric of a table that starts later has none before (a series
        # of two tables' metrics is not filled with zeros)
        full = [r for r in full if r[metric] is not None] or full
        if partial and len(full) < 2 < len(rows) + 1 <= MAX_LISTED + 1:  # one whole bucket: no first→last to read
            return self._each_point(say, grain, partial)
        first, last = full[0], full[-1]
        # the peak among whole buckets too: a 2-day week's rate is no week's peak
        peak = max((r for r in full if r[metric] is not None), key=lambda r: float(r[metric]), default=first)
        peaks = self._tied(query, full, metric, peak, language)
        low = min((r for r in full if r[metric] is not None), key=lambda r: float(r[metric]), default=first)
        ranked = query.intent == "ranking"  # "GMV最高和最低的月份", "rank the months": both ends
        return (
            text(
                "answer.series_with_low" if ranked else "answer.series",
                language,
                label=label,
                filters=filters,
                period=period,
                grain=grain,
                count=sum(1 for r in rows if r[metric] is not None) or len(rows),  # points with a value
                first=self._row_label(query, first, language),
                first_value=fmt(first[metric]),
                last=self._row_label(query, last, language),
                last_value=fmt(last[metric]),
                peak=peaks,
                peak_value=fmt(peak[metric]),
                low=self._tied(query, full, metric, low, language),
                low_value=fmt(low[metric]),
            )
            + note
        )

    def _each_point(self, say: Sentence, grain: str, partial: set[str]) -> str:
        """Every point of a short series with one whole bucket ("2025 ¥533.9M; 2026, part of its
        days, ¥294.0M"): "from 2025 to 2025" read nothing."""
        query, metric, rows, period, filters, language, fmt = say
        points = [
            text(
                "answer.point_partial" if period_of(r) in partial else "answer.point",
                language,
                bucket=self._row_label(query, r, language),
                value=fmt(r[metric]),
            )
            for r in by_time(rows)
        ]
        label = value_label(self.catalog, query, metric, language)
        items = text("answer.series_sep", language).join(points)
        return text(
            "answer.series_each", language, label=label, filters=filters, period=period, grain=grain, items=items
        )

    def _group_series(self, say: Sentence, grain: str, partial: set[str]) -> str:
        """One first→last per group (never one group's first against another's last)."""
        query, metric, rows, period, filters, language, fmt = say
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for r in by_time(rows):
            groups.setdefault(tuple(r[d] for d in query.dimensions), []).append(r)

        def name(key: tuple[Any, ...]) -> str:
            return " / ".join(self.member_label(d, m, language) for d, m in zip(query.dimensions, key, strict=True))

        def at(row: dict[str, Any]) -> str:
            return bucket_label(period_of(row), query.grain, language)

        def item(key: tuple[Any, ...], series: list[dict[str, Any]]) -> str:
            full = [r for r in series if period_of(r) not in partial and r[metric] is not None] or series
            first, last = full[0], full[-1]
            if first is last:
                return text("answer.series_item_one", language, group=name(key), value=fmt(first[metric]), at=at(first))
            return text(
                "answer.series_item",
                language,
                group=name(key),
                first=at(first),
                first_value=fmt(first[metric]),
                last=at(last),
                last_value=fmt(last[metric]),
            )

        shown = list(groups.items())[:MAX_LISTED]
        items = text("answer.series_sep", language).join(item(k, v) for k, v in shown)
        more = text("answer.more_series", language) if len(groups) > len(shown) else ""  # a count the gate can't trace
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        label = value_label(self.catalog, query, metric, language)
        return text(
            "answer.series_groups",
            language,
            label=label,
            filters=filters,
            period=period,
            grain=grain,
            dims=dims,
            count=len(rows),
            items=items,
            more=more,
        )

    def _breakdown_sentence(self, say: Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        label = value_label(self.catalog, query, metric, language)
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        where = {"label": label, "filters": filters, "period": period, "dims": dims}
        # the highest and lowest are of members: a group with an empty key (NULL) is none, shown in the table only
        valued = [r for r in rows if r[metric] is not None and named_row(query, r)]
        ordered = sorted(valued, key=lambda r: float(r[metric]), reverse=True)
        if query.top_n is not None:
            items = self._listed(say)
            word = text("answer.bottom_word" if query.order == "asc" else "answer.top_word", language)
            count = min(len(rows), query.top_n)  # the N asked for; rows tied at its last place are said apart
            if language == "en" and count != 1:  # "Top 3 regions", "Top 3 region and channel groups"
                one = len(query.dimensions) == 1
                where["dims"] = plural_noun(dims) if one else text("answer.dims_groups", language, dims=dims)
            if count == 1 and len(rows) == 1:  # "成交总额最低的区域", "Bottom region": no "1"
                return text("answer.top_one", language, word=word, items=items, **where)
            said = text("answer.top_n", language, word=word, count=count, items=items, **where)
            return said + self._gap_sentence(say)  # "最高的两个渠道差多少"
        # p71: a group of an empty key is said when it is all there is, or beside the one member
        empty = [fmt(r[metric]) for r in rows if r[metric] is not None and not named_row(query, r)]
        no_key = {"none": no_key_labels(self.catalog, query.dimensions, language)}
        if not ordered and empty:
            values = text("answer.list_sep", language).join(empty)
            return text("answer.breakdown_only_empty", language, **where, **no_key, values=values)
        if not ordered:
            return text("answer.no_values", language, **where)
        high, low = ordered[0], ordered[-1]
        high_text = {"high": self._tied(query, rows, metric, high, language), "high_value": fmt(high[metric])}
        if len(ordered) == 1 and empty:
            values = text("answer.list_sep", language).join(empty)
            return text("answer.breakdown_one_and_empty", language, **where, **high_text, **no_key, values=values)
        if len(ordered) == 1:
            return text("answer.breakdown_one", language, **where, **high_text)
        if float(high[metric]) == float(low[metric]):  # every member the same: no highest or lowest to name
            return text(
                "answer.breakdown_even", language, **where, **high_text, count=len(rows)
            ) + self._empty_key_aside(say)
        said = text(
            "answer.breakdown",
            language,
            **where,
            **high_text,
            low=self._tied(query, rows, metric, low, language),
            low_value=fmt(low[metric]),
            count=len(rows),
        )
        return said + self._gap_sentence(say) + self._empty_key_aside(say)

    def _gap_sentence(self, say: Sentence) -> str:
        """The gap (or ratio) of two named members, of a ranking's ends, or of its top two — the
        two named when they are two rows ("APP比网页高 …"), the ends when a tie keeps more."""
        query, metric, rows, _, _, language, fmt = say
        ends = ends_gap(query, metric, rows)
        gap = ends or member_gap(query, metric, rows)
        if gap is None:
            return ""
        ends = None if query.top_n == 2 and len(rows) == 2 else ends  # a top two: the two rows by name
        first, second, difference, relative = gap
        # the first opens its sentence ("App is ¥… higher than web")
        labels = {
            "first": capitalised(self._row_label(query, first, language)),
            "second": self._row_label(query, second, language),
        }
        if query.ratio and relative is not None:  # "华东是华南的几倍", "最高是最低的几倍": first ÷ second
            key = "answer.ends_ratio" if ends else "answer.member_ratio"
            return text(key, language, times=f"{relative + 1:,.2f}", **labels)
        if self.catalog.metrics[metric].unit == "ratio":  # "高 0.12 个百分点": a rate's gap is in points
            size = text("answer.gap_points", language, points=f"{abs(difference) * 100:.2f}")
        else:
            size = fmt(abs(difference))
        # a ratio asked of a base not above zero: said so, then the gap; a gap's percent only of such a base
        no_ratio = text("answer.no_ratio_base", language) if query.ratio else ""
        suffix = "" if relative is not None else "_no_pct"
        pct = format_pct(abs(relative), language).lstrip("+") if relative is not None else ""
        if ends:  # "最高比最低高 ¥…（…%）"
            return no_ratio + text(f"answer.ends_gap{suffix}", language, gap=size, pct=pct)
        direction = text("answer.gap_higher" if difference > 0 else "answer.gap_lower", language)
        return no_ratio + text(f"answer.member_gap{suffix}", language, direction=direction, gap=size, pct=pct, **labels)


__all__ = [
    "MAX_LISTED",
    "BoundaryTie",
    "Narrator",
    "asked_place",
    "boundary_tie",
    "ends_gap",
    "fails_bound",
    "member_gap",
]
