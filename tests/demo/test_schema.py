"""The warehouse contract: exact tables, column names and types, members, PII formats, load log."""

from __future__ import annotations

import json
import re
import tomllib

import duckdb
import pytest

from baton.demo.generator import DemoBuild

from .helpers import scalar

CONTRACT: dict[str, list[tuple[str, str]]] = {
    "dim_user": [
        ("user_id", "BIGINT"), ("signup_date", "DATE"), ("signup_channel", "VARCHAR"), ("region", "VARCHAR"),
        ("city", "VARCHAR"), ("name", "VARCHAR"), ("phone", "VARCHAR"), ("email", "VARCHAR"),
    ],
    "dim_product": [
        ("product_id", "BIGINT"), ("product_name", "VARCHAR"), ("category", "VARCHAR"), ("brand", "VARCHAR"),
        ("list_price", "DECIMAL(12,2)"),
    ],
    "fact_order": [
        ("order_id", "BIGINT"), ("user_id", "BIGINT"), ("product_id", "BIGINT"), ("order_date", "DATE"),
        ("order_ts", "TIMESTAMP"), ("channel", "VARCHAR"), ("region", "VARCHAR"), ("category", "VARCHAR"),
        ("user_type", "VARCHAR"), ("quantity", "INTEGER"), ("gmv_amount", "DECIMAL(14,2)"),
        ("discount_amount", "DECIMAL(14,2)"), ("status", "VARCHAR"), ("updated_at", "TIMESTAMP"),
    ],
    "fact_traffic": [
        ("visit_date", "DATE"), ("channel", "VARCHAR"), ("region", "VARCHAR"), ("user_type", "VARCHAR"),
        ("visitors", "BIGINT"), ("sessions", "BIGINT"),
    ],
    "meta_table_load": [("table_name", "VARCHAR"), ("loaded_at", "TIMESTAMP"), ("max_data_date", "DATE")],
}  # fmt: skip

CHANNELS = {"app", "mini_program", "web", "live_stream"}
REGIONS = {"华东", "华南", "华北", "华中", "西南", "西北", "东北"}
CATEGORIES = {"手机数码", "家用电器", "服饰鞋包", "美妆个护", "食品生鲜", "家居日用"}
USER_TYPES = {"new", "returning"}
STATUSES = {"paid", "refunded", "cancelled"}

MEMBER_COLUMNS = [
    ("fact_order", "channel", CHANNELS),
    ("fact_order", "region", REGIONS),
    ("fact_order", "category", CATEGORIES),
    ("fact_order", "user_type", USER_TYPES),
    ("fact_order", "status", STATUSES),
    ("fact_traffic", "channel", CHANNELS),
    ("fact_traffic", "region", REGIONS),
    ("fact_traffic", "user_type", USER_TYPES),
    ("dim_user", "signup_channel", CHANNELS),
    ("dim_user", "region", REGIONS),
    ("dim_product", "category", CATEGORIES),
]


def test_exactly_the_contract_tables(default_con: duckdb.DuckDBPyConnection) -> None:
    tables = {row[0] for row in default_con.execute("SHOW TABLES").fetchall()}
    assert tables == set(CONTRACT)


@pytest.mark.parametrize("table", sorted(CONTRACT))
def test_columns_and_types(default_con: duckdb.DuckDBPyConnection, table: str) -> None:
    described = [(row[0], row[1]) for row in default_con.execute(f"DESCRIBE {table}").fetchall()]
    assert described == CONTRACT[table]


@pytest.mark.parametrize(("table", "column", "members"), MEMBER_COLUMNS)
def test_members_are_exactly_the_contract_sets(
    default_con: duckdb.DuckDBPyConnection, table: str, column: str, members: set[str]
) -> None:
    found = {row[0] for row in default_con.execute(f"SELECT DISTINCT {column} FROM {table}").fetchall()}
    assert found == members


def test_no_nulls_anywhere(default_con: duckdb.DuckDBPyConnection) -> None:
    for table, columns in CONTRACT.items():
        checks = " + ".join(f"count(*) - count({name})" for name, _ in columns)
        assert scalar(default_con, f"SELECT {checks} FROM {table}") == 0, table


def test_traffic_has_one_row_per_cell(default_con: duckdb.DuckDBPyConnection) -> None:
    days = 546  # 2025-01-01 .. 2026-06-30
    rows = scalar(default_con, "SELECT count(*) FROM fact_traffic")
    distinct = scalar(
        default_con, "SELECT count(*) FROM (SELECT DISTINCT visit_date, channel, region, user_type FROM fact_traffic)"
    )
    assert rows == distinct == days * 4 * 7 * 2


def test_date_range_and_size(default_con: duckdb.DuckDBPyConnection) -> None:
    first, last, orders = (
        default_con.execute("SELECT min(order_date), max(order_date), count(*) FROM fact_order").fetchone() or ()
    )
    assert (str(first), str(last)) == ("2025-01-01", "2026-06-30")
    assert 900_000 <= orders <= 1_100_000


