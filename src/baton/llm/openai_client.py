"""A :class:`~baton.llm.protocol.Provider` over the official ``openai`` client.

Every server Baton supports speaks the OpenAI chat-completions protocol, so one client serves
them all; what differs is how structured output is asked for (``LlmSettings.structured``):

- ``json_schema``: ``response_format={"type": "json_schema", ...}`` (OpenAI, vLLM, llama.cpp,
  Ollama, Qwen);
- ``tool``: one function tool whose parameters are the schema, forced by ``tool_choice``; the
  object is the call's arguments;
- ``json_object``: JSON mode, with the schema written into the system message (DeepSeek).

A call either returns a whole :class:`Completion` or raises :class:`ModelFailure` whose
``detail["reason"]`` is a :data:`FailureReason`. Nothing here logs: the caller stores prompts
in the run store. The API key is read from the environment when the client is first needed
and appears in no message, detail, ``repr`` or trace.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import openai
from openai.types.chat import ChatCompletion

from baton.context.tokens import count_tokens
from baton.errors import ModelFailure
from baton.llm.protocol import ChatMessage, Completion, FailureReason
from baton.llm.settings import LlmSettings
from baton.messages import bilingual, both

__all__ = ["NO_KEY", "OpenAIProvider", "parse_json_object"]

NO_KEY = "baton-no-key"
"""Sent as the key when the configured variable is unset: local servers ignore it, and the
``openai`` client refuses to start without one."""

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)\s*```", re.DOTALL)
_INTERNAL_TEXT_LIMIT = 300


def parse_json_object(text: str) -> dict[str, Any] | None:
    """``text`` as one JSON object (a single surrounding Markdown code fence is allowed), or
    None when it is anything else."""
    stripped = text.strip()
    fenced = _FENCE.fullmatch(stripped)
    if fenced is not None:
        stripped = fenced.group(1)
    try:
        value = json.loads(stripped)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _public_url(url: str) -> str:
    """``url`` without user info, query or fragment (what a message may show)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


