"""A top N keeps every row that ties its last place (``RANK() <= N``, as FETCH FIRST N ROWS WITH
TIES) and says so; checked against independent SQL on a day of the demo where the 3rd and 4th
categories by orders tie (华南, app, 2026-06-08)."""

from __future__ import annotations

from datetime import date

import pytest

from baton import Session
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
DAY = "status IN ('paid', 'refunded') AND order_date = DATE '2026-06-08' AND region = '华南' AND channel = 'app'"


def _gold(session: Session, n: int, order: str) -> list[tuple[object, ...]]:
    return gold_rows(
        session,
        f"SELECT category, n FROM (SELECT category, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) {order}) AS r "
        f"FROM fact_order WHERE {DAY} GROUP BY 1) WHERE r <= {n} ORDER BY n {order}, category",
    )


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "2026年6月8日华南app渠道订单量最高的3个品类",
            "订单量最高的3个品类：{items}。第3名有2个并列（{value}），全部列出，共4个。",
        ),
        (
            "top 3 categories by orders in 华南 via app on 2026-06-08",
            "Place 3 is shared by 2 ({value}), so all 4 are listed.",
        ),
    ],
)
def test_rows_tied_at_the_last_place_are_kept_and_said(demo_session: Session, question: str, said: str) -> None:
    gold = _gold(demo_session, 3, "DESC")
    assert len(gold) == 4 and gold[2][1] == gold[3][1] != gold[1][1]  # the day really has the tie
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert [tuple(row) for row in answer.result.rows] == gold
    labels = [demo_session.catalog.member_label("category", c, "zh") for c, _ in gold]
    items = "、".join(f"{label}（{n}）" for label, (_, n) in zip(labels, gold, strict=True))
    assert said.format(items=items, value=gold[3][1]) in answer.answer
    assert answer.gate is not None and answer.gate.ok, answer.gate


def test_no_tie_no_extra_row(demo_session: Session) -> None:
    answer = demo_session.ask("2026年6月8日华南app渠道订单量最高的2个品类", as_of=AS_OF)
    assert answer.result is not None and [tuple(r) for r in answer.result.rows] == _gold(demo_session, 2, "DESC")
    assert len(answer.result.rows) == 2 and "并列" not in answer.answer


def test_a_user_with_a_minimum_group_size_gets_the_plain_top_n(demo_session: Session) -> None:
    """Marketing reads orders in groups of 10 or more: the ranking stays on the aggregating
    level, where the firewall counts the groups it hides, so its top 3 is three rows."""
    answer = demo_session.ask("2026年6月8日华南app渠道订单量最高的3个品类", as_of=AS_OF, user="marketing")
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert answer.sql is not None and "RANK()" not in answer.sql and "LIMIT 3" in answer.sql
    assert len(answer.result.rows) == 3 and "并列" not in answer.answer
