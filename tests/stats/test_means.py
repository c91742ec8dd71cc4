"""t-tests and ANOVA from sufficient statistics against R and NIST StRD certified values."""

from __future__ import annotations

import math
from collections.abc import Callable
from decimal import Decimal

import numpy as np
import pytest
from scipy import stats as sps

from baton.errors import BatonError
from baton.stats import (
    InsufficientData,
    StatsInputError,
    SuffStats,
    one_way_anova,
    paired_t_test,
    student_t_test,
    welch_t_test,
)

from .reference_data import PLANT_GROWTH, SCIPY_DATA, SLEEP_GROUP1, SLEEP_GROUP2, certified, nist_anova_groups


def _decimal_suffstats(values: list[Decimal], shift: Decimal) -> SuffStats:
    """What a warehouse summing DECIMAL columns around a shift returns: exact sums, then floats."""
    dev = [v - shift for v in values]
    return SuffStats(n=len(values), total=float(sum(dev)), sum_sq=float(sum(d * d for d in dev)), shift=float(shift))


def _s(*values: float) -> SuffStats:
    return SuffStats.from_values(values)


def test_sleep_welch_matches_r() -> None:
    # R: t.test(extra ~ group, data = sleep) reports group1 − group2, i.e. b = group1, a = group2.
    r = welch_t_test(SuffStats.from_values(SLEEP_GROUP2), SuffStats.from_values(SLEEP_GROUP1))
    assert r.t == pytest.approx(-1.8608, abs=5e-5)
    assert r.df == pytest.approx(17.776, abs=5e-4)
    assert r.p_value == pytest.approx(0.07939, abs=5e-6)
    assert r.ci is not None
    assert r.ci[0] == pytest.approx(-3.3654832, abs=5e-8)
    assert r.ci[1] == pytest.approx(0.2054832, abs=5e-8)
    assert r.estimate == pytest.approx(0.75 - 2.33)


def test_sleep_paired_matches_r() -> None:
    diffs = [a - b for a, b in zip(SLEEP_GROUP1, SLEEP_GROUP2, strict=True)]
    r = paired_t_test(SuffStats.from_values(diffs))
    assert r.t == pytest.approx(-4.0621, abs=5e-5)
    assert r.df == 9
    assert r.p_value == pytest.approx(0.002833, abs=5e-7)


def test_welch_and_student_agree_with_scipy_on_random_samples() -> None:
    rng = np.random.default_rng(7)
    a, b = rng.normal(10, 2, 23), rng.normal(11, 4, 31)
    sa, sb = SuffStats.from_values(a.tolist()), SuffStats.from_values(b.tolist())
    for welch, result in ((True, welch_t_test(sa, sb)), (False, student_t_test(sa, sb))):
        ref = sps.ttest_ind(b, a, equal_var=not welch)
        assert result.t == pytest.approx(float(ref.statistic), rel=1e-12)
        assert result.p_value == pytest.approx(float(ref.pvalue), rel=1e-9)
        ci = ref.confidence_interval(0.95)
        assert result.ci == pytest.approx((float(ci.low), float(ci.high)), rel=1e-9)


def test_cohens_d_uses_pooled_sd() -> None:
    a, b = [1.0, 2.0, 3.0, 4.0], [3.0, 4.0, 5.0, 6.0, 7.0]
    r = welch_t_test(SuffStats.from_values(a), SuffStats.from_values(b))
    pooled = math.sqrt(((len(a) - 1) * np.var(a, ddof=1) + (len(b) - 1) * np.var(b, ddof=1)) / 7)
    assert r.effect_size == pytest.approx((5.0 - 2.5) / pooled)


def _fieller_roots(ma: float, mb: float, va: float, vb: float, q: float) -> tuple[float, float]:
    """Fieller's interval of mb/ma − 1 computed independently: the real roots of
    (ma² − q²·va)·ρ² − 2·ma·mb·ρ + (mb² − q²·vb) = 0, minus 1."""
    roots = sorted(float(r.real) for r in np.roots([ma * ma - q * q * va, -2 * ma * mb, mb * mb - q * q * vb]))
    return roots[0] - 1, roots[1] - 1


