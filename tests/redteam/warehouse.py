"""A small deterministic warehouse with the contract schema, on DuckDB and PostgreSQL.

Used by the red-team and firewall tests to execute approved SQL on real engines.
"""

from __future__ import annotations

import os
import random
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import psycopg
import pytest

SCHEMA: dict[str, dict[str, str]] = {
    "dim_user": {
        "user_id": "BIGINT",
        "signup_date": "DATE",
        "signup_channel": "VARCHAR",
        "region": "VARCHAR",
        "city": "VARCHAR",
        "name": "VARCHAR",
        "phone": "VARCHAR",
        "email": "VARCHAR",
    },
    "dim_product": {
        "product_id": "BIGINT",
        "product_name": "VARCHAR",
        "category": "VARCHAR",
        "brand": "VARCHAR",
        "list_price": "DECIMAL(12,2)",
    },
    "fact_order": {
        "order_id": "BIGINT",
        "user_id": "BIGINT",
        "product_id": "BIGINT",
        "order_date": "DATE",
        "order_ts": "TIMESTAMP",
        "channel": "VARCHAR",
        "region": "VARCHAR",
        "category": "VARCHAR",
        "user_type": "VARCHAR",
        "quantity": "INTEGER",
        "gmv_amount": "DECIMAL(14,2)",
        "discount_amount": "DECIMAL(14,2)",
        "status": "VARCHAR",
        "updated_at": "TIMESTAMP",
    },
    "fact_traffic": {
        "visit_date": "DATE",
        "channel": "VARCHAR",
        "region": "VARCHAR",
        "user_type": "VARCHAR",
        "visitors": "BIGINT",
        "sessions": "BIGINT",
    },
    "meta_table_load": {"table_name": "VARCHAR", "loaded_at": "TIMESTAMP", "max_data_date": "DATE"},
}

REGIONS = ("华东", "华南", "华北", "华中", "西南", "西北", "东北")
CHANNELS = ("app", "mini_program", "web", "live_stream")
CATEGORIES = ("数码", "服饰", "美妆", "食品", "家居")
USER_TYPES = ("new", "returning")
STATUSES = ("paid", "paid", "paid", "refunded", "cancelled")
SURNAMES = ("王", "李", "张", "刘", "陈", "杨", "赵", "黄")

Row = tuple[Any, ...]


def build_rows() -> dict[str, list[Row]]:
    """Deterministic rows for every table (a few hundred in all)."""
    rng = random.Random(20261129)
    start = date(2026, 9, 1)
    users: list[Row] = []
    for i in range(1, 61):
        region = REGIONS[i % len(REGIONS)]
        users.append(
            (
                i,
                start - timedelta(days=rng.randint(0, 400)),
                CHANNELS[i % 4],
                region,
                f"{region}市{i % 3}",
                f"{SURNAMES[i % 8]}测{i:03d}",
                f"139{i:08d}",
                f"buyer{i:03d}@mail.example.com",
            )
        )
    products: list[Row] = [
        (p, f"商品{p:02d}", CATEGORIES[p % 5], f"品牌{p % 4}", Decimal(f"{10 + p * 7}.{p % 100:02d}"))
        for p in range(1, 21)
    ]
    orders: list[Row] = []
    for o in range(1, 321):
        user = users[rng.randrange(len(users))]
        product = products[rng.randrange(len(products))]
        day = start + timedelta(days=rng.randint(0, 88))
        ts = datetime(day.year, day.month, day.day, rng.randint(0, 23), rng.randint(0, 59))
        quantity = rng.randint(1, 4)
        gmv = (product[4] * quantity).quantize(Decimal("0.01"))
        discount = (gmv * Decimal(rng.choice(("0", "0.05", "0.1")))).quantize(Decimal("0.01"))
        orders.append(
            (
                o,
                user[0],
                product[0],
                day,
                ts,
                CHANNELS[rng.randrange(4)],
                user[3],
                product[2],
                USER_TYPES[rng.randrange(2)],
                quantity,
                gmv,
                discount,
                rng.choice(STATUSES),
                ts + timedelta(hours=1),
            )
        )
    traffic: list[Row] = []
    for d in range(0, 88, 11):
        for region in REGIONS:
            for channel in CHANNELS:
                visitors = rng.randint(50, 500)
                traffic.append(
                    (
                        start + timedelta(days=d),
                        channel,
                        region,
                        USER_TYPES[d % 2],
                        visitors,
                        visitors + rng.randint(0, 80),
                    )
                )
    loaded = datetime(2026, 11, 29, 6, 0)
    meta: list[Row] = [
        (t, loaded, date(2026, 11, 28)) for t in ("dim_user", "dim_product", "fact_order", "fact_traffic")
    ]
    return {
        "dim_user": users,
        "dim_product": products,
        "fact_order": orders,
        "fact_traffic": traffic,
        "meta_table_load": meta,
    }


