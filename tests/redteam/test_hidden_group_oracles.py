"""Issue 14, finding 7 (second read): a group the minimum group size hides must not answer
questions through the side doors — neither the count of hidden groups nor an error raised while
evaluating the user's HAVING on it may depend on the hidden group's values."""

from __future__ import annotations

import duckdb
import pytest

from baton.policy import Policy
from baton.sql import approve
from tests.redteam.cases import DIALECTS
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row

KEYS = "order_date, channel, region, category, user_type, status"


def _run(sql: str, dialect: str, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> list[Row]:
    if dialect == "duckdb":
        return [tuple(row) for row in con.execute(sql).fetchall()]
    return pg.query(sql)


def _single_order(demo_policy: Policy, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> tuple[str, float]:
    """A WHERE clause isolating a group of one order, and that order's amount (read as admin)."""
    admin = demo_policy.principal("admin")
    sql = f"SELECT {KEYS}, sum(gmv_amount) FROM fact_order GROUP BY {KEYS} HAVING count(*) = 1 ORDER BY 7 LIMIT 1"
    row = _run(approve(sql, principal=admin, schema=SCHEMA).sql, "duckdb", con, pg)[0]
    names = [k.strip() for k in KEYS.split(",")]
    where = " AND ".join(
        f"{name} = DATE '{value}'" if name == "order_date" else f"{name} = '{value}'"
        for name, value in zip(names, row[:6], strict=True)
    )
    return where, float(row[6])


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_hidden_group_values_do_not_change_the_count_or_raise(
    dialect: str,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    marketing = demo_policy.principal("marketing")
    where, amount = _single_order(demo_policy, duckdb_readonly, postgres_warehouse)
    counts, outcomes = [], []
    for threshold in (amount - 0.01, amount + 0.01):  # the hidden order is above the first, below the second
        having = f"SELECT region FROM fact_order WHERE {where} GROUP BY region HAVING sum(gmv_amount) > {threshold}"
        approved = approve(having, principal=marketing, schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
        assert approved.suppression_sql is not None
        counts.append(_run(approved.suppression_sql, dialect, duckdb_readonly, postgres_warehouse))
        failing = (
            f"SELECT region FROM fact_order WHERE {where} GROUP BY region "
            f"HAVING CASE WHEN sum(gmv_amount) > {threshold} THEN CAST('x' || region AS INTEGER) ELSE 1 END = 1"
        )
        oracle = approve(failing, principal=marketing, schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
        outcomes.append(_run(oracle.sql, dialect, duckdb_readonly, postgres_warehouse))  # must not raise
    assert counts[0] == counts[1] == [(1,)]  # one hidden group, whatever the condition on its SUM
    assert outcomes == [[], []]


@pytest.mark.parametrize("function", ["max", "min", "any_value"])
def test_order_statistics_of_a_measure_are_refused(function: str, demo_policy: Policy) -> None:
    from baton.sql import FirewallError

    with pytest.raises(FirewallError) as caught:
        approve(
            f"SELECT region, {function}(gmv_amount) FROM fact_order GROUP BY region",
            principal=demo_policy.principal("marketing"),
            schema=SCHEMA,
        )
    assert caught.value.error_code == "detail_not_permitted"
    assert "SUM, AVG" in caught.value.message("en") and "不允许" in caught.value.message("zh")
