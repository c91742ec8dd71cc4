"""`baton serve`: the REST API and web page on uvicorn (the optional ``server`` extra).

Binds 127.0.0.1 by default: put it behind a TLS-terminating proxy before exposing it, since
tokens and session cookies travel in every request.
"""

from __future__ import annotations

from typing import Annotated

import typer

from baton.cli.common import ConfigOpt
from baton.cli.errors import reported


def serve_command(
    config: ConfigOpt = None,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8765,
    workers: Annotated[int, typer.Option("--workers", help="Threads answering questions at once.")] = 4,
) -> None:
    """Serve the REST API (OpenAPI at /openapi.json), progress events and the web page.

    Sign in with a token from `baton token create --user USER`."""
    from baton.errors import ConfigError, InvalidInput
    from baton.messages import both

    with reported():
        try:
            import fastapi  # noqa: F401 - the optional server extra
            import uvicorn
        except ImportError as exc:
            missing = exc.name or "fastapi, uvicorn"
            raise ConfigError(*both("server.not_installed", missing=missing), detail={"missing": missing}) from exc
        if not 1 <= port <= 65535:
            raise InvalidInput(*both("server.bad_port", raw=port), detail={"port": port})
        from baton.cli.common import settings_for
        from baton.server.app import create_app

        settings = settings_for(config)
        app = create_app(settings.config_path, workers=workers)
        from baton.server.page import web_font

        web_font(app.state.baton)  # cut the page's CJK font now, not on the first visitor's page
    from rich.console import Console

    from baton.cli.terminal import terminal_markup
    from baton.messages import text

    shown_host = f"[{host}]" if ":" in host else host
    fields = {"url": f"http://{shown_host}:{port}", "config": settings.config_path}
    line = f"{text('server.serving', 'en', **fields)} / {text('server.serving', 'zh', **fields)}"
    Console(stderr=True, highlight=False).print(terminal_markup(line))
    uvicorn.run(app, host=host, port=port, log_level="info", timeout_graceful_shutdown=5)
