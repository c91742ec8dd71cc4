"""`/mcp` under a real `baton serve` (uvicorn on 127.0.0.1): the MCP SDK's streamable-HTTP
client signed in with a bearer token, and what happens without one."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from decimal import Decimal
from typing import Any, TypeVar

import anyio
import duckdb
import httpx2 as httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

from tests.server.conftest import BatonServer, issue_tokens

T = TypeVar("T")
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _over_http(server: BatonServer, token: str, calls: Callable[[ClientSession], Awaitable[T]]) -> T:
    async def main() -> T:
        headers = {"Authorization": f"Bearer {token}"}
        async with (
            httpx.AsyncClient(headers=headers, timeout=120) as http,
            streamable_http_client(f"{server.url}/mcp", http_client=http) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            return await calls(session)

    return anyio.run(main)


def _east_gmv(server: BatonServer) -> Decimal:
    """June GMV of 华东, straight from the warehouse file the server reads."""
    url = server.config.read_text(encoding="utf-8").split("duckdb:///", 1)[1].split('"', 1)[0]
    with duckdb.connect(url, read_only=True) as con:
        row = con.execute(
            "SELECT SUM(gmv_amount) FROM fact_order WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' "
            "AND status IN ('paid', 'refunded') AND region = '华东'"
        ).fetchone()
    assert row is not None
    return Decimal(str(row[0]))


def test_a_token_user_lists_metrics_and_asks_under_their_own_grants(baton_server: BatonServer) -> None:
    async def calls(session: ClientSession) -> dict[str, CallToolResult]:
        return {
            "list": await session.call_tool("list_metrics", {}),
            "own": await session.call_tool("ask", {"question": "上个月各渠道的GMV是多少？", "as_of": "2026-07-01"}),
            "south": await session.call_tool("ask", {"question": "上个月华南的GMV是多少？", "as_of": "2026-07-01"}),
        }

    got = _over_http(baton_server, baton_server.tokens["east_manager"], calls)
    listed: dict[str, Any] = got["list"].structured_content or {}
    assert got["list"].is_error is False and listed["user"] == "east_manager"
    assert "gmv" in {m["name"] for m in listed["metrics"]}
    own = got["own"].structured_content or {}
    assert own["status"] == "answered" and own["user"] == "east_manager"
    assert sum(Decimal(str(row[1])) for row in own["table"]["rows"]) == _east_gmv(baton_server)
    south = got["south"].structured_content or {}
    assert got["south"].is_error is True and south["status"] == "refused" and south["table"] is None


def test_without_a_valid_token_mcp_is_401_in_the_one_error_shape(baton_server: BatonServer) -> None:
    with baton_server.client(None) as anonymous:
        missing = anonymous.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
        wrong = anonymous.post(
            "/mcp", json=INITIALIZE, headers={**MCP_HEADERS, "Authorization": "Bearer bt_nope", "Accept-Language": "zh"}
        )
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert missing.json()["error"]["code"] == "unauthorized" and missing.json()["error"]["status"] == 401
    assert "Authorization: Bearer" in missing.json()["error"]["message"]
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "unauthorized"
    assert any("\u4e00" <= ch <= "\u9fff" for ch in wrong.json()["error"]["message"])  # Accept-Language: zh


def test_the_web_pages_cookie_does_not_sign_in_to_mcp(baton_server: BatonServer) -> None:
    with baton_server.client(None) as browser:
        signed = browser.post("/api/session", json={"token": baton_server.tokens["analyst"]})
        assert signed.status_code == 200 and browser.cookies.get("baton_session")
        refused = browser.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"


def test_an_mcp_session_answers_only_the_token_that_opened_it(baton_server: BatonServer) -> None:
    tools_list = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    with baton_server.client("analyst") as analyst, baton_server.client("east_manager") as other:
        opened = analyst.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
        assert opened.status_code == 200, opened.text
        session = {"mcp-session-id": opened.headers["mcp-session-id"], "mcp-protocol-version": "2025-06-18"}
        stolen = other.post("/mcp", json=tools_list, headers={**MCP_HEADERS, **session})
        own = analyst.post("/mcp", json=tools_list, headers={**MCP_HEADERS, **session})
    assert stolen.status_code == 404
    assert own.status_code == 200 and "list_metrics" in own.text


def test_a_revoked_token_is_refused_at_once(baton_server: BatonServer) -> None:
    from baton.server.tokens import TokenStore

    tokens, ids = issue_tokens(baton_server.config, ("analyst",))
    with httpx.Client(base_url=baton_server.url, headers={"Authorization": f"Bearer {tokens['analyst']}"}) as client:
        assert client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS).status_code == 200
        store = TokenStore(baton_server.runs_dir / "tokens.sqlite")
        try:
            store.revoke(ids["analyst"])
        finally:
            store.close()
        again = client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
    assert again.status_code == 401 and again.json()["error"]["code"] == "unauthorized"


def test_another_users_conversation_cannot_be_continued(baton_server: BatonServer) -> None:
    async def open_one(session: ClientSession) -> CallToolResult:
        return await session.call_tool("ask", {"question": "上个月的GMV是多少？", "conversation_id": "new"})

    opened = _over_http(baton_server, baton_server.tokens["analyst"], open_one)
    conversation = (opened.structured_content or {})["conversation_id"]

    async def follow(session: ClientSession) -> CallToolResult:
        return await session.call_tool("ask", {"question": "那华南呢？", "conversation_id": conversation})

    taken = _over_http(baton_server, baton_server.tokens["east_manager"], follow)
    assert taken.is_error is True
    assert (taken.structured_content or {})["error"]["code"] == "not_found"  # as in the REST API: never revealed
    assert "table" not in (taken.structured_content or {})


def test_analyze_returns_the_analysis_with_drivers_and_tests(baton_server: BatonServer) -> None:
    async def calls(session: ClientSession) -> CallToolResult:
        return await session.call_tool("analyze", {"question": "为什么2026年6月的GMV下降了？", "as_of": "2026-07-01"})

    result = _over_http(baton_server, baton_server.tokens["analyst"], calls)  # the client checks the output schema
    out = result.structured_content or {}
    assert result.is_error is False and out["status"] == "answered", out.get("answer")
    assert out["drivers"] and out["sections"]
    top = set(out["drivers"][0]["members"])  # the paths ruled out, each with its reason, never the top driver's
    assert out["excluded_paths"] and all(" — " in path for path in out["excluded_paths"])
    assert not any(path.startswith(f"dimension: {dim} ") for dim in top for path in out["excluded_paths"])
    assert all(float(t["ci_low"]) <= float(t["estimate"]) <= float(t["ci_high"]) for t in out["tests"])
    assert out["tests"] and any("GMV" in t["name"] or "成交" in t["name"] for t in out["tests"])


def test_signing_in_to_mcp_does_not_hold_the_event_loop(baton_server: BatonServer) -> None:
    """The token check runs off the event loop: while it waits on a busy token store, other
    requests are still served."""
    import threading
    import time

    rt = baton_server.app.state.baton
    held = threading.Event()

    def busy_store() -> None:
        with rt.tokens._lock:  # the token store busy (a slow disk): checking a token waits for it
            held.set()
            time.sleep(1.5)

    def mcp_call() -> None:
        with baton_server.client("analyst") as client:
            client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)

    store, caller = threading.Thread(target=busy_store), threading.Thread(target=mcp_call)
    store.start()
    held.wait(5)
    caller.start()
    time.sleep(0.3)  # the MCP request is now waiting for the token store
    with baton_server.client(None) as anonymous:
        started = time.monotonic()
        health = anonymous.get("/api/health")
        took = time.monotonic() - started
    store.join()
    caller.join()
    assert health.status_code == 200 and took < 0.6, took


def test_one_version_everywhere(baton_server: BatonServer) -> None:
    import json
    import subprocess
    import sys

    from baton.config import baton_version

    with baton_server.client("analyst") as client:
        health = client.get("/api/health").json()
        opened = client.post("/mcp", json=INITIALIZE, headers=MCP_HEADERS)
        api = client.get("/openapi.json").json()
    data = (
        next(line[5:] for line in opened.text.splitlines() if line.startswith("data:"))
        if (opened.headers["content-type"].startswith("text/event-stream"))
        else opened.text
    )
    served = json.loads(data)["result"]["serverInfo"]["version"]
    cli = subprocess.run([sys.executable, "-m", "baton", "--version"], capture_output=True, text=True, check=True)
    assert health["version"] == served == api["info"]["version"] == baton_version()
    assert cli.stdout.strip() == f"baton {baton_version()}"


def test_the_rest_api_and_mcp_show_one_catalog(baton_server: BatonServer) -> None:
    async def calls(session: ClientSession) -> dict[str, CallToolResult]:
        return {
            "list": await session.call_tool("list_metrics", {"language": "en"}),
            "describe": await session.call_tool("describe_metric", {"name": "gmv", "language": "en"}),
        }

    got = _over_http(baton_server, baton_server.tokens["east_manager"], calls)
    with baton_server.client("east_manager", language="en") as client:
        rest = client.get("/api/catalog").json()
    listed = {m["name"]: m for m in (got["list"].structured_content or {})["metrics"]}
    assert set(listed) == {m["name"] for m in rest["metrics"]}
    for metric in rest["metrics"]:
        assert {key: metric[key] for key in listed[metric["name"]]} == listed[metric["name"]]
    assert {m["type"] for m in rest["metrics"]} >= {"simple", "ratio"}
    gmv = next(m for m in rest["metrics"] if m["name"] == "gmv")
    assert gmv["currency"] == "CNY" and gmv["available"] is True and "metric_time__month" in gmv["time_grains"]
    described = got["describe"].structured_content or {}
    assert described["type"] == gmv["type"] and described["time_dimension"] == gmv["time_column"]
    for key in ("label", "description", "unit", "currency", "expression", "filters", "time_grains", "owner"):
        assert described[key] == gmv[key], key
    members = {d["name"]: d["members"] for d in rest["dimensions"]}
    for dim in described["dimensions"]:
        assert [(m["value"], m["label"]) for m in dim["members"]] == [
            (m["name"], m["label"]) for m in members[dim["name"]]
        ]
