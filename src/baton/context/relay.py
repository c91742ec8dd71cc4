"""Relay invariants: the baton is passed, never rewritten.

Passing step n → n+1 checks that the task is unchanged, that constraints and every
must-keep list were only appended to (the old list is a prefix of the new one), that the
payload is a valid instance of the output model the step declared, and that the lineage
continues (same run, next step, parent = previous context, fresh context id). Any breach
raises :class:`HandoffViolation` naming the field and the step; the run fails closed.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Sequence
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from baton.context.sqlnorm import normalise_predicate
from baton.contracts.agent_outputs import AgentOutputBase, AnyAgentOutput
from baton.contracts.handoff import MUST_KEEP_FIELDS, Baton, Lineage, MustKeep, Task
from baton.contracts.values import AppliedFilter, Assumption, ExcludedPath, KeyNumber
from baton.errors import HandoffViolation, InvalidInput
from baton.messages import both

T = TypeVar("T", bound=BaseModel)


def new_context_id() -> str:
    return f"ctx-{uuid.uuid4().hex[:16]}"


def violation(field: str, step: int, reason: tuple[str, str], **detail: object) -> HandoffViolation:
    """A HandoffViolation whose message and detail both name the field and the step; ``reason``
    is the (English, Chinese) pair saying what broke."""
    reason_en, reason_zh = reason
    return HandoffViolation(
        *both("context.violation", step=step, field=field, reason=reason_en, reason_zh=reason_zh),
        detail={"field": field, "step": step, **detail},
    )


def integrity_hash(task: Task, constraints: Sequence[str]) -> str:
    """SHA-256 of the task and the constraints, canonical JSON; equal hashes = same frame."""
    body = json.dumps(
        {"task": task.model_dump(mode="json"), "constraints": list(constraints)},
        ensure_ascii=False,
        sort_keys=True,
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _is_prefix(old: Sequence[object], new: Sequence[object]) -> bool:
    return len(new) >= len(old) and all(a == b for a, b in zip(old, new, strict=False))


def _append_unique(existing: tuple[T, ...], extra: Sequence[T]) -> tuple[T, ...]:
    out = list(existing)
    for item in extra:
        if item not in out:
            out.append(item)
    return tuple(out)


def _filter_identity(f: AppliedFilter) -> tuple[str, ...]:
    try:
        return normalise_predicate(f.predicate, f.dialect)
    except InvalidInput:
        return (f.predicate,)


def _append_filters(existing: tuple[AppliedFilter, ...], extra: Sequence[AppliedFilter]) -> tuple[AppliedFilter, ...]:
    """Filters are the same when their normalised ASTs are (whatever their evidence or spelling)."""
    seen = {_filter_identity(f) for f in existing}
    out = list(existing)
    for f in extra:
        identity = _filter_identity(f)
        if identity not in seen:
            seen.add(identity)
            out.append(f)
    return tuple(out)


def must_keep_from_output(output: AgentOutputBase) -> MustKeep:
    """What an agent's typed output adds to must_keep: its filters, assumptions, exclusions, numbers."""
    return MustKeep(
        filters_applied=output.filters(),
        assumptions=output.assumptions_made,
        excluded_paths=output.paths_excluded,
        key_numbers=output.must_keep_numbers(),
    )


def extend_must_keep(base: MustKeep, extra: MustKeep) -> MustKeep:
    """Append ``extra`` to ``base`` (items already kept are not repeated; nothing is removed)."""
    filters = _append_filters(base.filters_applied, extra.filters_applied)
    assumptions: tuple[Assumption, ...] = _append_unique(base.assumptions, extra.assumptions)
    excluded: tuple[ExcludedPath, ...] = _append_unique(base.excluded_paths, extra.excluded_paths)
    numbers: tuple[KeyNumber, ...] = _append_unique(base.key_numbers, extra.key_numbers)
    return MustKeep(filters_applied=filters, assumptions=assumptions, excluded_paths=excluded, key_numbers=numbers)


def _check_payload(baton: Baton, expected: type[AgentOutputBase] | None) -> None:
    step = baton.lineage.step
    payload = baton.payload
    if expected is None:
        return
    if not isinstance(payload, expected):
        raise violation(
            "payload",
            step,
            both("context.payload_type", expected=expected.__name__, actual=type(payload).__name__),
            expected=expected.__name__,
            actual=type(payload).__name__,
        )
    try:  # re-validate from data: catches objects built with model_construct or mutated
        expected.model_validate(payload.model_dump())
    except ValidationError as exc:
        raise violation("payload", step, both("context.payload_invalid", count=exc.error_count())) from exc


