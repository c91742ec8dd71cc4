"""`baton catalog check`: a catalog against its live warehouse, on DuckDB and PostgreSQL.

Every broken catalog is the shipped demo's with one planted mistake, written to tmp_path
beside a baton.toml pointing at the real demo warehouse; the check must name exactly that
mistake, where it is written, and nothing else.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baton.catalog.check import CatalogProblem, check_catalog, kind_of, locate
from baton.catalog.loader import load_catalog, load_yaml_with_lines
from baton.cli.app import app
from baton.cli.catalog_cmd import check_config
from baton.config import Settings, load_settings
from baton.warehouse.engine import Backend, engine_named

JOINS = """    updated_column: updated_at
    joins:
      product: {table: dim_product, "on": {category: category}}
      user: {table: dim_user, "on": {user_id: user_id}}
"""
"""Two joins from the order facts: to a non-unique key (many products per category) and to a key
(named ``user``, a keyword in SQL: the check must quote it as the compiler does)."""


def _variant(source: Path, tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """A config folder whose catalog is ``source``'s with each (old, new) replaced exactly once."""
    text = (source / "catalog.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, f"the demo catalog changed: {old!r} occurs {text.count(old)} times"
        text = text.replace(old, new)
    folder = tmp_path / "variant"
    folder.mkdir(parents=True)
    (folder / "catalog.yaml").write_text(text, encoding="utf-8")
    shutil.copy(source / "policies.yaml", folder / "policies.yaml")
    config = (source / "baton.toml").read_text(encoding="utf-8")
    warehouse = (source / "warehouse.duckdb").resolve()
    (folder / "baton.toml").write_text(config.replace("duckdb:///warehouse.duckdb", f"duckdb:///{warehouse}"))
    return folder


def _line_of(folder: Path, needle: str) -> int:
    """The 1-based line of the catalog that holds ``needle`` (found without Baton's loader)."""
    lines = (folder / "catalog.yaml").read_text(encoding="utf-8").splitlines()
    found = [number for number, line in enumerate(lines, 1) if needle in line]
    assert len(found) == 1, (needle, found)
    return found[0]


def _check(folder: Path, *, members: bool = True) -> list[CatalogProblem]:
    settings = load_settings(folder / "baton.toml")
    backend = engine_named(settings.engine).open(settings)
    try:
        return check_catalog(load_catalog(settings.catalog_path), backend, members=members)
    finally:
        backend.close()


def _only(problems: list[CatalogProblem]) -> CatalogProblem:
    assert len(problems) == 1, [p.message[0] for p in problems]
    return problems[0]


@pytest.fixture
def demo_backend(demo_settings: Settings) -> Iterator[Backend]:
    backend = engine_named(demo_settings.engine).open(demo_settings)
    yield backend
    backend.close()


def test_the_shipped_demo_matches_its_warehouse(demo_settings: Settings, demo_backend: Backend) -> None:
    assert check_catalog(load_catalog(demo_settings.catalog_path), demo_backend) == []


@pytest.mark.postgres
def test_the_shipped_demo_matches_its_warehouse_on_postgres(pg_demo_dir: Path) -> None:
    settings = load_settings(pg_demo_dir / "baton.toml")
    assert settings.engine == "postgres"
    problems, path, _lines = check_config(settings)
    assert problems == [] and path == pg_demo_dir / "catalog.yaml"


def test_a_misspelt_column_is_named_with_its_metric_file_and_line(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(demo_dir, tmp_path, ("expression: SUM(gmv_amount)\n", "expression: SUM(gmv_amountt)\n"))
    problems, path, lines = check_config(load_settings(folder / "baton.toml"))
    problem = _only(problems)
    assert (problem.code, problem.table, problem.column) == ("missing_column", "fact_order", "gmv_amountt")
    assert problem.path == ("metrics", "gmv", "expression")
    assert problem.message[0] == "metric gmv: column gmv_amountt does not exist in table fact_order"
    assert "gmv" in problem.message[1] and "gmv_amountt" in problem.message[1]
    assert locate(problem, lines, path) == (folder / "catalog.yaml", _line_of(folder, "SUM(gmv_amountt)"))


def test_a_dimension_column_that_does_not_exist(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(demo_dir, tmp_path, ("dim_user: region}", "dim_user: home_region}"))
    problem = _only(_check(folder))
    assert (problem.code, problem.table, problem.column) == ("missing_column", "dim_user", "home_region")
    assert problem.path == ("dimensions", "region", "columns", "dim_user")
    assert problem.message[0].startswith("dimension region:")


def test_a_text_time_column(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(demo_dir, tmp_path, ("    time_column: visit_date\n", "    time_column: channel\n"))
    problem = _only(_check(folder))
    assert (problem.code, problem.table, problem.column) == ("time_not_temporal", "fact_traffic", "channel")
    assert problem.path == ("tables", "fact_traffic", "time_column")
    assert "VARCHAR" in problem.message[0].upper()


def test_a_timestamp_column_declared_as_dates(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(demo_dir, tmp_path, ("    time_column: order_date\n", "    time_column: order_ts\n"))
    problem = _only(_check(folder))
    assert (problem.code, problem.column) == ("time_type_mismatch", "order_ts")
    assert "time_type date" in problem.message[0]
    declared = _variant(
        demo_dir,
        tmp_path / "declared",
        ("    time_column: order_date\n", "    time_column: order_ts\n    time_type: timestamp\n"),
    )
    # the metrics' own time dimension (order_date) is a date in a table now declared timestamp
    codes = {(p.code, p.path) for p in _check(declared)}
    assert ("time_type_mismatch", ("tables", "fact_order", "time_column")) not in codes
    assert ("time_type_mismatch", ("metrics", "gmv", "time_dimension")) in codes


def test_a_member_that_is_not_in_the_data(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir, tmp_path, ("      web:\n", "      tiktok:\n        label: {zh: 抖音, en: tiktok}\n      web:\n")
    )
    problem = _only(_check(folder))
    assert (problem.code, problem.path) == ("missing_member", ("dimensions", "channel", "members", "tiktok"))
    assert "'tiktok'" in problem.message[0] and "fact_order.channel" in problem.message[0]
    assert _check(folder, members=False) == []


@pytest.mark.parametrize(
    ("edit", "path", "value"),
    [
        (
            ("filters: [\"status = 'paid'\"]", "filters: [\"status = 'payed'\"]"),
            ("metrics", "net_revenue", "filters", 0),
            "payed",
        ),
        (  # reversed sides, in a ratio's part
            ("filters: [\"status = 'refunded'\"]", "filters: [\"'refundd' = status\"]"),
            ("metrics", "refund_rate", "numerator", "filters", 0),
            "refundd",
        ),
        (  # every value of a list absent; a <> of an absent value keeps every row, as written
            ("filters: [\"status = 'cancelled'\"]", "filters: [\"status <> 'voided' AND status IN ('canceled')\"]"),
            ("metrics", "cancel_rate", "numerator", "filters", 0),
            "canceled",
        ),
    ],
)
def test_a_filter_value_that_is_not_in_the_data(
    demo_dir: Path, tmp_path: Path, edit: tuple[str, str], path: tuple[str | int, ...], value: str
) -> None:
    folder = _variant(demo_dir, tmp_path, edit)
    problem = _only(_check(folder))
    assert (problem.code, problem.path, problem.column) == ("missing_filter_value", path, "status")
    assert f"{value!r}" in problem.message[0] and "fact_order.status" in problem.message[0]
    assert f"{value!r}" in problem.message[1]
    assert _check(folder, members=False) == []


def test_a_filter_keeping_some_value_of_the_data_is_no_problem(demo_dir: Path, tmp_path: Path) -> None:
    """A refund not loaded yet, or a status list one of whose values is absent, leaves the metric right."""
    edit = (
        "filters: [\"status = 'cancelled'\"]",
        "filters: [\"status <> 'voided' AND status IN ('cancelled', 'canceled')\"]",
    )
    assert _check(_variant(demo_dir, tmp_path, edit)) == []


def test_a_join_to_a_key_that_is_not_unique(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir,
        tmp_path,
        ("    updated_column: updated_at\n", JOINS),
        # dimensions read through the joins, members included, resolve in the joined tables
        ("columns: {fact_order: region,", "columns: {fact_order: user.region,"),
        ("columns: {fact_order: category}", "columns: {fact_order: product.category}"),
    )
    problem = _only(_check(folder))
    assert (problem.code, problem.table, problem.column) == ("join_not_unique", "dim_product", "category")
    assert problem.path == ("tables", "fact_order", "joins", "product")
    assert "double-count" in problem.message[0]


def test_a_column_read_through_a_join_must_exist_in_the_joined_table(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir,
        tmp_path,
        ("    updated_column: updated_at\n", JOINS.replace("{category: category}", "{product_id: product_id}")),
        ("columns: {fact_order: region,", "columns: {fact_order: user.home_region,"),
    )
    problem = _only(_check(folder))
    assert (problem.code, problem.table, problem.column) == ("missing_column", "dim_user", "home_region")
    assert problem.path == ("dimensions", "region", "columns", "fact_order")


def test_a_sum_over_text_and_an_unknown_function(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir,
        tmp_path,
        ("expression: SUM(discount_amount)", "expression: SUM(CASE WHEN status = 'paid' THEN status END)"),
        ("expression: SUM(visitors)", "expression: SUMM(visitors)"),
    )
    typed, unknown = _check(folder)
    assert (typed.code, typed.table, typed.column) == ("bad_type", "fact_order", "status")
    assert typed.path == ("metrics", "discount_amount", "expression")
    assert (unknown.code, unknown.path) == ("bad_expression", ("metrics", "visitors", "expression"))
    assert "SUMM(visitors)" in unknown.message[0]


def test_a_table_missing_from_the_warehouse_is_reported_once(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir,
        tmp_path,
        ("  fact_traffic:\n", "  fact_visits:\n"),
        ("{fact_order: channel, fact_traffic: channel,", "{fact_order: channel, fact_visits: channel,"),
        ("{fact_order: region, fact_traffic: region,", "{fact_order: region, fact_visits: region,"),
        ("{fact_order: user_type, fact_traffic: user_type}", "{fact_order: user_type, fact_visits: user_type}"),
        ("    table: fact_traffic\n", "    table: fact_visits\n"),
    )
    problem = _only(_check(folder))
    assert (problem.code, problem.table, problem.path) == ("missing_table", "fact_visits", ("tables", "fact_visits"))


@pytest.mark.postgres
def test_problems_are_found_on_postgres_too(pg_demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        pg_demo_dir,
        tmp_path,
        ("expression: SUM(gmv_amount)\n", "expression: SUM(gmv_amountt)\n"),
        ("    updated_column: updated_at\n", JOINS),
        ("columns: {fact_order: category}", "columns: {fact_order: product.category}"),
        # an expression through the join: its members are read with the join, rendered for PostgreSQL
        ("columns: {fact_order: region,", "columns: {fact_order: 'COALESCE(user.region, region)',"),
        ("      web:\n", "      tiktok:\n        label: {zh: 抖音, en: tiktok}\n      web:\n"),
        ("expression: SUM(visitors)", "expression: SUMM(visitors)"),
    )
    assert load_settings(folder / "baton.toml").engine == "postgres"
    assert {(p.code, p.path) for p in _check(folder)} == {
        ("missing_column", ("metrics", "gmv", "expression")),
        ("join_not_unique", ("tables", "fact_order", "joins", "product")),
        ("missing_member", ("dimensions", "channel", "members", "tiktok")),
        ("bad_expression", ("metrics", "visitors", "expression")),
    }


def test_locate_falls_back_to_the_nearest_written_field(demo_dir: Path) -> None:
    _data, lines = load_yaml_with_lines(demo_dir / "catalog.yaml")
    problem = CatalogProblem("time_type_mismatch", ("tables", "fact_order", "time_type"), ("", ""))
    file, line = locate(problem, lines, demo_dir / "catalog.yaml")
    assert line == lines[("tables", "fact_order")]  # time_type is not written: the table's entry
    assert _line_of(demo_dir, "  fact_order:") <= line < _line_of(demo_dir, "    time_column: order_date")
    written = CatalogProblem("time_not_temporal", ("tables", "fact_order", "time_column"), ("", ""))
    assert locate(written, lines, file) == (file, _line_of(demo_dir, "    time_column: order_date"))
    unknown = CatalogProblem("missing_table", ("no_such_section", "x"), ("", ""))
    assert locate(unknown, lines, file) == (file, None)


@pytest.mark.parametrize(
    ("dtype", "kind"),
    [
        ("DECIMAL(14,2)", "numeric"),
        ("DOUBLE PRECISION", "numeric"),
        ("TIMESTAMP WITHOUT TIME ZONE", "timestamp"),
        ("TIMESTAMP_NS", "timestamp"),
        ("date", "date"),
        ("character varying", "text"),
        ("BOOLEAN", "other"),
    ],
)
def test_type_names_of_either_engine(dtype: str, kind: str) -> None:
    assert kind_of(dtype) == kind


# the command ----------------------------------------------------------------------------------


def test_cli_exits_0_on_the_demo(demo_dir: Path) -> None:
    result = CliRunner().invoke(app, ["catalog", "check", "--config", str(demo_dir / "baton.toml")])
    assert result.exit_code == 0, result.output
    assert "no problems" in result.output and "未发现问题" in result.output
    as_json = CliRunner().invoke(app, ["catalog", "check", "--config", str(demo_dir / "baton.toml"), "--json"])
    assert as_json.exit_code == 0 and json.loads(as_json.stdout) == {"ok": True, "problems": []}


def test_cli_prints_file_line_and_exits_1(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(demo_dir, tmp_path, ("expression: SUM(gmv_amount)\n", "expression: SUM(gmv_amountt)\n"))
    line = _line_of(folder, "SUM(gmv_amountt)")
    config = str(folder / "baton.toml")
    result = CliRunner().invoke(app, ["catalog", "check", "--config", config])
    assert result.exit_code == 1, result.output
    assert f"catalog.yaml:{line}: metric gmv: column gmv_amountt does not exist in table fact_order / 指标 gmv" in (
        result.stdout
    )
    assert "1 problem(s) found" in result.stdout
    as_json = CliRunner().invoke(app, ["catalog", "check", "--config", config, "--json"])
    assert as_json.exit_code == 1
    data = json.loads(as_json.stdout)
    assert data["ok"] is False
    assert data["problems"] == [
        {
            "code": "missing_column",
            "file": str(folder / "catalog.yaml"),
            "line": line,
            "path": ["metrics", "gmv", "expression"],
            "table": "fact_order",
            "column": "gmv_amountt",
            "message": "metric gmv: column gmv_amountt does not exist in table fact_order",
            "message_zh": data["problems"][0]["message_zh"],
        }
    ]
    assert "gmv_amountt" in data["problems"][0]["message_zh"]


def test_cli_reports_a_catalog_that_does_not_load_as_a_typed_error(demo_dir: Path, tmp_path: Path) -> None:
    folder = _variant(
        demo_dir, tmp_path, ("    numerator: gmv\n    denominator: order_count\n", "    numerator: gmv\n")
    )
    config = str(folder / "baton.toml")
    result = CliRunner().invoke(app, ["catalog", "check", "--config", config])
    assert result.exit_code == 1
    reported = result.stderr.replace("\n", "")  # rich wraps the line at the terminal's width
    assert reported.startswith("invalid_config") and "catalog.yaml:" in reported and "metrics.aov" in reported
    assert "Traceback" not in result.output + result.stderr
    assert isinstance(result.exception, SystemExit)
    as_json = CliRunner().invoke(app, ["catalog", "check", "--config", config, "--json"])
    assert as_json.exit_code == 1
    assert json.loads(as_json.stdout)["error"]["code"] == "invalid_config"


def test_cli_lists_every_problem_of_a_catalog_that_does_not_load(demo_dir: Path, tmp_path: Path) -> None:
    """One run names every broken entity at its line (a field of one metric, a reference of
    another, a join of a table), not only the first; each entity's first problem once."""
    folder = _variant(
        demo_dir,
        tmp_path,
        ("    table: dim_user\n    expression: COUNT(*)\n", "    table: dim_users\n    expression: COUNT(*)\n"),
        ("    numerator: gmv\n    denominator: buyer_count\n", "    numerator: gmv\n    denominator: buyers\n"),
    )
    config = str(folder / "baton.toml")
    result = CliRunner().invoke(app, ["catalog", "check", "--config", config])
    assert result.exit_code == 1
    reported = result.stderr.replace("\n", " ")
    assert reported.startswith("invalid_config")
    assert "metrics.gmv_per_buyer" in reported and "'buyers'" in reported
    assert "metrics.new_users.table" in reported and "'dim_users'" in reported
    assert "Traceback" not in result.output + result.stderr
    as_json = CliRunner().invoke(app, ["catalog", "check", "--config", config, "--json"])
    detail = json.loads(as_json.stdout)["error"]["detail"]
    fields = [problem["field"] for problem in detail["problems"]]
    assert fields == ["metrics.gmv_per_buyer", "metrics.new_users.table"] and detail["errors"] == 2
    lines = [problem["line"] for problem in detail["problems"]]
    text = (folder / "catalog.yaml").read_text(encoding="utf-8").splitlines()
    assert text[lines[0] - 1].strip() == "gmv_per_buyer:" and "dim_users" in text[lines[1] - 1]


def test_a_path_through_a_join_to_a_missing_table_is_a_problem_not_a_crash(demo_dir: Path, tmp_path: Path) -> None:
    """A join naming a table the catalog lacks, and a dimension read through it: the join is reported
    at its line and the dimension's path too — never an internal KeyError."""
    folder = _variant(
        demo_dir,
        tmp_path,
        (
            "    primary_key: [order_id]\n",
            "    primary_key: [order_id]\n    joins:\n      shop: {table: dim_shopx, on: {user_id: user_id}}\n",
        ),
        (
            "columns: {fact_order: channel, fact_traffic: channel, dim_user: signup_channel}",
            "columns: {fact_order: shop__owner.name, fact_traffic: channel, dim_user: signup_channel}",
        ),
    )
    result = CliRunner().invoke(app, ["catalog", "check", "--config", str(folder / "baton.toml"), "--json"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    detail = json.loads(result.stdout)["error"]["detail"]
    errors = " ".join(problem["error"] for problem in detail["problems"])
    assert "dim_shopx" in errors and json.loads(result.stdout)["error"]["code"] == "invalid_config"
