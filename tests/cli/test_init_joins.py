"""`baton init` drafts joins from the foreign keys a schema declares, on DuckDB and PostgreSQL:
a ticket's country is its customer's, answered without editing the draft, and checked by SQL."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import psycopg
import pytest

from baton.catalog.loader import load_catalog
from baton.cli.init_cmd import initialize
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)
SCHEMA = [
    "CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, country VARCHAR NOT NULL, signup_date DATE NOT NULL)",
    "CREATE TABLE staff (staff_id INTEGER PRIMARY KEY, team VARCHAR NOT NULL)",
    # a key not named like an id: only its declaration says it is one
    "CREATE TABLE queues (queue_code VARCHAR PRIMARY KEY, queue_kind VARCHAR NOT NULL)",
    "CREATE TABLE tickets (ticket_id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers (customer_id), "
    "opened_by INTEGER REFERENCES staff (staff_id), closed_by INTEGER REFERENCES staff (staff_id), "
    "opened_on DATE NOT NULL, priority VARCHAR NOT NULL, queue VARCHAR REFERENCES queues (queue_code))",
]
ROWS = [
    "INSERT INTO customers SELECT i, (ARRAY['CN', 'US', 'DE'])[1 + i % 3], DATE '2026-01-01' + CAST(i % 150 AS INTEGER) "
    "FROM generate_series(1, 300) AS t(i)",
    "INSERT INTO staff SELECT i, (ARRAY['east', 'west'])[1 + i % 2] FROM generate_series(1, 20) AS t(i)",
    "INSERT INTO queues VALUES ('Q-BILL', 'billing'), ('Q-REFD', 'billing'), ('Q-TECH', 'technical'), "
    "('Q-BUGS', 'technical'), ('Q-ONBO', 'onboarding'), ('Q-TRIA', 'onboarding'), ('Q-MISC', 'billing')",
    "INSERT INTO tickets SELECT i, 1 + (i * 7) % 300, 1 + i % 20, 1 + (i * 3) % 20, DATE '2026-01-01' + CAST(i % 181 AS INTEGER), "
    "(ARRAY['low', 'high'])[1 + i % 2], (ARRAY['Q-BILL', 'Q-TECH', 'Q-ONBO', 'Q-REFD', 'Q-BUGS', 'Q-TRIA'])[1 + i % 6] FROM generate_series(1, 3000) AS t(i)",
]
BY_KIND = (
    "SELECT q.queue_kind, COUNT(*) FROM tickets t JOIN queues q ON q.queue_code = t.queue "
    "WHERE t.opened_on BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' GROUP BY q.queue_kind"
)
GOLD = (
    "SELECT c.country, COUNT(*) FROM tickets t JOIN customers c ON c.customer_id = t.customer_id "
    "WHERE t.opened_on BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' GROUP BY c.country"
)


def _duckdb(tmp: Path) -> tuple[str, Callable[[str], list[tuple[Any, ...]]]]:
    path = tmp / "support.duckdb"
    con = duckdb.connect(str(path))
    for sql in [*SCHEMA, *ROWS]:
        con.execute(sql)
    con.close()

    def gold(sql: str) -> list[tuple[Any, ...]]:
        with duckdb.connect(str(path), read_only=True) as reader:
            return reader.execute(sql).fetchall()

    return f"duckdb:///{path.as_posix()}", gold


@pytest.fixture
def postgres(pg_admin_url: str) -> Iterator[tuple[str, Callable[[str], list[tuple[Any, ...]]]]]:
    name = f"baton_joins_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(pg_admin_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}".encode())
    url = pg_admin_url.rsplit("/", 1)[0] + f"/{name}"
    try:
        with psycopg.connect(url, autocommit=True) as con:
            for sql in [*SCHEMA, *ROWS]:
                con.execute(sql.encode())

        def gold(sql: str) -> list[tuple[Any, ...]]:
            with psycopg.connect(url) as reader:
                return [tuple(r) for r in reader.execute(sql.encode()).fetchall()]

        yield url, gold
    finally:
        with psycopg.connect(pg_admin_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)".encode())


def _check(url: str, gold: Callable[[str], list[tuple[Any, ...]]], folder: Path) -> None:
    initialize(url, folder, as_of=AS_OF)
    catalog = load_catalog(folder / "catalog.yaml")
    joins = {name: (j.table, j.on) for name, j in catalog.tables["tickets"].joins.items()}
    assert joins["customer"] == ("customers", {"customer_id": "customer_id"})
    assert {t for t, _ in joins.values()} == {"customers", "staff", "queues"}  # both staff keys are joins too …
    assert catalog.tables["queues"].primary_key == ("queue_code",)  # the key the foreign key references
    assert catalog.dimensions["queue_kind"].columns["tickets"].endswith(".queue_kind")
    assert catalog.dimensions["country"].columns["tickets"] == "customer.country"
    assert "tickets" not in catalog.dimensions["team"].columns  # … but whose team, opener's or closer's? Not guessed
    written = (folder / "catalog.yaml").read_text(encoding="utf-8")
    assert "# draft: tickets.customer_id is declared a foreign key of customers.customer_id" in written
    with Session(config=folder / "baton.toml") as session:
        answer = session.ask("How many tickets rows were there last month by country?", as_of=AS_OF)
        by_kind = session.ask("How many tickets rows were there last month by queue_kind?", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.result is not None
    assert sorted(tuple(r) for r in answer.result.rows) == sorted(gold(GOLD))
    assert by_kind.status == "answered" and by_kind.result is not None, by_kind.answer
    assert sorted(tuple(r) for r in by_kind.result.rows) == sorted(gold(BY_KIND))


def test_a_declared_foreign_key_is_a_join_on_duckdb(tmp_path: Path) -> None:
    url, gold = _duckdb(tmp_path)
    _check(url, gold, tmp_path / "project")


@pytest.mark.postgres
def test_a_declared_foreign_key_is_a_join_on_postgresql(
    postgres: tuple[str, Callable[[str], list[tuple[Any, ...]]]], tmp_path: Path
) -> None:
    url, gold = postgres
    _check(url, gold, tmp_path / "project")
