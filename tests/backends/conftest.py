"""The shared backend suite (the ibis pattern): one ``backend`` fixture, one test per behaviour.

``backend`` is a demo folder (baton.toml, catalog, policies) on DuckDB, PostgreSQL or Spark.
The Spark demo is loaded once into a database named from a fingerprint of the demo's data and
the loader's code, and reused while both stay the same (the server's metastore is persistent),
under a cross-process lock because pytest-xdist runs two workers. ``@pytest.mark.notimpl``
says what an engine cannot do: the test is expected to fail there (strict xfail).
"""

from __future__ import annotations

import fcntl
import hashlib
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.redteam.warehouse import (
    SCHEMA,
    Row,
    build_duckdb,
    build_postgres,
    postgres_or_skip,
)

ROOT = Path(__file__).resolve().parents[2]
LOADER = ROOT / "src" / "baton" / "demo" / "spark_loader.py"
ENGINES = ("duckdb", "postgres", "spark")
ENGINE_PARAMS = [
    "duckdb",
    pytest.param("postgres", marks=pytest.mark.postgres),
    pytest.param("spark", marks=pytest.mark.spark),
]
"""Every engine, each marked with the service it needs."""
LOADED = "baton_test_loaded"
"""The database property set once a load has finished: a half-loaded database is reloaded."""

Runner = Callable[[str], list[Row]]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "notimpl(engines, reason): what these engines cannot do; the test must fail there (strict xfail)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """``notimpl``: a strict xfail for the named engines' parameters only."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        engine = None if callspec is None else callspec.params.get("backend", callspec.params.get("engine"))
        for mark in item.iter_markers("notimpl"):
            if engine in mark.args[0]:
                item.add_marker(pytest.mark.xfail(strict=True, reason=f"{engine}: {mark.kwargs['reason']}"))


@pytest.fixture(
    scope="session",
    params=ENGINE_PARAMS,
)
def backend(request: pytest.FixtureRequest) -> Path:
    """The demo folder on each engine (its engine: ``load_settings(folder / "baton.toml").engine``)."""
    return Path(
        request.getfixturevalue({"duckdb": "demo_dir", "postgres": "pg_demo_dir"}.get(request.param, "spark_demo_dir"))
    )


# --- Spark: a database per content, loaded once, under a lock ---------------------------------


@contextmanager
def _locked(name: str) -> Iterator[None]:
    """A cross-process lock (both xdist workers, and concurrent sessions on this machine)."""
    folder = ROOT / ".spark" if (ROOT / ".spark").is_dir() else Path(tempfile.gettempdir())
    with open(folder / f"{name}.lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def demo_fingerprint(duckdb_path: Path) -> str:
    """The demo's data (each table's columns, row count and row hashes) and the loader's code:
    the DuckDB file itself differs byte-wise between two identical builds."""
    digest = hashlib.sha256(LOADER.read_bytes())
    con = duckdb.connect(str(duckdb_path), read_only=True)
    try:
        tables = con.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY 1"
        ).fetchall()
        for (table,) in tables:
            columns = con.execute(f'DESCRIBE "{table}"').fetchall()
            count = con.execute(f'SELECT count(*), sum(hash(t)::HUGEINT) FROM "{table}" t').fetchone()
            digest.update(repr((table, [c[:2] for c in columns], count)).encode())
    finally:
        con.close()
    return digest.hexdigest()


def _spark_loaded(session: Any, database: str, tables: set[str], fingerprint: str) -> bool:
    if not session.catalog.databaseExists(database):
        return False
    found = {t.name for t in session.catalog.listTables(database) if not t.isTemporary}
    info = {str(r[0]): str(r[1]) for r in session.sql(f"DESCRIBE DATABASE EXTENDED `{database}`").collect()}
    return found == tables and f"{LOADED},{fingerprint}" in info.get("Properties", "")


def _mark_loaded(session: Any, database: str, fingerprint: str) -> None:
    session.sql(f"ALTER DATABASE `{database}` SET DBPROPERTIES ('{LOADED}' = '{fingerprint}')").collect()


def ensure_spark_database(
    url: str, database: str, fingerprint: str, tables: set[str], load: Callable[[Any], object]
) -> str:
    """``database`` on the server, loaded by ``load(session)`` unless a finished load with the
    same fingerprint is there; the reader URL."""
    from baton.warehouse.spark_backend import connect_session

    with _locked(database):
        session = connect_session(url)
        try:
            if not _spark_loaded(session, database, tables, fingerprint):
                load(session)
                _mark_loaded(session, database, fingerprint)
        finally:
            session.stop()
    return f"{url.rstrip('/')}/;database={database}"


