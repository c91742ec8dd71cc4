"""`baton ask --format terminal|md|html|json [--out FILE]` through the real console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BATON = [sys.executable, "-m", "baton"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*BATON, *args, "--as-of", "2026-07-01"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env=dict(os.environ),
        check=False,
    )


def test_terminal_saves_the_chart_png_beside_the_run(tmp_path: Path, demo_dir: Path) -> None:
    proc = run(["ask", "上个月每天的GMV", "--config", str(demo_dir / "baton.toml")], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert not list(tmp_path.glob("*.png"))  # nothing lands in the caller's folder
    run_id = proc.stdout.split("运行编号:")[1].split()[0]
    (png,) = (demo_dir / "runs" / run_id).glob("baton-chart-run_*.png")
    assert png.read_bytes().startswith(PNG_SIGNATURE)
    assert f"图表已保存：{png}" in proc.stdout.replace("\n", "")
    assert proc.stdout.index("回答") < proc.stdout.index("图表已保存")


def test_terminal_out_names_the_png(tmp_path: Path, demo_dir: Path) -> None:
    target = tmp_path / "charts" / "gmv.png"
    proc = run(
        ["ask", "GMV by region last month", "--config", str(demo_dir / "baton.toml"), "--out", str(target)], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert "Chart saved:" in proc.stdout


def test_md_out_writes_report_and_png(tmp_path: Path, demo_dir: Path) -> None:
    out = tmp_path / "report.md"
    proc = run(
        [
            "ask",
            "上个月各渠道的GMV是多少？",
            "--config",
            str(demo_dir / "baton.toml"),
            "--format",
            "md",
            "--out",
            str(out),
        ],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Baton 分析报告") and "](report.png)" in text
    assert (tmp_path / "report.png").read_bytes().startswith(PNG_SIGNATURE)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.md", "report.png"]


def test_html_to_stdout_and_to_file(tmp_path: Path, demo_dir: Path) -> None:
    config = str(demo_dir / "baton.toml")
    proc = run(["ask", "上个月各渠道的GMV是多少？", "--config", config, "--format", "html"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("<!doctype html>") and "vegaEmbed" in proc.stdout
    out = tmp_path / "r.html"
    proc = run(
        ["ask", "上个月各渠道的GMV是多少？", "--config", config, "--format", "html", "--out", str(out)], tmp_path
    )
    assert proc.returncode == 0 and proc.stdout == ""
    assert out.read_text(encoding="utf-8").startswith("<!doctype html>")


def test_json_alias_and_json_file(tmp_path: Path, demo_dir: Path) -> None:
    config = str(demo_dir / "baton.toml")
    a = json.loads(run(["ask", "上个月GMV环比", "--config", config, "--json"], tmp_path).stdout)
    b = json.loads(run(["ask", "上个月GMV环比", "--config", config, "--format", "json"], tmp_path).stdout)
    assert a.keys() == b.keys() and a["answer"] == b["answer"]
    assert a["chart"]["usermeta"]["baton"]["kind"] == "grouped_bar"
    assert a["gate"]["ok"] is True and a["gate"]["action"] == "pass"
    out = tmp_path / "a.json"
    proc = run(["ask", "上个月GMV环比", "--config", config, "--format", "json", "--out", str(out)], tmp_path)
    assert proc.returncode == 0 and json.loads(out.read_text(encoding="utf-8"))["answer"] == a["answer"]
    assert not list(tmp_path.glob("*.png"))  # json never renders images


@pytest.mark.parametrize("args", [["--format", "pdf"], ["--json", "--format", "md"]])
def test_bad_format_is_a_typed_error(tmp_path: Path, demo_dir: Path, args: list[str]) -> None:
    proc = run(["ask", "上个月GMV", "--config", str(demo_dir / "baton.toml"), *args], tmp_path)
    assert proc.returncode == 1
    assert "invalid_input" in proc.stdout + proc.stderr and "Traceback" not in proc.stderr
