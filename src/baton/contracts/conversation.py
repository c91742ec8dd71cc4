"""A conversation: a chain of runs, each follow-up planned from the one before it."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["ConversationSummary", "FollowUpInfo", "PartName", "PlannedBy"]

PartName = Literal[
    "metric",
    "filter",
    "exclusion",
    "period",
    "grain",
    "comparison",
    "breakdown",
    "ranking",
    "share",
    "threshold",
    "why",
]


class FollowUpInfo(BaseModel):
    """How a turn of a conversation relates to the answered turn before it (the parent)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    conversation_id: str
    parent_run_id: str | None = Field(default=None, description="the answered turn this one follows (None: the first)")
    standalone: bool = Field(default=False, description="a whole question of its own: nothing inherited")
    changed: tuple[PartName, ...] = ()
    inherited: tuple[PartName, ...] = ()
    dropped: tuple[PartName, ...] = Field(
        default=(),
        description="the parts of ``changed`` taken away, not changed into another part (a comparison dropped)",
    )


class PlannedBy(BaseModel):
    """Who read the question: the rule planner, or a language model (validated the same way)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    planner: Literal["rules", "model"] = "rules"
    model: str | None = None
    reason: str | None = Field(default=None, description="why the model was asked (the rule planner's error code)")


class ConversationSummary(BaseModel):
    """One row of ``baton chat``'s /runs and of the conversation list."""

    model_config = ConfigDict(extra="forbid")
    conversation_id: str
    user: str
    started_at: datetime
    turns: list[str] = Field(default_factory=list, description="run ids, in order")
