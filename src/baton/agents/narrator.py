"""The answer sentence, templated from the result table (no LLM needed).

Every number in the sentence is formatted from a result cell by :mod:`baton.numbers` (exact
value, thousands separators, two decimals for money in the metric's currency, a percentage
for ratios), so the output gate can trace each one back to evidence.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from typing import Any, NamedTuple

from baton.agents.buckets import partial_buckets
from baton.agents.change_ranking import change_ranking_sentence, change_text
from baton.agents.within_groups import within_groups_sentence
from baton.catalog.compiler import checked_bound
from baton.catalog.model import Catalog
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery, Threshold
from baton.messages import text
from baton.nlu.interpret import (
    averaged_row,
    bound_text,
    bounded_label,
    filters_text,
    period_text,
    share_part,
    value_label,
    where_text,
)
from baton.numbers import bucket_label, direction_of, format_exact, place_word, plural_noun
from baton.numbers import format_signed_percent as format_pct

_LEADING_PREPOSITION = re.compile(r"^(?:from|in|during|on|for)\s+(?=\S)", re.I)
"""A preposition the user said before a period; the sentences bring their own ("for")."""


class _Sentence(NamedTuple):
    """What every sentence of one metric is written from."""

    query: SemanticQuery
    metric: str
    rows: list[dict[str, Any]]
    period: str
    filters: str
    language: Language
    fmt: Callable[[Any], str]


_MAX_TIED = 5
"""Rows sharing a high or a low that a sentence names; the rest are said to follow."""
MAX_LISTED = 12
"""Parts (or series) a sentence lists one by one; the rest are counted."""


def _period_of(row: dict[str, Any]) -> str:
    return str(row.get("period", ""))


def _by_time(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in time order, whatever order the query asked them in."""
    return sorted(rows, key=_period_of) if rows and "period" in rows[0] else rows


_BEFORE_HAN = r"(?=[\u4e00-\u9fff])"
"""Followed by a CJK ideograph."""


def _polish(sentence: str, language: Language, period: str) -> str:
    """An English sentence starts with a capital ("Refund rate by channel…"); in Chinese a period
    that ends in a date keeps a space before the word after it ("2026-06-30 按区域拆分")."""
    if language == "zh":
        if period[-1:].isdigit():
            return re.sub(re.escape(period) + _BEFORE_HAN, lambda m: m.group(0) + " ", sentence)
        return sentence
    return sentence[:1].upper() + sentence[1:]


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
    relative = difference / float(second[metric]) if float(second[metric]) else None
    return first, second, difference, relative


def ends_gap(
    query: SemanticQuery, metric: str, rows: list[dict[str, Any]]
) -> tuple[dict[str, Any], dict[str, Any], float, float | None] | None:
    """ "GMV最高和最低的区域差多少": as :func:`member_gap`, for a whole ranking's highest and lowest
    rows — the highest minus the lowest, and that as a share of the lowest."""
    if not query.gap_of_the_ends or member_gap(query, metric, rows) is not None:
        return None
    valued = [r for r in rows if r.get(metric) is not None]
    if len(valued) < 2:
        return None
    high, low = max(valued, key=lambda r: float(r[metric])), min(valued, key=lambda r: float(r[metric]))
    difference = float(high[metric]) - float(low[metric])
    return high, low, difference, difference / float(low[metric]) if float(low[metric]) else None


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


