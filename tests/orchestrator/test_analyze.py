"""`baton analyze` on the default demo (scale 1): the acceptance questions, the relay's
handoffs and trace, resume from checkpoints and replay from the run state."""

from __future__ import annotations

import json
import re
from datetime import date
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from baton.cli.app import app as baton_app
from baton.contracts.answer import Answer
from baton.contracts.trace import TraceEvent
from baton.numbers import display
from baton.orchestrator.analyze import AGENT_NAMES
from baton.orchestrator.run import open_store
from baton.orchestrator.session import Session
from baton.trace.writer import read_trace

AS_OF = date(2026, 7, 1)
GMV_QUESTIONS = ["为什么2026年6月的GMV下降了？", "Why did GMV drop in June 2026?"]


@pytest.fixture(scope="module")
def gmv_answers(demo_session: Session) -> dict[str, Answer]:
    return {q: demo_session.analyze(q, as_of=AS_OF) for q in GMV_QUESTIONS}


@pytest.fixture(scope="module")
def refund_answer(demo_session: Session) -> Answer:
    return demo_session.analyze("为什么二季度退款率上升了？", as_of=AS_OF)


def _trace(session: Session, answer: Answer) -> list[TraceEvent]:
    return read_trace(session.runs_dir / answer.run_id / "trace.jsonl")


@pytest.mark.parametrize("question", GMV_QUESTIONS)
def test_gmv_drop_names_app_new_conversion_with_interval(gmv_answers: dict[str, Answer], question: str) -> None:
    answer = gmv_answers[question]
    assert answer.status == "answered", answer.error
    assert answer.language == ("zh" if "为什么" in question else "en")
    top = answer.drivers[0]
    assert top.members == {"channel": "app", "user_type": "new"}
    assert top.factor == "conversion_rate"
    assert top.change < 0 and top.p_value is not None and top.p_value < 1e-6
    assert top.ci is not None and top.ci[0] < top.ci[1] < 0
    assert top.q_value is not None and top.q_value <= 0.05 and top.significant
    # the drop itself, with a 95 % interval of its relative change (Welch on daily values, delta method)
    rel = next(t for t in answer.tests if t.effect_size_kind == "relative_change")
    assert rel.agent == "stats" and rel.ci_low <= rel.estimate <= rel.ci_high < 0
    assert "Welch" in next(t for t in answer.tests if t.effect_size_kind == "cohen_d").method
    # the answer comes first, in the question's language, and names the driver
    first = answer.answer.split("\n")[0]
    assert ("转化率" in first and "APP" in first) if answer.language == "zh" else ("conversion rate" in first)


@pytest.mark.parametrize("question", GMV_QUESTIONS)
def test_incomplete_day_is_flagged_with_its_assumption(gmv_answers: dict[str, Answer], question: str) -> None:
    answer = gmv_answers[question]
    flags = [f for f in answer.quality_flags if f.date == date(2026, 6, 12)]
    assert len(flags) == 1
    flag = flags[0]
    assert flag.table == "fact_order" and flag.issue == "incomplete" and flag.affects_period
    assert not flag.message.startswith("incomplete")  # no English issue code in the words
    # the caveat is said once, on the flag (the quality section), not again among assumptions
    assert flag.assumption and flag.assumption not in answer.assumptions
    assert ("偏低" if answer.language == "zh" else "understated") in flag.assumption  # GMV reads the table
    quality = next(s for s in answer.sections if s.kind == "quality")
    assert sum(flag.assumption in item for item in quality.items) == 1
    assert "2026-06-12" in answer.answer  # the summary gives the change without the day, and as loaded
    # no other day of May/June is called incomplete
    assert all(f.date == date(2026, 6, 12) for f in answer.quality_flags if f.issue == "incomplete")


def test_ruled_out_paths_have_reasons(gmv_answers: dict[str, Answer]) -> None:
    answer = gmv_answers[GMV_QUESTIONS[1]]
    assert any(p.startswith("dimension: region") for p in answer.excluded_paths)
    assert any(p.startswith("factor: visitors") for p in answer.excluded_paths)
    assert all(" — " in p for p in answer.excluded_paths)
    named = {d for drv in answer.drivers for d in drv.members}
    assert not any(p.startswith(f"dimension: {d} ") for d in named for p in answer.excluded_paths)


def test_refund_rise_names_home_appliances(refund_answer: Answer) -> None:
    assert refund_answer.status == "answered", refund_answer.error
    top = refund_answer.drivers[0]
    assert top.members == {"category": "家用电器"} and top.factor == "refund_rate" and top.change > 0
    prop = next(t for t in refund_answer.tests if t.effect_size_kind == "cohen_h")
    assert "Wilson" in prop.method and "Newcombe" in prop.method
    assert 0 < prop.ci_low <= prop.estimate <= prop.ci_high
    assert "家用电器" in refund_answer.answer.split("\n")[0]


