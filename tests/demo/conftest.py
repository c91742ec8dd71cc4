"""Demo builds shared by the demo tests: each built once per test session, then only read."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import duckdb
import pytest

from baton.demo.generator import DemoBuild, build_demo
from baton.demo.scenario import packaged_scenarios

SMALL_SCALE = 0.2
"""Small enough to build in about a second, large enough for planted effects to stand out."""


@pytest.fixture(scope="session")
def default_demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> DemoBuild:
    """The full default demo at scale 1, as users get it; reuses the suite-wide build when there is one."""
    try:
        folder = Path(request.getfixturevalue("demo_dir"))
    except pytest.FixtureLookupError:
        folder = tmp_path_factory.mktemp("default_demo")
    return build_demo(folder)


@pytest.fixture(scope="session")
def default_con(default_demo: DemoBuild) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(default_demo.warehouse), read_only=True)
    yield con
    con.close()


@pytest.fixture(scope="session")
def small_build(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], DemoBuild]:
    """Build a packaged scenario at SMALL_SCALE (seed 7), once per scenario per session."""
    cache: dict[str, DemoBuild] = {}

    def build(name: str) -> DemoBuild:
        if name not in cache:
            folder = tmp_path_factory.mktemp(f"small_{name}")
            cache[name] = build_demo(folder, scenario=packaged_scenarios()[name], scale=SMALL_SCALE)
        return cache[name]

    return build
