"""A follow-up that names a year after a shorter period: the whole year, or the same period then."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.followup import read_follow_up
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
JULY = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("first", "follow"), [("GMV in February 2025", "same for 2025"), ("2025年2月的GMV", "2025年呢")]
)
def test_the_year_of_the_period_shown_is_the_whole_year(first: str, follow: str) -> None:
    """p59: "February 2013" then "same for 2013" offered "the same period that year" as 2012-02 —
    the same period of its own year is the one already shown, so the whole year is meant."""
    parent = PLANNER.plan(first, as_of=JULY)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY).query
    assert (query.time_range.start, query.time_range.end) == (date(2025, 1, 1), date(2025, 12, 31))


@pytest.mark.parametrize(
    ("first", "follow"), [("GMV in February 2026", "same for 2025"), ("上个月各渠道GMV", "去年呢")]
)
def test_an_earlier_year_after_a_shorter_period_is_asked_back(first: str, follow: str) -> None:
    parent = PLANNER.plan(first, as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, follow, parent, as_of=JULY)


def test_a_running_quarter_moved_into_the_years_named_is_the_whole_quarter() -> None:
    """p60: "bookings by month in 2020" then "只看第一季度" on 2021-01-05 read Q1 2020 as January 1–4 —
    the running quarter's days so far, moved back a year."""
    early = date(2026, 1, 5)
    parent = PLANNER.plan("2025年每月GMV", as_of=early)
    for follow in ("只看第一季度", "just Q1"):
        query = read_follow_up(PLANNER, follow, parent, as_of=early).query
        assert (query.time_range.start, query.time_range.end) == (date(2025, 1, 1), date(2025, 3, 31)), follow


def test_a_period_to_date_moved_into_the_years_named_stays_to_date() -> None:
    """Review s17: "just Q1 to date" after 2025 became the whole of Q1 2025, labelled "to date"."""
    early = date(2026, 1, 15)
    parent = PLANNER.plan("GMV by month in 2025", as_of=early)
    query = read_follow_up(PLANNER, "just Q1 to date", parent, as_of=early).query
    assert (query.time_range.start, query.time_range.end) == (date(2025, 1, 1), date(2025, 1, 14))
