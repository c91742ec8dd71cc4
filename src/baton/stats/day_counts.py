"""Is a day's data all there? Each day's row count against the same weekday of earlier weeks
and against its neighbouring days, judged with the counting noise of the table.

A partly loaded day is low on both baselines; a holiday plateau only on the first; a calendar
event (a promotion) is left out of the same-weekday baseline, of the noise estimate and of the
neighbours of a day outside it (the day after a promotion is no gap for being below the promotion itself),
so it neither hides nor fakes a gap. An event's peak day is judged against the same event a
year earlier instead (its peak over its other days, times this year's other days): half a
peak day still looks like an ordinary one. A low
day is only *incomplete* when it is also improbably low for the table's noise: row counts
are modelled as quasi-Poisson around the baseline, with the dispersion estimated from the
table's own days (median of squared Pearson residuals), so 80 orders a day may dip to 60
without a flag while a table that always has exactly 56 rows may not lose 20.

The tail probability is computed here (the Poisson or negative-binomial sum, exactly, from the
observed count downwards): ``scipy.stats`` would cost the ``ask`` path, which runs this check
for daily series, a third of a second of import for one number.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cached_property

from .calendar import PeakWindow, peak_window_for

WEEKDAY_RATIO = 0.8
NEIGHBOUR_RATIO = 0.75
"""Materiality: a flagged day holds less than this share of each baseline."""
HISTORY_WEEKS = 4
TAIL_PROBABILITY = 1e-4
"""A flagged day is this improbably low under the table's counting noise against *each* of its
two baselines (one-sided): a false flag about once in ten thousand ordinary days."""
MIN_DISPERSION = 0.05
"""Floor of the dispersion: a table with exactly the same rows every day still has some slack."""
UNDER_DISPERSED_FROM = 20.0
"""A day expected to hold this many rows or fewer is judged as Poisson at least: a few events a day
cannot be told to be under-dispersed (a table of one or two rows a day has days of none, no failed
load); above it the floor falls as 20 / expected, so no cliff separates 19.9 from 20.1."""
EVENT_PEAK_RATIO = 0.6
"""Materiality of a peak day against last year's same event: a promotion may peak lower than
last year's shape, but not below 60 % of it without a load to blame — and a peak that is still
above the event's other days is a promotion that did badly, never flagged."""
_CHI2_1_MEDIAN = 0.454936
MIN_EVENT_DAYS = 3
"""Other days of an event window needed on each side of the year to read its shape."""


@dataclass(frozen=True)
class DayCheck:
    """One day against its two baselines. The tail probability is computed on demand: it is an
    exact sum of hundreds of terms for a busy table, and only a materially low day needs it (the
    ``ask`` path checks every day of a period and of eight weeks before it)."""

    day: date
    rows: int
    weekday_baseline: float | None
    neighbour_baseline: float | None
    dispersion: float
    event_baseline: float | None = None
    """An event's peak day: the rows last year's same event predicts (judged by it alone)."""
    event_days: float | None = None
    """…and the median rows of the event's other days this year (a peak below them is no peak)."""

    @property
    def share(self) -> float | None:
        """The day's rows as a share of the baseline it is judged by."""
        if self.event_baseline is not None:
            return self.rows / self.event_baseline
        return self.weekday_ratio

    @property
    def weekday_ratio(self) -> float | None:
        return None if self.weekday_baseline is None else self.rows / self.weekday_baseline

    @property
    def neighbour_ratio(self) -> float | None:
        return None if self.neighbour_baseline is None else self.rows / self.neighbour_baseline

    @cached_property
    def tail_probability(self) -> float | None:
        """P(rows this low or lower) under the noise model, against the higher of the two tails."""
        if self.event_baseline is not None:
            return lower_tail(self.rows, self.event_baseline, self.dispersion)
        baselines = [b for b in (self.weekday_baseline, self.neighbour_baseline) if b is not None]
        return max(lower_tail(self.rows, b, self.dispersion) for b in baselines) if baselines else None

    @property
    def incomplete(self) -> bool:
        if self.rows == 0:
            material = True
        elif self.event_baseline is not None:  # and no peak at all among its event's days: a load, not a flop
            below = self.event_days is None or self.rows < self.event_days
            material = below and self.rows < EVENT_PEAK_RATIO * self.event_baseline
        else:
            ratios = [(self.weekday_ratio, WEEKDAY_RATIO), (self.neighbour_ratio, NEIGHBOUR_RATIO)]
            known = [(r, limit) for r, limit in ratios if r is not None]
            material = len(known) == 2 and all(r < limit for r, limit in known)
        if not material:
            return False
        tail = self.tail_probability
        return tail is not None and tail < TAIL_PROBABILITY


