"""Filters compared as normalised SQL ASTs, never as strings.

``o.status='paid'`` and ``STATUS = 'paid'`` are the same filter; ``dt >= '2026-06-01' AND
status = 'paid'`` is two filters. A predicate is parsed with sqlglot, split into its
top-level conjuncts, stripped of table qualifiers and rendered canonically.
"""

from __future__ import annotations

import re
from functools import lru_cache

import sqlglot
from sqlglot import exp
from sqlglot.errors import SqlglotError

from baton.errors import InvalidInput
from baton.messages import both

_SQLISH = re.compile(r"(?i)(<=|>=|<>|!=|=|<|>|\bbetween\b|\bin\s*\(|\blike\b|\bis\s+(not\s+)?null\b)")


def _canonical(node: exp.Expr, dialect: str) -> str:
    node = node.copy()
    for column in node.find_all(exp.Column):
        column.set("table", None)
        column.set("db", None)
        column.set("catalog", None)
    for ident in node.find_all(exp.Identifier):
        ident.set("this", ident.name.lower())
        ident.set("quoted", False)
    return node.sql(dialect=dialect, normalize=True)


def _conjuncts(node: exp.Expr) -> list[exp.Expr]:
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.And):
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


@lru_cache(maxsize=65536)
def normalise_predicate(predicate: str, dialect: str = "duckdb") -> tuple[str, ...]:
    """The canonical, sorted conjuncts of one SQL boolean expression.

    Raises :class:`InvalidInput` when the text is not a SQL condition.
    """
    try:
        node = sqlglot.parse_one(predicate, read=dialect, into=exp.Condition)
    except (SqlglotError, ValueError) as exc:
        raise InvalidInput(
            *both("context.not_a_predicate", predicate=predicate),
            detail={"predicate": predicate},
        ) from exc
    return tuple(sorted({_canonical(c, dialect) for c in _conjuncts(node)}))


@lru_cache(maxsize=65536)
def predicates_in_snippet(snippet: str, dialect: str = "duckdb") -> frozenset[str]:
    """Canonical conjuncts stated in a piece of text: a WHERE/HAVING of a query, or a bare predicate.

    Text that is not SQL yields nothing (this reads what an agent was given, which is mostly prose).
    """
    text = snippet.strip().rstrip(";")
    if not text or not _SQLISH.search(text) or not re.search(r"[A-Za-z_]", text):
        return frozenset()
    try:
        node = sqlglot.parse_one(text, read=dialect)
    except (SqlglotError, ValueError, RecursionError):
        return frozenset()
    if node is None or isinstance(node, exp.Command):
        return frozenset()
    found: set[str] = set()
    if isinstance(node, exp.Query):
        for clause in list(node.find_all(exp.Where)) + list(node.find_all(exp.Having)):
            found.update(_canonical(c, dialect) for c in _conjuncts(clause.this))
        return frozenset(found)
    if isinstance(node, (exp.Predicate, exp.Connector, exp.Not, exp.Paren)):
        found.update(_canonical(c, dialect) for c in _conjuncts(node))
    return frozenset(found)


_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_LABEL = re.compile(r"^\s*(?:[-*•]\s*)?(?:[A-Z]\d+\.\s*)?(?:\[[^\]]*\]\s*)?(?:[\w .]+[:：]\s*)?")


def predicates_in_text(text: str, dialect: str = "duckdb") -> frozenset[str]:
    """Every canonical filter conjunct a reader could find in ``text``.

    Candidates are JSON string literals and lines (with a leading bullet or ``label:``
    removed), so both a rendered packet and a raw transcript are read the same way.
    """
    found: set[str] = set()
    candidates: set[str] = set()
    for match in _JSON_STRING.finditer(text):
        candidates.add(match.group(1).replace('\\"', '"'))
    for line in text.splitlines():
        candidates.add(line)
        candidates.add(_LABEL.sub("", line, count=1))
    for candidate in candidates:
        found |= predicates_in_snippet(candidate, dialect)
    return frozenset(found)
