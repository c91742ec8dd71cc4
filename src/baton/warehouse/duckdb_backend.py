"""The embedded DuckDB backend, locked down before any statement runs.

DuckDB has no statement timeout and its defaults allow file, network and extension access,
so hardening is ours: open read-only, stop extension auto-install/auto-load and Python
replacement scans, cap memory and threads, then turn external access off and lock the
configuration (in that order: after the lock every SET fails, and external access cannot be
re-enabled). A timer thread interrupts the connection when a query runs too long.
"""

from __future__ import annotations

import contextlib
import json
import math
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import duckdb

from baton.contracts.query import ForeignKey
from baton.errors import InvalidInput, QueryTimeout, ToolFailure, WarehouseUnavailable
from baton.messages import both
from baton.warehouse.engine import ConnectionSettings, Engine, ErrorRule, RawResult, engine_internal
from baton.warehouse.watchdog import Watchdog

_HARDENING = (
    "SET autoinstall_known_extensions = false",
    "SET autoload_known_extensions = false",
    "SET allow_community_extensions = false",
    "SET python_enable_replacements = false",
    # allowed directories first (none: DuckDB keeps only its own spill directory), then
    # external access off, then the lock — the order DuckDB requires
    "SET allowed_directories = []",
    "SET enable_external_access = false",
    "SET lock_configuration = true",
)


class DuckDBEngine(Engine):
    """The embedded default: a DuckDB file opened read-only, hardened and locked."""

    name = "duckdb"
    dialect = "duckdb"
    schemes = ("duckdb://",)
    opens_locally = True

    def open(self, settings: ConnectionSettings) -> DuckDBBackend:
        return DuckDBBackend(settings.duckdb_path(), memory_limit=settings.memory_limit, threads=settings.threads)

    def error_rules(self) -> Sequence[ErrorRule]:
        return (
            ErrorRule((duckdb.InterruptException,), QueryTimeout, "warehouse.timeout"),
            # the engine's text quotes the rewritten SQL: it goes to the trace (detail), not the message
            ErrorRule(
                (duckdb.ParserException, duckdb.BinderException, duckdb.CatalogException),
                InvalidInput,
                "warehouse.rejected",
            ),
            ErrorRule((duckdb.Error,), ToolFailure, "warehouse.failed"),
        )


def _cardinality(node: dict[str, Any]) -> float | None:
    extra = node.get("extra_info")
    card = extra.get("Estimated Cardinality") if isinstance(extra, dict) else None
    text = str(card).replace("~", "").replace(",", "").strip() if card is not None else ""
    try:
        return float(text) if text else None
    except ValueError:
        return None


def _plan_rows(node: Any) -> tuple[float, float]:
    """(rows this operator makes, rows made by it and every operator below it)."""
    if not isinstance(node, dict):
        return 0.0, 0.0
    children = [_plan_rows(child) for child in node.get("children") or [] if isinstance(child, dict)]
    own = _cardinality(node)
    if own is None:
        outputs = [rows for rows, _total in children]
        name = str(node.get("name", "")).upper()
        if not outputs:
            own = 1.0
        elif "JOIN" in name or "PRODUCT" in name:
            own = math.prod(outputs)
        else:
            own = sum(outputs)
    return own, own + sum(total for _rows, total in children)


INTERRUPTED = "Query interrupted"
"""What DuckDB's Python client usually raises (a ``RuntimeError``) when SIGINT arrives during a
statement; the timeout's ``con.interrupt()`` raises ``duckdb.InterruptException``, which SIGINT
raises too when it lands elsewhere in the engine (seen under load), so the timer flags its own."""


def _interrupt(con: duckdb.DuckDBPyConnection, fired: threading.Event) -> None:
    """The timer's action: mark the timeout as ours, then stop the running statement (a
    connection closed meanwhile is fine)."""
    fired.set()
    with contextlib.suppress(Exception):
        con.interrupt()


