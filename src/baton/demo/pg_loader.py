"""Load the demo warehouse into PostgreSQL, and create the least-privilege role that queries it.

The DuckDB demo file is the single source: each table is read in batches and streamed into
PostgreSQL with COPY (CSV over the wire; no temporary files, which a hardened DuckDB could
not write anyway), so both engines hold byte-identical data and the same
catalog compiles to both dialects. Queries then run as ``baton_reader``, a role that can only
SELECT the demo tables; the firewall and the read-only transaction come on top of that.
"""

from __future__ import annotations

import contextlib
import csv
import io
from pathlib import Path

import duckdb
import psycopg
from psycopg import sql as pgsql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from baton.errors import ToolFailure, WarehouseUnavailable

TABLES: dict[str, list[tuple[str, str]]] = {
    "dim_user": [
        ("user_id", "BIGINT"),
        ("signup_date", "DATE"),
        ("signup_channel", "VARCHAR"),
        ("region", "VARCHAR"),
        ("city", "VARCHAR"),
        ("name", "VARCHAR"),
        ("phone", "VARCHAR"),
        ("email", "VARCHAR"),
    ],
    "dim_product": [
        ("product_id", "BIGINT"),
        ("product_name", "VARCHAR"),
        ("category", "VARCHAR"),
        ("brand", "VARCHAR"),
        ("list_price", "NUMERIC(12,2)"),
    ],
    "fact_order": [
        ("order_id", "BIGINT"),
        ("user_id", "BIGINT"),
        ("product_id", "BIGINT"),
        ("order_date", "DATE"),
        ("order_ts", "TIMESTAMP"),
        ("channel", "VARCHAR"),
        ("region", "VARCHAR"),
        ("category", "VARCHAR"),
        ("user_type", "VARCHAR"),
        ("quantity", "INTEGER"),
        ("gmv_amount", "NUMERIC(14,2)"),
        ("discount_amount", "NUMERIC(14,2)"),
        ("status", "VARCHAR"),
        ("updated_at", "TIMESTAMP"),
    ],
    "fact_traffic": [
        ("visit_date", "DATE"),
        ("channel", "VARCHAR"),
        ("region", "VARCHAR"),
        ("user_type", "VARCHAR"),
        ("visitors", "BIGINT"),
        ("sessions", "BIGINT"),
    ],
    "meta_table_load": [("table_name", "VARCHAR"), ("loaded_at", "TIMESTAMP"), ("max_data_date", "DATE")],
}
READER_ROLE = "baton_reader"


def _ensure_database(url: str) -> None:
    params = conninfo_to_dict(url)
    dbname = str(params.get("dbname") or "postgres")
    try:
        with psycopg.connect(make_conninfo(url, dbname="postgres"), autocommit=True, connect_timeout=5) as con:
            exists = con.execute("SELECT 1 FROM pg_database WHERE datname = %s", (dbname,)).fetchone()
            if not exists:
                con.execute(pgsql.SQL("CREATE DATABASE {}").format(pgsql.Identifier(dbname)))
    except psycopg.OperationalError as exc:
        raise WarehouseUnavailable(f"Cannot reach PostgreSQL: {exc}", f"无法连接 PostgreSQL：{exc}") from exc


def load_demo(duckdb_path: Path, url: str, *, reader_role: str = READER_ROLE) -> str:
    """Copy every demo table into the database at ``url``; return the reader role's URL."""
    _ensure_database(url)
    source = duckdb.connect(str(duckdb_path), read_only=True)
    with contextlib.suppress(duckdb.Error):  # already locked when this process hardened the file
        source.execute("SET enable_progress_bar = false")
    try:
        with psycopg.connect(url, autocommit=False) as con:
            for table, columns in TABLES.items():
                cols = ", ".join(f"{name} {kind}" for name, kind in columns)
                con.execute(pgsql.SQL("DROP TABLE IF EXISTS {} CASCADE").format(pgsql.Identifier(table)))
                con.execute(pgsql.SQL("CREATE TABLE {} (" + cols + ")").format(pgsql.Identifier(table)))
                names = ", ".join(name for name, _ in columns)
                cursor = source.execute(f"SELECT {names} FROM {table}")  # fixed names from TABLES, not input
                copy_sql = pgsql.SQL("COPY {} FROM STDIN (FORMAT csv)").format(pgsql.Identifier(table))
                with con.cursor() as cur, cur.copy(copy_sql) as copy:
                    while batch := cursor.fetchmany(50_000):
                        buffer = io.StringIO()
                        csv.writer(buffer, lineterminator="\n").writerows(
                            ["" if v is None else v for v in row] for row in batch
                        )
                        copy.write(buffer.getvalue())
            con.execute("CREATE INDEX IF NOT EXISTS fact_order_date_idx ON fact_order (order_date)")
            con.execute("CREATE INDEX IF NOT EXISTS fact_traffic_date_idx ON fact_traffic (visit_date)")
            _create_reader(con, reader_role)
            con.commit()
            con.autocommit = True
            con.execute("ANALYZE")
    except (psycopg.Error, duckdb.Error) as exc:
        raise ToolFailure(
            f"Loading the demo into PostgreSQL failed: {exc}", f"将演示数据载入 PostgreSQL 失败：{exc}"
        ) from exc
    finally:
        source.close()
    return _with_user(url, reader_role) if "://" in url else make_conninfo(url, user=reader_role)


def _create_reader(con: psycopg.Connection[tuple[object, ...]], role: str) -> None:
    exists = con.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    ident = pgsql.Identifier(role)
    if not exists:
        con.execute(pgsql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT").format(ident))
    dbname = con.info.dbname
    con.execute(pgsql.SQL("REVOKE ALL ON SCHEMA public FROM {}").format(ident))
    con.execute(pgsql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
    con.execute(pgsql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(pgsql.Identifier(dbname), ident))
    con.execute(pgsql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(ident))
    for table in TABLES:
        con.execute(pgsql.SQL("GRANT SELECT ON {} TO {}").format(pgsql.Identifier(table), ident))


def _with_user(url: str, user: str) -> str:
    """Replace the user of a postgresql:// URL (the demo uses trust auth, so no password)."""
    scheme, rest = url.split("://", 1)
    hostpart = rest.split("@", 1)[1] if "@" in rest.split("/", 1)[0] else rest
    return f"{scheme}://{user}@{hostpart}"


def point_config_at(config: Path, url: str) -> None:
    """Rewrite the [warehouse] url of a baton.toml (atomically) to the PostgreSQL reader URL."""
    import os
    import re

    text = config.read_text(encoding="utf-8")
    updated = re.sub(r'(?m)^url = ".*"$', f'url = "{url}"', text, count=1)
    tmp = config.with_suffix(".toml.tmp")
    tmp.write_text(updated, encoding="utf-8")
    os.replace(tmp, config)
