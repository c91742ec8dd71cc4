"""Answer.to_pandas / to_arrow / to_polars against an independent DuckDB query of the demo file:
the same rows, and column types by the warehouse's (dates as dates, decimals as float64)."""

from __future__ import annotations

import sys
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import pandas as pd  # type: ignore[import-untyped]
import polars as pl
import pyarrow as pa  # type: ignore[import-untyped]
import pytest

from baton.contracts.answer import Answer
from baton.errors import InvalidInput, MissingDependency
from baton.notebook.frames import column_kind

PAID = "status IN ('paid', 'refunded')"
JUNE = "order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'"


def _duckdb(demo_dir: Path, sql: str) -> list[tuple[Any, ...]]:
    with duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True) as con:
        rows: list[tuple[Any, ...]] = con.execute(sql).fetchall()
    return rows


@pytest.fixture(scope="module")
def gmv_by_channel(demo_dir: Path) -> dict[str, float]:
    sql = f"SELECT channel, SUM(gmv_amount) FROM fact_order WHERE {JUNE} AND {PAID} GROUP BY channel"
    return {channel: float(total) for channel, total in _duckdb(demo_dir, sql)}


@pytest.fixture(scope="module")
def gmv_by_month(demo_dir: Path) -> dict[date, float]:
    sql = (
        "SELECT CAST(date_trunc('month', order_date) AS DATE) AS m, SUM(gmv_amount) FROM fact_order "
        f"WHERE order_date BETWEEN DATE '2026-01-01' AND DATE '2026-06-30' AND {PAID} GROUP BY m"
    )
    return {month: float(total) for month, total in _duckdb(demo_dir, sql)}


def test_pandas_matches_duckdb(channel_zh: Answer, gmv_by_channel: dict[str, float]) -> None:
    df = channel_zh.to_pandas()
    assert list(df.columns) == ["channel", "gmv"]
    assert str(df["gmv"].dtype) == "float64"
    assert pd.api.types.is_string_dtype(df["channel"])
    got = dict(zip(df["channel"], df["gmv"], strict=True))
    assert got.keys() == gmv_by_channel.keys()
    assert all(got[k] == pytest.approx(v, abs=0.005) for k, v in gmv_by_channel.items())


def test_pandas_dates_are_datetimes(monthly_en: Answer, gmv_by_month: dict[date, float]) -> None:
    df = monthly_en.to_pandas()
    assert str(df["period"].dtype) == "datetime64[us]"  # what DuckDB's own .df() gives for a DATE
    got = {ts.date(): value for ts, value in zip(df["period"], df["gmv"], strict=True)}
    assert got == pytest.approx(gmv_by_month, abs=0.005)


def test_arrow_types_and_values(monthly_en: Answer, gmv_by_month: dict[date, float]) -> None:
    table = monthly_en.to_arrow()
    assert table.schema.field("period").type == pa.date32()
    assert table.schema.field("gmv").type == pa.float64()
    got = dict(zip(table.column("period").to_pylist(), table.column("gmv").to_pylist(), strict=True))
    assert got == pytest.approx(gmv_by_month, abs=0.005)


def test_polars_types_and_values(monthly_en: Answer, gmv_by_month: dict[date, float]) -> None:
    frame = monthly_en.to_polars()
    assert frame.schema == pl.Schema({"period": pl.Date, "gmv": pl.Float64})
    assert dict(zip(frame["period"].to_list(), frame["gmv"].to_list(), strict=True)) == pytest.approx(
        gmv_by_month, abs=0.005
    )


def test_integers_stay_integers(orders_zh: Answer, demo_dir: Path) -> None:
    expected = dict(_duckdb(demo_dir, f"SELECT channel, COUNT(*) FROM fact_order WHERE {JUNE} AND {PAID} GROUP BY 1"))
    df = orders_zh.to_pandas()
    assert str(df["order_count"].dtype) == "int64"
    assert dict(zip(df["channel"], df["order_count"], strict=True)) == expected
    assert orders_zh.to_arrow().schema.field("order_count").type == pa.int64()
    assert orders_zh.to_polars().schema["order_count"] == pl.Int64


def test_an_answer_read_back_from_json_converts_alike(monthly_en: Answer) -> None:
    """A stored answer (dates as ISO strings in its JSON) gives the same frame."""
    again = Answer.model_validate_json(monthly_en.model_dump_json())
    assert again.to_pandas().equals(monthly_en.to_pandas())
    assert again.to_arrow().equals(monthly_en.to_arrow())


