"""Invariants over random inputs: CIs contain their estimate, p-values lie in [0, 1], JSON is clean."""

from __future__ import annotations

import datetime as dt
import json
import math

from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from baton.stats import (
    StatResult,
    SuffStats,
    additive_contributions,
    detect_mean_changes,
    lmdi,
    mann_kendall,
    ols_fit,
    one_way_anova,
    ratio_mix_rate,
    seasonal_anomaly_scores,
    two_proportion_test,
    welch_t_test,
    wilson_interval,
)

values = st.lists(st.floats(min_value=-1e4, max_value=1e4, allow_nan=False), min_size=3, max_size=30)


def _check(r: StatResult) -> None:
    assert r.p_value is None or 0.0 <= r.p_value <= 1.0
    if r.ci is not None:
        assert r.ci[0] <= r.estimate <= r.ci[1]
    assert r.method
    assert r.assumptions
    json.dumps(r.to_dict(), allow_nan=False)


@given(values, values, st.sampled_from([0.01, 0.05, 0.2]))
@example([0.0, 0.0, 2.240493533346488e-211], [0.0, 0.0, 1.0], 0.01)  # a baseline mean near zero
def test_welch_invariants(a: list[float], b: list[float], alpha: float) -> None:
    sa, sb = SuffStats.from_values(a), SuffStats.from_values(b)
    assume(sa.var + sb.var > 1e-6)
    r = welch_t_test(sa, sb, alpha)
    _check(r)
    assert min(len(a), len(b)) - 1 <= r.df + 1e-9
    assert r.df <= len(a) + len(b) - 2 + 1e-9
    if r.relative_ci is not None and r.relative_change is not None:
        assert r.relative_ci[0] <= r.relative_change <= r.relative_ci[1]


@given(st.integers(1, 500), st.integers(1, 500), st.data())
def test_two_proportion_invariants(n1: int, n2: int, data: st.DataObject) -> None:
    x1, x2 = data.draw(st.integers(0, n1)), data.draw(st.integers(0, n2))
    assume(0 < x1 + x2 < n1 + n2)
    r = two_proportion_test(x1, n1, x2, n2)
    _check(r)
    assert -1.0 <= r.ci[0] <= r.ci[1] <= 1.0  # type: ignore[index]
    for x, n in ((x1, n1), (x2, n2)):
        lo, hi = wilson_interval(x, n)
        assert 0.0 <= lo <= x / n <= hi <= 1.0


@settings(max_examples=50)
@given(values)
def test_trend_invariants(ys: list[float]) -> None:
    assume(len(set(ys)) > 1)
    _check(mann_kendall(ys))
    _check(ols_fit(list(range(len(ys))), ys))


@given(st.lists(values, min_size=2, max_size=5))
def test_anova_invariants(groups: list[list[float]]) -> None:
    stats = [SuffStats.from_values(g) for g in groups]
    assume(sum(s.ss for s in stats) > 1e-6)
    r = one_way_anova(stats)
    _check(r)
    assert 0.0 <= r.estimate <= 1.0
    assert r.f >= 0.0


def test_every_result_renders_as_strict_json() -> None:
    days = [dt.date(2026, 5, 1) + dt.timedelta(days=i) for i in range(70)]
    pair_before: dict[str | tuple[str, str], float] = {"a": 1.0}
    pair_after: dict[str | tuple[str, str], float] = {"a": 2.0, ("b", "new"): 1.0}
    rendered = [
        additive_contributions(pair_before, pair_after).to_dict(),
        ratio_mix_rate({"a": (1.0, 10.0)}, {"a": (2.0, 10.0)}).to_dict(),
        lmdi({"a": 10.0, "b": 0.2}, {"a": 12.0, "b": 0.25}).to_dict(),
        detect_mean_changes([1.0, 1.1, 0.9, 5.0, 5.1, 4.9, 5.0]).to_dict(),
        seasonal_anomaly_scores(days, [100.0 + (i % 7) for i in range(70)], incomplete_days={days[40]}).to_dict(),
        welch_t_test(SuffStats.from_values([-1.0, 1.0, 0.0]), SuffStats.from_values([1.0, 2.0, 4.0])).to_dict(),
    ]
    text = json.dumps(rendered, allow_nan=False, ensure_ascii=False)
    assert '"member": ["b", "new"]' in text  # pair members become lists
    assert '"2026-06-10"' in text  # dates as ISO strings
    assert rendered[5]["relative_change"] is None
    assert math.isfinite(rendered[2]["total_change"])
