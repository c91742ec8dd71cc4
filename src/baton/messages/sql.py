"""Why the SQL firewall refused a query, in the detail its refusal names (``sql.<key>``).

These fill the ``reason``/``what`` fields of the ``firewall.<code>`` messages; each is a pair
so the refusal reads in either language.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "whole_row": ("whole-row references are not allowed; name the columns", "不允许整行引用，请写出列名"),
    "not_granted": ("not granted", "未授权"),
    "must_aggregate": (
        "the query must aggregate (GROUP BY or an aggregate function)",
        "查询必须汇总（GROUP BY 或聚合函数）",
    ),
    "group_by_all": (
        "GROUP BY ALL is not allowed here; name the grouping columns",
        "此处不允许 GROUP BY ALL，请写出分组列",
    ),
    "select_star": ("SELECT * returns detail rows", "SELECT * 会返回明细"),
    "aggregate_only": ("column {column} may appear only inside an aggregate", "列 {column} 只能出现在聚合函数中"),
    "count_only": ("column {column} may appear only inside COUNT", "列 {column} 只能出现在 COUNT 中"),
    "unresolved_column": ("{reason}", "列名无法在可读列中解析：{reason}"),
    "no_such_column": (
        "table {table} has no such column; when the catalog names it, `baton catalog check` lists every such name",
        "表 {table} 没有这一列；若是指标目录引用了它，`baton catalog check` 会列出所有这样的名称",
    ),
    "aggregate_before_join": (
        "aggregate this table in its own subquery before joining it to anything",
        "请先在单独的子查询中汇总此表，再与其他表关联",
    ),
    "one_scan": (
        "it may be read only once per statement: two of its aggregates subtracted reveal a group the minimum "
        "group size hides",
        "每条语句只能读取一次：两个汇总值相减会暴露被最小分组规则隐藏的小组",
    ),
    "grouping_sets": (
        "ROLLUP, CUBE and GROUPING SETS are not allowed: a subtotal minus its groups reveals the hidden ones",
        "不允许 ROLLUP、CUBE 与 GROUPING SETS：小计减去各组会暴露被隐藏的小组",
    ),
    "conditional_aggregate": (
        "{function} may take only a column, * or DISTINCT column, without FILTER: a condition inside an aggregate "
        "isolates rows the minimum group size never sees",
        "{function} 只能作用于单个列、* 或 DISTINCT 列，且不能带 FILTER：聚合函数内的条件会单独挑出最小分组规则看不到的行",
    ),
    "order_statistic": (
        "{function}({column}) returns one row's exact value however large the group: aggregate the measure with "
        "SUM, AVG or COUNT",
        "{function}({column}) 无论分组多大都会返回某一行的精确值：请用 SUM、AVG 或 COUNT 汇总该度量",
    ),
    "correlated_scan": (
        "the query level reading it may not refer to an outer query: it would aggregate another group for every "
        "outer row",
        "读取它的查询层不能引用外层查询：否则外层每一行都会汇总出另一组数据",
    ),
    "too_many_sources": (
        "it reads {count} tables, subqueries or CTE copies once every CTE is expanded; at most {limit}",
        "展开全部 CTE 后需读取 {count} 个表、子查询或 CTE 副本，上限为 {limit}",
    ),
    "constant_rows": (
        "its CTEs and subqueries can make up to {rows} rows out of constants; at most {limit}",
        "其 CTE 与子查询可由常量生成多达 {rows} 行，上限为 {limit}",
    ),
    "use_group_by": ("use GROUP BY with aggregate functions", "请使用 GROUP BY 和聚合函数"),
    "command": ("the command {name}", "命令 {name}"),
    "statement": ("a {kind} statement", "{kind} 语句"),
    "inside_query": ("{kind} inside the query", "查询中的 {kind}"),
    "select_into": ("SELECT INTO", "SELECT INTO（写入新表）"),
    "locking_clause": ("a locking clause (FOR UPDATE/SHARE)", "加锁子句（FOR UPDATE/SHARE）"),
}
