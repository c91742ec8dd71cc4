"""What the audit, export and error-hygiene red-team tests share: a private copy of the demo
(its own runs folder), the real ``baton`` console script, and the run's trace as written."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

BATON = [sys.executable, "-m", "baton"]


def private_copy(source: Path, target: Path) -> Path:
    """The demo's config, catalog and policy in ``target`` (runs kept there); the DuckDB file is
    read-only for Baton, so a link to it is enough."""
    shutil.copytree(source, target, ignore=shutil.ignore_patterns("runs", "warehouse.duckdb*"))
    warehouse = source / "warehouse.duckdb"
    if warehouse.exists():
        (target / "warehouse.duckdb").symlink_to(warehouse)
    return target


def baton(args: list[str], config: Path, *, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The real console script on ``config`` (a folder holding baton.toml)."""
    env = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    env.pop("BATON_DEBUG", None)
    return subprocess.run(
        [*BATON, *args, "--config", str(config / "baton.toml")],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
        cwd=cwd,
        env=env,
        check=False,
    )


def trace_events(config: Path, run_id: str) -> list[dict[str, Any]]:
    """The run's trace.jsonl, event by event."""
    path = config / "runs" / run_id / "trace.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run_ids(config: Path) -> set[str]:
    """The runs stored under the copy's runs folder."""
    folder = config / "runs"
    return {p.name for p in folder.iterdir() if p.is_dir() and p.name.startswith("run_")} if folder.exists() else set()
