"""What a report says, independent of its format: one structure, rendered as Markdown or HTML.

The order is the reader's: the answer first (for an analysis, its summary and then its
sections: drivers, offsets, what was ruled out, data quality…), then the key numbers, the
chart, the table and "how this was computed" (SQL, metric definitions, filters, data
freshness, assumptions, excluded paths, limitations, run id). Every text is in the answer's
language; column and member names come from the catalog when one is given (the Answer alone
carries codes).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from baton.catalog.compiler import AHEAD, shown_metric, value_column
from baton.catalog.model import Catalog, member_key
from baton.contracts.agent_outputs import ReportSection
from baton.contracts.answer import Answer
from baton.contracts.common import Language, Unit
from baton.contracts.semantic import GRAINS
from baton.messages import average_fields, capitalised, text
from baton.numbers import bucket_label, decimal_of, format_exact, format_number
from baton.report.analysis import (
    analysis_sections,
    issue_words,
    stat_detail,
    stat_exact,
    stat_interval,
    stat_label,
    stat_value,
)

MAX_TABLE_ROWS = 50

CODE_SECTIONS = frozenset({"definition"})
"""Analysis sections whose items are SQL (the filters applied): shown as code."""

HEADINGS = (
    "title",
    "question",
    "answer",
    "status",
    "key_numbers",
    "item",
    "value",
    "exact",
    "interval",
    "detail",
    "chart",
    "chart_reason",
    "table",
    "how",
    "sql",
    "metrics",
    "expression",
    "metric_filters",
    "time_column",
    "owner",
    "filters",
    "freshness",
    "assumptions",
    "excluded",
    "limitations",
    "gate",
    "run_id",
    "none",
    "time_range",
    "interactive",
    "static",
    "generated",
)
"""The report's fixed labels (``report.<name>`` messages without fields)."""


def report_labels(language: Language) -> dict[str, str]:
    """Every fixed label of the report in ``language``, by name."""
    return {name: text(f"report.{name}", language) for name in HEADINGS}


@dataclass(frozen=True)
class KeyFigure:
    """One key number: what it is, how it reads, its exact value, its interval and (a test) its
    p, q and effect size, if any."""

    label: str
    value: str
    exact: str
    interval: str | None = None
    detail: str | None = None


def figure_table(labels: dict[str, str], figures: list[KeyFigure]) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the key numbers; the interval and test columns only when a number has them."""
    optional = [name for name in ("interval", "detail") if any(getattr(f, name) for f in figures)]
    header = [labels["item"], labels["value"], labels["exact"], *(labels[name] for name in optional)]
    rows = [[f.label, f.value, f.exact, *(getattr(f, name) or "—" for name in optional)] for f in figures]
    return header, rows


@dataclass(frozen=True)
class MetricText:
    label: str
    name: str
    definition: str
    expression: str
    filters: tuple[str, ...]
    owner: str
    time_column: str | None = None


@dataclass
class ReportContent:
    """Everything a report shows, as plain texts in the answer's language."""

    language: Language
    labels: dict[str, str]
    title: str
    question: str
    answer: str
    status: str
    status_label: str = ""
    """The status in the report's language ("已拒绝"), for a report of an answer that is not one."""
    interpretation: str | None = None
    sections: list[ReportSection] = field(default_factory=list)
    key_figures: list[KeyFigure] = field(default_factory=list)
    chart_title: str | None = None
    chart_reason: str | None = None
    chart_notes: list[str] = field(default_factory=list)
    table_header: list[str] = field(default_factory=list)
    table_rows: list[list[str]] = field(default_factory=list)
    table_notes: list[str] = field(default_factory=list)
    sql: str | None = None
    metrics: list[MetricText] = field(default_factory=list)
    filters: list[str] = field(default_factory=list)
    time_range: str | None = None
    freshness: str | None = None
    assumptions: list[str] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)
    limitations: list[str] = field(default_factory=list)
    gate: str | None = None
    run_id: str = ""

    @property
    def is_analysis(self) -> bool:
        """An analysis report: its assumptions, excluded paths and caveats live in its sections."""
        return bool(self.sections)


_SUFFIXES = (
    ("_change_whole", "change_whole"),
    ("_change_share", "change_share"),
    ("_change_pct", "change_pct"),
    ("_previous", "previous"),
    ("_change", "change"),
    ("_share", "share"),
    ("_whole", "whole"),
)
"""Derived result columns (``<metric><suffix>``) and the ``report.<key>`` label each gets."""


