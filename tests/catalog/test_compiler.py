"""Data-driven compiler tests: compiled SQL and hand-written SQL return the same rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
import yaml

from baton.catalog.compiler import compile_query
from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.contracts.semantic import SemanticQuery
from baton.evals.graders import results_match

HERE = Path(__file__).parent
CASES: list[dict[str, Any]] = yaml.safe_load((HERE / "compile_cases.yaml").read_text(encoding="utf-8"))
CATALOG = load_catalog(HERE.parents[1] / "src/baton/demo/data/catalog.yaml")


@pytest.fixture(scope="module")
def con(demo_dir: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    connection = duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True)
    yield connection
    connection.close()


def _catalog() -> Catalog:
    return CATALOG


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_compiled_sql_matches_hand_written(case: dict[str, Any], con: duckdb.DuckDBPyConnection) -> None:
    query = SemanticQuery.model_validate(case["query"])
    compiled = compile_query(query, _catalog())
    got = con.execute(compiled.sql).fetchall()
    expected = con.execute(case["expected"]).fetchall()
    assert got, "the compiled query returned no rows"
    ok, reason = results_match([list(r) for r in got], [list(r) for r in expected], ordered=case.get("ordered", False))
    assert ok, reason
    assert len(compiled.columns) == len(got[0])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_compiles_to_valid_postgres(case: dict[str, Any]) -> None:
    query = SemanticQuery.model_validate(case["query"])
    compiled = compile_query(query, _catalog(), dialect="postgres")
    parsed = sqlglot.parse(compiled.sql, read="postgres")
    assert len(parsed) == 1
    assert (
        "DOUBLE PRECISION" in compiled.sql
        or "/" not in compiled.sql
        or not any(_catalog().metrics[m].is_ratio for m in query.metrics)
    )


def test_member_values_enter_as_literals_not_sql() -> None:
    hostile = "华东') OR 1=1 --"
    query = SemanticQuery.model_validate(
        {
            "metrics": ["gmv"],
            "filters": [{"dimension": "region", "members": [hostile]}],
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "as_of": "2026-07-01",
        }
    )
    compiled = compile_query(query, _catalog())
    tree = sqlglot.parse_one(compiled.sql, read="duckdb")
    literals = [lit.this for lit in tree.find_all(sqlglot.exp.Literal) if lit.is_string]
    assert hostile in literals
    assert not any(isinstance(node, sqlglot.exp.Or) for node in tree.find_all(sqlglot.exp.Or))
