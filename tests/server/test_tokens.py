"""API token ids: 8 random bytes, and a new draw (never a raw database error) when one is taken."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from baton.server.tokens import TokenStore


def test_token_ids_are_64_bits(tmp_path: Path) -> None:
    store = TokenStore(tmp_path / "tokens.sqlite")
    try:
        ids = {store.create("analyst")[0].token_id for _ in range(20)}
    finally:
        store.close()
    assert len(ids) == 20 and all(re.fullmatch(r"tok_[0-9a-f]{16}", token_id) for token_id in ids)


def test_a_taken_token_id_is_drawn_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draws = iter(["a" * 16, "a" * 16, "a" * 16, "b" * 16])
    monkeypatch.setattr(secrets, "token_hex", lambda _n=None: next(draws))
    store = TokenStore(tmp_path / "tokens.sqlite")
    try:
        first, _ = store.create("analyst")
        second, token = store.create("east_manager")  # draws "a…" twice (taken), then "b…"
        assert first.token_id == "tok_" + "a" * 16 and second.token_id == "tok_" + "b" * 16
        found = store.verify(token)
        assert found is not None and found.user == "east_manager"
    finally:
        store.close()
