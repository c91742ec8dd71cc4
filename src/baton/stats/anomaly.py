"""Robust day-level anomaly scores that respect weekly seasonality and the promotion calendar.

Each day is compared with the same weekday in the previous ``weeks`` weeks: score =
(value − median) / robust scale (see :func:`seasonal_anomaly_scores`). Baselines skip
event-window days and known-incomplete days, so a promotion Monday does not make the next Monday look
low. Days inside a known peak window are labelled ``"peak"`` (never ``"anomaly"``); known-incomplete
days are labelled ``"incomplete"`` and not scored.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
import statistics
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from baton.errors import StatsInputError
from baton.messages import both

from ._result import to_jsonable
from .calendar import PeakWindow, peak_window_for

MAD_TO_SD = 1.4826
MEAN_AD_TO_SD = math.sqrt(math.pi / 2.0)


@dataclass(frozen=True)
class DayScore:
    """One day's verdict. ``label``: normal | anomaly | peak | incomplete | insufficient_history."""

    day: dt.date
    value: float
    label: str
    score: float | None
    direction: str | None  # "high" | "low" | None
    baseline_median: float | None
    baseline_scale: float | None
    n_history: int
    peak_name: str | None = None
    is_peak_day: bool = False


@dataclass(frozen=True)
class AnomalyReport:
    method: str
    threshold: float
    weeks: int
    pooled_relative_scale: float
    assumptions: tuple[str, ...]
    days: tuple[DayScore, ...]

    @property
    def anomalies(self) -> tuple[DayScore, ...]:
        return tuple(d for d in self.days if d.label == "anomaly")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = to_jsonable(self)
        return out


def _local_scale(history: Sequence[float], median: float) -> float:
    mad = statistics.median(abs(v - median) for v in history)
    scale = MAD_TO_SD * mad
    if scale == 0.0:
        scale = MEAN_AD_TO_SD * statistics.fmean(abs(v - median) for v in history)
    return scale


@dataclass(frozen=True)
class _Baseline:
    history: tuple[float, ...]
    median: float | None
    local_scale: float | None


def _baseline(
    day: dt.date,
    *,
    by_day: dict[dt.date, float],
    weeks: int,
    min_history: int,
    incomplete: set[dt.date],
    peaks: Sequence[PeakWindow],
) -> _Baseline:
    # Skipped weeks (peak, incomplete, missing) are replaced by earlier ones, up to 2·weeks back,
    # so the weeks right after a promotion still get a full, promotion-free baseline.
    eligible = (
        by_day[h]
        for h in (day - dt.timedelta(weeks=k) for k in range(1, 2 * weeks + 1))
        if h in by_day and h not in incomplete and peak_window_for(h, peaks) is None and math.isfinite(by_day[h])
    )
    history = tuple(itertools.islice(eligible, weeks))
    if len(history) < min_history:
        return _Baseline(history, None, None)
    median = statistics.median(history)
    return _Baseline(history, median, _local_scale(history, median))


def seasonal_anomaly_scores(
    days: Sequence[dt.date],
    values: Sequence[float],
    *,
    weeks: int = 4,
    threshold: float = 3.5,
    min_history: int = 3,
    peaks: Sequence[PeakWindow] = (),
    incomplete_days: Collection[dt.date] = (),
    min_relative_scale: float = 0.005,
) -> AnomalyReport:
    """Score every day against the median of the same weekday in the previous ``weeks`` weeks.

    The scale is the larger of (a) 1.4826·MAD of that weekday's history and (b) a pooled relative
    scale, 1.4826·median(|x − baseline| / |baseline|) over all ordinary days, times the baseline.
    (a) alone is unstable — a MAD of three or four points is often tiny — and flagged ~5 % of
    ordinary days on pure 2 % noise; (b) is stable and already includes the baseline's own noise.
    ``min_relative_scale`` floors the scale at that fraction of |baseline| for near-constant series.
    """
    if len(days) != len(values):
        raise StatsInputError(
            *both("stats.days_values_length", days=len(days), values=len(values)),
        )
    if len(set(days)) != len(days):
        raise StatsInputError(*both("stats.days_unique"))
    if weeks < 1 or min_history < 1 or min_history > weeks or threshold <= 0:
        raise StatsInputError(
            *both("stats.anomaly_settings"),
        )
    by_day = {d: float(v) for d, v in zip(days, values, strict=True)}
    incomplete = set(incomplete_days)
    baselines = {
        d: _baseline(d, by_day=by_day, weeks=weeks, min_history=min_history, incomplete=incomplete, peaks=peaks)
        for d in days
    }
    ordinary = [
        abs(by_day[d] - b.median) / abs(b.median)
        for d, b in baselines.items()
        if b.median and d not in incomplete and peak_window_for(d, peaks) is None and math.isfinite(by_day[d])
    ]
    pooled = MAD_TO_SD * statistics.median(ordinary) if ordinary else 0.0
    out: list[DayScore] = []
    for day in days:
        value, base = by_day[day], baselines[day]
        window = peak_window_for(day, peaks)
        peak_name = window.name.en if window else None
        is_peak_day = bool(window and window.is_peak_day(day))
        n_hist = len(base.history)
        if day in incomplete or not math.isfinite(value):
            out.append(DayScore(day, value, "incomplete", None, None, None, None, n_hist, peak_name, is_peak_day))
            continue
        if base.median is None or base.local_scale is None:
            label = "peak" if window else "insufficient_history"
            out.append(DayScore(day, value, label, None, None, None, None, n_hist, peak_name, is_peak_day))
            continue
        median = base.median
        scale = max(base.local_scale, pooled * abs(median), min_relative_scale * abs(median))
        if scale > 0:
            score = (value - median) / scale
        else:
            score = 0.0 if value == median else math.copysign(math.inf, value - median)
        direction = None if score == 0 else ("high" if score > 0 else "low")
        label = "peak" if window else ("anomaly" if abs(score) >= threshold else "normal")
        out.append(DayScore(day, value, label, score, direction, median, scale, n_hist, peak_name, is_peak_day))
    return AnomalyReport(
        method=f"robust z vs. median of the same weekday in the previous {weeks} weeks",
        threshold=threshold,
        weeks=weeks,
        pooled_relative_scale=pooled,
        assumptions=(
            "weekly seasonality; same-weekday history is comparable",
            "baselines skip calendar event windows and incomplete days, reaching back ≤ 2·weeks",
            "scale = max(weekday MAD, pooled relative MAD × baseline)",
        ),
        days=tuple(out),
    )