Windows = Mapping[date, PeakWindow | None]
"""Each day of a count table's event window (``None``: an ordinary day), looked up once per day."""


def _windows(counts: Mapping[date, int], peaks: Sequence[PeakWindow]) -> dict[date, PeakWindow | None]:
    return {d: peak_window_for(d, peaks) for d in counts}


def weekday_factors(counts: Mapping[date, int], peaks: Sequence[PeakWindow] = ()) -> dict[int, float]:
    """Median rows per weekday over the window (event days left out), relative to the overall median."""
    return _weekday_factors(counts, _windows(counts, peaks))


def _weekday_factors(counts: Mapping[date, int], windows: Windows) -> dict[int, float]:
    ordinary = {d: c for d, c in counts.items() if windows[d] is None and c > 0}
    if not ordinary:
        return {}
    overall = statistics.median(ordinary.values())
    by_day: dict[int, list[int]] = {}
    for d, c in ordinary.items():
        by_day.setdefault(d.weekday(), []).append(c)
    return {wd: statistics.median(v) / overall for wd, v in by_day.items() if overall > 0}


def lower_tail(rows: int, expected: float, dispersion: float) -> float:
    """P(X ≤ rows) for counts with mean ``expected`` and variance ``dispersion × expected``:
    negative binomial above 1, Poisson at 1 (summed exactly, downwards from ``rows`` while the
    terms still matter), a narrower normal below 1 (an under-dispersed table)."""
    if expected <= 0:
        return 1.0
    if rows >= expected:
        return 0.5  # not low: the exact value does not matter to any caller
    dispersion = max(dispersion, min(1.0, UNDER_DISPERSED_FROM / expected))
    if dispersion < 1.0:
        sd = math.sqrt(max(dispersion, MIN_DISPERSION) * expected)
        return 0.5 * math.erfc(-((rows + 0.5 - expected) / sd) / math.sqrt(2.0))
    # pmf(k − 1) / pmf(k) = k / (slope·(k − 1) + base): Poisson k / mean, negative binomial k / ((k − 1 + size)·(1 − p))
    if dispersion == 1.0:
        log_top = rows * math.log(expected) - expected - math.lgamma(rows + 1)
        slope, base = 0.0, expected
    else:
        size, p = expected / (dispersion - 1.0), 1.0 / dispersion
        log_top = (
            math.lgamma(rows + size)
            - math.lgamma(size)
            - math.lgamma(rows + 1)
            + size * math.log(p)
            + rows * math.log1p(-p)
        )
        slope, base = 1.0 - p, size * (1.0 - p)
    term, total, k = 1.0, 1.0, rows
    while k > 0 and term > 1e-17 * total:
        term *= k / (slope * (k - 1) + base)
        total += term
        k -= 1
    return min(1.0, math.exp(log_top) * total)


def _history(counts: Mapping[date, int], day: date, windows: Windows) -> list[int]:
    """The same weekday in up to 4 earlier weeks (event windows skipped, ≤ 8 weeks back)."""
    found = [
        counts[h]
        for h in (day - timedelta(weeks=k) for k in range(1, 2 * HISTORY_WEEKS + 1))
        if h in counts and windows[h] is None
    ]
    return found[:HISTORY_WEEKS]


def _weekday_baseline(counts: Mapping[date, int], day: date, windows: Windows) -> float | None:
    history = _history(counts, day, windows)
    if len(history) < 2:
        return None
    middle = float(statistics.median(history))
    return middle if middle > 0 else None


def _adjusted(counts: Mapping[date, int], factors: Mapping[int, float]) -> dict[date, float]:
    """Each day's rows divided by its weekday's factor."""
    return {d: c / factors.get(d.weekday(), 1.0) for d, c in counts.items()}


_NEAR = tuple(timedelta(days=k) for k in (-1, 1, -2, 2, -3, 3))


