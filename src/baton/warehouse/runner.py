"""The runner: executes approved statements only, and returns them as evidence.

The runner never takes SQL text from a caller. It takes an ``approved_sql_id``, looks it up
in the approval registry (which checks the id's owner and expiry), runs the firewall's
rewritten SQL with a timeout and a row cap, and caches the result by approved id and data
version, so a reload of the warehouse invalidates every cached answer.
"""

from __future__ import annotations

import hashlib
import threading
from datetime import date, datetime
from decimal import Decimal
from typing import Any, Protocol

from baton.contracts.answer import Column
from baton.contracts.query import Freshness, QueryResult, TableLoad
from baton.sql import ApprovalRegistry


class Backend(Protocol):
    dialect: str

    def execute(self, sql: str, *, timeout_s: float = ..., row_cap: int = ...) -> Any: ...

    def explain_cost(self, sql: str) -> float: ...

    def schema(self) -> dict[str, dict[str, str]]: ...

    def close(self) -> None: ...


def json_cell(value: Any) -> Any:
    """Cells as JSON-friendly values that keep their exact decimal rendering."""
    if isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        if isinstance(exponent, int) and exponent >= 0 and abs(value) < 2**53:
            return int(value)  # an integer-typed decimal (e.g. SUM of a BIGINT) stays an integer
        return float(value)  # DECIMAL(p, s>0): shortest repr round-trips the 2-decimal string
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return value


def _type_name(raw: str) -> str:
    return raw.upper()


class Runner:
    def __init__(self, backend: Backend, registry: ApprovalRegistry, *, timeout_s: float, row_cap: int) -> None:
        self.backend = backend
        self.registry = registry
        self.timeout_s = timeout_s
        self.row_cap = row_cap
        self._cache: dict[tuple[str, str], QueryResult] = {}
        self._lock = threading.Lock()
        self._freshness: Freshness | None = None

    # -- metadata (Baton's own fixed statements, not user SQL) ---------------------------
    def freshness(self) -> Freshness:
        raw = self.backend.execute(
            "SELECT table_name, loaded_at, max_data_date FROM meta_table_load ORDER BY table_name",
            timeout_s=self.timeout_s,
            row_cap=1000,
        )
        self._freshness = Freshness(
            tables=[TableLoad(table_name=r[0], loaded_at=r[1], max_data_date=r[2]) for r in raw.rows]
        )
        return self._freshness

    def data_version(self) -> str:
        """A hash of meta_table_load, read afresh each time: a reload changes it."""
        fresh = self.freshness()
        blob = "|".join(f"{t.table_name}:{t.loaded_at.isoformat()}:{t.max_data_date}" for t in fresh.tables)
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    # -- approved statements --------------------------------------------------------------
    def run(self, approved_sql_id: str, *, user: str) -> QueryResult:
        approved = self.registry.take(approved_sql_id, user)
        version = self.data_version()
        key = (approved.approved_sql_id, version)
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit.model_copy(update={"cached": True})
        # the firewall wraps LIMIT row_limit + 1, so a row past the cap means "truncated"
        cap = min(self.row_cap, approved.row_limit)
        raw = self.backend.execute(approved.sql, timeout_s=self.timeout_s, row_cap=cap)
        evidence = "ev_" + hashlib.sha256(f"{approved.approved_sql_id}:{version}".encode()).hexdigest()[:16]
        result = QueryResult(
            evidence_id=evidence,
            approved_sql_id=approved.approved_sql_id,
            sql=approved.sql,
            columns=[Column(name=n, type=_type_name(t)) for n, t in raw.columns],
            rows=[[json_cell(v) for v in row] for row in raw.rows],
            row_count=len(raw.rows),
            truncated=raw.truncated,
            elapsed_ms=round(raw.elapsed_ms, 3),
            data_version=version,
        )
        with self._lock:
            self._cache[key] = result
        return result
