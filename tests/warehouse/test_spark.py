"""The Spark Connect backend on a real local server: types, timeouts, caps, errors, cost.

The URL and cost parsing need no server; everything else runs against the Spark Connect
server ``make spark-up`` starts (the ``spark_url`` fixture fails in CI without one).
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
import uuid
from datetime import date, datetime
from decimal import Decimal

import pytest

from baton.errors import ConfigError, InvalidInput, QueryTimeout, WarehouseUnavailable
from baton.warehouse.engine import engine_for_url
from baton.warehouse.spark_backend import (
    SparkBackend,
    estimated_bytes,
    spark_type_name,
    split_url,
    tables_without_size,
)

PLAN = """== Optimized Logical Plan ==
Aggregate [c#1], [c#1, sum(v#2L) AS s#3L], Statistics(sizeInBytes=1.5 KiB)
+- Join Inner, Statistics(sizeInBytes=2.0 GiB, rowCount=1.00E+6)
   :- Relation db.t[c#1,v#2L] parquet, Statistics(sizeInBytes=100.0 B)
== Physical Plan ==
Statistics(sizeInBytes=8.0 EiB)
"""


@pytest.mark.parametrize(
    ("url", "client", "database"),
    [
        ("sc://127.0.0.1:15002", "sc://127.0.0.1:15002", None),
        ("sc://h:1/;database=sales", "sc://h:1", "sales"),
        ("sc://h:1/;token=abc;database=sales;use_ssl=true", "sc://h:1/;token=abc;use_ssl=true", "sales"),
        ("sc://h:1/;token=abc", "sc://h:1/;token=abc", None),
    ],
)
def test_the_database_parameter_is_baton_s_and_taken_out(url: str, client: str, database: str | None) -> None:
    assert split_url(url) == (client, database)


@pytest.mark.parametrize(
    "bad", ["sc://h:1/;database=a%60b", "sc://h:1/;database=1x", "sc://h:1/;database=a-b", "sc://h:1/;database="]
)
def test_a_database_that_is_not_a_plain_name_is_refused(bad: str) -> None:
    with pytest.raises(ConfigError):
        split_url(bad)


def test_the_cost_is_the_optimized_plan_s_bytes_summed() -> None:
    assert estimated_bytes(PLAN) == 1.5 * 1024 + 2.0 * 2**30 + 100.0


def test_sizes_in_scientific_notation_are_counted() -> None:
    """Spark prints 2048 EiB and more as ``1.60E+21 B``: the costliest operator must count."""
    plan = "== Optimized Logical Plan ==\nJoin Inner, Statistics(sizeInBytes=1.60E+21 B)\n" + PLAN
    assert estimated_bytes(plan) == 1.60e21 + estimated_bytes(PLAN)


def test_a_size_that_cannot_be_read_refuses_the_estimate() -> None:
    with pytest.raises(ValueError):
        estimated_bytes("== Optimized Logical Plan ==\nJoin, Statistics(sizeInBytes=lots B)\n" + PLAN)


def test_a_bad_url_does_not_show_its_token() -> None:
    with pytest.raises(ConfigError) as caught:
        SparkBackend("sc://h:x/;token=SECRET123").execute("SELECT 1")
    assert "SECRET123" not in caught.value.message("en") + caught.value.message("zh")


def test_a_plan_without_statistics_gives_no_estimate() -> None:
    with pytest.raises(ValueError):
        estimated_bytes("== Physical Plan ==\nScan")


UNSIZED = """== Optimized Logical Plan ==
Aggregate [count(1) AS c#1L], Statistics(sizeInBytes=16.0 B, rowCount=1)
+- Join Inner, Statistics(sizeInBytes=8.0 EiB)
   :- Project, Statistics(sizeInBytes=2048.0 PiB)
   :  +- HiveTableRelation [`spark_catalog`.`shop`.`visits`, org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe, \
Data Cols: [a#2], Partition Cols: [d#3]], Statistics(sizeInBytes=8.0 EiB)
   +- Relation shop.orders[id#4,amount#5] parquet, Statistics(sizeInBytes=1.2 MiB)
== Physical Plan ==
Scan hive spark_catalog.shop.visits HiveTableRelation [`spark_catalog`.`shop`.`visits`], Statistics(sizeInBytes=8.0 EiB)
"""


def test_a_table_spark_has_no_size_for_is_named() -> None:
    assert tables_without_size(UNSIZED) == ["shop.visits"]  # not the join above it, not the physical plan
    assert tables_without_size(PLAN) == []
    v2 = "== Optimized Logical Plan ==\nRelationV2[id#1L] lake.shop.events lake.shop.events, Statistics(sizeInBytes=8.0 EiB)"
    assert tables_without_size(v2) == ["lake.shop.events"]  # a DataSource V2 table


@pytest.mark.parametrize(
    ("spark", "baton"),
    [
        ("string", "VARCHAR"),
        ("bigint", "BIGINT"),
        ("int", "INTEGER"),
        ("decimal(14,2)", "DECIMAL(14,2)"),
        ("timestamp_ntz", "TIMESTAMP"),
        ("date", "DATE"),
        ("double", "DOUBLE"),
        ("boolean", "BOOLEAN"),
    ],
)
def test_spark_type_names_read_like_the_other_engines(spark: str, baton: str) -> None:
    assert spark_type_name(spark) == baton


def test_the_scheme_picks_the_spark_profile_without_importing_pyspark() -> None:
    engine = engine_for_url("sc://127.0.0.1:15002")
    assert (engine.name, engine.dialect) == ("spark", "spark")


def test_nobody_listening_is_unavailable_within_the_connect_timeout() -> None:
    pytest.importorskip("pyspark.sql.connect.session", reason="the spark extra is not installed (make spark-up)")
    backend = SparkBackend("sc://127.0.0.1:9", connect_timeout_s=2)
    started = time.perf_counter()
    with pytest.raises(WarehouseUnavailable) as caught:
        backend.execute("SELECT 1")
    assert time.perf_counter() - started < 5
    assert caught.value.code == "warehouse_unavailable"


@pytest.fixture(scope="module")
def backend(spark_url: str) -> SparkBackend:
    return SparkBackend(spark_url)


@pytest.mark.spark
def test_values_come_back_as_arrow_with_their_types(backend: SparkBackend) -> None:
    raw = backend.execute(
        "SELECT 1 AS i, CAST(2 AS BIGINT) AS b, DATE'2026-06-01' AS d, CAST(12.50 AS DECIMAL(14,2)) AS x, "
        "'华东' AS s, TIMESTAMP_NTZ'2026-06-01 08:30:00' AS t, CAST(NULL AS DOUBLE) AS n"
    )
    assert raw.columns == [
        ("i", "INTEGER"),
        ("b", "BIGINT"),
        ("d", "DATE"),
        ("x", "DECIMAL(14,2)"),
        ("s", "VARCHAR"),
        ("t", "TIMESTAMP"),
        ("n", "DOUBLE"),
    ]
    assert raw.rows == [(1, 2, date(2026, 6, 1), Decimal("12.50"), "华东", datetime(2026, 6, 1, 8, 30), None)]


@pytest.mark.spark
def test_a_zoned_timestamp_reads_as_its_utc_wall_clock(backend: SparkBackend) -> None:
    raw = backend.execute("SELECT TIMESTAMP'2026-06-01 08:30:00' AS t")
    assert raw.rows == [(datetime(2026, 6, 1, 8, 30),)]  # the session runs in UTC


@pytest.mark.spark
def test_the_row_cap_truncates_and_says_so(backend: SparkBackend) -> None:
    raw = backend.execute("SELECT id FROM range(100)", row_cap=7)
    assert len(raw.rows) == 7 and raw.truncated


@pytest.mark.spark
def test_a_timeout_interrupts_the_operation_and_the_session_stays_usable(backend: SparkBackend) -> None:
    started = time.perf_counter()
    with pytest.raises(QueryTimeout):
        backend.execute("SELECT count(*) FROM range(0, 100000000000, 1, 2)", timeout_s=1.0)
    assert time.perf_counter() - started < 6  # the interrupt round trip, not the 100-billion-row scan
    assert backend.execute("SELECT 3").rows == [(3,)]


@pytest.mark.spark
def test_a_rejected_statement_is_typed_and_keeps_the_engine_text_out_of_the_message(backend: SparkBackend) -> None:
    with pytest.raises(InvalidInput) as caught:
        backend.execute("SELECT no_such_column FROM range(1)")
    assert "no_such_column" not in caught.value.message("en")
    assert "no_such_column" in str(caught.value.internal.get("engine_error", ""))


@pytest.mark.spark
def test_a_cross_product_costs_what_it_makes(backend: SparkBackend) -> None:
    one = backend.explain_cost("SELECT count(*) FROM range(1000000)")
    product = backend.explain_cost("SELECT count(*) FROM range(1000000) a, range(1000000) b")
    assert product > 1000 * one


@pytest.mark.spark
def test_a_missing_database_is_named(spark_url: str) -> None:
    with pytest.raises(ConfigError) as caught:
        SparkBackend(split_url(spark_url)[0] + "/;database=baton_no_such_db").execute("SELECT 1")
    assert "baton_no_such_db" in caught.value.message("en") and "baton_no_such_db" in caught.value.message("zh")


@pytest.mark.spark
def test_a_table_without_statistics_is_refused_with_the_statement_that_fixes_it(backend: SparkBackend) -> None:
    database = f"baton_unsized_{uuid.uuid4().hex[:8]}"
    backend.execute(f"CREATE DATABASE {database}")
    try:  # a partitioned Hive table filled by INSERT: Spark keeps no size for it
        backend.execute(
            f"CREATE TABLE {database}.visits (a INT, d STRING) USING hive OPTIONS (fileFormat 'textfile') "
            "PARTITIONED BY (d)"
        )
        backend.execute(f"INSERT INTO {database}.visits PARTITION (d='x') VALUES (1)")
        with pytest.raises(ConfigError) as caught:
            backend.explain_cost(f"SELECT count(*) FROM {database}.visits")
        assert f"ANALYZE TABLE {database}.visits COMPUTE STATISTICS" in caught.value.message("en")
        backend.execute(f"ANALYZE TABLE {database}.visits COMPUTE STATISTICS")
        assert backend.explain_cost(f"SELECT count(*) FROM {database}.visits") < 10_000
    finally:
        backend.execute(f"DROP DATABASE {database} CASCADE")


@pytest.mark.spark
@pytest.mark.spark_full  # about 25 s of bounded retries: make test-spark
def test_a_token_against_a_server_without_tls_says_so(spark_url: str) -> None:
    with pytest.raises(WarehouseUnavailable) as caught:
        SparkBackend(split_url(spark_url)[0] + "/;token=SECRET123").execute("SELECT 1")
    assert "TLS" in caught.value.message("en") and "SECRET123" not in caught.value.message("en")


class _Proxy:
    """A TCP relay to the Spark Connect server that can drop dead: the server gone mid-statement."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)

    def die(self) -> None:
        for sock in [self.listener, *self.sockets]:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)  # wakes a blocked accept/recv, unlike close alone
            sock.close()


@pytest.mark.spark
def test_a_server_gone_mid_statement_is_unavailable_in_seconds_not_at_the_time_limit(spark_url: str) -> None:
    host, port = split_url(spark_url)[0].removeprefix("sc://").split(":")
    proxy = _Proxy((host, int(port)))
    backend = SparkBackend(f"sc://127.0.0.1:{proxy.port}")
    assert backend.execute("SELECT 1").rows == [(1,)]
    threading.Timer(2.0, proxy.die).start()
    started = time.perf_counter()
    with pytest.raises(WarehouseUnavailable):  # a sleep: no load left behind on the shared server
        backend.execute("SELECT reflect('java.lang.Thread', 'sleep', CAST(30000 AS BIGINT))", timeout_s=120)
    assert time.perf_counter() - started < 20  # about 2 s + 8 s of bounded retries, not 120 s
