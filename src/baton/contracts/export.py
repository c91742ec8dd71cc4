"""Governed exports: what a preview shows before anything is written, and what an approved
export wrote.

An export takes a stored run's result out of Baton as a file (csv, xlsx or parquet). It is a
two-step, traced run of kind ``export``: the *preview* re-runs the run's statement under
today's policy as the exporting user and says exactly what the file would hold (columns, the
first rows, the row count, which columns are masked and how, whether the rows are detail rows);
only the *approval* writes the file. The flow lives in ``baton.exports``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.answer import Column

ExportFormat = Literal["csv", "xlsx", "parquet"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("csv", "xlsx", "parquet")
MaskStyleName = Literal["full", "phone", "email"]
PREVIEW_ROWS = 10
"""How many rows a preview shows."""


class MaskedColumn(BaseModel):
    """A personal-data column the export holds only masked."""

    model_config = ConfigDict(extra="forbid")
    column: str = Field(description="the source column, table.column")
    style: MaskStyleName
    how: str = Field(description="what a masked value looks like, in the export's language")


class ExportPreview(BaseModel):
    """What the file would hold, computed under today's policy; nothing is written yet."""

    model_config = ConfigDict(extra="forbid")
    export_id: str = Field(description="the export's own run (kind export): `baton runs trace <export_id>`")
    run_id: str = Field(description="the run whose result is exported")
    user: str = Field(description="the exporting user (the export's owner)")
    format: ExportFormat
    columns: list[Column]
    rows: list[list[Any]] = Field(description=f"the first rows (at most {PREVIEW_ROWS})")
    row_count: int
    truncated: bool = Field(default=False, description="the result stopped at the row cap")
    masked: list[MaskedColumn] = Field(default_factory=list)
    row_filters: list[str] = Field(default_factory=list, description="row filters today's policy applied")
    min_group_size: int | None = Field(
        default=None, description="k: groups of fewer records of an aggregate-only table are left out"
    )
    suppressed_groups: int | None = Field(default=None, description="how many groups k left out (None: not counted)")
    detail_rows: bool = Field(description="one row per record (not aggregates): needs export_detail")
    approval_required: bool = Field(
        description="a separate, explicit approval of this preview is needed (detail rows); an aggregate "
        "export may be approved in the same request as its preview"
    )
    approved: bool = False
    sql: str = Field(description="the statement as approved today")
    policy_version: str
    data_version: str
    created_at: datetime
    expires_at: datetime = Field(description="after this the preview can no longer be approved")


class ExportResult(BaseModel):
    """An approved export: the file written (atomically) and how to check it."""

    model_config = ConfigDict(extra="forbid")
    export_id: str
    run_id: str
    format: ExportFormat
    filename: str
    media_type: str
    path: str | None = Field(default=None, description="where Baton keeps the file (absent over HTTP)")
    sha256: str
    rows: int
    bytes: int
    approved_at: datetime


class ExportOutcome(BaseModel):
    """One export request's answer: always the preview; the result once approved."""

    model_config = ConfigDict(extra="forbid")
    preview: ExportPreview
    export: ExportResult | None = None