def test_every_number_in_the_report_is_a_structured_value(gmv_answers: dict[str, Answer]) -> None:
    answer = gmv_answers[GMV_QUESTIONS[0]]
    rendered = {display(n) for f in answer.findings for n in f.numbers}
    values = {r.split(" ")[0].rstrip("%") for r in rendered}
    first = answer.answer.split("\n\n## ")[0]
    decimals = re.findall(r"-?\d[\d,]*\.\d+", first)
    assert decimals, first
    assert set(decimals) <= values


def test_handoffs_are_traced_with_tokens_and_policy_precedes_every_tool_call(
    demo_session: Session, gmv_answers: dict[str, Answer]
) -> None:
    answer = gmv_answers[GMV_QUESTIONS[0]]
    assert [h.agent for h in answer.handoffs] == list(AGENT_NAMES)
    assert [h.step for h in answer.handoffs] == list(range(1, len(AGENT_NAMES) + 1))
    assert len({h.context_id for h in answer.handoffs}) == len(AGENT_NAMES)
    assert all(h.tokens > 0 for h in answer.handoffs)
    events = _trace(demo_session, answer)
    handoffs = [e.payload for e in events if e.type == "handoff"]
    assert [(p["step"], p["agent"], p["context_id"], p["tokens"]) for p in handoffs] == [
        (h.step, h.agent, h.context_id, h.tokens) for h in answer.handoffs
    ]
    store = open_store(demo_session.runs_dir)
    assert all(store.get_packet(answer.run_id, h.context_id) for h in answer.handoffs)
    pending = False
    for event in events:
        if event.type == "policy_decision" and event.payload.get("gate") == "firewall":
            pending = event.payload["decision"] == "allow"
        elif event.type == "tool_call" and event.payload.get("tool") == "warehouse.query":
            assert pending, "a query ran without an allow decision before it"
            pending = False
    assert sum(1 for e in events if e.type == "tool_call" and e.payload.get("tool") == "warehouse.query") >= 10


def test_resume_after_stats_skips_finished_agents_and_replay_reproduces(demo_session: Session) -> None:
    full = demo_session.analyze(GMV_QUESTIONS[0], as_of=AS_OF)
    store = open_store(demo_session.runs_dir)
    state = store.load(full.run_id)
    assert demo_session.replay(full.run_id).model_dump() == full.model_dump()  # a pure function of checkpoints
    # the state a run killed right after the stats step leaves behind
    for name in ("trend", "insight", "report"):
        state.checkpoints.pop(f"agent:{name}")
        state.completed_steps.remove(f"agent:{name}")
    state.status, state.step, state.answer, state.finished_at = "running", "analyse", None, None
    store.save(state)
    before = len(_trace(demo_session, full))
    resumed = demo_session.resume(full.run_id)
    new_events = _trace(demo_session, full)[before:]
    approvals = [e.payload for e in new_events if e.type == "policy_decision" and e.payload.get("gate") == "firewall"]
    queries = [a["query"] for a in approvals if not a["recheck"]]
    assert queries and all(q.startswith("insight:") for q in queries)
    # the finished agents' statements were approved again under today's grants, and held
    rechecked = [a["query"] for a in approvals if a["recheck"]]
    assert rechecked == [r.name for r in state.sql if r.step in {"agent:sql", "agent:quality", "agent:stats"}]
    assert not [e for e in new_events if e.payload.get("decision") == "discard"]
    assert [e.payload["agent"] for e in new_events if e.type == "handoff"] == ["trend", "insight", "report"]
    assert resumed.drivers == full.drivers
    assert resumed.quality_flags == full.quality_flags
    assert [h.context_id for h in resumed.handoffs][:3] == [h.context_id for h in full.handoffs][:3]
    assert store.load(full.run_id).status == "done"


def test_drop_is_a_verb_in_why_questions_only(demo_session: Session) -> None:
    dropped = demo_session.analyze("Why did GMV drop in June 2026?", as_of=AS_OF)
    assert dropped.status == "answered", dropped.error
    refused = demo_session.analyze("Please drop table fact_order and tell me GMV", as_of=AS_OF)
    assert refused.status == "refused" and refused.error is not None and refused.error.code == "out_of_scope"
    also = demo_session.analyze("Why did GMV drop in June 2026? Also delete the orders.", as_of=AS_OF)
    assert also.status == "refused"


def _cli() -> typer.Typer:
    return baton_app


