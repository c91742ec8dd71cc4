"""Tests on means from sufficient statistics: Welch / Student / one-sample (paired) t, one-way ANOVA.

Direction convention used everywhere in ``baton.stats``: ``a`` is the baseline (comparison
period, control) and ``b`` the current period (treatment); differences are ``b − a`` and the
relative change is ``mean_b / mean_a − 1``. R's ``t.test(x, y)`` reports ``x − y``, so it equals
``welch_t_test(a=y, b=x)``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as sps

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import Interval, StatResult, check_alpha, clamp_p
from .suffstats import SuffStats

_WELCH_ASSUMPTIONS = (
    "observations independent within and between samples",
    "sample means approximately normal (normal data or large n)",
    "variances may differ (Welch–Satterthwaite df)",
)
_STUDENT_ASSUMPTIONS = (
    "observations independent within and between samples",
    "sample means approximately normal (normal data or large n)",
    "equal variances in both samples",
)
_RELATIVE_ASSUMPTION = (
    "relative change CI by Fieller's method with the test's SE and critical value (excludes 0 iff p < alpha), "
    "baseline mean distinguishable from 0"
)


@dataclass(frozen=True, kw_only=True)
class TwoSampleTResult(StatResult):
    """Difference of two means ``b − a`` with its t test, CI, Cohen's d and relative change."""

    mean_a: float
    mean_b: float
    n_a: int
    n_b: int
    se: float
    t: float
    df: float
    relative_change: float | None
    relative_se: float | None
    relative_ci: Interval | None


@dataclass(frozen=True, kw_only=True)
class OneSampleTResult(StatResult):
    """Mean minus a reference value ``mu0`` (the paired test uses the differences, ``mu0 = 0``)."""

    mean: float
    mu0: float
    n: int
    se: float
    t: float
    df: float


@dataclass(frozen=True, kw_only=True)
class AnovaResult(StatResult):
    """One-way ANOVA; ``estimate`` and ``effect_size`` are η² (between SS / total SS)."""

    f: float
    df1: int
    df2: int
    ss_between: float
    ss_within: float
    ms_between: float
    ms_within: float
    group_means: tuple[float, ...]


def _need_two(s: SuffStats, label: str) -> None:
    if s.n < 2:
        raise InsufficientData(
            *both("stats.sample_min", label=label, n=s.n),
        )


def _difference(a: SuffStats, b: SuffStats) -> float:
    """``mean_b − mean_a`` computed from the shifted parts so that close means keep their digits."""
    return (b.shift - a.shift) + (b.centered_mean - a.centered_mean)


def _relative(
    ma: float, mb: float, va: float, vb: float, q: float
) -> tuple[float | None, float | None, Interval | None]:
    """``mb / ma − 1``, its delta-method SE (for reference) and Fieller's interval, from the
    means and the variances of the means that the test itself uses. None of a baseline at or below
    zero: a relative change of a negative mean turns its sign (-5.44 to -3.14 is up, never -42%)."""
    if ma <= 0.0:
        return None, None, None
    rel = mb / ma - 1.0
    # written with the ratio r = mb / ma so that a tiny baseline mean does not underflow ma**4
    ratio = mb / ma
    se = math.hypot(math.sqrt(vb), ratio * math.sqrt(va)) / abs(ma)  # no overflow: an infinite se is dropped
    if not (math.isfinite(rel) and math.isfinite(se)):
        return None, None, None
    return rel, se, fieller_interval(ma, mb, va, vb, q)


def fieller_interval(ma: float, mb: float, va: float, vb: float, q: float) -> Interval | None:
    """Fieller's interval for ``mb / ma − 1``: every ratio ρ with ``|mb − ρ·ma| ≤ q·√(vb + ρ²·va)``.

    At ρ = 1 that inequality *is* the t test of ``mb − ma`` (same SE, same critical value ``q``),
    so the interval excludes 0 exactly when the test rejects — verdict and interval cannot
    disagree, unlike the delta method (Fieller's first-order approximation). It also carries the
    baseline mean's own uncertainty. ``None`` when the set is unbounded (``g ≥ 1``: the baseline
    mean is not distinguishable from 0, so no finite ratio interval exists).
    """
    if ma == 0.0:
        return None
    r = mb / ma
    h = q * math.sqrt(va) / abs(ma)
    g = h * h
    if not (math.isfinite(r) and math.isfinite(g)) or g >= 1.0:
        return None
    half = q * math.sqrt(vb * (1.0 - g) + r * r * va) / abs(ma)
    low, high = (r - half) / (1.0 - g) - 1.0, (r + half) / (1.0 - g) - 1.0
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return low, high