class _Columns:
    """Labels and units of the result's columns, from the catalog when there is one."""

    def __init__(self, answer: Answer, catalog: Catalog | None) -> None:
        self.answer = answer
        self.catalog = catalog
        self.language: Language = answer.language
        self.metric_labels = {m.name: m.label for m in answer.metrics}
        query = answer.semantic_query
        if query is not None and query.average_per is not None:  # "gmv_per_day": 日均成交总额
            fields = average_fields(query.average_per)
            self.metric_labels = {
                value_column(query, name): text("answer.average_label", self.language, label=label, **fields)
                for name, label in self.metric_labels.items()
            }

    @staticmethod
    def _metric_of(column: str) -> str:
        base = column.removesuffix("_previous").removesuffix("_whole").removesuffix("_change").removesuffix("_whole")
        return next((base[: -len(g) - 5] for g in GRAINS if base.endswith(f"_per_{g}")), base)

    def unit(self, column: str) -> Unit:
        if column.endswith(("_change_pct", "_share")):
            return "ratio"
        base = self._metric_of(column)
        if self.catalog is not None and base in self.catalog.metrics:
            return self.catalog.metrics[base].unit
        return "number"

    def currency(self, column: str) -> str | None:
        base = self._metric_of(column)
        if self.catalog is not None and base in self.catalog.metrics:
            return self.catalog.currency_of(base)
        return None

    def label(self, column: str) -> str:
        for suffix, key in _SUFFIXES:
            base = column.removesuffix(suffix)
            if column.endswith(suffix) and base in self.metric_labels:
                return text(f"report.{key}", self.language, label=self.metric_labels[base])
        if column in self.metric_labels:
            return self.metric_labels[column]
        if column == "period":
            return text("report.period", self.language)
        if column == AHEAD:
            return text("report.rows_ahead", self.language)
        if self.catalog is not None and column in self.catalog.dimensions:
            return capitalised(self.catalog.dimensions[column].label.for_lang(self.language))
        return column

    def member(self, column: str, value: Any) -> str:
        query = self.answer.semantic_query
        if column == "period" and query is not None:
            return bucket_label(value, query.grain, self.language)
        if self.catalog is not None and column in self.catalog.dimensions:
            if value is None:  # rows of no member: said so, never a blank a reader takes for a name
                return text("answer.member_empty", self.language)
            info = self.catalog.dimensions[column].members.get(member_key(value))
            if info is not None:
                return info.label.for_lang(self.language)
        return "" if value is None else str(value)

    def is_measure(self, column: str) -> bool:
        bases = {column, *(column.removesuffix(sfx) for sfx, _ in _SUFFIXES)}
        return any(b in self.metric_labels for b in bases)

    def cell(self, column: str, value: Any) -> str:
        if self.is_measure(column):
            unit = self.unit(column)
            if unit == "ratio" and column.endswith("_change_pct") and value is not None:
                return f"{float(value) * 100:+.2f}%"
            shown = format_exact(value, unit, self.language, self.currency(column))  # -¥1.00, not ¥-1.00
            positive = value is not None and not isinstance(value, str) and float(value) > 0
            return "+" + shown if column.endswith("_change") and positive else shown
        if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
            return _plain_number(value, self.language)  # a column no catalog names (free SQL)
        return self.member(column, value)

    def short(self, column: str, value: Any) -> str:
        """A key number as a reader scans it: 万/亿 or K/M, ¥, %."""
        unit = self.unit(column)
        shown = format_number(value, unit, self.language, self.currency(column))
        if column.endswith("_change_pct") and not shown.startswith("-") and shown != "—":
            shown = "+" + shown
        return shown


@dataclass(frozen=True)
class TableView:
    """The result table as a reader sees it: catalog labels, member labels, formatted cells,
    breakdowns ranked by their metric."""

    header: list[str]
    rows: list[list[str]]
    numeric: list[bool]
    notes: list[str]


def _plain_number(value: int | float | Decimal, language: Language) -> str:
    """A number of a column the catalog does not describe: grouped (``26,239,738.80``), and a
    fraction to four significant digits (``0.02912``) rather than rounded away to ``0.03``."""
    d = decimal_of(value)
    if d is None:
        return str(value)
    if d == d.to_integral_value() or abs(d) >= 1:
        return format_exact(int(d) if d == d.to_integral_value() else float(d), "number", language)
    return f"{float(d):.4g}"


