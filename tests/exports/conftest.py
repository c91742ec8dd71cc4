"""Export tests run the real product on a private copy of the demo (its own runs and policy)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.orchestrator.session import Session
from tests.redteam.private_demo import private_copy


@pytest.fixture(scope="module")
def export_demo(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy of the demo shared by one test module (policy unchanged)."""
    return private_copy(demo_dir, tmp_path_factory.mktemp("exports") / "demo")


@pytest.fixture(scope="module")
def session(export_demo: Path) -> Iterator[Session]:
    with Session(load_settings(export_demo / "baton.toml")) as s:
        yield s


def edit_policy(folder: Path, old: str, new: str, version: str) -> None:
    """Change the copy's policy (and its version), as an administrator would."""
    policy = folder / "policies.yaml"
    body = policy.read_text(encoding="utf-8")
    edited = body.replace(old, new, 1).replace('version: "demo-2026.11-1"', f'version: "{version}"')
    assert edited != body and f'version: "{version}"' in edited
    policy.write_text(edited, encoding="utf-8")
