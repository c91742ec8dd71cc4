"""The common shape of every statistical result, and its JSON-friendly rendering.

Every result is a frozen dataclass carrying at least an estimate, an interval, a p-value,
an effect size (when meaningful), the method's name and its assumptions as short strings, so
that the agents can hand a result to the next step without losing what it rests on.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

Interval = tuple[float, float]


def _jsonable(value: Any) -> Any:
    """Turn a result field into JSON: NaN/inf become None, tuples become lists, dates ISO strings."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {_key(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item"):  # numpy scalar
        return _jsonable(value.item())
    return str(value)


def _key(key: Any) -> str:
    if isinstance(key, tuple):
        return " × ".join(str(k) for k in key)
    return str(key)


@dataclasses.dataclass(frozen=True, kw_only=True)
class StatResult:
    """Fields every test or estimate carries; subclasses add their specific numbers."""

    method: str
    estimate: float
    ci: Interval | None = None
    confidence: float | None = None
    p_value: float | None = None
    effect_size: float | None = None
    effect_size_name: str | None = None
    assumptions: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (NaN and infinities become ``None``)."""
        out: dict[str, Any] = _jsonable(self)
        return out


def to_jsonable(value: Any) -> Any:
    """Render any stats value (result, tuple, mapping) as JSON-ready data."""
    return _jsonable(value)


def check_alpha(alpha: float) -> None:
    from baton.errors import StatsInputError
    from baton.messages import both

    if not (0.0 < alpha < 1.0) or math.isnan(alpha):
        raise StatsInputError(*both("stats.alpha_range", alpha=alpha))


def clamp_p(p: float) -> float:
    """Keep a p-value inside [0, 1] despite rounding in tail functions."""
    return min(1.0, max(0.0, float(p)))
