"""Baton as an MCP server, ``baton mcp`` and ``/mcp`` (``mcp.<key>``): what its tools and its
command tell the person (or the agent) on the other side."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "not_installed": (
        "`baton mcp` needs the MCP SDK, which is not installed: pip install 'baton-analyst[mcp]'",
        "`baton mcp` 需要 MCP SDK，但尚未安装：pip install 'baton-analyst[mcp]'",
    ),
    "tool_error": ("{code}: {message}", "{code}：{message}"),
    "tool_failure": (
        "The tool failed on an internal error; the server's log has the details.",
        "工具因内部错误失败，详情见服务器日志。",
    ),
    "empty_question": (
        'Invalid request: the question is empty; ask a business question (e.g. "{ex_metric} last month").',
        "请求无效：问题为空，请提出一个业务问题（例如“上个月的{ex_metric}”）。",
    ),
    "no_token": (
        "The MCP endpoint needs an API token: send Authorization: Bearer <token> (`baton token create`).",
        "MCP 端点需要 API 令牌：请发送 Authorization: Bearer <token>（用 `baton token create` 创建）。",
    ),
    "serving": (
        "Baton MCP server on stdio as {user} ({config}) / Baton MCP 服务（stdio），用户 {user}",
        "Baton MCP server on stdio as {user} ({config}) / Baton MCP 服务（stdio），用户 {user}",
    ),
}
