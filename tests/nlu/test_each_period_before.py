"""Each period of a series against the one before it ("今年每个月GMV环比"), and the readings
that stand next to it: the 环比 (同比) itself ranked ("环比最高的品类"), the periods of a series
kept by their change ("环比增长超过5%的月份"), and one metric said as a percent of another.

The contract pins the comparison's days (the whole range one period earlier, whole periods
only); the rule planner reads the words into it or asks back, never compares a series with one
earlier period of the same length.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from pydantic import ValidationError

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import Comparison, Grain, SemanticQuery, TimeRange, periods_before
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

RULES = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)
D = date

# start, end, grain -> the days the series is compared with (None: not whole periods)
BEFORE: list[tuple[date, date, Grain, tuple[date, date] | None]] = [
    (D(2026, 1, 1), D(2026, 6, 30), "month", (D(2025, 12, 1), D(2026, 5, 31))),
    (D(2026, 3, 1), D(2026, 3, 31), "month", (D(2026, 2, 1), D(2026, 2, 28))),
    (D(2026, 1, 1), D(2026, 6, 30), "quarter", (D(2025, 10, 1), D(2026, 3, 31))),
    (D(2025, 1, 1), D(2026, 12, 31), "year", (D(2024, 1, 1), D(2025, 12, 31))),
    (D(2026, 6, 1), D(2026, 6, 28), "week", (D(2026, 5, 25), D(2026, 6, 21))),
    (D(2026, 6, 1), D(2026, 6, 30), "day", (D(2026, 5, 31), D(2026, 6, 29))),
    (D(2026, 6, 2), D(2026, 6, 28), "week", None),  # starts on a Tuesday
    (D(2026, 1, 1), D(2026, 6, 15), "month", None),  # half a June
    (D(2026, 2, 1), D(2026, 6, 30), "quarter", None),  # starts inside Q1
]


@pytest.mark.parametrize(("start", "end", "grain", "before"), BEFORE)
def test_the_days_a_series_is_compared_with(
    start: date, end: date, grain: Grain, before: tuple[date, date] | None
) -> None:
    assert periods_before(start, end, grain) == before


def test_a_series_against_one_earlier_period_of_its_length_breaks_the_contract() -> None:
    fields = {"metrics": ("gmv",), "grain": "month", "as_of": AS_OF}
    year = TimeRange(start=D(2026, 1, 1), end=D(2026, 6, 30))
    same_length = Comparison(kind="previous_period", range=TimeRange(start=D(2025, 7, 1), end=D(2025, 12, 31)))
    with pytest.raises(ValidationError, match="each whole period with the one before it"):
        SemanticQuery(**fields, time_range=year, comparison=same_length)
    before = Comparison(kind="previous_period", range=TimeRange(start=D(2025, 12, 1), end=D(2026, 5, 31)))
    assert SemanticQuery(**fields, time_range=year, comparison=before).each_period_before


def test_an_average_per_day_against_the_month_before_is_no_series() -> None:
    """Its days are compiled as a series of their own, but each period's total is taken once."""
    query = RULES.plan("上个月日均GMV环比", as_of=AS_OF)
    assert query.average_per == "day" and not query.each_period_before
    assert not query.model_copy(update={"grain": "day"}).each_period_before


# question -> grain, the range, the days compared with
READ: list[tuple[str, Grain, tuple[date, date], tuple[date, date]]] = [
    ("今年每个月GMV环比", "month", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 12, 1), D(2026, 5, 31))),
    ("上半年每个月GMV环比增长率", "month", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 12, 1), D(2026, 5, 31))),
    ("今年每个月GMV比上个月多了多少", "month", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 12, 1), D(2026, 5, 31))),
    ("monthly GMV mom this year", "month", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 12, 1), D(2026, 5, 31))),
    (
        "GMV month over month for each month this year",
        "month",
        (D(2026, 1, 1), D(2026, 6, 30)),
        (D(2025, 12, 1), D(2026, 5, 31)),
    ),
    ("近4周每周GMV环比", "week", (D(2026, 6, 1), D(2026, 6, 28)), (D(2026, 5, 25), D(2026, 6, 21))),
    ("weekly orders wow last 8 weeks", "week", (D(2026, 5, 4), D(2026, 6, 28)), (D(2026, 4, 27), D(2026, 6, 21))),
    ("6月每天GMV环比", "day", (D(2026, 6, 1), D(2026, 6, 30)), (D(2026, 5, 31), D(2026, 6, 29))),
    ("daily gmv vs the previous day in june", "day", (D(2026, 6, 1), D(2026, 6, 30)), (D(2026, 5, 31), D(2026, 6, 29))),
    ("今年每季度GMV环比", "quarter", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 10, 1), D(2026, 3, 31))),
    # a comparison word of one period said over several: each of them against its own
    ("今年GMV月环比", "month", (D(2026, 1, 1), D(2026, 6, 30)), (D(2025, 12, 1), D(2026, 5, 31))),
    ("6月GMV日环比", "day", (D(2026, 6, 1), D(2026, 6, 30)), (D(2026, 5, 31), D(2026, 6, 29))),
    (
        "aov w/w for the last 4 weeks by channel",
        "week",
        (D(2026, 6, 1), D(2026, 6, 28)),
        (D(2026, 5, 25), D(2026, 6, 21)),
    ),
    ("最近4个季度各区域退款率季度环比", "quarter", (D(2025, 7, 1), D(2026, 6, 30)), (D(2025, 4, 1), D(2026, 3, 31))),
    # the periods ranked by their growth
    ("近12个月GMV环比增长最快的3个月", "month", (D(2025, 7, 1), D(2026, 6, 30)), (D(2025, 6, 1), D(2026, 5, 31))),
]


