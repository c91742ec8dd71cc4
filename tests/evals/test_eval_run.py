"""The shipped eval, run through the real pipeline on the real demo.

No answer may be silently wrong on either split; the dev split must be entirely right and
the held-out split (written before the planner it measures, never tuned against) at least
95 % right. Every tool call of every run is preceded by the policy decision that allowed it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baton.config import Settings
from baton.errors import ConfigError
from baton.evals.runner import EvalReport, run_eval, score_table
from baton.trace.writer import read_trace

HELD_OUT_FLOOR = 0.95


@pytest.fixture(scope="module")
def report(demo_settings: Settings) -> EvalReport:
    return run_eval(demo_settings)


def _not_right(report: EvalReport, split: str) -> str:
    return "\n".join(
        f"{c.id} [{c.phrasing}] {c.outcome}: {c.reason}" for c in report.cases if c.split == split and not c.passed
    )


def test_no_answer_is_silently_wrong(report: EvalReport) -> None:
    """Held-out cases are counted, never listed: the split stays blind to whoever fixes the planner."""
    wrong = [f"{c.id} [{c.phrasing}]: {c.reason}" for c in report.cases if c.outcome == "silently_wrong"]
    dev_wrong = [
        f"{c.id} [{c.phrasing}]: {c.reason}" for c in report.cases if c.outcome == "silently_wrong" and c.split == "dev"
    ]
    assert not wrong, score_table(report) + "\n" + "\n".join(dev_wrong)


def test_dev_split_is_entirely_right(report: EvalReport) -> None:
    score = report.score("dev")
    assert score.cases >= 200
    assert score.right == score.cases, _not_right(report, "dev")


def test_held_out_split_is_at_least_95_percent_right(report: EvalReport) -> None:
    score = report.score("heldout")
    assert score.cases >= 100
    assert score.right_rate >= HELD_OUT_FLOOR, score_table(report)  # counts only: the split stays blind


def test_every_tool_call_follows_its_policy_decision(report: EvalReport, demo_settings: Settings) -> None:
    for case in report.cases:
        events = read_trace(demo_settings.runs_dir / case.run_id / "trace.jsonl")
        assert events[0].type == "run_started"
        assert events[-1].type == "run_finished"
        # each tool call needs its own allow decision since the previous call of that tool
        pending: set[str] = set()
        for event in events:
            if event.type == "policy_decision" and event.payload.get("decision") == "allow":
                pending.add(str(event.payload.get("tool")))
            if event.type == "tool_call":
                tool = event.payload["tool"]
                assert tool in pending, f"{case.id}: {tool} ran without a policy decision before it"
                pending.discard(tool)


def test_every_answered_dev_case_passes_the_output_gate_first_time(report: EvalReport, demo_settings: Settings) -> None:
    """No false positives: the narrator's own sentences over the dev split all pass the output
    gate as written — traced as "pass", never rewritten or refused (read from the runs above)."""
    checked = 0
    for case in report.cases:
        if case.split != "dev" or case.status != "answered":
            continue
        events = read_trace(demo_settings.runs_dir / case.run_id / "trace.jsonl")
        gates = [e.payload for e in events if e.type == "policy_decision" and e.payload.get("gate") == "output"]
        assert [g["action"] for g in gates] == ["pass"], (case.id, gates)
        checked += 1
    assert checked >= 500


def test_a_gold_sql_that_fails_names_its_case(demo_settings: Settings, tmp_path: Path) -> None:
    case = {
        "id": "mine-001",
        "split": "dev",
        "phrasing": "plain",
        "question": "上个月的GMV",
        "lang": "zh",
        "as_of": "2026-07-01",
        "expect_status": "answered",
        "gold_sql": "SELECT SUM(no_such_column) AS gmv FROM fact_order",
    }
    dataset = tmp_path / "mine.jsonl"
    dataset.write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        run_eval(demo_settings, [dataset])
    assert "mine-001" in caught.value.message("en") and "mine-001" in caught.value.message("zh")
