"""API tokens mapped to policy users, stored hashed (no web framework needed: `baton token` uses it).

A token is ``bt_`` + 32 random bytes (URL-safe base64), shown once when it is created; the
store (``tokens.sqlite`` beside the run store, private to its owner) keeps only its SHA-256,
its user, creation, expiry, last use and revocation (:mod:`baton.server.auth` signs requests
in with it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

from baton.errors import Conflict, InvalidInput, NotFound
from baton.messages import both
from baton.private import private_dir, private_file

if TYPE_CHECKING:
    from baton.config import Settings

TOKEN_PREFIX = "bt_"
TOKEN_ID_PREFIX = "tok_"
TOKEN_ID_BYTES = 8
"""A token's id (``tok_`` + 16 hex digits) is public (listed, revoked by it), so it only needs to be unique."""
ID_ATTEMPTS = 5
MAX_EXPIRES_DAYS = 3650
LAST_USED_EVERY = timedelta(seconds=60)
"""A token's last use is written at most this often (not on every request)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (
    token_id TEXT PRIMARY KEY, user TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL, expires_at TEXT, last_used_at TEXT, revoked_at TEXT
);
"""


def token_hash(token: str) -> str:
    """The SHA-256 (hex) under which a secret is kept."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _when(raw: str | None) -> datetime | None:
    return datetime.fromisoformat(raw) if raw else None


class TokenInfo(BaseModel):
    """An API token as listed: never the token itself."""

    model_config = ConfigDict(extra="forbid")
    token_id: str
    user: str
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None
    revoked_at: datetime | None

    def status(self, now: datetime | None = None) -> Literal["active", "revoked", "expired"]:
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= (now or datetime.now(UTC)):
            return "expired"
        return "active"


class TokenStore:
    """Hashed API tokens in one SQLite file (thread-safe: one connection behind a lock)."""

    def __init__(self, path: Path) -> None:
        private_dir(path.parent)
        self.path = path
        self._lock = threading.Lock()
        self._con = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None, timeout=30)
        private_file(path)
        self._con.executescript(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._con.close()

    def create(self, user: str, *, expires_days: int | None = None) -> tuple[TokenInfo, str]:
        """A new token for ``user`` (already checked against the policy): its record and the
        token itself, which is not kept and cannot be shown again."""
        if expires_days is not None and not 1 <= expires_days <= MAX_EXPIRES_DAYS:
            raise InvalidInput(*both("server.bad_expires", raw=expires_days), detail={"expires": expires_days})
        now = datetime.now(UTC)
        for _attempt in range(ID_ATTEMPTS):
            token = TOKEN_PREFIX + secrets.token_urlsafe(32)
            info = TokenInfo(
                token_id=TOKEN_ID_PREFIX + secrets.token_hex(TOKEN_ID_BYTES),
                user=user,
                created_at=now,
                expires_at=now + timedelta(days=expires_days) if expires_days is not None else None,
                last_used_at=None,
                revoked_at=None,
            )
            try:
                with self._lock:
                    self._con.execute(
                        "INSERT INTO tokens (token_id, user, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                        (
                            info.token_id,
                            user,
                            token_hash(token),
                            info.created_at.isoformat(),
                            info.expires_at.isoformat() if info.expires_at else None,
                        ),
                    )
            except sqlite3.IntegrityError:  # an id (or token) already taken: draw again
                continue
            return info, token
        raise Conflict(*both("server.token_id_taken", attempts=ID_ATTEMPTS), detail={"attempts": ID_ATTEMPTS})

    def list(self) -> list[TokenInfo]:
        with self._lock:
            rows = self._con.execute(
                "SELECT token_id, user, created_at, expires_at, last_used_at, revoked_at FROM tokens "
                "ORDER BY created_at, rowid"
            ).fetchall()
        return [_info(row) for row in rows]

    def get(self, token_id: str) -> TokenInfo | None:
        with self._lock:
            row = self._con.execute(
                "SELECT token_id, user, created_at, expires_at, last_used_at, revoked_at FROM tokens "
                "WHERE token_id = ?",
                (token_id,),
            ).fetchone()
        return _info(row) if row is not None else None

    def revoke(self, token_id: str) -> TokenInfo:
        """Revoke a token (at once: its cookie sessions end with it); unknown → not_found."""
        found = self.get(token_id)
        if found is None:
            raise NotFound(*both("server.no_token", token_id=token_id), detail={"token_id": token_id})
        if found.revoked_at is None:
            with self._lock:
                self._con.execute(
                    "UPDATE tokens SET revoked_at = ? WHERE token_id = ?", (datetime.now(UTC).isoformat(), token_id)
                )
        return self.get(token_id) or found

    def verify(self, token: str) -> TokenInfo | None:
        """The active token ``token`` is, else ``None`` (unknown, revoked or expired)."""
        if not token.startswith(TOKEN_PREFIX) or len(token) > 200:
            return None
        digest = token_hash(token)
        with self._lock:
            row = self._con.execute(
                "SELECT token_id, user, created_at, expires_at, last_used_at, revoked_at, token_hash FROM tokens "
                "WHERE token_hash = ?",
                (digest,),
            ).fetchone()
        if row is None or not hmac.compare_digest(str(row[6]), digest):
            return None
        info = _info(row[:6])
        if info.status() != "active":
            return None
        now = datetime.now(UTC)
        if info.last_used_at is None or now - info.last_used_at >= LAST_USED_EVERY:
            with self._lock:
                self._con.execute(
                    "UPDATE tokens SET last_used_at = ? WHERE token_id = ?", (now.isoformat(), info.token_id)
                )
        return info

    def active(self, token_id: str) -> bool:
        found = self.get(token_id)
        return found is not None and found.status() == "active"


def _info(row: tuple[object, ...]) -> TokenInfo:
    return TokenInfo(
        token_id=str(row[0]),
        user=str(row[1]),
        created_at=datetime.fromisoformat(str(row[2])),
        expires_at=_when(row[3] if isinstance(row[3], str) else None),
        last_used_at=_when(row[4] if isinstance(row[4], str) else None),
        revoked_at=_when(row[5] if isinstance(row[5], str) else None),
    )


def create_token(settings: Settings, user: str, *, expires_days: int | None = None) -> tuple[TokenInfo, str]:
    """A token for a user of the settings' policy (an unknown user is refused, nothing stored)."""
    from baton.policy import load_policy

    policy = load_policy(settings.policy_path)
    if user not in policy.users:
        raise InvalidInput(*both("server.unknown_user", user=user, path=settings.policy_path), detail={"user": user})
    store = TokenStore(settings.runs_dir / "tokens.sqlite")
    try:
        return store.create(user, expires_days=expires_days)
    finally:
        store.close()
