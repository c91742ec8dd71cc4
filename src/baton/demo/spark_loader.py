"""Load the demo warehouse into Spark: Parquet tables registered in the Spark catalog.

The DuckDB demo file is the single source, as for PostgreSQL. Each table becomes a managed
Parquet table in a Spark database of its own, so it lives in the server's warehouse directory
and its catalog (persistent when the server keeps a metastore: ``scripts/spark-connect.sh``
starts one with a Derby metastore). Two ways to get the rows there:

- **shared files** (a server on this machine, or one that mounts the same directory): the
  tables are written as Parquet files beside the demo, and Spark copies them into its
  warehouse with ``CREATE TABLE … AS SELECT`` — parallel, about 15 s for a million orders;
- **over the wire** (a remote cluster): Arrow batches are sent through Spark Connect and
  appended with ``saveAsTable`` — the server converts each batch on one thread, so this takes
  minutes per million rows.

Which one applies is found out, not configured: a probe file with a random token is written
and Spark is asked to read it back. Statistics are computed so cost estimates see row counts.

This is an administrator's write path (like ``pg_loader``), never the query path: Baton's own
backend only ever sends statements the firewall approved.
"""

from __future__ import annotations

import contextlib
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb

from baton.errors import BatonError, ToolFailure
from baton.messages import both
from baton.warehouse.spark_backend import connect_session, split_url

DEFAULT_DATABASE = "baton_demo"
BATCH_ROWS = 250_000
"""Rows per Arrow batch read from the demo file (and, over the wire, per append)."""


def _tables(source: duckdb.DuckDBPyConnection) -> list[str]:
    rows = source.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'main' ORDER BY table_name"
    ).fetchall()
    return [str(r[0]) for r in rows]


def _batches(source: duckdb.DuckDBPyConnection, table: str) -> Iterator[Any]:
    """The table as Arrow tables of at most BATCH_ROWS rows (names come from the file's own catalog)."""
    import pyarrow as pa  # type: ignore[import-untyped]

    reader = source.sql(f'SELECT * FROM "{table}"').to_arrow_reader(BATCH_ROWS)
    for batch in reader:
        yield pa.Table.from_batches([batch])


def _write_parquet(source: duckdb.DuckDBPyConnection, table: str, folder: Path) -> None:
    """``table`` as Parquet files in ``folder`` (pyarrow writes them: a hardened DuckDB cannot)."""
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    folder.mkdir(parents=True, exist_ok=True)
    for index, chunk in enumerate(_batches(source, table)):
        pq.write_table(chunk, folder / f"part-{index:05d}.parquet")


def _shares_files(session: Any, staging: Path) -> bool:
    """Whether the Spark server reads what this process writes under ``staging``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    token = uuid.uuid4().hex
    probe = staging / f"_probe_{token}"
    probe.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.table({"token": [token]}), probe / "part.parquet")
    try:
        rows = session.sql(f"SELECT token FROM parquet.`{probe.resolve()}`").toArrow().column(0).to_pylist()
    except Exception:
        return False
    finally:
        shutil.rmtree(probe, ignore_errors=True)
    return bool(rows == [token])


def _copy_over_wire(session: Any, source: duckdb.DuckDBPyConnection, table: str, name: str) -> None:
    for index, chunk in enumerate(_batches(source, table)):
        frame = session.createDataFrame(chunk)
        frame.write.mode("overwrite" if index == 0 else "append").format("parquet").saveAsTable(name)


def load_demo(duckdb_path: Path, url: str, *, database: str | None = None) -> str:
    """Copy every table of the demo file into ``database`` on the Spark Connect server at
    ``url``; return the URL Baton reads it through (with ``;database=…``)."""
    client_url, in_url = split_url(url)
    target = database or in_url or DEFAULT_DATABASE
    session = connect_session(client_url)
    source = duckdb.connect(str(duckdb_path), read_only=True)
    with contextlib.suppress(duckdb.Error):  # already locked when this process hardened the file
        source.execute("SET enable_progress_bar = false")
    staging = duckdb_path.parent / f"spark-staging-{uuid.uuid4().hex[:8]}"
    try:
        shared = _shares_files(session, staging)
        session.sql(f"CREATE DATABASE IF NOT EXISTS `{target}`")
        for table in _tables(source):
            name = f"`{target}`.`{table}`"
            session.sql(f"DROP TABLE IF EXISTS {name}")
            if shared:
                _write_parquet(source, table, staging / table)
                session.sql(
                    f"CREATE TABLE {name} USING parquet AS SELECT * FROM parquet.`{(staging / table).resolve()}`"
                )
            else:
                _copy_over_wire(session, source, table, name)
            session.sql(f"ANALYZE TABLE {name} COMPUTE STATISTICS")
    except BatonError:
        raise
    except Exception as exc:  # duckdb's, pyarrow's and the Spark client's errors
        raise ToolFailure(
            *both("warehouse.spark_load_failed", error=f"{type(exc).__name__}: {str(exc)[:300]}")
        ) from exc
    finally:
        source.close()
        shutil.rmtree(staging, ignore_errors=True)
        with contextlib.suppress(Exception):
            session.stop()
    return f"{client_url};database={target}" if "/;" in client_url else f"{client_url.rstrip('/')}/;database={target}"
