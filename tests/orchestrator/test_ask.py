"""End-to-end: question -> governed SQL -> read-only DuckDB -> Answer, on the real demo."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import duckdb
import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.demo.generator import build_demo
from baton.demo.scenario import packaged_scenarios
from baton.errors import InvalidInput
from baton.evals.graders import results_match
from baton.orchestrator.session import Session
from baton.trace.writer import read_trace
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("question", "language"),
    [("上个月各渠道的GMV是多少？", "zh"), ("What was GMV by channel last month?", "en")],
)
def test_gmv_by_channel_last_month(demo_session: Session, question: str, language: str) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.language == language
    assert answer.result is not None and answer.result.row_count == 4
    gold: dict[object, object] = {
        row[0]: row[1]
        for row in gold_rows(
            demo_session,
            "SELECT channel, SUM(gmv_amount) FROM fact_order WHERE order_date BETWEEN '2026-06-01' AND '2026-06-30' "
            "AND status IN ('paid','refunded') GROUP BY channel",
        )
    }
    got = {row[0]: row[1] for row in answer.result.rows}
    assert got.keys() == gold.keys()
    for channel, value in got.items():
        assert value == pytest.approx(float(str(gold[channel])), rel=1e-12)
    (gmv,) = answer.metrics
    catalog_gmv = demo_session.catalog.metrics["gmv"]
    assert gmv.name == "gmv"
    assert gmv.definition == catalog_gmv.description.for_lang(language)
    assert gmv.expression == "SUM(gmv_amount)"
    assert gmv.filters == ["status IN ('paid', 'refunded')"]
    assert answer.sql is not None and "fact_order" in answer.sql
    assert answer.time_range is not None and answer.time_range.start == date(2026, 6, 1)
    assert answer.data_freshness is not None and "2026-06-30" in answer.data_freshness
    # the answer sentence quotes the top channel's exact value from the result
    top = max(answer.result.rows, key=lambda r: r[1])
    assert f"{top[1]:,.2f}" in answer.answer


def test_unknown_metric_is_refused_and_nothing_runs(demo_session: Session) -> None:
    answer = demo_session.ask("上个月的利润率是多少？", as_of=AS_OF)
    assert answer.status == "refused"
    assert answer.error is not None and answer.error.code == "unknown_metric"
    assert len(answer.suggestions) == 3
    assert answer.sql is None and answer.result is None
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    assert next(e.type for e in events) == "run_started"
    assert not any(e.type == "tool_call" for e in events)
    assert events[-1].type == "run_finished"


UNANSWERED = [  # a question Baton does not answer ends asked back or refused, never "failed"
    ("上个月各品类的访客数", "refused", "invalid_input", 3),  # a split the catalog does not define
    ("What share of conversion rate came from app last month?", "clarification_needed", "ambiguous_question", 2),
    ("2026年13月的GMV", "clarification_needed", "invalid_time", 2),  # no such month
    ("本月的GMV是多少？", "clarification_needed", "invalid_time", 2),  # no data yet this month
    ("", "refused", "invalid_input", 3),
]


@pytest.mark.parametrize(("question", "status", "code", "exit_code"), UNANSWERED, ids=[u[0][:24] for u in UNANSWERED])
def test_a_question_not_answered_is_asked_back_or_refused_not_failed(
    demo_session: Session, question: str, status: str, code: str, exit_code: int
) -> None:
    from baton.cli.errors import ANSWER_EXIT

    answer = demo_session.ask(question, as_of=AS_OF)
    assert (answer.status, answer.error and answer.error.code) == (status, code)
    assert answer.sql is None and answer.result is None
    assert answer.error is not None and answer.error.message == answer.answer
    assert ANSWER_EXIT[answer.status] == exit_code
    assert demo_session.store.load(answer.run_id).status == ("refused" if status == "refused" else "asked_back")


def test_answer_json_shape_is_the_contract(demo_session: Session) -> None:
    answer = demo_session.ask("上个月GMV环比", as_of=AS_OF)
    data = json.loads(answer.model_dump_json())
    for key in (
        "run_id",
        "status",
        "question",
        "language",
        "answer",
        "semantic_query",
        "sql",
        "result",
        "metrics",
        "time_range",
        "data_freshness",
        "assumptions",
        "error",
    ):
        assert key in data
    assert set(data["result"]) >= {"columns", "rows", "row_count", "truncated"}
    assert [c["name"] for c in data["result"]["columns"]] == ["gmv", "gmv_previous", "gmv_change", "gmv_change_pct"]
    assert Answer.model_validate_json(answer.model_dump_json()) == answer
    assert any("2026-05-01" in a for a in answer.assumptions)


def test_trace_records_policy_decision_before_tool_call(demo_session: Session) -> None:
    answer = demo_session.ask("What was the conversion rate by channel in Q2 2026?", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    types = [e.type for e in read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")]
    assert types.index("policy_decision") < types.index("tool_call")
    assert types[-2:] == ["answer_created", "run_finished"]


def test_clarification_when_period_missing(demo_session: Session) -> None:
    answer = demo_session.ask("各渠道的GMV是多少？", as_of=AS_OF)
    assert answer.status == "clarification_needed"
    assert answer.error is not None and answer.error.code == "ambiguous_question"
    assert "时间" in answer.answer


def test_daily_series_marks_the_partly_loaded_day(demo_session: Session) -> None:
    answer = demo_session.ask("上个月每天的GMV", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert [(f.table, f.date) for f in answer.quality_flags] == [("fact_order", date(2026, 6, 12))]
    assert any("2026-06-12" in a for a in answer.assumptions)
    assert answer.chart is not None
    assert "2026-06-12" in json.dumps(answer.chart)
    assert answer.result is not None and answer.result.row_count == 30  # the day is drawn, never dropped


@pytest.mark.parametrize(
    ("question", "effect"),
    [
        ("上个月各渠道的GMV是多少？", "可能偏低"),
        ("上个月的买家数", "可能偏低"),  # a distinct count only falls when rows are missing
        ("上个月的转化率", "可能偏高或偏低"),
        ("What was AOV last month?", "either"),
        ("上个月各渠道GMV占比", "可能偏高或偏低"),  # a share moves either way
    ],
)
def test_a_total_says_its_month_holds_an_incomplete_day(demo_session: Session, question: str, effect: str) -> None:
    """A month's total includes the partly loaded 2026-06-12: one more statement (the day counts)
    finds it, the answer states it (a sum is understated, a rate or an average may move either
    way) and flags it, with no chart mark to explain."""
    answer = demo_session.ask(question, as_of=AS_OF)
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    tables = 2 if "转化率" in question else 1  # a rate over two tables counts each one's rows
    assert sum(e.type == "tool_call" and e.payload["tool"] == "warehouse.query" for e in events) == 1 + tables
    assert [(f.date, f.issue, f.assumption) for f in answer.quality_flags] == [(date(2026, 6, 12), "incomplete", None)]
    (note,) = [a for a in answer.assumptions if "2026-06-12" in a]
    assert effect in note


def test_a_run_saved_before_days_were_kept_per_table_replays_with_its_flags(demo_session: Session) -> None:
    """A checkpoint written before ``incomplete_tables`` existed still flags its day on replay."""
    answer = demo_session.ask("上个月每天的GMV", as_of=AS_OF)
    state = demo_session.store.load(answer.run_id)
    assert state is not None
    executed = state.checkpoints["execute"]
    assert executed.pop("incomplete_tables") == {"fact_order": ["2026-06-12"]}
    demo_session.store.save(state)
    replayed = demo_session.replay(answer.run_id)
    assert [(f.table, f.date) for f in replayed.quality_flags] == [("fact_order", date(2026, 6, 12))]
    assert replayed.assumptions == answer.assumptions


@pytest.mark.parametrize(
    ("question", "table"),
    [("4月转化率是多少，环比变化多少", "fact_traffic"), ("April conversion rate vs March", "fact_traffic")],
)
def test_a_rate_states_a_day_its_denominator_table_half_loaded(tmp_path: Path, question: str, table: str) -> None:
    """Conversion divides orders by visitors: a day of fact_traffic half loaded lifts the rate as
    surely as one of fact_order lowers it — stated and flagged for the table it is in."""
    build_demo(tmp_path, scenario=packaged_scenarios()["traffic_fault_inflates_conversion"], scale=0.05)
    with Session(load_settings(tmp_path / "baton.toml")) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert [(f.table, f.date) for f in answer.quality_flags] == [
        (table, date(2026, 4, 14)),
        (table, date(2026, 4, 22)),
    ]
    assert any("2026-04-14" in a and "2026-04-22" in a for a in answer.assumptions), answer.assumptions


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("上个月GMV和前一个月比呢", ("上一个自然月", "对比期 31 天，本期 30 天", "2026-06-12", "并非同口径")),
        (
            "GMV last month compared with the month before",
            ("previous calendar month", "31 days against 30", "2026-06-12"),
        ),
    ],
)
def test_month_comparison_states_calendar_basis_and_incomplete_day(
    demo_session: Session, question: str, words: tuple[str, ...]
) -> None:
    """June against May: the previous *calendar* month (31 days, not "the same length"), and the
    partly loaded 2026-06-12 inside June is stated; the rows summed are unchanged."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    notes = " ".join(answer.assumptions)
    for word in words:
        assert word in notes
    assert "同长度" not in notes and "same length" not in notes
    gold = gold_rows(
        demo_session,
        "SELECT SUM(gmv_amount) FROM fact_order WHERE order_date BETWEEN '2026-06-01' AND '2026-06-30' "
        "AND status IN ('paid','refunded')",
    )
    assert answer.result is not None
    assert answer.result.rows[0][0] == pytest.approx(float(str(gold[0][0])), rel=1e-12)
    assert [f.date for f in answer.quality_flags] == [date(2026, 6, 12)]  # stated in the assumptions once
    assert [f.assumption for f in answer.quality_flags] == [None]


