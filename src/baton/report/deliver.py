"""Delivering an Answer in the format the user asked for: terminal, md, html or json.

The CLI (and later the server) calls :func:`deliver`; it writes files atomically and says
what it wrote, and returns the text meant for standard output when no ``--out`` is given.

Every format but the terminal is a report that leaves Baton (a file, or standard output a
script keeps). An answer whose result holds detail rows (``ResultTable.detail_rows``: a SQL
statement that does not aggregate) leaves only for an exporter whose roles allow
``export_detail``; otherwise :func:`check_export` refuses (``export_not_permitted``) before
anything is written. The terminal display is the user's own reading and stays allowed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from baton.catalog.model import Catalog
from baton.contracts.answer import Answer
from baton.contracts.run import RunState
from baton.errors import BatonError, ExportNotPermitted, InvalidInput
from baton.messages import both
from baton.policy import Principal
from baton.report.files import atomic_write_text

ReportFormat = Literal["terminal", "md", "html", "json"]
REPORT_FORMATS: tuple[ReportFormat, ...] = ("terminal", "md", "html", "json")


@dataclass
class Delivery:
    """What :func:`deliver` produced: text for stdout (or ``None``), files written, warnings."""

    stdout: str | None = None
    written: list[Path] = field(default_factory=list)
    chart_png: Path | None = None
    warnings: list[str] = field(default_factory=list)


def parse_format(raw: str | None, *, as_json: bool) -> ReportFormat:
    """``--format`` (default terminal) reconciled with the ``--json`` alias."""
    value = (raw or ("json" if as_json else "terminal")).strip().lower()
    value = {"markdown": "md", "htm": "html"}.get(value, value)
    if value not in REPORT_FORMATS:
        raise InvalidInput(*both("report.bad_format", formats=", ".join(REPORT_FORMATS), raw=raw))
    if as_json and value != "json":
        raise InvalidInput(*both("report.json_conflict", value=value))
    return value


def chart_png_target(answer: Answer, out: Path | None, cwd: Path) -> Path:
    """Where the terminal format saves the chart: ``--out`` (a ``.png`` file or a folder),
    else ``baton-chart-<run id>.png`` in the current folder."""
    name = f"baton-chart-{answer.run_id}.png"
    if out is None:
        return cwd / name
    return out if out.suffix.lower() == ".png" else out / name


def check_export(answer: Answer, fmt: ReportFormat, exporter: Principal | None) -> None:
    """Refuse (``export_not_permitted``) a report of detail rows for an exporter whose roles
    do not allow ``export_detail`` (no exporter: refused). The terminal is not an export."""
    table = answer.result
    if fmt == "terminal" or table is None or not table.detail_rows:
        return
    if exporter is not None and exporter.can_export_detail:
        return
    user = exporter.user if exporter is not None else answer.user or "?"
    raise ExportNotPermitted(
        *both("report.export_not_permitted", user=user, format=fmt),
        detail={"user": user, "format": fmt, "run_id": answer.run_id},
    )


def check_run_export(state: RunState, dialect: str, exporter: Principal | None) -> None:
    """:func:`check_export` for a whole stored run (``runs show --json``): its answer, and the
    evidence of a statement run whose answer holds no result (failed, cancelled, stopped) but
    whose evidence keeps the rows it read. An export run's evidence holds every row it would
    write: refused for anyone until the export is approved (its preview is the export's own)."""
    from baton.sql.detail import returns_detail_rows

    unapproved = state.kind == "export" and "approval" not in state.completed_steps
    if unapproved and any(e.result is not None for e in state.evidence):  # its rows leave only as the file
        detail = {"run_id": state.run_id, "reason": "export_not_approved"}
        raise ExportNotPermitted(*both("exports.unapproved_run", run_id=state.run_id), detail=detail)
    if state.answer is not None:
        check_export(state.answer, "json", exporter)
    answered = state.answer is not None and state.answer.result is not None
    if state.kind != "sql" or not state.evidence or answered or (exporter is not None and exporter.can_export_detail):
        return
    if any(returns_detail_rows(record.draft, dialect) for record in state.sql):
        user = exporter.user if exporter is not None else state.user
        raise ExportNotPermitted(
            *both("report.export_not_permitted", user=user, format="json"),
            detail={"user": user, "format": "json", "run_id": state.run_id},
        )


def deliver(
    answer: Answer,
    fmt: ReportFormat,
    out: Path | None = None,
    *,
    catalog: Catalog | None = None,
    cwd: Path | None = None,
    exporter: Principal | None = None,
) -> Delivery:
    """Produce ``answer`` as ``fmt``; files go to ``out`` (atomically), text to ``stdout``.
    ``exporter``: the user taking the report (:func:`check_export`, before anything is written)."""
    check_export(answer, fmt, exporter)
    here = cwd or Path.cwd()
    result = Delivery()
    if fmt == "json":
        text = answer.model_dump_json(indent=2)
        if out is None:
            result.stdout = text
        else:
            result.written.append(atomic_write_text(out, text + "\n"))
        return result
    from baton.report.files import write_chart_png  # the renderer loads only for a format that draws

    if fmt == "terminal":
        if answer.chart is not None:
            target = chart_png_target(answer, out, here)
            try:
                result.chart_png = write_chart_png(answer.chart, target)
                result.written.append(target)
            except BatonError as exc:  # a chart that cannot be drawn never costs the answer
                result.warnings.append(exc.message(answer.language))
        return result
    if fmt == "md":
        from baton.report.markdown import render_markdown, write_markdown_report

        if out is not None:
            result.written = write_markdown_report(answer, out, catalog=catalog)
            result.chart_png = next((p for p in result.written if p.suffix == ".png"), None)
            return result
        image = None
        if answer.chart is not None:
            png = write_chart_png(answer.chart, here / f"baton-chart-{answer.run_id}.png")
            result.written.append(png)
            result.chart_png = png
            image = png.name
        result.stdout = render_markdown(answer, catalog=catalog, image=image)
        return result
    from baton.report.html import render_html

    page = render_html(answer, catalog=catalog)
    if out is None:
        result.stdout = page
    else:
        result.written.append(atomic_write_text(out, page))
    return result
