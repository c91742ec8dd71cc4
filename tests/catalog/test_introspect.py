"""Introspection: a draft catalog and the personal-data columns guessed from a real DuckDB
warehouse built for the purpose (time columns, categories, codes, measures, personal data by
name and by value, names that would need quoting), and the YAML it is written as."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from baton.catalog.check import check_catalog
from baton.catalog.introspect import Draft, build_draft, introspect, pii_by_name, pii_by_values, profile_warehouse
from baton.catalog.loader import load_catalog
from baton.catalog.writer import render_catalog, scalar
from baton.warehouse.duckdb_backend import DuckDBBackend


def _id_card(prefix: str) -> str:
    """A Chinese ID card number with a valid check digit (17 digits + check)."""
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(prefix, weights, strict=True))
    return prefix + "10X98765432"[total % 11]


def build_shop(path: Path) -> Path:
    """customers (timestamps, categories, codes, personal data by name and by value, measures,
    a reserved column name), events (a date, a category shared with customers) and lookup (no
    time column)."""
    con = duckdb.connect(str(path))
    con.execute(
        """
        CREATE TABLE customers AS
        SELECT
            i AS id,
            TIMESTAMP '2026-01-01 08:00:00' + to_days(CAST(i % 180 AS INTEGER)) AS created_at,
            TIMESTAMP '2026-07-01 00:00:00' AS updated_at,
            '13' || lpad(CAST(i AS VARCHAR), 9, '0') AS contact,
            'user' || i || '@example.com' AS reach,
            NULL::VARCHAR AS national_no,
            ['gold', 'silver', 'bronze'][1 + i % 3] AS tier,
            i % 4 = 0 AS is_vip,
            'SKU-' || lpad(CAST(i % 120 AS VARCHAR), 4, '0') AS sku,
            'free text about customer number ' || i AS note,
            ['iOS', 'Android'][1 + i % 2] AS mobile_os,
            ['a', 'b'][1 + i % 2] AS "order",
            1950 + i % 50 AS birth_year,
            30.0 + i / 1000 AS lat,
            CAST(10 + i % 7 AS DECIMAL(10, 2)) AS price,
            CAST(1 + i % 5 AS INTEGER) AS qty,
            'Customer ' || i AS customer_name,
            ['lamp', 'desk', 'chair'][1 + i % 3] AS product_name,
            ['north', 'south'][1 + i % 2] AS region,
            '2026' || lpad(CAST(i AS VARCHAR), 14, '0') AS order_no
        FROM range(1, 501) AS t(i)
        """
    )
    rows = [(_id_card(f"11010519{80 + i % 20:02d}0{1 + i % 9}1{i % 10}{i:03d}"[:17]), i) for i in range(1, 501)]
    con.executemany("UPDATE customers SET national_no = ? WHERE id = ?", rows)
    con.execute(
        """
        CREATE TABLE events AS
        SELECT DATE '2026-01-01' + CAST(i % 181 AS INTEGER) AS event_date,
               ['north', 'south', 'east'][1 + i % 3] AS region,
               (i % 13) * 2.5 AS amount,
               i % 500 + 1 AS customer_id
        FROM range(1, 301) AS t(i)
        """
    )
    con.execute("CREATE TABLE lookup AS SELECT 'c' || i AS code, 'label ' || i AS label FROM range(1, 21) AS t(i)")
    con.close()
    return path


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_shop(tmp_path_factory.mktemp("shop") / "shop.duckdb")


@pytest.fixture(scope="module")
def backend(shop: Path) -> Iterator[DuckDBBackend]:
    opened = DuckDBBackend(shop)
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def draft(backend: DuckDBBackend) -> Draft:
    return introspect(backend, warehouse="shop")


def test_time_columns_keys_and_the_table_without_one(draft: Draft) -> None:
    tables = draft.catalog.tables
    assert (tables["customers"].time_column, tables["customers"].time_type) == ("created_at", "timestamp")
    assert (tables["events"].time_column, tables["events"].time_type) == ("event_date", "date")
    assert tables["customers"].freshness == "max_time" and tables["customers"].primary_key == ("id",)
    assert tables["lookup"].time_column is None and tables["lookup"].freshness is None
    assert not [m for m in draft.catalog.metrics.values() if m.table == "lookup"]
    assert draft.catalog.load_log is None and draft.catalog.calendar == () and draft.catalog.currency is None


def test_categories_become_dimensions_and_codes_are_indexed(draft: Draft) -> None:
    dims = draft.catalog.dimensions
    assert dims["region"].columns == {"customers": "region", "events": "region"}
    assert set(dims["region"].members) == {"north", "south", "east"}
    assert list(dims["tier"].members) == ["bronze", "silver", "gold"]  # most frequent first
    assert set(dims["is_vip"].members) == {"true", "false"}
    assert dims["sku"].index_members and not dims["sku"].members
    assert {"mobile_os", "product_name"} <= set(dims)
    # free text, row identifiers, personal data and names that need quoting are not dimensions
    assert not {"note", "order_no", "contact", "reach", "national_no", "customer_name", "order", "code"} & set(dims)
    assert draft.catalog.metrics["customers_rows"].dimensions == tuple(
        d for d, dim in dims.items() if "customers" in dim.columns
    )


def test_personal_data_by_name_and_by_value_never_a_dimension(draft: Draft) -> None:
    guessed = {column: (g.mask, g.by) for column, g in draft.pii.items()}
    assert guessed == {
        "customers.contact": ("phone", "values"),
        "customers.reach": ("email", "values"),
        "customers.national_no": ("full", "values"),
        "customers.customer_name": ("full", "name"),
    }
    dimension_columns = {f"{t}.{c}" for dim in draft.catalog.dimensions.values() for t, c in dim.columns.items()}
    assert not dimension_columns & set(draft.pii)


def test_measures_units_and_what_is_not_a_measure(draft: Draft) -> None:
    metrics = draft.catalog.metrics
    assert (metrics["customers_rows"].expression, metrics["customers_rows"].unit) == ("COUNT(*)", "count")
    assert (metrics["price_sum"].expression, metrics["price_sum"].unit) == ("SUM(price)", "currency")
    assert metrics["price_avg"].expression == "AVG(price)" and metrics["price_avg"].unit == "currency"
    assert draft.catalog.currency_of("price_sum") is None  # never a guessed currency
    assert (metrics["qty_sum"].unit, metrics["qty_avg"].unit) == ("count", "number")
    assert metrics["amount_sum"].unit == "currency" and metrics["amount_sum"].table == "events"
    assert (
        metrics["customers_rows"].label.en == "customers rows" and metrics["customers_rows"].label.zh == "customers行数"
    )
    assert "customers有多少行" in metrics["customers_rows"].synonyms
    # keys, ids, calendar parts and coordinates are not summed
    assert not {n for n in metrics if n.startswith(("id_", "customer_id", "birth_year", "lat_"))}
    assert all(m.owner == "TODO" for m in metrics.values())


def test_the_draft_fits_its_warehouse_and_marks_every_guess(draft: Draft, backend: DuckDBBackend) -> None:
    assert check_catalog(draft.catalog, backend, members=True) == []
    for section in ("tables", "dimensions", "metrics"):
        for name in getattr(draft.catalog, section):
            assert any("draft" in note for note in draft.notes[(section, name)]), (section, name)
    assert any("order" in note for note in draft.notes[("tables", "customers")])  # the column left out
    assert any("currency" in note for note in draft.notes[("metrics", "price_sum", "unit")])


def test_the_rendered_draft_loads_as_the_same_catalog(draft: Draft, tmp_path: Path) -> None:
    rendered = render_catalog(draft.catalog, header="header", notes=draft.notes)
    path = tmp_path / "catalog.yaml"
    path.write_text(rendered.text, encoding="utf-8")
    assert load_catalog(path).model_dump() == draft.catalog.model_dump()
    lines = rendered.text.splitlines()
    entry = rendered.lines[("metrics", "price_sum", "unit")]
    assert lines[entry - 1].strip() == "unit: currency" and "draft" in lines[entry - 2]


def test_a_column_shared_by_tables_gets_one_metric_per_table(tmp_path: Path) -> None:
    path = tmp_path / "two.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE a AS SELECT DATE '2026-01-01' + CAST(i AS INTEGER) AS day, i * 1.0 AS amount FROM range(10) t(i)"
    )
    con.execute(
        "CREATE TABLE b AS SELECT DATE '2026-01-01' + CAST(i AS INTEGER) AS day, i * 2.0 AS amount FROM range(10) t(i)"
    )
    con.close()
    backend = DuckDBBackend(path)
    try:
        draft = build_draft(profile_warehouse(backend), warehouse="two")
        assert {"a_amount_sum", "b_amount_sum", "a_amount_avg", "b_amount_avg"} <= set(draft.catalog.metrics)
        labels = {draft.catalog.metrics[m].label.en for m in ("a_amount_sum", "b_amount_sum")}
        assert labels == {"total a amount", "total b amount"}
        assert check_catalog(draft.catalog, backend) == []
    finally:
        backend.close()


def test_columns_of_one_name_that_hold_different_things_are_a_dimension_per_table(tmp_path: Path) -> None:
    """An invoice's status (paid, void) and a subscription's (active, cancelled) share a name, not a
    meaning: one dimension of both would filter invoices by "active" and find nothing."""
    path = tmp_path / "saas.duckdb"
    con = duckdb.connect(str(path))
    day = "DATE '2026-01-01' + CAST(i % 90 AS INTEGER)"
    con.execute(f"CREATE TABLE fact_invoice AS SELECT {day} AS day, ['paid', 'void'][1 + i % 2] AS status, "
                "['north', 'south'][1 + i % 2] AS region FROM range(200) t(i)")  # fmt: skip
    con.execute(f"CREATE TABLE dim_subscription AS SELECT {day} AS day, ['active', 'cancelled'][1 + i % 2] AS status, "
                "['south', 'east'][1 + i % 2] AS region FROM range(200) t(i)")  # fmt: skip
    con.close()
    backend = DuckDBBackend(path)
    try:
        dims = build_draft(profile_warehouse(backend), warehouse="saas").catalog.dimensions
        assert "status" not in dims
        assert dims["invoice_status"].columns == {"fact_invoice": "status"}
        assert set(dims["invoice_status"].members) == {"paid", "void"}
        assert dims["subscription_status"].columns == {"dim_subscription": "status"}
        assert dims["region"].columns == {"fact_invoice": "region", "dim_subscription": "region"}  # one shared member
    finally:
        backend.close()


def test_the_name_of_each_row_a_foreign_key_points_at_is_a_dimension_of_the_rows_pointing(tmp_path: Path) -> None:
    """Orders point at products: "product_name" is unique in products (one row each), yet it is
    what orders are grouped by — a dimension read through the join, its members from the data;
    "product_code" too, while a unique column of a table nothing points at stays no dimension."""
    path = tmp_path / "shop.duckdb"
    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE products (product_code VARCHAR PRIMARY KEY, product_name VARCHAR NOT NULL)")
    con.execute("INSERT INTO products SELECT 'P' || i, 'product ' || i FROM range(80) t(i)")
    con.execute(
        "CREATE TABLE orders (order_id INTEGER PRIMARY KEY, product_code VARCHAR REFERENCES products (product_code), "
        "ordered_on DATE NOT NULL, note VARCHAR)"
    )
    con.execute(
        "INSERT INTO orders SELECT i, 'P' || (i * 7) % 80, DATE '2026-01-01' + CAST(i % 120 AS INTEGER), 'note ' || i "
        "FROM range(4000) t(i)"
    )
    con.close()
    backend = DuckDBBackend(path)
    try:
        draft = build_draft(profile_warehouse(backend), warehouse="shop", foreign_keys=backend.foreign_keys())
        dims = draft.catalog.dimensions
        assert dims["product_name"].columns["products"] == "product_name"
        assert dims["product_name"].columns["orders"].endswith(".product_name") and dims["product_name"].index_members
        assert "note" not in dims  # unique text of a table nothing points at: no category
        assert "product_name" in draft.catalog.metrics["orders_rows"].dimensions
        assert check_catalog(draft.catalog, backend) == []
    finally:
        backend.close()


def test_columns_linked_by_shared_values_through_a_third_stay_one_dimension(tmp_path: Path) -> None:
    """a (x, y), b (z, w), c (y, z): c shares a value with each, so the three are one dimension."""
    path = tmp_path / "chain.duckdb"
    con = duckdb.connect(str(path))
    for table, members in (("ta", "['x', 'y']"), ("tb", "['z', 'w']"), ("tc", "['y', 'z']")):
        con.execute(
            f"CREATE TABLE {table} AS SELECT DATE '2026-01-01' + CAST(i % 60 AS INTEGER) AS day, "
            f"{members}[1 + i % 2] AS kind FROM range(120) t(i)"
        )
    con.close()
    backend = DuckDBBackend(path)
    try:
        dims = build_draft(profile_warehouse(backend), warehouse="chain").catalog.dimensions
        assert dims["kind"].columns == {"ta": "kind", "tb": "kind", "tc": "kind"}
        assert set(dims["kind"].members) == {"x", "y", "z", "w"}
    finally:
        backend.close()


@pytest.mark.parametrize(
    ("name", "mask"),
    [
        ("phone", "phone"),
        ("mobile", "phone"),
        ("user_tel", "phone"),
        ("手机号", "phone"),
        ("联系电话", "phone"),
        ("email", "email"),
        ("e_mail", "email"),
        ("contactEmail", "email"),
        ("name", "full"),
        ("first_name", "full"),
        ("customer_name", "full"),
        ("username", "full"),
        ("姓名", "full"),
        ("home_address", "full"),
        ("addr", "full"),
        ("收货地址", "full"),
        ("id_card", "full"),
        ("id_number", "full"),
        ("身份证号", "full"),
        ("ssn", "full"),
        ("national_id", "full"),
        ("passport_no", "full"),
        ("product_name", None),
        ("table_name", None),
        ("brand_name", None),
        ("region", None),
        ("hotel", None),
        ("status", None),
    ],
)
def test_personal_data_by_column_name(name: str, mask: str | None) -> None:
    assert pii_by_name(name) == mask


@pytest.mark.parametrize(
    ("values", "what"),
    [
        (["13812345678", "15900001111", "+8618600002222"], "phone"),
        (["+1 415 555 0100", "(212) 555-0199", "+44 20 7946 0958"], "phone"),
        (["a@example.com", "b.c@mail.example.cn"], "email"),
        ([_id_card("11010519900307123"), _id_card("44030419851231002")], "id_card"),
        (["202600000000000001", "202600000000000002"], None),  # 18 digits, no valid check digit
        (["SKU-0001", "SKU-0002"], None),
        (["12345", "67890"], None),
        (["north", "south"], None),
    ],
)
def test_personal_data_by_values(values: list[str], what: str | None) -> None:
    guess = pii_by_values(values)
    assert (guess.what if guess is not None else None) == what


@given(st.text())
def test_any_string_reads_back_as_itself(value: str) -> None:
    assert yaml.safe_load(f"key: {scalar(value)}\nlist: [{scalar(value)}]") == {"key": value, "list": [value]}
