"""A calendar event in only one of two compared periods is said, with its days; an event in both
(this year's against last year's) or in neither is not."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.agents.calendar_notes import events_in_one_period
from baton.catalog.loader import load_catalog
from baton.nlu.parser import Planner

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
PLANNER = Planner(CATALOG)
JULY = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("6月和5月的GMV对比", ["本期（2026-06-01 至 2026-06-30）含618 大促的日子（2026-06-01 至 2026-06-18，高峰日 2026-06-18）"]),
        ("GMV in July 2025 vs the month before", ["The comparison period (2025-06-01 to 2025-06-30) holds days of 618 (2025-06-01 to 2025-06-18; its peak 2025-06-18)"]),
        ("GMV in 2025 Q4 compared with Q3", ["The current period (2025-10-01 to 2025-12-31) holds days of Double 11 (2025-11-01 to 2025-11-11; its peak 2025-11-11)"]),
        ("6月前10天的GMV环比", ["本期（2026-06-01 至 2026-06-10）含618 大促的日子（2026-06-01 至 2026-06-10）"]),
        ("今年618期间GMV同比", []),  # the event in both periods: like for like
        ("4月GMV环比", []),  # in neither
        ("上个月GMV", []),  # no comparison
    ],
)  # fmt: skip
def test_an_event_in_one_period_only_is_said_with_its_days(question: str, said: list[str]) -> None:
    notes = events_in_one_period(CATALOG, PLANNER.plan(question, as_of=JULY), "en" if question.isascii() else "zh")
    assert len(notes) == len(said)
    for note, start in zip(notes, said, strict=True):
        assert note.startswith(start), note
