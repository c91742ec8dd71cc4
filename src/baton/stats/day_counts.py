"""Is a day's data all there? Each day's row count against the same weekday of earlier weeks
and against its neighbouring days.

A partly loaded day is low on both; a holiday plateau only on the first; a calendar event
(a promotion) is left out of every baseline so it neither hides nor fakes a gap.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from .calendar import PeakWindow, peak_window_for

WEEKDAY_RATIO = 0.8
NEIGHBOUR_RATIO = 0.75
HISTORY_WEEKS = 4


@dataclass(frozen=True)
class DayCheck:
    day: date
    rows: int
    weekday_ratio: float | None
    neighbour_ratio: float | None

    @property
    def incomplete(self) -> bool:
        if self.rows == 0:
            return True
        return (
            self.weekday_ratio is not None
            and self.neighbour_ratio is not None
            and self.weekday_ratio < WEEKDAY_RATIO
            and self.neighbour_ratio < NEIGHBOUR_RATIO
        )


def weekday_factors(counts: Mapping[date, int], peaks: Sequence[PeakWindow] = ()) -> dict[int, float]:
    """Median rows per weekday over the window (event days left out), relative to the overall median."""
    ordinary = {d: c for d, c in counts.items() if peak_window_for(d, peaks) is None and c > 0}
    if not ordinary:
        return {}
    overall = statistics.median(ordinary.values())
    by_day: dict[int, list[int]] = {}
    for d, c in ordinary.items():
        by_day.setdefault(d.weekday(), []).append(c)
    return {wd: statistics.median(v) / overall for wd, v in by_day.items() if overall > 0}


def completeness(counts: Mapping[date, int], days: Sequence[date], peaks: Sequence[PeakWindow] = ()) -> list[DayCheck]:
    """Each day's rows vs the median of the same weekday in up to 4 earlier weeks (skipping
    event windows, reaching back ≤ 8 weeks) and vs the median of the 3 days on either side,
    all weekday-adjusted (so a Tuesday next to a weekend is not "low")."""
    factors = weekday_factors(counts, peaks)

    def adjusted(d: date) -> float:
        return counts[d] / factors.get(d.weekday(), 1.0)

    out: list[DayCheck] = []
    for day in days:
        rows = counts.get(day, 0)
        history = [
            counts[h]
            for h in (day - timedelta(weeks=k) for k in range(1, 2 * HISTORY_WEEKS + 1))
            if h in counts and peak_window_for(h, peaks) is None
        ][:HISTORY_WEEKS]
        neighbours = [
            adjusted(n) for k in (1, 2, 3) for n in (day - timedelta(days=k), day + timedelta(days=k)) if n in counts
        ]
        weekday = rows / statistics.median(history) if len(history) >= 2 and statistics.median(history) > 0 else None
        near = (
            rows / factors.get(day.weekday(), 1.0) / statistics.median(neighbours)
            if len(neighbours) >= 2 and statistics.median(neighbours) > 0
            else None
        )
        out.append(DayCheck(day, rows, weekday, near))
    return out
