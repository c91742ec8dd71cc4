"""A configured model through the real console script: `[llm]` in baton.toml pointing at the
scripted OpenAI-protocol server; the model's reading answered, its tokens in `runs trace`, a
`--max-tokens` below its need stopping the run with budget_exceeded before anything is sent."""

from __future__ import annotations

import json
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from baton.nlu.llm_planner import planner_messages
from tests.llm_server import Reply, ScriptedLLM
from tests.redteam.private_demo import baton, private_copy

QUESTION = "What were our gross sales through the mobile app last month?"
PLAN = {
    "status": "plan",
    "metrics": ["gmv"],
    "dimensions": [],
    "filters": [{"dimension": "channel", "members": ["app"], "exclude": False}],
    "period": {"words": "last month", "start": None, "end": None},
    "grain": None,
    "comparison": None,
    "top_n": None,
    "order": "desc",
    "share": False,
    "why": False,
    "unplaced": [],
    "question_back": None,
    "spans": [
        {"text": "gross sales", "became": "metric", "name": "gmv"},
        {"text": "mobile app", "became": "member", "name": "app"},
    ],
}


@pytest.fixture
def demo(demo_dir: Path, tmp_path: Path, scripted_llm_server: ScriptedLLM) -> Path:
    copy = private_copy(demo_dir, tmp_path / "demo")
    scripted_llm_server.script(Reply(data=PLAN, usage=(700, 60)))
    with (copy / "baton.toml").open("a", encoding="utf-8") as toml:
        toml.write(f'\n[llm]\nbase_url = "{scripted_llm_server.base_url}"\nmodel = "scripted"\ntimeout_s = 10\n')
    return copy


def test_the_model_reading_is_answered_and_its_tokens_are_traced(demo: Path) -> None:
    asked = baton(["ask", QUESTION, "--json", "--as-of", "2026-07-01"], demo)
    assert asked.returncode == 0, asked.stdout + asked.stderr
    answer = json.loads(asked.stdout)
    assert answer["semantic_query"]["filters"] == [{"dimension": "channel", "members": ["app"], "exclude": False}]
    assert any("scripted" in a for a in answer["assumptions"])
    trace = baton(["runs", "trace", answer["run_id"], "--json"], demo)
    assert trace.returncode == 0, trace.stderr
    calls = [e for e in json.loads(trace.stdout) if e["type"] == "tool_call" and e["payload"]["tool"] == "llm.plan"]
    assert [(c["payload"]["prompt_tokens"], c["payload"]["completion_tokens"]) for c in calls] == [(700, 60)]
    # the prompt is kept in the run store under the packet the trace names, never in the trace
    system = planner_messages(QUESTION, as_of=date(2026, 7, 1), catalog_slice_json="{}", parent=None, language="en")
    rules = system[0].content[:60]
    assert rules not in trace.stdout
    with sqlite3.connect(demo / "runs" / "runs.sqlite") as con:
        (body,) = con.execute(
            "SELECT body FROM packets WHERE run_id = ? AND ref = ?", (answer["run_id"], calls[0]["payload"]["packet"])
        ).fetchone()
    assert rules in body and QUESTION in body


def test_a_token_budget_below_the_models_need_stops_with_budget_exceeded(demo: Path) -> None:
    asked = baton(["ask", QUESTION, "--json", "--as-of", "2026-07-01", "--max-tokens", "200"], demo)
    assert asked.returncode == 1, asked.stdout
    answer = json.loads(asked.stdout)
    assert answer["status"] == "failed" and answer["error"]["code"] == "budget_exceeded"
