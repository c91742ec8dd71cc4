"""The red-team suite: every malicious case refused with its code on both dialects; every
legitimate case approved, executed on real DuckDB and PostgreSQL, with identical rows."""

from __future__ import annotations

from collections import Counter

import duckdb
import pytest

from baton.policy import Policy
from baton.sql import FirewallError, approve
from tests.redteam.cases import CONTAINMENT, DIALECTS, LEGITIMATE, MALICIOUS, Case
from tests.redteam.warehouse import SCHEMA, PostgresWarehouse, Row, normalise, raw_pii_values


def _run(sql: str, dialect: str, con: duckdb.DuckDBPyConnection, pg: PostgresWarehouse) -> list[Row]:
    if dialect == "duckdb":
        return [tuple(row) for row in con.execute(sql).fetchall()]
    return pg.query(sql)


def test_suite_is_big_enough() -> None:
    categories = Counter(case.category for case in MALICIOUS)
    assert len(MALICIOUS) >= 100
    assert len(LEGITIMATE) >= 40
    assert len(categories) >= 10
    assert len({c.id for c in [*MALICIOUS, *LEGITIMATE, *CONTAINMENT]}) == len(MALICIOUS) + len(LEGITIMATE) + len(
        CONTAINMENT
    )
    assert all(case.code for case in MALICIOUS)


@pytest.mark.parametrize("case", MALICIOUS, ids=[c.id for c in MALICIOUS])
def test_malicious_case_is_refused_with_its_code(case: Case, demo_policy: Policy) -> None:
    for dialect in case.dialects:
        with pytest.raises(FirewallError) as caught:
            approve(
                case.query,
                principal=demo_policy.principal(case.user),
                schema=SCHEMA,
                dialect=dialect,  # type: ignore[arg-type]
                large_tables=case.large_tables,
            )
        assert caught.value.error_code == case.code, (dialect, caught.value.message())
        assert "not permitted" in caught.value.message("en").lower()
        assert "不允许" in caught.value.message("zh")


@pytest.mark.postgres
@pytest.mark.parametrize("case", LEGITIMATE, ids=[c.id for c in LEGITIMATE])
def test_legitimate_case_runs_identically_on_both_engines(
    case: Case,
    demo_policy: Policy,
    duckdb_readonly: duckdb.DuckDBPyConnection,
    postgres_warehouse: PostgresWarehouse,
    fixture_rows: dict[str, list[Row]],
) -> None:
    principal = demo_policy.principal(case.user)
    results = {}
    for dialect in DIALECTS:
        approved = approve(
            case.query,
            principal=principal,
            schema=SCHEMA,
            dialect=dialect,  # type: ignore[arg-type]
            large_tables=case.large_tables,
        )
        assert approved.user == case.user and approved.dialect == dialect
        results[dialect] = normalise(_run(approved.sql, dialect, duckdb_readonly, postgres_warehouse))
    assert results["duckdb"] == results["postgres"]
    assert results["duckdb"], "a legitimate case should return rows"
    if case.user != "admin":
        leaked = {
            pii for pii in raw_pii_values(fixture_rows) for row in results["duckdb"] for cell in row if pii in cell
        }
        assert not leaked
