"""A year said once for several periods: "2025年Q1和Q2", "Q1 and Q2 2025", "Q1 and Q2 GMV this
year" — the periods compared are the ones said, not the latest Q1 against the named Q2."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner
from baton.nlu.timeexpr import read_periods

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)

# question, (asked start, end), (compared-with start, end)
SHARED: list[tuple[str, tuple[str, str], tuple[str, str]]] = [
    ("2025年Q1和Q2的GMV对比", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    ("2025年5月和6月的GMV对比", ("2025-06-01", "2025-06-30"), ("2025-05-01", "2025-05-31")),
    ("去年5月和6月的GMV对比", ("2025-06-01", "2025-06-30"), ("2025-05-01", "2025-05-31")),
    ("去年Q1与Q2的订单量相比", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    ("Compare GMV in Q1 and Q2 2025", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    ("2025 Q2 vs Q1 GMV", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    ("Compare Q1 and Q2 GMV this year", ("2026-04-01", "2026-06-30"), ("2026-01-01", "2026-03-31")),
    ("Compare Q1 and Q2 GMV last year", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    ("去年的Q1和Q2的GMV对比", ("2025-04-01", "2025-06-30"), ("2025-01-01", "2025-03-31")),
    # "A和B比" sets the two against each other, as "vs" does: B in A's year
    ("2025年下半年和上半年比GMV", ("2025-07-01", "2025-12-31"), ("2025-01-01", "2025-06-30")),
    ("2025年Q4和Q3相比订单量", ("2025-10-01", "2025-12-31"), ("2025-07-01", "2025-09-30")),
    ("second half of last year GMV vs first half", ("2025-07-01", "2025-12-31"), ("2025-01-01", "2025-06-30")),
    (
        "GMV in the second half of 2025 compared with the first half",
        ("2025-07-01", "2025-12-31"),
        ("2025-01-01", "2025-06-30"),
    ),
    # a year written out after the second reaches back over "vs", as English reads it
    ("H1 vs H2 2025 GMV", ("2025-07-01", "2025-12-31"), ("2025-01-01", "2025-06-30")),
    ("GMV in March vs April 2025", ("2025-04-01", "2025-04-30"), ("2025-03-01", "2025-03-31")),
    ("Q1 versus Q3 2025 orders", ("2025-07-01", "2025-09-30"), ("2025-01-01", "2025-03-31")),
    # "X over Y" sets one against the other
    ("GMV Q2 over Q1", ("2026-04-01", "2026-06-30"), ("2026-01-01", "2026-03-31")),
    # "X vs Y" names two periods side by side: the later is asked about, against the earlier
    ("May 2025 vs June GMV", ("2025-06-01", "2025-06-30"), ("2025-05-01", "2025-05-31")),
    # a year said before the second period only marks that one: this June against last May
    ("6月和去年5月的GMV对比", ("2026-06-01", "2026-06-30"), ("2025-05-01", "2025-05-31")),
    # the same named period twice is two years of it
    ("GMV on June 18 compared with June 18 last year", ("2026-06-18", "2026-06-18"), ("2025-06-18", "2025-06-18")),
    # "compare … to May": May is the other side
    ("How did June GMV compare to May?", ("2026-06-01", "2026-06-30"), ("2026-05-01", "2026-05-31")),
    ("Compare June GMV with May", ("2026-06-01", "2026-06-30"), ("2026-05-01", "2026-05-31")),
    # a year said apart from one period is its year; "vs last year" is then the comparison
    ("Q2 GMV this year vs last year", ("2026-04-01", "2026-06-30"), ("2025-04-01", "2025-06-30")),
    # "May" opening a question and set against another month is the month
    ("May GMV compared to April", ("2026-05-01", "2026-05-31"), ("2026-04-01", "2026-04-30")),
    ("How does May GMV compare to April?", ("2026-05-01", "2026-05-31"), ("2026-04-01", "2026-04-30")),
    ("may orders vs june", ("2026-06-01", "2026-06-30"), ("2026-05-01", "2026-05-31")),
    ("Q1 2025 vs Q1 2026 GMV by region", ("2026-01-01", "2026-03-31"), ("2025-01-01", "2025-03-31")),
    ("5月对比6月GMV", ("2026-06-01", "2026-06-30"), ("2026-05-01", "2026-05-31")),
    # "相比" / "compared with" / "比" say which is asked about: the first, whichever is earlier
    ("5月GMV相比6月", ("2026-05-01", "2026-05-31"), ("2026-06-01", "2026-06-30")),
    ("May GMV compared with June", ("2026-05-01", "2026-05-31"), ("2026-06-01", "2026-06-30")),
]


@pytest.mark.parametrize(("question", "asked", "against"), SHARED, ids=[r[0] for r in SHARED])
def test_a_year_said_once_holds_where_it_is_said(
    question: str, asked: tuple[str, str], against: tuple[str, str]
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == asked
    assert query.comparison is not None
    compared = query.comparison.range
    assert (compared.start.isoformat(), compared.end.isoformat()) == against


ASKED_BACK = [
    "2025年的GMV和6月对比",  # a year joined to a month is a period of its own: lengths differ
    "Compare GMV from April to May",  # one range and "compare": compared with what?
    "June vs May last year GMV",  # last year's June, or this June against last year's May?
    "GMV this June vs May 2025",  # "this" gives June a year of its own: a year after "vs" is not shared
    "2025年12月和1月的GMV对比",  # January 2025, or the January right after?
    "Q1和Q2的GMV较去年增长多少",  # last year is the baseline, not the quarters' year
    "Q1 and Q2 GMV growth over last year",
    "Compare June GMV with this year",  # a month against a year: lengths differ
    "May I see GMV vs April?",  # "may I": compared with what?
    "May we compare GMV to April?",
    "GMV最近7天 vs 上周",  # the two periods share 24–28 June: a day can be in only one of them
    "last 7 days GMV compared with last week",
]


@pytest.mark.parametrize("question", ASKED_BACK)
def test_a_year_that_is_a_period_of_its_own_is_not_shared(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("June GMV last year", "2025-06-01", "2025-06-30"),
        ("Q4 orders last year", "2025-10-01", "2025-12-31"),
        ("first half GMV last year", "2025-01-01", "2025-06-30"),
    ],
)
def test_a_year_said_apart_from_one_period_is_its_year(question: str, start: str, end: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.time_range.start.isoformat(), query.time_range.end.isoformat()) == (start, end)
    assert query.comparison is None


def test_the_year_apart_is_accounted_for_by_the_periods_it_qualifies() -> None:
    text = "Compare Q1 and Q2 GMV this year"
    readings = read_periods(text, AS_OF)
    assert [r.match.text for r in readings if r.match] == ["Q1", "Q2"]
    year_at = text.index("this year")
    assert all(r.spans == (r.span, (year_at, len(text))) for r in readings)


def test_a_shared_year_that_names_no_date_is_an_error_of_that_period() -> None:
    readings = read_periods("2025年3月1日和2月29日", AS_OF)  # 2025 has no 29 February
    assert readings[0].match is not None and readings[1].error is not None


@pytest.mark.parametrize(
    ("text", "years"),
    [
        ("2025年4月、5月和6月的GMV", [2025, 2025, 2025]),  # a year said once reaches along a list
        ("Q1, Q2 and Q3 2025 GMV", [2025, 2025, 2025]),
        ("去年5月和6月", [2025, 2025]),
        ("6月和去年5月", [2026, 2025]),
    ],
)
def test_a_shared_year_reaches_every_period_of_a_list(text: str, years: list[int]) -> None:
    assert [r.match.start.year for r in read_periods(text, AS_OF) if r.match] == years


def test_a_long_run_of_letters_between_a_year_and_its_periods_is_read_in_one_pass() -> None:
    """The gap is matched word by word; a run of letters that fails it is not split every way."""
    text = "Compare Q1 and Q2 " + "x" * 1500 + "9 this year"
    readings = read_periods(text, AS_OF)
    assert [r.year_said for r in readings] == [None, None, None]  # the digit breaks the gap: no year shared
