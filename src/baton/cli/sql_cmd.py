"""`baton sql check|run`: the firewall's verdict on a statement, and running an approved one.

Both go through the session's one governed query path, as the acting user. Exit codes:
0 approved (or ran), 3 refused, 1 failed (the same mapping as every other command).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.cli.errors import reported
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
    """Print the firewall's verdict: the rewritten SQL, or the refusal and its code."""
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
    from rich.markup import escape
    from rich.syntax import Syntax

    console = Console(highlight=False)
    console.print(f"[green]approved[/green] {approved.approved_sql_id}  ({', '.join(approved.checks_passed)})")
    if approved.masked_columns:
        console.print("masked: " + escape(", ".join(approved.masked_columns)))
    if approved.row_filters_applied:
        console.print("row filters: " + escape("; ".join(approved.row_filters_applied)))
    console.print(Syntax(approved.sql, "sql", word_wrap=True))


@sql_app.command("run")
def run(
    statement: Annotated[str, typer.Argument(help="The SQL statement.")],
    config: ConfigOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Approve a statement, then execute it by its approved id (never as raw text)."""
    lang = _lang(statement)
    with reported(as_json=as_json, language=lang):
        session, governed = _governed(config, user, lang)
        try:
            result = governed.execute(governed.approve(statement, name="sql run"), name="sql run")
        finally:
            session.close()
    if as_json:
        print(result.model_dump_json(indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{result.row_count} rows · {result.elapsed_ms:.1f} ms · {result.evidence_id}")
    for column in result.columns:
        table.add_column(column.name)
    for row in result.rows[:100]:
        table.add_row(*["" if v is None else str(v) for v in row])
    Console().print(table)
