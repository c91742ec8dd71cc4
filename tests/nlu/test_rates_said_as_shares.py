"""A rate said as the share of a count an event befell ("what % of orders were refunded",
"取消的订单占比"): the catalog's rate whose name the event word begins, over a count of the table
its denominator counts — read so and said so, on the demo catalog and on one that names its
own rate (a subscription catalog's churn), never a rate guessed for a count it does not count."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

DEMO = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)


def _label(zh: str, en: str) -> dict[str, str]:
    return {"zh": zh, "en": en}


SUBSCRIPTIONS = Planner(
    Catalog.model_validate(
        {
            "name": "subscriptions",
            "tables": {"subs": {"label": _label("订阅", "subscriptions"), "time_column": "month"}},
            "dimensions": {},
            "metrics": {
                "subscribers": {
                    "label": _label("订阅用户数", "subscribers"),
                    "synonyms": ["用户", "customers"],
                    "description": _label("订阅用户数", "subscribers"),
                    "table": "subs",
                    "expression": "COUNT(*)",
                    "unit": "count",
                    "owner": "growth",
                },
                "churn_rate": {
                    "label": _label("流失率", "churn rate"),
                    "description": _label("流失用户 ÷ 订阅用户", "churned over subscribers"),
                    "numerator": {"table": "subs", "expression": "COUNT(*)", "filters": ["churned"]},
                    "denominator": "subscribers",
                    "unit": "ratio",
                    "owner": "growth",
                },
            },
        }
    )
)


@pytest.mark.parametrize(
    ("planner", "question", "metric"),
    [
        (DEMO, "what % of orders were refunded last quarter", "refund_rate"),
        (DEMO, "上季度退款订单占比多少", "refund_rate"),
        (DEMO, "上个月订单中退款的比例", "refund_rate"),
        (DEMO, "上个月取消的订单占比多少", "cancel_rate"),
        (DEMO, "what share of orders got cancelled last month", "cancel_rate"),
        (DEMO, "what % of visitors converted last month on the app", "conversion_rate"),
        (SUBSCRIPTIONS, "what percentage of customers churned last month", "churn_rate"),
        (SUBSCRIPTIONS, "上个月流失的用户占比", "churn_rate"),
    ],
)
def test_a_share_of_a_count_an_event_befell_is_the_rate(planner: Planner, question: str, metric: str) -> None:
    query = planner.plan(question, as_of=AS_OF)
    assert query.metrics == (metric,) and not query.share
    assert [c.kind for c in query.corrections] == ["ratio"]


@pytest.mark.parametrize(
    "question",
    [
        "上个月退款订单数",  # a count of refunded orders: no such metric, asked
        "what % of visitors were refunded last month",  # the refund rate counts orders, not visitors
        "what % of orders were shipped last month",  # no rate of that event
    ],
)
def test_no_rate_is_read_for_a_count_it_does_not_count(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        DEMO.plan(question, as_of=AS_OF)


@pytest.mark.parametrize(
    "question",
    [
        # review s31: a share of the events among groups, a population the rate does not count
        "what share of orders that were refunded came from the app last month",
        "app's share of orders refunded last month",
        "each channel's share of orders refunded last month",
        "what % of buyers got refunded last month",
        "上个月退款的买家占比",
    ],
)
def test_a_share_of_the_events_or_of_another_population_is_no_rate(question: str) -> None:
    try:
        query = DEMO.plan(question, as_of=AS_OF)
    except AmbiguousQuestion:
        return  # asked back: fair
    assert query.metrics[0] not in {"refund_rate", "cancel_rate"}


def test_a_members_word_is_no_event() -> None:
    """Review s31: "returning" (a user type) matched the stem of "return rate"."""
    query = DEMO.plan("what percentage of orders were returning users last month", as_of=AS_OF)
    assert query.metrics == ("order_count",) and query.share
    assert [f.members for f in query.share_filters] == [("returning",)]
