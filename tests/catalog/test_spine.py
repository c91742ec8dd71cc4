"""Periods without rows: a series of sums and counts shows its quiet days as 0 (between its first
and last measured period), checked against independent SQL on a sparse corner of the demo
(phones sold by live stream in 东北: about one order every other day); a rate, or a series too
long to fill, keeps its gaps and names them."""

from __future__ import annotations

import shutil
from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest

from baton import Session
from baton.catalog.spine import (
    MAX_PERIODS,
    counterpart_start,
    missing_periods,
    period_start,
    period_starts,
    whole_periods,
    whole_query,
)
from baton.config import load_settings
from baton.contracts.semantic import Comparison, Grain, SemanticQuery, TimeRange
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
CORNER = "category = '手机数码' AND channel = 'live_stream' AND region = '东北' AND status IN ('paid', 'refunded')"
GRAINS: tuple[Grain, ...] = ("day", "week", "month", "quarter", "year")


@pytest.mark.parametrize("grain", GRAINS)
def test_period_start_is_the_engines_date_trunc(grain: Grain) -> None:
    days = [date(2023, 12, 25) + timedelta(days=i) for i in range(800)]
    con = duckdb.connect()
    got = con.execute(
        f"SELECT CAST(DATE_TRUNC('{grain}', d) AS DATE) FROM UNNEST(?::DATE[]) AS t(d) ORDER BY d", [days]
    ).fetchall()
    assert [period_start(d, grain) for d in days] == [row[0] for row in got]


def test_period_starts_and_missing_periods() -> None:
    assert period_starts(date(2026, 5, 30), date(2026, 6, 2), "day") == [
        date(2026, 5, 30),
        date(2026, 5, 31),
        date(2026, 6, 1),
        date(2026, 6, 2),
    ]
    assert period_starts(date(2026, 6, 3), date(2026, 6, 17), "week") == [
        date(2026, 6, 1),
        date(2026, 6, 8),
        date(2026, 6, 15),
    ]
    query = SemanticQuery(
        metrics=("gmv",),
        grain="month",
        time_range=TimeRange(start=date(2026, 1, 1), end=date(2026, 6, 30)),
        as_of=AS_OF,
    )
    assert missing_periods(query, [date(2026, 2, 1), date(2026, 5, 1)]) == [date(2026, 3, 1), date(2026, 4, 1)]


def _daily_gold(session: Session, start: str, end: str) -> list[tuple[str, int]]:
    """Orders per day of the corner on every day from the first to the last on which the table
    has any row in the range (0 where the corner has none)."""
    span = f"order_date BETWEEN '{start}' AND '{end}'"
    ((first, last),) = gold_rows(session, f"SELECT MIN(order_date), MAX(order_date) FROM fact_order WHERE {span}")
    rows = gold_rows(session, f"SELECT order_date, COUNT(*) FROM fact_order WHERE {CORNER} AND {span} GROUP BY 1")
    counts = {d: int(str(n)) for d, n in rows if isinstance(d, date)}
    assert isinstance(first, date) and isinstance(last, date) and len(counts) == len(rows)
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]
    return [(d.isoformat(), counts.get(d, 0)) for d in days]


@pytest.mark.parametrize(
    "question",
    ["2026年6月东北直播渠道手机数码每天的订单量", "daily orders of 手机数码 via live stream in 东北 in June 2026"],
)
def test_quiet_days_are_zeros(demo_session: Session, question: str) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    gold = _daily_gold(demo_session, "2026-06-01", "2026-06-30")
    assert [(str(d), int(str(n))) for d, n in answer.result.rows] == gold
    assert len(gold) == 30 and gold[-1] == ("2026-06-30", 0)  # a quiet last day, the table loaded
    assert answer.sql is not None and "WITH" in answer.sql and "VALUES" in answer.sql


