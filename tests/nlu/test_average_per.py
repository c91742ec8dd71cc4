"""A metric's average per day, week or month ("日均GMV", "月均订单量", "average weekly orders"):
read as one value per period, never as a series, divided by whole periods only, and asked back
where the average has two meanings (a rate's), none yet, or cuts a week or a month."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import Grain, SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.nlu.interpret import interpret
from baton.nlu.parser import Planner

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
PLANNER = Planner(CATALOG)
AS_OF = date(2026, 7, 1)

# question, per, metric, dimensions, (start, end), comparison range start (None: no comparison)
READ: list[tuple[str, Grain, str, tuple[str, ...], tuple[str, str], str | None]] = [
    ("上个月日均GMV", "day", "gmv", (), ("2026-06-01", "2026-06-30"), None),
    ("上个月平均每天的订单量", "day", "order_count", (), ("2026-06-01", "2026-06-30"), None),
    ("上个月每天平均多少单", "day", "order_count", (), ("2026-06-01", "2026-06-30"), None),
    ("今年一季度各渠道日均成交额", "day", "gmv", ("channel",), ("2026-01-01", "2026-03-31"), None),
    ("average daily GMV last month", "day", "gmv", (), ("2026-06-01", "2026-06-30"), None),
    ("daily average orders by region last week", "day", "order_count", ("region",), ("2026-06-22", "2026-06-28"), None),
    ("Average orders per day in East China last month", "day", "order_count", (), ("2026-06-01", "2026-06-30"), None),
    ("avg buyers a day in May", "day", "buyer_count", (), ("2026-05-01", "2026-05-31"), None),
    ("6月日均GMV环比", "day", "gmv", (), ("2026-06-01", "2026-06-30"), "2026-05-01"),
    ("2025年月均GMV", "month", "gmv", (), ("2025-01-01", "2025-12-31"), None),
    ("今年上半年平均每个月的订单量", "month", "order_count", (), ("2026-01-01", "2026-06-30"), None),
    ("2025年各区域每月平均成交额", "month", "gmv", ("region",), ("2025-01-01", "2025-12-31"), None),
    ("今年月均GMV同比", "month", "gmv", (), ("2026-01-01", "2026-06-30"), "2025-01-01"),
    ("近8周的周均买家数", "week", "buyer_count", (), ("2026-05-04", "2026-06-28"), None),
    ("average monthly orders in 2025", "month", "order_count", (), ("2025-01-01", "2025-12-31"), None),
    ("monthly average GMV by channel this year", "month", "gmv", ("channel",), ("2026-01-01", "2026-06-30"), None),
    ("avg GMV a week over the last 4 weeks", "week", "gmv", (), ("2026-06-01", "2026-06-28"), None),
    ("average quarterly orders in 2025", "quarter", "order_count", (), ("2025-01-01", "2025-12-31"), None),
    ("2025年月平均GMV", "month", "gmv", (), ("2025-01-01", "2025-12-31"), None),
    ("2025年按月平均的GMV", "month", "gmv", (), ("2025-01-01", "2025-12-31"), None),
    ("上个月日平均GMV", "day", "gmv", (), ("2026-06-01", "2026-06-30"), None),
    ("上个月按天平均的订单量", "day", "order_count", (), ("2026-06-01", "2026-06-30"), None),
]


@pytest.mark.parametrize(("question", "per", "metric", "dims", "span", "before"), READ, ids=[r[0] for r in READ])
def test_an_average_is_one_value_per_period(
    question: str, per: Grain, metric: str, dims: tuple[str, ...], span: tuple[str, str], before: str | None
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.average_per == per and query.metrics == (metric,) and query.dimensions == dims
    assert query.grain is None  # "每天" / "monthly" here is the average's period, not a series
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == span
    assert (query.comparison.range.start.isoformat() if query.comparison else None) == before


@pytest.mark.parametrize(
    ("question", "grain"),
    [("Daily GMV last week", "day"), ("monthly GMV in 2025", "month"), ("2025年每月的GMV", "month")],
)
def test_a_period_word_alone_is_still_a_series(question: str, grain: Grain) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.grain == grain and query.average_per is None


@pytest.mark.parametrize(
    ("question", "grain"),
    [("monthly average order value in 2025", "month"), ("2025年每月平均订单金额", "month")],
)
def test_an_average_inside_a_metric_name_is_the_metric(question: str, grain: Grain) -> None:
    """ "monthly average order value": AOV per month (a series), not the monthly average of something."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.metrics == ("aov",) and query.grain == grain and query.average_per is None