class OpenAIProvider:
    """A chat model behind an OpenAI-compatible endpoint; the HTTP client is made on first use."""

    def __init__(self, settings: LlmSettings) -> None:
        self._settings = settings
        self._client: openai.OpenAI | None = None
        self._key = ""
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"OpenAIProvider(model={self.model!r}, base_url={_public_url(self._settings.base_url)!r})"

    @property
    def model(self) -> str:
        return self._settings.model

    @property
    def settings(self) -> LlmSettings:
        return self._settings

    def close(self) -> None:
        """Close the HTTP connections (a later call opens new ones)."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: dict[str, Any] | None = None,
        schema_name: str = "output",
        max_tokens: int | None = None,
    ) -> Completion:
        """One chat completion; with ``schema``, ``Completion.data`` is the parsed object."""
        request = self._request(messages, schema, schema_name, max_tokens)
        started = time.perf_counter()
        response = self._send(request)
        latency_ms = (time.perf_counter() - started) * 1000
        try:
            return self._completion(response, request, schema, latency_ms)
        except (AttributeError, TypeError, IndexError) as exc:  # a reply that is not a chat completion
            raise self._failure(
                "http_error", "llm.bad_response", exc, base_url=_public_url(self._settings.base_url)
            ) from exc

    # the request -------------------------------------------------------------------------------------

    def _request(
        self,
        messages: Sequence[ChatMessage],
        schema: dict[str, Any] | None,
        schema_name: str,
        max_tokens: int | None,
    ) -> dict[str, Any]:
        settings = self._settings
        sent = [{"role": m.role, "content": m.content} for m in messages]
        request: dict[str, Any] = {
            "model": settings.model,
            "max_tokens": max_tokens if max_tokens is not None else settings.max_tokens,
            "temperature": settings.temperature,
        }
        if schema is not None and settings.structured == "json_schema":
            request["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": schema_name, "schema": schema, "strict": False},
            }
        elif schema is not None and settings.structured == "tool":
            request["tools"] = [{"type": "function", "function": {"name": schema_name, "parameters": schema}}]
            request["tool_choice"] = {"type": "function", "function": {"name": schema_name}}
        elif schema is not None:  # json_object: the schema travels in the system message
            request["response_format"] = {"type": "json_object"}
            line = bilingual("llm.json_object_schema", name=schema_name, schema=json.dumps(schema, ensure_ascii=False))
            system = next((m for m in sent if m["role"] == "system"), None)
            if system is None:
                sent.insert(0, {"role": "system", "content": line})
            else:
                system["content"] = f"{system['content']}\n\n{line}"
        request["messages"] = sent
        return request

    def _openai(self) -> openai.OpenAI:
        with self._lock:
            if self._client is None:
                settings = self._settings
                self._key = os.environ.get(settings.api_key_env, "")
                self._client = openai.OpenAI(
                    base_url=settings.base_url,
                    api_key=self._key or NO_KEY,
                    timeout=settings.timeout_s,
                    max_retries=0,
                )
            return self._client

    def _send(self, request: dict[str, Any]) -> ChatCompletion:
        client = self._openai()
        try:
            response: ChatCompletion = client.chat.completions.create(**request)
        except openai.APITimeoutError as exc:
            raise self._failure("timeout", "llm.timeout", exc, timeout_s=self._settings.timeout_s) from exc
        except openai.APIStatusError as exc:
            raise self._failure("http_error", "llm.http_status", exc, status=exc.status_code) from exc
        except openai.APIConnectionError as exc:
            raise self._failure(
                "http_error", "llm.unreachable", exc, base_url=_public_url(self._settings.base_url)
            ) from exc
        except openai.APIError as exc:  # e.g. a body that does not validate as a chat completion
            raise self._failure(
                "http_error", "llm.bad_response", exc, base_url=_public_url(self._settings.base_url)
            ) from exc
        return response

    # the reply ---------------------------------------------------------------------------------------

    def _completion(
        self,
        response: ChatCompletion,
        request: dict[str, Any],
        schema: dict[str, Any] | None,
        latency_ms: float,
    ) -> Completion:
        choices: Any = getattr(response, "choices", None)  # the client does not validate replies
        if not isinstance(choices, list):
            raise TypeError("the reply has no choices")
        if not choices:
            raise self._failure("refusal", "llm.empty", None, latency_ms=round(latency_ms, 1))
        choice = choices[0]
        message = choice.message
        finish_reason = choice.finish_reason
        facts: dict[str, Any] = {"finish_reason": finish_reason, "latency_ms": round(latency_ms, 1)}
        if message.refusal:
            raise self._failure("refusal", "llm.refusal", None, **facts)
        if finish_reason == "content_filter":
            raise self._failure("refusal", "llm.refusal", None, **facts)
        text = message.content or ""
        if schema is not None and self._settings.structured == "tool":
            # function calls only (openai>=1.99 also has custom tool calls, which carry no arguments)
            calls = [getattr(call, "function", None) for call in message.tool_calls or ()]
            arguments = [str(function.arguments) for function in calls if function is not None]
            text = arguments[0] if arguments else text
        if not text.strip():
            raise self._failure("refusal", "llm.empty", None, **facts)
        data: dict[str, Any] | None = None
        if schema is not None:
            data = parse_json_object(text)
            if data is None:
                raise self._failure("invalid_json", "llm.invalid_json", None, **facts)
        prompt_tokens, completion_tokens = self._tokens(response, request, text)
        return Completion(
            model=response.model or self._settings.model,
            content=text,
            data=data,
            finish_reason=finish_reason,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_ms=latency_ms,
        )

    @staticmethod
    def _tokens(response: ChatCompletion, request: dict[str, Any], text: str) -> tuple[int, int]:
        """(prompt, completion) tokens: the server's count, or Baton's own when it sends none."""
        usage = response.usage
        prompt = usage.prompt_tokens if usage is not None else None
        completion = usage.completion_tokens if usage is not None else None
        if prompt is None:
            parts = [m["content"] for m in request["messages"]]
            for key in ("response_format", "tools"):
                if key in request:
                    parts.append(json.dumps(request[key], ensure_ascii=False))
            prompt = count_tokens("\n".join(parts))
        if completion is None:
            completion = count_tokens(text)
        return max(int(prompt), 0), max(int(completion), 0)

    # failures ----------------------------------------------------------------------------------------

    def _failure(self, reason: FailureReason, key: str, exc: BaseException | None, **facts: Any) -> ModelFailure:
        """The one error of a failed call: the reason and plain facts, never the prompt or the key."""
        fields = {"model": self.model, "timeout_s": self._settings.timeout_s, **facts}
        internal: dict[str, Any] = {}
        if exc is not None:
            internal = {"error": type(exc).__name__, "text": self._scrub(str(exc))[:_INTERNAL_TEXT_LIMIT]}
        return ModelFailure(
            *both(key, **fields),
            detail={"reason": reason, "model": self.model, **facts},
            internal=internal,
        )

    def _scrub(self, text: str) -> str:
        return text.replace(self._key, "***") if len(self._key) >= 4 else text
