"""A second catalog, written for a different warehouse (SaaS subscriptions: mrr = accounts ×
arpa, USD, no load log, no promotion calendar), gets a metric-tree analysis from
``baton analyze`` with no code change — the analysis is driven by the catalog alone.

The warehouse is a real DuckDB file with a planted effect (``tests/fixtures/saas.py``): in June
2026 a third of the DE accounts churn while ARPA stays flat everywhere.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import date

import pytest

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from tests.fixtures.saas import SaasWarehouse, build_saas

AS_OF = date(2026, 7, 1)


@pytest.fixture(scope="module")
def saas(tmp_path_factory: pytest.TempPathFactory) -> SaasWarehouse:
    return build_saas(tmp_path_factory.mktemp("saas"))


@pytest.fixture(scope="module")
def session(saas: SaasWarehouse) -> Iterator[Session]:
    with Session(config=saas.config) as opened:
        yield opened


@pytest.fixture(scope="module")
def answer(session: Session) -> Answer:
    return session.analyze("Why did MRR drop in June 2026?", as_of=AS_OF)


def test_the_planted_driver_is_found_through_the_catalogs_tree(answer: Answer, saas: SaasWarehouse) -> None:
    assert answer.status == "answered", answer.error
    top = answer.drivers[0]
    assert top.members == saas.truth["members"] and top.factor == saas.truth["factor"]
    assert top.change < 0 and top.significant and top.ci is not None and top.ci.high < 0
    tree = next(f for f in answer.findings if f.finding_id == "insight-metric-tree")
    effects = {n.key: float(n.value) for n in tree.numbers}
    assert {"tree.accounts", "tree.arpa"} <= set(effects) <= {"tree.accounts", "tree.arpa", "tree.mix"}
    # overall ARPA dips only by mix (DE's accounts pay more than average); accounts carry the change
    assert effects["tree.accounts"] < effects["tree.arpa"] <= 0
    assert effects["tree.accounts"] / (effects["tree.accounts"] + effects["tree.arpa"]) > 0.7
    # and the report says that ARPA's part is the mix, not ARPA within the countries
    assert "tree.mix" in effects and effects["tree.mix"] == pytest.approx(effects["tree.arpa"], rel=0.5)


def test_units_freshness_and_calendar_come_from_the_catalog(answer: Answer) -> None:
    text = answer.answer
    assert "USD" in text and "CNY" not in text and "¥" not in text
    assert answer.data_freshness is not None and "2026-06-30" in answer.data_freshness
    assert not [f for f in answer.quality_flags if f.issue == "stale"]
    assert "calendar-event peaks" not in text  # this catalog declares no events
    assert '"peak"' not in json.dumps(answer.chart)


def test_the_sum_of_the_tree_equals_the_change_in_the_warehouse(answer: Answer, saas: SaasWarehouse) -> None:
    import duckdb

    con = duckdb.connect(str(saas.warehouse), read_only=True)
    try:
        may, june = (
            float(
                con.execute(
                    "SELECT SUM(mrr_usd) FROM subscription_daily WHERE snapshot_date BETWEEN ? AND ?", [a, b]
                ).fetchone()[0]  # type: ignore[index]
            )
            for a, b in (("2026-05-01", "2026-05-31"), ("2026-06-01", "2026-06-30"))
        )
    finally:
        con.close()
    tree = next(f for f in answer.findings if f.finding_id == "insight-metric-tree")
    # both months per day, on June's 30 days: the comparable change the tree adds up to
    terms = [float(n.value) for n in tree.numbers if n.key != "tree.mix"]
    assert sum(terms) == pytest.approx(june - may * 30 / 31, abs=0.05)


def test_the_cli_answers_a_chinese_question_on_the_same_catalog(saas: SaasWarehouse) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "baton",
            "analyze",
            "为什么2026年6月的月经常性收入下降了？",
            "--json",
            "--config",
            str(saas.config),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["drivers"][0]["members"] == {"country": "DE"} and data["drivers"][0]["factor"] == "accounts"
    assert "美元" in data["answer"]


def test_a_simple_question_and_a_row_filter_work_too(session: Session) -> None:
    asked = session.ask("MRR by country in June 2026", as_of=AS_OF)
    assert asked.status == "answered", asked.error
    assert asked.result is not None and asked.result.row_count == 4
    assert "$" in asked.answer
    limited = session.ask("MRR by country in June 2026", as_of=AS_OF, user="de_manager")
    assert limited.status == "answered", limited.error
    assert limited.result is not None and [r[0] for r in limited.result.rows] == ["DE"]
