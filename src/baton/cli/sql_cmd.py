"""`baton sql check|run`: the firewall's verdict on a statement, and running an approved one.

Exit codes: 0 approved (or ran), 3 refused, 1 failed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.syntax import Syntax
from rich.table import Table

from baton.errors import BatonError, Language
from baton.nlu.gate import detect_language

sql_app = typer.Typer(no_args_is_help=True, help="Check or run SQL through the firewall.")


def _lang(text: str) -> Language:
    return "zh" if detect_language(text) == "zh" else "en"


def _approve(statement: str, config: Path | None, user: str | None, dialect: str | None) -> tuple[object, object, str]:
    from baton.cli.app import settings_for
    from baton.orchestrator.session import Session
    from baton.sql import approve

    session = Session(settings_for(config))
    acting = user or session.settings.user
    principal = session.principal(acting)
    catalog = session.catalog
    large = {t: catalog.time_column(t) for t, info in catalog.tables.items() if info.large}
    approved = approve(
        statement,
        principal=principal,
        schema=session.schema,
        dialect="postgres" if (dialect or session.settings.dialect) == "postgres" else "duckdb",
        language=_lang(statement),
        row_limit=session.settings.row_cap,
        large_tables=large,
        estimate_cost=session.backend.explain_cost if principal.max_cost is not None else None,
    )
    return session, approved, acting


@sql_app.command("check")
def check(
    statement: Annotated[str, typer.Argument(help="The SQL statement.")],
    config: Annotated[Path | None, typer.Option("--config", envvar="BATON_CONFIG")] = None,
    user: Annotated[str | None, typer.Option("--user")] = None,
    dialect: Annotated[str | None, typer.Option("--dialect", help="duckdb or postgres")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Print the firewall's verdict: the rewritten SQL, or the refusal and its code."""
    lang = _lang(statement)
    try:
        session, approved, _ = _approve(statement, config, user, dialect)
    except BatonError as exc:
        if as_json:
            print(json.dumps({"verdict": "refused", "error": exc.to_dict(lang)}, ensure_ascii=False, indent=2))
        else:
            Console().print(f"[red]refused[/red] {exc.error_code}: {exc.message(lang)}")
        raise typer.Exit(3 if exc.kind in {"policy", "user"} else 1) from None
    from baton.sql import ApprovedSql

    assert isinstance(approved, ApprovedSql)
    if as_json:
        print(json.dumps({"verdict": "approved", **approved.model_dump(mode="json")}, ensure_ascii=False, indent=2))
    else:
        console = Console()
        console.print(f"[green]approved[/green] {approved.approved_sql_id}  ({', '.join(approved.checks_passed)})")
        if approved.masked_columns:
            console.print("masked: " + ", ".join(approved.masked_columns))
        if approved.row_filters_applied:
            console.print("row filters: " + "; ".join(approved.row_filters_applied))
        console.print(Syntax(approved.sql, "sql", word_wrap=True))
    close = getattr(session, "close", None)
    if callable(close):
        close()


@sql_app.command("run")
def run(
    statement: Annotated[str, typer.Argument(help="The SQL statement.")],
    config: Annotated[Path | None, typer.Option("--config", envvar="BATON_CONFIG")] = None,
    user: Annotated[str | None, typer.Option("--user")] = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
) -> None:
    """Approve a statement, then execute it by its approved id (never as raw text)."""
    from baton.orchestrator.session import Session
    from baton.sql import ApprovedSql

    lang = _lang(statement)
    try:
        session, approved, acting = _approve(statement, config, user, None)
        assert isinstance(session, Session) and isinstance(approved, ApprovedSql)
        session.registry.register(approved)
        result = session.runner.run(approved.approved_sql_id, user=acting)
        session.close()
    except BatonError as exc:
        if as_json:
            print(json.dumps({"error": exc.to_dict(lang)}, ensure_ascii=False, indent=2))
        else:
            Console().print(f"[red]{exc.error_code}[/red]: {exc.message(lang)}")
        raise typer.Exit(3 if exc.kind in {"policy", "user"} else 1) from None
    if as_json:
        print(result.model_dump_json(indent=2))
        return
    table = Table(title=f"{result.row_count} rows · {result.elapsed_ms:.1f} ms · {result.evidence_id}")
    for column in result.columns:
        table.add_column(column.name)
    for row in result.rows[:100]:
        table.add_row(*["" if v is None else str(v) for v in row])
    Console().print(table)
