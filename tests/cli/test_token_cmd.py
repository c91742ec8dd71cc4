"""`baton token create|list|revoke` through the console script: a token is shown once and
stored hashed, belongs to a policy user, expires and can be revoked."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import write_config

BATON = [sys.executable, "-m", "baton"]


def baton(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=120, env=env, check=False)


@pytest.fixture
def config(small_demo_dir: Path, tmp_path: Path) -> Path:
    return write_config(tmp_path, small_demo_dir)


def listed(config: Path) -> list[dict[str, Any]]:
    done = baton("token", "list", "--json", "--config", str(config))
    assert done.returncode == 0, done.stderr
    return list(json.loads(done.stdout)["tokens"])


def test_a_token_is_printed_once_and_stored_hashed(config: Path) -> None:
    made = baton("token", "create", "--user", "east_manager", "--expires", "30", "--config", str(config))
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert token.startswith("bt_") and len(token) > 40 and "\n" not in token
    assert "east_manager" in made.stderr and "not shown again" in made.stderr
    [record] = listed(config)
    assert record["user"] == "east_manager" and record["status"] == "active" and "token" not in record
    expires = datetime.fromisoformat(record["expires_at"]) - datetime.now(UTC)
    assert timedelta(days=29, hours=23) < expires <= timedelta(days=30)
    table = baton("token", "list", "--config", str(config))
    assert record["token_id"] in table.stdout and token not in table.stdout
    stored = (config.parent / "runs" / "tokens.sqlite").read_bytes()
    assert token.encode() not in stored and token[3:].encode() not in stored


def test_json_create_and_revoke(config: Path) -> None:
    made = baton("token", "create", "--user", "analyst", "--json", "--config", str(config))
    created = json.loads(made.stdout)
    assert created["user"] == "analyst" and created["expires_at"] is None and created["token"].startswith("bt_")
    revoked = baton("token", "revoke", created["token_id"], "--config", str(config))
    assert revoked.returncode == 0 and created["token_id"] in revoked.stdout
    assert [t["status"] for t in listed(config)] == ["revoked"]


def test_an_unknown_user_or_a_bad_expiry_is_refused_and_nothing_is_stored(config: Path) -> None:
    unknown = baton("token", "create", "--user", "nobody", "--config", str(config))
    assert unknown.returncode == 1 and "invalid_input" in unknown.stderr and "nobody" in unknown.stderr
    assert unknown.stdout == ""
    for days in ("0", "5000"):
        bad = baton("token", "create", "--user", "analyst", "--expires", days, "--config", str(config))
        assert bad.returncode == 1 and "--expires" in bad.stderr and bad.stdout == ""
    assert listed(config) == []
    missing = baton("token", "revoke", "tok_00000000", "--json", "--config", str(config))
    assert missing.returncode == 1 and json.loads(missing.stdout)["error"]["code"] == "not_found"


@pytest.mark.parametrize("columns", [80, 64])
def test_the_list_fits_a_narrow_terminal_and_never_cuts_an_id_or_a_status(config: Path, columns: int) -> None:
    """A used token with an expiry (the widest row) at 80 and 64 columns: every line fits, and the
    id and the status are whole (the creation day, then the last use, make room)."""
    from rich.cells import cell_len

    from baton.server.tokens import TokenStore

    made = baton("token", "create", "--user", "east_manager", "--expires", "30", "--config", str(config))
    store = TokenStore(config.parent / "runs" / "tokens.sqlite")
    try:
        assert store.verify(made.stdout.strip()) is not None  # stamps its last use
    finally:
        store.close()
    [record] = listed(config)
    assert record["last_used_at"] is not None
    env = {**os.environ, "COLUMNS": str(columns)}
    table = subprocess.run(
        [*BATON, "token", "list", "--config", str(config)], capture_output=True, text=True, env=env, check=False
    )
    lines = table.stdout.splitlines()
    assert table.returncode == 0 and lines and all(cell_len(line) <= columns for line in lines), table.stdout
    assert record["token_id"] in table.stdout and "active" in table.stdout
