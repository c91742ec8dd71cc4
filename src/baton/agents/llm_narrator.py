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
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from baton.agents.narrator import Narrator
from baton.catalog.compiler import averaged_over
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
    "change_without_comparison",
    "default_gate_facts",
    "gated_model_narrative",
    "narrate_with_model",
    "narrator_messages",
    "unbound_numbers",
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
    derived += query.stated_numbers  # "前3", "排名第2", "超过5%"
    derived += list(averaged_over(query)[1:]) if query.average_per is not None else []  # the comparison's days
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
    if not decision.ok:
        return GatedNarrative(fallback(), False, _blocked(decision))
    unbound = unbound_numbers(said, catalog, query, table, facts_for_gate.derived, facts_for_gate.labels)
    if unbound:
        return GatedNarrative(fallback(), False, "output_blocked: " + "; ".join(unbound[:5]))
    moved = change_without_comparison(said, query)
    if moved is not None:
        return GatedNarrative(fallback(), False, f"output_blocked: change_without_comparison {moved}")
    return GatedNarrative(said, True, None)


_JOINS = re.compile(r"\b(?:and|while|whereas|but)\b", re.IGNORECASE)


def _clauses(text: str) -> list[str]:
    """``text`` cut at punctuation (any script's, but a comma or point inside a number) and at
    English conjunctions: the stretches in which a number is said of a row."""
    chars = list(text)
    for i, ch in enumerate(chars):
        inside_number = ch in ".," and 0 < i < len(chars) - 1 and chars[i - 1].isdigit() and chars[i + 1].isdigit()
        if unicodedata.category(ch) in ("Po", "Ps", "Pe") and not inside_number:
            chars[i] = "\n"
    return [part for piece in "".join(chars).split("\n") for part in _JOINS.split(piece)]


def change_without_comparison(text: str, query: SemanticQuery) -> str | None:
    """A word of change ("rose", "下降") in prose about a query that compares nothing: the
    numbers cannot show a change, so the word is unsupported. A time series (a grain) shows its
    own movement and a comparison its baseline: there the words may stand."""
    from baton.nlu import vocabulary as vocab

    if query.comparison is not None or query.grain is not None:
        return None
    found = vocab.UP.search(text) or vocab.DOWN.search(text)  # the words the rule planner reads as a change
    return found.group(0) if found else None


def _row_names(catalog: Catalog, query: SemanticQuery, table: ResultTable) -> list[tuple[int, list[str]]]:
    """Each row with the names prose may call it by: its breakdown values and their catalog labels."""
    names = [c.name for c in table.columns]
    at = [(names.index(d), catalog.dimensions.get(d)) for d in query.dimensions if d in names]
    out: list[tuple[int, list[str]]] = []
    for i, row in enumerate(table.rows):
        said: list[str] = []
        for col, dim in at:
            key = str(row[col])
            member = dim.members.get(key) if dim is not None else None
            said += [key] + ([member.label.zh, member.label.en, *member.synonyms] if member is not None else [])
        out.append((i, [n.lower() for n in said if n and len(n) > 1]))
    return out


def unbound_numbers(
    text: str,
    catalog: Catalog,
    query: SemanticQuery,
    table: ResultTable,
    derived: Iterable[Any],
    labels: Iterable[str],
) -> list[str]:
    """Numbers said of a row that are not that row's: in each clause naming rows (by a breakdown
    value or its label), every number must be a value of those rows or a derived value the gate
    allows — "app 98,765.4, live stream 1,234,567.89" (two rows swapped) is caught."""
    from baton.policy.output_gate import Evidence, read_numbers

    rows = _row_names(catalog, query, table)
    if not any(names for _, names in rows):
        return []
    allowed = list(derived)
    label_list = list(labels)
    out: list[str] = []
    for clause in _clauses(text):
        lowered = (clause or "").lower()
        named = [i for i, names in rows if any(_named(n, lowered) for n in names)]
        if not named:
            continue
        evidence = Evidence.collect([table.rows[i] for i in named], allowed)
        out += [f"unbound_number {t.text}" for t in read_numbers(clause, label_list) if not evidence.supports(t)]
    return out


def _named(name: str, clause: str) -> bool:
    """Whether ``clause`` names ``name``: anywhere for Chinese, as a whole word for Latin script."""
    if not name.isascii():
        return name in clause
    return re.search(rf"(?<![a-z0-9_]){re.escape(name)}(?![a-z0-9_])", clause) is not None
