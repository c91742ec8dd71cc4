"""Lines the ``baton`` command prints (``cli.<key>``).

``_BILINGUAL`` lines are printed before the question's language is known (or for any
language), so each holds both languages at once and is its own English and Chinese template.
"""

from __future__ import annotations

_BILINGUAL: dict[str, str] = {
    "runs_title": "runs / 运行记录",
    "runs_run": "run\n运行",
    "runs_status": "status\n状态",
    "runs_user": "user\n用户",
    "runs_started": "started\n开始",
    "runs_question": "question\n问题",
    "cancelled": "cancelled / 已取消 (user_cancelled)",
    "cancelled_resumable": "user_cancelled: cancelled / 已取消 — `baton runs resume` can continue it",
    "trace_full_json": (
        "Every packet and report in full: baton runs trace {run_id} --packets --json / "
        "完整的交接包与回报：加 --packets --json"
    ),
    "demo_loaded_postgres": (
        "Loaded into PostgreSQL; queries run as a read-only role / 已载入 PostgreSQL，查询以只读角色执行: {url}"
    ),
    "demo_loaded_spark": (
        "Loaded into Spark database {database}; Baton sends only firewall-approved SELECTs / "
        "已载入 Spark 数据库 {database}，Baton 只发送防火墙批准的 SELECT: {url}"
    ),
    "internal_error": (
        "[red]tool_failure[/red]: internal error ({error}); "
        "run with BATON_DEBUG=1 for details / 内部错误，设置 BATON_DEBUG=1 查看详情"
    ),
}

MESSAGES: dict[str, tuple[str, str]] = {
    # the terminal rendering of an answer --------------------------------------------------------
    "answer": ("Answer", "回答"),
    "table": ("Result", "结果"),
    "sql": ("SQL", "SQL"),
    "metrics": ("Metric definitions", "指标口径"),
    "assumptions": ("Assumptions", "假设与说明"),
    "run": ("Run id", "运行编号"),
    "truncated": ("(result truncated)", "（结果已截断）"),
    "owner": ("owner", "负责人"),
    "time_column": ("dated by", "日期口径"),
    "filters": ("filters", "过滤条件"),
    "suggest": ("Suggestions", "建议"),
    "error": ("error code", "错误码"),
    "analysis": ("Analysis", "分析"),
    "drivers": ("Drivers", "驱动因素"),
    "handoffs": ("handoffs", "交接"),
    "driver_members": ("members", "成员"),
    "driver_factor": ("factor", "因子"),
    "driver_change": ("change", "贡献"),
    "driver_share": ("share", "占比"),
    "driver_q": ("q", "q"),
    "driver_ci": ("95% CI", "95% 区间"),
    "chart_saved": ("Chart saved: {path}", "图表已保存：{path}"),
    "wrote": ("Wrote: {path}", "已写入：{path}"),
    # arguments --------------------------------------------------------------------------------
    "not_utf8": ("The question is not UTF-8 text (binary input).", "问题不是 UTF-8 文本（二进制输入）。"),
    "bad_budget": ("Invalid budget: {error}", "预算参数无效：{error}"),
    "bad_as_of": ("--as-of must be YYYY-MM-DD, got {raw!r}", "--as-of 必须是 YYYY-MM-DD 格式，收到 {raw!r}"),
    "bad_steps": (
        "--steps must be integers like 6,20,50, got {raw!r}",
        "--steps 必须是整数列表，如 6,20,50，收到 {raw!r}",
    ),
    "usage_error": ("{error} (see `{command} --help`)", "命令用法有误：{error}（见 `{command} --help`）"),
    "steps_range": ("--steps must be between 1 and 500", "--steps 必须在 1 到 500 之间"),
    "demo_bad_warehouse": (
        "--warehouse takes postgresql://… or sc://… (the demo is built in DuckDB, then copied there), got {url!r}",
        "--warehouse 只接受 postgresql://… 或 sc://…（演示数据先在 DuckDB 中生成，再复制过去），收到 {url!r}",
    ),
    **{key: (line, line) for key, line in _BILINGUAL.items()},
}