def _pooled_sd(a: SuffStats, b: SuffStats) -> float:
    return math.sqrt((a.ss + b.ss) / (a.n + b.n - 2))


def _two_sample(a: SuffStats, b: SuffStats, alpha: float, *, welch: bool) -> TwoSampleTResult:
    check_alpha(alpha)
    _need_two(a, "a")
    _need_two(b, "b")
    diff = _difference(a, b)
    va, vb = a.var / a.n, b.var / b.n
    if welch:
        se2 = va + vb
        denom = (va * va) / (a.n - 1) + (vb * vb) / (b.n - 1)
        df = se2 * se2 / denom if denom > 0 else float(a.n + b.n - 2)
    else:
        sp2 = (a.ss + b.ss) / (a.n + b.n - 2)
        va, vb = sp2 / a.n, sp2 / b.n  # each mean's variance from the pooled variance
        se2 = va + vb
        df = float(a.n + b.n - 2)
    if se2 <= 0.0:
        raise InsufficientData(
            *both("stats.zero_variance_both"),
        )
    se = math.sqrt(se2)
    t = diff / se
    p = clamp_p(2.0 * float(sps.t.sf(abs(t), df)))
    q = float(sps.t.ppf(1.0 - alpha / 2.0, df))
    sd = _pooled_sd(a, b)
    d = diff / sd if sd > 0 else float("nan")
    rel, rel_se, rel_ci = _relative(a.mean, b.mean, va, vb, q)
    base = _WELCH_ASSUMPTIONS if welch else _STUDENT_ASSUMPTIONS
    return TwoSampleTResult(
        method="Welch two-sample t-test" if welch else "Student two-sample t-test (pooled variance)",
        estimate=diff,
        ci=(diff - q * se, diff + q * se),
        confidence=1.0 - alpha,
        p_value=p,
        effect_size=d,
        effect_size_name="cohen_d (pooled SD)",
        assumptions=(*base, _RELATIVE_ASSUMPTION),
        mean_a=a.mean,
        mean_b=b.mean,
        n_a=a.n,
        n_b=b.n,
        se=se,
        t=t,
        df=df,
        relative_change=rel,
        relative_se=rel_se,
        relative_ci=rel_ci,
    )


def welch_t_test(a: SuffStats, b: SuffStats, alpha: float = 0.05) -> TwoSampleTResult:
    """Welch's t-test of ``mean_b − mean_a`` (two-sided), CI, Cohen's d and relative change (Fieller CI)."""
    return _two_sample(a, b, alpha, welch=True)


def student_t_test(a: SuffStats, b: SuffStats, alpha: float = 0.05) -> TwoSampleTResult:
    """Student's pooled-variance t-test of ``mean_b − mean_a``; prefer Welch unless variances are equal."""
    return _two_sample(a, b, alpha, welch=False)


def new_observation_t_test(history: SuffStats, value: float, alpha: float = 0.05) -> TwoSampleTResult:
    """Is one new observation (a single day) unusual for ``history`` (the same weekday of earlier
    weeks)? The prediction-interval t test: ``t = (x − mean) / (sd·√(1 + 1/n))`` on ``n − 1`` df,
    i.e. the new value is assumed to share the history's variance (one value has none of its own).
    The CI is the 1 − α prediction interval of the difference; the relative change is against
    the history's mean, its interval by Fieller's method (the mean's uncertainty included)."""
    check_alpha(alpha)
    _need_two(history, "history")
    sd = history.sd
    if sd == 0.0:
        raise InsufficientData(*both("stats.zero_variance"))
    diff = (value - history.shift) - history.centered_mean
    se = sd * math.sqrt(1.0 + 1.0 / history.n)
    df = float(history.n - 1)
    t = diff / se
    q = float(sps.t.ppf(1.0 - alpha / 2.0, df))
    mean = history.mean
    rel = value / mean - 1.0 if mean != 0.0 else None
    # delta-method SE of x / mean (the new value's spread and the history mean's own uncertainty);
    # the interval is Fieller's with the test's own SE parts, so it excludes 0 exactly when p < alpha
    rel_se = sd * math.sqrt(1.0 + (value / mean) ** 2 / history.n) / abs(mean) if mean != 0.0 else None
    rel_ci = fieller_interval(mean, value, sd * sd / history.n, sd * sd, q) if rel is not None else None
    return TwoSampleTResult(
        method="prediction-interval t-test (one new observation against its history)",
        estimate=diff,
        ci=(diff - q * se, diff + q * se),
        confidence=1.0 - alpha,
        p_value=clamp_p(2.0 * float(sps.t.sf(abs(t), df))),
        effect_size=diff / sd,
        effect_size_name="standardised difference (history SD)",
        assumptions=("history observations independent and normal", "the new value shares their variance"),
        mean_a=mean,
        mean_b=value,
        n_a=history.n,
        n_b=1,
        se=se,
        t=t,
        df=df,
        relative_change=rel,
        relative_se=rel_se,
        relative_ci=rel_ci,
    )


