"""The input contract of ``baton.charts``: a result table described by column roles.

Charts are chosen from the *shape* of a result (which columns are time, dimensions, measures,
interval bounds or quality flags), never from model-written plotting code. Callers describe
the table once with these frozen types; :func:`ChartRequest.__post_init__` rejects a table
whose rows do not match its columns, so every later step can trust the shape.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal, TypeAlias

from baton.contracts.common import Language, Unit
from baton.contracts.semantic import Grain
from baton.errors import InvalidInput
from baton.messages import both

ColumnRole = Literal["time", "dimension", "measure", "interval_low", "interval_high", "flag"]
Intent = Literal["trend", "compare", "share", "distribution", "relationship", "period_comparison"]
MarkKind = Literal["anomaly", "peak", "change_point", "incomplete"]
ChartKind = Literal[
    "line",
    "bar",
    "horizontal_bar",
    "stacked_bar",
    "donut",
    "histogram",
    "boxplot",
    "scatter",
    "grouped_bar",
    "table",
]
CellValue: TypeAlias = str | int | float | Decimal | dt.date | dt.datetime | bool | None

CHART_KINDS: tuple[ChartKind, ...] = (
    "line",
    "bar",
    "horizontal_bar",
    "stacked_bar",
    "donut",
    "histogram",
    "boxplot",
    "scatter",
    "grouped_bar",
    "table",
)


@dataclass(frozen=True)
class ChartColumn:
    """One result column: its name in the rows, its role, and a label in the report language.

    ``grain`` says what a time column's values stand for (a day, a week, a month …) so its
    axis reads ``2026年1月``, not ``1月1日``; left out, it is read from the values.
    """

    name: str
    role: ColumnRole
    label: str
    unit: Unit = "number"
    currency: str | None = None
    grain: Grain | None = None


@dataclass(frozen=True)
class ChartMark:
    """An annotation: an anomaly, a peak, a change point, or an incomplete period.

    ``at`` is a time value (line charts) or a member name (bar charts); ``series`` narrows the
    mark to one member of a multi-series chart (``None``: the first/only series).
    """

    kind: MarkKind
    at: dt.date | dt.datetime | str
    label: str
    series: str | None = None


@dataclass(frozen=True)
class ChartChoice:
    """The chart kind a rule picked, and the rule's reason (kept for the trace)."""

    kind: ChartKind
    reason: str


@dataclass(frozen=True)
class ChartRequest:
    """A result table to chart, with the report language, a title, and an optional intent hint."""

    columns: tuple[ChartColumn, ...]
    rows: tuple[tuple[CellValue, ...], ...]
    language: Language
    title: str
    intent: Intent | None = None
    marks: tuple[ChartMark, ...] = ()

    def __post_init__(self) -> None:
        names = [c.name for c in self.columns]
        if len(set(names)) != len(names):
            raise InvalidInput(*both("charts.duplicate_columns", names=names))
        width = len(self.columns)
        for i, row in enumerate(self.rows):
            if len(row) != width:
                raise InvalidInput(*both("charts.row_width", row=i, values=len(row), width=width))
        for role in ("interval_low", "interval_high", "flag"):
            if sum(1 for c in self.columns if c.role == role) > 1:
                raise InvalidInput(*both("charts.one_role_column", role=role))

    # Small helpers every later step uses; they keep role look-ups in one place.
    def by_role(self, role: ColumnRole) -> tuple[ChartColumn, ...]:
        return tuple(c for c in self.columns if c.role == role)

    def index(self, column: ChartColumn) -> int:
        return self.columns.index(column)

    def values(self, column: ChartColumn) -> list[CellValue]:
        i = self.index(column)
        return [row[i] for row in self.rows]