class DuckDBBackend:
    """One hardened, read-only connection to a DuckDB file; statements run one at a time."""

    engine: Engine = DuckDBEngine()
    dialect = "duckdb"

    def __init__(self, path: Path, *, memory_limit: str = "2GB", threads: int = 2) -> None:
        self.path = path
        self._memory_limit = memory_limit
        self._threads = threads
        self._con: duckdb.DuckDBPyConnection | None = None
        self._lock = threading.Lock()
        self._watchdog = Watchdog("baton-duckdb-timeout")

    def _connect(self) -> duckdb.DuckDBPyConnection:
        if self._con is not None:
            return self._con
        if not self.path.is_file():
            en, zh = both("warehouse.file_missing", path=self.path)
            raise WarehouseUnavailable(en, zh, detail={"path": str(self.path)})
        try:
            con = duckdb.connect(str(self.path), read_only=True)
            # DuckDB shares one database instance per file inside a process: a second backend
            # on the same file finds it already hardened and locked, and checks instead of setting.
            locked = con.execute("SELECT current_setting('lock_configuration')").fetchone()
            if locked is not None and locked[0]:
                external = con.execute("SELECT current_setting('enable_external_access')").fetchone()
                if external is None or external[0]:
                    con.close()
                    raise WarehouseUnavailable(*both("warehouse.unlocked"))
            else:
                con.execute(f"SET memory_limit = '{self._memory_limit}'")
                con.execute(f"SET threads = {int(self._threads)}")
                for statement in _HARDENING:
                    con.execute(statement)
        except duckdb.Error as exc:
            raise WarehouseUnavailable(
                *both("warehouse.cannot_open", path=self.path, error=type(exc).__name__),
                detail={"path": str(self.path)},
                internal=engine_internal(exc),
            ) from exc
        self._con = con
        return con

    def connect(self) -> None:
        with self._lock:
            self._connect()

    def close(self) -> None:
        self._watchdog.stop()
        if self._con is not None:
            self._con.close()
            self._con = None

    def execute(self, sql: str, *, timeout_s: float = 30.0, row_cap: int = 10_000) -> RawResult:
        """Run exactly one already-approved statement with a timeout and a row cap."""
        with self._lock:
            con = self._connect()
            fired = threading.Event()
            started = time.perf_counter()
            self._watchdog.arm(timeout_s, lambda: _interrupt(con, fired))
            try:
                cursor = con.execute(sql)
                description = cursor.description or []
                rows = cursor.fetchmany(row_cap + 1)
            except duckdb.InterruptException as exc:
                # Only the timer's interrupt is a timeout; SIGINT can surface as this same
                # exception (depending on where DuckDB was when it came), and is a cancellation.
                if not fired.is_set():
                    raise KeyboardInterrupt from exc
                raise self.engine.translate(exc, timeout_s=timeout_s) from exc
            except duckdb.Error as exc:
                raise self.engine.translate(exc, timeout_s=timeout_s) from exc
            except RuntimeError as exc:
                if str(exc) == INTERRUPTED:  # Ctrl-C mid-statement: a cancellation, never a refusal
                    raise KeyboardInterrupt from exc
                raise
            finally:
                self._watchdog.disarm()
            elapsed = (time.perf_counter() - started) * 1000
        columns = [(str(d[0]), str(d[1])) for d in description]
        truncated = len(rows) > row_cap
        return RawResult(columns=columns, rows=rows[:row_cap], truncated=truncated, elapsed_ms=elapsed)

    def explain_cost(self, sql: str) -> float:
        """The rows the plan is estimated to make, summed over its operators (a cheap,
        engine-given cost proxy). DuckDB gives an "Estimated Cardinality" for most operators; one
        without (CROSS_PRODUCT, UNION, some nested-loop joins, DUMMY_SCAN) is estimated from its
        children — their product for a join or cross product, their sum otherwise, one row for a
        leaf — so a Cartesian product counts the rows it makes, not those it reads."""
        raw = self.execute(f"EXPLAIN (FORMAT JSON) {sql}", timeout_s=10, row_cap=10)
        total, read = 0.0, False
        for row in raw.rows:
            try:
                plan = json.loads(row[-1])
            except (ValueError, TypeError):
                continue
            read = True
            for node in plan if isinstance(plan, list) else [plan]:
                total += _plan_rows(node)[1]
        if not read:  # no estimate is no approval (the firewall refuses: cost_estimate_failed)
            raise ValueError("the engine's plan gave no cost estimate")
        return total

    def schema(self) -> dict[str, dict[str, str]]:
        """Every table's and view's columns and types in the file's ``main`` schema (DuckDB's own
        ``duckdb_columns()``: the same names and types as ``information_schema.columns``, read
        about ten times faster on a fresh connection, and never a temporary table)."""
        raw = self.execute(
            "SELECT table_name, column_name, data_type FROM duckdb_columns() "
            "WHERE schema_name = 'main' AND database_name = current_database() ORDER BY table_name, column_index",
            row_cap=100_000,
        )
        out: dict[str, dict[str, str]] = {}
        for table, column, dtype in raw.rows:
            out.setdefault(str(table), {})[str(column)] = str(dtype)
        return out

    def foreign_keys(self) -> list[ForeignKey]:
        # DuckDB's information_schema.constraint_column_usage names the referencing table: its own view is right
        raw = self.execute(
            "SELECT table_name, constraint_column_names, referenced_table, referenced_column_names "
            "FROM duckdb_constraints() WHERE constraint_type = 'FOREIGN KEY' AND schema_name = 'main' "
            "ORDER BY table_name, constraint_index",
            row_cap=10_000,
        )
        return [
            ForeignKey(table=str(table), column=str(cols[0]), ref_table=str(ref), ref_column=str(ref_cols[0]))
            for table, cols, ref, ref_cols in raw.rows
            if len(cols) == 1 and len(ref_cols) == 1
        ]
