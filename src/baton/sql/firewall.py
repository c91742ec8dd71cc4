"""``approve``: the one gate every SQL statement passes before it may run.

Draft SQL goes in; either an :class:`ApprovedSql` (rewritten SQL, the checks that passed and
an id bound to grants and policy version) comes out, or a :class:`FirewallError` with a code.
Any unexpected failure inside the firewall is itself a refusal: it fails closed.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import get_args

from pydantic import BaseModel, ConfigDict, Field
from sqlglot import exp
from sqlglot.errors import OptimizeError
from sqlglot.optimizer.qualify import qualify

from baton.contracts.common import Dialect, Language
from baton.errors import BatonError, FirewallError
from baton.messages import localized
from baton.policy import Principal
from baton.sql.access import (
    check_columns,
    check_cross_joins,
    check_partition_filters,
    check_row_requests,
    check_tables,
)
from baton.sql.aggregate_only import check_aggregate_only
from baton.sql.growth import check_growth
from baton.sql.masked import check_masked_use
from baton.sql.rewrite import enforce_min_group_size, secure_sources, suppression_query, wrap_limit
from baton.sql.statement import check_functions, parse_single_query


class ApprovedSql(BaseModel):
    """A statement the firewall approved; the runner executes only these, by id.

    ``row_limit`` is the row cap the runner enforces; ``sql`` ends in ``LIMIT row_limit + 1`` so
    that a (row_limit + 1)-th row, when it exists, tells the runner the result was truncated.
    """

    model_config = ConfigDict(frozen=True)

    approved_sql_id: str
    sql: str
    original_sql: str
    display_sql: str = Field(default="", description="the same statement laid out for reading")
    user: str
    dialect: str
    policy_version: str
    grants_fingerprint: str
    tables: list[str]
    checks_passed: list[str]
    masked_columns: list[str]
    row_filters_applied: list[str]
    partition_filters: list[str]
    row_limit: int
    estimated_cost: float | None
    min_group_sizes: dict[str, int] = Field(
        default_factory=dict,
        description="aggregate-only tables whose groups of fewer than k rows were suppressed (HAVING COUNT(*) >= k)",
    )
    suppression_sql: str | None = Field(
        default=None,
        description="counts the groups the outermost level suppressed (one row, one column); built from the "
        "secured statement, run by the runner right after it. None when nothing is suppressed or the floor "
        "sits on a nested level only",
    )
    created_at: datetime
    expires_at: datetime


def approve(
    sql: str,
    *,
    principal: Principal,
    schema: Mapping[str, Mapping[str, str]],
    dialect: Dialect = "duckdb",
    language: Language = "en",
    row_limit: int | None = None,
    estimate_cost: Callable[[str], float] | None = None,
    large_tables: Mapping[str, str] | None = None,
    ttl_seconds: int = 900,
    now: datetime | None = None,
) -> ApprovedSql:
    """Check ``sql`` for ``principal`` and return it rewritten, or raise FirewallError."""
    try:
        return _approve(
            sql,
            principal=principal,
            schema=schema,
            dialect=dialect,
            row_limit=row_limit,
            estimate_cost=estimate_cost,
            large_tables=large_tables or {},
            ttl_seconds=ttl_seconds,
            now=now,
        )
    except FirewallError as exc:
        exc.detail.setdefault("language", language)
        exc.detail.setdefault("user", principal.user)
        raise
    except Exception as exc:  # fail closed: anything unexpected inside the firewall is a refusal
        reason = "SQL too deeply nested" if isinstance(exc, RecursionError) else f"{type(exc).__name__}: {exc}"
        raise FirewallError("parse_error", reason=reason[:200]) from exc


def _approve(
    sql: str,
    *,
    principal: Principal,
    schema: Mapping[str, Mapping[str, str]],
    dialect: Dialect,
    row_limit: int | None,
    estimate_cost: Callable[[str], float] | None,
    large_tables: Mapping[str, str],
    ttl_seconds: int,
    now: datetime | None,
) -> ApprovedSql:
    if dialect not in get_args(Dialect):
        raise FirewallError("unsupported_syntax", what=f"the dialect {dialect!r}")
    catalog = {table.lower(): {c.lower(): t for c, t in cols.items()} for table, cols in schema.items()}
    checks: list[str] = []

    statement = parse_single_query(sql, dialect)
    checks += ["single_statement", "read_only"]
    tables = _check_statement(statement, principal, catalog, checks)
    qualified = _qualify(statement, principal, catalog, tables, dialect)
    partition_filters = _check_reads(qualified, principal, catalog, tables, large_tables, checks)
    floors = enforce_min_group_size(qualified, principal)
    if floors.tables:
        checks.append("min_group_size")

    report = secure_sources(qualified, principal, catalog, dialect)
    if report.row_filters_applied:
        checks.append("row_filters_injected")
    if report.masked_columns:
        checks.append("pii_masked")
    counting = suppression_query(floors)  # from the secured statement, before LIMIT wraps it
    suppression_sql = None if counting is None else counting.sql(dialect=dialect, comments=False)
    limit = min(value for value in (row_limit, principal.max_rows) if value)
    final = wrap_limit(qualified, limit + 1)  # one extra row tells the runner the result was truncated
    checks.append("row_limit")
    rewritten = final.sql(dialect=dialect, comments=False)
    display = final.sql(dialect=dialect, comments=False, pretty=True, copy=False)  # last use of `final`

    # Defence in depth: the text we hand to the engine must itself pass the statement checks.
    check_functions(parse_single_query(rewritten, dialect))
    if suppression_sql is not None:
        check_functions(parse_single_query(suppression_sql, dialect))

    cost = None if estimate_cost is None else _within_budget(rewritten, estimate_cost, principal)
    if cost is not None:
        checks.append("cost_within_budget")

    fingerprint = principal.grants_fingerprint()
    created = now or datetime.now(UTC)
    return ApprovedSql(
        approved_sql_id=approved_sql_id(rewritten, fingerprint, principal.policy_version, dialect),
        sql=rewritten,
        original_sql=sql,
        display_sql=display,
        user=principal.user,
        dialect=dialect,
        policy_version=principal.policy_version,
        grants_fingerprint=fingerprint,
        tables=tables,
        checks_passed=checks,
        masked_columns=report.masked_columns,
        row_filters_applied=report.row_filters_applied,
        partition_filters=partition_filters,
        row_limit=limit,
        estimated_cost=cost,
        min_group_sizes=floors.tables,
        suppression_sql=suppression_sql,
        created_at=created,
        expires_at=created + timedelta(seconds=ttl_seconds),
    )


def _check_statement(
    statement: exp.Query, principal: Principal, catalog: Mapping[str, Mapping[str, str]], checks: list[str]
) -> list[str]:
    """Checks on the raw parse: functions, growth, tables granted; returns the tables read."""
    check_functions(statement)
    checks.append("functions_allowed")
    check_growth(statement)  # before name resolution walks it and long before the engine plans it
    checks.append("growth_bounded")
    tables = check_tables(statement, principal, catalog)
    checks.append("tables_granted")
    return tables


def _check_reads(
    qualified: exp.Query,
    principal: Principal,
    catalog: Mapping[str, Mapping[str, str]],
    tables: list[str],
    large_tables: Mapping[str, str],
    checks: list[str],
) -> list[str]:
    """Checks on the resolved statement: columns and PII, aggregate-only tables, explicit row
    requests, partition filters, cross joins; returns the partition filters applied."""
    check_columns(qualified, principal)
    check_masked_use(qualified, principal)
    checks += ["columns_granted", "pii_policy"]
    check_aggregate_only(qualified, principal)
    if principal.aggregate_only:
        checks.append("aggregate_only")
    check_row_requests(qualified, principal)
    partition_filters = check_partition_filters(qualified, large_tables)
    if large_tables:
        checks.append("partition_filter")
    check_cross_joins(qualified, {t: principal.readable_columns(t, list(catalog[t])) for t in tables})
    checks.append("no_cross_join")
    return partition_filters


def _within_budget(rewritten: str, estimate_cost: Callable[[str], float], principal: Principal) -> float:
    """The engine's estimate of ``rewritten``, refused past the user's budget (every role has
    one: ``Role.max_cost``). Any failure of the estimator (it runs the engine's EXPLAIN) refuses:
    no estimate, no approval; the engine's text, which may quote values and the rewritten SQL, is
    for the trace only."""
    try:
        cost = float(estimate_cost(rewritten))
    except Exception as exc:
        said = exc if isinstance(exc, BatonError) else None
        refused = FirewallError(
            "cost_estimate_failed",
            reason=said.message("en") if said else type(exc).__name__,
            reason_zh=said.message("zh") if said else type(exc).__name__,
        )
        refused.internal.update(said.internal if said and said.internal else {"engine_error": str(exc)[:2000]})
        raise refused from exc
    if cost > principal.max_cost:
        raise FirewallError("cost_exceeded", cost=cost, budget=principal.max_cost, user=principal.user)
    return cost


def _qualify(
    statement: exp.Query,
    principal: Principal,
    catalog: Mapping[str, Mapping[str, str]],
    tables: list[str],
    dialect: str,
) -> exp.Query:
    """Resolve every column against what the user may read; stars expand to exactly that.

    If resolution fails, resolve again against the full catalog to say precisely why
    (a denied PII column, an ungranted column) instead of "unknown column".
    """
    readable: dict[str, object] = {
        table: {c: t for c, t in catalog[table].items() if principal.can_read_column(table, c)} for table in tables
    }
    try:
        qualified = qualify(
            statement.copy(),
            dialect=dialect,
            schema=readable,
            validate_qualify_columns=True,
            expand_stars=True,
            quote_identifiers=True,
        )
    except OptimizeError as exc:
        reason = str(exc).splitlines()[0][:160]
        try:
            full = qualify(
                statement.copy(),
                dialect=dialect,
                schema={table: dict(catalog[table]) for table in tables},
                validate_qualify_columns=True,
                expand_stars=False,
                quote_identifiers=True,
            )
        except OptimizeError:
            full = None
        if full is not None:
            check_columns(full, principal)  # raises the precise refusal when there is one
        else:
            missing = _missing_column(statement, catalog, tables)
            if missing is not None:  # no table has it: a typo in the catalog, most often
                table, column = missing
                raise FirewallError(
                    "column_not_permitted",
                    user=principal.user,
                    column=f"{table}.{column}",
                    table=table,
                    **localized("reason", "sql.no_such_column", table=table),
                ) from exc
        named = _UNRESOLVED.search(reason)
        raise FirewallError(
            "column_not_permitted",
            user=principal.user,
            column=named.group(1) if named else "?",
            **localized("reason", "sql.unresolved_column", reason=reason),
        ) from exc
    if not isinstance(qualified, exp.Query):
        raise FirewallError("parse_error", reason="the query did not survive name resolution")
    return qualified


_UNRESOLVED = re.compile(r"Column '([^']+)'")
"""The column sqlglot names when it cannot resolve one."""


def _missing_column(
    statement: exp.Query, catalog: Mapping[str, Mapping[str, str]], tables: list[str]
) -> tuple[str, str] | None:
    """(table, column) of the first column that no table of the statement has and that is no
    alias the statement defines; the table is the one the column is qualified with, else the
    statement's only table, else every table it reads."""
    sources = {t.alias_or_name: t.name for t in statement.find_all(exp.Table) if t.name in catalog}
    own = {table: {c.lower() for c in catalog[table]} for table in tables if table in catalog}
    known = set().union(*own.values()) if own else set()
    aliases = {a.alias.lower() for a in statement.find_all(exp.Alias, exp.TableAlias) if a.alias}
    aliases |= {c.name.lower() for t in statement.find_all(exp.TableAlias) for c in t.columns}
    for column in statement.find_all(exp.Column):
        if isinstance(column.this, exp.Star):
            continue
        name, qualifier = column.name, column.table
        if qualifier in sources:
            table = sources[qualifier]
            if name.lower() not in own.get(table, set()):
                return table, name
        elif name.lower() not in known and name.lower() not in aliases:
            return (tables[0] if len(tables) == 1 else ", ".join(tables)), name
    return None


def approved_sql_id(canonical_sql: str, grants_fingerprint: str, policy_version: str, dialect: str) -> str:
    """sha256 of the canonical (rewritten) SQL, the grants and the policy version."""
    payload = json.dumps(
        {"sql": canonical_sql, "grants": grants_fingerprint, "policy": policy_version, "dialect": dialect},
        ensure_ascii=False,
        sort_keys=True,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()
