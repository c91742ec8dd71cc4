"""A result table as the bytes of a csv, xlsx or parquet file.

Rows arrive as the run store keeps them (JSON-friendly: dates as ISO strings, decimals as
floats — ``baton.warehouse.runner.json_cell``); each column is converted back by the type the
warehouse reported (:mod:`baton.warehouse.columns`, the notebook's frames use it too), so a
spreadsheet gets real dates and numbers and parquet typed columns. A column whose values do not
fit its type (a masked cell) stays text rather than losing values; a type of no known kind is
written as text. A timestamp with a time zone stays in UTC (parquet: a UTC field; a spreadsheet
cell holds no zone, so it gets the UTC wall time).

* csv: UTF-8 with a byte-order mark (so spreadsheet programs read Chinese text right), one header
  row; a text cell starting with ``= + - @`` (or a tab/CR) is prefixed with ``'`` so no
  spreadsheet evaluates data as a formula.
* xlsx (openpyxl): one sheet, a header row; text cells are stored as text, never as formulas,
  and characters XML cannot hold are removed.
* parquet (pyarrow): one typed field per column.

openpyxl and pyarrow are the ``dataframes`` extra; a missing one is a typed error naming it,
raised before anything runs (:func:`require_writer`).
"""

from __future__ import annotations

import csv
import importlib
import io
from datetime import UTC, date, datetime
from types import ModuleType
from typing import Any

from baton.contracts.answer import Column
from baton.contracts.export import ExportFormat
from baton.errors import MissingDependency
from baton.messages import both
from baton.warehouse.columns import TypedColumn, typed_columns

MEDIA_TYPES: dict[ExportFormat, str] = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "parquet": "application/vnd.apache.parquet",
}
_PACKAGES: dict[ExportFormat, str | None] = {"csv": None, "xlsx": "openpyxl", "parquet": "pyarrow"}
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def require_writer(fmt: ExportFormat) -> ModuleType | None:
    """The package that writes ``fmt`` (None for csv), or :class:`MissingDependency`."""
    package = _PACKAGES[fmt]
    if package is None:
        return None
    try:
        return importlib.import_module(package)
    except ImportError as exc:
        raise MissingDependency(
            *both("exports.missing_dependency", format=fmt, package=package), detail={"package": package}
        ) from exc


def render(fmt: ExportFormat, columns: list[Column], rows: list[list[Any]]) -> bytes:
    """The file's bytes."""
    typed = [_writable(c) for c in typed_columns(columns, rows)]
    if fmt == "csv":
        return _csv(typed)
    if fmt == "xlsx":
        return _xlsx(typed)
    return _parquet(typed)


def _writable(column: TypedColumn) -> TypedColumn:
    """A column of no known kind is written as text."""
    if column.kind != "other":
        return column
    return TypedColumn(column.name, "string", [None if v is None else str(v) for v in column.values])


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, date):
        return value.isoformat()
    return value


def _csv(typed: list[TypedColumn]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([_csv_cell(c.name) for c in typed])
    for row in zip(*(c.values for c in typed), strict=True):
        writer.writerow([_csv_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig")


def _xlsx(typed: list[TypedColumn]) -> bytes:
    openpyxl = require_writer("xlsx")
    assert openpyxl is not None
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE  # type: ignore[import-untyped]

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "export"
    formats = {"date": "yyyy-mm-dd", "timestamp": "yyyy-mm-dd hh:mm:ss", "timestamptz": "yyyy-mm-dd hh:mm:ss"}

    def put(row: int, col: int, value: Any, kind: str) -> None:
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        elif isinstance(value, datetime) and value.tzinfo is not None:  # a cell holds no zone: UTC's wall time
            value = value.astimezone(UTC).replace(tzinfo=None)
        cell = sheet.cell(row=row, column=col, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # text stays text: never a formula
        elif kind in formats:
            cell.number_format = formats[kind]

    for col, column in enumerate(typed, start=1):
        put(1, col, column.name, "string")
    for col, column in enumerate(typed, start=1):
        for row, value in enumerate(column.values, start=2):
            if value is not None:
                put(row, col, value, column.kind)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _parquet(typed: list[TypedColumn]) -> bytes:
    pa = require_writer("parquet")
    assert pa is not None
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    types = {
        "date": pa.date32(),
        "timestamp": pa.timestamp("us"),
        "timestamptz": pa.timestamp("us", tz="UTC"),
        "integer": pa.int64(),
        "float": pa.float64(),
        "boolean": pa.bool_(),
        "string": pa.string(),
    }
    table = pa.Table.from_arrays([pa.array(c.values, type=types[c.kind]) for c in typed], names=[c.name for c in typed])
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())
