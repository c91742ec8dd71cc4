"""The handoff benchmark's acceptance numbers, measured by running it (issue 3)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rich.console import Console

from baton.bench import render_table, run_handoff_bench
from baton.bench.chain import build_chain
from baton.bench.measure import conflicting_facts, number_present
from baton.bench.strategies import STRATEGIES, raw_message

STEPS = [6, 20, 50]
CLASSES = ("filters", "assumptions", "excluded_paths", "numbers")


@pytest.fixture(scope="module")
def result() -> dict[str, Any]:
    return run_handoff_bench(STEPS)


def test_json_shape_is_exactly_the_issues(result: dict[str, Any]) -> None:
    json.dumps(result)  # machine-readable as is
    assert set(result["strategies"]) == set(STRATEGIES) == {"full_history", "last_output", "window", "baton"}
    for by_steps in result["strategies"].values():
        assert list(by_steps) == ["6", "20", "50"]
        for row in by_steps.values():
            assert set(row["retention"]) == set(CLASSES)
            assert isinstance(row["numeric_drift"], int) and isinstance(row["canary_leaks"], int)
            assert isinstance(row["contradiction_survives"], bool) and isinstance(row["invariants_intact"], bool)
            assert row["tokens_total"] >= row["tokens_last_packet"] > 0


@pytest.mark.parametrize("steps", ["6", "20", "50"])
def test_baton_meets_acceptance(result: dict[str, Any], steps: str) -> None:
    baton = result["strategies"]["baton"][steps]
    assert baton["retention"] == dict.fromkeys(CLASSES, 1.0)
    assert baton["numeric_drift"] == 0
    assert baton["canary_leaks"] == 0
    assert baton["contradiction_survives"] is True
    assert baton["invariants_intact"] is True
    assert baton["pii_exposed_packets"] == 0


def test_baton_tokens_against_full_history(result: dict[str, Any]) -> None:
    s = result["strategies"]
    ratio = {n: s["baton"][n]["tokens_last_packet"] / s["full_history"][n]["tokens_last_packet"] for n in ("6", "50")}
    assert ratio["6"] <= 0.25
    assert ratio["50"] <= 0.05
    assert s["baton"]["6"]["tokens_total"] <= 0.25 * s["full_history"]["6"]["tokens_total"]


def test_baselines_lose_what_they_lose(result: dict[str, Any]) -> None:
    s = result["strategies"]
    for n in ("6", "20", "50"):
        full, last, window = s["full_history"][n], s["last_output"][n], s["window"][n]
        # full history keeps the items but is huge, drifts and leaks every canary onward
        assert min(full["retention"].values()) == 1.0 and full["contradiction_survives"]
        assert full["canary_leaks"] > 0 and full["numeric_drift"] > 0 and full["pii_exposed_packets"] > 0
        assert full["tokens_last_packet"] > 4 * s["baton"][n]["tokens_last_packet"]
        # last output and window forget earlier items, the frame, and the early fact
        for lossy in (last, window):
            assert max(lossy["retention"].values()) < 1.0 or n == "6"
            assert lossy["retention"]["filters"] < 1.0 and lossy["retention"]["numbers"] < 1.0
            assert not lossy["invariants_intact"] and not lossy["contradiction_survives"]
            assert lossy["canary_leaks"] > 0
        assert last["retention"]["numbers"] < window["retention"]["numbers"] < 1.0
    # the longer the chain, the more a window loses
    assert s["window"]["50"]["retention"]["numbers"] < s["window"]["6"]["retention"]["numbers"]


def test_table_renders_every_row(result: dict[str, Any]) -> None:
    console = Console(width=220, record=True)
    console.print(render_table(result))
    text = console.export_text()
    for name in STRATEGIES:
        assert text.count(name) == 3
    assert "100%" in text and "yes" in text and "no" in text


def test_chain_is_fixed_and_plants_what_the_issue_names() -> None:
    a, b = build_chain(20), build_chain(20)
    assert [s.report for s in a] == [s.report for s in b]
    assert [s.agent for s in a[:6]] == ["sql", "quality", "stats", "trend", "insight", "sql"]
    assert a[-1].agent == "report"
    messages = "\n".join(raw_message(s) for s in a)
    assert '"1284317"' in messages and '"0.0312"' in messages
    values = sorted(str(n.value) for n in conflicting_facts(a))
    assert values == ["1284317", "1291850"]
    # numbers are found by exact value and unit, not by digits alone
    n = conflicting_facts(a)[0]
    assert number_present(n, f"GMV = {n.rendered()}")
    assert not number_present(n, f"GMV = {n.value}0 {n.unit}") and not number_present(n, f"{n.value} CNY/day")
