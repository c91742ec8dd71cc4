"""The DuckDB backend is locked down even for SQL that somehow got past the firewall."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from baton.errors import BatonError, QueryTimeout
from baton.warehouse.duckdb_backend import DuckDBBackend


@pytest.fixture
def backend(demo_dir: Path) -> Iterator[DuckDBBackend]:
    b = DuckDBBackend(demo_dir / "warehouse.duckdb")
    yield b
    b.close()


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE x AS SELECT 1",
        "INSERT INTO meta_table_load VALUES ('x', now(), current_date)",
        "SELECT * FROM read_csv('/etc/passwd')",
        "SELECT * FROM read_text('/etc/hostname')",
        "COPY (SELECT 1) TO '/tmp/baton_copy_test.csv'",
        "SET enable_external_access = true",
        "SET lock_configuration = false",
        "INSTALL httpfs",
        "ATTACH '/tmp/other.duckdb' AS other",
    ],
)
def test_writes_files_and_settings_are_blocked(backend: DuckDBBackend, sql: str) -> None:
    with pytest.raises(BatonError):
        backend.execute(sql)
    assert not Path("/tmp/baton_copy_test.csv").exists()


def test_timeout_interrupts_within_one_and_a_half_times_the_limit(backend: DuckDBBackend) -> None:
    limit = 1.0
    started = time.perf_counter()
    with pytest.raises(QueryTimeout):
        backend.execute("SELECT count(*) FROM range(100000000000) a", timeout_s=limit)
    assert time.perf_counter() - started < 1.5 * limit
    # the connection is still usable after an interrupt
    assert backend.execute("SELECT 1").rows == [(1,)]


def test_row_cap_truncates(backend: DuckDBBackend) -> None:
    raw = backend.execute("SELECT order_id FROM fact_order LIMIT 50", row_cap=10)
    assert len(raw.rows) == 10 and raw.truncated


def test_missing_file_is_warehouse_unavailable(tmp_path: Path) -> None:
    with pytest.raises(BatonError) as info:
        DuckDBBackend(tmp_path / "nope.duckdb").execute("SELECT 1")
    assert info.value.error_code == "warehouse_unavailable"


def test_hardening_settings_are_in_force(backend: DuckDBBackend) -> None:
    def setting(name: str) -> object:
        return backend.execute(f"SELECT current_setting('{name}')").rows[0][0]

    assert setting("enable_external_access") is False
    assert setting("lock_configuration") is True
    assert setting("autoinstall_known_extensions") is False
    assert setting("autoload_known_extensions") is False
    allowed = setting("allowed_directories")
    assert isinstance(allowed, list)
    assert all(str(d).endswith(".tmp/") for d in allowed)  # only DuckDB's own spill directory


_CTRL_C_SCRIPT = """
import os, signal, sys, threading
from pathlib import Path
from baton.errors import QueryTimeout
from baton.warehouse.duckdb_backend import DuckDBBackend

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (a test runner may ignore it …
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # … or block it, and a child inherits both)
backend = DuckDBBackend(Path(sys.argv[1]))
backend.execute("SELECT 1")  # connected: the signal lands on the statement, not on opening the file
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    backend.execute("SELECT count(*) FROM range(50000000000) t(i) WHERE i % 7 = 3", timeout_s=30, row_cap=1)
    print("finished")
except KeyboardInterrupt:
    print("cancelled", backend.execute("SELECT 1").rows)
except QueryTimeout:
    print("timeout")
"""


def test_ctrl_c_during_a_statement_is_a_cancellation_not_an_engine_error(demo_dir: Path) -> None:
    """SIGINT mid-statement reaches DuckDB's client as "Query interrupted" (a RuntimeError) or as its
    interrupt exception; the backend must hand it on as KeyboardInterrupt, or a cost check
    interrupted by Ctrl-C would be refused (cost_estimate_failed) instead of the run being cancelled.
    It runs in a process of its own, as a CLI does: a pytest-xdist worker does not deliver SIGINT
    to the thread running the test, so in-process the signal was sometimes never seen; and the
    child restores Python's own handler and unblocks the signal, as a terminal's process has them
    (a pytest-xdist worker's thread blocks SIGINT and a child inherits the mask: the statement then
    ran to its 30 s timeout before the signal was seen)."""
    printed, errors = _in_a_process_of_its_own(_CTRL_C_SCRIPT, demo_dir)
    assert printed == "cancelled [(1,)]", (printed, errors)


_TIMEOUT_SCRIPT = """
import signal, sys
from pathlib import Path
from baton.errors import QueryTimeout
from baton.warehouse.duckdb_backend import DuckDBBackend

signal.signal(signal.SIGINT, signal.SIG_IGN)  # no Ctrl-C anywhere: only the timer can stop the statement
backend = DuckDBBackend(Path(sys.argv[1]))
try:
    backend.execute("SELECT count(*) FROM range(50000000000) t(i) WHERE i % 7 = 3", timeout_s=1, row_cap=1)
    print("finished")
except KeyboardInterrupt:
    print("cancelled")
except QueryTimeout as exc:
    print("timeout", exc.error_code)
"""


def test_a_statement_stopped_by_its_timer_is_a_timeout_never_a_cancellation(demo_dir: Path) -> None:
    """With no Ctrl-C anywhere, a statement the timer stops is a timeout (the run reports it, typed),
    never the user cancelling it: the timer flags its own interrupt."""
    printed, errors = _in_a_process_of_its_own(_TIMEOUT_SCRIPT, demo_dir)
    assert printed == "timeout timeout", (printed, errors)


def _in_a_process_of_its_own(script: str, demo_dir: Path) -> tuple[str, str]:
    """What ``script`` printed, run by a Python of its own on the demo warehouse (and its stderr's end)."""
    import subprocess
    import sys

    warehouse = str(demo_dir / "warehouse.duckdb")
    done = subprocess.run(
        [sys.executable, "-c", script, warehouse], check=False, capture_output=True, text=True, timeout=60
    )
    return done.stdout.strip(), done.stderr[-2000:]


def test_an_engine_interrupt_the_timer_did_not_send_is_a_cancellation(backend: DuckDBBackend) -> None:
    """SIGINT can also surface as duckdb.InterruptException (it did under load); only the timer's
    own interrupt may become a QueryTimeout, anything else stops the run as a cancellation."""
    import threading

    backend.execute("SELECT 1")  # connect first, so the interrupt lands on the running statement
    con = backend._con
    assert con is not None
    timer = threading.Timer(0.5, con.interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            backend.execute("SELECT count(*) FROM range(50000000000) t(i) WHERE i % 7 = 3", timeout_s=15, row_cap=1)
    finally:
        timer.cancel()
    assert backend.execute("SELECT 1").rows == [(1,)]
