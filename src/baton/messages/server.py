"""`baton serve` and `baton token`: the REST API's errors and the token commands (``server.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # sign-in --------------------------------------------------------------------------------
    "no_credentials": (
        "Sign in first: send an API token (Authorization: Bearer <token>) or sign in with POST /api/session.",
        "请先登录：发送 API 令牌（Authorization: Bearer <令牌>），或通过 POST /api/session 登录。",
    ),
    "bad_token": (
        "The API token is not valid (unknown, revoked or expired).",
        "API 令牌无效（不存在、已吊销或已过期）。",
    ),
    "bad_session": (
        "The session has ended (signed out, expired, or its token was revoked); sign in again.",
        "会话已结束（已退出、已过期或其令牌已吊销），请重新登录。",
    ),
    "user_gone": (
        "The token's user '{user}' is no longer in the policy.",
        "令牌所属用户“{user}”已不在权限策略中。",
    ),
    "no_session": (
        "No sign-in session: sign in with POST /api/session (a bearer token has no session).",
        "没有登录会话：请通过 POST /api/session 登录（API 令牌请求没有会话）。",
    ),
    "csrf": (
        "Missing or wrong X-CSRF-Token header: a request signed in by cookie must carry the session's CSRF token.",
        "缺少或错误的 X-CSRF-Token 请求头：通过 Cookie 登录的请求必须携带会话的 CSRF 令牌。",
    ),
    # resources ------------------------------------------------------------------------------
    "no_run": ("No run {run_id}.", "没有运行 {run_id}。"),
    "no_conversation": ("No conversation {conversation_id}.", "没有对话 {conversation_id}。"),
    "no_path": ("No such endpoint: {method} {path}", "没有这个接口：{method} {path}"),
    "no_method": ("{method} is not allowed on {path}.", "{path} 不支持 {method} 方法。"),
    "no_answer_yet": (
        "Run {run_id} has no answer to report yet (it is {status}).",
        "运行 {run_id} 还没有可生成报告的回答（状态：{status}）。",
    ),
    "bad_request": ("Invalid request: {errors}", "请求无效：{errors}"),
    "http_error": ("HTTP error {status}: {detail}", "HTTP 错误 {status}：{detail}"),
    "busy": (
        "The server is busy ({pending} questions waiting); try again shortly.",
        "服务器繁忙（{pending} 个问题在排队），请稍后再试。",
    ),
    "internal": (
        "Internal error ({error}); the server's log has the details.",
        "内部错误（{error}），详情见服务器日志。",
    ),
    # tokens -----------------------------------------------------------------------------------
    "unknown_user": (
        "No user '{user}' in the policy: a token belongs to a user of {path}.",
        "权限策略中没有用户“{user}”：令牌必须属于 {path} 中的用户。",
    ),
    "no_token": ("No token {token_id}.", "没有令牌 {token_id}。"),
    "token_id_taken": (
        "Could not draw a free token id in {attempts} attempts; try again.",
        "尝试 {attempts} 次仍未取得未占用的令牌编号，请重试。",
    ),
    "bad_expires": (
        "--expires must be a whole number of days from 1 to 3650, got {raw}.",
        "--expires 必须是 1 到 3650 之间的整数天数，收到 {raw}。",
    ),
    "token_created": (
        "Created token {token_id} for '{user}' (expires {expires}). Copy it now; it is not shown again:",
        "已为“{user}”创建令牌 {token_id}（过期时间：{expires}）。请立即复制，它不会再次显示：",
    ),
    "token_revoked": ("Revoked token {token_id} of '{user}'.", "已吊销“{user}”的令牌 {token_id}。"),
    "no_tokens": (
        "No API tokens yet: create one with `baton token create --user USER`.",
        "还没有 API 令牌：可用 `baton token create --user 用户` 创建。",
    ),
    "never": ("never", "从不"),
    "active": ("active", "有效"),
    "revoked": ("revoked", "已吊销"),
    "expired": ("expired", "已过期"),
    "col_id": ("id", "编号"),
    "col_user": ("user", "用户"),
    "col_created": ("created", "创建时间"),
    "col_expires": ("expires", "过期时间"),
    "col_last_used": ("last used", "最近使用"),
    "col_status": ("status", "状态"),
    # serve ----------------------------------------------------------------------------------
    "not_installed": (
        "`baton serve` needs the server extra: pip install 'baton-analyst[server]' ({missing} is not installed).",
        "`baton serve` 需要 server 可选依赖：pip install 'baton-analyst[server]'（未安装 {missing}）。",
    ),
    "serving": (
        "Baton serves {url} (config {config}); stop with Ctrl-C.",
        "Baton 正在 {url} 提供服务（配置 {config}），按 Ctrl-C 停止。",
    ),
    "bad_port": ("--port must be from 1 to 65535, got {raw}.", "--port 必须在 1 到 65535 之间，收到 {raw}。"),
}
