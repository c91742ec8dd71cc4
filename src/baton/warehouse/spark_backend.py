"""Apache Spark through Spark Connect (``sc://HOST:PORT[/;token=…;database=…]``).

Spark Connect gives a thin gRPC client to a remote cluster, so Python sends SQL text and
receives Arrow batches; detail rows stay on the cluster. Spark has no read-only session, so
Baton's firewall is the boundary: only statements it approved (one ``SELECT``, rewritten with
the user's row filters and masks, capped by ``LIMIT``) are ever sent, plus Baton's own fixed
reads (``EXPLAIN COST`` of an approved statement, the catalog listing). The cluster's own ACLs
(Unity Catalog, Ranger, a read-only service principal) are the second line — docs/spark.md.

``database`` in the URL is Baton's own parameter (Spark Connect's URL has none): the Spark
database the catalog's bare table names are read in. It is taken out before the URL reaches
the client. Sessions run in UTC: a ``TIMESTAMP_NTZ`` reads as written, a zoned ``TIMESTAMP`` as
its UTC wall-clock time (not the cluster's local time), the same on every run.

pyspark is an optional extra (``pip install "baton-analyst[spark]"``) and imported only here.
"""

from __future__ import annotations

import logging
import os
import re
import socket
import threading
import time
import uuid
import warnings
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from baton.contracts.query import ForeignKey
from baton.errors import BatonError, ConfigError, InvalidInput, QueryTimeout, ToolFailure, WarehouseUnavailable
from baton.messages import both
from baton.warehouse.engine import ConnectionSettings, Engine, ErrorRule, RawResult, engine_internal

if TYPE_CHECKING:
    import pyarrow as pa  # type: ignore[import-untyped]
    from pyspark.sql.connect.client.retries import RetryPolicy
    from pyspark.sql.connect.session import SparkSession

CONNECT_TIMEOUT_S = 5.0
"""How long the TCP probe before a session waits: gRPC itself retries an unreachable server
for minutes before it gives up."""
RETRIES, MAX_BACKOFF_MS = 5, 4000  # a server gone mid-statement: about 8 s of retries, then unavailable

_DATABASE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SIZE = re.compile(r"sizeInBytes=([0-9.]+(?:E[+-]?[0-9]+)?)\s*([KMGTPE]i)?B")
_RELATION = re.compile(r"HiveTableRelation \[([^,\]]+)|\bRelation ([^\[\s]+)\[|RelationV2\[[^\]]*\] (\S+)")
_TOKEN = re.compile(r"(?i)(token=)[^;]*")
_UNITS = {"": 1.0, "Ki": 2.0**10, "Mi": 2.0**20, "Gi": 2.0**30, "Ti": 2.0**40, "Pi": 2.0**50, "Ei": 2.0**60}
_SPARK_TYPES = {
    "string": "VARCHAR",
    "varchar": "VARCHAR",
    "char": "VARCHAR",
    "tinyint": "TINYINT",
    "byte": "TINYINT",
    "smallint": "SMALLINT",
    "short": "SMALLINT",
    "int": "INTEGER",
    "integer": "INTEGER",
    "bigint": "BIGINT",
    "long": "BIGINT",
    "float": "FLOAT",
    "real": "FLOAT",
    "double": "DOUBLE",
    "boolean": "BOOLEAN",
    "date": "DATE",
    "timestamp": "TIMESTAMP",
    "timestamp_ntz": "TIMESTAMP",
    "binary": "BLOB",
}


def spark_type_name(dtype: str) -> str:
    """Spark's type name (``decimal(14,2)``, ``bigint``, ``string``) in the spelling Baton's
    type readers share with DuckDB and PostgreSQL (``DECIMAL(14,2)``, ``BIGINT``, ``VARCHAR``)."""
    text = dtype.strip().lower()
    base, _, rest = text.partition("(")
    if base == "decimal":
        return f"DECIMAL({rest}" if rest else "DECIMAL(10,0)"
    return _SPARK_TYPES.get(base, text.upper())


