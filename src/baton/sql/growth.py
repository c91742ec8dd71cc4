"""Static bounds on how far a statement grows once its CTEs are expanded (``query_too_complex``).

A CTE chain whose every level reads the level before twice —
``a1 AS (SELECT x FROM a0 UNION ALL SELECT x FROM a0)``, or ``… FROM a0 JOIN a0 b ON …`` — is a
few hundred characters of SQL and 2^30 row sources once inlined: PostgreSQL plans every copy of a
``NOT MATERIALIZED`` CTE (minutes of planning for 14 levels), and neither engine's estimate sees
the rows a self-joined chain of constants makes (DuckDB estimated 152 for 2^32 rows). The engine
cannot be asked (its EXPLAIN is the thing that blows up), so the bound is computed from the AST,
before any EXPLAIN:

``sources``
    the row sources of the whole statement with every CTE reference inlined: a table, a VALUES
    list, a table-free ``SELECT`` and each scalar/IN/EXISTS subquery's own sources count; a CTE
    counts its sources at every reference (references multiply: a chain of n doublings is 2^n).
    At most :data:`MAX_EXPANDED_SOURCES` (64). Baton's own SQL reads at most 4 (an analysis
    run's statements; a compiled question 1 or 2), so 64 leaves room for hand-written SQL and keeps
    PostgreSQL's planning of fully inlined CTEs well under a second (256 took 1 s, 2^14 12 s).
``constant_rows``
    the most rows any query level can make out of constants alone: a table-free ``SELECT`` is one
    row, a VALUES list its rows, UNION adds, a join multiplies, an aggregate without GROUP BY is
    one row, ``LIMIT n`` caps at n. A level that also reads tables makes that many rows *per row*
    of the tables' product (which the engine does estimate). At most :data:`MAX_CONSTANT_ROWS`
    (10,000): a doubling self-join chain passes it at its fourth level (65,536 rows), long before
    the 2^32 of the fifth. Compiled SQL makes rows from constants only in a series' spine of
    periods (``baton.catalog.spine``), at most 400 of them.

Both are upper bounds: WHERE, GROUP BY and DISTINCT can only shrink a level, so they are ignored.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from sqlglot import exp

from baton.errors import FirewallError
from baton.messages import localized
from baton.sql.access import aggregates_to_one_row

MAX_EXPANDED_SOURCES = 64
"""Most row sources a statement may expand to when every CTE reference is inlined."""

MAX_CONSTANT_ROWS = 10_000
"""Most rows any query level may make out of constants (per row of the tables it reads)."""

_CAP = 2**63
"""Counts saturate here: a 30-level chain must not compute 2^(2^30)."""


@dataclass(frozen=True)
class Growth:
    """How far a statement grows: see the module docstring."""

    sources: int
    constant_rows: int


@dataclass(frozen=True)
class _Relation:
    sources: int
    rows: int  # rows made from constants, per row of the product of the tables read (if any)
    reads_tables: bool


_TABLE = _Relation(1, 1, True)


def _capped(value: int) -> int:
    return min(value, _CAP)


def measure_growth(statement: exp.Expr) -> Growth:
    """The statement's expanded sources and its peak constant rows (see the module docstring)."""
    walker = _Walker()
    root = walker.query(statement, {})
    return Growth(sources=root.sources, constant_rows=max(walker.peak, root.rows))


def check_growth(statement: exp.Expr) -> Growth:
    """Refuse (``query_too_complex``) a statement past either bound; returns its growth."""
    growth = measure_growth(statement)
    if growth.sources > MAX_EXPANDED_SOURCES:
        raise FirewallError(
            "query_too_complex",
            sources=growth.sources,
            **localized("reason", "sql.too_many_sources", count=_shown(growth.sources), limit=MAX_EXPANDED_SOURCES),
        )
    if growth.constant_rows > MAX_CONSTANT_ROWS:
        raise FirewallError(
            "query_too_complex",
            constant_rows=growth.constant_rows,
            **localized("reason", "sql.constant_rows", rows=_shown(growth.constant_rows), limit=MAX_CONSTANT_ROWS),
        )
    return growth


def _shown(count: int) -> str:
    return f"≥ {_CAP:,}" if count >= _CAP else f"{count:,}"


