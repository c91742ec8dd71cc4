"""Exports over real HTTP (uvicorn on 127.0.0.1): preview, approval, the Idempotency-Key, the
download, detail rows approved only by naming their preview, and ownership (404)."""

from __future__ import annotations

import csv
import hashlib
import io
from typing import Any

import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from baton.contracts.answer import Answer
from tests.server.conftest import AS_OF, BatonServer
from tests.server.test_api import error_of

GMV_BY_CHANNEL = "上个月各渠道的GMV是多少？"
USERS = "SELECT user_id, name, phone FROM dim_user ORDER BY user_id LIMIT 12"


@pytest.fixture(scope="module")
def gmv_run(baton_server: BatonServer) -> Answer:
    with baton_server.client("analyst") as client:
        response = client.post("/api/ask", json={"question": GMV_BY_CHANNEL, "as_of": AS_OF})
    assert response.status_code == 200, response.text
    return Answer.model_validate(response.json())


def _export(server: BatonServer, user: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
    headers = {"Idempotency-Key": key} if key is not None else {}
    with server.client(user) as client:
        response = client.post("/api/exports", json=body, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_preview_then_approve_then_download(baton_server: BatonServer, gmv_run: Answer) -> None:
    previewed = _export(baton_server, "analyst", {"run_id": gmv_run.run_id, "format": "csv"})
    preview = previewed["preview"]
    assert previewed["export"] is None and not preview["approved"] and not preview["detail_rows"]
    assert [c["name"] for c in preview["columns"]] == ["channel", "gmv"] and preview["row_count"] == 4
    assert gmv_run.result is not None and preview["rows"] == gmv_run.result.rows  # same data, today's policy
    with baton_server.client("analyst") as client:
        early = client.get(f"/api/exports/{preview['export_id']}/file")
        assert error_of(early, 409, "conflict") and "not been approved" in early.text
    approved = _export(baton_server, "analyst", {"export_id": preview["export_id"], "approve": True})
    link = approved["export"]
    assert approved["preview"]["approved"] and link["download"] == f"/api/exports/{preview['export_id']}/file"
    assert "path" not in link  # the server's file system stays private
    with baton_server.client("analyst") as client:
        got = client.get(link["download"])
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    assert hashlib.sha256(got.content).hexdigest() == link["sha256"] and len(got.content) == link["bytes"]
    assert f'filename="{gmv_run.run_id}.csv"' in got.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(got.content.decode("utf-8-sig"))))
    assert rows[0] == ["channel", "gmv"] and [r[0] for r in rows[1:]] == [r[0] for r in preview["rows"]]


def test_an_idempotency_key_repeats_the_same_export(baton_server: BatonServer, gmv_run: Answer) -> None:
    body = {"run_id": gmv_run.run_id, "format": "parquet", "approve": True}
    first = _export(baton_server, "analyst", body, key="api-key-1")
    second = _export(baton_server, "analyst", body, key="api-key-1")
    assert first["export"] is not None and second["preview"]["export_id"] == first["preview"]["export_id"]
    assert second["export"] == first["export"]
    with baton_server.client("analyst") as client:
        data = client.get(first["export"]["download"]).content
        conflict = client.post("/api/exports", json={**body, "format": "csv"}, headers={"Idempotency-Key": "api-key-1"})
        runs = client.get("/api/runs", params={"limit": 1000}).json()["runs"]
    error_of(conflict, 409, "conflict")
    assert pq.read_table(io.BytesIO(data)).num_rows == 4
    exports = [r for r in runs if r["kind"] == "export" and r["run_id"] == first["preview"]["export_id"]]
    assert len(exports) == 1 and exports[0]["status"] == "done"  # one traced run of kind export


def test_detail_rows_are_approved_only_by_naming_the_preview(baton_server: BatonServer) -> None:
    from baton.config import load_settings
    from baton.orchestrator.session import Session

    with Session(load_settings(baton_server.config)) as session:  # `baton sql run` has no HTTP face
        detail = session.sql(USERS, user="analyst")
    together = _export(baton_server, "analyst", {"run_id": detail.run_id, "format": "csv", "approve": True})
    assert together["export"] is None and together["preview"]["approval_required"]
    assert {m["column"] for m in together["preview"]["masked"]} >= {"dim_user.name", "dim_user.phone"}
    named = _export(baton_server, "analyst", {"export_id": together["preview"]["export_id"], "approve": True})
    assert named["export"] is not None and named["export"]["rows"] == 12


