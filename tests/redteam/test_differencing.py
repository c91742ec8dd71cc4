"""Differencing under min_group_size (red-team review, issue 14, finding 7).

Marketing may read ``fact_order`` only as aggregates of at least k = 10 orders. Two approved
aggregates subtracted in one statement, a ROLLUP parent minus its children or an aggregate with
a condition inside isolate a group the ``HAVING COUNT(*) >= k`` floor never sees. Each attack is
shown to work when computed without the rules (as admin, on both engines) and to be refused as
marketing; what Baton itself compiles for marketing keeps running.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from baton.catalog.compiler import compile_query
from baton.catalog.loader import load_catalog
from baton.contracts.common import Dialect
from baton.contracts.semantic import Comparison, MemberFilter, SemanticQuery, TimeRange
from baton.policy import Policy
from baton.sql import FirewallError, approve
from tests.redteam.cases import DIALECTS
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row, normalise

CATALOG = load_catalog(Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "catalog.yaml")
LARGE = CATALOG.large_tables()
AS_OF = date(2026, 12, 1)
OCTOBER = TimeRange(start=date(2026, 10, 1), end=date(2026, 10, 31))
SEPTEMBER = Comparison(kind="previous_period", range=TimeRange(start=date(2026, 9, 1), end=date(2026, 9, 30)))


def _run(sql: str, dialect: Dialect, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> list[Row]:
    if dialect == "duckdb":
        return [tuple(row) for row in con.execute(sql).fetchall()]
    return pg.query(sql)


def _as_admin(
    sql: str, dialect: Dialect, policy: Policy, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse
) -> list[Row]:
    approved = approve(sql, principal=policy.principal("admin"), schema=SCHEMA, dialect=dialect)
    return _run(approved.sql, dialect, con, pg)


def _refused_for_marketing(sql: str, dialect: Dialect, policy: Policy) -> FirewallError:
    with pytest.raises(FirewallError) as caught:
        approve(sql, principal=policy.principal("marketing"), schema=SCHEMA, dialect=dialect)
    assert caught.value.error_code == "detail_not_permitted", caught.value.message("en")
    assert "不允许" in caught.value.message("zh")
    return caught.value


@pytest.fixture(scope="module")
def lonely_order(duckdb_readonly: duckdb.DuckDBPyConnection) -> tuple[str, str, date, Decimal]:
    """(region, channel, day, amount) of an order that is alone in its region, channel and day."""
    row = duckdb_readonly.execute(
        "SELECT region, channel, order_date, sum(gmv_amount) FROM fact_order "
        "GROUP BY region, channel, order_date HAVING count(*) = 1 ORDER BY 1, 2, 3 LIMIT 1"
    ).fetchone()
    assert row is not None, "the fixture must have an order alone in its group, or this test proves nothing"
    return str(row[0]), str(row[1]), row[2], Decimal(str(row[3]))


def _isolating(order: tuple[str, str, date, Decimal]) -> str:
    region, channel, day, _amount = order
    return f"region = '{region}' AND channel = '{channel}' AND order_date = DATE '{day.isoformat()}'"


def _attacks(order: tuple[str, str, date, Decimal]) -> Iterator[tuple[str, str]]:
    group = _isolating(order)
    yield (
        "two scans subtracted",
        f"SELECT (SELECT sum(gmv_amount) FROM fact_order) - (SELECT sum(gmv_amount) FROM fact_order WHERE NOT ({group}))",
    )
    yield (
        "two CTEs subtracted",
        f"WITH a AS (SELECT sum(gmv_amount) AS g FROM fact_order), b AS (SELECT sum(gmv_amount) AS g FROM fact_order "
        f"WHERE NOT ({group})) SELECT a.g - b.g FROM a CROSS JOIN b",
    )
    yield ("FILTER", f"SELECT sum(gmv_amount) FILTER (WHERE {group}) FROM fact_order")
    yield ("CASE", f"SELECT sum(CASE WHEN {group} THEN gmv_amount END) FROM fact_order")
    yield ("boolean cast", f"SELECT sum(gmv_amount * CAST(({group}) AS INT)) FROM fact_order")
    yield (
        "total minus FILTER",
        f"SELECT sum(gmv_amount) - sum(gmv_amount) FILTER (WHERE NOT ({group})) FROM fact_order",
    )


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_each_differencing_attack_would_reveal_one_order_and_is_refused(
    dialect: Dialect,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
    lonely_order: tuple[str, str, date, Decimal],
) -> None:
    amount = lonely_order[3]
    for label, sql in _attacks(lonely_order):
        revealed = _as_admin(sql, dialect, demo_policy, duckdb_readonly, postgres_warehouse)
        assert Decimal(str(revealed[0][0])) == amount, label  # without the rules, one order's exact amount
        _refused_for_marketing(sql, dialect, demo_policy)


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_rollup_parent_minus_its_children_would_reveal_suppressed_groups_and_is_refused(
    dialect: Dialect,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    rollup = (
        "SELECT region, channel, count(*) AS n, sum(gmv_amount) AS g FROM fact_order "
        "GROUP BY ROLLUP (region, channel) HAVING count(*) >= 10"
    )
    rows = _as_admin(rollup, dialect, demo_policy, duckdb_readonly, postgres_warehouse)
    parents = {r[0]: r[2] for r in rows if r[0] is not None and r[1] is None}
    children: dict[str, int] = {}
    for r in rows:
        if r[0] is not None and r[1] is not None:
            children[r[0]] = children.get(r[0], 0) + r[2]
    hidden = {region: parents[region] - children.get(region, 0) for region in parents}
    assert any(0 < n < 10 for n in hidden.values()), "the parent minus its children must expose a small group"
    for grouping in (
        "ROLLUP (region, channel)",
        "CUBE (region, channel)",
        "GROUPING SETS ((region), (region, channel))",
    ):
        _refused_for_marketing(
            f"SELECT region, channel, count(*), sum(gmv_amount) FROM fact_order GROUP BY {grouping}",
            dialect,
            demo_policy,
        )


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_arithmetic_between_plain_aggregates_of_one_scan_stays_allowed(
    dialect: Dialect,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    sql = (
        "SELECT region, sum(gmv_amount) / count(*) AS aov, sum(gmv_amount) - sum(discount_amount) AS net, "
        "sum(gmv_amount - discount_amount) AS net2, count(DISTINCT user_id) AS buyers "
        "FROM fact_order WHERE status IN ('paid', 'refunded') GROUP BY region"
    )
    marketing = approve(sql, principal=demo_policy.principal("marketing"), schema=SCHEMA, dialect=dialect)
    got = normalise(_run(marketing.sql, dialect, duckdb_readonly, postgres_warehouse))
    want = normalise(
        _as_admin(sql + " HAVING count(*) >= 10", dialect, demo_policy, duckdb_readonly, postgres_warehouse)
    )
    assert got == want and got


# -- what Baton compiles for marketing ----------------------------------------------------------

ALLOWED_METRICS = ("gmv", "order_count", "buyer_count", "aov", "gmv_per_buyer", "discount_amount", "net_revenue")
SHAPES: dict[str, dict[str, object]] = {
    "total": {},
    "daily": {"grain": "day"},
    "weekly_by_channel": {"grain": "week", "dimensions": ("channel",)},
    "by_region_and_channel": {"dimensions": ("region", "channel")},
    "filtered": {"dimensions": ("region",), "filters": (MemberFilter(dimension="channel", members=("app", "web")),)},
    "top_3_regions": {"dimensions": ("region",), "top_n": 3},
    "month_on_month": {"comparison": SEPTEMBER},
    "month_on_month_by_channel": {"comparison": SEPTEMBER, "dimensions": ("channel",)},
}


def _semantic(metrics: tuple[str, ...], shape: dict[str, object]) -> SemanticQuery:
    return SemanticQuery.model_validate({"metrics": metrics, "time_range": OCTOBER, "as_of": AS_OF, **shape})


def _compiled_cases() -> list[tuple[str, tuple[str, ...], dict[str, object]]]:
    cases: list[tuple[str, tuple[str, ...], dict[str, object]]] = [
        (f"{m}:{name}", (m,), shape) for m in ALLOWED_METRICS for name, shape in SHAPES.items()
    ]
    cases += [(f"gmv+order_count+aov:{name}", ("gmv", "order_count", "aov"), shape) for name, shape in SHAPES.items()]
    cases.append(("conversion_rate:by_channel", ("conversion_rate",), {"dimensions": ("channel",)}))
    return cases


COMPILED = _compiled_cases()


@pytest.mark.postgres
@pytest.mark.parametrize(("metrics", "shape"), [(m, s) for _label, m, s in COMPILED], ids=[c[0] for c in COMPILED])
def test_compiled_catalog_queries_run_for_marketing_on_both_engines(
    metrics: tuple[str, ...],
    shape: dict[str, object],
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
) -> None:
    marketing = demo_policy.principal("marketing")
    results = {}
    engines: tuple[Dialect, ...] = ("duckdb", "postgres")
    for dialect in engines:
        # plain, as the ask path compiles for a user with a minimum group size (no zero-filled keys)
        compiled = compile_query(_semantic(metrics, shape), CATALOG, dialect=dialect, plain=True)
        approved = approve(compiled.sql, principal=marketing, schema=SCHEMA, dialect=dialect, large_tables=LARGE)
        assert approved.min_group_sizes == {"fact_order": 10}
        results[dialect] = normalise(_run(approved.sql, dialect, duckdb_readonly, postgres_warehouse))
    assert results["duckdb"] == results["postgres"]


REFUSED: dict[str, tuple[tuple[str, ...], dict[str, object]]] = {
    # a ratio whose parts filter differently compiles to aggregates with FILTER: each isolates a sub-group
    "refund_rate": (("refund_rate",), {}),
    "cancel_rate_by_region": (("cancel_rate",), {"dimensions": ("region",)}),
    # two metrics with different filters on one scan: the same
    "gmv_and_net_revenue": (("gmv", "net_revenue"), {}),
    # a share reads the table twice (the part and the whole): whole minus part is the rest
    "share_of_app": (
        ("gmv",),
        {
            "share": True,
            "dimensions": ("region",),
            "share_filters": (MemberFilter(dimension="channel", members=("app",)),),
        },
    ),
}


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("name", sorted(REFUSED))
def test_compiled_shapes_that_isolate_a_sub_group_are_refused_for_marketing(
    name: str, dialect: Dialect, demo_policy: Policy
) -> None:
    metrics, shape = REFUSED[name]
    compiled = compile_query(_semantic(metrics, shape), CATALOG, dialect=dialect, plain=True)
    with pytest.raises(FirewallError) as caught:
        approve(
            compiled.sql,
            principal=demo_policy.principal("marketing"),
            schema=SCHEMA,
            dialect=dialect,
            large_tables=LARGE,
        )
    assert caught.value.error_code == "detail_not_permitted"
    # the analyst, who may read detail rows, runs the same SQL
    approve(
        compiled.sql, principal=demo_policy.principal("analyst"), schema=SCHEMA, dialect=dialect, large_tables=LARGE
    )
