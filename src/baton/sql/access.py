"""Grant checks on a qualified query: tables, columns, PII, aggregate-only tables, explicit
row requests outside the user's rows, partition filters and cross joins.

Every check walks sqlglot scopes, so a CTE named like a table is never mistaken for it and
every subquery, CTE and UNION branch is checked on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from sqlglot import exp
from sqlglot.optimizer.scope import Scope, traverse_scope

from baton.errors import FirewallError
from baton.messages import localized
from baton.policy import Principal

_TABLE_ARGS_ALLOWED = frozenset({"this", "alias", "db", "catalog"})


@dataclass(frozen=True)
class PhysicalScan:
    """One read of a physical table: the Table node, its alias and the scope reading it."""

    node: exp.Table
    table: str
    alias: str
    scope: Scope


def physical_scans(statement: exp.Expr) -> list[PhysicalScan]:
    """Every physical table read in ``statement`` (CTE references excluded)."""
    scans: list[PhysicalScan] = []
    seen: set[int] = set()
    for scope in traverse_scope(statement):
        for alias, (_node, source) in scope.selected_sources.items():
            if isinstance(source, exp.Table) and id(source) not in seen:
                seen.add(id(source))
                scans.append(PhysicalScan(source, source.name, alias, scope))
    return scans


def check_tables(statement: exp.Expr, principal: Principal, schema: Mapping[str, object]) -> list[str]:
    """Every physical table is unqualified, in the catalog and granted; returns their names."""
    scans = physical_scans(statement)
    scan_ids = {id(scan.node) for scan in scans}
    cte_names = {cte.alias_or_name for cte in statement.find_all(exp.CTE)}
    for table in statement.find_all(exp.Table):
        if id(table) not in scan_ids and table.name not in cte_names:
            raise FirewallError("unsupported_syntax", what=f"the table reference {table.sql()}")
    for scan in scans:
        node = scan.node
        shown = node.sql()
        if not isinstance(node.this, exp.Identifier):
            raise FirewallError("function_not_allowed", function=shown)
        if node.args.get("db") or node.args.get("catalog"):
            raise FirewallError("table_not_permitted", user=principal.user, table=shown)
        if scan.table not in schema or not principal.can_read_table(scan.table):
            raise FirewallError("table_not_permitted", user=principal.user, table=scan.table)
        extra = sorted(k for k, v in node.args.items() if v and k not in _TABLE_ARGS_ALLOWED)
        if extra:
            raise FirewallError("unsupported_syntax", what=f"{', '.join(extra)} on table {scan.table}")
        alias = node.args.get("alias")
        if isinstance(alias, exp.TableAlias) and alias.columns:
            raise FirewallError("unsupported_syntax", what=f"a column alias list on table {scan.table}")
    return sorted({scan.table for scan in scans})


def _resolve(scope: Scope, alias: str) -> tuple[Scope, exp.Table | Scope] | None:
    """The scope that owns ``alias`` and its source, looking outwards for correlated names."""
    current: Scope | None = scope
    while current is not None:
        selected = current.selected_sources.get(alias)
        if selected is not None:
            return current, selected[1]
        source = current.sources.get(alias)
        if source is not None:
            return current, source
        current = current.parent
    return None


def _physical_columns(statement: exp.Expr) -> Iterator[tuple[exp.Column, str, Scope]]:
    """(column, physical table, owning scope) for every column that reads a physical table."""
    for scope in traverse_scope(statement):
        for column in scope.columns:
            if not column.table:
                continue
            resolved = _resolve(scope, column.table)
            if resolved is not None and isinstance(resolved[1], exp.Table):
                yield column, resolved[1].name, resolved[0]


def check_columns(statement: exp.Expr, principal: Principal) -> None:
    """Columns within grants; denied PII refused; whole-row references refused."""
    table_column = getattr(exp, "TableColumn", None)
    if isinstance(table_column, type) and any(True for _ in statement.find_all(table_column)):
        raise FirewallError(
            "column_not_permitted",
            user=principal.user,
            column=next(iter(statement.find_all(table_column))).sql(),
            **localized("reason", "sql.whole_row"),
        )
    for scope in traverse_scope(statement):
        for column in scope.columns:
            if column.table:
                continue
            resolved = _resolve(scope, column.name)
            if resolved is not None and isinstance(resolved[1], exp.Table):
                raise FirewallError(
                    "column_not_permitted",
                    user=principal.user,
                    column=column.name,
                    **localized("reason", "sql.whole_row"),
                )
    for column, table, _scope in _physical_columns(statement):
        qualified = f"{table}.{column.name}"
        if not principal.column_granted(table, column.name):
            raise FirewallError(
                "column_not_permitted",
                user=principal.user,
                column=qualified,
                **localized("reason", "sql.not_granted"),
            )
        if principal.pii.get((table, column.name)) == "deny":
            raise FirewallError("pii_denied", user=principal.user, column=qualified)


def _is_aggregate(node: exp.Expr) -> bool:
    return isinstance(node, exp.AggFunc) and not isinstance(node.parent, exp.Window)


# A subquery (scalar, IN, EXISTS, LATERAL, derived table, CTE body) is a scope of its own: an
# aggregate inside it aggregates *its* rows, once per row of the enclosing query.
_SCOPE_BOUNDARIES = (exp.Query, exp.Subquery)


def _walk_own_scope(node: exp.Expr) -> Iterator[exp.Expr]:
    """``node`` and its descendants, without descending into nested subqueries."""
    if isinstance(node, _SCOPE_BOUNDARIES):
        return
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(child for child in current.iter_expressions() if not isinstance(child, _SCOPE_BOUNDARIES))


def scope_aggregates(select: exp.Expr, *, count_distinct: bool = True) -> bool:
    """Does this SELECT itself aggregate (GROUP BY, DISTINCT unless ``count_distinct`` is
    False, or an aggregate function)? Aggregates inside its subqueries do not count."""
    if not isinstance(select, exp.Select):
        return False
    if select.args.get("group") or (count_distinct and select.args.get("distinct")):
        return True
    for part in [*select.expressions, select.args.get("having")]:
        if part is not None and any(_is_aggregate(n) for n in _walk_own_scope(part)):
            return True
    return False


def _enclosing_aggregate(node: exp.Expr, stop: exp.Expr) -> exp.AggFunc | None:
    """The aggregate of scope ``stop`` that ``node`` sits in, if any.

    Crossing a subquery boundary first means the node is read inside another scope (a
    correlated reference): an aggregate there runs once per outer row, so it does not count.
    """
    found: exp.AggFunc | None = None
    current = node.parent
    while current is not None and current is not stop:
        if isinstance(current, _SCOPE_BOUNDARIES):
            return None
        if found is None and isinstance(current, exp.AggFunc) and _is_aggregate(current):
            found = current
        current = current.parent
    return found


def check_aggregate_only(statement: exp.Expr, principal: Principal) -> None:
    """Aggregate-only tables yield aggregates, never detail rows (code detail_not_permitted)."""
    if not principal.aggregate_only:
        return
    for scan in physical_scans(statement):
        rule = principal.aggregate_only.get(scan.table)
        if rule is None:
            continue
        select = scan.scope.expression
        if not scope_aggregates(select):
            raise FirewallError(
                "detail_not_permitted",
                user=principal.user,
                table=scan.table,
                **localized("reason", "sql.must_aggregate"),
            )
        group = select.args.get("group")
        if isinstance(group, exp.Group) and group.args.get("all"):
            raise FirewallError(
                "detail_not_permitted",
                user=principal.user,
                table=scan.table,
                **localized("reason", "sql.group_by_all"),
            )
        for star in select.find_all(exp.Star):
            if _enclosing_aggregate(star, select) is None and star.find_ancestor(exp.Select) is select:
                raise FirewallError(
                    "detail_not_permitted",
                    user=principal.user,
                    table=scan.table,
                    **localized("reason", "sql.select_star"),
                )
    for column, table, owner in _physical_columns(statement):
        rule = principal.aggregate_only.get(table)
        if rule is None or column.name in rule.dimensions:
            continue
        aggregate = _enclosing_aggregate(column, owner.expression)
        if aggregate is not None and column.name in rule.measures:
            continue
        if aggregate is not None and _counted(column, aggregate):
            continue
        raise FirewallError(
            "detail_not_permitted",
            user=principal.user,
            table=table,
            **localized(
                "reason", "sql.aggregate_only" if column.name in rule.measures else "sql.count_only", column=column.name
            ),
        )


def _counted(column: exp.Column, aggregate: exp.AggFunc) -> bool:
    """``COUNT(col)`` or ``COUNT(DISTINCT col)`` with the column as the whole argument."""
    if not isinstance(aggregate, exp.Count):
        return False
    argument = aggregate.this
    if isinstance(argument, exp.Distinct):
        return len(argument.expressions) == 1 and argument.expressions[0] is column
    return argument is column


def _conjuncts(condition: exp.Expr | None) -> list[exp.Expr]:
    if condition is None:
        return []
    if isinstance(condition, exp.Where):
        condition = condition.this
    if isinstance(condition, exp.Paren):
        return _conjuncts(condition.this)
    if isinstance(condition, exp.And):
        return _conjuncts(condition.left) + _conjuncts(condition.right)
    return [condition]


def _scope_predicates(select: exp.Expr) -> list[exp.Expr]:
    predicates = _conjuncts(select.args.get("where"))
    for join in select.args.get("joins") or []:
        predicates.extend(_conjuncts(join.args.get("on")))
    return predicates


def _column_of(node: exp.Expr, alias: str, name: str) -> bool:
    return isinstance(node, exp.Column) and node.table == alias and node.name == name


def check_row_requests(statement: exp.Expr, principal: Principal) -> None:
    """An explicit filter for rows outside the user's row filter is refused out loud."""
    if not principal.row_filters:
        return
    for scan in physical_scans(statement):
        filters = principal.row_filters.get(scan.table, {})
        for column, allowed in filters.items():
            for predicate in _scope_predicates(scan.scope.expression):
                asked = _requested_literals(predicate, scan.alias, column)
                outside = [value for value in asked if value not in allowed]
                if outside:
                    raise FirewallError(
                        "rows_not_permitted",
                        user=principal.user,
                        column=f"{scan.table}.{column}",
                        allowed=", ".join(allowed),
                        asked=", ".join(outside),
                    )


