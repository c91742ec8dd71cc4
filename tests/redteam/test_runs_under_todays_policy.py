"""Issue 14, findings 1–3: stored runs are read and continued under today's policy, by their owner.

1. Resume never mixes rows read under old grants into a new answer.
2. Replay (and resuming a finished run) shows stored rows only while the owner's grants are
   unchanged; a cancelled run replays as what it was.
3. Runs belong to their owner; the run store, traces and reports are private files.

Every test runs the real product on a private copy of the demo (the policy file is edited),
on DuckDB and — where the engine matters — on PostgreSQL.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.run import Budget
from baton.errors import PermissionDenied
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)
WHY = "为什么2026年6月的GMV下降了？"
ASK = "上个月各渠道的GMV是多少？"
EAST, SOUTH = "华东", "华南"


def _cli(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baton", *args], capture_output=True, text=True, timeout=180, check=False
    )


def _edit_policy(folder: Path, old: str, new: str, version: str) -> None:
    policy = folder / "policies.yaml"
    text = policy.read_text(encoding="utf-8")
    edited = text.replace(old, new).replace('version: "demo-2026.11-1"', f'version: "{version}"')
    assert edited != text and f'version: "{version}"' in edited
    policy.write_text(edited, encoding="utf-8")


def _move_east_to_south(folder: Path) -> None:
    _edit_policy(folder, f'region: ["{EAST}"]', f'region: ["{SOUTH}"]', "demo-2026.11-south")


def _revoke_east_orders(folder: Path) -> None:
    _edit_policy(folder, f'      fact_order:\n        row_filter: {{region: ["{EAST}"]}}\n', "", "demo-2026.11-revoked")


def _session(folder: Path) -> Session:
    return Session(load_settings(folder / "baton.toml"))


def _stop_after(session: Session, run_id: str, steps: list[str]) -> None:
    """The state a crash right after ``steps`` leaves: those finished, the budget restored."""
    state = session.store.load(run_id)
    assert state.completed_steps == steps
    state.budget = Budget()
    session.store.save(state)


# -- finding 1: resume re-approves and recomputes --------------------------------------------------


@pytest.mark.postgres
def test_resumed_analysis_after_a_row_filter_change_uses_only_the_new_rows(demo_copy: Path) -> None:
    with _session(demo_copy) as session:
        stopped = session.analyze(WHY, as_of=AS_OF, user="east_manager", budget=Budget(max_steps=2))
        _stop_after(session, stopped.run_id, ["plan", "agent:sql"])
        assert any(EAST in (r.approved_sql or "") for r in session.store.load(stopped.run_id).sql)
    _move_east_to_south(demo_copy)

    with _session(demo_copy) as session:
        resumed = session.resume(stopped.run_id, user="east_manager")
        fresh = session.analyze(WHY, as_of=AS_OF, user="east_manager")
        state = session.store.load(stopped.run_id)
    assert resumed.status == fresh.status == "answered", resumed.error
    statements = [r.approved_sql or "" for r in state.sql]
    assert statements and not any(EAST in sql for sql in statements), "a row read under the old grants survived"
    assert any(SOUTH in sql for sql in statements)
    assert {e.source_uri for e in state.evidence} == {f"approved_sql:{r.approved_sql_id}" for r in state.sql}
    assert resumed.answer == fresh.answer  # the headline is the new rows', not 华东's
    assert resumed.drivers == fresh.drivers
    assert resumed.findings == fresh.findings
    assert resumed.assumptions == fresh.assumptions  # the grant notes say 华南, as the data does
    events = [json.loads(line) for line in (state_dir(session, stopped.run_id)).read_text().splitlines()]
    discarded = [e for e in events if e["payload"].get("decision") == "discard"]
    assert discarded and discarded[0]["payload"]["steps"][0] == "agent:sql"


def state_dir(session: Session, run_id: str) -> Path:
    return session.runs_dir / run_id / "trace.jsonl"


@pytest.mark.postgres
def test_resumed_ask_after_execute_recomputes_under_the_new_row_filter(demo_copy: Path) -> None:
    with _session(demo_copy) as session:
        stopped = session.ask(ASK, as_of=AS_OF, user="east_manager", budget=Budget(max_steps=4))
        _stop_after(session, stopped.run_id, ["plan", "sql", "policy", "execute"])
    _move_east_to_south(demo_copy)

    with _session(demo_copy) as session:
        resumed = session.resume(stopped.run_id, user="east_manager")
        fresh = session.ask(ASK, as_of=AS_OF, user="east_manager")
        state = session.store.load(stopped.run_id)
    assert resumed.status == "answered" and resumed.result is not None and fresh.result is not None
    assert resumed.result.rows == fresh.result.rows
    assert resumed.sql == fresh.sql and SOUTH in (resumed.sql or "")
    assert [r.name for r in state.sql] == ["answer", "completeness"]  # run again once, by the execute step
    assert [r.step for r in state.sql] == ["execute", "execute"]


def test_resume_with_unchanged_grants_keeps_finished_steps(duck_copy: Path) -> None:
    with _session(duck_copy) as session:
        stopped = session.ask(ASK, as_of=AS_OF, user="east_manager", budget=Budget(max_steps=4))
        _stop_after(session, stopped.run_id, ["plan", "sql", "policy", "execute"])
        evidence = session.store.load(stopped.run_id).evidence
        resumed = session.resume(stopped.run_id, user="east_manager")
        state = session.store.load(stopped.run_id)
    assert resumed.status == "answered"
    assert state.evidence == evidence  # nothing was read again
    trace = [json.loads(line) for line in state_dir(session, stopped.run_id).read_text().splitlines()]
    assert not [e for e in trace if e["payload"].get("decision") == "discard"]
    queries = [e for e in trace if e["type"] == "tool_call" and e["payload"].get("tool") == "warehouse.query"]
    assert len(queries) == 2  # the answer and its day counts, both before the stop


# -- finding 2: replay and resume of stored rows under today's policy ------------------------------


@pytest.mark.postgres
def test_replay_and_resume_refuse_stored_rows_after_the_grant_is_revoked(demo_copy: Path) -> None:
    with _session(demo_copy) as session:
        done = session.ask(ASK, as_of=AS_OF, user="east_manager")
        assert done.status == "answered" and done.result is not None and done.result.rows
        assert session.replay(done.run_id, user="east_manager").result == done.result
    _revoke_east_orders(demo_copy)

    cfg = ["--config", str(demo_copy / "baton.toml"), "--user", "east_manager", "--json"]
    for command in (["replay"], ["resume"], ["show"]):
        proc = _cli(["runs", *command, done.run_id, *cfg])
        assert proc.returncode == 3, (command, proc.stdout, proc.stderr)
        assert json.loads(proc.stdout)["error"]["code"] == "permission_denied"
        assert str(done.result.rows[0][1]) not in proc.stdout
    fresh = json.loads(_cli(["ask", ASK, "--as-of", AS_OF.isoformat(), *cfg]).stdout)
    assert fresh["status"] == "refused"
    again = _cli(["runs", "replay", done.run_id, "--re-execute", *cfg])
    assert again.returncode == 3
    data = json.loads(again.stdout)
    assert data["answer"]["status"] == "refused" and data["answer"]["result"] is None
    assert data["answer"]["run_id"] != done.run_id


def test_re_execute_under_changed_grants_shows_todays_rows_and_what_changed(duck_copy: Path) -> None:
    with _session(duck_copy) as session:
        done = session.ask(ASK, as_of=AS_OF, user="east_manager")
    _move_east_to_south(duck_copy)
    cfg = ["--config", str(duck_copy / "baton.toml"), "--user", "east_manager", "--json"]
    assert _cli(["runs", "replay", done.run_id, *cfg]).returncode == 3
    proc = _cli(["runs", "replay", done.run_id, "--re-execute", *cfg])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["answer"]["run_id"] != done.run_id and SOUTH in data["answer"]["sql"]
    (change,) = [c for c in data["re_executed"] if c["name"] == "answer"]
    assert change["changed"] is True and change["grants_changed"] is True and change["reason"] == "values"
    old_rows = {str(cell) for row in (done.result.rows if done.result else []) for cell in row[1:]}
    assert not {cell for cell in old_rows if cell in proc.stdout}, "a number read under the old grants was shown"
    assert done.result is not None and data["answer"]["result"]["rows"] != done.result.rows


def test_a_cancelled_analysis_replays_as_cancelled(duck_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the report agent writes (every query done): the run is cancelled, and
    its replay says so instead of answering with the data."""
    from baton.agents import report

    def interrupted(*_args: object, **_kwargs: object) -> object:
        raise KeyboardInterrupt

    with _session(duck_copy) as session:
        monkeypatch.setattr(report, "run", interrupted)
        with pytest.raises(KeyboardInterrupt):
            session.analyze(WHY, as_of=AS_OF, run_id="run_cancelled_redteam")
        monkeypatch.undo()
        state = session.store.load("run_cancelled_redteam")
        assert state.status == "cancelled" and state.evidence
        replayed = session.replay("run_cancelled_redteam")
    assert replayed.status != "answered"
    assert replayed.error is not None and replayed.error.code == "user_cancelled"
    assert replayed.result is None and not replayed.drivers


