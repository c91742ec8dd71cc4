"""A calendar event in only one of two compared periods is said, with its days; an event in both
(this year's against last year's) or in neither is not."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

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


def test_a_moving_event_in_both_periods_on_unlike_days_is_said_with_both(tmp_path: Path) -> None:
    """February against last February: both hold Spring Festival days, eight with the peak in one
    and four without it in the other — unlike, and said; June against last June (618 on the same
    eighteen days, the peak in both) says nothing."""
    data = yaml.safe_load((Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml").read_text(encoding="utf-8"))
    data["calendar"].append(
        {"name": {"zh": "春节", "en": "Spring Festival"},
         "dates": {2025: {"start": "2025-01-28", "end": "2025-02-04", "peak": "2025-01-29"},
                   2026: {"start": "2026-02-16", "end": "2026-02-23", "peak": "2026-02-17"}}}
    )  # fmt: skip
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    catalog = load_catalog(path)
    planner = Planner(catalog)
    (note,) = events_in_one_period(catalog, planner.plan("2026年2月GMV同比", as_of=JULY), "zh")
    assert (
        "2026-02-16 至 2026-02-23，共 8 天，高峰日 2026-02-17" in note and "2025-02-01 至 2025-02-04，共 4 天" in note
    )
    assert events_in_one_period(catalog, planner.plan("GMV in June 2026 vs June 2025", as_of=JULY), "en") == []
