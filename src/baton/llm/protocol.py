"""One provider protocol for language models: messages in, one completion out.

Every model Baton talks to (OpenAI, DeepSeek, Qwen, vLLM, Ollama, llama.cpp — all speak the
OpenAI chat-completions protocol) is reached through :class:`Provider`. The run driver wraps a
provider so every call is budgeted (tokens), traced (model, tokens, latency) and stored (the
prompt goes to the run store, never to a log); agents and planners only see this protocol.
A provider never returns half a result: a failure is a :class:`~baton.errors.ModelFailure`
whose ``detail["reason"]`` says which (see :data:`FailureReason`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ChatMessage", "Completion", "FailureReason", "Provider"]

FailureReason = Literal[
    "timeout",  # no answer within the configured timeout
    "http_error",  # the server answered with an error status, or could not be reached
    "invalid_json",  # a schema was asked for and the content is not one JSON object
    "schema_violation",  # JSON, but not of the schema asked for (checked by the caller)
    "refusal",  # the model declined (an OpenAI ``refusal`` or an empty answer)
    "not_configured",  # no [llm] section, or the ``openai`` package is not installed
    "injection",  # the model's output asks to bypass Baton's rules (checked by the caller)
]


class ChatMessage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    role: Literal["system", "user", "assistant"]
    content: str


class Completion(BaseModel):
    """What one call returned, with its cost in tokens and time."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str
    content: str = Field(default="", description="the text (for a schema: the JSON text)")
    data: dict[str, Any] | None = Field(
        default=None, description="the JSON object, when a schema was asked for (structured output or a tool call)"
    )
    finish_reason: str | None = None
    prompt_tokens: int = Field(default=0, ge=0)
    completion_tokens: int = Field(default=0, ge=0)
    latency_ms: float = Field(default=0.0, ge=0)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


class Provider(Protocol):
    """A chat model. ``complete`` returns a :class:`Completion` or raises ``ModelFailure``."""

    @property
    def model(self) -> str: ...

    def complete(
        self,
        messages: Sequence[ChatMessage],
        *,
        schema: dict[str, Any] | None = None,
        schema_name: str = "output",
        max_tokens: int | None = None,
    ) -> Completion:
        """One chat completion. With ``schema`` (a JSON schema of an object) the model is
        asked for structured output and ``Completion.data`` holds the parsed object."""
        ...