def _arrow_type_name(dtype: pa.DataType) -> str:
    import pyarrow as pa

    if pa.types.is_decimal(dtype):
        return f"DECIMAL({dtype.precision},{dtype.scale})"
    if pa.types.is_timestamp(dtype):
        return "TIMESTAMP"
    if pa.types.is_date(dtype):
        return "DATE"
    names = {"int8": "TINYINT", "int16": "SMALLINT", "int32": "INTEGER", "int64": "BIGINT", "bool": "BOOLEAN"}
    names |= {"float": "FLOAT", "double": "DOUBLE", "string": "VARCHAR", "large_string": "VARCHAR"}
    return names.get(str(dtype), str(dtype).upper())


def _naive_utc(value: Any) -> Any:
    if isinstance(value, datetime) and value.tzinfo is not None:
        return value.astimezone(UTC).replace(tzinfo=None)
    return value


def arrow_rows(table: pa.Table) -> tuple[list[tuple[str, str]], list[tuple[Any, ...]]]:
    """An Arrow result as (name, type) pairs and row tuples (column order and duplicate names
    kept; zoned timestamps as naive UTC, like a DuckDB ``TIMESTAMP``)."""
    import pyarrow as pa

    columns = [(field.name, _arrow_type_name(field.type)) for field in table.schema]
    values: list[list[Any]] = []
    for field, column in zip(table.schema, table.columns, strict=True):
        cells = column.to_pylist()
        if pa.types.is_timestamp(field.type):
            cells = [_naive_utc(v) for v in cells]
        values.append(cells)
    return columns, list(zip(*values, strict=True)) if values else []


def _optimized_plan(plan_text: str) -> str:
    """``EXPLAIN COST`` without its physical plan, whose lines repeat the scans' sizes."""
    return plan_text.split("== Physical Plan ==", 1)[0]


def estimated_bytes(plan_text: str) -> float:
    """The bytes Spark's optimizer estimates, summed over the operators of the optimized
    logical plan (``Statistics(sizeInBytes=…)`` on each line of ``EXPLAIN COST``): Spark's own
    cost unit. A join multiplies its inputs' estimates, so a Cartesian product counts what it
    makes, not what it reads."""
    section = _optimized_plan(plan_text)
    sizes = [float(n) * _UNITS[unit] for n, unit in _SIZE.findall(section)]
    if not sizes or len(sizes) != section.count("sizeInBytes="):  # an estimate not read is no approval
        raise ValueError("the engine's plan gave no cost estimate")
    return sum(sizes)


def tables_without_size(plan_text: str) -> list[str]:
    """The tables the optimized plan reads with Spark's "size unknown" (``Long.MaxValue`` bytes,
    printed 8.0 EiB): a partitioned Hive table filled by INSERT, an external table never analysed.
    Their cost cannot be bounded until ``ANALYZE TABLE`` gives them statistics."""
    section = _optimized_plan(plan_text)
    found = [
        (m.group(1) or m.group(2) or m.group(3)).replace("`", "").removeprefix("spark_catalog.")
        for line in section.splitlines()
        if "sizeInBytes=8.0 EiB" in line and (m := _RELATION.search(line))
    ]
    return sorted(set(found))


def shown_url(url: str) -> str:
    """The URL as a message may quote it: a Spark Connect ``token=`` replaced by ``***``."""
    return _TOKEN.sub(r"\1***", url)


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def split_url(url: str) -> tuple[str, str | None]:
    """``sc://host:port/;token=…;database=db`` → the URL for the client (without Baton's
    ``database``) and the database (or None)."""
    head, sep, params = url.partition("/;")
    kept: list[str] = []
    database: str | None = None
    for part in params.split(";") if sep else []:
        key, _, value = part.partition("=")
        if key.strip().lower() == "database":
            database = unquote(value.strip())
        elif part:
            kept.append(part)
    if database is not None and not _DATABASE.fullmatch(database):
        raise ConfigError(*both("warehouse.spark_bad_database", database=database))
    return (head + "/;" + ";".join(kept)) if kept else head.rstrip("/"), database


def _host_port(url: str) -> tuple[str, int]:
    rest = url.removeprefix("sc://").split("/", 1)[0]
    host, _, port = rest.rpartition(":")
    try:
        return (host or rest).strip("[]"), int(port) if host else 15002
    except ValueError as exc:
        raise ConfigError(*both("warehouse.spark_bad_url", url=shown_url(url))) from exc


