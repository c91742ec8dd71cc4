"""One place of a ranking ("排名第二", "倒数第二", "the second highest"): the one row at that place,
ties broken by the row's keys, checked against independent SQL on the demo."""

from __future__ import annotations

from datetime import date

import pytest

from baton import Session
from baton.catalog.compiler import compile_query
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
PAID = "status IN ('paid', 'refunded')"


@pytest.mark.parametrize(
    ("question", "gold", "said"),
    [
        (
            "上个月订单量排名第二的品类是哪个",
            f"SELECT category, COUNT(*) AS n FROM fact_order WHERE {PAID} AND order_date BETWEEN '2026-06-01' AND "
            "'2026-06-30' GROUP BY 1 ORDER BY n DESC, category LIMIT 1 OFFSET 1",
            "第2高",
        ),
        (
            "去年各品类GMV倒数第二的是哪个",
            f"SELECT category, SUM(gmv_amount) AS g FROM fact_order WHERE {PAID} AND order_date BETWEEN '2025-01-01' "
            "AND '2025-12-31' GROUP BY 1 ORDER BY g ASC, category LIMIT 1 OFFSET 1",
            "第2低",
        ),
        (
            "which channel had the second highest GMV last month",
            f"SELECT channel, SUM(gmv_amount) AS g FROM fact_order WHERE {PAID} AND order_date BETWEEN '2026-06-01' "
            "AND '2026-06-30' GROUP BY 1 ORDER BY g DESC, channel LIMIT 1 OFFSET 1",
            "2nd-highest",
        ),
    ],
)
def test_a_place_is_the_one_row_at_it(demo_session: Session, question: str, gold: str, said: str) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    ((member, value),) = gold_rows(demo_session, gold)
    ((got_member, got_value, ahead),) = answer.result.rows
    assert ahead == 1  # no tie above the second place
    assert got_member == member and float(str(got_value)) == pytest.approx(float(str(value)), abs=1e-6)
    assert said in answer.answer and answer.interpretation is not None
    assert answer.gate is not None and answer.gate.ok


def test_a_plain_place_breaks_ties_by_the_rows_keys(demo_session: Session) -> None:
    """Plain (a user with a minimum group size): the one row at the place, ties broken by keys;
    an answer's statement keeps every row that holds the place in a competition ranking."""
    query = demo_session.planner.plan("上个月GMV第三高的区域", as_of=AS_OF)
    plain = compile_query(query, demo_session.catalog, plain=True).sql
    assert " ".join(plain.split()).split("ORDER BY")[-1].strip() == "gmv DESC, region LIMIT 1 OFFSET 2"
    answer = " ".join(compile_query(query, demo_session.catalog).sql.split())
    assert "RANK() OVER (ORDER BY gmv DESC) AS rank_in_top" in answer and "rank_in_top - 1 AS rows_ahead" in answer
    assert "COUNT(*) OVER (PARTITION BY gmv) AS tied_rows" in answer
    assert "WHERE rank_in_top <= 3 AND rank_in_top + tied_rows - 1 >= 3" in answer


@pytest.mark.parametrize(
    ("question", "day", "order", "place"),
    [
        ("2026年4月28日订单量第三多的品类", "2026-04-28", "DESC", 3),  # two tied second hold places 2 and 3
        ("2025年1月22日订单量倒数第二的区域", "2025-01-22", "ASC", 2),  # two tied lowest hold places 1 and 2
    ],
)
def test_a_place_held_by_tied_rows_is_those_rows(
    demo_session: Session, question: str, day: str, order: str, place: int
) -> None:
    """A place counted as a top N counts it: tied rows hold every place they span ("the third" after
    one highest and two tied second is those two, as "前三" lists them), never the next value."""
    dim = "category" if "品类" in question else "region"
    counts = gold_rows(
        demo_session,
        f"SELECT {dim}, COUNT(*) AS n FROM fact_order WHERE {PAID} AND order_date = '{day}' GROUP BY 1",
    )
    ordered = sorted((int(str(n)) for _, n in counts), reverse=order == "DESC")
    value = ordered[place - 1]
    expected = {str(m) for m, n in counts if int(str(n)) == value}
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert {str(r[0]) for r in answer.result.rows} == expected and len(expected) > 1  # the data really ties
    assert all(int(str(r[1])) == value for r in answer.result.rows)