def check_first(baton: Baton, expected_output: type[AgentOutputBase] | None = None) -> None:
    """Checks for the first baton of a run (step 1, no parent)."""
    if baton.lineage.step != 1:
        raise violation("lineage.step", baton.lineage.step, both("context.first_step"))
    _check_payload(baton, expected_output)


def check_handoff(prev: Baton, nxt: Baton, expected_output: type[AgentOutputBase] | None = None) -> None:
    """Raise :class:`HandoffViolation` unless ``nxt`` is a lawful successor of ``prev``."""
    step = nxt.lineage.step
    if nxt.task != prev.task:
        raise violation("task", step, both("context.task_frozen"))
    if not _is_prefix(prev.constraints, nxt.constraints):
        raise violation("constraints", step, both("context.constraints_append_only"))
    for name in MUST_KEEP_FIELDS:
        old: tuple[object, ...] = getattr(prev.must_keep, name)
        new: tuple[object, ...] = getattr(nxt.must_keep, name)
        if not _is_prefix(old, new):
            raise violation(
                f"must_keep.{name}",
                step,
                both("context.must_keep_append_only"),
                kept=len(old),
                received=len(new),
            )
    p, n = prev.lineage, nxt.lineage
    if n.run_id != p.run_id:
        raise violation("lineage.run_id", step, both("context.run_id_changed"), expected=p.run_id)
    if n.step != p.step + 1:
        raise violation("lineage.step", step, both("context.expected_step", step=p.step + 1))
    if n.parent_context_id != p.context_id:
        raise violation("lineage.parent_context_id", step, both("context.parent_context"))
    if n.context_id == p.context_id:
        raise violation("lineage.context_id", step, both("context.fresh_context"))
    _check_payload(nxt, expected_output)


def check_chain(batons: Sequence[Baton], expected: Sequence[type[AgentOutputBase] | None] | None = None) -> None:
    """Check a whole relay: the first baton, then every consecutive pair; ids never repeat."""
    if not batons:
        return
    models = list(expected) if expected is not None else [None] * len(batons)
    check_first(batons[0], models[0])
    seen = {batons[0].lineage.context_id}
    for i in range(1, len(batons)):
        check_handoff(batons[i - 1], batons[i], models[i])
        if batons[i].lineage.context_id in seen:
            raise violation("lineage.context_id", batons[i].lineage.step, both("context.context_reused"))
        seen.add(batons[i].lineage.context_id)


def start_relay(
    task: Task,
    payload: AnyAgentOutput,
    *,
    run_id: str,
    constraints: Sequence[str] = (),
    must_keep: MustKeep | None = None,
    notes: str | None = None,
    expected_output: type[AgentOutputBase] | None = None,
    context_id: str | None = None,
) -> Baton:
    """The baton after step 1; must_keep gathers what the first output states plus ``must_keep``."""
    kept = extend_must_keep(must_keep or MustKeep(), must_keep_from_output(payload))
    baton = Baton(
        task=task,
        constraints=tuple(constraints),
        must_keep=kept,
        payload=payload,
        notes=notes,
        lineage=Lineage(run_id=run_id, step=1, context_id=context_id or new_context_id()),
    )
    check_first(baton, expected_output)
    return baton


def pass_baton(
    prev: Baton,
    payload: AnyAgentOutput,
    *,
    new_constraints: Sequence[str] = (),
    must_keep: MustKeep | None = None,
    notes: str | None = None,
    expected_output: type[AgentOutputBase] | None = None,
    context_id: str | None = None,
) -> Baton:
    """The next baton: same task, constraints and must_keep appended, the new payload; checked."""
    kept = extend_must_keep(prev.must_keep, must_keep or MustKeep())
    kept = extend_must_keep(kept, must_keep_from_output(payload))
    constraints = prev.constraints + tuple(c for c in new_constraints if c not in prev.constraints)
    nxt = Baton(
        task=prev.task,
        constraints=constraints,
        must_keep=kept,
        payload=payload,
        notes=notes,
        lineage=Lineage(
            run_id=prev.lineage.run_id,
            step=prev.lineage.step + 1,
            context_id=context_id or new_context_id(),
            parent_context_id=prev.lineage.context_id,
        ),
    )
    check_handoff(prev, nxt, expected_output)
    return nxt
