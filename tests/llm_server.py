"""A scripted OpenAI-protocol server for tests: Baton's real client talks to it over HTTP.

``with scripted_llm() as server:`` serves ``POST /v1/chat/completions`` and ``GET /v1/models``
on 127.0.0.1 (a free port, uvicorn in a background thread) until the block ends. Point an
``[llm]`` section at ``server.base_url``; every request body is kept in ``server.requests``
(and its headers in ``server.headers``, which tests may assert on but never print).

How the server answers is scripted: ``server.script(handler)`` sets a handler
``(request_json) -> Behaviour`` (or one behaviour for every request) and clears what was
recorded. The behaviours:

- ``Reply(content=... | data={...}, usage=(prompt, completion))``: an answer in the form the
  request asked for: plain content; with ``response_format`` json_schema or json_object the
  content is the JSON text; with a forced tool, a tool call whose arguments are the JSON text;
- ``Slow(seconds, then=Reply(...))``: answers late (a client timeout test);
- ``Status(code, body)``: an HTTP error (500, 429, ...);
- ``InvalidJson(text)``: content (or tool arguments) that is not JSON;
- ``Refusal(text)``: ``message.refusal`` set, content null;
- ``NoUsage(reply)``: the reply without its ``usage`` block.

``by_question({"substring": Reply(...), ...})`` picks a reply by the last user message, so a
test can script many questions at once; ``in_order(a, b, ...)`` answers call by call. The
``scripted_llm_server`` fixture (tests/conftest.py) is one server per test module.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import uvicorn
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

__all__ = [
    "Behaviour",
    "Handler",
    "InvalidJson",
    "NoUsage",
    "Refusal",
    "Reply",
    "ScriptedLLM",
    "Slow",
    "Status",
    "by_question",
    "in_order",
    "last_user_message",
    "scripted_llm",
]

MODEL_ID = "scripted-model"
STARTUP_S = 10.0


@dataclass(frozen=True)
class Reply:
    """An answer: ``content`` as given, else ``data`` as JSON text; ``usage`` (prompt,
    completion) tokens, or a rough word count when not given."""

    content: str | None = None
    data: Mapping[str, Any] | None = None
    usage: tuple[int, int] | None = None
    finish_reason: str | None = None

    def text(self) -> str:
        if self.content is not None:
            return self.content
        return json.dumps(dict(self.data), ensure_ascii=False) if self.data is not None else ""


@dataclass(frozen=True)
class Slow:
    """Wait ``seconds`` (stopping early if the client hangs up), then behave as ``then``."""

    seconds: float
    then: Behaviour = field(default_factory=lambda: Reply(content="late"))


@dataclass(frozen=True)
class Status:
    """An HTTP error status with an OpenAI-style error body (or ``body`` as given)."""

    code: int
    body: Any = None


@dataclass(frozen=True)
class InvalidJson:
    """Content (or tool-call arguments) that is not JSON."""

    text: str = "Sure! Here is what you asked for: GMV by channel, last month."


@dataclass(frozen=True)
class Refusal:
    """``message.refusal`` set and ``content`` null."""

    text: str = "I'm sorry, I can't help with that."


@dataclass(frozen=True)
class NoUsage:
    """``reply`` without the ``usage`` block."""

    reply: Reply


Behaviour: TypeAlias = Reply | Slow | Status | InvalidJson | Refusal | NoUsage
Handler: TypeAlias = Callable[[dict[str, Any]], Behaviour]


def last_user_message(request: Mapping[str, Any]) -> str:
    """The text of the last user message of a chat-completions request ("" when none)."""
    for message in reversed(request.get("messages") or []):
        if isinstance(message, dict) and message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):  # content parts
                return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
            return str(content or "")
    return ""


def by_question(replies: Mapping[str, Behaviour], default: Behaviour | None = None) -> Handler:
    """A handler answering by the last user message: the longest key it contains wins; no key
    -> ``default``, or a 500 naming the unscripted question."""

    keys = sorted(replies, key=len, reverse=True)

    def handle(request: dict[str, Any]) -> Behaviour:
        question = last_user_message(request)
        for key in keys:
            if key in question:
                return replies[key]
        if default is not None:
            return default
        return Status(500, {"error": {"message": f"no scripted reply for {question!r}", "type": "server_error"}})

    return handle


def _always(behaviour: Behaviour) -> Handler:
    return lambda _request: behaviour


def in_order(*behaviours: Behaviour) -> Handler:
    """A handler answering the n-th call with the n-th behaviour (the last one repeats)."""
    if not behaviours:
        raise ValueError("in_order needs at least one behaviour")
    calls = itertools.count()

    def handle(request: dict[str, Any]) -> Behaviour:
        return behaviours[min(next(calls), len(behaviours) - 1)]

    return handle


class ScriptedLLM:
    """The running server as a test sees it: where it is, what it received, how it answers."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        """The headers of each request (lower-case names); may hold a key: assert, never print."""
        self._handler: Handler = _always(Reply(content="scripted reply"))
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ScriptedLLM({self.base_url!r}, {len(self.requests)} requests)"

    def script(self, handler: Handler | Behaviour) -> None:
        """Answer every following request with ``handler`` (or always with one behaviour) and
        forget the requests received so far."""
        with self._lock:
            self._handler = handler if callable(handler) else _always(handler)
            self.requests.clear()
            self.headers.clear()

    def reset(self) -> None:
        """Back to the default reply ("scripted reply"), nothing recorded."""
        self.script(Reply(content="scripted reply"))

    @property
    def last_request(self) -> dict[str, Any]:
        return self.requests[-1]

    def _receive(self, body: dict[str, Any], headers: Mapping[str, str]) -> Behaviour:
        with self._lock:
            self.requests.append(body)
            self.headers.append({k.lower(): v for k, v in headers.items()})
            handler = self._handler
        return handler(body)


# answering -------------------------------------------------------------------------------------------


def _tool_name(request: Mapping[str, Any]) -> str | None:
    """The function the request forces (or its first tool); None when it offers no tool."""
    tools = request.get("tools") or []
    if not tools:
        return None
    choice = request.get("tool_choice")
    if isinstance(choice, dict) and isinstance(choice.get("function"), dict):
        return str(choice["function"].get("name"))
    return str(tools[0].get("function", {}).get("name", "output"))


def _words(text: str) -> int:
    return max(1, len(text.split()))


def _completion(
    request: Mapping[str, Any], message: dict[str, Any], finish: str, usage: tuple[int, int] | None
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": f"chatcmpl-scripted-{time.monotonic_ns()}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.get("model") or MODEL_ID),
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    }
    if usage is not None:
        body["usage"] = {"prompt_tokens": usage[0], "completion_tokens": usage[1], "total_tokens": sum(usage)}
    return body


def _answer(request: Mapping[str, Any], text: str, finish: str | None, usage: tuple[int, int] | None) -> dict[str, Any]:
    """``text`` in the form the request asked for (a tool call when it forces a tool)."""
    tool = _tool_name(request)
    if tool is not None:
        call = {"id": "call_scripted_1", "type": "function", "function": {"name": tool, "arguments": text}}
        message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": [call]}
        return _completion(request, message, finish or "tool_calls", usage)
    return _completion(request, {"role": "assistant", "content": text}, finish or "stop", usage)


def _default_usage(request: Mapping[str, Any], text: str) -> tuple[int, int]:
    prompt = sum(_words(str(m.get("content") or "")) for m in request.get("messages") or [] if isinstance(m, dict))
    return prompt, _words(text)


def _reply_body(request: Mapping[str, Any], behaviour: Reply | InvalidJson | Refusal | NoUsage) -> dict[str, Any]:
    if isinstance(behaviour, NoUsage):
        reply = behaviour.reply
        return _answer(request, reply.text(), reply.finish_reason, None)
    if isinstance(behaviour, Refusal):
        message = {"role": "assistant", "content": None, "refusal": behaviour.text}
        return _completion(request, message, "stop", _default_usage(request, behaviour.text))
    if isinstance(behaviour, InvalidJson):
        return _answer(request, behaviour.text, None, _default_usage(request, behaviour.text))
    text = behaviour.text()
    return _answer(request, text, behaviour.finish_reason, behaviour.usage or _default_usage(request, text))


async def _respond(http: Request, body: dict[str, Any], behaviour: Behaviour) -> JSONResponse:
    while isinstance(behaviour, Slow):
        deadline = time.monotonic() + behaviour.seconds
        while time.monotonic() < deadline:
            if await http.is_disconnected():
                return JSONResponse({"error": {"message": "client went away"}}, status_code=499)
            await asyncio.sleep(min(0.05, max(0.0, deadline - time.monotonic())))
        behaviour = behaviour.then
    if isinstance(behaviour, Status):
        error = behaviour.body
        if error is None:
            error = {"error": {"message": f"scripted HTTP {behaviour.code}", "type": "server_error", "code": None}}
        return JSONResponse(error, status_code=behaviour.code)
    return JSONResponse(_reply_body(body, behaviour))


def build_app(state: ScriptedLLM) -> FastAPI:
    """The FastAPI app answering as ``state`` is scripted."""
    app = FastAPI(title="scripted OpenAI-protocol server")

    @app.post("/v1/chat/completions")
    async def chat_completions(http: Request) -> JSONResponse:
        try:
            body = await http.json()
        except ValueError:
            return JSONResponse({"error": {"message": "body is not JSON", "type": "invalid_request_error"}}, 400)
        if not isinstance(body, dict) or body.get("stream"):
            return JSONResponse(
                {"error": {"message": "expected one non-streaming request", "type": "invalid_request_error"}}, 400
            )
        try:
            behaviour = state._receive(body, http.headers)
        except Exception as exc:  # a broken handler is the test's bug: say so over HTTP, keep serving
            return JSONResponse({"error": {"message": f"handler failed: {exc!r}", "type": "server_error"}}, 500)
        return await _respond(http, body, behaviour)

    @app.get("/v1/models")
    async def models() -> dict[str, Any]:
        return {
            "object": "list",
            "data": [{"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "baton-tests"}],
        }

    return app


@contextmanager
def scripted_llm(handler: Handler | Behaviour | None = None) -> Iterator[ScriptedLLM]:
    """Serve a scripted model on 127.0.0.1 (a free port) for the duration of the block."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    state = ScriptedLLM(f"http://127.0.0.1:{port}/v1")
    if handler is not None:
        state.script(handler)
    config = uvicorn.Config(
        build_app(state), log_level="warning", access_log=False, lifespan="off", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"scripted-llm-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            sock.close()
            raise RuntimeError(f"the scripted LLM server did not start on port {port}")
        time.sleep(0.01)
    try:
        yield state
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
