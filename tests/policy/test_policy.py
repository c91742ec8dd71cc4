"""Policy loading and the merge of roles into a Principal."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from baton.errors import ConfigError, PermissionDenied
from baton.policy import ALL_COLUMNS, load_policy

DEMO = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "policies.yaml"


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "policies.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _minimal() -> dict[str, object]:
    return {
        "version": "t1",
        "default_user": "a",
        "pii_columns": {"dim_user.phone": {"mask": "phone"}},
        "roles": {
            "east": {"tables": {"fact_order": {"row_filter": {"region": ["华东"]}}, "dim_user": {}}, "pii": "deny"},
            "south": {"tables": {"fact_order": {"row_filter": {"region": ["华南"]}}}},
            "agg": {"tables": {"fact_order": {"aggregate_only": {"dimensions": ["region"]}}}},
        },
        "users": {"a": {"roles": ["east"]}, "b": {"roles": ["east", "south"]}, "c": {"roles": ["agg", "east"]}},
    }


def test_demo_policy_defines_the_four_demo_users() -> None:
    policy = load_policy(DEMO)
    assert policy.default_user == "analyst"
    assert {"analyst", "east_manager", "marketing", "admin"} <= set(policy.users)
    east = policy.principal("east_manager")
    assert east.row_filters["fact_order"] == {"region": ("华东",)}
    assert east.pii[("dim_user", "phone")] == "deny"
    marketing = policy.principal("marketing")
    assert "dim_user" not in marketing.tables
    assert "order_id" not in marketing.aggregate_only["fact_order"].dimensions
    assert not marketing.can_export_detail
    assert policy.principal("analyst").pii[("dim_user", "email")] == "mask"
    assert ("dim_user", "phone") not in policy.principal("admin").pii


def test_unknown_user_is_permission_denied_in_both_languages() -> None:
    with pytest.raises(PermissionDenied) as caught:
        load_policy(DEMO).principal("mallory")
    assert "not permitted" in caught.value.message("en").lower()
    assert "不允许" in caught.value.message("zh")


@pytest.mark.parametrize(
    ("mutate", "field"),
    [
        (lambda d: d.pop("version"), "version"),
        (lambda d: d["users"]["a"].update(roles=["ghost"]), "ghost"),
        (lambda d: d["roles"]["east"].update(pii="maybe"), "roles.east.pii"),
        (lambda d: d["roles"]["east"].update(colour="red"), "colour"),
        (lambda d: d.update(default_user="nobody"), "nobody"),
        (lambda d: d["roles"]["east"]["tables"]["fact_order"].update(row_filter={"region": []}), "row_filter"),
        (lambda d: d["pii_columns"].update({"phone": {"mask": "full"}}), "table.column"),
    ],
)
def test_bad_policy_is_config_error_naming_file_and_field(tmp_path: Path, mutate: object, field: str) -> None:
    data = _minimal()
    mutate(data)  # type: ignore[operator]
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError) as caught:
        load_policy(path)
    assert str(path) in caught.value.message("en")
    assert field in caught.value.message("en")


def test_unreadable_and_non_mapping_files_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        load_policy(tmp_path / "missing.yaml")
    bad = tmp_path / "list.yaml"
    bad.write_text("- 1\n- 2\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_policy(bad)
    broken = tmp_path / "broken.yaml"
    broken.write_text("version: [unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_policy(broken)


def test_roles_merge_as_a_union(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, _minimal()))
    both = policy.principal("b")
    assert both.row_filters["fact_order"] == {"region": ("华东", "华南")}
    assert both.tables["fact_order"] == frozenset({ALL_COLUMNS})
    mixed = policy.principal("c")
    assert "fact_order" not in mixed.aggregate_only  # the east role may read detail rows
    assert policy.principal("a").grants_fingerprint() != both.grants_fingerprint()


def test_row_filters_on_different_columns_cannot_merge(tmp_path: Path) -> None:
    data = _minimal()
    data["roles"]["south"]["tables"]["fact_order"]["row_filter"] = {"channel": ["app"]}  # type: ignore[index]
    policy = load_policy(_write(tmp_path, data))
    with pytest.raises(ConfigError):
        policy.principal("b")


def test_fingerprint_is_stable_and_ignores_the_user_name() -> None:
    policy = load_policy(DEMO)
    assert policy.principal("analyst").grants_fingerprint() == policy.principal("analyst").grants_fingerprint()
    assert policy.principal("analyst").grants_fingerprint() != policy.principal("admin").grants_fingerprint()


def test_min_group_size_defaults_to_ten_and_merges_to_the_smallest(tmp_path: Path) -> None:
    data = _minimal()
    agg2 = {"tables": {"fact_order": {"aggregate_only": {"dimensions": ["channel"], "min_group_size": 3}}}}
    data["roles"]["agg2"] = agg2  # type: ignore[index]
    data["users"]["d"] = {"roles": ["agg"]}  # type: ignore[index]
    data["users"]["e"] = {"roles": ["agg", "agg2"]}  # type: ignore[index]
    policy = load_policy(_write(tmp_path, data))
    single, merged = policy.principal("d"), policy.principal("e")
    assert single.aggregate_only["fact_order"].min_group_size == 10
    assert merged.aggregate_only["fact_order"].min_group_size == 3
    assert merged.aggregate_only["fact_order"].dimensions == frozenset({"region", "channel"})
    assert single.grants_fingerprint() != merged.grants_fingerprint()
    assert load_policy(DEMO).principal("marketing").aggregate_only["fact_order"].min_group_size == 10
    data["roles"]["agg2"]["tables"]["fact_order"]["aggregate_only"]["min_group_size"] = 0  # type: ignore[index]
    with pytest.raises(ConfigError):
        load_policy(_write(tmp_path, data))
