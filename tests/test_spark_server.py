"""The Spark test harness itself: a real Spark Connect server, and QueryHistory seeing what it was asked."""

from __future__ import annotations

import uuid
import warnings

import pytest

from tests.spark_server import QueryHistory

pytestmark = pytest.mark.spark


def _run(url: str, sql: str) -> list[tuple[object, ...]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pyspark's pandas-version warnings
        from pyspark.sql import SparkSession

        spark = SparkSession.builder.remote(url).create()
    try:
        return [tuple(row) for row in spark.sql(sql).collect()]
    finally:
        spark.stop()


def test_history_sees_a_query_that_ran_and_not_one_that_did_not(spark_url: str, spark_history: QueryHistory) -> None:
    canary, never = f"baton-canary-{uuid.uuid4()}", f"baton-canary-{uuid.uuid4()}"
    assert not spark_history.seen(canary)
    assert _run(spark_url, f"SELECT '{canary}' AS x") == [(canary,)]
    assert spark_history.wait_seen(canary, timeout=5.0)
    # the canary is seen, so everything sent before it has been recorded: absence now means never sent
    assert not spark_history.seen(never)
    assert len(spark_history.executions()) >= 1


def test_history_sees_a_statement_that_failed_before_executing(spark_url: str, spark_history: QueryHistory) -> None:
    table = f"baton_missing_{uuid.uuid4().hex}"
    with pytest.raises(Exception, match="TABLE_OR_VIEW_NOT_FOUND"):
        _run(spark_url, f"SELECT * FROM {table}")
    assert spark_history.wait_seen(table, timeout=5.0)
    assert not any(table in e.get("planDescription", "") for e in spark_history.executions())
