"""Importing dbt semantic projects: the three forms a project arrives in, what is refused and
why, and errors that name the user's file and line."""

from __future__ import annotations

import textwrap
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.catalog.dbt_import import import_dbt
from baton.catalog.dbt_read import build_manifest, read_sources
from baton.catalog.model import Measure
from baton.errors import ConfigError
from tests.metricflow_data import SIMPLE_MANIFEST

DBT_PROJECT = {
    "dbt_project.yml": "name: shop\nversion: '1.0'\nprofile: shop\n",
    "models/sources.yml": """
        version: 2
        sources:
          - name: raw
            tables: [{name: orders}, {name: customers}]
        models:
          - name: metricflow_time_spine
            time_spine:
              standard_granularity_column: date_day
            columns:
              - name: date_day
                granularity: day
    """,
    "models/semantic.yml": """
        semantic_models:
          - name: orders
            model: ref('orders')
            defaults: {agg_time_dimension: ordered_at}
            primary_entity: order
            entities:
              - {name: customer, type: foreign, expr: customer_id}
            dimensions:
              - {name: ordered_at, type: time, type_params: {time_granularity: day}}
              - name: status
                type: categorical
                config: {meta: {baton: {label_zh: 订单状态, synonyms: [状态]}}}
            measures:
              - {name: order_total, agg: sum, expr: amount}
              - {name: order_count, agg: count, expr: order_id}
              - {name: shipped_count, agg: sum, expr: "case when status = 'shipped' then 1 else 0 end"}
              - {name: average_amount, agg: average, expr: amount}
          - name: customers
            model: ref('customers')
            entities:
              - {name: customer, type: primary, expr: customer_id}
            dimensions:
              - {name: country, type: categorical}
        metrics:
          - name: revenue
            label: Revenue
            type: simple
            type_params: {measure: order_total}
            config: {meta: {baton: {label_zh: 收入, unit: currency, currency: EUR, owner: finance}}}
          - name: orders
            label: Orders
            type: simple
            type_params: {measure: order_count}
          - name: shipped
            label: Shipped orders
            type: simple
            type_params: {measure: shipped_count}
          - name: shipped_rate
            label: Shipped rate
            type: ratio
            type_params: {numerator: shipped, denominator: orders}
          - name: german_revenue
            label: German revenue
            type: simple
            type_params: {measure: order_total}
            filter: "{{ Dimension('customer__country') }} = 'DE'"
          - name: average_order_value
            label: Average order value
            type: derived
            type_params:
              expr: revenue / orders
              metrics: [{name: revenue}, {name: orders}]
          - name: average_amount
            label: Average order amount
            type: simple
            type_params: {measure: average_amount}
          - name: average_per_order
            label: Average amount per order
            type: ratio
            type_params: {numerator: average_amount, denominator: orders}
          - name: shipped_revenue
            label: Shipped revenue
            type: derived
            type_params:
              expr: sr
              metrics:
                - {name: revenue, alias: sr, filter: "{{ Dimension('order__status') }} = 'shipped'"}
          - name: june_revenue
            label: Revenue from 1 June
            type: simple
            type_params: {measure: order_total}
            filter: "{{ TimeDimension('order__ordered_at', 'day') }} >= '2026-06-01'"
          - name: cumulative_revenue
            label: Cumulative revenue
            type: cumulative
            type_params: {measure: order_total}
    """,
}


def _as_json(manifest: Any) -> str:
    """The manifest as dbt writes it (the YAML parser's line contexts dropped)."""
    from pydantic.v1.json import pydantic_encoder

    return str(manifest.json(encoder=lambda o: None if type(o).__name__ == "ParsingContext" else pydantic_encoder(o)))


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return root


def test_a_dbt_project_as_dbt_users_write_it(tmp_path: Path) -> None:
    catalog = import_dbt(_write(tmp_path, DBT_PROJECT)).catalog
    assert catalog.name == "shop"
    assert catalog.tables["orders"].time_column == "ordered_at"
    assert catalog.tables["orders"].joins["customer"].table == "customers"
    revenue = catalog.metrics["revenue"]
    assert (revenue.table, revenue.expression, revenue.unit, revenue.currency) == (
        "orders",
        "SUM(amount)",
        "currency",
        "EUR",
    )
    assert (revenue.label.en, revenue.label.zh, revenue.owner) == ("Revenue", "收入", "finance")
    assert catalog.metrics["shipped_rate"].numerator == "shipped"
    assert catalog.metrics["german_revenue"].filters == ("(customer.country) = 'DE'",)
    derived = catalog.metrics["average_order_value"]
    assert derived.formula == "revenue / orders" and set(derived.inputs) == {"revenue", "orders"}
    status = catalog.dimensions["order__status"]
    assert (status.label.zh, "状态" in status.synonyms) == ("订单状态", True)
    assert catalog.dimensions["customer__country"].columns == {"customers": "country", "orders": "customer.country"}
    assert "customer__country" in revenue.dimensions
    assert catalog.calendar == () and catalog.currency is None and catalog.load_log is None
    refused = catalog.refused["cumulative_revenue"]
    assert "cumulative" in refused.reason.en and "累计" in refused.reason.zh