@pytest.mark.parametrize(("question", "grain", "asked", "against"), READ)
def test_each_period_is_read_against_the_one_before_it(
    question: str, grain: Grain, asked: tuple[date, date], against: tuple[date, date]
) -> None:
    query = RULES.plan(question, as_of=AS_OF)
    assert query.grain == grain and query.each_period_before
    assert query.comparison is not None
    assert (query.time_range.start, query.time_range.end) == asked
    assert (query.comparison.range.start, query.comparison.range.end) == against


# question -> why it is asked back, never a series compared with something else
ASKED = [
    ("近10天每周GMV环比", "series_before_not_whole"),  # part of a week has no week before it
    ("每周GMV月环比", None),  # weeks against months
    ("近7天每天GMV和前7天比", None),  # each day against the 7 days before?
    ("daily GMV in June vs the month before", None),
]


@pytest.mark.parametrize(("question", "reason"), ASKED)
def test_a_series_beside_another_period_is_asked_back(question: str, reason: str | None) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        RULES.plan(question, as_of=AS_OF)
    assert caught.value.detail.get("reason") == reason
    assert "grain" in caught.value.detail


def test_a_series_over_part_of_a_period_offers_the_whole_ones_inside_it() -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        RULES.plan("weekly gmv wow in q2 2026", as_of=AS_OF)
    assert caught.value.detail["whole_inside"] == ["2026-04-06", "2026-06-28"]  # Mondays to Sundays inside Q2
    assert "2026-04-06" in caught.value.message_en and "2026-06-28" in caught.value.message_zh


# question -> what a ranking beside a comparison orders by, and which end
RANKED = [
    ("上个月GMV环比最高的品类", "change_pct", "desc"),  # the 环比 itself is ranked
    ("上个月GMV同比最高的3个品类", "change_pct", "desc"),
    ("上个月各区域GMV环比最低的2个", "change_pct", "asc"),
    ("今年每个月GMV环比最高的3个月", "change_pct", "desc"),
    ("which category had the highest mom gmv last month", "change_pct", "desc"),
    ("上个月GMV最高的品类环比怎么样", "value", "desc"),  # the top category by GMV, then its 环比
    ("上个月GMV环比下降最多的是哪天", "change", "asc"),  # the days of a series, each against the day before
    ("近12个月GMV环比增长最快的3个月", "change_pct", "desc"),
]  # fmt: skip


@pytest.mark.parametrize(("question", "rank_by", "order"), RANKED)
def test_a_comparison_said_at_an_end_ranks_the_change(question: str, rank_by: str, order: str) -> None:
    query = RULES.plan(question, as_of=AS_OF)
    assert (query.rank_by, query.order) == (rank_by, order)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("今年每个月GMV环比增长超过5%的月份", "previous_period"),
        ("GMV by month this year, which months grew more than 20% yoy", "same_period_last_year"),
    ],
)
def test_the_periods_of_a_series_are_kept_by_their_change(question: str, kind: str) -> None:
    query = RULES.plan(question, as_of=AS_OF)
    assert query.grain == "month" and query.comparison is not None and query.comparison.kind == kind
    assert query.threshold is not None and query.threshold.of == "change_pct" and query.threshold.op == ">"


@pytest.mark.parametrize(
    "question",
    [
        "discount as % of gmv by category, q1",
        "net rev as % of gmv by channel, h1",
        "discount as a pct of gmv last month",
        "discount % of gmv by region last month",
        "visitors over orders last month",  # the catalog defines orders over visitors, not this
        "上个月各品类优惠金额占GMV的比例",
    ],
)
def test_one_metric_as_a_percent_of_another_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:  # never each metric's share of its own total
        RULES.plan(question, as_of=AS_OF)
    assert caught.value.detail["reason"] == "ratio_of_two"


@pytest.mark.parametrize("question", ["gmv over the last 3 months", "gmv by channel as % of total last month"])
def test_over_a_period_and_a_percent_of_the_total_are_no_ratio_of_metrics(question: str) -> None:
    assert RULES.plan(question, as_of=AS_OF).metrics == ("gmv",)
