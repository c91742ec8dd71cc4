"""Handoff contracts: the ``Baton`` envelope, ``TaskPacket`` (parent → child), ``AgentReport`` (child → parent).

Agents never pass chat transcripts. Between two relay steps travels a ``Baton`` whose
``task`` is frozen after step 1, whose ``constraints`` and ``must_keep`` only grow, and whose
``payload`` is the typed output of the agent that just ran. The invariants themselves are
checked in ``baton.context.relay``; these models only validate shape.
"""

from __future__ import annotations

import copy
import functools
import re
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from baton.contracts.agent_outputs import AgentName, AgentOutput, AgentOutputBase
from baton.contracts.ledger import Contradiction
from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath, KeyNumber

_FROZEN = ConfigDict(frozen=True, extra="forbid")

OutT = TypeVar("OutT", bound=BaseModel)


class Task(BaseModel):
    """The user's question and goal; written once by step 1 and read-only afterwards."""

    model_config = _FROZEN

    question: str = Field(min_length=1)
    language: Literal["zh", "en"] = "zh"
    goal: str | None = None


class MustKeep(BaseModel):
    """What no step may drop, compress or re-tell: append-only for the whole chain."""

    model_config = _FROZEN

    filters_applied: tuple[AppliedFilter, ...] = ()
    assumptions: tuple[Assumption, ...] = ()
    excluded_paths: tuple[ExcludedPath, ...] = ()
    key_numbers: tuple[KeyNumber, ...] = ()

    def is_empty(self) -> bool:
        return not (self.filters_applied or self.assumptions or self.excluded_paths or self.key_numbers)


MUST_KEEP_FIELDS: tuple[str, ...] = ("filters_applied", "assumptions", "excluded_paths", "key_numbers")


class Lineage(BaseModel):
    """Where a baton sits in its run: step n carries the output of the n-th agent."""

    model_config = _FROZEN

    run_id: str = Field(min_length=1)
    step: int = Field(ge=1)
    context_id: str = Field(min_length=1)
    parent_context_id: str | None = None

    @model_validator(mode="after")
    def _root_has_no_parent(self) -> Lineage:
        if self.step == 1 and self.parent_context_id is not None:
            raise ValueError("step 1 has no parent context")
        if self.step > 1 and self.parent_context_id is None:
            raise ValueError("every step after the first names its parent context")
        return self


class Baton(BaseModel):
    """The envelope passed from one relay step to the next."""

    model_config = _FROZEN

    task: Task
    constraints: tuple[str, ...] = ()
    must_keep: MustKeep = MustKeep()
    payload: AgentOutput
    notes: str | None = Field(default=None, description="for the next agent only; not carried further")
    lineage: Lineage


class HistoryItem(BaseModel):
    """An earlier step as the receiving agent sees it, compressed by distance."""

    model_config = _FROZEN

    step: int = Field(ge=1)
    agent: str
    distance: int = Field(ge=1)
    level: Literal["full", "findings", "conclusion"]
    lines: tuple[str, ...]


class GrantView(BaseModel):
    """The part of the asking user's grants that travels with a packet (no secrets)."""

    model_config = _FROZEN

    user_id: str
    pii_visible: bool = False
    hidden_columns: tuple[str, ...] = ()


_SENTENCE_END = re.compile(r"[。！？!?]|\.(?=\s|$)")


def count_sentences(text: str) -> int:
    """Sentences in mixed Chinese/English text (。！？!? and a full stop before a space or end)."""
    parts = [p for p in _SENTENCE_END.split(text.strip()) if p.strip()]
    return len(parts)


class TaskPacket(BaseModel):
    """Everything one child agent receives, and nothing more (source document 05)."""

    model_config = _FROZEN

    task_id: str = Field(min_length=1)
    agent: AgentName
    instruction: str = Field(min_length=1)
    task: Task
    input_data: dict[str, Any] = Field(default_factory=dict)
    constraints: tuple[str, ...] = ()
    must_keep: MustKeep = MustKeep()
    contradictions: tuple[Contradiction, ...] = ()
    history: tuple[HistoryItem, ...] = ()
    notes: str | None = None
    project_context: str = Field(min_length=1, description="at most two sentences")
    expected_output: dict[str, Any] = Field(description="JSON schema of the child's output model")
    grants: GrantView
    context_id: str = Field(min_length=1)
    parent_context_id: str | None = None
    token_count: int | None = Field(default=None, ge=0, description="tokens of the rendered packet")
    dropped: tuple[str, ...] = Field(default=(), description="detail dropped to meet the token budget")
    over_budget: bool = False

    @field_validator("project_context")
    @classmethod
    def _two_sentences(cls, value: str) -> str:
        if count_sentences(value) > 2:
            raise ValueError("project_context is at most two sentences")
        return value


class ReportResult(BaseModel, Generic[OutT]):
    model_config = _FROZEN

    summary: str
    data: OutT


class AgentReport(BaseModel, Generic[OutT]):
    """A child's answer. The parent merges ``data`` verbatim, keeps ``summary`` and ``issues``
    as tracking entries, and never merges or forwards ``reasoning``."""

    model_config = _FROZEN

    task_id: str = Field(min_length=1)
    status: Literal["success", "partial", "failed"]
    result: ReportResult[OutT] | None = None
    issues: tuple[str, ...] = ()
    reasoning: str | None = Field(default=None, description="the child's scratch work; discarded by the parent")

    @model_validator(mode="after")
    def _success_has_result(self) -> AgentReport[OutT]:
        if self.status != "failed" and self.result is None:
            raise ValueError("a successful or partial report carries a result")
        return self


def output_schema(model: type[AgentOutputBase]) -> dict[str, Any]:
    """The JSON schema a child must answer with (``TaskPacket.expected_output``): a fresh copy of
    the class's schema, generated once per class (pydantic takes ~20 ms to generate it, and the
    context engine asks for it on every attempt at fitting a packet)."""
    return copy.deepcopy(_generated_schema(model))


@functools.cache
def _generated_schema(model: type[AgentOutputBase]) -> dict[str, Any]:
    return model.model_json_schema()
