"""What an MCP tool error lets out: a Baton error's code and message (and only detail an agent can
act on); anything unexpected is a generic ``tool_failure``, its text kept in the server's log."""

from __future__ import annotations

import logging
from typing import Any, cast

import anyio
import pytest

from baton.errors import ConfigError, UnknownMetric
from baton.server.mcp import BatonTools, error_result


def test_a_baton_error_goes_out_without_its_internal_detail() -> None:
    secret = ConfigError(
        "policy /srv/secret/policies.yaml broken", "坏了", detail={"file": "/srv/secret/policies.yaml"}
    )
    out = error_result(secret, "en")
    assert out.is_error is True
    assert out.structured_content == {"error": {"code": secret.error_code, "message": secret.message("en")}}
    unknown = UnknownMetric("no metric gmvv", "没有 gmvv", detail={"term": "gmvv", "suggestions": ["gmv"]})
    detail = (error_result(unknown, "en").structured_content or {})["error"]["detail"]
    assert detail == {"term": "gmvv", "suggestions": ["gmv"]}  # what the agent can retry with


def test_an_unexpected_failure_is_a_generic_tool_failure(caplog: pytest.LogCaptureFixture) -> None:
    def broken(_ctx: object) -> str:
        raise RuntimeError("db password is hunter2")

    async def never(job: Any) -> Any:
        raise AssertionError("not reached")

    tools = BatonTools(never, never, broken, lambda _ctx: "en")
    with caplog.at_level(logging.ERROR, logger="baton.server"):
        out = anyio.run(lambda: tools.list_metrics(cast(Any, None), language="zh"))
    assert out.is_error is True
    error = (out.structured_content or {})["error"]
    assert error["code"] == "tool_failure" and error["message"] and set(error) == {"code", "message"}
    shown = out.model_dump_json()
    assert "hunter2" not in shown and "RuntimeError" not in shown
    assert "hunter2" in caplog.text  # the server's log keeps it