def test_a_value_that_does_not_fit_its_type_keeps_the_column_as_text(channel_zh: Answer) -> None:
    assert channel_zh.result is not None
    rows = [list(r) for r in channel_zh.result.rows]
    rows[0][1] = "***"  # a masked cell
    masked = channel_zh.model_copy(update={"result": channel_zh.result.model_copy(update={"rows": rows})})
    assert masked.to_arrow().schema.field("gmv").type == pa.string()
    assert masked.to_polars()["gmv"].to_list()[0] == "***"
    assert masked.to_pandas()["gmv"].iloc[0] == "***"


def test_nulls(channel_zh: Answer) -> None:
    assert channel_zh.result is not None
    rows = [list(r) for r in channel_zh.result.rows]
    rows[0][1] = None
    holed = channel_zh.model_copy(update={"result": channel_zh.result.model_copy(update={"rows": rows})})
    assert pd.isna(holed.to_pandas()["gmv"].iloc[0])
    assert holed.to_polars()["gmv"].null_count() == 1


def test_no_result_is_a_typed_error(channel_zh: Answer) -> None:
    refused = channel_zh.model_copy(update={"status": "refused", "result": None})
    with pytest.raises(InvalidInput) as caught:
        refused.to_pandas()
    assert caught.value.error_code == "no_result"
    assert "refused" in caught.value.message("zh") and "结果表" in caught.value.message("zh")


@pytest.mark.parametrize(
    ("method", "module", "install"),
    [("to_polars", "polars", "pip install polars"), ("to_arrow", "pyarrow", "baton-analyst[dataframes]")],
)
def test_a_missing_library_names_what_to_install(
    channel_zh: Answer, monkeypatch: pytest.MonkeyPatch, method: str, module: str, install: str
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # the import system's "not installed"
    with pytest.raises(MissingDependency) as caught:
        getattr(channel_zh, method)()
    assert caught.value.error_code == "missing_dependency"
    assert install in caught.value.message("en") and module in caught.value.message("zh")


@pytest.mark.parametrize(
    ("type_name", "kind"),
    [
        ("DATE", "date"),
        ("date", "date"),
        ("TIMESTAMP", "timestamp"),
        ("TIMESTAMP WITHOUT TIME ZONE", "timestamp"),
        ("TIMESTAMP WITH TIME ZONE", "timestamptz"),
        ("TIMESTAMPTZ", "timestamptz"),
        ("DECIMAL(38,2)", "float"),
        ("NUMERIC", "float"),
        ("DOUBLE PRECISION", "float"),
        ("BIGINT", "integer"),
        ("UBIGINT", "integer"),
        ("INT4", "integer"),
        ("BOOLEAN", "boolean"),
        ("VARCHAR", "string"),
        ("CHARACTER VARYING(20)", "string"),
        ("INTERVAL", "other"),
    ],
)
def test_column_kinds(type_name: str, kind: str) -> None:
    assert column_kind(type_name) == kind


def test_an_analysis_converts_its_drivers(analysis_zh: Answer) -> None:
    """An analysis has no result table: its frame is one row per driver, each number as held."""
    assert analysis_zh.status == "answered" and analysis_zh.result is None and analysis_zh.drivers
    df = analysis_zh.to_pandas()
    assert len(df) == len(analysis_zh.drivers)
    named = {dim for d in analysis_zh.drivers for dim in d.members}
    assert named <= set(df.columns) and {"factor", "change", "share_of_change", "ci_low", "significant"} <= set(
        df.columns
    )
    assert str(df["change"].dtype) == "float64" and str(df["significant"].dtype) == "bool"
    for row, driver in zip(df.itertuples(index=False), analysis_zh.drivers, strict=True):
        assert all(getattr(row, dim) == member for dim, member in driver.members.items())
        assert row.change == driver.change and row.factor == driver.factor
        if driver.ci is None:
            assert pd.isna(row.ci_low) and pd.isna(row.ci_high)
        else:
            assert (row.ci_low, row.ci_high) == (driver.ci.low, driver.ci.high)
    assert analysis_zh.to_arrow().num_rows == analysis_zh.to_polars().height == len(analysis_zh.drivers)
