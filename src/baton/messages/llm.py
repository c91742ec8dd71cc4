"""Language-model failures and the fixed lines Baton adds to a model's prompt (``llm.<key>``).

A failure message names the model and the reason, never the prompt, the answer or the key.
The prompt lines are read by the model, so they are deliberately bilingual (the same text as
both templates, rendered with ``bilingual``).
"""

from __future__ import annotations

_PROMPT_LINES: dict[str, str] = {
    "json_object_schema": (
        "Reply with one JSON object only, no prose and no code fence, matching this JSON schema "
        "· 只回复一个符合以下 JSON schema 的 JSON 对象，不要任何其他文字 ({name}):\n{schema}"
    ),
}

MESSAGES: dict[str, tuple[str, str]] = {
    "timeout": (
        "The language model {model} did not answer within {timeout_s:g} s.",
        "语言模型 {model} 在 {timeout_s:g} 秒内没有回答。",
    ),
    "http_status": (
        "The language model server answered HTTP {status} for model {model}.",
        "语言模型服务返回 HTTP {status}（模型 {model}）。",
    ),
    "unreachable": (
        "The language model server at {base_url} could not be reached.",
        "无法连接语言模型服务 {base_url}。",
    ),
    "bad_response": (
        "The language model server at {base_url} sent a reply that is not a chat completion.",
        "语言模型服务 {base_url} 返回的不是一个对话补全结果。",
    ),
    "invalid_json": (
        "The language model {model} was asked for a JSON object and answered something else.",
        "要求语言模型 {model} 返回一个 JSON 对象，但它的回答不是。",
    ),
    "refusal": (
        "The language model {model} declined to answer.",
        "语言模型 {model} 拒绝了回答。",
    ),
    "empty": (
        "The language model {model} gave an empty answer.",
        "语言模型 {model} 的回答是空的。",
    ),
    "not_installed": (
        "The language model client is not installed; run: pip install 'baton-analyst[llm]'",
        "未安装语言模型客户端；请运行：pip install 'baton-analyst[llm]'",
    ),
    **{key: (line, line) for key, line in _PROMPT_LINES.items()},
}
