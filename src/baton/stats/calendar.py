"""Known commercial peaks (618, 双11) so that they read as "peak", not as anomaly or trend."""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class PeakWindow:
    """A yearly promotion window [start, end] with its peak day (all as month/day)."""

    name: str
    name_zh: str
    start: tuple[int, int]
    end: tuple[int, int]
    peak: tuple[int, int]

    def contains(self, day: dt.date) -> bool:
        return self.start <= (day.month, day.day) <= self.end

    def is_peak_day(self, day: dt.date) -> bool:
        return (day.month, day.day) == self.peak


KNOWN_PEAKS: tuple[PeakWindow, ...] = (
    PeakWindow(name="618", name_zh="618 大促", start=(6, 1), end=(6, 18), peak=(6, 18)),
    PeakWindow(name="Double 11", name_zh="双11", start=(11, 1), end=(11, 11), peak=(11, 11)),
)


def peak_window_for(day: dt.date, peaks: Sequence[PeakWindow] = KNOWN_PEAKS) -> PeakWindow | None:
    """The known peak window containing ``day``, if any."""
    for window in peaks:
        if window.contains(day):
            return window
    return None


def exclude_days(
    days: Sequence[dt.date],
    values: Sequence[float],
    *,
    peaks: Sequence[PeakWindow] = KNOWN_PEAKS,
    incomplete_days: Collection[dt.date] = (),
) -> tuple[list[dt.date], list[float]]:
    """Drop peak-window and known-incomplete days, e.g. before a trend test or a change-point search."""
    kept = [
        (d, float(v))
        for d, v in zip(days, values, strict=True)
        if d not in incomplete_days and peak_window_for(d, peaks) is None
    ]
    return [d for d, _ in kept], [v for _, v in kept]
