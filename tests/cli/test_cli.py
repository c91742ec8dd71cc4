"""The real `baton` console script in a subprocess: exit codes, JSON, no stack traces."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BATON = [sys.executable, "-m", "baton"]


def run(args: list[str], env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(env_extra or {})}
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=120, env=env, check=False)


@pytest.mark.parametrize("question", ["上个月各渠道的GMV是多少？", "What was GMV by channel last month?"])
def test_ask_json(demo_dir: Path, question: str) -> None:
    proc = run(["ask", question, "--json", "--config", str(demo_dir / "baton.toml")])
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["status"] == "answered"
    assert data["interpretation"].startswith(("Read as: GMV by channel", "问题理解为：上个月"))
    assert data["result"]["row_count"] == 4
    assert data["metrics"][0]["name"] == "gmv"
    assert "Traceback" not in proc.stderr


def test_ask_refusal_exit_code_and_env_config(demo_dir: Path) -> None:
    proc = run(["ask", "上个月的利润率是多少？", "--json"], {"BATON_CONFIG": str(demo_dir / "baton.toml")})
    assert proc.returncode == 3
    data = json.loads(proc.stdout)
    assert data["status"] == "refused" and data["error"]["code"] == "unknown_metric"


def test_terminal_report_leads_with_answer(demo_dir: Path) -> None:
    proc = run(["ask", "上个月各渠道的GMV是多少？", "--config", str(demo_dir / "baton.toml")])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.index("回答") < out.index("问题理解为") < out.index("按渠道拆分的成交总额") < out.index("SELECT")
    assert out.index("回答") < out.index("SELECT") < out.index("指标口径") < out.index("数据更新至")


def test_malformed_config_is_a_typed_error(tmp_path: Path) -> None:
    bad = tmp_path / "baton.toml"
    bad.write_text("[warehouse\nurl = 1", encoding="utf-8")
    proc = run(["ask", "上个月的GMV", "--json", "--config", str(bad)])
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "invalid_config"
    assert "Traceback" not in proc.stderr


def test_bad_as_of_is_a_typed_error(demo_dir: Path) -> None:
    proc = run(["ask", "GMV last month", "--as-of", "July", "--config", str(demo_dir / "baton.toml")])
    assert proc.returncode == 1
    assert "YYYY-MM-DD" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_sql_check_masks_phone_for_analyst(demo_dir: Path) -> None:
    proc = run(
        [
            "sql",
            "check",
            "SELECT phone FROM dim_user",
            "--user",
            "analyst",
            "--json",
            "--config",
            str(demo_dir / "baton.toml"),
        ]
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    verdict = json.loads(proc.stdout)
    assert verdict["verdict"] == "approved"
    assert "dim_user.phone" in verdict["masked_columns"]
    ran = run(
        [
            "sql",
            "run",
            "SELECT phone FROM dim_user LIMIT 5",
            "--user",
            "analyst",
            "--json",
            "--config",
            str(demo_dir / "baton.toml"),
        ]
    )
    assert ran.returncode == 0, ran.stderr
    phones = [row[0] for row in json.loads(ran.stdout)["result"]["rows"]]  # the run's Answer
    assert phones and all("****" in p for p in phones)


@pytest.mark.parametrize(
    ("sql", "user", "code"),
    [
        ("SELECT phone FROM dim_user", "east_manager", "pii_denied"),
        ("SELECT 1; DROP TABLE fact_order", "analyst", "multiple_statements"),
        ("SELECT * FROM read_csv('/etc/passwd')", "analyst", "function_not_allowed"),
    ],
)
def test_sql_check_refusals_exit_3(demo_dir: Path, sql: str, user: str, code: str) -> None:
    proc = run(["sql", "check", sql, "--user", user, "--json", "--config", str(demo_dir / "baton.toml")])
    assert proc.returncode == 3
    assert json.loads(proc.stdout)["error"]["code"] == code


def test_east_manager_grants(demo_dir: Path) -> None:
    cfg = ["--config", str(demo_dir / "baton.toml"), "--user", "east_manager", "--json"]
    refused = run(["ask", "华南上个月的GMV", *cfg])
    assert refused.returncode == 3
    data = json.loads(refused.stdout)
    assert data["status"] == "refused"
    assert data["error"]["code"] == "permission_denied"
    assert "不允许" in data["answer"]
    only_east = run(["ask", "上个月各区域的GMV", *cfg])
    assert only_east.returncode == 0, only_east.stderr
    rows = json.loads(only_east.stdout)["result"]["rows"]
    assert [r[0] for r in rows] == ["华东"]


def test_unexpected_failures_never_print_a_traceback(tmp_path: Path) -> None:
    proc = run(["ask", "上个月的GMV", "--config", str(tmp_path / "missing.toml")])
    assert proc.returncode != 0
    assert "Traceback" not in proc.stdout + proc.stderr
