"""An Answer's result table as a pandas, Arrow or polars frame, with the column types the
warehouse reported.

The Answer carries its rows as JSON-friendly values (dates as ISO strings, decimals as floats:
``baton.warehouse.runner.json_cell``), so each column is converted by its reported type:

- ``DATE`` → a date (pandas ``datetime64[us]``, as DuckDB's own ``.df()`` gives; Arrow ``date32``;
  polars ``Date``); ``TIMESTAMP…`` → a timestamp (``…WITH TIME ZONE`` keeps UTC);
- ``DECIMAL``/``NUMERIC`` and every floating type → 64-bit float, in all three libraries. The
  Answer holds decimals as floats already (their shortest repr round-trips the 2-decimal
  string), so a ``Decimal`` column would claim an exactness the values no longer have; it is
  also what DuckDB's ``.df()`` returns for a DECIMAL;
- integer types → 64-bit integers (pandas' nullable ``Int64`` when a value is missing);
- ``BOOLEAN`` → bool; text types → strings; anything else is left to the library.

An analysis answer, which has no result table, converts its drivers (:func:`drivers_table`).

A column whose values do not fit its type (a masked cell, say) stays text rather than losing
values. The conversion is :mod:`baton.warehouse.columns` (the exports' writers use it too).
Each library is imported only by its own method and is optional: pandas and pyarrow
are the ``dataframes`` extra, polars is installed on its own; a missing one raises
:class:`~baton.errors.MissingDependency` naming the command that installs it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING, Any

from baton.contracts.answer import Answer, Column, ResultTable
from baton.errors import InvalidInput, MissingDependency
from baton.messages import both
from baton.warehouse.columns import Kind, TypedColumn, column_kind
from baton.warehouse.columns import typed_columns as _typed

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]
    import polars
    import pyarrow  # type: ignore[import-untyped]

__all__ = [
    "Kind",
    "TypedColumn",
    "column_kind",
    "drivers_table",
    "require",
    "to_arrow",
    "to_pandas",
    "to_polars",
    "typed_columns",
]

_INSTALL = {"pandas": "'baton-analyst[dataframes]'", "pyarrow": "'baton-analyst[dataframes]'", "polars": "polars"}


def typed_columns(result: ResultTable) -> list[TypedColumn]:
    """The result's columns with converted values (:mod:`baton.warehouse.columns`)."""
    return _typed(result.columns, result.rows)


def _result(answer: Answer) -> ResultTable:
    """The answer's result table; an analysis, which has none, converts its drivers (one row each)."""
    if answer.result is not None:
        return answer.result
    if answer.drivers:
        return drivers_table(answer)
    raise InvalidInput(*both("notebook.no_result", status=answer.status), code="no_result")


_DRIVER_NUMBERS = (
    "change",
    "share_of_change",
    "before",
    "after",
    "factor_change",
    "excess_relative_change",
    "p_value",
    "q_value",
)


def drivers_table(answer: Answer) -> ResultTable:
    """An analysis's drivers as a table: a column per dimension the drivers name (a driver of
    one member leaves the others empty), the factor, its role and stance, each number as the
    driver holds it, the 95 % interval's ends and whether it is significant."""
    dims = list(dict.fromkeys(d for driver in answer.drivers for d in driver.members))
    columns = [Column(name=d, type="VARCHAR") for d in dims]
    columns += [Column(name=n, type="VARCHAR") for n in ("factor", "role", "stance")]
    columns += [Column(name=n, type="DOUBLE") for n in (*_DRIVER_NUMBERS, "ci_low", "ci_high")]
    columns.append(Column(name="significant", type="BOOLEAN"))
    rows = [
        [d.members.get(dim) for dim in dims]
        + [d.factor, d.role, d.stance]
        + [getattr(d, n) for n in _DRIVER_NUMBERS]
        + [d.ci.low if d.ci else None, d.ci.high if d.ci else None, d.significant]
        for d in answer.drivers
    ]
    return ResultTable(columns=columns, rows=rows, row_count=len(rows))


def require(package: str, what: str) -> ModuleType:
    """Import an optional package, or say how to install it."""
    try:
        return importlib.import_module(package)
    except ImportError as exc:
        message = both("notebook.missing_dependency", what=what, package=package, install=_INSTALL[package])
        raise MissingDependency(*message, detail={"package": package}) from exc


def to_arrow(answer: Answer) -> pyarrow.Table:
    """The result as a pyarrow Table with one typed field per column."""
    pa = require("pyarrow", "Answer.to_arrow()")
    types = {
        "date": pa.date32(),
        "timestamp": pa.timestamp("us"),
        "timestamptz": pa.timestamp("us", tz="UTC"),
        "integer": pa.int64(),
        "float": pa.float64(),
        "boolean": pa.bool_(),
        "string": pa.string(),
    }
    columns = typed_columns(_result(answer))
    arrays = [pa.array(c.values, type=types.get(c.kind)) for c in columns]
    return pa.Table.from_arrays(arrays, names=[c.name for c in columns])


def to_pandas(answer: Answer) -> pandas.DataFrame:
    """The result as a pandas DataFrame (dates and timestamps as ``datetime64``)."""
    pd = require("pandas", "Answer.to_pandas()")
    data: dict[str, Any] = {}
    for c in typed_columns(_result(answer)):
        if c.kind in ("date", "timestamp", "timestamptz"):
            unit = "datetime64[us, UTC]" if c.kind == "timestamptz" else "datetime64[us]"  # as DuckDB's .df()
            data[c.name] = pd.to_datetime(pd.Series(c.values, dtype=object), utc=c.kind == "timestamptz").astype(unit)
        elif c.kind == "integer":
            data[c.name] = pd.Series(c.values, dtype="Int64" if None in c.values else "int64")
        elif c.kind == "float":
            data[c.name] = pd.Series([float("nan") if v is None else v for v in c.values], dtype="float64")
        elif c.kind == "boolean":
            data[c.name] = pd.Series(c.values, dtype="boolean" if None in c.values else "bool")
        elif c.kind == "string":
            data[c.name] = pd.Series(c.values)  # pandas' default text dtype (``str`` from pandas 3)
        else:
            data[c.name] = pd.Series(c.values, dtype=object)
    return pd.DataFrame(data)


def to_polars(answer: Answer) -> polars.DataFrame:
    """The result as a polars DataFrame with one typed column per result column."""
    pl = require("polars", "Answer.to_polars()")
    types = {
        "date": pl.Date,
        "timestamp": pl.Datetime("us"),
        "timestamptz": pl.Datetime("us", "UTC"),
        "integer": pl.Int64,
        "float": pl.Float64,
        "boolean": pl.Boolean,
        "string": pl.String,
    }
    columns = typed_columns(_result(answer))
    frame: polars.DataFrame = pl.DataFrame([pl.Series(c.name, c.values, dtype=types.get(c.kind)) for c in columns])
    return frame