def test_rolling_window_is_compared_with_the_same_number_of_days(demo_session: Session) -> None:
    answer = demo_session.ask("最近7天GMV环比", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert any("之前同长度的 7 天" in a and "2026-06-17 至 2026-06-23" in a for a in answer.assumptions)
    assert not any("不完整" in a for a in answer.assumptions)  # no partly loaded day in either week


def test_a_ranked_share_is_said_in_the_order_asked(demo_session: Session) -> None:
    answer = demo_session.ask("上个月GMV占比最低的3个区域", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None and len(answer.result.rows) == 3
    labels = [demo_session.catalog.dimensions["region"].members[str(r[0])].label.zh for r in answer.result.rows]
    said = [answer.answer.index(label) for label in labels]
    assert said == sorted(said)  # lowest first, as the rows and the question have it


@pytest.mark.parametrize(
    ("question", "said", "item"),
    [
        (
            "2025年每月app渠道GMV占比",
            "APP的成交总额（按月）及其占当月总额的比例：",
            "2025-03 {value}（占当月 {share}）",
        ),
        (
            "share of GMV from app each month in 2025",
            "App's GMV by month for 2025",
            "2025-03: {value} ({share} of that month's total)",
        ),
    ],
)
def test_a_share_per_period_is_of_that_periods_total(
    demo_session: Session, question: str, said: str, item: str
) -> None:
    """Each month's share is of that month's whole, and the sentence says so (not "of the total",
    which reads as a share of the year)."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.error
    assert len(answer.result.rows) == 12 and said in answer.answer
    ((app, month),) = gold_rows(
        demo_session,
        "SELECT SUM(gmv_amount) FILTER (WHERE channel = 'app'), SUM(gmv_amount) FROM fact_order "
        "WHERE status IN ('paid', 'refunded') AND order_date BETWEEN '2025-03-01' AND '2025-03-31'",
    )
    share = f"{float(str(app)) / float(str(month)) * 100:.2f}%"
    assert item.format(value=f"¥{float(str(app)):,.2f}", share=share) in answer.answer
    assert answer.gate is not None and answer.gate.ok


@pytest.mark.parametrize(
    ("question", "item"),
    [
        ("2025年各月GMV占全年的比例", "2025-03 {value}（占 {share}）"),
        ("share of GMV by month in 2025", "2025-03: {value} ({share} of the total)"),
        ("each month's share of the year's total GMV in 2025", "2025-03: {value} ({share} of the total)"),
        ("2025 GMV by month as a share of the full year", "2025-03: {value} ({share} of the total)"),
    ],
)
def test_the_periods_of_a_series_as_the_parts_are_shares_of_the_whole_range(
    demo_session: Session, question: str, item: str
) -> None:
    """No part or breakdown named: each month is a part of the year, its share of the year's total
    (asked back before, "share of what"); never "of that month's total", which would be 100 %."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.error
    ((march, year),) = gold_rows(
        demo_session,
        "SELECT SUM(gmv_amount) FILTER (WHERE order_date BETWEEN '2025-03-01' AND '2025-03-31'), SUM(gmv_amount) "
        "FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date BETWEEN '2025-01-01' AND '2025-12-31'",
    )
    shares = [float(row[2]) for row in answer.result.rows]
    assert len(shares) == 12 and abs(sum(shares) - 1) < 1e-9
    share = f"{float(str(march)) / float(str(year)) * 100:.2f}%"
    assert item.format(value=f"¥{float(str(march)):,.2f}", share=share) in answer.answer
    assert f"{float(str(year)):,.2f}" in answer.answer  # the whole stated
    assert "that month" not in answer.answer and "当月" not in answer.answer


@pytest.mark.parametrize(
    ("question", "word"),
    [("2025年上半年各月GMV占全年的比例", "全年"), ("GMV of each month of Q1 2026 as a share of the year", "year")],
)
def test_a_share_of_the_year_over_part_of_a_year_is_asked_back(demo_session: Session, question: str, word: str) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed" and word in answer.answer


def test_a_long_share_series_counts_what_it_does_not_list(demo_session: Session) -> None:
    """365 daily shares: twelve are listed, the rest counted ("另有 353 项见表格") — a number the
    output gate traces to the table, so the answer is not blocked."""
    answer = demo_session.ask("2025年每天app渠道GMV占比", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.error
    assert len(answer.result.rows) == 365 and "另有 353 项见表格" in answer.answer


def test_as_of_may_be_written_as_a_date_string(demo_session: Session) -> None:
    """A notebook writes ``as_of="2026-07-01"``; anything that is no date is a typed error."""
    by_string = demo_session.ask("上个月的GMV", as_of="2026-07-01")
    by_date = demo_session.ask("上个月的GMV", as_of=AS_OF)
    assert by_string.status == "answered" and by_string.as_of == by_date.as_of == AS_OF
    assert by_string.result == by_date.result
    with pytest.raises(InvalidInput) as caught:
        demo_session.ask("上个月的GMV", as_of="July 1st")
    assert "July 1st" in caught.value.message("en") and caught.value.message("zh")


def test_a_per_day_average_is_each_periods_total_over_its_own_days(demo_session: Session) -> None:
    answer = demo_session.ask("6月日均订单量和5月比", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None and [c.name for c in answer.result.columns][:2] == [
        "order_count_per_day",
        "order_count_per_day_previous",
    ]
    sql = "SELECT COUNT(*) FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ?"
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        ((june,),) = con.execute(sql, [date(2026, 6, 1), date(2026, 6, 30)]).fetchall()
        ((may,),) = con.execute(sql, [date(2026, 5, 1), date(2026, 5, 31)]).fetchall()
    finally:
        con.close()
    current, previous, *_ = answer.result.rows[0]
    assert current == pytest.approx(june / 30, rel=1e-12) and previous == pytest.approx(may / 31, rel=1e-12)
    assert answer.interpretation is not None and "日均订单量" in answer.interpretation
    assert answer.answer.startswith("6月") and "日均订单量" in answer.answer
    assert f"{june / 30:,.2f}" in answer.answer  # the sentence quotes the result's exact value


def test_a_monthly_average_against_a_year_divides_each_by_its_own_whole_months(demo_session: Session) -> None:
    """Periods of different lengths are comparable once averaged: 2026 Q1 per month against 2025 per month."""
    answer = demo_session.ask("2026年一季度月均GMV和2025年全年比", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None and [c.name for c in answer.result.columns][:2] == [
        "gmv_per_month",
        "gmv_per_month_previous",
    ]
    sql = "SELECT SUM(gmv_amount) FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ?"
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        ((q1,),) = con.execute(sql, [date(2026, 1, 1), date(2026, 3, 31)]).fetchall()
        ((year,),) = con.execute(sql, [date(2025, 1, 1), date(2025, 12, 31)]).fetchall()
    finally:
        con.close()
    current, previous, *_ = answer.result.rows[0]
    assert current == pytest.approx(float(q1) / 3, rel=1e-12) and previous == pytest.approx(float(year) / 12, rel=1e-12)
    assert answer.interpretation is not None and "（每月值之和 ÷ 3 个月，对比期 ÷ 12 个月）" in answer.interpretation
    assert "月均成交总额" in answer.answer and f"{float(q1) / 3:,.2f}" in answer.answer


def test_a_per_day_average_over_days_before_the_data_is_asked_back(demo_session: Session) -> None:
    """The demo's orders start on 2025-01-01: "过去两年" (2024–2025) per day would count 2024 as zero."""
    answer = demo_session.ask("过去两年日均GMV", as_of=date(2026, 1, 15))
    assert answer.status == "clarification_needed" and answer.result is None
    assert answer.error is not None and answer.error.detail["reason"] == "average_before_data"
    assert answer.suggestions == ["2025-01-01~2025-12-31"]
    total = demo_session.ask("过去两年GMV", as_of=date(2026, 1, 15))  # a total is unaffected
    assert total.status == "answered"


def test_a_share_within_each_group_divides_by_that_groups_own_total(demo_session: Session) -> None:
    """ "每个区域的订单中APP占多少": app's orders in a region over all of that region's orders."""
    answer = demo_session.ask("2026年6月每个区域的订单中APP渠道占多少比例", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None and [c.name for c in answer.result.columns] == [
        "region",
        "order_count",
        "order_count_share",
        "order_count_whole",
    ]
    sql = """SELECT region, COUNT(*) FILTER (WHERE channel = 'app'),
                    COUNT(*) FILTER (WHERE channel = 'app')::DOUBLE / COUNT(*), COUNT(*)
             FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? GROUP BY region"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        expected = {r: (n, s, w) for r, n, s, w in con.execute(sql, [date(2026, 6, 1), date(2026, 6, 30)]).fetchall()}
    finally:
        con.close()
    got = {r: (n, s, w) for r, n, s, w in answer.result.rows}
    assert got.keys() == expected.keys()
    for region, (orders, share, whole) in expected.items():  # each region's own whole, beside its share
        assert got[region][0] == orders and got[region][1] == pytest.approx(share, rel=1e-12)
        assert got[region][2] == whole
    assert answer.interpretation is not None and "每个区域中APP占订单量的比例" in answer.interpretation
    assert "占所在区域" in answer.answer


def test_the_highest_and_the_lowest_are_both_named(demo_session: Session) -> None:
    """ "最高和最低的月份": the whole ranking, and the sentence names both ends (never only the last word's)."""
    answer = demo_session.ask("2025年GMV最高和最低的月份", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    sql = """SELECT strftime(order_date, '%Y-%m') AS m, SUM(gmv_amount) AS v FROM fact_order
             WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? GROUP BY m ORDER BY v"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        months = con.execute(sql, [date(2025, 1, 1), date(2025, 12, 31)]).fetchall()
    finally:
        con.close()
    assert answer.result is not None and answer.result.row_count == 12
    (lowest, _), (highest, _) = months[0], months[-1]
    assert f"最高为 {highest}" in answer.answer and f"最低为 {lowest}" in answer.answer
    regions = demo_session.ask("Which regions had the highest and lowest GMV in June 2026?", as_of=AS_OF)
    assert regions.result is not None
    by_gmv = sorted(regions.result.rows, key=lambda row: float(str(row[1])))
    label = demo_session.catalog.member_label
    assert f"highest {label('region', by_gmv[-1][0], 'en')}" in regions.answer
    assert f"lowest {label('region', by_gmv[0][0], 'en')}" in regions.answer


def test_a_period_not_over_on_the_as_of_date_says_it_counts_its_days_so_far(demo_session: Session) -> None:
    answer = demo_session.ask("第一季度的GMV", as_of=date(2026, 1, 5))
    assert answer.status == "answered" and answer.time_range is not None
    assert (answer.time_range.start, answer.time_range.end) == (date(2026, 1, 1), date(2026, 1, 4))
    assert any("尚未结束：只计已过去的 4 天" in note for note in answer.assumptions)
    whole = demo_session.ask("上个月GMV", as_of=date(2026, 1, 5))  # a whole month says nothing of the kind
    assert not any("尚未结束" in note for note in whole.assumptions)
    # an event of the catalog's calendar is over when its last day is: "2026年" inside its name is no year so far
    event = demo_session.ask("2026年618大促GMV", as_of=AS_OF)
    assert event.status == "answered" and not any("尚未结束" in note for note in event.assumptions)
    # "Q2 so far" on July 1: Q2 ended on June 30, all of it counted — never "not over"
    over = demo_session.ask("Q2 so far, GMV by channel", as_of=AS_OF)
    assert over.status == "answered" and not any("not over" in note for note in over.assumptions), over.assumptions
    year = demo_session.ask("今年GMV", as_of=AS_OF)  # the year is not over: its days so far, said so
    assert any("尚未结束" in note for note in year.assumptions)


def test_a_weekend_is_said_to_be_compared_with_the_weekend_before(demo_session: Session) -> None:
    """ "上周末GMV环比上上周末" compared the weekend before, and said "之前同长度的 2 天"."""
    answer = demo_session.ask("上周末GMV环比上上周末", as_of=AS_OF)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert answer.semantic_query.comparison is not None
    assert any("上一个周末" in note and "2026-06-20" in note for note in answer.assumptions), answer.assumptions


@pytest.mark.parametrize(
    ("question", "members"),
    [
        ("2026年6月各渠道中APP的GMV占比", ("app",)),
        ("app share of GMV by channel in June 2026", ("app",)),
        ("2026年6月各区域中华东和华南的GMV占比", ("华东", "华南")),
        ("2026年6月华东GMV占比，按区域", ("华东",)),
    ],
)
def test_members_of_the_breakdown_are_shares_of_the_whole_they_do_not_filter(
    demo_session: Session, question: str, members: tuple[str, ...]
) -> None:
    """ "各渠道中APP的GMV占比": APP's share of every channel's GMV — never 100 % of itself, nor
    华东 and 华南 renormalised to their own sum."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.semantic_query is not None
    (dim,) = answer.semantic_query.dimensions
    sql = f"""SELECT {dim}, SUM(gmv_amount), SUM(gmv_amount) / SUM(SUM(gmv_amount)) OVER ()
              FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? GROUP BY 1"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        every = {k: (v, s) for k, v, s in con.execute(sql, [date(2026, 6, 1), date(2026, 6, 30)]).fetchall()}
    finally:
        con.close()
    assert answer.result is not None
    got = {row[0]: (row[1], row[2]) for row in answer.result.rows}
    assert set(got) == set(members)
    for member, (value, share) in got.items():
        assert value == pytest.approx(float(every[member][0]), abs=0.005)
        assert share == pytest.approx(every[member][1], rel=1e-12) and share < 1


def _june_gmv(demo_session: Session, where: str = "TRUE", start: date = date(2026, 6, 1)) -> float:
    sql = f"""SELECT SUM(gmv_amount) FROM fact_order
              WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? AND {where}"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        row = con.execute(sql, [start, date(start.year, start.month, 30)]).fetchone()
    finally:
        con.close()
    assert row is not None
    return float(row[0])


def test_the_gap_between_two_members_is_said_in_the_order_asked(demo_session: Session) -> None:
    """ "华南比华东的GMV少多少": both values, and 华南 − 华东 said as "低 ¥…（…%）" of 华东."""
    answer = demo_session.ask("上个月华南比华东的GMV少多少", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    south, east = _june_gmv(demo_session, "region = '华南'"), _june_gmv(demo_session, "region = '华东'")
    gap, pct = east - south, (east - south) / east * 100
    assert f"华南比华东低 ¥{gap:,.2f}（{pct:.2f}%）" in answer.answer
    assert answer.interpretation is not None and "及两者之差" in answer.interpretation
    english = demo_session.ask("how much higher was East China GMV than South China last month", as_of=AS_OF)
    assert f"East China is ¥{gap:,.2f} higher than South China" in english.answer
    rate = demo_session.ask("上个月华东的转化率比华南高多少", as_of=AS_OF)  # a rate's gap is in points
    assert rate.result is not None and rate.gate is not None and rate.gate.ok
    by_region = {row[0]: float(str(row[1])) for row in rate.result.rows}
    points = (by_region["华东"] - by_region["华南"]) * 100
    assert f"华东比华南{'高' if points > 0 else '低'} {abs(points):.2f} 个百分点" in rate.answer


def test_a_minus_between_two_members_is_their_gap_and_a_ratio_is_their_quotient(demo_session: Session) -> None:
    """ "app minus web" is the gap (never app's GMV with web excluded); "几倍" is app ÷ web."""
    app, web = _june_gmv(demo_session, "channel = 'app'"), _june_gmv(demo_session, "channel = 'web'")
    minus = demo_session.ask("GMV last month app minus web", as_of=AS_OF)
    assert minus.status == "answered" and minus.gate is not None and minus.gate.ok, minus.error
    assert f"App is ¥{abs(app - web):,.2f} {'higher' if app > web else 'lower'} than web" in minus.answer
    ratio = demo_session.ask("上个月app的GMV是web的几倍", as_of=AS_OF)
    assert ratio.status == "answered" and ratio.gate is not None and ratio.gate.ok, ratio.error
    assert f"APP是网页的 {app / web:,.2f} 倍" in ratio.answer
    assert ratio.interpretation is not None and "几倍" in ratio.interpretation
    kept_and_excluded = demo_session.ask("last month GMV for app excluding web", as_of=AS_OF)
    assert kept_and_excluded.status == "clarification_needed" and kept_and_excluded.result is None


def test_the_gap_of_a_two_member_breakdown_and_the_share_of_the_rest_match_sql(demo_session: Session) -> None:
    """ "新老用户GMV差了多少" is new − returning (never each one's change on May); "除了app以外的渠道
    GMV占比" is one share: the other channels' GMV over all GMV."""
    new, old = _june_gmv(demo_session, "user_type = 'new'"), _june_gmv(demo_session, "user_type = 'returning'")
    gap = demo_session.ask("上个月新老用户GMV差了多少", as_of=AS_OF)
    assert gap.status == "answered" and gap.gate is not None and gap.gate.ok, gap.error
    assert f"新用户比老用户{'高' if new > old else '低'} ¥{abs(new - old):,.2f}" in gap.answer
    share = demo_session.ask("上个月除了app以外的渠道GMV占比是多少", as_of=AS_OF)
    assert share.status == "answered" and share.result is not None, share.error
    rest, everything = _june_gmv(demo_session, "channel <> 'app'"), _june_gmv(demo_session)
    ((value, part),) = [(row[0], row[1]) for row in share.result.rows]
    assert float(str(value)) == pytest.approx(rest, abs=0.005)
    assert float(str(part)) == pytest.approx(rest / everything, rel=1e-9)


def test_the_gap_between_the_ends_of_a_ranking_matches_sql(demo_session: Session) -> None:
    """ "最高和最低的区域差多少": the highest region's GMV minus the lowest's, and the ratio when asked."""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        by_region = con.execute(
            """SELECT region, SUM(gmv_amount) FROM fact_order WHERE status IN ('paid','refunded')
               AND order_date BETWEEN '2026-06-01' AND '2026-06-30' GROUP BY 1"""
        ).fetchall()
    finally:
        con.close()
    high, low = max(float(v) for _, v in by_region), min(float(v) for _, v in by_region)
    gap = demo_session.ask("上个月GMV最高和最低的区域差多少", as_of=AS_OF)
    assert gap.status == "answered" and gap.gate is not None and gap.gate.ok, gap.error
    assert f"最高比最低高 ¥{high - low:,.2f}（{(high - low) / low * 100:.2f}%）" in gap.answer
    times = demo_session.ask("上个月GMV最高的区域是最低的几倍", as_of=AS_OF)
    assert times.status == "answered" and f"最高是最低的 {high / low:,.2f} 倍" in times.answer


@pytest.mark.parametrize(
    ("question", "order", "sentence"),
    [
        ("最高的两个区域上个月GMV差多少", "desc", "{first}比{second}高 ¥{gap:,.2f}（{pct:.2f}%）"),
        ("上个月GMV最低的两个区域相差多少", "asc", "{second}比{first}高 ¥{gap:,.2f}（{pct:.2f}%）"),
        ("gap between the top two regions by GMV last month", "desc", "{first} is ¥{gap:,.2f} higher than {second}"),
    ],
)
def test_the_gap_of_a_top_two_names_the_two_and_matches_sql(
    demo_session: Session, question: str, order: str, sentence: str
) -> None:
    """ "最高的两个区域差多少": the top two listed and the higher minus the lower, each named; a
    top three's gap is asked back (which two?), never read as a change over time."""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        ranked = con.execute(
            f"""SELECT region, SUM(gmv_amount) AS v FROM fact_order WHERE status IN ('paid','refunded')
               AND order_date BETWEEN '2026-06-01' AND '2026-06-30' GROUP BY 1 ORDER BY v {order} LIMIT 2"""
        ).fetchall()
    finally:
        con.close()
    labels = demo_session.catalog.dimensions["region"].members
    lang = "en" if question.isascii() else "zh"
    (first, a), (second, b) = [(labels[k].label.for_lang(lang), float(v)) for k, v in ranked]
    gap = abs(a - b)
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    interpretation = answer.interpretation or ""
    assert "两者之差" in interpretation or "the gap between the two" in interpretation
    said = sentence.format(first=first, second=second, gap=gap, pct=gap / min(a, b) * 100)
    assert said in answer.answer, answer.answer
    three = demo_session.ask("上个月GMV前三的区域差多少", as_of=AS_OF)
    assert three.status == "clarification_needed" and three.error is not None and three.result is None
    assert three.error.detail.get("top_n") == 3


def _channel_shares(session: Session, start: str, end: str) -> dict[str, float]:
    con = duckdb.connect(str(session.settings.duckdb_path()), read_only=True)
    try:
        rows = con.execute(
            f"""SELECT channel, SUM(gmv_amount) / SUM(SUM(gmv_amount)) OVER () FROM fact_order
                WHERE status IN ('paid','refunded') AND order_date BETWEEN '{start}' AND '{end}' GROUP BY 1"""
        ).fetchall()
    finally:
        con.close()
    return {str(k): float(v) for k, v in rows}


def test_shares_against_another_period_are_each_periods_own_and_move_in_points(demo_session: Session) -> None:
    """ "各渠道GMV占比环比": each channel's share of June's whole and of May's, the move in points,
    as independent SQL gives them; one part's share with a premise the data contradicts says so."""
    june, may = (
        _channel_shares(demo_session, "2026-06-01", "2026-06-30"),
        _channel_shares(demo_session, "2026-05-01", "2026-05-31"),
    )
    answer = demo_session.ask("上个月各渠道GMV占比环比变化", as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    assert answer.semantic_query is not None and answer.semantic_query.share
    for channel, share in june.items():
        label = demo_session.catalog.dimensions["channel"].members[channel].label.zh
        moved = (share - may[channel]) * 100
        assert f"{label} 占 {share:.2%}（对比期 {may[channel]:.2%}，{moved:+.2f} 个百分点）" in answer.answer
    english = demo_session.ask("how did each channel's share of GMV change last month vs the month before", as_of=AS_OF)
    assert english.status == "answered" and english.gate is not None and english.gate.ok, english.error
    assert (
        f"app: {june['app']:.2%} (was {may['app']:.2%}, {(june['app'] - may['app']) * 100:+.2f} percentage points)"
        in (english.answer)
    )
    rose = demo_session.ask("上个月app的GMV占比比上上个月高了多少", as_of=AS_OF)
    assert rose.status == "answered" and rose.gate is not None and rose.gate.ok, rose.error
    said = "问题说APP占成交总额的比例上升，但实际下降" if june["app"] < may["app"] else "APP占成交总额的比例为"
    assert said in rose.answer and f"{(june['app'] - may['app']) * 100:+.2f} 个百分点" in rose.answer
    assert rose.chart is not None and "占比" in json.dumps(rose.chart, ensure_ascii=False)


def test_the_ratio_of_two_periods_is_the_first_over_the_second(demo_session: Session) -> None:
    """ "6月GMV是去年6月的几倍": June 2026 ÷ June 2025, said beside the comparison; per group it is
    asked back (not built), never a comparison that leaves the ratio unsaid."""
    june, a_year_before = _june_gmv(demo_session), _june_gmv(demo_session, start=date(2025, 6, 1))
    times = demo_session.ask("6月GMV是去年6月的几倍", as_of=AS_OF)
    assert times.status == "answered" and times.gate is not None and times.gate.ok, times.error
    assert f"6月是去年6月的 {june / a_year_before:,.2f} 倍（{june / a_year_before * 100:.2f}%）" in times.answer
    assert times.interpretation is not None and "几倍" in times.interpretation
    per_group = demo_session.ask("6月各渠道GMV是去年6月的几倍", as_of=AS_OF)
    assert per_group.status == "clarification_needed" and per_group.result is None


def test_a_comparison_of_an_amount_says_by_how_much(demo_session: Session) -> None:
    """ "上个月GMV比去年同期多了多少钱": the change with its sign, beside the percentage."""
    answer = demo_session.ask("上个月GMV比去年同期多了多少钱", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    change = _june_gmv(demo_session) - _june_gmv(demo_session, start=date(2025, 6, 1))
    sign = "+" if change > 0 else "-"
    assert f"（{sign}¥{abs(change):,.2f}）" in answer.answer
    rate = demo_session.ask("上个月退款率环比", as_of=AS_OF)  # a rate's change is said in points
    assert rate.status == "answered" and rate.result is not None, rate.error
    names = [c.name for c in rate.result.columns]
    row = dict(zip(names, rate.result.rows[0], strict=True))
    points = (float(str(row["refund_rate"])) - float(str(row["refund_rate_previous"]))) * 100
    assert f"（{points:+.2f} 个百分点）" in rate.answer


def test_a_why_asked_as_a_question_says_where_its_drivers_are_found(demo_session: Session) -> None:
    answer = demo_session.ask("上个月GMV为什么下降", as_of=AS_OF)
    assert answer.status == "answered" and answer.drivers == []
    assert answer.answer.endswith("要找出原因，请运行分析（baton analyze，或在 baton chat 中输入 /why）。")
    plain = demo_session.ask("上个月GMV环比", as_of=AS_OF)
    assert "baton analyze" not in plain.answer


@pytest.mark.parametrize(
    ("question", "unit", "dimension", "n", "order", "start", "end"),
    [
        ("2026年每个月GMV最高的渠道", "month", "channel", 1, "DESC", "2026-01-01", "2026-06-30"),
        (
            "bottom 2 categories by orders each month in 2026 Q2",
            "month",
            "category",
            2,
            "ASC",
            "2026-04-01",
            "2026-06-30",
        ),
        ("2026年Q2每个季度订单量前3的区域", "quarter", "region", 3, "DESC", "2026-04-01", "2026-06-30"),
    ],
)
def test_the_top_of_each_period_is_taken_inside_each_period(
    demo_session: Session, question: str, unit: str, dimension: str, n: int, order: str, start: str, end: str
) -> None:
    """ "每个月GMV最高的渠道": each month's own top, as a window ranked inside each period computes it —
    never the top rows of the whole series."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.semantic_query is not None and answer.semantic_query.rank_each_period
    metric = "SUM(gmv_amount)" if "GMV" in question else "COUNT(*)"
    sql = f"""WITH g AS (
                SELECT DATE_TRUNC('{unit}', order_date)::DATE AS p, {dimension} AS d, {metric} AS v
                FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN DATE '{start}' AND DATE '{end}'
                GROUP BY 1, 2)
              SELECT p, d, v FROM (SELECT *, RANK() OVER (PARTITION BY p ORDER BY v {order}) AS r FROM g)
              WHERE r <= {n} ORDER BY p, v {order}"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        expected = con.execute(sql).fetchall()
    finally:
        con.close()
    assert answer.result is not None
    ok, reason = results_match([list(r) for r in answer.result.rows], [list(r) for r in expected], ordered=True)
    assert ok, reason
    assert len({p for p, _, _ in expected}) == len(expected) // n  # every period, each with its own top
    assert answer.answer is not None and answer.interpretation is not None
    said_each = "每" if answer.language == "zh" else f"in each {unit}"
    assert said_each in answer.interpretation


@pytest.mark.parametrize(
    ("question", "unit"),
    [
        ("近12周每周订单量同比", "week"),
        ("上周每天订单量同比", "day"),
        ("daily orders last week vs same week last year", "day"),
    ],
)
def test_a_weekly_series_against_last_year_meets_the_weekday_aligned_days(
    demo_session: Session, question: str, unit: str
) -> None:
    """A week's same period last year is 364 days back (weekday-aligned); each row of the series
    must meet the rows that far back — not a calendar year back, one weekday late, with a phantom
    row after the period."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    query = answer.semantic_query
    assert query is not None and query.comparison is not None
    current, previous = query.time_range, query.comparison.range
    assert (current.start - previous.start).days == 364
    sql = f"""WITH now AS (SELECT DATE_TRUNC('{unit}', order_date)::DATE AS p, COUNT(*) AS n FROM fact_order
                       WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? GROUP BY 1),
              back AS (SELECT DATE_TRUNC('{unit}', order_date + INTERVAL 364 DAY)::DATE AS p, COUNT(*) AS n
                       FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ? GROUP BY 1)
              SELECT now.p, now.n, back.n FROM now JOIN back USING (p) ORDER BY 1"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        expected = con.execute(sql, [current.start, current.end, previous.start, previous.end]).fetchall()
    finally:
        con.close()
    assert answer.result is not None
    got = [row[:3] for row in answer.result.rows]
    ok, reason = results_match([list(r) for r in got], [list(r) for r in expected], ordered=False)
    assert ok, reason


def test_members_taken_together_say_how_a_distinct_count_or_a_rate_pools(demo_session: Session) -> None:
    """ "app和小程序的买家数加起来": one buyer in both channels counts once (below the channels' sum),
    and the answer says so; a sum (GMV) pools without a note."""
    buyers = demo_session.ask("上个月app和小程序的买家数加起来", as_of=AS_OF)
    assert buyers.status == "answered" and buyers.result is not None
    sql = """SELECT COUNT(DISTINCT user_id) FILTER (WHERE channel IN ('app', 'mini_program')),
                    COUNT(DISTINCT user_id) FILTER (WHERE channel = 'app')
                    + COUNT(DISTINCT user_id) FILTER (WHERE channel = 'mini_program')
             FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ?"""
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        ((pooled, summed),) = con.execute(sql, [date(2026, 6, 1), date(2026, 6, 30)]).fetchall()
    finally:
        con.close()
    assert buyers.result.rows == [[pooled]] and pooled < summed
    assert any("去重计数" in a and "APP" in a for a in buyers.assumptions)
    gmv = demo_session.ask("上个月app和小程序的GMV合计", as_of=AS_OF)
    assert gmv.status == "answered" and not any("合起来" in a for a in gmv.assumptions)


@pytest.mark.parametrize(
    "question",
    ["what was total GMV last month and what % was app", "上个月订单量多少，新用户占比多少", "上个月各渠道GMV占比"],
)
def test_a_share_states_the_whole_it_is_of(demo_session: Session, question: str) -> None:
    """ "total GMV and what % was app": the part's share and the whole, both from the one query."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.gate is not None and answer.gate.ok, answer.error
    query = answer.semantic_query
    assert query is not None and query.share and answer.result is not None
    metric = query.metrics[0]
    measure = "SUM(gmv_amount)" if metric == "gmv" else "COUNT(*)"
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        ((whole,),) = con.execute(
            f"SELECT {measure} FROM fact_order WHERE status IN ('paid','refunded') "
            "AND order_date BETWEEN '2026-06-01' AND '2026-06-30'"
        ).fetchall()
    finally:
        con.close()
    names = [c.name for c in answer.result.columns]
    assert all(float(row[names.index(f"{metric}_whole")]) == pytest.approx(float(whole)) for row in answer.result.rows)
    shown = f"{float(whole):,.2f}" if metric == "gmv" else f"{int(whole):,}"
    assert shown in answer.answer, answer.answer


def test_shares_of_metrics_from_two_tables_pass_the_firewall(demo_session: Session) -> None:
    """Orders and visitors by channel with their shares: each whole is one row of both tables
    (joined first), so no cross join of many rows reaches the firewall, and each share is of its own."""
    answer = demo_session.ask("orders and visitors by channel, % of total, last month", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None
    names = [c.name for c in answer.result.columns]
    con = duckdb.connect(str(demo_session.settings.duckdb_path()), read_only=True)
    try:
        visitors = dict(
            con.execute(
                "SELECT channel, SUM(visitors) FROM fact_traffic WHERE visit_date BETWEEN DATE '2026-06-01' "
                "AND DATE '2026-06-30' GROUP BY 1"
            ).fetchall()
        )
    finally:
        con.close()
    total = sum(visitors.values())
    for row in answer.result.rows:
        got = dict(zip(names, row, strict=True))
        assert got["visitors"] == visitors[got["channel"]]
        assert got["visitors_share"] == pytest.approx(visitors[got["channel"]] / total)


@pytest.mark.parametrize("question", ["yearly GMV from 2025 to 2026", "GMV by month from March to May 2026"])
def test_a_range_said_with_from_passes_the_output_gate(demo_session: Session, question: str) -> None:
    """The sentence says "GMV by year for 2025 to 2026" (no "for from"): the gate once read its
    years as numbers no cell holds and withheld a right answer."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert " for from " not in answer.answer and answer.result is not None


def test_a_total_over_no_rows_is_zero_never_na(demo_session: Session) -> None:
    """p64: "views on 2020-01-03", a day inside the data with no rows, said "n/a" while the daily
    series showed 0 for it: a sum or a count of no rows is 0 (a rate of none stays empty)."""
    ((day,),) = gold_rows(
        demo_session,
        "SELECT MIN(d) FROM (SELECT DISTINCT order_date AS d FROM fact_order) days WHERE NOT EXISTS ("
        "SELECT 1 FROM fact_order f WHERE f.order_date = days.d AND region = '东北' AND channel = 'live_stream' "
        "AND category = '美妆个护' AND status IN ('paid', 'refunded'))",
    )
    for question, said in [(f"{day}东北直播美妆个护的GMV", "¥0.00"), (f"{day}东北直播美妆个护的订单量", "为 0。")]:
        answer = demo_session.ask(question, as_of=AS_OF)
        assert answer.status == "answered" and answer.result is not None
        assert answer.result.rows == [[0]] and said in answer.answer, answer.answer
    rate = demo_session.ask(f"{day}东北直播美妆个护的退款率", as_of=AS_OF)
    assert rate.result is not None and rate.result.rows == [[None]]


def test_a_distinct_counts_share_of_the_range_says_its_periods_overlap(demo_session: Session) -> None:
    """s20: each month's share of the year's buyers added up to 132 % with no word: a buyer of
    two months is one buyer of the year."""
    answer = demo_session.ask("2025年各月买家数占全年的比例", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    assert sum(float(r[2]) for r in answer.result.rows) > 1  # the shares overlap
    assert any("去重计数" in a for a in answer.assumptions), answer.assumptions


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("2025年订单占比最高的一周", "2025-01-01", "2025-12-31"),
        ("历史上订单占比最高的一周", "2025-01-01", "2026-06-30"),
    ],
)
def test_a_ranked_share_of_the_range_is_of_the_whole_range_asked(
    demo_session: Session, question: str, start: str, end: str
) -> None:
    """s20: ranked by week, only whole weeks are ranked, and the whole shrank to them too (3.29 %,
    not 3.22 % of 2025's orders): the whole is the period asked."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    ((total,),) = gold_rows(
        demo_session,
        f"SELECT COUNT(*) FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date BETWEEN '{start}' AND '{end}'",
    )
    ((_week, orders, share, *_),) = answer.result.rows
    assert share == pytest.approx(orders / total, rel=1e-12) and f"{total:,}" in answer.answer


@pytest.mark.parametrize(
    ("question", "rolling"),
    [
        ("过去一周GMV", "近7天"),
        ("最近一周各区域GMV", "近7天"),
        ("past week GMV", "the last 7 days"),
        ("last 2 weeks orders", "the last 14 days"),
        ("上周GMV", None),  # a calendar week by its own words
        ("last week GMV", None),
        ("近3个月GMV", None),  # whole months that end yesterday: the rolling days are the same
    ],
)
def test_latest_weeks_read_as_whole_weeks_say_so(demo_session: Session, question: str, rolling: str | None) -> None:
    """p65: "过去一周" on a Wednesday is last Monday to Sunday; some readers mean the 7 days up to
    yesterday, so the answer says which it counted and how to ask for the other."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.time_range is not None, answer.error
    said = [a for a in answer.assumptions if "滚动窗口" in a or "rolling window" in a]
    if rolling is None:
        assert said == []
        return
    assert len(said) == 1 and rolling in said[0]
    assert answer.time_range.end == date(2026, 6, 28) and "2026-06-28" in said[0]
