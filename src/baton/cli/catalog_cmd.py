"""`baton catalog check`: validate a catalog against its live warehouse.

Prints one ``file:line: problem`` line per problem (in both languages: there is no question
to tell the language by) and a summary; exits 0 when the catalog fits the warehouse, 1 when
problems were found. A catalog that does not load at all is a typed error like in every
other command. ``--json`` prints ``{"ok", "problems": [{code, file, line, path, table,
column, message, message_zh}]}``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baton.cli.common import ConfigOpt, JsonOpt, shown_path
from baton.cli.errors import reported
from baton.cli.terminal import terminal_str
from baton.messages import bilingual

if TYPE_CHECKING:
    from baton.catalog.check import CatalogProblem
    from baton.catalog.loader import PathKey
    from baton.config import Settings

catalog_app = typer.Typer(no_args_is_help=True, help="Check a metric catalog against its warehouse.")
MembersOpt = Annotated[
    bool,
    typer.Option("--members/--no-members", help="Also check that listed dimension members occur in the data."),
]


def check_config(settings: Settings, *, members: bool = True) -> tuple[list[CatalogProblem], Path, dict[PathKey, int]]:
    """The problems of the settings' catalog against its warehouse, the catalog file and its
    line map (a catalog that does not load raises its ConfigError)."""
    from baton.catalog.check import check_catalog
    from baton.catalog.loader import load_catalog, load_yaml_with_lines
    from baton.warehouse.engine import engine_named

    path = settings.catalog_path
    catalog = load_catalog(path)
    _, lines = load_yaml_with_lines(path)
    backend = engine_named(settings.engine).open(settings)
    try:
        problems = check_catalog(catalog, backend, members=members, timeout_s=settings.timeout_s)
    finally:
        backend.close()
    return problems, path, lines


@catalog_app.command("check")
def check(config: ConfigOpt = None, as_json: JsonOpt = False, members: MembersOpt = True) -> None:
    """Check that every table, column, join and listed member the catalog names exists and fits.

    Exits 0 when the catalog matches the warehouse, 1 when problems were found."""
    from baton.catalog.check import locate
    from baton.cli.common import settings_for

    with reported(as_json=as_json):
        problems, path, lines = check_config(settings_for(config), members=members)
    located = [(problem, locate(problem, lines, path)[1]) for problem in problems]
    located.sort(key=lambda item: (item[1] is None, item[1] or 0))
    if as_json:
        print(
            json.dumps(
                {"ok": not problems, "problems": [_row(p, path, line) for p, line in located]},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        shown = shown_path(path)
        for problem, line in located:  # a problem quotes catalog names and data members
            where = f"{shown}:{line}" if line is not None else shown
            print(terminal_str(f"{where}: {problem.message[0]} / {problem.message[1]}"))
        if problems:
            print(terminal_str(bilingual("check.summary_problems", file=shown, count=len(problems))))
        else:
            print(terminal_str(bilingual("check.summary_ok", file=shown)))
    if problems:
        raise typer.Exit(1)


def _row(problem: CatalogProblem, path: Path, line: int | None) -> dict[str, Any]:
    return {
        "code": problem.code,
        "file": str(path),
        "line": line,
        "path": list(problem.path),
        "table": problem.table,
        "column": problem.column,
        "message": problem.message[0],
        "message_zh": problem.message[1],
    }
