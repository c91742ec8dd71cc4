"""Errors in an eval dataset (``evals.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cannot_read": ("Cannot read dataset {path}", "无法读取评测集 {path}"),
    "bad_case": ("{path}:{line}: invalid eval case ({error})", "{path} 第 {line} 行：评测用例无效（{error}）"),
}
