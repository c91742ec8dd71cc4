"""Validation of chart specs against the official Vega-Lite v5 JSON schema, shipped offline.

The schema is vega-lite@5.21.0's ``build/vega-lite-schema.json`` (BSD-3-Clause, see
``schema/LICENSE``) — the same minor version the renderer is asked to use, so a spec that
validates here is one vl-convert compiles.

Every spec is checked by ``jsonschema-rs`` (compiled once, microseconds per spec, so every
answer's chart is validated at run time); only a rejected spec is walked again by the Python
``jsonschema`` package, whose ``best_match`` names the offending path. The schema's ``$ref``
pointers contain characters a URI may not (``MarkPropDef<(Gradient|string|null)>``); they are
percent-encoded for the Rust validator, which is what RFC 6901 §6 prescribes for fragments.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from baton.errors import InvalidChartSpec
from baton.messages import both

if TYPE_CHECKING:
    import jsonschema
    import jsonschema_rs

VEGA_LITE_VERSION = "5.21.0"
SCHEMA_RESOURCE = f"schema/vega-lite-v{VEGA_LITE_VERSION}.schema.json"

__all__ = ["SCHEMA_RESOURCE", "VEGA_LITE_VERSION", "InvalidChartSpec", "validate_spec", "vega_lite_schema"]


@lru_cache(maxsize=1)
def vega_lite_schema() -> dict[str, Any]:
    text = resources.files("baton.charts").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


_UNSAFE_REF = re.compile(r'("\$ref":\s*"#)([A-Za-z0-9/_.~-]*(?:[^A-Za-z0-9/_.~"\\-]|\\.)(?:[^"\\]|\\.)*)"')
"""A ``$ref`` whose fragment holds a character a URI may not (an escaped one counts): only those
are matched, so the pass over the 1.8 MB text calls back for a few hundred of its refs, not all."""


def _uri_safe_refs(text: str) -> str:
    """The schema text with every ``$ref`` fragment percent-encoded (done on the text: one
    regular-expression pass is several times faster than walking the parsed document)."""

    def encode(match: re.Match[str]) -> str:
        return match.group(1) + quote(match.group(2).replace('\\"', '"'), safe="/") + '"'

    return _UNSAFE_REF.sub(encode, text)


@lru_cache(maxsize=1)
def _fast_validator() -> jsonschema_rs.Draft7Validator:
    import jsonschema_rs

    text = resources.files("baton.charts").joinpath(SCHEMA_RESOURCE).read_text(encoding="utf-8")
    return jsonschema_rs.Draft7Validator(json.loads(_uri_safe_refs(text)))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft7Validator:
    import jsonschema

    return jsonschema.Draft7Validator(vega_lite_schema())


def validate_spec(spec: object) -> None:
    """Raise :class:`InvalidChartSpec` unless ``spec`` is a valid Vega-Lite v5 spec."""
    if not isinstance(spec, dict):
        raise InvalidChartSpec(*both("charts.spec_not_object", kind=type(spec).__name__))
    if _fast_validator().is_valid(spec):
        return
    from jsonschema.exceptions import best_match

    errors = list(_validator().iter_errors(spec))
    if errors:
        worst = best_match(errors)
        where = "/".join(str(p) for p in worst.absolute_path) or "(top level)"
        raise InvalidChartSpec(
            *both("charts.spec_invalid_at", where=where, error=worst.message[:300]),
            detail={"path": where, "errors": len(errors)},
        )
    raise InvalidChartSpec(
        *both("charts.spec_invalid"),
        detail={"path": "(unknown)", "errors": 1},
    )