def _requested_literals(predicate: exp.Expr, alias: str, column: str) -> list[str]:
    if isinstance(predicate, exp.EQ):
        left, right = predicate.left, predicate.right
        if _column_of(left, alias, column) and isinstance(right, exp.Literal):
            return [str(right.this)]
        if _column_of(right, alias, column) and isinstance(left, exp.Literal):
            return [str(left.this)]
    if isinstance(predicate, exp.In) and _column_of(predicate.this, alias, column):
        return [str(item.this) for item in predicate.expressions if isinstance(item, exp.Literal)]
    return []


_RANGE_PREDICATES = (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between, exp.In)


def check_partition_filters(statement: exp.Expr, large_tables: Mapping[str, str]) -> list[str]:
    """Every scan of a large table has a top-level predicate on its time/partition column."""
    applied: list[str] = []
    for scan in physical_scans(statement):
        column = large_tables.get(scan.table)
        if column is None:
            continue
        found = any(
            isinstance(predicate, _RANGE_PREDICATES)
            and any(_column_of(c, scan.alias, column) for c in predicate.find_all(exp.Column))
            for predicate in _scope_predicates(scan.scope.expression)
        )
        if not found:
            raise FirewallError("partition_filter_required", table=scan.table, column=column)
        applied.append(f"{scan.table}.{column}")
    return applied


