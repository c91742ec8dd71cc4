"""The last two answers set side by side: two periods or two members of one filter, and never
anything else."""

from __future__ import annotations

from datetime import date

import pytest

from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.nlu.side_by_side import member_changed, side_by_side

JULY = date(2026, 7, 1)
JUNE = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
MAY = TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31))
EAST = MemberFilter(dimension="region", members=("华东",))
SOUTH = MemberFilter(dimension="region", members=("华南",))
APP = MemberFilter(dimension="channel", members=("app",))


def _gmv(**kw: object) -> SemanticQuery:
    return SemanticQuery.model_validate({"metrics": ("gmv",), "time_range": JUNE, "as_of": JULY} | kw)


@pytest.mark.parametrize(
    "said",
    [
        "两者对比一下",
        "对比一下",
        "这两个比一下",
        "compare the two",
        "how do they compare?",
        "which is bigger?",
        "哪个高",
    ],
)
def test_two_periods_become_the_later_against_the_earlier(said: str) -> None:
    may = _gmv(time_range=MAY)
    got = side_by_side(said, may, JUNE, None)
    assert got is not None and got.intent == "comparison"
    assert (got.time_range, got.comparison and got.comparison.range) == (JUNE, MAY)


def test_the_gap_of_two_members_shown_is_their_difference() -> None:
    two = MemberFilter(dimension="region", members=("华南", "华北"))
    shown = _gmv(dimensions=("region",), filters=(two,))
    got = side_by_side("差多少", shown, None, None)
    assert got is not None and got.difference and got.filters == (two,) and got.dimensions == ("region",)
    assert side_by_side("差多少", shown, MAY, None) is None  # the members' gap, or the two periods'?
    assert side_by_side("两者对比一下", shown, None, None) is None  # the two are shown already


def test_two_periods_of_a_breakdown_compare_each_group() -> None:
    got = side_by_side("compare the two", _gmv(dimensions=("region",), time_range=MAY), JUNE, None)
    assert got is not None and got.dimensions == ("region",) and got.intent == "comparison"
    assert (got.time_range, got.comparison and got.comparison.range) == (JUNE, MAY)


@pytest.mark.parametrize(
    ("said", "gap"),
    [
        ("两者对比一下", False),
        ("差多少", True),
        ("what's the difference?", True),
        ("哪个更高", False),
        ("which one was higher", False),
    ],
)
def test_two_members_become_one_row_each(said: str, gap: bool) -> None:
    south = _gmv(filters=(APP, SOUTH))
    got = side_by_side(said, south, None, EAST)
    assert got is not None and got.dimensions == ("region",) and got.difference is gap
    assert set(got.filters) == {APP, MemberFilter(dimension="region", members=("华东", "华南"))}


@pytest.mark.parametrize(
    ("said", "parent", "earlier", "earlier_filter"),
    [
        ("两者对比一下", _gmv(), None, None),  # nothing before to set beside it
        ("和华东比呢", _gmv(filters=(SOUTH,)), None, EAST),  # not only the two compared
        ("两者对比一下", _gmv(grain="week"), MAY, None),  # a series: each period against which?
        ("哪个更高", _gmv(dimensions=("region",), time_range=MAY), JUNE, None),  # which period, or which group?
        ("差多少", _gmv(dimensions=("channel",), filters=(SOUTH,)), None, EAST),  # two members of a breakdown
        ("差多少", _gmv(filters=(MemberFilter(dimension="region", members=("华南", "华北")),)), None, EAST),
    ],
)  # fmt: skip
def test_anything_else_is_not_read_here(
    said: str, parent: SemanticQuery, earlier: TimeRange | None, earlier_filter: MemberFilter | None
) -> None:
    assert side_by_side(said, parent, earlier, earlier_filter) is None


def test_a_member_changed_is_only_one_member_of_one_filter_replaced() -> None:
    assert member_changed(_gmv(filters=(EAST,)), _gmv(filters=(SOUTH,))) == EAST
    assert member_changed(_gmv(filters=(EAST, APP)), _gmv(filters=(SOUTH, APP))) == EAST
    assert member_changed(_gmv(filters=(EAST,)), _gmv(filters=(APP,))) is None  # another dimension
    assert member_changed(_gmv(filters=(EAST,)), _gmv(filters=(SOUTH,), time_range=MAY)) is None  # the period too
    both = MemberFilter(dimension="region", members=("华东", "华南"))
    assert member_changed(_gmv(filters=(both,)), _gmv(filters=(SOUTH,))) is None


@pytest.mark.parametrize(
    ("earlier", "reason"),
    [
        (TimeRange(start=date(2026, 1, 1), end=date(2026, 6, 30), text="上半年"), None),  # a month against a half year
        (TimeRange(start=date(2026, 6, 22), end=date(2026, 6, 28), text="上周"), "periods_overlap"),
    ],
)
def test_two_periods_of_other_lengths_or_sharing_days_are_asked_back(earlier: TimeRange, reason: str | None) -> None:
    """ "6月GMV", "上半年呢", "两者对比一下": never June against a half year that holds June."""
    last_days = _gmv(time_range=TimeRange(start=date(2026, 6, 24), end=date(2026, 6, 30), text="最近7天"))
    parent = _gmv() if reason is None else last_days
    with pytest.raises(AmbiguousQuestion) as asked:
        side_by_side("两者对比一下", parent, earlier, None)
    assert asked.value.detail.get("reason") == reason