def raw_pii_values(rows: dict[str, list[Row]]) -> list[str]:
    """Every raw name, phone and email: none may appear in a non-admin result."""
    return [str(value) for user in rows["dim_user"] for value in user[5:8]]


def _create_sql(table: str) -> str:
    columns = ", ".join(f"{name} {kind}" for name, kind in SCHEMA[table].items())
    return f"CREATE TABLE {table} ({columns})"


def build_duckdb(path: Path, rows: dict[str, list[Row]]) -> Path:
    con = duckdb.connect(str(path))
    try:
        for table, data in rows.items():
            con.execute(_create_sql(table))
            marks = ", ".join("?" for _ in SCHEMA[table])
            con.executemany(f"INSERT INTO {table} VALUES ({marks})", data)
    finally:
        con.close()
    return path


@dataclass
class PostgresWarehouse:
    """A throwaway database and a least-privilege role that may only SELECT the demo tables."""

    dsn: str
    admin_dsn: str
    database: str
    role: str

    def query(self, sql: str, timeout_ms: int = 10_000) -> list[Row]:
        with psycopg.connect(self.dsn, autocommit=True) as conn:
            conn.execute("BEGIN READ ONLY")
            try:
                conn.execute(f"SET LOCAL statement_timeout = {int(timeout_ms)}")
                rows = conn.execute(sql).fetchall()
            finally:
                conn.execute("ROLLBACK")
        return [tuple(row) for row in rows]


PG_HOST = os.environ.get("BATON_TEST_PGHOST", "127.0.0.1")
PG_PORT = int(os.environ.get("BATON_TEST_PGPORT", "5432"))


def postgres_or_skip() -> str:
    """The admin DSN of the test server; fail in CI, skip loudly elsewhere, if unreachable."""
    dsn = f"host={PG_HOST} port={PG_PORT} user=postgres dbname=postgres connect_timeout=3"
    try:
        with psycopg.connect(dsn) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        message = f"PostgreSQL at {PG_HOST}:{PG_PORT} is unreachable ({exc}); postgres red-team cases NOT RUN"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip("LOUD SKIP: " + message)
    return dsn


def build_postgres(admin_dsn: str, rows: dict[str, list[Row]]) -> Iterator[PostgresWarehouse]:
    suffix = secrets.token_hex(4)
    database, role = f"baton_rt_{suffix}", f"baton_rt_reader_{suffix}"
    with psycopg.connect(admin_dsn, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {database}")
        conn.execute(f"CREATE ROLE {role} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
    db_dsn = admin_dsn.replace("dbname=postgres", f"dbname={database}")
    try:
        with psycopg.connect(db_dsn, autocommit=True) as conn:
            conn.execute("REVOKE ALL ON SCHEMA public FROM PUBLIC")
            conn.execute(f"GRANT USAGE ON SCHEMA public TO {role}")
            for table, data in rows.items():
                conn.execute(_create_sql(table))
                marks = ", ".join("%s" for _ in SCHEMA[table])
                with conn.cursor() as cur:
                    cur.executemany(f"INSERT INTO {table} VALUES ({marks})", data)
                conn.execute(f"GRANT SELECT ON {table} TO {role}")
                conn.execute(f"ANALYZE {table}")  # the planner's estimates rest on statistics, as in a real warehouse
        reader_dsn = f"host={PG_HOST} port={PG_PORT} user={role} dbname={database} connect_timeout=3"
        yield PostgresWarehouse(reader_dsn, db_dsn, database, role)
    finally:
        with psycopg.connect(admin_dsn, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
            conn.execute(f"DROP ROLE IF EXISTS {role}")


def normalise(rows: Sequence[Row]) -> list[tuple[str, ...]]:
    """Engine-neutral, order-free form of a result for cross-engine comparison."""
    out: list[tuple[str, ...]] = []
    for row in rows:
        cells: list[str] = []
        for value in row:
            if value is None:
                cells.append("NULL")
            elif isinstance(value, bool):
                cells.append(str(value))
            elif isinstance(value, int | float | Decimal):
                cells.append(f"{float(value):.4f}")
            elif isinstance(value, datetime | date):
                cells.append(value.isoformat())
            else:
                cells.append(str(value))
        out.append(tuple(cells))
    return sorted(out)