def test_another_users_run_and_export_are_404(baton_server: BatonServer, gmv_run: Answer) -> None:
    mine = _export(baton_server, "analyst", {"run_id": gmv_run.run_id, "format": "csv", "approve": True})
    export_id = mine["preview"]["export_id"]
    with baton_server.client("east_manager", language="zh-CN") as client:
        error_of(client.post("/api/exports", json={"run_id": gmv_run.run_id, "format": "csv"}), 404, "not_found")
        error_of(client.post("/api/exports", json={"run_id": "run_nope", "format": "csv"}), 404, "not_found")
        error_of(client.post("/api/exports", json={"export_id": export_id, "approve": True}), 404, "not_found")
        error_of(client.get(f"/api/exports/{export_id}/file"), 404, "not_found")
        error_of(client.get(f"/api/exports/{export_id}"), 404, "not_found")
        error_of(client.post("/api/exports", json={"run_id": gmv_run.run_id}), 422, "invalid_input")
    with baton_server.client() as anonymous:
        error_of(anonymous.get(f"/api/exports/{export_id}/file"), 401, "unauthorized")
    with baton_server.client("analyst") as client:
        assert client.get(f"/api/exports/{export_id}").json()["export"]["sha256"] == mine["export"]["sha256"]


def test_a_user_other_than_the_configs_default_approves_repeats_and_downloads(baton_server: BatonServer) -> None:
    """east_manager end to end: preview → approve → the same export_id again → download (issue 16)."""
    with baton_server.client("east_manager") as client:
        asked = client.post("/api/ask", json={"question": GMV_BY_CHANNEL, "as_of": AS_OF})
    assert asked.status_code == 200, asked.text
    run_id = asked.json()["run_id"]
    preview = _export(baton_server, "east_manager", {"run_id": run_id, "format": "csv"})["preview"]
    assert preview["user"] == "east_manager" and preview["row_filters"]  # read under their own grants
    approved = _export(baton_server, "east_manager", {"export_id": preview["export_id"], "approve": True})
    again = _export(baton_server, "east_manager", {"export_id": preview["export_id"]})
    assert approved["export"] is not None and again["export"] == approved["export"]
    with baton_server.client("east_manager") as client:
        shown = client.get(f"/api/exports/{preview['export_id']}")
        got = client.get(approved["export"]["download"])
    assert shown.status_code == 200 and shown.json()["export"] == approved["export"]
    assert got.status_code == 200 and hashlib.sha256(got.content).hexdigest() == approved["export"]["sha256"]


def test_an_unapproved_detail_export_run_serves_no_more_than_its_preview(baton_server: BatonServer) -> None:
    from baton.config import load_settings
    from baton.orchestrator.session import Session

    with Session(load_settings(baton_server.config)) as session:
        detail = session.sql(USERS, user="analyst")
    assert detail.result is not None and len(detail.result.rows) == 12
    phones = [str(row[2]) for row in detail.result.rows]
    preview = _export(baton_server, "analyst", {"run_id": detail.run_id, "format": "csv"})["preview"]
    export_id = preview["export_id"]
    assert len(preview["rows"]) == 10 and preview["row_count"] == 12
    with baton_server.client("analyst") as client:
        run = client.get(f"/api/runs/{export_id}")
        view = client.get(f"/api/runs/{export_id}/view")
        report = client.get(f"/api/runs/{export_id}/report", params={"format": "md"})
        html = client.get(f"/api/runs/{export_id}/report", params={"format": "html"})
    for refused in (run, view):  # the whole stored run: refused until approved
        error_of(refused, 403, "export_not_permitted")
    for shown in (report, html):  # the answer: the preview only
        assert shown.status_code == 200, shown.text
        page = shown.text.replace("\\*", "*")  # Markdown escapes the mask's stars
        assert phones[0] in page and not any(p in page for p in phones[10:])
    _export(baton_server, "analyst", {"export_id": export_id, "approve": True})
    with baton_server.client("analyst") as client:
        after = client.get(f"/api/runs/{export_id}")
    assert after.status_code == 200, after.text
    assert len(after.json()["answer"]["result"]["rows"]) == 10  # the preview, approved or not
