"""Writing report files atomically: a reader never sees half a report.

Each file is written to a temporary file in the destination folder, flushed to disk, then
moved over the destination with :func:`os.replace` (atomic on one file system).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from baton.errors import ToolFailure
from baton.messages import both
from baton.private import FILE_MODE


def atomic_write_bytes(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically (temp file + ``os.replace``); the path written."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise ToolFailure(*both("report.cannot_write", path=path, error=exc)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, FILE_MODE)  # a report holds query results: its owner's only
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ToolFailure(*both("report.cannot_write", path=path, error=exc)) from exc
    return path


def atomic_write_text(path: Path, text: str) -> Path:
    return atomic_write_bytes(path, text.encode("utf-8"))


def write_chart_png(spec: dict[str, Any], path: Path, scale: float = 2.0) -> Path:
    """Render ``spec`` offline (CJK font included) and write it as a PNG, atomically."""
    from baton.charts.render import render_png  # the renderer loads only when a PNG is drawn

    return atomic_write_bytes(path, render_png(spec, scale=scale))
