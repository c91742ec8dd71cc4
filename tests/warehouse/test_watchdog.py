"""The statement watchdog: fires after the deadline, never after a disarm, one thread for many statements."""

from __future__ import annotations

import threading
import time

from baton.warehouse.watchdog import Watchdog


def test_fires_once_after_the_deadline() -> None:
    watchdog, fired = Watchdog(), threading.Event()
    started = time.monotonic()
    watchdog.arm(0.05, fired.set)
    assert fired.wait(2.0)
    assert time.monotonic() - started >= 0.05
    watchdog.stop()


def test_a_disarmed_statement_is_never_interrupted() -> None:
    watchdog, calls = Watchdog(), []
    watchdog.arm(0.05, lambda: calls.append("late"))
    watchdog.disarm()
    time.sleep(0.15)
    assert calls == []
    watchdog.stop()


def test_one_thread_watches_every_statement() -> None:
    watchdog = Watchdog("baton-test-watchdog")
    before = {t.ident for t in threading.enumerate()}
    for _ in range(50):
        watchdog.arm(30.0, lambda: None)
        watchdog.disarm()
    # threads started since (another test's may have ended meanwhile: never counted)
    started = [t.name for t in threading.enumerate() if t.ident not in before]
    assert started == ["baton-test-watchdog"]
    watchdog.stop()


def test_a_new_deadline_replaces_the_old_one() -> None:
    watchdog, calls = Watchdog(), []
    watchdog.arm(30.0, lambda: calls.append("first"))
    watchdog.arm(0.05, lambda: calls.append("second"))
    deadline = time.monotonic() + 2.0
    while not calls and time.monotonic() < deadline:
        time.sleep(0.01)
    assert calls == ["second"]
    watchdog.stop()


def test_stop_ends_the_thread_and_arming_again_starts_one() -> None:
    watchdog, fired = Watchdog("baton-test-restart"), threading.Event()
    watchdog.arm(30.0, lambda: None)
    watchdog.stop()
    deadline = time.monotonic() + 2.0
    while "baton-test-restart" in [t.name for t in threading.enumerate()] and time.monotonic() < deadline:
        time.sleep(0.01)
    assert "baton-test-restart" not in [t.name for t in threading.enumerate()]
    watchdog.arm(0.01, fired.set)
    assert fired.wait(2.0)
    watchdog.stop()


def test_arming_right_after_stop_is_still_watched() -> None:
    watchdog = Watchdog()
    for _ in range(20):
        fired = threading.Event()
        watchdog.arm(30.0, lambda: None)
        watchdog.stop()
        watchdog.arm(0.01, fired.set)
        assert fired.wait(2.0)
    watchdog.stop()
