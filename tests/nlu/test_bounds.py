"""Bounds on a metric's value, one row per way of saying one: what the planner reads (op, value in
the metric's unit, groups), and the numbers it must not read as a bound."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import Threshold
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)

READ = [  # question, metric, op, value, dimensions, grain
    ("上个月退款率超过5%的品类有哪些", "refund_rate", ">", 0.05, ["category"], None),
    ("上个月退款率5%以上的品类", "refund_rate", ">=", 0.05, ["category"], None),
    ("上个月哪些品类退款率高于5个点", "refund_rate", ">", 0.05, ["category"], None),
    ("上个月退款率超过3个百分点的渠道", "refund_rate", ">", 0.03, ["channel"], None),
    ("6月退款率高于百分之五的品类", "refund_rate", ">", 0.05, ["category"], None),  # 百分之五: 5%
    ("6月退款率低于百分之8的渠道", "refund_rate", "<", 0.08, ["channel"], None),
    ("上个月退款率超过百分之七点五的品类", "refund_rate", ">", 0.075, ["category"], None),  # 点: a decimal point
    ("上个月退款率低于百分之四点零五的渠道", "refund_rate", "<", 0.0405, ["channel"], None),
    ("上个月GMV超过七点五万的区域", "gmv", ">", 75_000, ["region"], None),
    ("上个月哪几个区域的GMV超过1000万", "gmv", ">", 10_000_000, ["region"], None),
    ("上个月GMV 500万以上的区域", "gmv", ">=", 5_000_000, ["region"], None),
    ("上个月订单量不到1.2万的渠道", "order_count", "<", 12_000, ["channel"], None),
    ("上个月GMV不超过300万元的区域", "gmv", "<=", 3_000_000, ["region"], None),
    ("上个月订单量达到10000的渠道", "order_count", ">=", 10_000, ["channel"], None),
    ("categories with GMV above 5 million last month", "gmv", ">", 5_000_000, ["category"], None),
    ("regions where GMV exceeded ¥2m last month", "gmv", ">", 2_000_000, ["region"], None),
    ("上个月GMV超过500万rmb的区域", "gmv", ">", 5_000_000, ["region"], None),
    ("上个月退款率超过一成的品类", "refund_rate", ">", 0.10, ["category"], None),  # 一成: a tenth
    ("which channels had gmv higher than 1万 last month", "gmv", ">", 10_000, ["channel"], None),  # never which moved
    ("which regions had gmv higher than 5mn last month", "gmv", ">", 5_000_000, ["region"], None),
    ("上个月订单量不到两万的渠道", "order_count", "<", 20_000, ["channel"], None),  # 成 never read inside 成交
    ("regions where GMV exceeded 2m yuan last month", "gmv", ">", 2_000_000, ["region"], None),
    ("channels with more than 10,000 orders last month", "order_count", ">", 10_000, ["channel"], None),
    ("regions with a refund rate of at least 7.5 percent in Q2", "refund_rate", ">=", 0.075, ["region"], None),
    ("channels whose GMV was 2.5k or less yesterday", "gmv", "<=", 2_500, ["channel"], None),
    ("上个月哪几天GMV超过200万", "gmv", ">", 2_000_000, [], "day"),
    ("2026年GMV超过5000万的月份", "gmv", ">", 50_000_000, [], "month"),
    ("which weeks this year had fewer than 12,000 orders", "order_count", "<", 12_000, [], "week"),
    ("channels with GMV above 5m in the last 3 months", "gmv", ">", 5_000_000, ["channel"], None),  # no "months" kept
    ("6月份GMV超过100万的品类", "gmv", ">", 1_000_000, ["category"], None),  # "月份" of June, not a series
    ("channels with over 2025 orders last month", "order_count", ">", 2025, ["channel"], None),  # a count
    # a bound right after the breakdown of one metric is the metric's: a group is no number
    ("cancel rate by channel above 3% last month", "cancel_rate", ">", 0.03, ["channel"], None),
    ("orders broken down by region above 20000 last month", "order_count", ">", 20_000, ["region"], None),
    ("GMV by each category under 1m in June", "gmv", "<", 1_000_000, ["category"], None),
    # reaching a target, and missing it
    ("Which regions hit 10M GMV in Q2?", "gmv", ">=", 10_000_000, ["region"], None),
    ("Which regions did NOT hit 10M GMV in Q2?", "gmv", "<", 10_000_000, ["region"], None),
    ("which regions didn't reach 10M GMV in Q2", "gmv", "<", 10_000_000, ["region"], None),
    ("which categories missed 5M GMV last month", "gmv", "<", 5_000_000, ["category"], None),
    ("which channels did not exceed 5M GMV last month", "gmv", "<=", 5_000_000, ["channel"], None),
    # 最多 / 最高 / 最少 / 最低 right before a number bound it (at most / at least), never a top N
    ("上个月订单量最多800的渠道有哪些", "order_count", "<=", 800, ["channel"], None),
    ("上个月GMV最少200万的区域", "gmv", ">=", 2_000_000, ["region"], None),
    ("上个月客单价最高860的区域", "gmv_per_buyer", "<=", 860, ["region"], None),
    ("上个月笔单价最低900的渠道", "aov", ">=", 900, ["channel"], None),
    # Chinese numerals, and a scale said alone after 过/破/上 (one of it)
    ("上个月GMV超过五百万的区域", "gmv", ">", 5_000_000, ["region"], None),
    ("上个月GMV超过三千五百万的渠道", "gmv", ">", 35_000_000, ["channel"], None),
    ("上个月订单不到两万的渠道", "order_count", "<", 20_000, ["channel"], None),
    ("上个月订单过万的品类", "order_count", ">", 10_000, ["category"], None),
    # 过/超 right before a number, never read as a misspelt metric name ("订单过" is not 订单量)
    ("上个月单量过5000的品类有哪些", "order_count", ">", 5_000, ["category"], None),
    ("上个月订单过8000的品类", "order_count", ">", 8_000, ["category"], None),
    ("上个月哪些品类订单超8000", "order_count", ">", 8_000, ["category"], None),
    ("上个月订单量上万的品类", "order_count", ">=", 10_000, ["category"], None),
    ("上个月GMV破千万的区域", "gmv", ">", 10_000_000, ["region"], None),
    ("上个月订单破十万的渠道", "order_count", ">", 100_000, ["channel"], None),
    ("上个月GMV过亿的渠道有哪些", "gmv", ">", 100_000_000, ["channel"], None),
    # w / k / m right before Chinese (no word boundary there), and a count's own unit after it
    ("上个月订单量超过1w的区域", "order_count", ">", 10_000, ["region"], None),
    ("上个月GMV超过500W的区域", "gmv", ">", 5_000_000, ["region"], None),
    ("上个月订单量不到5k的区域", "order_count", "<", 5_000, ["region"], None),
    ("上个月GMV超过5m的渠道", "gmv", ">", 5_000_000, ["channel"], None),
    ("上个月订单量不到1万单的区域", "order_count", "<", 10_000, ["region"], None),
    ("上个月买家数超过1万人的区域", "buyer_count", ">", 10_000, ["region"], None),
    ("上个月订单超过1万笔的渠道", "order_count", ">", 10_000, ["channel"], None),
    # negated bounds, and a bound in a clause of its own after what it bounds
    ("上个月GMV没超过500万的区域", "gmv", "<=", 5_000_000, ["region"], None),
    ("上个月订单量没到5000的区域", "order_count", "<", 5_000, ["region"], None),
    ("regions with GMV north of 10M last month", "gmv", ">", 10_000_000, ["region"], None),
    ("上个月各区域GMV，只要超过600万的", "gmv", ">", 6_000_000, ["region"], None),
    ("上个月各渠道订单量，只看1w单以上的", "order_count", ">=", 10_000, ["channel"], None),
    ("2025年每个月GMV，哪几个月超过了5000万", "gmv", ">", 50_000_000, [], "month"),
    ("Q1 2026 GMV by category, only those above 8M", "gmv", ">", 8_000_000, ["category"], None),
    # numbers in sections of 亿 and 万, as written and as spoken
    ("上个月GMV超过一亿五千万的渠道", "gmv", ">", 150_000_000, ["channel"], None),
    ("上个月GMV超过1亿5千万的渠道", "gmv", ">", 150_000_000, ["channel"], None),
    ("哪些品类上个月订单量超过五万四千", "order_count", ">", 54_000, ["category"], None),
    ("上个月订单量超过1万5的区域", "order_count", ">", 15_000, ["region"], None),
    ("上个月GMV超过三千万的区域", "gmv", ">", 30_000_000, ["region"], None),
    ("上个月GMV超过1个亿的渠道", "gmv", ">", 100_000_000, ["channel"], None),
    ("上个月GMV超过1亿2000万的渠道", "gmv", ">", 120_000_000, ["channel"], None),
    ("上个月订单量超过1万零5的区域", "order_count", ">", 10_005, ["region"], None),
    # an amount glued to a Latin name; a bound's word after its number, before the metric
    ("上个月GMV100万以上的品类", "gmv", ">=", 1_000_000, ["category"], None),
    ("regions with 10k+ orders last month", "order_count", ">=", 10_000, ["region"], None),
    ("regions with 8518 or more orders last month", "order_count", ">=", 8_518, ["region"], None),
]


def test_a_percentage_bound_is_exactly_the_digits_said() -> None:
    """ "1.4%" is 0.014, never 0.013999999999999999 (a group at exactly 1.4 % is not "above")."""
    query = PLANNER.plan("上个月退款率高于1.4%的品类", as_of=AS_OF)
    assert query.threshold is not None and query.threshold.value == 0.014


ASKED = [  # question, the reason asked back
    ("regions where GMV exceeded $2m last month", "threshold_currency"),  # dollars on a CNY metric
    ("上个月GMV超过500万美元的区域", "threshold_currency"),
    ("上个月GMV超过500万USD的区域", "threshold_currency"),  # a Latin word right after Chinese
    ("regions where GMV exceeded 2m usd last month", "threshold_currency"),  # never "usa", a typo of nothing here
    ("上个月GMV超过200万欧元的区域", "threshold_currency"),
    ("上个月每天GMV超过200万的渠道", "threshold_beside"),  # every day, or any day?
    ("上个月GMV增长不到5%的品类", "threshold_change_under"),  # do the ones that fell count?
    ("上个月退款率上升超过10%的品类", "threshold_change_of_rate"),  # relative, or points?
    ("上个月GMV环比增长超过5%", "threshold_change_shape"),  # of no groups, and no yes/no
    ("which regions saw GMV rise above 5M last month", "kept_by_change"),  # a level crossed by a move
    ("上个月GMV环比增长超过-5%的渠道", "threshold_signed_move"),  # a rise by less than nothing, or a fall?
    ("上个月GMV环比增长超过5%，增长最多的3个品类", "threshold_beside"),  # a ranking beside it
]


CHANGES = [  # question, metric, what is bounded, op, value (a fall's bound negative), comparison kind
    ("上个月GMV环比降幅超过10%的区域", "gmv", "change_pct", "<", -0.10, "previous_period"),
    ("5月订单量环比增长超过5%的品类有哪些", "order_count", "change_pct", ">", 0.05, "previous_period"),
    ("6月订单量同比降幅超过10%的区域", "order_count", "change_pct", "<", -0.10, "same_period_last_year"),
    ("which regions saw orders drop more than 12% in June vs May", "order_count", "change_pct", "<", -0.12, "custom"),
    (
        "which categories grew more than 10% month on month in orders in may",
        "order_count",
        "change_pct",
        ">",
        0.1,
        "previous_period",
    ),
    ("上个月GMV跌了超过100万的区域", "gmv", "change", "<", -1_000_000, "previous_period"),
    ("上个月各渠道退款率上升超过1个百分点的", "refund_rate", "change", ">", 0.01, "previous_period"),
    ("上个月各品类GMV增长率低于0的", "gmv", "change_pct", "<", 0, "previous_period"),  # signed: as said
    ("哪些区域上个月笔单价同比跌超2%", "aov", "change_pct", "<", -0.02, "same_period_last_year"),  # 跌超
    ("which regions grew gmv more than 20% yoy in may", "gmv", "change_pct", ">", 0.2, "same_period_last_year"),
    (
        "which channels grew orders by more than 5% last month",
        "order_count",
        "change_pct",
        ">",
        0.05,
        "previous_period",
    ),  # the metric between the move and the bound
    (
        "which channels saw conversion rate go up more than 0.05 points mom last month",
        "conversion_rate",
        "change",
        ">",
        0.0005,
        "previous_period",
    ),  # points of a rate
    ("上个月各区域GMV环比变化率高于0的", "gmv", "change_pct", ">", 0, "previous_period"),  # 变化率 one word
    ("上个月GMV环比增长率低于-5%的渠道", "gmv", "change_pct", "<", -0.05, "previous_period"),  # a minus sign
    ("上个月GMV环比变化率低于负5%的渠道", "gmv", "change_pct", "<", -0.05, "previous_period"),  # 负
    ("上个月GMV环比增长率跌破-5%的渠道", "gmv", "change_pct", "<", -0.05, "previous_period"),  # a rate's level
    ("channels with GMV growth rate below -5% last month vs May", "gmv", "change_pct", "<", -0.05, "custom"),
    ("channels whose GMV growth rate was below 5% last month vs May", "gmv", "change_pct", "<", 0.05, "custom"),
    ("channels where GMV growth was above 5% in June vs May", "gmv", "change_pct", ">", 0.05, "custom"),
]


SHARES = [  # question, op, value (a fraction of the whole), the part named, checked (a yes/no) or kept
    ("6月GMV占比超过50%的渠道", ">", 0.5, (), "keep"),
    ("6月GMV占比一半以上的渠道是哪个", ">=", 0.5, (), "keep"),  # 一半: 50%
    ("channels with a share of GMV above 30% last month", ">", 0.3, (), "keep"),
    ("上个月华东GMV占比超过30%了吗", ">", 0.3, ("华东",), "all"),
    ("did app make up more than half of orders last month?", ">", 0.5, ("app",), "all"),  # make up, half
    ("channels that made up more than half of GMV last month", ">", 0.5, (), "keep"),
]


@pytest.mark.parametrize(("question", "op", "value", "part", "check"), SHARES, ids=[s[0] for s in SHARES])
def test_a_bound_said_after_a_share_is_on_the_share(
    question: str, op: str, value: float, part: tuple[str, ...], check: str
) -> None:
    """ "GMV占比超过50%的渠道" was asked back (a percentage of an amount): each part's share is bounded."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.share and query.threshold is not None
    bound = query.threshold
    assert (bound.of, bound.op, bound.check) == ("share", op, check) and bound.value == pytest.approx(value)
    assert tuple(m for f in query.share_filters for m in f.members) == part


