"""Parent → child slicing: each agent gets its instruction, only the keys it declares, the
user's grants applied, must_keep, compressed history, and a token budget.

Token budget drop order (when a packet is over budget, detail goes in this order and
must_keep never does):

    1. history at level "conclusion", oldest first
    2. history at level "findings", oldest first
    3. history at level "full" demoted to "findings", farthest first
    4. those demoted items, farthest first
    5. the previous step's notes
    6. input slots, in reverse order of the agent's declared keys

Never dropped: the must_keep header, contradictions, task, constraints, instruction,
project context, grants note and answer format. A packet that is still over budget is
marked ``over_budget`` (the cost gate decides), never silently truncated.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from baton.context.compress import StepRecord, compress_history, demote
from baton.context.ledger import latest_data
from baton.context.relay import new_context_id
from baton.context.render import render_packet
from baton.context.tokens import count_tokens
from baton.contracts.agent_outputs import AgentName, AgentOutputBase
from baton.contracts.handoff import GrantView, HistoryItem, MustKeep, Task, TaskPacket, output_schema
from baton.contracts.ledger import LedgerSnapshot
from baton.messages import bilingual

DEFAULT_TOKEN_BUDGET = 6000


@dataclass(frozen=True)
class AgentSpec:
    """What an agent declares: its instruction, the ledger keys it needs, its output model."""

    name: AgentName
    instruction: str
    output_model: type[AgentOutputBase]
    needed_keys: tuple[str, ...] = ()
    needs_pii: bool = False
    needs_rows: bool = False


@dataclass(frozen=True)
class Grants:
    """The asking user's grants, modelled minimally: visible columns and PII columns.

    ``allowed_columns`` None means every non-PII column; PII columns reach an agent only
    when the user may see PII *and* the agent declares it needs PII.
    """

    user_id: str
    allowed_columns: frozenset[str] | None = None
    pii_columns: frozenset[str] = field(default_factory=frozenset)
    pii_allowed: bool = False

    def hidden_for(self, spec: AgentSpec, present: Iterable[str]) -> frozenset[str]:
        hidden: set[str] = set()
        for column in present:
            name = column.lower()
            is_pii = name in {p.lower() for p in self.pii_columns}
            if is_pii and not (self.pii_allowed and spec.needs_pii):
                hidden.add(name)
            if self.allowed_columns is not None and name not in {a.lower() for a in self.allowed_columns}:
                hidden.add(name)
        return frozenset(hidden)


def columns_in(value: Any) -> set[str]:
    """Column names mentioned in stored data: column descriptors and row keys."""
    found: set[str] = set()
    if isinstance(value, dict):
        if "columns" in value and isinstance(value["columns"], (list, tuple)):
            for col in value["columns"]:
                if isinstance(col, dict) and isinstance(col.get("name"), str):
                    found.add(col["name"])
        if "rows" in value and isinstance(value["rows"], (list, tuple)):
            for row in value["rows"]:
                if isinstance(row, dict):
                    found.update(str(k) for k in row)
        for v in value.values():
            found |= columns_in(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= columns_in(v)
    return found


def redact(value: Any, hidden: frozenset[str]) -> Any:
    """``value`` without hidden columns: row keys, column descriptors and column summaries removed."""
    if not hidden:
        return value
    if isinstance(value, dict):
        return {k: redact(v, hidden) for k, v in value.items() if str(k).lower() not in hidden}
    if isinstance(value, (list, tuple)):
        return [
            redact(v, hidden) for v in value if not (isinstance(v, dict) and str(v.get("name", "")).lower() in hidden)
        ]
    return value


def _without_rows(value: Any) -> Any:
    """Raw rows left out; the output's data summary (row count, per-column stats) stands for them."""
    if isinstance(value, dict) and value.get("rows") and "data_summary" in value:
        return {**value, "rows": []}
    return value


def slice_input(snapshot: LedgerSnapshot, spec: AgentSpec, grants: Grants) -> tuple[dict[str, Any], frozenset[str]]:
    """Only the declared keys (newest data entry of each), rows summarised, grants applied."""
    sliced: dict[str, Any] = {}
    for key in spec.needed_keys:
        entry = latest_data(snapshot, key)
        if entry is None or entry.data is None:
            continue
        sliced[key] = entry.data if spec.needs_rows else _without_rows(entry.data)
    hidden = grants.hidden_for(spec, columns_in(sliced))
    return redact(sliced, hidden), hidden


@dataclass(frozen=True)
class PacketRequest:
    """Everything the orchestrator knows when it builds one agent's packet."""

    spec: AgentSpec
    task: Task
    constraints: tuple[str, ...]
    must_keep: MustKeep
    snapshot: LedgerSnapshot
    history: tuple[StepRecord, ...]
    step: int
    project_context: str
    grants: Grants
    task_id: str
    notes: str | None = None
    parent_context_id: str | None = None
    token_budget: int = DEFAULT_TOKEN_BUDGET
    context_id: str | None = None


