"""What Baton remembers about a user: a few preferences, each with where it came from.

A preference is learned only from an explicit statement ("from now on break down by
channel") or from repeated choices (the same breakdown in 3 of the last 5 questions), and it
holds only fixed codes (a language, a chart kind) or catalog names (a dimension, metrics) —
never free text, result rows or personal data. The user lists, forgets and disables it
(``baton memory``). Checking a name against the catalog is ``baton.memory``'s job; this
contract checks the shape: the right kind of value for each key, codes from their lists.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, model_validator

__all__ = [
    "CHART_CODES",
    "LANGUAGE_CODES",
    "PREFERENCE_KEYS",
    "ChartCode",
    "MemoryState",
    "Preference",
    "PreferenceKey",
    "PreferenceSource",
]

PreferenceKey = Literal["language", "default_breakdown", "favourite_metrics", "chart"]
"""What can be remembered: the answer language, a default breakdown (a dimension), favourite
metrics and the preferred chart kind."""
PREFERENCE_KEYS: tuple[PreferenceKey, ...] = get_args(PreferenceKey)

PreferenceSource = Literal["stated", "repeated"]
"""``stated``: the user said so; ``repeated``: learned from the user's repeated choices."""

ChartCode = Literal["bar", "horizontal_bar", "line", "donut", "scatter", "table"]
"""Chart kinds a user may prefer (names of ``baton.charts`` chart kinds)."""
CHART_CODES: tuple[ChartCode, ...] = get_args(ChartCode)
LANGUAGE_CODES: tuple[str, ...] = ("zh", "en")

MAX_FAVOURITES = 12
_NAME = re.compile(r"[^\s\x00-\x1f\x7f]{1,128}")
"""A catalog name: one token, no spaces or control characters (the catalog says which exist)."""


class Preference(BaseModel):
    """One remembered preference and the evidence it was learned from."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: PreferenceKey
    value: str | list[str] = Field(
        description="language: zh | en; chart: a chart code; default_breakdown: a dimension name; "
        "favourite_metrics: metric names"
    )
    source: PreferenceSource
    evidence: str = Field(
        min_length=1,
        max_length=300,
        description='the statement\'s words, or "3 of the last 5 questions" for a repeated choice',
    )
    learned_at: datetime

    @model_validator(mode="after")
    def _value_fits_key(self) -> Preference:
        value = self.value
        if self.key == "favourite_metrics":
            if not isinstance(value, list) or not value:
                raise ValueError("favourite_metrics holds a non-empty list of metric names")
            if len(value) > MAX_FAVOURITES or len(set(value)) != len(value):
                raise ValueError(f"favourite_metrics holds at most {MAX_FAVOURITES} distinct metric names")
            bad = [v for v in value if not _NAME.fullmatch(v)]
        elif not isinstance(value, str):
            raise ValueError(f"{self.key} holds one value, not a list")
        elif self.key == "language":
            bad = [] if value in LANGUAGE_CODES else [value]
        elif self.key == "chart":
            bad = [] if value in CHART_CODES else [value]
        else:
            bad = [] if _NAME.fullmatch(value) else [value]
        if bad:
            raise ValueError(f"{self.key}: not a valid value: {bad[0]!r}")
        if any(ch < " " or ch == "\x7f" for ch in self.evidence):
            raise ValueError("evidence holds a control character")
        return self

    @property
    def values(self) -> tuple[str, ...]:
        """The value as a tuple (one item unless the key holds a list)."""
        return tuple(self.value) if isinstance(self.value, list) else (self.value,)


class MemoryState(BaseModel):
    """Everything remembered about one user, and whether memory is on for them."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    user: str
    enabled: bool = True
    preferences: list[Preference] = Field(default_factory=list)

    def get(self, key: PreferenceKey) -> Preference | None:
        """The preference remembered for ``key`` (``None`` when there is none)."""
        return next((p for p in self.preferences if p.key == key), None)
