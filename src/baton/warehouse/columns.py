"""A result table's JSON-friendly cells converted back by the column type the warehouse reported:
the one converter the exports' writers and the notebook's frames share.

Rows arrive as the run store keeps them (dates as ISO strings, decimals as floats:
:func:`baton.warehouse.runner.json_cell`). Each column's reported type (DuckDB's and
PostgreSQL's spellings) gives its kind:

- ``DATE`` → ``date``; ``TIMESTAMP…`` → ``timestamp`` (naive; a zoned value is moved to UTC
  first) or, ``…WITH TIME ZONE``/``TIMESTAMPTZ``, ``timestamptz`` (aware, kept in UTC);
- integer types → ``integer``; ``DECIMAL``/``NUMERIC`` and floating types → ``float``;
- ``BOOLEAN`` → ``boolean``; text types → ``string``; anything else is ``other`` (left as it
  came: a library decides, a file writes it as text).

A column whose values do not fit its kind (a masked cell, say) becomes ``string`` rather than
losing values. No dataframe library is imported here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Literal

from baton.contracts.answer import Column

Kind = Literal["date", "timestamp", "timestamptz", "integer", "float", "boolean", "string", "other"]

_INTEGER = {"TINYINT", "SMALLINT", "INTEGER", "INT", "BIGINT", "HUGEINT", "INT1", "INT2", "INT4", "INT8", "INT16"}
_FLOAT = {"DOUBLE", "FLOAT", "REAL", "FLOAT4", "FLOAT8", "DOUBLE PRECISION", "DECIMAL", "NUMERIC"}
_STRING = {"VARCHAR", "TEXT", "STRING", "CHAR", "BPCHAR", "CHARACTER", "CHARACTER VARYING", "UUID", "ENUM", "BLOB"}


def column_kind(type_name: str) -> Kind:
    """What a reported column type converts to (DuckDB's and PostgreSQL's spellings)."""
    name = re.sub(r"\(.*\)", "", type_name.strip().upper()).strip()
    if name == "DATE":
        return "date"
    if name.startswith("TIMESTAMP"):
        zoned = name == "TIMESTAMPTZ" or ("TIME ZONE" in name and "WITHOUT" not in name)
        return "timestamptz" if zoned else "timestamp"
    if name in _INTEGER or (name.startswith("U") and name[1:] in _INTEGER):
        return "integer"
    if name in _FLOAT:
        return "float"
    if name in {"BOOLEAN", "BOOL"}:
        return "boolean"
    if name in _STRING:
        return "string"
    return "other"


def _to_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value)[:10])


def _to_timestamp(value: Any, utc: bool) -> datetime:
    """``utc``: aware, in UTC (a naive value is taken as UTC); else naive (a zoned value in UTC)."""
    moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    if utc:
        return moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not value.is_integer():
            raise ValueError(value)
        return int(value)
    return int(str(value))


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError(value)


CONVERT: dict[Kind, Callable[[Any], Any]] = {
    "date": _to_date,
    "timestamp": lambda v: _to_timestamp(v, utc=False),
    "timestamptz": lambda v: _to_timestamp(v, utc=True),
    "integer": _to_int,
    "float": float,
    "boolean": _to_bool,
    "string": str,
}
"""Each kind's converter (``other`` has none: its values stay as they came)."""


@dataclass(frozen=True)
class TypedColumn:
    """One column's name, kind and values converted to that kind (``None`` stays ``None``)."""

    name: str
    kind: Kind
    values: list[Any]


def typed_columns(columns: Sequence[Column], rows: Sequence[Sequence[Any]]) -> list[TypedColumn]:
    """The columns with converted values; a column that does not convert is text."""
    out: list[TypedColumn] = []
    for index, column in enumerate(columns):
        raw = [row[index] for row in rows]
        kind = column_kind(column.type)
        convert = CONVERT.get(kind)
        if convert is None:
            out.append(TypedColumn(column.name, kind, raw))
            continue
        try:
            values = [None if v is None else convert(v) for v in raw]
        except (TypeError, ValueError, OverflowError):
            kind, values = "string", [None if v is None else str(v) for v in raw]
        out.append(TypedColumn(column.name, kind, values))
    return out
