"""`baton sql check|run`: the firewall's verdict on a statement, and running an approved one.

Both go through the session's one governed query path, as the acting user. ``sql run`` is a
run (kind ``sql``) like a question: stored, traced (the firewall's decision before the tool
call, the evidence, the answer) and printed like ``baton ask``'s answer, with its run id, or as
the Answer JSON with --json. ``sql check`` reads no data and leaves no run. Exit codes:
0 approved (or ran), 3 refused, 1 failed (the same mapping as every other command).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.cli.common import FormatOpt, OutOpt
from baton.cli.errors import reported
from baton.cli.terminal import terminal_str, terminal_text
from baton.contracts.common import Language

if TYPE_CHECKING:
    from baton.orchestrator.governed import GovernedQuery
    from baton.orchestrator.session import Session

sql_app = typer.Typer(no_args_is_help=True, help="Check or run SQL through the firewall.")
ConfigOpt = Annotated[Path | None, typer.Option("--config", envvar="BATON_CONFIG")]
UserOpt = Annotated[str | None, typer.Option("--user")]
JsonOpt = Annotated[bool, typer.Option("--json")]


def _lang(text: str) -> Language:
    from baton.nlu.gate import detect_language

    return "zh" if detect_language(text) == "zh" else "en"


def _governed(config: Path | None, user: str | None, language: Language) -> tuple[Session, GovernedQuery]:
    from baton.cli.common import settings_for
    from baton.orchestrator.session import Session

    session = Session(settings_for(config), user=user)
    return session, session.governed(session.user, language)


@sql_app.command("check")
def check(
    statement: Annotated[str, typer.Argument(help="The SQL statement.")],
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Print the firewall's verdict: the rewritten SQL, or the refusal and its code.

    A verdict, not a run: nothing reaches the warehouse (its cost estimate aside, an EXPLAIN
    that reads no rows), so there is no data access to audit; `sql run` is the run."""
    lang = _lang(statement)
    with reported(as_json=as_json, language=lang, verdict="refused"):
        session, governed = _governed(config, user, lang)
        try:
            approved = governed.approve(statement, name="sql check")
        finally:
            session.close()
    if as_json:
        print(json.dumps({"verdict": "approved", **approved.model_dump(mode="json")}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.syntax import Syntax

    console = Console(highlight=False)
    console.print(f"[green]approved[/green] {approved.approved_sql_id}  ({', '.join(approved.checks_passed)})")
    if approved.masked_columns:
        console.print(terminal_text("masked: " + ", ".join(approved.masked_columns)))
    if approved.row_filters_applied:
        console.print(terminal_text("row filters: " + "; ".join(approved.row_filters_applied)))
    console.print(Syntax(terminal_str(approved.sql), "sql", word_wrap=True))  # its literals are the user's


@sql_app.command("run")
def run(
    statement: Annotated[str, typer.Argument(help="The SQL statement.")],
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
    output_format: FormatOpt = None,
    out: OutOpt = None,
) -> None:
    """Run a statement as a run: approved by the firewall, executed by its approved id (never as
    raw text), traced, and shown like an answer with its run id.

    A report of detail rows (--format md|html|json, --out, --json) needs a role that allows
    export_detail; reading them in the terminal does not."""
    from baton.cli.common import settings_or_record
    from baton.cli.delivered import deliver_answer, run_answer, show_and_exit
    from baton.orchestrator.session import Session
    from baton.report.deliver import ReportFormat, parse_format

    fmt: ReportFormat = "json" if as_json else "terminal"
    with reported(as_json=as_json):
        fmt = parse_format(output_format, as_json=as_json)
    lang = _lang(statement)
    with reported(as_json=fmt == "json", language=lang):
        settings = settings_or_record("sql", statement, user, config)
        session = Session(settings, user=user)
        answer = run_answer(session, lambda: session.sql(statement))
        delivery = deliver_answer(answer, fmt, out, session, settings, user)
    show_and_exit(answer, delivery, fmt, session)
