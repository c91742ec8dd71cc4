"""Catalog SQL fragments (expressions, filters, formulas) as ASTs.

A catalog is written in DuckDB's SQL dialect; every fragment is parsed once per text and
handed out as a fresh copy, so the compiler can rewrite it (qualify its columns, swap a
derived metric's inputs) without touching the cached tree.
"""

from __future__ import annotations

from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

READ = "duckdb"


@lru_cache(maxsize=4096)
def _parsed(sql: str) -> exp.Expr:
    return sqlglot.parse_one(sql, read=READ)


def parse(sql: str) -> exp.Expr:
    """``sql`` as a fresh AST (raises ValueError when it is not one SQL expression)."""
    try:
        return _parsed(sql).copy()
    except ParseError as exc:
        raise ValueError(str(exc).splitlines()[0]) from None


def columns(node: exp.Expr) -> list[exp.Column]:
    """The column references of an expression (not ``*``)."""
    return [c for c in node.find_all(exp.Column) if not isinstance(c.this, exp.Star)]


def column_names(sql: str) -> set[str]:
    """The unqualified column names an expression reads."""
    return {c.name for c in columns(parse(sql)) if not c.table}


def qualifiers(sql: str) -> set[str]:
    """The table qualifiers an expression's columns carry (``listing`` in ``listing.country``)."""
    return {c.table for c in columns(parse(sql)) if c.table}


def is_plain_column(sql: str) -> bool:
    """Whether a fragment is one bare column (``channel``), not an expression."""
    try:
        node = parse(sql)
    except ValueError:
        return False
    return isinstance(node, exp.Column) and not node.table


def kept_terms(node: exp.Expr) -> list[tuple[exp.Column, frozenset[str]]]:
    """Each top-level ``AND`` term of a filter that keeps given text values of a bare column:
    ``col = 'x'``, ``'x' = col`` or ``col IN ('x', 'y')``. A column under ``OR``, ``NOT`` or a
    function is not fixed by the filter (it may keep other values)."""
    found: list[tuple[exp.Column, frozenset[str]]] = []
    for part in node.flatten() if isinstance(node, exp.And) else [node]:
        term = part.unnest()
        if isinstance(term, exp.In) and not term.args.get("query"):
            column, literals = term.this, term.expressions
        elif isinstance(term, exp.EQ):
            column, literals = term.this, [term.expression]
            if isinstance(column.unnest(), exp.Literal):
                column, literals = term.expression, [term.this]
        else:
            continue
        column = column.unnest()
        texts = literals and all(isinstance(lit, exp.Literal) and lit.is_string for lit in literals)
        if isinstance(column, exp.Column) and not column.table and texts:
            found.append((column, frozenset(str(lit.this) for lit in literals)))
    return found


def fixed_values(sql: str) -> dict[str, frozenset[str]]:
    """The text values a filter keeps, by bare column name (lower case): :func:`kept_terms`,
    intersected when a column is fixed twice."""
    try:
        node = parse(sql)
    except ValueError:
        return {}
    fixed: dict[str, frozenset[str]] = {}
    for column, values in kept_terms(node):
        name = column.name.lower()
        fixed[name] = fixed[name] & values if name in fixed else values
    return fixed
