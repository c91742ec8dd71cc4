"""``OpenAIProvider`` against a real model (SmolLM2-135M under llama-cpp-python's server).

What is checked is the plumbing, not the model's judgement: a text answer with the server's
token counts, a structured answer whose object validates against the schema asked for, and a
mode the server does not support failing as one typed error.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from baton.errors import ModelFailure
from baton.llm import ChatMessage, LlmSettings, Provider, open_provider
from baton.llm.settings import StructuredMode

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "population": {"type": "integer"}},
    "required": ["city", "population"],
}
ASK = [
    ChatMessage(role="system", content="You answer with JSON."),
    ChatMessage(role="user", content="Name a large city and its population."),
]


def _provider(base_url: str, structured: StructuredMode = "json_schema") -> Provider:
    settings = LlmSettings(base_url=base_url, model="smollm2", max_tokens=64, timeout_s=120, structured=structured)
    return open_provider(settings)


def test_a_text_answer_with_token_counts(llama_base_url: str) -> None:
    completion = _provider(llama_base_url).complete([ChatMessage(role="user", content="Say hello in one sentence.")])
    assert completion.content.strip()
    assert completion.data is None
    assert completion.prompt_tokens > 0
    assert completion.completion_tokens > 0
    assert completion.finish_reason in {"stop", "length"}
    assert completion.latency_ms > 0


def test_a_structured_answer_validates_against_its_schema(llama_base_url: str) -> None:
    """llama-cpp-python turns a forced tool's parameters into a grammar: the object must fit."""
    completion = _provider(llama_base_url, "tool").complete(ASK, schema=SCHEMA, schema_name="city")
    assert completion.data is not None
    jsonschema.validate(completion.data, SCHEMA)


def test_json_object_mode_returns_one_object(llama_base_url: str) -> None:
    completion = _provider(llama_base_url, "json_object").complete(ASK, schema=SCHEMA, schema_name="city")
    assert isinstance(completion.data, dict)


def test_a_mode_the_server_lacks_is_one_typed_error(llama_base_url: str) -> None:
    """llama-cpp-python's server (0.3.36) accepts response_format text or json_object only."""
    with pytest.raises(ModelFailure) as caught:
        _provider(llama_base_url, "json_schema").complete(ASK, schema=SCHEMA, schema_name="city")
    assert caught.value.detail["reason"] == "http_error"
    assert caught.value.detail["status"] in {400, 422, 500}