def _quiet_client() -> None:
    """pyspark's client prints every server error as JSON on stderr and warns about pandas
    versions, gRPC's core logs failed TLS handshakes; Baton reports errors itself."""
    os.environ.setdefault("GRPC_VERBOSITY", "NONE")  # read when grpc is first imported
    logging.getLogger("SQLQueryContextLogger").setLevel(logging.CRITICAL)
    logging.getLogger("pyspark").setLevel(logging.CRITICAL)
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pyspark\..*")
    warnings.filterwarnings("ignore", category=UserWarning, module=r"pyspark\..*")


def _bounded_retries() -> RetryPolicy:
    """The client's default retries wait up to 10 minutes for a server that went away; an
    interactive question waits about 8 s (5 retries, 50 ms × 4ⁿ, at most 4 s apart, also when the
    server asks for a longer delay), then is told the warehouse is unavailable."""
    from pyspark.sql.connect.client.retries import DefaultPolicy

    return DefaultPolicy(max_retries=RETRIES, max_backoff=MAX_BACKOFF_MS, max_server_retry_delay=MAX_BACKOFF_MS)


def connect_session(client_url: str, *, timeout_s: float = CONNECT_TIMEOUT_S) -> SparkSession:
    """A new Spark Connect session in UTC, after a TCP probe that fails fast when nobody listens."""
    _quiet_client()
    try:
        from pyspark.sql.connect.session import SparkSession
    except ImportError as exc:
        raise ConfigError(*both("warehouse.driver_missing", engine="Spark Connect", extra="spark")) from exc
    host, port = _host_port(client_url)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
        session = SparkSession.builder.remote(client_url).create()  # no call to the server yet
        session.client.set_retry_policies([_bounded_retries()])  # before the first call
        session.conf.set("spark.sql.session.timeZone", "UTC")
    except OSError as exc:
        raise WarehouseUnavailable(
            *both("warehouse.cannot_connect", engine="Spark Connect", error=type(exc).__name__),
            internal=engine_internal(exc),
        ) from exc
    except Exception as exc:  # the client's own errors: a refused session, a bad token, no TLS
        raise SparkEngine().translate(exc) from exc
    return session


class SparkEngine(Engine):
    """A Spark cluster through Spark Connect; the firewall is the boundary, cluster ACLs the second line."""

    name = "spark"
    dialect = "spark"
    schemes = ("sc://",)
    max_concurrent_statements = 4  # one session serves statements from several threads
    # without column statistics Spark estimates a join as the product of its inputs: a spine of
    # 30 days left-joined to a month's aggregate reads as petabytes and fails the cost budget
    fills_series_gaps = False

    def open(self, settings: ConnectionSettings) -> SparkBackend:
        return SparkBackend(settings.warehouse_url)

    def error_rules(self) -> Sequence[ErrorRule]:
        from pyspark.errors import PySparkException
        from pyspark.errors.exceptions import connect as spark_errors

        return (
            ErrorRule(
                (spark_errors.SparkConnectGrpcException,),
                WarehouseUnavailable,
                "warehouse.spark_tls",
                says=("Tls handshake failed", "SSL_ERROR"),
            ),
            ErrorRule(
                (spark_errors.ParseException, spark_errors.AnalysisException), InvalidInput, "warehouse.rejected"
            ),
            ErrorRule((spark_errors.SparkConnectGrpcException,), ToolFailure, "warehouse.failed"),
            ErrorRule((PySparkException,), ToolFailure, "warehouse.failed"),
        )


