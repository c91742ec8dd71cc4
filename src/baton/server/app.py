"""The FastAPI app of `baton serve`: settings, workers, error shape and routers, in one factory.

    >>> from baton.server.app import create_app
    >>> app = create_app(Path("demo/baton.toml"))  # doctest: +SKIP
    >>> uvicorn.run(app, host="127.0.0.1", port=8765)  # doctest: +SKIP

Routers live in their own modules and are listed in :func:`routers` (one line each); what
is mounted rather than routed (the MCP endpoint) goes in :func:`_mount`. OpenAPI is served
at ``/openapi.json``.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI

from baton.config import Settings, baton_version
from baton.server.errors import install_error_handlers
from baton.server.workers import DEFAULT_WORKERS, Runtime, lifespan


def routers() -> list[APIRouter]:
    """Every router of the app, in the order they are matched."""
    from baton.server.exports_routes import router as exports
    from baton.server.page import router as page
    from baton.server.routes import router as questions
    from baton.server.routes_meta import router as meta
    from baton.server.routes_runs import router as runs

    return [meta, questions, runs, exports, page]


def _mount(app: FastAPI, rt: Runtime) -> None:
    """Sub-applications mounted under a path (added by their modules)."""
    import importlib.util

    if importlib.util.find_spec("mcp") is not None:  # /mcp needs the optional `mcp` extra
        from baton.server.mcp import mount_mcp

        mount_mcp(app, rt)


def load_server_settings(config: Path | None, runs_dir: Path | None = None) -> Settings:
    """The settings the server answers with: ``config``, else ``BATON_CONFIG``, else the demo."""
    from baton.config import resolve_config
    from baton.demo.generator import build_demo

    settings = resolve_config(config, build_default=build_demo)
    return settings.model_copy(update={"runs_dir": runs_dir}) if runs_dir is not None else settings


def create_app(config: Path | None = None, *, runs_dir: Path | None = None, workers: int = DEFAULT_WORKERS) -> FastAPI:
    """The app for ``config`` (see :func:`load_server_settings`); ``runs_dir`` overrides the
    config's runs folder (runs, traces and tokens); ``workers`` threads answer questions."""
    rt = Runtime(load_server_settings(config, runs_dir), workers=workers)
    app = FastAPI(
        title="Baton",
        version=baton_version(),
        description="Governed answers to metric questions: ask, analyze, query, runs and their progress.",
        lifespan=lifespan,
    )
    app.state.baton = rt
    install_error_handlers(app)
    for router in routers():
        app.include_router(router)
    _mount(app, rt)
    return app
