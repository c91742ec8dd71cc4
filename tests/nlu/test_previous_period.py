"""One meaning of "the previous period" (环比) and "the same period last year" (同比).

The rule planner reads the kind of period from the words; a follow-up and a model's reading
know only the dates. ``timeexpr.comparison_range`` is the one function all three call, reading
the kind back from the dates (``range_grain``) when the words are not there. The table pins the
kinds; the second test checks that, for every period expression the rule planner reads, the
dates alone give the comparison the words gave.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu import timeexpr
from baton.nlu.parser import Planner

AS_OF = date(2026, 7, 15)
D = date

# start, end, as_of, kind read back from the dates, previous period
TABLE = [
    (D(2026, 6, 1), D(2026, 6, 30), None, "month", (D(2026, 5, 1), D(2026, 5, 31))),
    (D(2026, 4, 1), D(2026, 5, 31), None, "month", (D(2026, 2, 1), D(2026, 3, 31))),
    (D(2026, 4, 1), D(2026, 6, 30), None, "quarter", (D(2026, 1, 1), D(2026, 3, 31))),
    (D(2026, 1, 1), D(2026, 6, 30), None, "half", (D(2025, 7, 1), D(2025, 12, 31))),
    (D(2025, 1, 1), D(2025, 12, 31), None, "year", (D(2024, 1, 1), D(2024, 12, 31))),
    (D(2026, 7, 1), D(2026, 7, 14), AS_OF, "month", (D(2026, 6, 1), D(2026, 6, 14))),  # 本月 so far
    (D(2026, 7, 1), D(2026, 7, 14), None, "day", (D(2026, 6, 17), D(2026, 6, 30))),  # no as-of: 14 days
    (D(2026, 7, 6), D(2026, 7, 12), None, "week", (D(2026, 6, 29), D(2026, 7, 5))),
    (D(2026, 6, 29), D(2026, 7, 12), None, "week", (D(2026, 6, 15), D(2026, 6, 28))),
    (D(2026, 7, 8), D(2026, 7, 14), None, "day", (D(2026, 7, 1), D(2026, 7, 7))),  # 近7天
    (D(2026, 3, 1), D(2026, 3, 31), None, "month", (D(2026, 2, 1), D(2026, 2, 28))),
    (D(2026, 2, 1), D(2026, 2, 28), None, "month", (D(2026, 1, 1), D(2026, 1, 31))),
]


@pytest.mark.parametrize(("start", "end", "as_of", "grain", "previous"), TABLE)
def test_the_kind_of_a_range_and_its_previous_period(
    start: date, end: date, as_of: date | None, grain: str, previous: tuple[date, date]
) -> None:
    assert timeexpr.range_grain(start, end, as_of) == grain
    assert timeexpr.comparison_range("previous_period", start, end, as_of=as_of) == previous


def test_the_same_period_last_year_keeps_whole_months_whole() -> None:
    assert timeexpr.comparison_range("same_period_last_year", D(2028, 2, 1), D(2028, 2, 29)) == (
        D(2027, 2, 1),
        D(2027, 2, 28),
    )


RULES = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))


@pytest.mark.parametrize(
    "period", ["上个月", "本月", "上周", "本周", "去年", "上季度", "近7天", "5月", "最近30天", "昨天", "2026年上半年"]
)
def test_the_dates_alone_give_the_comparison_the_words_gave(period: str) -> None:
    query = RULES.plan(f"{period}GMV环比", as_of=AS_OF)
    assert query.comparison is not None
    rng = query.time_range
    said = (query.comparison.range.start, query.comparison.range.end)
    assert timeexpr.comparison_range("previous_period", rng.start, rng.end, as_of=AS_OF) == said, (rng, said)


def test_a_week_so_far_is_a_week() -> None:
    assert timeexpr.range_grain(D(2026, 7, 13), D(2026, 7, 14), AS_OF) == "week"


# "比上个月" is the previous-period cue and a period of its own; as of 2026-07-15 last month is June.
# question, the period asked about, the period it is set against (None: asked back)
NAMED_PREVIOUS = [
    ("上上个月的GMV比上个月多多少", (D(2026, 5, 1), D(2026, 5, 31)), (D(2026, 6, 1), D(2026, 6, 30))),
    ("上上周的GMV比上周多多少", (D(2026, 6, 29), D(2026, 7, 5)), (D(2026, 7, 6), D(2026, 7, 12))),
    ("上上个月的GMV与上个月相比多多少", (D(2026, 5, 1), D(2026, 5, 31)), (D(2026, 6, 1), D(2026, 6, 30))),
    ("上上季度GMV较上季度增长了多少", (D(2026, 1, 1), D(2026, 3, 31)), (D(2026, 4, 1), D(2026, 6, 30))),
    ("上个月比上上个月GMV少多少", (D(2026, 6, 1), D(2026, 6, 30)), (D(2026, 5, 1), D(2026, 5, 31))),
    ("6月GMV比上个月多多少", (D(2026, 6, 1), D(2026, 6, 30)), (D(2026, 5, 1), D(2026, 5, 31))),
    ("上周GMV比上周多多少", (D(2026, 7, 6), D(2026, 7, 12)), (D(2026, 6, 29), D(2026, 7, 5))),
    ("2025年5月GMV比上个月多多少", (D(2025, 5, 1), D(2025, 5, 31)), (D(2025, 4, 1), D(2025, 4, 30))),
    ("5月GMV比上个月多多少", (D(2026, 5, 1), D(2026, 5, 31)), None),  # April, or June as said
    ("5月GMV与上个月相比多多少", (D(2026, 5, 1), D(2026, 5, 31)), None),
]


@pytest.mark.parametrize(("question", "asked", "against"), NAMED_PREVIOUS)
def test_than_last_month_is_never_the_month_before_a_month_it_follows(
    question: str, asked: tuple[date, date], against: tuple[date, date] | None
) -> None:
    if against is None:
        with pytest.raises(AmbiguousQuestion) as caught:
            RULES.plan(question, as_of=AS_OF)
        assert caught.value.detail["suggestions"] == ["2026-04-01~2026-04-30", "2026-06-01~2026-06-30"]
        return
    query = RULES.plan(question, as_of=AS_OF)
    assert (query.time_range.start, query.time_range.end) == asked
    assert query.comparison is not None
    assert (query.comparison.range.start, query.comparison.range.end) == against


# question -> (asked start, end), (compared-with start, end) or None for asked back; as of 2026-07-01
NAMED_WITH_THE_WORD: list[tuple[str, tuple[date, date, date, date] | None]] = [
    ("6月GMV环比5月怎么样", (D(2026, 6, 1), D(2026, 6, 30), D(2026, 5, 1), D(2026, 5, 31))),
    ("6月的GMV同比去年6月", (D(2026, 6, 1), D(2026, 6, 30), D(2025, 6, 1), D(2025, 6, 30))),
    ("June GMV vs May MoM", (D(2026, 6, 1), D(2026, 6, 30), D(2026, 5, 1), D(2026, 5, 31))),
    ("上周GMV周环比", (D(2026, 6, 22), D(2026, 6, 28), D(2026, 6, 15), D(2026, 6, 21))),
    ("上周GMV和上上周环比", (D(2026, 6, 22), D(2026, 6, 28), D(2026, 6, 15), D(2026, 6, 21))),
    ("上个月GMV月环比", (D(2026, 6, 1), D(2026, 6, 30), D(2026, 5, 1), D(2026, 5, 31))),
    ("GMV last week WoW", (D(2026, 6, 22), D(2026, 6, 28), D(2026, 6, 15), D(2026, 6, 21))),
    ("GMV 6月环比", (D(2026, 6, 1), D(2026, 6, 30), D(2026, 5, 1), D(2026, 5, 31))),  # 月 is June's
    ("第二季度环比的GMV", (D(2026, 4, 1), D(2026, 6, 30), D(2026, 1, 1), D(2026, 3, 31))),
    # "the week before", "the previous weekend": one of what the period is
    ("last week GMV vs the week before", (D(2026, 6, 22), D(2026, 6, 28), D(2026, 6, 15), D(2026, 6, 21))),
    ("GMV last weekend vs the weekend before", (D(2026, 6, 27), D(2026, 6, 28), D(2026, 6, 20), D(2026, 6, 21))),
    (
        "last weekend GMV compared with the previous weekend",
        (D(2026, 6, 27), D(2026, 6, 28), D(2026, 6, 20), D(2026, 6, 21)),
    ),
    ("上周末GMV比前一个周末多多少", (D(2026, 6, 27), D(2026, 6, 28), D(2026, 6, 20), D(2026, 6, 21))),
    ("June GMV vs the week before", None),  # the week before is no month
    ("GMV last 2 weeks vs the week before", None),  # one week against two
    ("GMV last weekend vs the previous week", None),
    ("last month GMV compared with the previous weekend", None),
    ("6月GMV环比4月", None),  # 环比 is May: two different comparisons
    ("5月GMV环比6月", None),  # the period asked about comes first
    ("上个月GMV周环比", None),  # a week-over-week change of a month
    ("GMV last month WoW", None),
    # the same period a year earlier, its length said: it must be the period's own
    ("GMV in Q2 2026 vs the same 3 months last year", (D(2026, 4, 1), D(2026, 6, 30), D(2025, 4, 1), D(2025, 6, 30))),
    ("GMV in Q2 2026 vs the same months last year", (D(2026, 4, 1), D(2026, 6, 30), D(2025, 4, 1), D(2025, 6, 30))),
    ("GMV last 7 days vs the same 7 days last year", (D(2026, 6, 24), D(2026, 6, 30), D(2025, 6, 24), D(2025, 6, 30))),
    ("GMV last 7 days vs the same 14 days last year", None),
    ("GMV in Q2 2026 vs the same two months last year", None),
]


@pytest.mark.parametrize(("question", "expected"), NAMED_WITH_THE_WORD, ids=[q for q, _ in NAMED_WITH_THE_WORD])
def test_the_comparison_word_and_the_period_it_names(
    question: str, expected: tuple[date, date, date, date] | None
) -> None:
    planner = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
    if expected is None:
        with pytest.raises(AmbiguousQuestion):
            planner.plan(question, as_of=D(2026, 7, 1))
        return
    query = planner.plan(question, as_of=D(2026, 7, 1))
    assert query.comparison is not None
    compared = query.comparison.range
    assert (query.time_range.start, query.time_range.end, compared.start, compared.end) == expected
