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
    "use_group_by": ("use GROUP BY with aggregate functions", "请使用 GROUP BY 和聚合函数"),
    "command": ("the command {name}", "命令 {name}"),
    "statement": ("a {kind} statement", "{kind} 语句"),
    "inside_query": ("{kind} inside the query", "查询中的 {kind}"),
    "select_into": ("SELECT INTO", "SELECT INTO（写入新表）"),
    "locking_clause": ("a locking clause (FOR UPDATE/SHARE)", "加锁子句（FOR UPDATE/SHARE）"),
}
