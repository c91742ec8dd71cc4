"""Firewall behaviour beyond the red-team table: limits, ids, partitions, cost, rewrites."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import duckdb
import pytest
import sqlglot
from sqlglot import exp

from baton.policy import Policy, load_policy
from baton.sql import FirewallError, approve
from tests.redteam.warehouse import SCHEMA, build_duckdb, build_rows

DEMO = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "policies.yaml"


@pytest.fixture(scope="module")
def policy() -> Policy:
    return load_policy(DEMO)


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    path = build_duckdb(tmp_path_factory.mktemp("fw") / "w.duckdb", build_rows())
    return duckdb.connect(str(path), read_only=True)


def test_limit_wraps_and_keeps_the_users_own_limit(policy: Policy, con: duckdb.DuckDBPyConnection) -> None:
    approved = approve(
        "SELECT order_id FROM fact_order ORDER BY order_id LIMIT 7",
        principal=policy.principal("analyst"),
        schema=SCHEMA,
        row_limit=5,
    )
    tree = sqlglot.parse_one(approved.sql, read="duckdb")
    assert isinstance(tree, exp.Select)
    assert tree.args["limit"].expression.name == "6"  # cap + 1: one extra row says "truncated"
    inner_limits = [
        s.args["limit"].expression.name for s in tree.find_all(exp.Select) if s is not tree and s.args.get("limit")
    ]
    assert inner_limits == ["7"]
    rows = con.execute(approved.sql).fetchall()
    assert [r[0] for r in rows] == [1, 2, 3, 4, 5, 6]
    assert approved.row_limit == 5


def test_limit_lets_the_runner_see_truncation_only_when_rows_were_cut(
    policy: Policy, con: duckdb.DuckDBPyConnection
) -> None:
    analyst = policy.principal("analyst")
    total = con.execute("SELECT count(*) FROM fact_order").fetchall()[0][0]
    for cap, truncated in ((total - 1, True), (total, False), (total + 1, False)):
        approved = approve("SELECT order_id FROM fact_order", principal=analyst, schema=SCHEMA, row_limit=cap)
        fetched = len(con.execute(approved.sql).fetchall())
        assert approved.row_limit == cap
        assert fetched <= cap + 1
        assert (fetched > approved.row_limit) is truncated


def test_row_limit_never_exceeds_the_principals_maximum(policy: Policy) -> None:
    marketing = policy.principal("marketing")
    approved = approve("SELECT channel FROM fact_traffic", principal=marketing, schema=SCHEMA, row_limit=10**9)
    assert approved.row_limit == marketing.max_rows


def test_id_is_deterministic_and_bound_to_grants_and_dialect(policy: Policy) -> None:
    sql = "SELECT region, count(*) FROM fact_order GROUP BY region"
    first = approve(sql, principal=policy.principal("analyst"), schema=SCHEMA)
    again = approve(sql, principal=policy.principal("analyst"), schema=SCHEMA)
    east = approve(sql, principal=policy.principal("east_manager"), schema=SCHEMA)
    postgres = approve(sql, principal=policy.principal("analyst"), schema=SCHEMA, dialect="postgres")
    assert first.approved_sql_id == again.approved_sql_id
    assert len({first.approved_sql_id, east.approved_sql_id, postgres.approved_sql_id}) == 3
    assert east.row_filters_applied and "华东" in east.row_filters_applied[0]
    assert first.policy_version == policy.version


def test_star_expands_to_readable_columns_only(policy: Policy, con: duckdb.DuckDBPyConnection) -> None:
    approved = approve("SELECT * FROM dim_user", principal=policy.principal("east_manager"), schema=SCHEMA)
    cursor = con.execute(approved.sql)
    names = [d[0] for d in cursor.description]
    assert names == ["user_id", "signup_date", "signup_channel", "region", "city"]
    assert {row[3] for row in cursor.fetchall()} == {"华东"}


def test_masked_pii_is_masked_everywhere_it_is_read(policy: Policy, con: duckdb.DuckDBPyConnection) -> None:
    approved = approve(
        "SELECT phone, email, name FROM dim_user WHERE user_id = 1",
        principal=policy.principal("analyst"),
        schema=SCHEMA,
    )
    assert con.execute(approved.sql).fetchall() == [("139****0001", "b***@mail.example.com", "***")]
    assert set(approved.masked_columns) == {"dim_user.phone", "dim_user.email", "dim_user.name"}
    # what is read is the masked text, so a filter on it would answer a different question: refused
    with pytest.raises(FirewallError) as caught:
        approve(
            "SELECT count(*) FROM dim_user WHERE phone = '13900000001'",
            principal=policy.principal("analyst"),
            schema=SCHEMA,
        )
    assert caught.value.error_code == "pii_masked_computed"
    assert "dim_user.phone" in caught.value.message("en") and "WHERE" in caught.value.message("en")


def test_masked_pii_passes_through_derived_tables_and_unions_when_only_shown(policy: Policy) -> None:
    analyst = policy.principal("analyst")
    for shown in (
        "SELECT e FROM (SELECT email AS e FROM dim_user) x ORDER BY e",
        "WITH c AS (SELECT name FROM dim_user UNION ALL SELECT email FROM dim_user) SELECT name FROM c",
        "SELECT DISTINCT phone FROM dim_user",
    ):
        assert approve(shown, principal=analyst, schema=SCHEMA).masked_columns
    allowed = policy.principal("admin")  # pii: allow — the real values may be computed on
    approve("SELECT count(DISTINCT email) FROM dim_user", principal=allowed, schema=SCHEMA)


def test_partition_filter_is_required_on_large_tables(policy: Policy) -> None:
    analyst = policy.principal("analyst")
    large = {"fact_order": "order_date"}
    with pytest.raises(FirewallError) as caught:
        approve("SELECT count(*) FROM fact_order", principal=analyst, schema=SCHEMA, large_tables=large)
    assert caught.value.error_code == "partition_filter_required"
    with pytest.raises(FirewallError):
        approve(
            "SELECT count(*) FROM fact_order WHERE order_date >= DATE '2026-10-01' OR 1 = 1",
            principal=analyst,
            schema=SCHEMA,
            large_tables=large,
        )
    with pytest.raises(FirewallError):  # the second scan inside the subquery has no filter
        approve(
            "SELECT count(*) FROM fact_order WHERE order_date >= DATE '2026-10-01' "
            "AND user_id IN (SELECT user_id FROM fact_order)",
            principal=analyst,
            schema=SCHEMA,
            large_tables=large,
        )
    ok = approve(
        "SELECT count(*) FROM fact_order o WHERE o.order_date BETWEEN DATE '2026-10-01' AND DATE '2026-10-31'",
        principal=analyst,
        schema=SCHEMA,
        large_tables=large,
    )
    assert ok.partition_filters == ["fact_order.order_date"]
    two_ranges = approve(  # a period and last year's window of an event: each branch bounded
        "SELECT count(*) FROM fact_order WHERE (order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30') "
        "OR order_date BETWEEN DATE '2025-06-01' AND DATE '2025-06-18'",
        principal=analyst,
        schema=SCHEMA,
        large_tables=large,
    )
    assert two_ranges.partition_filters == ["fact_order.order_date"]
    for unbounded in (
        "order_date IS NULL",
        "user_id = 7",
        "order_date > user_id",
        "order_date <> DATE '2026-06-01'",
        "order_date < DATE '2026-06-01'",  # with a one-sided branch the two may cover every day
    ):
        with pytest.raises(FirewallError):  # one branch that bounds nothing: the OR bounds nothing
            approve(
                f"SELECT count(*) FROM fact_order WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' "
                f"OR ({unbounded})",
                principal=analyst,
                schema=SCHEMA,
                large_tables=large,
            )


def test_cost_is_checked_against_the_budget(policy: Policy, con: duckdb.DuckDBPyConnection) -> None:
    def explain_rows(sql: str) -> float:
        plan = con.execute("EXPLAIN " + sql).fetchall()
        return float(len(str(plan)))

    analyst = policy.principal("analyst")
    approved = approve("SELECT count(*) FROM fact_order", principal=analyst, schema=SCHEMA, estimate_cost=explain_rows)
    assert approved.estimated_cost is not None and "cost_within_budget" in approved.checks_passed
    with pytest.raises(FirewallError) as caught:
        approve("SELECT 1", principal=analyst, schema=SCHEMA, estimate_cost=lambda _sql: 1e12)
    assert caught.value.error_code == "cost_exceeded"

    def broken(_sql: str) -> float:
        raise RuntimeError("EXPLAIN failed")

    with pytest.raises(FirewallError) as failed:
        approve("SELECT 1", principal=analyst, schema=SCHEMA, estimate_cost=broken)
    assert failed.value.error_code == "cost_estimate_failed"


def test_expiry_follows_ttl(policy: Policy) -> None:
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    approved = approve("SELECT 1", principal=policy.principal("analyst"), schema=SCHEMA, ttl_seconds=60, now=now)
    assert approved.expires_at - approved.created_at == timedelta(seconds=60)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_refusal_carries_language_and_bilingual_message(policy: Policy, language: str) -> None:
    with pytest.raises(FirewallError) as caught:
        approve("SELECT * FROM dim_user", principal=policy.principal("marketing"), schema=SCHEMA, language=language)  # type: ignore[arg-type]
    error = caught.value
    assert error.detail["language"] == language
    assert error.to_dict(language)["code"] == "table_not_permitted"  # type: ignore[arg-type]
    assert "dim_user" in error.message("en") and "dim_user" in error.message("zh")
