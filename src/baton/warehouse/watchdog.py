"""A statement's timeout: one waiting thread per connection, armed for each statement.

``threading.Timer`` starts a thread per statement (about a tenth of a millisecond to start and
cancel, several times per question); the watchdog's thread is started once and sleeps on a
condition until the armed deadline passes or the statement is done. The action runs under the
watchdog's lock, so once :meth:`Watchdog.disarm` returns it can no longer fire.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["Watchdog"]


class Watchdog:
    """Runs an action when a statement outlives its deadline (one statement at a time)."""

    def __init__(self, name: str = "baton-watchdog") -> None:
        self._name = name
        self._cond = threading.Condition()
        self._deadline: float | None = None
        self._action: Callable[[], None] | None = None
        self._thread: threading.Thread | None = None
        self._stopped = False

    def arm(self, timeout_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` in ``timeout_s`` seconds unless :meth:`disarm` comes first."""
        with self._cond:
            self._stopped = False  # a thread told to stop but not gone yet goes on watching
            if self._thread is None:  # the thread clears it, under the lock, as it ends
                self._thread = threading.Thread(target=self._watch, name=self._name, daemon=True)
                self._thread.start()
            self._deadline, self._action = time.monotonic() + timeout_s, action
            self._cond.notify()

    def disarm(self) -> None:
        with self._cond:
            self._deadline, self._action = None, None

    def stop(self) -> None:
        """End the thread (a closed connection needs no watching)."""
        with self._cond:
            self._stopped = True
            self._deadline, self._action = None, None
            self._cond.notify()

    def _watch(self) -> None:
        with self._cond:
            try:
                while not self._stopped:
                    if self._deadline is None:
                        self._cond.wait()
                        continue
                    left = self._deadline - time.monotonic()
                    if left > 0:
                        self._cond.wait(left)
                        continue
                    action, self._deadline, self._action = self._action, None, None
                    if action is not None:
                        action()
            finally:  # an action that raised ends this thread; the next arm starts another
                self._thread = None
