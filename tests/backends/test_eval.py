"""The eval on every engine: the dev split must be entirely right on DuckDB, PostgreSQL and
Spark. Spark runs a deterministic stratified sample by default (`make test` stays small) and
the whole split with ``--spark-full`` (`make test-spark`, which CI runs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from baton.config import load_settings
from baton.evals.runner import EvalCase, default_datasets, grade, load_cases
from baton.orchestrator.session import Session

SPARK_SAMPLE = 60
SHARDS = 4
"""The split is graded in this many tests, so `make test-spark` (two workers) can share them."""


def dev_cases() -> list[EvalCase]:
    return [case for path in default_datasets() for case in load_cases(path) if case.split == "dev"]


def stratified_sample(cases: list[EvalCase], size: int = SPARK_SAMPLE) -> list[EvalCase]:
    """Every k-th case, plus the first case of each phrasing class and expected status the
    stride missed, in the file's order: the same cases on every run."""
    step = max(1, len(cases) // size)
    chosen = set(range(0, len(cases), step))
    for field in ("phrasing", "expect_status"):
        present = {getattr(cases[i], field) for i in chosen}
        for index, case in enumerate(cases):
            if getattr(case, field) not in present:
                chosen.add(index)
                present.add(getattr(case, field))
    return [cases[i] for i in sorted(chosen)]


def test_sample_is_stratified() -> None:
    cases = dev_cases()
    sample = stratified_sample(cases)
    assert SPARK_SAMPLE <= len(sample) <= SPARK_SAMPLE + 15
    assert {c.phrasing for c in sample} == {c.phrasing for c in cases}
    assert {c.expect_status for c in sample} == {c.expect_status for c in cases}
    assert sample == stratified_sample(cases)


@pytest.mark.parametrize("shard", range(SHARDS))
def test_dev_split_is_entirely_right(backend: Path, spark_full: bool, shard: int) -> None:
    """Every case graded as ``baton eval`` grades it (every SHARDS-th case from ``shard`` on); a
    case whose grading raises (its gold SQL fails on this engine) is listed with the others
    rather than hiding the rest of the split."""
    settings = load_settings(backend / "baton.toml")
    if settings.engine == "duckdb":
        pytest.skip("DuckDB's dev and held-out splits run in tests/evals/test_eval_run.py")
    cases = dev_cases()
    if settings.engine == "spark" and not spark_full:
        cases = stratified_sample(cases)
    cases = cases[shard::SHARDS]
    failures: list[str] = []
    with Session(settings, remember=False) as session:
        for case in cases:
            try:
                result = grade(session, case)
            except Exception as exc:  # reported below, with the case
                failures.append(f"{case.id} [{case.phrasing}]: grading raised {type(exc).__name__}: {str(exc)[:400]}")
                continue
            if not result.passed:
                failures.append(f"{case.id} [{case.phrasing}]: {result.outcome} {result.reason}")
    assert not failures, f"{settings.engine}: {len(failures)} of {len(cases)} not right\n" + "\n".join(failures)
