"""build_demo as a whole: determinism, skip-if-built, force, and that no crash leaves half a warehouse."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from baton.demo.generator import DemoBuild, build_demo
from baton.demo.scenario import packaged_scenarios
from baton.errors import ConfigError

TINY = 0.05
TABLES = ("dim_user", "dim_product", "fact_order", "fact_traffic", "meta_table_load")


def _checksums(build: DemoBuild) -> dict[str, tuple[int, int]]:
    with duckdb.connect(str(build.warehouse), read_only=True) as con:
        out: dict[str, tuple[int, int]] = {}
        for table in TABLES:
            row = con.execute(f"SELECT count(*), bit_xor(hash(t)) FROM {table} t").fetchone()
            assert row is not None
            out[table] = (int(row[0]), int(row[1]))
        return out


def _leftovers(folder: Path) -> list[str]:
    return sorted(entry.name for entry in folder.iterdir() if ".tmp" in entry.name or entry.name.endswith(".wal"))


def test_same_seed_same_tables(tmp_path: Path) -> None:
    first = build_demo(tmp_path / "a", seed=11, scale=TINY)
    second = build_demo(tmp_path / "b", seed=11, scale=TINY)
    other_seed = build_demo(tmp_path / "c", seed=12, scale=TINY)
    assert _checksums(first) == _checksums(second)
    assert _checksums(first)["fact_order"] != _checksums(other_seed)["fact_order"]
    assert _checksums(first)["dim_product"] != _checksums(other_seed)["dim_product"]
    truth = [json.loads(b.ground_truth.read_text(encoding="utf-8")) for b in (first, second)]
    assert truth[0]["totals"] == truth[1]["totals"]


def test_scale_multiplies_orders_users_and_visitors(tmp_path: Path) -> None:
    small = build_demo(tmp_path / "small", scale=TINY)
    double = build_demo(tmp_path / "double", scale=2 * TINY)
    assert double.orders / small.orders == pytest.approx(2.0, rel=0.05)
    sizes = [_checksums(b) for b in (small, double)]
    assert sizes[1]["dim_user"][0] / sizes[0]["dim_user"][0] == pytest.approx(2.0, rel=0.05)
    assert sizes[1]["fact_traffic"][0] == sizes[0]["fact_traffic"][0]  # one row per cell at any scale
    assert sizes[1]["dim_product"][0] == sizes[0]["dim_product"][0]


def test_existing_build_is_reused_unless_forced(tmp_path: Path) -> None:
    built = build_demo(tmp_path, scale=TINY, seed=3)
    stamp = built.warehouse.stat().st_mtime_ns
    again = build_demo(tmp_path, scale=0.5, seed=99)  # different arguments, yet nothing is rebuilt
    assert again.orders == built.orders
    assert again.scenario == built.scenario == "default"
    assert built.warehouse.stat().st_mtime_ns == stamp
    forced = build_demo(tmp_path, scale=TINY, seed=99, scenario=packaged_scenarios()["null"], force=True)
    assert forced.scenario == "null"
    assert json.loads(forced.ground_truth.read_text(encoding="utf-8"))["seed"] == 99
    assert forced.orders != built.orders
    assert _leftovers(tmp_path) == []


def test_existing_warehouse_without_ground_truth_is_refused(tmp_path: Path) -> None:
    build_demo(tmp_path, scale=TINY)
    (tmp_path / "ground_truth.json").unlink()
    with pytest.raises(ConfigError, match="force"):
        build_demo(tmp_path)


@pytest.mark.parametrize(("scale", "seed"), [(0.0, 7), (-1.0, 7), (1000.0, 7), (1.0, -3)])
def test_bad_arguments(tmp_path: Path, scale: float, seed: int) -> None:
    with pytest.raises(ConfigError):
        build_demo(tmp_path, scale=scale, seed=seed)
    assert not (tmp_path / "warehouse.duckdb").exists()


def test_failure_while_writing_keeps_the_old_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = build_demo(tmp_path, scale=TINY, seed=1)
    before = {name: (tmp_path / name).read_bytes() for name in ("warehouse.duckdb", "ground_truth.json")}

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        build_demo(tmp_path, scale=TINY, seed=2, force=True)
    monkeypatch.undo()
    assert {name: (tmp_path / name).read_bytes() for name in before} == before
    assert _leftovers(tmp_path) == []
    assert build_demo(tmp_path).orders == old.orders


def test_failure_while_moving_leaves_no_warehouse_then_rebuilds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build_demo(tmp_path, scale=TINY, seed=1)
    real_replace = os.replace

    def failing_replace(source: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
        if Path(target).name == "warehouse.duckdb":
            raise OSError(5, "I/O error")
        real_replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(OSError, match="I/O error"):
        build_demo(tmp_path, scale=TINY, seed=2, force=True)
    monkeypatch.undo()
    assert not (tmp_path / "warehouse.duckdb").exists()  # never an old warehouse beside a new ground truth
    assert _leftovers(tmp_path) == []
    rebuilt = build_demo(tmp_path, scale=TINY, seed=2)
    assert rebuilt.orders == json.loads(rebuilt.ground_truth.read_text(encoding="utf-8"))["orders"]


def _kill_mid_build(folder: Path, *, force: bool) -> None:
    """Start a scale-1 build in a child process and SIGKILL it while it writes the warehouse."""
    code = (
        "import sys; from pathlib import Path; from baton.demo.generator import build_demo; "
        f"build_demo(Path(sys.argv[1]), scale=1.0, force={force})"
    )
    child = subprocess.Popen([sys.executable, "-c", code, str(folder)])
    try:
        deadline = time.monotonic() + 60
        while not list(folder.glob(".warehouse.duckdb.*.tmp")):
            assert child.poll() is None, "the build finished before it could be interrupted"
            assert time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(0.2)
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()


def test_killed_fresh_build_leaves_no_warehouse(tmp_path: Path) -> None:
    _kill_mid_build(tmp_path, force=False)
    assert not (tmp_path / "warehouse.duckdb").exists()
    assert _leftovers(tmp_path) != []  # the dead build's temporary is still there ...
    build = build_demo(tmp_path, scale=TINY)
    assert _leftovers(tmp_path) == []  # ... until the next build sweeps it
    assert build.orders > 0


def test_killed_rebuild_keeps_the_old_warehouse(tmp_path: Path) -> None:
    old = build_demo(tmp_path, scale=TINY)
    _kill_mid_build(tmp_path, force=True)
    with duckdb.connect(str(old.warehouse), read_only=True) as con:
        row = con.execute("SELECT count(*) FROM fact_order").fetchone()
    assert row is not None and row[0] == old.orders
    assert json.loads(old.ground_truth.read_text(encoding="utf-8"))["orders"] == old.orders
