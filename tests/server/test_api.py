"""The REST API over real HTTP (uvicorn on 127.0.0.1): sign-in, the one error shape, questions,
runs and their ownership, reports, conversations, the catalog."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx2 as httpx
import pytest

from baton.contracts.answer import Answer
from tests.server.conftest import AS_OF, BatonServer

GMV_BY_CHANNEL = "上个月各渠道的GMV是多少？"


def error_of(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The one error shape, with the status and code expected; the error body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "status"}, body
    assert body["error"]["code"] == code and body["error"]["status"] == status, body
    assert body["error"]["message"].strip()
    assert "Traceback" not in response.text
    return dict(body["error"])


@pytest.fixture(scope="module")
def analyst_run(baton_server: BatonServer) -> Answer:
    """One answered question of the analyst's, asked over HTTP."""
    with baton_server.client("analyst") as client:
        response = client.post("/api/ask", json={"question": GMV_BY_CHANNEL, "as_of": AS_OF})
    assert response.status_code == 200, response.text
    return Answer.model_validate(response.json())


# -- sign-in -------------------------------------------------------------------------------------------
def test_health_needs_no_token(baton_server: BatonServer) -> None:
    with baton_server.client() as client:
        body = client.get("/api/health").json()
    assert body["status"] == "ok" and body["version"]