def test_the_quietest_day_may_be_a_day_at_the_edge(demo_session: Session) -> None:
    answer = demo_session.ask("2026年6月东北直播渠道手机数码订单最少的一天", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    quiet = [d for d, n in _daily_gold(demo_session, "2026-06-01", "2026-06-30") if n == 0]
    assert [str(row[0]) for row in answer.result.rows] == quiet  # every day tied at 0, the last one too
    assert f"第1名有{len(quiet)}个并列（0）" in answer.answer
    assert not any("没有数据行" in note for note in answer.assumptions)  # a ranking names no gaps


def test_every_member_gets_every_period(demo_session: Session) -> None:
    """Weeks and channels are those the table holds in the quarter; the corner's missing ones are 0."""
    answer = demo_session.ask("2026年第二季度东北手机数码各渠道每周的订单量", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    where = CORNER.replace("channel = 'live_stream' AND ", "")
    quarter = "order_date BETWEEN '2026-04-01' AND '2026-06-30'"
    rows = gold_rows(
        demo_session,
        f"SELECT CAST(DATE_TRUNC('week', order_date) AS DATE), channel, COUNT(*) FROM fact_order "
        f"WHERE {where} AND {quarter} GROUP BY 1, 2",
    )
    counts = {(str(w), str(c)): int(str(n)) for w, c, n in rows}
    held = gold_rows(
        demo_session,
        f"SELECT DISTINCT CAST(DATE_TRUNC('week', order_date) AS DATE), channel FROM fact_order WHERE {quarter}",
    )
    weeks, channels = sorted({str(w) for w, _ in held}), sorted({str(c) for _, c in held})
    got = {(str(w), str(c)): int(str(n)) for w, c, n in answer.result.rows}
    assert got == {(w, c): counts.get((w, c), 0) for w in weeks for c in channels}
    assert len(got) > len(counts)  # some (week, channel) had no order and is a 0 now


def test_a_member_without_rows_ranks_last(demo_session: Session) -> None:
    """ "The two categories with the fewest orders": a category the corner never sold is one."""
    answer = demo_session.ask("2026年1月19日到25日东北直播渠道订单最少的两个品类", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    span = "order_date BETWEEN '2026-01-19' AND '2026-01-25'"
    rows = gold_rows(
        demo_session,
        f"SELECT category, COUNT(*) FROM fact_order WHERE region = '东北' AND channel = 'live_stream' "
        f"AND status IN ('paid', 'refunded') AND {span} GROUP BY 1",
    )
    sold = {str(c): int(str(n)) for c, n in rows}
    held = [str(c) for (c,) in gold_rows(demo_session, f"SELECT DISTINCT category FROM fact_order WHERE {span}")]
    ranked = sorted(held, key=lambda c: (sold.get(c, 0), c))
    assert [str(row[0]) for row in answer.result.rows] == ranked[:2]
    assert int(str(answer.result.rows[0][1])) == 0 < len(held) - len(sold)


def test_a_rate_keeps_its_gaps_and_names_them(demo_session: Session) -> None:
    answer = demo_session.ask("2026年6月东北直播渠道手机数码每天的退款率", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    days = [str(row[0]) for row in answer.result.rows]
    ordered = {d for d, _ in _daily_gold(demo_session, "2026-06-01", "2026-06-30") if _ != 0}
    assert set(days) == ordered  # no invented rate for a day without orders
    assert "VALUES" not in str(answer.sql)
    assert any("没有数据行" in note and "未显示" in note for note in answer.assumptions)


def test_a_series_too_long_to_fill_names_its_gaps(demo_session: Session) -> None:
    start, end = date(2024, 5, 1), date(2026, 6, 30)  # the data starts 2025-01-01
    assert len(period_starts(start, end, "day")) > MAX_PERIODS
    answer = demo_session.ask(
        "orders of 手机数码 via live stream in 东北 per day from 2024-05-01 to 2026-06-30", as_of=AS_OF
    )
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert "VALUES" not in str(answer.sql)
    gold = _daily_gold(demo_session, start.isoformat(), end.isoformat())
    shown = [d for d, n in gold if n]
    assert [str(r[0]) for r in answer.result.rows] == shown
    inside = [d for d, n in gold if n == 0 and shown[0] < d < shown[-1]]
    note = next(n for n in answer.assumptions if "No rows, so not shown" in n)
    assert inside[0] in note and f"({len(inside)} day bucket(s) inside the series)" in note


def test_a_day_the_load_missed_is_a_zero_marked_incomplete(small_demo_dir: Path, tmp_path: Path) -> None:
    """A day without any row in the table (its load failed) is not a quiet day: its 0 is flagged."""
    folder = tmp_path / "demo"
    shutil.copytree(small_demo_dir, folder, ignore=shutil.ignore_patterns("runs*", "*.sqlite*"))
    con = duckdb.connect(str(folder / "warehouse.duckdb"))
    con.execute("DELETE FROM fact_order WHERE order_date = DATE '2026-06-10'")
    con.close()
    with Session(load_settings(folder / "baton.toml")) as session:
        answer = session.ask("2026年6月每天的订单量", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert ["2026-06-10", 0] in [[str(d), int(str(n))] for d, n in answer.result.rows]
    assert any(f.date == date(2026, 6, 10) and f.issue == "incomplete" for f in answer.quality_flags)
    assert any("2026-06-10" in note and "不完整" in note for note in answer.assumptions)


def test_groups_hidden_by_a_minimum_group_size_are_not_zeros(demo_session: Session) -> None:
    """Marketing reads orders only in groups of 10 or more: a hidden day is not a quiet day."""
    question = "2026年6月东北手机数码每天的订单量"
    everyone = demo_session.ask(question, as_of=AS_OF, user="analyst")
    limited = demo_session.ask(question, as_of=AS_OF, user="marketing")
    assert everyone.result is not None and limited.result is not None, (everyone.error, limited.error)
    assert "VALUES" in str(everyone.sql) and "VALUES" not in str(limited.sql)
    small = [row for row in everyone.result.rows if int(str(row[1])) < 10]
    assert small and [row for row in everyone.result.rows if row not in small] == limited.result.rows
    assert f"另有 {len(small)} 组" in limited.answer
    assert not any("没有数据行" in note for note in limited.assumptions)


def test_a_rate_with_visitors_and_no_orders_is_zero(demo_session: Session) -> None:
    """Conversion = orders / visitors, two tables joined on the key: a day with visitors and no
    order is 0 %, the lowest day, not a missing value ranked last."""
    corner = "region = '东北' AND channel = 'web' AND user_type = 'new'"
    june = "BETWEEN '2026-06-01' AND '2026-06-30'"
    visits = gold_rows(
        demo_session,
        f"SELECT visit_date, SUM(visitors) FROM fact_traffic WHERE {corner} AND visit_date {june} GROUP BY 1",
    )
    orders = gold_rows(
        demo_session,
        f"SELECT order_date, COUNT(*) FROM fact_order WHERE {corner} AND status IN ('paid', 'refunded') "
        f"AND order_date {june} GROUP BY 1",
    )
    counted = {d: int(str(n)) for d, n in orders}
    rates = sorted((counted.get(d, 0) / int(str(v)), str(d)) for d, v in visits if int(str(v)))
    assert rates[0][0] == 0  # the corner really has a day with visitors and no order
    answer = demo_session.ask("2026年6月东北网页端新客转化率最低的一天", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert [(str(d), float(str(r))) for d, r in answer.result.rows] == [(d, r) for r, d in rates if r == 0]


@pytest.mark.parametrize(
    ("grain", "start", "end", "whole"),
    [
        ("month", date(2026, 1, 15), date(2026, 6, 30), (date(2026, 2, 1), date(2026, 6, 30))),
        ("month", date(2026, 1, 1), date(2026, 6, 30), None),  # nothing cut
        ("week", date(2026, 6, 1), date(2026, 6, 30), (date(2026, 6, 1), date(2026, 6, 28))),
        ("quarter", date(2025, 2, 1), date(2025, 11, 30), (date(2025, 4, 1), date(2025, 9, 30))),
        ("week", date(2026, 6, 2), date(2026, 6, 7), None),  # nothing whole is left
    ],
)
def test_a_ranking_of_periods_keeps_the_whole_ones(
    grain: Grain, start: date, end: date, whole: tuple[date, date] | None
) -> None:
    query = SemanticQuery(
        metrics=("gmv",), grain=grain, top_n=1, time_range=TimeRange(start=start, end=end), as_of=AS_OF
    )
    assert whole_periods(query) == whole


D = date


@pytest.mark.parametrize(
    ("grain", "asked", "compared", "whole", "whole_compared"),
    [
        # the same dates a year earlier, across 29 February either way
        (
            "month",
            (D(2025, 2, 15), D(2025, 5, 10)),
            (D(2024, 2, 15), D(2024, 5, 10)),
            (D(2025, 3, 1), D(2025, 4, 30)),
            (D(2024, 3, 1), D(2024, 4, 30)),
        ),
        (
            "month",
            (D(2028, 2, 15), D(2028, 5, 10)),
            (D(2027, 2, 15), D(2027, 5, 10)),
            (D(2028, 3, 1), D(2028, 4, 30)),
            (D(2027, 3, 1), D(2027, 4, 30)),
        ),
        (
            "week",
            (D(2026, 1, 1), D(2026, 6, 30)),
            (D(2025, 1, 1), D(2025, 6, 30)),
            (D(2026, 1, 5), D(2026, 6, 28)),
            (D(2025, 1, 5), D(2025, 6, 28)),
        ),
        # a weekday-aligned comparison (52 weeks back) loses the same days
        (
            "week",
            (D(2026, 6, 3), D(2026, 6, 30)),
            (D(2025, 6, 4), D(2025, 7, 1)),
            (D(2026, 6, 8), D(2026, 6, 28)),
            (D(2025, 6, 9), D(2025, 6, 29)),
        ),
    ],
)
def test_a_ranking_of_whole_periods_compares_the_same_whole_periods(
    grain: Grain,
    asked: tuple[date, date],
    compared: tuple[date, date],
    whole: tuple[date, date],
    whole_compared: tuple[date, date],
) -> None:
    """The whole weeks (months) ranked meet the same weeks of the period compared with: each
    bucket still meets its own, never rows shifted by the days a cut edge added."""
    query = SemanticQuery(
        metrics=("gmv",),
        grain=grain,
        top_n=1,
        time_range=TimeRange(start=asked[0], end=asked[1]),
        comparison=Comparison(kind="same_period_last_year", range=TimeRange(start=compared[0], end=compared[1])),
        as_of=AS_OF,
    )
    trimmed = whole_query(query)
    assert trimmed is not None and trimmed.comparison is not None
    assert (trimmed.time_range.start, trimmed.time_range.end) == whole
    assert (trimmed.comparison.range.start, trimmed.comparison.range.end) == whole_compared


def _compared(current: tuple[date, date], previous: tuple[date, date], kind: str, grain: Grain) -> SemanticQuery:
    return SemanticQuery(
        metrics=("gmv",),
        grain=grain,
        time_range=TimeRange(start=current[0], end=current[1]),
        comparison=Comparison(kind=kind, range=TimeRange(start=previous[0], end=previous[1])),
        as_of=date(2026, 7, 1),
    )


@pytest.mark.parametrize(
    ("query", "start", "counterpart"),
    [
        # each month against the one before: March's rows are February's
        (_compared((date(2026, 1, 1), date(2026, 6, 30)), (date(2025, 12, 1), date(2026, 5, 31)), "previous_period",
                   "month"), date(2026, 3, 1), date(2026, 2, 1)),
        # each week against its own last year, a calendar year back
        (_compared((date(2026, 1, 5), date(2026, 6, 28)), (date(2025, 1, 5), date(2025, 6, 28)),
                   "same_period_last_year", "week"), date(2026, 3, 2), date(2025, 3, 2)),
        # aligned by weekday (364 days back): the rows the compiler moves on by 364 days
        (_compared((date(2026, 1, 5), date(2026, 6, 28)), (date(2025, 1, 6), date(2025, 6, 29)),
                   "same_period_last_year", "week"), date(2026, 3, 2), date(2025, 3, 3)),
        # one range against another: no period has a counterpart of its own
        (_compared((date(2026, 6, 1), date(2026, 6, 30)), (date(2026, 5, 1), date(2026, 5, 31)), "custom", "day"),
         date(2026, 6, 3), None),
    ],
)  # fmt: skip
def test_the_counterpart_of_a_period_is_where_the_compiler_moves_its_rows_from(
    query: SemanticQuery, start: date, counterpart: date | None
) -> None:
    assert counterpart_start(query, start) == counterpart
