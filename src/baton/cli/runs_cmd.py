"""`baton runs list|show|trace|resume|replay`: audit, continue and reproduce runs.

Every command takes --json. `runs list --json` prints [{run_id, status, question, user,
started_at, finished_at, step}], newest first; `resume` and `replay` print the Answer.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.cli.errors import ANSWER_EXIT, reported
from baton.cli.terminal import terminal_text

if TYPE_CHECKING:
    from baton.catalog.model import Catalog
    from baton.contracts.answer import Answer
    from baton.orchestrator.session import Session

runs_app = typer.Typer(no_args_is_help=True, help="Audit, resume and replay runs.")
ConfigOpt = Annotated[Path | None, typer.Option("--config", envvar="BATON_CONFIG")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
UserOpt = Annotated[
    str | None,
    typer.Option("--user", help="Who is asking (default: the configured user); a user sees only their own runs."),
]


def _session(config: Path | None) -> Session:
    from baton.cli.common import settings_for
    from baton.orchestrator.session import Session

    return Session(settings_for(config))


@runs_app.command("list")
def list_runs(
    config: ConfigOpt = None,
    status: Annotated[str | None, typer.Option("--status")] = None,
    user: UserOpt = None,
    owner: Annotated[
        str | None, typer.Option("--owner", help="Only this user's runs (a user with `runs: all` only).")
    ] = None,
    limit: Annotated[int, typer.Option("--limit")] = 50,
    as_json: JsonOpt = False,
) -> None:
    """Runs, newest first: your own (every user's with `runs: all`)."""
    with reported(as_json=as_json):
        session = _session(config)
        rows = session.runs(user=user, status=status, owner=owner, limit=limit)
    if as_json:
        print(json.dumps([r.model_dump(mode="json") for r in rows], ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="runs")
    for col in ("run_id", "status", "step", "user", "started_at", "question"):
        table.add_column(col)
    for r in rows:  # a stored question (or user) may hold markup or escape sequences: shown as typed
        cells = (r.run_id, r.status, r.step, r.user, r.started_at.strftime("%Y-%m-%d %H:%M:%S"), r.question[:60])
        table.add_row(*(terminal_text(cell, multiline=False) for cell in cells))
    Console().print(table)


@runs_app.command("show")
def show(run_id: str, config: ConfigOpt = None, user: UserOpt = None, as_json: JsonOpt = False) -> None:
    """A run's answer and the evidence every number cites."""
    with reported(as_json=as_json):
        session = _session(config)
        state = session.run_state(run_id, user=user)
        catalog = session.catalog if not as_json else None
        if as_json:  # the whole state, rows included, leaves as JSON
            from baton.cli.common import exporter
            from baton.report.deliver import check_run_export

            check_run_export(state, session.engine.dialect, exporter(session, user))
    if as_json:
        print(state.model_dump_json(indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    from baton.cli.render import render_answer

    console = Console()
    if state.answer is not None:
        render_answer(state.answer, console, catalog=catalog)
    else:
        console.print(terminal_text(f"{state.run_id}: {state.status} at step {state.step}"))
    table = Table(title="evidence")
    for col in ("evidence_id", "source", "version", "excerpt"):
        table.add_column(col)
    for ev in state.evidence:
        cells = (ev.evidence_id, ev.source_uri, ev.source_version, ev.excerpt[:80])
        table.add_row(*(terminal_text(cell, multiline=False) for cell in cells))
    console.print(table)


@runs_app.command("trace")
def trace(
    run_id: str,
    config: ConfigOpt = None,
    packets: Annotated[
        bool, typer.Option("--packets", help="Show exactly what each agent received and returned.")
    ] = False,
    user: UserOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A timeline with durations and token counts."""
    with reported(as_json=as_json):
        session = _session(config)
        events = session.run_trace(run_id, user=user)
    rows = []
    for event in events:
        item = event.model_dump(mode="json")
        if packets:
            for key, field in (("packet_ref", "packet"), ("report_ref", "report")):
                ref = event.payload.get(key)
                if isinstance(ref, str):
                    body = session.store.get_packet(run_id, ref)
                    item[field] = _maybe_json(body)
        rows.append(item)
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=terminal_text(f"trace {run_id}", multiline=False))
    for col in ("#", "t+ms", "type", "detail"):
        table.add_column(col)
    start = events[0].ts if events else None
    for event, item in zip(events, rows, strict=True):
        offset = (event.ts - start).total_seconds() * 1000 if start else 0.0
        p = event.payload
        detail = ", ".join(
            f"{k}={p[k]}"
            for k in ("step", "agent", "tool", "decision", "gate", "tokens", "latency_ms", "ok", "status", "error_code")
            if k in p and p[k] is not None
        )
        table.add_row(str(event.seq), f"{offset:,.1f}", event.type, terminal_text(detail, multiline=False))
        for field in ("packet", "report") if packets else ():
            if field in item:  # what an agent received quotes the question: shown as typed
                body = item[field]
                shown = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
                table.add_row("", "", field, terminal_text(shown))
    Console(width=160).print(table)


def _maybe_json(body: str | None) -> object:
    """A stored packet is the prompt text an agent received; a report is JSON."""
    if body is None:
        return None
    try:
        return json.loads(body)
    except ValueError:
        return body


@runs_app.command("resume")
def resume(run_id: str, config: ConfigOpt = None, user: UserOpt = None, as_json: JsonOpt = False) -> None:
    """Continue your run from its last completed step under today's grants (finished steps
    whose approvals still hold are not re-run)."""
    from baton.cli.common import exporter
    from baton.report.deliver import check_export

    with reported(as_json=as_json):
        session = _session(config)
        answer = session.resume(run_id, user=user)
        check_export(answer, "json" if as_json else "terminal", exporter(session, user))
    _print_answer(answer, as_json, session.catalog)


@runs_app.command("replay")
def replay(
    run_id: str,
    config: ConfigOpt = None,
    re_execute: Annotated[
        bool,
        typer.Option("--re-execute", help="Ask again as a new run under today's grants and report what changed."),
    ] = False,
    user: UserOpt = None,
    as_json: JsonOpt = False,
    output_format: Annotated[str | None, typer.Option("--format", help="terminal | md | html | json")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the report to FILE (atomically).")] = None,
) -> None:
    """Re-render a run from its recorded evidence (the warehouse may be offline)."""
    from baton.cli.common import exporter
    from baton.orchestrator.replay import re_execute_run
    from baton.report.deliver import check_export, deliver, parse_format

    with reported(as_json=as_json):
        session = _session(config)
        if re_execute:
            answer, changes = re_execute_run(session, run_id, user)
        else:
            answer, changes = session.replay(run_id, user=user), None
        who = exporter(session, user)  # the user taking the report, not the run's owner
        if (output_format is not None and output_format != "terminal") or out is not None:
            fmt = parse_format(output_format, as_json=as_json)
            delivery = deliver(answer, fmt, out, catalog=session.catalog, cwd=session.runs_dir / run_id, exporter=who)
            if delivery.stdout is not None:
                print(delivery.stdout)
            return
        check_export(answer, "json" if as_json else "terminal", who)  # --json: a report on standard output
    if changes is not None and not as_json:
        from rich.console import Console
        from rich.table import Table

        table = Table(title="re-executed")
        for col in ("statement", "evidence", "changed", "data version"):
            table.add_column(col)
        for c in changes:
            cells = (c.name, c.evidence_id, "yes" if c.changed else "no", f"{c.old_version} → {c.new_version}")
            table.add_row(*(terminal_text(cell, multiline=False) for cell in cells))
        Console().print(table)
    if as_json and changes is not None:
        print(
            json.dumps(
                {"answer": answer.model_dump(mode="json"), "re_executed": [c.model_dump() for c in changes]},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        _print_answer(answer, as_json, session.catalog)
    if changes is not None:  # re-executed: a new run, whose status is the exit code as for `baton ask`
        raise typer.Exit(ANSWER_EXIT[answer.status])


def _print_answer(answer: Answer, as_json: bool, catalog: Catalog | None = None) -> None:
    if as_json:
        print(answer.model_dump_json(indent=2))
        return
    from rich.console import Console

    from baton.cli.render import render_answer

    render_answer(answer, Console(), catalog=catalog)
