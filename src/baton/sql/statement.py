"""Statement-level checks: exactly one statement, a pure read-only query, allowed functions.

These run on the raw parse, before any name resolution, so nothing the firewall does later
can be confused by a second statement, a write hidden in a CTE or an unknown function.
"""

from __future__ import annotations

import logging

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError

from baton.errors import FirewallError
from baton.messages import localized
from baton.sql.functions import disallowed_function

MAX_SQL_CHARS = 20_000

_WRITE_CLASS_NAMES = (
    "Insert",
    "Update",
    "Delete",
    "Merge",
    "Create",
    "Drop",
    "Alter",
    "AlterColumn",
    "Command",
    "Into",
    "Lock",
    "Set",
    "SetItem",
    "Pragma",
    "Transaction",
    "Commit",
    "Rollback",
    "Copy",
    "Attach",
    "Detach",
    "Install",
    "Use",
    "Describe",
    "Show",
    "Summarize",
    "TruncateTable",
    "Grant",
    "Revoke",
    "Analyze",
    "LoadData",
    "Refresh",
    "Cache",
    "Uncache",
    "Export",
)
WRITE_NODE_TYPES: tuple[type[exp.Expr], ...] = tuple(
    cls
    for cls in (getattr(exp, name, None) for name in _WRITE_CLASS_NAMES)
    if isinstance(cls, type) and issubclass(cls, exp.Expr)
)

# Nodes that are not functions but are refused anyway: parameters and session variables, and
# Hive's script transform (Spark's ``SELECT TRANSFORM(…) USING 'command'`` runs a shell command
# on the cluster; sqlglot models it as a node, not a function, so the allow-list never sees it).
_REFUSED_NODE_NAMES = ("Placeholder", "Parameter", "SessionParameter", "RawString", "QueryTransform")
REFUSED_NODE_TYPES: tuple[type[exp.Expr], ...] = tuple(
    cls
    for cls in (getattr(exp, name, None) for name in _REFUSED_NODE_NAMES)
    if isinstance(cls, type) and issubclass(cls, exp.Expr)
)

_sqlglot_logger = logging.getLogger("sqlglot")


def parse_single_query(sql: str, dialect: str) -> exp.Query:
    """Parse ``sql`` and return its one statement, which must be a query."""
    if not sql.strip():
        raise FirewallError("parse_error", reason="empty statement")
    if len(sql) > MAX_SQL_CHARS:
        raise FirewallError("parse_error", reason=f"longer than {MAX_SQL_CHARS} characters")
    if "\x00" in sql:
        raise FirewallError("parse_error", reason="NUL character in the text")
    previous_level = _sqlglot_logger.level
    _sqlglot_logger.setLevel(logging.ERROR)  # "falling back to Command" is our refusal, not a warning
    try:
        statements = sqlglot.parse(sql, read=dialect)
    except (ParseError, TokenError) as exc:
        raise FirewallError("parse_error", reason=_first_line(str(exc))) from exc
    finally:
        _sqlglot_logger.setLevel(previous_level)
    real = [s for s in statements if s is not None and not isinstance(s, exp.Semicolon)]
    if not real:
        raise FirewallError("parse_error", reason="no statement found")
    if len(real) > 1:
        raise FirewallError("multiple_statements", count=len(real))
    statement = real[0]
    if isinstance(statement, exp.Block):
        raise FirewallError("multiple_statements", count=len(statement.expressions))
    if isinstance(statement, exp.Command):
        raise FirewallError(
            "not_read_only",
            **localized("what", "sql.command", name=statement.name.upper()),
        )
    if not isinstance(statement, exp.Query):
        kind = type(statement).__name__.upper()
        raise FirewallError("not_read_only", **localized("what", "sql.statement", kind=kind))
    check_read_only(statement)
    return statement


def check_read_only(statement: exp.Expr) -> None:
    """Refuse writes, SELECT INTO, locking clauses and recursion anywhere in the tree."""
    for node in statement.walk():
        if isinstance(node, WRITE_NODE_TYPES):
            kind = type(node).__name__.upper()
            raise FirewallError("not_read_only", **localized("what", "sql.inside_query", kind=kind))
        if isinstance(node, exp.Select):
            if node.args.get("into") is not None:
                raise FirewallError("not_read_only", **localized("what", "sql.select_into"))
            if node.args.get("locks"):
                raise FirewallError("not_read_only", **localized("what", "sql.locking_clause"))
        if isinstance(node, exp.With) and node.args.get("recursive"):
            raise FirewallError("recursion_not_allowed")


def check_functions(statement: exp.Expr) -> None:
    """Every function must be on the allow-list (see baton.sql.functions)."""
    for node in statement.walk():
        if isinstance(node, exp.QueryTransform):
            raise FirewallError("function_not_allowed", function="TRANSFORM … USING")
        if isinstance(node, REFUSED_NODE_TYPES):
            raise FirewallError("function_not_allowed", function=f"parameter {node.sql()}")
        label = disallowed_function(node)
        if label is not None:
            raise FirewallError("function_not_allowed", function=label)


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else "syntax error"
    return line[:200]
