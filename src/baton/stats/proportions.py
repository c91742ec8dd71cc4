"""Rates: Wilson intervals, Newcombe's hybrid-score interval for a difference, the pooled z test.

Direction convention (as in :mod:`baton.stats.means`): group 1 is the baseline, group 2 the
current period; the difference is ``p2 − p1`` and the relative change ``p2 / p1 − 1``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scipy import stats as sps

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import Interval, StatResult, check_alpha, clamp_p


@dataclass(frozen=True, kw_only=True)
class TwoProportionResult(StatResult):
    """``p2 − p1`` with a pooled z test, Wilson CIs per group, Newcombe CI of the difference, Cohen's h."""

    x1: int
    n1: int
    x2: int
    n2: int
    p1: float
    p2: float
    ci_p1: Interval
    ci_p2: Interval
    z: float
    relative_change: float | None
    relative_ci: Interval | None


@dataclass(frozen=True, kw_only=True)
class RateChangeAgainstResult(StatResult):
    """How much more one group's rate changed than the rest's, from event counts: ``estimate`` is
    β, the log of the ratio of the two rate ratios; ``relative_change`` is ``exp(β) − 1``."""

    z: float
    relative_change: float


Counts = tuple[tuple[float, float], tuple[float, float]]
"""(events, exposure) before, then after; exposure 1 for a count of its own."""


def rate_change_against(member: Counts, rest: Counts, alpha: float = 0.05) -> RateChangeAgainstResult:
    """The member's rate change against the rest's from event counts: the interaction of a
    saturated Poisson model with log-exposure offsets, whose MLE is β = log(RR_member / RR_rest)
    with Wald SE √(Σ 1/events) (statsmodels' GLM gives the same). Written here, not fitted, because
    it is closed-form and runs per candidate; used where daily values are too sparse for a test of
    daily means (refunds under one a day: their daily ratios are mostly 0 or undefined)."""
    check_alpha(alpha)
    ((n0, e0), (n1, e1)), ((r0, q0), (r1, q1)) = member, rest
    if min(n0, n1, r0, r1) <= 0 or min(e0, e1, q0, q1) <= 0:
        raise InsufficientData(*both("stats.events_positive", counts=[n0, e0, n1, e1, r0, q0, r1, q1]))
    beta = math.log((n1 / e1) / (n0 / e0)) - math.log((r1 / q1) / (r0 / q0))
    se = math.sqrt(1.0 / n0 + 1.0 / n1 + 1.0 / r0 + 1.0 / r1)
    z = beta / se
    crit = float(sps.norm.ppf(1.0 - alpha / 2.0))
    return RateChangeAgainstResult(
        method="poisson_rate_ratio_interaction",
        estimate=beta,
        ci=(math.exp(beta - crit * se) - 1.0, math.exp(beta + crit * se) - 1.0),
        confidence=1.0 - alpha,
        p_value=clamp_p(2.0 * float(sps.norm.sf(abs(z)))),
        z=z,
        relative_change=math.exp(beta) - 1.0,
        assumptions=("events are Poisson given their exposure",),
    )


def _check_counts(x: int, n: int, label: str) -> None:
    if isinstance(x, bool) or isinstance(n, bool) or int(x) != x or int(n) != n:
        raise StatsInputError(*both("stats.counts_integers", label=label))
    if n <= 0 or x < 0 or x > n:
        raise StatsInputError(
            *both("stats.counts_range", label=label, x=x, n=n),
        )


def wilson_interval(x: int, n: int, alpha: float = 0.05) -> Interval:
    """Wilson score interval for a binomial proportion (no continuity correction)."""
    check_alpha(alpha)
    _check_counts(x, n, "x/n")
    z = float(sps.norm.ppf(1.0 - alpha / 2.0))
    p = x / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom
    lo = 0.0 if x == 0 else max(0.0, centre - half)
    hi = 1.0 if x == n else min(1.0, centre + half)
    return (lo, hi)


def newcombe_interval(x1: int, n1: int, x2: int, n2: int, alpha: float = 0.05) -> Interval:
    """Newcombe (1998) method 10, hybrid score interval for ``p2 − p1`` from the two Wilson intervals."""
    p1, p2 = x1 / n1, x2 / n2
    l1, u1 = wilson_interval(x1, n1, alpha)
    l2, u2 = wilson_interval(x2, n2, alpha)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return (lo, hi)


def cohens_h(p1: float, p2: float) -> float:
    """Cohen's h = 2·asin√p2 − 2·asin√p1 (0.2 small, 0.5 medium, 0.8 large)."""
    return 2.0 * math.asin(math.sqrt(p2)) - 2.0 * math.asin(math.sqrt(p1))


def _relative(x1: int, n1: int, x2: int, n2: int, alpha: float) -> tuple[float | None, Interval | None]:
    """Risk ratio − 1 with the Katz log interval; undefined when either count is zero."""
    if x1 == 0:
        return None, None
    p1, p2 = x1 / n1, x2 / n2
    rel = p2 / p1 - 1.0
    if x2 == 0:
        return rel, None
    se = math.sqrt((1.0 - p1) / x1 + (1.0 - p2) / x2)
    z = float(sps.norm.ppf(1.0 - alpha / 2.0))
    log_rr = math.log(p2 / p1)
    return rel, (math.exp(log_rr - z * se) - 1.0, math.exp(log_rr + z * se) - 1.0)


def two_proportion_test(x1: int, n1: int, x2: int, n2: int, alpha: float = 0.05) -> TwoProportionResult:
    """Pooled two-proportion z test of ``p2 − p1`` (two-sided) with Wilson and Newcombe intervals."""
    check_alpha(alpha)
    _check_counts(x1, n1, "group 1")
    _check_counts(x2, n2, "group 2")
    p1, p2 = x1 / n1, x2 / n2
    pooled = (x1 + x2) / (n1 + n2)
    var = pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)
    if var <= 0.0:
        raise InsufficientData(
            *both("stats.z_undefined"),
        )
    z = (p2 - p1) / math.sqrt(var)
    rel, rel_ci = _relative(x1, n1, x2, n2, alpha)
    return TwoProportionResult(
        method="two-proportion z-test (pooled); Wilson and Newcombe hybrid score intervals",
        estimate=p2 - p1,
        ci=newcombe_interval(x1, n1, x2, n2, alpha),
        confidence=1.0 - alpha,
        p_value=clamp_p(2.0 * float(sps.norm.sf(abs(z)))),
        effect_size=cohens_h(p1, p2),
        effect_size_name="cohen_h",
        assumptions=(
            "independent Bernoulli trials within and between groups",
            "normal approximation to the pooled z statistic (expected counts ≳ 5)",
            "relative change CI by the Katz log method",
        ),
        x1=x1,
        n1=n1,
        x2=x2,
        n2=n2,
        p1=p1,
        p2=p2,
        ci_p1=wilson_interval(x1, n1, alpha),
        ci_p2=wilson_interval(x2, n2, alpha),
        z=z,
        relative_change=rel,
        relative_ci=rel_ci,
    )
