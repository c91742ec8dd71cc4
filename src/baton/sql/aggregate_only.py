"""Aggregate-only tables: a role reads them as aggregates of whole groups, never as detail rows
nor as a sub-group picked out of a group (code ``detail_not_permitted``; the reason says which
rule). The minimum group size that goes with them is enforced by
:func:`baton.sql.rewrite.enforce_min_group_size`; differencing *across* statements is bounded by
:func:`baton.sql.budget.check_aggregate_query_budget`.
"""

from __future__ import annotations

from collections.abc import Iterator

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from baton.errors import FirewallError
from baton.messages import localized
from baton.policy import Principal
from baton.sql.access import (
    enclosing_aggregate,
    is_aggregate,
    physical_columns,
    physical_scans,
    resolve_source,
    scope_aggregates,
    walk_own_scope,
)

SUMMARY_AGGREGATES: tuple[type[exp.AggFunc], ...] = (exp.Sum, exp.Avg, exp.Count)
"""What a measure of an aggregate-only table may be aggregated with. MIN, MAX, ANY_VALUE and
other order statistics return one row's exact value however large the group is."""


def check_aggregate_only(statement: exp.Expr, principal: Principal) -> None:
    """Aggregate-only tables yield aggregates of whole groups, never detail rows nor a sub-group
    picked out of a group (code ``detail_not_permitted``, the reason says which rule). Per table:

    * the statement reads it through one scan: two scans — a scalar subquery minus another, a
      self-join, a UNION of two scans, two CTEs — can be subtracted to reveal a group that the
      minimum group size (``HAVING COUNT(*) >= k``) hides. One scan read twice through a CTE is fine;
    * the level reading it aggregates (GROUP BY or aggregate functions), without GROUP BY ALL, and
      without ROLLUP, CUBE or GROUPING SETS (a subtotal minus its groups reveals the hidden ones);
    * that level refers to no outer query: a correlated subquery or LATERAL aggregates another
      group for every outer row, which is many scans;
    * every aggregate of that level takes a bare column, ``*``, ``DISTINCT`` column or a sum or
      difference of columns, and no FILTER. ``SUM(x) FILTER (WHERE …)``, ``SUM(CASE WHEN … THEN x
      END)``, ``SUM(x * (c = 'v')::INT)``, ``COUNT(*) FILTER (…)`` or a polynomial in a measure
      isolate rows that ``COUNT(*) >= k`` never counts. Arithmetic between plain aggregates of the
      level (``SUM(x) / COUNT(*)``) stays allowed: they cover the same rows. A catalog metric whose
      leaves filter differently (a refund rate) compiles to such FILTERs and is refused here;
    * dimensions may be grouped and filtered on, measures appear only inside aggregates, any other
      column only as ``COUNT(col)`` / ``COUNT(DISTINCT col)``.

    Differencing across statements (two approved results subtracted by the reader) is beyond one
    statement: ``max_queries_per_day`` bounds it (:func:`baton.sql.budget.check_aggregate_query_budget`).
    """
    if not principal.aggregate_only:
        return
    scans = [scan for scan in physical_scans(statement) if scan.table in principal.aggregate_only]
    read: set[str] = set()
    for scan in scans:
        if scan.table in read:
            raise _detail(principal, scan.table, "sql.one_scan")
        read.add(scan.table)
    scopes = traverse_scope(statement)
    for scan in scans:
        _check_level(scan.scope, scan.table, principal, scopes)
    _check_columns(statement, principal)


def _check_level(scope: Scope, table: str, principal: Principal, scopes: list[Scope]) -> None:
    """The query level reading aggregate-only ``table``: it aggregates whole groups only."""
    select = scope.expression
    if not scope_aggregates(select):
        raise _detail(principal, table, "sql.must_aggregate")
    group = select.args.get("group")
    if isinstance(group, exp.Group) and group.args.get("all"):
        raise _detail(principal, table, "sql.group_by_all")
    if isinstance(group, exp.Group) and (
        group.find(exp.Rollup, exp.Cube, exp.GroupingSets)
        or any(group.args.get(k) for k in ("rollup", "cube", "grouping_sets", "totals"))
    ):
        raise _detail(principal, table, "sql.grouping_sets")
    if _refers_outside(scope, scopes):
        raise _detail(principal, table, "sql.correlated_scan")
    for star in select.find_all(exp.Star):
        if enclosing_aggregate(star, select) is None and star.find_ancestor(exp.Select) is select:
            raise _detail(principal, table, "sql.select_star")
    for function in _level_aggregates(select):
        if not _plain_aggregate(function):
            raise _detail(principal, table, "sql.conditional_aggregate", function=function.sql_name())


