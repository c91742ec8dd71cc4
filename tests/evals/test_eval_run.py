"""The shipped eval set, run through the real pipeline on the real demo: 100 % or fail."""

from __future__ import annotations

from baton.config import Settings
from baton.evals.runner import default_dataset, run_eval
from baton.trace.writer import read_trace


def test_demo_eval_passes_every_case(demo_settings: Settings) -> None:
    report = run_eval(demo_settings, default_dataset())
    failures = [f"{c.id}: {c.reason}" for c in report.cases if not c.passed]
    assert len(report.cases) >= 60
    assert not failures, "\n".join(failures)
    assert report.pass_rate == 1.0

    # every tool call of every eval run is preceded by the policy decision that allowed it
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
