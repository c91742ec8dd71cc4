"""How a follow-up ties itself to the question before it: words that add a metric, and a pointer
that restates the members said right before it."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import MemberFilter, SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.nlu.follow_pointers import ListedRows
from baton.nlu.followup import read_follow_up
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
JULY = date(2026, 7, 1)
FOUR_CHANNELS = ListedRows(("app", "web", "mini_program", "live_stream"), dimension="channel")


@pytest.mark.parametrize(
    ("follow", "metrics"),
    [
        ("add orders", ("gmv", "order_count")),
        ("include the refund rate", ("gmv", "refund_rate")),
        ("ok, add average order value too", ("gmv", "aov")),
        ("加上订单量", ("gmv", "order_count")),
    ],
)
def test_a_follow_up_opening_by_adding_a_metric_sets_it_beside(follow: str, metrics: tuple[str, ...]) -> None:
    parent = PLANNER.plan("GMV by channel last month", as_of=JULY)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY).query
    assert query.metrics == metrics
    assert query.dimensions == ("channel",)


@pytest.mark.parametrize("follow", ["add South China", "include web"])
def test_a_member_added_is_asked_back_never_summed_or_set_beside_by_guess(follow: str) -> None:
    parent = PLANNER.plan("GMV in East China by channel last month", as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, follow, parent, as_of=JULY)


@pytest.mark.parametrize(
    ("follow", "members"),
    [
        ("小程序和直播这两个", ("mini_program", "live_stream")),
        ("app and web, these two", ("app", "web")),
        ("APP、网页、直播这三个呢", ("app", "web", "live_stream")),
        ("小程序和直播这两个，只看华东", ("mini_program", "live_stream")),  # a member after the pointer
    ],
)
def test_a_pointer_right_after_as_many_members_restates_them(follow: str, members: tuple[str, ...]) -> None:
    parent = PLANNER.plan("上个月各渠道的GMV", as_of=JULY)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY, listed=FOUR_CHANNELS).query
    assert [(f.dimension, f.members) for f in query.filters if f.dimension == "channel"] == [("channel", members)]


@pytest.mark.parametrize("follow", ["app and web, these three", "小程序和直播这三个", "这两个和直播"])
def test_a_pointer_that_counts_other_than_the_members_beside_it_is_asked_back(follow: str) -> None:
    parent = PLANNER.plan("上个月各渠道的GMV", as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, follow, parent, as_of=JULY, listed=FOUR_CHANNELS)


VALUED = ListedRows(("app", "web", "mini_program", "live_stream"), dimension="channel", values=(25.4, 7.9, 7.4, 4.8))


@pytest.mark.parametrize(
    ("first", "follow", "members"),
    [
        ("上个月各渠道的GMV", "去掉最高的那个", ("app",)),
        ("GMV by channel last month", "without the top one", ("app",)),
        ("GMV by channel last month", "excluding the bottom one", ("live_stream",)),
    ],
)
def test_the_row_a_place_names_is_taken_away_from_a_breakdown(
    first: str, follow: str, members: tuple[str, ...]
) -> None:
    parent = PLANNER.plan(first, as_of=JULY)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY, listed=VALUED).query
    assert [(f.dimension, f.members, f.exclude) for f in query.filters] == [("channel", members, True)]
    assert query.dimensions == ("channel",)
    assert query.top_n is None


def test_the_row_taken_away_leaves_the_members_a_filter_kept() -> None:
    parent = PLANNER.plan("上个月APP、网页和直播的GMV分别是多少", as_of=JULY)
    three = ListedRows(("app", "web", "live_stream"), dimension="channel", values=(25.4, 7.9, 4.8))
    query = read_follow_up(PLANNER, "去掉最低的那个", parent, as_of=JULY, listed=three).query
    assert [(f.dimension, f.members, f.exclude) for f in query.filters] == [("channel", ("app", "web"), False)]


@pytest.mark.parametrize(
    ("first", "follow"),
    [
        ("上个月GMV最高的3个渠道", "去掉最高的那个"),  # the other two, or the top 3 of the rest?
        ("上个月各渠道GMV占比", "去掉最高的那个"),  # shares of which whole?
        ("上个月各渠道GMV环比", "without the top one"),
        ("上个月的GMV", "去掉最高的那个"),  # no rows listed
    ],
)
def test_a_row_taken_away_where_the_rest_is_unclear_is_asked_back(first: str, follow: str) -> None:
    parent = PLANNER.plan(first, as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, follow, parent, as_of=JULY, listed=VALUED)


def _two_turns(first: str, second: str) -> tuple[SemanticQuery, MemberFilter]:
    before = PLANNER.plan(first, as_of=JULY)
    (earlier,) = before.filters
    return read_follow_up(PLANNER, second, before, as_of=JULY).query, earlier


@pytest.mark.parametrize(
    ("turns", "follow", "dimension", "members"),
    [
        (("6月华东gmv", "华南呢"), "这两个分别占全国多少", "region", ("华东", "华南")),
        (("6月新客gmv", "老客呢"), "这两个分别占多少", "user_type", ("new", "returning")),
        (
            ("GMV in East China in June", "and South China?"),
            "what share of GMV did these two have",
            "region",
            ("华东", "华南"),
        ),
    ],
)
def test_a_pointer_after_two_members_asked_in_turn_is_both_shares(
    turns: tuple[str, str], follow: str, dimension: str, members: tuple[str, ...]
) -> None:
    """p58: "6月华东gmv", "华南呢", "这两个分别占全国多少" was answered with 华南's share alone."""
    parent, earlier = _two_turns(*turns)
    query = read_follow_up(PLANNER, follow, parent, as_of=JULY, earlier_filter=earlier).query
    assert query.share and query.dimensions == (dimension,)
    assert [(f.dimension, f.members) for f in query.share_filters] == [(dimension, members)]
    assert not [f for f in query.filters if f.dimension == dimension]


