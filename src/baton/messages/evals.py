"""Errors in an eval dataset and the eval report's notes (``evals.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cannot_read": ("Cannot read dataset {path}", "无法读取评测集 {path}"),
    "heldout_not_listed": (
        "{count} held-out case(s) not right — counted, not listed, so the split stays blind (--json has them).",
        "留出集中有 {count} 个用例未答对——只计数不列出，以保持该集合不被针对性调优（--json 中可见）。",
    ),
    "gold_failed": (
        "The gold SQL of eval case {case} failed: {error}",
        "评测用例 {case} 的标准答案 SQL 执行失败：{error}",
    ),
    "bad_case": ("{path}:{line}: invalid eval case ({error})", "{path} 第 {line} 行：评测用例无效（{error}）"),
}
