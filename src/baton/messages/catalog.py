"""Errors in a catalog file (``catalog.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "cannot_read": ("Cannot read {path}: {error}", "无法读取 {path}：{error}"),
    "not_utf8": ("{path}: not UTF-8 text", "{path}：不是 UTF-8 文本"),
    "not_yaml": ("{path}:{line}: not valid YAML ({error})", "{path} 第 {line} 行：YAML 格式错误（{error}）"),
    "bad_field": ("{path}:{line}: field {field}: {error}", "{path} 第 {line} 行，字段 {field}：{error}"),
    "not_mapping": ("{path}: a catalog must be a mapping", "{path}：指标目录必须是一个映射（mapping）"),
    "bad_order": (
        "Cannot order by {key}: the result has the columns {columns}.",
        "无法按 {key} 排序：结果的列是 {columns}。",
    ),
    "average_series": (
        "An average {per} is one value per period; Baton does not compute a series of them.",
        "{per_zh}值按一个时间段计算，Baton 不计算{per_zh}值的序列。",
    ),
    "average_not_additive": (
        "An average {per} needs a metric that adds up (a sum or a count) or a distinct count; "
        "{metric} is a rate or an average already.",
        "{per_zh}只适用于可加总的指标（求和、计数或去重计数）；{metric} 本身已是比率或平均值。",
    ),
    "average_cuts_a_period": (
        "The average {per} counts whole {grain}s; {start} to {end} cuts one at an edge.",
        "{per_zh}按整{grain_zh}计算；{start}至{end}首尾不是整{grain_zh}。",
    ),
    "share_not_additive": (
        "A share of the whole needs an additive metric (a sum or a count) and no period comparison; "
        "{metric} cannot be split into shares.",
        "占比只适用于可加总的指标（求和或计数），且不能与期间对比同时使用；{metric} 无法拆成占比。",
    ),
}
