"""Runs that go on after the request (wait=false): 202 with the run id, progress as server-sent
events (transitions as they happen, replayed to a late subscriber, then done), and a slow
analysis that does not hold up another user's question."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import httpx2 as httpx
import pytest

from tests.server.conftest import AS_OF, BatonServer

WHY = "为什么2026年6月的GMV下降了？"


def events_of(client: httpx.Client, path: str) -> list[tuple[str, dict[str, Any]]]:
    """Every server-sent event of a stream, read until the server closes it."""
    events: list[tuple[str, dict[str, Any]]] = []
    name = None
    with client.stream("GET", path) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("event: "):
                name = line.removeprefix("event: ")
            elif line.startswith("data: ") and name is not None:
                events.append((name, json.loads(line.removeprefix("data: "))))
    return events


@pytest.fixture(scope="module")
def started(baton_server: BatonServer) -> dict[str, Any]:
    with baton_server.client("analyst") as client:
        response = client.post("/api/analyze", json={"question": WHY, "as_of": AS_OF, "wait": False})
    assert response.status_code == 202, response.text
    return dict(response.json())


def test_wait_false_answers_202_and_the_stream_delivers_transitions_then_done(
    baton_server: BatonServer, started: dict[str, Any]
) -> None:
    run_id = started["run_id"]
    assert started["events"] == f"/api/runs/{run_id}/events"
    with baton_server.client("analyst") as client:
        events = events_of(client, started["events"])
        run = client.get(f"/api/runs/{run_id}").json()
    names = [name for name, _ in events]
    assert names[-1] == "done" and names.count("done") == 1 and set(names[:-1]) == {"transition"}
    assert events[-1][1] == {"run_id": run_id, "status": "done"}
    moves = [data for name, data in events if name == "transition"]
    assert {m["run_id"] for m in moves} == {run_id}
    assert set(moves[0]) == {"run_id", "status", "step", "agent", "tokens", "at", "kind"}
    assert moves[0]["kind"] == "started" and moves[-1]["kind"] == "finished" and moves[-1]["status"] == "done"
    states = [m["step"] for m in moves if m["kind"] == "state"]
    assert states[:2] == ["plan_sql", "execute"] and "explain" in states, states
    handoffs = [m for m in moves if m["kind"] == "handoff"]
    assert [h["agent"] for h in handoffs] == ["sql", "quality", "stats", "trend", "insight", "report"]
    assert all(isinstance(h["tokens"], int) and h["tokens"] > 0 for h in handoffs)
    stamps = [datetime.fromisoformat(m["at"]) for m in moves]
    assert stamps == sorted(stamps)  # in the order they happened
    assert run["status"] == "done" and run["answer"]["status"] == "answered" and run["answer"]["drivers"]


def test_a_late_subscriber_gets_every_event_again(baton_server: BatonServer, started: dict[str, Any]) -> None:
    with baton_server.client("analyst") as client:
        first = events_of(client, started["events"])
        again = events_of(client, started["events"])
    assert again == first and again[-1][0] == "done"


def test_admin_may_follow_a_run_and_another_user_may_not(baton_server: BatonServer, started: dict[str, Any]) -> None:
    with baton_server.client("admin") as admin:
        assert events_of(admin, started["events"])[-1][0] == "done"
    with baton_server.client("east_manager") as other:
        response = other.get(started["events"])
        assert response.status_code == 404 and response.json()["error"]["code"] == "not_found"


def _until_started(client: httpx.Client, run_id: str, timeout_s: float = 30.0) -> None:
    """Wait until the server has started ``run_id``: a run is in the store's list from its start
    on (a run handed out by ``wait: false`` and still queued is not)."""
    deadline = time.monotonic() + timeout_s
    while run_id not in {r["run_id"] for r in client.get("/api/runs").json()["runs"]}:
        assert time.monotonic() < deadline, f"{run_id} did not start within {timeout_s} s"
        time.sleep(0.005)


def test_a_simple_question_is_answered_while_an_analysis_runs(baton_server: BatonServer) -> None:
    with baton_server.client("analyst") as analyst, baton_server.client("east_manager") as manager:
        slow = analyst.post("/api/analyze", json={"question": WHY, "as_of": AS_OF, "wait": False}).json()
        _until_started(analyst, slow["run_id"])  # queued is not started: the ask must come after the start
        quick = manager.post("/api/ask", json={"question": "上个月的GMV是多少？", "as_of": AS_OF})
        assert quick.status_code == 200 and quick.json()["status"] == "answered"
        events_of(analyst, slow["events"])  # until the analysis is done
        analysis = analyst.get(f"/api/runs/{slow['run_id']}").json()
        asked = manager.get(f"/api/runs/{quick.json()['run_id']}").json()
    assert analysis["status"] == "done"
    assert asked["started_at"] > analysis["started_at"]  # asked after the analysis had started ...
    assert asked["finished_at"] < analysis["finished_at"]  # ... and answered before it finished


def test_several_users_ask_at_once(baton_server: BatonServer) -> None:
    def ask(user: str) -> dict[str, Any]:
        with baton_server.client(user) as client:
            return dict(
                client.post("/api/ask", json={"question": "上个月各渠道的订单数是多少？", "as_of": AS_OF}).json()
            )

    users = ["analyst", "east_manager", "admin"] * 2
    with ThreadPoolExecutor(len(users)) as pool:
        answers = list(pool.map(ask, users))
    assert [a["user"] for a in answers] == users
    assert {a["status"] for a in answers} == {"answered"}
    assert len({a["run_id"] for a in answers}) == len(users)
    manager = next(a for a in answers if a["user"] == "east_manager")
    everyone = next(a for a in answers if a["user"] == "analyst")
    assert manager["result"]["rows"] != everyone["result"]["rows"]  # each answered under their own grants


def test_a_run_this_server_did_not_run_streams_from_its_trace(baton_server: BatonServer) -> None:
    """A run made by the library directly (as the CLI makes them) on the same runs folder."""
    from baton.orchestrator.session import Session

    with Session(config=baton_server.config, user="analyst") as session:
        answer = session.ask("上个月的订单数是多少？")
    assert answer.status == "answered"
    with baton_server.client("analyst") as client:
        events = events_of(client, f"/api/runs/{answer.run_id}/events")
    kinds = [data.get("kind") for name, data in events if name == "transition"]
    assert kinds[0] == "started" and kinds[-1] == "finished"
    assert events[-1] == ("done", {"run_id": answer.run_id, "status": "done"})
