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


@pytest.mark.parametrize(
    ("member", "rest"),
    [
        (((10.0, 300.0), (58.0, 320.0)), ((900.0, 27000.0), (930.0, 28000.0))),  # a week's spike in a small region
        (((76.0, 1662.0), (250.0, 1901.0)), ((54.0, 1326.0), (174.0, 1451.0))),  # an even rise: no interaction
        (((40.0, 1.0), (25.0, 1.0)), ((400.0, 1.0), (410.0, 1.0))),  # counts of their own (exposure 1)
    ],
)
def test_rate_change_against_the_rest_is_the_poisson_interaction(
    member: tuple[tuple[float, float], tuple[float, float]], rest: tuple[tuple[float, float], tuple[float, float]]
) -> None:
    """The closed form equals a Poisson GLM (log link, log-exposure offsets) with group × period
    interaction, fitted here by maximum likelihood (Newton–Raphson, as a GLM's IRLS): β and its Wald
    z from the Fisher information."""
    from baton.stats import rate_change_against

    (n0, e0), (n1, e1) = member
    (r0, q0), (r1, q1) = rest
    y = np.array([n0, n1, r0, r1])
    offset = np.log([e0, e1, q0, q1])
    x = np.array([[1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0], [1, 0, 1, 0]], dtype=float)  # 1, group, period, g×p

    beta = np.array([math.log(y.sum() / np.exp(offset).sum()), 0.0, 0.0, 0.0])
    for _ in range(100):
        mu = np.exp(x @ beta + offset)
        beta = beta + np.linalg.solve(x.T @ (mu[:, None] * x), x.T @ (y - mu))
    mu = np.exp(x @ beta + offset)
    se = float(np.sqrt(np.linalg.inv(x.T @ (mu[:, None] * x))[3, 3]))
    got = rate_change_against(member, rest)
    assert got.estimate == pytest.approx(beta[3], abs=1e-9)
    assert got.z == pytest.approx(beta[3] / se, abs=1e-9)
    assert got.p_value == pytest.approx(2 * sps.norm.sf(abs(beta[3] / se)), abs=1e-12)
    assert got.relative_change == pytest.approx(np.exp(beta[3]) - 1, abs=1e-9)


def test_rate_change_against_needs_events_on_every_side() -> None:
    from baton.errors import InsufficientData
    from baton.stats import rate_change_against

    with pytest.raises(InsufficientData) as info:
        rate_change_against(((0.0, 300.0), (5.0, 300.0)), ((900.0, 27000.0), (930.0, 28000.0)))
    assert info.value.message_en != info.value.message_zh
