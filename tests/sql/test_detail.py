"""Issue 14, finding 8b: which statements return detail rows (and so may be exported only by a
user whose role has ``export_detail: true``).

A result is detail unless the outermost query level aggregates every branch: an aggregate
function at that level (a window is not one; DISTINCT and a bare GROUP BY are not), with no scalar
subquery in its select list that itself returns detail. A level that does not aggregate reads
aggregates only when every source it reads is an aggregating subquery or CTE. A statement that
reads no table returns no detail row. Anything that cannot be read is detail (fail closed).
"""

from __future__ import annotations

import pytest

from baton.sql.detail import returns_detail_rows

DETAIL = [
    ("star", "SELECT * FROM fact_traffic"),
    ("values_joined_to_a_table", "SELECT v.x FROM (VALUES (1)) AS v(x) JOIN fact_order AS t ON t.order_id = v.x"),
    ("values_holding_a_subquery", "SELECT * FROM (VALUES ((SELECT MAX(user_id) FROM dim_user))) AS v(x)"),
    ("columns_with_limit", "SELECT name, phone FROM dim_user LIMIT 5"),
    ("filtered", "SELECT order_id, gmv_amount FROM fact_order WHERE region = '华东' ORDER BY gmv_amount DESC"),
    ("distinct_is_not_aggregation", "SELECT DISTINCT user_id FROM fact_order"),
    ("window_is_not_aggregation", "SELECT name, COUNT(*) OVER () AS n FROM dim_user"),
    ("window_sum", "SELECT order_id, SUM(gmv_amount) OVER (PARTITION BY region) FROM fact_order"),
    ("aggregate_only_in_a_scalar_subquery", "SELECT name, (SELECT COUNT(*) FROM fact_order) AS n FROM dim_user"),
    (
        "aggregate_only_in_where",
        "SELECT order_id FROM fact_order WHERE gmv_amount > (SELECT AVG(gmv_amount) FROM fact_order)",
    ),
    (
        "aggregate_only_in_in_list",
        "SELECT region FROM fact_order WHERE order_id IN (SELECT MAX(order_id) FROM fact_order)",
    ),
    (
        "detail_scalar_subquery_beside_an_aggregate",
        "SELECT COUNT(*) AS n, (SELECT name FROM dim_user LIMIT 1) AS who FROM fact_order",
    ),
    ("one_detail_branch_of_a_union", "SELECT COUNT(*) FROM fact_order UNION ALL SELECT user_id FROM dim_user"),
    ("detail_first_branch", "SELECT user_id FROM dim_user UNION SELECT COUNT(*) FROM fact_order"),
    ("except", "SELECT region FROM fact_order EXCEPT SELECT region FROM dim_user"),
    ("intersect", "SELECT user_id FROM fact_order INTERSECT SELECT user_id FROM dim_user"),
    ("detail_cte", "WITH u AS (SELECT * FROM dim_user) SELECT * FROM u"),
    (
        "aggregate_cte_cross_detail",
        "WITH a AS (SELECT region, COUNT(*) AS n FROM fact_order GROUP BY region) SELECT * FROM a JOIN dim_user u ON u.region = a.region",
    ),
    (
        "aggregate_inside_derived_table_only",
        "SELECT s.region, u.name FROM (SELECT region FROM fact_order GROUP BY region) s, dim_user u",
    ),
    ("nested_detail", "SELECT * FROM (SELECT * FROM (SELECT order_id FROM fact_order) a) b"),
    # a GROUP BY without an aggregate function of its own is DISTINCT by another name
    ("group_by_without_aggregate", "SELECT region FROM fact_order GROUP BY region"),
    ("group_by_all", "SELECT * FROM fact_traffic WHERE visit_date >= DATE '2026-06-01' GROUP BY ALL"),
    ("group_by_every_column", "SELECT user_id, name, phone FROM dim_user GROUP BY 1, 2, 3"),
    (
        "correlated_aggregate_subquery_over_groups",
        "SELECT o.region, (SELECT COUNT(*) FROM dim_user u WHERE u.region = o.region) AS users FROM fact_order o GROUP BY o.region",
    ),
    ("unreadable_fails_closed", "SELECT FROM WHERE"),
    ("empty_fails_closed", ""),
]

AGGREGATE = [
    ("count", "SELECT COUNT(*) FROM fact_order"),
    ("values_of_literals", "SELECT CAST(p AS DATE) AS p FROM (VALUES ('2026-06-01'), ('2026-06-02')) AS v(p)"),
    (
        "a_spine_left_joined_to_aggregates",
        "WITH m AS (SELECT order_date AS p, COUNT(*) AS n FROM fact_order GROUP BY 1) "
        "SELECT s.p, COALESCE(m.n, 0) AS n FROM (SELECT CAST(p AS DATE) AS p FROM (VALUES ('2026-06-01')) AS v(p)) AS s "
        "LEFT JOIN m ON s.p = m.p",
    ),
    ("group_by", "SELECT region, SUM(gmv_amount) AS gmv FROM fact_order GROUP BY region"),
    ("group_by_ordinal", "SELECT channel, COUNT(*) FROM fact_order GROUP BY 1 ORDER BY 2 DESC LIMIT 3"),
    ("having", "SELECT region, SUM(gmv_amount) AS g FROM fact_order GROUP BY region HAVING SUM(gmv_amount) > 10"),
    ("window_over_groups", "SELECT region, SUM(SUM(gmv_amount)) OVER () AS total FROM fact_order GROUP BY region"),
    ("aggregating_union", "SELECT COUNT(*) FROM fact_order UNION ALL SELECT COUNT(*) FROM dim_user"),
    (
        "aggregating_cte",
        "WITH t AS (SELECT region, SUM(gmv_amount) AS g FROM fact_order GROUP BY region) SELECT * FROM t ORDER BY g",
    ),
    (
        "aggregating_derived_table",
        "SELECT * FROM (SELECT channel, COUNT(*) AS n FROM fact_order GROUP BY channel) s WHERE n > 10",
    ),
    (
        "join_of_aggregates",
        "WITH a AS (SELECT region, COUNT(*) AS n FROM fact_order GROUP BY region), b AS (SELECT region, COUNT(*) AS m FROM dim_user GROUP BY region) SELECT a.region, n, m FROM a JOIN b ON a.region = b.region",
    ),
    ("aggregate_scalar_subquery", "SELECT COUNT(*) AS n, (SELECT COUNT(*) FROM dim_user) AS m FROM fact_order"),
    ("count_distinct", "SELECT COUNT(DISTINCT user_id) FROM fact_order"),
    ("no_table", "SELECT 1 AS one"),
    ("filter_clause_postgres", "SELECT region, COUNT(*) FILTER (WHERE status = 'paid') FROM fact_order GROUP BY 1"),
]


@pytest.mark.parametrize(("name", "sql"), DETAIL, ids=[n for n, _ in DETAIL])
def test_detail_rows(name: str, sql: str) -> None:
    for dialect in ("duckdb", "postgres"):
        assert returns_detail_rows(sql, dialect) is True, (name, dialect)


@pytest.mark.parametrize(("name", "sql"), AGGREGATE, ids=[n for n, _ in AGGREGATE])
def test_aggregates(name: str, sql: str) -> None:
    for dialect in ("duckdb", "postgres"):
        assert returns_detail_rows(sql, dialect) is False, (name, dialect)
