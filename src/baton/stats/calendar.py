"""Known events (promotions, holidays) so that their days read as "peak", not as anomaly or trend.

The events come from the catalog (``calendar:``); statistics only ask whether a day falls in
one. Nothing here knows any particular warehouse's calendar.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence

from baton.contracts.common import CalendarEvent

PeakWindow = CalendarEvent
"""A yearly event window with its peak day (the catalog's ``calendar`` entries)."""


def peak_window_for(day: dt.date, peaks: Sequence[PeakWindow] = ()) -> PeakWindow | None:
    """The event window containing ``day``, if any."""
    for window in peaks:
        if window.contains(day):
            return window
    return None


def exclude_days(
    days: Sequence[dt.date],
    values: Sequence[float],
    *,
    peaks: Sequence[PeakWindow] = (),
    incomplete_days: Collection[dt.date] = (),
) -> tuple[list[dt.date], list[float]]:
    """Drop event-window and known-incomplete days, e.g. before a trend test or a change-point search."""
    kept = [
        (d, float(v))
        for d, v in zip(days, values, strict=True)
        if d not in incomplete_days and peak_window_for(d, peaks) is None
    ]
    return [d for d, _ in kept], [v for _, v in kept]
