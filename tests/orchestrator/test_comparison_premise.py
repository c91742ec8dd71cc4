"""A comparison whose question takes a direction for granted ("6月GMV比5月高了多少", "how much
higher") says in words when the data moved the other way — never only by a sign — and says
nothing extra when it moved as said or when the question named no direction. The direction of
the change is checked against independent SQL on the demo."""

from __future__ import annotations

from datetime import date

import pytest

from baton import Session
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
PAID = "status IN ('paid', 'refunded')"
JUNE, MAY = "'2026-06-01' AND '2026-06-30'", "'2026-05-01' AND '2026-05-31'"
WEB_ORDERS = f"SELECT COUNT(*) FILTER (WHERE order_date BETWEEN {{}}) FROM fact_order WHERE {PAID} AND channel = 'web'"
GMV = f"SELECT SUM(gmv_amount) FILTER (WHERE order_date BETWEEN {{}}) FROM fact_order WHERE {PAID}"

CASES = [
    ("6月GMV比5月高了多少", GMV, "up", "问题说成交总额上升"),
    ("how much higher was GMV in June than in May", GMV, "up", "The question takes it that GMV rose"),
    ("为什么上个月GMV上涨了", GMV, "up", "问题说成交总额上升"),
    ("上个月GMV环比下降了多少", GMV, "down", "问题说成交总额下降"),
    ("上个月GMV环比涨了还是跌了", GMV, None, "问题说"),
    ("web orders last month vs the month before", WEB_ORDERS, None, "The question takes it"),
    ("how much did web orders go down last month", WEB_ORDERS, "down", "The question takes it that orders fell"),
    ("上个月web订单下降了多少", WEB_ORDERS, "down", "问题说订单量下降"),
    ("上个月GMV增速", GMV, None, "问题说"),  # a growth rate is a measure: no direction taken for granted
    ("what was gmv growth last month", GMV, None, "The question takes it"),
]


@pytest.mark.parametrize(("question", "gold", "said", "words"), CASES, ids=[c[0] for c in CASES])
def test_a_premise_the_data_contradicts_is_said(
    demo_session: Session, question: str, gold: str, said: str | None, words: str
) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    ((june,),) = gold_rows(demo_session, gold.format(JUNE))
    ((may,),) = gold_rows(demo_session, gold.format(MAY))
    actual = "up" if float(str(june)) > float(str(may)) else "down"
    assert answer.semantic_query.premise == said
    assert answer.answer.startswith(words) is (said is not None and said != actual), answer.answer
    assert answer.gate is not None and answer.gate.ok
