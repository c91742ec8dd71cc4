"""Does a statement return detail rows (one row per row of a table) or aggregates?

A role's ``export_detail`` says whether its users may take detail rows out of Baton as a
report or an export (``baton.report.deliver``). Answers the catalog compiles are aggregates; a
statement a person wrote (``baton sql run``) is classified here, from its parse and sqlglot's
scopes:

* The outermost query level decides. A set operation (UNION, INTERSECT, EXCEPT) returns detail
  when any branch does.
* A SELECT aggregates when it has an aggregate function of its own (one inside a window —
  ``COUNT(*) OVER ()`` — or inside a subquery does not count). A GROUP BY without one does not
  count, nor does DISTINCT: ``GROUP BY ALL`` and ``SELECT DISTINCT user_id`` list rows.
* A SELECT that does not aggregate returns aggregates only when every source it reads is itself
  an aggregating subquery or CTE (``WITH t AS (… GROUP BY …) SELECT * FROM t``); a physical table,
  a table function or a detail subquery among its sources makes it detail; a VALUES list of
  literals does not (it holds no table's rows). A SELECT that reads nothing (``SELECT 1``) returns
  no table's rows.
* Whatever it aggregates, a SELECT whose select list holds a scalar subquery that returns detail
  (``SELECT COUNT(*), (SELECT name FROM users LIMIT 1)``) returns detail.

Anything that does not parse, or is not a query, is detail: the classification fails closed.
Grouping by an identifying column (``GROUP BY user_id``) counts as aggregating; tables that must
never be read row by row are the policy's ``aggregate_only`` (with ``min_group_size``), which the
firewall enforces before anything runs.
"""

from __future__ import annotations

from sqlglot import exp, parse_one
from sqlglot.errors import SqlglotError
from sqlglot.optimizer.scope import Scope, build_scope, walk_in_scope

from baton.contracts.common import Dialect


def returns_detail_rows(sql: str, dialect: Dialect | str) -> bool:
    """Whether ``sql`` (in ``dialect``) returns detail rows rather than aggregates."""
    try:
        statement = parse_one(sql, read=dialect)
        root = build_scope(statement) if isinstance(statement, exp.Query) else None
    except (SqlglotError, RecursionError, ValueError):
        return True
    return root is None or _detail(root)


def _detail(scope: Scope) -> bool:
    query = scope.expression
    if isinstance(query, exp.SetOperation):
        return not scope.set_operation_scopes or any(_detail(branch) for branch in scope.set_operation_scopes)
    if isinstance(query, exp.Values):
        return not _constants(query)
    if not isinstance(query, exp.Select):
        return True
    if any(_detail(sub) for sub in scope.subquery_scopes if _in_select_list(sub.expression, query)):
        return True
    if _aggregates(query):
        return False
    sources = [source for _node, source in scope.selected_sources.values()]
    return any(not isinstance(source, Scope) or _detail(source) for source in sources)


def _constants(values: exp.Values) -> bool:
    """A VALUES list of literals (a series' spine of dates): it holds no table's rows."""
    return all(
        isinstance(cell, exp.Literal) or (isinstance(cell, exp.Cast) and isinstance(cell.this, exp.Literal))
        for row in values.expressions
        for cell in (row.expressions if isinstance(row, exp.Tuple) else [row])
    )


def _aggregates(select: exp.Select) -> bool:
    """An aggregate function of this level (not in a window, not in a subquery). A GROUP BY
    alone is DISTINCT by another name (``GROUP BY ALL`` or every selected column lists the rows)."""
    for part in [*select.expressions, select.args.get("having")]:
        if part is None:
            continue
        for node in walk_in_scope(part):
            if isinstance(node, exp.AggFunc) and not _windowed(node) and _level_of(node) is select:
                return True
    return False


def _windowed(node: exp.Expr) -> bool:
    """An aggregate used as a window function (``SUM(x) OVER …``, ``COUNT(*) FILTER … OVER …``)."""
    parent = node.parent
    while isinstance(parent, exp.Filter):
        parent = parent.parent
    return isinstance(parent, exp.Window)


def _level_of(node: exp.Expr) -> exp.Expr | None:
    """The query level a node belongs to: its nearest enclosing SELECT or set operation."""
    parent = node.parent
    while parent is not None and not isinstance(parent, exp.Query):
        parent = parent.parent
    return parent


def _in_select_list(subquery: exp.Expr, select: exp.Select) -> bool:
    """Whether a subquery of ``select`` sits in its select list (its values reach the output)."""
    node = subquery
    while node.parent is not None and node.parent is not select:
        node = node.parent
    return node.parent is select and node.arg_key == "expressions"
