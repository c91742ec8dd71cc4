"""Durable run state: everything needed to show, resume or replay a run.

A run moves clarify_metric -> plan_sql -> policy_check -> execute -> analyse -> explain and
ends done | failed | refused | cancelled. The whole state is one JSON document, saved after
every transition, so a crash loses at most the step that was running.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.answer import Answer
from baton.contracts.conversation import FollowUpInfo
from baton.contracts.query import QueryResult
from baton.contracts.semantic import Language, SemanticQuery

RunKind = Literal["ask", "analyze", "query", "sql", "export"]
"""What kind of run: a metric question, why a metric moved, a semantic-layer query (catalog
names, no natural language), a SQL statement (``baton sql run``) or an export of a run's result
(``baton export``, defined in ``baton.exports``). All walk the same driver."""
Step = Literal["clarify_metric", "plan_sql", "policy_check", "execute", "analyse", "explain"]
Terminal = Literal["done", "asked_back", "failed", "refused", "cancelled"]
"""How a run ended; ``asked_back``: Baton asked the user what they meant (no answer, no refusal)."""
RunStatus = Literal["running", "done", "asked_back", "failed", "refused", "cancelled"]
STEPS: tuple[Step, ...] = ("clarify_metric", "plan_sql", "policy_check", "execute", "analyse", "explain")


class Evidence(BaseModel):
    """Where a number came from: a query result (or a value derived from one)."""

    model_config = ConfigDict(extra="forbid")
    evidence_id: str
    source_type: Literal["query_result", "derived", "document", "user"] = "query_result"
    source_uri: str
    source_version: str
    excerpt: str
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    acl: dict[str, Any] = Field(default_factory=dict)
    result: QueryResult | None = None


class Budget(BaseModel):
    """What one run may spend before it stops with a partial answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    max_steps: int = Field(default=40, ge=1, description="steps of the run")
    max_tool_calls: int = Field(default=60, ge=1, description="tool calls (queries)")
    max_tokens: int = Field(default=200_000, ge=1, description="tokens across the packets agents hand on")
    max_cost: float | None = Field(default=None, description="summed estimated query cost")


class Usage(BaseModel):
    model_config = ConfigDict(extra="forbid")
    steps: int = 0
    tool_calls: int = 0
    tokens: int = 0
    cost: float = 0.0
    model_calls: int = Field(default=0, description="language-model calls (their tokens count in ``tokens``)")
    model_tokens: int = 0


class SqlRecord(BaseModel):
    """One statement's lifecycle: draft -> approved id -> executed (evidence)."""

    model_config = ConfigDict(extra="forbid")
    name: str
    draft: str
    approved_sql_id: str | None = None
    approved_sql: str | None = None
    evidence_id: str | None = None
    step: str | None = Field(default=None, description="the pipeline step that ran it (resume re-approves per step)")


class RunState(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    kind: RunKind
    question: str
    user: str
    language: Language
    as_of: date
    status: RunStatus = "running"
    step: Step | Terminal = "clarify_metric"
    completed_steps: list[str] = Field(default_factory=list)
    started_at: datetime
    finished_at: datetime | None = None
    config_path: str | None = None
    conversation_id: str | None = Field(default=None, description="the conversation this run is a turn of")
    parent_run_id: str | None = Field(default=None, description="the answered turn this follow-up inherits from")
    follow_up: FollowUpInfo | None = Field(default=None, description="what the follow-up kept and changed (planned)")
    semantic_query: SemanticQuery | None = None
    interpretation: str | None = None
    grants_fingerprint: str | None = Field(
        default=None, description="the user's grants when the run read data (replay shows it only while they hold)"
    )
    policy_version: str | None = None
    sql: list[SqlRecord] = Field(default_factory=list)
    evidence: list[Evidence] = Field(default_factory=list)
    checkpoints: dict[str, Any] = Field(default_factory=dict)
    budget: Budget = Field(default_factory=Budget)
    usage: Usage = Field(default_factory=Usage)
    answer: Answer | None = None
    error: dict[str, Any] | None = None

    def evidence_by_id(self, evidence_id: str) -> Evidence | None:
        return next((e for e in self.evidence if e.evidence_id == evidence_id), None)


class RunSummary(BaseModel):
    """One row of `baton runs list --json`."""

    model_config = ConfigDict(extra="forbid")
    run_id: str
    status: RunStatus
    question: str
    user: str
    started_at: datetime
    finished_at: datetime | None
    step: str
