"""`baton export RUN_ID --format csv|xlsx|parquet --out FILE`: a governed export, previewed first.

The run's statement is run again as you under today's policy; the preview (columns, first rows,
row count, what is masked, whether the rows are detail rows) is printed, and the file is written
only once you approve it — atomically, so FILE is never half-written:

* aggregates: confirm at the prompt, or approve up front with ``--yes``;
* detail rows (one row per record): only with ``export_detail``, and only by confirming this
  preview at the prompt or by ``--approve EXPORT_ID`` (the id the preview printed); ``--yes``
  is not enough, since nobody saw what would leave.

``--idempotency-key K`` makes a repeated command return the same export (the same file) rather
than a second one. Exit codes: 0 written, 1 not approved or failed, 2 approval still needed (a
detail export with ``--yes``, or ``--json`` without ``--yes``), 3 refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.cli.common import ConfigOpt, JsonOpt, UserOpt, err
from baton.cli.errors import reported
from baton.contracts.common import Language
from baton.messages import text

if TYPE_CHECKING:
    from rich.console import Console

    from baton.contracts.export import ExportPreview, ExportResult
    from baton.orchestrator.session import Session

APPROVAL_NEEDED_EXIT = 2


def export_command(
    run_id: Annotated[str, typer.Argument(help="The run whose result to export (see `baton runs list`).")],
    out: Annotated[Path, typer.Option("--out", help="The file to write (atomically).")],
    output_format: Annotated[
        str | None, typer.Option("--format", help="csv | xlsx | parquet (default: the --out file's suffix).")
    ] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Approve without asking (aggregates only).")] = False,
    approve: Annotated[
        str | None, typer.Option("--approve", help="Approve the export EXPORT_ID an earlier preview printed.")
    ] = None,
    idempotency_key: Annotated[
        str | None, typer.Option("--idempotency-key", help="A repeated command with this key returns the same export.")
    ] = None,
    user: UserOpt = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Export a run's result as csv, xlsx or parquet: preview under today's policy, then approve."""
    from baton.cli.common import settings_for
    from baton.exports import approve_export, export_result, parse_format, preview_export, request_export
    from baton.orchestrator.session import Session

    with reported(as_json=as_json):
        fmt = parse_format(output_format, out)
        session = Session(settings_for(config), user=user)
    lang = _language(session, run_id)
    try:
        with reported(as_json=as_json, language=lang):
            if approve is not None:  # the preview an earlier command printed, approved by its id
                preview = request_export(session, run_id, fmt, user=user, export_id=approve).preview
            else:
                preview = preview_export(session, run_id, fmt, user=user, idempotency_key=idempotency_key)
            result = export_result(session, preview.export_id, user=user)
            if not as_json:
                show_preview(preview, _console(), lang, cells=preview_cells(session, preview))
            if result is None and approve is not None:
                result = approve_export(session, preview.export_id, user=user, explicit=True)
            if result is None:
                result = _approval(session, preview, out, yes=yes, as_json=as_json, user=user, lang=lang)
            _copy(session, result, out, user)
    finally:
        session.close()
    if as_json:
        shown = {"preview": preview.model_dump(mode="json"), "export": result.model_dump(mode="json")}
        print(json.dumps({**shown, "out": str(out)}, ensure_ascii=False, indent=2))
    else:
        from baton.cli.terminal import terminal_markup

        said = text(
            "exports.wrote",
            lang,
            path=str(out),
            rows=_count(result.rows, lang),
            size=_count(result.bytes, lang),
            sha256=result.sha256,
            export_id=result.export_id,
        )
        err(terminal_markup(said))


def _approval(
    session: Session, preview: ExportPreview, out: Path, *, yes: bool, as_json: bool, user: str | None, lang: Language
) -> ExportResult:
    """Approve the preview (``--yes`` for aggregates, else the prompt), or exit without writing."""
    from baton.exports import approve_export

    if yes and not preview.detail_rows:
        result = approve_export(session, preview.export_id, user=user, explicit=False)
        assert result is not None
        return result
    if yes or as_json:
        _needs_approval(preview, as_json, lang)
    key = "exports.confirm_detail" if preview.detail_rows else "exports.confirm"
    try:
        confirmed = typer.confirm(text(key, lang, rows=_count(preview.row_count, lang), out=str(out)), default=False)
    except typer.Abort:
        confirmed = False
    if not confirmed:
        err(text("exports.declined", lang))
        raise typer.Exit(1)
    approved = approve_export(session, preview.export_id, user=user, explicit=True)
    assert approved is not None
    return approved


