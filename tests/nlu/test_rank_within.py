"""A top N inside each group ("每个渠道GMV最高的2个品类", "top 2 categories in each region"): one
dimension marked as the groups, the other named right after the ranking words; anything less clear
stays asked back (within each group, or the combinations as a whole?)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.nlu.interpret import interpret
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)

READ: list[tuple[str, str, int, str]] = [
    ("每个渠道上个月GMV最高的2个品类", "channel", 2, "desc"),
    ("各区域上个月订单量前三的品类", "region", 3, "desc"),
    ("上个月各区域GMV最高的品类", "region", 1, "desc"),
    ("top 2 categories by gmv in each region last month", "region", 2, "desc"),
    ("each region's top 2 categories by orders last month", "region", 2, "desc"),
    ("top 2 categories per channel by gmv last month", "channel", 2, "desc"),
    ("bottom 1 category by orders per channel last month", "channel", 1, "asc"),
]


@pytest.mark.parametrize(("question", "within", "top_n", "order"), READ, ids=[r[0] for r in READ])
def test_the_top_of_each_group_is_read(question: str, within: str, top_n: int, order: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.rank_within, query.top_n, query.order) == ((within,), top_n, order)
    assert within in query.dimensions and len(query.dimensions) == 2


def test_the_interpretation_says_inside_each_group() -> None:
    query = PLANNER.plan("每个渠道上个月GMV最高的2个品类", as_of=AS_OF)
    assert "每个渠道内按成交总额取最高的 2 个品类" in interpret(query, PLANNER.catalog, "zh")
    query = PLANNER.plan("top 2 categories by gmv in each region last month", as_of=AS_OF)
    assert "inside each region the top 2 categories by GMV" in interpret(query, PLANNER.catalog, "en")


@pytest.mark.parametrize(
    "question",
    [
        "上个月GMV最高的2个区域和品类",  # neither marked as the groups
        "每个渠道每个区域GMV最高的品类",  # both marked
        "各渠道上个月GMV环比最高的2个品类",  # with a comparison: not built
        "上个月各区域GMV最高的几个品类",  # several, not a top N
        "每个渠道上个月GMV排名第二的品类",  # a place inside each group: not built
    ],
)
def test_an_unclear_top_of_each_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)


def test_combinations_said_as_such_are_ranked_as_a_whole() -> None:
    query = PLANNER.plan("上个月GMV最高的3个区域和品类组合", as_of=AS_OF)
    assert query.rank_within == () and query.top_n == 3


EACH_PERIOD: list[tuple[str, str, str, int, str]] = [
    ("2026年每个月GMV最高的渠道", "month", "channel", 1, "desc"),
    ("今年每个月订单量最多的品类是哪个", "month", "category", 1, "desc"),
    ("上个月每周GMV最高的2个区域", "week", "region", 2, "desc"),
    ("top 2 categories by orders each month in 2026 H1", "month", "category", 2, "desc"),
    ("bottom 1 channel by gmv per week last month", "week", "channel", 1, "asc"),
]


@pytest.mark.parametrize(
    ("question", "grain", "ranked", "top_n", "order"), EACH_PERIOD, ids=[r[0] for r in EACH_PERIOD]
)
def test_the_top_of_each_period_is_read(question: str, grain: str, ranked: str, top_n: int, order: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.rank_each_period and query.rank_within == ()
    assert (query.grain, query.dimensions, query.top_n, query.order) == (grain, (ranked,), top_n, order)


def test_the_interpretation_says_in_each_period() -> None:
    query = PLANNER.plan("2026年每个月GMV最高的2个渠道", as_of=AS_OF)
    assert "每月按成交总额取最高的 2 个渠道" in interpret(query, PLANNER.catalog, "zh")
    query = PLANNER.plan("top 2 categories by orders each month in 2026 H1", as_of=AS_OF)
    assert "in each month the top 2 categories by orders" in interpret(query, PLANNER.catalog, "en")


@pytest.mark.parametrize(
    "question",
    [
        "2026年按月GMV最高的渠道",  # by month: each month's top, or the top channels shown by month?
        "2026年每个月GMV同比最高的渠道",  # with a comparison: not built
        "2026年每个月各区域GMV最高的品类",  # two dimensions besides the period
        "2026年每个月GMV排名第二的渠道",  # a place inside each period: not built
    ],
)
def test_an_unclear_top_of_each_period_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)


@pytest.mark.parametrize(
    "update",
    [
        {"grain": None},
        {"top_n": None},
        {"dimensions": ()},
        {"share": True},
        {"rank_within": ("region",), "dimensions": ("region", "channel")},
    ],
)
def test_a_top_of_each_period_needs_a_plain_ranked_series(update: dict[str, object]) -> None:
    query = PLANNER.plan("2026年每个月GMV最高的渠道", as_of=AS_OF)
    with pytest.raises(ValueError, match=r"top N in each period|top N within groups|share"):
        SemanticQuery.model_validate({**query.model_dump(), **update})