def _single_row(source: exp.Table | Scope) -> bool:
    if not isinstance(source, Scope):
        return False
    select = source.expression
    return (
        isinstance(select, exp.Select)
        and not select.args.get("group")
        and any(_is_aggregate(n) for p in select.expressions for n in _walk_own_scope(p))
    )


def _root(parent: dict[str, str], alias: str) -> str:
    while parent[alias] != alias:
        alias = parent[alias]
    return alias


def _linker(parent: dict[str, str]) -> Callable[[set[str]], None]:
    """Union-find over FROM items: ``link(aliases)`` puts them in one component."""

    def link(aliases: set[str]) -> None:
        members = sorted(aliases & set(parent))
        for other in members[1:]:
            parent[_root(parent, other)] = _root(parent, members[0])

    return link


def check_cross_joins(statement: exp.Expr) -> None:
    """Refuse FROM items that no join condition connects (Cartesian products)."""
    for scope in traverse_scope(statement):
        select = scope.expression
        if not isinstance(select, exp.Select) or len(scope.selected_sources) < 2:
            continue
        nodes = {alias for alias, (_n, source) in scope.selected_sources.items() if not _single_row(source)}
        parent = {alias: alias for alias in nodes}
        link = _linker(parent)
        previous: set[str] = set()
        from_ = select.args.get("from_") or select.args.get("from")
        if isinstance(from_, exp.From):
            previous.add(from_.this.alias_or_name)
        for join in select.args.get("joins") or []:
            name = join.this.alias_or_name
            if join.args.get("method") or join.args.get("using") or join.args.get("kind") in {"SEMI", "ANTI"}:
                link(previous | {name})
            previous.add(name)
        conditions = [select.args.get("where")] + [j.args.get("on") for j in select.args.get("joins") or []]
        for condition in conditions:
            if condition is None:
                continue
            for predicate in _conjuncts(condition):
                link({c.table for c in predicate.find_all(exp.Column) if c.table in nodes})
        roots = {_root(parent, alias) for alias in nodes}
        if len(roots) > 1:
            raise FirewallError("cross_join_not_allowed", sources=", ".join(sorted(nodes)))
