"""Session fixtures: the same small warehouse on a read-only DuckDB file and on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from tests.redteam.private_demo import private_copy
from tests.redteam.warehouse import PostgresWarehouse, Row, build_duckdb, build_postgres, postgres_or_skip


@pytest.fixture(scope="session")
def duckdb_readonly(
    tmp_path_factory: pytest.TempPathFactory, fixture_rows: dict[str, list[Row]]
) -> Iterator[duckdb.DuckDBPyConnection]:
    path = build_duckdb(tmp_path_factory.mktemp("redteam") / "warehouse.duckdb", fixture_rows)
    con = duckdb.connect(str(path), read_only=True)
    con.execute("SET enable_external_access = false")
    con.execute("SET lock_configuration = true")
    yield con
    con.close()


@pytest.fixture(scope="session")
def postgres_warehouse(fixture_rows: dict[str, list[Row]]) -> Iterator[PostgresWarehouse]:
    admin_dsn = postgres_or_skip()
    yield from build_postgres(admin_dsn, fixture_rows)


@pytest.fixture(params=["duckdb", pytest.param("postgres", marks=pytest.mark.postgres)])
def demo_copy(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    """A private copy of the demo (its own policy and runs) on DuckDB, then on PostgreSQL."""
    source = request.getfixturevalue("demo_dir" if request.param == "duckdb" else "pg_demo_dir")
    return private_copy(source, tmp_path / "demo")


@pytest.fixture
def duck_copy(demo_dir: Path, tmp_path: Path) -> Path:
    """A private copy of the DuckDB demo (its own policy and runs)."""
    return private_copy(demo_dir, tmp_path / "demo")
