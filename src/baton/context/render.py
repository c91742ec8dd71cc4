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

MUST_KEEP_TITLE = "# MUST KEEP · 必须保留（never compressed · 不得压缩、不得改写）"


def render_must_keep(must_keep: MustKeep, contradictions: tuple[Contradiction, ...] = ()) -> list[str]:
    """The fixed header. Every item is rendered whole and numbered (F, A, X, N, C)."""
    lines = [MUST_KEEP_TITLE]
    if must_keep.is_empty() and not contradictions:
        return [*lines, "(nothing yet · 暂无)"]
    lines.append("## Filters applied · 过滤条件")
    lines += [f"F{i}. {f.predicate}" for i, f in enumerate(must_keep.filters_applied, 1)] or ["(none)"]
    lines.append("## Assumptions · 前置假设")
    lines += [f"A{i}. {a.text}" for i, a in enumerate(must_keep.assumptions, 1)] or ["(none)"]
    lines.append("## Excluded paths · 已排除路径")
    lines += [
        f"X{i}. {x.path}" + (f" — {x.reason}" if x.reason else "") for i, x in enumerate(must_keep.excluded_paths, 1)
    ] or ["(none)"]
    lines.append("## Key numbers · 关键数字（quote exactly · 原样引用）")
    lines += [f"N{i}. {n.label} = {n.rendered()} [{n.evidence_id}]" for i, n in enumerate(must_keep.key_numbers, 1)]
    if not must_keep.key_numbers:
        lines.append("(none)")
    if contradictions:
        lines.append("## Contradictions · 矛盾（report both values · 两个值都要报告）")
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
    lines.append("# Task · 任务")
    lines.append(packet.task.question)
    if packet.task.goal:
        lines.append(packet.task.goal)
    lines.append("# Constraints · 约束")
    lines += [f"- {c}" for c in packet.constraints] or ["(none)"]
    lines.append(f"# Your step · 本步任务 ({packet.agent}, {packet.task_id}, context {packet.context_id})")
    lines.append(packet.instruction)
    lines.append(f"Project · 项目: {packet.project_context}")
    if packet.grants.hidden_columns:
        lines.append("Hidden columns · 已隐藏列: " + ", ".join(packet.grants.hidden_columns))
    if packet.input_data:
        lines.append("# Input data · 输入数据")
        refs = must_keep_refs(packet.must_keep)
        for key, value in packet.input_data.items():
            lines += render_input(key, value, refs)
    if packet.history:
        lines.append("# Earlier steps · 之前的步骤")
        for item in packet.history:
            lines.append(f"[step {item.step} · {item.agent} · {item.level}]")
            lines += list(item.lines)
    if packet.notes:
        lines.append("# Notes from the previous step · 上一步备注")
        lines.append(packet.notes)
    lines.append("# Answer format · 输出格式")
    lines.append("Reply with JSON matching · 以 JSON 回复: " + outline_schema(packet.expected_output))
    return "\n".join(lines) + "\n"
