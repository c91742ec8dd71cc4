"""Budgets and the run store (``runs.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "bad_as_of": (
        "as_of must be a date or YYYY-MM-DD, got {raw!r}",
        "as_of 必须是日期或 YYYY-MM-DD 格式，收到 {raw!r}",
    ),
    "steps_exceeded": ("Step budget exceeded ({limit} steps).", "超出步骤预算（{limit} 步）。"),
    "tokens_exceeded": ("Token budget exceeded ({limit} tokens).", "超出 token 预算（{limit}）。"),
    "cost_exceeded": ("Query cost budget exceeded ({limit:g}).", "超出查询成本预算（{limit:g}）。"),
    "tool_calls_exceeded": ("Tool-call budget exceeded ({limit} calls).", "超出工具调用预算（{limit} 次）。"),
    "no_run": ("No run {run_id!r} in {path}", "运行记录中没有 {run_id!r}（{path}）"),
    "not_yours": (
        "Not permitted: run {run_id} belongs to another user; '{user}' sees only their own runs.",
        "不允许：运行 {run_id} 属于其他用户；“{user}”只能查看自己的运行。",
    ),
    "resume_not_yours": (
        "Not permitted: only the user who started run {run_id} may continue it.",
        "不允许：只有发起运行 {run_id} 的用户才能继续它。",
    ),
    "execute_outside_run": (
        "Not permitted: a statement runs only inside a run (audited and counted); use Session.sql or `baton sql run`.",
        "不允许：语句只能在一次运行中执行（留痕并计数）；请使用 Session.sql 或 `baton sql run`。",
    ),
    "withheld": (
        "(withheld: the engine's own text is for runs: all users / 已隐去：引擎原始信息仅对 runs: all 用户显示)",
        "(withheld: the engine's own text is for runs: all users / 已隐去：引擎原始信息仅对 runs: all 用户显示)",
    ),
    "kind_not_loaded": (
        "Runs of kind '{kind}' cannot be continued here: the package that defines them is not loaded.",
        "无法在此继续类型为“{kind}”的运行：定义它的模块未加载。",
    ),
    "grants_changed": (
        "Not permitted: the grants of '{owner}' have changed since run {run_id} read its data (policy {then} → "
        "{now}); its results are not shown again. Re-run it under today's grants with "
        "`baton runs replay {run_id} --re-execute`.",
        "不允许：运行 {run_id} 读取数据之后，“{owner}”的权限已变更（策略 {then} → {now}），不再展示其结果。"
        "可用 `baton runs replay {run_id} --re-execute` 按当前权限重新运行。",
    ),
}