def _check_columns(statement: exp.Expr, principal: Principal) -> None:
    """Dimensions anywhere; measures inside SUM, AVG or COUNT; other columns counted only."""
    for column, table, owner in physical_columns(statement):
        rule = principal.aggregate_only.get(table)
        if rule is None or column.name in rule.dimensions:
            continue
        aggregate = enclosing_aggregate(column, owner.expression)
        if aggregate is not None and column.name in rule.measures:
            if not isinstance(aggregate, SUMMARY_AGGREGATES):
                raise _detail(
                    principal, table, "sql.order_statistic", function=aggregate.sql_name(), column=column.name
                )
            continue
        if aggregate is not None and _counted(column, aggregate):
            continue
        raise _detail(
            principal,
            table,
            "sql.aggregate_only" if column.name in rule.measures else "sql.count_only",
            column=column.name,
        )


def _detail(principal: Principal, table: str, reason: str, **fields: str) -> FirewallError:
    """The refusal of detail from aggregate-only ``table``; ``reason`` is the message key saying why."""
    return FirewallError(
        "detail_not_permitted", user=principal.user, table=table, **localized("reason", reason, **fields)
    )


def _refers_outside(root: Scope, scopes: list[Scope]) -> bool:
    """Does ``root`` or a scope nested in it read a column of a query level outside ``root``?"""

    def within(scope: Scope | None) -> bool:  # by expression: ``scopes`` come from another traversal
        while scope is not None:
            if scope.expression is root.expression:
                return True
            scope = scope.parent
        return False

    for scope in scopes:
        if not within(scope):
            continue
        for column in scope.columns:
            if column.table:
                resolved = resolve_source(scope, column.table)
                if resolved is not None and not within(resolved[0]):
                    return True
    return False


_FROM_ARGS = frozenset({"with_", "with", "from_", "from", "joins", "laterals"})


def _level_aggregates(select: exp.Expr) -> Iterator[exp.AggFunc]:
    """The aggregate functions of this level (select list, HAVING, ORDER BY …; not in subqueries)."""
    for key, value in select.args.items():
        if key in _FROM_ARGS:
            continue
        for part in value if isinstance(value, list) else [value]:
            if isinstance(part, exp.Expr):
                yield from (
                    node for node in walk_own_scope(part) if isinstance(node, exp.AggFunc) and is_aggregate(node)
                )


def _plain_aggregate(aggregate: exp.AggFunc) -> bool:
    """No FILTER, and every argument a column, ``*``, ``DISTINCT`` column or ± of columns."""
    if isinstance(aggregate.parent, exp.Filter):
        return False
    return all(_plain_argument(argument) for argument in aggregate.iter_expressions())


def _plain_argument(node: exp.Expr) -> bool:
    if isinstance(node, exp.Column | exp.Star):
        return True
    if isinstance(node, exp.Distinct):
        return len(node.expressions) == 1 and isinstance(node.expressions[0], exp.Column)
    if isinstance(node, exp.Paren | exp.Neg):
        return _plain_argument(node.this)
    if isinstance(node, exp.Add | exp.Sub):
        return _linear(node.left) and _linear(node.right)
    return False


def _linear(node: exp.Expr) -> bool:
    """Columns added and subtracted: each row counts with the same weight, none can be singled out."""
    if isinstance(node, exp.Column):
        return True
    if isinstance(node, exp.Paren | exp.Neg):
        return _linear(node.this)
    if isinstance(node, exp.Add | exp.Sub):
        return _linear(node.left) and _linear(node.right)
    return False


def _counted(column: exp.Column, aggregate: exp.AggFunc) -> bool:
    """``COUNT(col)`` or ``COUNT(DISTINCT col)`` with the column as the whole argument."""
    if not isinstance(aggregate, exp.Count):
        return False
    argument = aggregate.this
    if isinstance(argument, exp.Distinct):
        return len(argument.expressions) == 1 and argument.expressions[0] is column
    return argument is column
