"""Pointers at the rows the previous answer listed: what they are read as, and when they cannot be."""

from __future__ import annotations

from datetime import date

import pytest

from baton.contracts.semantic import Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.nlu.follow_pointers import ListedRows, Pointed, listed_rows, placed_rows, pointed_rows, pointer_count

JUNE = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
BY_REGION = SemanticQuery(metrics=("gmv",), dimensions=("region",), time_range=JUNE, top_n=2, as_of=date(2026, 7, 1))
BY_DAY = SemanticQuery(metrics=("gmv",), grain="day", time_range=JUNE, top_n=1, as_of=date(2026, 7, 1))
TWO_REGIONS = ListedRows(("华东", "华南"), dimension="region")
ONE_DAY = ListedRows(("2026-06-18",), grain="day")


@pytest.mark.parametrize(
    ("said", "count"),
    [("这两个", 2), ("那三个", 3), ("这10个", 10), ("these two", 2), ("those 4", 4), ("这几个", None), ("它们", None)],
)
def test_the_count_a_pointer_says(said: str, count: int | None) -> None:
    assert pointer_count(said) == count


def test_the_rows_an_answer_listed_are_its_one_keys_values() -> None:
    listed = listed_rows(BY_REGION, ["region", "gmv"], [["华东", 2.0], ["华南", 1.0]])
    assert listed == ListedRows(("华东", "华南"), dimension="region", values=(2.0, 1.0))
    assert listed_rows(BY_DAY, ["period", "gmv"], [["2026-06-18", 3.0]]) == ListedRows(
        ("2026-06-18",), grain="day", values=(3.0,)
    )
    two_keys = BY_REGION.model_copy(update={"dimensions": ("region", "channel")})
    assert listed_rows(two_keys, ["region", "channel", "gmv"], [["华东", "app", 1.0]]) is None
    assert listed_rows(BY_REGION, ["region", "gmv"], [[f"r{i}", 1.0] for i in range(11)]) is None  # too many to name


@pytest.mark.parametrize("said", ["这两个", "它们", "these two", "their", "这些"])
def test_a_pointer_that_fits_the_rows_is_a_filter_on_them(said: str) -> None:
    pointed = pointed_rows(said, TWO_REGIONS, BY_REGION)
    assert pointed.filter == MemberFilter(dimension="region", members=("华东", "华南"))
    assert pointed.period is None


@pytest.mark.parametrize("said", ["that one", "this one", "它", "那个"])
def test_a_singular_pointer_at_one_row_is_that_member(said: str) -> None:
    pointed = pointed_rows(said, ListedRows(("华东",), dimension="region"), BY_REGION)
    assert pointed.filter == MemberFilter(dimension="region", members=("华东",))


def test_a_pointer_at_one_period_is_that_period_inside_the_question() -> None:
    pointed = pointed_rows("那天", ONE_DAY, BY_DAY)
    assert pointed.period is not None and (pointed.period.start, pointed.period.end) == (date(2026, 6, 18),) * 2
    week = BY_DAY.model_copy(update={"grain": "week"})
    cut = pointed_rows("that week", ListedRows(("2026-06-29",), grain="week"), week)
    assert cut.period is not None and (cut.period.start, cut.period.end) == (date(2026, 6, 29), date(2026, 6, 30))


@pytest.mark.parametrize(
    ("said", "keys", "grain", "span"),
    [
        ("这两个月", ("2026-05-01", "2026-04-01"), "month", (date(2026, 4, 1), date(2026, 5, 31))),
        ("那几天", ("2026-06-18", "2026-06-17", "2026-06-19"), "day", (date(2026, 6, 17), date(2026, 6, 19))),
        (
            "those weeks",
            ("2026-06-22", "2026-06-29"),
            "week",
            (date(2026, 6, 22), date(2026, 6, 30)),
        ),  # cut at June's end
        ("these two months", ("2026-06-01", "2026-05-01"), "month", (date(2026, 5, 1), date(2026, 6, 30))),
        ("这两个星期", ("2026-06-15", "2026-06-22"), "week", (date(2026, 6, 15), date(2026, 6, 28))),
    ],
)
def test_a_pointer_at_periods_that_follow_one_another_is_their_span_by_their_grain(
    said: str, keys: tuple[str, ...], grain: Grain, span: tuple[date, date]
) -> None:
    year = BY_DAY.model_copy(update={"grain": grain, "time_range": TimeRange(start=date(2026, 1, 1), end=JUNE.end)})
    pointed = pointed_rows(said, ListedRows(keys, grain=grain), year)
    assert pointed.period is not None and (pointed.period.start, pointed.period.end) == span
    assert pointed.grain == grain and pointed.filter is None