def test_a_pointer_after_two_members_asked_in_turn_shows_each() -> None:
    parent, earlier = _two_turns("6月新客gmv", "老客呢")
    query = read_follow_up(PLANNER, "这两个的订单量", parent, as_of=JULY, earlier_filter=earlier).query
    assert query.metrics == ("order_count",) and query.dimensions == ("user_type",)
    assert [(f.dimension, f.members) for f in query.filters] == [("user_type", ("new", "returning"))]
    it = read_follow_up(PLANNER, "它的订单量呢", parent, as_of=JULY, earlier_filter=earlier).query
    assert [(f.dimension, f.members) for f in it.filters] == [("user_type", ("returning",))]  # the one said last


def test_a_count_pointer_over_one_figure_is_asked_back_never_dropped() -> None:
    parent = PLANNER.plan("6月华南gmv", as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, "这两个分别占多少", parent, as_of=JULY)
    both = PLANNER.plan("6月GMV和订单量", as_of=JULY)  # two metrics: "这两个" are they
    assert read_follow_up(PLANNER, "这两个的环比呢", both, as_of=JULY).query.comparison is not None


def test_a_metric_added_with_a_member_is_asked_back() -> None:
    """Review s16: "add orders from web" replaced GMV by channel with web's orders."""
    parent = PLANNER.plan("GMV by channel last month", as_of=JULY)
    with pytest.raises(AmbiguousQuestion):
        read_follow_up(PLANNER, "add orders from web", parent, as_of=JULY)


def test_a_row_taken_away_after_several_metrics_is_asked_by_which() -> None:
    """Review s16: "去掉最高的那个" after GMV and orders by category took GMV's highest unsaid."""
    parent = PLANNER.plan("上个月各品类的GMV和订单量", as_of=JULY)
    listed = ListedRows(("手机数码", "服饰鞋包"), dimension="category", values=(21.8, 9.0))
    with pytest.raises(AmbiguousQuestion) as caught:
        read_follow_up(PLANNER, "去掉最高的那个", parent, as_of=JULY, listed=listed)
    assert "多个指标" in caught.value.message_zh
