"""Follow an edited policy file without a restart (``baton serve``, ``baton mcp``): no web framework
here, so the stdio MCP server uses it too."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from baton.errors import BatonError

if TYPE_CHECKING:
    from baton.policy import Policy

log = logging.getLogger("baton.server")

POLICY_CHECK_S = 1.0
"""The policy file is looked at (one ``stat``) at most this often."""


class PolicyWatch:
    """Tells when the policy file changed since it was last read (its size, mtime and inode), looking
    at most every ``every`` seconds; thread-safe. An edit that does not load (a YAML slip half-way
    through an edit) is logged and the last good policy stays until the file changes again."""

    def __init__(self, path: Path, every: float = POLICY_CHECK_S) -> None:
        self.path = path
        self.every = every
        self._lock = threading.Lock()
        self._stamp = self._stat()
        self._checked = time.monotonic()

    def _stat(self) -> tuple[int, int, int] | None:
        try:
            st = self.path.stat()
        except OSError:
            return None
        return st.st_mtime_ns, st.st_size, st.st_ino

    def changed(self) -> Policy | None:
        """The policy as the file now says, when it changed (and loads); else ``None``."""
        from baton.policy import load_policy

        if time.monotonic() - self._checked < self.every:
            return None
        with self._lock:
            if time.monotonic() - self._checked < self.every:
                return None
            self._checked = time.monotonic()
            stamp = self._stat()
            if stamp == self._stamp:
                return None
            self._stamp = stamp
            try:
                return load_policy(self.path)
            except BatonError as exc:
                log.error("the edited policy %s does not load, the last good one stays: %s", self.path, exc)
                return None
