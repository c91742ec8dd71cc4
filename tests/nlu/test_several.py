"""The highest groups asked without a count ("哪些品类GMV最高", "top channels"): the whole ranking
in that direction, never its first group alone; one group asked ("哪个品类…最高") is a top 1."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)

# question, top_n, ranked whole, order
CASES: list[tuple[str, int | None, bool, str]] = [
    ("上个月GMV最高的几个品类", None, True, "desc"),
    ("上个月GMV最高的品类有哪些", None, True, "desc"),
    ("哪些品类上个月GMV最高", None, True, "desc"),
    ("上个月订单量最少的是哪几个区域", None, True, "asc"),
    ("which categories had the highest GMV last month", None, True, "desc"),
    ("top channels by orders last month", None, True, "desc"),
    ("lowest regions by orders last month", None, True, "asc"),
    ("上个月哪个品类GMV最高", 1, False, "desc"),
    ("which category had the highest GMV last month", 1, False, "desc"),
    ("top channel by orders last month", 1, False, "desc"),
    ("上个月GMV最高的3个品类", 3, False, "desc"),
    ("which 2 regions had the fewest orders last month", 2, False, "asc"),
]


@pytest.mark.parametrize(("question", "top_n", "whole", "order"), CASES, ids=[c[0] for c in CASES])
def test_several_groups_are_the_whole_ranking(question: str, top_n: int | None, whole: bool, order: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.top_n == top_n
    assert (query.intent == "ranking" and query.top_n is None) is whole
    assert query.order == order
    assert query.dimensions


@pytest.mark.parametrize(
    "question",
    [
        "which categories had the highest GMV in each region last month",  # the top of each, or of the pairs?
        "top regions and channels by gmv last month",
        "上个月GMV最高的品类有几个买家",  # 几个 counts buyers here, it says no count of groups
        "几个品类里上个月GMV最高的是哪个",
    ],
)
def test_several_is_asked_back_where_it_would_guess(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)
