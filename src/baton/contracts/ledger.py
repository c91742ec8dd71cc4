"""Ledger models: the orchestrator's shared memory pool (entries, contradictions, snapshots).

Entries are typed and append-only; a contradiction keeps both values and a record of the
conflict, never last-write-wins. A snapshot is an immutable tuple that parallel children
read while the orchestrator keeps writing.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from baton.contracts.values import FactScope, KeyNumber, Period

_FROZEN = ConfigDict(frozen=True, extra="forbid")

EntryKind = Literal["fact", "hypothesis", "observation", "question", "finding", "data", "summary", "issue"]
"""``data`` holds an agent's output verbatim; ``summary`` and ``issue`` are tracking entries."""


class Tolerance(BaseModel):
    """Two values of one fact agree when ``|a - b| <= max(absolute, relative * max(|a|, |b|))``."""

    model_config = _FROZEN

    absolute: Decimal = Field(default=Decimal(0), ge=0)
    relative: Decimal = Field(default=Decimal(0), ge=0)

    def agrees(self, a: Decimal, b: Decimal) -> bool:
        allowed = max(self.absolute, self.relative * max(abs(a), abs(b)))
        return abs(a - b) <= allowed


class LedgerEntry(BaseModel):
    """One typed entry of the shared memory pool."""

    model_config = _FROZEN

    entry_id: str = Field(min_length=1)
    seq: int = Field(ge=0, description="position in the ledger; entries are never reordered")
    kind: EntryKind
    source_agent: str = Field(min_length=1)
    step: int = Field(ge=0)
    context_id: str | None = None
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    evidence_ids: tuple[str, ...] = ()
    references: tuple[str, ...] = Field(default=(), description="ids of entries this one builds on")
    key: str | None = Field(default=None, description="slot name of a data entry, e.g. sql.output")
    text: str | None = None
    fact: KeyNumber | None = None
    data: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _kind_has_content(self) -> LedgerEntry:
        if self.kind == "fact" and (self.fact is None or not self.fact.is_fact):
            raise ValueError("a fact entry carries a KeyNumber with metric, scope and period")
        if self.kind == "data" and (self.data is None or not self.key):
            raise ValueError("a data entry carries a key and the data")
        if self.kind not in ("fact", "data") and not self.text:
            raise ValueError(f"a {self.kind} entry carries text")
        return self


class Contradiction(BaseModel):
    """Two facts about the same metric, scope and period whose values disagree."""

    model_config = _FROZEN

    contradiction_id: str
    metric: str
    scope: FactScope
    period: Period
    entry_ids: tuple[str, str]
    values: tuple[KeyNumber, KeyNumber]
    reason: Literal["value", "unit"]
    tolerance: Tolerance
    difference: Decimal | None = None

    def rendered(self) -> str:
        a, b = self.values
        scope = ", ".join([f"{m.dimension}={m.member}" for m in self.scope.members] + list(self.scope.filters))
        return (
            f"{self.metric} [{scope or 'all'}] {self.period.rendered()}: "
            f"{a.rendered()} (evidence {a.evidence_id}) vs {b.rendered()} (evidence {b.evidence_id})"
        )


class LedgerSnapshot(BaseModel):
    """An immutable view of the ledger at one version; what readers and children get."""

    model_config = _FROZEN

    version: int = Field(ge=0)
    entries: tuple[LedgerEntry, ...] = ()
    contradictions: tuple[Contradiction, ...] = ()
    tolerance: Tolerance = Tolerance()
