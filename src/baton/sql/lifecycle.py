"""The SQL lifecycle: draft -> validated -> approved_sql_id -> executed.

The runner never takes raw text: it asks the registry for an approval by id, and the
registry checks that the approval exists, has not expired and belongs to the acting user.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from datetime import UTC, datetime, timedelta

from baton.errors import FirewallError
from baton.sql.firewall import ApprovedSql

REUSE_MARGIN = timedelta(seconds=60)
"""An approval is reused only while it has this long left, so a run never starts on one about to expire."""
MAX_REMEMBERED = 4096
"""Approvals kept for reuse at most (then all are forgotten: a long-lived server stays bounded)."""


class ApprovalRegistry:
    """In-memory approvals keyed by (approved_sql_id, user); safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._approvals: dict[tuple[str, str], ApprovedSql] = {}
        self._verdicts: dict[Hashable, ApprovedSql] = {}

    def register(self, approved: ApprovedSql) -> str:
        """Record an approval (re-registering refreshes its expiry); returns its id."""
        with self._lock:
            self._approvals[(approved.approved_sql_id, approved.user)] = approved
        return approved.approved_sql_id

    def take(self, approved_sql_id: str, user: str, now: datetime | None = None) -> ApprovedSql:
        """The approval to execute, or FirewallError approval_not_found/expired/wrong_user.

        An approval stays usable until it expires (re-running the same approved query is
        allowed; the result cache relies on it).
        """
        moment = now or datetime.now(UTC)
        with self._lock:
            approved = self._approvals.get((approved_sql_id, user))
            if approved is None:
                owners = [u for (key, u) in self._approvals if key == approved_sql_id]
                if owners:
                    raise FirewallError("approval_wrong_user", approved_sql_id=approved_sql_id, user=user)
                raise FirewallError("approval_not_found", approved_sql_id=approved_sql_id)
            if moment >= approved.expires_at:
                del self._approvals[(approved_sql_id, user)]
                raise FirewallError(
                    "approval_expired",
                    approved_sql_id=approved_sql_id,
                    expires_at=approved.expires_at.isoformat(),
                )
            return approved

    def recall(self, key: Hashable, now: datetime | None = None) -> ApprovedSql | None:
        """The approval :meth:`remember` kept under ``key``, while it has :data:`REUSE_MARGIN` left.

        The firewall's verdict is a function of the statement, the principal's grants and policy
        version, the dialect, the schema and the limits: the caller's key holds all of them, so a
        statement asked again in this session (a completeness check of the same period, a
        repeated question) is not parsed, qualified and EXPLAINed again. A changed grant or policy
        is another key."""
        moment = now or datetime.now(UTC)
        with self._lock:
            approved = self._verdicts.get(key)
        if approved is None or moment + REUSE_MARGIN >= approved.expires_at:
            return None
        return approved

    def remember(self, key: Hashable, approved: ApprovedSql) -> None:
        with self._lock:
            if len(self._verdicts) >= MAX_REMEMBERED:
                self._verdicts.clear()
            self._verdicts[key] = approved

    def purge_expired(self, now: datetime | None = None) -> int:
        """Forget expired approvals; returns how many were dropped."""
        moment = now or datetime.now(UTC)
        with self._lock:
            expired = [key for key, a in self._approvals.items() if moment >= a.expires_at]
            for key in expired:
                del self._approvals[key]
        return len(expired)

    def __len__(self) -> int:
        with self._lock:
            return len(self._approvals)
