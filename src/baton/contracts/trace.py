"""Trace events: what happened in a run, in order, for audit and replay."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

EventType = Literal[
    "run_started",
    "plan_created",
    "policy_decision",
    "tool_call",
    "evidence_selected",
    "handoff",
    "answer_created",
    "run_finished",
]


class TraceEvent(BaseModel):
    model_config = ConfigDict(extra="forbid")
    event_id: str
    run_id: str
    seq: int
    ts: datetime
    type: EventType
    actor: str = "baton"
    payload: dict[str, Any] = Field(default_factory=dict)
