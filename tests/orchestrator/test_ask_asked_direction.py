"""End-to-end: a direction asked as a yes/no ("6月GMV比5月高吗", "did every channel's GMV fall")
is answered yes or no from the data, of the one total or of every group, with the groups that
moved the other way named; independent SQL on the real demo warehouse decides what is right."""

from __future__ import annotations

from datetime import date

import pytest

from baton.orchestrator.session import Session
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
PAID = "status IN ('paid', 'refunded')"
JUNE = "order_date BETWEEN '2026-06-01' AND '2026-06-30'"
MAY = "order_date BETWEEN '2026-05-01' AND '2026-05-31'"


TOTALS = [  # question, the measure as SQL (June against May), the direction asked
    ("6月GMV比5月高吗", "SUM(gmv_amount)", "up"),
    ("6月GMV比5月低吗", "SUM(gmv_amount)", "down"),
    ("上个月订单量比5月多吗", "COUNT(*)", "up"),
    ("was GMV higher in June than in May?", "SUM(gmv_amount)", "up"),
    ("were orders lower in June than in May", "COUNT(*)", "down"),
    ("did GMV grow in June vs May", "SUM(gmv_amount)", "up"),
    ("did web orders go down last month", "COUNT(*) FILTER (WHERE channel = 'web')", "down"),
    ("上个月web订单是不是下降了", "COUNT(*) FILTER (WHERE channel = 'web')", "down"),
]


@pytest.mark.parametrize(("question", "measure", "asked"), TOTALS, ids=[t[0] for t in TOTALS])
def test_a_direction_asked_of_one_total_is_answered_yes_or_no(
    demo_session: Session, question: str, measure: str, asked: str
) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    query = answer.semantic_query
    assert query is not None and query.premise_asked and query.premise == asked
    ((june,),) = gold_rows(demo_session, f"SELECT {measure} FROM fact_order WHERE {JUNE} AND {PAID}")
    ((may,),) = gold_rows(demo_session, f"SELECT {measure} FROM fact_order WHERE {MAY} AND {PAID}")
    went = "up" if june > may else "down"
    yes = went == asked
    lead = ("是，" if yes else "否，") if answer.language == "zh" else ("Yes: " if yes else "No: ")
    assert answer.answer.startswith(lead), answer.answer
    assert answer.interpretation is not None and ("是否" in answer.interpretation or "whether" in answer.interpretation)


GROUPS = [  # question, the direction asked, of every group or of any
    ("6月各渠道GMV都比5月高吗", "up", "every"),
    ("6月各渠道GMV比5月低吗", "down", "every"),
    ("did every channel's GMV fall in June vs May?", "down", "every"),
    ("6月有渠道GMV比5月低吗", "down", "any"),
    ("did any channel's GMV grow in June vs May?", "up", "any"),
    ("有没有渠道6月GMV比5月高", "up", "any"),
    ("有没有哪个渠道上个月GMV涨了", "up", "any"),  # 哪个 was left unread
    ("上个月各渠道GMV有没有涨的", "up", "any"),  # a bare 涨 was no rise
    ("上个月各渠道GMV有没有降的", "down", "any"),
    ("哪些渠道上个月GMV环比下降了", "down", "which"),
    ("which channels grew GMV last month vs May", "up", "which"),
]


