"""The red-team containment cases on every engine: an escape attempt the firewall approves
(it cannot tell it from an honest query) is contained by the injected row filters, masks and
group floors, and returns on each engine exactly the rows it returns on DuckDB — the rows of
the reference query an administrator writes with the filter spelled out."""

from __future__ import annotations

import pytest

from baton.policy import Policy
from baton.sql import approve
from tests.backends.conftest import Runner
from tests.redteam.cases import CONTAINMENT, Case
from tests.redteam.warehouse import SCHEMA, normalise


def _rows(run: Runner, query: str, user: str, policy: Policy, dialect: str) -> list[tuple[str, ...]]:
    approved = approve(query, principal=policy.principal(user), schema=SCHEMA, dialect=dialect)  # type: ignore[arg-type]
    assert approved.dialect == dialect
    return normalise(run(approved.sql))


ON_SPARK_IN_MAKE_TEST = {"ct-01", "ct-04", "ct-16", "ct-17", "ct-21"}
"""One case of each kind (a row filter, through a CTE, a CTE shadowing a table, a mask through a
CTE, a group floor) runs on Spark in `make test`; every case does in `make test-spark`."""


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(c, id=c.id, marks=() if c.id in ON_SPARK_IN_MAKE_TEST else pytest.mark.spark_full)
        for c in CONTAINMENT
    ],
)
def test_escape_attempt_is_contained_like_on_duckdb(
    case: Case, demo_policy: Policy, engine: tuple[str, Runner], duckdb_fixture: Runner
) -> None:
    assert case.reference is not None
    dialect, run = engine
    on_duckdb = _rows(duckdb_fixture, case.reference, "admin", demo_policy, "duckdb")
    assert _rows(run, case.query, case.user, demo_policy, dialect) == on_duckdb
    assert _rows(run, case.reference, "admin", demo_policy, dialect) == on_duckdb


@pytest.mark.spark
def test_what_spark_reads_as_a_literal_runs_as_one_on_spark(demo_policy: Policy, spark_fixture: Runner) -> None:
    """uq-05 and uq-06 are refused on DuckDB and PostgreSQL, where they are a second statement and
    a PII column; Spark reads them as string literals. Spark itself, not sqlglot, must agree:
    the approved SQL returns the literal, never a second statement's effect or a phone number."""
    escaped = approve(
        "SELECT '\\'; DROP TABLE fact_order; --' AS s",
        principal=demo_policy.principal("analyst"),
        schema=SCHEMA,
        dialect="spark",
    )
    assert spark_fixture(escaped.sql) == [("'; DROP TABLE fact_order; --",)]
    quoted = approve(
        'SELECT DISTINCT "phone" AS p FROM dim_user',
        principal=demo_policy.principal("east_manager"),
        schema=SCHEMA,
        dialect="spark",
    )
    assert spark_fixture(quoted.sql) == [("phone",)]
    assert spark_fixture("SELECT count(*) FROM fact_order")[0][0] > 0  # the table is still there
