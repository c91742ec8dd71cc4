"""`baton runs list` at 80 columns keeps every run id whole; `baton runs trace --packets` sums
each packet up in a few lines (the full JSON stays behind --json); `baton --version` / `-V`
(through the real console script)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from rich.cells import cell_len

BATON = [sys.executable, "-m", "baton"]
LONG_QUESTION = "上个月各渠道的GMV是多少？请按渠道拆分，并说明每个渠道的成交总额，越详细越好"


def baton(*args: str, columns: int = 80) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns), "LINES": "50"}
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=180, env=env, check=False)


@pytest.fixture(scope="module")
def runs(small_demo_dir: Path) -> tuple[Path, str]:
    """A config with at least two runs in its store; the id of a finished analysis."""
    config = small_demo_dir / "baton.toml"
    asked = baton("ask", LONG_QUESTION, "--config", str(config), "--as-of", "2026-07-01")
    assert asked.returncode in (0, 2), asked.stdout + asked.stderr  # asked back: still a recorded run
    analysed = baton("analyze", "为什么2026年6月的GMV下降了？", "--config", str(config), "--as-of", "2026-07-01")
    assert analysed.returncode == 0, analysed.stdout + analysed.stderr
    return config, re.findall(r"run_\w+", analysed.stdout)[-1]


def test_runs_list_never_cuts_a_run_id_at_80_columns(runs: tuple[Path, str]) -> None:
    config, _ = runs
    listed = json.loads(baton("runs", "list", "--json", "--limit", "5", "--config", str(config)).stdout)
    assert len(listed) >= 2 and any(r["question"] == LONG_QUESTION for r in listed)
    for columns in (80, 64):
        out = baton("runs", "list", "--limit", "5", "--config", str(config), columns=columns).stdout
        assert all(cell_len(line) <= columns for line in out.splitlines()), out
        for run in listed:
            assert run["run_id"] in out, (columns, out)  # whole, on one line
        flat = re.sub(r"[\s│┃]", "", out)
        assert re.sub(r"\s", "", LONG_QUESTION) in flat and "…" not in out  # the long question wraps, whole
        assert re.search(r"\d\d-\d\d \d\d:\d\d", out)  # the time on one line, compactly


def test_trace_packets_prints_a_summary_per_packet(runs: tuple[Path, str]) -> None:
    config, run_id = runs
    full = json.loads(baton("runs", "trace", run_id, "--packets", "--json", "--config", str(config)).stdout)
    handoffs = [e for e in full if e["type"] == "handoff"]
    assert len(handoffs) >= 5 and all("# MUST KEEP" in e["packet"] for e in handoffs)  # the full packet, in JSON
    shown = baton("runs", "trace", run_id, "--packets", "--config", str(config), columns=120).stdout
    lines = shown.splitlines()
    assert len(lines) < 25 * len(handoffs), len(lines)  # was about 1,300 lines for one analysis
    assert '\\"' not in shown and '{"' not in shown  # no escaped JSON
    for event in handoffs:
        p = event["payload"]
        assert f"step={p['step']}, agent={p['agent']}, tokens={p['tokens']}" in shown
        assert f"tokens={p['tokens']}, lines={len(event['packet'].splitlines())}" in shown
        assert f"status={event['report']['status']}" in shown
    assert re.search(r"must keep: filters applied: \d+, assumptions: \d+", shown)
    assert shown.count("task: 为什么2026年6月的GMV下降了？") == len(handoffs)  # the question each agent got
    assert "--packets --json" in lines[-1] or "--packets --json" in lines[-2]


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    proc = baton(flag)
    assert proc.returncode == 0 and proc.stdout.strip() == f"baton {version('baton-analyst')}", proc
