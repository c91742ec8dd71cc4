"""Usage errors and missing runs through the console script: one line ``code: message`` (both
languages: no question tells which), the user-error exit code (2 is a clarification), no box."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest


def baton(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    import shutil
    import sys

    exe = shutil.which("baton", path=str(Path(sys.executable).parent)) or "baton"
    env = {**os.environ, "COLUMNS": "80"}
    return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120, env=env, check=False, cwd=cwd)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("ask",), "Missing argument"),
        (("export",), "Missing argument"),
        (("frobnicate",), "No such command 'frobnicate'"),
        (("ask", "--bogus", "x"), "No such option"),
    ],
)
def test_a_usage_error_is_one_invalid_input_line(args: tuple[str, ...], said: str) -> None:
    proc = baton(*args)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("invalid_input: ") and said in lines[0], proc.stderr
    assert "命令用法有误" in lines[0] and "--help" in lines[0] and "╭" not in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_a_group_alone_shows_its_help_without_the_clarification_code() -> None:
    proc = baton("runs")
    assert proc.returncode == 1 and "list" in proc.stderr + proc.stdout


@pytest.mark.parametrize("command", [("runs", "show", "run_nope"), ("export", "run_nope", "--out", "x.csv")])
def test_a_missing_run_is_not_found(small_demo_dir: Path, tmp_path: Path, command: tuple[str, ...]) -> None:
    proc = baton(*command, "--config", str(small_demo_dir / "baton.toml"), cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.startswith("not_found: No run 'run_nope'") and len(proc.stderr.strip().splitlines()) == 1


def test_flags_show_no_value_type_in_help() -> None:
    proc = baton("serve", "--help")
    assert proc.returncode == 0 and "--help" in proc.stdout and "--port" in proc.stdout
    assert "<bool>" not in proc.stdout and "<int>" in proc.stdout
