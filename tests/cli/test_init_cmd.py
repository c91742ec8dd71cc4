"""`baton init` end to end: the real console script on the shipped demo warehouse (DuckDB and
PostgreSQL), its files loaded by Baton's own loaders and checked against the warehouse, the
draft answering row-count questions with the numbers plain SQL gives, and every refusal
(existing files, bad URLs, an unreachable server, a dbt project that does not fit) leaving
nothing behind."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import psycopg
import pytest
import yaml

from baton.catalog.check import check_catalog
from baton.catalog.loader import load_catalog, load_yaml_with_lines
from baton.catalog.model import Catalog
from baton.config import load_settings
from baton.errors import ConfigError, exit_code
from baton.orchestrator.session import Session
from baton.policy.model import load_policy
from baton.warehouse.engine import engine_named

BATON = [sys.executable, "-m", "baton"]
AS_OF = date(2026, 7, 1)
FILES = ("baton.toml", "catalog.yaml", "policies.yaml")


def baton(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BATON_CONFIG"}
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=300, env=env, cwd=cwd, check=False)


def absolute(path: Path) -> str:
    """A DuckDB URL naming ``path`` absolutely (four slashes)."""
    return f"duckdb:///{path.resolve().as_posix()}"


def small_warehouse(path: Path) -> Path:
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE orders AS SELECT i AS order_id, DATE '2026-01-01' + CAST(i % 181 AS INTEGER) AS ordered_at, "
        "['placed', 'shipped'][1 + i % 2] AS status, (i % 97) * 1.5 AS amount FROM range(1, 2000) t(i)"
    )
    con.close()
    return path


def month_rows(sql_count: Any, table: str, column: str) -> int:
    """Rows of ``table`` in June 2026 by plain SQL (``sql_count`` runs one statement)."""
    return int(
        sql_count(f"SELECT COUNT(*) FROM {table} WHERE CAST({column} AS DATE) BETWEEN '2026-06-01' AND '2026-06-30'")
    )


@pytest.fixture(scope="module")
def initialized(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("init") / "shop"
    proc = baton(
        ["init", "--warehouse", absolute(demo_dir / "warehouse.duckdb"), "--path", str(folder), "--as-of", "2026-07-01"]
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for name in FILES:
        assert f"wrote {folder.resolve() / name}" in proc.stdout
    assert "baton catalog check" in proc.stdout and "baton ask" in proc.stdout
    return folder


@pytest.fixture(scope="module")
def catalog(initialized: Path) -> Catalog:
    return load_catalog(initialized / "catalog.yaml")


def test_the_files_load_and_the_catalog_fits_the_warehouse(initialized: Path, catalog: Catalog, demo_dir: Path) -> None:
    settings = load_settings(initialized / "baton.toml")
    assert settings.duckdb_path() == (demo_dir / "warehouse.duckdb").resolve()
    assert (settings.as_of, settings.user) == (AS_OF, "analyst")
    assert settings.catalog_path == initialized / "catalog.yaml" and settings.runs_dir == initialized / "runs"
    policy = load_policy(initialized / "policies.yaml")
    assert policy.default_user == "analyst"
    principal = policy.principal("analyst")
    assert (
        set(catalog.tables)
        == set(principal.tables)
        == {
            "dim_product",
            "dim_user",
            "fact_order",
            "fact_traffic",
            "meta_table_load",
        }
    )
    backend = engine_named("duckdb").open(settings)
    try:
        assert check_catalog(catalog, backend, members=True) == []
    finally:
        backend.close()


def test_no_calendar_currency_or_load_log(initialized: Path, catalog: Catalog) -> None:
    data = yaml.safe_load((initialized / "catalog.yaml").read_text(encoding="utf-8"))
    assert not {"calendar", "currency", "load_log"} & set(data)
    assert not any("currency" in m for m in data["metrics"].values())
    assert catalog.load_log is None and catalog.calendar == () and catalog.currency is None
    assert all(info.freshness in ("max_time", None) for info in catalog.tables.values())
    assert catalog.metrics["gmv_amount_sum"].unit == "currency" and catalog.currency_of("gmv_amount_sum") is None


def test_every_guess_is_marked_draft_in_a_comment(initialized: Path, catalog: Catalog) -> None:
    path = initialized / "catalog.yaml"
    text = path.read_text(encoding="utf-8").splitlines()
    _, lines = load_yaml_with_lines(path)
    header = "\n".join(line for line in text if line.startswith("# "))
    assert "DRAFT" in text[0] and "baton catalog check" in header and "docs/reference.md" in header
    for section in ("tables", "dimensions", "metrics"):
        for name in getattr(catalog, section):
            index = lines[(section, name)] - 1  # the loader's line is the value's: walk up to the key
            while not text[index].lstrip().startswith(f"{name}:"):
                index -= 1
            above = text[index - 1]
            assert above.lstrip().startswith("#") and "draft" in above, (section, name, above)
    policies = (initialized / "policies.yaml").read_text(encoding="utf-8")
    assert "DRAFT" in policies and "docs/reference.md" in policies
    assert "docs/reference.md" in (initialized / "baton.toml").read_text(encoding="utf-8")


def test_personal_data_is_masked_and_never_a_dimension(initialized: Path, catalog: Catalog) -> None:
    policy = load_policy(initialized / "policies.yaml")
    masks = {column: spec.mask for column, spec in policy.pii_columns.items()}
    assert masks == {"dim_user.name": "full", "dim_user.phone": "phone", "dim_user.email": "email"}
    assert policy.roles["reader"].pii == "mask"
    read = {f"{t}.{c}" for dim in catalog.dimensions.values() for t, c in dim.columns.items()}
    assert not read & set(masks)
    assert not {"name", "phone", "email"} & set(catalog.dimensions)


def _demo_rows(demo_dir: Path) -> Any:
    con = duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True)

    def count(sql: str) -> int:
        row = con.execute(sql).fetchone()
        assert row is not None
        return int(row[0])

    return count


@pytest.mark.parametrize("language", ["en", "zh"])
def test_row_counts_of_every_dated_table_are_answered(
    initialized: Path, catalog: Catalog, demo_dir: Path, language: str
) -> None:
    count = _demo_rows(demo_dir)
    dated = {t: info.time_column for t, info in catalog.tables.items() if info.time_column is not None}
    assert set(dated) == {"dim_user", "fact_order", "fact_traffic", "meta_table_load"}
    with Session(config=initialized / "baton.toml") as session:
        for table, column in dated.items():
            plainly = f"How many {table} were there last month?" if language == "en" else f"上个月的{table}数"
            for question in (
                f"How many {table} rows were there last month?" if language == "en" else f"上个月{table}有多少行？",
                plainly,  # a table's rows are its things: "How many tickets …"
            ):
                answer = session.ask(question, as_of=AS_OF)
                assert answer.status == "answered", (question, answer.error)
                assert answer.result is not None and answer.result.rows == [[month_rows(count, table, str(column))]]


def test_the_console_script_answers_both_languages(initialized: Path, demo_dir: Path) -> None:
    expected = month_rows(_demo_rows(demo_dir), "fact_order", "order_date")
    config = str(initialized / "baton.toml")
    for question in ("How many fact_order rows were there last month?", "上个月fact_order有多少行？"):
        proc = baton(["ask", question, "--json", "--config", config])
        assert proc.returncode == 0, proc.stdout + proc.stderr
        data = json.loads(proc.stdout)
        assert data["status"] == "answered" and data["result"]["rows"] == [[expected]]
        assert f"{expected:,}" in data["answer"]


def test_the_project_folder_is_found_without_config(initialized: Path, demo_dir: Path) -> None:
    """Run from the folder ``baton init`` wrote, Baton reads its baton.toml (as dbt finds
    dbt_project.yml); ``--config`` still wins over it."""
    expected = month_rows(_demo_rows(demo_dir), "fact_order", "order_date")
    question = "How many fact_order rows were there last month?"
    here = baton(["ask", question, "--json"], cwd=initialized)
    assert here.returncode == 0, here.stdout + here.stderr
    assert json.loads(here.stdout)["result"]["rows"] == [[expected]]
    demo = baton(["ask", question, "--json", "--config", str(demo_dir / "baton.toml")], cwd=initialized)
    assert json.loads(demo.stdout)["status"] != "answered"  # the demo's catalog names no such metric


def test_the_suggested_questions_ask_about_the_newest_whole_month_and_are_answered(tmp_path: Path) -> None:
    """The first table by name holds only old launch dates, and no --as-of is given: the printed
    questions still ask about a month that has data (of the table with the newest), and run."""
    path = tmp_path / "w.duckdb"
    con = duckdb.connect(str(path))
    con.execute(
        "CREATE TABLE cities AS SELECT 'c' || i AS city_code, DATE '2019-03-01' + CAST(i AS INTEGER) AS launched_on FROM range(20) t(i)"
    )
    con.execute(
        "CREATE TABLE rides AS SELECT i AS ride_id, TIMESTAMP '2026-01-01 08:00' + to_days(CAST(i % 125 AS INTEGER)) AS requested_at "
        "FROM range(1, 3000) t(i)"
    )  # the last day of data is 5 May 2026: April is the newest whole month
    row = con.execute(
        "SELECT COUNT(*) FROM rides WHERE requested_at >= '2026-04-01' AND requested_at < '2026-05-01'"
    ).fetchone()
    con.close()
    assert row is not None
    folder = tmp_path / "proj"
    proc = baton(["init", "--warehouse", absolute(path), "--path", str(folder)])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    asked = re.findall(r'baton ask "([^"]+)"', proc.stdout)
    assert len(asked) == 2 and all("2026-04" in q and "rides" in q for q in asked), asked
    for question in asked:
        answer = json.loads(baton(["ask", question, "--json", "--config", str(folder / "baton.toml")]).stdout)
        assert answer["status"] == "answered" and answer["result"]["rows"] == [[row[0]]], answer


def test_existing_files_are_kept_without_force(tmp_path: Path) -> None:
    warehouse = small_warehouse(tmp_path / "w.duckdb")
    folder = tmp_path / "project"
    first = baton(["init", "--warehouse", absolute(warehouse), "--path", str(folder), "--user", "maria"])
    assert first.returncode == 0, first.stderr
    before = {name: (folder / name).read_bytes() for name in FILES}
    (folder / "catalog.yaml").write_text("# edited by hand\n" + before["catalog.yaml"].decode(), encoding="utf-8")
    again = baton(["init", "--warehouse", absolute(warehouse), "--path", str(folder), "--json"])
    assert again.returncode == exit_code(ConfigError("x")) == 1
    error = json.loads(again.stdout)["error"]
    assert error["code"] == "invalid_config" and "--force" in error["message"]
    assert (folder / "catalog.yaml").read_text(encoding="utf-8").startswith("# edited by hand")
    assert (folder / "baton.toml").read_bytes() == before["baton.toml"]
    forced = baton(["init", "--warehouse", absolute(warehouse), "--path", str(folder), "--force"])
    assert forced.returncode == 0, forced.stderr
    assert (folder / "catalog.yaml").read_bytes() == before["catalog.yaml"]
    assert load_settings(folder / "baton.toml").user == "analyst"
    assert load_policy(folder / "policies.yaml").default_user == "analyst"
    assert sorted(p.name for p in folder.iterdir()) == sorted(FILES)  # no temporary left behind


def test_a_relative_duckdb_url_is_read_from_the_current_folder(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    small_warehouse(tmp_path / "data" / "w.duckdb")
    inside = baton(["init", "--warehouse", "duckdb:///data/w.duckdb", "--path", "."], cwd=tmp_path)
    assert inside.returncode == 0, inside.stderr
    assert 'url = "duckdb:///data/w.duckdb"' in (tmp_path / "baton.toml").read_text(encoding="utf-8")
    beside = baton(["init", "--warehouse", "duckdb:///data/w.duckdb", "--path", "sub", "--json"], cwd=tmp_path)
    assert beside.returncode == 0, beside.stderr
    assert json.loads(beside.stdout)["warehouse_url"] == absolute(tmp_path / "data" / "w.duckdb")
    for folder in (tmp_path, tmp_path / "sub"):
        assert load_settings(folder / "baton.toml").duckdb_path() == (tmp_path / "data" / "w.duckdb").resolve()


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("mysql://someone@localhost/shop", "invalid_config"),
        ("duckdb:///no/such/file.duckdb", "invalid_config"),
        ("duckdb://", "invalid_config"),
        ("postgresql://nobody@127.0.0.1:1/nothing", "warehouse_unavailable"),
    ],
)
def test_a_bad_or_unreachable_warehouse_writes_nothing(tmp_path: Path, url: str, code: str) -> None:
    folder = tmp_path / "project"
    proc = baton(["init", "--warehouse", url, "--path", str(folder), "--json"], cwd=tmp_path)
    assert proc.returncode == exit_code(ConfigError("x")) == 1
    assert json.loads(proc.stdout)["error"]["code"] == code
    assert "Traceback" not in proc.stderr + proc.stdout
    assert not folder.exists()
    if code == "warehouse_unavailable":  # and as one line on standard error without --json
        plain = baton(["init", "--warehouse", url, "--path", str(folder)], cwd=tmp_path)
        assert plain.returncode == 1 and plain.stderr.startswith(code) and "Traceback" not in plain.stderr
        assert not folder.exists()


DBT_SEMANTIC = """
    semantic_models:
      - name: orders
        model: ref('orders')
        defaults: {agg_time_dimension: ordered_at}
        primary_entity: order
        dimensions:
          - {name: ordered_at, type: time, type_params: {time_granularity: day}}
          - {name: status, type: categorical}
        measures:
          - {name: order_count, agg: count, expr: order_id}
          - {name: order_total, agg: sum, expr: amont}
    metrics:
      - {name: revenue, label: Revenue, type: simple, type_params: {measure: order_total}}
      - {name: orders, label: Orders, type: simple, type_params: {measure: order_count}}
