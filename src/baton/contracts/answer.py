"""The Answer: the contract every entry point (CLI, API, server) returns.

Its shape is public: `baton ask --json` prints exactly `Answer.model_dump_json()`.
"""

from __future__ import annotations

import datetime as dt
from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.semantic import Language, SemanticQuery
from baton.policy.output_gate import GateDecision

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


class DriverInfo(BaseModel):
    """One ranked driver of a metric's change (``baton analyze``)."""

    model_config = ConfigDict(extra="forbid")
    members: dict[str, str]
    factor: str
    change: float
    share_of_change: float
    p_value: float | None = None
    ci: list[float] | None = None
    q_value: float | None = None
    significant: bool = False
    evidence_ids: list[str] = Field(default_factory=list)


class QualityFlagInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    table: str
    date: dt.date | None = None
    issue: str
    affects_period: bool
    assumption: str | None = None


class HandoffInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    step: int
    agent: str
    context_id: str
    tokens: int


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
    chart: dict[str, Any] | None = Field(default=None, description="validated Vega-Lite v5 spec, data inline")
    gate: GateDecision | None = Field(default=None, description="the output gate's decision on the answer text")
    partial: bool = Field(default=False, description="stopped early (e.g. a budget); what finished is kept")
    # analysis (``baton analyze``): empty for a simple ``ask``
    drivers: list[DriverInfo] = Field(default_factory=list)
    findings: list[dict[str, Any]] = Field(default_factory=list)
    tests: list[dict[str, Any]] = Field(default_factory=list)
    quality_flags: list[QualityFlagInfo] = Field(default_factory=list)
    excluded_paths: list[str] = Field(default_factory=list)
    handoffs: list[HandoffInfo] = Field(default_factory=list)
