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
