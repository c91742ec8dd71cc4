"""OLS from sums against NIST Norris certified values and R's lm(mpg ~ wt, mtcars)."""

from __future__ import annotations

import math

import pytest
from scipy import stats as sps

from baton.stats import InsufficientData, LinearSums, ols_fit, ols_from_sums

from .reference_data import MTCARS_WT_MPG, SCIPY_DATA, certified, nist_norris

NORRIS = SCIPY_DATA / "nist_linregress" / "Norris.dat"


def _raw_sums(x: list[float], y: list[float]) -> LinearSums:
    """Unshifted sums, as a plain SQL SUM(x), SUM(x*x), … would return them."""
    return LinearSums(
        n=len(x),
        sx=math.fsum(x),
        sy=math.fsum(y),
        sxx=math.fsum(a * a for a in x),
        sxy=math.fsum(a * b for a, b in zip(x, y, strict=True)),
        syy=math.fsum(b * b for b in y),
    )


def test_norris_certified_values() -> None:
    b0, b1 = certified(NORRIS, "B0"), certified(NORRIS, "B1")
    assert (b0[1], b1[1]) == ("-0.262323073774029", "1.00211681802045")
    r2 = float(certified(NORRIS, "R-Squared")[-1])
    resid_sd = float(certified(NORRIS, "Standard Deviation")[-1])
    x, y = nist_norris()
    for fit in (ols_fit(x, y), ols_from_sums(_raw_sums(x, y))):
        assert fit.slope == pytest.approx(float(b1[1]), rel=1e-10)
        assert fit.intercept == pytest.approx(float(b0[1]), rel=1e-10)
        assert fit.slope_se == pytest.approx(float(b1[2]), rel=1e-9)
        assert fit.intercept_se == pytest.approx(float(b0[2]), rel=1e-9)
        assert fit.r_squared == pytest.approx(r2, rel=1e-12)
        assert fit.residual_sd == pytest.approx(resid_sd, rel=1e-9)
        assert fit.df == 34


def test_mtcars_matches_r_lm() -> None:
    wt, mpg = zip(*MTCARS_WT_MPG, strict=True)
    fit = ols_fit(list(wt), list(mpg))
    assert fit.slope == pytest.approx(-5.3445, abs=5e-5)
    assert fit.slope_se == pytest.approx(0.5591, abs=5e-5)
    assert fit.intercept == pytest.approx(37.2851, abs=5e-5)
    assert fit.intercept_se == pytest.approx(1.8776, abs=5e-5)
    assert fit.r_squared == pytest.approx(0.7528, abs=5e-5)
    ref = sps.linregress(wt, mpg)
    assert fit.p_value == pytest.approx(ref.pvalue, rel=1e-8)
    q = sps.t.ppf(0.975, 30)
    assert fit.ci == pytest.approx((ref.slope - q * ref.stderr, ref.slope + q * ref.stderr), rel=1e-10)


def test_perfect_line_and_degenerate_x() -> None:
    fit = ols_fit([0, 1, 2, 3], [1, 3, 5, 7])
    assert fit.slope == pytest.approx(2.0)
    assert fit.r_squared == pytest.approx(1.0)
    assert fit.p_value == pytest.approx(0.0, abs=1e-12)
    with pytest.raises(InsufficientData):
        ols_fit([1, 1, 1], [1, 2, 3])
    with pytest.raises(InsufficientData):
        ols_fit([1, 2], [1, 2])
