"""Build the demo warehouse folder: warehouse.duckdb, ground_truth.json, baton.toml, catalog, policies.

Every file is written to a temporary name in the target folder and moved into place with
``os.replace``; the warehouse moves last, so a crash at any point leaves either the previous
complete warehouse or none, never half of one (its presence is what "already built" means).
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import duckdb

from baton.demo.ground_truth import ground_truth_document, headline_totals
from baton.demo.scenario import load_scenario
from baton.demo.simulate import simulate
from baton.demo.tables import write_world
from baton.demo.world import AS_OF
from baton.errors import ConfigError, ToolFailure

WAREHOUSE_FILE = "warehouse.duckdb"
GROUND_TRUTH_FILE = "ground_truth.json"
CONFIG_FILE = "baton.toml"
PACKAGED_DATA_FILES = ("catalog.yaml", "policies.yaml")
MAX_SCALE = 100.0

CONFIG_TEXT = f"""# Written by `baton demo`: the demo warehouse and its catalog and policies, beside this file.
[warehouse]
url = "duckdb:///{WAREHOUSE_FILE}"

[catalog]
path = "catalog.yaml"

[policy]
path = "policies.yaml"

[defaults]
as_of = "{AS_OF.isoformat()}"
user = "analyst"
"""


@dataclass(frozen=True)
class DemoBuild:
    """Where a demo warehouse lives and what it holds."""

    path: Path
    warehouse: Path
    config: Path
    ground_truth: Path
    orders: int
    seconds: float
    scenario: str


def build_demo(
    path: Path, *, scenario: Path | None = None, seed: int = 7, scale: float = 1.0, force: bool = False
) -> DemoBuild:
    """Generate the demo warehouse into ``path`` (skipped if one exists there and not ``force``)."""
    folder = Path(path)
    warehouse = folder / WAREHOUSE_FILE
    if warehouse.exists() and not force:
        return _read_existing(folder)
    if not 0.0 < scale <= MAX_SCALE:
        raise ConfigError(
            f"Demo scale must be > 0 and <= {MAX_SCALE:g}, got {scale}",
            f"演示数据规模须大于 0 且不超过 {MAX_SCALE:g}，实际为 {scale}",
            detail={"field": "scale", "value": scale},
        )
    if seed < 0:
        raise ConfigError(
            f"Demo seed must be >= 0, got {seed}",
            f"演示数据随机种子须 >= 0，实际为 {seed}",
            detail={"field": "seed", "value": seed},
        )
    chosen = load_scenario(scenario)
    folder.mkdir(parents=True, exist_ok=True)
    _sweep_stale_temporaries(folder)

    started = time.perf_counter()
    temporaries: list[tuple[Path, Path]] = []  # (temporary, final), warehouse last
    try:
        world = simulate(chosen, seed=seed, scale=scale)
        tmp_warehouse = _temporary(warehouse)
        _drop(tmp_warehouse)  # left by a crashed run that had the same process id
        _drop(Path(f"{tmp_warehouse}.wal"))
        try:
            con = duckdb.connect(str(tmp_warehouse))
            try:
                write_world(con, world)
                totals = headline_totals(con)
                con.execute("CHECKPOINT")
            finally:
                con.close()
        except duckdb.Error as exc:
            raise ToolFailure(
                f"Writing the demo warehouse failed: {exc}",
                f"写入演示数仓失败：{exc}",
                detail={"path": str(warehouse)},
            ) from exc
        orders = int(world.orders.order_id.shape[0])
        seconds = time.perf_counter() - started
        document = ground_truth_document(chosen, seed=seed, scale=scale, totals=totals, seconds=seconds)
        document["orders"] = orders
        temporaries.append((_write_temporary(folder / GROUND_TRUTH_FILE, _json(document)), folder / GROUND_TRUTH_FILE))
        temporaries.append((_write_temporary(folder / CONFIG_FILE, CONFIG_TEXT.encode()), folder / CONFIG_FILE))
        for name in PACKAGED_DATA_FILES:
            packaged = resources.files("baton.demo").joinpath("data", name)
            if packaged.is_file():
                temporaries.append((_write_temporary(folder / name, packaged.read_bytes()), folder / name))
        temporaries.append((tmp_warehouse, warehouse))
        # Everything is on disk. Retire the old warehouse first: from here until the last move a
        # crash leaves no warehouse (so the next call rebuilds), never a new ground truth beside
        # an old warehouse. A stale log must never be replayed onto the new file either.
        _drop(warehouse)
        _drop(Path(f"{warehouse}.wal"))
        for temporary, final in temporaries:
            os.replace(temporary, final)
    except BaseException:
        for name in (GROUND_TRUTH_FILE, CONFIG_FILE, *PACKAGED_DATA_FILES, WAREHOUSE_FILE):
            _drop(_temporary(folder / name))
        _drop(Path(f"{_temporary(warehouse)}.wal"))
        raise
    return DemoBuild(
        path=folder,
        warehouse=warehouse,
        config=folder / CONFIG_FILE,
        ground_truth=folder / GROUND_TRUTH_FILE,
        orders=orders,
        seconds=seconds,
        scenario=chosen.name,
    )


def _temporary(final: Path) -> Path:
    return final.with_name(f".{final.name}.{os.getpid()}.tmp")


def _sweep_stale_temporaries(folder: Path) -> None:
    """Remove temporaries left by builds whose process no longer exists (e.g. killed)."""
    for leftover in folder.glob(".*.tmp*"):
        parts = leftover.name.split(".")
        pid_text = parts[-2] if leftover.name.endswith(".tmp") else parts[-3]
        if not pid_text.isdigit() or int(pid_text) == os.getpid() or _process_alive(int(pid_text)):
            continue
        _drop(leftover)


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _write_temporary(final: Path, data: bytes) -> Path:
    temporary = _temporary(final)
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    return temporary


def _drop(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


def _json(document: dict[str, Any]) -> bytes:
    return (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def _read_existing(folder: Path) -> DemoBuild:
    """Describe an already-built demo from its ground_truth.json."""
    truth = folder / GROUND_TRUTH_FILE
    try:
        document = json.loads(truth.read_text(encoding="utf-8"))
        orders = int(document["orders"])
        seconds = float(document.get("build_seconds", 0.0))
        name = str(document["scenario"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(
            f"{folder / WAREHOUSE_FILE} exists but {truth} is missing or unreadable; rebuild with force",
            f"{folder / WAREHOUSE_FILE} 已存在，但 {truth} 缺失或无法读取；请使用 force 重新生成",
            detail={"file": str(truth)},
        ) from exc
    return DemoBuild(
        path=folder,
        warehouse=folder / WAREHOUSE_FILE,
        config=folder / CONFIG_FILE,
        ground_truth=truth,
        orders=orders,
        seconds=seconds,
        scenario=name,
    )
