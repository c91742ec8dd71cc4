"""What `baton catalog check` reports about a catalog against its warehouse (``check.<key>``).

A problem's message starts with its subject (``metric x``, ``dimension y`` …), passed as the
``subject``/``subject_zh`` pair that :func:`baton.messages.localized` renders from the
``subject_*`` keys. ``_BILINGUAL`` lines are the command's summary, printed in both languages.
"""

from __future__ import annotations

_BILINGUAL: dict[str, str] = {
    "summary_ok": "{file}: no problems, the catalog matches the warehouse / 未发现问题，指标目录与数仓一致",
    "summary_problems": "{file}: {count} problem(s) found / 发现 {count} 个问题",
}

MESSAGES: dict[str, tuple[str, str]] = {
    # subjects ---------------------------------------------------------------------------------
    "subject_metric": ("metric {name}", "指标 {name}"),
    "subject_dimension": ("dimension {name}", "维度 {name}"),
    "subject_table": ("table {name}", "表 {name}"),
    "subject_join": ("table {table}, join {name}", "表 {table} 的关联 {name}"),
    "subject_load_log": ("load log", "加载日志"),
    # problems ---------------------------------------------------------------------------------
    "missing_table": (
        "{subject}: table {table} does not exist in the warehouse",
        "{subject_zh}：数仓中没有表 {table}",
    ),
    "missing_column": (
        "{subject}: column {column} does not exist in table {table}",
        "{subject_zh}：表 {table} 中没有列 {column}",
    ),
    "time_not_temporal": (
        "{subject}: time column {column} of table {table} is {type}, not a date or a timestamp",
        "{subject_zh}：表 {table} 的时间列 {column} 类型为 {type}，不是日期或时间戳",
    ),
    "time_type_mismatch": (
        "{subject}: time column {column} of table {table} is {type}, but the table declares "
        "time_type {declared} (day filters would be wrong)",
        "{subject_zh}：表 {table} 的时间列 {column} 类型为 {type}，但表声明的 time_type 为 {declared}（按天过滤会出错）",
    ),
    "bad_type": (
        "{subject}: {function} over column {column} of table {table}, which is {type}, not a number",
        "{subject_zh}：{function} 作用于表 {table} 的列 {column}，其类型为 {type}，不是数值",
    ),
    "not_sql": ("{subject}: {sql!r} is not SQL ({error})", "{subject_zh}：{sql!r} 不是合法的 SQL（{error}）"),
    "rejected": (
        "{subject}: the warehouse rejects {sql!r} ({error})",
        "{subject_zh}：数仓无法执行 {sql!r}（{error}）",
    ),
    "unknown_join": (
        "{subject}: table {table} has no join named {join} (in {via!r})",
        "{subject_zh}：表 {table} 没有名为 {join} 的关联（{via!r} 中）",
    ),
    "join_key_missing": (
        "{subject}: join key {column} does not exist in table {table}",
        "{subject_zh}：关联键 {column} 在表 {table} 中不存在",
    ),
    "join_key_types": (
        "{subject}: join keys {local} ({local_type}) and {remote} ({remote_type}) are of different kinds",
        "{subject_zh}：关联键 {local}（{local_type}）与 {remote}（{remote_type}）类型不一致",
    ),
    "join_not_unique": (
        "{subject}: key {column} is not unique in table {table} ({keys} values repeat, up to {most} times); "
        "the join would double-count",
        "{subject_zh}：关联键 {column} 在表 {table} 中不唯一（{keys} 个值重复，最多出现 {most} 次），关联会重复计数",
    ),
    "missing_member": (
        "{subject}: member {member!r} does not occur in {columns}",
        "{subject_zh}：成员 {member!r} 未出现在 {columns} 中",
    ),
    "missing_filter_value": (
        "{subject}: its filter {sql} names {value!r}, which does not occur in {table}.{column}",
        "{subject_zh}：其筛选条件 {sql} 中的 {value!r} 未出现在 {table}.{column} 中",
    ),
    "no_cost_estimate": (
        "{subject}: its cost cannot be estimated, so every query on it would be refused ({error})",
        "{subject_zh}：无法估算其查询成本，针对它的每个查询都会被拒绝（{error_zh}）",
    ),
    "query_failed": (
        "{subject}: the check query failed ({error})",
        "{subject_zh}：检查查询失败（{error_zh}）",
    ),
    **{key: (line, line) for key, line in _BILINGUAL.items()},
}
