"""A running `baton serve` follows its policy file: a user removed is signed out, a narrowed row
filter applies to the next question, a user added can sign in, all without a restart. Each test
edits a private copy of the demo policy (its own server), and puts it back when it ends.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path

import httpx2 as httpx
import pytest

from baton.contracts.answer import Answer
from baton.server.policy_watch import POLICY_CHECK_S
from tests.server.conftest import AS_OF, BatonServer, issue_tokens, serve, write_config

EAST_FILTER = 'row_filter: {region: ["华东"]}'
SOUTH_FILTER = 'row_filter: {region: ["华南"]}'
EAST_USER = 'east_manager: {roles: [east_manager], description: "East region manager / 华东区域经理"}'


@pytest.fixture(scope="module")
def private_server(small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[BatonServer]:
    folder = tmp_path_factory.mktemp("policy_server")
    policy = folder / "policies.yaml"
    shutil.copyfile(small_demo_dir / "policies.yaml", policy)
    config = write_config(folder, small_demo_dir)
    shared = (small_demo_dir / "policies.yaml").as_posix()
    config.write_text(config.read_text(encoding="utf-8").replace(shared, policy.as_posix()), encoding="utf-8")
    with serve(config) as server:
        yield server


@pytest.fixture
def policy(private_server: BatonServer) -> Iterator[Path]:
    """The server's policy file, restored (and re-read by the server) after the test."""
    path = private_server.config.parent / "policies.yaml"
    original = path.read_text(encoding="utf-8")
    assert EAST_FILTER in original and EAST_USER in original
    yield path
    path.write_text(original, encoding="utf-8")
    time.sleep(POLICY_CHECK_S + 0.1)


def edit(path: Path, old: str, new: str) -> None:
    """Change the policy file as an admin would, then wait out the server's check interval."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")
    time.sleep(POLICY_CHECK_S + 0.1)


def regions_seen(server: BatonServer, user: str, client: httpx.Client | None = None) -> set[str]:
    """The regions a June GMV-by-region query shows ``user`` (through ``client`` when given)."""
    body = {"metrics": ["gmv"], "group_by": ["region"], "start_time": "2026-06-01", "end_time": "2026-06-30"}
    with client or server.client(user) as asking:
        answered = asking.post("/api/query", json={**body, "as_of": AS_OF})
    assert answered.status_code == 200, answered.text
    answer = answered.json()
    assert answer["status"] == "answered" and answer["user"] == user, answer["error"]
    return {str(row[0]) for row in answer["result"]["rows"]}


def test_a_user_removed_from_the_policy_is_refused_on_the_next_request(
    private_server: BatonServer, policy: Path
) -> None:
    with private_server.client("east_manager") as client:
        assert client.get("/api/me").status_code == 200
        edit(policy, EAST_USER, "")
        refused = client.get("/api/me")
        assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
        assert "east_manager" in refused.json()["error"]["message"]
        signed = client.post("/api/session", json={"token": private_server.tokens["east_manager"]})
        assert signed.status_code == 401


def test_a_narrowed_row_filter_applies_to_the_next_question(private_server: BatonServer, policy: Path) -> None:
    assert regions_seen(private_server, "east_manager") == {"华东"}  # the worker Session has read the policy
    edit(policy, EAST_FILTER, SOUTH_FILTER)
    assert regions_seen(private_server, "east_manager") == {"华南"}
    assert len(regions_seen(private_server, "analyst")) > 2  # other users keep their grants


def test_a_user_added_to_the_policy_can_sign_in(private_server: BatonServer, policy: Path) -> None:
    with private_server.client("analyst") as client:
        assert client.get("/api/me").status_code == 200  # the server has read the policy before the edit
    edit(policy, EAST_USER, EAST_USER + '\n  newcomer: {roles: [analyst], description: "new"}')
    tokens, _ids = issue_tokens(private_server.config, ("newcomer",))
    headers = {"Authorization": f"Bearer {tokens['newcomer']}"}
    with private_server.client(None, headers=headers) as client:
        me = client.get("/api/me")
        assert me.status_code == 200, me.text
        assert me.json() == {"user": "newcomer", "roles": ["analyst"], "admin": False}
    newcomer = regions_seen(private_server, "newcomer", private_server.client(None, headers=headers))
    assert newcomer == regions_seen(private_server, "analyst")  # the analyst role's grants: every region


def test_a_run_that_fails_before_it_is_stored_shows_failed(private_server: BatonServer) -> None:
    """A 202 run whose job fails before the driver stores it (the callback the server attaches)."""
    from baton.server.routes import _ended

    rt = private_server.app.state.baton
    run_id = "run_20260701T000000_f00d01"
    rt.bus.open(run_id, "analyst", kind="ask", question="上个月的GMV是多少？")
    failed: Future[Answer] = Future()
    failed.set_exception(RuntimeError("the worker broke before the run was stored"))
    _ended(rt, run_id, "analyst", failed)
    with private_server.client("analyst") as client:
        shown = client.get(f"/api/runs/{run_id}").json()
        report = client.get(f"/api/runs/{run_id}/report")
    assert shown["status"] == "failed" and shown["finished_at"] is not None and shown["answer"] is None
    assert report.status_code == 409 and "failed" in report.json()["error"]["message"]


def test_baton_mcp_over_stdio_follows_the_policy_file_too(private_server: BatonServer, policy: Path) -> None:
    from mcp import ClientSession

    from tests.server.test_mcp import _serve

    query = {
        "metrics": ["gmv"],
        "group_by": ["region"],
        "start_time": "2026-06-01",
        "end_time": "2026-06-30",
        "as_of": AS_OF,
    }

    async def calls(session: ClientSession) -> tuple[set[str], set[str]]:
        before = (await session.call_tool("query", query)).structured_content or {}
        edit(policy, EAST_FILTER, SOUTH_FILTER)
        after = (await session.call_tool("query", query)).structured_content or {}
        return {row[0] for row in before["table"]["rows"]}, {row[0] for row in after["table"]["rows"]}

    before, after = _serve(private_server.config, "east_manager", calls)
    assert before == {"华东"} and after == {"华南"}
