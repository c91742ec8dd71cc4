"""`baton runs list|show|trace|resume|replay`: audit, continue and reproduce runs.

Every command takes --json. `runs list --json` prints [{run_id, status, question, user,
started_at, finished_at, step}], newest first; `resume` and `replay` print the Answer.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.cli.common import ConfigOpt, JsonOpt
from baton.cli.errors import ANSWER_EXIT, reported
from baton.cli.terminal import Prose, terminal_text
from baton.messages import bilingual

if TYPE_CHECKING:
    from rich.table import Table

    from baton.catalog.model import Catalog
    from baton.contracts.answer import Answer
    from baton.contracts.run import RunSummary
    from baton.orchestrator.session import Session

runs_app = typer.Typer(no_args_is_help=True, help="Audit, resume and replay runs.")
UserOpt = Annotated[
    str | None,
    typer.Option("--user", help="Who is asking (default: the configured user); a user sees only their own runs."),
]


def _session(config: Path | None) -> Session:
    import baton.exports  # noqa: F401  (registers the `export` run kind: its runs resume and replay too)
    from baton.cli.common import settings_for
    from baton.orchestrator.session import Session

    return Session(settings_for(config))


@runs_app.command("list")
def list_runs(
    config: ConfigOpt = None,
    status: Annotated[
        str | None,
        typer.Option(
            "--status", help="Only runs in this state: running, done, asked_back, failed, refused, cancelled."
        ),
    ] = None,
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

    console = Console()
    console.print(_runs_table(rows, console.width))


def _runs_table(rows: list[RunSummary], width: int) -> Table:
    """Runs as a table that fits ``width``: a run id (what one copies into `runs show`), the status
    and the time (``06-01 14:03``) are never cut; the question takes the rest and wraps, whole.
    Narrower than 100 columns with one user only, the user column goes (it says nothing)."""
    from rich.table import Table

    names = ["run", "status", "user", "started", "question"]
    if width < 100 and len({r.user for r in rows}) <= 1:
        names.remove("user")
    table = Table(title=bilingual("cli.runs_title"))
    for name in names:
        if name == "question":
            table.add_column(bilingual(f"cli.runs_{name}"), ratio=1, overflow="fold")
        else:
            table.add_column(
                bilingual(f"cli.runs_{name}"), no_wrap=name != "user", max_width=12 if name == "user" else None
            )
    for r in rows:  # a stored question (or user) may hold markup or escape sequences: shown as typed
        cells = {
            "run": r.run_id,
            "status": r.status if r.step in (r.status, "done") else f"{r.status} @ {r.step}",
            "user": r.user,
            "started": r.started_at.strftime("%m-%d %H:%M"),
            "question": r.question,
        }
        table.add_row(*(Prose(cells[name], multiline=False) for name in names))
    return table


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
        table.add_row(*(Prose(cell, multiline=False) for cell in cells))
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
        table.add_row(str(event.seq), f"{offset:,.1f}", event.type, Prose(detail, multiline=False))
        for field in ("packet", "report") if packets else ():
            if field in item:  # what an agent received quotes the question: shown as typed
                said = (
                    packet_summary(item[field], p.get("tokens")) if field == "packet" else report_summary(item[field])
                )
                table.add_row("", "", field, Prose(said))
    console = Console()
    console.print(table)
    if any("packet" in item or "report" in item for item in rows):
        console.print(terminal_text(bilingual("cli.trace_full_json", run_id=run_id), "dim"))


_KEPT_ITEM = re.compile(r"^(?:[A-Z]\d+\.|-) ")
"""A must-keep item of a rendered packet (``F1. status IN …``, ``N3. … = … [ev_…]``)."""


def packet_summary(body: object, tokens: object) -> str:
    """What an agent received, in a few lines: its size, its task (the question, as typed), what
    it must keep (items per kind) and the inputs it was given; the packet itself is in ``--json``."""
    if not isinstance(body, str):
        return "(not stored)" if body is None else json.dumps(body, ensure_ascii=False)[:200]
    lines = body.splitlines()
    keep: dict[str, int] = {}
    inputs: list[str] = []
    task = ""
    top = sub = ""
    for line in lines:
        if top == "task" and not task and line.strip():
            task = line.strip()
        if line.startswith("# "):
            top, sub = line[2:].split(" · ")[0].strip().lower(), ""
        elif line.startswith("## "):
            sub = line[3:].split(" · ")[0].strip()
            if top == "must keep":
                keep[sub.lower()] = 0
            elif top == "input data":
                inputs.append(sub)
        elif top == "must keep" and sub and _KEPT_ITEM.match(line):
            keep[sub.lower()] += 1
    size = f"tokens={tokens}, lines={len(lines)}" if tokens is not None else f"lines={len(lines)}"
    kept = ", ".join(f"{name}: {n}" for name, n in keep.items()) or "—"
    task = task if len(task) <= 160 else task[:159] + "…"
    return f"{size}\ntask: {task or '—'}\nmust keep: {kept}\ninput: {', '.join(inputs) or '—'}"


def report_summary(body: object) -> str:
    """What an agent returned: status, its one-line summary, findings and issues, the output's keys."""
    if not isinstance(body, dict):
        return "(not stored)" if body is None else str(body)[:200]
    result = body.get("result") or {}
    data = result.get("data") if isinstance(result, dict) else None
    data = data if isinstance(data, dict) else {}
    summary = str(result.get("summary", "")) if isinstance(result, dict) else ""
    issues = body.get("issues") or []
    counts = [
        f"{key}={len(data[key])}"
        for key in ("findings", "assumptions_made", "paths_excluded")
        if isinstance(data.get(key), list)
    ]
    lines = [f"status={body.get('status')}, issues={len(issues)}" + "".join(f", {c}" for c in counts)]
    lines.append(summary if len(summary) <= 240 else summary[:239] + "…")
    lines += [f"issue: {issue}" for issue in issues[:3]]
    shown = [k for k in data if k not in ("findings", "assumptions_made", "paths_excluded", "task_id", "input_task_id")]
    if shown:
        lines.append("output: " + ", ".join(shown))
    return "\n".join(lines)


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
