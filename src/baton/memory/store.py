"""Where preferences are kept: ``memory.sqlite`` in the runs directory, readable by its owner only.

Three tables: the preferences (one row per user and key: the value as JSON, where it came from,
the evidence and when), a per-user on/off flag, and a small log of the breakdowns a user's
questions chose (catalog dimension names only, the last few per user: what repeated choices are
learned from). Nothing else is written — no question text, no result rows, no member values.

Each call commits one transaction, so a CLI command, a server and a notebook on the same runs
directory see each other's changes. The store keeps one connection (opened on first use, shared
by threads under a lock): closing the last connection to a WAL database checkpoints and removes
its log, which cost a millisecond per question when every call had a connection of its own.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from baton.contracts.memory import PREFERENCE_KEYS, MemoryState, Preference, PreferenceKey
from baton.errors import InvalidInput, ToolFailure
from baton.messages import both
from baton.private import open_private, private_dir, private_file

if TYPE_CHECKING:
    from baton.catalog.model import Catalog
    from baton.contracts.semantic import SemanticQuery

FILE_NAME = "memory.sqlite"
WINDOW = 5
"""How many of a user's latest questions with a breakdown repeated choices are counted over."""
REPEATS = 3
"""How many of them must choose the same single dimension for it to become the default."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS preferences (
    user TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, source TEXT NOT NULL,
    evidence TEXT NOT NULL, learned_at TEXT NOT NULL, PRIMARY KEY (user, key)
);
CREATE TABLE IF NOT EXISTS switches (user TEXT PRIMARY KEY, enabled INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS choices (
    id INTEGER PRIMARY KEY AUTOINCREMENT, user TEXT NOT NULL, ts TEXT NOT NULL, dimensions TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS choices_user ON choices (user, id);
"""


def check_key(key: str) -> PreferenceKey:
    """``key`` as a preference key, or InvalidInput naming the keys there are."""
    if key not in PREFERENCE_KEYS:
        raise InvalidInput(
            *both("memory.unknown_key", key=key, keys=", ".join(PREFERENCE_KEYS)),
            detail={"reason": "unknown_key", "key": key, "keys": list(PREFERENCE_KEYS)},
        )
    return key


def check_value(preference: Preference, catalog: Catalog) -> Preference:
    """``preference`` when every name it holds is in ``catalog`` (codes are checked by the
    contract); otherwise the typed error naming what the catalog has."""
    from baton.errors import UnknownMetric

    if preference.key == "default_breakdown":
        dim = preference.values[0]
        if dim not in catalog.dimensions:
            known = ", ".join(catalog.dimensions)
            raise InvalidInput(
                *both("memory.unknown_dimension", value=dim, known=known),
                detail={"reason": "unknown_dimension", "key": preference.key, "value": dim},
            )
    elif preference.key == "favourite_metrics":
        for name in preference.values:
            if name not in catalog.metrics:
                raise UnknownMetric(
                    *both("memory.unknown_metric", value=name, known=", ".join(catalog.metrics)),
                    detail={"reason": "unknown_metric", "key": preference.key, "value": name},
                )
    return preference


def _check_user(user: str) -> str:
    if not user.strip() or len(user) > 200:
        raise InvalidInput(*both("memory.bad_user"), detail={"reason": "bad_user"})
    return user


