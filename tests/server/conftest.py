"""A real `baton serve` app on uvicorn (127.0.0.1, a free port) over the small demo warehouse.

``baton_server`` (module scope) is shared by every test of the server's faces (REST API, web
page, MCP over HTTP, exports): ``.url``, ``.config`` (a baton.toml of its own, whose runs
folder — runs, traces, tokens — belongs to this server alone), ``.tokens`` (user → API
token, for ``analyst``, ``east_manager`` and ``admin``) and ``.client(user)`` (an httpx
client sending that user's token).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

USERS = ("analyst", "east_manager", "admin")
AS_OF = "2026-07-01"


@dataclass
class BatonServer:
    """A running server: where it listens, its config, and a token per demo user."""

    url: str
    config: Path
    runs_dir: Path
    tokens: dict[str, str]
    token_ids: dict[str, str] = field(default_factory=dict)
    app: Any = None
    """The FastAPI app (``app.state.baton`` is the server's Runtime)."""

    def client(self, user: str | None = None, *, language: str | None = None, **options: Any) -> httpx.Client:
        """An httpx client for ``user`` (its bearer token; ``None``: no credentials)."""
        headers: dict[str, str] = dict(options.pop("headers", {}))
        if user is not None:
            headers["Authorization"] = f"Bearer {self.tokens[user]}"
        if language is not None:
            headers["Accept-Language"] = language
        return httpx.Client(base_url=self.url, headers=headers, timeout=options.pop("timeout", 120), **options)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_config(folder: Path, demo: Path) -> Path:
    """A baton.toml in ``folder`` reading ``demo``'s warehouse, catalog and policy, with its own runs folder."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "baton.toml"
    config.write_text(
        f'[warehouse]\nurl = "duckdb:///{(demo / "warehouse.duckdb").as_posix()}"\n\n'
        f'[catalog]\npath = "{(demo / "catalog.yaml").as_posix()}"\n\n'
        f'[policy]\npath = "{(demo / "policies.yaml").as_posix()}"\n\n'
        f'[runs]\npath = "{(folder / "runs").as_posix()}"\n\n'
        f'[defaults]\nas_of = "{AS_OF}"\n',
        encoding="utf-8",
    )
    return config


def issue_tokens(config: Path, users: tuple[str, ...] = USERS) -> tuple[dict[str, str], dict[str, str]]:
    """A token per user (through the same function `baton token create` calls): tokens, token ids."""
    from baton.config import load_settings
    from baton.server.tokens import create_token

    settings = load_settings(config)
    tokens, ids = {}, {}
    for user in users:
        info, token = create_token(settings, user)
        tokens[user], ids[user] = token, info.token_id
    return tokens, ids


@pytest.fixture(scope="module")
def baton_server(small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BatonServer]:
    config = write_config(tmp_path_factory.mktemp("server"), small_demo_dir)
    with serve(config) as server:
        yield server


@contextmanager
def serve(config: Path, users: tuple[str, ...] = USERS) -> Iterator[BatonServer]:
    """A real server for ``config`` on a free port, with a token per user, until the block ends."""
    import uvicorn

    from baton.server.app import create_app

    tokens, ids = issue_tokens(config, users)
    port = free_port()
    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=5)
    )
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield BatonServer(f"http://127.0.0.1:{port}", config, config.parent / "runs", tokens, ids, app)
    finally:
        server.should_exit = True
        thread.join(timeout=60)