@pytest.mark.parametrize(
    ("said", "listed"),
    [
        ("这三个", TWO_REGIONS),  # two were listed
        ("它", TWO_REGIONS),  # which one?
        ("那个", TWO_REGIONS),
        ("that one", TWO_REGIONS),
        ("那天", TWO_REGIONS),  # regions were listed, not days
        ("那周", ONE_DAY),  # a day was listed, not a week
        ("那天", ListedRows(("2026-06-18", "2026-06-17"), grain="day")),
        ("这两个", None),  # nothing listed to point at
        ("这两个月", ListedRows(("2026-05-01",), grain="month")),  # one month listed
        ("这三个月", ListedRows(("2026-05-01", "2026-04-01"), grain="month")),
        ("those weeks", ListedRows(("2026-05-01", "2026-04-01"), grain="month")),
        ("these two weeks", ListedRows(("2026-06-15", "2026-04-27"), grain="week")),  # apart: the weeks between?
        ("这两个星期", ListedRows(("2026-06-18", "2026-06-17"), grain="day")),  # days were listed, not weeks
    ],
)
def test_a_pointer_that_does_not_fit_is_asked_back(said: str, listed: ListedRows | None) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        pointed_rows(said, listed, BY_REGION)
    assert said in caught.value.message("zh") and said in caught.value.message("en")


RANKED = ListedRows(("app", "web", "mini_program", "live_stream"), dimension="channel", values=(25.0, 7.9, 7.4, 4.8))


@pytest.mark.parametrize(
    ("place", "count", "order", "members"),
    [
        (3, 1, "desc", ("mini_program",)),  # the third highest, whatever order the table lists them in
        (None, 1, "asc", ("live_stream",)),  # "the bottom one"
        (None, 2, "desc", ("app", "web")),  # "前两名"
        (2, 1, "asc", ("mini_program",)),
    ],
)
def test_a_place_names_the_rows_by_the_values_listed(
    place: int | None, count: int, order: str, members: tuple[str, ...]
) -> None:
    pointed = pointed_place("第N名", RANKED, place=place, count=count, order=order)
    assert pointed.filter == MemberFilter(dimension="channel", members=members)


@pytest.mark.parametrize(
    ("listed", "place"),
    [
        (RANKED, 5),  # four were listed
        (ListedRows(("a", "b", "c"), dimension="channel", values=(3.0, 2.0, 2.0)), 2),  # tied with the third
        (ListedRows(("a", "b"), dimension="channel"), 1),  # no values: ranked by a change
    ],
)
def test_a_place_that_names_no_one_row_is_asked_back(listed: ListedRows, place: int) -> None:
    with pytest.raises(AmbiguousQuestion):
        pointed_place("第N名", listed, place=place, count=1, order="desc")


def pointed_place(said: str, listed: ListedRows, *, place: int | None, count: int, order: str) -> Pointed:
    return placed_rows(said, listed, BY_REGION, place=place, count=count, order=order)


def test_the_rows_a_which_moved_answer_listed_are_the_ones_that_moved() -> None:
    """ "哪几个月环比下降了": the answer's table holds every month, its sentence names those that fell."""
    from baton.contracts.semantic import Comparison

    half = TimeRange(start=date(2026, 1, 1), end=JUNE.end)
    months = SemanticQuery(
        metrics=("order_count",),
        grain="month",
        time_range=half,
        comparison=Comparison(kind="previous_period", range=TimeRange(start=date(2025, 12, 1), end=date(2026, 5, 31))),
        premise="down",
        premise_asked="which",
        as_of=date(2026, 7, 1),
    )
    rows = [["2026-01-01", 10.0, -1.0], ["2026-02-01", 8.0, -2.0], ["2026-03-01", 11.0, 3.0]]
    listed = listed_rows(months, ["period", "order_count", "order_count_change"], rows)
    assert listed is not None and listed.keys == ("2026-01-01", "2026-02-01") and listed.grain == "month"
