"""The one converter of result cells by reported column type, shared by the exports' writers and
the notebook's frames (issue 16: they were two copies that disagreed)."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime

import openpyxl  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]

from baton.contracts.answer import Column
from baton.exports.writers import render
from baton.warehouse.columns import TypedColumn, column_kind, typed_columns

COLUMNS = [
    Column(name="at", type="TIMESTAMP WITH TIME ZONE"),
    Column(name="day", type="DATE"),
    Column(name="span", type="INTERVAL"),
    Column(name="n", type="BIGINT"),
]
ROWS: list[list[object]] = [["2026-06-01T08:30:00+08:00", "2026-06-01T00:00:00", "1 day", 3]]


def test_one_converter_keeps_zoned_timestamps_in_utc_and_names_unknown_types_other() -> None:
    assert column_kind("TIMESTAMPTZ") == "timestamptz" and column_kind("INTERVAL") == "other"
    at, day, span, n = typed_columns(COLUMNS, ROWS)
    assert at == TypedColumn("at", "timestamptz", [datetime(2026, 6, 1, 0, 30, tzinfo=UTC)])
    assert day.values == [date(2026, 6, 1)] and span == TypedColumn("span", "other", ["1 day"])
    assert n.values == [3]
    masked = typed_columns([Column(name="n", type="INTEGER")], [[1], ["***"]])
    assert masked == [TypedColumn("n", "string", ["1", "***"])]  # a cell that does not fit: text


def test_the_writers_and_the_notebook_share_it() -> None:
    from baton.exports import writers
    from baton.notebook import frames

    assert frames.column_kind is column_kind and "column_kind" not in vars(writers)
    assert vars(writers)["typed_columns"] is typed_columns


def test_files_keep_utc_for_a_zoned_timestamp() -> None:
    table = pq.read_table(io.BytesIO(render("parquet", COLUMNS, ROWS)))
    assert str(table.schema.field("at").type) == "timestamp[us, tz=UTC]"
    assert str(table.schema.field("span").type) == "string"  # no known kind: written as text
    assert table.column("at").to_pylist() == [datetime(2026, 6, 1, 0, 30, tzinfo=UTC)]
    sheet = openpyxl.load_workbook(io.BytesIO(render("xlsx", COLUMNS, ROWS))).active
    assert sheet["A2"].value == datetime(2026, 6, 1, 0, 30) and sheet["C2"].value == "1 day"
    text = render("csv", COLUMNS, ROWS).decode("utf-8-sig")
    assert "2026-06-01T00:30:00+00:00" in text
