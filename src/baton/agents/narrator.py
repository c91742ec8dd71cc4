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
from baton.numbers import format_exact
from baton.numbers import format_signed_percent as format_pct

_GRAIN = {
    "zh": {"day": "天", "week": "周", "month": "月", "quarter": "季度", "year": "年"},
    "en": {"day": "day", "week": "week", "month": "month", "quarter": "quarter", "year": "year"},
}


def period_text(start: date, end: date, words: str | None, language: Language) -> str:
    span = (
        f"{start.isoformat()} 至 {end.isoformat()}" if language == "zh" else f"{start.isoformat()} to {end.isoformat()}"
    )
    if start == end:
        span = start.isoformat()
    if words:
        return f"{words}（{span}）" if language == "zh" else f"{words} ({span})"
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
            members = ("、" if language == "zh" else ", ").join(
                self.member_label(flt.dimension, m, language) for m in flt.members
            )
            parts.append(f"{dim}={members}" if language == "zh" else f"{dim} = {members}")
        return ("（" + "；".join(parts) + "）") if language == "zh" else (" (" + "; ".join(parts) + ")")

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
            return (
                f"{period}{filters}没有查到符合条件的数据。"
                if language == "zh"
                else f"No data matched for {period}{filters}."
            )
        sentences = [self._metric_sentence(query, m, rows, period, filters, language) for m in query.metrics]
        return ("" if language == "zh" else " ").join(sentences)

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
        if language == "zh":
            return f"{period}{filters}的{label}为 {fmt(value)}。"
        return f"{label}{filters} for {period} was {fmt(value)}."

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
        kind = (
            ("环比" if cmp.kind == "previous_period" else "同比")
            if language == "zh"
            else ("vs the previous period" if cmp.kind == "previous_period" else "vs the same period last year")
        )
        prev_period = period_text(cmp.range.start, cmp.range.end, None, language)
        if not query.dimensions:
            row = rows[0]
            cur, prev, pct = row[metric], row[f"{metric}_previous"], row[f"{metric}_change_pct"]
            if language == "zh":
                return f"{period}{filters}的{label}为 {fmt(cur)}，对比期（{prev_period}）为 {fmt(prev)}，{kind} {format_pct(pct, language)}。"
            return f"{label}{filters} for {period} was {fmt(cur)}, {format_pct(pct, language)} {kind} ({prev_period}: {fmt(prev)})."
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
        if language == "zh":
            low_word = "增幅最小" if rises_only else "降幅最大"
            high_word = "降幅最小" if falls_only else "增幅最大"
            return (
                f"{period}{filters}各组{label}{kind}：{low_word}的是 {self._row_label(query, low, language)}"
                f"（{format_pct(low_pct, language)}，{fmt(low[metric])}），"
                f"{high_word}的是 {self._row_label(query, high, language)}（{format_pct(high_pct, language)}，"
                f"{fmt(high[metric])}）；对比期为 {prev_period}。"
            )
        low_word = "smallest rise" if rises_only else "largest fall"
        high_word = "smallest fall" if falls_only else "largest rise"
        return (
            f"{label}{filters} for {period}, {kind} ({prev_period}): {low_word} "
            f"{self._row_label(query, low, language)} ({format_pct(low_pct, language)}, {fmt(low[metric])}), "
            f"{high_word} {self._row_label(query, high, language)} ({format_pct(high_pct, language)}, "
            f"{fmt(high[metric])})."
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
        grain = _GRAIN[language][query.grain]
        first, last = rows[0], rows[-1]
        peak = max((r for r in rows if r[metric] is not None), key=lambda r: float(r[metric]), default=first)
        if language == "zh":
            return (
                f"{period}{filters}的{label}按{grain}共 {len(rows)} 个数据点：首个 {self._row_label(query, first, language)} 为 "
                f"{fmt(first[metric])}，最近 {self._row_label(query, last, language)} 为 {fmt(last[metric])}；"
                f"最高为 {self._row_label(query, peak, language)}（{fmt(peak[metric])}）。"
            )
        return (
            f"{label}{filters} by {grain} for {period}: {len(rows)} points, from {fmt(first[metric])} "
            f"({self._row_label(query, first, language)}) to {fmt(last[metric])} ({self._row_label(query, last, language)}); "
            f"peak {fmt(peak[metric])} ({self._row_label(query, peak, language)})."
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
        dims = ("、" if language == "zh" else " and ").join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        valued = [r for r in rows if r[metric] is not None]
        ordered = sorted(valued, key=lambda r: float(r[metric]), reverse=True)
        if query.top_n is not None:
            items = ("、" if language == "zh" else ", ").join(
                f"{self._row_label(query, r, language)}（{fmt(r[metric])}）"
                if language == "zh"
                else f"{self._row_label(query, r, language)} ({fmt(r[metric])})"
                for r in rows
            )
            word = (
                ("最低" if query.order == "asc" else "最高")
                if language == "zh"
                else ("bottom" if query.order == "asc" else "top")
            )
            if language == "zh":
                return f"{period}{filters}{label}{word}的{len(rows)}个{dims}：{items}。"
            return f"{word.capitalize()} {len(rows)} {dims} by {label}{filters}, {period}: {items}."
        if not ordered:
            return f"{period}{filters}{label}没有数值。" if language == "zh" else f"No {label} values for {period}."
        high, low = ordered[0], ordered[-1]
        if len(ordered) == 1:
            if language == "zh":
                return f"{period}{filters}按{dims}拆分的{label}：仅 1 组，{self._row_label(query, high, language)} 为 {fmt(high[metric])}。"
            return f"{label} by {dims}{filters}, {period}: one group, {self._row_label(query, high, language)} ({fmt(high[metric])})."
        if language == "zh":
            return (
                f"{period}{filters}按{dims}拆分的{label}：最高为 {self._row_label(query, high, language)}（{fmt(high[metric])}），"
                f"最低为 {self._row_label(query, low, language)}（{fmt(low[metric])}），共 {len(rows)} 组。"
            )
        return (
            f"{label} by {dims}{filters}, {period}: highest {self._row_label(query, high, language)} ({fmt(high[metric])}), "
            f"lowest {self._row_label(query, low, language)} ({fmt(low[metric])}); {len(rows)} groups."
        )
