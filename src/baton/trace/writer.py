"""Append-only JSONL trace per run: one line per event, flushed as it happens.

A run that dies halfway still leaves every event up to the crash on disk.
"""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from baton.contracts.trace import EventType, TraceEvent


def args_hash(value: Any) -> str:
    blob = json.dumps(value, sort_keys=True, default=str, ensure_ascii=False).encode()
    return "sha256:" + hashlib.sha256(blob).hexdigest()[:16]


class TraceWriter:
    def __init__(self, run_id: str, directory: Path | None) -> None:
        self.run_id = run_id
        self.path = directory / run_id / "trace.jsonl" if directory is not None else None
        self.events: list[TraceEvent] = []
        self._lock = threading.Lock()
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)

    def emit(self, type_: EventType, actor: str = "baton", **payload: Any) -> TraceEvent:
        with self._lock:
            seq = len(self.events) + 1
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
                with self.path.open("a", encoding="utf-8") as fh:
                    fh.write(event.model_dump_json() + "\n")
        return event


def read_trace(path: Path) -> list[TraceEvent]:
    return [TraceEvent.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
