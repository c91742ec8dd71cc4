"""Simple linear regression (OLS) from the six sums, so a trend slope never needs raw rows.

As with :class:`~baton.stats.suffstats.SuffStats`, the sums may be taken around shifts
(``Σ(x − x_shift)``, ``Σ(x − x_shift)(y − y_shift)``, …) to avoid cancellation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as sps

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import Interval, StatResult, check_alpha, clamp_p


@dataclass(frozen=True)
class LinearSums:
    """``n`` and the sums Σx, Σy, Σx², Σxy, Σy² of (possibly shifted) pairs."""

    n: int
    sx: float
    sy: float
    sxx: float
    sxy: float
    syy: float
    x_shift: float = 0.0
    y_shift: float = 0.0

    @classmethod
    def from_xy(cls, x: Sequence[float], y: Sequence[float]) -> LinearSums:
        """Sums of the pairs centred on their means (two passes, exactly summed)."""
        if len(x) != len(y):
            raise StatsInputError(
                *both("stats.xy_length", x=len(x), y=len(y)),
            )
        n = len(x)
        if n == 0:
            raise InsufficientData(*both("stats.no_points"))
        xs, ys = [float(v) for v in x], [float(v) for v in y]
        kx, ky = math.fsum(xs) / n, math.fsum(ys) / n
        dx, dy = [v - kx for v in xs], [v - ky for v in ys]
        return cls(
            n=n,
            sx=math.fsum(dx),
            sy=math.fsum(dy),
            sxx=math.fsum(a * a for a in dx),
            sxy=math.fsum(a * b for a, b in zip(dx, dy, strict=True)),
            syy=math.fsum(b * b for b in dy),
            x_shift=kx,
            y_shift=ky,
        )


@dataclass(frozen=True, kw_only=True)
class OlsResult(StatResult):
    """``y = intercept + slope·x``; ``estimate``/``ci``/``p_value`` are the slope's, ``effect_size`` is R²."""

    slope: float
    slope_se: float
    intercept: float
    intercept_se: float
    intercept_ci: Interval
    r_squared: float
    residual_sd: float
    t: float
    n: int
    df: int


def ols_from_sums(sums: LinearSums, alpha: float = 0.05) -> OlsResult:
    """OLS slope, intercept, their standard errors and CIs, and R², from :class:`LinearSums`."""
    check_alpha(alpha)
    n = sums.n
    if n < 3:
        raise InsufficientData(
            *both("stats.slope_min", n=n),
        )
    mx, my = sums.sx / n, sums.sy / n
    sxx = sums.sxx - sums.sx * mx
    syy = sums.syy - sums.sy * my
    sxy = sums.sxy - sums.sx * my
    if sxx <= 0.0:
        raise InsufficientData(*both("stats.x_constant"))
    slope = sxy / sxx
    sse = max(0.0, syy - sxy * sxy / sxx)
    df = n - 2
    mse = sse / df
    slope_se = math.sqrt(mse / sxx)
    x_bar = sums.x_shift + mx
    intercept = (sums.y_shift + my) - slope * x_bar
    intercept_se = math.sqrt(mse * (1.0 / n + x_bar * x_bar / sxx))
    q = float(sps.t.ppf(1.0 - alpha / 2.0, df))
    if slope_se > 0:
        t = slope / slope_se
        p = clamp_p(2.0 * float(sps.t.sf(abs(t), df)))
    else:
        t = math.copysign(math.inf, slope) if slope != 0 else 0.0
        p = 0.0 if slope != 0 else 1.0
    r2 = 1.0 if syy <= 0.0 else min(1.0, sxy * sxy / (sxx * syy))
    return OlsResult(
        method="ordinary least squares, simple linear regression",
        estimate=slope,
        ci=(slope - q * slope_se, slope + q * slope_se),
        confidence=1.0 - alpha,
        p_value=p,
        effect_size=r2,
        effect_size_name="r_squared",
        assumptions=(
            "linear relation between x and y",
            "independent residuals (daily series may be autocorrelated: CI then too narrow)",
            "constant residual variance, approximately normal residuals",
        ),
        slope=slope,
        slope_se=slope_se,
        intercept=intercept,
        intercept_se=intercept_se,
        intercept_ci=(intercept - q * intercept_se, intercept + q * intercept_se),
        r_squared=r2,
        residual_sd=math.sqrt(mse),
        t=t,
        n=n,
        df=df,
    )


def ols_fit(x: Sequence[float], y: Sequence[float], alpha: float = 0.05) -> OlsResult:
    """OLS of ``y`` on ``x`` from the raw pairs (short series); same result as :func:`ols_from_sums`."""
    return ols_from_sums(LinearSums.from_xy(x, y), alpha)