def display_rows(answer: Answer, limit: int | None = None) -> list[list[Any]]:
    """The result's rows in reading order: a breakdown by members (no time grain, no ranking
    of its own) by its first metric, largest first, missing values last; otherwise as queried."""
    result, query = answer.result, answer.semantic_query
    if result is None:
        return []
    rows = list(result.rows)
    names = [c.name for c in result.columns]
    shown = shown_metric(query, names) if query is not None else None
    metric = value_column(query, shown) if query is not None and shown is not None else None
    ranked_by_query = query is None or query.top_n is not None or bool(query.order_by) or query.grain is not None
    if metric is not None and not ranked_by_query and query is not None and query.dimensions:
        i = names.index(metric)
        rows.sort(key=lambda r: (r[i] is None, -float(r[i]) if r[i] is not None else 0.0))
    return rows[:limit] if limit is not None else rows


def table_view(answer: Answer, catalog: Catalog | None = None, limit: int = MAX_TABLE_ROWS) -> TableView:
    """The result table of ``answer`` (``limit`` rows at most), labelled and formatted by the
    catalog and :mod:`baton.numbers`; empty for an answer without a result."""
    if answer.result is None:
        return TableView([], [], [], [])
    cols = _Columns(answer, catalog)
    lang = cols.language
    names = [c.name for c in answer.result.columns]
    shown = display_rows(answer, limit)
    notes: list[str] = []
    if len(answer.result.rows) > len(shown):
        notes.append(text("report.more_rows", lang, shown=len(shown), total=len(answer.result.rows)))
    if answer.result.truncated:
        notes.append(text("report.truncated", lang))
    return TableView(
        header=[capitalised(label) if label != n else n for n, label in ((n, cols.label(n)) for n in names)],
        rows=[[cols.cell(n, v) for n, v in zip(names, row, strict=True)] for row in shown],
        numeric=[
            cols.is_measure(n) or c.type not in ("VARCHAR", "DATE")
            for n, c in zip(names, answer.result.columns, strict=True)
        ],
        notes=notes,
    )


def _row_name(cols: _Columns, names: list[str], row: list[Any], measures: set[str]) -> str:
    bits = [cols.member(n, v) for n, v in zip(names, row, strict=True) if n not in measures]
    return " / ".join(b for b in bits if b) or "—"


def key_figures(answer: Answer, catalog: Catalog | None = None) -> list[KeyFigure]:
    """The numbers a reader should take away, chosen by the shape of the question."""
    result, query = answer.result, answer.semantic_query
    if result is None or query is None or not result.rows:
        return []
    cols = _Columns(answer, catalog)
    lang = cols.language
    names = [c.name for c in result.columns]
    measures = {n for n in names if cols.is_measure(n)}
    shown = shown_metric(query, names)
    metric = value_column(query, shown) if shown is not None else None
    figures: list[KeyFigure] = []

    def add(label: str, column: str, value: Any) -> None:
        figures.append(KeyFigure(label, cols.short(column, value), cols.cell(column, value)))

    if len(result.rows) == 1 and not query.dimensions and query.grain is None:
        for name, value in zip(names, result.rows[0], strict=True):
            if name in measures:
                add(cols.label(name), name, value)
        return figures
    if metric is None:
        return figures
    i = names.index(metric)
    valued = [r for r in result.rows if r[i] is not None]
    if not valued:
        return figures
    label = cols.label(metric)
    if query.grain is not None:
        first, last = result.rows[0], result.rows[-1]
        peak = max(valued, key=lambda r: float(r[i]))
        for key, row in (("first", first), ("last", last), ("peak", peak)):
            who = text(f"report.{key}", lang, who=_row_name(cols, names, row, measures))
            add(f"{label} · {who}", metric, row[i])
        figures.append(KeyFigure(text("report.points", lang), str(len(result.rows)), str(len(result.rows))))
        return figures
    # the highest and lowest are members: a group of an empty key is in the table, never an end
    keys = [names.index(d) for d in query.dimensions if d in names]
    ordered = sorted(
        (r for r in valued if all(r[k] is not None for k in keys)), key=lambda r: float(r[i]), reverse=True
    )
    if not ordered:
        return figures
    for key, row in (("highest", ordered[0]), ("lowest", ordered[-1])):
        who = text(f"report.{key}", lang, who=_row_name(cols, names, row, measures))
        add(f"{label} · {who}", metric, row[i])
        pct = f"{metric}_change_pct"
        if query.comparison is not None and pct in names:
            add(f"{cols.label(pct)} · {_row_name(cols, names, row, measures)}", pct, row[names.index(pct)])
    figures.append(KeyFigure(text("report.groups", lang), str(len(result.rows)), str(len(result.rows))))
    return figures


