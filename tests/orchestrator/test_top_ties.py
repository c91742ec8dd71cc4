"""A top N keeps every row that ties its last place (``RANK() <= N``, as FETCH FIRST N ROWS WITH
TIES) and says so; checked against independent SQL on a day of the demo where the 3rd and 4th
categories by orders tie (华南, app, 2026-06-08)."""

from __future__ import annotations

from datetime import date, timedelta

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


@pytest.mark.parametrize(
    ("question", "order"),
    [("2025年3月西北小程序订单量排名第二的品类", "DESC"), ("2026年1月东北小程序订单量倒数第二的品类", "ASC")],
)
def test_a_place_lists_every_row_that_holds_it(demo_session: Session, question: str, order: str) -> None:
    """ "排名第二" when two categories tie there: both, and the answer says they share it."""
    corner = (
        "region = '西北' AND channel = 'mini_program' AND order_date BETWEEN '2025-03-01' AND '2025-03-31'"
        if order == "DESC"
        else "region = '东北' AND channel = 'mini_program' AND order_date BETWEEN '2026-01-01' AND '2026-01-31'"
    )
    counts = gold_rows(
        demo_session,
        f"SELECT category, COUNT(*) AS n FROM fact_order WHERE status IN ('paid', 'refunded') AND {corner} "
        f"GROUP BY 1 ORDER BY n {order}, category",
    )
    values = sorted({int(str(n)) for _, n in counts}, reverse=order == "DESC")
    at_place = values[1]  # the second value from the top: rows that tie share a place
    gold = [(str(c), int(str(n))) for c, n in counts if int(str(n)) == at_place]
    assert len(gold) == 2  # the data really ties there
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert [(str(c), int(str(n))) for c, n, _ahead in answer.result.rows] == gold
    assert f"这2个并列（{at_place}）" in answer.answer and answer.gate is not None and answer.gate.ok


