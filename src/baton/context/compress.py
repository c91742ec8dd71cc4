"""Layered compression of earlier steps, by distance from the receiving agent.

    distance 1–2  level "full":       the whole typed output, raw rows replaced by the data summary
    distance 3–4  level "findings":   one line per finding
    distance ≥ 5  level "conclusion": the conclusion plus references to its key assumptions

must_keep is not part of this: it is rendered whole in the packet header, so compression can
never lose a filter, an assumption, an excluded path or a number. Numbers in text are
rendered from their :class:`KeyNumber`, so they are carried verbatim at every level.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from pydantic import BaseModel

from baton.contracts.agent_outputs import (
    AgentOutputBase,
    AnyAgentOutput,
    ChangePoint,
    ColumnInfo,
    ColumnSummary,
    Driver,
    Finding,
    QualityFlag,
    ReportSection,
    SqlOutput,
    StatTest,
)
from baton.contracts.handoff import HistoryItem, MustKeep
from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath, KeyNumber

Level = Literal["full", "findings", "conclusion"]

FULL_DISTANCE = 2
FINDINGS_DISTANCE = 4
MAX_CONCLUSION_ASSUMPTIONS = 5


@dataclass(frozen=True)
class StepRecord:
    """One finished step as the orchestrator keeps it (from the ledger's data entries)."""

    step: int
    agent: str
    output: AnyAgentOutput


def level_for(distance: int) -> Level:
    if distance < 1:
        raise ValueError("distance starts at 1 (the previous step)")
    if distance <= FULL_DISTANCE:
        return "full"
    if distance <= FINDINGS_DISTANCE:
        return "findings"
    return "conclusion"


_PLACEHOLDER = re.compile(r"\{num:([^{}]+)\}")


def resolve(finding: Finding) -> str:
    """A finding's summary with every ``{num:key}`` replaced by the number's exact rendering."""
    numbers = {n.key: n for n in finding.numbers}
    return _PLACEHOLDER.sub(lambda m: numbers[m.group(1)].rendered(), finding.summary)


def _scalar(value: Any) -> str:
    if isinstance(value, Decimal):
        return format(value, "f")
    if isinstance(value, float):
        return repr(value)
    return str(value)


Refs = Mapping[object, str]


def must_keep_refs(must_keep: MustKeep | None) -> dict[object, str]:
    """Must-keep items by their header id (F1, A1, X1), so bodies refer to them instead of repeating."""
    if must_keep is None:
        return {}
    refs: dict[object, str] = {}
    refs.update({f: f"F{i}" for i, f in enumerate(must_keep.filters_applied, 1)})
    refs.update({a: f"A{i}" for i, a in enumerate(must_keep.assumptions, 1)})
    refs.update({x: f"X{i}" for i, x in enumerate(must_keep.excluded_paths, 1)})
    return refs


def _one_line(obj: BaseModel, refs: Refs) -> str | None:
    """Compact renderings of small models; None means "render field by field"."""
    if isinstance(obj, (AppliedFilter, Assumption, ExcludedPath)) and obj in refs:
        return f"see {refs[obj]}"
    if isinstance(obj, KeyNumber):
        return f"{obj.label} = {obj.rendered()} [{obj.evidence_id}]"
    if isinstance(obj, Finding):
        ev = f", evidence {', '.join(obj.evidence_ids)}" if obj.evidence_ids else ""
        return f"{resolve(obj)} (confidence {obj.confidence:g}{ev})"
    if isinstance(obj, AppliedFilter):
        return obj.predicate + (f" — {obj.description}" if obj.description else "")
    if isinstance(obj, Assumption):
        return obj.text
    if isinstance(obj, ExcludedPath):
        return obj.path + (f" — {obj.reason}" if obj.reason else "")
    if isinstance(obj, ColumnInfo):
        return f"{obj.name} {obj.type}" + (f" — {obj.meaning}" if obj.meaning else "") + (" [PII]" if obj.pii else "")
    if isinstance(obj, ColumnSummary):
        parts = [f"{k}={_scalar(v)}" for k, v in obj.model_dump().items() if k != "name" and v is not None]
        return f"{obj.name}: " + ", ".join(parts)
    if isinstance(obj, StatTest):
        text = (
            f"{obj.name}: estimate {_scalar(obj.estimate)}, {_scalar((obj.ci_level * 100).normalize())}% CI "
            f"[{_scalar(obj.ci_low)}, {_scalar(obj.ci_high)}]"
        )
        if obj.effect_size is not None:
            text += f", effect {obj.effect_size_kind or 'size'} {_scalar(obj.effect_size)}"
        if obj.p_value is not None:
            text += f", p {_scalar(obj.p_value)}"
        if obj.n is not None:
            text += f", n {obj.n}"
        return text + f" ({obj.method})"
    if isinstance(obj, Driver):
        members = " × ".join(f"{d}={m}" for d, m in obj.members.items())
        change = _one_line(obj.contribution, refs) if obj.contribution is not None else _scalar(obj.change)
        return f"{members} · {obj.factor} {obj.direction}: {change}, share {_scalar(obj.share_of_change)}"
    if isinstance(obj, QualityFlag):
        when = f" {obj.date.isoformat()}" if obj.date else ""
        text = (
            f"{obj.table}{when}: {obj.issue}: {obj.message} (affects period: {'yes' if obj.affects_period else 'no'})"
        )
        return text + (f"; assumes {obj.assumption}" if obj.assumption else "")
    if isinstance(obj, ChangePoint):
        return f"{obj.date.isoformat()}: {_scalar(obj.before)} → {_scalar(obj.after)} ({obj.method})"
    if isinstance(obj, ReportSection):
        return f"{obj.heading}: {obj.body}"
    return None


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, (tuple, list, str, dict)) and len(value) == 0)


