"""Issue 14, finding 8: groups an aggregate-only user's minimum group size leaves out are
counted and said in the answer, so marketing does not read "共 57 组" as the whole picture."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)
QUESTIONS = {
    "zh": ("2026年6月1日各区域各品类各渠道的订单量", "另有 {n} 组因样本少于 10 未显示"),
    "en": ("How many orders by region, category and channel on 2026-06-01?", "{n} more groups, each of fewer than 10"),
}


def _as_analyst_and_marketing(folder: Path, question: str) -> tuple[Answer, Answer, int]:
    """The question asked by the analyst (every group) and by marketing (groups of 10 or more
    orders only), both answered, and the place of the order count in their rows."""
    with Session(load_settings(folder / "baton.toml")) as session:
        everyone = session.ask(question, as_of=AS_OF, user="analyst")
        limited = session.ask(question, as_of=AS_OF, user="marketing")
    assert everyone.status == limited.status == "answered", (everyone.error, limited.error)
    assert everyone.result is not None
    return everyone, limited, [c.name for c in everyone.result.columns].index("order_count")


@pytest.mark.postgres
@pytest.mark.parametrize("engine", ["duckdb", "postgres"])
@pytest.mark.parametrize("language", ["zh", "en"])
def test_suppressed_groups_are_counted_and_said(request: pytest.FixtureRequest, engine: str, language: str) -> None:
    folder: Path = request.getfixturevalue("demo_dir" if engine == "duckdb" else "pg_demo_dir")
    question, said = QUESTIONS[language]
    everyone, limited, count = _as_analyst_and_marketing(folder, question)
    assert everyone.result is not None and limited.result is not None
    small = [row for row in everyone.result.rows if row[count] < 10]
    assert small, "the demo must have groups below k on this day, or this test proves nothing"
    assert sorted(map(repr, limited.result.rows)) == sorted(repr(r) for r in everyone.result.rows if r[count] >= 10)
    assert said.format(n=len(small)) in limited.answer
    assert any("10" in note for note in limited.assumptions)
    assert "未显示" not in everyone.answer and "not shown" not in everyone.answer  # analyst sees every group


def test_a_bound_over_hidden_groups_says_they_are_hidden(demo_dir: Path) -> None:
    """ "订单量少于15的日子" of a slice whose every day has fewer than 10 orders: the analyst sees
    every day; marketing's answer must not read as "no day was below 15" without saying that the
    days with fewer than 10 orders are hidden, and how many."""
    question = "2026年6月东北直播新用户家用电器订单量少于15的日子有哪些"
    everyone, limited, count = _as_analyst_and_marketing(demo_dir, question)
    assert everyone.result is not None and limited.result is not None
    hidden = [row for row in everyone.result.rows if 0 < row[count] < 10]  # a day with no rows is no group
    assert hidden, "the slice must have days below k, or this test proves nothing"
    assert all(row[count] >= 10 for row in limited.result.rows)
    assert f"另有 {len(hidden)} 组因样本少于 10 未显示" in limited.answer