def test_relative_change_is_fieller_on_the_welch_parts() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.normal(100, 15, 30), rng.normal(91, 25, 31)
    r = welch_t_test(SuffStats.from_values(a.tolist()), SuffStats.from_values(b.tolist()))
    va, vb = float(np.var(a, ddof=1)) / 30, float(np.var(b, ddof=1)) / 31
    q = float(sps.t.ppf(0.975, r.df))
    assert r.relative_ci == pytest.approx(_fieller_roots(float(a.mean()), float(b.mean()), va, vb, q), rel=1e-9)
    assert r.relative_se == pytest.approx(math.sqrt(vb + (b.mean() / a.mean()) ** 2 * va) / a.mean(), rel=1e-9)


def test_relative_change_fieller_covers_truth() -> None:
    """Fieller's CI of mean_b/mean_a − 1 should cover the true ratio ~95 % of the time."""
    rng = np.random.default_rng(11)
    reps, n = 2000, 60
    a = rng.normal(100.0, 20.0, (reps, n))
    b = rng.normal(90.0, 25.0, (reps, n))
    covered = 0
    for row_a, row_b in zip(a, b, strict=True):
        r = welch_t_test(SuffStats.from_values(row_a.tolist()), SuffStats.from_values(row_b.tolist()))
        assert r.relative_ci is not None
        covered += r.relative_ci[0] <= -0.1 <= r.relative_ci[1]
    assert 0.93 <= covered / reps <= 0.97


@pytest.mark.parametrize("baseline", [[-1.0, 1.0, 0.0], [-6.0, -5.0, -5.3]])  # zero, and below it (p59)
def test_relative_change_is_none_for_a_baseline_not_above_zero(baseline: list[float]) -> None:
    """From -5.44 to -3.14 is up: "mb / ma - 1" of a negative mean (-42%) would turn its sign."""
    r = welch_t_test(SuffStats.from_values(baseline), SuffStats.from_values([-3.0, -3.2, -3.1]))
    assert r.relative_change is None
    assert r.relative_ci is None
    assert r.p_value is not None  # the test itself stands


def test_plant_growth_anova_matches_r() -> None:
    r = one_way_anova([SuffStats.from_values(v) for v in PLANT_GROWTH.values()])
    assert (r.df1, r.df2) == (2, 27)
    assert r.f == pytest.approx(4.846, abs=5e-4)
    assert r.p_value == pytest.approx(0.01591, abs=5e-6)


@pytest.mark.parametrize(
    ("name", "published_f"),
    [("SiRstv", "1.18046237440255E+00"), ("AtmWtAg", "1.59467335677930E+01")],
)
def test_nist_anova_certified_values(name: str, published_f: str) -> None:
    path = SCIPY_DATA / "nist_anova" / f"{name}.dat"
    between, within = certified(path, "Between"), certified(path, "Within")
    assert between[-1] == published_f  # the parser read the certified line we think it read
    cert_f, cert_ssb, cert_ssw = float(between[-1]), float(between[3]), float(within[3])
    cert_r2 = float(certified(path, "Certified R-Squared")[-1])
    groups = nist_anova_groups(name)
    shift = next(iter(groups.values()))[0]
    exact = one_way_anova([_decimal_suffstats(v, shift) for v in groups.values()])
    assert exact.f == pytest.approx(cert_f, rel=1e-12)
    assert exact.ss_between == pytest.approx(cert_ssb, rel=1e-12)
    assert exact.ss_within == pytest.approx(cert_ssw, rel=1e-12)
    assert exact.effect_size == pytest.approx(cert_r2, rel=1e-12)
    assert (exact.df1, exact.df2) == (int(between[2]), int(within[2]))
    # Binary floats shifted by the first value still keep 9 significant digits of F.
    as_floats = [SuffStats.from_values([float(x) for x in v], float(shift)) for v in groups.values()]
    floats = one_way_anova(as_floats)
    assert floats.f == pytest.approx(cert_f, rel=1e-9)


