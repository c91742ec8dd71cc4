"""A query result as evidence: what ran, on which data version, and what came back."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.answer import Column


class QueryResult(BaseModel):
    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    approved_sql_id: str | None = None
    sql: str
    columns: list[Column]
    rows: list[list[Any]]
    row_count: int
    truncated: bool = False
    elapsed_ms: float
    data_version: str
    cached: bool = False
    min_group_size: int | None = Field(
        default=None, description="k: groups of fewer rows of an aggregate-only table were left out (None: none were)"
    )
    suppressed_groups: int | None = Field(
        default=None,
        description="how many groups the minimum group size left out of these rows (None: not counted — no "
        "suppression, or it applied to a nested query level only)",
    )


class TableLoad(BaseModel):
    """How fresh one table is: up to which date it holds data and, when a load log says so,
    when it was loaded."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    table_name: str
    loaded_at: datetime | None = None
    max_data_date: date | None = None


class Freshness(BaseModel):
    model_config = ConfigDict(extra="forbid")
    tables: list[TableLoad] = Field(default_factory=list)

    def for_tables(self, names: list[str] | tuple[str, ...]) -> list[TableLoad]:
        return [t for t in self.tables if t.table_name in names]


class ForeignKey(BaseModel):
    """A declared single-column foreign key: ``table.column`` references ``ref_table.ref_column``
    (what a warehouse's schema says; ``baton init`` drafts joins from it)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str
    column: str
    ref_table: str
    ref_column: str
