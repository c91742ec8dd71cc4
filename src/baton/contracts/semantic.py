"""What the question asks, independent of SQL: the planner's output, the compiler's input."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from baton.contracts.common import Language

__all__ = ["Comparison", "Grain", "Language", "MemberFilter", "SemanticQuery", "TimeRange"]

Grain = Literal["day", "week", "month", "quarter", "year"]


class MemberFilter(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    dimension: str
    members: tuple[str, ...] = Field(min_length=1)


class TimeRange(BaseModel):
    """An inclusive date range, with the words it came from."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    start: date
    end: date
    text: str | None = None

    @model_validator(mode="after")
    def _ordered(self) -> TimeRange:
        if self.start > self.end:
            raise ValueError("time range start is after its end")
        return self

    @property
    def days(self) -> int:
        return (self.end - self.start).days + 1


class Comparison(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: Literal["previous_period", "same_period_last_year"]
    range: TimeRange


class SemanticQuery(BaseModel):
    """A question in catalog terms. The compiler turns exactly this into SQL."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metrics: tuple[str, ...] = Field(min_length=1)
    dimensions: tuple[str, ...] = ()
    filters: tuple[MemberFilter, ...] = ()
    time_range: TimeRange
    grain: Grain | None = None
    comparison: Comparison | None = None
    top_n: int | None = Field(default=None, ge=1, le=1000)
    order: Literal["desc", "asc"] = "desc"
    intent: Literal["value", "breakdown", "share", "trend", "ranking", "comparison", "why"] = "value"
    as_of: date
