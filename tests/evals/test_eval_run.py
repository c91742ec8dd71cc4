"""The shipped eval set, run through the real pipeline on the real demo: 100 % or fail."""

from __future__ import annotations

from baton.config import Settings
from baton.evals.runner import default_dataset, run_eval


def test_demo_eval_passes_every_case(demo_settings: Settings) -> None:
    report = run_eval(demo_settings, default_dataset())
    failures = [f"{c.id}: {c.reason}" for c in report.cases if not c.passed]
    assert len(report.cases) >= 60
    assert not failures, "\n".join(failures)
    assert report.pass_rate == 1.0
