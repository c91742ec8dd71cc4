"""The LLM narrator: the model writes the prose through the real client (scripted server), and
the output gate decides whether it is shown; otherwise the deterministic narrative is, with the
reason recorded."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.agents.llm_narrator import (
    MAX_ROWS,
    GatedNarrative,
    gated_model_narrative,
    narrate_with_model,
    narrator_messages,
)
from baton.agents.narrator import Narrator
from baton.catalog.loader import load_catalog
from baton.contracts.answer import Column, ResultTable
from baton.contracts.semantic import SemanticQuery, TimeRange
from baton.errors import ModelFailure
from baton.llm import LlmSettings, Provider, open_provider
from baton.nlu.interpret import interpret
from baton.policy.output_gate import ClaimSupport
from tests.llm_server import Refusal, Reply, ScriptedLLM, Slow, Status

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
AS_OF = date(2026, 7, 1)
KEY_ENV = "BATON_TEST_LLM_NARRATOR_KEY"

QUERY = SemanticQuery(
    metrics=("gmv",),
    dimensions=("channel",),
    time_range=TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30), text="last month"),
    intent="breakdown",
    as_of=AS_OF,
)
TABLE = ResultTable(
    columns=[Column(name="channel", type="VARCHAR"), Column(name="gmv", type="DECIMAL")],
    rows=[["app", 1234567.89], ["mini_program", 845210.5], ["web", 456789.12], ["live_stream", 98765.4]],
    row_count=4,
)
INTERPRETATION = interpret(QUERY, CATALOG, "en")
FACTS = ["app had the highest GMV of the four channels"]
DETERMINISTIC = Narrator(CATALOG).compose(QUERY, TABLE, "en")


@pytest.fixture
def server(scripted_llm_server: ScriptedLLM, monkeypatch: pytest.MonkeyPatch) -> ScriptedLLM:
    monkeypatch.delenv(KEY_ENV, raising=False)
    scripted_llm_server.reset()
    return scripted_llm_server


def _provider(server: ScriptedLLM, **overrides: Any) -> Provider:
    fields: dict[str, Any] = {"base_url": server.base_url, "model": "scripted-model", "api_key_env": KEY_ENV}
    return open_provider(LlmSettings.model_validate(fields | overrides))


def _gated(server: ScriptedLLM, **kwargs: Any) -> GatedNarrative:
    return gated_model_narrative(
        _provider(server, timeout_s=0.5),
        catalog=CATALOG,
        query=QUERY,
        table=TABLE,
        interpretation=INTERPRETATION,
        facts=FACTS,
        language="en",
        **kwargs,
    )


def test_prose_quoting_the_rows_passes_the_gate(server: ScriptedLLM) -> None:
    prose = (
        "In June 2026 the app channel led GMV with 1,234,567.89, ahead of mini program at 845,210.50; "
        "live stream was lowest at 98,765.4 across the 4 channels."
    )
    server.script(Reply(content=prose))
    said, used_model, reason = _gated(server)
    assert (said, used_model, reason) == (prose, True, None)


def test_an_invented_number_is_blocked_and_the_deterministic_narrative_used(server: ScriptedLLM) -> None:
    server.script(Reply(content="GMV reached 9,999,999 last month, up 12.5% on May."))
    said, used_model, reason = _gated(server)
    assert said == DETERMINISTIC and not used_model
    assert reason is not None and reason.startswith("output_blocked:") and "9,999,999" in reason


@pytest.mark.parametrize(
    "prose",
    [
        "App GMV of 1,234,567.89 was significantly higher than web's 456,789.12.",
        "Web trailed at 456,789.12 because fewer people visited the site.",
        "直播渠道的GMV只有98,765.4，这是由于直播场次减少导致的。",
    ],
    ids=["significant", "because", "causal_zh"],
)
def test_an_unsupported_claim_is_blocked(server: ScriptedLLM, prose: str) -> None:
    server.script(Reply(content=prose))
    said, used_model, reason = _gated(server)
    assert said == DETERMINISTIC and not used_model
    assert reason is not None and reason.startswith("output_blocked: claim")


def test_a_significant_claim_passes_when_a_test_says_so(server: ScriptedLLM) -> None:
    prose = "App GMV of 1,234,567.89 was significantly higher than web's 456,789.12."
    server.script(Reply(content=prose))

    @dataclass
    class Gate:
        evidence: list[list[Any]] = field(default_factory=lambda: TABLE.rows)
        derived: list[Any] = field(default_factory=list)
        labels: list[str] = field(default_factory=list)
        claims: ClaimSupport | None = field(default_factory=lambda: ClaimSupport(tests_run=1, significant_tests=1))
        pii_allowed: bool = False
        regenerate: Callable[[], str] | None = None

    assert _gated(server, gate=Gate()) == (prose, True, None)


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        (Status(500), "http_error"),
        (Slow(3.0, then=Reply(content="late")), "timeout"),
        (Refusal(), "refusal"),
        (Reply(content="   "), "refusal"),
        (Reply(content="GMV. " * 400), "schema_violation"),
    ],
    ids=["http_500", "slow", "refusal", "empty", "too_long"],
)
def test_a_model_failure_falls_back_with_its_reason(server: ScriptedLLM, behaviour: Any, reason: str) -> None:
    server.script(behaviour)
    said, used_model, why = _gated(server)
    assert (said, used_model, why) == (DETERMINISTIC, False, reason)


def test_the_fallback_is_the_callers_regeneration_when_given(server: ScriptedLLM) -> None:
    server.script(Reply(content="GMV reached 9,999,999."))

    @dataclass
    class Gate:
        evidence: Iterable[Iterable[Any]]
        derived: Iterable[Any] = ()
        labels: Iterable[str] = ()
        claims: ClaimSupport | None = None
        pii_allowed: bool = False
        regenerate: Callable[[], str] | None = lambda: "the pipeline's own narrative"

    assert _gated(server, gate=Gate(evidence=TABLE.rows))[:2] == ("the pipeline's own narrative", False)


def test_a_pii_value_is_blocked_and_not_repeated_in_the_reason(server: ScriptedLLM) -> None:
    server.script(Reply(content="Top buyer 13812345678 spent 1,234,567.89."))
    said, used_model, reason = _gated(server)
    assert said == DETERMINISTIC and not used_model
    assert reason is not None and "pii" in reason and "13812345678" not in reason


def test_the_model_sees_the_findings_and_the_rows_capped_never_more(server: ScriptedLLM) -> None:
    rows = [[f"member_{i}", 1000.0 + i] for i in range(80)]
    table = ResultTable(columns=TABLE.columns, rows=rows, row_count=80)
    server.script(Reply(content="Member_0 had 1,000."))
    said = narrate_with_model(
        _provider(server), query=QUERY, table=table, interpretation=INTERPRETATION, facts=FACTS, language="zh"
    )
    assert said == "Member_0 had 1,000."
    system, user = server.last_request["messages"]
    assert "Write in Chinese" in system["content"] and "significant" in system["content"]
    assert INTERPRETATION in user["content"] and json.dumps(FACTS, ensure_ascii=False) in user["content"]
    assert f"{MAX_ROWS} of 80" in user["content"]
    assert '"member_49"' in user["content"] and '"member_50"' not in user["content"]
    assert "SELECT" not in user["content"] and "fact_order" not in user["content"]


def test_a_model_failure_is_raised_by_the_bare_narrator(server: ScriptedLLM) -> None:
    server.script(Status(503))
    with pytest.raises(ModelFailure) as caught:
        narrate_with_model(
            _provider(server), query=QUERY, table=TABLE, interpretation=INTERPRETATION, facts=None, language="en"
        )
    assert caught.value.detail["reason"] == "http_error"


def test_the_messages_name_no_fact_when_there_is_none() -> None:
    _, user = narrator_messages(query=QUERY, table=TABLE, interpretation="x", facts=None, language="en")
    assert "Findings" not in user.content and '"app"' in user.content


@pytest.mark.parametrize(
    "prose",
    [
        "App led with 98,765.4 while live stream had 1,234,567.89 last month.",
        "上个月app渠道的GMV为98,765.4，直播为1,234,567.89。",
        "Web came in at 845,210.5.",
    ],
    ids=["swapped_en", "swapped_zh", "another_rows_number"],
)
def test_a_number_said_of_the_wrong_row_is_blocked(server: ScriptedLLM, prose: str) -> None:
    server.script(Reply(content=prose))
    said, used_model, reason = _gated(server)
    assert said == DETERMINISTIC and not used_model
    assert reason is not None and reason.startswith("output_blocked: unbound_number"), reason


@pytest.mark.parametrize(
    "prose", ["App GMV rose to 1,234,567.89 last month.", "上个月app的GMV上涨到1,234,567.89。"], ids=["en", "zh"]
)
def test_a_change_word_without_a_comparison_is_blocked(server: ScriptedLLM, prose: str) -> None:
    server.script(Reply(content=prose))
    said, used_model, reason = _gated(server)
    assert said == DETERMINISTIC and not used_model
    assert reason is not None and reason.startswith("output_blocked: change_without_comparison"), reason


def test_a_change_word_stands_where_the_query_compares_or_is_a_series() -> None:
    from baton.agents.llm_narrator import change_without_comparison
    from baton.contracts.semantic import Comparison

    may = TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31))
    compared = QUERY.model_copy(
        update={"comparison": Comparison(kind="previous_period", range=may), "intent": "comparison"}
    )
    series = QUERY.model_copy(update={"grain": "week", "dimensions": (), "intent": "trend"})
    assert change_without_comparison("GMV rose 3%.", QUERY) == "rose"
    assert change_without_comparison("GMV rose 3%.", compared) is None
    assert change_without_comparison("GMV 下降了", series) is None
    assert change_without_comparison("GMV was 1,234,567.89.", QUERY) is None
