"""What an Answer says about itself in a notebook and when it converts to a DataFrame (``notebook.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "missing_dependency": (
        "{what} needs the package {package}, which is not installed: pip install {install}",
        "{what} 需要安装 {package} 包（当前未安装）：pip install {install}",
    ),
    "no_result": (
        "This answer has no result table (status: {status}), so there is nothing to convert.",
        "该回答没有结果表（状态：{status}），无法转换。",
    ),
    "no_chart": ("This answer has no chart.", "该回答没有图表。"),
    "bad_scale": (
        "scale must be a number above 0 and at most 8, got {raw!r}",
        "scale 必须是大于 0、不超过 8 的数，收到 {raw!r}",
    ),
    "bad_format": ("format must be one of {formats}, got {raw!r}", "format 必须是 {formats} 之一，收到 {raw!r}"),
    "chart_failed": ("The chart could not be drawn: {error}", "图表无法绘制：{error}"),
    "rows": ("{shown} of {total} rows", "共 {total} 行，显示 {shown} 行"),
    "suggestions": ("Try instead", "可以这样问"),
    "error": ("Error {code}", "错误 {code}"),
}
