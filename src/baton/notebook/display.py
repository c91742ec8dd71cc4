"""An Answer as a notebook shows it: an HTML fragment and Markdown, in the answer's language.

The order is the report's (:mod:`baton.report.content`, whose texts both use): how the question
was read, the answer, an analysis' sections and key numbers, the chart, the result table
(column labels, numbers by :mod:`baton.numbers`), then SQL and the metric definitions (口径)
folded in ``<details>``, assumptions, data freshness and the run id.

The chart is a PNG (rendered offline with the bundled CJK font, shown at its CSS size) rather
than inline SVG: an SVG's text is drawn with the viewer's fonts, so its Chinese labels turn to
boxes where no CJK font is installed, while the PNG carries its glyphs and looks the same in
JupyterLab, VS Code, a static nbconvert export and GitHub's notebook viewer.

Every text the answer carries is escaped for where it lands (HTML: ``html.escape``; Markdown:
the report's :mod:`baton.report.md_text` escapers). The fragment has no script.
"""

from __future__ import annotations

import base64
import html
import struct
from typing import Any

from baton.catalog.model import Catalog
from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.errors import BatonError
from baton.messages import MESSAGES, text
from baton.report.content import KeyFigure, ReportContent, build_content, figure_table
from baton.report.md_text import md_cell, md_code, md_code_block, md_line, md_span

CHART_SCALE = 2.0
"""The PNG is drawn at twice its CSS size (sharp on high-density screens) and shown at its CSS size."""

_CSS = """
.baton-answer { font-family: "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", system-ui, sans-serif;
  line-height: 1.55; max-width: 880px; }
.baton-answer .baton-interpretation { font-weight: 600; margin: 0 0 0.3em; }
.baton-answer .baton-text { padding: 8px 12px; border-left: 4px solid #4c78a8; background: rgba(127,127,127,0.08);
  margin: 0 0 0.6em; }
.baton-answer .baton-status { color: #b42318; font-weight: 600; }
.baton-answer table { border-collapse: collapse; margin: 0.4em 0; }
.baton-answer th, .baton-answer td { padding: 3px 10px; border-bottom: 1px solid rgba(127,127,127,0.35);
  text-align: left; white-space: nowrap; }
.baton-answer td.num { text-align: right; font-variant-numeric: tabular-nums; }
.baton-answer details { margin: 0.3em 0; }
.baton-answer summary { cursor: pointer; font-weight: 600; }
.baton-answer pre { white-space: pre-wrap; font-size: 0.85em; padding: 8px; background: rgba(127,127,127,0.08); }
.baton-answer .baton-note, .baton-answer footer { color: #6a737d; font-size: 0.86em; }
.baton-answer img { max-width: 100%; height: auto; }
"""


def _e(value: str) -> str:
    return html.escape(value, quote=True)


def png_size(png: bytes) -> tuple[int, int]:
    """A PNG's width and height in pixels (its IHDR chunk)."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def numeric_columns(answer: Answer) -> list[bool]:
    """Which result columns hold numbers (right-aligned): every value present is a number."""
    if answer.result is None:
        return []
    return [
        any(row[i] is not None for row in answer.result.rows)
        and all(
            isinstance(row[i], int | float) and not isinstance(row[i], bool)
            for row in answer.result.rows
            if row[i] is not None
        )
        for i in range(len(answer.result.columns))
    ]


class Chart:
    """The chart as a PNG for the page (or why it could not be drawn)."""

    def __init__(self, png: bytes | None, error: str | None = None) -> None:
        self.png = png
        self.error = error

    def data_url(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png or b"").decode("ascii")

    def css_width(self, scale: float) -> int:
        return round(png_size(self.png or b"")[0] / scale) if self.png else 0


def chart_for(answer: Answer, render: Any, scale: float) -> Chart | None:
    """The answer's chart drawn by ``render(spec, scale)``; a drawing failure becomes a note."""
    if answer.chart is None:
        return None
    try:
        return Chart(render(answer.chart, scale))
    except BatonError as exc:  # the first line: a renderer's message may go on with its JavaScript stack
        said = (exc.message(answer.language).strip().splitlines() or [exc.error_code])[0]
        return Chart(None, text("notebook.chart_failed", answer.language, error=said))


