"""Render a ``TaskPacket`` to the prompt text an LLM receives.

Fixed order, must_keep first: an agent reads the filters, assumptions, excluded paths, key
numbers and open contradictions before anything else, and they are never compressed.
Then the task and constraints, its own instruction, the sliced input data, the earlier
steps (compressed by distance) and the answer format.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from baton.context.compress import Refs, must_keep_refs, render_model, render_output_full
from baton.contracts.agent_outputs import OUTPUT_MODELS
from baton.contracts.handoff import MustKeep, TaskPacket
from baton.contracts.ledger import Contradiction
from baton.messages import bilingual

MUST_KEEP_TITLE = bilingual("prompt.must_keep_title")


def render_must_keep(must_keep: MustKeep, contradictions: tuple[Contradiction, ...] = ()) -> list[str]:
    """The fixed header. Every item is rendered whole and numbered (F, A, X, N, C)."""
    lines = [MUST_KEEP_TITLE]
    if must_keep.is_empty() and not contradictions:
        return [*lines, bilingual("prompt.nothing_yet")]
    lines.append(bilingual("prompt.filters"))
    lines += [f"F{i}. {f.predicate}" for i, f in enumerate(must_keep.filters_applied, 1)] or ["(none)"]
    lines.append(bilingual("prompt.assumptions"))
    lines += [f"A{i}. {a.text}" for i, a in enumerate(must_keep.assumptions, 1)] or ["(none)"]
    lines.append(bilingual("prompt.excluded"))
    lines += [
        f"X{i}. {x.path}" + (f" — {x.reason}" if x.reason else "") for i, x in enumerate(must_keep.excluded_paths, 1)
    ] or ["(none)"]
    lines.append(bilingual("prompt.key_numbers"))
    lines += [f"N{i}. {n.label} = {n.rendered()} [{n.evidence_id}]" for i, n in enumerate(must_keep.key_numbers, 1)]
    if not must_keep.key_numbers:
        lines.append("(none)")
    if contradictions:
        lines.append(bilingual("prompt.contradictions"))
        lines += [f"C{i}. {c.rendered()}" for i, c in enumerate(contradictions, 1)]
    return lines


def outline_schema(schema: dict[str, Any]) -> str:
    """A one-line outline of a JSON schema's top-level fields (name: type, required marked *)."""
    required = set(schema.get("required", []))
    parts = []
    for name, spec in schema.get("properties", {}).items():
        parts.append(f"{name}{'*' if name in required else ''}: {_type_of(spec)}")
    return f"{schema.get('title', 'object')} {{" + ", ".join(parts) + "}"


def _type_of(spec: dict[str, Any]) -> str:
    if "$ref" in spec:
        return str(spec["$ref"]).rsplit("/", 1)[-1]
    if "const" in spec:
        return repr(spec["const"])
    if "anyOf" in spec:
        return "|".join(_type_of(s) for s in spec["anyOf"])
    kind = spec.get("type", "any")
    if kind == "array":
        items = spec.get("items")
        if isinstance(items, dict):
            return f"[{_type_of(items)}]"
        return "[…]"
    return str(kind)


def render_input(key: str, value: Any, refs: Refs | None = None) -> list[str]:
    """One input slot; an agent output stored verbatim is shown through its model's renderer."""
    if isinstance(value, dict) and value.get("agent") in OUTPUT_MODELS:
        try:
            model = OUTPUT_MODELS[str(value["agent"])].model_validate(value)
        except ValidationError:
            pass
        else:
            return [f"## {key}", *render_output_full(model, refs, include_rows=True)]
    return [f"## {key}", *render_model(value if isinstance(value, dict) else {"value": value}, refs=refs)]


def render_packet(packet: TaskPacket) -> str:
    """The prompt text for ``packet``; the same packet always renders to the same text."""
    lines = render_must_keep(packet.must_keep, packet.contradictions)
    lines.append(bilingual("prompt.task"))
    lines.append(packet.task.question)
    if packet.task.goal:
        lines.append(packet.task.goal)
    lines.append(bilingual("prompt.constraints"))
    lines += [f"- {c}" for c in packet.constraints] or ["(none)"]
    lines.append(
        bilingual("prompt.your_step", agent=packet.agent, task_id=packet.task_id, context_id=packet.context_id)
    )
    lines.append(packet.instruction)
    lines.append(bilingual("prompt.project", project=packet.project_context))
    if packet.grants.hidden_columns:
        lines.append(bilingual("prompt.hidden_columns", columns=", ".join(packet.grants.hidden_columns)))
    if packet.input_data:
        lines.append(bilingual("prompt.input_data"))
        refs = must_keep_refs(packet.must_keep)
        for key, value in packet.input_data.items():
            lines += render_input(key, value, refs)
    if packet.history:
        lines.append(bilingual("prompt.earlier_steps"))
        for item in packet.history:
            lines.append(f"[step {item.step} · {item.agent} · {item.level}]")
            lines += list(item.lines)
    if packet.notes:
        lines.append(bilingual("prompt.notes"))
        lines.append(packet.notes)
    lines.append(bilingual("prompt.answer_format"))
    lines.append(bilingual("prompt.reply_with", schema=outline_schema(packet.expected_output)))
    return "\n".join(lines) + "\n"
