"""`baton token create|list|revoke`: API tokens for `baton serve`, mapped to policy users.

``create --user U [--expires DAYS]`` prints the token once on standard output (what it says goes to
standard error, so ``TOKEN=$(baton token create --user U)`` works; only its SHA-256 is stored, beside
the run store); ``list`` shows id, user, created, expires, last used and status — never a
token; ``revoke ID`` ends it at once (and every web session signed in with it). ``--json``
prints ``{token_id, user, created_at, expires_at, token}`` for ``create``, ``{"tokens": [...]}``
for ``list`` and the revoked token's record for ``revoke``. There is no question to tell the
language by, so lines are printed in English and Chinese.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from baton.cli.common import ConfigOpt, JsonOpt
from baton.cli.errors import reported
from baton.cli.terminal import Prose, terminal_markup
from baton.messages import text

if TYPE_CHECKING:
    from baton.server.tokens import TokenInfo, TokenStore

token_app = typer.Typer(no_args_is_help=True, help="API tokens for `baton serve` (each acts as one policy user).")


def _say(key: str, /, sep: str = " / ", **fields: Any) -> str:
    return f"{text(key, 'en', **fields)}{sep}{text(key, 'zh', **fields)}"


def _store(config: Any) -> TokenStore:
    from baton.cli.common import settings_for
    from baton.server.tokens import TokenStore

    return TokenStore(settings_for(config).runs_dir / "tokens.sqlite")


def _record(info: TokenInfo) -> dict[str, Any]:
    return {**info.model_dump(mode="json"), "status": info.status()}


def _day(value: datetime | None, shape: str = "%Y-%m-%d") -> str:
    return value.astimezone().strftime(shape) if value is not None else _say("server.never", sep="\n")


@token_app.command("create")
def create(
    user: Annotated[str, typer.Option("--user", help="The policy user the token acts as.")],
    expires: Annotated[int | None, typer.Option("--expires", help="Days until it expires (default: never).")] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a token for a policy user and print it once (it cannot be shown again)."""
    from baton.cli.common import settings_for
    from baton.server.tokens import create_token

    with reported(as_json=as_json):
        info, token = create_token(settings_for(config), user, expires_days=expires)
    if as_json:
        print(json.dumps({**_record(info), "token": token}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console

    expiry = info.expires_at.date().isoformat() if info.expires_at is not None else _say("server.never")
    said = _say("server.token_created", token_id=info.token_id, user=user, expires=expiry)
    Console(stderr=True, highlight=False).print(terminal_markup(said))  # stdout holds the token alone
    print(token)


@token_app.command("list")
def list_tokens(config: ConfigOpt = None, as_json: JsonOpt = False) -> None:
    """Every token: id, user, created, expires, last used, status (never the token itself)."""
    with reported(as_json=as_json):
        store = _store(config)
    try:
        tokens = store.list()
    finally:
        store.close()
    if as_json:
        print(json.dumps({"tokens": [_record(t) for t in tokens]}, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    if not tokens:
        console.print(terminal_markup(_say("server.no_tokens")))
        return
    table = Table()
    widths = {"col_id": max(len(t.token_id) for t in tokens), "col_user": max(len(t.user) for t in tokens)}
    columns = _token_columns(console.width)
    for column in columns:
        table.add_column(_say(f"server.{column}", sep="\n"), min_width=widths.get(column))  # ids are never cut
    for info in tokens:
        cells = {
            "col_id": info.token_id,
            "col_user": info.user,
            "col_created": _day(info.created_at),
            "col_expires": _day(info.expires_at),
            "col_last_used": _day(info.last_used_at, "%Y-%m-%d %H:%M"),
            "col_status": _say(f"server.{info.status()}", sep="\n"),
        }
        table.add_row(*(Prose(cells[column]) for column in columns))  # wrapped, never cut
    console.print(table)


def _token_columns(width: int) -> list[str]:
    """The columns that fit ``width``: the id, user, expiry and status always (never cut); narrower
    than 100 columns the creation day goes, narrower than 72 the last use too (``--json`` has both)."""
    columns = ["col_id", "col_user", "col_created", "col_expires", "col_last_used", "col_status"]
    if width < 100:
        columns.remove("col_created")
    if width < 72:
        columns.remove("col_last_used")
    return columns


@token_app.command("revoke")
def revoke(
    token_id: Annotated[str, typer.Argument(help="The token's id (from `baton token list`).")],
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Revoke a token at once (its web sessions end with it)."""
    with reported(as_json=as_json):
        store = _store(config)
        try:
            info = store.revoke(token_id)
        finally:
            store.close()
    if as_json:
        print(json.dumps(_record(info), ensure_ascii=False, indent=2))
        return
    from rich.console import Console

    Console(highlight=False).print(terminal_markup(_say("server.token_revoked", token_id=token_id, user=info.user)))
