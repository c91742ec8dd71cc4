"""A metric's average per day ("日均GMV", "average daily orders"): read as one value per period,
never as a daily series, and asked back where "per day" has two meanings (a rate's) or none yet."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.interpret import interpret
from baton.nlu.parser import Planner

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
PLANNER = Planner(CATALOG)
AS_OF = date(2026, 7, 1)

# question, metric, dimensions, days, comparison days (None: no comparison)
READ: list[tuple[str, str, tuple[str, ...], int, int | None]] = [
    ("上个月日均GMV", "gmv", (), 30, None),
    ("上个月平均每天的订单量", "order_count", (), 30, None),
    ("上个月每天平均多少单", "order_count", (), 30, None),
    ("今年一季度各渠道日均成交额", "gmv", ("channel",), 90, None),
    ("average daily GMV last month", "gmv", (), 30, None),
    ("daily average orders by region last week", "order_count", ("region",), 7, None),
    ("Average orders per day in East China last month", "order_count", (), 30, None),
    ("avg buyers a day in May", "buyer_count", (), 31, None),
    ("6月日均GMV环比", "gmv", (), 30, 31),
]


@pytest.mark.parametrize(("question", "metric", "dims", "days", "before"), READ, ids=[r[0] for r in READ])
def test_per_day_is_one_value_per_period(
    question: str, metric: str, dims: tuple[str, ...], days: int, before: int | None
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.per_day and query.metrics == (metric,) and query.dimensions == dims
    assert query.grain is None  # "每天" / "daily" here is the average's day, not a series
    assert query.time_range.days == days
    assert (len(query.comparison.dates()) if query.comparison else None) == before


def test_daily_alone_is_still_a_series() -> None:
    query = PLANNER.plan("Daily GMV last week", as_of=AS_OF)
    assert query.grain == "day" and not query.per_day


def test_average_each_day_is_not_read_as_a_per_day_average() -> None:
    """ "average GMV by channel each day": a daily series of something averaged, or one average? Asked."""
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan("show average GMV by channel each day last week", as_of=AS_OF)


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("上个月的日均转化率", "per_day_of_a_ratio"),  # the period's rate, or the mean of daily rates?
        ("average daily AOV last month", "per_day_of_a_ratio"),
        ("今年每月的日均GMV", "per_day_with_grain"),
        ("上个月各渠道日均GMV占比", "per_day_with_share"),
    ],
)
def test_what_per_day_cannot_mean_is_asked_back(question: str, reason: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert caught.value.detail["reason"] == reason


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("上个月日均GMV", "日均成交总额（每日值之和 ÷ 30 天）"),
        ("6月日均GMV环比", "日均成交总额（每日值之和 ÷ 30 天，对比期 ÷ 31 天）"),
        ("average daily GMV last month", "GMV per day (the daily values summed ÷ 30 days)"),
    ],
)
def test_the_interpretation_says_per_day_and_the_days(question: str, said: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert said in interpret(query, CATALOG, "zh" if question[0] in "上6" else "en")
