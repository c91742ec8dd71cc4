"""Write a simulated :class:`~baton.demo.simulate.World` into DuckDB with the contract schema.

Arrays go in as numpy (DuckDB scans a dict of numpy arrays directly, no pandas needed); member
codes become strings, day numbers dates and cents DECIMALs inside SQL, which is far faster
than building Python strings row by row.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import duckdb
import numpy as np

from baton.demo.people import (
    CITY_LIST,
    EMAIL_DOMAINS,
    GIVEN_CHARS,
    PHONE_PREFIXES,
    SURNAMES,
)
from baton.demo.simulate import World
from baton.demo.world import AS_OF, CATEGORIES, CHANNELS, DATA_START, REGIONS, STATUSES, USER_TYPES

TABLES = ("dim_user", "dim_product", "fact_order", "fact_traffic")

LOAD_TIMES: dict[str, dt.time] = {
    "dim_product": dt.time(2, 5, 12),
    "dim_user": dt.time(2, 8, 47),
    "fact_traffic": dt.time(2, 14, 3),
    "fact_order": dt.time(2, 31, 26),
}
"""When the nightly job finished loading each table on the as-of date."""

SCHEMA: dict[str, tuple[tuple[str, str], ...]] = {
    "dim_user": (
        ("user_id", "BIGINT"), ("signup_date", "DATE"), ("signup_channel", "VARCHAR"),
        ("region", "VARCHAR"), ("city", "VARCHAR"), ("name", "VARCHAR"), ("phone", "VARCHAR"),
        ("email", "VARCHAR"),
    ),
    "dim_product": (
        ("product_id", "BIGINT"), ("product_name", "VARCHAR"), ("category", "VARCHAR"),
        ("brand", "VARCHAR"), ("list_price", "DECIMAL(12,2)"),
    ),
    "fact_order": (
        ("order_id", "BIGINT"), ("user_id", "BIGINT"), ("product_id", "BIGINT"), ("order_date", "DATE"),
        ("order_ts", "TIMESTAMP"), ("channel", "VARCHAR"), ("region", "VARCHAR"), ("category", "VARCHAR"),
        ("user_type", "VARCHAR"), ("quantity", "INTEGER"), ("gmv_amount", "DECIMAL(14,2)"),
        ("discount_amount", "DECIMAL(14,2)"), ("status", "VARCHAR"), ("updated_at", "TIMESTAMP"),
    ),
    "fact_traffic": (
        ("visit_date", "DATE"), ("channel", "VARCHAR"), ("region", "VARCHAR"), ("user_type", "VARCHAR"),
        ("visitors", "BIGINT"), ("sessions", "BIGINT"),
    ),
    "meta_table_load": (("table_name", "VARCHAR"), ("loaded_at", "TIMESTAMP"), ("max_data_date", "DATE")),
}  # fmt: skip
"""The warehouse contract: exact column names and DuckDB types, in order."""


def _list(values: tuple[str, ...]) -> str:
    """A SQL list literal; index it 1-based with ``code + 1``."""
    quoted = ", ".join("'" + value.replace("'", "''") + "'" for value in values)
    return f"[{quoted}]"


def _day(column: str) -> str:
    return f"(DATE '{DATA_START.isoformat()}' + CAST({column} AS INTEGER))"


def _member(values: tuple[str, ...], column: str) -> str:
    return f"CAST({_list(values)}[{column} + 1] AS VARCHAR)"


def _money(column: str, precision: int) -> str:
    return f"CAST({column} / 100.0 AS DECIMAL({precision},2))"


def _create_from_arrays(con: duckdb.DuckDBPyConnection, table: str, arrays: dict[str, Any], select: str) -> None:
    view = f"_src_{table}"
    con.register(view, arrays)
    try:
        con.execute(f"CREATE TABLE {table} AS SELECT {select} FROM {view}")
    finally:
        con.unregister(view)


def write_world(con: duckdb.DuckDBPyConnection, world: World) -> None:
    """Create the four data tables and meta_table_load in ``con``."""
    _write_products(con, world)
    _write_users(con, world)
    _write_traffic(con, world)
    _write_orders(con, world)
    _write_load_log(con)


def _write_products(con: duckdb.DuckDBPyConnection, world: World) -> None:
    products = world.products
    n = products.category.shape[0]
    arrays = {
        "product_id": np.arange(1, n + 1, dtype=np.int64),
        "name_code": np.arange(n, dtype=np.int64),
        "category": products.category,
        "price_cents": np.round(products.list_price * 100).astype(np.int64),
    }
    select = f"""
        product_id,
        CAST({_list(products.names)}[name_code + 1] AS VARCHAR) AS product_name,
        {_member(CATEGORIES, "category")} AS category,
        CAST({_list(products.brand)}[name_code + 1] AS VARCHAR) AS brand,
        {_money("price_cents", 12)} AS list_price"""
    _create_from_arrays(con, "dim_product", arrays, select)


def _write_users(con: duckdb.DuckDBPyConnection, world: World) -> None:
    users = world.users
    codes = users.codes
    n = users.signup_day.shape[0]
    arrays = {
        "user_id": np.arange(1, n + 1, dtype=np.int64),
        "day": users.signup_day,
        "channel": users.channel,
        "region": users.region,
        "city": codes.city,
        "surname": codes.surname,
        "given1": codes.given1,
        "given2": codes.given2,
        "phone_prefix": codes.phone_prefix,
        "phone_number": codes.phone_number,
        "email_domain": codes.email_domain,
        "email_suffix": codes.email_suffix,
        "qq_number": codes.qq_number,
    }
    surname_zh = _list(tuple(zh for zh, _ in SURNAMES))
    surname_py = _list(tuple(py for _, py in SURNAMES))
    given_zh = _list(tuple(zh for zh, _ in GIVEN_CHARS))
    given_py = _list(tuple(py for _, py in GIVEN_CHARS))
    domain = _member(EMAIL_DOMAINS, "email_domain")
    select = f"""
        user_id,
        {_day("day")} AS signup_date,
        {_member(CHANNELS, "channel")} AS signup_channel,
        {_member(REGIONS, "region")} AS region,
        {_member(CITY_LIST, "city")} AS city,
        CAST({surname_zh}[surname + 1] || {given_zh}[given1 + 1]
             || CASE WHEN given2 >= 0 THEN {given_zh}[given2 + 1] ELSE '' END AS VARCHAR) AS name,
        CAST({_list(PHONE_PREFIXES)}[phone_prefix + 1] || lpad(CAST(phone_number AS VARCHAR), 8, '0')
             AS VARCHAR) AS phone,
        CAST(CASE WHEN email_domain = 0 THEN CAST(qq_number AS VARCHAR)
             ELSE {surname_py}[surname + 1] || {given_py}[given1 + 1]
                  || CASE WHEN given2 >= 0 THEN {given_py}[given2 + 1] ELSE '' END
                  || CASE WHEN email_suffix >= 0 THEN CAST(email_suffix AS VARCHAR) ELSE '' END
             END || '@' || {domain} AS VARCHAR) AS email"""
    _create_from_arrays(con, "dim_user", arrays, select)


def _write_traffic(con: duckdb.DuckDBPyConnection, world: World) -> None:
    traffic = world.traffic
    arrays = {
        "day": traffic.day,
        "channel": traffic.channel,
        "region": traffic.region,
        "user_type": traffic.user_type,
        "visitors": traffic.visitors,
        "sessions": traffic.sessions,
    }
    select = f"""
        {_day("day")} AS visit_date,
        {_member(CHANNELS, "channel")} AS channel,
        {_member(REGIONS, "region")} AS region,
        {_member(USER_TYPES, "user_type")} AS user_type,
        CAST(visitors AS BIGINT) AS visitors,
        CAST(sessions AS BIGINT) AS sessions"""
    _create_from_arrays(con, "fact_traffic", arrays, select)


def _write_orders(con: duckdb.DuckDBPyConnection, world: World) -> None:
    orders = world.orders
    arrays = {
        "order_id": orders.order_id,
        "user_id": orders.user_id,
        "product_id": orders.product_id,
        "day": orders.day,
        "ts_us": orders.ts_us,
        "channel": orders.channel,
        "region": orders.region,
        "category": orders.category,
        "user_type": orders.user_type,
        "quantity": orders.quantity,
        "gmv_cents": orders.gmv_cents,
        "discount_cents": orders.discount_cents,
        "status": orders.status,
        "updated_us": orders.updated_us,
    }
    select = f"""
        order_id,
        user_id,
        product_id,
        {_day("day")} AS order_date,
        make_timestamp(ts_us) AS order_ts,
        {_member(CHANNELS, "channel")} AS channel,
        {_member(REGIONS, "region")} AS region,
        {_member(CATEGORIES, "category")} AS category,
        {_member(USER_TYPES, "user_type")} AS user_type,
        CAST(quantity AS INTEGER) AS quantity,
        {_money("gmv_cents", 14)} AS gmv_amount,
        {_money("discount_cents", 14)} AS discount_amount,
        {_member(STATUSES, "status")} AS status,
        make_timestamp(updated_us) AS updated_at"""
    _create_from_arrays(con, "fact_order", arrays, select)


def _write_load_log(con: duckdb.DuckDBPyConnection) -> None:
    """One row per data table; max_data_date is read back from the table itself."""
    con.execute("CREATE TABLE meta_table_load (table_name VARCHAR, loaded_at TIMESTAMP, max_data_date DATE)")
    snapshot = AS_OF - dt.timedelta(days=1)
    max_dates = {
        "dim_user": "SELECT max(signup_date) FROM dim_user",
        "fact_order": "SELECT max(order_date) FROM fact_order",
        "fact_traffic": "SELECT max(visit_date) FROM fact_traffic",
        "dim_product": f"SELECT DATE '{snapshot.isoformat()}'",  # a snapshot: current as of the load
    }
    for table in TABLES:
        loaded_at = dt.datetime.combine(AS_OF, LOAD_TIMES[table])
        con.execute(
            f"INSERT INTO meta_table_load SELECT ?, ?, ({max_dates[table]})",
            [table, loaded_at],
        )