class MemoryStore:
    """The preferences of every user of one runs directory (a SQLite file, 0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._con: sqlite3.Connection | None = None
        private_dir(path.parent)
        if not path.exists():
            open_private(path, "a").close()  # created 0600 before SQLite writes to it
        for suffix in ("", "-journal", "-wal", "-shm"):
            private_file(path.with_name(path.name + suffix))
        try:
            with contextlib.closing(sqlite3.connect(str(path), timeout=30)) as con:
                con.execute("PRAGMA journal_mode=WAL")  # kept by the file: a commit is no longer a sync of the file
                con.executescript(_SCHEMA)  # its own transaction
        except sqlite3.Error as exc:
            raise self._failure(exc) from exc

    def close(self) -> None:
        with self._lock:
            if self._con is not None:
                self._con.close()
                self._con = None

    def _connection(self) -> sqlite3.Connection:
        if self._con is None:
            con = sqlite3.connect(str(self.path), timeout=30, isolation_level=None, check_same_thread=False)
            con.execute("PRAGMA synchronous=NORMAL")  # as the run store: durable at checkpoints, never corrupt
            self._con = con
        return self._con

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction on the store's connection (one at a time)."""
        with self._lock:
            try:
                con = self._connection()
                con.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise self._failure(exc) from exc
            try:
                yield con
                con.execute("COMMIT")
            except sqlite3.Error as exc:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise self._failure(exc) from exc
            except BaseException:
                if con.in_transaction:
                    con.execute("ROLLBACK")
                raise

    def _failure(self, exc: sqlite3.Error) -> ToolFailure:
        return ToolFailure(
            *both("memory.store_failed", path=self.path, error=type(exc).__name__),
            detail={"path": str(self.path)},
            internal={"error": str(exc)},
        )

    # -- reading ---------------------------------------------------------------------------------
    def state(self, user: str) -> MemoryState:
        """What is remembered for ``user`` (in key order) and whether memory is on."""
        with self._tx() as con:
            enabled = self._enabled(con, user)
            rows = con.execute(
                "SELECT key, value, source, evidence, learned_at FROM preferences WHERE user = ?", (user,)
            ).fetchall()
        prefs = [
            Preference(key=r[0], value=json.loads(r[1]), source=r[2], evidence=r[3], learned_at=r[4]) for r in rows
        ]
        prefs.sort(key=lambda p: PREFERENCE_KEYS.index(p.key))
        return MemoryState(user=user, enabled=enabled, preferences=prefs)

    def enabled(self, user: str) -> bool:
        with self._tx() as con:
            return self._enabled(con, user)

    @staticmethod
    def _enabled(con: sqlite3.Connection, user: str) -> bool:
        row = con.execute("SELECT enabled FROM switches WHERE user = ?", (user,)).fetchone()
        return True if row is None else bool(row[0])

    # -- writing ---------------------------------------------------------------------------------
    def remember(self, user: str, pref: Preference, *, catalog: Catalog | None = None) -> Preference:
        """Keep ``pref`` for ``user`` (replacing what ``key`` held); with ``catalog``, its names
        are checked against it first."""
        _check_user(user)
        if catalog is not None:
            check_value(pref, catalog)
        with self._tx() as con:
            self._put(con, user, pref)
        return pref

    @staticmethod
    def _put(con: sqlite3.Connection, user: str, pref: Preference) -> None:
        con.execute(
            "INSERT OR REPLACE INTO preferences (user, key, value, source, evidence, learned_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (
                user,
                pref.key,
                json.dumps(pref.value, ensure_ascii=False),
                pref.source,
                pref.evidence,
                pref.learned_at.astimezone(UTC).isoformat(),
            ),
        )

    def forget(self, user: str, key: str) -> bool:
        """Drop what ``key`` held for ``user`` (whether anything was). Forgetting the default
        breakdown also drops the logged choices, so it is not learned again from them."""
        checked = check_key(key)
        with self._tx() as con:
            gone = con.execute("DELETE FROM preferences WHERE user = ? AND key = ?", (user, checked)).rowcount
            if checked == "default_breakdown":
                con.execute("DELETE FROM choices WHERE user = ?", (user,))
        return bool(gone)

    def forget_all(self, user: str) -> int:
        """Drop every preference and logged choice of ``user``; how many preferences there were."""
        with self._tx() as con:
            gone = con.execute("DELETE FROM preferences WHERE user = ?", (user,)).rowcount
            con.execute("DELETE FROM choices WHERE user = ?", (user,))
        return int(gone)

    def set_enabled(self, user: str, enabled: bool) -> None:
        """Turn memory on or off for ``user``. Off: nothing is learned or logged (the choice log
        is dropped) and nothing is applied; what is remembered stays listed until forgotten."""
        _check_user(user)
        with self._tx() as con:
            con.execute(
                "INSERT INTO switches (user, enabled) VALUES (?, ?) "
                "ON CONFLICT(user) DO UPDATE SET enabled = excluded.enabled",
                (user, int(enabled)),
            )
            if not enabled:
                con.execute("DELETE FROM choices WHERE user = ?", (user,))

    def observe(self, user: str, query: SemanticQuery, catalog: Catalog) -> Preference | None:
        """Log the breakdown ``query`` chose (its catalog dimensions; nothing for a question
        without one, or a why-question) and, when the same single dimension was chosen in at
        least :data:`REPEATS` of the user's last :data:`WINDOW` questions with a breakdown,
        learn it as ``default_breakdown`` (source ``repeated``). Returns the preference newly
        learned, else ``None``. Nothing happens while memory is off; a stated default is never
        replaced by a learned one. Pass the query as the question asked it (the plan step
        observes every question it read)."""
        dims = [d for d in query.dimensions if d in catalog.dimensions]
        if not dims or query.intent == "why":
            return None
        now = datetime.now(UTC)
        with self._tx() as con:
            if not self._enabled(con, user):
                return None
            con.execute(
                "INSERT INTO choices (user, ts, dimensions) VALUES (?, ?, ?)", (user, now.isoformat(), json.dumps(dims))
            )
            con.execute(
                "DELETE FROM choices WHERE user = ? AND id NOT IN "
                "(SELECT id FROM choices WHERE user = ? ORDER BY id DESC LIMIT ?)",
                (user, user, WINDOW),
            )
            logged = [json.loads(r[0]) for r in con.execute("SELECT dimensions FROM choices WHERE user = ?", (user,))]
            singles = Counter(chosen[0] for chosen in logged if len(chosen) == 1)
            if not singles:
                return None
            dim, count = singles.most_common(1)[0]
            if count < REPEATS:
                return None
            row = con.execute(
                "SELECT value, source FROM preferences WHERE user = ? AND key = 'default_breakdown'", (user,)
            ).fetchone()
            if row is not None and (row[1] == "stated" or json.loads(row[0]) == dim):
                return None
            pref = Preference(
                key="default_breakdown",
                value=dim,
                source="repeated",
                evidence=f"{count} of the last {len(logged)} questions",
                learned_at=now,
            )
            self._put(con, user, pref)
        return pref
