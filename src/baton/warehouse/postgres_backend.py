"""The PostgreSQL backend (psycopg 3).

``default_transaction_read_only`` and a role's ``statement_timeout`` are not security
boundaries (a statement can undo them), so every query runs inside its own
``BEGIN READ ONLY; SET LOCAL statement_timeout = …; <query>; ROLLBACK`` on a connection of a
least-privilege role, and the firewall refuses SET, BEGIN, DO and set_config before the
query ever gets here.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from baton.contracts.query import ForeignKey
from baton.errors import InvalidInput, QueryTimeout, ToolFailure, WarehouseUnavailable
from baton.messages import both
from baton.warehouse.engine import ConnectionSettings, Engine, ErrorRule, RawResult, engine_internal

_TYPE_NAMES = {
    16: "BOOLEAN",
    20: "BIGINT",
    21: "SMALLINT",
    23: "INTEGER",
    25: "VARCHAR",
    700: "REAL",
    701: "DOUBLE",
    1043: "VARCHAR",
    1082: "DATE",
    1114: "TIMESTAMP",
    1184: "TIMESTAMPTZ",
    1700: "DECIMAL",
}


def _most_rows(node: Any) -> float:
    """The largest "Plan Rows" of a plan node and the nodes below it."""
    if not isinstance(node, dict):
        return 0.0
    below = [_most_rows(child) for child in node.get("Plans") or []]
    return max([float(node.get("Plan Rows") or 0.0), *below])


class PostgresEngine(Engine):
    """A PostgreSQL server, read through a least-privilege role in read-only transactions."""

    name = "postgres"
    dialect = "postgres"
    schemes = ("postgresql://", "postgres://")

    def open(self, settings: ConnectionSettings) -> PostgresBackend:
        return PostgresBackend(settings.warehouse_url)

    def error_rules(self) -> Sequence[ErrorRule]:
        return (
            ErrorRule((pg_errors.QueryCanceled,), QueryTimeout, "warehouse.timeout"),
            ErrorRule(
                (pg_errors.SyntaxError, pg_errors.UndefinedColumn, pg_errors.UndefinedTable),
                InvalidInput,
                "warehouse.rejected",
            ),
            ErrorRule((psycopg.OperationalError,), WarehouseUnavailable, "warehouse.unavailable"),
            ErrorRule((psycopg.Error,), ToolFailure, "warehouse.failed"),
        )


class PostgresBackend:
    engine: Engine = PostgresEngine()
    dialect = "postgres"

    def __init__(self, url: str, *, connect_timeout_s: float = 5.0) -> None:
        self.url = url
        self._connect_timeout_s = connect_timeout_s
        self._con: psycopg.Connection[Any] | None = None
        self._connecting = threading.Lock()

    def _connect(self) -> psycopg.Connection[Any]:
        with self._connecting:  # one connection, even when a background open races the first statement
            if self._con is not None and not self._con.closed:
                return self._con
            try:
                self._con = psycopg.connect(self.url, connect_timeout=int(self._connect_timeout_s), autocommit=True)
            except psycopg.OperationalError as exc:
                raise WarehouseUnavailable(
                    *both("warehouse.cannot_connect", engine="PostgreSQL", error=type(exc).__name__),
                    internal=engine_internal(exc),
                ) from exc
            return self._con

    def connect(self) -> None:
        self._connect()

    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def execute(self, sql: str, *, timeout_s: float = 30.0, row_cap: int = 10_000) -> RawResult:
        con = self._connect()
        started = time.perf_counter()
        try:
            with con.cursor() as cur:
                cur.execute("BEGIN READ ONLY")
                try:
                    cur.execute(f"SET LOCAL statement_timeout = {int(timeout_s * 1000)}")
                    cur.execute(sql.encode("utf-8"), prepare=False)
                    description = cur.description or []
                    rows = cur.fetchmany(row_cap + 1)
                finally:
                    con.execute("ROLLBACK")
        except psycopg.Error as exc:
            if isinstance(exc, psycopg.OperationalError) and not isinstance(exc, pg_errors.QueryCanceled):
                self._con = None  # the connection is gone: the next statement reconnects
            raise self.engine.translate(exc, timeout_s=timeout_s) from exc
        elapsed = (time.perf_counter() - started) * 1000
        columns = [(d.name, _TYPE_NAMES.get(d.type_code, str(d.type_code))) for d in description]
        return RawResult(columns=columns, rows=list(rows[:row_cap]), truncated=len(rows) > row_cap, elapsed_ms=elapsed)

    def explain_cost(self, sql: str) -> float:
        """The plan's total cost or the most rows any of its nodes is estimated to make,
        whichever is larger: the planner's cost charges about 0.01 per row, so a plan making a
        billion rows cheaply (a cross product counted by an aggregate) still reads as a billion."""
        raw = self.execute(f"EXPLAIN (FORMAT JSON) {sql}", timeout_s=10, row_cap=10)
        plan = raw.rows[0][0] if raw.rows else []
        try:
            root = plan[0]["Plan"]
            return max(float(root["Total Cost"]), _most_rows(root))
        except (KeyError, IndexError, TypeError, ValueError) as exc:  # no estimate is no approval
            raise ValueError("the engine's plan gave no cost estimate") from exc

    def schema(self) -> dict[str, dict[str, str]]:
        raw = self.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
            row_cap=100_000,
        )
        out: dict[str, dict[str, str]] = {}
        for table, column, dtype in raw.rows:
            out.setdefault(str(table), {})[str(column)] = str(dtype).upper()
        return out

    def foreign_keys(self) -> list[ForeignKey]:
        raw = self.execute(
            "SELECT k.table_name, MIN(k.column_name), MIN(u.table_name), MIN(u.column_name) "
            "FROM information_schema.table_constraints c "
            "JOIN information_schema.key_column_usage k "
            "ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema "
            "JOIN information_schema.constraint_column_usage u "
            "ON u.constraint_name = c.constraint_name AND u.table_schema = c.table_schema "
            "WHERE c.constraint_type = 'FOREIGN KEY' AND c.table_schema = current_schema() "
            "GROUP BY c.constraint_name, k.table_name HAVING COUNT(*) = 1 ORDER BY 1, 2",
            row_cap=10_000,
        )
        return [
            ForeignKey(table=str(t), column=str(c), ref_table=str(rt), ref_column=str(rc)) for t, c, rt, rc in raw.rows
        ]
