"""Compression levels, must_keep header, token budget, slicing with grants, merge, rendering."""

from __future__ import annotations

from decimal import Decimal

import pytest

from baton.bench.chain import INITIAL_CONSTRAINTS, PII_COLUMN, PROJECT_CONTEXT, TASK, build_chain
from baton.context import (
    AgentSpec,
    Grants,
    Ledger,
    PacketRequest,
    StepRecord,
    build_packet,
    compress_history,
    count_tokens,
    data_key,
    extend_must_keep,
    level_for,
    merge_report,
    must_keep_from_output,
    packet_trace_event,
    render_packet,
)
from baton.context.render import MUST_KEEP_TITLE
from baton.contracts.agent_outputs import OUTPUT_MODELS, SqlOutput
from baton.contracts.handoff import AgentReport, MustKeep, ReportResult, TaskPacket, count_sentences
from baton.contracts.values import KeyNumber
from tests.context.samples import sql_output

CHAIN = build_chain(12)


@pytest.mark.parametrize(
    ("distance", "level"),
    [(1, "full"), (2, "full"), (3, "findings"), (4, "findings"), (5, "conclusion"), (11, "conclusion")],
)
def test_level_by_distance(distance: int, level: str) -> None:
    assert level_for(distance) == level


def _must_keep(upto: int) -> MustKeep:
    mk = MustKeep()
    for s in CHAIN[:upto]:
        mk = extend_must_keep(mk, must_keep_from_output(s.output))
    return mk


def test_compressed_history_levels_and_verbatim_numbers() -> None:
    records = [StepRecord(s.step, s.agent, s.output) for s in CHAIN[:11]]
    history = compress_history(records, current_step=12, must_keep=_must_keep(11))
    by_step = {h.step: h for h in history}
    assert [by_step[s].level for s in (11, 10, 9, 8, 7, 6, 1)] == [
        "full",
        "full",
        "findings",
        "findings",
        "conclusion",
        "conclusion",
        "conclusion",
    ]
    sql_full = "\n".join(by_step[11].lines)  # step 11 is a SQL step
    assert CHAIN[10].agent == "sql"
    assert "raw rows not included" in sql_full
    rows = CHAIN[10].output.rows  # type: ignore[union-attr]
    assert rows and all(str(r["revenue"]) not in sql_full and str(r[PII_COLUMN]) not in sql_full for r in rows)
    # one line per finding 3–4 steps back; a single conclusion line further back
    assert len(by_step[9].lines) == len(CHAIN[8].output.findings)
    assert len(by_step[1].lines) == 1 and "1284317 CNY" in by_step[1].lines[0]
    assert "assumptions: A" in by_step[2].lines[0]  # quality step 2: refers to must_keep ids


def _request(
    step_idx: int, budget: int = 6000, grants: Grants | None = None, spec: AgentSpec | None = None
) -> PacketRequest:
    ledger = Ledger()
    for s in CHAIN[:step_idx]:
        merge_report(ledger, s.report, agent=s.agent, step=s.step)
    step = CHAIN[step_idx]
    return PacketRequest(
        spec=spec
        or AgentSpec(
            name=step.agent, instruction="do it", output_model=OUTPUT_MODELS[step.agent], needed_keys=(data_key("sql"),)
        ),
        task=TASK,
        constraints=INITIAL_CONSTRAINTS,
        must_keep=_must_keep(step_idx),
        snapshot=ledger.snapshot(),
        history=tuple(StepRecord(s.step, s.agent, s.output) for s in CHAIN[:step_idx]),
        step=step.step,
        project_context=PROJECT_CONTEXT,
        grants=grants or Grants(user_id="u", pii_columns=frozenset({PII_COLUMN})),
        task_id=step.report.task_id,
        token_budget=budget,
        context_id="ctx-test",
    )


def test_must_keep_header_comes_first_and_survives_any_budget() -> None:
    req = _request(11)
    roomy, roomy_text = build_packet(req)
    tight, tight_text = build_packet(_request(11, budget=200))
    for text in (roomy_text, tight_text):
        assert text.startswith(MUST_KEEP_TITLE)
        for n in req.must_keep.key_numbers:
            assert f"{n.rendered()} [{n.evidence_id}]" in text
        for f in req.must_keep.filters_applied:
            assert f.predicate in text
        for a in req.must_keep.assumptions:
            assert a.text in text
    assert roomy.dropped == () and not roomy.over_budget
    # documented drop order: conclusion-level history first, ..., input slots last
    kinds = [d.split(":")[0] + (":" + d.split(":")[2] if d.startswith("history") else "") for d in tight.dropped]
    order = ["history:conclusion", "history:findings", "history:full->findings", "history:demoted", "notes", "input"]
    positions = [order.index(kind) for kind in kinds]
    assert positions == sorted(positions)
    assert tight.over_budget and tight.token_count == count_tokens(tight_text)
    assert tight.history == () and tight.input_data == {}


