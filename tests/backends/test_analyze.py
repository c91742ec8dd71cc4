"""`baton analyze` on every engine: the same drivers, factors and headline numbers as on DuckDB
for the June GMV drop and the second-quarter refund rise (bench/analyze_memory.py's questions)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)
EXPECTED = {
    "为什么2026年6月的GMV下降了？": ({"channel": "app", "user_type": "new"}, "conversion_rate"),
    "为什么二季度退款率上升了？": ({"category": "家用电器"}, "refund_rate"),
}
_DUCKDB: dict[str, Answer] = {}


def _analyze(folder: Path, question: str) -> Answer:
    with Session(load_settings(folder / "baton.toml")) as session:
        return session.analyze(question, as_of=AS_OF)


def _headline(answer: Answer) -> dict[str, float]:
    """The numbers the report leads with: each test's estimate, the top drivers' changes."""
    numbers = {f"test:{t.agent}:{t.effect_size_kind}": float(t.estimate) for t in answer.tests}
    numbers |= {f"driver:{i}": float(d.change) for i, d in enumerate(answer.drivers[:3])}
    return numbers


@pytest.mark.spark_full  # the scale-1 demo in Spark: minutes to load, ~40 s and ~60 s per analysis
@pytest.mark.parametrize("question", ["为什么2026年6月的GMV下降了？", "为什么二季度退款率上升了？"])
def test_analysis_names_the_same_driver_as_on_duckdb(backend: Path, demo_dir: Path, question: str) -> None:
    if question not in _DUCKDB:
        _DUCKDB[question] = _analyze(demo_dir, question)
    reference = _DUCKDB[question]
    answer = reference if backend == demo_dir else _analyze(backend, question)
    assert answer.status == "answered", answer.error
    members, factor = EXPECTED[question]
    assert (answer.drivers[0].members, answer.drivers[0].factor) == (members, factor)
    assert [(d.members, d.factor, d.stance) for d in answer.drivers] == [
        (d.members, d.factor, d.stance) for d in reference.drivers
    ]
    got, want = _headline(answer), _headline(reference)
    assert got.keys() == want.keys()
    assert got == pytest.approx(want, rel=1e-6)
    assert [(f.table, f.date, f.issue) for f in answer.quality_flags] == [
        (f.table, f.date, f.issue) for f in reference.quality_flags
    ]
