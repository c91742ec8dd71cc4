"""Masked personal data is shown, never computed on.

A user whose role masks a PII column reads it as masked text (``u***@acme.io``): the rewrite
replaces the column in every table read. Shown as it is, the value says what it is. Computed on,
it would not: ``COUNT(DISTINCT email)`` counts the few distinct masked strings (5, not 1,200),
``GROUP BY phone`` merges people, ``WHERE email = …`` compares with text no one has — numbers
for a different question, with nothing to show it. So a masked column may stand only as a
projection (aliased or not) or in ORDER BY, through any number of derived tables and CTEs that
pass it on as it is; any other use is refused with the column and the use named. Rows of
masked text compared with each other below the rows shown (DISTINCT or UNION in a derived table,
INTERSECT, EXCEPT) are a computation too. The mask keeps NULL as NULL, so ``COUNT(col)`` and
``col IS NULL`` are the real figures and allowed.
"""

from __future__ import annotations

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from baton.errors import FirewallError
from baton.policy import Principal
from baton.sql.access import resolve_source


def check_masked_use(statement: exp.Expr, principal: Principal) -> None:
    """Refuse any use of a masked column other than showing it."""
    masked_of_table = _masked_columns(principal)
    if not masked_of_table:
        return
    scopes = traverse_scope(statement)
    shown_level = _shown_level(scopes[-1].expression) if scopes else set()
    passed_on: dict[int, dict[str, str]] = {}  # a derived scope's outputs that are a masked column as it is
    for scope in scopes:
        for column in scope.columns:
            origin = _masked_origin(scope, column, masked_of_table, passed_on)
            if origin is not None and not _shown(column):
                raise FirewallError("pii_masked_computed", user=principal.user, column=origin, use=_use_of(column))
        outputs = _passed_on(scope, masked_of_table, passed_on)
        dedup = _compares_rows(scope.expression, top=id(scope.expression) in shown_level)
        if outputs and dedup:  # DISTINCT over masked text, then counted outside: a number about the mask
            raise FirewallError(
                "pii_masked_computed", user=principal.user, column=next(iter(outputs.values())), use=dedup
            )
        passed_on[id(scope.expression)] = outputs


def _shown_level(root: exp.Expr) -> set[int]:
    """The query whose rows the user sees, and the branches of it that are a set operation."""
    if isinstance(root, exp.SetOperation):
        return {id(root), *(x for side in (root.left, root.right) for x in _shown_level(side))}
    return {id(root)}


def _compares_rows(expression: exp.Expr, *, top: bool) -> str | None:
    """What in ``expression`` compares its rows' values: INTERSECT, EXCEPT and GROUP BY ALL
    anywhere (as GROUP BY the column would); DISTINCT and UNION below the rows shown (at the top
    they only shorten what is shown)."""
    if isinstance(expression, exp.Intersect | exp.Except):
        return expression.key.upper()
    group = expression.args.get("group") if isinstance(expression, exp.Select) else None
    if isinstance(group, exp.Group) and group.args.get("all"):
        return "GROUP BY ALL"
    if top:
        return None
    if isinstance(expression, exp.Union) and expression.args.get("distinct"):
        return "UNION"
    if isinstance(expression, exp.Select) and expression.args.get("distinct"):
        return "DISTINCT"
    return None


def _masked_columns(principal: Principal) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for (table, column), rule in principal.pii.items():
        if rule == "mask":
            out.setdefault(table, set()).add(column)
    return out


def _masked_origin(
    scope: Scope, column: exp.Column, masked_of_table: dict[str, set[str]], passed_on: dict[int, dict[str, str]]
) -> str | None:
    """``table.column`` of the masked column ``column`` reads, directly or through derived tables."""
    if not column.table:
        return None
    resolved = resolve_source(scope, column.table)
    if resolved is None:
        return None
    source = resolved[1]
    if isinstance(source, exp.Table):
        return f"{source.name}.{column.name}" if column.name in masked_of_table.get(source.name, set()) else None
    return passed_on.get(id(source.expression), {}).get(column.name)


def _passed_on(
    scope: Scope, masked_of_table: dict[str, set[str]], passed_on: dict[int, dict[str, str]]
) -> dict[str, str]:
    """The names under which ``scope`` outputs a masked column unchanged, with the column (a set
    operation: by position, from any branch)."""
    expression = scope.expression
    if isinstance(expression, exp.SetOperation):
        names = [s.alias_or_name for s in expression.selects]
        out: dict[str, str] = {}
        for branch in _branches(expression):
            branch_names = [s.alias_or_name for s in branch.selects]
            hidden = passed_on.get(id(branch), {})
            for position, name in enumerate(branch_names[: len(names)]):
                if name in hidden:
                    out.setdefault(names[position], hidden[name])
        return out
    if not isinstance(expression, exp.Select):
        return {}
    out = {}
    for projection in expression.selects:
        inner = projection.this if isinstance(projection, exp.Alias) else projection
        if isinstance(inner, exp.Column) and (origin := _masked_origin(scope, inner, masked_of_table, passed_on)):
            out[projection.alias_or_name] = origin
    return out


def _branches(operation: exp.SetOperation) -> list[exp.Query]:
    out: list[exp.Query] = []
    for side in (operation.left, operation.right):
        out += _branches(side) if isinstance(side, exp.SetOperation) else [side]
    return out


def _shown(column: exp.Column) -> bool:
    node: exp.Expr = column
    if isinstance(node.parent, exp.Alias):
        node = node.parent
    if isinstance(node.parent, exp.Select) and node.arg_key == "expressions":
        return True
    parent = column.parent
    if isinstance(parent, exp.Ordered):  # the query's own ORDER BY, not a window's or an aggregate's
        order = parent.parent
        return isinstance(order, exp.Order) and isinstance(order.parent, exp.Select | exp.SetOperation)
    # the mask keeps NULL as NULL: how many are filled in is the real count
    if isinstance(parent, exp.Is) and isinstance(parent.expression, exp.Null):
        return True
    return isinstance(parent, exp.Count) and not isinstance(parent.this, exp.Distinct)


def _use_of(column: exp.Column) -> str:
    """What the column is used in, as SQL says it: the function, or the clause."""
    node = column.parent
    while node is not None:
        if isinstance(node, exp.Window):
            return "OVER"
        if isinstance(node, exp.Func):
            return node.sql_name()
        if isinstance(node, exp.Where | exp.Having | exp.Qualify):
            return node.key.upper()
        if isinstance(node, exp.Group):
            return "GROUP BY"
        if isinstance(node, exp.Join):
            return "JOIN"
        if isinstance(node, exp.Select):
            return "SELECT"
        node = node.parent
    return "SELECT"


__all__ = ["check_masked_use"]