def test_keys_join(default_con: duckdb.DuckDBPyConnection) -> None:
    unknown_users = "SELECT count(*) FROM fact_order o ANTI JOIN dim_user u USING (user_id)"
    unknown_products = "SELECT count(*) FROM fact_order o ANTI JOIN dim_product p USING (product_id)"
    assert scalar(default_con, unknown_users) == 0
    assert scalar(default_con, unknown_products) == 0
    assert scalar(default_con, "SELECT count(*) - count(DISTINCT order_id) FROM fact_order") == 0
    # the denormalised category is the product's category, and a user orders in their own region
    assert scalar(default_con, "SELECT count(*) FROM fact_order JOIN dim_product p USING (product_id) "
                               "WHERE fact_order.category <> p.category") == 0  # fmt: skip
    assert scalar(default_con, "SELECT count(*) FROM fact_order o JOIN dim_user u USING (user_id) "
                               "WHERE o.region <> u.region") == 0  # fmt: skip


def test_new_orders_come_from_users_who_signed_up_that_day(default_con: duckdb.DuckDBPyConnection) -> None:
    mismatched = """
        SELECT count(*) FILTER (WHERE o.user_type = 'new' AND u.signup_date <> o.order_date)
             + count(*) FILTER (WHERE o.user_type = 'returning' AND u.signup_date >= o.order_date)
        FROM fact_order o JOIN dim_user u USING (user_id)"""
    assert scalar(default_con, mismatched) == 0


def test_pii_looks_real(default_con: duckdb.DuckDBPyConnection) -> None:
    rows = default_con.execute(
        "SELECT name, phone, email FROM dim_user USING SAMPLE 2000 ROWS (reservoir, 1)"
    ).fetchall()
    assert len(rows) == 2000
    for name, phone, email in rows:
        assert re.fullmatch(r"[\u4e00-\u9fff]{2,3}", name), name
        assert re.fullmatch(r"1[3-9]\d{9}", phone), phone
        assert re.fullmatch(r"[a-z0-9]+@[a-z0-9]+\.(com|cn)", email), email
    assert len({name for name, _, _ in rows}) > 500


def test_prices_differ_by_category(default_con: duckdb.DuckDBPyConnection) -> None:
    medians = dict(default_con.execute("SELECT category, median(list_price) FROM dim_product GROUP BY 1").fetchall())
    assert medians["手机数码"] > 5 * medians["食品生鲜"]
    assert medians["家用电器"] > 3 * medians["服饰鞋包"]
    assert scalar(default_con, "SELECT min(list_price) FROM dim_product") > 0


def test_load_log_matches_the_tables(default_con: duckdb.DuckDBPyConnection) -> None:
    log = {
        table: (str(loaded_at), str(max_date))
        for table, loaded_at, max_date in default_con.execute("SELECT * FROM meta_table_load").fetchall()
    }
    assert set(log) == {"dim_user", "dim_product", "fact_order", "fact_traffic"}
    for table, (loaded_at, _) in log.items():
        assert loaded_at.startswith("2026-07-01 02:"), table
    actual = {
        "fact_order": "SELECT max(order_date) FROM fact_order",
        "fact_traffic": "SELECT max(visit_date) FROM fact_traffic",
        "dim_user": "SELECT max(signup_date) FROM dim_user",
    }
    for table, sql in actual.items():
        row = default_con.execute(sql).fetchone()
        assert row is not None
        assert log[table][1] == str(row[0]) == "2026-06-30"


def test_config_and_copies(default_demo: DemoBuild) -> None:
    config = tomllib.loads(default_demo.config.read_text(encoding="utf-8"))
    assert config == {
        "warehouse": {"url": "duckdb:///warehouse.duckdb"},
        "catalog": {"path": "catalog.yaml"},
        "policy": {"path": "policies.yaml"},
        "defaults": {"as_of": "2026-07-01", "user": "analyst"},
    }
    assert (default_demo.path / config["warehouse"]["url"].removeprefix("duckdb:///")) == default_demo.warehouse
    catalog = default_demo.path / "catalog.yaml"
    if catalog.exists():  # copied from the package when the package ships one
        assert "fact_order" in catalog.read_text(encoding="utf-8")


def test_ground_truth_totals_match_sql(default_demo: DemoBuild, default_con: duckdb.DuckDBPyConnection) -> None:
    truth = json.loads(default_demo.ground_truth.read_text(encoding="utf-8"))
    assert truth["scenario"] == default_demo.scenario == "default"
    assert truth["as_of"] == "2026-07-01"
    assert truth["date_range"] == ["2025-01-01", "2026-06-30"]
    assert truth["orders"] == default_demo.orders == scalar(default_con, "SELECT count(*) FROM fact_order")
    assert [e["expected_factor"] for e in truth["effects"]] == ["conversion_rate", "refund_rate"]
    assert truth["data_faults"] == [{"table": "fact_order", "date": "2026-06-12", "keep_fraction": 0.5}]
    assert set(truth["totals"]["monthly"]) == {"2026-04", "2026-05", "2026-06"}
    june_gmv = scalar(
        default_con,
        "SELECT sum(gmv_amount) FROM fact_order WHERE status IN ('paid', 'refunded') "
        "AND order_date BETWEEN '2026-06-01' AND '2026-06-30'",
    )
    assert truth["totals"]["monthly"]["2026-06"]["gmv"] == pytest.approx(june_gmv, abs=0.01)
