"""Gold SQL is written in DuckDB's dialect and transpiled for the engine under test; nested
``WITH``s that reuse a CTE name must survive Spark's lifting of CTEs to the top level."""

from __future__ import annotations

import duckdb
import sqlglot
from sqlglot import exp

from baton.evals.runner import unique_cte_names

NESTED = (
    "WITH c AS (WITH o AS (SELECT 1 AS n) SELECT o.n AS m FROM o), "
    "p AS (WITH o AS (SELECT 2 AS n) SELECT o.n AS m FROM o) SELECT c.m AS cur, p.m AS prev FROM c, p"
)


def test_a_repeated_inner_cte_name_is_renamed_where_it_is_read() -> None:
    spark = unique_cte_names(sqlglot.parse_one(NESTED, read="duckdb")).sql(dialect="spark")
    lifted = sqlglot.parse_one(spark, read="spark")
    names = [cte.alias for cte in lifted.find_all(exp.CTE)]
    assert len(names) == len(set(names)) == 4


def test_the_renamed_query_means_the_same() -> None:
    renamed = unique_cte_names(sqlglot.parse_one(NESTED, read="duckdb")).sql(dialect="duckdb")
    con = duckdb.connect()
    assert con.execute(renamed).fetchall() == con.execute(NESTED).fetchall() == [(1, 2)]


def test_distinct_names_are_left_alone() -> None:
    sql = "WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a) SELECT x FROM b"
    assert unique_cte_names(sqlglot.parse_one(sql, read="duckdb")).sql() == sqlglot.parse_one(sql).sql()
