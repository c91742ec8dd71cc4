"""`baton memory list|forget|disable|enable|set` through the real console script on a private
copy of the demo: JSON and terminal output, exit codes, typed errors, no stack traces."""

from __future__ import annotations

import json
import stat
from datetime import date
from pathlib import Path
from typing import Any

from baton.config import load_settings
from baton.orchestrator.session import Session
from tests.redteam.private_demo import baton


def ok(args: list[str], demo: Path) -> Any:
    proc = baton([*args, "--json"], demo)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return json.loads(proc.stdout)


def refused(args: list[str], demo: Path, code: int = 1) -> dict[str, Any]:
    proc = baton([*args, "--json"], demo)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout
    error: dict[str, Any] = json.loads(proc.stdout)["error"]
    return error


def test_set_list_forget_disable_enable(demo_copy: Path) -> None:
    assert ok(["memory", "list"], demo_copy) == {"user": "analyst", "enabled": True, "preferences": []}

    shown = ok(["memory", "set", "default_breakdown", "渠道"], demo_copy)  # a label resolves to its name
    assert shown["user"] == "analyst" and shown["enabled"] is True
    assert shown["preference"]["key"] == "default_breakdown"
    assert shown["preference"]["value"] == "channel"
    assert shown["preference"]["source"] == "stated"
    ok(["memory", "set", "favourite_metrics", "gmv, 订单量"], demo_copy)
    ok(["memory", "set", "chart", "line"], demo_copy)

    listed = ok(["memory", "list"], demo_copy)
    assert [(p["key"], p["value"]) for p in listed["preferences"]] == [
        ("default_breakdown", "channel"),
        ("favourite_metrics", ["gmv", "order_count"]),
        ("chart", "line"),
    ]
    assert ok(["memory", "forget", "chart"], demo_copy) == {"user": "analyst", "key": "chart", "forgotten": True}
    assert ok(["memory", "forget", "chart"], demo_copy)["forgotten"] is False

    assert ok(["memory", "disable"], demo_copy) == {"user": "analyst", "enabled": False}
    assert ok(["memory", "list"], demo_copy)["enabled"] is False
    assert ok(["memory", "enable"], demo_copy) == {"user": "analyst", "enabled": True}

    assert ok(["memory", "forget", "--all"], demo_copy) == {"user": "analyst", "forgotten": 2}
    assert ok(["memory", "list"], demo_copy)["preferences"] == []

    runs = demo_copy / "runs"
    assert stat.S_IMODE((runs / "memory.sqlite").stat().st_mode) == 0o600
    assert stat.S_IMODE(runs.stat().st_mode) == 0o700


def test_each_user_has_their_own_memory(demo_copy: Path) -> None:
    ok(["memory", "set", "language", "en", "--user", "east_manager"], demo_copy)
    assert ok(["memory", "list"], demo_copy)["preferences"] == []
    mine = ok(["memory", "list", "--user", "east_manager"], demo_copy)
    assert mine["user"] == "east_manager" and mine["preferences"][0]["value"] == "en"


def test_unknown_key_dimension_metric_and_codes_are_typed_errors(demo_copy: Path) -> None:
    error = refused(["memory", "set", "colour", "red"], demo_copy)
    assert error["code"] == "invalid_input" and error["detail"]["reason"] == "unknown_key"
    assert "default_breakdown" in error["message"]

    error = refused(["memory", "set", "default_breakdown", "city"], demo_copy)
    assert error["code"] == "invalid_input" and error["detail"]["reason"] == "unknown_dimension"
    assert "channel" in error["message"]  # what the catalog has

    error = refused(["memory", "set", "default_breakdown", "华南"], demo_copy)  # a member is not a dimension
    assert error["detail"]["reason"] == "unknown_dimension"

    error = refused(["memory", "set", "favourite_metrics", "gmv,profit"], demo_copy)
    assert error["code"] == "unknown_metric"

    assert refused(["memory", "set", "language", "fr"], demo_copy)["code"] == "invalid_input"
    assert refused(["memory", "set", "chart", "radar"], demo_copy)["code"] == "invalid_input"
    assert refused(["memory", "forget", "colour"], demo_copy)["detail"]["reason"] == "unknown_key"
    assert refused(["memory", "forget"], demo_copy)["detail"]["reason"] == "no_key"
    assert ok(["memory", "list"], demo_copy)["preferences"] == []  # nothing was stored


def test_an_unknown_user_is_refused(demo_copy: Path) -> None:
    error = refused(["memory", "list", "--user", "nobody"], demo_copy, code=3)
    assert error["code"] == "permission_denied"
    assert not (demo_copy / "runs" / "memory.sqlite").exists()  # refused before anything was opened


def test_terminal_output_is_in_the_remembered_language(demo_copy: Path) -> None:
    proc = baton(["memory", "list"], demo_copy)
    assert proc.returncode == 0, proc.stderr
    assert "Nothing is remembered for analyst" in proc.stdout and "没有为 analyst 记住任何偏好" in proc.stdout

    proc = baton(["memory", "set", "default_breakdown", "region"], demo_copy)
    assert proc.returncode == 0, proc.stderr
    assert "region" in proc.stdout and "区域" in proc.stdout  # both languages: none remembered yet

    baton(["memory", "set", "language", "zh"], demo_copy)
    proc = baton(["memory", "list"], demo_copy)
    assert proc.returncode == 0, proc.stderr
    assert "analyst 的记忆" in proc.stdout and "默认拆分" in proc.stdout and "区域" in proc.stdout
    assert "Memory of" not in proc.stdout

    proc = baton(["memory", "set", "default_breakdown", "city"], demo_copy)
    assert proc.returncode == 1
    assert "指标目录中没有维度" in proc.stderr and "Traceback" not in proc.stderr


def test_markup_in_a_user_name_is_shown_as_typed(demo_copy: Path) -> None:
    proc = baton(["memory", "list", "--user", "[red]x[/red]"], demo_copy)
    assert proc.returncode == 3
    assert "[red]x[/red]" in proc.stderr and "Traceback" not in proc.stderr


def test_the_session_sees_what_the_command_remembered(demo_copy: Path) -> None:
    question = "Top 3 by GMV last month"
    ok(["memory", "set", "default_breakdown", "category"], demo_copy)
    with Session(load_settings(demo_copy / "baton.toml")) as session:
        answer = session.ask(question, as_of=date(2026, 7, 1))
        assert answer.status == "answered", answer.answer
        assert answer.semantic_query is not None and answer.semantic_query.dimensions == ("category",)
        assert any("baton memory forget default_breakdown" in a for a in answer.assumptions)
    ok(["memory", "forget", "default_breakdown"], demo_copy)
    with Session(load_settings(demo_copy / "baton.toml")) as session:
        assert session.ask(question, as_of=date(2026, 7, 1)).status == "clarification_needed"
