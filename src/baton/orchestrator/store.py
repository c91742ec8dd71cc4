"""The run store: durable run state plus an index of trace events.

SQLite by default, in the runs directory beside the config; the `RunStore` protocol is
what a PostgreSQL store would implement when several server processes share runs. Every
write is one transaction, so a run killed with SIGKILL leaves its last committed state.
"""

from __future__ import annotations

import builtins
import contextlib
import threading
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from baton.contracts.conversation import ConversationSummary
from baton.contracts.run import RunState, RunSummary
from baton.contracts.trace import TraceEvent
from baton.errors import NotFound
from baton.messages import both
from baton.private import open_private_sqlite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY, kind TEXT NOT NULL, status TEXT NOT NULL, step TEXT NOT NULL,
    question TEXT NOT NULL, user TEXT NOT NULL, started_at TEXT NOT NULL, finished_at TEXT,
    state TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_started ON runs (started_at);
CREATE TABLE IF NOT EXISTS events (
    run_id TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, ts TEXT NOT NULL, actor TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
CREATE TABLE IF NOT EXISTS packets (
    run_id TEXT NOT NULL, ref TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (run_id, ref)
);
CREATE TABLE IF NOT EXISTS statements (
    run_id TEXT NOT NULL, user TEXT NOT NULL, ts TEXT NOT NULL, approved_sql_id TEXT NOT NULL, tables TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS statements_user_ts ON statements (user, ts);
CREATE TABLE IF NOT EXISTS conversations (
    conversation_id TEXT PRIMARY KEY, user TEXT NOT NULL, started_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS conversation_runs (
    conversation_id TEXT NOT NULL, seq INTEGER NOT NULL, run_id TEXT NOT NULL, PRIMARY KEY (conversation_id, seq)
);
"""


class RunStore(Protocol):
    def save(self, state: RunState, events: Sequence[TraceEvent] = ()) -> None: ...
    def load(self, run_id: str) -> RunState: ...
    def list(self, *, status: str | None = None, user: str | None = None, limit: int = 100) -> list[RunSummary]: ...
    def index_event(self, event: TraceEvent) -> None: ...
    def index_events(self, events: Sequence[TraceEvent]) -> None: ...
    def put_packet(self, run_id: str, ref: str, body: str) -> None: ...
    def get_packet(self, run_id: str, ref: str) -> str | None: ...
    def log_statement(self, run_id: str, user: str, approved_sql_id: str, tables: Sequence[str]) -> None: ...
    def count_statements(self, user: str, tables: Sequence[str], since: datetime) -> int: ...
    def start_conversation(self, conversation_id: str, user: str) -> None: ...
    def conversation(self, conversation_id: str) -> ConversationSummary | None: ...
    def add_turn(self, conversation_id: str, run_id: str) -> None: ...
    def conversations(self, *, user: str | None = None, limit: int = 50) -> builtins.list[ConversationSummary]: ...


class SqliteRunStore:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._con = open_private_sqlite(path)
        self._con.executescript(_SCHEMA)

    def close(self) -> None:
        self._con.close()

    def save(self, state: RunState, events: Sequence[TraceEvent] = ()) -> None:
        """The run's state, with the trace events emitted since the last save, in one transaction."""
        with self._lock, self._transaction():
            self._index(events)
            self._con.execute(
                "INSERT INTO runs (run_id, kind, status, step, question, user, started_at, finished_at, state) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET status = excluded.status, "
                "step = excluded.step, finished_at = excluded.finished_at, state = excluded.state",
                (
                    state.run_id,
                    state.kind,
                    state.status,
                    state.step,
                    state.question[:500],
                    state.user,
                    state.started_at.isoformat(),
                    state.finished_at.isoformat() if state.finished_at else None,
                    state.model_dump_json(),
                ),
            )

    def load(self, run_id: str) -> RunState:
        with self._lock:
            row = self._con.execute("SELECT state FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            raise NotFound(
                *both("runs.no_run", run_id=run_id, path=self.path),
                detail={"run_id": run_id},
            )
        return RunState.model_validate_json(row[0])

    def list(self, *, status: str | None = None, user: str | None = None, limit: int = 100) -> list[RunSummary]:
        sql = "SELECT run_id, status, question, user, started_at, finished_at, step FROM runs"
        where, args = [], []
        if status:
            where.append("status = ?")
            args.append(status)
        if user:
            where.append("user = ?")
            args.append(user)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY started_at DESC, rowid DESC LIMIT ?"
        with self._lock:
            rows = self._con.execute(sql, (*args, limit)).fetchall()
        return [
            RunSummary(run_id=r[0], status=r[1], question=r[2], user=r[3], started_at=r[4], finished_at=r[5], step=r[6])
            for r in rows
        ]

    def kinds(self, run_ids: Sequence[str]) -> dict[str, str]:
        """run id -> its kind (ask, analyze, …), for the runs given that exist."""
        if not run_ids:
            return {}
        marks = ", ".join("?" for _ in run_ids)
        with self._lock:
            rows = self._con.execute(f"SELECT run_id, kind FROM runs WHERE run_id IN ({marks})", tuple(run_ids))
            return {str(r[0]): str(r[1]) for r in rows.fetchall()}

    def index_event(self, event: TraceEvent) -> None:
        self.index_events([event])

    def index_events(self, events: Sequence[TraceEvent]) -> None:
        with self._lock, self._transaction():
            self._index(events)

    def _index(self, events: Sequence[TraceEvent]) -> None:
        self._con.executemany(
            "INSERT OR REPLACE INTO events (run_id, seq, type, ts, actor) VALUES (?, ?, ?, ?, ?)",
            [(e.run_id, e.seq, e.type, e.ts.isoformat(), e.actor) for e in events],
        )

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """One commit for several writes (the connection autocommits; the caller holds the lock)."""
        self._con.execute("BEGIN")
        try:
            yield
        except BaseException:
            self._con.execute("ROLLBACK")
            raise
        self._con.execute("COMMIT")

    def put_packet(self, run_id: str, ref: str, body: str) -> None:
        with self._lock:
            self._con.execute(
                "INSERT OR REPLACE INTO packets (run_id, ref, body) VALUES (?, ?, ?)", (run_id, ref, body)
            )

    def get_packet(self, run_id: str, ref: str) -> str | None:
        with self._lock:
            row = self._con.execute("SELECT body FROM packets WHERE run_id = ? AND ref = ?", (run_id, ref)).fetchone()
        return None if row is None else str(row[0])

    def log_statement(self, run_id: str, user: str, approved_sql_id: str, tables: Sequence[str]) -> None:
        """One executed statement, for per-user query budgets (the run keeps the full record)."""
        with self._lock:
            self._con.execute(
                "INSERT INTO statements (run_id, user, ts, approved_sql_id, tables) VALUES (?, ?, ?, ?, ?)",
                (run_id, user, datetime.now(UTC).isoformat(), approved_sql_id, "," + ",".join(tables) + ","),
            )

    def count_statements(self, user: str, tables: Sequence[str], since: datetime) -> int:
        """Statements ``user`` executed since ``since`` that read any of ``tables``."""
        if not tables:
            return 0
        reads = " OR ".join("instr(tables, ?) > 0" for _ in tables)
        with self._lock:
            row = self._con.execute(
                f"SELECT count(*) FROM statements WHERE user = ? AND ts >= ? AND ({reads})",
                (user, since.astimezone(UTC).isoformat(), *(f",{t}," for t in tables)),
            ).fetchone()
        return int(row[0]) if row else 0

    # -- conversations ---------------------------------------------------------------------
    def start_conversation(self, conversation_id: str, user: str) -> None:
        with self._lock:
            self._con.execute(
                "INSERT OR IGNORE INTO conversations (conversation_id, user, started_at) VALUES (?, ?, ?)",
                (conversation_id, user, datetime.now(UTC).isoformat()),
            )

    def conversation(self, conversation_id: str) -> ConversationSummary | None:
        with self._lock:
            row = self._con.execute(
                "SELECT conversation_id, user, started_at FROM conversations WHERE conversation_id = ?",
                (conversation_id,),
            ).fetchone()
            if row is None:
                return None
            runs = self._con.execute(
                "SELECT run_id FROM conversation_runs WHERE conversation_id = ? ORDER BY seq", (conversation_id,)
            ).fetchall()
        return ConversationSummary(conversation_id=row[0], user=row[1], started_at=row[2], turns=[r[0] for r in runs])

    def add_turn(self, conversation_id: str, run_id: str) -> None:
        """Append a run to a conversation (one transaction: the next sequence number)."""
        with self._lock:
            self._con.execute(
                "INSERT INTO conversation_runs (conversation_id, seq, run_id) SELECT ?, COALESCE(MAX(seq), 0) + 1, ? "
                "FROM conversation_runs WHERE conversation_id = ?",
                (conversation_id, run_id, conversation_id),
            )

    def conversations(self, *, user: str | None = None, limit: int = 50) -> builtins.list[ConversationSummary]:
        sql = "SELECT conversation_id FROM conversations"
        args: builtins.list[object] = []
        if user:
            sql += " WHERE user = ?"
            args.append(user)
        sql += " ORDER BY started_at DESC, rowid DESC LIMIT ?"
        with self._lock:
            ids = [r[0] for r in self._con.execute(sql, (*args, limit)).fetchall()]
        return [c for c in (self.conversation(i) for i in ids) if c is not None]
