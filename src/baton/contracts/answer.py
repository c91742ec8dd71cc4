"""The Answer: the contract every entry point (CLI, API, server) returns.

Its shape is public: `baton ask --json` prints exactly `Answer.model_dump_json()`.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.agent_outputs import Driver, QualityFlag, ReportedFinding, ReportSection, StatTest
from baton.contracts.conversation import FollowUpInfo
from baton.contracts.gate import GateDecision
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
    detail_rows: bool = Field(
        default=False,
        description="the rows are detail rows, not aggregates: a report or export of them needs export_detail",
    )


class MetricInfo(BaseModel):
    """A metric's definition (口径) as shown to the reader."""

    model_config = ConfigDict(extra="forbid")
    name: str
    label: str
    definition: str
    expression: str
    filters: list[str]
    owner: str
    time_column: str | None = Field(
        default=None, description="the date column(s) the metric is counted by: its time dimension, else its table's"
    )


class ErrorInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str
    message: str
    detail: dict[str, Any] = Field(default_factory=dict)


class AnswerTimeRange(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: date
    end: date


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
    interpretation: str | None = Field(
        default=None, description="how the question was read, from the query that ran: every answer leads with it"
    )
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
    conversation_id: str | None = Field(default=None, description="the conversation this answer is a turn of")
    follow_up: FollowUpInfo | None = Field(default=None, description="what a follow-up kept and changed")
    chart: dict[str, Any] | None = Field(default=None, description="validated Vega-Lite v5 spec, data inline")
    gate: GateDecision | None = Field(default=None, description="the output gate's decision on the answer text")
    partial: bool = Field(default=False, description="stopped early (e.g. a budget); what finished is kept")
    # analysis (``baton analyze``): empty for a simple ``ask``
    sections: list[ReportSection] = Field(
        default_factory=list, description="the analysis report after its summary (``answer``): drivers, tests, …"
    )
    drivers: list[Driver] = Field(default_factory=list)
    findings: list[ReportedFinding] = Field(default_factory=list)
    tests: list[StatTest] = Field(default_factory=list)
    quality_flags: list[QualityFlag] = Field(default_factory=list)
    excluded_paths: list[str] = Field(default_factory=list)
    handoffs: list[HandoffInfo] = Field(default_factory=list)

    def narrative(self) -> str:
        """Everything the answer says in words: the summary, then every section's items (what
        the output gate checks)."""
        return "\n".join([self.answer, *(item for s in self.sections for item in (s.heading, *s.items))])
