"""Mann–Kendall and Sen's slope against scipy; change points on planted series."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from baton.stats import InsufficientData, StatsInputError, detect_mean_changes, mann_kendall, sens_slope


def _series(seed: int, n: int, slope: float, noise: float, rounding: int = 0) -> list[float]:
    rng = np.random.default_rng(seed)
    return list(np.round(slope * np.arange(n) + rng.normal(0.0, noise, n), rounding))


@pytest.mark.parametrize(("seed", "n", "slope"), [(1, 40, 0.3), (2, 60, -0.1), (3, 25, 0.0), (4, 90, 0.05)])
def test_mann_kendall_matches_kendalltau(seed: int, n: int, slope: float) -> None:
    y = _series(seed, n, slope, 3.0)  # integer rounding creates ties in y
    r = mann_kendall(y, continuity=False)
    ref = sps.kendalltau(np.arange(n), y, method="asymptotic")
    assert r.tau == pytest.approx(float(ref.statistic), rel=1e-12)
    assert r.p_value == pytest.approx(float(ref.pvalue), rel=1e-9)
    # S itself: concordant minus discordant pairs, counted directly.
    s = sum(int(np.sign(y[j] - y[i])) for i in range(n) for j in range(i + 1, n))
    assert r.s == s


def test_continuity_correction_shrinks_z() -> None:
    y = _series(5, 30, 0.2, 2.0)
    plain, corrected = mann_kendall(y, continuity=False), mann_kendall(y)
    assert abs(corrected.z) < abs(plain.z)
    assert corrected.p_value is not None
    assert plain.p_value is not None
    assert corrected.p_value > plain.p_value


def test_tie_correction_reduces_variance() -> None:
    y = [1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 4.0, 4.0]
    n = len(y)
    r = mann_kendall(y)
    no_ties = n * (n - 1) * (2 * n + 5) / 18
    assert r.var_s == pytest.approx(no_ties - (2 * 1 * 9 + 3 * 2 * 11 + 2 * 1 * 9) / 18)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_sen_slope_matches_theilslopes(seed: int) -> None:
    y = _series(seed, 50, 0.4, 4.0, rounding=1)
    ref = sps.theilslopes(y, alpha=0.95)
    slope, (lo, hi) = sens_slope(y)
    assert slope == pytest.approx(float(ref.slope))
    assert (lo, hi) == pytest.approx((float(ref.low_slope), float(ref.high_slope)))
    assert mann_kendall(y).sen_intercept == pytest.approx(float(ref.intercept))


def test_trend_direction_and_gaps_in_x() -> None:
    y = [10.0 - 0.5 * i + (0.3 if i % 2 else -0.3) for i in range(30)]
    assert mann_kendall(y).trend == "decreasing"
    x = [float(i) for i in range(30) if i != 12]
    r = mann_kendall([y[i] for i in range(30) if i != 12], x=x)
    assert r.sen_slope == pytest.approx(-0.5, abs=0.05)
    with pytest.raises(StatsInputError):
        mann_kendall([1.0, 2.0, 3.0], x=[0.0, 2.0, 1.0])
    with pytest.raises(InsufficientData):
        mann_kendall([2.0, 2.0, 2.0, 2.0])


def test_change_point_found_at_planted_step() -> None:
    rng = np.random.default_rng(3)
    y = np.concatenate([rng.normal(100, 3, 40), rng.normal(85, 3, 30)])
    r = detect_mean_changes(list(y))
    assert [c.index for c in r.change_points] == [40]
    cp = r.change_points[0]
    assert cp.shift == pytest.approx(-15, abs=2.5)
    assert cp.shift_in_sigma is not None
    assert cp.shift_in_sigma < -3
    assert [(s.start, s.end) for s in r.segments] == [(0, 40), (40, 70)]


def test_no_change_point_in_pure_noise() -> None:
    found = 0
    for seed in range(20):
        y = np.random.default_rng(seed).normal(50, 5, 60)
        found += len(detect_mean_changes(list(y)).change_points)
    assert found <= 2  # BIC-like penalty keeps false alarms rare


def test_change_point_two_steps_and_min_size() -> None:
    y = [0.0] * 10 + [10.0] * 10 + [3.0] * 10
    r = detect_mean_changes([v + (0.1 if i % 2 else -0.1) for i, v in enumerate(y)])
    assert [c.index for c in r.change_points] == [10, 20]
    with pytest.raises(InsufficientData):
        detect_mean_changes([1.0, 2.0, 3.0], min_size=2)
    assert detect_mean_changes([5.0] * 12).change_points == ()
