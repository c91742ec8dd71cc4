"""The daily query budget on aggregate-only tables (``AggregateOnly.max_queries_per_day``).

One statement cannot subtract two approved aggregates any more (see
:func:`baton.sql.access.check_aggregate_only`), but a reader can run two statements and subtract
their results. No check of one statement can see that; a budget of statements per user and day
bounds how many such differences can be taken. Enforcing it needs state across runs, so this is
a function the governed path calls before running an approved statement: the caller counts the
user's *executed* statements that read any aggregate-only table in the last 24 hours (a refused
statement does not count) and passes that number.
"""

from __future__ import annotations

from collections.abc import Iterable

from baton.errors import FirewallError
from baton.policy import Principal


def check_aggregate_query_budget(principal: Principal, tables: Iterable[str], used_today: int) -> None:
    """Refuse (``query_budget_exceeded``) a statement reading an aggregate-only table whose budget
    ``used_today`` has reached. ``tables``: what the statement reads (``ApprovedSql.tables``);
    ``used_today``: the user's executed statements on aggregate-only tables in the last 24 hours.
    Tables without a budget (``max_queries_per_day`` None) and other tables are never refused."""
    if used_today < 0:
        raise ValueError(f"used_today must be >= 0, got {used_today}")
    for table in sorted(set(tables)):
        rule = principal.aggregate_only.get(table)
        budget = None if rule is None else rule.max_queries_per_day
        if budget is not None and used_today >= budget:
            raise FirewallError(
                "query_budget_exceeded", user=principal.user, table=table, budget=budget, used=used_today
            )
