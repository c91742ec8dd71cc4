"""The LLM narrator: a language model writes the answer's prose, the output gate decides.

The model is given what was computed (the interpretation sentence), the structured findings and
the result rows — aggregates a governed query already computed, sent compactly and capped at
:data:`MAX_ROWS` — and asked for 1 to 3 plain sentences that quote only those numbers, never say
"significant" and use no causal words. It is told nothing else: no SQL, no catalog, no history.

What it writes is never trusted: :func:`gated_model_narrative` passes it through the output gate
(:func:`baton.policy.output_gate.check_output`) against the same evidence, derived numbers,
labels, claim support and PII grants the run driver's ``finalize`` uses for an answer, and on a
violation — or a model failure — returns the deterministic narrative instead, saying why.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from baton.agents.narrator import Narrator
from baton.catalog.model import Catalog
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.gate import GateDecision
from baton.contracts.semantic import SemanticQuery
from baton.errors import ModelFailure
from baton.llm.protocol import ChatMessage, Provider
from baton.messages import bilingual, both
from baton.policy.output_gate import ClaimSupport, check_output

__all__ = [
    "MAX_CHARS",
    "MAX_ROWS",
    "GateFacts",
    "GatedNarrative",
    "default_gate_facts",
    "gated_model_narrative",
    "narrate_with_model",
    "narrator_messages",
]

MAX_ROWS = 50
"""Rows sent to the model at most (the first ones, in the result's order; the count is said)."""
MAX_FACTS = 12
"""Findings sent to the model at most."""
MAX_CHARS = 1200
"""A longer reply is not 1 to 3 sentences: it is not used."""
MAX_TOKENS = 400
"""Completion tokens asked for (1 to 3 sentences need far fewer)."""


class GateFacts(Protocol):
    """What the output gate checks a narrative against — the shape of the run driver's
    ``GateInput`` (``pipeline.gate_input(answer)`` may be passed as it is)."""

    @property
    def evidence(self) -> Iterable[Iterable[Any]]: ...

    @property
    def derived(self) -> Iterable[Any]: ...

    @property
    def labels(self) -> Iterable[str]: ...

    @property
    def claims(self) -> ClaimSupport | None: ...

    @property
    def pii_allowed(self) -> bool: ...

    @property
    def regenerate(self) -> Callable[[], str] | None: ...


class _Facts(NamedTuple):
    evidence: list[list[Any]]
    derived: list[Any]
    labels: list[str]
    claims: ClaimSupport | None = None
    pii_allowed: bool = False
    regenerate: Callable[[], str] | None = None


class GatedNarrative(NamedTuple):
    """The prose to show, whether the model wrote it, and why not when it did not: the model's
    failure reason (``timeout``, ``http_error``, ``invalid_json``, ``refusal``, …) or
    ``output_blocked: <kind> <text>; …`` naming what the gate refused (a PII value never named)."""

    text: str
    used_model: bool
    reason: str | None


def _cell(value: Any) -> Any:
    return value if isinstance(value, int | float | str | bool) or value is None else str(value)


def narrator_messages(
    *,
    query: SemanticQuery,
    table: ResultTable,
    interpretation: str,
    facts: Sequence[str] | None,
    language: Language,
) -> list[ChatMessage]:
    """The system message (the rules, in both languages, and the language to write in) and the
    user message (what was computed, the findings, the rows as compact JSON, capped)."""
    rules = ["narrate_role", "narrate_rule_numbers", "narrate_rule_claims", "narrate_rule_plain", "narrate_rule_data"]
    system = "\n".join([*(bilingual(f"model.{key}") for key in rules), bilingual(f"model.narrate_language_{language}")])
    shown = table.rows[:MAX_ROWS]
    rows = {"columns": [c.name for c in table.columns], "rows": [[_cell(v) for v in row] for row in shown]}
    parts = [bilingual("model.narrate_computed", interpretation=interpretation)]
    if facts:
        parts.append(bilingual("model.narrate_findings", facts=_compact(list(facts)[:MAX_FACTS])))
    total = max(table.row_count, len(table.rows))
    parts.append(bilingual("model.narrate_rows", shown=len(shown), total=total, rows=_compact(rows)))
    del query  # the interpretation says what was computed; the query holds nothing more to say
    return [ChatMessage(role="system", content=system), ChatMessage(role="user", content="\n".join(parts))]


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def narrate_with_model(
    provider: Provider,
    *,
    query: SemanticQuery,
    table: ResultTable,
    interpretation: str,
    facts: Sequence[str] | None,
    language: Language,
) -> str:
    """The model's 1 to 3 sentences, unchecked (pass them through the output gate); a
    ``ModelFailure`` when the model fails or writes nothing usable (empty, or far too long)."""
    messages = narrator_messages(
        query=query, table=table, interpretation=interpretation, facts=facts, language=language
    )
    completion = provider.complete(messages, max_tokens=MAX_TOKENS)
    said = " ".join(completion.content.split())
    if not said or len(said) > MAX_CHARS:
        reason = "refusal" if not said else "schema_violation"
        raise ModelFailure(
            *both("model.narrative_unusable", model=completion.model),
            detail={"reason": reason, "model": completion.model, "chars": len(said)},
        )
    return said


def default_gate_facts(catalog: Catalog, query: SemanticQuery, table: ResultTable) -> GateFacts:
    """What the gate checks an ask answer against when the caller has no ``GateInput``: the
    rows, the counts an answer may state, the period words and every catalog label."""
    names = [c.name for c in table.columns]
    derived: list[Any] = [table.row_count, len(table.rows), len(query.metrics), query.time_range.days]
    derived += [query.top_n] if query.top_n is not None else []
    derived += [len({row[names.index(d)] for row in table.rows}) for d in query.dimensions if d in names]
    labels = [
        query.time_range.text or "",
        (query.comparison.range.text or "") if query.comparison else "",
        *query.where,
        *(c.written for c in query.corrections),
    ]
    labels += catalog.labels()
    return _Facts(evidence=table.rows, derived=derived, labels=labels)


def _blocked(decision: GateDecision) -> str:
    """What the gate refused, by kind and text; a personal value (or a number that is part of
    one) by its kind only."""
    personal = [v.text.lower() for v in decision.violations if v.kind == "pii"]

    def digits(value: str) -> str:
        return "".join(ch for ch in value if ch.isalnum())

    def said(kind: str, value: str) -> str:
        part = digits(value.lower())
        hidden = kind == "pii" or any(part and part in digits(p) for p in personal)
        return kind if hidden else f"{kind} {value}"

    return "output_blocked: " + "; ".join(said(v.kind, v.text) for v in decision.violations[:5])


def gated_model_narrative(
    provider: Provider,
    *,
    catalog: Catalog,
    query: SemanticQuery,
    table: ResultTable,
    interpretation: str,
    facts: Sequence[str] | None,
    language: Language,
    gate: GateFacts | None = None,
) -> GatedNarrative:
    """The model's prose when the output gate passes it, else the deterministic narrative
    (``gate.regenerate()`` when the caller gives one, else ``Narrator(catalog).compose``) with
    the reason. A model failure falls back the same way; a budget stop propagates."""
    facts_for_gate = gate or default_gate_facts(catalog, query, table)

    def fallback() -> str:
        regenerate = facts_for_gate.regenerate
        return regenerate() if regenerate is not None else Narrator(catalog).compose(query, table, language)

    try:
        said = narrate_with_model(
            provider, query=query, table=table, interpretation=interpretation, facts=facts, language=language
        )
    except ModelFailure as exc:
        return GatedNarrative(fallback(), False, str(exc.detail.get("reason", exc.error_code)))
    decision = check_output(
        said,
        evidence=facts_for_gate.evidence,
        derived=facts_for_gate.derived,
        language=language,
        claims=facts_for_gate.claims,
        pii_allowed=facts_for_gate.pii_allowed,
        labels=facts_for_gate.labels,
    )
    if decision.ok:
        return GatedNarrative(said, True, None)
    return GatedNarrative(fallback(), False, _blocked(decision))
