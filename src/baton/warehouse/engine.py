"""Engine profiles: everything Baton must know about one kind of warehouse, in one class.

Modelled on sqlglot's one-``Dialect``-class-per-engine: a profile names its SQL dialect and
URL schemes, opens a hardened read-only backend, estimates a statement's cost, and holds the
table that maps its driver's exceptions into Baton's error tree. Code elsewhere asks the
profile (``engine.dialect``) and never compares engine names.

Profiles are registered by name and imported lazily, so a DuckDB user never imports psycopg.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Protocol

from baton.contracts.common import Dialect
from baton.contracts.query import ForeignKey
from baton.errors import BatonError, ConfigError, ToolFailure
from baton.messages import both


class ConnectionSettings(Protocol):
    """What an engine needs to open a backend (``baton.config.Settings`` provides it)."""

    @property
    def warehouse_url(self) -> str: ...

    @property
    def memory_limit(self) -> str: ...

    @property
    def threads(self) -> int: ...

    def duckdb_path(self) -> Path: ...


@dataclass(frozen=True)
class RawResult:
    """What a backend returns for one statement: typed columns, rows, truncation and time."""

    columns: list[tuple[str, str]]
    rows: list[tuple[Any, ...]]
    truncated: bool
    elapsed_ms: float


class Backend(Protocol):
    """One open, read-only connection to a warehouse (what the runner drives)."""

    engine: Engine

    def execute(self, sql: str, *, timeout_s: float = ..., row_cap: int = ...) -> RawResult: ...

    def explain_cost(self, sql: str) -> float: ...

    def connect(self) -> None:
        """Open the connection now rather than at the first statement (once; any thread)."""
        ...

    def schema(self) -> dict[str, dict[str, str]]: ...

    def foreign_keys(self) -> list[ForeignKey]:
        """The schema's declared single-column foreign keys (``baton init`` drafts joins from them)."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class ErrorRule:
    """Driver exceptions of these types become ``error`` with the message ``key`` — when ``says``
    is given, only those whose text holds one of its phrases (one gRPC exception type carries a
    refused TLS handshake and every other transport failure alike)."""

    types: tuple[type[BaseException], ...]
    error: type[BatonError]
    key: str
    says: tuple[str, ...] = ()


class Engine:
    """An engine profile. Subclasses set the class attributes and implement :meth:`open`."""

    name: ClassVar[str]
    dialect: ClassVar[Dialect]
    schemes: ClassVar[tuple[str, ...]]
    max_concurrent_statements: ClassVar[int] = 1
    """How many statements of one run may be in flight at once on one backend (a single
    connection or a locked one runs them one at a time; a cluster takes several)."""

    fills_series_gaps: ClassVar[bool] = True
    """Whether an answer's series joins its measured rows to a spine of periods, so quiet periods
    are zeros (``baton.catalog.spine``); where the engine's cost estimate cannot take that join,
    the gaps stay and the answer names them."""

    opens_locally: ClassVar[bool] = False
    """Whether opening the warehouse is bounded by this machine (a file: milliseconds), so a
    command may open it early, on a thread, and wait for it at exit; a server that does not
    answer would hold a finished command until its connect timeout."""

    def open(self, settings: ConnectionSettings) -> Backend:
        raise NotImplementedError

    def error_rules(self) -> Sequence[ErrorRule]:
        """The driver-exception table, most specific first (the first matching rule wins)."""
        return ()

    def translate(self, exc: BaseException, **fields: Any) -> BatonError:
        """``exc`` as a typed Baton error. The engine's own text quotes data values and the
        rewritten SQL, so it goes to the error's ``internal`` part (the run's trace only), never
        into the message or ``detail`` a user reads; they see the code and the exception's type."""
        for rule in self.error_rules():
            if isinstance(exc, rule.types) and (not rule.says or any(s in str(exc) for s in rule.says)):
                en, zh = both(rule.key, error=type(exc).__name__, **fields)
                return rule.error(en, zh, detail=dict(fields), internal=engine_internal(exc))
        en, zh = both("warehouse.failed", error=type(exc).__name__)
        return ToolFailure(en, zh, internal=engine_internal(exc))

    def accepts(self, url: str) -> bool:
        return url.startswith(self.schemes)


def engine_internal(exc: BaseException) -> dict[str, Any]:
    """A driver exception's own text, for an error's trace-only ``internal`` part."""
    return {"engine_error": str(exc)[:2000], "engine_exception": type(exc).__name__}


_REGISTRY: dict[str, str] = {
    "duckdb": "baton.warehouse.duckdb_backend:DuckDBEngine",
    "postgres": "baton.warehouse.postgres_backend:PostgresEngine",
    "spark": "baton.warehouse.spark_backend:SparkEngine",
}
_SCHEMES: dict[str, str] = {
    "duckdb://": "duckdb",
    "postgresql://": "postgres",
    "postgres://": "postgres",
    "sc://": "spark",
}


def engine_named(name: str) -> Engine:
    """The profile registered as ``name`` (its module is imported on first use)."""
    target = _REGISTRY.get(name)
    if target is None:
        raise ConfigError(
            *both("warehouse.unknown_engine", name=name, known=", ".join(sorted(_REGISTRY))),
        )
    module, _, cls = target.partition(":")
    engine = getattr(importlib.import_module(module), cls)()
    assert isinstance(engine, Engine)
    return engine


def engine_name_for_url(url: str) -> str | None:
    """The registered engine for a warehouse URL, by scheme (no driver is imported)."""
    return next((name for scheme, name in _SCHEMES.items() if url.startswith(scheme)), None)


def engine_for_url(url: str) -> Engine:
    name = engine_name_for_url(url)
    if name is None:
        raise ConfigError(
            *both("warehouse.unsupported_url", url=url, schemes=", ".join(_SCHEMES)),
        )
    return engine_named(name)


def supported_schemes() -> tuple[str, ...]:
    return tuple(_SCHEMES)