def _assemble(
    req: PacketRequest,
    input_data: dict[str, Any],
    hidden: frozenset[str],
    history: Sequence[HistoryItem],
    notes: str | None,
    dropped: Sequence[str],
    context_id: str,
) -> TaskPacket:
    return TaskPacket(
        task_id=req.task_id,
        agent=req.spec.name,
        instruction=req.spec.instruction,
        task=req.task,
        input_data=input_data,
        constraints=req.constraints,
        must_keep=req.must_keep,
        contradictions=req.snapshot.contradictions,
        history=tuple(history),
        notes=notes,
        project_context=req.project_context,
        expected_output=output_schema(req.spec.output_model),
        grants=GrantView(
            user_id=req.grants.user_id,
            pii_visible=req.grants.pii_allowed and req.spec.needs_pii,
            hidden_columns=tuple(sorted(hidden)),
        ),
        context_id=context_id,
        parent_context_id=req.parent_context_id,
        dropped=tuple(dropped),
    )


def build_packet(req: PacketRequest) -> tuple[TaskPacket, str]:
    """The agent's packet and its rendered prompt text, within the token budget if possible."""
    context_id = req.context_id or new_context_id()
    input_data, hidden = slice_input(req.snapshot, req.spec, req.grants)
    dumped = {r.step: r.output.model_dump(mode="json") for r in req.history}
    hidden |= req.grants.hidden_for(req.spec, columns_in(list(dumped.values())))
    input_data = redact(input_data, hidden)
    records = {
        r.step: StepRecord(r.step, r.agent, type(r.output).model_validate(redact(dumped[r.step], hidden)))
        if hidden
        else r
        for r in req.history
    }
    history = list(compress_history(list(records.values()), req.step, req.must_keep))
    in_input = _steps_in_input(req.snapshot, req.spec, input_data)
    history = [
        h.model_copy(update={"lines": (bilingual("prompt.given_whole", key=in_input[h.step]),)})
        if h.level == "full" and h.step in in_input
        else h
        for h in history
    ]
    notes = req.notes
    dropped: list[str] = []

    def attempt() -> tuple[TaskPacket, str, int]:
        packet = _assemble(req, input_data, hidden, history, notes, dropped, context_id)
        text = render_packet(packet)
        return packet, text, count_tokens(text)

    packet, text, tokens = attempt()
    for action in _drop_plan(history, input_data, req.spec):
        if tokens <= req.token_budget:
            break
        kind, arg = action
        if kind in ("conclusion", "findings", "full_demoted"):
            idx = next((i for i, h in enumerate(history) if h.step == arg), None)
            if idx is None:
                continue
            label = "demoted" if kind == "full_demoted" else history[idx].level
            dropped.append(f"history:{arg}:{label}")
            del history[idx]
        elif kind == "demote":
            idx = next((i for i, h in enumerate(history) if h.step == arg), None)
            if idx is None:
                continue
            dropped.append(f"history:{arg}:full->findings")
            history[idx] = demote(history[idx], records[int(arg)], req.must_keep)
        elif kind == "notes" and notes is not None:
            dropped.append("notes")
            notes = None
        elif kind == "input" and arg in input_data:
            dropped.append(f"input:{arg}")
            input_data = {k: v for k, v in input_data.items() if k != arg}
        packet, text, tokens = attempt()
    final = packet.model_copy(update={"token_count": tokens, "over_budget": tokens > req.token_budget})
    return final, text


def _steps_in_input(snapshot: LedgerSnapshot, spec: AgentSpec, input_data: Mapping[str, Any]) -> dict[int, str]:
    out: dict[int, str] = {}
    for key in spec.needed_keys:
        entry = latest_data(snapshot, key)
        if entry is not None and key in input_data:
            out[entry.step] = key
    return out


def _drop_plan(history: Sequence[HistoryItem], input_data: Mapping[str, Any], spec: AgentSpec) -> list[tuple[str, Any]]:
    plan: list[tuple[str, Any]] = []
    plan += [("conclusion", h.step) for h in history if h.level == "conclusion"]
    plan += [("findings", h.step) for h in history if h.level == "findings"]
    fulls = [h.step for h in history if h.level == "full"]
    plan += [("demote", s) for s in fulls]
    plan += [("full_demoted", s) for s in fulls]
    plan.append(("notes", None))
    plan += [("input", k) for k in reversed(spec.needed_keys) if k in input_data]
    return plan


def packet_trace_event(packet: TaskPacket) -> dict[str, Any]:
    """The ``handoff`` trace event for one packet (its size in tokens and what was dropped)."""
    return {
        "type": "handoff",
        "agent": packet.agent,
        "task_id": packet.task_id,
        "context_id": packet.context_id,
        "parent_context_id": packet.parent_context_id,
        "tokens": packet.token_count,
        "over_budget": packet.over_budget,
        "dropped": list(packet.dropped),
        "must_keep_items": sum(
            len(getattr(packet.must_keep, f))
            for f in ("filters_applied", "assumptions", "excluded_paths", "key_numbers")
        ),
    }
