"""A new user's own warehouse: what went wrong the first time, kept from going wrong again.

The warehouse is the small SaaS one of ``tests/saas_warehouse.py`` (a real DuckDB file built
from ``tests/fixtures/saas/``): subscriptions with a start and an end date, about 80 a day, no
load log, no calendar, USD on its one money metric, a policy whose default user is not
"analyst", a ``baton.toml`` without ``[defaults]``, and a country dimension whose members are
listed nowhere but in the data (``index_members: true``).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Any

import duckdb
import pytest
import yaml

from baton.catalog.members import read_member_index, with_members
from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.contracts.query import ForeignKey
from baton.errors import AmbiguousQuestion
from baton.nlu.lexicon import reserved_words
from baton.nlu.parser import Planner
from baton.orchestrator.session import Session
from baton.report.html import render_html
from baton.report.markdown import render_markdown
from baton.trace.writer import read_trace
from baton.warehouse.engine import Backend, RawResult
from tests.saas_warehouse import AS_OF, COUNTRIES, SaasFolder, build_saas_warehouse

HALF_LOADED = date(2026, 6, 17)
CHURN_BY_COUNTRY = ("How many subscriptions churned by country in Q2 2026?", "2026年第二季度各国家流失的订阅数")


@pytest.fixture(scope="module")
def saas(tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    return build_saas_warehouse(tmp_path_factory.mktemp("own_saas"))


@pytest.fixture(scope="module")
def session(saas: SaasFolder) -> Iterator[Session]:
    with Session(config=saas.config) as opened:  # no user named anywhere but in the policy
        yield opened


@pytest.fixture(scope="module")
def half_loaded(tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    return build_saas_warehouse(tmp_path_factory.mktemp("own_saas_half"), half_loaded=HALF_LOADED)


def _gold(folder: SaasFolder, sql: str, params: list[Any] | None = None) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(folder.warehouse), read_only=True)
    try:
        return con.execute(sql, params or []).fetchall()
    finally:
        con.close()


def _events(session: Session, answer: Answer) -> list[Any]:
    return read_trace(session.runs_dir / answer.run_id / "trace.jsonl")


# -- the fixture is what a new user has ----------------------------------------------------------


def test_the_fixture_is_a_small_warehouse_without_the_demos_furniture(saas: SaasFolder, session: Session) -> None:
    catalog = session.catalog
    assert catalog.load_log is None and catalog.calendar == () and catalog.currency is None
    assert catalog.currency_of("new_mrr") == "USD"
    assert catalog.dimensions["country"].index_members and catalog.dimensions["country"].members == {}
    assert "defaults" not in tomllib.loads(saas.config.read_text(encoding="utf-8"))
    assert session.policy.default_user not in {"analyst", ""}
    ((days, per_day, first, last),) = _gold(
        saas,
        "SELECT COUNT(DISTINCT start_date), COUNT(*) / COUNT(DISTINCT start_date), MIN(start_date), MAX(start_date) "
        "FROM subscriptions",
    )
    assert (first, last) == (date(2025, 1, 1), date(2026, 6, 30)) and days == 546
    assert 70 <= per_day <= 100  # low volume: counting noise is about a tenth of a day's rows
    ((open_ended, churned_later),) = _gold(
        saas,
        "SELECT COUNT(*) FILTER (WHERE end_date IS NULL AND status = 'active'), "
        "COUNT(*) FILTER (WHERE status = 'churned' AND end_date > start_date) FROM subscriptions",
    )
    assert open_ended > 1000 and churned_later > 1000


def test_the_fixture_is_deterministic(tmp_path: Path, saas: SaasFolder) -> None:
    again = build_saas_warehouse(tmp_path / "again")
    fingerprint = (
        "SELECT COUNT(*), SUM(mrr), SUM(hash(subscription_id, country, start_date, end_date)) FROM subscriptions"
    )
    assert _gold(again, fingerprint) == _gold(saas, fingerprint)


# -- (a) a metric is counted by its own time dimension -------------------------------------------


@pytest.mark.parametrize("question", CHURN_BY_COUNTRY)
def test_churn_is_counted_by_its_end_date(session: Session, saas: SaasFolder, question: str) -> None:
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    by = "SELECT country, COUNT(*) FROM subscriptions WHERE status = 'churned' AND {col} BETWEEN ? AND ? GROUP BY 1"
    quarter = [date(2026, 4, 1), date(2026, 6, 30)]
    by_end = dict(_gold(saas, by.format(col="end_date"), quarter))
    by_start = dict(_gold(saas, by.format(col="start_date"), quarter))
    assert by_end != by_start and sum(by_end.values()) > 2 * sum(by_start.values())  # the fixture tells them apart
    assert answer.result is not None
    assert {row[0]: row[1] for row in answer.result.rows} == by_end
    assert answer.sql is not None and "end_date" in answer.sql
    # the definition panel (口径) says what ran: the metric, its filter and the date it counts by
    (info,) = answer.metrics
    metric = session.catalog.metrics["churned_subscriptions"]
    assert (info.name, info.expression, info.filters) == ("churned_subscriptions", "COUNT(*)", ["status = 'churned'"])
    assert info.definition == metric.description.for_lang(answer.language)
    assert info.time_column == "end_date"
    assert "end_date" in render_markdown(answer, catalog=session.catalog)


def test_a_metric_on_the_tables_own_date_says_so(session: Session) -> None:
    answer = session.ask("new subscriptions by plan last month", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert [m.time_column for m in answer.metrics] == ["start_date"]


# -- (b) no load log: freshness is the newest value of the time column ---------------------------


def test_freshness_comes_from_the_time_column_without_a_load_log(session: Session, saas: SaasFolder) -> None:
    answer = session.ask("How many new subscriptions last month?", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    ((newest,),) = _gold(saas, "SELECT MAX(start_date) FROM subscriptions")
    assert answer.data_freshness is not None and newest.isoformat() in answer.data_freshness
    tools = [e.payload.get("tool") for e in _events(session, answer) if e.type == "tool_call"]
    assert "warehouse.freshness" in tools
    across = session.ask("How many new subscriptions from June 20 to July 10, 2026?", as_of=date(2026, 8, 1))
    assert across.status == "answered", across.error
    assert any(newest.isoformat() in a for a in across.assumptions)  # the range runs past the data, and it says so
    later = session.ask("How many new subscriptions in July 2026?", as_of=date(2026, 8, 1))
    assert later.status != "answered" and later.result is None  # not "0": there is no data for July yet
    assert later.error is not None and later.error.code == "invalid_time"
    assert newest.isoformat() in later.error.message


# -- (c) the policy's default user ----------------------------------------------------------------


def test_the_policys_default_user_acts_when_the_config_names_none(session: Session, saas: SaasFolder) -> None:
    assert load_settings(saas.config).user is None
    assert session.user == "finance"
    answer = session.ask("new subscriptions by country last month", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.user == "finance"
    assert answer.result is not None and answer.result.row_count == len(COUNTRIES)


def test_a_named_user_still_wins(session: Session, saas: SaasFolder, tmp_path: Path) -> None:
    limited = session.ask("new subscriptions by country last month", as_of=AS_OF, user="eu_lead")
    assert limited.status == "answered", limited.error
    assert limited.user == "eu_lead"
    assert limited.result is not None and {r[0] for r in limited.result.rows} == {"DE", "FR", "GB"}
    with Session(config=saas.config, user="eu_lead") as named:
        assert named.user == "eu_lead"
    # [defaults].user in baton.toml wins over the policy's default user
    for name in ("catalog.yaml", "policies.yaml"):
        shutil.copy(saas.folder / name, tmp_path / name)
    config = tmp_path / "baton.toml"
    url = f"duckdb:///{saas.warehouse.as_posix()}"
    config.write_text(
        saas.config.read_text(encoding="utf-8").replace('"duckdb://warehouse.duckdb"', json.dumps(url))
        + '\n[defaults]\nuser = "eu_lead"\n',
        encoding="utf-8",
    )
    with Session(config=config) as configured:
        assert configured.user == "eu_lead"
        answer = configured.ask("new subscriptions by country last month", as_of=AS_OF)
    assert answer.user == "eu_lead" and answer.result is not None and answer.result.row_count == 3


def test_the_cli_acts_as_the_policys_default_user(saas: SaasFolder) -> None:
    config = ["--config", str(saas.config), "--as-of", AS_OF.isoformat()]  # the data ends in June
    proc = subprocess.run(
        [sys.executable, "-m", "baton", "ask", "上个月各国家的新订阅数", "--json", *config],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "answered" and data["user"] == "finance"


# -- (d) no currency or calendar of another warehouse --------------------------------------------

FOREIGN = re.compile(r"¥|CNY|[\d万亿]\s?元|(?<![\w.])618(?![\w.])|双11|双十一")
"""The demo's currency and promotion calendar: a USD catalog without a calendar shows none of
them (元 as an amount's unit, not inside 美元 or 单元格; 618 as a number of its own, not
inside a chart coordinate or a script's constant)."""


def _foreign(text: str) -> list[str]:
    return [text[max(0, m.start() - 40) : m.end() + 40] for m in FOREIGN.finditer(text)]


@pytest.mark.parametrize(
    "question",
    [
        "new MRR by country last month",
        "上个月各国家的新增MRR",
        "daily new MRR last month",
        "上个月每天的新增MRR",
    ],
)
def test_a_usd_answer_shows_dollars_and_nothing_of_the_demo(session: Session, question: str) -> None:
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert "$" in answer.answer
    assert answer.chart is not None
    texts = {
        "answer": answer.model_dump_json(),
        "chart": json.dumps(answer.chart, ensure_ascii=False),
        "markdown": render_markdown(answer, catalog=session.catalog),
        "html": render_html(answer, catalog=session.catalog),
    }
    for where, text in texts.items():
        assert not _foreign(text), (where, _foreign(text))
    assert "$" in texts["markdown"] and "$" in texts["html"]


@pytest.mark.parametrize("question", ["Why did new MRR drop in June 2026?", "为什么2026年6月的新增MRR下降了？"])
def test_an_analysis_names_dollars_and_no_calendar(session: Session, question: str) -> None:
    answer = session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    words = answer.narrative()
    assert ("美元" if answer.language == "zh" else "USD") in words
    assert not [f for f in answer.findings if "peak" in f.finding_id or "calendar" in f.finding_id]
    for text in (answer.model_dump_json(), render_markdown(answer, catalog=session.catalog)):
        assert not _foreign(text), _foreign(text)
    page = re.sub(r"url\(data:[^)]*\)", "url()", render_html(answer, catalog=session.catalog))  # the font's bytes
    assert not _foreign(page)


# -- (e) low volume: no false incomplete day, a real one found ---------------------------------


@pytest.mark.parametrize("question", ["daily new subscriptions last month", "上个月每天的新订阅数"])
def test_a_low_volume_daily_series_flags_no_day(session: Session, question: str) -> None:
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None and answer.result.row_count == 30
    queries = [e for e in _events(session, answer) if e.type == "tool_call" and e.payload["tool"] == "warehouse.query"]
    assert len(queries) == 2  # the answer and its completeness check: the check ran, and found nothing
    assert answer.quality_flags == []


def test_a_half_loaded_day_is_flagged_in_a_daily_ask(half_loaded: SaasFolder) -> None:
    rows = dict(
        _gold(half_loaded, "SELECT start_date, COUNT(*) FROM subscriptions WHERE start_date BETWEEN ? AND ? GROUP BY 1",
              [date(2026, 6, 3), date(2026, 6, 24)])
    )  # fmt: skip
    weekday = [rows[date(2026, 6, d)] for d in (3, 10, 24)]  # the same weekday, loaded in full
    assert rows[HALF_LOADED] < 0.65 * min(weekday)
    with Session(config=half_loaded.config) as session:
        answer = session.ask("daily new subscriptions last month", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert [(f.issue, f.table, f.date) for f in answer.quality_flags] == [("incomplete", "subscriptions", HALF_LOADED)]
    assert answer.chart is not None and HALF_LOADED.isoformat() in json.dumps(answer.chart)


def test_analysis_flags_no_day_unless_one_is_half_loaded(session: Session, half_loaded: SaasFolder) -> None:
    question = "Why did new subscriptions drop in June 2026?"
    clean = session.analyze(question, as_of=AS_OF)
    assert clean.status == "answered", clean.error
    assert [f for f in clean.quality_flags if f.issue == "incomplete"] == []
    with Session(config=half_loaded.config) as faulty:
        flagged = faulty.analyze(question, as_of=AS_OF)
    assert flagged.status == "answered", flagged.error
    assert [(f.table, f.date) for f in flagged.quality_flags if f.issue == "incomplete"] == [
        ("subscriptions", HALF_LOADED)
    ]


# -- (f) a wrong column in the catalog is named -------------------------------------------------


def test_a_catalog_column_the_warehouse_lacks_is_named_at_question_time(saas: SaasFolder, tmp_path: Path) -> None:
    for name in ("baton.toml", "policies.yaml", "catalog.yaml"):
        shutil.copy(saas.folder / name, tmp_path / name)
    shutil.copy(saas.warehouse, tmp_path / "warehouse.duckdb")
    catalog = tmp_path / "catalog.yaml"
    written = catalog.read_text(encoding="utf-8")
    typo = written.replace("filters: [\"status = 'churned'\"]", "filters: [\"churn_status = 'churned'\"]")
    assert typo != written
    catalog.write_text(typo, encoding="utf-8")
    with Session(config=tmp_path / "baton.toml") as session:
        answers = [session.ask(q, as_of=AS_OF) for q in CHURN_BY_COUNTRY]
    for answer in answers:
        assert answer.status == "refused" and answer.error is not None
        assert answer.error.detail["column"] == "subscriptions.churn_status"
        assert "subscriptions.churn_status" in answer.answer and "'?'" not in answer.answer
        assert "Traceback" not in answer.answer
    assert "has no such column" in answers[0].answer and "没有这一列" in answers[1].answer


# -- (g) a column empty by design, and a metric dated by its own column ----------------------------


@pytest.fixture(scope="module")
def with_reason(saas: SaasFolder, tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    """The fixture with a churn reason, set on churned subscriptions only (empty on most rows)."""
    folder = tmp_path_factory.mktemp("own_saas_reason")
    for name in ("baton.toml", "policies.yaml", "catalog.yaml"):
        shutil.copy(saas.folder / name, folder / name)
    shutil.copy(saas.warehouse, folder / saas.warehouse.name)
    con = duckdb.connect(str(folder / saas.warehouse.name))
    con.execute("ALTER TABLE subscriptions ADD COLUMN churn_reason VARCHAR")
    con.execute(
        "UPDATE subscriptions SET churn_reason = CASE WHEN subscription_id % 2 = 0 THEN 'price' ELSE 'competitor' END "
        "WHERE status = 'churned'"
    )
    con.close()
    catalog = folder / "catalog.yaml"
    written = catalog.read_text(encoding="utf-8")
    reason = (
        "dimensions:\n  churn_reason:\n    label: {zh: 流失原因, en: churn reason}\n"
        "    columns: {subscriptions: churn_reason}\n"
        "    members:\n      price: {label: {zh: 价格, en: price}}\n      competitor: {label: {zh: 竞品, en: competitor}}\n"
    )
    catalog.write_text(written.replace("dimensions:\n", reason, 1), encoding="utf-8")
    return SaasFolder(folder)


def test_a_mostly_empty_column_is_a_caveat_the_output_gate_lets_through(with_reason: SaasFolder) -> None:
    ((rows, empty),) = _gold(
        with_reason,
        "SELECT COUNT(*), COUNT(*) - COUNT(churn_reason) FROM subscriptions "
        "WHERE start_date BETWEEN DATE '2026-05-01' AND DATE '2026-06-30'",
    )
    with Session(config=with_reason.config) as session:
        answer = session.analyze("Why did new MRR drop in June 2026?", as_of=AS_OF)
    assert answer.status == "answered", answer.error  # the share in the caveat is a number it computed
    (flag,) = [f for f in answer.quality_flags if f.issue == "nulls"]
    assert f"{empty} rows ({empty / rows * 100:.1f} %)" in flag.message


def test_an_analysis_of_a_metric_dated_by_its_own_column_checks_and_shows_those_rows(
    with_reason: SaasFolder,
) -> None:
    with Session(config=with_reason.config) as session:
        answer = session.analyze("Why did churned subscriptions change in June 2026?", as_of=AS_OF)
        assert answer.status == "answered", answer.error
        nulls = [
            e
            for e in _events(session, answer)
            if e.type == "policy_decision" and e.payload.get("query") == "quality:nulls:subscriptions"
        ]
        page = render_markdown(answer, catalog=session.catalog)
    assert nulls  # the check ran: on churned rows by end date (by start date, 9 in 10 have no reason)
    assert [f for f in answer.quality_flags if f.issue == "nulls"] == []
    definition = page.split("Definition and filters", 1)[1].split("\n## ", 1)[0]
    assert "end_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'" in definition
    assert "start_date" not in definition
    assert answer.answer.startswith("Churned subscriptions for June 2026")  # a sentence, capitalised
    assert "'June 2026' is read as 2026-06-01 to 2026-06-30." in page  # named dates, not read from as-of


# -- the member index ------------------------------------------------------------------------------


class CountingBackend:
    """The real DuckDB backend, counting the distinct-member reads that pass through it."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.engine = inner.engine
        self.member_reads = 0

    def execute(self, sql: str, *, timeout_s: float = 30.0, row_cap: int = 10_000) -> RawResult:
        if re.search(r"SELECT\s+DISTINCT\b.*\bAS\s+\"?member\b", sql, re.I | re.S):
            self.member_reads += 1
        return self.inner.execute(sql, timeout_s=timeout_s, row_cap=row_cap)

    def explain_cost(self, sql: str) -> float:
        return self.inner.explain_cost(sql)

    def connect(self) -> None:
        self.inner.connect()

    def schema(self) -> dict[str, dict[str, str]]:
        return self.inner.schema()

    def foreign_keys(self) -> list[ForeignKey]:
        return self.inner.foreign_keys()

    def close(self) -> None:
        self.inner.close()


class CountingSession(Session):
    """A session whose warehouse connection is the counting wrapper around the real one."""

    @cached_property
    def counting(self) -> CountingBackend:
        return CountingBackend(self.engine.open(self.settings))

    @cached_property
    def backend(self) -> Backend:
        return self.counting

    def __enter__(self) -> CountingSession:
        return self


@pytest.fixture
def own(tmp_path: Path, saas: SaasFolder) -> SaasFolder:
    """A private copy (the test writes to the warehouse and starts from an empty cache)."""
    for name in ("baton.toml", "policies.yaml", "catalog.yaml", "warehouse.duckdb"):
        shutil.copy(saas.folder / name, tmp_path / name)
    return SaasFolder(tmp_path)


def _cache_files(folder: SaasFolder) -> list[Path]:
    return sorted((folder.folder / "runs" / "member_index").glob("*.json"))


def _index_event(session: Session, answer: Answer) -> dict[str, Any]:
    (event,) = [
        e for e in _events(session, answer) if e.payload.get("tool") == "catalog.member_index" and e.type == "tool_call"
    ]
    return dict(event.payload)


@pytest.mark.parametrize("question", ["How many new subscriptions in DE last month?", "上个月DE的新订阅数是多少？"])
def test_a_member_listed_only_in_the_data_is_understood(own: SaasFolder, question: str) -> None:
    with CountingSession(config=own.config) as session:
        answer = session.ask(question, as_of=AS_OF)
        assert session.catalog.dimensions["country"].members == {}  # the loaded catalog is left as it is
        assert set(session.planning_catalog.dimensions["country"].members) == set(COUNTRIES)
        reads = session.counting.member_reads
        event = _index_event(session, answer)
    assert answer.status == "answered", answer.error
    assert answer.semantic_query is not None
    assert [(f.dimension, f.members, f.exclude) for f in answer.semantic_query.filters] == [("country", ("DE",), False)]
    ((gold,),) = _gold(
        own,
        "SELECT COUNT(*) FROM subscriptions WHERE country = 'DE' AND start_date BETWEEN '2026-06-01' AND '2026-06-30'",
    )
    assert answer.result is not None and answer.result.rows == [[gold]]
    assert answer.sql is not None and "IN ('DE')" in answer.sql
    assert reads == 1
    assert event["ok"] is True
    assert event["dimensions"]["country"] == {
        "table": "subscriptions", "members": len(COUNTRIES), "complete": True, "cached": False, "dropped": 0,
    }  # fmt: skip


def test_the_index_is_cached_per_data_version_and_read_again_after_a_load(own: SaasFolder) -> None:
    question = "How many new subscriptions in DE last month?"
    with CountingSession(config=own.config) as first:
        assert first.ask(question, as_of=AS_OF).status == "answered"
        assert first.counting.member_reads == 1
    (cache,) = _cache_files(own)
    data = json.loads(cache.read_text(encoding="utf-8"))
    assert data["catalog"] == "acme-subscriptions" and data["dimension"] == "country"
    assert data["members"] == sorted(COUNTRIES) and "2026-06-30" in data["version"]

    with CountingSession(config=own.config) as second:  # same data: the file, not the warehouse
        answer = second.ask(question, as_of=AS_OF)
        assert answer.status == "answered", answer.error
        assert second.counting.member_reads == 0
        assert _index_event(second, answer)["dimensions"]["country"]["cached"] is True
    assert _cache_files(own) == [cache]

    # a new load: a country never seen before, with a quote in its name
    con = duckdb.connect(str(own.warehouse))
    try:
        con.execute(
            "INSERT INTO subscriptions VALUES (999001, 999001, 'Côte d''Ivoire', 'team', 'active', DATE '2026-07-01', NULL, 99.00)"
        )
        con.execute(
            "INSERT INTO subscriptions VALUES (999002, 999002, 'Côte d''Ivoire', 'starter', 'active', DATE '2026-07-02', NULL, 29.00)"
        )
    finally:
        con.close()
    with CountingSession(config=own.config) as third:
        answer = third.ask("How many new subscriptions in Côte d'Ivoire in July 2026?", as_of=date(2026, 7, 3))
        assert third.counting.member_reads == 1
    assert answer.status == "answered", answer.error
    assert answer.result is not None and answer.result.rows == [[2]]
    assert answer.sql is not None and "'Côte d''Ivoire'" in answer.sql  # a literal, quoted by the compiler
    (fresh,) = _cache_files(own)
    assert fresh != cache and "Côte d'Ivoire" in json.loads(fresh.read_text(encoding="utf-8"))["members"]


def test_a_dimension_with_too_many_values_indexes_none(own: SaasFolder, tmp_path: Path) -> None:
    settings = load_settings(own.config)
    with Session(settings) as session:
        backend, catalog = session.backend, session.catalog
        (exact,) = read_member_index(catalog, backend, tmp_path / "a", limit=len(COUNTRIES))
        (over,) = read_member_index(catalog, backend, tmp_path / "b", limit=len(COUNTRIES) - 1)
    assert exact.complete and exact.members == tuple(sorted(COUNTRIES))
    assert not over.complete and over.members == ()


def test_indexed_members_never_take_a_word_the_questions_need(session: Session) -> None:
    catalog = with_members(
        session.catalog,
        {"country": ["DE", "US", "IN", "MAY", "other", "May", "team", "new subscriptions", "Unknown"]},
        reserved=reserved_words(),
    )
    # kept: codes (capital ones are read only when written in capitals) and a new word; not
    # kept: a function, operator or time word, another dimension's member, a metric's name
    assert set(catalog.dimensions["country"].members) == {"DE", "US", "IN", "MAY", "Unknown"}
    planner = Planner(catalog)

    def filters(question: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(f.dimension, f.members) for f in planner.plan(question, as_of=AS_OF).filters]

    assert filters("new subscriptions in IN last month") == [("country", ("IN",))]
    assert filters("new subscriptions in US last month") == [("country", ("US",))]
    assert filters("show us new subscriptions last month") == []
    assert filters("new subscriptions in May 2026") == []
    assert filters("new subscriptions for team last month") == [("plan", ("team",))]


@pytest.mark.parametrize(
    ("question", "read"),
    [
        ("new subscriptions in US last month", [("country", ("us",))]),  # the code, as written
        ("US new subscriptions last month", [("country", ("us",))]),
        ("show us new subscriptions last month", []),  # the pronoun
        ("tell me new subscriptions last month", []),
        ("new subscriptions last month for us", None),  # either: asked, never dropped
        ("new subscriptions last month in the us", None),
        ("did us have more new subscriptions than de last month?", None),
    ],
)
def test_a_code_in_lower_case_in_the_data_is_read_in_capitals_and_asked_about_otherwise(
    session: Session, question: str, read: list[tuple[str, tuple[str, ...]]] | None
) -> None:
    """A lower-case code in the data ("us", a word too) is kept, labelled "US": read when written
    so, a pronoun after a verb, and asked about where the pronoun cannot stand."""
    catalog = with_members(session.catalog, {"country": ["us", "de", "other"]}, reserved=reserved_words())
    assert {m: catalog.dimensions["country"].members[m].label.en for m in ("us", "de")} == {"us": "US", "de": "de"}
    assert "other" not in catalog.dimensions["country"].members
    planner = Planner(catalog)
    if read is None:
        with pytest.raises(AmbiguousQuestion) as asked:
            planner.plan(question, as_of=AS_OF)
        assert "'us'" in asked.value.message_en and "US" in asked.value.message_zh
    else:
        assert [(f.dimension, f.members) for f in planner.plan(question, as_of=AS_OF).filters] == read


def test_the_index_lives_in_the_runs_folder_and_never_in_the_catalog_file(own: SaasFolder) -> None:
    before = (own.folder / "catalog.yaml").read_bytes()
    with Session(config=own.config) as session:
        assert session.ask("How many new subscriptions in DE last month?", as_of=AS_OF).status == "answered"
    assert (own.folder / "catalog.yaml").read_bytes() == before
    assert yaml.safe_load(before)["dimensions"]["country"].get("members") is None
    (cache,) = _cache_files(own)
    assert cache.name.startswith("acme-subscriptions.country.")


def test_a_low_volume_count_is_tested_over_every_day_its_quiet_days_as_zeros(saas: SaasFolder) -> None:
    """MX churns on about 22 days of June: the daily test's sample is every kept day, a day
    without a churn a zero (it used only the days with rows: a mean of 2 instead of 1.5)."""
    from scipy import stats as sps

    daily = """SELECT d.day, COUNT(s.end_date) FROM (SELECT CAST(g AS DATE) AS day FROM generate_series(DATE '{0}',
        DATE '{1}', INTERVAL 1 DAY) AS t(g)) AS d LEFT JOIN subscriptions AS s ON s.end_date = d.day
        AND s.status = 'churned' AND s.country = 'MX' GROUP BY 1 ORDER BY 1"""
    june = [float(n) for _, n in _gold(saas, daily.format("2026-06-01", "2026-06-30"))]
    may = [float(n) for _, n in _gold(saas, daily.format("2026-05-01", "2026-05-31"))]
    assert 0.0 in june and len(june) == 30 and len(may) == 31  # quiet days exist, and are counted
    with Session(config=saas.config) as session:
        answer = session.analyze("Why did churned subscriptions in MX change in June 2026?", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    headline = answer.tests[0]
    assert headline.n == 61
    expected = sps.ttest_ind(june, may, equal_var=False).pvalue
    assert float(headline.p_value or 0) == pytest.approx(float(expected), rel=1e-9)


# -- rows of no member ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def countries_missing(tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    """The SaaS warehouse with the country of every Mexican subscription emptied (NULL): fewer rows
    than any named country, so an empty key ranked as a member would be the bottom one; Mexico is
    then a country of accounts only. No business subscription churned in June 2026, and no Dutch one ever."""
    folder = build_saas_warehouse(tmp_path_factory.mktemp("own_saas_no_country"))
    con = duckdb.connect(str(folder.warehouse))
    try:
        con.execute("UPDATE subscriptions SET country = NULL WHERE country = 'MX'")
        con.execute(
            "UPDATE subscriptions SET status = 'upgraded' WHERE plan = 'business' AND status = 'churned' "
            "AND end_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'"
        )
        con.execute("UPDATE subscriptions SET status = 'upgraded' WHERE country = 'NL' AND status = 'churned'")
    finally:
        con.close()
    return folder


@pytest.mark.parametrize(
    "question", ["Which country had the fewest new subscriptions in Q2 2026?", "2026年第二季度新订阅最少的国家"]
)
def test_a_ranking_by_a_dimension_never_ranks_rows_of_no_member_and_says_so(
    countries_missing: SaasFolder, question: str
) -> None:
    gold = _gold(
        countries_missing,
        "SELECT country, COUNT(*) FROM subscriptions WHERE start_date BETWEEN DATE '2026-04-01' AND DATE '2026-06-30' "
        "GROUP BY country ORDER BY 2",
    )
    empty = next(n for c, n in gold if c is None)
    named = [(c, n) for c, n in gold if c is not None]
    assert gold[0][0] is None  # the empty key is the smallest group: ranked as a member it would win
    with Session(config=countries_missing.config) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert [tuple(row) for row in answer.result.rows] == [named[0]]
    assert any(f"{empty:,}" in a and ("country" in a or "国家" in a) for a in answer.assumptions), answer.assumptions
    assert "None" not in answer.answer


def test_a_breakdown_shows_rows_of_no_member_as_empty_and_names_no_end_by_them(countries_missing: SaasFolder) -> None:
    with Session(config=countries_missing.config) as session:
        answer = session.ask("new subscriptions by country in Q2 2026", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    assert any(row[0] is None for row in answer.result.rows)  # the table keeps the rows as they are
    assert "None" not in answer.answer  # no lowest "country" of no country — and the sentence says it left it out
    assert "highest (empty)" not in answer.answer and "lowest (empty)" not in answer.answer
    empty = next(int(row[1]) for row in answer.result.rows if row[0] is None)
    assert (
        f"The (empty) rows, which have no country ({empty:,}), are not named as the highest or lowest." in answer.answer
    )


def test_metrics_of_two_tables_side_by_side_keep_every_key_once(countries_missing: SaasFolder) -> None:
    """Subscriptions and accounts by country: Mexico is a country of accounts only (a row, no
    subscriptions), the empty country one row of both — never two half rows."""
    q2 = "BETWEEN DATE '2026-04-01' AND DATE '2026-06-30'"
    gold = _gold(
        countries_missing,
        f"WITH s AS (SELECT country, COUNT(*) AS n FROM subscriptions WHERE start_date {q2} GROUP BY 1), "
        f"a AS (SELECT country, COUNT(*) AS n FROM accounts WHERE signup_date {q2} GROUP BY 1), "
        "k AS (SELECT country FROM s UNION SELECT country FROM a) "
        "SELECT k.country, COALESCE(s.n, 0), COALESCE(a.n, 0) FROM k LEFT JOIN s ON k.country IS NOT DISTINCT FROM "
        "s.country LEFT JOIN a ON k.country IS NOT DISTINCT FROM a.country",
    )
    assert ("MX", 0) in [(c, s) for c, s, _ in gold] and sum(c is None for c, _, _ in gold) == 1
    with Session(config=countries_missing.config) as session:
        answer = session.ask("new subscriptions and new accounts by country in Q2 2026", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    got = [(r[0], int(r[1]), int(r[2])) for r in answer.result.rows]
    assert sorted(got, key=str) == sorted(((c, int(s), int(a)) for c, s, a in gold), key=str)


def test_a_group_without_the_events_a_metric_is_dated_by_is_a_zero(countries_missing: SaasFolder) -> None:
    """Churn is dated by the end date: business subscriptions exist in June 2026 but none churned,
    so business is the plan with the fewest churned subscriptions (0), never missing from the ranking."""
    gold = _gold(
        countries_missing,
        "SELECT plan, COUNT(*) FILTER (WHERE status = 'churned' AND end_date BETWEEN DATE '2026-06-01' "
        "AND DATE '2026-06-30') FROM subscriptions WHERE start_date <= DATE '2026-06-30' GROUP BY 1 ORDER BY 2",
    )
    assert gold[0] == ("business", 0)
    with Session(config=countries_missing.config) as session:
        answer = session.ask("Which plan had the fewest churned subscriptions in June 2026?", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert [tuple(r) for r in answer.result.rows] == [("business", 0)]


@pytest.fixture(scope="module")
def few_churned(tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    """Churn at low volume: in May 2026 eight US, two German and three French subscriptions churned;
    in June eight US and thirteen German ones — Germany alone carries the rise, on a few days each,
    and France fell to none. Accounts start on 2025-07-01 only (a table that starts later)."""
    folder = build_saas_warehouse(tmp_path_factory.mktemp("own_saas_few_churned"))
    con = duckdb.connect(str(folder.warehouse))
    try:
        con.execute("UPDATE subscriptions SET status = 'upgraded' WHERE end_date >= DATE '2026-04-01'")
        con.execute("DELETE FROM accounts WHERE signup_date < DATE '2025-07-01'")
        for month, country, n in (("05", "US", 8), ("05", "DE", 2), ("05", "FR", 3), ("06", "US", 8), ("06", "DE", 13)):
            con.execute(
                "UPDATE subscriptions SET status = 'churned' WHERE subscription_id IN (SELECT subscription_id FROM "
                f"subscriptions WHERE country = '{country}' AND strftime(end_date, '%m') = '{month}' "
                f"AND end_date >= DATE '2026-05-01' ORDER BY subscription_id LIMIT {n})"
            )
    finally:
        con.close()
    return folder


def test_a_member_too_sparse_to_test_against_the_rest_is_never_called_spread_in_proportion(
    few_churned: SaasFolder,
) -> None:
    gold = _gold(
        few_churned,
        "SELECT country, strftime(end_date, '%m'), COUNT(*) FROM subscriptions WHERE status = 'churned' "
        "AND end_date BETWEEN DATE '2026-05-01' AND DATE '2026-06-30' GROUP BY 1, 2 ORDER BY 1, 2",
    )
    assert gold == [("DE", "05", 2), ("DE", "06", 13), ("FR", "05", 3), ("US", "05", 8), ("US", "06", 8)]
    with Session(config=few_churned.config) as session:
        answer = session.analyze("Why did churned subscriptions rise in June 2026?", as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert "in proportion to their size" not in answer.answer
    assert "DE" in answer.answer or "Germany" in answer.answer, answer.answer


@pytest.mark.parametrize(
    "question",
    ["Which country had the lowest share of new subscriptions in Q2 2026?", "2026年第二季度新订阅占比最低的国家"],
)
def test_a_share_ranking_ranks_members_of_the_whole_of_every_row(countries_missing: SaasFolder, question: str) -> None:
    """The empty country is part of the whole (every subscription), never a country ranked by its share."""
    gold = _gold(
        countries_missing,
        "SELECT country, COUNT(*) * 1.0 / SUM(COUNT(*)) OVER () FROM subscriptions "
        "WHERE start_date BETWEEN DATE '2026-04-01' AND DATE '2026-06-30' GROUP BY country ORDER BY 2",
    )
    assert gold[0][0] is None  # ranked as a member, the empty key would be the answer
    named = [(c, s) for c, s in gold if c is not None]
    with Session(config=countries_missing.config) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    (row,) = answer.result.rows
    assert row[names.index("country")] == named[0][0]
    assert abs(float(row[names.index("new_subscriptions_share")]) - float(named[0][1])) < 1e-12


def _smallest_named_country(folder: SaasFolder) -> str:
    gold = _gold(
        folder,
        "SELECT country, COUNT(*) FROM subscriptions WHERE start_date BETWEEN DATE '2026-04-01' AND DATE '2026-06-30' "
        "GROUP BY country ORDER BY 2",
    )
    assert gold[0][0] is None  # the empty key is the smallest group
    return str(gold[1][0])


def test_a_members_place_asked_is_among_members(countries_missing: SaasFolder) -> None:
    """ "Is X the country with the fewest…": yes when X is the lowest country; the rows of no
    country are no country, so never "No: (empty) has the lowest"."""
    smallest = _smallest_named_country(countries_missing)
    with Session(config=countries_missing.config) as session:
        answer = session.ask(f"Is {smallest} the country with the fewest new subscriptions in Q2 2026?", as_of=AS_OF)
    assert answer.status == "answered" and answer.answer.startswith("Yes"), answer.answer


def test_a_check_of_every_group_that_moved_counts_members_only(countries_missing: SaasFolder) -> None:
    """ "Did new subscriptions rise in every country": the verdict and the count are of countries."""
    gold = _gold(
        countries_missing,
        "SELECT country, COUNT(*) FILTER (WHERE start_date >= DATE '2026-04-01'), COUNT(*) FILTER (WHERE start_date < "
        "DATE '2026-04-01') FROM subscriptions WHERE start_date BETWEEN DATE '2026-01-01' AND DATE '2026-06-30' "
        "AND country IS NOT NULL GROUP BY country",
    )
    rose = sum(now > before for _, now, before in gold)
    with Session(config=countries_missing.config) as session:
        answer = session.ask("Which countries had more new subscriptions in Q2 2026 than in Q1 2026?", as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert f"{rose} countr" in answer.answer and f"of the {len(gold)} countries" in answer.answer, answer.answer


def test_a_group_without_rows_in_one_period_is_a_zero_there(countries_missing: SaasFolder) -> None:
    """No business subscription churned in June 2026: against May it fell by all of it, never "n/a"."""
    before = _gold(
        countries_missing,
        "SELECT COUNT(*) FROM subscriptions WHERE plan = 'business' AND status = 'churned' "
        "AND end_date BETWEEN DATE '2026-05-01' AND DATE '2026-05-31'",
    )[0][0]
    assert before > 0
    with Session(config=countries_missing.config) as session:
        answer = session.ask("churned subscriptions by plan in June 2026 vs May 2026", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    row = next(r for r in answer.result.rows if r[names.index("plan")] == "business")
    assert (row[names.index("churned_subscriptions")], row[names.index("churned_subscriptions_previous")]) == (
        0,
        before,
    )
    assert float(row[names.index("churned_subscriptions_change_pct")]) == -1.0


def test_a_member_spelled_like_an_english_word_is_read_against_chinese(session: Session) -> None:
    """ "us" beside Chinese is the country US (in English "show us" is no member): never dropped."""
    answer = session.ask("2026年6月us的新订阅数", as_of=AS_OF)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    assert [(f.dimension, f.members) for f in answer.semantic_query.filters] == [("country", ("US",))]


def test_an_average_per_day_of_a_group_without_rows_in_one_period_is_a_zero(few_churned: SaasFolder) -> None:
    """France churned 3 in May 2026 and none in June: 0 a day in June (−100%), never "n/a"."""
    with Session(config=few_churned.config) as session:
        answer = session.ask("average daily churned subscriptions by country in June 2026 vs May 2026", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    row = next(r for r in answer.result.rows if r[names.index("country")] == "FR")
    current = names.index("churned_subscriptions_per_day")
    assert row[current] == 0 and abs(float(row[current + 1]) - 3 / 31) < 1e-9


def test_a_series_of_two_tables_is_zero_inside_each_tables_span_and_empty_before(few_churned: SaasFolder) -> None:
    """Churn is 0 on the June days without cancellations (the table has rows around them); accounts,
    which start in July 2025, have no value (never 0) in the months before."""
    with Session(config=few_churned.config) as session:
        daily = session.ask("churned subscriptions and new accounts per day in June 2026", as_of=AS_OF)
        monthly = session.ask("new subscriptions and new accounts per month in 2025", as_of=AS_OF)
    assert daily.status == "answered" and daily.result is not None, daily.answer
    churned = [row[1] for row in daily.result.rows]
    quiet = _gold(
        few_churned,
        "SELECT COUNT(*) FROM (SELECT DISTINCT end_date FROM subscriptions WHERE status = 'churned' "
        "AND end_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30')",
    )[0][0]
    assert len(churned) == 30 and churned.count(0) == 30 - quiet and None not in churned
    assert monthly.status == "answered" and monthly.result is not None, monthly.answer
    accounts = {str(row[0])[:7]: row[2] for row in monthly.result.rows}
    assert all(accounts[f"2025-0{m}"] is None for m in range(1, 7)) and all(
        accounts[f"2025-{m:02d}"] for m in range(7, 13)
    )


def test_a_group_that_never_had_the_event_is_a_zero_of_it(countries_missing: SaasFolder) -> None:
    """No Dutch subscription ever churned: NL is a country of the subscriptions held by June's end, so
    it is the country with the fewest churned subscriptions in June 2026 (0), never missing."""
    gold = _gold(
        countries_missing,
        "SELECT country, COUNT(*) FILTER (WHERE status = 'churned' AND end_date BETWEEN DATE '2026-06-01' "
        "AND DATE '2026-06-30') AS n FROM subscriptions WHERE start_date <= DATE '2026-06-30' "
        "AND country IS NOT NULL GROUP BY 1 ORDER BY 2, 1",
    )
    lowest = [c for c, n in gold if n == gold[0][1]]
    assert "NL" in lowest and gold[0][1] == 0
    with Session(config=countries_missing.config) as session:
        answer = session.ask("Which country had the fewest churned subscriptions in June 2026?", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    assert sorted(row[0] for row in answer.result.rows) == sorted(lowest)


@pytest.fixture(scope="module")
def with_status(saas: SaasFolder, tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    """The fixture with the subscription status as a dimension of both counts: churned
    subscriptions keep the status ``churned`` only (their own filter), new subscriptions every one."""
    folder = tmp_path_factory.mktemp("own_saas_status")
    for name in ("baton.toml", "policies.yaml", "catalog.yaml"):
        shutil.copy(saas.folder / name, folder / name)
    shutil.copy(saas.warehouse, folder / saas.warehouse.name)
    catalog = folder / "catalog.yaml"
    written = catalog.read_text(encoding="utf-8")
    status = (
        "dimensions:\n  status:\n    label: {zh: 状态, en: status}\n    synonyms: [状态, status]\n"
        "    columns: {subscriptions: status}\n    members:\n"
        "      active: {label: {zh: 活跃, en: active}}\n      churned: {label: {zh: 已流失, en: churned}}\n"
        "      upgraded: {label: {zh: 已升级, en: upgraded}}\n"
    )
    written = written.replace("dimensions:\n", status, 1).replace(
        "dimensions: [country, plan]", "dimensions: [country, plan, status]"
    )
    ratio = (  # a ratio whose numerator keeps churned only: fixed where its numerator is
        "  churn_ratio:\n    label: {zh: 流失比, en: churn ratio}\n    synonyms: [流失比, churn ratio]\n"
        "    numerator: churned_subscriptions\n    denominator: new_subscriptions\n"
        "    description: {zh: 流失订阅数 ÷ 新订阅数。, en: Churned over new subscriptions.}\n"
        "    dimensions: [country, plan, status]\n    unit: ratio\n    better: lower\n    owner: Growth\n"
    )
    catalog.write_text(written.replace("metrics:\n", "metrics:\n" + ratio, 1), encoding="utf-8")
    return SaasFolder(folder)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("churned subscriptions by status in Q2 2026", "by status it has one group"),
        ("2026年第二季度各状态的流失订阅数", "按状态拆分只有一组"),
        ("churned subscriptions that are upgraded in Q2 2026", "for upgraded it is empty by definition"),
        ("2026年第二季度已升级的流失订阅数", "已升级 按定义为空"),
        ("churned subscriptions excluding churned in Q2 2026", "without churned nothing is left"),
        ("what share of churned subscriptions were churned in Q2 2026", "100 % by definition"),
        ("churn ratio of upgraded subscriptions in Q2 2026", "for upgraded it is empty by definition"),
        ("churn ratio by status in Q2 2026", "by status it has one group"),
    ],
)
def test_a_filter_or_breakdown_against_a_metrics_own_filter_is_asked_back(
    with_status: SaasFolder, question: str, said: str
) -> None:
    """``churned_subscriptions`` keeps status churned only: another status of it is empty by
    definition and a breakdown by status one group. Once answered "n/a" or zeros for the other
    statuses; now asked back, naming the metric of the same table that holds every status."""
    with Session(config=with_status.config) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed", answer.answer
    assert said in answer.answer and answer.error is not None
    assert answer.error.detail["suggestions"] == ["new_subscriptions", "new_mrr"]


def test_a_filter_inside_a_metrics_own_filter_is_answered(with_status: SaasFolder) -> None:
    with Session(config=with_status.config) as session:
        kept = session.ask("churned subscriptions excluding active in Q2 2026", as_of=AS_OF)
        each = session.ask("new subscriptions by status in Q2 2026", as_of=AS_OF)
        # beside a metric of every status, a fixed one's single group is a fair answer
        beside = session.ask("new subscriptions and churned subscriptions by status in Q2 2026", as_of=AS_OF)
    assert beside.status == "answered", beside.answer
    ((churned,),) = _gold(
        with_status,
        "SELECT COUNT(*) FROM subscriptions WHERE status = 'churned' AND end_date BETWEEN DATE '2026-04-01' AND DATE '2026-06-30'",
    )
    assert kept.status == "answered" and kept.result is not None, kept.answer
    assert kept.result.rows[0][-1] == churned
    by_status = _gold(
        with_status,
        "SELECT status, COUNT(*) FROM subscriptions WHERE start_date BETWEEN DATE '2026-04-01' AND DATE '2026-06-30' "
        "GROUP BY status",
    )
    assert each.status == "answered" and each.result is not None, each.answer
    assert sorted(map(tuple, each.result.rows)) == sorted(by_status)


def test_a_query_filter_outside_a_metrics_definition_is_refused(with_status: SaasFolder) -> None:
    """`baton query --metrics churned_subscriptions --where "status = 'active'"` is empty by the
    metric's own definition: refused naming it, never answered n/a; a filter it keeps is answered."""
    with Session(config=with_status.config) as opened:
        outside = opened.query("churned_subscriptions", where="{{ Dimension('status') }} = 'active'", as_of=AS_OF)
        assert outside.status == "refused" and outside.error is not None
        assert outside.error.code == "invalid_input" and outside.error.detail["reason"] == "outside_definition"
        assert "whose status is churned" in outside.error.message
        kept = opened.query("churned_subscriptions", where="{{ Dimension('status') }} = 'churned'", as_of=AS_OF)
        whole = opened.query("churned_subscriptions", as_of=AS_OF)
        assert kept.status == whole.status == "answered"
        assert kept.result is not None and whole.result is not None and kept.result.rows == whole.result.rows


# -- a ranking by the change in percent ---------------------------------------------------------


@pytest.fixture(scope="module")
def new_in_june(tmp_path_factory: pytest.TempPathFactory) -> SaasFolder:
    """The SaaS warehouse with no German subscription churned in May 2026: in June Germany's churn
    grew from nothing, a rise no percent measures."""
    folder = build_saas_warehouse(tmp_path_factory.mktemp("own_saas_new_in_june"))
    con = duckdb.connect(str(folder.warehouse))
    try:
        con.execute(
            "UPDATE subscriptions SET status = 'upgraded' WHERE country = 'DE' AND status = 'churned' "
            "AND end_date BETWEEN DATE '2026-05-01' AND DATE '2026-05-31'"
        )
    finally:
        con.close()
    return folder


@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "Which 3 countries' churned subscriptions grew the most in percent in June 2026 compared with May?",
            "Not ranked by the change in percent, having an earlier value not above zero (so no percent): DE.",
        ),
        (
            "2026年6月流失订阅数环比增长百分比最高的3个国家",
            "DE 上期数值不大于零，没有百分比变化，未参与按变化百分比的排名。",
        ),
    ],
)
def test_a_ranking_by_percent_names_the_groups_it_cannot_place(
    new_in_june: SaasFolder, question: str, said: str
) -> None:
    churn = "SELECT country, COUNT(*) FILTER (WHERE end_date BETWEEN DATE '2026-{0}-01' AND DATE '2026-{0}-{1}') FROM subscriptions WHERE status = 'churned' GROUP BY 1"
    june, may = dict(_gold(new_in_june, churn.format("06", "30"))), dict(_gold(new_in_june, churn.format("05", "31")))
    assert may["DE"] == 0 < june["DE"]  # the largest rise of all, in no percent
    growth = sorted((((june[c] - may[c]) / may[c], c) for c in june if may.get(c)), reverse=True)[:3]
    with Session(config=new_in_june.config) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None
    assert [row[0] for row in answer.result.rows] == [c for _, c in growth]
    assert said in answer.assumptions, answer.assumptions
