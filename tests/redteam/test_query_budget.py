"""Issue 14, finding 7 (what one statement cannot see): differencing *across* statements on an
aggregate-only table is bounded by a per-user daily budget of statements, counted from the run
store over every run and process, refused before the statement runs."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

from baton.config import load_settings
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)


def test_aggregate_only_statements_beyond_the_daily_budget_are_refused(duck_copy: Path) -> None:
    folder = duck_copy
    policy = folder / "policies.yaml"
    text = policy.read_text(encoding="utf-8")
    assert "max_queries_per_day: 500" in text
    # each answer is two statements: its own, and the day counts that check its month for gaps
    policy.write_text(text.replace("max_queries_per_day: 500", "max_queries_per_day: 4"), encoding="utf-8")

    with Session(load_settings(folder / "baton.toml")) as session:
        first = session.ask("上个月各渠道的订单量", as_of=AS_OF, user="marketing")
        second = session.ask("上个月各区域的GMV", as_of=AS_OF, user="marketing")
        traffic = session.ask("上个月的访客数", as_of=AS_OF, user="marketing")  # not aggregate-only: no budget
        assert [a.status for a in (first, second, traffic)] == ["answered"] * 3
    with Session(load_settings(folder / "baton.toml")) as later:  # another process, the same store
        third = later.ask("上个月各品类的GMV", as_of=AS_OF, user="marketing")
        analyst = later.ask("上个月各品类的GMV", as_of=AS_OF, user="analyst")
        trace = [json.loads(x) for x in (later.runs_dir / third.run_id / "trace.jsonl").read_text().splitlines()]
    assert third.status == "refused" and third.error is not None
    assert third.error.code == "query_budget_exceeded" and third.result is None
    assert analyst.status == "answered"  # the budget is marketing's, on its aggregate-only table
    denied = [e for e in trace if e["payload"].get("gate") == "query_budget"]
    assert denied and denied[0]["payload"]["decision"] == "deny"
    assert not [e for e in trace if e["type"] == "tool_call" and e["payload"].get("tool") == "warehouse.query"]