# -- finding 3: runs belong to their owner ---------------------------------------------------------


def test_a_user_cannot_see_or_continue_another_users_run(duck_copy: Path) -> None:
    with _session(duck_copy) as session:
        theirs = session.ask("上个月各区域的GMV", as_of=AS_OF, user="analyst")
        stopped = session.ask(ASK, as_of=AS_OF, user="analyst", budget=Budget(max_steps=2))
        _stop_after(session, stopped.run_id, ["plan", "sql"])
        mine = session.ask(ASK, as_of=AS_OF, user="east_manager")
    cfg = ["--config", str(duck_copy / "baton.toml"), "--json"]
    east = [*cfg, "--user", "east_manager"]

    listed = json.loads(_cli(["runs", "list", *east]).stdout)
    assert [r["run_id"] for r in listed] == [mine.run_id]
    for args in (
        ["show", theirs.run_id],
        ["trace", theirs.run_id],
        ["replay", theirs.run_id],
        ["replay", theirs.run_id, "--re-execute"],
        ["resume", stopped.run_id],
    ):
        proc = _cli(["runs", *args, *east])
        assert proc.returncode == 3, (args, proc.stdout, proc.stderr)
        assert json.loads(proc.stdout)["error"]["code"] == "permission_denied"
        assert "华北" not in proc.stdout and "华南" not in proc.stdout  # none of the analyst's regions
    assert _cli(["runs", "list", *east, "--owner", "analyst"]).returncode == 3
    assert _cli(["runs", "list", *cfg, "--user", "nobody"]).returncode == 3

    admin = [*cfg, "--user", "admin"]
    everyone = {r["run_id"] for r in json.loads(_cli(["runs", "list", *admin, "--limit", "50"]).stdout)}
    assert {theirs.run_id, stopped.run_id, mine.run_id} <= everyone
    only = json.loads(_cli(["runs", "list", *admin, "--owner", "east_manager"]).stdout)
    assert [r["run_id"] for r in only] == [mine.run_id]
    assert _cli(["runs", "show", theirs.run_id, *admin]).returncode == 0
    assert json.loads(_cli(["runs", "replay", theirs.run_id, *admin]).stdout)["result"] == (
        theirs.result.model_dump(mode="json") if theirs.result else None
    )
    assert _cli(["runs", "resume", stopped.run_id, *admin]).returncode == 3  # nobody acts as another user
    owner = _cli(["runs", "resume", stopped.run_id, *cfg, "--user", "analyst"])
    assert owner.returncode == 0 and json.loads(owner.stdout)["status"] == "answered"


