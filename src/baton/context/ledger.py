"""The ledger: the orchestrator's shared memory pool.

Append-only and typed. Facts are structured (metric, normalised scope, period, value, unit),
so a contradiction is found exactly — same metric, scope and period, values apart by more
than the stated tolerance, or different units — and both values stay, with a
:class:`Contradiction` record. Readers get immutable snapshots; relevance works on structure
first and on jieba-segmented text second.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from baton.context.sqlnorm import normalise_predicate
from baton.context.text import overlap, terms
from baton.contracts.ledger import Contradiction, EntryKind, LedgerEntry, LedgerSnapshot, Tolerance
from baton.contracts.values import DimensionMember, FactScope, KeyNumber, Period

FactKey = tuple[str, FactScope, Period]


def make_scope(
    filters: Sequence[str] = (),
    members: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    dialect: str = "duckdb",
) -> FactScope:
    """A scope whose filters are canonical SQL conjuncts, so equal restrictions compare equal."""
    canonical: set[str] = set()
    for predicate in filters:
        canonical.update(normalise_predicate(predicate, dialect))
    pairs = members.items() if isinstance(members, Mapping) else members
    return FactScope(
        filters=tuple(canonical),
        members=tuple(DimensionMember(dimension=d.lower(), member=m) for d, m in pairs),
    )


def canonical_fact(number: KeyNumber) -> KeyNumber:
    """The same number with its scope canonicalised (filters normalised, metric lower-cased)."""
    if not number.is_fact:
        return number
    scope = number.scope or FactScope()
    canon = make_scope(scope.filters, [(m.dimension, m.member) for m in scope.members])
    assert number.metric is not None
    return number.model_copy(update={"scope": canon, "metric": number.metric.strip().lower()})


def fact_key(number: KeyNumber) -> FactKey:
    assert number.metric is not None and number.period is not None
    return (number.metric, number.scope or FactScope(), number.period)


class Ledger:
    """Append-only shared memory. Thread-safe writes; snapshots are immutable values."""

    def __init__(self, tolerance: Tolerance | None = None) -> None:
        self.tolerance = tolerance or Tolerance()
        self._entries: list[LedgerEntry] = []
        self._contradictions: list[Contradiction] = []
        self._facts: dict[FactKey, list[LedgerEntry]] = {}
        self._lock = threading.Lock()

    def add(
        self,
        kind: EntryKind,
        *,
        source_agent: str,
        step: int,
        text: str | None = None,
        fact: KeyNumber | None = None,
        data: dict[str, Any] | None = None,
        key: str | None = None,
        confidence: float = 0.5,
        evidence_ids: Sequence[str] = (),
        references: Sequence[str] = (),
        context_id: str | None = None,
    ) -> LedgerEntry:
        """Append one entry; a fact is checked against every earlier fact with the same key."""
        with self._lock:
            seq = len(self._entries)
            entry = LedgerEntry(
                entry_id=f"{source_agent}-{step}-{seq}",
                seq=seq,
                kind=kind,
                source_agent=source_agent,
                step=step,
                context_id=context_id,
                confidence=confidence,
                evidence_ids=tuple(evidence_ids),
                references=tuple(references),
                key=key,
                text=text,
                fact=canonical_fact(fact) if fact is not None else None,
                data=data,
            )
            self._entries.append(entry)
            if entry.kind == "fact" and entry.fact is not None:
                self._record_fact(entry, entry.fact)
            return entry

    def add_fact(
        self, number: KeyNumber, *, source_agent: str, step: int, confidence: float = 0.8, **kw: Any
    ) -> LedgerEntry:
        evidence = kw.pop("evidence_ids", (number.evidence_id,))
        return self.add(
            "fact",
            source_agent=source_agent,
            step=step,
            fact=number,
            confidence=confidence,
            evidence_ids=evidence,
            **kw,
        )

    def _record_fact(self, entry: LedgerEntry, number: KeyNumber) -> None:
        key = fact_key(number)
        for earlier in self._facts.get(key, []):
            assert earlier.fact is not None
            other = earlier.fact
            if other.unit != number.unit:
                reason, difference = "unit", None
            elif not self.tolerance.agrees(other.value, number.value):
                reason, difference = "value", abs(other.value - number.value)
            else:
                continue
            self._contradictions.append(
                Contradiction(
                    contradiction_id=f"contradiction-{len(self._contradictions) + 1}",
                    metric=key[0],
                    scope=key[1],
                    period=key[2],
                    entry_ids=(earlier.entry_id, entry.entry_id),
                    values=(other, number),
                    reason=reason,
                    tolerance=self.tolerance,
                    difference=difference,
                )
            )
        self._facts.setdefault(key, []).append(entry)

    def snapshot(self) -> LedgerSnapshot:
        with self._lock:
            return LedgerSnapshot(
                version=len(self._entries),
                entries=tuple(self._entries),
                contradictions=tuple(self._contradictions),
                tolerance=self.tolerance,
            )

    def __len__(self) -> int:
        return len(self._entries)


def latest_data(snapshot: LedgerSnapshot, key: str) -> LedgerEntry | None:
    """The newest data entry stored under ``key`` (e.g. ``sql.output``)."""
    for entry in reversed(snapshot.entries):
        if entry.kind == "data" and entry.key == key:
            return entry
    return None


def is_prefix(old: LedgerSnapshot, new: LedgerSnapshot) -> bool:
    """True when ``new`` only appended to ``old`` (the ledger integrity invariant)."""
    n = len(old.entries)
    return (
        len(new.entries) >= n
        and new.entries[:n] == old.entries
        and new.contradictions[: len(old.contradictions)] == old.contradictions
    )


@dataclass(frozen=True)
class RelevanceQuery:
    """What a sub-task is about: structure first (metrics, dimensions, period), then free text."""

    metrics: frozenset[str] = frozenset()
    dimensions: frozenset[str] = frozenset()
    period: Period | None = None
    text: str = ""


@dataclass(frozen=True)
class ScoredEntry:
    entry: LedgerEntry
    score: float


def _entry_text(entry: LedgerEntry) -> str:
    parts = [entry.text or ""]
    if entry.fact is not None:
        parts += [entry.fact.label, entry.fact.metric or ""]
    return " ".join(parts)


def relevance(entry: LedgerEntry, query: RelevanceQuery, query_terms: frozenset[str]) -> float:
    """Score of one entry: +3 metric match, +1 per shared dimension, +1 period overlap,
    a disjoint period zeroes the structural part, +2 × share of query terms in the text."""
    score = 0.0
    fact = entry.fact
    if fact is not None and fact.metric is not None:
        structural = 0.0
        if fact.metric in {m.lower() for m in query.metrics}:
            structural += 3.0
        structural += len((fact.scope or FactScope()).dimensions() & {d.lower() for d in query.dimensions})
        if query.period is not None and fact.period is not None:
            structural = structural + 1.0 if fact.period.overlaps(query.period) else 0.0
        score += structural
    score += 2.0 * overlap(query_terms, terms(_entry_text(entry)))
    return score


def relevant_entries(
    snapshot: LedgerSnapshot,
    query: RelevanceQuery,
    *,
    kinds: Iterable[EntryKind] = ("fact", "hypothesis", "observation", "question", "finding"),
    min_score: float = 0.5,
    limit: int | None = None,
) -> list[ScoredEntry]:
    """Entries relevant to a sub-task, best first; ties keep ledger order (deterministic)."""
    wanted = set(kinds)
    query_terms = terms(query.text)
    scored = [
        ScoredEntry(e, s)
        for e in snapshot.entries
        if e.kind in wanted and (s := relevance(e, query, query_terms)) >= min_score
    ]
    scored.sort(key=lambda se: (-se.score, se.entry.seq))
    return scored[:limit] if limit is not None else scored


def contradiction_values(snapshot: LedgerSnapshot) -> list[tuple[Decimal, Decimal]]:
    """The value pairs of every recorded contradiction (for reports and checks)."""
    return [(c.values[0].value, c.values[1].value) for c in snapshot.contradictions]
