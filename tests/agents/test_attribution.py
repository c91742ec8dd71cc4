"""Member-level attribution adds up: LMDI per member for a product tree, rate and mix for a
ratio; every member's and factor's contribution together is the total change, and a member
that did not change contributes nothing of its own."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baton.agents.attribution import read_drill, tree_value
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, Factor, MetricTree

PRODUCT = MetricTree(
    "gmv",
    "product",
    ("gmv", "visitors", "orders"),
    ("gmv", "visitors", "orders"),
    Factor("gmv", "gmv"),
    (Factor("visitors", "visitors"), Factor("conversion", "orders", "visitors"), Factor("aov", "gmv", "orders")),
)
RATIO = MetricTree(
    "conversion",
    "ratio",
    ("conversion",),
    ("orders", "visitors"),
    Factor("conversion", "orders", "visitors", "rate"),
    (Factor("conversion", "orders", "visitors", "rate"), Factor("visitors", "visitors", None, "mix")),
)
KEPT = {CURRENT: 30, PREVIOUS: 30}

cell = st.tuples(st.floats(100, 10_000), st.floats(0.01, 0.2), st.floats(10, 500))  # visitors, conversion, order value


def _rows(cells: list[tuple[tuple[float, float, float], tuple[float, float, float]]]) -> list[dict[str, Any]]:
    rows = []
    for i, periods in enumerate(cells):
        for which, (visitors, conversion, value) in zip((PREVIOUS, CURRENT), periods, strict=True):
            orders = visitors * conversion
            rows.append({"m": f"m{i}", "which": which, "visitors": visitors, "orders": orders, "gmv": orders * value})
    return rows


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(cell, cell), min_size=2, max_size=6))
def test_product_contributions_add_up_to_the_change(cells: list[Any]) -> None:
    drill = read_drill(PRODUCT, ("m",), _rows(cells), KEPT, 30)
    change = tree_value(PRODUCT, drill.totals[CURRENT]) - tree_value(PRODUCT, drill.totals[PREVIOUS])
    assert math.fsum(drill.contributions.values()) == pytest.approx(change, rel=1e-9, abs=1e-6)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(cell, cell), min_size=2, max_size=6))
def test_rate_and_mix_add_up_to_the_change_of_a_ratio(cells: list[Any]) -> None:
    drill = read_drill(RATIO, ("m",), _rows(cells), KEPT, 30)
    change = tree_value(RATIO, drill.totals[CURRENT]) - tree_value(RATIO, drill.totals[PREVIOUS])
    assert math.fsum(drill.contributions.values()) == pytest.approx(change, rel=1e-9, abs=1e-12)


def test_an_unchanged_member_contributes_nothing_of_its_own() -> None:
    still = ((1000.0, 0.05, 100.0), (1000.0, 0.05, 100.0))
    moved = ((2000.0, 0.04, 80.0), (2600.0, 0.02, 95.0))
    product = read_drill(PRODUCT, ("m",), _rows([still, moved]), KEPT, 30)
    assert all(v == 0.0 for (key, _), v in product.contributions.items() if key == ("m0",))
    ratio = read_drill(RATIO, ("m",), _rows([still, moved]), KEPT, 30)
    assert ratio.contributions[(("m0",), "conversion")] == 0.0  # its rate did not move


def test_cells_within_rounding_of_each_other_still_add_up() -> None:
    """Found by Hypothesis: 125.00000000000001 against 125.0 have equal logs (a zero division)."""
    near = ((125.00000000000001, 0.05, 10.0), (125.0, 0.05, 10.0))
    other = ((300.0, 0.02, 5.0), (320.0, 0.03, 6.0))
    drill = read_drill(PRODUCT, ("m",), _rows([near, other]), KEPT, 30)
    change = tree_value(PRODUCT, drill.totals[CURRENT]) - tree_value(PRODUCT, drill.totals[PREVIOUS])
    assert math.fsum(drill.contributions.values()) == pytest.approx(change, rel=1e-9, abs=1e-6)


COUNT = MetricTree(
    "orders", "product", ("orders",), ("orders",), Factor("orders", "orders"), (Factor("orders", "orders"),)
)


def _sparse_rows(active: int | None) -> list[dict[str, Any]]:
    """Member "x": one order on each of 2 days before, on 10 days after; member "y": one order on
    each of 8 days in both. With ``active`` (days any member had rows), x's share of the rest is
    0 on the days only y had rows — the test against the rest sees every day, not x's few."""

    def row(m: str, which: str, days: int, ratios: list[float]) -> dict[str, Any]:
        k = sum(ratios) / len(ratios)
        out: dict[str, Any] = {"m": m, "which": which, "orders": float(days), "days": days}
        out |= {"o0_n": days, "o0_s": 0.0, "o0_ss": 0.0, "o0_k": 1.0}
        out |= {"r0_n": len(ratios), "r0_s": sum(r - k for r in ratios), "r0_ss": sum((r - k) ** 2 for r in ratios)}
        out |= {"r0_k": k, "active_days": active}
        return out

    return [
        row("x", PREVIOUS, 2, [1.0, 1.0]),
        row("x", CURRENT, 10, [1.0] * 8 + [0.5, 0.5]),
        row("y", PREVIOUS, 8, [1.0] * 8),
        row("y", CURRENT, 8, [1.0] * 8),
    ]


def test_a_sparse_members_test_against_the_rest_counts_the_days_only_the_rest_had_rows() -> None:
    from baton.agents.attribution import candidates_for

    def rest_p(active: int | None) -> float:
        drill = read_drill(COUNT, ("m",), _sparse_rows(active), {CURRENT: 30, PREVIOUS: 30}, 30)
        (x,) = [c for c in candidates_for(COUNT, drill, "ev", single_day=False) if c.members == {"m": "x"}]
        return x.rest_p

    # on x's own days its share barely moves; over every active day it rose from 2 days in 10 to 10 in 12
    assert rest_p(None) > 0.5
    assert rest_p(10) < 0.05 < rest_p(None)
