"""Where exports are recorded: ``exports.sqlite`` beside the run store, in the same style.

One row per export (its ``export_id`` is the id of its run of kind ``export``): the owner,
the idempotency key, the exported run and format, and a status that only moves forward —
``pending`` (the preview is running) → ``previewed`` → ``writing`` → ``approved``. A refused or
failed preview deletes its row (the refusal stays in its run), so its key may be used again.
``status_at`` says when the status was set: a ``pending`` or ``writing`` one long past died with
its process and is recovered by the next request (:meth:`ExportStore.recover_stale`).
A key is unique per user (a partial unique index), so two requests racing with one key make
one export: the second insert fails and that request returns the first one's export.
Every write is one transaction (autocommit); a status change is a compare-and-set.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Literal

from baton.contracts.export import ExportFormat
from baton.private import open_private_sqlite

Status = Literal["pending", "previewed", "writing", "approved"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS exports (
    export_id TEXT PRIMARY KEY, user TEXT NOT NULL, idempotency_key TEXT, source_run_id TEXT NOT NULL,
    format TEXT NOT NULL, status TEXT NOT NULL, detail_rows INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL, expires_at TEXT, approved_at TEXT,
    filename TEXT, sha256 TEXT, rows INTEGER, bytes INTEGER, status_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS exports_user_key ON exports (user, idempotency_key)
    WHERE idempotency_key IS NOT NULL;
"""
_COLUMNS = (
    "export_id, user, idempotency_key, source_run_id, format, status, detail_rows, created_at, expires_at, "
    "approved_at, filename, sha256, rows, bytes"
)


@dataclass(frozen=True)
class ExportRecord:
    export_id: str
    user: str
    idempotency_key: str | None
    source_run_id: str
    format: ExportFormat
    status: Status
    detail_rows: bool
    created_at: datetime
    expires_at: datetime | None
    approved_at: datetime | None
    filename: str | None
    sha256: str | None
    rows: int | None
    bytes: int | None


def _now() -> str:
    return datetime.now(UTC).isoformat()


def _when(raw: str | None) -> datetime | None:
    return datetime.fromisoformat(raw) if raw else None


def _record(row: tuple[object, ...]) -> ExportRecord:
    (export_id, user, key, source, fmt, status, detail, created, expires, approved, name, sha, rows, size) = row
    return ExportRecord(
        export_id=str(export_id),
        user=str(user),
        idempotency_key=None if key is None else str(key),
        source_run_id=str(source),
        format=str(fmt),  # type: ignore[arg-type]
        status=str(status),  # type: ignore[arg-type]
        detail_rows=bool(detail),
        created_at=datetime.fromisoformat(str(created)),
        expires_at=_when(expires if isinstance(expires, str) else None),
        approved_at=_when(approved if isinstance(approved, str) else None),
        filename=None if name is None else str(name),
        sha256=None if sha is None else str(sha),
        rows=None if rows is None else int(str(rows)),
        bytes=None if size is None else int(str(size)),
    )


class ExportStore:
    """The exports table of one runs folder (open, use, close: ``with ExportStore(dir) as s``)."""

    def __init__(self, runs_dir: Path) -> None:
        self._lock = threading.Lock()
        self._con = open_private_sqlite(runs_dir / "exports.sqlite")
        self._con.executescript(_SCHEMA)
        known = {str(row[1]) for row in self._con.execute("PRAGMA table_info(exports)")}
        if "status_at" not in known:  # a store from before status_at: a status without a time is old
            with contextlib.suppress(sqlite3.OperationalError):  # another process added it first
                self._con.execute("ALTER TABLE exports ADD COLUMN status_at TEXT")

    def close(self) -> None:
        self._con.close()

    def __enter__(self) -> ExportStore:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def get(self, export_id: str) -> ExportRecord | None:
        with self._lock:
            row = self._con.execute(f"SELECT {_COLUMNS} FROM exports WHERE export_id = ?", (export_id,)).fetchone()
        return None if row is None else _record(row)

    def by_key(self, user: str, key: str) -> ExportRecord | None:
        with self._lock:
            row = self._con.execute(
                f"SELECT {_COLUMNS} FROM exports WHERE user = ? AND idempotency_key = ?", (user, key)
            ).fetchone()
        return None if row is None else _record(row)

    def reserve(
        self, export_id: str, user: str, key: str | None, source_run_id: str, fmt: ExportFormat, now: datetime
    ) -> bool:
        """Claim ``key`` for a new export; False when another export of ``user`` holds it."""
        try:
            with self._lock:
                self._con.execute(
                    "INSERT INTO exports (export_id, user, idempotency_key, source_run_id, format, status, created_at, "
                    "status_at) VALUES (?, ?, ?, ?, ?, 'pending', ?, ?)",
                    (export_id, user, key, source_run_id, fmt, now.isoformat(), now.isoformat()),
                )
        except sqlite3.IntegrityError:
            return False
        return True

    def release(self, export_id: str) -> None:
        """Forget a preview that was refused or failed (its run keeps the refusal)."""
        with self._lock:
            self._con.execute("DELETE FROM exports WHERE export_id = ? AND status = 'pending'", (export_id,))

    def previewed(self, export_id: str, *, detail_rows: bool, created_at: datetime, expires_at: datetime) -> None:
        with self._lock:
            self._con.execute(
                "UPDATE exports SET status = 'previewed', detail_rows = ?, created_at = ?, expires_at = ?, "
                "status_at = ? WHERE export_id = ? AND status = 'pending'",
                (int(detail_rows), created_at.isoformat(), expires_at.isoformat(), _now(), export_id),
            )

    def move(self, export_id: str, old: Status, new: Status) -> bool:
        """Compare-and-set of the status; False when another request moved it first."""
        with self._lock:
            cursor = self._con.execute(
                "UPDATE exports SET status = ?, status_at = ? WHERE export_id = ? AND status = ?",
                (new, _now(), export_id, old),
            )
        return cursor.rowcount == 1

    def recover_stale(self, export_id: str, before: datetime) -> ExportRecord | None:
        """The export, once a status its process died in is undone: a preview still ``pending``, or
        a file still ``writing``, since before ``before`` (a live one ends far sooner). The dead
        preview is forgotten (``None``; its key is free again); the dead write goes back to
        ``previewed`` (the file is written atomically, so no half file is left to serve)."""
        cutoff = before.isoformat()
        with self._lock:
            stale = "export_id = ? AND COALESCE(status_at, created_at) < ?"
            self._con.execute(f"DELETE FROM exports WHERE status = 'pending' AND {stale}", (export_id, cutoff))
            self._con.execute(
                f"UPDATE exports SET status = 'previewed', status_at = ? WHERE status = 'writing' AND {stale}",
                (_now(), export_id, cutoff),
            )
        return self.get(export_id)

    def approved(
        self, export_id: str, *, filename: str, sha256: str, rows: int, size: int, approved_at: datetime
    ) -> None:
        with self._lock:
            self._con.execute(
                "UPDATE exports SET status = 'approved', filename = ?, sha256 = ?, rows = ?, bytes = ?, "
                "approved_at = ?, status_at = ? WHERE export_id = ? AND status = 'writing'",
                (filename, sha256, rows, size, approved_at.isoformat(), approved_at.isoformat(), export_id),
            )

    def set_expiry(self, export_id: str, expires_at: datetime) -> None:
        """Move a preview's deadline (an operator's tool; the tests' clock)."""
        with self._lock:
            self._con.execute(
                "UPDATE exports SET expires_at = ? WHERE export_id = ?", (expires_at.isoformat(), export_id)
            )
