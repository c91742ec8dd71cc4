"""The part of a catalog a language-model planner is shown for one question.

A large catalog does not fit in a prompt, and most of it is noise for any one question; the
catalog search (:mod:`baton.catalog.search`) picks the metrics and dimensions a question is
most likely about and cuts them to this model. It holds names, labels, synonyms, definitions
and member keys — the words a plan may use — and never a data row.

``to_prompt_json()`` is the compact JSON the prompt carries (defaults left out, no spaces).
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CatalogSlice", "SliceDimension", "SliceLabel", "SliceMember", "SliceMetric", "SliceRefused"]


class SliceLabel(BaseModel):
    """A name in both languages."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    zh: str
    en: str


class SliceMember(BaseModel):
    """One value of a dimension: the key a filter names, and how people call it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str = Field(description="the member's key: what a filter on the dimension names")
    label: SliceLabel
    synonyms: tuple[str, ...] = ()


class SliceDimension(BaseModel):
    """A dimension a retrieved metric can be broken down or filtered by."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    label: SliceLabel
    synonyms: tuple[str, ...] = ()
    members: tuple[SliceMember, ...] = ()
    more_members: int = Field(default=0, ge=0, description="members of the catalog left out of this slice")


class SliceMetric(BaseModel):
    """A metric and its definition (口径)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    label: SliceLabel
    synonyms: tuple[str, ...] = ()
    description: SliceLabel
    unit: str
    ratio: bool = Field(default=False, description="a ratio of two measures (never summed across groups)")
    better: Literal["higher", "lower"] | None = None
    dimensions: tuple[str, ...] = Field(default=(), description="what it can be broken down and filtered by")


class SliceRefused(BaseModel):
    """A metric the catalog names but Baton does not compute: a plan naming it is refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    label: SliceLabel
    synonyms: tuple[str, ...] = ()
    reason: SliceLabel


class CatalogSlice(BaseModel):
    """The metrics and dimensions retrieved for one question, and the catalog's time grains."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    catalog: str = Field(description="the catalog's name")
    metrics: tuple[SliceMetric, ...] = ()
    dimensions: tuple[SliceDimension, ...] = ()
    refused: tuple[SliceRefused, ...] = ()
    grains: tuple[str, ...] = Field(default=(), description="time grains a series may be asked at")
    metrics_total: int = Field(default=0, ge=0, description="metrics in the whole catalog")
    dimensions_total: int = Field(default=0, ge=0, description="dimensions in the whole catalog")

    def metric_names(self) -> tuple[str, ...]:
        return tuple(m.name for m in self.metrics)

    def dimension_names(self) -> tuple[str, ...]:
        return tuple(d.name for d in self.dimensions)

    def to_prompt_json(self) -> str:
        """Compact JSON for a prompt: defaults left out, Chinese kept as text, no spaces."""
        data = self.model_dump(mode="json", exclude_defaults=True)
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