def test_budget_drops_only_what_it_must() -> None:
    full, _ = build_packet(_request(11))
    assert full.token_count is not None
    budget = full.token_count - 30
    trimmed, text = build_packet(_request(11, budget=budget))
    assert trimmed.dropped and trimmed.dropped[0].startswith("history:") and trimmed.dropped[0].endswith("conclusion")
    assert trimmed.token_count is not None and trimmed.token_count <= budget
    assert count_tokens(text) == trimmed.token_count


@pytest.mark.parametrize(
    ("needs_pii", "pii_allowed", "allowed", "visible"),
    [
        (False, False, None, False),
        (False, True, None, False),  # the user may, but the agent does not need it
        (True, False, None, False),  # the agent needs it, but the user may not
        (True, True, None, True),
        (True, True, frozenset({"channel", "gmv"}), False),  # not among the user's columns
    ],
)
def test_slicing_applies_grants(
    needs_pii: bool, pii_allowed: bool, allowed: frozenset[str] | None, visible: bool
) -> None:
    ledger = Ledger()
    out = sql_output(rows=3)
    merge_report(
        ledger,
        AgentReport[SqlOutput](
            task_id="sql-1", status="success", result=ReportResult[SqlOutput](summary="ok", data=out)
        ),
        agent="sql",
        step=1,
    )
    spec = AgentSpec(
        name="stats",
        instruction="test",
        output_model=OUTPUT_MODELS["stats"],
        needed_keys=(data_key("sql"), data_key("quality")),
        needs_pii=needs_pii,
        needs_rows=True,
    )
    grants = Grants(
        user_id="u", pii_columns=frozenset({"buyer_phone"}), pii_allowed=pii_allowed, allowed_columns=allowed
    )
    packet, text = build_packet(
        PacketRequest(
            spec=spec,
            task=TASK,
            constraints=(),
            must_keep=must_keep_from_output(out),
            snapshot=ledger.snapshot(),
            history=(StepRecord(1, "sql", out),),
            step=2,
            project_context="一句话。第二句话。",
            grants=grants,
            task_id="t",
        )
    )
    assert list(packet.input_data) == [data_key("sql")]  # only declared keys that exist
    assert ("13800000001" in text) is visible
    assert ("buyer_phone" in packet.grants.hidden_columns) is (not visible)
    assert packet.grants.pii_visible is (needs_pii and pii_allowed)


def test_merge_copies_data_verbatim_and_discards_reasoning() -> None:
    step = CHAIN[0]
    ledger = Ledger()
    written = merge_report(ledger, step.report, agent=step.agent, step=1, context_id="ctx-1")
    snap = ledger.snapshot()
    data_entry = next(e for e in written if e.kind == "data")
    assert data_entry.key == "sql.output"
    assert SqlOutput.model_validate(data_entry.data) == step.output  # verbatim, Decimals exact
    assert step.report.result is not None
    assert [e.text for e in snap.entries if e.kind == "summary"] == [step.report.result.summary]
    assert [e.text for e in snap.entries if e.kind == "issue"] == list(step.report.issues)
    assert step.canary not in snap.model_dump_json()
    assert any(e.kind == "fact" and e.fact and e.fact.value == Decimal(1284317) for e in snap.entries)


def test_packet_renders_deterministically_and_counts_tokens() -> None:
    packet, text = build_packet(_request(5))
    assert render_packet(packet.model_copy(update={"token_count": None})) == text
    assert packet.token_count == count_tokens(text) > 0
    event = packet_trace_event(packet)
    assert event["type"] == "handoff" and event["tokens"] == packet.token_count
    assert TaskPacket.model_json_schema()["properties"]["expected_output"]["type"] == "object"


def test_project_context_is_two_sentences_at_most() -> None:
    assert count_sentences(PROJECT_CONTEXT) == 2
    assert count_sentences("One. Two! 三？") == 3
    with pytest.raises(ValueError, match="two sentences"):
        build_packet(_request(1).__class__(**{**_request(1).__dict__, "project_context": "一。二。三。"}))


@pytest.mark.parametrize(
    ("value", "precision", "rendered"),
    [
        ("1284317", -1, "1284317 CNY"),
        ("0.0312", -1, "0.0312 CNY"),
        ("0.0100", -1, "0.0100 CNY"),
        ("20.1", 2, "20.10 CNY"),
        ("-61234", -1, "-61234 CNY"),
        (1284317, -1, "1284317 CNY"),
    ],
)
def test_numbers_render_from_their_structured_value(value: str | int, precision: int, rendered: str) -> None:
    n = KeyNumber(key="k", label="l", value=value, unit="CNY", precision=precision, evidence_id="e")
    assert n.rendered() == rendered


def test_precision_may_not_round_a_number_away() -> None:
    with pytest.raises(ValueError, match="would round"):
        KeyNumber(key="k", label="l", value=Decimal("20.15"), unit="万辆", precision=1, evidence_id="e")