class _Walker:
    """One pass over the AST; each CTE body is measured once and reused at every reference."""

    def __init__(self) -> None:
        self.peak = 0

    def query(self, node: exp.Expr, env: Mapping[str, _Relation]) -> _Relation:
        if isinstance(node, exp.Subquery):
            relation = self.query(node.this, env)
        elif isinstance(node, exp.Query):
            scope = self._with(node, env)
            if isinstance(node, exp.SetOperation):
                left, right = self.query(node.left, scope), self.query(node.right, scope)
                rows = left.rows + right.rows if isinstance(node, exp.Union) else left.rows
                relation = _Relation(
                    _capped(left.sources + right.sources), _capped(rows), left.reads_tables or right.reads_tables
                )
            elif isinstance(node, exp.Select):
                relation = self._select(node, scope)
            else:
                relation = _TABLE
        else:
            relation = _TABLE
        relation = _limited(node, relation)
        self.peak = max(self.peak, relation.rows)
        return relation

    def _with(self, node: exp.Expr, env: Mapping[str, _Relation]) -> Mapping[str, _Relation]:
        with_ = node.args.get("with_")
        if not isinstance(with_, exp.With):
            return env
        scope = dict(env)
        for cte in with_.expressions:
            scope[cte.alias_or_name.lower()] = self.query(cte.this, scope)
        return scope

    def _select(self, select: exp.Select, env: Mapping[str, _Relation]) -> _Relation:
        items: list[exp.Expr] = []
        from_ = select.args.get("from_")
        if isinstance(from_, exp.From):
            items.append(from_.this)
        items += [join.this for join in select.args.get("joins") or []]
        items += list(select.args.get("laterals") or [])
        if items:
            sources, rows, reads = 0, 1, False
            for item in items:
                source = self._source(item, env)
                sources, rows = _capped(sources + source.sources), _capped(rows * source.rows)
                reads = reads or source.reads_tables
        else:
            sources, rows, reads = 1, 1, False  # a table-free SELECT: one row
        self.peak = max(self.peak, rows)  # what its FROM makes, before any aggregate folds it
        for nested in _nested_queries(select, skip={id(item) for item in items}):
            sources = _capped(sources + self.query(nested, env).sources)
        if aggregates_to_one_row(select):
            rows, reads = 1, False
        return _Relation(sources, rows, reads)

    def _source(self, item: exp.Expr, env: Mapping[str, _Relation]) -> _Relation:
        if isinstance(item, exp.Table):
            if isinstance(item.this, exp.Identifier) and not item.args.get("db"):
                return env.get(item.name.lower(), _TABLE)
            return _TABLE
        if isinstance(item, exp.Values):
            return _Relation(1, _capped(max(len(item.expressions), 1)), False)
        if isinstance(item, exp.Subquery | exp.Query):
            return self.query(item, env)
        if isinstance(item, exp.Lateral) and isinstance(item.this, exp.Query):
            return self.query(item.this, env)
        return _TABLE


def _nested_queries(select: exp.Select, skip: set[int]) -> Iterator[exp.Query]:
    """Subqueries in the level's expressions (scalar, IN, EXISTS, in ON and WHERE), outermost only;
    the FROM items in ``skip`` and the WITH clause are measured elsewhere."""
    stack: list[exp.Expr] = []
    for key, value in select.args.items():
        if key == "with_":
            continue
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, exp.Expr):
                stack.append(child)
    while stack:
        node = stack.pop()
        if id(node) in skip:
            continue
        if isinstance(node, exp.Query):
            yield node
            continue
        stack.extend(node.iter_expressions())


def _limited(node: exp.Expr, relation: _Relation) -> _Relation:
    """``LIMIT n`` (a literal) caps a level at n rows, whatever it reads."""
    limit = node.args.get("limit")
    count = limit.expression if isinstance(limit, exp.Limit) else None
    if not isinstance(count, exp.Literal) or count.is_string:
        return relation
    try:
        n = int(str(count.this))
    except ValueError:
        return relation
    if relation.rows <= n:
        return relation
    return _Relation(relation.sources, n, False)  # at most n rows in all, whatever the tables hold
