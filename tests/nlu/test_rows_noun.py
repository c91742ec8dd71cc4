"""A metric said of the rows another metric only counts ("GMV for orders", "订单的GMV", "average
delay for flights") is that metric alone — the count names its rows, no second metric; a count
with a condition of its own, or of other rows, is still asked back."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.metric_words import counts_rows_of
from baton.nlu.parser import Planner

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
PLANNER = Planner(CATALOG)
JULY = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("question", "metrics"),
    [
        ("GMV for orders last month", ("gmv",)),
        ("订单的GMV上个月", ("gmv",)),
        ("orders' GMV last month", ("gmv",)),
        ("GMV and orders last month", ("gmv", "order_count")),  # side by side, as said
    ],
)
def test_a_count_of_the_same_rows_is_their_noun(question: str, metrics: tuple[str, ...]) -> None:
    assert PLANNER.plan(question, as_of=JULY).metrics == metrics


@pytest.mark.parametrize(
    "question",
    [
        "GMV last month for buyers",
        "上个月新注册的用户里有多少人下了单",
        "上个月买家的订单量",  # orders of buyers: never the buyers (the count asked is the head)
        "orders of buyers last month",
        "上个月每个买家的订单量",
        "GMV of orders from buyers last month",  # once an internal error: one noun dropped twice
        "GMV of all orders last month",  # a whole said: a share?
    ],
)
def test_a_count_of_other_things_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=JULY)


@pytest.mark.parametrize(
    ("count", "other", "rows"),
    [
        ("order_count", "gmv", True),  # COUNT(*) of fact_order, the same status filter
        ("order_count", "aov", True),
        ("buyer_count", "gmv", False),  # a distinct count: buyers, not the orders' rows
        ("order_count", "refund_rate", False),  # the refunds' filter is not the count's
        ("gmv", "order_count", False),  # an amount names no rows
    ],
)
def test_what_counts_the_rows_of_another(count: str, other: str, rows: bool) -> None:
    assert counts_rows_of(CATALOG, count, other) is rows
