"""Scenario files: every packaged one loads; each impossible request is refused with a clear error."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from baton.demo.scenario import EXPECTED_FACTOR, Scenario, load_scenario, packaged_scenarios
from baton.errors import ConfigError

VALID_EFFECT = {
    "name": "e",
    "metric": "conversion",
    "where": {"channel": "app"},
    "period": ["2026-06-01", "2026-06-30"],
    "change": -0.3,
}


def _write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def _with_effect(**changes: object) -> dict[str, object]:
    return {"name": "bad", "effects": [{**VALID_EFFECT, **changes}]}


INVALID = [
    ("unknown dimension", _with_effect(where={"device": "ios"}), "effects[0].where", "unknown dimension"),
    ("unknown member", _with_effect(where={"channel": "tv"}), "effects[0].where", "unknown channel member"),
    ("category on traffic", _with_effect(metric="traffic", where={"category": "家用电器"}), "effects[0]", "traffic"),
    ("change of -100 %", _with_effect(change=-1.0), "effects[0].change", "> -1"),
    ("change below -100 %", _with_effect(change=-1.5), "effects[0].change", "> -1"),
    ("period before data", _with_effect(period=["2024-12-01", "2025-01-31"]), "effects[0].period", "outside"),
    ("period after data", _with_effect(period=["2026-06-01", "2026-07-15"]), "effects[0].period", "outside"),
    ("period reversed", _with_effect(period=["2026-06-30", "2026-06-01"]), "effects[0].period", "before its start"),
    ("unknown metric", _with_effect(metric="revenue"), "effects[0].metric", "traffic"),
    ("missing change", {"name": "bad", "effects": [{k: v for k, v in VALID_EFFECT.items() if k != "change"}]},
     "effects[0].change", "required"),
    ("misspelt key", _with_effect(chnage=0.2), "effects[0].chnage", "not permitted"),
    ("duplicate effect names", {"name": "bad", "effects": [VALID_EFFECT, VALID_EFFECT]}, "(top level)", "unique"),
    ("fault table", {"name": "bad", "data_faults": [{"table": "dim_user", "date": "2026-06-12", "keep_fraction": 0.5}]},
     "data_faults[0].table", "fact_order"),
    ("fault keep everything", {"name": "bad", "data_faults": [{"table": "fact_order", "date": "2026-06-12",
     "keep_fraction": 1.0}]}, "data_faults[0].keep_fraction", "less than 1"),
    ("fault date outside", {"name": "bad", "data_faults": [{"table": "fact_order", "date": "2026-07-02",
     "keep_fraction": 0.5}]}, "data_faults[0].date", "outside"),
    ("missing name", {"effects": []}, "name", "required"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "data", "field", "reason"), INVALID, ids=[row[0] for row in INVALID])
def test_invalid_scenarios_name_file_and_field(
    tmp_path: Path, case: str, data: object, field: str, reason: str
) -> None:
    path = _write(tmp_path, data)
    with pytest.raises(ConfigError) as caught:
        load_scenario(path)
    message = caught.value.message("en")
    assert str(path) in message, case
    assert f"field {field}:" in message, message
    assert reason in message, message
    assert str(path) in caught.value.message("zh")
    assert caught.value.detail["field"] == field


@pytest.mark.parametrize(
    ("text", "reason"),
    [("name: [unclosed", "not valid YAML"), ("- just\n- a list\n", "mapping")],
)
def test_unreadable_files(tmp_path: Path, text: str, reason: str) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=reason) as caught:
        load_scenario(path)
    assert str(path) in caught.value.message("en")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot be read"):
        load_scenario(tmp_path / "nope.yaml")


def test_traffic_effect_on_its_own_dimensions_is_fine(tmp_path: Path) -> None:
    data = _with_effect(metric="traffic", where={"channel": "web", "region": "华北", "user_type": "new"})
    scenario = load_scenario(_write(tmp_path, data))
    assert scenario.effects[0].expected_factor == "visitors"


def test_default_is_the_packaged_default() -> None:
    assert load_scenario(None) == load_scenario(packaged_scenarios()["default"])


def test_packaged_scenarios_cover_the_required_kinds() -> None:
    scenarios = {name: load_scenario(path) for name, path in packaged_scenarios().items()}
    assert len(scenarios) >= 7
    assert scenarios["null"].effects == () and scenarios["null"].data_faults == ()
    others = [s for name, s in scenarios.items() if name != "null"]
    metrics = {effect.metric for s in others for effect in s.effects}
    assert metrics == set(EXPECTED_FACTOR)
    assert any(e.change > 0 for s in others for e in s.effects)
    assert any(e.change < 0 for s in others for e in s.effects)
    assert len({e.period for s in others for e in s.effects}) >= 5
    assert len({frozenset(e.where) for s in others for e in s.effects}) >= 4
    assert sum(1 for s in others if s.data_faults and s.effects) >= 2


def test_scenario_model_is_immutable() -> None:
    scenario = Scenario.model_validate({"name": "x", "effects": [VALID_EFFECT]})
    with pytest.raises(ValueError, match="frozen"):
        scenario.effects[0].change = 0.5  # type: ignore[misc]
