"""What a second clause or a closing word asks, read from how analysts write in chat: a share asked
after a breakdown, the share inside each group, an event's span said after it, which of two
periods is higher, a period said after a yes/no, this year against "去年", "不如" / "没有…高" /
"worse than", and the chat words that carry nothing ("quick one", "啥", "它们")."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)
D = date.fromisoformat

EACH_THEN_A_SHARE = [  # every group with its share, the member named after them no filter
    "orders by channel on Nov 11 2025, and what share did live stream take?",
    "GMV by channel last month and the share of app",
    "上个月各渠道的订单量，以及直播的占比",
    "上个月各渠道的订单量，直播占多少",
]


@pytest.mark.parametrize("question", EACH_THEN_A_SHARE)
def test_a_members_share_asked_after_a_breakdown_keeps_every_group(question: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.share and query.dimensions == ("channel",)
    assert not query.share_filters and not query.filters  # no row dropped


def test_a_members_share_among_the_groups_in_one_clause_is_its_share_alone() -> None:
    query = PLANNER.plan("上个月各渠道中APP的GMV占比", as_of=AS_OF)
    assert [(f.dimension, f.members) for f in query.share_filters] == [("channel", ("app",))]


INSIDE_EACH = [  # question, breakdown, the part's dimension and member
    ("上个月各区域中直播渠道贡献的GMV占比", "region", ("channel", ("live_stream",))),
    ("上个月各区域中直播渠道的GMV占比", "region", ("channel", ("live_stream",))),
    ("上个月各品类里新客贡献了多少比例的GMV", "category", ("user_type", ("new",))),
    ("上个月各区域中新客贡献的GMV占比分别是多少", "region", ("user_type", ("new",))),
]


@pytest.mark.parametrize(("question", "dim", "part"), INSIDE_EACH, ids=[c[0] for c in INSIDE_EACH])
def test_a_part_named_after_each_group_is_its_share_inside_the_group(
    question: str, dim: str, part: tuple[str, tuple[str, ...]]
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.dimensions == (dim,) and query.share_within == (dim,)
    assert [(f.dimension, f.members) for f in query.share_filters] == [part]
    assert not query.filters  # never the part's total split across the groups


def test_which_group_has_the_highest_share_is_still_a_share_across_them() -> None:
    query = PLANNER.plan("上个月各品类中哪个的GMV占比最高", as_of=AS_OF)
    assert query.share and query.share_within == () and query.top_n == 1


EVENTS = [  # question, start, end
    ("orders by channel on Singles Day 2025 (the day itself)", "2025-11-11", "2025-11-11"),
    ("live stream share of GMV during Double 11 2025, the whole event", "2025-11-01", "2025-11-11"),
    ("GMV on Singles Day 2025, the whole event", "2025-11-01", "2025-11-11"),
    ("双11 2025（当天）各渠道订单量", "2025-11-11", "2025-11-11"),
    ("2025年双11（整个活动期间）各渠道GMV", "2025-11-01", "2025-11-11"),
]


@pytest.mark.parametrize(("question", "start", "end"), EVENTS, ids=[c[0] for c in EVENTS])
def test_an_events_span_said_after_it_answers_which_one(question: str, start: str, end: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.time_range.start, query.time_range.end) == (D(start), D(end))


def test_one_mention_of_an_event_says_the_span_of_the_others() -> None:
    query = PLANNER.plan("618期间各品类GMV 同比去年618", as_of=AS_OF)
    assert (query.time_range.start, query.time_range.end) == (D("2026-06-01"), D("2026-06-18"))
    assert query.comparison is not None
    assert (query.comparison.range.start, query.comparison.range.end) == (D("2025-06-01"), D("2025-06-18"))
    with pytest.raises(AmbiguousQuestion, match="Singles Day"):  # said by none: still asked
        PLANNER.plan("Singles Day 2025 GMV", as_of=AS_OF)


COMPARED = [  # question, asked period, compared period, kind, premise asked
    ("5月和6月哪个月的取消率更高", "2026-06-01", "2026-05-01", "custom", None),
    ("Q1和Q2哪个季度的退款率更高", "2026-04-01", "2026-01-01", "custom", None),
    ("which month had the higher refund rate, May or June?", "2026-06-01", "2026-05-01", "custom", None),
    ("今年6月GMV比去年低吗", "2026-06-01", "2025-06-01", "same_period_last_year", "down"),
    ("今年618期间GMV比去年低吗", "2026-06-01", "2025-06-01", "same_period_last_year", "down"),
    ("今年6月GMV不如去年吗", "2026-06-01", "2025-06-01", "same_period_last_year", "down"),
    ("4月GMV不如5月吗", "2026-04-01", "2026-05-01", "custom", "down"),  # the first is set below the second
    ("5月GMV没有4月高吗", "2026-05-01", "2026-04-01", "custom", "down"),
    ("今年6月退款率没有去年好吗", "2026-06-01", "2025-06-01", "same_period_last_year", "up"),  # lower is better
    ("今年6月退款率比去年差吗", "2026-06-01", "2025-06-01", "same_period_last_year", "up"),
    ("was June refund rate worse than May?", "2026-06-01", "2026-05-01", "custom", "up"),
    ("GMV涨了吗，上周", "2026-06-22", "2026-06-15", "previous_period", "up"),
]


@pytest.mark.parametrize(("question", "asked", "against", "kind", "premise"), COMPARED, ids=[c[0] for c in COMPARED])
def test_two_periods_compared_as_said(question: str, asked: str, against: str, kind: str, premise: str | None) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.comparison is not None and query.grain is None and query.top_n is None
    assert (query.time_range.start, query.comparison.range.start) == (D(asked), D(against))
    assert query.comparison.kind == kind
    assert query.premise == premise and (query.premise_asked is not None) is (premise is not None)


def test_a_period_said_after_a_yes_no_keeps_the_question_closed() -> None:
    said_last = PLANNER.plan("直播的退款率比APP高吗，上个月", as_of=AS_OF)
    said_first = PLANNER.plan("上个月直播的退款率比APP高吗", as_of=AS_OF)
    assert said_last == said_first
    assert said_last.difference and said_last.time_range.start == D("2026-06-01")


@pytest.mark.parametrize("question", ["GMV last month versus last year", "今年GMV比去年高吗"])
def test_a_period_against_a_whole_year_is_still_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):  # not said of this year, or a whole year: no like for like
        PLANNER.plan(question, as_of=AS_OF)


CHAT_WORDS: list[tuple[str, str, set[str]]] = [  # question, metric, its filters
    ("hey, quick one - GMV last month?", "gmv", set()),
    ("hey, quick question - how much did we sell in beauty + food combined last month?", "gmv", {"category"}),
    ("上个月美妆的AOV是啥水平", "aov", {"category"}),
    ("What's the cancellation rate for mini program users in the first half of June?", "cancel_rate", {"channel"}),
    ("How did conv rate in South China change YoY for June?", "conversion_rate", {"region"}),
]


@pytest.mark.parametrize(("question", "metric", "filtered"), CHAT_WORDS, ids=[c[0] for c in CHAT_WORDS])
def test_chat_words_carry_nothing(question: str, metric: str, filtered: set[str]) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.metrics == (metric,)
    assert {f.dimension for f in query.filters} == filtered


def test_a_pronoun_is_no_unknown_word() -> None:
    with pytest.raises(AmbiguousQuestion) as asked:  # a bound beside a second metric: asked for that, by name
        PLANNER.plan("上个月GMV大于1000万的区域，它们的订单量分别是多少", as_of=AS_OF)
    assert "它们" not in str(asked.value)


def test_days_of_a_month_take_a_year_said_apart() -> None:
    this_year = PLANNER.plan("refund rate June 1-18 this year vs the same days last year", as_of=AS_OF)
    assert (this_year.time_range.start, this_year.time_range.end) == (D("2026-06-01"), D("2026-06-18"))
    assert this_year.comparison is not None and this_year.comparison.kind == "same_period_last_year"
    last_year = PLANNER.plan("GMV June 1-18 last year", as_of=AS_OF)
    assert (last_year.time_range.start, last_year.time_range.end) == (D("2025-06-01"), D("2025-06-18"))


EACH_THEN_MEMBERS = [  # every group asked, then two of them: answering the second part drops the rest
    "各区域上个月GMV，以及华东比华南高多少",
    "GMV by region last month, and how much higher was East than South?",
    "各渠道6月GMV，以及APP和小程序哪个更高",
]


@pytest.mark.parametrize("question", EACH_THEN_MEMBERS)
def test_every_group_then_two_of_them_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as asked:
        PLANNER.plan(question, as_of=AS_OF)
    assert asked.value.detail["reason"] == "each_then_members"


def test_only_two_members_after_a_breakdown_narrows_it() -> None:
    query = PLANNER.plan("上个月各渠道GMV，只看APP和小程序", as_of=AS_OF)
    assert query.dimensions == ("channel",)
    assert [(f.dimension, set(f.members)) for f in query.filters] == [("channel", {"app", "mini_program"})]


@pytest.mark.parametrize(
    "question",
    [
        "双11 2025 整个活动期间的GMV，以及当天的GMV",  # which day is 当天? the event's, beside its window
        "不如看看华东上个月的GMV",  # "how about looking at": no comparison
        "which region beat last year by the most in June orders?",  # June, against a whole year
    ],
)
def test_words_that_would_change_the_question_are_never_dropped(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):
        PLANNER.plan(question, as_of=AS_OF)


def test_beating_a_period_by_the_most_ranks_by_the_change() -> None:
    query = PLANNER.plan("which channel beat Q1 by the most in GMV, Q2 vs Q1?", as_of=AS_OF)
    assert query.rank_by != "value" and query.top_n == 1 and query.order == "desc"
    assert query.comparison is not None and query.comparison.range.start == D("2026-01-01")


@pytest.mark.parametrize(
    ("question", "kind", "against"),
    [
        ("今年5月的GMV和去年5月比，哪个高", "custom", "2025-05-01"),
        ("上个月和去年同月比，哪个的GMV高", "same_period_last_year", "2025-06-01"),
    ],
)
def test_which_of_two_periods_is_higher_needs_no_breakdown(question: str, kind: str, against: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)  # never "which group" (a remembered breakdown would fill one)
    assert query.dimensions == () and query.top_n is None
    assert query.comparison is not None and query.comparison.kind == kind
    assert query.comparison.range.start == D(against)


@pytest.mark.parametrize(
    ("question", "start"),
    [("Singles Day 2025 GMV on the day itself", "2025-11-11"), ("Singles Day 2025 GMV, the whole event", "2025-11-01")],
)
def test_an_events_span_said_anywhere_once_answers_which(question: str, start: str) -> None:
    assert PLANNER.plan(question, as_of=AS_OF).time_range.start == D(start)


def test_a_target_missed_or_fallen_short_of_is_below_it() -> None:
    missed = PLANNER.plan("Did Q2 GMV miss 150M?", as_of=AS_OF)
    assert missed.threshold is not None and (missed.threshold.op, missed.threshold.value) == ("<", 150_000_000)
    short = PLANNER.plan("which categories fell short of 5M GMV last month", as_of=AS_OF)
    assert short.threshold is not None and (short.threshold.op, short.threshold.value) == ("<", 5_000_000)
    assert short.dimensions == ("category",)


def test_messages_that_ask_back_name_the_questions_own_terms() -> None:
    with pytest.raises(AmbiguousQuestion) as total_then_top:
        PLANNER.plan("total orders in May and which channel was the highest?", as_of=AS_OF)
    assert '"which channel had the highest orders last month"' in total_then_top.value.message_en
    with pytest.raises(AmbiguousQuestion) as bottom:
        PLANNER.plan("上个月订单量最少的3个区域合计多少", as_of=AS_OF)
    assert "倒数 3 名" in bottom.value.message_zh and "bottom 3" in bottom.value.message_en


def test_a_part_of_two_dimensions_of_the_whole_said_as_everything() -> None:
    query = PLANNER.plan("上周华东APP的GMV占全国GMV的比例", as_of=AS_OF)
    assert query.share and not query.filters and not query.dimensions
    assert {(f.dimension, f.members) for f in query.share_filters} == {("region", ("华东",)), ("channel", ("app",))}
    english = PLANNER.plan("what share of total GMV last week came from the app in East China?", as_of=AS_OF)
    assert set(english.share_filters) == set(query.share_filters)
    with pytest.raises(AmbiguousQuestion):  # no whole said: app's share inside East China, or of all?
        PLANNER.plan("上周华东APP的GMV占比", as_of=AS_OF)


def test_the_same_days_last_week_in_english() -> None:
    query = PLANNER.plan("week to date orders vs the same days last week", as_of=AS_OF)
    assert query.comparison is not None
    assert (query.comparison.range.start, query.comparison.range.end) == (D("2026-06-22"), D("2026-06-23"))


@pytest.mark.parametrize(
    "question",
    [
        "上个月所有区域的GMV，还有华东华南的",
        "GMV across all regions last month, and for East and South China",
        "上个月全部渠道的订单量，还有APP和小程序的",
    ],
)
def test_all_the_groups_then_some_of_them_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as asked:
        PLANNER.plan(question, as_of=AS_OF)
    assert asked.value.detail["reason"] == "each_then_members"


WHOLE_NAMED_AFTER_EVERYTHING = [  # question, the whole's filter, the part
    ("上个月华东新客的GMV占全国新客GMV的比例", ("user_type", ("new",)), ("region", ("华东",))),
    ("上个月华东APP的GMV占全国APP的比例", ("channel", ("app",)), ("region", ("华东",))),
    ("上个月华南老客的订单量占全国老客订单量的比例", ("user_type", ("returning",)), ("region", ("华南",))),
    (
        "East China new-user GMV last month as a share of overall new-user GMV",
        ("user_type", ("new",)),
        ("region", ("华东",)),
    ),
]


@pytest.mark.parametrize(
    ("question", "whole", "part"), WHOLE_NAMED_AFTER_EVERYTHING, ids=[c[0] for c in WHOLE_NAMED_AFTER_EVERYTHING]
)
def test_a_member_named_after_everything_is_the_whole(
    question: str, whole: tuple[str, tuple[str, ...]], part: tuple[str, tuple[str, ...]]
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)  # never both members over all rows
    assert [(f.dimension, f.members) for f in query.filters] == [whole]
    assert [(f.dimension, f.members) for f in query.share_filters] == [part]


GOOD_OR_BAD = [  # question, the direction asked (by the metric's better side)
    ("6月的退款率比5月好吗", "down"),  # lower is better: better is a fall
    ("6月的退款率比5月差吗", "up"),
    ("6月的GMV比5月好吗", "up"),
    ("上个月退款率有改善吗", "down"),
]


@pytest.mark.parametrize(("question", "premise"), GOOD_OR_BAD, ids=[c[0] for c in GOOD_OR_BAD])
def test_better_or_worse_asks_the_metrics_better_side(question: str, premise: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert query.comparison is not None and query.premise == premise and query.premise_asked == "every"


def test_good_with_nothing_set_against_is_asked_back() -> None:
    with pytest.raises(AmbiguousQuestion, match="好"):  # good against what? never a guessed comparison
        PLANNER.plan("上个月GMV好吗", as_of=AS_OF)


@pytest.mark.parametrize("question", ["上个月总GMV多少，按渠道拆一下", "上个月总订单量多少，分区域看看"])
def test_a_total_asked_then_split_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion):  # the total and each: never the breakdown alone
        PLANNER.plan(question, as_of=AS_OF)


@pytest.mark.parametrize("question", ["total GMV last month, by channel", "orders last month, per channel"])
def test_a_breakdown_said_after_a_comma_is_the_questions(question: str) -> None:
    assert PLANNER.plan(question, as_of=AS_OF).dimensions == ("channel",)


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("Singles Day 2025 conversion rate by region (whole event)", "2025-11-01", "2025-11-11"),
        ("Singles Day 2025 GMV (the day itself)", "2025-11-11", "2025-11-11"),
    ],
)
def test_an_events_span_said_in_brackets(question: str, start: str, end: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert (query.time_range.start, query.time_range.end) == (D(start), D(end))


def test_month_shorthand_is_read_and_stated() -> None:
    query = PLANNER.plan("last mnth GMV by chanel", as_of=AS_OF)
    assert query.time_range.start == D("2026-06-01") and query.dimensions == ("channel",)
    assert ("mnth", "month") in {(c.written, c.read_as) for c in query.corrections}
