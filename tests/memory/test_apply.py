"""A remembered default breakdown fills only a breakdown the question leaves open ("拆开看看",
"top 3", "break it down"): stated in the assumptions with how to undo it, never added to a
question that asked for one figure, not used for a metric it does not fit or while memory is
off, and gone once forgotten. Questions are read by the real planner; the default is used the
way the plan step uses it (asked back without it, planned with it)."""

from __future__ import annotations

from datetime import date

import pytest

from baton.catalog.compiler import compile_query
from baton.catalog.model import Catalog
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.memory import Memory
from baton.nlu.interpret import interpret
from baton.nlu.parser import Planner

AS_OF = date(2026, 7, 1)


@pytest.fixture(scope="module")
def planner(catalog: Catalog) -> Planner:
    return Planner(catalog)


def plan_with_memory(
    planner: Planner, memory: Memory, said: str, language: str = "zh"
) -> tuple[SemanticQuery, list[str]]:
    """What the plan step does: the rules first; a breakdown left open is filled by the default."""
    try:
        return planner.plan(said, as_of=AS_OF), []
    except AmbiguousQuestion as exc:
        default = memory.default_breakdown("ana", language)  # type: ignore[arg-type]
        if exc.detail.get("missing") != "breakdown" or default is None:
            raise
        return planner.plan(said, as_of=AS_OF, default_breakdown=default[0]), [default[1]]


@pytest.mark.parametrize(
    ("said", "language", "label", "how"),
    [
        ("上个月GMV最高的3个", "zh", "渠道", "你曾这样要求"),
        ("Top 3 by GMV last month", "en", "channel", "you asked for it"),
    ],
)
def test_a_breakdown_left_open_takes_the_default_and_says_so(
    memory: Memory, planner: Planner, said: str, language: str, label: str, how: str
) -> None:
    with pytest.raises(AmbiguousQuestion):
        planner.plan(said, as_of=AS_OF)
    assert memory.learn("ana", "以后默认按渠道拆分") is not None
    query, notes = plan_with_memory(planner, memory, said, language)
    assert query.dimensions == ("channel",) and query.top_n == 3
    assert len(notes) == 1 and label in notes[0] and how in notes[0]
    assert "baton memory forget default_breakdown" in notes[0]
    assert label in interpret(query, memory.catalog, language)  # type: ignore[arg-type]
    sql = compile_query(query, memory.catalog).sql.lower()
    assert "group by" in sql and "channel" in sql


def test_used_then_forgotten(memory: Memory, planner: Planner) -> None:
    memory.set_preference("ana", "default_breakdown", "region")
    query, notes = plan_with_memory(planner, memory, "上个月订单量最高的2个")
    assert query.dimensions == ("region",) and "区域" in notes[0]
    assert memory.forget("ana", "default_breakdown") is True
    with pytest.raises(AmbiguousQuestion):
        plan_with_memory(planner, memory, "上个月订单量最高的2个")


def test_a_learned_default_says_where_it_came_from(memory: Memory, planner: Planner) -> None:
    for said in ("上个月各品类的GMV", "上周各品类的订单量", "昨天各品类的退款率"):
        memory.observe("ana", planner.plan(said, as_of=AS_OF))
    _, notes = plan_with_memory(planner, memory, "Top 3 by GMV last month", "en")
    assert "learned from your recent questions" in notes[0]


@pytest.mark.parametrize(
    "said",
    ["上个月的GMV是多少？", "What was GMV last month?", "上个月各区域的GMV", "6月GMV比5月怎么样", "上个月每天的GMV"],
)
def test_never_added_to_a_question_that_did_not_leave_the_breakdown_open(
    memory: Memory, planner: Planner, said: str
) -> None:
    memory.set_preference("ana", "default_breakdown", "channel")
    query, notes = plan_with_memory(planner, memory, said)
    assert query == planner.plan(said, as_of=AS_OF) and notes == []


def test_not_used_when_the_metric_may_not_be_split_by_it(memory: Memory, planner: Planner) -> None:
    memory.set_preference("ana", "default_breakdown", "category")
    assert "category" not in memory.catalog.metrics["visitors"].dimensions
    with pytest.raises(AmbiguousQuestion):
        plan_with_memory(planner, memory, "上个月访客数最高的3个")


def test_not_used_while_memory_is_off(memory: Memory, planner: Planner) -> None:
    memory.set_preference("ana", "default_breakdown", "channel")
    memory.set_enabled("ana", False)
    assert memory.default_breakdown("ana", "zh") is None
    memory.set_enabled("ana", True)
    assert memory.default_breakdown("ana", "zh") is not None


def test_other_preferences_are_not_a_default_breakdown(memory: Memory) -> None:
    for said in ("answer in English", "我最关心GMV和订单量", "图表用折线图"):
        assert memory.learn("ana", said) is not None
    assert memory.default_breakdown("ana", "zh") is None
    assert memory.language("ana") == "en"
    memory.set_enabled("ana", False)
    assert memory.language("ana") is None
