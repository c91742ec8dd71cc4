"""The small vocabulary every package shares: the user's language, SQL dialects, bilingual
labels and the calendar of known events.

Defined once, here, at the bottom of the dependency graph (contracts import nothing of ours).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Language = Literal["zh", "en"]
"""The language of a question and of everything Baton says about it."""
LANGUAGES: tuple[Language, ...] = ("en", "zh")
"""Every language Baton speaks, in the order a :class:`~baton.errors.BatonError` holds its messages."""

Dialect = Literal["duckdb", "postgres", "spark"]
"""A warehouse SQL dialect, named as sqlglot names it; one per engine profile."""

Unit = Literal["currency", "count", "ratio", "number"]
"""What a metric's values are: money (in the metric's currency), counts, ratios or plain numbers."""

_MONTH_DAY = re.compile(r"^(\d{1,2})-(\d{1,2})$")


class Bilingual(BaseModel):
    """A label written in both languages."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    zh: str = Field(description="Chinese")
    en: str = Field(description="English")

    def for_lang(self, language: str) -> str:
        return self.zh if language == "zh" else self.en


class CalendarEvent(BaseModel):
    """A yearly event that moves the data (a promotion, a holiday): days inside its window read
    as "peak", never as trend or anomaly, and are left out of weekday baselines.

    ``start``, ``end`` and ``peak`` are month-day pairs ("06-01"); the window is inclusive and
    must not wrap around the new year.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: Bilingual = Field(description="the event's name")
    synonyms: tuple[str, ...] = Field(default=(), description="other names a question may use (e.g. Singles' Day)")
    start: tuple[int, int] = Field(description='first day, "MM-DD"')
    end: tuple[int, int] = Field(description='last day, "MM-DD" (inclusive)')
    peak: tuple[int, int] | None = Field(default=None, description="the event's main day (default: end)")

    @field_validator("start", "end", "peak", mode="before")
    @classmethod
    def _month_day(cls, value: object) -> object:
        if isinstance(value, str):
            found = _MONTH_DAY.match(value.strip())
            if found is None:
                raise ValueError(f"expected MM-DD, got {value!r}")
            value = (int(found.group(1)), int(found.group(2)))
        if isinstance(value, tuple | list) and len(value) == 2:
            dt.date(2024, int(value[0]), int(value[1]))  # a real day of a leap year, or ValueError
        return value

    @model_validator(mode="after")
    def _ordered(self) -> CalendarEvent:
        if self.start > self.end:
            raise ValueError("an event window must not wrap around the new year (start after end)")
        if self.peak is not None and not self.start <= self.peak <= self.end:
            raise ValueError("the peak day must lie inside the window")
        return self

    @property
    def peak_day(self) -> tuple[int, int]:
        return self.peak or self.end

    def contains(self, day: dt.date) -> bool:
        return self.start <= (day.month, day.day) <= self.end

    def is_peak_day(self, day: dt.date) -> bool:
        return (day.month, day.day) == self.peak_day

    def label(self, language: Language) -> str:
        return self.name.for_lang(language)


__all__ = ["Bilingual", "CalendarEvent", "Dialect", "Language", "Unit"]
