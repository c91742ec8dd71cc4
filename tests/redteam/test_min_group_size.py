"""Aggregate-only tables: groups of fewer than ``min_group_size`` rows are suppressed on both
engines (security review, item 2: ``HAVING count(*) = 1`` used to return single orders)."""

from __future__ import annotations

import duckdb
import pytest

from baton.policy import Policy
from baton.sql import approve
from tests.redteam.cases import DIALECTS
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row

SINGLE_ORDERS = (
    "SELECT order_date, channel, region, category, user_type, status, sum(gmv_amount), count(*) AS c "
    "FROM fact_order GROUP BY 1, 2, 3, 4, 5, 6 HAVING count(*) = 1"
)
ALL_GROUPS = "SELECT region, status, count(*) AS c FROM fact_order GROUP BY region, status"
ONE_DAY = "SELECT count(*) AS c, sum(gmv_amount) FROM fact_order WHERE order_date = DATE '2026-09-02'"


def _run(sql: str, dialect: str, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> list[Row]:
    if dialect == "duckdb":
        return [tuple(row) for row in con.execute(sql).fetchall()]
    return pg.query(sql)


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("query", "count_column"), [(SINGLE_ORDERS, 7), (ALL_GROUPS, 2), (ONE_DAY, 0)])
def test_no_group_smaller_than_k_is_returned(
    dialect: str,
    query: str,
    count_column: int,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    marketing = demo_policy.principal("marketing")
    k = marketing.aggregate_only["fact_order"].min_group_size
    assert k == 10
    admin = approve(query, principal=demo_policy.principal("admin"), schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
    unrestricted = _run(admin.sql, dialect, duckdb_readonly, postgres_warehouse)
    small = [row for row in unrestricted if row[count_column] < k]
    assert small, "the fixture must have small groups, or this test proves nothing"

    approved = approve(query, principal=marketing, schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
    assert approved.min_group_sizes == {"fact_order": k}
    assert "min_group_size" in approved.checks_passed
    rows = _run(approved.sql, dialect, duckdb_readonly, postgres_warehouse)
    assert all(row[count_column] >= k for row in rows)
    assert sorted(map(repr, rows)) == sorted(repr(row) for row in unrestricted if row[count_column] >= k)


def test_tables_without_aggregate_only_are_not_suppressed(demo_policy: Policy) -> None:
    admin = demo_policy.principal("admin")
    approved = approve(SINGLE_ORDERS, principal=admin, schema=SCHEMA)
    assert approved.min_group_sizes == {} and "min_group_size" not in approved.checks_passed
    assert "HAVING COUNT(*) = 1" in approved.sql.upper().replace('"', "")
