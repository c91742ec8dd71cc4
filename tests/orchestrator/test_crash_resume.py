"""A run killed with SIGKILL after the stats step resumes to the same answer, without
re-running the agents that had finished (the trace shows it)."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

QUESTION = "为什么2026年6月的GMV下降了？"


def _completed(runs_db: Path) -> tuple[str | None, list[str], str | None]:
    """(run_id, completed steps, status) of the newest analyze run, read straight from the store."""
    if not runs_db.exists():
        return None, [], None
    con = sqlite3.connect(runs_db, timeout=5)
    try:
        row = con.execute(
            "SELECT run_id, state, status FROM runs WHERE kind = 'analyze' ORDER BY started_at DESC LIMIT 1"
        ).fetchone()
    except sqlite3.OperationalError:
        return None, [], None
    finally:
        con.close()
    if row is None:
        return None, [], None
    return row[0], json.loads(row[1])["completed_steps"], row[2]


def _baton(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "baton", *args], capture_output=True, text=True, timeout=300, check=False
    )


def test_sigkill_after_stats_then_resume(demo_dir: Path, tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "demo"
    shutil.copytree(demo_dir, folder, ignore=shutil.ignore_patterns("runs"))
    config = str(folder / "baton.toml")
    runs_db = folder / "runs" / "runs.sqlite"

    killed_run: str | None = None
    for _attempt in range(3):
        proc = subprocess.Popen(
            [sys.executable, "-m", "baton", "analyze", QUESTION, "--config", config, "--json"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            run_id, steps, _ = _completed(runs_db)
            if "agent:stats" in steps:
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
                killed_run = run_id
                break
            time.sleep(0.01)
        if killed_run is not None:
            _, steps, status = _completed(runs_db)
            if "agent:report" not in steps:
                break  # killed after stats and before the end, as wanted
        proc.wait()
        killed_run = None
    if killed_run is None:
        pytest.fail("could not kill the run between the stats step and its end in 3 attempts")

    _, steps_at_kill, status = _completed(runs_db)
    assert status == "running"
    assert "agent:stats" in steps_at_kill

    trace_path = folder / "runs" / killed_run / "trace.jsonl"
    before = len(trace_path.read_text(encoding="utf-8").splitlines())
    resumed = _baton(["runs", "resume", killed_run, "--json", "--config", config])
    assert resumed.returncode == 0, resumed.stderr
    answer = json.loads(resumed.stdout)

    uninterrupted = _baton(["analyze", QUESTION, "--json", "--config", config])
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    fresh = json.loads(uninterrupted.stdout)
    for key in ("status", "answer", "drivers", "findings", "tests", "quality_flags", "excluded_paths"):
        assert answer[key] == fresh[key], key

    new_events = [json.loads(line) for line in trace_path.read_text(encoding="utf-8").splitlines()[before:]]
    rerun_agents = [e["payload"]["agent"] for e in new_events if e["type"] == "handoff"]
    finished_before = {s.removeprefix("agent:") for s in steps_at_kill if s.startswith("agent:")}
    assert rerun_agents, "the resumed run did no work"
    assert not finished_before & set(rerun_agents), f"re-ran finished agents: {finished_before & set(rerun_agents)}"
    assert new_events[0]["type"] == "run_started" and new_events[0]["payload"]["resumed"] is True
    assert new_events[-1]["type"] == "run_finished" and new_events[-1]["payload"]["status"] == "done"


def test_ctrl_c_cancels_cleanly_and_keeps_state(demo_dir: Path, tmp_path: Path) -> None:
    import shutil

    folder = tmp_path / "demo"
    shutil.copytree(demo_dir, folder, ignore=shutil.ignore_patterns("runs"))
    runs_db = folder / "runs" / "runs.sqlite"
    proc = subprocess.Popen(
        [sys.executable, "-m", "baton", "analyze", QUESTION, "--config", str(folder / "baton.toml")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    interrupted = False
    while time.monotonic() < deadline and proc.poll() is None:
        _, steps, _ = _completed(runs_db)
        if "agent:sql" in steps:
            proc.send_signal(signal.SIGINT)
            interrupted = True
            break
        time.sleep(0.01)
    _out, err = proc.communicate(timeout=60)
    if not interrupted or proc.returncode == 0:
        pytest.skip("the run finished before it could be interrupted")
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "cancelled" in err
    _run_id, steps, status = _completed(runs_db)
    assert status == "cancelled"
    assert "agent:sql" in steps  # what finished is kept, so the run can be resumed
