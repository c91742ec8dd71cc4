"""`baton analyze` on the hard cases: mix shifts, small segments, effects with load faults,
offsetting drivers, low volume, a single day, a row filter — each asked in Chinese and English
and scored on every criterion of :mod:`baton.demo.hard_cases` (planted drivers found and
ranked, nothing unrelated, exactly the planted incomplete days, the right direction, honest
significance and wording, excluded paths consistent with drivers, terms adding up).
``python -m baton.demo.hard_cases`` prints the same scores as a table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from baton.demo.hard_cases import CASES, CRITERIA, CaseScore, ScenarioCase, run_case


@pytest.fixture(scope="module")
def analyse(tmp_path_factory: pytest.TempPathFactory) -> Callable[[ScenarioCase], list[CaseScore]]:
    folders: dict[tuple[str, float], Path] = {}
    workdir = tmp_path_factory.mktemp("hard_cases")
    return lambda case: list(run_case(case, folders, workdir))


def test_the_cases_cover_every_class_the_issue_names() -> None:
    names = " ".join(c.name for c in CASES)
    for needed in ("mix shift", "small segment", "load faults", "opposite sign", "noisy null", "offset", "inflates"):
        assert needed in names
    assert len({c.scenario for c in CASES} - {"null", "default"}) >= 12


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_case_passes_every_criterion(analyse: Callable[[ScenarioCase], list[CaseScore]], case: ScenarioCase) -> None:
    results = analyse(case)
    assert [r.language for r in results] == ["zh", "en"]
    for result in results:
        failed = [c for c in CRITERIA if result.checks.get(c) is False]
        assert not failed, f"{result.language} {result.question!r}: {failed} (top: {result.top})"