@pytest.mark.parametrize(
    ("question", "first", "last"),
    [
        ("2025年GMV最低的一周", "2025-01-06", "2025-12-28"),
        ("which 2 weeks had the lowest GMV in Q1 2026", "2026-01-05", "2026-03-29"),
    ],
)
def test_a_ranking_of_weeks_ranks_whole_weeks(demo_session: Session, question: str, first: str, last: str) -> None:
    """The 3-day week a year ends with is no "lowest week": only the weeks the period holds whole
    are ranked, and the answer says which."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    n = answer.semantic_query.top_n if answer.semantic_query is not None else None
    assert n is not None
    gold = gold_rows(
        demo_session,
        "SELECT CAST(DATE_TRUNC('week', order_date) AS DATE) AS w, SUM(gmv_amount) AS g FROM fact_order "
        f"WHERE status IN ('paid', 'refunded') AND order_date BETWEEN '{first}' AND '{last}' GROUP BY 1 "
        f"ORDER BY g LIMIT {n}",
    )
    assert [str(r[0]) for r in answer.result.rows] == [str(w) for w, _ in gold]
    assert any(first in note and last in note for note in answer.assumptions)


@pytest.mark.parametrize(
    ("question", "grain", "first", "last", "back"),
    [  # a week meets the same ISO week a year earlier (364 days: Monday with Monday), a month its month
        ("今年GMV最高的3周，同比怎么样", "week", "2026-01-05", "2026-06-28", "364 DAY"),
        ("最近100天GMV最高的2个月，和去年同期比", "month", "2026-04-01", "2026-06-30", "1 YEAR"),
    ],
)
def test_a_ranking_of_whole_periods_compares_each_with_its_own(
    demo_session: Session, question: str, grain: str, first: str, last: str, back: str
) -> None:
    """The whole weeks (months) ranked against last year: each meets its own week a year earlier,
    as an unranked weekly 同比 does — never rows moved by the days a cut edge added (369)."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    gmv = "SUM(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded'))"
    gold = gold_rows(
        demo_session,
        f"WITH c AS (SELECT CAST(DATE_TRUNC('{grain}', order_date) AS DATE) AS p, {gmv} AS g FROM fact_order "
        f"WHERE order_date BETWEEN '{first}' AND '{last}' GROUP BY 1), "
        f"b AS (SELECT CAST(DATE_TRUNC('{grain}', order_date + INTERVAL {back}) AS DATE) AS p, {gmv} AS g "
        f"FROM fact_order WHERE order_date BETWEEN DATE '{first}' - INTERVAL {back} AND DATE '{last}' - INTERVAL {back} "
        "GROUP BY 1) SELECT c.p, c.g, b.g FROM c JOIN b USING (p)",
    )
    expected = {str(p): round(float(prev), 2) for p, _g, prev in gold}
    names = [c.name for c in answer.result.columns]
    got = {str(r[0]): round(float(str(r[names.index("gmv_previous")])), 2) for r in answer.result.rows}
    assert got and all(got[p] == expected[p] for p in got)
    days = 364 if back == "364 DAY" else None
    before = [
        str(date.fromisoformat(d) - timedelta(days=days)) if days else str(int(d[:4]) - 1) + d[4:]
        for d in (first, last)
    ]
    assert any(all(d in note for d in before) for note in answer.assumptions)  # the weeks compared, said


def test_a_high_or_low_several_rows_share_names_them_all(demo_session: Session) -> None:
    """ "最高为 A、B、C（2）": a breakdown's high and low name every row that has it (a category
    that sold nothing included), never one of them."""
    answer = demo_session.ask("2025年12月31日东北web渠道各品类的订单量", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    rows = gold_rows(
        demo_session,
        "SELECT category, COUNT(*) FILTER (WHERE status IN ('paid', 'refunded') AND region = '东北' "
        "AND channel = 'web') FROM fact_order WHERE order_date = DATE '2025-12-31' GROUP BY 1",
    )
    counts = {str(c): int(str(n)) for c, n in rows}
    label = demo_session.catalog.member_label
    order = [str(r[0]) for r in answer.result.rows]  # the table's order, which the sentence follows
    for extreme in (max(counts.values()), min(counts.values())):
        tied = [c for c in order if counts[c] == extreme]
        assert len(tied) > 1  # the day really has ties at both ends
        assert "、".join(label("category", c, "zh") for c in tied) + f"（{extreme}）" in answer.answer


TOP_OF_EACH = (
    "SELECT {within}, {ranked}, v FROM (SELECT {within}, {ranked}, {value} AS v, RANK() OVER (PARTITION BY {within} "
    "ORDER BY {value} {order}) AS r FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date BETWEEN "
    "'2026-06-01' AND '2026-06-30' GROUP BY 1, 2) WHERE r <= {n} ORDER BY 1, 3 {order}, 2"
)


@pytest.mark.parametrize(
    ("question", "user", "within", "ranked", "value", "n", "order"),
    [
        ("每个渠道上个月GMV最高的2个品类", "analyst", "channel", "category", "SUM(gmv_amount)", 2, "DESC"),
        ("bottom 1 category by orders per channel last month", "analyst", "channel", "category", "COUNT(*)", 1, "ASC"),
        ("各区域上个月订单量前三的品类", "marketing", "region", "category", "COUNT(*)", 3, "DESC"),
    ],
)
def test_the_top_of_each_group_matches_independent_sql(
    demo_session: Session, question: str, user: str, within: str, ranked: str, value: str, n: int, order: str
) -> None:
    """Each group's top N (ties at the N-th kept), also for a user who reads in minimum-size groups
    (a plain statement: every row, each group ranked, cut to the top of each in the answer)."""
    answer = demo_session.ask(question, as_of=AS_OF, user=user)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    gold = gold_rows(demo_session, TOP_OF_EACH.format(within=within, ranked=ranked, value=value, n=n, order=order))
    for group, member, amount in gold:
        said = demo_session.catalog.member_label(ranked, member, answer.language)
        shown = demo_session.catalog.member_label(within, group, answer.language)
        assert said in answer.answer and shown in answer.answer
        assert f"{float(str(amount)):,.0f}" in answer.answer.replace(".00", "")
    groups = {g for g, _m, _a in gold}
    assert answer.answer.count("；" if answer.language == "zh" else "; ") == len(groups) - 1
    assert answer.gate is not None and answer.gate.ok


def test_weeks_ranked_by_their_change_against_last_year(demo_session: Session) -> None:
    """ "最近8周订单量同比下降最多的2周": the weeks of the series ranked by their change against the
    same ISO weeks a year earlier — never asked for a direction the question gave."""
    answer = demo_session.ask("最近8周订单量同比下降最多的2周", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    orders = "COUNT(*) FILTER (WHERE status IN ('paid', 'refunded'))"
    gold = gold_rows(
        demo_session,
        f"WITH c AS (SELECT CAST(DATE_TRUNC('week', order_date) AS DATE) AS p, {orders} AS n FROM fact_order "
        "WHERE order_date BETWEEN DATE '2026-05-04' AND DATE '2026-06-28' GROUP BY 1), "
        f"b AS (SELECT CAST(DATE_TRUNC('week', order_date + INTERVAL 364 DAY) AS DATE) AS p, {orders} AS n "
        "FROM fact_order WHERE order_date BETWEEN DATE '2025-05-05' AND DATE '2025-06-29' GROUP BY 1) "
        "SELECT c.p, c.n - b.n AS change FROM c JOIN b USING (p) ORDER BY change LIMIT 2",
    )
    names = [c.name for c in answer.result.columns]
    got = [(str(r[0]), int(str(r[names.index("order_count_change")]))) for r in answer.result.rows]
    assert got == [(str(p), int(str(n))) for p, n in gold]


def test_a_weekly_series_meets_the_same_iso_weeks_last_year(demo_session: Session) -> None:
    """ "今年每周GMV同比": every week against the same ISO week a year earlier (Monday with Monday,
    364 days back here), the same figure a ranking of those weeks gives, and the answer says so."""
    answer = demo_session.ask("今年每周GMV同比", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    gmv = "SUM(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded'))"
    gold = gold_rows(
        demo_session,
        f"SELECT CAST(DATE_TRUNC('week', order_date + INTERVAL 364 DAY) AS DATE) AS p, {gmv} FROM fact_order "
        "WHERE order_date BETWEEN DATE '2025-01-06' AND DATE '2025-06-29' GROUP BY 1",
    )
    expected = {str(p): round(float(str(v)), 2) for p, v in gold}
    names = [c.name for c in answer.result.columns]
    got = {str(r[0]): round(float(str(r[names.index("gmv_previous")])), 2) for r in answer.result.rows}
    whole = {p: v for p, v in got.items() if p in expected}
    assert len(whole) == 25 and all(whole[p] == expected[p] for p in whole)
    assert any("ISO" in note for note in answer.assumptions)


def test_a_group_hidden_by_a_minimum_group_size_is_never_a_zero_in_a_comparison(demo_session: Session) -> None:
    """Marketing reads orders in groups of 10 or more: a group under the floor on one side of a
    comparison is hidden there, not 0 — never "-100%", never the largest fall."""
    answer = demo_session.ask("6月30日各渠道各区域的订单量，和前一天比", as_of=AS_OF, user="marketing")
    assert answer.status == "answered" and answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    cur, prev = names.index("order_count"), names.index("order_count_previous")
    hidden = gold_rows(
        demo_session,
        "SELECT channel, region FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date IN "
        "(DATE '2026-06-29', DATE '2026-06-30') GROUP BY 1, 2 HAVING (COUNT(*) FILTER (WHERE order_date = "
        "DATE '2026-06-30') >= 10) <> (COUNT(*) FILTER (WHERE order_date = DATE '2026-06-29') >= 10)",
    )
    assert hidden  # the data holds groups under the floor on one side only
    for channel, region in hidden:
        row = next(r for r in answer.result.rows if (r[0], r[1]) == (channel, region))
        assert None in (row[cur], row[prev]) and 0 not in (row[cur], row[prev]), row
    assert "-100.00%" not in answer.answer
