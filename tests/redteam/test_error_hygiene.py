"""Issue 14, finding 9: an engine's error text never reaches the user; the run's trace keeps it.

A warehouse's own error text quotes data values ("Could not convert string '<a customer's
name>'", 'invalid input syntax for type integer: "<name>"') and the rewritten SQL. It used to
reach the user through ``Answer.error.detail``, ``--json`` error output and the firewall's
``cost_estimate_failed`` reason. Now a :class:`BatonError` keeps such text in its trace-only
``internal`` part: ``to_dict()`` (every user-facing error shape) never includes it,
``to_trace_dict()`` (the run's trace) does. The user sees the code and a safe message.

Connection failures are no different by default (a ``baton ask`` user sees "cannot connect");
only ``baton init``, whose user typed the warehouse URL, prints the driver's text as well.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import duckdb
import pytest

from baton.config import load_settings
from baton.errors import BatonError, InvalidInput, ToolFailure, WarehouseUnavailable
from baton.orchestrator.session import Session
from baton.warehouse.duckdb_backend import DuckDBBackend, DuckDBEngine
from baton.warehouse.postgres_backend import PostgresBackend
from tests.redteam.private_demo import BATON, baton, private_copy, run_ids, trace_events

CAST_NAME = "SELECT CAST(name AS INTEGER) AS n FROM dim_user"
"""As admin (PII allowed): the engine's error quotes a customer's name."""
QUOTED = re.compile(r"""string '([^']+)'|integer: "([^"]+)\"""")
"""The value DuckDB ('…') or PostgreSQL ("…") quotes in its conversion error."""
REWRITTEN = ('"dim_user"."name"', "CAST(", "AS INT", "LINE 1")


def _engine_texts(events: list[dict[str, Any]]) -> list[str]:
    """Every engine text the trace holds (in the internal part of an error)."""
    texts = []
    for event in events:
        for error in (event["payload"].get("error"), event["payload"]):
            internal = error.get("internal") if isinstance(error, dict) else None
            if isinstance(internal, dict) and internal.get("engine_error"):
                texts.append(str(internal["engine_error"]))
    return texts


def _quoted_value(texts: list[str]) -> str:
    for engine_text in texts:
        match = QUOTED.search(engine_text)
        if match:
            return match.group(1) or match.group(2)
    raise AssertionError(f"no quoted value in the trace's engine texts: {texts}")


def _clean(shown: str, value: str) -> None:
    assert value not in shown, "a data value from the engine's error reached the user"
    for fragment in REWRITTEN:
        assert fragment not in shown, f"the rewritten SQL ({fragment}) reached the user"


def test_an_engine_error_quoting_a_value_reaches_only_the_trace(demo_copy: Path) -> None:
    before = run_ids(demo_copy)
    proc = baton(["sql", "run", CAST_NAME, "--user", "admin", "--json"], demo_copy)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    answer = json.loads(proc.stdout)
    (run_id,) = run_ids(demo_copy) - before
    assert answer["run_id"] == run_id and answer["status"] == "failed"
    assert answer["error"]["code"] == "tool_failure" and "engine_error" not in answer["error"]["detail"]
    assert answer["error"]["message"] == answer["answer"]

    events = trace_events(demo_copy, run_id)
    texts = _engine_texts(events)
    value = _quoted_value(texts)
    failed_call = [e for e in events if e["type"] == "tool_call" and e["payload"].get("ok") is False]
    assert failed_call and _engine_texts(failed_call), "the failed tool_call does not record the engine's text"
    stop = [e for e in events if e["type"] == "policy_decision" and e["payload"].get("decision") == "stop"]
    assert stop and _engine_texts(stop), "the run's stop decision does not record the engine's text"

    # what the user is shown: --json, the terminal, the stored run and its answer
    _clean(json.dumps(answer["error"], ensure_ascii=False) + answer["answer"], value)
    assert value not in proc.stdout.replace(CAST_NAME, "") and value not in proc.stderr
    plain = baton(["sql", "run", CAST_NAME, "--user", "admin"], demo_copy)
    assert plain.returncode == 1 and "tool_failure" in plain.stdout + plain.stderr
    assert value not in plain.stdout + plain.stderr
    with Session(load_settings(demo_copy / "baton.toml")) as session:
        state = session.store.load(run_id)
        again = session.sql(CAST_NAME, user="admin")
    assert state.answer is not None and state.answer.error is not None and state.error is not None
    _clean(
        state.answer.error.model_dump_json() + state.answer.answer + json.dumps(state.error, ensure_ascii=False), value
    )
    assert again.status == "failed" and again.error is not None
    _clean(again.error.model_dump_json(), value)
    shown = baton(["runs", "show", run_id, "--user", "admin", "--json"], demo_copy)
    assert shown.returncode == 0 and value not in shown.stdout.replace(CAST_NAME, "")


