"""Errors in ``baton.toml`` and in finding it (``config.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "unknown_key": (
        "{path}: [{section}] has no key {key!r} (see docs/reference.md)",
        "{path}：[{section}] 中没有 {key!r} 这一项（见 docs/reference.md）",
    ),
    "not_a_table": ("[{name}] must be a table", "[{name}] 必须是一个表（table）"),
    "cannot_read": ("Cannot read config {path}: {error}", "无法读取配置文件 {path}：{error}"),
    "not_toml": ("{path}: not valid TOML ({error})", "{path}：TOML 格式错误（{error}）"),
    "bad_field": ("{path}: field {field}: {error}", "{path}：字段 {field}：{error}"),
    "not_found": ("Config file not found: {path}", "找不到配置文件：{path}"),
    "no_demo": (
        "No config given and no default demo exists; run `baton demo init` or pass --config.",
        "未指定配置且默认演示库不存在；请运行 `baton demo init` 或使用 --config。",
    ),
}
