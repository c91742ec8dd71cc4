"""The ``[llm]`` section of ``baton.toml``: which OpenAI-compatible model Baton may call.

No section means no model: every path works without one (DESIGN §8). The API key is never
written in the file; ``api_key_env`` names the environment variable that holds it.
"""

from __future__ import annotations

import re
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["LlmSettings", "PlannerMode", "StructuredMode"]

StructuredMode = Literal["json_schema", "tool", "json_object"]
PlannerMode = Literal["off", "fallback", "always"]

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class LlmSettings(BaseModel):
    """An OpenAI-compatible chat model (OpenAI, DeepSeek, Qwen, vLLM, Ollama, llama.cpp); off
    when the section is absent."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    base_url: str = Field(description="the endpoint, e.g. https://api.deepseek.com/v1 or http://localhost:11434/v1")
    model: str = Field(min_length=1, description="the model name the server knows, e.g. deepseek-chat")
    api_key_env: str = Field(
        default="BATON_LLM_API_KEY",
        description="the environment variable holding the API key (unset: no key, which local servers accept)",
    )
    timeout_s: float = Field(default=30.0, gt=0, le=600, description="seconds before a model call is given up")
    max_tokens: int = Field(default=1024, ge=1, le=1_000_000, description="completion tokens per call")
    temperature: float = Field(default=0.0, ge=0, le=2, description="sampling temperature")
    structured: StructuredMode = Field(
        default="json_schema",
        description=(
            "how structured output is asked: json_schema (response_format), tool (a forced tool call) "
            "or json_object (JSON mode, the schema in the system message; DeepSeek)"
        ),
    )
    planner: PlannerMode = Field(
        default="fallback",
        description="fallback: the model plans questions the rule planner cannot read; always: both plan and are compared",
    )
    narrator: bool = Field(default=False, description="the model writes the prose of answers, under the output gate")

    @field_validator("base_url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError("base_url must be an http:// or https:// URL with a host")
        return value

    @field_validator("api_key_env")
    @classmethod
    def _env_name(cls, value: str) -> str:
        # the message never repeats the value: it may be a key pasted in by mistake
        if not _ENV_NAME.fullmatch(value):
            raise ValueError("api_key_env names an environment variable (like BATON_LLM_API_KEY), not the key itself")
        return value
