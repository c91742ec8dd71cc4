"""The result cache is keyed by approved SQL (incl. grants and policy version) and data version."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

from baton.config import load_settings
from baton.orchestrator.session import Session
from baton.sql import approve

SQL = "SELECT channel, COUNT(*) AS n FROM fact_order WHERE order_date = DATE '2026-06-30' GROUP BY channel ORDER BY channel"


def _approved_id(session: Session, user: str) -> str:
    approved = approve(SQL, principal=session.principal(user), schema=session.schema, dialect="duckdb")
    session.registry.register(approved)
    return approved.approved_sql_id


def test_cache_hits_and_is_invalidated_when_the_data_version_moves(demo_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "demo"
    shutil.copytree(demo_dir, folder, ignore=shutil.ignore_patterns("runs"))
    session = Session(load_settings(folder / "baton.toml"))
    first_id = _approved_id(session, "analyst")
    first = session.runner.run(first_id, user="analyst")
    again = session.runner.run(first_id, user="analyst")
    assert not first.cached
    assert again.cached
    assert again.evidence_id == first.evidence_id

    # another user with other grants never shares the cached result
    east_id = _approved_id(session, "east_manager")
    assert east_id != first_id
    east = session.runner.run(east_id, user="east_manager")
    assert not east.cached
    assert east.rows != first.rows

    # a reload (new loaded_at in meta_table_load) moves the data version: the cache misses
    session.backend.close()
    con = duckdb.connect(str(folder / "warehouse.duckdb"))
    con.execute("UPDATE meta_table_load SET loaded_at = loaded_at + INTERVAL 1 DAY WHERE table_name = 'fact_order'")
    con.close()
    reloaded = session.runner.run(first_id, user="analyst")
    assert not reloaded.cached
    assert reloaded.data_version != first.data_version
    assert reloaded.evidence_id != first.evidence_id
    assert reloaded.rows == first.rows
    session.close()


def test_rows_past_the_cap_are_marked_truncated(demo_session: Session) -> None:
    sql = "SELECT order_id FROM fact_order WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'"
    approved = approve(sql, principal=demo_session.principal("analyst"), schema=demo_session.schema, dialect="duckdb")
    demo_session.registry.register(approved)
    result = demo_session.runner.run(approved.approved_sql_id, user="analyst")
    assert result.row_count == approved.row_limit
    assert result.truncated
