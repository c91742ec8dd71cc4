"""The SQL lifecycle: draft -> validated -> approved_sql_id -> executed.

The runner never takes raw text: it asks the registry for an approval by id, and the
registry checks that the approval exists, has not expired and belongs to the acting user.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime

from baton.errors import FirewallError
from baton.sql.firewall import ApprovedSql


class ApprovalRegistry:
    """In-memory approvals keyed by (approved_sql_id, user); safe to share between threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._approvals: dict[tuple[str, str], ApprovedSql] = {}

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
