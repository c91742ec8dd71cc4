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
    an answer's statement keeps every row that holds the place (``DENSE_RANK``)."""
    query = demo_session.planner.plan("上个月GMV第三高的区域", as_of=AS_OF)
    plain = compile_query(query, demo_session.catalog, plain=True).sql
    assert " ".join(plain.split()).split("ORDER BY")[-1].strip() == "gmv DESC, region LIMIT 1 OFFSET 2"
    answer = " ".join(compile_query(query, demo_session.catalog).sql.split())
    assert "DENSE_RANK() OVER (ORDER BY gmv DESC) AS dense_place" in answer
    assert "WHERE dense_place = 3 ORDER BY region" in answer
    assert "RANK() OVER (ORDER BY gmv DESC) AS rank_in_top" in answer and "rank_in_top - 1 AS rows_ahead" in answer


def test_a_place_after_tied_places_says_how_many_rank_above_it(demo_session: Session) -> None:
    """2026-06-22, 家居日用 orders by region: if the top places tie, "the second highest" is the
    next value (dense), and the answer says how many regions rank above it (from the result)."""
    counts = gold_rows(
        demo_session,
        f"SELECT region, COUNT(*) AS n FROM fact_order WHERE {PAID} AND category = '家居日用' "
        "AND order_date = '2026-06-22' GROUP BY 1 ORDER BY n DESC, region",
    )
    values = sorted({int(str(n)) for _, n in counts}, reverse=True)
    ahead = sum(1 for _, n in counts if int(str(n)) > values[1])
    answer = demo_session.ask("2026-06-22家居日用订单量排名第二的区域", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert {(str(r), int(str(n)), int(a)) for r, n, a in answer.result.rows} == {
        (str(r), int(str(n)), ahead) for r, n in counts if int(str(n)) == values[1]
    }
    assert ahead > 1  # the data really ties above the second place
    assert f"排在其前的有 {ahead} 个（前面有并列）" in answer.answer
    assert answer.gate is not None and answer.gate.ok


CHANGE = (
    "SELECT {dim}, c, c - p, (c - p) / p FROM (SELECT {dim}, "
    "SUM(gmv_amount) FILTER (WHERE order_date BETWEEN '2026-06-01' AND '2026-06-30') AS c, "
    "SUM(gmv_amount) FILTER (WHERE order_date BETWEEN '2026-05-01' AND '2026-05-31') AS p "
    f"FROM fact_order WHERE {PAID} GROUP BY 1) ORDER BY {{by}} LIMIT {{n}}"
)


@pytest.mark.parametrize(
    ("question", "dim", "by", "n", "said"),
    [
        ("哪个渠道上个月GMV环比下降最多", "channel", "c - p", 1, "下降最多的是"),
        ("上个月GMV降幅最大的3个品类", "category", "(c - p) / p", 3, "降幅最大的是"),
        ("which 2 regions grew fastest in GMV last month vs May", "region", "(c - p) / p DESC", 2, ""),
        ("which region's GMV rose the most last month", "region", "c - p DESC", 1, ""),
    ],
)
def test_a_ranking_by_a_change_is_the_groups_whose_change_ranks_first(
    demo_session: Session, question: str, dim: str, by: str, n: int, said: str
) -> None:
    """Ranked by the change (or the change in percent), in the question's direction, with both
    measures in the sentence; a rise that is no rise (the demo's June fell almost everywhere) is
    said in words."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    gold = gold_rows(demo_session, CHANGE.format(dim=dim, by=by, n=n))
    names = [c.name for c in answer.result.columns]
    got = [(r[names.index(dim)], r[names.index("gmv")], r[names.index("gmv_change")]) for r in answer.result.rows]
    assert [(m, float(str(c)), float(str(d))) for m, c, d, _ in gold] == [
        (m, float(str(c)), float(str(d))) for m, c, d in got
    ]
    for member, *_ in gold:
        assert demo_session.catalog.member_label(dim, member, answer.language) in answer.answer
    assert said in answer.answer and answer.interpretation is not None
    not_risen = [m for m, _c, d, _p in gold if float(str(d)) <= 0 and "DESC" in by]
    if not_risen:
        assert "did not rise" in answer.answer or "No group's" in answer.answer
    assert answer.gate is not None and answer.gate.ok


def test_a_change_hidden_by_the_minimum_group_size_is_never_called_no_fall(demo_session: Session) -> None:
    """As marketing (groups below 10 hidden), a group whose value of one period is hidden has no
    change to rank: it is left out and counted, never said to have "not fallen"."""
    answer = demo_session.ask("6月12日东北各渠道订单量环比下降最多的2个渠道", as_of=AS_OF, user="marketing")
    assert answer.status == "answered" and answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    hidden = [r for r in answer.result.rows if r[names.index("order_count_change")] is None]
    assert hidden, "the demo's 2026-06-12 North-East holds channels below 10 orders"
    assert "并未下降" not in answer.answer and f"有 {len(hidden)} 组的变化无法计算" in answer.answer
