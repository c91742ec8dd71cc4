"""The one governed query path: firewall as the asking user, cost check, row cap, run, evidence.

Every statement Baton runs for a person goes through :class:`GovernedQuery` — the compiled
answer query of ``ask``, every query of every analysis agent, the completeness check, replay's
re-execution and ``baton sql check|run``. It approves the statement with the user's grants
(row filters, PII, LIMIT, partition filter, cost estimate against the user's cost budget),
traces the policy decision *before* the tool call, runs only the approved id, and records the
result as run evidence. All of a run's statements read one data version.
"""

from __future__ import annotations

import contextvars
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from functools import lru_cache
from typing import Any, Protocol, TypeVar

from sqlglot import exp

from baton.contracts.common import Dialect, Language
from baton.contracts.query import Freshness, QueryResult
from baton.errors import BatonError, PermissionDenied
from baton.messages import both
from baton.policy import Principal
from baton.sql import ApprovalRegistry, ApprovedSql, approve
from baton.sql.budget import check_aggregate_query_budget
from baton.warehouse.engine import Backend
from baton.warehouse.runner import Runner

T = TypeVar("T")


class RunHooks(Protocol):
    """What a governed query tells the run it belongs to (``RunContext`` provides it)."""

    def policy_decision(self, decision: str, **payload: Any) -> None: ...

    def tool_call(self, tool: str, args: dict[str, Any], fn: Callable[[], T]) -> T: ...

    def charge_cost(self, cost: float) -> None: ...

    def affords(self, tool_calls: int, cost: float) -> bool: ...

    def record_query(self, name: str, approved: ApprovedSql, result: QueryResult, *, user: str) -> None: ...

    def log_statement(self, approved: ApprovedSql) -> None: ...

    def statements_since(self, user: str, tables: Sequence[str], since: datetime) -> int: ...