def test_the_run_store_traces_and_reports_are_private(duck_copy: Path) -> None:
    out = duck_copy / "reports" / "gmv.md"
    proc = _cli(["ask", ASK, "--as-of", AS_OF.isoformat(), "--config", str(duck_copy / "baton.toml"), "--json"])
    run_id = json.loads(proc.stdout)["run_id"]
    report = _cli(
        ["runs", "replay", run_id, "--config", str(duck_copy / "baton.toml"), "--format", "md", "--out", str(out)]
    )
    assert report.returncode == 0, report.stderr
    runs = duck_copy / "runs"

    def mode(path: Path) -> int:
        return stat.S_IMODE(path.stat().st_mode)

    assert mode(runs) == 0o700 and mode(runs / run_id) == 0o700
    private = [runs / "runs.sqlite", runs / run_id / "trace.jsonl", out, *out.parent.glob("*.png")]
    private += list(runs.glob("runs.sqlite-*")) + list((runs / "member_index").glob("*.json"))
    for path in private:
        assert mode(path) == 0o600, (path, oct(mode(path)))
    assert os.access(runs / "runs.sqlite", os.R_OK)


def test_unknown_users_and_other_users_get_permission_denied_in_python(duck_copy: Path) -> None:
    with _session(duck_copy) as session:
        theirs = session.ask(ASK, as_of=AS_OF, user="analyst")
        with pytest.raises(PermissionDenied):
            session.replay(theirs.run_id, user="east_manager")
        with pytest.raises(PermissionDenied):
            session.run_state(theirs.run_id, user="marketing")
        with pytest.raises(PermissionDenied):
            session.runs(user="nobody")
        assert [r.run_id for r in session.runs(user="marketing")] == []


def test_engine_detail_in_a_trace_is_for_auditors_only(duck_copy: Path) -> None:
    """The engine's own words (which may quote a value) stay in the trace; the owner's view of
    the trace withholds them, a ``runs: all`` user reads them."""
    with _session(duck_copy) as session:
        failed = session.sql("SELECT CAST(region AS INTEGER) AS n FROM dim_user", user="east_manager")
        assert failed.status == "failed" and failed.error is not None
        own = json.dumps(
            [e.model_dump(mode="json") for e in session.run_trace(failed.run_id, user="east_manager")],
            ensure_ascii=False,
        )
        audit = json.dumps(
            [e.model_dump(mode="json") for e in session.run_trace(failed.run_id, user="admin")], ensure_ascii=False
        )
    quoted = f"string '{EAST}'"  # DuckDB: Could not convert string '华东' to INT32
    assert quoted in audit, "the engine quoted the value it could not convert"
    assert quoted not in own and "withheld" in own
