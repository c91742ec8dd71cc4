"""`baton chat` and `baton ask --conversation` through the real console script: follow-ups,
/runs and /why, a stated preference remembered and applied, then forgotten."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.redteam.private_demo import baton, private_copy


@pytest.fixture
def demo(demo_dir: Path, tmp_path: Path) -> Path:
    return private_copy(demo_dir, tmp_path / "demo")


def _chat(demo: Path, lines: list[str], *extra: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "baton", "chat", "--config", str(demo / "baton.toml"), "--as-of", "2026-07-01", *extra],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
        env=env,
        check=False,
    )


def test_ask_with_a_conversation_follows_the_previous_turn(demo: Path) -> None:
    first = baton(
        ["ask", "上个月各渠道的GMV是多少？", "--conversation", "new", "--json", "--as-of", "2026-07-01"], demo
    )
    assert first.returncode == 0, first.stderr
    conversation = json.loads(first.stdout)["conversation_id"]
    assert conversation.startswith("conv_")
    second = baton(["ask", "那华南呢？", "--conversation", conversation, "--json"], demo)
    assert second.returncode == 0, second.stderr
    data = json.loads(second.stdout)
    assert data["follow_up"]["changed"] == ["filter"]
    assert data["interpretation"].startswith("接上一问：")
    assert data["as_of"] == "2026-07-01"
    other = baton(["ask", "那华北呢？", "--conversation", conversation, "--json", "--user", "east_manager"], demo)
    assert other.returncode == 3, other.stdout
    assert json.loads(other.stdout)["error"]["code"] == "permission_denied"


def test_chat_follows_up_lists_its_runs_and_explains(demo: Path) -> None:
    proc = _chat(demo, ["上个月各渠道的GMV是多少？", "那华南呢？", "/runs", "/why", "/quit"])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "Traceback" not in proc.stderr + out
    assert out.count("已回答") >= 3  # two answers and the analysis, their status in the question's language
    assert "接上一问" in out
    listed = re.findall(r"run_\S+\s+done\s+(\S+)", out)  # /runs: each turn, in order
    assert listed[:2] == ["上个月各渠道的GMV是多少？", "那华南呢？"]


def test_a_remembered_default_breakdown_is_applied_stated_and_forgotten(demo: Path) -> None:
    asked_back = _chat(demo, ["上个月的GMV是多少", "拆开看看"])
    assert "需要澄清" in asked_back.stdout, asked_back.stdout
    remembered = _chat(demo, ["以后默认按渠道拆分", "上个月的GMV是多少", "拆开看看"])
    assert "已记住" in remembered.stdout, remembered.stdout
    assert "记住的你的默认拆分" in remembered.stdout  # the assumption states it
    assert "按渠道拆分" in remembered.stdout and "需要澄清" not in remembered.stdout
    listed = baton(["memory", "list", "--json"], demo)
    assert listed.returncode == 0, listed.stderr
    assert "default_breakdown" in listed.stdout
    forgot = baton(["memory", "forget", "default_breakdown"], demo)
    assert forgot.returncode == 0, forgot.stderr
    again = _chat(demo, ["上个月的GMV是多少", "拆开看看"])
    assert "需要澄清" in again.stdout and "记住的你的默认拆分" not in again.stdout


def test_a_failing_turn_does_not_end_the_chat(demo: Path) -> None:
    proc = _chat(demo, ["今天天气怎么样", "上个月的GMV是多少"])
    assert proc.returncode == 0
    assert "已拒绝" in proc.stdout and "已回答" in proc.stdout


def test_next_by_category_is_a_follow_up_not_a_preference(demo: Path) -> None:
    """ "接下来按品类看" asks for the next step of the conversation; "以后默认按品类看" states a
    preference. Only the second is remembered."""
    proc = _chat(demo, ["上个月的GMV是多少", "接下来按品类看"])
    assert proc.returncode == 0, proc.stderr
    assert "已记住" not in proc.stdout, proc.stdout
    assert "接上一问" in proc.stdout and "品类" in proc.stdout
    listed = baton(["memory", "list", "--json"], demo)
    assert listed.returncode == 0, listed.stderr
    assert "default_breakdown" not in listed.stdout
    stated = _chat(demo, ["以后默认按品类看"])
    assert "已记住" in stated.stdout, stated.stdout
    assert "default_breakdown" in baton(["memory", "list", "--json"], demo).stdout