@pytest.mark.postgres
def test_a_failed_cost_estimate_keeps_the_engine_text_in_the_trace(pg_demo_dir: Path, tmp_path: Path) -> None:
    """PostgreSQL folds constants while planning, so EXPLAIN itself fails on a bad CAST; the
    analyst's role has a cost budget, so the firewall estimates the cost and refuses."""
    folder = private_copy(pg_demo_dir, tmp_path / "demo")
    statement = "SELECT CAST('zz-not-a-number' AS INTEGER) AS x FROM dim_product"
    proc = baton(["sql", "run", statement, "--user", "analyst", "--json"], folder)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    answer = json.loads(proc.stdout)
    assert answer["status"] == "refused" and answer["error"]["code"] == "cost_estimate_failed"
    assert "invalid input syntax" not in proc.stdout + proc.stderr
    events = trace_events(folder, answer["run_id"])
    deny = [e for e in events if e["type"] == "policy_decision" and e["payload"].get("gate") == "firewall"]
    assert deny and any("invalid input syntax" in t for t in _engine_texts(deny))


def test_to_dict_never_holds_the_internal_part_and_the_trace_dict_does() -> None:
    con = duckdb.connect()
    try:
        con.execute("SELECT CAST('private-value' AS INTEGER)")
    except duckdb.Error as exc:
        error = DuckDBEngine().translate(exc, timeout_s=1.0)
    else:  # pragma: no cover - DuckDB always refuses the cast
        raise AssertionError("no error")
    finally:
        con.close()
    assert isinstance(error, BatonError)
    for language in ("en", "zh"):
        public = json.dumps(error.to_dict(language), ensure_ascii=False)
        assert "private-value" not in public and "internal" not in error.to_dict(language)
        assert "private-value" not in error.message(language)
        assert "private-value" in json.dumps(error.to_trace_dict(language), ensure_ascii=False)
    assert error.to_trace_dict("en")["code"] == error.error_code
    plain = InvalidInput("bad", "坏", internal={"engine_error": "x"})
    assert plain.internal == {"engine_error": "x"} and "internal" not in plain.to_dict()
    assert ToolFailure("t").internal == {} and "internal" not in ToolFailure("t").to_trace_dict()


def test_a_warehouse_that_cannot_be_opened_says_so_without_the_driver_text(tmp_path: Path) -> None:
    broken = tmp_path / "broken.duckdb"
    broken.write_bytes(b"this is not a DuckDB file, it holds 'a private value'" * 100)
    with pytest.raises(WarehouseUnavailable) as caught:
        DuckDBBackend(broken).execute("SELECT 1")
    assert caught.value.error_code == "warehouse_unavailable"
    for language in ("en", "zh"):
        shown = json.dumps(caught.value.to_dict(language), ensure_ascii=False)
        assert "private value" not in shown and "not a valid" not in shown
    assert caught.value.internal.get("engine_error")


def test_a_connection_failure_is_shown_to_the_user_without_the_driver_text(tmp_path: Path) -> None:
    url = "postgresql://nobody@127.0.0.1:1/nothing"
    with pytest.raises(WarehouseUnavailable) as caught:
        PostgresBackend(url, connect_timeout_s=2).execute("SELECT 1")
    shown = json.dumps(caught.value.to_dict("en")) + caught.value.message("zh")
    assert "refused" not in shown.lower() and "127.0.0.1" not in shown
    assert caught.value.internal.get("engine_error")
    # `baton init`: its user typed the URL, and is told what the driver said
    proc = subprocess.run(
        [*BATON, "init", "--warehouse", url, "--path", str(tmp_path / "p")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 1 and proc.stderr.startswith("warehouse_unavailable")
    assert "refused" in proc.stderr.lower() and "Traceback" not in proc.stderr