@pytest.mark.parametrize(("question", "metric", "of", "op", "value", "kind"), CHANGES, ids=[c[0] for c in CHANGES])
def test_a_bound_said_after_a_move_is_on_the_change(
    question: str, metric: str, of: str, op: str, value: float, kind: str
) -> None:
    """ "环比增长超过5%的品类" was asked back ("超过, 5" unread): the groups whose change passes are kept."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.threshold is not None and query.comparison is not None
    bound = query.threshold
    assert (bound.metric, bound.of, bound.op, bound.check) == (metric, of, op, "keep")
    assert bound.value == pytest.approx(value) and query.comparison.kind == kind and query.premise is None


@pytest.mark.parametrize(("question", "reason"), ASKED, ids=[a[0] for a in ASKED])
def test_a_bound_that_cannot_be_kept_is_asked_back(question: str, reason: str) -> None:
    with pytest.raises(AmbiguousQuestion) as asked:
        PLANNER.plan(question, as_of=AS_OF)
    assert asked.value.detail["reason"] == reason


@pytest.mark.parametrize(("question", "metric", "op", "value", "dims", "grain"), READ, ids=[r[0] for r in READ])
def test_a_bound_is_read_in_its_metrics_unit(
    question: str, metric: str, op: str, value: float, dims: list[str], grain: str | None
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.threshold is not None
    assert (query.threshold.metric, query.threshold.op) == (metric, op)
    assert query.threshold.value == pytest.approx(value)
    assert (list(query.dimensions), query.grain, query.metrics) == (dims, grain, (metric,))
    assert query.top_n is None and query.intent != "ranking"


NOT_BOUNDS = [  # a number beside a comparison word that is no bound on a metric
    "GMV over the last 3 months by channel",  # a length of time
    "上个月GMV最高的3个渠道",  # a top N
    "2025年12月各渠道GMV",  # a date
    "GMV by channel over 2025",  # a year
    "What were the sales numbers last month",  # the figures, not a count
    "上个月除了直播和华东以外的GMV",  # two exclusions, never asked as a list across dimensions
    "过去3个月各渠道GMV",  # 过 of 过去: a length of time
]


@pytest.mark.parametrize("question", NOT_BOUNDS)
def test_a_number_that_is_not_a_bound_is_not_read_as_one(question: str) -> None:
    """Nor is anything here asked back by the rules that came with bounds."""
    assert PLANNER.plan(question, as_of=AS_OF).threshold is None


def test_a_bound_said_of_no_metric_is_asked_back() -> None:
    """ "app超过5%" bounds a member, not a metric: asked back naming it."""
    with pytest.raises(AmbiguousQuestion) as asked:
        PLANNER.plan("上个月app超过5%的品类的退款率", as_of=AS_OF)
    assert asked.value.detail["reason"] == "threshold_of_what" and "app" in asked.value.message_zh


@pytest.mark.parametrize(
    "question",
    ["GMV by channel and region above 5m last month", "GMV last month by channel, app above 5m"],
)
def test_a_bound_after_a_breakdown_not_right_after_its_metric_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)


RANGES = [  # question, metric, lower, upper, dimensions
    ("上个月GMV在100万到500万之间的品类", "gmv", 1_000_000, 5_000_000, ["category"]),
    ("上个月GMV 100到500万之间的品类有哪些", "gmv", 1_000_000, 5_000_000, ["category"]),  # one scale for both
    ("上个月退款率在4.5%到5%之间的渠道", "refund_rate", 0.045, 0.05, ["channel"]),
    ("上个月订单量介于5000和10000之间的地区", "order_count", 5_000, 10_000, ["region"]),
    ("categories with orders between 5,000 and 10,000 last month", "order_count", 5_000, 10_000, ["category"]),
    ("regions with GMV between 2m and 5m last month", "gmv", 2_000_000, 5_000_000, ["region"]),
    ("上个月订单量在500到1万之间的品类", "order_count", 500, 10_000, ["category"]),  # 1万's scale is not 500's
    # without 之间: the second end says its scale and the range ends the phrase
    ("上个月GMV 100万-500万的品类", "gmv", 1_000_000, 5_000_000, ["category"]),
    ("上个月GMV 100万~500万的品类", "gmv", 1_000_000, 5_000_000, ["category"]),
    ("上个月GMV 100-500万的品类", "gmv", 1_000_000, 5_000_000, ["category"]),
    ("上个月GMV在200万到500万，按区域", "gmv", 2_000_000, 5_000_000, ["region"]),
]


@pytest.mark.parametrize(("question", "metric", "lower", "upper", "dims"), RANGES, ids=[r[0] for r in RANGES])
def test_a_range_keeps_the_groups_between_its_ends(
    question: str, metric: str, lower: float, upper: float, dims: list[str]
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.threshold is not None
    assert (query.threshold.metric, query.threshold.op) == (metric, ">=")
    assert query.threshold.value == pytest.approx(lower)
    assert query.threshold.upper == pytest.approx(upper)
    assert list(query.dimensions) == dims


@pytest.mark.parametrize(
    "question",
    [
        "GMV between 2025 and 2026",
        "上个月GMV和订单量",
        "orders between June 1 and June 15",
        "6月1日到15日之间的GMV",
        "2025-2026年的GMV",
        "1-3月的各品类GMV",
    ],
)
def test_a_range_of_dates_or_years_is_no_range_of_values(question: str) -> None:
    assert PLANNER.plan(question, as_of=AS_OF).threshold is None


def test_a_range_runs_upward_from_at_least_its_lower_end() -> None:
    with pytest.raises(ValueError, match="range bound"):
        Threshold(metric="gmv", op=">=", value=5.0, upper=1.0)
    with pytest.raises(ValueError, match="range bound"):
        Threshold(metric="gmv", op=">", value=1.0, upper=5.0)


@pytest.mark.parametrize(
    ("question", "op", "value"),
    [("上个月哪些品类GMV跌破500万", "<", 5_000_000), ("上个月哪些渠道GMV突破1000万", ">", 10_000_000)],
)
def test_a_level_crossed_bounds_the_value_never_the_change(question: str, op: str, value: float) -> None:
    """ "跌破500万" was read as a fall of more than 5M against May (a comparison no one asked for): it
    is the value below the level."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.comparison is None and query.threshold is not None
    assert (query.threshold.of, query.threshold.op, query.threshold.value) == ("value", op, value)


@pytest.mark.parametrize(
    ("metrics", "bounded", "check", "built"),
    [
        (("refund_rate", "order_count"), "order_count", "keep", True),  # a floor on another metric
        (("refund_rate", "order_count"), "refund_rate", "keep", False),  # the metric ranked, bounded too
        (("refund_rate", "order_count"), "order_count", "all", False),  # a yes/no beside a ranking
    ],
)
def test_a_ranking_takes_a_bound_only_as_a_floor_on_another_metric(
    metrics: tuple[str, ...], bounded: str, check: str, built: bool
) -> None:
    from baton.contracts.semantic import SemanticQuery, TimeRange

    fields = {
        "metrics": metrics,
        "dimensions": ("category",),
        "time_range": TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30)),
        "top_n": 3,
        "threshold": Threshold(metric=bounded, op=">", value=8000.0, check=check),
        "as_of": AS_OF,
    }
    if built:
        assert SemanticQuery(**fields).threshold is not None
    else:
        with pytest.raises(ValueError, match="beside a ranking"):
            SemanticQuery(**fields)