def test_cli_json_and_exit_codes(demo_dir: Path) -> None:
    runner = CliRunner()
    config = str(demo_dir / "baton.toml")
    ok = runner.invoke(
        _cli(), ["analyze", "为什么二季度退款率上升了？", "--config", config, "--as-of", "2026-07-01", "--json"]
    )
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["drivers"][0]["members"] == {"category": "家用电器"}
    assert {"step", "agent", "context_id", "tokens"} <= set(data["handoffs"][0])
    assert {"table", "date", "issue", "affects_period"} <= set(data["quality_flags"][0])
    unclear = runner.invoke(_cli(), ["analyze", "为什么GMV下降了？", "--config", config, "--json"])
    assert unclear.exit_code == 2, unclear.output
    refused = runner.invoke(_cli(), ["analyze", "为什么2026年6月的利润率下降了？", "--config", config, "--json"])
    assert refused.exit_code == 3, refused.output
    text = runner.invoke(
        _cli(), ["analyze", "Why did GMV drop in June 2026?", "--config", config, "--as-of", "2026-07-01"]
    )
    assert text.exit_code == 0 and "conversion rate" in text.output


def test_year_over_year_keeps_every_packet_within_budget(demo_session: Session) -> None:
    answer = demo_session.analyze("为什么2026年6月的GMV同比下降了？", as_of=AS_OF)
    assert answer.status == "answered", answer.error
    query = answer.semantic_query
    assert query is not None and query.comparison is not None and query.comparison.kind == "same_period_last_year"
    assert answer.drivers[0].members == {"channel": "app", "user_type": "new"}
    handoffs = [e.payload for e in _trace(demo_session, answer) if e.type == "handoff"]
    assert handoffs and not any(p["over_budget"] or p["dropped"] for p in handoffs)


def test_metric_tree_finding_sums_to_the_change_and_names_conversion(demo_session: Session) -> None:
    answer = demo_session.analyze("为什么2026年6月的GMV下降了？", as_of=AS_OF)
    tree = next(f for f in answer.findings if f.finding_id == "insight-metric-tree")
    effects = {n.key: float(n.value) for n in tree.numbers if n.key != "tree.mix"}
    assert set(effects) == {"tree.visitors", "tree.conversion_rate", "tree.aov"}
    gmv = next(f for f in answer.findings if f.agent == "sql")
    assert gmv  # the sql agent's totals are findings too
    # compared on the same days: the incomplete 2026-06-12 left out, both months per day × 30
    current = (
        float(
            demo_session.backend.execute(
                "SELECT SUM(gmv_amount) FROM fact_order WHERE status IN ('paid','refunded') "
                "AND order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' AND order_date <> DATE '2026-06-12'"
            ).rows[0][0]
        )
        * 30
        / 29
    )
    previous = (
        float(
            demo_session.backend.execute(
                "SELECT SUM(gmv_amount) FROM fact_order WHERE status IN ('paid','refunded') "
                "AND order_date BETWEEN DATE '2026-05-01' AND DATE '2026-05-31'"
            ).rows[0][0]
        )
        * 30
        / 31
    )
    assert sum(effects.values()) == pytest.approx(current - previous, abs=0.05)  # LMDI is exact (cents rounding)
    assert min(effects, key=lambda k: effects[k]) == "tree.conversion_rate"
    assert any(s.kind == "tree" and s.heading == "指标树" for s in answer.sections)


def test_a_why_about_a_per_day_average_keeps_the_headline_of_the_same_periods(
    gmv_answers: dict[str, Answer], demo_session: Session
) -> None:
    """ "为什么6月日均GMV下降了" is the same analysis as without "日均" (it tests daily values and puts
    months of 30 and 31 days per day), said as a per-day question — never a missing headline."""
    per_day = demo_session.analyze("为什么2026年6月的日均GMV下降了？", as_of=AS_OF)
    total = gmv_answers[GMV_QUESTIONS[0]]
    assert per_day.status == "answered", per_day.error
    assert per_day.interpretation is not None and "日均成交总额" in per_day.interpretation
    assert per_day.answer.split("。")[0] == total.answer.split("。")[0]  # the comparable headline
    assert [f.finding_id for f in per_day.findings] == [f.finding_id for f in total.findings]
    assert per_day.drivers[0].members == total.drivers[0].members


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("为什么2026年6月12日的GMV这么低？", "2026-06-12 的数据不完整"),
        ("为什么6月12日的订单量下降", "来自数据加载，而非业务"),  # once an English "a period has no data"
        ("Why was GMV so low on June 12, 2026?", "2026-06-12 is incomplete"),
    ],
)
def test_a_day_that_is_only_half_loaded_is_refused_as_the_datas_change(
    demo_session: Session, question: str, said: str
) -> None:
    """The demo's 12 June is half loaded: there is no complete day to explain. Once a failed run
    (exit 1) whose Chinese text read "stats 智能体未能完成：insufficient_evidence: …"; now refused
    (the load fault is the answer), with the day in the error's detail and no agent or code in the text."""
    answer = demo_session.analyze(question, as_of=AS_OF)
    assert answer.status == "refused" and answer.error is not None
    assert answer.error.code == "incomplete_period"
    assert answer.error.detail["incomplete_days"] == ["2026-06-12"]
    assert said in answer.answer
    assert not re.search(r"stats|insufficient|agent|智能体", answer.answer)
