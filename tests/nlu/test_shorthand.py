"""How analysts shorten what they ask: "avg", "excl.", "w/o", "pct", "累计", "…数", "given" —
read as the words they stand for, stated as corrections; a running total is asked back."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import BatonError
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)
JUNE = ("2026-06-01", "2026-06-30")

# question, metric, period, filters {dimension: (members, excluded)}, share, written shorthand
READ: list[tuple[str, str, tuple[str, str], dict[str, tuple[tuple[str, ...], bool]], bool, tuple[str, ...]]] = [
    ("avg order value for returning customers in May", "aov", ("2026-05-01", "2026-05-31"),
     {"user_type": (("returning",), False)}, False, ("avg",)),
    ("buyers last month excl. East China", "buyer_count", JUNE, {"region": (("华东",), True)}, False, ("excl.",)),
    ("GMV last month w/o live stream", "gmv", JUNE, {"channel": (("live_stream",), True)}, False, ("w/o",)),
    ("pct of GMV from app last month", "gmv", JUNE, {}, True, ("pct",)),
    ("今年1-5月累计GMV", "gmv", ("2026-01-01", "2026-05-31"), {}, False, ()),
    ("今年第二季度新增注册用户数", "new_users", ("2026-04-01", "2026-06-30"), {}, False, ()),
    ("上个月订单数量", "order_count", JUNE, {}, False, ()),
    ("上个月的买家人数", "buyer_count", JUNE, {}, False, ()),
    ("Discounts given during Double 11 last year", "discount_amount", ("2025-11-01", "2025-11-11"), {}, False, ()),
    ("orders placed last month", "order_count", JUNE, {}, False, ()),
    ("上个月的总销售额", "gmv", JUNE, {}, False, ()),  # "total" before a metric's name
    ("上个月华东总GMV是多少", "gmv", JUNE, {"region": (("华东",), False)}, False, ()),
    ("上个月总的订单量", "order_count", JUNE, {}, False, ()),
    ("上个月总转化率", "conversion_rate", JUNE, {}, False, ()),
    ("上个月GMV总额", "gmv", JUNE, {}, False, ()),  # "total" in the metric's unit after its name
    ("上个月订单总量", "order_count", JUNE, {}, False, ()),
    ("上个月汇总GMV", "gmv", JUNE, {}, False, ()),
    ("上个月APP上的订单量", "order_count", JUNE, {"channel": (("app",), False)}, False, ()),  # "上" says where
    ("上个月在网页上卖了多少钱", "gmv", JUNE, {"channel": (("web",), False)}, False, ()),
    ("gmv last month ex. app", "gmv", JUNE, {"channel": (("app",), True)}, False, ("ex.",)),
    ("gmv last month ex app", "gmv", JUNE, {"channel": (("app",), True)}, False, ("ex",)),
    ("gmv past 30d", "gmv", JUNE, {}, False, ("30d",)),
    ("上个月订单量超过1w的区域", "order_count", JUNE, {}, False, ()),  # 1w is 1万, never a week
    # p76: "not" opening a clause excludes; "last mo"
    ("not east china — gmv by category last mo", "gmv", JUNE, {"region": (("华东",), True)}, False, ("mo",)),
    ("gmv by category last month, not east china", "gmv", JUNE, {"region": (("华东",), True)}, False, ()),
]  # fmt: skip


@pytest.mark.parametrize(
    ("question", "metric", "period", "filters", "share", "shorthand"), READ, ids=[r[0] for r in READ]
)
def test_shorthand_is_read_as_written_out(
    question: str,
    metric: str,
    period: tuple[str, str],
    filters: dict[str, tuple[tuple[str, ...], bool]],
    share: bool,
    shorthand: tuple[str, ...],
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.metrics == (metric,)
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == period
    assert {f.dimension: (f.members, f.exclude) for f in query.filters} == filters
    assert query.share is share and query.grain is None
    assert tuple(c.written for c in query.corrections) == shorthand


ASKED = [
    ("今年1-5月每月累计GMV", "累计"),  # a running total of a monthly series: not computed
    ("cumulative GMV this year by month", "cumulative"),
    ("cumulative GMV trend in June", "cumulative"),  # a trend is a series too
    ("累计GMV趋势 6月", "累计"),
    ("上个月GMV数", "数"),  # GMV is an amount: "数" is not "the number of" it
    ("上个月订单总额", "总额"),  # an amount of orders is another metric than their number
    ("上个月GMV总量", "总量"),
]


@pytest.mark.parametrize(("question", "word"), ASKED, ids=[q for q, _ in ASKED])
def test_what_shorthand_cannot_mean_is_asked_about(question: str, word: str) -> None:
    with pytest.raises(BatonError) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert word in caught.value.message("en")


# question, the comparison kind it asks, the metric, the shorthand as written
SLASHED = [
    ("GMV y/y June", "same_period_last_year", "gmv", "y/y"),
    ("GMV (y-o-y) June", "same_period_last_year", "gmv", "y-o-y"),
    ("orders m/m last month", "previous_period", "order_count", "m/m"),
    ("GMV q/q Q2", "previous_period", "gmv", "q/q"),
    ("orders w/w last week", "previous_period", "order_count", "w/w"),
    ("gmv last month vs same month ly", "same_period_last_year", "gmv", "ly"),
    ("gmv h1 vs h1 ly", "custom", "gmv", "ly"),  # the first half of last year, named
    ("gmv last 7d vs previous 7d", "previous_period", "gmv", "7d"),
    ("orders last 4w vs prior 4w", "previous_period", "order_count", "4w"),
    # p76
    ("YTD gmv vs LY same period", "same_period_last_year", "gmv", "LY"),
    ("yday orders vs same day last wk", "custom", "order_count", "yday"),
    ("QoQ refund rate chg", "previous_period", "refund_rate", "chg"),
]


@pytest.mark.parametrize(("question", "kind", "metric", "written"), SLASHED, ids=[s[0] for s in SLASHED])
def test_a_slashed_comparison_is_kept(question: str, kind: str, metric: str, written: str) -> None:
    """ "y/y", "m/m", "w/w" were dropped as punctuation, and the current period answered alone."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.comparison is not None and query.comparison.kind == kind
    assert query.metrics == (metric,)
    assert written in [c.written for c in query.corrections]


