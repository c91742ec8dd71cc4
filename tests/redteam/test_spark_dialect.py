"""Spark SQL reads some text differently from DuckDB and PostgreSQL; the firewall must follow.

In Spark a backslash escapes a quote inside a string and a double-quoted word is a string, not
a column. Two standard-SQL attacks (a second statement after an escaped quote, a PII column
in double quotes) are therefore harmless literals on Spark — and the approved SQL must say so
unambiguously, because the firewall sends its own regenerated text, never the reader's.
"""

from __future__ import annotations

from sqlglot import exp, parse_one

from baton.policy import Policy
from baton.sql import approve
from baton.sql.rewrite import mask_expression
from tests.redteam.warehouse import SCHEMA


def test_an_escaped_quote_is_one_string_literal_on_spark(demo_policy: Policy) -> None:
    approved = approve(
        "SELECT '\\'; DROP TABLE fact_order; --'",
        principal=demo_policy.principal("analyst"),
        schema=SCHEMA,
        dialect="spark",
    )
    tree = parse_one(approved.sql, read="spark")
    assert isinstance(tree, exp.Select) and not list(tree.find_all(exp.Drop, exp.Table))
    literals = [lit.this for lit in tree.find_all(exp.Literal) if lit.is_string]
    assert literals == ["'; DROP TABLE fact_order; --"]


def test_a_double_quoted_pii_name_is_a_string_on_spark_and_no_pii_column_is_read(demo_policy: Policy) -> None:
    approved = approve(
        'SELECT "phone" FROM dim_user', principal=demo_policy.principal("east_manager"), schema=SCHEMA, dialect="spark"
    )
    tree = parse_one(approved.sql, read="spark")
    assert "phone" not in {c.name for c in tree.find_all(exp.Column)}
    assert approved.row_filters_applied  # still read through the manager's region filter


def test_masks_name_the_column_not_a_string_on_every_dialect() -> None:
    """A mask written with a double-quoted column would mask the *word* on Spark."""
    for dialect in ("duckdb", "postgres", "spark"):
        tree = parse_one(mask_expression("email", "email").sql(dialect=dialect), read=dialect)
        assert {c.name for c in tree.find_all(exp.Column)} == {"email"}, dialect
        assert "email" not in {lit.this for lit in tree.find_all(exp.Literal) if lit.is_string}, dialect
