"""Data-driven compiler tests: compiled SQL and hand-written SQL return the same rows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import sqlglot
import yaml
from pydantic import ValidationError

from baton.catalog.compiler import compile_query
from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.contracts.semantic import SemanticQuery
from baton.errors import QuestionRefused
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


def _per_day(
    metric: str, *, per: str = "day", span: tuple[str, str] = ("2026-06-01", "2026-06-30"), **extra: Any
) -> SemanticQuery:
    return SemanticQuery.model_validate(
        {
            "metrics": [metric],
            "average_per": per,
            "time_range": {"start": span[0], "end": span[1]},
            "as_of": "2026-07-01",
            **extra,
        }
    )


def test_a_day_without_rows_counts_as_zero_in_a_per_day_average(con: duckdb.DuckDBPyConnection) -> None:
    """Rows of one day in a 30-day period: the average per day is that day's value over 30, not the day's value."""
    one_day = _per_day("order_count", where=["metric_time = '2026-06-01'"])
    compiled = compile_query(one_day, _catalog())
    assert compiled.columns == ("order_count_per_day", "order_count_total")
    ((got, summed),) = con.execute(compiled.sql).fetchall()
    ((that_day,),) = con.execute(
        "SELECT COUNT(*) FROM fact_order WHERE order_date = DATE '2026-06-01' AND status IN ('paid','refunded')"
    ).fetchall()
    assert that_day > 0 and got == pytest.approx(that_day / 30, rel=1e-12)
    assert summed == that_day  # the total the average is of


@pytest.mark.parametrize("metric", ["conversion_rate", "aov", "refund_rate"])
def test_a_rate_or_an_average_has_no_per_day_average(metric: str) -> None:
    with pytest.raises(QuestionRefused) as caught:
        compile_query(_per_day(metric), _catalog())
    assert caught.value.detail["reason"] == "average_not_additive"


@pytest.mark.parametrize("extra", [{"grain": "week"}, {"share": True, "dimensions": ["channel"]}])
def test_a_per_day_average_is_one_value_per_period(extra: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        _per_day("gmv", **extra)


@pytest.mark.parametrize(
    ("per", "span", "divisor"),
    [
        ("week", ("2026-05-04", "2026-06-28"), 8),
        ("month", ("2026-01-01", "2026-06-30"), 6),
        ("quarter", ("2025-01-01", "2025-12-31"), 4),
    ],
)
def test_an_average_per_week_or_month_is_the_total_over_whole_periods(
    con: duckdb.DuckDBPyConnection, per: str, span: tuple[str, str], divisor: int
) -> None:
    compiled = compile_query(_per_day("order_count", per=per, span=span), _catalog())
    assert compiled.columns == (f"order_count_per_{per}", "order_count_total")
    ((got, summed),) = con.execute(compiled.sql).fetchall()
    ((total,),) = con.execute(
        "SELECT COUNT(*) FROM fact_order WHERE status IN ('paid','refunded') AND order_date BETWEEN ? AND ?",
        [span[0], span[1]],
    ).fetchall()
    assert total > 0 and got == pytest.approx(total / divisor, rel=1e-12) and summed == total


def test_an_average_per_week_over_a_cut_week_is_refused() -> None:
    """A copy made without the planner's check (a follow-up, a caller): the compiler divides by whole weeks only."""
    with pytest.raises(QuestionRefused) as caught:
        compile_query(_per_day("gmv", per="week"), _catalog())  # June 2026: four weeks and two days
    assert caught.value.detail["reason"] == "average_cuts_a_period"


def test_metrics_of_several_tables_type_their_placeholders_once(con: duckdb.DuckDBPyConnection) -> None:
    """Three tables side by side: the first branch's columns of other tables are typed NULLs (PostgreSQL
    types a UNION from the left), later branches plain NULLs — the statement grows linearly."""
    from datetime import date

    from baton.contracts.semantic import TimeRange

    query = SemanticQuery(
        metrics=("gmv", "visitors", "new_users"),
        dimensions=("channel",),
        time_range=TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30)),
        as_of=date(2026, 7, 1),
    )
    sql = compile_query(query, CATALOG).sql
    assert sql.count("1 = 0") == 2  # the first branch's two other tables, nothing more
    rows = con.execute(sql).fetchall()
    assert len(rows) == 4 and all(None not in row for row in rows)
    assert sqlglot.transpile(compile_query(query, CATALOG, dialect="postgres").sql, read="postgres")


def test_a_compared_side_the_table_holds_no_row_of_is_unknown_never_zero(con: duckdb.DuckDBPyConnection) -> None:
    """A group without rows on one side is 0 there only when other groups have rows on that side (the
    table holds the period); the day before the data starts is unknown for every group."""
    from datetime import date

    from baton.contracts.semantic import Comparison, TimeRange

    def compared(day: date, before: date) -> list[tuple[Any, ...]]:
        query = SemanticQuery(
            metrics=("order_count",),
            dimensions=("channel",),
            time_range=TimeRange(start=day, end=day),
            comparison=Comparison(kind="custom", range=TimeRange(start=before, end=before)),
            as_of=date(2026, 7, 1),
        )
        return con.execute(compile_query(query, CATALOG).sql).fetchall()

    first = con.execute("SELECT MIN(order_date) FROM fact_order").fetchone()
    assert first is not None
    start = first[0]
    rows = compared(start, date.fromordinal(start.toordinal() - 1))
    assert rows and all(row[2] is None for row in rows)  # order_count_previous: unknown, never 0