def _needs_approval(preview: ExportPreview, as_json: bool, lang: Language) -> None:
    """Exit 2: the export waits for an approval this command may not give."""
    said = text("exports.approval_required", lang, run_id=preview.run_id, export_id=preview.export_id)
    if as_json:
        print(json.dumps({"preview": preview.model_dump(mode="json"), "export": None}, ensure_ascii=False, indent=2))
    from baton.cli.terminal import terminal_markup

    err(f"[yellow]{terminal_markup(said)}[/yellow]")
    raise typer.Exit(APPROVAL_NEEDED_EXIT)


def _copy(session: Session, result: ExportResult, out: Path, user: str | None) -> None:
    """The approved file (checked against its sha256) to ``out``, atomically."""
    from baton.exports import export_file
    from baton.report.files import atomic_write_bytes

    _result, data = export_file(session, result.export_id, user=user)
    atomic_write_bytes(out, data)


def preview_cells(session: Session, preview: ExportPreview) -> list[list[str]]:
    """The preview's rows as the terminal tables show cells: written by the one formatter
    (:func:`baton.report.content.table_view` on the export run's answer, which holds the preview)."""
    from baton.report.content import table_view

    answer = session.store.load(preview.export_id).answer
    assert answer is not None and answer.result is not None  # a preview is an answered export run
    source = session.store.load(preview.run_id).answer  # its metrics say how a cell reads (money, rate)
    if source is not None and source.result is not None:
        source_columns = [c.name for c in source.result.columns]
        if source_columns == [c.name for c in answer.result.columns]:  # today's rows, the run's formats
            answer = source.model_copy(update={"result": answer.result})
    return table_view(answer, session.catalog, limit=len(preview.rows)).rows


def show_preview(preview: ExportPreview, console: Console, lang: Language, *, cells: list[list[str]]) -> None:
    """The preview as a table of its first rows (``cells``: formatted) and what the file would hold."""
    from rich.table import Table

    from baton.cli.terminal import terminal_text

    title = text("exports.title", lang, export_id=preview.export_id, run_id=preview.run_id, format=preview.format)
    caption = text("exports.first_rows", lang, shown=len(preview.rows), rows=_count(preview.row_count, lang))
    console.print(terminal_text(title, "bold", multiline=False))
    table = Table(caption=caption)
    for column in preview.columns:
        table.add_column(terminal_text(column.name, multiline=False))
    for row in cells:
        table.add_row(*(terminal_text(cell, multiline=False) for cell in row))
    console.print(table)
    truncated = text("exports.truncated", lang) if preview.truncated else ""
    lines = [
        text(
            "exports.rows_line",
            lang,
            rows=_count(preview.row_count, lang),
            columns=len(preview.columns),
            truncated=truncated,
        )
    ]
    if preview.masked:
        items = "; ".join(f"{m.column}: {m.how}" for m in preview.masked)
        lines.append(text("exports.masked_line", lang, items=items))
    else:
        lines.append(text("exports.masked_none", lang))
    if preview.row_filters:
        lines.append(text("exports.filters_line", lang, filters="; ".join(preview.row_filters)))
    if preview.min_group_size is not None:
        k = preview.min_group_size
        if preview.suppressed_groups is not None:
            lines.append(text("exports.suppressed_line", lang, groups=_count(preview.suppressed_groups, lang), k=k))
        else:
            lines.append(text("exports.suppressed_uncounted", lang, k=k))
    lines.append(text("exports.detail_line" if preview.detail_rows else "exports.aggregate_line", lang))
    if preview.approved:
        lines.append(text("exports.approved_line", lang))
    else:
        expires = preview.expires_at.strftime("%Y-%m-%d %H:%M:%S UTC")
        lines.append(text("exports.expires_line", lang, expires_at=expires))
    for line in lines:
        console.print(terminal_text(line))


def _count(value: int, lang: Language) -> str:
    from baton.numbers import format_exact

    return format_exact(value, "count", lang)


def _console() -> Console:
    from rich.console import Console

    return Console(soft_wrap=False, highlight=False)


def _language(session: Session, run_id: str) -> Language:
    """The exported run's language (what the export says things in); English when unknown."""
    from baton.errors import BatonError

    try:
        return session.store.load(run_id).language
    except BatonError:
        return "en"
