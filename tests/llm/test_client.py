"""``baton.llm``: the real ``openai`` client against the scripted OpenAI-protocol server.

Every test drives :class:`OpenAIProvider` over HTTP on 127.0.0.1 (tests/llm_server.py): the
three ways of asking for structured output, token accounting, and each failure a model or its
server can produce, mapped to one ``ModelFailure`` reason. The ``[llm]`` section of baton.toml
and the lazy import of ``openai`` are checked here too.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from baton.config import load_settings
from baton.context.tokens import count_tokens
from baton.errors import ConfigError, ModelFailure
from baton.llm import ChatMessage, LlmSettings, Provider, open_provider
from baton.llm.openai_client import NO_KEY, parse_json_object
from baton.llm.settings import StructuredMode
from tests.llm_server import (
    Behaviour,
    InvalidJson,
    NoUsage,
    Refusal,
    Reply,
    ScriptedLLM,
    Slow,
    Status,
    by_question,
    in_order,
)

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"metric": {"type": "string"}, "dimensions": {"type": "array", "items": {"type": "string"}}},
    "required": ["metric"],
}
PLAN = {"metric": "gmv", "dimensions": ["channel"]}
QUESTION = [
    ChatMessage(role="system", content="You plan questions into catalog names."),
    ChatMessage(role="user", content="上个月各渠道的GMV是多少？"),
]
MODES: tuple[StructuredMode, ...] = ("json_schema", "tool", "json_object")
KEY_ENV = "BATON_TEST_LLM_KEY"
SECRET = "sk-test-7f3a9c2e51d04b8a"


def _provider(server: ScriptedLLM, **overrides: Any) -> Provider:
    fields: dict[str, Any] = {"base_url": server.base_url, "model": "scripted-model", "api_key_env": KEY_ENV}
    return open_provider(LlmSettings.model_validate(fields | overrides))


def _failure(provider: Provider, *, schema: dict[str, Any] | None = None) -> ModelFailure:
    with pytest.raises(ModelFailure) as caught:
        provider.complete(QUESTION, schema=schema, schema_name="plan")
    error = caught.value
    assert error.error_code == "model_failure"
    assert error.message("en") != error.message("zh")  # said in both languages
    return error


@pytest.fixture
def server(scripted_llm_server: ScriptedLLM, monkeypatch: pytest.MonkeyPatch) -> ScriptedLLM:
    monkeypatch.delenv(KEY_ENV, raising=False)
    scripted_llm_server.reset()
    return scripted_llm_server


# answers ---------------------------------------------------------------------------------------------


def test_a_text_reply_with_the_servers_token_counts(server: ScriptedLLM) -> None:
    server.script(Reply(content="GMV 上个月按渠道拆分。", usage=(42, 7)))
    completion = _provider(server, max_tokens=300, temperature=0.2).complete(QUESTION)
    assert completion.content == "GMV 上个月按渠道拆分。"
    assert completion.data is None
    assert (completion.prompt_tokens, completion.completion_tokens, completion.tokens) == (42, 7, 49)
    assert completion.model == "scripted-model"
    assert completion.finish_reason == "stop"
    assert completion.latency_ms > 0
    sent = server.last_request
    assert sent["messages"] == [m.model_dump() for m in QUESTION]
    assert (sent["max_tokens"], sent["temperature"]) == (300, 0.2)
    assert "response_format" not in sent
    assert "tools" not in sent


def test_max_tokens_of_one_call_overrides_the_setting(server: ScriptedLLM) -> None:
    _provider(server, max_tokens=300).complete(QUESTION, max_tokens=12)
    assert server.last_request["max_tokens"] == 12


@pytest.mark.parametrize("mode", MODES)
def test_each_structured_mode_returns_the_object(server: ScriptedLLM, mode: StructuredMode) -> None:
    server.script(Reply(data=PLAN, usage=(100, 20)))
    completion = _provider(server, structured=mode).complete(QUESTION, schema=SCHEMA, schema_name="plan")
    assert completion.data == PLAN
    assert json.loads(completion.content) == PLAN
    assert completion.tokens == 120
    sent = server.last_request
    if mode == "json_schema":
        assert sent["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "plan", "schema": SCHEMA, "strict": False},
        }
        assert "tools" not in sent
    elif mode == "tool":
        assert sent["tools"] == [{"type": "function", "function": {"name": "plan", "parameters": SCHEMA}}]
        assert sent["tool_choice"] == {"type": "function", "function": {"name": "plan"}}
        assert completion.finish_reason == "tool_calls"
        assert "response_format" not in sent
    else:
        assert sent["response_format"] == {"type": "json_object"}
        system = sent["messages"][0]
        assert system["role"] == "system"
        assert system["content"].startswith(QUESTION[0].content)
        assert json.dumps(SCHEMA, ensure_ascii=False) in system["content"]
        assert sent["messages"][1:] == [QUESTION[1].model_dump()]


def test_json_object_mode_adds_a_system_message_when_there_is_none(server: ScriptedLLM) -> None:
    server.script(Reply(data=PLAN))
    user_only = [QUESTION[1]]
    completion = _provider(server, structured="json_object").complete(user_only, schema=SCHEMA, schema_name="plan")
    assert completion.data == PLAN
    system, user = server.last_request["messages"]
    assert system["role"] == "system"
    assert '"required": ["metric"]' in system["content"]
    assert user == QUESTION[1].model_dump()


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ('{"metric": "gmv"}', {"metric": "gmv"}),
        ('  \n```json\n{"metric": "gmv"}\n```\n', {"metric": "gmv"}),
        ('```\n{"metric": "订单数"}\n```', {"metric": "订单数"}),
        ("[1, 2]", None),
        ('"gmv"', None),
        ('{"metric": "gmv"} and more', None),
        ('Here you go: ```json\n{"metric": "gmv"}\n```', None),
        ("", None),
    ],
)
def test_what_counts_as_one_json_object(text: str, data: dict[str, Any] | None) -> None:
    assert parse_json_object(text) == data


@pytest.mark.parametrize("schema", [None, SCHEMA], ids=["text", "schema"])
def test_tokens_are_counted_when_the_server_sends_no_usage(server: ScriptedLLM, schema: dict[str, Any] | None) -> None:
    answer = Reply(data=PLAN) if schema else Reply(content="GMV by channel, last month.")
    server.script(NoUsage(answer))
    completion = _provider(server).complete(QUESTION, schema=schema, schema_name="plan")
    assert "usage" not in server.last_request  # a request field, never sent
    prompt = "\n".join(m.content for m in QUESTION)
    if schema is None:
        assert completion.prompt_tokens == count_tokens(prompt)
    else:  # the schema is part of what the model reads
        assert completion.prompt_tokens > count_tokens(prompt)
    assert completion.completion_tokens == count_tokens(completion.content) > 0


# failures --------------------------------------------------------------------------------------------


def test_a_slow_model_times_out_well_before_it_answers(server: ScriptedLLM) -> None:
    server.script(Slow(2.0, then=Reply(content="too late")))
    provider = _provider(server, timeout_s=0.5)
    started = time.perf_counter()
    error = _failure(provider)
    elapsed = time.perf_counter() - started
    assert error.detail["reason"] == "timeout"
    assert error.detail["timeout_s"] == 0.5
    assert elapsed < 1.5, elapsed


@pytest.mark.parametrize("status", [500, 429, 400, 401])
def test_an_error_status_is_an_http_error_with_its_status(server: ScriptedLLM, status: int) -> None:
    server.script(Status(status))
    error = _failure(_provider(server))
    assert error.detail["reason"] == "http_error"
    assert error.detail["status"] == status
    assert str(status) in error.message("en")
    assert len(server.requests) == 1  # no retries


def test_a_server_that_is_not_there_is_an_http_error() -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings = LlmSettings(base_url=f"http://127.0.0.1:{port}/v1", model="m", timeout_s=5)
    started = time.perf_counter()
    error = _failure(open_provider(settings))
    assert error.detail["reason"] == "http_error"
    assert "status" not in error.detail
    assert f"127.0.0.1:{port}" in error.message("en")
    assert time.perf_counter() - started < 5


def test_a_reply_that_is_not_a_chat_completion_is_an_http_error(server: ScriptedLLM) -> None:
    server.script(Status(200, {"unexpected": True}))
    assert _failure(_provider(server)).detail["reason"] == "http_error"


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "reply",
    [InvalidJson(), Reply(content="[1, 2, 3]"), Reply(content='{"metric": "gmv"'), NoUsage(Reply(content="gmv"))],
    ids=["prose", "array", "truncated", "bare-word"],
)
def test_content_that_is_not_one_json_object_is_invalid_json(
    server: ScriptedLLM, mode: StructuredMode, reply: Behaviour
) -> None:
    server.script(reply)
    error = _failure(_provider(server, structured=mode), schema=SCHEMA)
    assert error.detail["reason"] == "invalid_json"
    assert "Sure!" not in error.message("en")  # the model's text is not repeated


def test_prose_is_fine_when_no_schema_was_asked(server: ScriptedLLM) -> None:
    server.script(InvalidJson("Plain words."))
    assert _provider(server).complete(QUESTION).content == "Plain words."


@pytest.mark.parametrize("schema", [None, SCHEMA], ids=["text", "schema"])
@pytest.mark.parametrize(
    "reply", [Refusal(), Reply(content=""), Reply(content="   "), Reply(content="x", finish_reason="content_filter")]
)
def test_a_refusal_or_an_empty_answer_is_a_refusal(
    server: ScriptedLLM, reply: Behaviour, schema: dict[str, Any] | None
) -> None:
    server.script(reply)
    error = _failure(_provider(server), schema=schema)
    assert error.detail["reason"] == "refusal"
    assert "sorry" not in error.message("en")


# the key ---------------------------------------------------------------------------------------------


def test_the_key_is_read_from_the_named_variable_and_sent_as_bearer(
    server: ScriptedLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)
    provider = _provider(server)
    provider.complete(QUESTION)
    assert server.headers[-1]["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in repr(provider)

    # a server that echoes the key in its error body: the key appears nowhere Baton writes
    server.script(Status(401, {"error": {"message": f"Incorrect API key provided: {SECRET}", "type": "auth"}}))
    error = _failure(provider)
    assert error.detail["status"] == 401
    written = json.dumps([error.to_trace_dict("en"), error.to_trace_dict("zh"), str(error), repr(error)])
    assert SECRET not in written
    assert error.internal["error"] == "AuthenticationError"


def test_no_key_variable_sends_a_placeholder(server: ScriptedLLM) -> None:
    _provider(server).complete(QUESTION)
    assert server.headers[-1]["authorization"] == f"Bearer {NO_KEY}"


# the scripted server's own helpers ---------------------------------------------------------------------


def test_replies_by_question_and_in_order(server: ScriptedLLM) -> None:
    server.script(by_question({"GMV": Reply(content="any gmv"), "渠道的GMV": Reply(content="by channel")}))
    provider = _provider(server)
    assert provider.complete(QUESTION).content == "by channel"  # the longest key that matches
    other = [ChatMessage(role="user", content="What was GMV?")]
    assert provider.complete(other).content == "any gmv"
    error = _failure_for(provider, [ChatMessage(role="user", content="visitors?")])  # not scripted: a 500
    assert error.detail == {"reason": "http_error", "model": "scripted-model", "status": 500}

    server.script(in_order(Status(503), Reply(content="second")))
    assert _failure(provider).detail["status"] == 503
    assert provider.complete(QUESTION).content == "second"
    assert provider.complete(QUESTION).content == "second"
    assert len(server.requests) == 3


def _failure_for(provider: Provider, messages: list[ChatMessage]) -> ModelFailure:
    with pytest.raises(ModelFailure) as caught:
        provider.complete(messages)
    return caught.value


# settings ----------------------------------------------------------------------------------------------

TOML_HEAD = '[warehouse]\nurl = "duckdb:///warehouse.duckdb"\n'


def _config(tmp_path: Path, llm: str) -> Path:
    path = tmp_path / "baton.toml"
    path.write_text(TOML_HEAD + textwrap.dedent(llm), encoding="utf-8")
    return path


def test_the_llm_section_is_read(tmp_path: Path) -> None:
    path = _config(
        tmp_path,
        """
        [llm]
        base_url = "https://api.deepseek.com/v1"
        model = "deepseek-chat"
        api_key_env = "DEEPSEEK_API_KEY"
        timeout_s = 20
        structured = "json_object"
        planner = "always"
        narrator = true
        """,
    )
    llm = load_settings(path).llm
    assert llm == LlmSettings(
        base_url="https://api.deepseek.com/v1",
        model="deepseek-chat",
        api_key_env="DEEPSEEK_API_KEY",
        timeout_s=20,
        structured="json_object",
        planner="always",
        narrator=True,
    )
    assert (llm.max_tokens, llm.temperature) == (1024, 0.0)


def test_no_llm_section_means_no_model(tmp_path: Path) -> None:
    assert load_settings(_config(tmp_path, "")).llm is None


@pytest.mark.parametrize(
    ("section", "words"),
    [
        ('base_url = "http://localhost:11434/v1"\nmodel = "qwen2.5"\napi_key = "sk-x"\n', ["[llm]", "'api_key'"]),
        ('base_url = "ftp://example.com/v1"\nmodel = "m"\n', ["llm.base_url", "http"]),
        ('base_url = "localhost:8000/v1"\nmodel = "m"\n', ["llm.base_url"]),
        ('model = "m"\n', ["llm.base_url"]),
        ('base_url = "http://localhost:8000/v1"\nmodel = "m"\ntimeout_s = 0\n', ["llm.timeout_s"]),
        ('base_url = "http://localhost:8000/v1"\nmodel = "m"\nstructured = "grammar"\n', ["llm.structured"]),
        ('base_url = "http://localhost:8000/v1"\nmodel = "m"\nplanner = "sometimes"\n', ["llm.planner"]),
    ],
    ids=["unknown-key", "not-http", "no-scheme", "no-url", "zero-timeout", "bad-structured", "bad-planner"],
)
def test_a_bad_llm_section_is_refused(tmp_path: Path, section: str, words: list[str]) -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings(_config(tmp_path, "[llm]\n" + section))
    for word in words:
        assert word in caught.value.message("en")


def test_a_key_pasted_as_the_variable_name_is_refused_without_repeating_it(tmp_path: Path) -> None:
    path = _config(
        tmp_path, f'[llm]\nbase_url = "https://api.openai.com/v1"\nmodel = "gpt-4o-mini"\napi_key_env = "{SECRET}"\n'
    )
    with pytest.raises(ConfigError) as caught:
        load_settings(path)
    assert "environment variable" in caught.value.message("en")
    assert SECRET not in json.dumps([caught.value.to_trace_dict("en"), caught.value.to_trace_dict("zh")])


# the optional dependency ---------------------------------------------------------------------------------


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, check=False)


def test_importing_baton_llm_and_the_config_does_not_import_openai() -> None:
    result = _run(
        """
        import sys
        import baton.config, baton.llm
        from baton.llm import LlmSettings, open_provider
        provider = open_provider(LlmSettings(base_url="http://127.0.0.1:9/v1", model="m"))
        print("openai" in sys.modules, repr(provider))
        """
    )
    assert result.returncode == 0, result.stderr
    # open_provider finds the package; neither importing baton.llm nor the config loads it first
    first = _run("import sys, baton.config, baton.llm; print('openai' in sys.modules)")
    assert first.stdout.strip() == "False", first.stderr
    assert "OpenAIProvider(model='m'" in result.stdout


def test_without_openai_open_provider_says_how_to_install_it() -> None:
    result = _run(
        """
        import json, sys
        sys.modules["openai"] = None  # as if the package were not installed
        from baton.errors import ModelFailure
        from baton.llm import LlmSettings, open_provider
        try:
            open_provider(LlmSettings(base_url="http://127.0.0.1:9/v1", model="m"))
        except ModelFailure as exc:
            print(json.dumps(exc.to_dict("en")))
        """
    )
    assert result.returncode == 0, result.stderr
    error = json.loads(result.stdout)
    assert error["code"] == "model_failure"
    assert error["detail"] == {"reason": "not_configured"}
    assert "pip install 'baton-analyst[llm]'" in error["message"]
