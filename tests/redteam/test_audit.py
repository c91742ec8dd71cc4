"""Issue 14, finding 8a: every read of the warehouse is a run, with a trace an auditor can follow.

`baton sql run` (and ``Session.sql``) used to execute a statement with no run and no trace, so
an admin reading raw personal data left nothing behind. A statement now walks the one run
driver as a run of kind ``sql``: its question is the SQL text, its interpretation says it is a
statement run as that user, and its trace holds run_started, the firewall's policy_decision
before the tool_call, evidence_selected, the output gate's decision, answer_created and
run_finished. A refused statement is a refused run with the firewall's code. ``baton sql
check`` stays a verdict without a run (it reads no data). ``baton query`` runs are traced the
same way.

Every test runs the real console script (or Session) on a private copy of the demo, on DuckDB
and on PostgreSQL.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from baton.config import load_settings
from baton.orchestrator.session import Session
from tests.redteam.private_demo import baton, run_ids, trace_events

ADMIN_PII = "SELECT name, phone, email FROM dim_user ORDER BY user_id LIMIT 3"
REFUSED = "SELECT phone FROM dim_user"


def _first(events: list[dict[str, Any]], type_: str, **payload: Any) -> int:
    """The index of the first event of ``type_`` whose payload has every item of ``payload``."""
    for index, event in enumerate(events):
        if event["type"] == type_ and all(event["payload"].get(k) == v for k, v in payload.items()):
            return index
    raise AssertionError(f"no {type_} {payload} in {[e['type'] for e in events]}")


def _session(folder: Path) -> Session:
    return Session(load_settings(folder / "baton.toml"))


def test_sql_run_as_admin_reading_pii_is_a_run_with_a_full_trace(demo_copy: Path) -> None:
    before = run_ids(demo_copy)
    proc = baton(["sql", "run", ADMIN_PII, "--user", "admin", "--json"], demo_copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    answer = json.loads(proc.stdout)
    run_id = answer["run_id"]
    assert run_ids(demo_copy) - before == {run_id}, "the statement left no run"
    assert answer["status"] == "answered" and answer["question"] == ADMIN_PII and answer["user"] == "admin"
    assert "SQL" in answer["interpretation"] and "admin" in answer["interpretation"]
    assert answer["answer"] == "3 rows."
    assert answer["result"]["row_count"] == 3 and answer["result"]["detail_rows"] is True
    assert answer["gate"]["ok"] is True and answer["gate"]["numbers_checked"] == 1
    assert "SELECT" in answer["sql"]

    with _session(demo_copy) as session:
        state = session.store.load(run_id)
        replayed = session.replay(run_id, user="admin")
    assert state.kind == "sql" and state.status == "done" and state.user == "admin"
    assert state.question == ADMIN_PII
    (record,) = state.sql
    assert record.draft == ADMIN_PII and record.approved_sql_id and record.evidence_id
    assert [e.evidence_id for e in state.evidence] == [record.evidence_id]
    assert state.answer is not None and state.answer.model_dump(mode="json") == answer
    assert replayed.model_dump(mode="json") == answer  # replay rebuilds it from the evidence

    events = trace_events(demo_copy, run_id)
    assert events[0]["type"] == "run_started" and events[0]["payload"]["entry"] == "sql"
    assert events[0]["payload"]["user"] == "admin" and events[0]["payload"]["question"] == ADMIN_PII
    allow = _first(events, "policy_decision", gate="firewall", decision="allow", tool="warehouse.query")
    assert events[allow]["payload"]["approved_sql_id"] == record.approved_sql_id
    call = _first(events, "tool_call", tool="warehouse.query", ok=True)
    evidence = _first(events, "evidence_selected")
    assert events[evidence]["payload"]["evidence_ids"] == [record.evidence_id]
    gate = _first(events, "policy_decision", gate="output", decision="allow")
    created = _first(events, "answer_created", status="answered")
    finished = _first(events, "run_finished", status="done")
    assert allow < call < evidence < gate < created < finished == len(events) - 1


def test_sql_run_in_the_terminal_names_its_run(demo_copy: Path) -> None:
    before = run_ids(demo_copy)
    proc = baton(["sql", "run", ADMIN_PII, "--user", "admin"], demo_copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (run_id,) = run_ids(demo_copy) - before
    assert run_id in proc.stdout
    assert "3 rows." in proc.stdout


def test_a_refused_statement_is_a_refused_run_with_its_code(demo_copy: Path) -> None:
    before = run_ids(demo_copy)
    proc = baton(["sql", "run", REFUSED, "--user", "east_manager", "--json"], demo_copy)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["status"] == "refused" and answer["error"]["code"] == "pii_denied"
    assert answer["result"] is None
    run_id = answer["run_id"]
    assert run_ids(demo_copy) - before == {run_id}
    with _session(demo_copy) as session:
        state = session.store.load(run_id)
    assert state.kind == "sql" and state.status == "refused" and state.user == "east_manager"
    assert state.error is not None and state.error["code"] == "pii_denied"
    assert state.evidence == [] and state.sql == []
    events = trace_events(demo_copy, run_id)
    deny = _first(events, "policy_decision", gate="firewall", decision="deny")
    assert events[deny]["payload"]["error"]["code"] == "pii_denied"
    assert not [e for e in events if e["type"] == "tool_call" and e["payload"].get("tool") == "warehouse.query"]
    assert deny < _first(events, "answer_created", status="refused") < _first(events, "run_finished", status="refused")


def test_plain_refusal_prints_the_code_and_the_run(duck_copy: Path) -> None:
    before = run_ids(duck_copy)
    proc = baton(["sql", "run", REFUSED, "--user", "east_manager"], duck_copy)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    (run_id,) = run_ids(duck_copy) - before
    assert "pii_denied" in proc.stdout + proc.stderr and run_id in proc.stdout


def test_session_sql_is_a_run_for_python_callers(duck_copy: Path) -> None:
    with _session(duck_copy) as session:
        answer = session.sql("SELECT region, COUNT(*) AS users FROM dim_user GROUP BY region", user="analyst")
        refused = session.sql(REFUSED, user="east_manager")
        state = session.store.load(answer.run_id)
    assert answer.status == "answered" and answer.result is not None
    assert answer.result.detail_rows is False and answer.result.row_count == len(answer.result.rows) > 1
    assert state.kind == "sql" and state.status == "done" and state.user == "analyst"
    assert refused.status == "refused" and refused.error is not None and refused.error.code == "pii_denied"


def test_sql_check_is_a_verdict_without_a_run(duck_copy: Path) -> None:
    """`sql check` reads no data: it prints the firewall's verdict and leaves no run."""
    before = run_ids(duck_copy)
    proc = baton(["sql", "check", ADMIN_PII, "--user", "admin", "--json"], duck_copy)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "approved"
    assert run_ids(duck_copy) == before


