"""The end every answering command shares (ask, analyze, query, sql run): run the question as
the session's run, deliver the answer in the chosen format, show it, exit by its status.

One place, so that Ctrl-C, exports (``export_detail``), terminal escaping and exit codes are the
same whichever command produced the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import typer

from baton.cli.common import err, exporter
from baton.cli.errors import ANSWER_EXIT
from baton.messages import bilingual, text

if TYPE_CHECKING:
    from baton.config import Settings
    from baton.contracts.answer import Answer
    from baton.orchestrator.session import Session
    from baton.report.deliver import Delivery, ReportFormat


def run_answer(session: Session, run: Callable[[], Answer]) -> Answer:
    """``run()`` on ``session`` (closed afterwards); Ctrl-C exits 130 — the run was already
    marked cancelled, its state kept and resumable, before the interrupt got here."""
    try:
        return run()
    except KeyboardInterrupt:
        err(bilingual("cli.cancelled_resumable"))
        raise typer.Exit(130) from None
    finally:
        session.close()


def deliver_answer(
    answer: Answer, fmt: ReportFormat, out: Path | None, session: Session, settings: Settings, user: str | None
) -> Delivery:
    """The answer as ``fmt``; a terminal report's chart goes beside the run's trace unless
    ``--out`` says otherwise; an export of detail rows is checked against ``user``'s grants."""
    from baton.report.deliver import deliver

    return deliver(
        answer,
        fmt,
        out,
        catalog=session.catalog,
        cwd=settings.runs_dir / answer.run_id,
        exporter=exporter(session, user),
    )


def show_and_exit(answer: Answer, delivery: Delivery, fmt: ReportFormat, session: Session) -> NoReturn:
    """Render on the terminal (or print the report), say what was written, exit by status."""
    from baton.cli.terminal import terminal_markup, terminal_text

    if fmt == "terminal":
        from rich.console import Console

        from baton.cli.render import render_answer

        console = Console(soft_wrap=False, highlight=False)
        render_answer(answer, console, catalog=session.catalog)
        if delivery.chart_png is not None:  # a path the user chose (--out): shown as typed
            console.print(terminal_text(text("cli.chart_saved", answer.language, path=str(delivery.chart_png))))
    if delivery.stdout is not None:
        print(delivery.stdout)
    if fmt != "terminal":
        for path in delivery.written:
            err(terminal_markup(text("cli.wrote", answer.language, path=str(path))))
    for warning in delivery.warnings:
        err(f"[yellow]{terminal_markup(warning)}[/yellow]")
    raise typer.Exit(ANSWER_EXIT[answer.status])
