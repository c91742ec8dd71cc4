"""Handoff contracts are JSON-schema exportable and round-trip exactly."""

from __future__ import annotations

import jsonschema
import pytest
from pydantic import BaseModel

from baton.bench.chain import build_chain
from baton.context import pass_baton, start_relay
from baton.contracts.agent_outputs import OUTPUT_MODELS, Finding, StatsOutput, StatTest
from baton.contracts.handoff import AgentReport, Baton, ReportResult, TaskPacket
from baton.contracts.ledger import LedgerSnapshot
from tests.context.samples import TASK


@pytest.mark.parametrize(
    "model",
    [Baton, TaskPacket, LedgerSnapshot, AgentReport[StatsOutput], *OUTPUT_MODELS.values()],
)
def test_schema_exports_and_is_valid_json_schema(model: type[BaseModel]) -> None:
    schema = model.model_json_schema()
    jsonschema.Draft202012Validator.check_schema(schema)


def test_real_outputs_validate_against_exported_schemas_and_round_trip() -> None:
    chain = build_chain(7)
    baton = start_relay(TASK, chain[0].output, run_id="r")
    for step in chain[1:]:
        baton = pass_baton(baton, step.output)
        data = step.output.model_dump(mode="json")
        jsonschema.validate(data, type(step.output).model_json_schema())
        assert type(step.output).model_validate(data) == step.output
        report = step.report
        assert type(report).model_validate_json(report.model_dump_json()) == report
    dumped = baton.model_dump(mode="json")
    jsonschema.validate(dumped, Baton.model_json_schema())
    assert Baton.model_validate(dumped) == baton


def test_contract_validation_rules() -> None:
    with pytest.raises(ValueError, match="no such number"):
        Finding(finding_id="f", summary="GMV {num:gmv}")
    with pytest.raises(ValueError, match="interval"):
        StatTest(name="x", method="welch", estimate=1, ci_low=2, ci_high=3)
    with pytest.raises(ValueError, match="result"):
        AgentReport[StatsOutput](task_id="t", status="success")
    failed: AgentReport[BaseModel] = AgentReport(task_id="t", status="failed", issues=("timeout",))
    assert failed.result is None
    assert ReportResult.__name__ == "ReportResult"
