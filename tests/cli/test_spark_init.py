"""`baton init` and `baton demo init` on Spark: the real console script against a real Spark
Connect server (``spark_url``), a small SaaS-like database made for the module and dropped after,
the draft catalog read back, `baton catalog check` and one `baton ask` whose number an
independent Spark SQL query gives."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.policy.model import load_policy

BATON = [sys.executable, "-m", "baton"]


def baton(args: list[str], cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "BATON_CONFIG"}
    return subprocess.run(
        [*BATON, *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd, check=False
    )


def session(url: str) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pyspark warns about pandas versions on import
        from pyspark.sql import SparkSession

        return SparkSession.builder.remote(url).create()


def scalar(spark: Any, sql: str) -> Any:
    return spark.sql(sql).collect()[0][0]


_ACCOUNTS = """
CREATE TABLE {db}.accounts USING parquet AS
SELECT id AS account_id,
       date_add(DATE'2026-01-01', CAST(id % 181 AS INT)) AS signup_date,
       element_at(array('free', 'pro', 'team'), CAST(id % 3 + 1 AS INT)) AS plan,
       element_at(array('CN', 'US', 'DE', 'FR'), CAST(id % 4 + 1 AS INT)) AS Country,
       concat('user', id, '@example.com') AS contact_email
FROM range(1, 301)
"""
_INVOICES = """
CREATE TABLE {db}.invoices USING parquet AS
SELECT id AS invoice_id, 1 + id % 300 AS account_id,
       date_add(DATE'2026-01-01', CAST(id * 7 % 181 AS INT)) AS issued_on,
       CAST((id % 97) * 1.25 AS DECIMAL(12,2)) AS amount,
       IF(id % 5 = 0, 'open', 'paid') AS status
