"""The server's workers: each thread answers on its own Session, and a full queue is refused
with 503 ``server_busy`` instead of waiting without end."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.errors import ServerBusy
from baton.orchestrator.session import Session
from baton.server.errors import status_of
from baton.server.workers import QUEUE_PER_WORKER, Runtime
from tests.server.conftest import write_config


@pytest.fixture
def runtime(small_demo_dir: Path, tmp_path: Path) -> Runtime:
    return Runtime(load_settings(write_config(tmp_path, small_demo_dir)), workers=2)


def test_each_worker_thread_has_its_own_session(runtime: Runtime) -> None:
    both_running = threading.Barrier(2, timeout=30)

    def whose(session: Session) -> tuple[int, str]:
        both_running.wait()  # two jobs at once: on two threads
        return id(session), threading.current_thread().name

    try:
        first, second = runtime.submit(whose), runtime.submit(whose)
        (one, thread_one), (two, thread_two) = first.result(30), second.result(30)
        assert one != two and thread_one != thread_two
        again = runtime.submit(id).result(30)
        assert again in {one, two}  # a thread keeps its Session
        assert runtime.submit(lambda session: session.observer == runtime.bus.observe).result(30)
    finally:
        runtime.close()


def test_a_full_queue_is_refused_as_busy(runtime: Runtime) -> None:
    release = threading.Event()
    limit = runtime.workers * QUEUE_PER_WORKER
    try:
        held = [runtime.submit(lambda _session: release.wait(30)) for _ in range(limit)]
        with pytest.raises(ServerBusy) as busy:
            runtime.submit(lambda _session: True)
        assert status_of(busy.value) == 503 and busy.value.error_code == "server_busy"
        release.set()
        assert all(job.result(30) for job in held)
        assert runtime.submit(lambda _session: True).result(30)  # room again once they finished
    finally:
        release.set()
        runtime.close()
