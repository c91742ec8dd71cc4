"""Budgets and the run store (``runs.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "steps_exceeded": ("Step budget exceeded ({limit} steps).", "超出步骤预算（{limit} 步）。"),
    "tokens_exceeded": ("Token budget exceeded ({limit} tokens).", "超出 token 预算（{limit}）。"),
    "cost_exceeded": ("Query cost budget exceeded ({limit:g}).", "超出查询成本预算（{limit:g}）。"),
    "tool_calls_exceeded": ("Tool-call budget exceeded ({limit} calls).", "超出工具调用预算（{limit} 次）。"),
    "no_run": ("No run {run_id!r} in {path}", "运行记录中没有 {run_id!r}（{path}）"),
}
