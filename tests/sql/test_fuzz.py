"""Hypothesis fuzzing: approve() only ever raises FirewallError, and never approves a statement
that writes, locks, selects INTO or is a command."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlglot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlglot import exp

from baton.policy import load_policy
from baton.sql import FirewallError, approve
from tests.redteam.warehouse import SCHEMA

POLICY = load_policy(Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "policies.yaml")
FORBIDDEN = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Command, exp.Into, exp.Lock)

FRAGMENTS = [
    "SELECT",
    "*",
    "FROM",
    "fact_order",
    "dim_user",
    "fact_traffic",
    "WHERE",
    "region",
    "=",
    "'华东'",
    "phone",
    "name",
    ",",
    ";",
    "(",
    ")",
    "DROP TABLE",
    "DELETE FROM",
    "INSERT INTO",
    "UPDATE",
    "SET",
    "INTO",
    "FOR UPDATE",
    "WITH",
    "AS",
    "x",
    "UNION",
    "ALL",
    "JOIN",
    "ON",
    "1",
    "--",
    "/*",
    "*/",
    "read_csv('/etc/passwd')",
    "query('SELECT 1')",
    "range(10)",
    "count(*)",
    "GROUP BY",
    "ORDER BY",
    "LIMIT",
    "COPY",
    "ATTACH",
    "PRAGMA",
    "CALL",
    "BEGIN",
    "RETURNING",
    "user_id",
    "gmv_amount",
    "sum(",
    "CAST(",
    "VARCHAR",
    "||",
    "$$",
    "'",
    '"',
    "\n",
    "EXPLAIN",
    "LATERAL",
    "VALUES",
    "RECURSIVE",
]


def _check(sql: str, user: str, dialect: str) -> None:
    try:
        approved = approve(sql, principal=POLICY.principal(user), schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
    except FirewallError:
        return
    for text in (sql, approved.sql):
        for statement in sqlglot.parse(text, read=dialect):
            if statement is None:
                continue
            assert not any(isinstance(node, FORBIDDEN) for node in statement.walk()), text
            assert not any(
                isinstance(node, exp.Select) and (node.args.get("into") or node.args.get("locks"))
                for node in statement.walk()
            ), text
    assert isinstance(sqlglot.parse_one(approved.sql, read=dialect), exp.Query)


USERS = st.sampled_from(["analyst", "east_manager", "marketing", "admin"])
DIALECT = st.sampled_from(["duckdb", "postgres"])


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=14).map(" ".join), USERS, DIALECT)
def test_fragment_soup_never_escapes(sql: str, user: str, dialect: str) -> None:
    _check(sql, user, dialect)


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=120), USERS, DIALECT)
def test_arbitrary_text_only_raises_firewall_error(sql: str, user: str, dialect: str) -> None:
    _check(sql, user, dialect)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["SELECT region FROM fact_order", "SELECT 1", "SELECT * FROM fact_traffic"]),
    st.sampled_from(
        ["DROP TABLE t", "DELETE FROM fact_order", "INSERT INTO t VALUES (1)", "COPY t TO 'x'", "SET a = 1"]
    ),
    st.sampled_from([";", "; --x\n", ";/* c */", " ;\n"]),
    DIALECT,
)
def test_appended_statement_is_always_refused(query: str, attack: str, separator: str, dialect: str) -> None:
    with pytest.raises(FirewallError) as caught:
        approve(query + separator + attack, principal=POLICY.principal("admin"), schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
    assert caught.value.error_code in {"multiple_statements", "parse_error"}
