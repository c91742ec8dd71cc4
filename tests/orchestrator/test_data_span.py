"""Periods before the data's first day: the rule table, then the demo end to end (its orders and
visits start on 2025-01-01)."""

from __future__ import annotations

from datetime import date

import pytest

from baton import Session
from baton.contracts.semantic import Comparison, Grain, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, TimeExpressionError
from baton.orchestrator.data_span import DataStart, before_data_notes, check_periods
from tests.demo_gold import gold_rows

AS_OF = date(2026, 7, 1)
START = DataStart(table="orders", day=date(2025, 1, 1))


def _query(
    current: tuple[str, str], previous: tuple[str, str] | None = None, *, per: Grain | None = None
) -> SemanticQuery:
    def span(pair: tuple[str, str]) -> TimeRange:
        return TimeRange(start=date.fromisoformat(pair[0]), end=date.fromisoformat(pair[1]))

    comparison = Comparison(kind="custom", range=span(previous)) if previous is not None else None
    return SemanticQuery(
        metrics=("gmv",), time_range=span(current), comparison=comparison, average_per=per, as_of=AS_OF
    )


@pytest.mark.parametrize(
    ("query", "raised", "reason"),
    [
        (_query(("2024-01-01", "2024-12-31")), TimeExpressionError, "period_before_data"),
        (
            _query(("2025-07-01", "2026-06-30"), ("2024-07-01", "2025-06-30")),
            AmbiguousQuestion,
            "comparison_before_data",
        ),
        (
            _query(("2025-01-01", "2025-01-31"), ("2024-12-01", "2024-12-31")),
            AmbiguousQuestion,
            "comparison_before_data",
        ),
        (
            _query(("2024-12-01", "2025-01-31"), ("2025-02-01", "2025-03-31")),
            AmbiguousQuestion,
            "comparison_before_data",
        ),
        (_query(("2024-07-01", "2025-06-30"), per="day"), AmbiguousQuestion, "average_before_data"),
        # inside the data, or a total / series that only starts before it: no question asked back
        (_query(("2025-02-01", "2025-02-28"), ("2025-01-01", "2025-01-31")), None, None),
        (_query(("2024-07-01", "2025-06-30")), None, None),
        (_query(("2025-01-01", "2025-01-31"), per="day"), None, None),
    ],
)
def test_what_the_data_cannot_answer_is_asked_back(
    query: SemanticQuery, raised: type[Exception] | None, reason: str | None
) -> None:
    if raised is None:
        check_periods(query, START)
        return
    with pytest.raises(raised) as caught:
        check_periods(query, START)
    assert getattr(caught.value, "detail", {})["reason"] == reason
    message = caught.value.message("zh")  # type: ignore[attr-defined]
    assert "2025-01-01" in message


def _series(current: tuple[str, str], previous: tuple[str, str], kind: str, grain: Grain) -> SemanticQuery:
    def span(pair: tuple[str, str]) -> TimeRange:
        return TimeRange(start=date.fromisoformat(pair[0]), end=date.fromisoformat(pair[1]))

    comparison = Comparison(kind=kind, range=span(previous))
    return SemanticQuery(metrics=("gmv",), time_range=span(current), comparison=comparison, grain=grain, as_of=AS_OF)


@pytest.mark.parametrize(
    ("query", "suggested"),
    [
        # each month against the one before: January 2025 has no December in the data
        (_series(("2025-01-01", "2025-12-31"), ("2024-12-01", "2025-11-30"), "previous_period", "month"),
         "2025-02-01~2025-12-31"),
        # each month against its own last year: the months of 2026 have theirs
        (_series(("2025-07-01", "2026-06-30"), ("2024-07-01", "2025-06-30"), "same_period_last_year", "month"),
         "2026-01-01~2026-06-30"),
        (_series(("2025-01-06", "2025-03-30"), ("2024-12-30", "2025-03-23"), "previous_period", "week"),
         "2025-01-13~2025-03-30"),
        # no period has its counterpart: the plain question back
        (_series(("2025-01-01", "2025-12-31"), ("2024-01-01", "2024-12-31"), "same_period_last_year", "month"), None),
    ],
)  # fmt: skip
def test_a_series_compared_before_the_data_offers_the_periods_that_have_a_counterpart(
    query: SemanticQuery, suggested: str | None
) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        check_periods(query, START)
    assert caught.value.detail["reason"] == "comparison_before_data"
    assert caught.value.detail.get("suggestions", [None]) == [suggested]
    if suggested is not None:
        assert suggested.split("~")[0] in caught.value.message("en") and suggested.split("~")[
            0
        ] in caught.value.message("zh")


def test_a_period_starting_before_the_data_says_where_its_values_begin() -> None:
    (note,) = before_data_notes(_query(("2024-07-01", "2025-06-30")), START, "en")
    assert "2024-07-01 to 2024-12-31 has no rows" in note and "from 2025-01-01 on" in note
    assert before_data_notes(_query(("2025-01-01", "2025-06-30")), START, "en") == []
    assert before_data_notes(_query(("2024-07-01", "2025-06-30")), None, "en") == []


