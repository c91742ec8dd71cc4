"""Cost gates on real engines (red-team review, issue 14, finding 6).

A CTE chain that doubles at each level is refused statically, before any engine plans it; the
engines' estimates reflect the rows a plan produces; every role has a cost budget and the
governed path estimates every statement, admin's included.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from baton.catalog.compiler import compile_query
from baton.catalog.loader import load_catalog
from baton.catalog.spine import MAX_PERIODS
from baton.contracts.common import Dialect
from baton.contracts.semantic import Comparison, MemberFilter, SemanticQuery, TimeRange
from baton.orchestrator.session import Session
from baton.policy import Policy
from baton.policy.model import DEFAULT_MAX_COST, Role
from baton.sql import FirewallError, approve
from baton.sql.growth import MAX_CONSTANT_ROWS, MAX_EXPANDED_SOURCES, measure_growth
from baton.warehouse.duckdb_backend import DuckDBBackend
from baton.warehouse.engine import Backend
from baton.warehouse.postgres_backend import PostgresBackend
from tests.redteam.cases import DIALECTS
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row, build_duckdb

CATALOG = load_catalog(Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "catalog.yaml")
LEVELS = 30
AS_OF = date(2026, 7, 1)


def union_chain(levels: int, materialized: str = "") -> str:
    """Each level reads the one before twice: 2^(levels + 1) rows from two constants."""
    ctes = ["a0 AS (SELECT 1 AS x UNION ALL SELECT 1)"]
    ctes += [
        f"a{i} AS {materialized}(SELECT x FROM a{i - 1} UNION ALL SELECT x FROM a{i - 1})" for i in range(1, levels + 1)
    ]
    return "WITH " + ", ".join(ctes) + f" SELECT count(*) FROM a{levels}"


def join_chain(levels: int, materialized: str = "") -> str:
    """Each level joins the one before with itself on a constant: the rows square at each level."""
    ctes = ["a0 AS (SELECT 1 AS x UNION ALL SELECT 1)"]
    ctes += [
        f"a{i} AS {materialized}(SELECT a{i - 1}.x FROM a{i - 1} JOIN a{i - 1} b ON a{i - 1}.x = b.x)"
        for i in range(1, levels + 1)
    ]
    return "WITH " + ", ".join(ctes) + f" SELECT count(*) FROM a{levels}"


def _never_called(sql: str) -> float:
    raise AssertionError(f"the engine was asked to plan a statement the firewall should refuse first: {sql[:80]}")


CHAINS = [
    pytest.param(union_chain, "", id="union"),
    pytest.param(join_chain, "", id="self-join"),
    pytest.param(union_chain, "NOT MATERIALIZED ", id="union-not-materialized"),
    pytest.param(join_chain, "NOT MATERIALIZED ", id="self-join-not-materialized"),
]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize(("chain", "materialized"), CHAINS)
def test_a_doubling_cte_chain_is_refused_before_the_engine_plans_it(
    chain: object, materialized: str, dialect: Dialect, demo_policy: Policy
) -> None:
    assert callable(chain)
    sql = chain(LEVELS, materialized)
    started = time.perf_counter()
    with pytest.raises(FirewallError) as caught:
        approve(
            sql, principal=demo_policy.principal("admin"), schema=SCHEMA, dialect=dialect, estimate_cost=_never_called
        )
    assert caught.value.error_code == "query_too_complex"
    assert time.perf_counter() - started < 5
    assert "不允许" in caught.value.message("zh") and "not permitted" in caught.value.message("en").lower()


@pytest.mark.parametrize(("sql", "sources", "rows"), [(union_chain(30), 2**31, 2**31), (join_chain(5), 64, 2**32)])
def test_growth_is_measured_as_if_every_cte_were_inlined(sql: str, sources: int, rows: int) -> None:
    growth = measure_growth(sqlglot.parse_one(sql, read="duckdb"))
    assert growth.sources == sources
    assert growth.constant_rows == rows


def test_short_chains_stay_under_the_bounds(demo_policy: Policy) -> None:
    """Three doublings (16 row sources, 256 rows from constants) are an honest query."""
    admin = demo_policy.principal("admin")
    for sql in (union_chain(3), join_chain(3)):
        approved = approve(sql, principal=admin, schema=SCHEMA)
        assert "growth_bounded" in approved.checks_passed


def _compiled_queries() -> Iterator[tuple[str, exp.Expr]]:
    june = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
    may = Comparison(kind="previous_period", range=TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31)))
    year = TimeRange(start=date(2025, 6, 1), end=date(2026, 5, 31))  # a daily spine of 365 periods
    app = (MemberFilter(dimension="channel", members=("app",)),)
    shapes: list[dict[str, object]] = [
        {},
        {"grain": "day"},
        {"grain": "day", "time_range": year, "dimensions": ("region",), "top_n": 3},
        {"grain": "day", "time_range": year, "share": True, "share_filters": app},
        {"dimensions": ("channel", "region")},
        {"comparison": may, "dimensions": ("channel",)},
        {"comparison": may, "grain": "week"},
        {
            "share": True,
            "dimensions": ("region",),
            "share_filters": (MemberFilter(dimension="channel", members=("app",)),),
        },
    ]
    for name in CATALOG.metrics:
        for shape in shapes:
            try:
                query = SemanticQuery.model_validate({"metrics": (name,), "time_range": june, "as_of": AS_OF, **shape})
                compiled = compile_query(query, CATALOG)
            except Exception:  # a shape this metric cannot take (a share of a ratio, a missing dimension)
                continue
            yield f"{name}:{sorted(shape)}", compiled.expression


def test_the_compilers_sql_stays_well_under_the_growth_bounds() -> None:
    measured = {label: measure_growth(expression) for label, expression in _compiled_queries()}
    assert len(measured) > 40
    worst = max(g.sources for g in measured.values())
    assert worst <= MAX_EXPANDED_SOURCES // 4, {k: g.sources for k, g in measured.items() if g.sources == worst}
    spines = {label: g.constant_rows for label, g in measured.items() if g.constant_rows > 1}
    assert spines and all(rows <= MAX_PERIODS for rows in spines.values())  # a series' spine of periods, no more
    assert MAX_CONSTANT_ROWS >= 10 * MAX_PERIODS


# -- the engines' estimates ------------------------------------------------------------------


@pytest.fixture(scope="module")
def duckdb_backend(tmp_path_factory: pytest.TempPathFactory, fixture_rows: dict[str, list[Row]]) -> Iterator[Backend]:
    backend = DuckDBBackend(build_duckdb(tmp_path_factory.mktemp("cost") / "warehouse.duckdb", fixture_rows))
    yield backend
    backend.close()


@pytest.fixture(scope="module")
def postgres_backend(postgres_warehouse: PostgresWarehouse) -> Iterator[Backend]:
    backend = PostgresBackend(postgres_warehouse.dsn)
    yield backend
    backend.close()


def _backend(dialect: Dialect, request: pytest.FixtureRequest) -> Backend:
    backend = request.getfixturevalue("duckdb_backend" if dialect == "duckdb" else "postgres_backend")
    assert isinstance(backend, DuckDBBackend | PostgresBackend)
    return backend


ORDERS = 320
CROSS = "SELECT count(*) FROM fact_order a, fact_order b, fact_order c"
SELF_JOINS = (
    "SELECT count(*) FROM fact_order a JOIN fact_order b ON a.region = b.region "
    "JOIN fact_order c ON b.status = c.status"
)


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_estimate_counts_the_rows_a_cross_product_makes(dialect: Dialect, request: pytest.FixtureRequest) -> None:
    """DuckDB gives no cardinality for CROSS_PRODUCT; PostgreSQL's total cost is ~1/100 of its rows."""
    assert _backend(dialect, request).explain_cost(CROSS) >= ORDERS**3 / 2  # the engine's estimate, not the count


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_the_estimate_counts_the_rows_of_a_doubling_union(dialect: Dialect, request: pytest.FixtureRequest) -> None:
    assert _backend(dialect, request).explain_cost(union_chain(20)) >= 2**21


