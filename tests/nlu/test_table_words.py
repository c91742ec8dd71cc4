"""The name of the table a metric is read from says which rows it counts ("工单的平均解决时长");
another table's name is a word Baton cannot place, and is asked about."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[1] / "fixtures/saas/catalog.yaml"))
AS_OF = date(2026, 7, 1)


@pytest.mark.parametrize("question", ["2026年第二季度订阅表的新增MRR", "new MRR in subscriptions, Q2 2026"])
def test_the_metrics_own_table_is_read(question: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.metrics == ("new_mrr",) and query.time_range.start == date(2026, 4, 1)


@pytest.mark.parametrize("question", ["2026年第二季度账户表的新增MRR", "new MRR from accounts in Q2 2026"])
def test_another_tables_name_is_asked_about(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert caught.value.detail["unknown"] in (["账户表"], ["accounts"])