def render_model(
    obj: Any, indent: int = 0, *, skip: frozenset[str] = frozenset(), refs: Refs | None = None
) -> list[str]:
    """A compact YAML-like rendering; numbers always through ``KeyNumber.rendered``."""
    refs = refs or {}
    pad = "  " * indent
    if isinstance(obj, BaseModel):
        line = _one_line(obj, refs)
        if line is not None:
            return [pad + line]
        lines: list[str] = []
        for name in type(obj).model_fields:
            value = getattr(obj, name)
            if name not in skip and not _empty(value):
                lines.extend(_field_lines(name, value, indent, refs))
        return lines
    if isinstance(obj, dict):
        out: list[str] = []
        for k, v in obj.items():
            if not _empty(v):
                out.extend(_field_lines(str(k), v, indent, refs))
        return out
    return [f"{pad}{_scalar(obj)}"]


def _field_lines(name: str, value: Any, indent: int, refs: Refs) -> list[str]:
    pad = "  " * indent
    if isinstance(value, (BaseModel, dict)):
        sub = render_model(value, indent + 1, refs=refs)
        if len(sub) == 1:
            return [f"{pad}{name}: {sub[0].strip()}"]
        return [f"{pad}{name}:", *sub]
    if isinstance(value, (tuple, list)):
        if all(not isinstance(v, (BaseModel, dict, list, tuple)) for v in value):
            return [f"{pad}{name}: " + "; ".join(_scalar(v) for v in value)]
        lines = [f"{pad}{name}:"]
        for item in value:
            sub = render_model(item, indent + 2, refs=refs)
            if sub:
                lines.append("  " * (indent + 1) + "- " + sub[0].strip())
                lines.extend(sub[1:])
        return lines
    return [f"{pad}{name}: {_scalar(value)}"]


def render_output_full(output: AgentOutputBase, refs: Refs | None = None, *, include_rows: bool = False) -> list[str]:
    """Level "full": everything but raw rows (replaced by the data summary, which SQL output carries).

    ``include_rows`` is for an agent that declared it needs rows (they were sliced for it).
    """
    lines = render_model(output, skip=frozenset({"rows", "agent"}), refs=refs)
    if isinstance(output, SqlOutput) and include_rows and output.rows:
        lines.append("rows:")
        lines += ["  - " + ", ".join(f"{k}={_scalar(v)}" for k, v in row.items()) for row in output.rows]
    elif isinstance(output, SqlOutput) and output.data_summary.row_count:
        lines.append(f"rows: {output.data_summary.row_count} raw rows not included (see data_summary)")
    return lines


def _headline(output: AgentOutputBase) -> str:
    """A one-line stand-in for outputs without findings."""
    if isinstance(output, SqlOutput):
        rows, cols = output.result_shape
        return f"ran SQL ({rows}×{cols}, evidence {output.evidence_id})"
    return f"{type(output).__name__} {output.task_id}"


def _assumption_refs(output: AgentOutputBase, must_keep: MustKeep | None) -> str:
    if not output.assumptions_made:
        return ""
    taken = output.assumptions_made[:MAX_CONCLUSION_ASSUMPTIONS]
    if must_keep is not None:
        refs = [f"A{must_keep.assumptions.index(a) + 1}" for a in taken if a in must_keep.assumptions]
        if len(refs) == len(taken):
            return " | assumptions: " + ", ".join(refs)
    return " | assumptions: " + "; ".join(a.text for a in taken)


def compress_step(record: StepRecord, distance: int, must_keep: MustKeep | None = None) -> HistoryItem:
    """One earlier step at the level its distance calls for."""
    level = level_for(distance)
    output = record.output
    if level == "full":
        lines = tuple(render_output_full(output, must_keep_refs(must_keep)))
    elif level == "findings":
        found = [f"- {resolve(f)}" for f in output.findings] or [f"- {_headline(output)}"]
        lines = tuple(found)
    else:
        conclusion = resolve(output.findings[0]) if output.findings else _headline(output)
        lines = (conclusion + _assumption_refs(output, must_keep),)
    return HistoryItem(step=record.step, agent=record.agent, distance=distance, level=level, lines=lines)


def compress_history(
    records: Sequence[StepRecord], current_step: int, must_keep: MustKeep | None = None
) -> tuple[HistoryItem, ...]:
    """Every earlier step, oldest first, compressed by its distance from ``current_step``."""
    return tuple(
        compress_step(r, current_step - r.step, must_keep)
        for r in sorted(records, key=lambda r: r.step)
        if r.step < current_step
    )


def demote(item: HistoryItem, record: StepRecord, must_keep: MustKeep | None = None) -> HistoryItem:
    """One level less detail (full → findings → conclusion), used when the token budget binds."""
    target = {"full": FINDINGS_DISTANCE, "findings": FINDINGS_DISTANCE + 1, "conclusion": FINDINGS_DISTANCE + 1}
    return compress_step(record, target[item.level], must_keep).model_copy(update={"distance": item.distance})
