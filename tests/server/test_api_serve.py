"""`baton serve` through the real console script: it serves, takes a token from `baton token
create`, and without the server extra it says what to install."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx2 as httpx

from tests.server.conftest import free_port, write_config

BATON = Path(sys.executable).with_name("baton")


def test_baton_serve_answers_health_and_a_token_from_the_cli(small_demo_dir: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, small_demo_dir)
    made = subprocess.run(
        [str(BATON), "token", "create", "--user", "analyst", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()  # standard output holds the token alone
    assert token.startswith("bt_") and "tok_" in made.stderr
    port = free_port()
    server = subprocess.Popen(
        [str(BATON), "serve", "--config", str(config), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.communicate()[1]
            try:
                health = httpx.get(f"{url}/api/health", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "baton serve did not answer within 60 s"
                time.sleep(0.1)
        assert health.status_code == 200 and health.json()["status"] == "ok"
        me = httpx.get(f"{url}/api/me", headers={"Authorization": f"Bearer {token}"}, timeout=30)
        assert me.json() == {"user": "analyst", "roles": ["analyst"], "admin": False}
        assert httpx.get(f"{url}/api/me", timeout=30).status_code == 401
    finally:
        server.terminate()
        _, err = server.communicate(timeout=30)
    assert f"http://127.0.0.1:{port}" in err  # it said where it serves


BLOCK_SERVER_EXTRA = """
import importlib.abc, sys
class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"fastapi", "uvicorn"}:
            raise ModuleNotFoundError(name)
        return None
sys.meta_path.insert(0, Missing())
sys.argv = ["baton", "serve", "--config", sys.argv[1]]
from baton.cli.app import main
main()
"""


def test_without_the_server_extra_serve_says_what_to_install(small_demo_dir: Path, tmp_path: Path) -> None:
    config = write_config(tmp_path, small_demo_dir)
    env = {**os.environ, "COLUMNS": "200"}
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_SERVER_EXTRA, str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "invalid_config" in done.stderr and "baton-analyst[server]" in done.stderr
    assert "Traceback" not in done.stderr