def status_word(status: str, language: Language) -> str:
    """An answer's status in words, in the answer's language (the code itself if it has none)."""
    key = f"answer.status_{status}"
    return text(key, language) if key in MESSAGES else status


# -- HTML ---------------------------------------------------------------------------------------------
def _html_table(header: list[str], rows: list[list[str]], numeric: list[bool] | None = None) -> str:
    right = numeric if numeric is not None and len(numeric) == len(header) else [False] * len(header)
    head = "".join(
        f'<th style="text-align:right">{_e(h)}</th>' if r else f"<th>{_e(h)}</th>"
        for h, r in zip(header, right, strict=True)
    )
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="num">{_e(c)}</td>' if r else f"<td>{_e(c)}</td>" for c, r in zip(row, right, strict=True)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _html_list(items: list[str]) -> str:
    return "<ul>" + "".join(f"<li>{_e(i)}</li>" for i in items) + "</ul>"


def _html_metrics(c: ReportContent) -> str:
    from baton.report.html import metric_definitions_html

    t = c.labels
    scope = ([f"{t['time_range']}: {c.time_range}"] if c.time_range else []) + c.filters
    filters = f"<p>{_e(t['filters'])}:</p>{_html_list(scope)}" if scope else ""
    return metric_definitions_html(c) + filters


def _html_head(answer: Answer, c: ReportContent) -> list[str]:
    """How the question was read, the answer, and (not answered) the status, error and suggestions."""
    lang = answer.language
    parts = [f'<p class="baton-interpretation">{_e(c.interpretation)}</p>'] if c.interpretation else []
    parts.append(f'<p class="baton-text">{_e(c.answer)}</p>')
    if c.status != "answered":
        status = f"{c.labels['status']}: {status_word(c.status, lang)}"
        if answer.error is not None:
            status += " · " + text("notebook.error", lang, code=answer.error.code)
        parts.append(f'<p class="baton-status">{_e(status)}</p>')
    if answer.suggestions:
        parts += [f"<p>{_e(text('notebook.suggestions', lang))}:</p>", _html_list(answer.suggestions)]
    for section in c.sections:
        parts += [f"<h4>{_e(section.heading)}</h4>", _html_list(list(section.items))]
    if c.is_analysis and c.key_figures:
        header, rows = figure_table(c.labels, c.key_figures)
        parts += [f"<h4>{_e(c.labels['key_numbers'])}</h4>", _html_table(header, rows)]
    return parts


def _html_chart(c: ReportContent, chart: Chart | None) -> list[str]:
    if chart is None:
        return []
    if chart.png is None:
        return [f'<p class="baton-note">{_e(chart.error or "")}</p>']
    alt = _e(c.chart_title or c.labels["chart"])
    notes = "".join(f"<br>{_e(n)}" for n in c.chart_notes)
    return [
        f'<figure style="margin:0.4em 0"><img src="{chart.data_url()}" alt="{alt}" '
        f'width="{chart.css_width(CHART_SCALE)}">'
        + (f'<figcaption class="baton-note">{notes.removeprefix("<br>")}</figcaption>' if notes else "")
        + "</figure>"
    ]


def render_html(answer: Answer, catalog: Catalog | None, chart: Chart | None) -> str:
    """The notebook's HTML fragment for ``answer`` (scoped style, no script)."""
    c = build_content(answer, catalog)
    t = c.labels
    lang = "zh-CN" if c.language == "zh" else "en"
    parts = [
        f'<div class="baton-answer" lang="{lang}" data-status="{_e(c.status)}" data-run-id="{_e(c.run_id)}">',
        f"<style>{_CSS}</style>",
        *_html_head(answer, c),
        *_html_chart(c, chart),
    ]
    if c.table_header:
        table = _html_table(c.table_header, c.table_rows, numeric_columns(answer))
        parts.append(f'<div style="overflow-x:auto">{table}</div>')
        parts += [f'<p class="baton-note">{_e(n)}</p>' for n in c.table_notes]
    if c.sql:
        parts.append(f"<details><summary>{_e(t['sql'])}</summary><pre><code>{_e(c.sql)}</code></pre></details>")
    if c.metrics or c.filters or c.time_range:
        parts.append(f"<details><summary>{_e(t['metrics'])}</summary>{_html_metrics(c)}</details>")
    if c.assumptions:
        parts += [f"<p><strong>{_e(t['assumptions'])}</strong></p>", _html_list(c.assumptions)]
    if c.freshness:
        parts.append(f'<p class="baton-note">{_e(t["freshness"])}: {_e(c.freshness)}</p>')
    parts += [
        f"<footer>{_e(t['question'])}: {_e(c.question)}<br>"
        f"{_e(t['run_id'])}: <code>{_e(c.run_id)}</code> · {_e(t['generated'])}</footer>",
        "</div>",
    ]
    return "\n".join(parts)


