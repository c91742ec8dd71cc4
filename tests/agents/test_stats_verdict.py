"""The stats agent's headline never contradicts itself: the relative interval it prints excludes
0 exactly when its verdict says the change is significant (many random series, both languages)."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from baton.agents.stats_agent import ALPHA, _welch
from baton.contracts.common import Language
from baton.messages import text
from baton.stats import SuffStats, change_test, student_t_test

series = st.tuples(
    st.integers(0, 2**32 - 1),  # seed
    st.integers(2, 40),  # baseline days
    st.integers(1, 40),  # current days (1: the single-day prediction test)
    st.floats(10.0, 1e6),  # baseline level
    st.floats(-0.6, 0.6),  # true relative change
    st.floats(0.01, 0.6),  # coefficient of variation
)


def _draw(seed: int, n_a: int, n_b: int, level: float, change: float, cv: float) -> tuple[SuffStats, SuffStats]:
    rng = np.random.default_rng(seed)
    a = rng.normal(level, cv * level, n_a)
    b = rng.normal(level * (1 + change), cv * level, n_b)
    return SuffStats.from_values(a.tolist()), SuffStats.from_values(b.tolist())


def _off_the_boundary(t: float, df: float) -> bool:
    """|t| = q exactly is a tie both readings share; float rounding may split it, so skip it."""
    return abs(abs(t) - float(sps.t.ppf(1 - ALPHA / 2, df))) > 1e-9 * max(1.0, abs(t))


@settings(max_examples=400, deadline=None)
@given(series, st.sampled_from(["zh", "en"]))
def test_interval_excludes_zero_iff_the_headline_says_significant(
    params: tuple[int, int, int, float, float, float], lang: Language
) -> None:
    before, after = _draw(*params)
    assume(before.var > 0)
    result = change_test(before, after, ALPHA)
    assume(_off_the_boundary(result.t, result.df))
    _, finding = _welch(result, "x", [], "ev", lang)
    numbers = {n.key: n.value for n in finding.numbers}
    significant = text("analysis.stats_verdict_yes", lang) in finding.summary
    assert significant != (text("analysis.stats_verdict_no", lang) in finding.summary)
    assert significant == ((result.p_value or 1.0) < ALPHA)
    if result.relative_ci is None:  # no bounded interval: the headline states p only, no interval
        assert "stats.rel_ci_low" not in numbers
        return
    low, high = float(numbers["stats.rel_ci_low"]), float(numbers["stats.rel_ci_high"])
    assert (low > 0 or high < 0) == significant
    assert (result.relative_ci[0] > 0 or result.relative_ci[1] < 0) == significant


@settings(max_examples=300, deadline=None)
@given(series.filter(lambda p: p[2] >= 2), st.sampled_from([0.01, 0.05, 0.2]))
def test_student_interval_agrees_with_its_test(params: tuple[int, int, int, float, float, float], alpha: float) -> None:
    before, after = _draw(*params)
    assume(before.var + after.var > 0)
    r = student_t_test(before, after, alpha)
    assume(abs(abs(r.t) - float(sps.t.ppf(1 - alpha / 2, r.df))) > 1e-9 * max(1.0, abs(r.t)))
    if r.relative_ci is not None:
        assert (r.relative_ci[0] > 0 or r.relative_ci[1] < 0) == ((r.p_value or 1.0) < alpha)


def test_the_reported_case_no_longer_contradicts_itself() -> None:
    """Near the 5 % boundary the old delta interval excluded 0 while p > 0.05; find such series
    (seeded, so deterministic) and check the printed interval now contains 0 for every one."""
    rng = np.random.default_rng(2026)
    contradicted = 0
    for _ in range(3000):
        a, b = rng.normal(100.0, 20.0, 31), rng.normal(91.0, 20.0, 30)
        r = change_test(SuffStats.from_values(a.tolist()), SuffStats.from_values(b.tolist()), ALPHA)
        if r.relative_change is None or r.relative_se is None or r.relative_ci is None:
            continue
        z = float(sps.norm.ppf(1 - ALPHA / 2))
        delta_excludes = abs(r.relative_change) > z * r.relative_se
        if delta_excludes and (r.p_value or 1.0) >= ALPHA:
            contradicted += 1
            assert r.relative_ci[0] <= 0.0 <= r.relative_ci[1]
    assert contradicted > 0  # the old method did disagree on some of these series


def test_a_bound_near_zero_keeps_the_digits_that_tell_it_from_zero() -> None:
    from baton.agents.stats_agent import _places

    assert [_places(v) for v in (12.345, 0.004, -0.0004, 0.0)] == [2, 3, 4, 2]
    assert round(0.004, _places(0.004)) != 0 and round(-0.0004, _places(-0.0004)) != 0
