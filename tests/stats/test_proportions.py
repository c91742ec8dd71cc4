"""Wilson, Newcombe and the pooled z test against scipy and Newcombe (1998)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from baton.stats import StatsInputError, cohens_h, newcombe_interval, two_proportion_test, wilson_interval


@pytest.mark.parametrize(
    ("x", "n", "alpha"),
    [(81, 263, 0.05), (0, 10, 0.05), (10, 10, 0.05), (1, 2, 0.1), (37, 1000, 0.01), (500, 999, 0.05)],
)
def test_wilson_matches_scipy(x: int, n: int, alpha: float) -> None:
    ref = sps.binomtest(x, n).proportion_ci(confidence_level=1 - alpha, method="wilson")
    lo, hi = wilson_interval(x, n, alpha)
    assert lo == pytest.approx(float(ref.low), abs=1e-12)
    assert hi == pytest.approx(float(ref.high), abs=1e-12)


def test_wilson_textbook_value() -> None:
    lo, hi = wilson_interval(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)


def test_newcombe_1998_example() -> None:
    # Newcombe (1998), Stat Med 17:873, method 10: 56/70 vs 48/80 → 0.2000, [0.0524, 0.3339].
    r = two_proportion_test(48, 80, 56, 70)
    assert r.estimate == pytest.approx(0.2)
    assert r.ci is not None
    assert (round(r.ci[0], 4), round(r.ci[1], 4)) == (0.0524, 0.3339)
    assert newcombe_interval(48, 80, 56, 70) == r.ci


def test_newcombe_flips_with_the_groups() -> None:
    lo, hi = newcombe_interval(56, 70, 48, 80)
    lo2, hi2 = newcombe_interval(48, 80, 56, 70)
    assert (lo, hi) == pytest.approx((-hi2, -lo2))


def test_pooled_z_squared_is_uncorrected_chi_square() -> None:
    r = two_proportion_test(120, 1000, 150, 1050)
    chi2, p, _, _ = sps.chi2_contingency(np.array([[120, 880], [150, 900]]), correction=False)
    assert r.z**2 == pytest.approx(chi2, rel=1e-12)
    assert r.p_value == pytest.approx(p, rel=1e-9)
    assert r.ci_p1 == wilson_interval(120, 1000)


def test_cohens_h_values() -> None:
    assert cohens_h(0.5, 0.5) == 0.0
    assert cohens_h(0.0, 1.0) == pytest.approx(math.pi)
    assert cohens_h(0.6, 0.8) == pytest.approx(-cohens_h(0.8, 0.6))
    assert two_proportion_test(48, 80, 56, 70).effect_size == pytest.approx(cohens_h(0.6, 0.8))


def test_relative_change_katz_interval() -> None:
    r = two_proportion_test(48, 80, 56, 70)
    assert r.relative_change == pytest.approx(0.8 / 0.6 - 1)
    assert r.relative_ci is not None
    se = math.sqrt(0.4 / 48 + 0.2 / 56)
    assert r.relative_ci[0] == pytest.approx(math.exp(math.log(0.8 / 0.6) - 1.959963984540054 * se) - 1)
    assert two_proportion_test(0, 50, 5, 50).relative_change is None


@pytest.mark.parametrize(("x1", "n1", "x2", "n2"), [(5, 4, 1, 2), (-1, 3, 1, 2), (1, 0, 1, 2), (1, 2, 3, 2)])
def test_bad_counts_are_refused(x1: int, n1: int, x2: int, n2: int) -> None:
    with pytest.raises(StatsInputError):
        two_proportion_test(x1, n1, x2, n2)