FROM range(1, 1201)
"""


@pytest.fixture(scope="module")
def spark_db(spark_url: str) -> Iterator[tuple[str, Any]]:
    """A throwaway Spark database of two tables, and a session to check numbers with."""
    spark = session(spark_url)
    db = f"baton_init_{uuid.uuid4().hex[:10]}"
    spark.sql(f"CREATE DATABASE {db}")
    try:
        spark.sql(_ACCOUNTS.format(db=db))
        spark.sql(_INVOICES.format(db=db))
        yield db, spark
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {db} CASCADE")
        spark.stop()


@pytest.fixture(scope="module")
def initialized(spark_url: str, spark_db: tuple[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    db, _spark = spark_db
    folder = tmp_path_factory.mktemp("spark_init") / "saas"
    url = f"{spark_url}/;database={db}"
    proc = baton(["init", "--warehouse", url, "--path", str(folder), "--as-of", "2026-07-01"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    for name in ("baton.toml", "catalog.yaml", "policies.yaml"):
        assert f"wrote {folder.resolve() / name}" in proc.stdout
    assert f'url = "{url}"' in (folder / "baton.toml").read_text(encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def catalog(initialized: Path) -> Catalog:
    return load_catalog(initialized / "catalog.yaml")


@pytest.mark.spark
def test_the_draft_reads_times_members_and_measures_from_spark(catalog: Catalog, spark_db: tuple[str, Any]) -> None:
    db, _spark = spark_db
    assert catalog.name == db
    assert {t: info.time_column for t, info in catalog.tables.items()} == {
        "accounts": "signup_date",
        "invoices": "issued_on",
    }
    assert catalog.tables["invoices"].primary_key == ("invoice_id",)
    assert set(catalog.dimensions["plan"].members) == {"free", "pro", "team"}
    assert set(catalog.dimensions["status"].members) == {"open", "paid"}
    # Spark keeps a column's case and matches bare names whatever their case: usable as is
    assert catalog.dimensions["Country"].columns == {"accounts": "Country"}
    assert set(catalog.dimensions["Country"].members) == {"CN", "US", "DE", "FR"}
    metrics = {name: (m.table, m.expression) for name, m in catalog.metrics.items()}
    assert metrics["invoices_rows"] == ("invoices", "COUNT(*)")
    assert metrics["accounts_rows"] == ("accounts", "COUNT(*)")
    assert metrics["amount_sum"] == ("invoices", "SUM(amount)")
    assert catalog.metrics["amount_sum"].unit == "currency"
    assert "account_id_sum" not in metrics and "invoice_id_sum" not in metrics


@pytest.mark.spark
def test_the_email_column_is_personal_data_masked_and_no_dimension(initialized: Path, catalog: Catalog) -> None:
    policy = load_policy(initialized / "policies.yaml")
    masks = {column: spec.mask for column, spec in policy.pii_columns.items()}
    assert masks == {"accounts.contact_email": "email"}
    assert policy.roles["reader"].pii == "mask"
    assert "contact_email" not in catalog.dimensions


@pytest.mark.spark
def test_the_email_column_reads_masked_on_spark(initialized: Path) -> None:
    from baton.orchestrator.session import Session

    with Session(config=initialized / "baton.toml") as baton_session:
        answer = baton_session.sql("SELECT account_id, contact_email FROM accounts ORDER BY account_id LIMIT 2")
    assert answer.status == "answered", answer.error
    assert answer.result is not None and answer.result.rows == [[1, "u***@example.com"], [2, "u***@example.com"]]


@pytest.mark.spark
@pytest.mark.spark_full  # a database of its own and a second init: make test-spark
def test_catalog_check_names_a_table_spark_has_no_size_for(spark_url: str, tmp_path: Path) -> None:
    spark = session(spark_url)
    db = f"baton_unsized_{uuid.uuid4().hex[:10]}"
    spark.sql(f"CREATE DATABASE {db}")
    try:  # a partitioned Hive table filled by INSERT: Spark keeps no size for it
        spark.sql(
            f"CREATE TABLE {db}.visits (visit_date DATE, seconds INT, device STRING) USING hive "
            "OPTIONS (fileFormat 'textfile') PARTITIONED BY (device)"
        )
        spark.sql(
            f"INSERT INTO {db}.visits PARTITION (device='ios') "
            "SELECT date_add(DATE'2026-06-01', CAST(id % 30 AS INT)), CAST(id % 300 AS INT) FROM range(500)"
        )
        proc = baton(["init", "--warehouse", f"{spark_url}/;database={db}", "--path", str(tmp_path / "shop")])
        assert proc.returncode == 0, proc.stdout + proc.stderr
        checked = baton(["catalog", "check", "--json", "--config", str(tmp_path / "shop" / "baton.toml")])
        problems = json.loads(checked.stdout)["problems"]
        (unsized,) = [p for p in problems if p["code"] == "no_cost_estimate"]
        assert unsized["table"] == "visits" and f"ANALYZE TABLE {db}.visits COMPUTE STATISTICS" in unsized["message"]
        assert checked.returncode != 0
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {db} CASCADE")
        spark.stop()


@pytest.mark.spark
def test_catalog_check_passes_on_spark(initialized: Path) -> None:
    proc = baton(["catalog", "check", "--json", "--config", str(initialized / "baton.toml")])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["problems"] == []


@pytest.mark.spark
def test_ask_answers_with_the_number_spark_gives(initialized: Path, spark_db: tuple[str, Any]) -> None:
    db, spark = spark_db
    expected = int(
        scalar(spark, f"SELECT COUNT(*) FROM {db}.invoices WHERE issued_on BETWEEN '2026-06-01' AND '2026-06-30'")
    )
    assert expected > 0
    config = str(initialized / "baton.toml")
    proc = baton(["ask", "How many invoices rows were there last month?", "--json", "--config", config])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "answered" and data["result"]["rows"] == [[expected]]
    assert "`invoices`" in data["sql"] or "invoices" in data["sql"]


@pytest.mark.spark
@pytest.mark.spark_full  # builds and loads a demo: make test-spark
def test_demo_init_loads_the_small_demo_into_spark_and_answers(spark_url: str, tmp_path: Path) -> None:
    db = f"baton_demo_{uuid.uuid4().hex[:10]}"
    folder = tmp_path / "demo"
    spark = session(spark_url)
    try:
        proc = baton(
            ["demo", "init", "--path", str(folder), "--scale", "0.05", "--warehouse", f"{spark_url}/;database={db}"],
            timeout=600,
        )
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert f"Loaded into Spark database {db}" in proc.stdout
        config = yaml.safe_load((folder / "catalog.yaml").read_text(encoding="utf-8"))
        assert config["tables"]
        assert f'url = "{spark_url}/;database={db}"' in (folder / "baton.toml").read_text(encoding="utf-8")
        tables = {row.tableName for row in spark.sql(f"SHOW TABLES IN {db}").collect()}
        assert set(config["tables"]) <= tables
        expected = int(
            scalar(
                spark,
                f"SELECT COUNT(*) FROM {db}.fact_order WHERE order_date BETWEEN '2026-06-01' AND '2026-06-30' "
                "AND status IN ('paid', 'refunded')",
            )
        )
        question = "How many orders were there last month?"
        ask = baton(["ask", question, "--json", "--as-of", "2026-07-01", "--config", str(folder / "baton.toml")])
        assert ask.returncode == 0, ask.stdout + ask.stderr
        data = json.loads(ask.stdout)
        assert data["status"] == "answered" and data["result"]["rows"] == [[expected]]
    finally:
        spark.sql(f"DROP DATABASE IF EXISTS {db} CASCADE")
        spark.stop()


def test_demo_init_refuses_an_engine_it_cannot_copy_into_before_building(tmp_path: Path) -> None:
    proc = baton(["demo", "init", "--path", str(tmp_path / "d"), "--warehouse", "duckdb:///x.duckdb"])
    assert proc.returncode != 0
    assert "--warehouse takes postgresql://… or sc://…" in proc.stderr
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("command", [["demo", "init"], ["init"]])
def test_the_help_names_the_spark_url(command: list[str]) -> None:
    proc = baton([*command, "--help"], timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "sc://HOST:PORT/;database=DB" in " ".join(proc.stdout.replace("│", " ").split())
