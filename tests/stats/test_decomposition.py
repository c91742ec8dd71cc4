"""Contributions, mix vs rate, and LMDI: worked examples and exactness as properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from baton.stats import (
    InsufficientData,
    StatsInputError,
    additive_contributions,
    lmdi,
    ratio_mix_rate,
)

MEMBERS = ["app", "web", "mini", "store", "b2b"]
positive = st.floats(min_value=0.01, max_value=1e6, allow_nan=False, allow_infinity=False)
amount = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


def _close(parts: float, total: float, level: float) -> bool:
    """Exact up to float rounding: within 1e-9 relative to the total change, with an absolute
    floor of 1e-12 of the data's level (a zero change cannot be matched relatively)."""
    return abs(parts - total) <= 1e-9 * abs(total) + 1e-12 * level


def test_additive_worked_example() -> None:
    d = additive_contributions({"app": 100.0, "web": 50.0, "store": 10.0}, {"app": 70.0, "web": 55.0, "mini": 5.0})
    assert d.total_change == pytest.approx(-30.0)
    assert [(m.member, m.change) for m in d.members] == [
        ("app", -30.0),
        ("store", -10.0),
        ("web", 5.0),
        ("mini", 5.0),
    ]
    assert d.members[0].share_of_change == pytest.approx(1.0)
    assert d.members[2].relative_change == pytest.approx(0.1)
    assert d.members[3].relative_change is None  # new member


def test_ratio_pure_mix_shift_has_zero_rate_effect() -> None:
    # Rates unchanged (app 10 %, web 2 %); traffic moves from app to web, so the overall rate falls.
    before = {"app": (100.0, 1000.0), "web": (20.0, 1000.0)}
    after = {"app": (50.0, 500.0), "web": (30.0, 1500.0)}
    d = ratio_mix_rate(before, after)
    assert d.ratio_before == pytest.approx(0.06)
    assert d.ratio_after == pytest.approx(0.04)
    assert d.rate_effect == pytest.approx(0.0, abs=1e-15)
    assert d.mix_effect == pytest.approx(-0.02)
    app = next(m for m in d.members if m.member == "app")
    assert app.mix_effect == pytest.approx(-0.25 * (0.10 - 0.05))  # Δw · (r̄_i − r̄)
    assert app.mix_effect < 0  # losing weight in an above-average member hurts


def test_ratio_pure_rate_change_has_zero_mix_effect() -> None:
    before = {"app": (100.0, 1000.0), "web": (20.0, 1000.0)}
    after = {"app": (60.0, 1000.0), "web": (20.0, 1000.0)}
    d = ratio_mix_rate(before, after)
    assert d.mix_effect == pytest.approx(0.0, abs=1e-15)
    assert d.members[0].member == "app"
    assert d.members[0].rate_effect == pytest.approx(0.5 * (0.06 - 0.10))
    assert d.members[0].share_of_change == pytest.approx(1.0)


def test_ratio_new_and_vanished_members_are_all_mix() -> None:
    d = ratio_mix_rate({"app": (10.0, 100.0), "old": (5.0, 100.0)}, {"app": (10.0, 100.0), "new": (30.0, 100.0)})
    new = next(m for m in d.members if m.member == "new")
    old = next(m for m in d.members if m.member == "old")
    assert new.rate_effect == 0.0
    assert old.rate_effect == 0.0
    assert new.rate_before is None
    assert old.rate_after is None
    assert math.fsum(m.total_effect for m in d.members) == pytest.approx(d.total_change)


def test_ratio_refuses_bad_inputs() -> None:
    with pytest.raises(StatsInputError):
        ratio_mix_rate({"a": (1.0, 0.0)}, {"a": (1.0, 1.0)})
    with pytest.raises(StatsInputError):
        ratio_mix_rate({"a": (1.0, -1.0)}, {"a": (1.0, 1.0)})
    with pytest.raises(InsufficientData):
        ratio_mix_rate({"a": (0.0, 0.0)}, {"a": (1.0, 1.0)})


def test_lmdi_worked_example() -> None:
    d = lmdi({"x": 2.0, "y": 3.0}, {"x": 4.0, "y": 3.0})
    assert d.total_change == pytest.approx(6.0)
    assert [f.effect for f in d.factors] == pytest.approx([6.0, 0.0])
    # Two factors moving in opposite directions by the same ratio leave V unchanged.
    flat = lmdi({"x": 2.0, "y": 3.0}, {"x": 4.0, "y": 1.5})
    assert flat.total_change == 0.0
    assert flat.factors[0].effect == pytest.approx(-flat.factors[1].effect)
    assert flat.factors[0].effect == pytest.approx(6.0 * math.log(2.0))


