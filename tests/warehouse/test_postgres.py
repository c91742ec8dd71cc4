"""PostgreSQL: the same demo, the same catalog, the same answers; read-only and timed out for real."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.errors import BatonError, QueryTimeout
from baton.warehouse.postgres_backend import PostgresBackend


@pytest.fixture
def backend(pg_demo_dir: Path) -> PostgresBackend:
    return PostgresBackend(load_settings(pg_demo_dir / "baton.toml").warehouse_url)


def test_timeout_stops_within_one_and_a_half_times_the_limit(backend: PostgresBackend) -> None:
    limit = 1.0
    started = time.perf_counter()
    with pytest.raises(QueryTimeout):
        backend.execute("SELECT pg_sleep(10)", timeout_s=limit)
    assert time.perf_counter() - started < 1.5 * limit
    assert backend.execute("SELECT 1").rows == [(1,)]


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO meta_table_load VALUES ('x', now(), current_date)",
        "CREATE TABLE x (a int)",
        "SELECT pg_read_file('/etc/passwd')",
        "COPY fact_order TO '/tmp/baton_pg_copy.csv'",
    ],
)
def test_reader_role_cannot_write_or_read_files(backend: PostgresBackend, sql: str) -> None:
    with pytest.raises(BatonError):
        backend.execute(sql)


def test_reader_is_least_privilege(backend: PostgresBackend) -> None:
    row = backend.execute(
        "SELECT rolsuper, rolcreaterole, rolcreatedb FROM pg_roles WHERE rolname = current_user"
    ).rows[0]
    assert row == (False, False, False)