@pytest.mark.parametrize(
    ("question", "reason"),
    [
        ("最近12个月GMV同比", "comparison_before_data"),
        ("GMV in Q1 2025 vs Q4 2024", "comparison_before_data"),
        ("2024年的订单量是多少", "period_before_data"),
        ("2025年1月的日均订单量和2024年12月比", "comparison_before_data"),
    ],
)
def test_the_demo_asks_back_periods_before_its_first_day(demo_session: Session, question: str, reason: str) -> None:
    ((day,),) = gold_rows(demo_session, "SELECT MIN(order_date) FROM fact_order")
    first = date.fromisoformat(str(day))
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed" and answer.result is None
    assert answer.error is not None and answer.error.detail["reason"] == reason
    assert answer.error.detail["first_day"] == first.isoformat()
    assert first.isoformat() in answer.answer


def test_a_why_question_against_a_period_before_the_data_is_asked_back_before_any_agent(
    demo_session: Session,
) -> None:
    answer = demo_session.analyze("为什么2025年1月GMV同比下降了？", as_of=AS_OF)
    assert answer.status == "clarification_needed"
    assert answer.error is not None and answer.error.detail["reason"] == "comparison_before_data"
    assert answer.drivers == [] and answer.findings == []


def test_a_series_starting_before_the_data_holds_its_rows_and_says_so(demo_session: Session) -> None:
    answer = demo_session.ask("2024年7月到2025年6月每个月的订单量", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    gold = gold_rows(
        demo_session,
        "SELECT CAST(DATE_TRUNC('month', order_date) AS DATE), COUNT(*) FROM fact_order "
        "WHERE status IN ('paid', 'refunded') AND order_date BETWEEN DATE '2024-07-01' AND DATE '2025-06-30' "
        "GROUP BY 1 ORDER BY 1",
    )
    rows = sorted((date.fromisoformat(str(r[0])[:10]), r[1]) for r in answer.result.rows)
    assert rows == [(d, n) for d, n in gold] and rows[0][0] == date(2025, 1, 1)
    assert any("数据从2025-01-01才开始" in a and "2024-07-01至2024-12-31" in a for a in answer.assumptions)


def test_a_comparison_inside_the_data_is_unaffected(demo_session: Session) -> None:
    answer = demo_session.ask("2025年2月的GMV环比", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    assert not any("才开始" in a for a in answer.assumptions)


def test_the_first_day_is_read_as_system_metadata(demo_session: Session) -> None:
    """One traced tool call after its policy decision, like freshness: no statement of the user's
    (no evidence, nothing counted against an aggregate-only table's daily budget)."""
    from baton.trace.writer import read_trace

    answer = demo_session.ask("上个月的订单量", as_of=AS_OF)
    events = read_trace(demo_session.runs_dir / answer.run_id / "trace.jsonl")
    calls = [i for i, e in enumerate(events) if e.type == "tool_call" and e.payload["tool"] == "warehouse.data_start"]
    allowed = [
        i
        for i, e in enumerate(events)
        if e.type == "policy_decision" and e.payload.get("tool") == "warehouse.data_start"
    ]
    assert len(calls) == 1 and len(allowed) == 1 and allowed[0] < calls[0]
    assert [r.name for r in demo_session.store.load(answer.run_id).sql] == ["answer", "completeness"]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("GMV by channel all time", "all time (2025-01-01 to 2026-06-30)"),
        ("各渠道历史累计GMV", "历史累计（2025-01-01 至 2026-06-30）"),
    ],
)
def test_all_time_is_every_day_from_the_datas_first_up_to_the_as_of_date(
    demo_session: Session, question: str, said: str
) -> None:
    """ "GMV all time", "历史累计": from the data's first day (read before the statement is built),
    its dates shown, never a date of 1900."""
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    gold = gold_rows(
        demo_session,
        "SELECT channel, SUM(gmv_amount) FROM fact_order WHERE status IN ('paid', 'refunded') "
        "AND order_date <= DATE '2026-06-30' GROUP BY 1 ORDER BY 1",
    )
    assert sorted((c, float(v)) for c, v in answer.result.rows) == [(c, float(v)) for c, v in gold]
    assert said in (answer.interpretation or "") and said in answer.answer
    assert "1900" not in answer.answer + (answer.interpretation or "") + " ".join(answer.assumptions)


def test_an_all_time_weekly_ranking_never_ranks_the_week_the_data_starts_in(demo_session: Session) -> None:
    """s19: "all-time lowest week of orders" named 2024-12-30, a week of five days of data (from
    Wednesday 2025-01-01): all time starts on the data's first day, so that week is an edge."""
    weeks = gold_rows(
        demo_session,
        "SELECT CAST(DATE_TRUNC('week', order_date) AS DATE) AS w, COUNT(*), COUNT(DISTINCT order_date) "
        "FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date <= DATE '2026-06-30' GROUP BY 1",
    )
    whole = sorted((n, w) for w, n, days in weeks if days == 7)
    assert min(n for _, n, days in weeks if days < 7) < whole[0][0]  # the cut week would win
    answer = demo_session.ask("all-time lowest week of orders", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    assert [(str(r[0])[:10], r[1]) for r in answer.result.rows] == [(whole[0][1].isoformat(), whole[0][0])]
