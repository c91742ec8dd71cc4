"""Specs are checked against the official Vega-Lite v5 schema that ships inside the package."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from baton.charts import VEGA_LITE_VERSION, InvalidChartSpec, build_spec, validate_spec, vega_lite_schema
from tests.charts.cases import by_member

VALID: dict[str, Any] = {
    "data": {"values": [{"a": "x", "b": 1}]},
    "mark": "bar",
    "encoding": {"x": {"field": "a", "type": "nominal"}, "y": {"field": "b", "type": "quantitative"}},
}


def test_schema_is_the_official_vega_lite_v5_schema() -> None:
    schema = vega_lite_schema()
    assert schema["$ref"] == "#/definitions/TopLevelSpec"
    assert schema["$schema"] == "http://json-schema.org/draft-07/schema#"
    assert "TopLevelUnitSpec" in schema["definitions"]
    assert VEGA_LITE_VERSION.startswith("5.")


def test_valid_spec_passes() -> None:
    validate_spec(VALID)


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("mark",), "barz"),
        (("encoding", "x", "type"), "categorical"),
        (("encoding", "y", "aggregate"), "median_of_medians"),
        (("data",), {"url": 3}),
        (("encoding", "x", "no_such_property"), True),
    ],
)
def test_invalid_specs_are_rejected(path: tuple[str, ...], value: object) -> None:
    spec = copy.deepcopy(VALID)
    node: Any = spec
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(InvalidChartSpec) as info:
        validate_spec(spec)
    assert info.value.message("zh") != info.value.message("en")


def test_non_object_is_rejected() -> None:
    with pytest.raises(InvalidChartSpec):
        validate_spec(["mark", "bar"])


def test_generated_spec_broken_by_hand_is_rejected() -> None:
    spec = build_spec(by_member(["华东", "华南"]))
    validate_spec(spec)
    spec["layer"][0]["mark"]["type"] = "bars"
    with pytest.raises(InvalidChartSpec):
        validate_spec(spec)


def test_every_ref_fragment_is_uri_safe_and_still_names_its_definition() -> None:
    import json
    import re
    from importlib import resources
    from urllib.parse import unquote

    from baton.charts.schema import SCHEMA_RESOURCE, _uri_safe_refs

    text = resources.files("baton.charts").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    encoded = _uri_safe_refs(text)
    refs = re.findall(r'"\$ref":\s*"#([^"]*)"', encoded)
    assert refs and all(re.fullmatch(r"[A-Za-z0-9/_.~%-]*", ref) for ref in refs)
    definitions = json.loads(encoded)["definitions"]
    assert {unquote(ref).removeprefix("/definitions/") for ref in refs} <= set(definitions)
    assert any("%3C" in ref for ref in refs)  # MarkPropDef<(Gradient|string|null)> and the like