def change_test(before: SuffStats, after: SuffStats, alpha: float = 0.05) -> TwoSampleTResult:
    """The test of a period's change: Welch between two periods of days, the prediction test
    when the current period is a single day."""
    if after.n == 1:
        return new_observation_t_test(before, after.mean, alpha)
    return welch_t_test(before, after, alpha)


def one_sample_t_test(s: SuffStats, mu0: float = 0.0, alpha: float = 0.05) -> OneSampleTResult:
    """t-test of ``mean − mu0`` with CI; Cohen's d is ``(mean − mu0) / sd``."""
    check_alpha(alpha)
    _need_two(s, "x")
    diff = (s.shift - mu0) + s.centered_mean
    sd = s.sd
    if sd == 0.0:
        raise InsufficientData(*both("stats.zero_variance"))
    se = sd / math.sqrt(s.n)
    df = float(s.n - 1)
    t = diff / se
    q = float(sps.t.ppf(1.0 - alpha / 2.0, df))
    return OneSampleTResult(
        method="one-sample t-test",
        estimate=diff,
        ci=(diff - q * se, diff + q * se),
        confidence=1.0 - alpha,
        p_value=clamp_p(2.0 * float(sps.t.sf(abs(t), df))),
        effect_size=diff / sd,
        effect_size_name="cohen_d (one-sample)",
        assumptions=("observations independent", "sample mean approximately normal"),
        mean=s.mean,
        mu0=mu0,
        n=s.n,
        se=se,
        t=t,
        df=df,
    )


def paired_t_test(differences: SuffStats, alpha: float = 0.05) -> OneSampleTResult:
    """Paired t-test from the sufficient statistics of the per-pair differences ``b − a``."""
    r = one_sample_t_test(differences, 0.0, alpha)
    return dataclasses.replace(
        r,
        method="paired t-test",
        assumptions=("pairs independent of each other", "mean difference approximately normal"),
    )


def one_way_anova(groups: Sequence[SuffStats]) -> AnovaResult:
    """Classic one-way ANOVA (equal variances) from per-group sufficient statistics."""
    if len(groups) < 2:
        raise StatsInputError(*both("stats.anova_groups"))
    if any(g.n == 0 for g in groups):
        raise InsufficientData(*both("stats.anova_empty_group"))
    k = len(groups)
    n_total = sum(g.n for g in groups)
    if n_total - k < 1:
        raise InsufficientData(*both("stats.anova_observations"))
    base = groups[0].shift
    rel_means = [(g.shift - base) + g.centered_mean for g in groups]
    grand = math.fsum(g.n * m for g, m in zip(groups, rel_means, strict=True)) / n_total
    ss_between = math.fsum(g.n * (m - grand) ** 2 for g, m in zip(groups, rel_means, strict=True))
    ss_within = math.fsum(g.ss for g in groups)
    df1, df2 = k - 1, n_total - k
    ms_b, ms_w = ss_between / df1, ss_within / df2
    if ms_w == 0.0:
        raise InsufficientData(*both("stats.anova_zero_variance"))
    f = ms_b / ms_w
    eta2 = ss_between / (ss_between + ss_within)
    return AnovaResult(
        method="one-way ANOVA",
        estimate=eta2,
        p_value=clamp_p(float(sps.f.sf(f, df1, df2))),
        effect_size=eta2,
        effect_size_name="eta_squared",
        assumptions=(
            "observations independent",
            "residuals approximately normal",
            "equal variances across groups",
        ),
        f=f,
        df1=df1,
        df2=df2,
        ss_between=ss_between,
        ss_within=ss_within,
        ms_between=ms_b,
        ms_within=ms_w,
        group_means=tuple(base + m for m in rel_means),
    )