def test_metricflow_fixture_form_and_compiled_manifest_agree(tmp_path: Path) -> None:
    from_yaml = import_dbt(SIMPLE_MANIFEST)
    manifest = build_manifest(read_sources(SIMPLE_MANIFEST, "main"), SIMPLE_MANIFEST)
    compiled = tmp_path / "target" / "semantic_manifest.json"
    compiled.parent.mkdir()
    compiled.write_text(_as_json(manifest), encoding="utf-8")
    from_json = import_dbt(tmp_path)
    assert from_json.catalog.metrics == from_yaml.catalog.metrics
    assert from_json.catalog.dimensions == from_yaml.catalog.dimensions
    assert set(from_json.catalog.refused) == set(from_yaml.catalog.refused)


def test_metricflow_kinds_are_imported_or_refused_by_reason() -> None:
    imported = import_dbt(SIMPLE_MANIFEST)
    catalog = imported.catalog
    simple = [m for m in catalog.metrics.values() if m.table is not None]
    ratios = [m for m in catalog.metrics.values() if m.is_ratio]
    derived = [m for m in catalog.metrics.values() if m.is_derived]
    assert len(simple) >= 20 and len(ratios) >= 5 and len(derived) >= 10
    assert "cumulative" in imported.refused["trailing_2_months_revenue"]
    assert "conversion" in imported.refused["visit_buy_conversion_rate"]
    assert "offset" in imported.refused["bookings_growth_2_weeks"]
    assert "another metric" in imported.refused["active_listings"]
    # a measure dated by its own agg_time_dimension; a filtered ratio numerator kept as a measure
    assert catalog.metrics["booking_payments"].time_dimension == "paid_at"
    numerator = catalog.metrics["instant_booking_fraction_of_max_value"].numerator
    assert isinstance(numerator, Measure) and numerator.filters == ("(is_instant)",)
    # every origin names a real file of the project
    assert all(path.exists() for path, _ in imported.origins.values())
    path, line = imported.origins[("metrics", "booking_payments", "expression")]
    assert path.name == "bookings_source.yaml" and line is not None
    assert (
        "booking_payments"
        in path.read_text().splitlines()[line - 2 : line + 1][0] + path.read_text().splitlines()[line - 1]
    )


def test_every_problem_of_an_invalid_project_is_named_where_it_is_written(tmp_path: Path) -> None:
    """The file and line of each problem; once "… (1 more)", the second left for the user to guess."""
    files = dict(DBT_PROJECT)
    files["models/more.yml"] = """
        metrics:
          - name: broken
            label: Broken
            type: simple
            type_params: {measure: no_such_measure}
          - name: also_broken
            label: Also broken
            type: simple
            type_params: {measure: another_missing_measure}
    """
    with pytest.raises(ConfigError) as caught:
        import_dbt(_write(tmp_path, files))
    en, zh = caught.value.message_en, caught.value.message_zh
    for said in (en, zh):
        assert "no_such_measure" in said and "another_missing_measure" in said
        assert "more.yml:2" in said and "more.yml:6" in said
    assert "more)" not in en and "另有" not in zh
    assert caught.value.detail["line"] == 2


def test_bad_yaml_and_missing_folder_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as missing:
        import_dbt(tmp_path / "nope")
    assert "nope" in missing.value.message_en
    (tmp_path / "bad.yml").write_text("semantic_models: [\n  - name: x\n", encoding="utf-8")
    with pytest.raises(ConfigError) as bad:
        import_dbt(tmp_path)
    assert "bad.yml" in bad.value.message_en and bad.value.error_code == "invalid_config"
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "x.yml").write_text("models: []\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="no semantic_models"):
        import_dbt(empty)


def test_a_compiled_manifest_file_can_be_named_directly(tmp_path: Path) -> None:
    project = _write(tmp_path / "p", DBT_PROJECT)
    manifest = build_manifest(read_sources(project, "main"), project)
    path = tmp_path / "semantic_manifest.json"
    path.write_text(_as_json(manifest), encoding="utf-8")
    assert import_dbt(path).catalog.metrics == import_dbt(project).catalog.metrics


def test_every_imported_metric_runs_and_means_what_dbt_says(tmp_path: Path) -> None:
    import duckdb

    from baton.catalog.compiler import compile_query
    from baton.contracts.semantic import SemanticQuery, TimeRange

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE orders AS SELECT * FROM (VALUES "
        "(1, 10, TIMESTAMP '2026-05-31 23:00:00', 100.0, 'shipped'), (2, 10, TIMESTAMP '2026-06-01 08:00:00', 50.0, 'new'), "
        "(3, 20, TIMESTAMP '2026-06-02 12:00:00', 30.0, 'shipped')) t(order_id, customer_id, ordered_at, amount, status)"
    )
    con.execute("CREATE TABLE customers AS SELECT * FROM (VALUES (10, 'DE'), (20, 'FR')) t(customer_id, country)")
    warehouse = {"orders": {"ordered_at": "TIMESTAMP"}}
    catalog = import_dbt(_write(tmp_path, DBT_PROJECT), warehouse=warehouse).catalog
    assert catalog.tables["orders"].time_type == "timestamp"
    expected = {
        "revenue": 180.0,
        "orders": 3,
        "shipped_rate": 2 / 3,
        "german_revenue": 150.0,
        "average_order_value": 60.0,
        "average_amount": 60.0,
        "average_per_order": 60.0 / 3,
        "shipped_revenue": 130.0,
        "june_revenue": 80.0,
    }
    span = TimeRange(start=date(2026, 5, 1), end=date(2026, 6, 30))
    for name, value in expected.items():
        query = SemanticQuery(metrics=(name,), time_range=span, as_of=date(2026, 7, 1))
        got = con.execute(compile_query(query, catalog).sql).fetchone()
        assert got is not None and got[0] == pytest.approx(value), (name, got)
