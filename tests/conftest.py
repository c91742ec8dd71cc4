"""Shared fixtures: one real demo warehouse (DuckDB file) per test session."""

from __future__ import annotations

from collections.abc import Iterator

from pathlib import Path

import pytest

from baton.config import Settings, load_settings
from baton.demo.generator import build_demo
from baton.orchestrator.session import Session


@pytest.fixture(scope="session")
def demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default demo (scale 1, seed 7), built once for the whole session."""
    path = tmp_path_factory.mktemp("demo")
    build_demo(path)
    return path


@pytest.fixture(scope="session")
def demo_settings(demo_dir: Path) -> Settings:
    return load_settings(demo_dir / "baton.toml")


@pytest.fixture(scope="session")
def demo_session(demo_settings: Settings) -> Iterator[Session]:
    session = Session(demo_settings)
    yield session
    session.close()
