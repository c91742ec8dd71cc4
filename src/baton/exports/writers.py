"""A result table as the bytes of a csv, xlsx or parquet file.

Rows arrive as the run store keeps them (JSON-friendly: dates as ISO strings, decimals as
floats — ``baton.warehouse.runner.json_cell``); each column is converted back by the type the
warehouse reported, so a spreadsheet gets real dates and numbers and parquet typed columns. A
column whose values do not fit its type (a masked cell) stays text rather than losing values.

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
import re
from collections.abc import Callable
from datetime import UTC, date, datetime
from types import ModuleType
from typing import Any, Literal

from baton.contracts.answer import Column
from baton.contracts.export import ExportFormat
from baton.errors import MissingDependency
from baton.messages import both

Kind = Literal["date", "timestamp", "integer", "float", "boolean", "string"]
MEDIA_TYPES: dict[ExportFormat, str] = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "parquet": "application/vnd.apache.parquet",
}
_PACKAGES: dict[ExportFormat, str | None] = {"csv": None, "xlsx": "openpyxl", "parquet": "pyarrow"}
_INTEGER = {"TINYINT", "SMALLINT", "INTEGER", "INT", "BIGINT", "HUGEINT", "INT1", "INT2", "INT4", "INT8", "INT16"}
_FLOAT = {"DOUBLE", "FLOAT", "REAL", "FLOAT4", "FLOAT8", "DOUBLE PRECISION", "DECIMAL", "NUMERIC"}
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


def column_kind(type_name: str) -> Kind:
    """What a reported column type converts to (DuckDB's and PostgreSQL's spellings)."""
    name = re.sub(r"\(.*\)", "", type_name.strip().upper()).strip()
    if name == "DATE":
        return "date"
    if name.startswith("TIMESTAMP"):
        return "timestamp"
    if name in _INTEGER or (name.startswith("U") and name[1:] in _INTEGER):
        return "integer"
    if name in _FLOAT:
        return "float"
    if name in {"BOOLEAN", "BOOL"}:
        return "boolean"
    return "string"


def _timestamp(value: Any) -> datetime:
    """A naive UTC timestamp (spreadsheets and a plain parquet field hold no zone)."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _integer(value: Any) -> int:
    if isinstance(value, bool) or not float(value).is_integer():
        raise ValueError(value)
    return int(value)


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError(value)


_CONVERT: dict[Kind, Callable[[Any], Any]] = {
    "date": lambda v: v if isinstance(v, date) else date.fromisoformat(str(v)[:10]),
    "timestamp": _timestamp,
    "integer": _integer,
    "float": float,
    "boolean": _boolean,
    "string": str,
}


def typed_columns(columns: list[Column], rows: list[list[Any]]) -> list[tuple[str, Kind, list[Any]]]:
    """(name, kind, converted values) per column; a column that does not convert is text."""
    out: list[tuple[str, Kind, list[Any]]] = []
    for index, column in enumerate(columns):
        raw = [row[index] for row in rows]
        kind = column_kind(column.type)
        try:
            values = [None if v is None else _CONVERT[kind](v) for v in raw]
        except (TypeError, ValueError, OverflowError):
            kind, values = "string", [None if v is None else str(v) for v in raw]
        out.append((column.name, kind, values))
    return out


def render(fmt: ExportFormat, columns: list[Column], rows: list[list[Any]]) -> bytes:
    """The file's bytes."""
    typed = typed_columns(columns, rows)
    if fmt == "csv":
        return _csv(typed)
    if fmt == "xlsx":
        return _xlsx(typed)
    return _parquet(typed)


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


def _csv(typed: list[tuple[str, Kind, list[Any]]]) -> bytes:
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([_csv_cell(name) for name, _kind, _values in typed])
    for row in zip(*(values for _name, _kind, values in typed), strict=True):
        writer.writerow([_csv_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig")


def _xlsx(typed: list[tuple[str, Kind, list[Any]]]) -> bytes:
    openpyxl = require_writer("xlsx")
    assert openpyxl is not None
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE  # type: ignore[import-untyped]

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "export"
    formats = {"date": "yyyy-mm-dd", "timestamp": "yyyy-mm-dd hh:mm:ss"}

    def put(row: int, col: int, value: Any, kind: Kind) -> None:
        if isinstance(value, str):
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        cell = sheet.cell(row=row, column=col, value=value)
        if isinstance(value, str):
            cell.data_type = "s"  # text stays text: never a formula
        elif kind in formats:
            cell.number_format = formats[kind]

    for col, (name, _kind, _values) in enumerate(typed, start=1):
        put(1, col, name, "string")
    for col, (_name, kind, values) in enumerate(typed, start=1):
        for row, value in enumerate(values, start=2):
            if value is not None:
                put(row, col, value, kind)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _parquet(typed: list[tuple[str, Kind, list[Any]]]) -> bytes:
    pa = require_writer("parquet")
    assert pa is not None
    import pyarrow.parquet as pq  # type: ignore[import-untyped]

    types = {
        "date": pa.date32(),
        "timestamp": pa.timestamp("us"),
        "integer": pa.int64(),
        "float": pa.float64(),
        "boolean": pa.bool_(),
        "string": pa.string(),
    }
    table = pa.Table.from_arrays(
        [pa.array(values, type=types[kind]) for _name, kind, values in typed], names=[name for name, _k, _v in typed]
    )
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return bytes(sink.getvalue().to_pybytes())
