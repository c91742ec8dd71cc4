"""The Answer: the contract every entry point (CLI, API, server) returns.

Its shape is public: `baton ask --json` prints exactly `Answer.model_dump_json()`.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.semantic import Language, SemanticQuery

Status = Literal["answered", "clarification_needed", "refused", "failed"]


class Column(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    type: str


class ResultTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    columns: list[Column]
    rows: list[list[Any]]
    row_count: int
    truncated: bool = False


class MetricInfo(BaseModel):
    """A metric's definition (口径) as shown to the reader."""

    model_config = ConfigDict(extra="forbid")
    name: str
    label: str
    definition: str
    expression: str
    filters: list[str]
    owner: str


class ErrorInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str
    message: str
    detail: dict[str, Any] = Field(default_factory=dict)


class AnswerTimeRange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: date
    end: date


class Answer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    status: Status
    question: str
    language: Language
    answer: str
    semantic_query: SemanticQuery | None = None
    sql: str | None = None
    result: ResultTable | None = None
    metrics: list[MetricInfo] = Field(default_factory=list)
    time_range: AnswerTimeRange | None = None
    data_freshness: str | None = None
    assumptions: list[str] = Field(default_factory=list)
    error: ErrorInfo | None = None
    suggestions: list[str] = Field(default_factory=list)
    user: str | None = None
    as_of: date | None = None
