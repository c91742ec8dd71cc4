"""The runner: executes approved statements only, and returns them as evidence.

The runner never takes SQL text from a caller. It takes an ``approved_sql_id``, looks it up
in the approval registry (which checks the id's owner and expiry), runs the firewall's
rewritten SQL with a timeout and a row cap, and caches the result by approved id and data
version, so a reload of the warehouse invalidates every cached answer. When the firewall
suppressed small groups of an aggregate-only table, the runner also runs the firewall's count of
them (``suppression_sql``, same backend, same timeout) and records it with the result.

The data version is a hash of the warehouse's freshness (Baton's own fixed statement, built
from the catalog: a load log or the newest day of each table). A caller that runs several
statements as one unit (a run) reads the version once and passes it to every ``run``, so all
of its evidence refers to the same data.
"""

from __future__ import annotations

import hashlib
import threading
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from baton.contracts.answer import Column
from baton.contracts.query import Freshness, QueryResult, TableLoad
from baton.sql import ApprovalRegistry
from baton.warehouse.engine import Backend


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
    def __init__(
        self,
        backend: Backend,
        registry: ApprovalRegistry,
        *,
        timeout_s: float,
        row_cap: int,
        freshness_sql: str | None = None,
        table_names: dict[str, str] | None = None,
    ) -> None:
        self.backend = backend
        self.registry = registry
        self.timeout_s = timeout_s
        self.row_cap = row_cap
        self.freshness_sql = freshness_sql
        self._table_names = dict(table_names or {})
        self._cache: dict[tuple[str, str], QueryResult] = {}
        self._first_days: dict[tuple[str, str], date | None] = {}
        self._lock = threading.Lock()
        self._unversioned = "unversioned-" + hashlib.sha256(str(id(self)).encode()).hexdigest()[:8]

    # -- metadata (Baton's own fixed statement, built from the catalog, not user SQL) -----
    def freshness(self) -> Freshness:
        """Each tracked table's newest data date (and load time where a load log says it)."""
        if self.freshness_sql is None:
            return Freshness()
        raw = self.backend.execute(self.freshness_sql, timeout_s=self.timeout_s, row_cap=10_000)
        return Freshness(
            tables=[
                TableLoad(table_name=self._table_names.get(str(r[0]), str(r[0])), loaded_at=r[1], max_data_date=r[2])
                for r in raw.rows
            ]
        )

    def first_day(self, sql: str, *, data_version: str | None = None) -> date | None:
        """The value of a first-day statement (Baton's own ``MIN`` of a table's time column, built
        from the catalog): system metadata like freshness, read as no user. With the data
        version a caller read, kept as a result is: the same data starts on the same day."""
        key = (sql, data_version) if data_version is not None else None
        with self._lock:
            if key is not None and key in self._first_days:
                return self._first_days[key]
        raw = self.backend.execute(sql, timeout_s=self.timeout_s, row_cap=1)
        value = raw.rows[0][0] if raw.rows else None
        day = date.fromisoformat(str(value)[:10]) if value is not None else None
        if key is not None:
            with self._lock:
                self._first_days[key] = day
        return day

    def data_version(self) -> str:
        """A hash of the freshness rows, read afresh each time: a reload changes it."""
        return self.version_of(self.freshness())

    def version_of(self, fresh: Freshness) -> str:
        """The data version a freshness reading stands for. Without a freshness source the
        version is this runner's own (results are cached per session)."""
        if not fresh.tables:
            return self._unversioned
        blob = "|".join(
            f"{t.table_name}:{t.loaded_at.isoformat() if t.loaded_at else ''}:{t.max_data_date}" for t in fresh.tables
        )
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def clear_cache(self, *, metadata: bool = True) -> None:
        """Forget cached results (a benchmark measuring real execution, a forced refresh), and
        unless ``metadata`` is false the first days read (a version of the data keeps them)."""
        with self._lock:
            self._cache.clear()
            if metadata:
                self._first_days.clear()

    # -- approved statements --------------------------------------------------------------
    def run(self, approved_sql_id: str, *, user: str, data_version: str | None = None) -> QueryResult:
        """Run an approved statement; ``data_version`` pins the version a caller already read."""
        approved = self.registry.take(approved_sql_id, user)
        version = data_version or self.data_version()
        key = (approved.approved_sql_id, version)
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None:
            return hit.model_copy(update={"cached": True})
        # the firewall wraps LIMIT row_limit + 1, so a row past the cap means "truncated"
        cap = min(self.row_cap, approved.row_limit)
        raw = self.backend.execute(approved.sql, timeout_s=self.timeout_s, row_cap=cap)
        suppressed: int | None = None
        if approved.suppression_sql is not None:  # the groups the minimum group size left out
            counted = self.backend.execute(approved.suppression_sql, timeout_s=self.timeout_s, row_cap=1)
            suppressed = int(counted.rows[0][0]) if counted.rows else None
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
            min_group_size=max(approved.min_group_sizes.values(), default=None),
            suppressed_groups=suppressed,
        )
        with self._lock:
            self._cache[key] = result
        return result
