"""Monotonic trend on a short series: Mann–Kendall test (tie-corrected) and Sen's slope.

Mann–Kendall makes no normality or linearity assumption, which suits daily business
series; callers should drop known peak days (see :mod:`baton.stats.calendar`) and incomplete
days first, and pass the day numbers as ``x`` so gaps keep their true spacing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import stats as sps

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import Interval, StatResult, check_alpha, clamp_p


@dataclass(frozen=True, kw_only=True)
class MannKendallResult(StatResult):
    """Mann–Kendall S, its tie-corrected variance, Z and p; ``estimate``/``ci`` are Sen's slope."""

    s: int
    var_s: float
    z: float
    tau: float
    n: int
    trend: str  # "increasing" | "decreasing" | "no trend"
    sen_slope: float
    sen_intercept: float


def _checked(values: Sequence[float], x: Sequence[float] | None) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray([float(v) for v in values], dtype=float)
    t = np.arange(len(y), dtype=float) if x is None else np.asarray([float(v) for v in x], dtype=float)
    if len(t) != len(y):
        raise StatsInputError(
            *both("stats.x_values_length", x=len(t), values=len(y)),
        )
    if not (np.all(np.isfinite(y)) and np.all(np.isfinite(t))):
        raise StatsInputError(*both("stats.not_finite_series"))
    if len(t) > 1 and not np.all(np.diff(t) > 0):
        raise StatsInputError(*both("stats.x_increasing"))
    if len(y) < 3:
        raise InsufficientData(*both("stats.trend_min", n=len(y)))
    return t, y


def _tie_groups(y: np.ndarray) -> np.ndarray:
    _, counts = np.unique(y, return_counts=True)
    return counts[counts > 1].astype(float)


def _pairwise(t: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    i, j = np.triu_indices(len(y), k=1)
    return y[j] - y[i], t[j] - t[i]


def _sen_bounds(sorted_slopes: np.ndarray, c: float) -> Interval:
    """Sen (1968) eq. 2.6 ranks M1 = (N − C)/2 and M2 + 1 = (N + C)/2 + 1, rounded to the nearest rank."""
    m = len(sorted_slopes)
    lo = max(int(np.round((m - c) / 2.0)) - 1, 0)
    hi = min(int(np.round((m + c) / 2.0)), m - 1)
    return float(sorted_slopes[lo]), float(sorted_slopes[hi])


def _z_score(s: int, sd: float, continuity: bool) -> float:
    """Normal score of S, optionally with the ±1 continuity correction towards zero."""
    if not continuity or s == 0:
        return s / sd
    return (s - 1) / sd if s > 0 else (s + 1) / sd


def mann_kendall(
    values: Sequence[float],
    x: Sequence[float] | None = None,
    alpha: float = 0.05,
    *,
    continuity: bool = True,
) -> MannKendallResult:
    """Mann–Kendall trend test with tie correction, plus Sen's slope and its rank-based CI (Sen 1968)."""
    check_alpha(alpha)
    t, y = _checked(values, x)
    n = len(y)
    dy, dt = _pairwise(t, y)
    s = int(np.sign(dy).sum())
    ties = _tie_groups(y)
    var_s = (n * (n - 1) * (2 * n + 5) - float(np.sum(ties * (ties - 1) * (2 * ties + 5)))) / 18.0
    if var_s <= 0.0:
        raise InsufficientData(*both("stats.constant_series"))
    sd = math.sqrt(var_s)
    z = _z_score(s, sd, continuity)
    p = clamp_p(2.0 * float(sps.norm.sf(abs(z))))
    n0 = n * (n - 1) / 2.0
    tau = s / math.sqrt(n0 * (n0 - float(np.sum(ties * (ties - 1) / 2.0))))
    slopes = np.sort(dy / dt)
    sen = float(np.median(slopes))
    c = float(sps.norm.ppf(1.0 - alpha / 2.0)) * sd
    ci = _sen_bounds(slopes, c)
    intercept = float(np.median(y) - sen * np.median(t))  # Conover (1980), as scipy's theilslopes
    trend = "no trend" if p > alpha else ("increasing" if s > 0 else "decreasing")
    return MannKendallResult(
        method="Mann–Kendall trend test (tie-corrected" + (", continuity-corrected)" if continuity else ")"),
        estimate=sen,
        ci=ci,
        confidence=1.0 - alpha,
        p_value=p,
        effect_size=tau,
        effect_size_name="kendall_tau_b",
        assumptions=(
            "observations serially independent (autocorrelation inflates significance)",
            "monotonic trend, not necessarily linear",
            "normal approximation to S (adequate for n ≥ 10)",
        ),
        s=s,
        var_s=var_s,
        z=z,
        tau=tau,
        n=n,
        trend=trend,
        sen_slope=sen,
        sen_intercept=intercept,
    )


def sens_slope(
    values: Sequence[float], x: Sequence[float] | None = None, alpha: float = 0.05
) -> tuple[float, Interval]:
    """Sen's slope (median pairwise slope) and its CI; a shortcut into :func:`mann_kendall`."""
    r = mann_kendall(values, x, alpha)
    return r.sen_slope, r.ci if r.ci is not None else (math.nan, math.nan)
