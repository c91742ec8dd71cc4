"""Validation of chart specs against the official Vega-Lite v5 JSON schema, shipped offline.

The schema is vega-lite@5.21.0's ``build/vega-lite-schema.json`` (BSD-3-Clause, see
``schema/LICENSE``) — the same minor version the renderer is asked to use, so a spec that
validates here is one vl-convert compiles.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from baton.errors import InvalidInput

VEGA_LITE_VERSION = "5.21.0"
SCHEMA_RESOURCE = f"schema/vega-lite-v{VEGA_LITE_VERSION}.schema.json"


class InvalidChartSpec(InvalidInput):
    """A chart spec that the official Vega-Lite schema rejects."""

    code = "invalid_chart_spec"


@lru_cache(maxsize=1)
def vega_lite_schema() -> dict[str, Any]:
    text = resources.files("baton.charts").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(vega_lite_schema())


def validate_spec(spec: object) -> None:
    """Raise :class:`InvalidChartSpec` unless ``spec`` is a valid Vega-Lite v5 spec."""
    if not isinstance(spec, dict):
        raise InvalidChartSpec(
            f"a chart spec must be a JSON object, got {type(spec).__name__}",
            f"图表规格必须是 JSON 对象，实际为 {type(spec).__name__}",
        )
    errors = list(_validator().iter_errors(spec))
    if errors:
        worst = best_match(errors)
        where = "/".join(str(p) for p in worst.absolute_path) or "(top level)"
        raise InvalidChartSpec(
            f"chart spec is not valid Vega-Lite v5 at {where}: {worst.message[:300]}",
            f"图表规格不符合 Vega-Lite v5 规范（位置 {where}）：{worst.message[:300]}",
            detail={"path": where, "errors": len(errors)},
        )