@pytest.mark.parametrize(("question", "asked", "of"), GROUPS, ids=[g[0] for g in GROUPS])
def test_a_direction_asked_of_the_groups_names_those_that_decide_it(
    demo_session: Session, question: str, asked: str, of: str
) -> None:
    """Of every group: no when one moved the other way, those named. Of any group: yes when one
    moved that way, those named ("有渠道…低吗" was once answered as if it asked of every one)."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    assert answer.semantic_query is not None and answer.semantic_query.premise_asked == of
    sql = f"""SELECT channel, SUM(gmv_amount) FILTER (WHERE {JUNE}) - SUM(gmv_amount) FILTER (WHERE {MAY})
              FROM fact_order WHERE {PAID} GROUP BY 1"""
    moved = {channel: "up" if change > 0 else "down" for channel, change in gold_rows(demo_session, sql)}
    with_it = [c for c, went in moved.items() if went == asked]
    yes = len(with_it) == len(moved) if of == "every" else bool(with_it)
    deciding = [c for c in moved if c not in with_it] if of == "every" else with_it
    verdict = ("是" if yes else "否") if answer.language == "zh" else ("yes" if yes else "no")
    tail = answer.answer.rsplit("：" if answer.language == "zh" else ": ", 1)[-1]
    assert of == "which" or tail.startswith(verdict), answer.answer  # "which": those named, no yes or no
    for channel in moved:  # after the verdict, exactly the groups that decide it
        label = demo_session.catalog.member_label("channel", channel, answer.language)
        assert (label in tail) is (channel in deciding), (channel, answer.answer)


def test_a_premise_taken_for_granted_is_not_asked(demo_session: Session) -> None:
    """ "6月GMV比5月高了多少" takes the rise for granted: said when wrong, never answered yes or no."""
    answer = demo_session.ask("6月GMV比5月高了多少", as_of=AS_OF)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert not answer.semantic_query.premise_asked
    assert not answer.answer.startswith(("是，", "否，"))


FIRST = [  # question, the dimension, the member asked, highest (desc) or lowest (asc) first
    ("上个月华东是不是GMV最高的区域", "region", "华东", "desc"),
    ("上个月华东的GMV是最高的吗", "region", "华东", "desc"),
    ("上个月网页是GMV最高的渠道吗", "channel", "web", "desc"),
    ("上个月华南是GMV最高的区域吗", "region", "华南", "desc"),  # the top named is 华东, never the first row
    ("上个月西北的GMV是最高的吗", "region", "西北", "desc"),
    ("was East China the top region by GMV last month?", "region", "华东", "desc"),
    ("上个月东北的GMV是最低的吗", "region", "东北", "asc"),
    ("上个月华南的GMV是最低的吗", "region", "华南", "asc"),
]


@pytest.mark.parametrize(("question", "dim", "member", "order"), FIRST, ids=[f[0] for f in FIRST])
def test_whether_a_member_is_first_is_answered_over_every_member(
    demo_session: Session, question: str, dim: str, member: str, order: str
) -> None:
    """ "华东的GMV是最高的吗" was answered as the top channel inside 华东 (a remembered breakdown), and
    "网页是GMV最高的渠道吗" asked back: every member is ranked and the verdict is the data's."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    query = answer.semantic_query
    assert query is not None and query.asked_member == member and query.dimensions == (dim,)
    values = dict(
        gold_rows(demo_session, f"SELECT {dim}, SUM(gmv_amount) FROM fact_order WHERE {JUNE} AND {PAID} GROUP BY 1")
    )
    ranked = sorted(values, key=lambda k: values[k], reverse=order == "desc")
    assert answer.result is not None and answer.result.row_count == len(values)  # every member ranked
    yes = ranked[0] == member
    lead = ("是，" if yes else "否，") if answer.language == "zh" else ("Yes: " if yes else "No: ")
    assert answer.answer.startswith(lead), answer.answer
    if not yes:  # the first named (and no other member as first), and the member's own place
        first = demo_session.catalog.member_label(dim, ranked[0], answer.language)
        assert first in answer.answer and f"{ranked.index(member) + 1}" in answer.answer, answer.answer
        others = [m for m in values if m not in (member, ranked[0])]
        assert not any(demo_session.catalog.member_label(dim, m, answer.language) in answer.answer for m in others)


PLACES = [  # question, dimension, member: the member's place is asked, not whether it is first
    ("华南上个月gmv排第几", "region", "华南"),
    ("上个月华南的GMV在各区域里排名第几", "region", "华南"),
    ("上个月东北的GMV排名", "region", "东北"),
    ("where does south china rank among regions by gmv last month", "region", "华南"),
    ("上个月app的GMV排名如何", "channel", "app"),
    ("what place was web among channels by GMV last month", "channel", "web"),
]


@pytest.mark.parametrize(("question", "dim", "member"), PLACES, ids=[p[0] for p in PLACES])
def test_a_members_place_is_said_over_every_member(demo_session: Session, question: str, dim: str, member: str) -> None:
    """ "华南排第几" was asked back ("第几" unread): every member is ranked, the place said is the data's,
    with the first beside it; no yes or no."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    query = answer.semantic_query
    assert query is not None and query.asked_member == member and query.place_asked and query.dimensions == (dim,)
    values = dict(
        gold_rows(demo_session, f"SELECT {dim}, SUM(gmv_amount) FROM fact_order WHERE {JUNE} AND {PAID} GROUP BY 1")
    )
    ranked = sorted(values, key=lambda k: values[k], reverse=True)
    assert answer.result is not None and answer.result.row_count == len(values)
    place = ranked.index(member) + 1
    said = f"第 {place}" if answer.language == "zh" else f"number {place} of the {len(values)}"
    assert said in answer.answer and not answer.answer.startswith(("是", "否", "Yes", "No")), answer.answer
    first = demo_session.catalog.member_label(dim, ranked[0], answer.language)
    assert first in answer.answer, answer.answer
    assert answer.interpretation is not None and ("排第几" in answer.interpretation or "ranks" in answer.interpretation)
