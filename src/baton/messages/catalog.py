"""Errors in a catalog file (``catalog.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cannot_read": ("Cannot read {path}: {error}", "无法读取 {path}：{error}"),
    "not_utf8": ("{path}: not UTF-8 text", "{path}：不是 UTF-8 文本"),
    "not_yaml": ("{path}:{line}: not valid YAML ({error})", "{path} 第 {line} 行：YAML 格式错误（{error}）"),
    "bad_field": ("{path}:{line}: field {field}: {error}", "{path} 第 {line} 行，字段 {field}：{error}"),
    "not_mapping": ("{path}: a catalog must be a mapping", "{path}：指标目录必须是一个映射（mapping）"),
}
