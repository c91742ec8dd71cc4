"""Structured values that must survive every handoff verbatim.

A number that crosses an agent boundary is never free text: it is an :class:`KeyNumber`
(exact ``Decimal`` value, unit, precision, evidence id), so "1284317" can never be re-told
as "约128万". Filters, assumptions and excluded paths are the other three must-keep classes.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

_FROZEN = ConfigDict(frozen=True, extra="forbid")


def decimal_places(value: Decimal, *, significant_only: bool = False) -> int:
    """Digits after the decimal point as stated (``0.0100`` → 4), or only the significant ones (→ 2)."""
    exponent = (value.normalize() if significant_only else value).as_tuple().exponent
    assert isinstance(exponent, int)  # finite values only; NaN/inf are rejected earlier
    return max(0, -exponent)


class KeyNumber(BaseModel):
    """An exact number with its unit and provenance.

    ``value`` is a ``Decimal`` (ints and floats are converted through their shortest
    decimal repr, so ``0.0312`` stays ``0.0312``); ``precision`` is the number of decimal
    places it is rendered with and may never round the value away. When ``metric``,
    ``scope`` and ``period`` are given the number is also a structured fact that the
    ledger checks for contradictions.
    """

    model_config = _FROZEN

    key: str = Field(min_length=1, description="stable id of this number within the run")
    label: str = Field(min_length=1, description="what the number is, in the user's language")
    value: Decimal
    unit: str = Field(min_length=1, description="CNY, 万辆, ratio, %, orders, …")
    precision: int = Field(default=-1, ge=-1, le=28, description="decimal places; -1 = as the value states them")
    evidence_id: str = Field(min_length=1)
    metric: str | None = None
    scope: FactScope | None = None
    period: Period | None = None

    @field_validator("value")
    @classmethod
    def _finite(cls, value: Decimal) -> Decimal:
        if not value.is_finite():
            raise ValueError("a key number must be finite")
        return value

    @model_validator(mode="after")
    def _precision_is_lossless(self) -> KeyNumber:
        needed = decimal_places(self.value, significant_only=True)
        if self.precision == -1:
            object.__setattr__(self, "precision", decimal_places(self.value))
        elif self.precision < needed:
            raise ValueError(f"precision {self.precision} would round {self.value} (needs {needed} decimal places)")
        if (self.metric is None) != (self.period is None) or (self.scope is not None and self.metric is None):
            raise ValueError("metric, scope and period are given together (scope may default) or not at all")
        return self

    def rendered(self) -> str:
        """The one place a number becomes text: exact value at its precision, then the unit."""
        return f"{self.value:.{self.precision}f} {self.unit}"

    @property
    def is_fact(self) -> bool:
        return self.metric is not None and self.period is not None


class DimensionMember(BaseModel):
    """One ``dimension = member`` pair of a fact's scope (e.g. channel = app)."""

    model_config = _FROZEN

    dimension: str = Field(min_length=1)
    member: str


class FactScope(BaseModel):
    """The normalised scope of a fact: filters (canonical SQL predicates) and members.

    Both are stored sorted and de-duplicated, so two scopes are equal exactly when they
    restrict the data the same way; the SQL canonicalisation itself lives in
    ``baton.context.sqlnorm`` (contracts only validate).
    """

    model_config = _FROZEN

    filters: tuple[str, ...] = ()
    members: tuple[DimensionMember, ...] = ()

    @field_validator("filters")
    @classmethod
    def _sorted_filters(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(sorted(set(value)))

    @field_validator("members")
    @classmethod
    def _sorted_members(cls, value: tuple[DimensionMember, ...]) -> tuple[DimensionMember, ...]:
        unique = {(m.dimension.lower(), m.member): m for m in value}
        return tuple(unique[k] for k in sorted(unique))

    def dimensions(self) -> frozenset[str]:
        return frozenset(m.dimension.lower() for m in self.members)


class Period(BaseModel):
    """A half-open date range ``[start, end)``."""

    model_config = _FROZEN

    start: dt.date
    end: dt.date

    @model_validator(mode="after")
    def _ordered(self) -> Period:
        if self.end <= self.start:
            raise ValueError("period end must be after its start")
        return self

    def overlaps(self, other: Period) -> bool:
        return self.start < other.end and other.start < self.end

    def rendered(self) -> str:
        return f"[{self.start.isoformat()}, {self.end.isoformat()})"


class AppliedFilter(BaseModel):
    """A filter the data went through, as a SQL predicate (compared as a normalised AST)."""

    model_config = _FROZEN

    predicate: str = Field(min_length=1, description="SQL boolean expression, e.g. status = 'paid'")
    dialect: str = "duckdb"
    description: str | None = None
    evidence_id: str | None = None


class Assumption(BaseModel):
    """A premise a conclusion depends on; without it the conclusion cannot be judged."""

    model_config = _FROZEN

    text: str = Field(min_length=1)
    source_agent: str | None = None


class ExcludedPath(BaseModel):
    """An explanation or analysis path already ruled out, so nobody explores it again."""

    model_config = _FROZEN

    path: str = Field(min_length=1)
    reason: str | None = None
    evidence_ids: tuple[str, ...] = ()


def jsonable(value: Any) -> Any:
    """Pydantic models and plain values as JSON-ready data (Decimals stay exact strings)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return value


KeyNumber.model_rebuild()