def stat_figures(answer: Answer, catalog: Catalog | None = None) -> list[KeyFigure]:
    """Statistical tests attached to the answer (``baton analyze``) as key numbers a person reads:
    %, money with its currency, the interval as a range, p and q as bounds; the exact estimate beside."""
    return [
        KeyFigure(
            stat_label(test, answer, catalog),
            stat_value(test.estimate, test, answer, catalog),
            stat_exact(test.estimate, test, answer, catalog),
            stat_interval(test, answer, catalog),
            stat_detail(test, answer.language),
        )
        for test in answer.tests
    ]


def build_content(answer: Answer, catalog: Catalog | None = None) -> ReportContent:
    """The report of ``answer`` as texts; ``catalog`` supplies labels and units when given."""
    lang: Language = answer.language
    t = report_labels(lang)
    cols = _Columns(answer, catalog)
    content = ReportContent(
        language=lang,
        labels=t,
        title=t["title"],
        question=answer.question,
        answer=answer.answer,
        status=answer.status,
        status_label=text(f"answer.status_{answer.status}", lang),
        interpretation=answer.interpretation,
        run_id=answer.run_id,
        sql=answer.sql,
        freshness=answer.data_freshness,
        sections=analysis_sections(answer),
    )
    content.assumptions = [] if content.is_analysis else list(answer.assumptions)
    figures = key_figures(answer, catalog) + stat_figures(answer, catalog)
    content.key_figures = [replace(f, label=capitalised(f.label)) for f in figures]  # a table's first column
    if answer.chart is not None:
        title = answer.chart.get("title")
        content.chart_title = title.get("text") if isinstance(title, dict) else None
        meta = answer.chart.get("usermeta", {}).get("baton", {})
        content.chart_reason = meta.get("reason")
    if answer.result is not None:
        view = table_view(answer, catalog)
        content.table_header, content.table_rows, content.table_notes = view.header, view.rows, view.notes
    content.metrics = [
        MetricText(m.label, m.name, m.definition, m.expression, tuple(m.filters), m.owner, m.time_column)
        for m in answer.metrics
    ]
    query = answer.semantic_query
    if query is not None:
        for flt in query.filters:
            dim = cols.label(flt.dimension)
            members = text("answer.list_sep", lang).join(cols.member(flt.dimension, m) for m in flt.members)
            key = "answer.filter_part_excluded" if flt.exclude else "answer.filter_part"
            content.filters.append(text(key, lang, dim=dim, members=members))
    if answer.time_range is not None:
        tr = answer.time_range
        content.time_range = text("answer.span", lang, start=tr.start.isoformat(), end=tr.end.isoformat())
    content.excluded = [] if content.is_analysis else list(answer.excluded_paths)
    if answer.status == "answered" and not content.excluded and not answer.tests:
        content.excluded = [text("report.no_excluded", lang)]
    content.limitations = _limitations(answer, content.is_analysis)
    if answer.chart is not None:
        subtitle = answer.chart.get("title", {}).get("subtitle")
        content.chart_notes = subtitle if isinstance(subtitle, list) else [subtitle] if subtitle else []
    if answer.gate is not None:
        gate = answer.gate
        said = text("report.gate_ok", lang, n=gate.numbers_checked) if gate.ok else text("report.gate_refused", lang)
        if gate.action == "regenerated":
            said = text("report.gate_regenerated", lang) + " " + said
        content.gate = f"{said} {gate.rounding_rule}"
    return content


def _limitations(answer: Answer, analysis: bool) -> list[str]:
    """What the numbers cannot say; an analysis states its quality flags in its quality section."""
    lang: Language = answer.language
    said: list[str] = []
    if answer.status == "answered" and not answer.tests:
        said.append(text("report.exact_note", lang))
    for flag in [] if analysis else answer.quality_flags:
        when = f" ({flag.date.isoformat()})" if flag.date else ""
        issue = issue_words(flag.issue, lang)
        said.append(f"{flag.table}{when}: {issue}" + (f" — {flag.assumption}" if flag.assumption else ""))
    if answer.result is not None and answer.result.truncated:
        said.append(text("report.truncated", lang))
    return said