def test_average_each_day_is_not_read_as_a_per_day_average() -> None:
    """ "average GMV by channel each day": a daily series of something averaged, or one average? Asked."""
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan("show average GMV by channel each day last week", as_of=AS_OF)


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("上个月的日均转化率", "average_of_a_ratio"),  # the period's rate, or the mean of daily rates?
        ("average daily AOV last month", "average_of_a_ratio"),
        ("2025年月均转化率", "average_of_a_ratio"),
        ("今年每月的日均GMV", "average_with_grain"),
        ("2025年各月的月均GMV", "average_with_grain"),
        ("上个月各渠道日均GMV占比", "average_with_share"),
        ("上个季度各渠道周均GMV", "average_cuts_a_period"),  # 13 weeks and two days
        ("2026年1月1日到3月15日的月均GMV", "average_cuts_a_period"),
        ("6月周均订单量", "average_cuts_a_period"),
        ("日均和月均GMV", None),  # two averages at once
        ("为什么今年月均GMV上升了", "average_of_why"),
    ],
)
def test_what_an_average_cannot_mean_is_asked_back(question: str, reason: str | None) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert caught.value.detail.get("reason") == reason


def test_a_cut_period_is_asked_back_with_the_whole_periods_inside_it() -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan("上个季度周均GMV", as_of=AS_OF)
    assert caught.value.detail["suggestions"] == ["2026-04-06~2026-06-28"]
    assert "2026-04-06至2026-06-28" in caught.value.message_zh
    assert "the whole weeks 2026-04-06 to 2026-06-28" in caught.value.message_en


def test_a_year_to_date_that_ends_inside_a_month_is_no_monthly_average() -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan("今年月均GMV", as_of=date(2026, 7, 15))
    assert caught.value.detail["suggestions"] == ["2026-01-01~2026-06-30"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("上个月日均GMV", "日均成交总额（每日值之和 ÷ 30 天）"),
        ("6月日均GMV环比", "日均成交总额（每日值之和 ÷ 30 天，对比期 ÷ 31 天）"),
        ("average daily GMV last month", "GMV per day (the daily values summed ÷ 30 days)"),
        ("2025年月均GMV", "月均成交总额（每月值之和 ÷ 12 个月）"),
        ("近8周的周均买家数", "周均买家数（每周值之和 ÷ 8 周）"),
        ("average monthly orders in 2025", "orders per month (the monthly values summed ÷ 12 months)"),
        ("2026年一季度月均GMV和2025年全年比", "月均成交总额（每月值之和 ÷ 3 个月，对比期 ÷ 12 个月）"),
    ],
)
def test_the_interpretation_says_the_average_and_what_it_divides_by(question: str, said: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert said in interpret(query, CATALOG, "en" if question.isascii() else "zh")


def test_a_run_stored_with_per_day_reads_as_an_average_per_day() -> None:
    """Runs stored before averages per week and month carry ``per_day``: resume and replay still read them."""
    stored = {"metrics": ["gmv"], "per_day": True, "time_range": {"start": "2026-06-01", "end": "2026-06-30"}}
    query = SemanticQuery.model_validate({**stored, "as_of": "2026-07-01"})
    assert query.average_per == "day"
    assert SemanticQuery.model_validate({**stored, "per_day": False, "as_of": "2026-07-01"}).average_per is None


@pytest.mark.parametrize(
    ("question", "span"),
    [
        ("2025年6月1日平均订单金额", ("2025-06-01", "2025-06-01")),
        ("2025年6月平均订单金额", ("2025-06-01", "2025-06-30")),
    ],
)
def test_a_date_before_an_average_word_is_the_date(question: str, span: tuple[str, str]) -> None:
    """ "6月1日平均订单金额" is AOV on June 1st, not a per-day average ("日平均")."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.metrics == ("aov",) and query.average_per is None
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == span
