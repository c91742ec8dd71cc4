"""The Markdown report: answer (an analysis: its summary, then one section per heading), key
numbers, chart image, table, how this was computed.

The chart is a PNG written beside the ``.md`` file and linked by a relative path, so the
report and its image move together (a Git repository, a wiki, a zip). Baton writes the
report's structure; every text it did not write (the question and what quotes it, data, catalog
texts, SQL, messages) goes through the escaping function of its Markdown context
(:mod:`baton.report.md_text`), so none of it can add a heading, a link or HTML.
"""

from __future__ import annotations

from pathlib import Path

from baton.catalog.model import Catalog
from baton.contracts.answer import Answer
from baton.messages import text
from baton.report.content import CODE_SECTIONS, KeyFigure, ReportContent, build_content, figure_table
from baton.report.files import atomic_write_text, write_chart_png
from baton.report.md_text import md_cell, md_code, md_code_block, md_heading, md_line, md_span, md_url


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(md_cell(h) for h in header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in rows]
    return lines


def _bullets(items: list[str], none: str) -> list[str]:
    return [f"- {md_line(item)}" for item in items] if items else [f"- {none}"]


def _sections(c: ReportContent) -> list[str]:
    """An analysis' sections: a heading each, one list item per line. Items quote catalog labels,
    time words and context clauses of the question, so each is shown literally."""
    out: list[str] = []
    for section in c.sections:
        items = (
            [f"- {md_code(item)}" for item in section.items]
            if section.kind in CODE_SECTIONS
            else _bullets(list(section.items), "")
        )
        out += [f"## {md_heading(section.heading)}", "", *items, ""]
    return out


def _figures(t: dict[str, str], figures: list[KeyFigure]) -> list[str]:
    """The key numbers table; the interval and test columns only when some number has them."""
    header, rows = figure_table(t, figures)
    return [f"## {t['key_numbers']}", "", *_table(header, rows), ""]


def render_markdown_content(c: ReportContent, image: str | None = None) -> str:
    """Markdown for prepared content; ``image`` is the chart's relative path (or ``None``)."""
    t = c.labels
    out: list[str] = [
        f"# {c.title}",
        "",
        text("report.md_question", c.language, label=t["question"], question=md_span(c.question)),
        "",
    ]
    out += [f"## {t['answer']}", ""]
    out += [f"> {md_line(c.interpretation)}", ""] if c.interpretation else []
    out += [md_line(c.answer), ""]  # it may quote the question (a word Baton asks back about)
    if c.status != "answered":
        out += [f"_{t['status']}: {md_span(c.status_label or c.status)}_", ""]
    out += _sections(c)
    if c.key_figures:
        out += _figures(t, c.key_figures)
    if image is not None:
        out += [f"## {t['chart']}", "", f"![{md_span(c.chart_title or t['chart'])}]({md_url(image)})", ""]
        if c.chart_reason:
            out += [f"_{t['chart_reason']}: {md_span(c.chart_reason)}_", ""]
        out += [*(f"- {md_line(note)}" for note in c.chart_notes), *([""] if c.chart_notes else [])]
    if c.table_header:
        out += [f"## {t['table']}", "", *_table(c.table_header, c.table_rows), ""]
        out += [f"_{md_span(note)}_" for note in c.table_notes]
        out += [""] if c.table_notes else []
    out += [f"## {t['how']}", ""]
    if c.sql:
        out += [f"### {t['sql']}", "", *md_code_block(c.sql, "sql"), ""]
    if c.metrics:
        out += [f"### {t['metrics']}", ""]
        for m in c.metrics:
            out.append(f"- **{md_span(m.label)}** ({md_code(m.name)}): {md_span(m.definition)}")
            out.append(f"  - {t['expression']}: {md_code(m.expression)}")
            if m.filters:
                out.append(f"  - {t['metric_filters']}: " + "; ".join(md_code(f) for f in m.filters))
            if m.time_column:
                out.append(f"  - {t['time_column']}: {md_code(m.time_column)}")
            out.append(f"  - {t['owner']}: {md_span(m.owner)}")
        out.append("")
    out += [f"### {t['filters']}", ""]
    scope = ([f"{t['time_range']}: {c.time_range}"] if c.time_range else []) + c.filters
    out += [*_bullets(scope, t["none"]), ""]
    out += [f"### {t['freshness']}", "", md_line(c.freshness or t["none"]), ""]
    if not c.is_analysis:  # an analysis states them in its sections
        out += [f"### {t['assumptions']}", "", *_bullets(c.assumptions, t["none"]), ""]
        out += [f"### {t['excluded']}", "", *_bullets(c.excluded, t["none"]), ""]
    if c.limitations or not c.is_analysis:
        out += [f"### {t['limitations']}", "", *_bullets(c.limitations, t["none"]), ""]
    if c.gate:
        out += [f"### {t['gate']}", "", md_line(c.gate), ""]
    out += [f"### {t['run_id']}", "", md_code(c.run_id), ""]
    return "\n".join(out)


def render_markdown(answer: Answer, *, catalog: Catalog | None = None, image: str | None = None) -> str:
    """The Markdown report of ``answer``; ``image`` links the chart PNG when there is one."""
    return render_markdown_content(build_content(answer, catalog), image if answer.chart is not None else None)


def write_markdown_report(answer: Answer, path: Path, *, catalog: Catalog | None = None) -> list[Path]:
    """Write ``path`` (the ``.md``) and, when the answer has a chart, ``<stem>.png`` beside it."""
    written: list[Path] = []
    image: str | None = None
    if answer.chart is not None:
        png = path.with_name(f"{path.stem}.png")
        written.append(write_chart_png(answer.chart, png))
        image = png.name
    written.insert(0, atomic_write_text(path, render_markdown(answer, catalog=catalog, image=image)))
    return written