class Narrator:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def member_label(self, dimension: str, member: Any, language: Language) -> str:
        return self.catalog.member_label(dimension, member, language)

    def _row_label(self, query: SemanticQuery, row: dict[str, Any], language: Language) -> str:
        bits = []
        if "period" in row:
            bits.append(bucket_label(row["period"], query.grain, language))
        bits.extend(self.member_label(d, row[d], language) for d in query.dimensions)
        return " / ".join(bits)

    def compose(self, query: SemanticQuery, table: ResultTable, language: Language) -> str:
        names = [c.name for c in table.columns]
        rows = [averaged_row(query, dict(zip(names, r, strict=True))) for r in table.rows]
        tr = query.time_range
        words = _LEADING_PREPOSITION.sub("", tr.text or "") or tr.text if language == "en" else tr.text
        period = period_text(tr.start, tr.end, words, language)  # "GMV for June 20 to July 10", not "for from"
        filters = filters_text(query.filters, self.catalog, language) + where_text(query.where, language)
        if query.threshold is not None and rows and checked_bound(query) is not None:  # "超过1.5亿吗"
            fmt = bounded_label(query, self.catalog, language)[1]
            say = _Sentence(query, _bounded_key(query), rows, period, filters, language, fmt)
            checked = (
                self._checked_total_sentence
                if not query.dimensions and query.grain is None
                else self._checked_groups_sentence
            )
            return _polish(checked(say), language, period)
        if query.threshold is not None:  # "退款率超过5%的品类": those that pass, or that none did
            metric = query.threshold.metric
            say = _Sentence(query, metric, rows, period, filters, language, self._formatter(metric, language))
            return _polish(self._threshold_sentence(say), language, period)
        if not rows:
            return text("answer.no_rows", language, period=period, filters=filters)
        sentences = [self._metric_sentence(query, m, rows, period, filters, language) for m in query.metrics]
        tie = boundary_tie(query, rows)
        if tie is not None:
            sentences.append(self._tie_sentence(query, tie, len(rows), language))
        return text("answer.metric_sep", language).join(_polish(s, language, period) for s in sentences)

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
        say = _Sentence(query, metric, rows, period, filters, language, fmt)
        if query.asked_member is not None and metric == query.metrics[0]:
            return self._first_asked_sentence(say)
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

    def _formatter(self, metric: str, language: Language) -> Callable[[Any], str]:
        """A metric's values as the sentences write them (exact, in its unit and currency)."""
        unit, currency = self.catalog.metrics[metric].unit, self.catalog.currency_of(metric)
        return lambda value: format_exact(value, unit, language, currency)

    def _checked_total_sentence(self, say: _Sentence) -> str:
        """A yes/no of the total: its value, the bound as asked and the verdict ("上个月的成交总额为
        ¥45,509,172.90，高于 ¥150,000,000.00：否。" — "不高于…：否" read as a double negative)."""
        query, metric, rows, period, filters, language, fmt = say
        bound = query.threshold
        assert bound is not None
        value = rows[0][metric]
        passes = not fails_bound(value, bound)
        return text(
            "answer.checked_total_yes" if passes else "answer.checked_total_no",
            language,
            label=bounded_label(query, self.catalog, language)[0],
            filters=filters,
            period=period,
            value=fmt(value),
            op=text(f"answer.bound_{bound.op_name}", language),
            bound=bound_text(bound, fmt, language),
        )

    def _checked_groups_sentence(self, say: _Sentence) -> str:
        """A yes/no of every group (or period): whether all pass the bound, and those that do not
        ("上个月4 个渠道中有 1 个渠道的成交总额不高于 ¥5,000,000.00：否（直播（¥4,828,670.90））。")."""
        query, metric, rows, period, filters, language, fmt = say
        bound = query.threshold
        assert bound is not None
        failing = [r for r in rows if fails_bound(r[metric], bound)]
        fields = {
            "label": bounded_label(query, self.catalog, language)[0],
            "filters": filters,
            "period": period,
            "bound": bound_text(bound, fmt, language),
            "counted": self._counted_groups(query, len(rows), language),
        }
        if not failing:
            op = text(f"answer.bound_{bound.op_name}", language)
            return text("answer.checked_groups_yes", language, op=op, **fields)
        op = text(f"answer.bound_not_{bound.op_name}", language)
        items = self._listed(_Sentence(query, metric, failing, period, filters, language, fmt), capped=True)
        failed = self._counted_groups(query, len(failing), language)
        return text("answer.checked_groups_no", language, op=op, failed=failed, items=items, **fields)

    def _counted_groups(self, query: SemanticQuery, n: int, language: Language) -> str:
        """ "4 个渠道" / "4 channels", "30 天" / "1 day": how many groups or periods."""
        if query.dimensions:
            group = text("answer.and_sep", language).join(
                self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
            )
            plural = language == "en" and n != 1
            return text("answer.groups_counted", language, n=n, group=plural_noun(group) if plural else group)
        if language == "en" and n == 1:
            return text("answer.groups_counted", language, n=n, group=text(f"answer.unit_{query.grain}", language))
        return text(f"answer.count_{query.grain}", language, n=n)

    def _threshold_sentence(self, say: _Sentence) -> str:
        """The groups (or periods) whose value passes the bound, each with its value, and how
        many they are ("上个月退款率高于 5.00% 的品类有 2 个：…"); or that none did. A bound on a
        change lists each group's change ("成交总额环比变化率低于 -10.00% 的区域有 1 个：…")."""
        query, _, rows, period, filters, language, _ = say
        assert query.threshold is not None
        label, fmt = bounded_label(query, self.catalog, language)
        fmt = _apart_from_bound(fmt, query.threshold.value)
        say = say._replace(metric=_bounded_key(query), fmt=fmt)  # each group's share or change listed
        if query.threshold.of in ("change", "change_pct") and query.comparison is not None:
            cmp = query.comparison.range
            previous = period_text(cmp.start, cmp.end, None, language)
            filters += text("answer.threshold_compared", language, previous_period=previous)
        where = {
            "label": label,
            "op": text(f"answer.bound_{query.threshold.op_name}", language),
            "bound": bound_text(query.threshold, fmt, language),
            "filters": filters,
            "period": period,
        }
        items = self._listed(say, capped=True)
        if not query.dimensions:  # "成交总额高于 ¥1,500,000.00 的有 12 天", "no day had …"
            unit = text(f"answer.unit_{query.grain}", language)
            if not rows:
                return text("answer.threshold_periods_none", language, unit=unit, **where)
            units = plural_noun(unit) if language == "en" and len(rows) != 1 else unit
            return text("answer.threshold_periods", language, count=len(rows), unit=units, items=items, **where)
        group = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        if not rows:
            return text("answer.threshold_none", language, group=group, **where)
        groups = plural_noun(group) if language == "en" and len(rows) != 1 else group
        return text("answer.threshold", language, count=len(rows), groups=groups, items=items, **where)

    def _share_sentence(self, say: _Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        """Each part's value with its share of the whole ("New users: ¥1.00 (25.00%)")."""
        label = value_label(self.catalog, query, metric, language)
        share_col = f"{metric}_share"

        # with a grain, the whole is each period's own: a share is "of that month's total"
        grain = text(f"answer.grain_{query.grain}", language) if query.grain is not None else ""

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
                whole = rows[0].get(f"{metric}_whole") if rows else None
                if whole is not None:  # "各渠道GMV占比": the whole the shares are of, stated
                    return text("answer.shares_of_whole", language, whole=fmt(whole), **where)
                return text("answer.shares", language, **where)
            if query.dimensions or not query.share_filters:
                return text("answer.shares_by_period", language, grain=grain, **where)
            part = share_part(query.share_filters, self.catalog, language)
            return text("answer.shares_over_time", language, grain=grain, part=part, **where)
        part = share_part(query.share_filters, self.catalog, language)
        whole = rows[0].get(f"{metric}_whole")
        where = {"label": label, "filters": filters, "period": period, "item": item(rows[0], part)}
        if whole is not None:  # "总GMV多少，app占多少": the whole as well as the part
            return text("answer.share_value_of_whole", language, whole=fmt(whole), **where)
        return text("answer.share_value", language, **where)

    def _change_ranking_sentence(self, say: _Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        cmp = query.comparison
        assert cmp is not None
        where = {
            "label": value_label(self.catalog, query, metric, language),
            "filters": filters,
            "period": period,
            "kind": text(f"answer.kind_{cmp.kind}", language),
            "previous_period": period_text(cmp.range.start, cmp.range.end, None, language),
        }
        label_of = partial(self._row_label, query, language=language)
        return change_ranking_sentence(self.catalog, query, metric, rows, language, where, label_of, fmt)

    def _premise_not_met(self, query: SemanticQuery, metric: str, change: Any, language: Language) -> str:
        """ "问题说成交总额下降，但实际上升：" before a comparison whose data moved against the
        direction the question took for granted ("上个月web订单是不是下降了" when they rose); a
        direction asked ("6月GMV比5月高吗") is answered yes or no, either way."""
        if query.premise is None or change is None:
            return ""
        actual = direction_of(change)
        if query.premise_asked:
            verdict = "answer.comparison_asked_yes" if actual == query.premise else "answer.comparison_asked_no"
            label = value_label(self.catalog, query, metric, language)
            return text(verdict, language, label=label, actual=text(f"answer.premise_{actual}", language))
        if actual == query.premise:
            return ""
        return text(
            "answer.comparison_premise_wrong",
            language,
            label=value_label(self.catalog, query, metric, language),
            said=text(f"answer.premise_{query.premise}", language),
            actual=text(f"answer.premise_{actual}", language),
        )

    def _comparison_sentence(self, say: _Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        label = value_label(self.catalog, query, metric, language)
        cmp = query.comparison
        assert cmp is not None
        kind = text(f"answer.kind_{cmp.kind}", language)
        prev_period = period_text(cmp.range.start, cmp.range.end, None, language)
        one_row = len(rows) == 1 and (query.dimensions or query.grain is not None)
        if (not query.dimensions and query.grain is None) or one_row:  # one figure against one figure
            row = rows[0]
            if one_row:  # "2026年6月GMV最高的区域，和上月相比": the one group, by name
                named = self._row_label(query, row, language)
                filters = text("answer.filters", language, parts=named) + filters
            cur, prev, pct = row[metric], row[f"{metric}_previous"], row[f"{metric}_change_pct"]
            change = row.get(f"{metric}_change")
            by = {}  # "比去年同期多了多少钱": an amount or a count says by how much, with its sign; a rate in points
            info = self.catalog.metrics[metric]
            if change is not None and (info.amount_or_count or info.unit == "ratio"):
                by = {"change": change_text(self.catalog, metric, change, language, fmt)}
            said = self._premise_not_met(query, metric, change, language)
            ratio = self._period_ratio(
                query, cur, prev, query.time_range.text or period, cmp.range.text or prev_period, language
            )
            return (
                said
                + _polish(
                    text(
                        "answer.comparison_by" if by else "answer.comparison",
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
        filters += self._among_the_kept(query, len(rows), language)
        asked = self._groups_asked(say) if query.premise_asked else ""
        ranked = sorted(
            (r for r in rows if r.get(f"{metric}_change_pct") is not None),
            key=lambda r: float(r[f"{metric}_change_pct"]),
        )
        if not ranked:
            ranked = rows
        low, high = ranked[0], ranked[-1]
        low_pct, high_pct = low.get(f"{metric}_change_pct"), high.get(f"{metric}_change_pct")
        falls_only = high_pct is not None and float(high_pct) < 0
        rises_only = low_pct is not None and float(low_pct) > 0
        return (
            text(
                "answer.comparison_groups",
                language,
                label=label,
                filters=filters,
                period=period,
                kind=kind,
                previous_period=prev_period,
                low_word=text("answer.smallest_rise" if rises_only else "answer.largest_fall", language),
                low=self._row_label(query, low, language),
                low_pct=self._relative_and_points(metric, low, language, fmt),
                low_value=fmt(low[metric]),
                high_word=text("answer.smallest_fall" if falls_only else "answer.largest_rise", language),
                high=self._row_label(query, high, language),
                high_pct=self._relative_and_points(metric, high, language, fmt),
                high_value=fmt(high[metric]),
            )
            + asked
        )

    def _groups_asked(self, say: _Sentence) -> str:
        """Whether every group (or any) moved the way a yes/no asked, and which groups decide it:
        "6月各渠道GMV都比5月高吗" names those that did not rise ("4 个渠道中有 1 个渠道的成交总额没有
        上升：否（APP（-28.07%））"); "有渠道GMV比5月低吗" names those that fell. A change that could not be
        computed (no previous value) is no move either way."""
        query, metric, rows, _period, _filters, language, _fmt = say
        moved = [r for r in rows if direction_of(r.get(f"{metric}_change")) == query.premise]
        fields = {
            "label": value_label(self.catalog, query, metric, language),
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

    def _first_asked_sentence(self, say: _Sentence) -> str:
        """Whether the member asked is first of the ranking ("是，华东的成交总额在 7 个区域中最高（¥…）"),
        or which is and where the member stands ("否，…最高的是 APP（…）；网页排第 2（…）")."""
        query, metric, rows, period, filters, language, fmt = say
        dim = query.dimensions[0]
        asked = next((r for r in rows if str(r.get(dim)) == query.asked_member), None)
        fields = {
            "label": value_label(self.catalog, query, metric, language),
            "filters": filters,
            "period": period,
            "member": self.catalog.member_label(dim, query.asked_member or "", language),
            "counted": self._counted_groups(query, len(rows), language),
            "side": text("answer.side_high" if query.order != "asc" else "answer.side_low", language),
        }
        place = asked_place(query, metric, rows)
        if asked is None or place is None:  # no value: no place in the ranking, never "first"
            return text("answer.first_asked_no_rows", language, **fields)
        if query.place_asked:  # "华南排第几": its place, and the first beside it
            return self._place_of_member_sentence(say, asked, place, fields)
        if place == 1:
            return text("answer.first_asked_yes", language, value=fmt(asked[metric]), **fields)
        valued = [r for r in rows if r.get(metric) is not None]  # the rows come in the dimension's order
        top = max(valued, key=lambda r: -float(r[metric]) if query.order == "asc" else float(r[metric]))
        return text(
            "answer.first_asked_no",
            language,
            top=self._row_label(query, top, language),
            top_value=fmt(top[metric]),
            place=place,
            value=fmt(asked[metric]),
            **fields,
        )

    def _place_of_member_sentence(
        self, say: _Sentence, asked: dict[str, Any], place: int, fields: dict[str, str]
    ) -> str:
        """Where the member asked stands ("华南的成交总额在 7 个区域中排第 3（¥…）；最高的是 华东（¥…）")."""
        query, metric, rows, _, _, language, fmt = say
        if place == 1:
            return text("answer.place_asked_first", language, value=fmt(asked[metric]), **fields)
        valued = [r for r in rows if r.get(metric) is not None]
        top = max(valued, key=lambda r: -float(r[metric]) if query.order == "asc" else float(r[metric]))
        return text(
            "answer.place_asked",
            language,
            place=place,
            value=fmt(asked[metric]),
            top=self._row_label(query, top, language),
            top_value=fmt(top[metric]),
            **fields,
        )

    def _changes_listed(self, query: SemanticQuery, metric: str, rows: list[dict[str, Any]], language: Language) -> str:
        """Each row's label and relative change ("APP（-28.07%）"), the first ``MAX_LISTED``."""
        shown = rows[:MAX_LISTED]
        items = text("answer.list_sep", language).join(
            text(
                "answer.item_value",
                language,
                item=self._row_label(query, r, language),
                value=format_pct(r.get(f"{metric}_change_pct"), language),
            )
            for r in shown
        )
        return items + (text("answer.more_rows", language) if len(rows) > len(shown) else "")

    @staticmethod
    def _period_ratio(
        query: SemanticQuery, current: Any, previous: Any, period: str, previous_period: str, language: Language
    ) -> str:
        """ "6月是5月的 0.83 倍": the ratio of two periods said, when the question asked for it."""
        if not query.ratio or query.difference or current is None or not previous:
            return ""
        times = float(current) / float(previous)
        return text(
            "answer.period_ratio",
            language,
            first=period,
            second=previous_period,
            times=f"{times:,.2f}",
            pct=format_exact(times, "ratio", language),
        )

    def _relative_and_points(
        self, metric: str, row: dict[str, Any], language: Language, fmt: Callable[[Any], str]
    ) -> str:
        """A group's relative change, and a rate's change in points beside it ("-27.80%, -1.12
        个百分点"): a rate's relative change alone reads like points."""
        pct = format_pct(row.get(f"{metric}_change_pct"), language)
        if self.catalog.metrics[metric].unit != "ratio" or row.get(f"{metric}_change") is None:
            return pct
        points = change_text(self.catalog, metric, row[f"{metric}_change"], language, fmt)
        return pct + text("answer.list_sep", language) + points

    def _grain_sentence(self, say: _Sentence) -> str:
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
            buckets = text("answer.list_sep", language).join(sorted(partial))
            note = text("answer.series_partial", language, grain=grain, buckets=buckets)
        if query.dimensions:
            return self._group_series(say, grain, partial) + note
        full = [r for r in _by_time(rows) if _period_of(r) not in partial] or _by_time(rows)
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
                count=len(rows),
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

    def _group_series(self, say: _Sentence, grain: str, partial: set[str]) -> str:
        """One first→last per group (never one group's first against another's last)."""
        query, metric, rows, period, filters, language, fmt = say
        groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
        for r in _by_time(rows):
            groups.setdefault(tuple(r[d] for d in query.dimensions), []).append(r)

        def name(key: tuple[Any, ...]) -> str:
            return " / ".join(self.member_label(d, m, language) for d, m in zip(query.dimensions, key, strict=True))

        def item(key: tuple[Any, ...], series: list[dict[str, Any]]) -> str:
            full = [r for r in series if _period_of(r) not in partial and r[metric] is not None] or series
            first, last = full[0], full[-1]
            if first is last:
                return text(
                    "answer.series_item_one", language, group=name(key), value=fmt(first[metric]), at=_period_of(first)
                )
            return text(
                "answer.series_item",
                language,
                group=name(key),
                first=_period_of(first),
                first_value=fmt(first[metric]),
                last=_period_of(last),
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

    def _listed(self, say: _Sentence, *, capped: bool = False) -> str:
        """Each row's label and value, in the rows' order ("web (¥7,894,938.60), app (…)");
        ``capped``: the first ``MAX_LISTED`` and a word that more follow."""
        query, metric, rows, _period, _filters, language, fmt = say
        shown = rows[:MAX_LISTED] if capped else rows
        items = text("answer.list_sep", language).join(
            text("answer.item_value", language, item=self._row_label(query, r, language), value=fmt(r[metric]))
            for r in shown
        )
        return items + (text("answer.more_rows", language) if len(rows) > len(shown) else "")

    def _place_sentence(self, say: _Sentence) -> str:
        """One place of a ranking ("订单量第2高的品类：美妆个护（9,429）"), and the rows that share it
        ("这2个并列（72）")."""
        query, metric, rows, period, filters, language, fmt = say
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        ) or text(f"answer.grain_{query.grain or 'day'}", language)
        said = text(
            "answer.rank_place",
            language,
            place=place_word(query.rank_place or 0, language),
            side=text("answer.side_high" if query.order == "desc" else "answer.side_low", language),
            dims=dims,
            label=value_label(self.catalog, query, metric, language),
            filters=filters,
            period=period,
            items=self._listed(say),
        )
        sep = text("answer.metric_sep", language)
        if len(rows) < 2:
            return said
        tied = text("answer.tied_place", language, count=len(rows), value=fmt(rows[0][metric]))
        return f"{said}{sep}{tied}"

    def _alongside_sentence(self, say: _Sentence) -> str:
        """A metric shown beside the one the rows are ranked by: its values in the ranking's
        order, never called a ranking of its own ("Their orders: web (6,055), app (27,521)")."""
        query, metric, rows, _period, _filters, language, _fmt = say
        label = value_label(self.catalog, query, metric, language)
        key = "answer.ranked_alongside_one" if len(rows) == 1 else "answer.ranked_alongside"
        return text(key, language, label=label, items=self._listed(say, capped=True))

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

    def _ranked_sentence(self, say: _Sentence) -> str:
        """Rows ordered by a metric (a ranking over periods and groups), listed in that order."""
        query, metric, rows, period, filters, language, _fmt = say
        label = value_label(self.catalog, query, metric, language)
        if query.top_n is not None or not query.order_by:
            ascending = query.order == "asc"
        else:
            ascending = not query.order_by[0].startswith("-")
        word = text("answer.bottom_word" if ascending else "answer.top_word", language)
        count = len(rows) if query.top_n is None else min(len(rows), query.top_n)
        items = self._listed(say, capped=True)
        if query.grain is not None and not query.dimensions and query.top_n is not None:  # "最高的3个月"
            unit = text(f"answer.unit_{query.grain}", language)
            units = unit if count == 1 or language == "zh" else plural_noun(unit)
            where = {"label": label, "filters": filters, "period": period, "items": items}
            if count == 1 and len(rows) == 1:  # "最高的一个月", "Top month": no "1"
                return text("answer.ranked_periods_one", language, word=word, unit=units, **where)
            return text("answer.ranked_periods", language, word=word, count=count, unit=units, **where)
        return text(
            "answer.ranked",
            language,
            label=label,
            filters=filters,
            period=period,
            word=word,
            count=count,
            items=items,
        )

    def _breakdown_sentence(self, say: _Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        label = value_label(self.catalog, query, metric, language)
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        where = {"label": label, "filters": filters, "period": period, "dims": dims}
        valued = [r for r in rows if r[metric] is not None]
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
            return text("answer.top_n", language, word=word, count=count, items=items, **where)
        if not ordered:
            return text("answer.no_values", language, **where)
        high, low = ordered[0], ordered[-1]
        high_text = {"high": self._tied(query, rows, metric, high, language), "high_value": fmt(high[metric])}
        if len(ordered) == 1:
            return text("answer.breakdown_one", language, **where, **high_text)
        said = text(
            "answer.breakdown",
            language,
            **where,
            **high_text,
            low=self._tied(query, rows, metric, low, language),
            low_value=fmt(low[metric]),
            count=len(rows),
        )
        ends = ends_gap(query, metric, rows)
        gap = ends or member_gap(query, metric, rows)
        if gap is None:
            return said
        first, second, difference, relative = gap
        labels = {"first": self._row_label(query, first, language), "second": self._row_label(query, second, language)}
        if query.ratio and relative is not None:  # "华东是华南的几倍", "最高是最低的几倍": first ÷ second
            key = "answer.ends_ratio" if ends else "answer.member_ratio"
            return said + text(key, language, times=f"{relative + 1:,.2f}", **labels)
        if self.catalog.metrics[metric].unit == "ratio":  # "高 0.12 个百分点": a rate's gap is in points
            size = text("answer.gap_points", language, points=f"{abs(difference) * 100:.2f}")
        else:
            size = fmt(abs(difference))
        pct = format_pct(abs(relative), language).lstrip("+") if relative is not None else "—"
        if ends:  # "最高比最低高 ¥…（…%）"
            return said + text("answer.ends_gap", language, gap=size, pct=pct)
        direction = text("answer.gap_higher" if difference > 0 else "answer.gap_lower", language)
        return said + text("answer.member_gap", language, direction=direction, gap=size, pct=pct, **labels)

    def _tied(
        self, query: SemanticQuery, rows: list[dict[str, Any]], metric: str, row: dict[str, Any], language: Language
    ) -> str:
        """``row``'s label, and those of the rows with the same value ("最高为 A、B（1）"): a high
        or low that several rows share is never said as one of them."""
        same = [r for r in rows if r[metric] is not None and r[metric] == row[metric]]
        labels = [self._row_label(query, r, language) for r in same[:_MAX_TIED]]
        more = text("answer.more_rows", language) if len(same) > _MAX_TIED else ""
        return text("answer.list_sep", language).join(labels) + more


def asked_place(query: SemanticQuery, metric: str, rows: list[dict[str, Any]]) -> int | None:
    """The place of the member asked whether first (``asked_member``) among ``rows`` by ``metric``,
    ties level; None when it has no row or no value."""
    if query.asked_member is None or not query.dimensions:
        return None
    dim = query.dimensions[0]
    asked = next((r for r in rows if str(r.get(dim)) == query.asked_member), None)
    if asked is None or asked.get(metric) is None:
        return None
    return 1 + sum(1 for r in rows if _ahead(r[metric], asked[metric], query.order))


def _ahead(value: Any, than: Any, order: str | None) -> bool:
    """Whether ``value`` ranks before ``than`` (highest first unless ``order`` is "asc"); ties are level."""
    if value is None or than is None:
        return False
    return float(value) < float(than) if order == "asc" else float(value) > float(than)


def _bounded_key(query: SemanticQuery) -> str:
    """The row key the query's threshold bounds, as the narrator's rows name it (an average's keyed
    by its metric): "revenue", "revenue_share", "revenue_change_pct"."""
    assert query.threshold is not None
    bound = query.threshold
    return bound.metric if bound.of == "value" else f"{bound.metric}_{bound.of}"


def fails_bound(value: Any, bound: Threshold) -> bool:
    """Whether a result cell does not pass ``bound`` as the SQL would keep it (a range: both ends
    included; no value passes no bound) — one rule for the sentence and the numbers the gate allows."""
    if value is None:
        return True
    number = float(value)
    if bound.upper is not None:
        return not bound.value <= number <= bound.upper
    passes = {
        ">": number > bound.value,
        ">=": number >= bound.value,
        "<": number < bound.value,
        "<=": number <= bound.value,
    }
    return not passes[bound.op]


def _apart_from_bound(fmt: Callable[[Any], str], bound: float) -> Callable[[Any], str]:
    """``fmt``, with a percentage that would read as the bound itself given more decimals (up to
    six): "取消率高于 3.00% 的渠道：小程序（3.004%）", never "（3.00%）" beside "高于 3.00%"."""

    def apart(value: Any) -> str:
        said = fmt(value)
        if not said.endswith("%") or value is None or float(value) == bound or said != fmt(bound):
            return said
        signed = said[:1] in "+-" and fmt(bound)[:1] in "+-"
        for places in range(3, 7):
            mine, theirs = (f"{float(v) * 100:{'+' if signed else ''}.{places}f}%" for v in (value, bound))
            if mine != theirs:
                return mine
        return said

    return apart
