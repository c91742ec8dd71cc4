"""The compiled-pattern cache changes speed only: a pattern read back from the file matches what
``re.compile`` would, and a missing, damaged or unwritable cache still compiles."""

from __future__ import annotations

import marshal
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

SAMPLES = (
    "上个月各渠道的GMV是多少？",
    "What was GMV by region last month excluding live stream?",
    "2025年3月到5月每周的订单量，环比增长了多少",
    "top 3 categories by refund rate in Q2 vs Q1",
    "联系人 13812345678 邮箱 a.b@example.com 身份证 110101199003071234",
    "去年同期 二〇二五年 三月十五日 周三 W25 5/1-5/31",
    "",
)

_READER = """
import json, sys
from baton import patterns
import baton.nlu.parser, baton.nlu.timeexpr, baton.policy.output_gate
print(patterns.cache_file())
"""


def _entries(path: Path) -> dict[tuple[str, int], Any]:
    """The file's entries, past its digest."""
    entries: dict[tuple[str, int], Any] = marshal.loads(path.read_bytes()[16:])
    return entries


def _run(env_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BATON_CACHE_DIR": str(env_dir)}
    return subprocess.run([sys.executable, "-c", _READER], env=env, capture_output=True, text=True, check=True)


def test_a_second_process_reads_the_patterns_the_first_one_wrote(tmp_path: Path) -> None:
    first = _run(tmp_path)
    path = Path(first.stdout.strip())
    assert path.parent == tmp_path and path.is_file()
    entries = _entries(path)
    assert len(entries) > 300  # the question reader's fixed patterns
    stamp = path.stat().st_mtime_ns
    _run(tmp_path)
    assert path.stat().st_mtime_ns == stamp  # nothing new: the file is not written again


def test_every_cached_pattern_matches_as_re_compile_does(tmp_path: Path) -> None:
    from baton import patterns

    path = Path(_run(tmp_path).stdout.strip())
    entries = _entries(path)
    for (source, flags), entry in entries.items():
        cached = patterns._build(source, entry)
        plain = re.compile(source, flags)
        assert (cached.pattern, cached.flags, cached.groups, cached.groupindex) == (
            plain.pattern,
            plain.flags,
            plain.groups,
            plain.groupindex,
        )
        for text in SAMPLES:
            mine = [(m.span(), m.groups()) for m in cached.finditer(text)]
            theirs = [(m.span(), m.groups()) for m in plain.finditer(text)]
            assert mine == theirs, source


@pytest.mark.parametrize("damage", [b"", b"not marshal at all", marshal.dumps([1, 2, 3])])
def test_a_damaged_cache_file_is_ignored_and_rewritten(tmp_path: Path, damage: bytes) -> None:
    path = Path(_run(tmp_path).stdout.strip())
    path.write_bytes(damage)
    _run(tmp_path)
    assert len(_entries(path)) > 300


def test_an_altered_cache_file_is_not_trusted(tmp_path: Path) -> None:
    """One opcode changed in the file: its digest no longer holds, so no entry of it is used and
    the file is written afresh."""
    path = Path(_run(tmp_path).stdout.strip())
    raw = bytearray(path.read_bytes())
    raw[len(raw) // 2] ^= 0x01
    path.write_bytes(bytes(raw))
    _run(tmp_path)
    fresh = path.read_bytes()
    assert fresh != bytes(raw)
    assert len(_entries(path)) > 300


def test_an_unwritable_cache_folder_still_compiles(tmp_path: Path) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    result = _run(blocker / "cache")  # its parent is a file: the folder cannot be made
    assert result.returncode == 0
    assert not (blocker / "cache").exists()


def test_a_wrong_entry_is_dropped_and_compiled_again(monkeypatch: pytest.MonkeyPatch) -> None:
    from baton import patterns

    store = patterns._Store()
    store.entries = {("(?P<n>a)b", 0): (0, b"\x00\x01", 0, {}, ())}  # an opcode list _sre refuses
    monkeypatch.setattr(patterns, "_store", store)
    compiled = patterns.compile("(?P<n>a)b")
    assert compiled.groupindex == {"n": 1} and compiled.search("xab") is not None
    assert store.entries[("(?P<n>a)b", 0)] == patterns._compiled_parts("(?P<n>a)b", 0)