def _neighbour_baseline(
    adjusted: Mapping[date, float], day: date, factors: Mapping[int, float], windows: Windows, own: PeakWindow | None
) -> float | None:
    """The median of the 3 days on either side, weekday-adjusted to ``day``'s weekday; days of an
    event window ``day`` is not in (``own``: the one it is in) are no neighbours of it."""
    near = [adjusted[n] for n in (day + k for k in _NEAR) if n in adjusted and windows[n] in (None, own)]
    if len(near) < 2:
        return None
    middle = float(statistics.median(near)) * factors.get(day.weekday(), 1.0)
    return middle if middle > 0 else None


def dispersion(counts: Mapping[date, int], peaks: Sequence[PeakWindow] = ()) -> float:
    """The table's quasi-Poisson dispersion: the median squared Pearson residual of each
    ordinary day against its neighbours (a local level, so a real shift of the business is not
    mistaken for noise), scaled to a variance ratio. Robust to the few faulty days it is meant
    to find."""
    windows = _windows(counts, peaks)
    factors = _weekday_factors(counts, windows)
    return _dispersion(counts, factors, _adjusted(counts, factors), windows)


def _dispersion(
    counts: Mapping[date, int], factors: Mapping[int, float], adjusted: Mapping[date, float], windows: Windows
) -> float:
    residuals = []
    for day, rows in counts.items():
        if windows[day] is not None:
            continue
        expected = _neighbour_baseline(adjusted, day, factors, windows, None)
        if expected is not None:
            residuals.append((rows - expected) ** 2 / expected)
    if len(residuals) < 5:
        return 1.0
    return max(statistics.median(residuals) / _CHI2_1_MEDIAN, MIN_DISPERSION)


def _event_windows(day: date, peaks: Sequence[PeakWindow]) -> tuple[tuple[date, date, date], ...] | None:
    """This year's and last year's window (first, last, peak) of the event ``day`` is the peak of."""
    window = peak_window_for(day, peaks)
    if window is None:
        return None
    for year in (day.year, day.year - 1):
        this = window.window(year)
        before = window.window(year - 1)
        if this is not None and this[2] == day and before is not None:
            return this, before
    return None


def peak_days_a_year_back(days: Sequence[date], peaks: Sequence[PeakWindow]) -> list[tuple[date, date]]:
    """Last year's window of each event whose peak day is among ``days``: the rows a peak day
    is judged by (:func:`completeness` reads them from its ``counts``)."""
    found = {windows[1][:2] for day in days if (windows := _event_windows(day, peaks)) is not None}
    return sorted(found)


def _event_baseline(
    counts: Mapping[date, int], day: date, peaks: Sequence[PeakWindow]
) -> tuple[float, float] | tuple[None, None]:
    """The rows last year's same event predicts for its peak ``day`` — last year's peak over the
    median of its other days, times the median of this year's other days (so a bigger or
    smaller promotion moves the expectation with it) — and that median of this year's."""
    windows = _event_windows(day, peaks)
    if windows is None:
        return None, None
    levels = []
    for first, last, peak in windows:
        other = [counts[d] for d in _days(first, last) if d != peak and counts.get(d, 0) > 0]
        if len(other) < MIN_EVENT_DAYS:
            return None, None
        levels.append(float(statistics.median(other)))
    peak_before = counts.get(windows[1][2], 0)
    if peak_before <= 0:
        return None, None
    return peak_before / levels[1] * levels[0], levels[0]


def _days(first: date, last: date) -> list[date]:
    return [first + timedelta(days=i) for i in range((last - first).days + 1)]


def completeness(counts: Mapping[date, int], days: Sequence[date], peaks: Sequence[PeakWindow] = ()) -> list[DayCheck]:
    """Each of ``days`` against its same-weekday and neighbour baselines (an event's peak day
    against last year's event, when ``counts`` holds it), with the probability of so few rows
    under the table's noise (days absent from ``counts`` have no rows)."""
    windows = _windows(counts, peaks)
    factors = _weekday_factors(counts, windows)
    adjusted = _adjusted(counts, factors)
    phi = _dispersion(counts, factors, adjusted, windows)
    return [
        DayCheck(
            day,
            counts.get(day, 0),
            _weekday_baseline(counts, day, windows),
            _neighbour_baseline(adjusted, day, factors, windows, peak_window_for(day, peaks)),
            phi,
            *_event_baseline(counts, day, peaks),
        )
        for day in days
    ]