def test_query_runs_have_the_same_full_trace(demo_copy: Path) -> None:
    args = ["query", "--metrics", "gmv", "--group-by", "channel", "--start-time", "2026-06-01"]
    proc = baton([*args, "--end-time", "2026-06-30", "--json"], demo_copy)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run_id = json.loads(proc.stdout)["run_id"]
    events = trace_events(demo_copy, run_id)
    assert events[0]["type"] == "run_started" and events[0]["payload"]["entry"] == "query"
    allow = _first(events, "policy_decision", gate="firewall", decision="allow", tool="warehouse.query")
    call = _first(events, "tool_call", tool="warehouse.query", ok=True)
    evidence = _first(events, "evidence_selected", name="answer")
    created = _first(events, "answer_created", status="answered")
    assert allow < call < evidence < created < _first(events, "run_finished", status="done") == len(events) - 1


def test_a_statement_stopped_by_a_budget_resumes_from_its_approval(duck_copy: Path) -> None:
    from baton.contracts.run import Budget

    with _session(duck_copy) as session:
        stopped = session.sql(ADMIN_PII, user="admin", budget=Budget(max_steps=1))
        assert stopped.status == "failed" and stopped.partial and stopped.error is not None
        assert stopped.error.code == "budget_exceeded"
        state = session.store.load(stopped.run_id)
        assert state.completed_steps == ["policy"] and state.evidence == []
        state.budget = Budget()
        session.store.save(state)
        resumed = session.resume(stopped.run_id, user="admin")
        fresh = session.sql(ADMIN_PII, user="admin")
    assert resumed.status == "answered" and resumed.result is not None and fresh.result is not None
    assert resumed.result == fresh.result and resumed.result.detail_rows is True
    events = trace_events(duck_copy, stopped.run_id)
    rechecked = _first(events, "policy_decision", gate="firewall", decision="allow", recheck=True)
    assert rechecked < _first(events, "tool_call", tool="warehouse.query", ok=True)
