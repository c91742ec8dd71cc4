"""The answer sentence, templated from the result table (no LLM needed).

Every number in the sentence is formatted from a result cell by :mod:`baton.numbers` (exact
value, thousands separators, two decimals for money in the metric's currency, a percentage
for ratios), so the output gate can trace each one back to evidence.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from baton.catalog.model import Catalog
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import text
from baton.numbers import format_exact
from baton.numbers import format_signed_percent as format_pct


def period_text(start: date, end: date, words: str | None, language: Language) -> str:
    span = text("answer.span", language, start=start.isoformat(), end=end.isoformat())
    if start == end:
        span = start.isoformat()
    if words:
        return text("answer.period_words", language, words=words, span=span)
    return span


class Narrator:
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def member_label(self, dimension: str, member: Any, language: Language) -> str:
        info = self.catalog.dimensions[dimension].members.get(str(member))
        return info.label.for_lang(language) if info else str(member)

    def _filters_text(self, query: SemanticQuery, language: Language) -> str:
        if not query.filters:
            return ""
        parts = []
        for flt in query.filters:
            dim = self.catalog.dimensions[flt.dimension].label.for_lang(language)
            members = text("answer.list_sep", language).join(
                self.member_label(flt.dimension, m, language) for m in flt.members
            )
            parts.append(text("answer.filter_part", language, dim=dim, members=members))
        return text("answer.filters", language, parts=text("answer.filter_sep", language).join(parts))

    def _row_label(self, query: SemanticQuery, row: dict[str, Any], language: Language) -> str:
        bits = []
        if "period" in row:
            bits.append(str(row["period"]))
        bits.extend(self.member_label(d, row[d], language) for d in query.dimensions)
        return " / ".join(bits)

    def compose(self, query: SemanticQuery, table: ResultTable, language: Language) -> str:
        names = [c.name for c in table.columns]
        rows = [dict(zip(names, r, strict=True)) for r in table.rows]
        tr = query.time_range
        period = period_text(tr.start, tr.end, tr.text, language)
        filters = self._filters_text(query, language)
        if not rows:
            return text("answer.no_rows", language, period=period, filters=filters)
        sentences = [self._metric_sentence(query, m, rows, period, filters, language) for m in query.metrics]
        return text("answer.metric_sep", language).join(sentences)

    def _metric_sentence(
        self,
        query: SemanticQuery,
        metric: str,
        rows: list[dict[str, Any]],
        period: str,
        filters: str,
        language: Language,
    ) -> str:
        info = self.catalog.metrics[metric]
        label = info.label.for_lang(language)
        unit = info.unit
        currency = self.catalog.currency_of(metric)

        def fmt(v: Any) -> str:
            return format_exact(v, unit, language, currency)

        if query.comparison is not None:
            return self._comparison_sentence(query, metric, rows, period, filters, language, fmt)
        if query.grain is not None:
            return self._grain_sentence(query, metric, rows, period, filters, language, fmt)
        if query.dimensions:
            return self._breakdown_sentence(query, metric, rows, period, filters, language, fmt)
        value = rows[0][metric]
        return text("answer.value", language, label=label, filters=filters, period=period, value=fmt(value))

    def _comparison_sentence(
        self,
        query: SemanticQuery,
        metric: str,
        rows: list[dict[str, Any]],
        period: str,
        filters: str,
        language: Language,
        fmt: Callable[[Any], str],
    ) -> str:
        label = self.catalog.metrics[metric].label.for_lang(language)
        cmp = query.comparison
        assert cmp is not None
        kind = text(f"answer.kind_{cmp.kind}", language)
        prev_period = period_text(cmp.range.start, cmp.range.end, None, language)
        if not query.dimensions:
            row = rows[0]
            cur, prev, pct = row[metric], row[f"{metric}_previous"], row[f"{metric}_change_pct"]
            return text(
                "answer.comparison",
                language,
                label=label,
                filters=filters,
                period=period,
                current=fmt(cur),
                previous_period=prev_period,
                previous=fmt(prev),
                kind=kind,
                pct=format_pct(pct, language),
            )
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
        return text(
            "answer.comparison_groups",
            language,
            label=label,
            filters=filters,
            period=period,
            kind=kind,
            previous_period=prev_period,
            low_word=text("answer.smallest_rise" if rises_only else "answer.largest_fall", language),
            low=self._row_label(query, low, language),
            low_pct=format_pct(low_pct, language),
            low_value=fmt(low[metric]),
            high_word=text("answer.smallest_fall" if falls_only else "answer.largest_rise", language),
            high=self._row_label(query, high, language),
            high_pct=format_pct(high_pct, language),
            high_value=fmt(high[metric]),
        )

    def _grain_sentence(
        self,
        query: SemanticQuery,
        metric: str,
        rows: list[dict[str, Any]],
        period: str,
        filters: str,
        language: Language,
        fmt: Callable[[Any], str],
    ) -> str:
        label = self.catalog.metrics[metric].label.for_lang(language)
        assert query.grain is not None
        first, last = rows[0], rows[-1]
        peak = max((r for r in rows if r[metric] is not None), key=lambda r: float(r[metric]), default=first)
        return text(
            "answer.series",
            language,
            label=label,
            filters=filters,
            period=period,
            grain=text(f"answer.grain_{query.grain}", language),
            count=len(rows),
            first=self._row_label(query, first, language),
            first_value=fmt(first[metric]),
            last=self._row_label(query, last, language),
            last_value=fmt(last[metric]),
            peak=self._row_label(query, peak, language),
            peak_value=fmt(peak[metric]),
        )

    def _breakdown_sentence(
        self,
        query: SemanticQuery,
        metric: str,
        rows: list[dict[str, Any]],
        period: str,
        filters: str,
        language: Language,
        fmt: Callable[[Any], str],
    ) -> str:
        label = self.catalog.metrics[metric].label.for_lang(language)
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        where = {"label": label, "filters": filters, "period": period, "dims": dims}
        valued = [r for r in rows if r[metric] is not None]
        ordered = sorted(valued, key=lambda r: float(r[metric]), reverse=True)
        if query.top_n is not None:
            items = text("answer.list_sep", language).join(
                text("answer.item_value", language, item=self._row_label(query, r, language), value=fmt(r[metric]))
                for r in rows
            )
            word = text("answer.bottom_word" if query.order == "asc" else "answer.top_word", language)
            return text("answer.top_n", language, word=word, count=len(rows), items=items, **where)
        if not ordered:
            return text("answer.no_values", language, **where)
        high, low = ordered[0], ordered[-1]
        high_text = {"high": self._row_label(query, high, language), "high_value": fmt(high[metric])}
        if len(ordered) == 1:
            return text("answer.breakdown_one", language, **where, **high_text)
        return text(
            "answer.breakdown",
            language,
            **where,
            **high_text,
            low=self._row_label(query, low, language),
            low_value=fmt(low[metric]),
            count=len(rows),
        )