class SparkBackend:
    """One Spark Connect session; statements may run from several threads at once."""

    engine: Engine = SparkEngine()
    dialect = "spark"

    def __init__(self, url: str, *, connect_timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        self.url = url
        self.client_url, self.database = split_url(url)
        self._connect_timeout_s = connect_timeout_s
        self._session: SparkSession | None = None
        self._lock = threading.Lock()

    def _connect(self) -> SparkSession:
        with self._lock:
            if self._session is None:
                session = connect_session(self.client_url, timeout_s=self._connect_timeout_s)
                if self.database is not None:
                    try:
                        session.catalog.setCurrentDatabase(self.database)
                    except Exception as exc:  # no such database
                        if "SCHEMA_NOT_FOUND" in str(exc):
                            raise ConfigError(
                                *both("warehouse.spark_no_database", database=self.database),
                                internal=engine_internal(exc),
                            ) from exc
                        raise self.engine.translate(exc) from exc
                self._session = session
            return self._session

    def connect(self) -> None:
        self._connect()

    def close(self) -> None:
        with self._lock:
            if self._session is not None:
                session, self._session = self._session, None
                try:
                    session.stop()
                except Exception:
                    logging.getLogger(__name__).debug("closing a Spark Connect session failed", exc_info=True)

    def execute(self, sql: str, *, timeout_s: float = 30.0, row_cap: int = 10_000) -> RawResult:
        """Run one already-approved statement; a timer interrupts it (by its tag) at the limit."""
        session = self._connect()
        tag = "baton-" + uuid.uuid4().hex
        stopped = threading.Event()

        def interrupt() -> None:
            stopped.set()
            try:
                session.interruptTag(tag)
            except Exception:
                logging.getLogger(__name__).debug("interrupting %s failed", tag, exc_info=True)

        timer = threading.Timer(timeout_s, interrupt)
        timer.daemon = True
        started = time.perf_counter()
        session.addTag(tag)  # tags are per thread: only this statement carries it
        timer.start()
        try:
            table = session.sql(sql).limit(row_cap + 1).toArrow()
        except Exception as exc:
            if stopped.is_set():
                raise QueryTimeout(
                    *both("warehouse.timeout", timeout_s=timeout_s), internal=engine_internal(exc)
                ) from exc
            raise self._failed(exc, timeout_s) from exc
        finally:
            timer.cancel()
            session.removeTag(tag)
        elapsed = (time.perf_counter() - started) * 1000
        columns, rows = arrow_rows(table)
        return RawResult(columns=columns, rows=rows[:row_cap], truncated=len(rows) > row_cap, elapsed_ms=elapsed)

    def _failed(self, exc: Exception, timeout_s: float) -> Exception:
        """The typed error for a failed statement; a session the server no longer knows (it
        restarted) is dropped, so the next statement opens a new one."""
        from pyspark.errors.exceptions import connect as spark_errors

        gone = isinstance(exc, spark_errors.SparkConnectGrpcException) and not isinstance(
            exc, spark_errors.AnalysisException
        )
        if gone and any(code in str(exc) for code in ("UNAVAILABLE", "SESSION_CLOSED", "INVALID_HANDLE")):
            with self._lock:
                self._session = None
            return WarehouseUnavailable(
                *both("warehouse.unavailable", error=type(exc).__name__), internal=engine_internal(exc)
            )
        if isinstance(exc, BatonError):
            return exc
        return self.engine.translate(exc, timeout_s=timeout_s)  # an unknown exception: warehouse.failed

    def explain_cost(self, sql: str) -> float:
        """Spark's estimated bytes summed over the optimized plan (:func:`estimated_bytes`); a
        table Spark has no size for is named, with the statement that gives it one."""
        raw = self.execute(f"EXPLAIN COST {sql}", timeout_s=10, row_cap=10)
        text = "\n".join(str(row[0]) for row in raw.rows)
        unsized = tables_without_size(text)
        if unsized:
            statements = "; ".join(f"ANALYZE TABLE {t} COMPUTE STATISTICS" for t in unsized)
            raise ConfigError(*both("warehouse.spark_no_statistics", tables=", ".join(unsized), statements=statements))
        return estimated_bytes(text)

    def foreign_keys(self) -> list[ForeignKey]:
        """Spark tables declare no foreign keys Baton can read (Delta's informational ones aside)."""
        return []

    def schema(self) -> dict[str, dict[str, str]]:
        """The current database's tables and their columns, through the catalog API."""
        session = self._connect()
        try:
            database = self.database or session.catalog.currentDatabase()
            out: dict[str, dict[str, str]] = {}
            for table in session.catalog.listTables(database):
                if table.isTemporary:
                    continue
                columns = session.catalog.listColumns(f"{_quoted(database)}.{_quoted(table.name)}")
                out[table.name] = {c.name: spark_type_name(c.dataType) for c in columns}
        except Exception as exc:
            raise self._failed(exc, 30.0) from exc
        return out
