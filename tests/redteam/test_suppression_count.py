"""The firewall counts the groups the minimum group size suppressed (``suppression_sql``).

It builds, from the secured statement, a companion that counts the groups the ``HAVING
COUNT(*) >= k`` floor removed at the statement's own level; the runner executes it right after
the main statement and fills ``QueryResult.suppressed_groups``. The count must equal the number
of groups of fewer than k rows in the same query run unrestricted (as admin), on DuckDB and on
PostgreSQL. (What an answer says about them is ``test_suppressed_groups.py``.)
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from baton.contracts.common import Dialect
from baton.policy import Policy, Principal
from baton.sql import ApprovalRegistry, approve
from baton.warehouse.duckdb_backend import DuckDBBackend
from baton.warehouse.engine import Backend
from baton.warehouse.postgres_backend import PostgresBackend
from baton.warehouse.runner import Runner
from tests.redteam.cases import DIALECTS
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row, build_duckdb

K = 10

# name -> (query as marketing, the user's own HAVING condition if any)
QUERIES: dict[str, tuple[str, str | None]] = {
    "grouped": ("SELECT region, status, count(*) AS c FROM fact_order GROUP BY region, status", None),
    "fine_grained": (
        "SELECT order_date, channel, sum(gmv_amount) AS g FROM fact_order WHERE status = 'paid' "
        "GROUP BY order_date, channel ORDER BY g DESC LIMIT 5",
        None,
    ),
    "with_having": (
        "SELECT region, channel, sum(gmv_amount) AS g FROM fact_order GROUP BY region, channel "
        "HAVING sum(gmv_amount) > 500",
        "sum(gmv_amount) > 500",
    ),
    "distinct": ("SELECT DISTINCT region, category FROM fact_order", None),
    "one_group": ("SELECT count(*), sum(gmv_amount) FROM fact_order WHERE order_date = DATE '2026-09-02'", None),
}


def _group_sizes(sql: str, having: str | None) -> str:
    """The admin query listing every group's size and whether the user's own HAVING holds."""
    kept = f"CASE WHEN {having} THEN 1 ELSE 0 END" if having else "1"
    base = sql.split(" ORDER BY ", maxsplit=1)[0].split(" HAVING ", maxsplit=1)[0]
    if base.startswith("SELECT DISTINCT "):
        columns = base.removeprefix("SELECT DISTINCT ").split(" FROM ")[0]
        base = f"SELECT {columns} FROM fact_order GROUP BY {columns}"
    _, _, rest = base.partition(" FROM ")
    return f"SELECT count(*) AS n, {kept} AS kept FROM {rest}"


def _run(sql: str, dialect: Dialect, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> list[Row]:
    if dialect == "duckdb":
        return [tuple(row) for row in con.execute(sql).fetchall()]
    return pg.query(sql)


def _small_groups(
    sql: str,
    having: str | None,
    dialect: Dialect,
    policy: Policy,
    con: duckdb.DuckDBPyConnection,
    pg: PostgresWarehouse,
) -> int:
    admin = approve(_group_sizes(sql, having), principal=policy.principal("admin"), schema=SCHEMA, dialect=dialect)
    return sum(1 for n, kept in _run(admin.sql, dialect, con, pg) if n < K and kept)


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_companion_counts_exactly_the_groups_below_k(
    name: str,
    dialect: Dialect,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    sql, having = QUERIES[name]
    approved = approve(sql, principal=demo_policy.principal("marketing"), schema=SCHEMA, dialect=dialect)
    assert approved.suppression_sql is not None
    ((count,),) = _run(approved.suppression_sql, dialect, duckdb_readonly, postgres_warehouse)
    expected = _small_groups(sql, having, dialect, demo_policy, duckdb_readonly, postgres_warehouse)
    assert count == expected
    if name in {"grouped", "fine_grained"}:
        assert expected > 0, "the fixture must have small groups, or this test proves nothing"


BOUND_OVER_GROUPS = (
    "SELECT * FROM (SELECT region, channel, count(*) AS c FROM fact_order GROUP BY region, channel) AS grouped "
    "WHERE c < 15 ORDER BY c"
)
"""What a bound over the groups compiles to ("订单量少于15的区域和渠道"): the floor sits one level down."""


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_bound_over_the_groups_counts_every_hidden_group(
    dialect: Dialect,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    """The grouped level's rows reach the result one for one through a level that only filters
    them: its hidden groups are counted (all of them — the bound is not evaluated on a hidden
    group), so an answer never says "no group is below 15" while groups of 3 orders are hidden."""
    approved = approve(BOUND_OVER_GROUPS, principal=demo_policy.principal("marketing"), schema=SCHEMA, dialect=dialect)
    assert approved.suppression_sql is not None
    ((count,),) = _run(approved.suppression_sql, dialect, duckdb_readonly, postgres_warehouse)
    sizes = "SELECT count(*) AS n, 1 AS kept FROM fact_order GROUP BY region, channel"
    admin = approve(sizes, principal=demo_policy.principal("admin"), schema=SCHEMA, dialect=dialect)
    expected = sum(1 for n, _ in _run(admin.sql, dialect, duckdb_readonly, postgres_warehouse) if n < K)
    assert count == expected > 0


def test_no_companion_without_suppression_or_below_the_outermost_level(demo_policy: Policy) -> None:
    admin = approve(
        "SELECT region, count(*) FROM fact_order GROUP BY region",
        principal=demo_policy.principal("admin"),
        schema=SCHEMA,
    )
    assert admin.suppression_sql is None and admin.min_group_sizes == {}
    nested = approve(
        "SELECT max(g) FROM (SELECT region, sum(gmv_amount) AS g FROM fact_order GROUP BY region) t",
        principal=demo_policy.principal("marketing"),
        schema=SCHEMA,
    )
    assert nested.min_group_sizes == {"fact_order": K}
    assert nested.suppression_sql is None  # a nested level's groups are not the result's rows: not counted
    joined = approve(
        "SELECT t.region, t.g, v.n FROM (SELECT region, sum(gmv_amount) AS g FROM fact_order GROUP BY region) t "
        "JOIN (SELECT region, sum(visitors) AS n FROM fact_traffic GROUP BY region) v ON t.region = v.region",
        principal=demo_policy.principal("marketing"),
        schema=SCHEMA,
    )
    assert joined.suppression_sql is None  # a wrapper that joins: its rows are not the groups one for one


def test_the_companion_reads_the_secured_rows(tmp_path: Path, fixture_rows: dict[str, list[Row]]) -> None:
    """A user both row-filtered and aggregate-only: only rows of their region are counted."""
    policy = Policy.model_validate(
        {
            "version": "t1",
            "default_user": "east",
            "roles": {
                "east_marketing": {
                    "tables": {
                        "fact_order": {
                            "row_filter": {"region": ["华东"]},
                            "aggregate_only": {"dimensions": ["region", "channel", "status"], "min_group_size": K},
                        }
                    }
                }
            },
            "users": {"east": {"roles": ["east_marketing"]}},
        }
    )
    east: Principal = policy.principal("east")
    sql = "SELECT channel, status, count(*) AS c FROM fact_order GROUP BY channel, status"
    approved = approve(sql, principal=east, schema=SCHEMA)
    assert approved.suppression_sql is not None and "华东" in approved.suppression_sql
    con = duckdb.connect(str(build_duckdb(tmp_path / "w.duckdb", fixture_rows)), read_only=True)
    try:
        ((count,),) = con.execute(approved.suppression_sql).fetchall()
        groups = con.execute(
            "SELECT count(*) FROM fact_order WHERE region = '华东' GROUP BY channel, status HAVING count(*) < 10"
        ).fetchall()
    finally:
        con.close()
    assert count == len(groups) > 0


# -- the runner --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def backends(
    tmp_path_factory: pytest.TempPathFactory, fixture_rows: dict[str, list[Row]], postgres_warehouse: PostgresWarehouse
) -> Iterator[dict[str, Backend]]:
    duck = DuckDBBackend(build_duckdb(tmp_path_factory.mktemp("suppressed") / "warehouse.duckdb", fixture_rows))
    pg = PostgresBackend(postgres_warehouse.dsn)
    yield {"duckdb": duck, "postgres": pg}
    duck.close()
    pg.close()


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_runner_fills_the_count_and_caches_it(
    dialect: Dialect,
    backends: dict[str, Backend],
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    sql, having = QUERIES["grouped"]
    registry = ApprovalRegistry()
    runner = Runner(backends[dialect], registry, timeout_s=30, row_cap=1000)
    approved = approve(sql, principal=demo_policy.principal("marketing"), schema=SCHEMA, dialect=dialect)
    registry.register(approved)
    result = runner.run(approved.approved_sql_id, user="marketing")
    expected = _small_groups(sql, having, dialect, demo_policy, duckdb_readonly, postgres_warehouse)
    assert (result.min_group_size, result.suppressed_groups) == (K, expected)
    assert all(row[2] >= K for row in result.rows)
    again = runner.run(approved.approved_sql_id, user="marketing")
    assert again.cached and (again.min_group_size, again.suppressed_groups) == (K, expected)

    plain = approve(sql, principal=demo_policy.principal("admin"), schema=SCHEMA, dialect=dialect)
    registry.register(plain)
    unrestricted = runner.run(plain.approved_sql_id, user="admin")
    assert (unrestricted.min_group_size, unrestricted.suppressed_groups) == (None, None)