def test_a_metric_per_order_is_not_a_sort_order() -> None:
    """ "GMV/order by channel": GMV per order (the average order value), never GMV sorted."""
    query = PLANNER.plan("GMV/order by channel last month", as_of=AS_OF)
    assert query.metrics == ("aov",) and query.dimensions == ("channel",) and query.top_n is None


@pytest.mark.parametrize("question", ["GMV w/c 15 June", "orders w/e 21 June"])
def test_a_week_by_its_first_or_last_day_is_never_that_day_alone(question: str) -> None:
    with pytest.raises(BatonError) as asked:
        PLANNER.plan(question, as_of=AS_OF)
    assert "week" in asked.value.message("en")


@pytest.mark.parametrize(
    ("question", "period"),
    [
        ("GMV last mo", JUNE),
        ("GMV last wk", ("2026-06-22", "2026-06-28")),
        ("GMV last qtr by region", ("2026-04-01", "2026-06-30")),
        ("GMV this yr", ("2026-01-01", "2026-06-30")),
    ],
)
def test_a_shortened_unit_of_time_is_read_in_full(question: str, period: tuple[str, str]) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == period
    assert query.corrections  # said back: "Read 'mo' as 'month'"


@pytest.mark.parametrize(
    "question",
    [
        "GMV ex live stream last month",
        "GMV less live stream last month",
        "GMV last month bar live stream",
        "GMV last month not incl. live stream",
    ],
)
def test_more_ways_to_leave_a_member_out(question: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert {f.dimension: (f.members, f.exclude) for f in query.filters} == {"channel": (("live_stream",), True)}


def test_less_than_is_still_a_bound() -> None:
    query = PLANNER.plan("orders less than 5000 by region last month", as_of=AS_OF)
    assert query.threshold is not None and (query.threshold.op, query.threshold.value) == ("<", 5000)
    assert query.filters == ()


@pytest.mark.parametrize(
    ("question", "kind"),
    [("上个月GMVyoy", "same_period_last_year"), ("上个月订单量mom", "previous_period")],
)
def test_a_comparison_written_straight_after_a_word_is_read(question: str, kind: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.comparison is not None and query.comparison.kind == kind
