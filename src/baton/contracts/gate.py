"""The output gate's verdict, as data: kept on every Answer and written to the trace.

The gate itself (reading numbers, PII, claims) lives in ``baton.policy.output_gate``; its
decision crosses package boundaries, so the shape lives here.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

ViolationKind = Literal["number", "pii", "claim"]
GateAction = Literal["pass", "regenerated", "refused"]


class Violation(BaseModel):
    """One thing the gate blocked: what kind, the offending text, and why (in the answer's language)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    kind: ViolationKind
    text: str
    reason: str


class GateDecision(BaseModel):
    """The gate's verdict on an answer's narrative; kept on the Answer and in the trace."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ok: bool
    violations: list[Violation] = Field(default_factory=list)
    rounding_rule: str
    numbers_checked: int = 0
    action: GateAction = "pass"
    replaced: list[Violation] = Field(
        default_factory=list, description="violations of a narrative that was regenerated"
    )


__all__ = ["GateAction", "GateDecision", "Violation", "ViolationKind"]
