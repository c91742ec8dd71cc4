"""The terminal's result table reads like the reports: catalog labels for columns and members
(``直播``, not ``live_stream``), rates as percentages, money with its sign, a breakdown ranked by
its metric (not by the members' codes), a ranking and a time series in their own order."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from rich.console import Console

from baton.cli.render import render_answer
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)


def result_rows(answer: Answer, session: Session, title: str) -> tuple[list[str], list[list[str]]]:
    """Header and body rows of the result table as the terminal prints it."""
    out = StringIO()
    render_answer(answer, Console(file=out, width=140, color_system=None), catalog=session.catalog)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    table = lines[start + 1 : next(i for i in range(start + 1, len(lines)) if lines[i].startswith("└"))]
    cells = [[c.strip() for c in line.strip("│┃").split("│" if line.startswith("│") else "┃")] for line in table]
    header = next(c for line, c in zip(table, cells, strict=True) if line.startswith("┃"))
    return header, [c for line, c in zip(table, cells, strict=True) if line.startswith("│")]


def amount(cell: str) -> Decimal:
    return Decimal(re.sub(r"[¥,%]", "", cell))


@pytest.fixture(scope="module")
def asked(demo_session: Session) -> dict[str, Answer]:
    questions = (
        "上个月各渠道的GMV是多少？",
        "What was the conversion rate by channel last month?",
        "上个月GMV最低的3个品类",
        "上个月每天的GMV",
    )
    return {q: demo_session.ask(q, as_of=AS_OF) for q in questions}


def test_a_breakdown_shows_labels_money_and_ranks_by_value(demo_session: Session, asked: dict[str, Answer]) -> None:
    header, rows = result_rows(asked["上个月各渠道的GMV是多少？"], demo_session, "结果")
    assert header == ["渠道", "成交总额"]
    members = [r[0] for r in rows]
    assert sorted(members) == sorted(["APP", "网页", "小程序", "直播"])  # labels from the catalog, not codes
    assert all(re.fullmatch(r"¥\d{1,3}(?:,\d{3})*\.\d{2}", r[1]) for r in rows), rows
    values = [amount(r[1]) for r in rows]
    assert values == sorted(values, reverse=True) and members[0] == "APP"  # by GMV, not alphabetically


def test_rates_are_percentages_and_members_read_as_words(demo_session: Session, asked: dict[str, Answer]) -> None:
    answer = asked["What was the conversion rate by channel last month?"]
    header, rows = result_rows(answer, demo_session, "Result")
    assert header == ["Channel", "Conversion rate"]
    assert {r[0] for r in rows} == {"app", "web", "mini program", "live stream"}
    assert all(re.fullmatch(r"\d+\.\d{2}%", r[1]) for r in rows), rows  # 2.93%, never 0.0293
    rates = [amount(r[1]) for r in rows]
    assert rates == sorted(rates, reverse=True)
    assert rows[0][0] == "live stream"  # the highest rate first (alphabetically it would be app)
    assert answer.result is not None and [r[0] for r in answer.result.rows] != [r[0] for r in rows]


def test_a_ranking_and_a_time_series_keep_their_own_order(demo_session: Session, asked: dict[str, Answer]) -> None:
    _, lowest = result_rows(asked["上个月GMV最低的3个品类"], demo_session, "结果")
    assert len(lowest) == 3
    values = [amount(r[1]) for r in lowest]
    assert values == sorted(values)  # the lowest first, as asked
    header, daily = result_rows(asked["上个月每天的GMV"], demo_session, "结果")
    assert header[1] == "成交总额" and len(daily) == 30
    days = [r[0] for r in daily]
    assert days == sorted(days) and days[0].startswith("2026-06-01")
