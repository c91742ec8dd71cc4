"""Append-only JSONL trace per run: one line per event, flushed as it happens.

A run that dies halfway still leaves every event up to the crash on disk.
"""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from baton.contracts.trace import EventType, TraceEvent
from baton.private import open_private, private_dir


def args_hash(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode()
    return "sha256:" + hashlib.sha256(blob).hexdigest()[:16]


class TraceWriter:
    """Appends one run's events to its ``trace.jsonl``; a resumed run continues the numbering.

    The file stays open for the run and is flushed after every event (a crash loses nothing
    that was emitted); :meth:`close` releases it."""

    def __init__(self, run_id: str, directory: Path | None) -> None:
        self.run_id = run_id
        self.path = directory / run_id / "trace.jsonl" if directory is not None else None
        self.events: list[TraceEvent] = []
        self._lock = threading.Lock()
        self._file: TextIO | None = None
        self._first_seq = 1
        if self.path is not None:
            private_dir(self.path.parent.parent)
            private_dir(self.path.parent)
            if self.path.exists():  # resumed: earlier events keep their numbers
                with self.path.open(encoding="utf-8") as fh:
                    self._first_seq += sum(1 for line in fh if line.strip())

    def close(self) -> None:
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def emit(self, type_: EventType, actor: str = "baton", **payload: Any) -> TraceEvent:
        with self._lock:
            seq = self._first_seq + len(self.events)
            event = TraceEvent(
                event_id=f"{self.run_id}:{seq:04d}",
                run_id=self.run_id,
                seq=seq,
                ts=datetime.now(UTC),
                type=type_,
                actor=actor,
                payload=payload,
            )
            self.events.append(event)
            if self.path is not None:
                if self._file is None:
                    self._file = open_private(self.path, "a")
                self._file.write(event.model_dump_json() + "\n")
                self._file.flush()
        return event


def read_trace(path: Path) -> list[TraceEvent]:
    return [TraceEvent.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
