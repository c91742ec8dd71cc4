from __future__ import annotations

from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import ConfigError

DEMO = Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"

EXPECTED_METRICS = {
    "gmv": ("成交总额", "fact_order"),
    "net_revenue": ("净销售额", "fact_order"),
    "order_count": ("订单量", "fact_order"),
    "buyer_count": ("买家数", "fact_order"),
    "aov": ("笔单价", "fact_order"),
    "gmv_per_buyer": ("客单价", "fact_order"),
    "refund_rate": ("退款率", "fact_order"),
    "cancel_rate": ("取消率", "fact_order"),
    "discount_amount": ("优惠金额", "fact_order"),
    "visitors": ("访客数", "fact_traffic"),
    "conversion_rate": ("转化率", "fact_order"),
    "new_users": ("新增用户数", "dim_user"),
}


def test_demo_catalog_defines_exactly_the_contract_metrics() -> None:
    catalog = load_catalog(DEMO)
    assert set(catalog.metrics) == set(EXPECTED_METRICS)
    for name, (label, first_table) in EXPECTED_METRICS.items():
        assert catalog.metrics[name].label.zh == label
        assert catalog.tables_of(name)[0] == first_table
        assert catalog.metrics[name].owner
        assert catalog.metrics[name].description.zh and catalog.metrics[name].description.en
    assert catalog.tables_of("conversion_rate") == ("fact_order", "fact_traffic")
    assert "category" not in catalog.metrics["visitors"].dimensions
    assert catalog.dimensions["channel"].columns["dim_user"] == "signup_channel"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "catalog.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("mutation", "line", "field"),
    [
        (
            (
                "    unit: currency\n    better: higher\n    tree:",
                "    unit: dollars\n    better: higher\n    tree:",
            ),
            None,
            "metrics.gmv.unit",
        ),
        (("    expression: SUM(gmv_amount)\n", "    expresion: SUM(gmv_amount)\n"), None, "metrics.gmv"),
    ],
)
def test_errors_name_file_line_and_field(
    tmp_path: Path, mutation: tuple[str, str], line: int | None, field: str
) -> None:
    text = DEMO.read_text(encoding="utf-8")
    old, new = mutation
    assert old in text
    bad = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ConfigError) as info:
        load_catalog(bad)
    err = info.value
    assert str(bad) in err.message_en and str(bad) in err.message_zh
    assert field in err.message_en
    reported = err.detail["line"]
    assert isinstance(reported, int)
    lines = bad.read_text(encoding="utf-8").splitlines()
    # the reported line is inside the gmv block, at or after the metric's key
    gmv_line = next(i for i, raw in enumerate(lines, start=1) if raw.startswith("  gmv:"))
    assert gmv_line <= reported <= gmv_line + 20


def test_yaml_syntax_error_names_line(tmp_path: Path) -> None:
    bad = _write(tmp_path, "name: x\ntables: {a: [\n")
    with pytest.raises(ConfigError) as info:
        load_catalog(bad)
    assert info.value.detail["line"] is not None
    assert "第" in info.value.message_zh


def test_unknown_reference_is_rejected(tmp_path: Path) -> None:
    text = DEMO.read_text(encoding="utf-8").replace("numerator: gmv\n", "numerator: gmvv\n", 1)
    with pytest.raises(ConfigError) as info:
        load_catalog(_write(tmp_path, text))
    assert "gmvv" in info.value.message_en


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("      - order_count * aov ", "      - order_count * gmv ", "does not multiply out"),
        ("      - order_count * aov ", "      - order_count * margin ", "not a catalog metric"),
        ("    tree: [visitors * conversion_rate]\n", "    tree: [visitors]\n", "at least two factors"),
        ("currency: CNY ", "currency: yuan ", "ISO 4217"),
        ('    start: "06-01"\n', '    start: "06-31"\n', "calendar"),
        ('    end: "11-11"\n', '    end: "10-11"\n', "wrap around"),
        ("  table: meta_table_load\n", "  tablename: meta_table_load\n", "load_log"),
        (
            "    freshness: load_log\n    large: true\n    primary_key",
            "    freshness: fresh\n    large: true\n    primary_key",
            "freshness",
        ),
    ],
)
def test_analysis_fields_are_validated(tmp_path: Path, old: str, new: str, says: str) -> None:
    """Metric trees, currencies, the calendar and freshness sources are checked when loaded."""
    text = DEMO.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(ConfigError) as info:
        load_catalog(_write(tmp_path, text.replace(old, new, 1)))
    assert says in info.value.message_en


def test_load_log_freshness_needs_a_load_log(tmp_path: Path) -> None:
    text = DEMO.read_text(encoding="utf-8")
    start, end = text.index("load_log:\n"), text.index("# Known yearly events")
    with pytest.raises(ConfigError) as info:
        load_catalog(_write(tmp_path, text[:start] + text[end:]))
    assert "load log" in info.value.message_en


def test_a_parsed_catalog_is_cached_by_content(tmp_path: Path) -> None:
    text = DEMO.read_text(encoding="utf-8")
    for sub in ("a", "b", "c"):
        (tmp_path / sub).mkdir()
    first, second = _write(tmp_path / "a", text), _write(tmp_path / "b", text)
    assert load_catalog(first) is load_catalog(second)
    changed = _write(tmp_path / "c", text.replace("name: baton-demo", "name: baton-demo-2", 1))
    assert load_catalog(changed).name == "baton-demo-2"


@pytest.mark.parametrize(
    ("old", "new", "field", "said"),
    [
        (
            "dimensions: [channel, region, category, user_type]",
            "dimensions: [channel, regoin]",
            "metrics.gmv.dimensions",
            "regoin",
        ),
        (
            "    table: fact_order\n    expression: SUM(gmv_amount)",
            "    table: fact_ordr\n    expression: SUM(gmv_amount)",
            "metrics.gmv.table",
            "fact_ordr",
        ),
        (  # a join the table does not declare: the column's own line, never the top of the file
            "    columns: {fact_order: category}",
            "    columns: {fact_order: buyer.category}",
            "dimensions.category.columns.fact_order",
            "no join named 'buyer'",
        ),
    ],
)
def test_a_reference_that_does_not_resolve_names_its_own_line(
    tmp_path: Path, old: str, new: str, field: str, said: str
) -> None:
    text = DEMO.read_text(encoding="utf-8")
    assert old in text
    bad = _write(tmp_path, text.replace(old, new, 1))
    with pytest.raises(ConfigError) as info:
        load_catalog(bad)
    lines = bad.read_text(encoding="utf-8").splitlines()
    assert info.value.detail["field"] == field and said in info.value.message_en
    assert field.rsplit(".", 1)[1] in lines[info.value.detail["line"] - 1]  # the key's own line, not line 1
