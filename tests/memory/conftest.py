"""User-memory fixtures: the demo catalog, a store in a private folder, a private demo copy."""

from __future__ import annotations

from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.memory import Memory, MemoryStore
from tests.redteam.private_demo import private_copy

CATALOG_FILE = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "catalog.yaml"


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    """The demo catalog as it ships (what `baton demo init` writes)."""
    return load_catalog(CATALOG_FILE)


@pytest.fixture
def runs_dir(tmp_path: Path) -> Path:
    return tmp_path / "runs"


@pytest.fixture
def store(runs_dir: Path) -> MemoryStore:
    return MemoryStore(runs_dir / "memory.sqlite")


@pytest.fixture
def memory(runs_dir: Path, catalog: Catalog) -> Memory:
    return Memory(runs_dir, catalog)


@pytest.fixture
def demo_copy(small_demo_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the small demo (its own runs folder, so its own memory)."""
    return private_copy(small_demo_dir, tmp_path / "demo")