@pytest.mark.postgres
@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_query_producing_huge_row_counts_is_refused_under_a_budget(
    dialect: Dialect, request: pytest.FixtureRequest, demo_policy: Policy
) -> None:
    backend = _backend(dialect, request)
    rows = backend.execute(SELF_JOINS, timeout_s=30, row_cap=1).rows[0][0]
    assert rows > 1_000_000  # the fixture's 320 orders, joined three times on few values
    budget = 100_000.0
    analyst = replace(demo_policy.principal("analyst"), max_cost=budget)
    with pytest.raises(FirewallError) as caught:
        approve(SELF_JOINS, principal=analyst, schema=SCHEMA, dialect=dialect, estimate_cost=backend.explain_cost)
    assert caught.value.error_code == "cost_exceeded"
    assert float(caught.value.detail["cost"]) > budget
    small = approve(
        "SELECT region, count(*) FROM fact_order GROUP BY region",
        principal=analyst,
        schema=SCHEMA,
        dialect=dialect,
        estimate_cost=backend.explain_cost,
    )
    assert small.estimated_cost is not None and small.estimated_cost < budget


# -- every role has a budget ------------------------------------------------------------------


def test_every_role_has_a_finite_cost_budget_and_admins_is_the_largest(demo_policy: Policy) -> None:
    assert math.isfinite(DEFAULT_MAX_COST) and DEFAULT_MAX_COST > 0
    assert Role(tables={}).max_cost == DEFAULT_MAX_COST
    with pytest.raises(ValueError):
        Role.model_validate({"tables": {}, "max_cost": None})
    costs = {user: demo_policy.principal(user).max_cost for user in demo_policy.users}
    assert all(cost is not None and math.isfinite(cost) for cost in costs.values()), costs
    assert costs["admin"] == max(costs.values()) and costs["admin"] > costs["analyst"]


def test_approve_estimates_whenever_an_estimator_is_given(demo_policy: Policy) -> None:
    admin = demo_policy.principal("admin")
    approved = approve("SELECT 1", principal=admin, schema=SCHEMA, estimate_cost=lambda _sql: 42.0)
    assert approved.estimated_cost == 42.0 and "cost_within_budget" in approved.checks_passed
    with pytest.raises(FirewallError) as caught:
        approve("SELECT 1", principal=admin, schema=SCHEMA, estimate_cost=lambda _sql: 1e30)
    assert caught.value.error_code == "cost_exceeded"


def test_the_governed_path_estimates_admins_statements(demo_session: Session) -> None:
    governed = demo_session.governed("admin", "en")
    approved = governed.approve(
        "SELECT region, count(*) FROM fact_order WHERE order_date >= DATE '2026-06-01' GROUP BY region",
        name="admin:regions",
    )
    assert approved.estimated_cost is not None and "cost_within_budget" in approved.checks_passed
    with pytest.raises(FirewallError) as caught:
        governed.approve(
            "SELECT count(*) FROM fact_order a JOIN fact_order b ON a.region = b.region "
            "JOIN fact_order c ON b.status = c.status "
            "WHERE a.order_date >= DATE '2000-01-01' AND b.order_date >= DATE '2000-01-01' "
            "AND c.order_date >= DATE '2000-01-01'",
            name="admin:blowup",
        )
    assert caught.value.error_code == "cost_exceeded"
