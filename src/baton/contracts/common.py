"""The small vocabulary every package shares: the user's language, SQL dialects, bilingual
labels and the calendar of known events.

Defined once, here, at the bottom of the dependency graph (contracts import nothing of ours).
"""

from __future__ import annotations

import calendar
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


MAX_EVENT_DAYS = 61
"""The longest window (in days after its first) an event of dated years may span."""


class EventDates(BaseModel):
    """One year's window of an event whose dates move (a lunar holiday, a sale set each year)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    start: dt.date = Field(description="first day")
    end: dt.date = Field(description="last day (inclusive)")
    peak: dt.date | None = Field(default=None, description="the main day (default: end)")

    @model_validator(mode="after")
    def _ordered(self) -> EventDates:
        if self.start > self.end:
            raise ValueError("an event's start must not be after its end")
        if (self.end - self.start).days > MAX_EVENT_DAYS:
            raise ValueError(f"an event window is at most {MAX_EVENT_DAYS + 1} days long")
        if self.peak is not None and not self.start <= self.peak <= self.end:
            raise ValueError("the peak day must lie inside the window")
        return self


def _on(year: int, month_day: tuple[int, int]) -> dt.date:
    """A fixed month-day in ``year``; 29 February is the 28th in a year without it."""
    month, day = month_day
    if (month, day) == (2, 29) and not calendar.isleap(year):
        day = 28
    return dt.date(year, month, day)


class CalendarEvent(BaseModel):
    """An event that moves the data (a promotion, a holiday): days inside its window read as
    "peak", never as trend or anomaly, and are left out of weekday baselines.

    A yearly event on fixed days has ``start``, ``end`` and ``peak`` as month-day pairs ("06-01");
    the window is inclusive and must not wrap around the new year. An event whose days move from
    year to year (Spring Festival, a sale dated each year) lists each year's window in ``dates``
    (a year listed there overrides the fixed days); a year with no window has no such event.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: Bilingual = Field(description="the event's name")
    synonyms: tuple[str, ...] = Field(default=(), description="other names a question may use (e.g. Singles' Day)")
    start: tuple[int, int] | None = Field(default=None, description='first day each year, "MM-DD"')
    end: tuple[int, int] | None = Field(default=None, description='last day each year, "MM-DD" (inclusive)')
    peak: tuple[int, int] | None = Field(default=None, description="the event's main day (default: end)")
    dates: dict[int, EventDates] = Field(
        default_factory=dict, description="the window of each year whose days are not the fixed ones, by year"
    )

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
        if (self.start is None) != (self.end is None):
            raise ValueError("an event's fixed days need both start and end")
        if self.start is None or self.end is None:
            if not self.dates:
                raise ValueError("an event needs its fixed days (start, end) or the dates of its years")
            if self.peak is not None:
                raise ValueError("a fixed peak needs fixed days; give each year's peak in dates")
        elif self.start > self.end:
            raise ValueError("an event window must not wrap around the new year (start after end)")
        elif self.peak is not None and not self.start <= self.peak <= self.end:
            raise ValueError("the peak day must lie inside the window")
        for year, window in self.dates.items():
            if window.start.year != year:
                raise ValueError(f"the window listed for {year} starts in {window.start.year}")
        return self

    def window(self, year: int) -> tuple[dt.date, dt.date, dt.date] | None:
        """The first, last and peak day of the event that starts in ``year``; ``None`` when it
        has no window that year (a dated event, the year not listed)."""
        dated = self.dates.get(year)
        if dated is not None:
            return dated.start, dated.end, dated.peak or dated.end
        if self.start is None or self.end is None:
            return None
        return _on(year, self.start), _on(year, self.end), _on(year, self.peak or self.end)

    def _windows_of(self, day: dt.date) -> list[tuple[dt.date, dt.date, dt.date]]:
        """The windows holding ``day`` (a dated one may run into the next year and overlap it)."""
        found = [self.window(year) for year in (day.year, day.year - 1)]
        return [w for w in found if w is not None and w[0] <= day <= w[1]]

    def contains(self, day: dt.date) -> bool:
        return bool(self._windows_of(day))

    def is_peak_day(self, day: dt.date) -> bool:
        return any(w[2] == day for w in self._windows_of(day))

    def label(self, language: Language) -> str:
        return self.name.for_lang(language)


__all__ = ["Bilingual", "CalendarEvent", "Dialect", "EventDates", "Language", "Unit"]
