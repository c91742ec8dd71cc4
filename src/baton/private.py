"""Files only their owner may read.

Runs, traces, reports and the member cache hold query results and the questions people ask;
on a shared machine another account must not read them. Directories are created 0700 and
files 0600 whatever the umask, and a file or directory left by an older version with wider
modes is narrowed when Baton opens it again.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path
from typing import Literal, TextIO

DIR_MODE = 0o700
FILE_MODE = 0o600


def private_dir(path: Path) -> Path:
    """``path`` as a directory only its owner may enter (parents are created as usual)."""
    path.mkdir(parents=True, exist_ok=True, mode=DIR_MODE)
    _narrow(path, DIR_MODE)
    return path


def private_file(path: Path) -> Path:
    """Narrow an existing file to its owner (a no-op when it does not exist)."""
    if path.exists():
        _narrow(path, FILE_MODE)
    return path


def open_private(path: Path, mode: Literal["a", "w"] = "a") -> TextIO:
    """Open a text file for writing (``"a"`` or ``"w"``), created 0600."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    fd = os.open(path, flags, FILE_MODE)
    _narrow(path, FILE_MODE)
    return open(fd, "a" if mode == "a" else "w", encoding="utf-8")


def open_private_sqlite(path: Path) -> sqlite3.Connection:
    """A SQLite database at ``path`` only its owner may read, in WAL mode, shared by threads
    (callers hold their own lock) and autocommitting. Its files are narrowed before WAL mode
    creates -wal and -shm (SQLite gives them the database's mode) — with chmod, not open():
    closing another descriptor of the file would drop SQLite's locks."""
    private_dir(path.parent)
    con = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
    for suffix in ("", "-wal", "-shm"):
        private_file(path.with_name(path.name + suffix))
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=NORMAL")
    return con


def _narrow(path: Path, mode: int) -> None:
    """chmod when we own ``path``; someone else's folder (``/tmp``) is left as it is."""
    with contextlib.suppress(OSError):
        if path.stat().st_uid == os.getuid() and path.stat().st_mode & 0o777 != mode:
            os.chmod(path, mode)
