"""`baton query` as a user runs it (the console script in a subprocess): MetricFlow's flags,
ask's output and exit codes, --json, no stack traces, and the run in `baton runs`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

BATON = [sys.executable, "-m", "baton"]


def run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BATON, *args], capture_output=True, text=True, timeout=120, env=dict(os.environ), check=False
    )


@pytest.fixture
def cfg(demo_dir: Path) -> list[str]:
    return ["--config", str(demo_dir / "baton.toml"), "--as-of", "2026-07-01"]


def test_json_is_the_answer_with_named_columns_and_replay_reproduces_it(demo_dir: Path, cfg: list[str]) -> None:
    proc = run(
        [
            "query",
            "--metrics",
            "gmv,order_count",
            "--group-by",
            "channel",
            "--where",
            "{{ Dimension('region') }} = '华南'",
            "--start-time",
            "2026-06-01",
            "--end-time",
            "2026-06-30",
            "--order",
            "-order_count",
            "--limit",
            "3",
            "--json",
            *cfg,
        ]
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "answered" and data["language"] == "en"
    assert data["question"] == (
        "query --metrics gmv,order_count --group-by channel --where \"{{ Dimension('region') }} = '华南'\" "
        "--start-time 2026-06-01 --end-time 2026-06-30 --order -order_count --limit 3"
    )
    assert [c["name"] for c in data["result"]["columns"]] == ["channel", "gmv", "order_count"]
    con = duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True)
    try:
        gold = con.execute(
            "SELECT channel, SUM(gmv_amount), COUNT(*) AS n FROM fact_order WHERE order_date BETWEEN '2026-06-01' "
            "AND '2026-06-30' AND status IN ('paid', 'refunded') AND region = '华南' "
            "GROUP BY channel ORDER BY n DESC LIMIT 3"
        ).fetchall()
    finally:
        con.close()
    rows = data["result"]["rows"]
    assert [(r[0], r[2]) for r in rows] == [(g[0], g[2]) for g in gold]
    assert [r[1] for r in rows] == pytest.approx([float(g[1]) for g in gold], rel=1e-12)
    assert data["metrics"][0]["name"] == "gmv" and data["sql"].count("LIMIT 3") == 1

    listed = run(["runs", "list", "--json", "--config", str(demo_dir / "baton.toml"), "--limit", "200"])
    assert listed.returncode == 0, listed.stderr
    assert any(r["run_id"] == data["run_id"] and r["question"] == data["question"] for r in json.loads(listed.stdout))
    replayed = run(["runs", "replay", data["run_id"], "--json", "--config", str(demo_dir / "baton.toml")])
    assert replayed.returncode == 0, replayed.stderr
    again = json.loads(replayed.stdout)
    assert again["result"]["rows"] == rows and again["answer"] == data["answer"]


def test_terminal_output_reads_like_ask(cfg: list[str]) -> None:
    proc = run(["query", "--metrics", "gmv", "--group-by", "metric_time__month", "--start-time", "2026-04-01", *cfg])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert (
        out.index("Answer")
        < out.index("Read as: GMV per month, from 2026-04-01 up to the as-of date")
        < out.index("SELECT")
    )
    assert "DATE_TRUNC" in out.upper() and "Metric definitions" in out
    assert "Traceback" not in proc.stderr


def test_lang_zh(cfg: list[str]) -> None:
    proc = run(["query", "--metrics", "gmv", "--group-by", "region", "--lang", "zh", "--json", *cfg])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["language"] == "zh" and data["interpretation"].startswith(
        "问题理解为：截至分析日期 2026-07-01 的全部日期"
    )


@pytest.mark.parametrize(
    ("args", "code", "exit_code"),
    [
        (["--metrics", "gmv", "--where", "{{ Dimension('channel') }} IN (SELECT 1)"], "invalid_input", 3),
        (["--metrics", "gmv", "--where", "length(channel) > 3"], "invalid_input", 3),
        (["--metrics", "gmv", "--where", "shoe_size = 42"], "invalid_input", 3),
        (["--metrics", "gmv", "--group-by", "shoe_size"], "invalid_input", 3),
        (["--metrics", "profit_margin"], "unknown_metric", 3),
    ],
)
def test_user_errors_are_typed_runs_with_ask_exit_codes(
    cfg: list[str], args: list[str], code: str, exit_code: int
) -> None:
    proc = run(["query", *args, "--json", *cfg])
    assert proc.returncode == exit_code, proc.stdout + proc.stderr
    data = json.loads(proc.stdout)
    assert data["error"]["code"] == code and data["run_id"].startswith("run_")
    assert data["result"] is None and data["sql"] is None
    assert "Traceback" not in proc.stderr + proc.stdout
    terminal = run(["query", *args, *cfg])
    assert terminal.returncode == exit_code
    assert code in terminal.stdout and "Traceback" not in terminal.stderr + terminal.stdout


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--metrics", "gmv", "--limit", "ten"], "--limit must be a whole number"),
        (["--metrics", "gmv", "--start-time", "June"], "--start-time must be a date"),
        (["--metrics", "gmv", "--lang", "fr"], "--lang must be en or zh"),
    ],
)
def test_bad_flags_are_one_line_errors(cfg: list[str], args: list[str], said: str) -> None:
    proc = run(["query", *args, *cfg])
    assert proc.returncode == 1
    assert said in proc.stderr and "invalid_input" in proc.stderr
    assert "Traceback" not in proc.stderr