# -- Markdown -----------------------------------------------------------------------------------------
def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(md_cell(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    return lines + ["| " + " | ".join(md_cell(cell) or " " for cell in row) + " |" for row in rows]


def _md_figures(t: dict[str, str], figures: list[KeyFigure]) -> list[str]:
    header, rows = figure_table(t, figures)
    return [f"**{md_span(t['key_numbers'])}**", "", *_md_table(header, rows), ""]


def _md_details(summary: str, body: list[str]) -> list[str]:
    """A folded block: raw HTML around Markdown (blank lines keep the body Markdown)."""
    return [f"<details><summary>{_e(summary)}</summary>", "", *body, "", "</details>", ""]


def _md_metrics(c: ReportContent) -> list[str]:
    t = c.labels
    out: list[str] = []
    for m in c.metrics:
        out.append(f"- **{md_span(m.label)}** ({md_code(m.name)}): {md_span(m.definition)}")
        out.append(f"  - {md_span(t['expression'])}: {md_code(m.expression)}")
        if m.filters:
            out.append(f"  - {md_span(t['metric_filters'])}: " + "; ".join(md_code(f) for f in m.filters))
        if m.time_column:
            out.append(f"  - {md_span(t['time_column'])}: {md_code(m.time_column)}")
        out.append(f"  - {md_span(t['owner'])}: {md_span(m.owner)}")
    scope = ([f"{t['time_range']}: {c.time_range}"] if c.time_range else []) + c.filters
    return [*out, f"- {md_span(t['filters'])}: " + "; ".join(md_span(s) for s in scope)] if scope else out


def render_markdown(answer: Answer, catalog: Catalog | None, chart: Chart | None) -> str:
    """The notebook's Markdown for ``answer``; the chart is a PNG data URL."""
    c = build_content(answer, catalog)
    t = c.labels
    out = [f"> {md_line(c.interpretation)}", ""] if c.interpretation else []
    out += [f"**{md_span(c.answer)}**", ""]
    if c.status != "answered":
        code = f" · {md_code(answer.error.code)}" if answer.error is not None else ""
        out += [f"_{md_span(t['status'])}: {md_span(status_word(c.status, answer.language))}_{code}", ""]
    if answer.suggestions:
        out += [md_span(text("notebook.suggestions", answer.language)) + ":", ""]
        out += [f"- {md_line(s)}" for s in answer.suggestions] + [""]
    for section in c.sections:
        out += [f"**{md_span(section.heading)}**", "", *(f"- {md_line(i)}" for i in section.items), ""]
    if c.is_analysis and c.key_figures:
        out += _md_figures(t, c.key_figures)
    if chart is not None:
        image = (
            f"![{md_span(c.chart_title or t['chart'])}]({chart.data_url()})"
            if chart.png
            else md_line(chart.error or "")
        )
        out += [image, ""]
    if c.table_header:
        out += [*_md_table(c.table_header, c.table_rows), ""]
        out += [f"_{md_span(n)}_" for n in c.table_notes] + ([""] if c.table_notes else [])
    if c.sql:
        out += _md_details(t["sql"], md_code_block(c.sql, "sql"))
    if c.metrics or c.filters or c.time_range:
        out += _md_details(t["metrics"], _md_metrics(c))
    if c.assumptions:
        out += [f"**{md_span(t['assumptions'])}**", "", *(f"- {md_line(a)}" for a in c.assumptions), ""]
    if c.freshness:
        out += [f"_{md_span(t['freshness'])}: {md_span(c.freshness)}_", ""]
    out += [f"{md_span(t['question'])}: {md_span(c.question)} · {md_span(t['run_id'])}: {md_code(c.run_id)}", ""]
    return "\n".join(out)
