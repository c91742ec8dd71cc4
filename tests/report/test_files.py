"""Atomic writes: the destination is either the old file or the whole new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from baton.errors import ToolFailure
from baton.report import atomic_write_bytes, atomic_write_text


def test_replaces_whole_file_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "a" / "report.md"
    atomic_write_text(target, "第一版")
    atomic_write_text(target, "second version")
    assert target.read_text(encoding="utf-8") == "second version"
    assert [p.name for p in target.parent.iterdir()] == ["report.md"]


def test_failure_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    with pytest.raises(ToolFailure):
        atomic_write_bytes(blocker / "report.html", b"new")
    # a directory where the file should go: os.replace fails, the temp file is cleaned up
    (tmp_path / "dir.html").mkdir()
    with pytest.raises(ToolFailure):
        atomic_write_bytes(tmp_path / "dir.html", b"new")
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir.html", "not-a-dir", "report.html"]