def _tree(revenue: float, orders: float, sessions: float | None) -> dict[str, float]:
    """revenue = sessions × conversion × order value (or orders × order value without sessions)."""
    head = {"sessions": sessions, "conversion": orders / sessions} if sessions is not None else {"orders": orders}
    return {**head, "order_value": revenue / orders}


def test_metric_tree_with_and_without_a_first_factor() -> None:
    before, after = _tree(1_000_000.0, 5_000.0, 100_000.0), _tree(900_000.0, 4_400.0, 104_000.0)
    d = lmdi(before, after, value_before=1_000_000.0, value_after=900_000.0)
    assert [f.factor for f in d.factors] == ["sessions", "conversion", "order_value"]
    assert d.total_change == pytest.approx(-100_000.0)
    assert math.fsum(f.effect for f in d.factors) == pytest.approx(-100_000.0, rel=1e-12)
    by = {f.factor: f for f in d.factors}
    assert by["sessions"].effect > 0 > by["conversion"].effect
    short = lmdi(_tree(1_000_000.0, 5_000.0, None), _tree(900_000.0, 4_400.0, None))
    assert [f.factor for f in short.factors] == ["orders", "order_value"]
    with pytest.raises(InsufficientData):
        lmdi({"x": 0.0}, {"x": 1.0})
    with pytest.raises(StatsInputError):
        lmdi({"x": 1.0}, {"y": 1.0})


@given(st.dictionaries(st.sampled_from(MEMBERS), amount), st.dictionaries(st.sampled_from(MEMBERS), amount))
def test_additive_sums_exactly(before: dict[str, float], after: dict[str, float]) -> None:
    d = additive_contributions(before, after)
    scale = sum(map(abs, before.values())) + sum(map(abs, after.values()))
    assert _close(math.fsum(m.change for m in d.members), d.total_after - d.total_before, scale)
    if abs(d.total_change) > 1e-6 * scale:
        assert math.fsum(m.share_of_change or 0.0 for m in d.members) == pytest.approx(1.0, rel=1e-6)


ratio_cells = st.dictionaries(
    st.sampled_from(MEMBERS),
    # no subnormal rates (5e-324): a change below float's smallest normal number has no relative precision
    # left for any sum to keep, and no count or amount of a warehouse makes one
    st.tuples(
        st.floats(min_value=0.0, max_value=1.0, allow_subnormal=False), st.floats(min_value=1.0, max_value=1e6)
    ).map(lambda t: (t[0] * t[1], t[1])),
    min_size=1,
)


@given(ratio_cells, ratio_cells)
def test_mix_plus_rate_sums_exactly(
    before: dict[str, tuple[float, float]], after: dict[str, tuple[float, float]]
) -> None:
    d = ratio_mix_rate(before, after)
    parts = math.fsum(m.rate_effect + m.mix_effect for m in d.members)
    assert _close(parts, d.total_change, max(d.ratio_before, d.ratio_after))
    assert _close(d.rate_effect + d.mix_effect, d.total_change, max(d.ratio_before, d.ratio_after))


@given(st.lists(st.tuples(positive, positive), min_size=1, max_size=4))
def test_lmdi_sums_exactly(pairs: list[tuple[float, float]]) -> None:
    before = {f"f{i}": b for i, (b, _) in enumerate(pairs)}
    after = {f"f{i}": a for i, (_, a) in enumerate(pairs)}
    d = lmdi(before, after)
    assert _close(math.fsum(f.effect for f in d.factors), d.total_change, max(d.value_before, d.value_after))
    # each effect has the sign of its factor's change
    assert all(f.effect == 0 or (f.effect > 0) == (f.after > f.before) for f in d.factors)


totals = st.tuples(positive, positive, positive)


@given(totals, totals)
def test_metric_tree_sums_to_observed_value(
    before: tuple[float, float, float], after: tuple[float, float, float]
) -> None:
    d = lmdi(_tree(*before), _tree(*after), value_before=before[0], value_after=after[0])
    g0, g1 = before[0], after[0]
    assert d.total_change == g1 - g0
    assert _close(math.fsum(f.effect for f in d.factors), g1 - g0, max(g0, g1))
