"""A command opens a local warehouse on a thread while its first question is planned."""

from __future__ import annotations

import threading
from datetime import date
from pathlib import Path

import pytest

from baton import Session
from baton.config import Settings
from baton.errors import WarehouseUnavailable
from baton.warehouse.duckdb_backend import DuckDBBackend


def _opening() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "baton-open-warehouse"]


def test_the_connection_is_open_before_the_first_statement_and_answers_are_the_same(demo_settings: Settings) -> None:
    with Session(demo_settings) as plain:
        expected = plain.ask("上个月各渠道的GMV是多少？", as_of=date(2026, 7, 1))
    session = Session(demo_settings)
    try:
        session.open_early()
        backend = session.backend
        assert isinstance(backend, DuckDBBackend)
        answer = session.ask("上个月各渠道的GMV是多少？", as_of=date(2026, 7, 1))
        assert answer.status == "answered" and answer.answer == expected.answer
        assert backend._con is not None  # the one connection the thread opened serves the run
    finally:
        session.close()
    assert not _opening()


def test_close_waits_for_an_open_in_flight(demo_settings: Settings) -> None:
    session = Session(demo_settings)
    session.open_early()
    session.close()  # joins the thread, then closes what it opened
    assert not _opening()
    backend = session.backend
    assert isinstance(backend, DuckDBBackend) and backend._con is None


def test_a_failed_early_open_is_reported_by_the_first_statement(demo_settings: Settings, tmp_path: Path) -> None:
    missing = demo_settings.model_copy(update={"warehouse_url": f"duckdb:///{tmp_path / 'nowhere.duckdb'}"})
    session = Session(missing)
    try:
        session.open_early()  # the thread's failure is not raised on the thread
        for thread in _opening():
            thread.join()
        with pytest.raises(WarehouseUnavailable):
            session.backend.execute("SELECT 1")
    finally:
        session.close()