def test_no_token_or_a_bad_one_is_401_in_the_error_shape(baton_server: BatonServer) -> None:
    with baton_server.client() as client:
        missing = client.get("/api/me")
        error_of(missing, 401, "unauthorized")
        assert missing.headers["www-authenticate"] == "Bearer"
        bad = client.get("/api/runs", headers={"Authorization": "Bearer bt_not-a-token"})
        error_of(bad, 401, "unauthorized")
        chinese = client.post("/api/ask", json={"question": "x"}, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
        assert "令牌" in error_of(chinese, 401, "unauthorized")["message"]


def test_a_revoked_or_expired_token_is_401(baton_server: BatonServer) -> None:
    from tests.server.conftest import issue_tokens

    tokens, ids = issue_tokens(baton_server.config, ("analyst", "marketing"))
    with baton_server.client(headers={"Authorization": f"Bearer {tokens['analyst']}"}) as client:
        assert client.get("/api/me").json()["user"] == "analyst"
        from baton.config import load_settings
        from baton.server.tokens import TokenStore

        store = TokenStore(load_settings(baton_server.config).runs_dir / "tokens.sqlite")
        try:
            store.revoke(ids["analyst"])
        finally:
            store.close()
        error_of(client.get("/api/me"), 401, "unauthorized")
    with sqlite3.connect(baton_server.runs_dir / "tokens.sqlite") as con:  # its expiry passed a minute ago
        past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
        con.execute("UPDATE tokens SET expires_at = ? WHERE token_id = ?", (past, ids["marketing"]))
    with baton_server.client(headers={"Authorization": f"Bearer {tokens['marketing']}"}) as client:
        error_of(client.get("/api/me"), 401, "unauthorized")


def test_tokens_are_stored_hashed(baton_server: BatonServer) -> None:
    stored = (baton_server.runs_dir / "tokens.sqlite").read_bytes()
    for token in baton_server.tokens.values():
        assert token.encode() not in stored


def test_me_says_who_and_whether_they_see_every_run(baton_server: BatonServer) -> None:
    with baton_server.client("analyst") as client:
        assert client.get("/api/me").json() == {"user": "analyst", "roles": ["analyst"], "admin": False}
    with baton_server.client("admin") as client:
        assert client.get("/api/me").json() == {"user": "admin", "roles": ["admin"], "admin": True}


def test_cookie_sign_in_is_httponly_strict_and_csrf_protected(baton_server: BatonServer) -> None:
    with baton_server.client() as client:
        error_of(client.post("/api/session", json={"token": "bt_wrong"}), 401, "unauthorized")
        signed = client.post("/api/session", json={"token": baton_server.tokens["east_manager"]})
        assert signed.status_code == 200, signed.text
        cookie = signed.headers["set-cookie"]
        assert cookie.startswith("baton_session=")
        flags = {part.strip().lower() for part in cookie.split(";")}
        assert {"httponly", "samesite=strict", "path=/"} <= flags, cookie
        csrf = signed.json()["csrf_token"]
        assert signed.json()["user"] == "east_manager" and len(csrf) > 20
        assert client.get("/api/me").json()["user"] == "east_manager"  # a GET needs no CSRF token
        question = {"question": GMV_BY_CHANNEL, "as_of": AS_OF}
        refused = client.post("/api/ask", json=question)
        error_of(refused, 403, "permission_denied")
        error_of(client.post("/api/ask", json=question, headers={"X-CSRF-Token": "wrong"}), 403, "permission_denied")
        answered = client.post("/api/ask", json=question, headers={"X-CSRF-Token": csrf})
        assert answered.status_code == 200 and answered.json()["user"] == "east_manager"
        error_of(client.delete("/api/session"), 403, "permission_denied")
        assert client.delete("/api/session", headers={"X-CSRF-Token": csrf}).status_code == 204
        client.cookies.set("baton_session", cookie.split(";")[0].split("=", 1)[1])  # the old cookie, kept
        error_of(client.get("/api/me"), 401, "unauthorized")


# -- questions -----------------------------------------------------------------------------------------
def test_ask_answers_with_the_answer_json(analyst_run: Answer) -> None:
    assert analyst_run.status == "answered"
    assert analyst_run.user == "analyst" and analyst_run.run_id.startswith("run_")
    assert analyst_run.result is not None and analyst_run.result.row_count > 1
    assert analyst_run.interpretation and "渠道" in analyst_run.interpretation
    assert analyst_run.sql and analyst_run.metrics


def test_invalid_input_is_422_in_the_error_shape(baton_server: BatonServer) -> None:
    with baton_server.client("analyst") as client:
        error_of(client.post("/api/ask", json={}), 422, "invalid_input")
        error_of(client.post("/api/ask", json={"question": "x", "as_of": "July"}), 422, "invalid_input")
        error_of(client.post("/api/ask", json={"question": "x", "surprise": 1}), 422, "invalid_input")
        error_of(
            client.post("/api/ask", content=b"{not json", headers={"content-type": "application/json"}),
            422,
            "invalid_input",
        )
        error_of(client.post("/api/query", json={"metrics": []}), 422, "invalid_input")
        error_of(client.post("/api/ask", json={"question": "a\u0000b"}), 422, "invalid_input")
        error_of(client.get("/api/nothing-here"), 404, "not_found")


def test_an_out_of_grant_question_is_refused_in_the_answer(baton_server: BatonServer) -> None:
    with baton_server.client("east_manager") as client:
        response = client.post("/api/ask", json={"question": "上个月华南的GMV是多少？", "as_of": AS_OF})
    assert response.status_code == 200, response.text
    answer = Answer.model_validate(response.json())
    assert answer.status == "refused" and answer.result is None
    assert answer.error is not None and answer.error.code == "permission_denied"
    assert "华东" in answer.answer


def test_query_runs_the_semantic_layer(baton_server: BatonServer) -> None:
    body = {"metrics": ["gmv"], "group_by": ["channel"], "start_time": "2026-06-01", "end_time": "2026-06-30"}
    with baton_server.client("east_manager", language="zh-CN") as client:
        response = client.post("/api/query", json=body)
    answer = Answer.model_validate(response.json())
    assert response.status_code == 200 and answer.status == "answered", answer.answer
    assert answer.language == "zh" and answer.user == "east_manager"
    assert answer.sql is not None and "华东" in answer.sql  # the row filter of the user's grants
    assert answer.result is not None and answer.result.row_count > 1


def test_a_follow_up_in_a_conversation_answers_for_the_new_region(baton_server: BatonServer) -> None:
    with baton_server.client("analyst") as client:
        first = client.post(
            "/api/ask", json={"question": GMV_BY_CHANNEL, "as_of": AS_OF, "conversation_id": "new"}
        ).json()
        conversation = first["conversation_id"]
        assert conversation and first["status"] == "answered"
        second = client.post("/api/ask", json={"question": "那华南呢？", "conversation_id": conversation}).json()
        listed = client.get("/api/conversations").json()["conversations"]
    assert second["status"] == "answered", second["answer"]
    assert second["conversation_id"] == conversation and second["as_of"] == AS_OF
    assert "华南" in second["interpretation"] and "华南" in second["answer"]
    assert second["semantic_query"]["filters"][0]["members"] == ["华南"]
    assert second["semantic_query"]["dimensions"] == first["semantic_query"]["dimensions"]  # inherited
    mine = next(c for c in listed if c["conversation_id"] == conversation)
    assert mine["turns"] == [first["run_id"], second["run_id"]]
    with baton_server.client("east_manager") as other:
        taken = other.post("/api/ask", json={"question": "那华东呢？", "conversation_id": conversation})
        error_of(taken, 404, "not_found")
        assert conversation not in {
            c["conversation_id"] for c in other.get("/api/conversations").json()["conversations"]
        }
    with baton_server.client("admin") as admin:  # a runs: all user lists everyone's, each with its owner
        every = admin.get("/api/conversations").json()["conversations"]
    assert {"conversation_id": conversation, "user": "analyst"}.items() <= next(
        c for c in every if c["conversation_id"] == conversation
    ).items()
    assert mine["user"] == "analyst"


# -- runs ----------------------------------------------------------------------------------------------
def test_a_run_belongs_to_its_owner(baton_server: BatonServer, analyst_run: Answer) -> None:
    run_id = analyst_run.run_id
    with baton_server.client("analyst") as client:
        mine = client.get(f"/api/runs/{run_id}").json()
        listed = client.get("/api/runs").json()["runs"]
    assert mine["status"] == "done" and mine["kind"] == "ask" and mine["user"] == "analyst"
    assert mine["answer"]["run_id"] == run_id and mine["question"] == GMV_BY_CHANNEL
    assert run_id in {r["run_id"] for r in listed}
    assert {r["user"] for r in listed} == {"analyst"}
    with baton_server.client("east_manager") as other:
        error_of(other.get(f"/api/runs/{run_id}"), 404, "not_found")
        error_of(other.get(f"/api/runs/{run_id}/report"), 404, "not_found")
        error_of(other.get(f"/api/runs/{run_id}/events"), 404, "not_found")
        assert run_id not in {r["run_id"] for r in other.get("/api/runs").json()["runs"]}
        unknown = other.get("/api/runs/run_nope")
        assert error_of(unknown, 404, "not_found")["message"] == "No run run_nope."
    with baton_server.client("admin") as admin:
        assert admin.get(f"/api/runs/{run_id}").json()["answer"]["run_id"] == run_id
        everyone = {r["user"] for r in admin.get("/api/runs", params={"limit": 1000}).json()["runs"]}
    assert {"analyst", "east_manager"} <= everyone


def test_the_report_as_html_and_markdown(baton_server: BatonServer, analyst_run: Answer) -> None:
    with baton_server.client("analyst") as client:
        html = client.get(f"/api/runs/{analyst_run.run_id}/report")
        markdown = client.get(f"/api/runs/{analyst_run.run_id}/report", params={"format": "md"})
        error_of(client.get(f"/api/runs/{analyst_run.run_id}/report", params={"format": "pdf"}), 422, "invalid_input")
    assert html.status_code == 200 and html.headers["content-type"] == "text/html; charset=utf-8"
    assert html.text.lstrip().lower().startswith("<!doctype html") and analyst_run.run_id in html.text
    assert markdown.headers["content-type"] == "text/markdown; charset=utf-8"
    assert markdown.text.startswith("# ") and GMV_BY_CHANNEL in markdown.text


def test_the_catalog_with_definitions_in_the_request_language(baton_server: BatonServer) -> None:
    with baton_server.client("analyst", language="zh-CN") as client:
        chinese = client.get("/api/catalog").json()
    with baton_server.client("analyst", language="en-US,zh;q=0.5") as client:
        english = client.get("/api/catalog").json()
    gmv_zh = next(m for m in chinese["metrics"] if m["name"] == "gmv")
    gmv_en = next(m for m in english["metrics"] if m["name"] == "gmv")
    assert gmv_zh["label"] == "成交总额" and "订单" in gmv_zh["description"]
    assert gmv_en["label"] != gmv_zh["label"] and gmv_en["description"].isascii()
    assert gmv_zh["unit"] == "currency" and "channel" in gmv_zh["dimensions"]
    region = next(d for d in chinese["dimensions"] if d["name"] == "region")
    assert {"华南", "华东"} <= {m["label"] for m in region["members"]}


def test_a_run_still_running_has_no_answer_and_no_report_yet(baton_server: BatonServer) -> None:
    """A run the library has started and not finished (as a long analysis is, midway)."""
    from datetime import date

    from baton.orchestrator.run import RunContext, open_store

    store = open_store(baton_server.runs_dir)
    try:
        ctx = RunContext.start(
            kind="ask",
            question="GMV last month?",
            user="analyst",
            language="en",
            as_of=date(2026, 7, 1),
            store=store,
            runs_dir=baton_server.runs_dir,
        )
        run_id = ctx.state.run_id
        with baton_server.client("analyst") as client:
            running = client.get(f"/api/runs/{run_id}").json()
            assert running["status"] == "running" and running["answer"] is None and running["kind"] == "ask"
            conflict = error_of(client.get(f"/api/runs/{run_id}/report"), 409, "conflict")
            assert run_id in conflict["message"]
        ctx.finish("cancelled")
    finally:
        store.close()