def test_anova_from_moments_equals_anova_from_sums() -> None:
    groups = [SuffStats.from_values(v) for v in PLANT_GROWTH.values()]
    moments = [SuffStats.from_moments(g.n, g.mean, g.var) for g in groups]
    assert one_way_anova(moments).f == pytest.approx(one_way_anova(groups).f, rel=1e-12)


def test_suffstats_rebase_keeps_mean_and_variance() -> None:
    s = SuffStats.from_values([196.3052, 196.1240, 196.1890, 196.2569])
    moved = s.rebase(196.0)
    assert moved.mean == pytest.approx(s.mean, rel=1e-15)
    assert moved.var == pytest.approx(s.var, rel=1e-9)
    assert s.to_dict() == {"n": 4, "total": s.total, "sum_sq": s.sum_sq, "shift": 196.3052}


@pytest.mark.parametrize(
    ("build", "error"),
    [
        (lambda: SuffStats(n=-1, total=0.0, sum_sq=0.0), StatsInputError),
        (lambda: SuffStats(n=3, total=1.0, sum_sq=-1.0), StatsInputError),
        (lambda: SuffStats(n=3, total=math.nan, sum_sq=1.0), StatsInputError),
        (lambda: SuffStats(n=1, total=1.0, sum_sq=1.0).var, InsufficientData),
        (lambda: welch_t_test(_s(1.0), _s(1.0, 2.0)), InsufficientData),
        (lambda: welch_t_test(_s(1.0, 1.0), _s(2.0, 2.0)), InsufficientData),
        (lambda: welch_t_test(_s(1.0, 2.0), _s(2.0, 3.0), alpha=1.5), StatsInputError),
        (lambda: one_way_anova([SuffStats.from_values([1.0, 2.0])]), StatsInputError),
    ],
)
def test_invalid_or_insufficient_inputs_raise_bilingual_errors(
    build: Callable[[], object], error: type[BatonError]
) -> None:
    with pytest.raises(error) as info:
        build()
    assert info.value.message_zh != info.value.message_en


def test_new_observation_test_is_the_prediction_interval_t_test() -> None:
    """One day against four earlier same weekdays: t = (x − mean) / (s·√(1 + 1/n)), n − 1 df."""
    from baton.stats import SuffStats, change_test, new_observation_t_test

    history = [93.0, 101.0, 88.0, 97.0]
    x = 229.0
    n, mean, sd = len(history), sum(history) / 4, float(np.std(history, ddof=1))
    t = (x - mean) / (sd * math.sqrt(1 + 1 / n))
    result = new_observation_t_test(SuffStats.from_values(history), x)
    assert result.t == pytest.approx(t, rel=1e-12)
    assert result.p_value == pytest.approx(2 * sps.t.sf(abs(t), n - 1), rel=1e-9)
    assert result.relative_change == pytest.approx(x / mean - 1, rel=1e-12)
    # delta-method SE for x / mean: Var ≈ (σ² + (x/m)²·σ²/n) / m²
    assert result.relative_se == pytest.approx(math.sqrt(sd**2 + (x / mean) ** 2 * sd**2 / n) / mean, rel=1e-12)
    # Fieller: the ratios ρ with (x − ρ·m)² ≤ q²·σ²·(1 + ρ²/n), the roots of a quadratic
    q = float(sps.t.ppf(0.975, n - 1))
    assert result.relative_ci == pytest.approx(_fieller_roots(mean, x, sd**2 / n, sd**2, q), rel=1e-9)
    assert change_test(SuffStats.from_values(history), SuffStats.from_values([x])).t == result.t


@pytest.mark.parametrize(("values", "zeros"), [([3.0, 5.0, 4.0], 2), ([1e6, 1e6 + 3.0], 5), ([7.0, 9.0], 0)])
def test_zeros_added_to_sufficient_statistics_are_the_sample_with_zeros(values: list[float], zeros: int) -> None:
    """A quiet day of a count is a 0 in the sample: adding it to the sums is the same sample."""
    added = SuffStats.from_values(values).with_zeros(zeros)
    direct = SuffStats.from_values([*values, *([0.0] * zeros)])
    assert added.n == direct.n
    assert added.mean == pytest.approx(direct.mean, rel=1e-12)
    assert added.var == pytest.approx(direct.var, rel=1e-9)
