"""Small SQL helpers for the demo tests: the catalog's metric definitions, written out by hand."""

from __future__ import annotations

import datetime as dt

import duckdb

from baton.demo.generator import DemoBuild

COUNTED = "status IN ('paid', 'refunded')"


def connect(build: DemoBuild) -> duckdb.DuckDBPyConnection:
    return duckdb.connect(str(build.warehouse), read_only=True)


def scalar(con: duckdb.DuckDBPyConnection, sql: str, params: list[object] | None = None) -> float:
    row = con.execute(sql, params or []).fetchone()
    assert row is not None and row[0] is not None, sql
    return float(row[0])


def where_sql(where: dict[str, str], *, traffic: bool = False, rest: bool = False) -> str:
    """AND-ed equality filters (``rest``: everything outside them); on fact_traffic the category
    filter is dropped (no such column)."""
    parts = [f"{dim} = '{member}'" for dim, member in where.items() if not (traffic and dim == "category")]
    if not parts:
        return "TRUE"  # no filter on this table: its rest is all of it
    inside = " AND ".join(parts)
    return f"NOT ({inside})" if rest else inside


def metric(
    con: duckdb.DuckDBPyConnection,
    name: str,
    where: dict[str, str],
    start: dt.date,
    end: dt.date,
    *,
    rest: bool = False,
) -> float:
    """visitors, conversion (orders / visitors), order_value (GMV / orders), refund_rate or gmv
    of the slice ``where`` (``rest``: of everything outside it)."""
    orders_filter = f"order_date BETWEEN ? AND ? AND {where_sql(where, rest=rest)}"
    if name == "traffic":
        return scalar(
            con,
            f"SELECT sum(visitors) FROM fact_traffic WHERE visit_date BETWEEN ? AND ? "
            f"AND {where_sql(where, traffic=True, rest=rest)}",
            [start, end],
        )
    if name == "conversion":
        orders = scalar(con, f"SELECT count(*) FROM fact_order WHERE {COUNTED} AND {orders_filter}", [start, end])
        return orders / metric(con, "traffic", where, start, end, rest=rest)
    if name == "order_value":
        return scalar(
            con, f"SELECT sum(gmv_amount) / count(*) FROM fact_order WHERE {COUNTED} AND {orders_filter}", [start, end]
        )
    if name == "refund_rate":
        return scalar(
            con,
            f"SELECT count(*) FILTER (WHERE status = 'refunded') / count(*) FROM fact_order "
            f"WHERE {COUNTED} AND {orders_filter}",
            [start, end],
        )
    if name == "gmv":
        return scalar(con, f"SELECT sum(gmv_amount) FROM fact_order WHERE {COUNTED} AND {orders_filter}", [start, end])
    raise ValueError(name)
