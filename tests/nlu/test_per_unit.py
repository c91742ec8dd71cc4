"""A follow-up naming only a ratio's unit ("how about per buyer?", "每个买家呢"): the catalog's
ratio of the metric shown over that unit, the rest of the question kept — or no such reading when
the catalog has none, or two."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.followup import read_follow_up
from baton.nlu.parser import Planner
from baton.nlu.per_unit import per_unit_question

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
PLANNER = Planner(CATALOG)
JULY = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("first", "follow", "metric"),
    [
        ("GMV last month by channel", "how about per buyer?", "gmv_per_buyer"),
        ("GMV last month by channel", "per buyer?", "gmv_per_buyer"),
        ("GMV last month by channel", "and per order?", "aov"),
        ("GMV last month by channel", "what about per customer", "gmv_per_buyer"),  # a synonym of buyers
        ("GMV per buyer last month", "and per order?", "aov"),  # the numerator of the ratio shown
        ("上个月各渠道GMV", "每个买家呢", "gmv_per_buyer"),
        ("上个月各渠道GMV", "平均每单呢", "aov"),
        ("上个月各渠道GMV", "每单呢", "aov"),  # 单 counts orders (订单量), never buyers (下单人数)
    ],
)
def test_a_unit_alone_asks_for_the_ratio_over_it(first: str, follow: str, metric: str) -> None:
    parent = PLANNER.plan(first, as_of=JULY)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY).query
    assert query.metrics == (metric,)
    assert (query.dimensions, query.time_range) == (parent.dimensions, parent.time_range)


@pytest.mark.parametrize(
    ("first", "follow"),
    [
        ("GMV and orders last month", "per buyer?"),  # of which metric?
        ("GMV last month", "how about per buyer by region?"),  # more than a unit: read as said
        ("GMV last month", "per region"),  # a breakdown, not a unit
    ],
)
def test_no_ratio_is_composed(first: str, follow: str) -> None:
    assert per_unit_question(follow, PLANNER.plan(first, as_of=JULY), CATALOG) is None


@pytest.mark.parametrize(
    ("first", "follow", "en", "zh"),
    [
        ("GMV last month", "per visitor?", "no ratio of GMV over visitors", "成交总额与访客数之比"),
        ("orders last month by channel", "and per buyer?", "no ratio of orders over buyers", "订单量与买家数之比"),
        ("订单量上个月", "每个买家呢", "no ratio of orders over buyers", "订单量与买家数之比"),  # never the buyers
    ],
)
def test_a_unit_the_catalog_has_no_ratio_over_is_asked_back(first: str, follow: str, en: str, zh: str) -> None:
    with pytest.raises(AmbiguousQuestion) as asked:
        read_follow_up(PLANNER, follow, PLANNER.plan(first, as_of=JULY), as_of=JULY)
    assert en in asked.value.message_en
    assert zh in asked.value.message_zh
