"""Firewall refusals: one message per code, naming what was refused (``firewall.<code>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "parse_error": (
        "Not permitted: the SQL could not be parsed safely ({reason}).",
        "不允许：无法安全地解析该 SQL（{reason}）。",
    ),
    "multiple_statements": (
        "Not permitted: exactly one SQL statement is allowed, found {count}.",
        "不允许：只能提交一条 SQL 语句，实际有 {count} 条。",
    ),
    "not_read_only": (
        "Not permitted: only read-only queries may run; {what} is not allowed.",
        "不允许：只能执行只读查询，不允许 {what_zh}。",
    ),
    "table_not_permitted": (
        "Not permitted: user '{user}' may not read table '{table}'.",
        "不允许：用户“{user}”无权读取表 {table}。",
    ),
    "column_not_permitted": (
        "Not permitted: user '{user}' may not read column '{column}' ({reason}).",
        "不允许：用户“{user}”无权读取列 {column}（{reason_zh}）。",
    ),
    "pii_denied": (
        "Not permitted: column '{column}' holds personal data that user '{user}' may not see.",
        "不允许：列 {column} 含个人信息，用户“{user}”无权查看。",
    ),
    "pii_masked_computed": (
        "Not permitted: column '{column}' holds personal data that user '{user}' sees masked; {use} over it "
        "would be computed on the masked text, not the real values. It may only be shown as it is.",
        "不允许：列 {column} 含个人信息，用户“{user}”看到的是脱敏后的值；在它上面做 {use} 计算的将是脱敏文本而不是"
        "真实值。它只能原样展示。",
    ),
    "function_not_allowed": (
        "Not permitted: function or construct '{function}' is not on the allow-list.",
        "不允许：函数或语法 {function} 不在允许清单内。",
    ),
    "detail_not_permitted": (
        "Not permitted: user '{user}' may read only aggregated results from '{table}' ({reason}).",
        "不允许：用户“{user}”只能查看表 {table} 的汇总结果（{reason_zh}）。",
    ),
    "rows_not_permitted": (
        "Not permitted: user '{user}' may see only {column} in ({allowed}); the query asks for {asked}.",
        "不允许：用户“{user}”只能查看 {column} 为（{allowed}）的数据，查询要求的是 {asked}。",
    ),
    "partition_filter_required": (
        "Not permitted: a filter on {table}.{column} is required (the table is large).",
        "不允许：表 {table} 很大，查询必须带 {column} 的过滤条件。",
    ),
    "cross_join_not_allowed": (
        "Not permitted: {sources} are joined without a join condition (a cross join).",
        "不允许：{sources} 之间没有连接条件（笛卡尔积）。",
    ),
    "recursion_not_allowed": (
        "Not permitted: recursive queries are not allowed.",
        "不允许：不能使用递归查询。",
    ),
    "query_too_complex": (
        "Not permitted: the query is too complex to run safely ({reason}).",
        "不允许：查询过于复杂，无法安全执行（{reason_zh}）。",
    ),
    "query_budget_exceeded": (
        "Not permitted: user '{user}' has run {used} of {budget} queries allowed per day on '{table}', "
        "which may be read only as aggregates; try again tomorrow.",
        "不允许：用户“{user}”今天已对仅限汇总的表 {table} 执行 {used} 次查询，每日上限为 {budget} 次；请明天再试。",
    ),
    "unsupported_syntax": (
        "Not permitted: {what} is not supported by the SQL firewall.",
        "不允许：SQL 防火墙不支持 {what_zh}。",
    ),
    "cost_exceeded": (
        "Not permitted: the estimated cost {cost:.0f} exceeds the budget {budget:.0f} of user '{user}'.",
        "不允许：预估成本 {cost:.0f} 超出用户“{user}”的预算 {budget:.0f}。",
    ),
    "cost_estimate_failed": (
        "Not permitted: the query's cost could not be estimated ({reason}).",
        "不允许：无法估算查询成本（{reason_zh}）。",
    ),
    "approval_not_found": (
        "Not permitted: approval '{approved_sql_id}' does not exist; only approved SQL can run.",
        "不允许：审批编号 {approved_sql_id} 不存在；只能执行已审批的 SQL。",
    ),
    "approval_expired": (
        "Not permitted: approval '{approved_sql_id}' expired at {expires_at}; check the SQL again.",
        "不允许：审批编号 {approved_sql_id} 已于 {expires_at} 过期，请重新检查 SQL。",
    ),
    "approval_wrong_user": (
        "Not permitted: approval '{approved_sql_id}' belongs to another user, not '{user}'.",
        "不允许：审批编号 {approved_sql_id} 属于其他用户，而不是“{user}”。",
    ),
}
