"""Independent SQL on a session's DuckDB warehouse, opened read-only: the gold an answer is
checked against (never through Baton's own query path)."""

from __future__ import annotations

from typing import Any

import duckdb

from baton import Session


def gold_rows(session: Session, sql: str) -> list[tuple[Any, ...]]:
    con = duckdb.connect(str(session.settings.duckdb_path()), read_only=True)
    try:
        return [tuple(row) for row in con.execute(sql).fetchall()]
    finally:
        con.close()