@dataclass
class GovernedQuery:
    """Approve-then-run for one user, on one session's warehouse."""

    principal: Principal
    schema: Mapping[str, Mapping[str, str]]
    registry: ApprovalRegistry
    runner: Runner
    backend: Backend
    large_tables: Mapping[str, str]
    language: Language
    row_cap: int
    hooks: RunHooks | None = None
    _freshness: Freshness | None = field(default=None, init=False)

    @property
    def dialect(self) -> Dialect:
        return self.backend.engine.dialect

    @property
    def user(self) -> str:
        return self.principal.user

    def approve(self, statement: str | exp.Expr, *, name: str, recheck: bool = False) -> ApprovedSql:
        """The firewall's verdict as this user; a refusal is traced as a denial and raised.
        ``recheck``: a resumed run approving a finished step's statement again (traced as such,
        its cost already charged)."""
        try:
            approved = self._verdict(self._render(statement))
        except BatonError as exc:
            if self.hooks is not None:
                self.hooks.policy_decision(
                    "deny", gate="firewall", query=name, user=self.user, error=exc.to_trace_dict("en"), recheck=recheck
                )
            raise
        self._allowed(approved, name, recheck=recheck)
        return approved

    def _render(self, statement: str | exp.Expr) -> str:
        return statement if isinstance(statement, str) else statement.sql(dialect=self.dialect)

    def _verdict(self, sql: str) -> ApprovedSql:
        """The firewall's check with the engine's cost estimate; records nothing (any thread). The
        same statement under the same grants, policy and limits is the same verdict: reused."""
        p = self.principal
        limits = (self.dialect, self.language, self.row_cap, id(self.schema), tuple(sorted(self.large_tables.items())))
        key = (sql, p.user, p.grants_fingerprint(), p.policy_version, limits)
        recalled = self.registry.recall(key)
        if recalled is not None:
            return recalled
        approved = self._approve(sql)
        self.registry.remember(key, approved)
        return approved

    def _approve(self, sql: str) -> ApprovedSql:
        return approve(
            sql,
            principal=self.principal,
            schema=self.schema,
            dialect=self.dialect,
            language=self.language,
            row_limit=self.row_cap,
            large_tables=self.large_tables,
            estimate_cost=self.backend.explain_cost,  # every role has a cost budget
        )

    def _allowed(self, approved: ApprovedSql, name: str, *, recheck: bool) -> None:
        """Register an approval, trace it and charge its estimated cost."""
        self.registry.register(approved)
        if self.hooks is not None:
            self.hooks.policy_decision(
                "allow",
                gate="firewall",
                tool="warehouse.query",
                query=name,
                user=self.user,
                approved_sql_id=approved.approved_sql_id,
                checks=list(approved.checks_passed),
                row_filters=list(approved.row_filters_applied),
                recheck=recheck,
            )
            if approved.estimated_cost is not None and not recheck:
                self.hooks.charge_cost(float(approved.estimated_cost))

    def execute(self, approved: ApprovedSql, *, name: str) -> QueryResult:
        """Run an approved statement (at the run's data version) and record it as evidence.
        Only inside a run: every read of the warehouse is audited and counted (``Session.sql``
        runs one statement as a run); without one it is refused."""
        hooks = self.hooks
        if hooks is None:
            raise PermissionDenied(*both("runs.execute_outside_run"), detail={"query": name})
        self.registry.register(approved)  # a checkpointed approval from another process
        self._check_query_budget(approved, name, hooks)
        version = self.runner.version_of(self.freshness())

        def call() -> QueryResult:
            return self.runner.run(approved.approved_sql_id, user=self.user, data_version=version)

        hooks.log_statement(approved)
        return self._recorded(approved, name, hooks, call)

    def _recorded(
        self, approved: ApprovedSql, name: str, hooks: RunHooks, call: Callable[[], QueryResult]
    ) -> QueryResult:
        result = hooks.tool_call("warehouse.query", {"approved_sql_id": approved.approved_sql_id, "query": name}, call)
        hooks.record_query(name, approved, result, user=self.user)
        return result

    def _check_query_budget(self, approved: ApprovedSql, name: str, hooks: RunHooks) -> None:
        """The user's daily budget of statements on aggregate-only tables (differencing two
        results is bounded by how many results there are); counted from the run store."""
        budgeted = [
            t for t in approved.tables if (rule := self.principal.aggregate_only.get(t)) and rule.max_queries_per_day
        ]
        if not budgeted:
            return
        used = hooks.statements_since(self.user, budgeted, datetime.now(UTC) - timedelta(days=1))
        try:
            check_aggregate_query_budget(self.principal, budgeted, used)
        except BatonError as exc:
            hooks.policy_decision("deny", gate="query_budget", query=name, user=self.user, error=exc.to_dict("en"))
            raise

    def freshness(self) -> Freshness:
        """The warehouse's freshness, read once per run (its hash is the run's data version)."""
        if self._freshness is None:
            self._freshness = self.runner.freshness()
        return self._freshness

    def first_day(
        self, table: str, column: str, *, up_to: date | None = None, after: date | None = None
    ) -> date | None:
        """A table's first day with rows up to ``up_to`` (or after ``after``): system metadata,
        like freshness — the span of the data, not the user's rows — so it passes no firewall
        and counts against no statement budget; read once per version of the data, as results are."""
        statement = _first_day_sql(table, column, up_to, after, self.dialect)
        return self.runner.first_day(statement, data_version=self.runner.version_of(self.freshness()))

    def run(self, name: str, expression: exp.Expr) -> QueryResult:
        """Approve and run one catalog-built statement (what an analysis agent calls)."""
        return self.execute(self.approve(expression, name=name), name=name)

    def run_all(self, items: Sequence[tuple[str, exp.Expr]]) -> list[QueryResult]:
        """Independent catalog-built statements, exactly as :meth:`run` one after another gives
        them (results, trace, evidence order), with the engine's work — cost estimates, then
        execution — for up to ``engine.max_concurrent_statements`` of them at once. Only the
        waits overlap: the run records everything on this thread, in the items' order. A
        refusal, a table with a daily query budget (each statement is counted before it runs),
        or a run budget the whole batch would not fit in takes the serial path."""
        width = min(self.backend.engine.max_concurrent_statements, len(items))
        hooks = self.hooks
        if width <= 1 or hooks is None:
            return [self.run(name, expression) for name, expression in items]
        sqls = [self._render(expression) for _, expression in items]
        version = self.runner.version_of(self.freshness())
        with ThreadPoolExecutor(width, thread_name_prefix="baton-query") as pool:
            # each task runs in a copy of this thread's context: a message it renders names the run's catalog
            checks = [pool.submit(contextvars.copy_context().run, self._verdict, sql) for sql in sqls]
            if any(c.exception() is not None for c in checks) or any(self._budgeted(c.result()) for c in checks):
                return [self.run(name, expression) for name, expression in items]
            approved = [c.result() for c in checks]
            if not hooks.affords(len(approved), sum(a.estimated_cost or 0.0 for a in approved)):
                return [
                    self.run(name, expression) for name, expression in items
                ]  # the budget stops it where serial would
            for verdict in approved:
                self.registry.register(verdict)  # the runner takes it from another thread
            pending = [
                pool.submit(
                    contextvars.copy_context().run,
                    self.runner.run,
                    a.approved_sql_id,
                    user=self.user,
                    data_version=version,
                )
                for a in approved
            ]
            return self._replayed(items, approved, pending, hooks)

    def _replayed(
        self,
        items: Sequence[tuple[str, exp.Expr]],
        approved: list[ApprovedSql],
        pending: list[Future[QueryResult]],
        hooks: RunHooks,
    ) -> list[QueryResult]:
        """The serial path's records over results already on their way. When it stops early (a
        budget, a failed statement), statements that reached the warehouse anyway are still
        counted in the statement log; those not started yet are cancelled."""
        results: list[QueryResult] = []
        logged = 0
        try:
            for (name, _), verdict, future in zip(items, approved, pending, strict=True):
                self._allowed(verdict, name, recheck=False)
                hooks.log_statement(verdict)
                logged += 1
                results.append(self._recorded(verdict, name, hooks, future.result))
        except BaseException:
            for verdict, future in zip(approved[logged:], pending[logged:], strict=True):
                if not future.cancel():
                    hooks.log_statement(verdict)
            raise
        return results

    def _budgeted(self, approved: ApprovedSql) -> bool:
        return any((rule := self.principal.aggregate_only.get(t)) and rule.max_queries_per_day for t in approved.tables)


@lru_cache(maxsize=256)
def _first_day_sql(table: str, column: str, up_to: date | None, after: date | None, dialect: Dialect) -> str:
    """A first-day statement, rendered once per table, column, bound and engine."""
    from baton.catalog.quality_queries import first_day

    return first_day(table, column, up_to=up_to, after=after).sql(dialect=dialect)