"""


def _dbt_project(root: Path, semantic: str) -> Path:
    files = {
        "dbt_project.yml": "name: shop\nversion: '1.0'\nprofile: shop\n",
        "models/semantic.yml": semantic,
        "models/time_spine.yml": """
            version: 2
            models:
              - name: metricflow_time_spine
                time_spine: {standard_granularity_column: date_day}
                columns: [{name: date_day, granularity: day}]
        """,
    }
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(content).lstrip(), encoding="utf-8")
    return root


def test_a_dbt_measure_on_a_missing_column_names_the_dbt_file_and_line(tmp_path: Path) -> None:
    warehouse = small_warehouse(tmp_path / "shop.duckdb")
    project = _dbt_project(tmp_path / "dbt", DBT_SEMANTIC)
    folder = tmp_path / "project"
    proc = baton(["init", "--warehouse", absolute(warehouse), "--dbt", str(project), "--path", str(folder), "--json"])
    assert proc.returncode == 1, proc.stdout + proc.stderr
    error = json.loads(proc.stdout)["error"]
    semantic = project / "models" / "semantic.yml"
    line = 1 + semantic.read_text(encoding="utf-8").splitlines().index(
        "      - {name: order_total, agg: sum, expr: amont}"
    )
    assert error["code"] == "invalid_config"
    assert f"{semantic}:{line}:" in error["message"] and "amont" in error["message"]
    assert error["detail"]["problems"][0]["file"] == str(semantic) and error["detail"]["problems"][0]["line"] == line
    assert not folder.exists()

    # two problems, on the terminal: each listed once, no internal error (it raised KeyError 'path')
    _dbt_project(project, DBT_SEMANTIC.replace("expr: order_id", "expr: order_idd"))
    plain = baton(["init", "--warehouse", absolute(warehouse), "--dbt", str(project), "--path", str(folder)])
    assert plain.returncode == 1 and "Traceback" not in plain.stderr and "internal" not in plain.stderr, plain.stderr
    assert "amont" in plain.stderr and "order_idd" in plain.stderr and not folder.exists()

    _dbt_project(project, DBT_SEMANTIC.replace("expr: amont", "expr: amount"))
    fixed = baton(["init", "--warehouse", absolute(warehouse), "--dbt", str(project), "--path", str(folder)])
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    catalog = load_catalog(folder / "catalog.yaml")
    assert catalog.metrics["revenue"].expression == "SUM(amount)" and catalog.name == "shop"
    assert load_policy(folder / "policies.yaml").principal("analyst").tables.keys() == {"orders"}


@pytest.fixture(scope="module")
def pg_initialized(pg_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    url = load_settings(pg_demo_dir / "baton.toml").warehouse_url
    folder = tmp_path_factory.mktemp("pg_init")
    proc = baton(["init", "--warehouse", url, "--path", str(folder), "--as-of", "2026-07-01"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return folder, url


@pytest.mark.postgres
def test_init_on_postgresql_fits_and_answers(pg_initialized: tuple[Path, str]) -> None:
    folder, url = pg_initialized
    settings = load_settings(folder / "baton.toml")
    assert settings.warehouse_url == url and settings.engine == "postgres"
    catalog = load_catalog(folder / "catalog.yaml")
    masks = {c: s.mask for c, s in load_policy(folder / "policies.yaml").pii_columns.items()}
    assert masks == {"dim_user.name": "full", "dim_user.phone": "phone", "dim_user.email": "email"}
    backend = engine_named("postgres").open(settings)
    try:
        assert check_catalog(catalog, backend, members=True) == []
    finally:
        backend.close()
    with psycopg.connect(url) as con:

        def count(sql: str) -> int:
            row = con.execute(sql.encode()).fetchone()
            assert row is not None
            return int(row[0])

        with Session(settings) as session:
            for table in ("fact_order", "dim_user"):
                column = str(catalog.tables[table].time_column)
                for question in (f"How many {table} rows were there last month?", f"上个月{table}有多少行？"):
                    answer = session.ask(question, as_of=AS_OF)
                    assert answer.status == "answered", (question, answer.error)
                    assert answer.result is not None
                    assert answer.result.rows == [[month_rows(count, table, column)]]


def test_an_empty_warehouse_or_a_bad_user_name_is_refused(tmp_path: Path) -> None:
    from baton.cli.init_cmd import initialize
    from baton.errors import InvalidInput

    duckdb.connect(str(tmp_path / "empty.duckdb")).close()
    with pytest.raises(ConfigError, match="no table"):
        initialize(absolute(tmp_path / "empty.duckdb"), tmp_path / "out")
    small_warehouse(tmp_path / "w.duckdb")
    with pytest.raises(InvalidInput, match="User name"):
        initialize(absolute(tmp_path / "w.duckdb"), tmp_path / "out", user="two words")
    assert not (tmp_path / "out").exists()