def _in_spark(spark_url: str, demo: Path, prefix: str, folder: Path) -> Path:
    """``demo`` copied into Spark (database ``<prefix>_<fingerprint>``, reused when unchanged)
    and a copy of its config folder pointing at it."""
    from baton.demo.pg_loader import point_config_at
    from baton.demo.spark_loader import load_demo

    source = demo / "warehouse.duckdb"
    fingerprint = demo_fingerprint(source)
    database = f"{prefix}_{fingerprint[:12]}"
    con = duckdb.connect(str(source), read_only=True)
    try:
        rows = con.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()
    finally:
        con.close()
    tables = {str(r[0]) for r in rows}
    url = ensure_spark_database(
        spark_url, database, fingerprint, tables, lambda _session: load_demo(source, spark_url, database=database)
    )
    for name in ("catalog.yaml", "policies.yaml", "baton.toml", "ground_truth.json"):
        shutil.copy(demo / name, folder / name)
    point_config_at(folder / "baton.toml", url)
    return folder


@pytest.fixture(scope="session")
def spark_demo_dir(spark_url: str, demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The session's demo (scale 1) in Spark: minutes to load on a fresh server (make test-spark)."""
    return _in_spark(spark_url, demo_dir, "baton_test", tmp_path_factory.mktemp("sparkdemo"))


@pytest.fixture(scope="session")
def spark_small_demo_dir(spark_url: str, small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small demo (scale 0.05) in Spark: seconds to load, for `make test`'s Spark part."""
    return _in_spark(spark_url, small_demo_dir, "baton_small", tmp_path_factory.mktemp("sparksmall"))


# --- the red-team fixture warehouse on every engine --------------------------------------------


def _spark_type(kind: str) -> str:
    return "STRING" if kind == "VARCHAR" else kind


def _write_fixture(session: Any, database: str, rows: dict[str, list[Row]]) -> None:
    session.sql(f"CREATE DATABASE IF NOT EXISTS `{database}`").collect()
    for table, data in rows.items():
        ddl = ", ".join(f"{name} {_spark_type(kind)}" for name, kind in SCHEMA[table].items())
        frame = session.createDataFrame(data, schema=ddl)
        frame.write.mode("overwrite").format("parquet").saveAsTable(f"`{database}`.`{table}`")
        session.sql(f"ANALYZE TABLE `{database}`.`{table}` COMPUTE STATISTICS").collect()


@pytest.fixture(scope="session")
def duckdb_fixture(tmp_path_factory: pytest.TempPathFactory, fixture_rows: dict[str, list[Row]]) -> Iterator[Runner]:
    path = build_duckdb(tmp_path_factory.mktemp("backends_rt") / "warehouse.duckdb", fixture_rows)
    con = duckdb.connect(str(path), read_only=True)
    con.execute("SET enable_external_access = false")
    yield lambda sql: [tuple(row) for row in con.execute(sql).fetchall()]
    con.close()


@pytest.fixture(scope="session")
def postgres_fixture(fixture_rows: dict[str, list[Row]]) -> Iterator[Runner]:
    for warehouse in build_postgres(postgres_or_skip(), fixture_rows):
        yield warehouse.query


@pytest.fixture(scope="session")
def spark_fixture(spark_url: str, fixture_rows: dict[str, list[Row]]) -> Iterator[Runner]:
    """The red-team rows as Parquet tables in Spark, run through Baton's own SparkBackend."""
    from baton.warehouse.spark_backend import SparkBackend

    fingerprint = hashlib.sha256(repr((SCHEMA, fixture_rows)).encode()).hexdigest()
    database = f"baton_rt_{fingerprint[:12]}"
    url = ensure_spark_database(
        spark_url, database, fingerprint, set(SCHEMA), lambda s: _write_fixture(s, database, fixture_rows)
    )
    spark = SparkBackend(url)
    yield lambda sql: list(spark.execute(sql).rows)
    spark.close()


@pytest.fixture(
    scope="session",
    params=ENGINE_PARAMS,
)
def engine(request: pytest.FixtureRequest) -> tuple[str, Runner]:
    """The red-team fixture warehouse on each engine: (dialect, run approved SQL → rows)."""
    runner: Runner = request.getfixturevalue(f"{request.param}_fixture")
    return str(request.param), runner
