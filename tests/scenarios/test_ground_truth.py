"""`baton analyze` on every packaged scenario, checked against its ground_truth.json.

Each scenario is built once at a modest scale; the question asks about the planted effect's
metric and period. The top driver (members, with the question's single-member filters) must
be a planted effect's ``where`` and its factor the effect's ``expected_factor``; every data
fault inside the analysed periods must be flagged as incomplete, and nothing else; the null
scenario must yield no significant driver after Benjamini–Hochberg.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.demo.generator import build_demo
from baton.demo.hard_cases import labeller, paths_consistent
from baton.demo.scenario import packaged_scenarios
from baton.orchestrator.session import Session

SCALE = 0.2
AS_OF = date(2026, 7, 1)

CASES: list[tuple[str, str]] = [
    ("default", "为什么2026年6月的GMV下降了？"),
    ("default", "为什么二季度退款率上升了？"),
    ("null", "为什么2026年6月的GMV下降了？"),
    ("traffic_drop_live_southwest", "为什么2026年6月的访客数下降了？"),
    ("traffic_drop_live_southwest", "Why did live stream visitors fall in June 2026?"),
    ("beauty_aov_rise", "为什么2026年4月的笔单价上升了？"),
    ("channel_mix_shift", "为什么2026年5月的转化率下降了？"),
    ("channel_mix_shift", "Why did GMV fall in May 2026?"),
    ("fault_with_north_conversion_drop", "为什么2026年4月的GMV下降了？"),
    ("mini_program_conversion_rise", "为什么2025年9月的GMV上升了？"),
    ("phone_refund_improvement", "为什么2026年一季度的退款率下降了？"),
]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str, str], tuple[Answer, dict[str, Any]]]:
    folders: dict[str, Path] = {}

    def run(scenario: str, question: str) -> tuple[Answer, dict[str, Any]]:
        if scenario not in folders:
            folder = tmp_path_factory.mktemp(f"scenario_{scenario}")
            build_demo(folder, scenario=packaged_scenarios()[scenario], scale=SCALE)
            folders[scenario] = folder
        folder = folders[scenario]
        session = Session(load_settings(folder / "baton.toml"))
        try:
            answer = session.analyze(question, as_of=AS_OF)
            # excluded paths never name what a driver uses (checked on every report here)
            assert paths_consistent(answer, labeller(session)), answer.excluded_paths
        finally:
            session.close()
        return answer, json.loads((folder / "ground_truth.json").read_text(encoding="utf-8"))

    return run


def _in_periods(answer: Answer, day: date) -> bool:
    query = answer.semantic_query
    assert query is not None and query.comparison is not None
    ranges = (query.time_range, query.comparison.range)
    return any(r.start <= day <= r.end for r in ranges)


def test_every_packaged_scenario_is_covered() -> None:
    """Here or among the hard cases (tests/scenarios/test_hard_cases.py)."""
    from baton.demo.hard_cases import CASES as HARD

    assert {name for name, _ in CASES} | {case.scenario for case in HARD} == set(packaged_scenarios())


@pytest.mark.parametrize(("scenario", "question"), CASES)
def test_analysis_matches_ground_truth(
    analysed: Callable[[str, str], tuple[Answer, dict[str, Any]]], scenario: str, question: str
) -> None:
    answer, truth = analysed(scenario, question)
    assert answer.status == "answered", answer.error
    query = answer.semantic_query
    assert query is not None
    metric_effects = [
        e
        for e in truth["effects"]
        if e["period"][0] <= query.time_range.end.isoformat() and e["period"][1] >= query.time_range.start.isoformat()
    ]
    if not truth["effects"]:
        assert not any(d.significant for d in answer.drivers), answer.drivers
        assert any(f.kind == "no_driver" for f in answer.findings)
    else:
        assert answer.drivers, answer.answer
        top = answer.drivers[0]
        fixed = {f.dimension: f.members[0] for f in query.filters if len(f.members) == 1}
        named = {**fixed, **top.members}
        matches = [e for e in metric_effects if e["where"] == named and e["expected_factor"] == top.factor]
        assert matches, (named, top.factor, [(e["where"], e["expected_factor"]) for e in metric_effects])
        assert top.q_value is not None and top.q_value <= 0.05
    faults = {
        (f["table"], f["date"]) for f in truth["data_faults"] if _in_periods(answer, date.fromisoformat(f["date"]))
    }
    flagged = {(f.table, f.date.isoformat()) for f in answer.quality_flags if f.issue == "incomplete" and f.date}
    assert flagged == faults
    for flag in answer.quality_flags:
        if flag.issue == "incomplete":
            assert flag.affects_period and flag.assumption
