"""Grant checks on a qualified query: tables, columns, PII, aggregate-only tables, explicit
row requests outside the user's rows, partition filters and cross joins.

Every check walks sqlglot scopes, so a CTE named like a table is never mistaken for it and
every subquery, CTE and UNION branch is checked on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
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


def resolve_source(scope: Scope, alias: str) -> tuple[Scope, exp.Table | Scope] | None:
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


def physical_columns(statement: exp.Expr) -> Iterator[tuple[exp.Column, str, Scope]]:
    """(column, physical table, owning scope) for every column that reads a physical table."""
    for scope in traverse_scope(statement):
        for column in scope.columns:
            if not column.table:
                continue
            resolved = resolve_source(scope, column.table)
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
            resolved = resolve_source(scope, column.name)
            if resolved is not None and isinstance(resolved[1], exp.Table):
                raise FirewallError(
                    "column_not_permitted",
                    user=principal.user,
                    column=column.name,
                    **localized("reason", "sql.whole_row"),
                )
    for column, table, _scope in physical_columns(statement):
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


def is_aggregate(node: exp.Expr) -> bool:
    """An aggregate function of its level: not a window function (``SUM(x) [FILTER (…)] OVER …``)."""
    if not isinstance(node, exp.AggFunc):
        return False
    parent = node.parent
    while isinstance(parent, exp.Filter):
        parent = parent.parent
    return not isinstance(parent, exp.Window)


# A subquery (scalar, IN, EXISTS, LATERAL, derived table, CTE body) is a scope of its own: an
# aggregate inside it aggregates *its* rows, once per row of the enclosing query.
_SCOPE_BOUNDARIES = (exp.Query, exp.Subquery)


def walk_own_scope(node: exp.Expr) -> Iterator[exp.Expr]:
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
        if part is not None and any(is_aggregate(n) for n in walk_own_scope(part)):
            return True
    return False


def aggregates_to_one_row(select: exp.Expr) -> bool:
    """A SELECT with an aggregate function of its own and no GROUP BY: at most one row."""
    return (
        isinstance(select, exp.Select)
        and not select.args.get("group")
        and any(is_aggregate(n) for p in select.expressions for n in walk_own_scope(p))
    )


def enclosing_aggregate(node: exp.Expr, stop: exp.Expr) -> exp.AggFunc | None:
    """The aggregate of scope ``stop`` that ``node`` sits in, if any.

    Crossing a subquery boundary first means the node is read inside another scope (a
    correlated reference): an aggregate there runs once per outer row, so it does not count.
    """
    found: exp.AggFunc | None = None
    current = node.parent
    while current is not None and current is not stop:
        if isinstance(current, _SCOPE_BOUNDARIES):
            return None
        if found is None and isinstance(current, exp.AggFunc) and is_aggregate(current):
            found = current
        current = current.parent
    return found


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


_BOUNDING = (exp.EQ, exp.GT, exp.GTE, exp.LT, exp.LTE)


def check_partition_filters(statement: exp.Expr, large_tables: Mapping[str, str]) -> list[str]:
    """Every scan of a large table bounds its time/partition column by constants.

    A top-level conjunct of the scan's WHERE (or ON) must compare an expression of that column
    alone (``day``, ``CAST(ts AS DATE)``, ``date_trunc('month', day)``) with
    constant expressions: ``=``, ``<``, ``<=``, ``>``, ``>=``, ``BETWEEN`` or ``IN (list)`` against
    literals, casts of literals, ``DATE '…'`` or constant arithmetic such as ``CURRENT_DATE -
    INTERVAL '7' DAY``. A bound that names a column or holds a subquery bounds nothing:
    ``day = day``, ``day >= other_col``, ``day IN (SELECT …)``,
    ``day IS NOT NULL`` and ``day BETWEEN day AND day`` do not count,
    nor does ``<>`` or a condition inside an OR — unless every branch of the OR is a closed range
    (``BETWEEN``, ``=``, ``IN (list)``: a period and last year's window of an event); one-sided
    branches may cover every day together (``day >= x OR day < x``).
    """
    applied: list[str] = []
    for scan in physical_scans(statement):
        column = large_tables.get(scan.table)
        if column is None:
            continue
        found = any(_bounds(p, scan.alias, column) for p in _scope_predicates(scan.scope.expression))
        if not found:
            raise FirewallError("partition_filter_required", table=scan.table, column=column)
        applied.append(f"{scan.table}.{column}")
    return applied


def _bounds(predicate: exp.Expr, alias: str, column: str) -> bool:
    """Does ``predicate`` bound ``alias.column`` by constants (see check_partition_filters)?"""
    if isinstance(predicate, exp.Or):
        return all(_closed(branch, alias, column) for branch in predicate.flatten())
    if isinstance(predicate, _BOUNDING):
        left, right = predicate.left, predicate.right
        return (_of_column(left, alias, column) and _constant(right)) or (
            _of_column(right, alias, column) and _constant(left)
        )
    if isinstance(predicate, exp.Between):
        return _of_column(predicate.this, alias, column) and all(
            _constant(predicate.args.get(bound)) for bound in ("low", "high")
        )
    if isinstance(predicate, exp.In):
        return (
            not predicate.args.get("query")
            and not predicate.args.get("unnest")
            and _of_column(predicate.this, alias, column)
            and bool(predicate.expressions)
            and all(_constant(item) for item in predicate.expressions)
        )
    return False


_CONDITIONS = (exp.Predicate, exp.Connector, exp.Not, exp.Case, exp.If, exp.Boolean)
"""What makes a truth value of a column: never the column's own value."""


def _closed(branch: exp.Expr, alias: str, column: str) -> bool:
    """A branch of an OR that bounds the column on both sides: a range, a day or a list of days."""
    while isinstance(branch, exp.Paren):
        branch = branch.this
    return isinstance(branch, exp.Between | exp.EQ | exp.In) and _bounds(branch, alias, column)


def _of_column(node: exp.Expr | None, alias: str, column: str) -> bool:
    """An expression of ``alias.column`` and of no other column, without a subquery — and no
    condition on it (``(day >= x) = TRUE`` compares a truth value, bounding nothing)."""
    if node is None or node.find(exp.Query, exp.Subquery, *_CONDITIONS):
        return False
    columns = list(node.find_all(exp.Column))
    return bool(columns) and all(_column_of(c, alias, column) for c in columns)


def _constant(node: exp.Expr | None) -> bool:
    """No column, subquery, aggregate or window: the same value for every row."""
    return node is not None and node.find(exp.Column, exp.Query, exp.Subquery, exp.AggFunc, exp.Window) is None


def _single_row(source: exp.Table | Scope) -> bool:
    return isinstance(source, Scope) and aggregates_to_one_row(source.expression)


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


_RELATING = (exp.EQ, exp.NullSafeEQ, exp.GT, exp.GTE, exp.LT, exp.LTE)
"""Comparisons that relate their two sides; ``<>``, NOT, IS, LIKE and functions relate nothing."""


def check_cross_joins(statement: exp.Expr, readable: Mapping[str, Collection[str]]) -> None:
    """Refuse FROM items that no join condition connects (Cartesian products).

    Two FROM items of a level are connected by a comparison (=, IS NOT DISTINCT FROM, <, <=, >,
    >=, BETWEEN, IN (list)) with one item's columns on one side and only the other's on the other,
    in ON or WHERE; an AND connects what each of its parts connects, an OR only what every branch
    connects. ``USING (…)`` connects through its columns, a NATURAL join through the columns both
    sides have (``readable``: table -> the columns the user reads, which is what the engine sees
    after the rewrite). SEMI, ANTI and POSITIONAL joins return at most one row per row or position
    and need no condition, nor does an aggregate subquery without GROUP BY (one row).

    So ``ON TRUE``, ``ON 1 = 1``, ``ON a.x = a.x``, ``ON a.x = b.x OR TRUE``, ``ON a.x <> b.x``,
    ``USING ()``, a NATURAL join without a shared column and a comma join without a WHERE relating
    its items are all cross joins. The check is syntactic (``ON a.x * 0 = b.x * 0`` passes): the
    cost estimate checked against the user's budget is the backstop.
    """
    for scope in traverse_scope(statement):
        select = scope.expression
        if not isinstance(select, exp.Select) or len(scope.selected_sources) < 2:
            continue
        nodes = {alias for alias, (_n, source) in scope.selected_sources.items() if not _single_row(source)}
        parent = {alias: alias for alias in nodes}
        link = _linker(parent)
        previous: list[str] = []
        from_ = select.args.get("from_") or select.args.get("from")
        if isinstance(from_, exp.From):
            previous.append(from_.this.alias_or_name)
        joins: list[exp.Join] = list(select.args.get("joins") or [])
        for join in joins:
            name = join.this.alias_or_name
            method = str(join.args.get("method") or "").upper()
            using = {column.name.lower() for column in join.args.get("using") or []}
            if method == "NATURAL" or using:  # name resolution rewrites most of these to ON
                wanted = using or _output_columns(scope, name, readable) or set()
                for other in previous:
                    theirs = _output_columns(scope, other, readable)
                    if wanted & (theirs if theirs is not None else wanted):
                        link({name, other})
            elif method == "POSITIONAL" or join.args.get("kind") in {"SEMI", "ANTI"}:
                link({*previous, name})
            previous.append(name)
        for condition in [select.args.get("where"), *(join.args.get("on") for join in joins)]:
            for group in _connections(condition, nodes):
                link(group)
        roots = {_root(parent, alias) for alias in nodes}
        if len(roots) > 1:
            raise FirewallError("cross_join_not_allowed", sources=", ".join(sorted(nodes)))


def _output_columns(scope: Scope, alias: str, readable: Mapping[str, Collection[str]]) -> set[str] | None:
    """The columns FROM item ``alias`` offers (None when unknown)."""
    selected = scope.selected_sources.get(alias)
    if selected is None:
        return None
    source = selected[1]
    if isinstance(source, exp.Table):
        columns = readable.get(source.name)
        return None if columns is None else {c.lower() for c in columns}
    if isinstance(source, Scope) and isinstance(source.expression, exp.Query):
        return {name.lower() for name in source.expression.named_selects}
    return None


def _connections(condition: exp.Expr | None, nodes: set[str]) -> list[set[str]]:
    """Groups of FROM items ``condition`` connects (see :func:`check_cross_joins`)."""
    if condition is None:
        return []
    if isinstance(condition, exp.Where | exp.Paren):
        return _connections(condition.this, nodes)
    if isinstance(condition, exp.And):
        return _connections(condition.left, nodes) + _connections(condition.right, nodes)
    if isinstance(condition, exp.Or):
        return _common(_connections(condition.left, nodes), _connections(condition.right, nodes))
    sides: list[exp.Expr | None]
    if isinstance(condition, _RELATING):
        sides = [condition.left, condition.right]
    elif isinstance(condition, exp.Between):
        sides = [condition.this, condition.args.get("low"), condition.args.get("high")]
    elif isinstance(condition, exp.In) and not condition.args.get("query"):
        sides = [condition.this, *condition.expressions]
    else:
        return []
    aliases = [_aliases(side, nodes) for side in sides]
    groups: list[set[str]] = []
    for i, left in enumerate(aliases):
        for right in aliases[i + 1 :]:
            groups += [{a, b} for a in left - right for b in right - left]
    return groups


def _aliases(side: exp.Expr | None, nodes: set[str]) -> set[str]:
    """The FROM items whose columns ``side`` reads at this level (not inside a subquery)."""
    if side is None:
        return set()
    return {n.table for n in walk_own_scope(side) if isinstance(n, exp.Column) and n.table in nodes}


def _common(left: list[set[str]], right: list[set[str]]) -> list[set[str]]:
    """What both branches of an OR connect: items in one component on each side."""
    components: list[dict[str, str]] = []
    for groups in (left, right):
        parent = {alias: alias for group in groups for alias in group}
        link = _linker(parent)
        for group in groups:
            link(group)
        components.append({alias: _root(parent, alias) for alias in parent})
    together: dict[tuple[str, str], set[str]] = {}
    for alias in components[0].keys() & components[1].keys():
        together.setdefault((components[0][alias], components[1][alias]), set()).add(alias)
    return [group for group in together.values() if len(group) > 1]
