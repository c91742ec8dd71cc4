"""Conversations on the real pipeline: follow-ups inherit the previous reading explicitly,
say what they kept and changed, are stored as runs of one conversation, belong to their
owner, turn into analyses for why-questions, and are asked back when they cannot be tied."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from baton.contracts.answer import Answer
from baton.errors import InvalidInput, PermissionDenied
from baton.orchestrator.session import Session
from tests.redteam.private_demo import private_copy


@pytest.fixture(scope="module")
def session(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    copy = private_copy(demo_dir, tmp_path_factory.mktemp("conversation") / "demo")
    with Session(config=copy / "baton.toml", remember=False) as s:
        yield s


def _rows(session: Session, sql: str) -> list[tuple[object, ...]]:
    """Independent SQL's rows, numbers as floats (the answer's rows are JSON numbers)."""
    rows = session.backend.execute(sql, timeout_s=30, row_cap=1000).rows
    return sorted(tuple(float(v) if isinstance(v, Decimal) else v for v in r) for r in rows)


def _answer_rows(answer: Answer, *columns: str) -> list[tuple[object, ...]]:
    assert answer.result is not None, answer.answer
    names = [c.name for c in answer.result.columns]
    return sorted(tuple(row[names.index(c)] for c in columns) for row in answer.result.rows)


JULY = date(2026, 7, 1)


def _last_figure(answer: Answer) -> list[tuple[float]]:
    """The answer's one figure (its first row's last cell), as independent SQL's rows give it."""
    assert answer.result is not None, answer.answer
    return [(float(answer.result.rows[0][-1]),)]


GMV = "SUM(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded'))"
ORDERS = "status IN ('paid', 'refunded')"
JUNE = "order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'"


def test_a_member_follow_up_keeps_metric_period_and_breakdown(session: Session) -> None:
    chat = session.conversation()
    first = chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    second = chat.ask("那华南呢？")
    assert first.status == second.status == "answered"
    assert _answer_rows(second, "channel", "gmv") == _rows(
        session, f"SELECT channel, {GMV} FROM fact_order WHERE region = '华南' AND {JUNE} GROUP BY 1"
    )
    assert second.follow_up is not None
    assert second.follow_up.parent_run_id == first.run_id
    assert second.follow_up.changed == ("filter",)
    assert set(second.follow_up.inherited) == {"metric", "period", "breakdown"}
    assert second.interpretation is not None
    assert second.interpretation.startswith("接上一问：沿用指标、时间范围、拆分维度；改为筛选。")
    assert second.conversation_id == chat.conversation_id
    assert second.as_of == first.as_of  # a follow-up reads its periods on the same day


def test_a_ranking_over_two_keys_is_asked_unless_it_ranks_the_pairs_already(session: Session) -> None:
    """ "各区域的GMV" then "按品类看，最高的3个呢": the top of each region, or the top pairs? Asked.
    A follow-up of a ranking of pairs keeps ranking the pairs."""
    chat = session.conversation()
    chat.ask("上个月各区域的GMV", as_of=JULY)
    asked = chat.ask("按品类看，最高的3个呢")
    assert asked.status == "clarification_needed" and asked.error is not None
    assert asked.error.detail["reason"] == "rank_per_group"
    pairs = session.conversation()
    pairs.ask("上个月GMV最高的3个区域和品类组合", as_of=JULY)
    orders = pairs.ask("那订单量呢")
    assert orders.status == "answered" and orders.semantic_query is not None
    assert orders.semantic_query.top_n == 3 and set(orders.semantic_query.dimensions) == {"region", "category"}


def test_changes_accumulate_over_turns_in_english(session: Session) -> None:
    chat = session.conversation()
    chat.ask("What was GMV by channel last month?", as_of=JULY)
    chat.ask("only new users")
    third = chat.ask("what about orders?")
    assert third.status == "answered", third.answer
    assert _answer_rows(third, "channel", "order_count") == _rows(
        session,
        "SELECT o.channel, COUNT(*) FILTER (WHERE o.status IN ('paid', 'refunded')) FROM fact_order o "
        f"WHERE o.user_type = 'new' AND {JUNE.replace('order_date', 'o.order_date')} GROUP BY 1",
    )
    assert third.interpretation is not None
    assert third.interpretation.startswith(
        "Following the previous question: kept the period, the filter, the breakdown;"
    )


@pytest.mark.parametrize(
    ("follow_up", "changed"),
    [
        ("换成按周看", ("grain",)),
        ("和去年比呢", ("comparison",)),
        ("按品类拆开", ("breakdown",)),
        ("去掉直播呢", ("exclusion",)),
        ("去掉直播，只看剩下的", ("exclusion",)),
        ("drop live stream, just the rest", ("exclusion",)),
        ("add them up", ("breakdown",)),
        ("带同比", ("comparison",)),
        ("订单量呢", ("metric",)),
        ("5月呢", ("period",)),
        ("最高的3个呢", ("ranking",)),
        ("占比呢", ("share",)),
        ("按新老客拆", ("breakdown",)),
    ],
)
def test_each_kind_of_follow_up_changes_only_its_part(
    session: Session, follow_up: str, changed: tuple[str, ...]
) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    answer = chat.ask(follow_up)
    assert answer.status == "answered", answer.answer
    assert answer.follow_up is not None and answer.follow_up.changed == changed


@pytest.mark.parametrize(
    ("first", "follow_up", "changed"),
    [
        ("East China refund rate in May 2026", "compared with the same month last year?", ("comparison",)),
        ("East China refund rate in May 2026", "vs the same period last year?", ("comparison",)),
        ("上个月华东的退款率", "和去年同月比呢", ("comparison",)),
        # a member of the ranked dimension with another metric: that member's figure, no ranking left
        (
            "which channel had the highest AOV in South China in May?",
            "what is the refund rate of web?",
            ("metric", "filter", "breakdown", "ranking"),
        ),
        ("上个月哪个渠道的客单价最高", "APP的退款率呢", ("metric", "filter", "breakdown", "ranking")),
    ],
)
def test_a_comparison_or_a_members_other_metric_follows_the_previous_question(
    session: Session, first: str, follow_up: str, changed: tuple[str, ...]
) -> None:
    """Asked back before: "the same month" was read as "the same (as before)", "同月比" left "比"
    unread, and a metric whose better end differs was asked its direction though one member remains."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(follow_up)
    assert answer.status == "answered", answer.answer
    assert answer.follow_up is not None and answer.follow_up.changed == changed
    assert answer.result is not None and answer.result.row_count == 1


def test_a_why_follow_up_is_an_analysis_scoped_to_the_previous_reading(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    why = chat.ask("为什么app下降了？")
    assert why.status == "answered", why.answer
    assert session.store.load(why.run_id).kind == "analyze"
    assert why.semantic_query is not None
    assert [(f.dimension, f.members) for f in why.semantic_query.filters] == [("channel", ("app",))]
    assert (why.semantic_query.time_range.start.isoformat(), why.semantic_query.metrics) == ("2026-06-01", ("gmv",))


def test_a_member_named_in_reply_to_a_why_asked_back_is_analysed_in_the_conversations_language(
    session: Session,
) -> None:
    """ "为什么它跌了这么多" after a top two asks which channel; "APP" answers it. The reply was once
    read as a plain follow-up, in English (a member name says no language): the change alone.
    After a top one, 它 is that channel, whatever follows it."""
    chat = session.conversation()
    chat.ask("上个月各渠道订单量和去年同期比", as_of=JULY)
    chat.ask("哪个最高")
    direct = chat.ask("为什么它跌了这么多")
    assert direct.status == "answered" and direct.semantic_query is not None
    assert [(f.dimension, f.members) for f in direct.semantic_query.filters] == [("channel", ("app",))]
    chat = session.conversation()
    chat.ask("上个月各渠道订单量和去年同期比", as_of=JULY)
    chat.ask("最高的两个")
    asked = chat.ask("为什么它跌了这么多")
    assert asked.status == "clarification_needed"
    reply = chat.ask("APP")
    assert reply.status == "answered" and reply.language == "zh", reply.answer
    assert session.store.load(reply.run_id).kind == "analyze"
    assert reply.semantic_query is not None and reply.semantic_query.intent == "why"
    assert [(f.dimension, f.members) for f in reply.semantic_query.filters] == [("channel", ("app",))]
    assert reply.interpretation is not None and reply.interpretation.startswith("接上一问")
    plain = session.conversation()
    plain.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    follow = plain.ask("APP")  # no why asked: a follow-up, in the conversation's language
    assert session.store.load(follow.run_id).kind == "ask" and follow.language == "zh"


@pytest.mark.parametrize(
    ("question", "reply"),
    [
        ("cancellation rate by region this quarter?", "ok, last quarter then"),
        ("这个季度各区域的取消率", "那看上个季度"),
    ],
)
def test_a_period_given_for_one_without_data_yet_completes_the_question(
    session: Session, question: str, reply: str
) -> None:
    """The question asked back for a period with no data yet keeps its metric and breakdown: the
    reply once lost the metric (asked back again) and then the breakdown (answered overall)."""
    chat = session.conversation()
    assert chat.ask(question, as_of=JULY).status == "clarification_needed"
    answer = chat.ask(reply)
    assert answer.status == "answered", answer.answer
    assert answer.semantic_query is not None and answer.semantic_query.metrics == ("cancel_rate",)
    assert answer.semantic_query.dimensions == ("region",)
    assert answer.semantic_query.time_range.start.isoformat() == "2026-04-01"


@pytest.mark.parametrize("reply", ["the second one", "第二种", "后者"])
def test_an_option_picked_by_its_place_after_a_question_back_is_never_a_row_of_the_last_answer(
    session: Session, reply: str
) -> None:
    """Asked "share inside each group, or how the part splits?", "the second one" was read as the
    last answer's second row (web's share) and answered: a different question."""
    chat = session.conversation()
    chat.ask("GMV by channel, last 30 days", as_of=JULY)
    chat.ask("what's the share of each?")
    assert chat.ask("what about web only, by category").status == "clarification_needed"
    picked = chat.ask(reply)
    assert picked.status != "answered", picked.answer
    plain = session.conversation()
    plain.ask("GMV by channel, last 30 days", as_of=JULY)
    after = plain.ask("the second one")  # after an answer, a place of its rows still reads as one
    assert after.status == "answered" and after.semantic_query is not None, after.answer


def test_an_untied_follow_up_is_asked_back_and_the_next_one_follows_the_last_answer(session: Session) -> None:
    chat = session.conversation()
    first = chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    unclear = chat.ask("那个呢")
    assert unclear.status == "clarification_needed"
    assert unclear.error is not None and unclear.error.code == "ambiguous_question"
    tmall = chat.ask("What about Tmall?")
    assert tmall.status == "clarification_needed" and "tmall" in tmall.answer.lower()
    then = chat.ask("那华南呢？")
    assert then.status == "answered" and then.follow_up is not None
    assert then.follow_up.parent_run_id == first.run_id


def test_a_follow_up_comparing_with_a_period_is_never_out_of_scope(session: Session) -> None:
    """ "跟前年同期比" after a figure was refused as not about the data: it is the same month two years
    before (June 2024, before the demo's data: asked back, saying so); a word not understood in such a
    follow-up is asked back by name. A question of no period or comparison of its own is still refused."""
    chat = session.conversation()
    assert chat.ask("上个月GMV", as_of=JULY).status == "answered"
    compared = chat.ask("跟前年同期比")
    assert compared.status == "clarification_needed" and "2024-06-01" in compared.answer, compared.answer
    unknown = chat.ask("跟前年同期的咕噜比")
    assert unknown.status == "clarification_needed" and "咕噜" in unknown.answer, unknown.answer
    assert chat.ask("今天天气怎么样").status == "refused"


def test_a_follow_up_the_metric_cannot_take_is_asked_back_not_invalid(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月的访客数", as_of=JULY)
    answer = chat.ask("按品类拆开")
    assert answer.status == "clarification_needed", answer.answer


def test_a_whole_new_question_inherits_nothing_and_says_so(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    answer = chat.ask("今年一季度的订单量是多少")
    assert answer.status == "answered" and answer.follow_up is not None and answer.follow_up.standalone
    assert answer.interpretation is not None and answer.interpretation.startswith("新问题：未沿用上一问的任何条件。")
    assert answer.result is not None and answer.result.row_count == 1


def test_the_conversation_is_stored_with_its_runs_and_replays(session: Session) -> None:
    chat = session.conversation()
    a = chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    b = chat.ask("那华南呢？")
    assert [r.run_id for r in chat.runs()] == [a.run_id, b.run_id]
    again = session.conversation(chat.conversation_id)
    assert again.last_answered() is not None and again.last_answered().run_id == b.run_id  # type: ignore[union-attr]
    replayed = again.replay()
    assert [r.result.rows if r.result else None for r in replayed] == [
        a.result.rows if a.result else None,
        b.result.rows if b.result else None,
    ]
    assert replayed[1].interpretation == b.interpretation


def test_a_conversation_belongs_to_its_owner(session: Session) -> None:
    chat = session.conversation(user="analyst")
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    with pytest.raises(PermissionDenied):
        session.conversation(chat.conversation_id, user="east_manager")
    with pytest.raises(InvalidInput):
        session.conversation("conv_does_not_exist")


def test_a_follow_up_runs_under_its_users_grants(session: Session) -> None:
    chat = session.conversation(user="east_manager")
    first = chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    second = chat.ask("只看新用户")
    assert first.status == second.status == "answered"
    assert _answer_rows(second, "channel", "gmv") == _rows(
        session,
        f"SELECT channel, {GMV} FROM fact_order WHERE region = '华东' AND user_type = 'new' AND {JUNE} GROUP BY 1",
    )


def test_best_and_worst_in_a_follow_up_follow_the_metrics_better_direction(session: Session) -> None:
    chat = session.conversation()
    chat.ask("二季度各品类的退款率", as_of=JULY)
    worst = chat.ask("最差的是哪个？")
    assert worst.status == "answered" and worst.semantic_query is not None
    assert session.catalog.metrics["refund_rate"].better == "lower"
    assert (worst.semantic_query.top_n, worst.semantic_query.order) == (1, "desc")  # the highest refund rate


@pytest.mark.parametrize(
    ("first", "then", "order"),
    [("上个月GMV最低的品类", "第二呢", "ASC"), ("上个月GMV最高的品类", "那第三个呢", "DESC")],
)
def test_a_bare_place_keeps_the_previous_rankings_direction(
    session: Session, first: str, then: str, order: str
) -> None:
    """ "最低的品类" then "第二呢": the second lowest, as the ranking it follows went."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    place = answer.semantic_query.rank_place
    assert place is not None
    every = _rows(session, f"SELECT category, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1")
    ranked = sorted(every, key=lambda row: float(str(row[1])), reverse=order == "DESC")
    assert _answer_rows(answer, "category", "gmv") == [ranked[place - 1]]


def test_change_it_to_is_a_reading_not_a_write(session: Session) -> None:
    """ "改成按周" after a daily series: the weekly series, never refused as a request to modify data."""
    chat = session.conversation()
    chat.ask("上个月每天的GMV", as_of=JULY)
    weekly = chat.ask("改成按周")
    assert weekly.status == "answered" and weekly.semantic_query is not None, weekly.answer
    assert weekly.semantic_query.grain == "week"


def test_sorting_every_row_of_the_previous_answer_sorts_by_the_metric(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月各区域的订单量", as_of=JULY)
    ranked = chat.ask("从低到高排一下")
    assert ranked.status == "answered" and ranked.result is not None, ranked.answer
    values = [row[[c.name for c in ranked.result.columns].index("order_count")] for row in ranked.result.rows]
    assert values == sorted(values) and len(values) > 3


def test_a_follow_up_stopped_before_planning_resumes_against_its_parent(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    done = chat.ask("那华南呢？")
    state = session.store.load(done.run_id)
    crashed = state.model_copy(
        update={
            "status": "running",
            "step": "clarify_metric",
            "completed_steps": [],
            "checkpoints": {},
            "sql": [],
            "evidence": [],
            "answer": None,
            "semantic_query": None,
            "follow_up": None,
            "finished_at": None,
        }
    )
    session.store.save(crashed)
    resumed = session.resume(done.run_id)
    assert resumed.status == "answered"
    assert resumed.result is not None and done.result is not None
    assert resumed.result.rows == done.result.rows
    assert resumed.follow_up == done.follow_up and resumed.interpretation == done.interpretation


@pytest.mark.parametrize(
    ("first", "follow_up"),
    [
        ("上个月退款率最好的渠道", "那GMV呢"),  # "best" is the other end for GMV
        ("上个月华东和华南的GMV", "去掉华北"),  # 华北 was never in the question: nothing to take out
        ("上个月GMV同比", "加上环比呢"),  # two comparisons at once, never the YoY replaced
        ("上个月GMV前5的品类", "其中最低的"),  # the lowest of the five, never the bottom 5 of all
        ("上个月华东和华南的GMV", "去掉华东和华南"),  # the two, or the filter on them? (除了华东和华南: the rest)
        ("上个月app的GMV", "去掉app呢"),
        ("上个月华南手机数码的GMV", "去掉华南，按区域拆开看"),  # never the breakdown taken away and 华南 kept
        ("GMV by channel and region last month", "no just channel breakdown"),  # never the channel split taken away
        ("上个月app的GMV", "不看app了"),  # the rest, or every channel again?
        ("上个月各品类GMV占比", "同比增速呢"),  # the shares' move in points, or GMV's growth?
        ("今年每月的GMV", "第二个的退款率呢"),  # the second month, or the second highest?
        ("上个月GMV", "同比和环比呢"),  # two comparisons at once: one at a time
        ("上个月各渠道GMV", "去年呢"),  # all of 2025, or June 2025?
        ("gmv by channel in q1", "what about last year?"),
        ("上个月app的GMV同比", "降了多少"),  # never the change on the month before instead
        ("上个月华东和华南的GMV差多少", "去年同期呢"),  # a gap of two changes is not built, never dropped
        ("上个月各区域优惠金额", "占GMV的比例呢"),  # discount over GMV, never GMV's share by region
        ("discount amount last month", "as a share of GMV?"),
        ("discount amount by region last month", "what's that as a percentage of GMV?"),  # never GMV's shares
        ("discount amount last month", "what percentage of GMV is that?"),
        ("上个月华东的GMV", "换成web"),  # web instead of East China, or within it?
        ("上个月华南的GMV", "I meant web"),
        ("上个月华东的GMV", "错了，app"),
        ("上个月华南的GMV", "换成除了APP以外的渠道"),  # every channel but app instead of 华南, or within it?
        ("上个月华南的GMV", "换成不含APP的"),
        ("GMV in South China last month", "instead, excluding app"),
        ("GMV in South China last month", "I meant everything except the app channel"),
        ("最近三个月每个月华东的买家数环比", "华东占比变化了多少"),  # a share's change by month: not built
        ("上个月华东app的GMV", "全国呢"),  # without the region, the channel, or both?
        ("上个月各渠道GMV", "不分区域呢"),  # there was no region breakdown to take away
        ("上个月GMV", "去年这个月呢"),  # June 2025 (the month discussed), or July 2025 (this month)?
        ("双11期间的GMV", "去年呢"),  # all of 2025 (which holds that 双11), or the 双11 before?
        ("上个月华东的GMV", "平均水平呢"),  # an average is no whole
        ("上个月华东的GMV", "和全国比呢"),  # the member against the whole: two figures
        ("which region had the third highest GMV last month", "and the one before that?"),  # a place, or May?
        ("5月华东的GMV", "和6月加起来多少"),  # a sum of periods: never June alone
        ("上个月除华东外的GMV", "和华南加起来多少"),  # 华南 is in already: never 华南 alone
        ("上个月各区域的GMV", "和华东加起来多少"),  # added to what? never 华东 alone
        ("上个月华东的GMV", "和订单量一共多少"),  # a sum of two metrics: never orders alone
    ],
)
def test_follow_ups_that_would_silently_mean_something_else_are_asked_back(
    session: Session, first: str, follow_up: str
) -> None:
    chat = session.conversation()
    assert chat.ask(first, as_of=JULY).status == "answered"
    assert chat.ask(follow_up).status == "clarification_needed"


def test_the_whole_of_a_year_said_after_a_month_is_that_year(session: Session) -> None:
    chat = session.conversation()
    chat.ask("gmv by channel last month", as_of=JULY)
    answer = chat.ask("the whole of last year")
    assert answer.status == "answered" and answer.semantic_query is not None
    assert (answer.semantic_query.time_range.start, answer.semantic_query.time_range.end) == (
        date(2025, 1, 1),
        date(2025, 12, 31),
    )


def test_its_metric_after_a_breakdown_changes_the_metric(session: Session) -> None:
    """ "上个月各渠道的订单量" then "它的GMV呢": the same channels, GMV instead of orders."""
    chat = session.conversation()
    chat.ask("上个月各渠道的订单量", as_of=JULY)
    answer = chat.ask("它的GMV呢")
    assert answer.status == "answered" and answer.semantic_query is not None
    assert (answer.semantic_query.metrics, answer.semantic_query.dimensions) == (("gmv",), ("channel",))
    gold = _rows(session, f"SELECT channel, {GMV} AS v FROM fact_order WHERE {JUNE} GROUP BY 1 ORDER BY 1")
    assert sorted(_answer_rows(answer, "channel", "gmv")) == gold


def test_a_gap_follow_up_to_another_period_keeps_the_gap(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月华东和华南的GMV差多少", as_of=JULY)
    may = chat.ask("那5月呢")
    assert may.status == "answered" and may.semantic_query is not None and may.semantic_query.difference
    east, south = (
        float(
            str(
                _rows(
                    session,
                    f"SELECT {GMV} FROM fact_order WHERE region = '{r}' AND order_date BETWEEN '2026-05-01' AND "
                    "'2026-05-31'",
                )[0][0]
            )
        )
        for r in ("华东", "华南")
    )
    assert f"华东比华南{'高' if east > south else '低'} ¥{abs(east - south):,.2f}" in may.answer


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("上个月华东app的GMV", "所有渠道呢"),
        ("上个月华东app的GMV", "what about all channels"),
        ("上个月华东app的GMV", "不限渠道"),
        ("上个月华东app的GMV", "全渠道呢"),
    ],
)
def test_all_of_a_dimension_takes_its_filter_away(session: Session, first: str, then: str) -> None:
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert [(f.dimension, f.members) for f in answer.semantic_query.filters] == [("region", ("华东",))]
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE region = '华东' AND {JUNE}")
    assert _answer_rows(answer, "gmv") == gold


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("上个月GMV最低的区域", "show all regions with both refund rate and GMV"),
        ("上个月GMV最高的3个区域", "所有区域呢"),
        ("top 2 regions by GMV last month", "what about every region"),
    ],
)
def test_every_group_of_a_ranked_breakdown_takes_the_ranking_away(session: Session, first: str, then: str) -> None:
    """ "show all regions" after "the lowest region" kept the bottom 1; every region is asked."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.error
    assert answer.semantic_query.top_n is None and answer.semantic_query.rank_place is None
    regions = _rows(session, f"SELECT COUNT(DISTINCT region) FROM fact_order WHERE {JUNE}")[0][0]
    assert answer.result is not None and answer.result.row_count == regions


def test_a_yes_no_of_every_group_after_a_ranking_checks_every_group(session: Session) -> None:
    """ "哪个区域GMV环比下降最多" then "都比5月低吗" repeated the top region; every region is checked."""
    chat = session.conversation()
    chat.ask("上个月哪个区域GMV环比下降最多", as_of=JULY)
    answer = chat.ask("都比5月低吗")
    assert answer.status == "answered" and answer.semantic_query is not None, answer.error
    query = answer.semantic_query
    assert query.top_n is None and query.premise_asked == "every" and query.premise == "down"
    assert answer.result is not None and answer.result.row_count == 7


def test_a_yes_no_of_every_group_after_a_top_n_checks_those_n(session: Session) -> None:
    """ "最高的3个区域" then "都比5月高吗": 都 is of those three, the ranking kept."""
    chat = session.conversation()
    chat.ask("上个月GMV最高的3个区域", as_of=JULY)
    answer = chat.ask("都比5月高吗")
    assert answer.status == "answered" and answer.semantic_query is not None, answer.error
    assert answer.semantic_query.top_n == 3 and answer.semantic_query.premise_asked == "every"
    assert answer.result is not None and answer.result.row_count == 3


def test_each_of_several_metrics_after_one_member_is_each_metric(session: Session) -> None:
    """ "华东的GMV和订单量" then "去年同期分别是多少": each metric of 华东, never asked "each of what"."""
    chat = session.conversation()
    chat.ask("上个月华东的GMV和订单量", as_of=JULY)
    answer = chat.ask("去年同期分别是多少")
    assert answer.status == "answered" and answer.semantic_query is not None, answer.error
    assert answer.semantic_query.metrics == ("gmv", "order_count") and answer.semantic_query.comparison is not None


def test_whether_a_member_of_the_breakdown_is_first_is_asked_among_the_breakdown(session: Session) -> None:
    """ "各渠道的转化率" then "app是最高的吗" was once answered as app's top region (a default breakdown),
    then asked back: app is ranked among the channels, and "华南排第几" after regions gets its place."""
    chat = session.conversation()
    chat.ask("上个月各渠道的转化率", as_of=JULY)
    first = chat.ask("app是最高的吗")
    query = first.semantic_query
    assert first.status == "answered" and query is not None, first.answer
    assert query.dimensions == ("channel",) and query.asked_member == "app" and not query.place_asked
    assert query.top_n is None and not query.filters and first.result is not None and first.result.row_count == 4
    rates = {str(row[0]): float(str(row[1])) for row in first.result.rows}
    top = max(rates, key=lambda k: rates[k])
    assert first.answer.startswith("是" if top == "app" else "否"), first.answer
    chat = session.conversation()
    chat.ask("上个月各区域GMV", as_of=JULY)
    place = chat.ask("华南排第几")
    assert place.status == "answered" and place.semantic_query is not None, place.answer
    assert place.semantic_query.asked_member == "华南" and place.semantic_query.place_asked
    assert place.result is not None
    gmv = sorted((float(str(row[1])) for row in place.result.rows), reverse=True)
    south = next(float(str(row[1])) for row in place.result.rows if row[0] == "华南")
    assert f"排第 {gmv.index(south) + 1}" in place.answer, place.answer


def test_the_groups_that_moved_are_named_in_a_follow_up(session: Session) -> None:
    """ "各区域GMV" then "哪些比5月少了" / "which ones grew vs the month before?" were refused as not
    about the data: every group's change against the period said, those that moved that way named."""
    for first, then, asked in [
        ("上个月各区域GMV", "哪些比5月少了", "down"),
        ("GMV by channel last month", "which ones grew vs the month before?", "up"),
        ("上个月各区域GMV", "哪些环比下降了", "down"),
        ("上个月各区域GMV", "哪个降了", "down"),  # one word each: 哪个, 降
        ("GMV by channel last month", "which fell?", "down"),
    ]:
        chat = session.conversation()
        chat.ask(first, as_of=JULY)
        answer = chat.ask(then)
        query = answer.semantic_query
        assert answer.status == "answered" and query is not None, (then, answer.answer)
        assert query.premise_asked == "which" and query.premise == asked and query.comparison is not None
        assert query.comparison.range.start == date(2026, 5, 1) and answer.result is not None
        names = [c.name for c in answer.result.columns]
        pct = names.index("gmv_change_pct")
        moved = [row[0] for row in answer.result.rows if (float(str(row[pct])) > 0) == (asked == "up")]
        label = session.catalog.member_label
        dim = query.dimensions[0]
        tail = answer.answer.rsplit("：" if answer.language == "zh" else ": ", 1)[-1]
        for row in answer.result.rows:  # exactly the groups that moved that way, after the count
            assert (label(dim, str(row[0]), answer.language) in tail) == (row[0] in moved), (then, answer.answer)


def test_a_verdict_asked_of_the_same_comparison_is_answered(session: Session) -> None:
    """ "Q2各品类GMV同比" then "都涨了吗" was "could not tie this to the previous question": the same
    comparison, with the yes or no of every group said."""
    chat = session.conversation()
    chat.ask("Q2各品类GMV同比", as_of=JULY)
    answer = chat.ask("都涨了吗")
    query = answer.semantic_query
    assert answer.status == "answered" and query is not None and answer.result is not None, answer.answer
    assert query.premise_asked == "every" and query.premise == "up"
    pct = [c.name for c in answer.result.columns].index("gmv_change_pct")
    all_up = all(float(str(row[pct])) > 0 for row in answer.result.rows)
    assert answer.answer.rstrip("。").endswith("是") == all_up, answer.answer


def test_all_after_one_member_is_asked_back(session: Session) -> None:
    """ "app的GMV" then "都比5月高吗" was answered for app alone: all of what? asked."""
    chat = session.conversation()
    chat.ask("上个月app的GMV", as_of=JULY)
    assert chat.ask("都比5月高吗").status == "clarification_needed"


def test_each_after_two_single_members_is_asked_back(session: Session) -> None:
    """ "新用户的AOV", "老用户的呢", then "what's the AOV for each?" answered the last member alone."""
    chat = session.conversation()
    chat.ask("上个月新用户的AOV", as_of=JULY)
    chat.ask("老用户的呢")
    answer = chat.ask("what's the AOV for each?")
    assert answer.status == "clarification_needed", answer.answer


def test_taking_a_member_out_narrows_the_previous_members(session: Session) -> None:
    """ "华东和华南的GMV" then "去掉华南" is 华东's GMV (it was "every region but 华南")."""
    chat = session.conversation()
    chat.ask("上个月华东和华南的GMV", as_of=JULY)
    answer = chat.ask("去掉华南")
    assert answer.status == "answered" and answer.semantic_query is not None
    assert [(f.dimension, f.members, f.exclude) for f in answer.semantic_query.filters] == [
        ("region", ("华东",), False)
    ]
    assert answer.semantic_query.dimensions == ()
    gold = _rows(
        session,
        f"SELECT {GMV} FROM fact_order WHERE region = '华东' AND order_date BETWEEN '2026-06-01' AND '2026-06-30'",
    )
    assert _answer_rows(answer, "gmv") == gold


@pytest.mark.parametrize(
    ("first", "follow_up", "start", "end"),
    [
        ("2025年3月的GMV", "4月呢", date(2025, 4, 1), date(2025, 4, 30)),
        ("GMV for May 2025", "and June?", date(2025, 6, 1), date(2025, 6, 30)),
        ("去年2月的GMV", "3月呢", date(2025, 3, 1), date(2025, 3, 31)),
        ("上个月的GMV", "5月呢", date(2026, 5, 1), date(2026, 5, 31)),  # no year was said: the latest May
        ("2025年3月的GMV", "2026年4月呢", date(2026, 4, 1), date(2026, 4, 30)),  # a year said is its own
        ("2025年3月的GMV", "上个月呢", date(2026, 6, 1), date(2026, 6, 30)),  # relative to today, not to 2025
        ("GMV for May 2025", "and last month?", date(2026, 6, 1), date(2026, 6, 30)),
    ],
)
def test_a_period_said_without_a_year_is_in_the_year_the_conversation_named(
    session: Session, first: str, follow_up: str, start: date, end: date
) -> None:
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(follow_up)
    assert answer.status == "answered" and answer.semantic_query is not None
    tr = answer.semantic_query.time_range
    assert (tr.start, tr.end) == (start, end)
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN '{start}' AND '{end}'")
    assert _answer_rows(answer, "gmv") == gold


def test_a_share_follow_up_names_the_new_part(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月华南的GMV占比", as_of=JULY)
    east = chat.ask("那华东呢")
    assert east.status == "answered" and east.semantic_query is not None
    assert [(f.dimension, f.members) for f in east.semantic_query.share_filters] == [("region", ("华东",))]
    assert east.semantic_query.filters == ()
    assert east.follow_up is not None and "share" in east.follow_up.inherited


@pytest.mark.parametrize("then", ["直播占比多少", "直播和网页各占多少"])
def test_a_share_of_members_after_their_breakdown_is_of_the_whole(session: Session, then: str) -> None:
    """ "各渠道的GMV" then "直播和网页各占多少": each one's share of all channels' GMV, as the same
    question asked alone reads — never of the named members' own sum."""
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV", as_of=JULY)
    answer = chat.ask(then)
    alone = session.ask(f"上个月{then.replace('占比多少', '的GMV占比多少').replace('各占', '的GMV各占')}", as_of=JULY)
    assert answer.status == alone.status == "answered", (answer.answer, alone.answer)
    assert answer.result is not None and alone.result is not None
    assert answer.result.rows == alone.result.rows
    ((total,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")
    names = [c.name for c in answer.result.columns]
    share = next(n for n in names if "share" in n)
    for row in answer.result.rows:
        part = float(str(row[names.index("gmv")]))
        assert float(str(row[names.index(share)])) == pytest.approx(part / float(str(total)), rel=1e-9)


def test_the_share_of_a_filtered_figure_is_its_members_share_of_the_whole(session: Session) -> None:
    """ "上个月新用户GMV" then "占总GMV的比例呢": new users' GMV over all GMV, as the same words
    in one question read it."""
    chat = session.conversation()
    chat.ask("上个月新用户GMV", as_of=JULY)
    share = chat.ask("占总GMV的比例呢")
    assert share.status == "answered" and share.semantic_query is not None, share.answer
    assert [(f.dimension, f.members) for f in share.semantic_query.share_filters] == [("user_type", ("new",))]
    assert share.semantic_query.filters == ()
    ((part,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND user_type = 'new'")
    ((whole,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")
    assert f"（占 {float(str(part)) / float(str(whole)) * 100:.2f}%）" in share.answer


@pytest.mark.parametrize(
    ("first", "reply", "expected"),
    [
        ("上个月华南各渠道的收入", "GMV", {"metrics": ["gmv"], "dimensions": ["channel"], "region": ["华南"]}),
        (
            "last month revenue in the south by channel",
            "GMV please",
            {"metrics": ["gmv"], "dimensions": ["channel"], "region": ["华南"]},
        ),
        ("双11 GMV", "当天", {"metrics": ["gmv"], "start": "2025-11-11", "end": "2025-11-11"}),
        ("双11华东的订单量", "整个活动期间", {"metrics": ["order_count"], "start": "2025-11-01", "region": ["华东"]}),
        ("GMV", "上个月", {"metrics": ["gmv"], "start": "2026-06-01", "end": "2026-06-30"}),
        ("上个月利润多少", "那GMV呢", {"metrics": ["gmv"], "start": "2026-06-01"}),
    ],
)
def test_a_reply_to_a_question_asked_back_completes_it(
    session: Session, first: str, reply: str, expected: dict[str, Any]
) -> None:
    """Replying "GMV" to "收入: GMV or net revenue?" answers the first question with GMV — its
    period, filter and breakdown kept — never asks for the period again."""
    chat = session.conversation()
    asked = chat.ask(first, as_of=JULY)
    assert asked.status in ("clarification_needed", "refused"), asked.answer
    answer = chat.ask(reply)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    query = answer.semantic_query
    assert list(query.metrics) == expected["metrics"]
    assert list(query.dimensions) == expected.get("dimensions", [])
    assert query.time_range.start.isoformat() == expected.get("start", query.time_range.start.isoformat())
    assert query.time_range.end.isoformat() == expected.get("end", query.time_range.end.isoformat())
    regions = [list(f.members) for f in query.filters if f.dimension == "region"]
    assert regions == ([expected["region"]] if "region" in expected else [])


@pytest.mark.parametrize(
    ("first", "again", "reply", "start", "end"),
    [
        ("上个月各渠道GMV", "去年呢", "同期", "2025-06-01", "2025-06-30"),
        ("上个月各渠道GMV", "去年呢", "全年吧", "2025-01-01", "2025-12-31"),
        (
            "refund rate by category in June",
            "what about last year",
            "same period, June last year",
            "2025-06-01",
            "2025-06-30",
        ),
        ("refund rate by category in June", "what about last year", "the whole year", "2025-01-01", "2025-12-31"),
    ],
)
def test_a_choice_between_the_year_and_its_same_period_is_taken_from_the_reply(
    session: Session, first: str, again: str, reply: str, start: str, end: str
) -> None:
    """ "去年呢" after June is asked back (the whole year, or June of it?); "同期" or "the whole
    year" answers it — the breakdown kept — never refused as a question of its own."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    assert chat.ask(again).status == "clarification_needed"
    answer = chat.ask(reply)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    query = answer.semantic_query
    assert (str(query.time_range.start), str(query.time_range.end)) == (start, end)
    assert len(query.dimensions) == 1


def test_the_extremes_of_a_kept_top_n_are_said_of_those_groups(session: Session) -> None:
    """ "各渠道GMV环比" then "前2": the two channels kept are said in their order, each with its change —
    never the largest rise of every channel (mini program rose more, outside the top 2). p70: the
    sentence named only the largest rise and fall among those kept, leaving the top one unsaid."""
    chat = session.conversation()
    chat.ask("上个月各渠道GMV环比", as_of=JULY)
    answer = chat.ask("前2")
    assert answer.status == "answered" and answer.semantic_query is not None and answer.result is not None
    assert answer.semantic_query.top_n == 2
    assert "成交总额最高的 2 个渠道" in answer.answer and "小程序" not in answer.answer
    labels = [session.catalog.member_label("channel", str(row[0]), "zh") for row in answer.result.rows]
    assert len(labels) == 2 and answer.answer.index(labels[0]) < answer.answer.index(labels[1])


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        (["收入环比", "GMV", "上个月"], {"metrics": ["gmv"], "comparison": "previous_period", "start": "2026-06-01"}),
        (["双11华东的收入", "GMV", "整个活动期间"], {"metrics": ["gmv"], "start": "2025-11-01", "region": ["华东"]}),
        (["华东收入前三的品类", "GMV，上个月"], {"metrics": ["gmv"], "top_n": 3, "region": ["华东"]}),
        (["revenue by region, bottom 2", "net revenue", "last month"], {"metrics": ["net_revenue"], "top_n": 2}),
    ],
)
def test_replies_complete_a_question_asked_back_twice(
    session: Session, turns: list[str], expected: dict[str, Any]
) -> None:
    """A completion that still lacks something is kept: the next reply completes it in turn,
    and the first question's comparison, filter and ranking survive both replies."""
    chat = session.conversation()
    answer = chat.ask(turns[0], as_of=JULY)
    for reply in turns[1:]:
        assert answer.status in ("clarification_needed", "refused"), answer.answer
        answer = chat.ask(reply)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    query = answer.semantic_query
    assert list(query.metrics) == expected["metrics"]
    assert query.time_range.start.isoformat() == expected.get("start", query.time_range.start.isoformat())
    assert query.top_n == expected.get("top_n")
    kind = query.comparison.kind if query.comparison is not None else None
    assert kind == expected.get("comparison")
    regions = [list(f.members) for f in query.filters if f.dimension == "region"]
    assert regions == ([expected["region"]] if "region" in expected else [])


def test_a_question_of_its_own_after_a_question_back_is_read_as_it_is(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月华南各渠道的收入", as_of=JULY)
    answer = chat.ask("去年各品类的订单量")
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    assert answer.semantic_query.dimensions == ("category",) and answer.semantic_query.filters == ()


@pytest.mark.parametrize("then", ["各占全国多少", "占比呢"])
def test_the_shares_of_members_shown_side_by_side_are_of_the_whole(session: Session, then: str) -> None:
    """ "上个月华东和华南GMV" then "各占全国多少": each region's share of all GMV, as
    "上个月华东和华南的GMV占比" reads it — never of the two regions' own sum."""
    chat = session.conversation()
    chat.ask("上个月华东和华南GMV", as_of=JULY)
    share = chat.ask(then)
    assert share.status == "answered" and share.semantic_query is not None, share.answer
    assert [(f.dimension, f.members) for f in share.semantic_query.share_filters] == [("region", ("华东", "华南"))]
    assert share.semantic_query.filters == ()
    ((whole,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")
    for region in ("华东", "华南"):
        ((part,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND region = '{region}'")
        assert (
            f"{region} ¥{float(str(part)):,.2f}（占 {float(str(part)) / float(str(whole)) * 100:.2f}%）" in share.answer
        )


@pytest.mark.parametrize(
    ("first", "then", "again"),
    [
        ("上个月各渠道转化率", "哪个最高", "那前一个月呢"),
        ("conversion rate by channel last month", "which was highest", "how about the month before"),
    ],
)
def test_the_one_before_asks_the_same_question_a_period_earlier(
    session: Session, first: str, then: str, again: str
) -> None:
    """ "which was highest" then "how about the month before": May's highest, ranked again in May —
    never June's winner compared with its own May."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    chat.ask(then)
    before = chat.ask(again)
    assert before.status == "answered" and before.semantic_query is not None, before.answer
    query = before.semantic_query
    assert (query.time_range.start, query.time_range.end) == (date(2026, 5, 1), date(2026, 5, 31))
    assert query.comparison is None and query.top_n == 1
    assert before.follow_up is not None and before.follow_up.changed == ("period",)


@pytest.mark.parametrize(
    ("first", "then", "start", "end"),
    [
        ("3月各渠道GMV", "下个月呢", date(2026, 4, 1), date(2026, 4, 30)),
        ("GMV by channel in Q1", "the next quarter?", date(2026, 4, 1), date(2026, 6, 30)),
    ],
)
def test_the_one_after_is_after_the_period_discussed(
    session: Session, first: str, then: str, start: date, end: date
) -> None:
    """ "3月GMV" then "下个月呢": April — never the month after today (which has no data)."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    after = chat.ask(then)
    assert after.status == "answered" and after.semantic_query is not None, after.answer
    query = after.semantic_query
    assert (query.time_range.start, query.time_range.end) == (start, end)
    assert query.dimensions == ("channel",)
    assert after.follow_up is not None and after.follow_up.changed == ("period",)


@pytest.mark.parametrize(
    ("first", "then", "months"),
    [
        ("上个月华南的GMV", ["再上个月呢", "再上个月呢"], [(5, 31), (4, 30)]),  # one more month back each time
        ("GMV in May", ["and the one before that", "and the one before that?"], [(4, 30), (3, 31)]),
    ],
)
def test_once_more_back_moves_from_the_period_discussed(
    session: Session, first: str, then: list[str], months: list[tuple[int, int]]
) -> None:
    """ "上个月" then "再上个月呢": May (the month before last), then April — never last month again;
    "and the one before that" the same in the unit of the period discussed."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    for question, (month, last) in zip(then, months, strict=True):
        answer = chat.ask(question)
        assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
        span = answer.semantic_query.time_range
        assert (span.start, span.end) == (date(2026, month, 1), date(2026, month, last))
        where = " AND region = '华南'" if "华南" in first else ""
        gold = _rows(
            session, f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN '{span.start}' AND '{span.end}'{where}"
        )
        assert _last_figure(answer) == gold


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("GMV in the last 7 days", ["what about the 7 days before that?", "and the 7 days before that?"]),
        ("最近7天华南的GMV", ["再往前7天呢", "再往前七天呢"]),
    ],
)
def test_the_days_before_a_run_of_days_move_it_back(session: Session, first: str, then: list[str]) -> None:
    """ "the last 7 days" then "the 7 days before that": June 17–23, then June 10–16 — the same run
    moved back (never a comparison with it); said of another length it is read on its own."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    for question, (start, end) in zip(then, [(17, 23), (10, 16)], strict=True):
        answer = chat.ask(question)
        assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
        span = answer.semantic_query.time_range
        assert (span.start, span.end) == (date(2026, 6, start), date(2026, 6, end))
        assert answer.semantic_query.comparison is None
        where = " AND region = '华南'" if "华南" in first else ""
        gold = _rows(
            session, f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN '{span.start}' AND '{span.end}'{where}"
        )
        assert _last_figure(answer) == gold


@pytest.mark.parametrize(
    ("first", "then", "members"),
    [
        ("5月家居日用的GMV", "和家用电器加起来多少", ("家居日用", "家用电器")),
        ("上个月华东的订单量", "跟华南一共多少", ("华东", "华南")),
    ],
)
def test_and_x_summed_adds_the_member_to_the_one_before(
    session: Session, first: str, then: str, members: tuple[str, str]
) -> None:
    """ "5月家居日用的GMV" then "和家用电器加起来多少": both categories' one total — never 家用电器 alone."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    summed = chat.ask(then)
    assert summed.status == "answered" and summed.semantic_query is not None, summed.answer
    (kept,) = summed.semantic_query.filters
    assert set(kept.members) == set(members) and not summed.semantic_query.dimensions
    column = kept.dimension
    metric = summed.semantic_query.metrics[0]
    value = GMV if metric == "gmv" else "COUNT(*) FILTER (WHERE status IN ('paid', 'refunded'))"
    span = summed.semantic_query.time_range
    gold = _rows(
        session,
        f"SELECT {value} FROM fact_order WHERE order_date BETWEEN '{span.start}' AND '{span.end}' "
        f"AND {column} IN {tuple(members)!r}",
    )
    assert _last_figure(summed) == gold


@pytest.mark.parametrize(
    "turns",
    [
        ["上个季度各渠道的取消率", "小程序比APP高多少", "所有渠道里哪个最高"],
        ["cancellation rate by channel last quarter", "how much higher is mini program than app",
         "which channel is highest across all channels"],
    ],
)  # fmt: skip
def test_all_of_a_dimension_ranks_every_member_after_two_were_compared(session: Session, turns: list[str]) -> None:
    """ "所有渠道里哪个最高" after two channels were set side by side: the highest of all four — never of
    the two kept from the turn before."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    top = chat.ask(turns[-1])
    assert top.status == "answered" and top.semantic_query is not None, top.answer
    assert not top.semantic_query.filters and top.semantic_query.top_n == 1
    rates = _rows(
        session,
        "SELECT channel, CAST(COUNT(*) FILTER (WHERE status = 'cancelled') AS DOUBLE) / COUNT(*) FROM fact_order "
        "WHERE order_date BETWEEN '2026-04-01' AND '2026-06-30' GROUP BY channel",
    )
    assert _answer_rows(top, "channel") == [(max(rates, key=lambda r: float(str(r[1])))[0],)]


def test_a_member_summed_back_in_after_it_was_left_out_lifts_the_exclusion(session: Session) -> None:
    """ "除华东外的GMV" then "和华东加起来多少": every region — never 华东 alone."""
    chat = session.conversation()
    chat.ask("上个月除华东外的GMV", as_of=JULY)
    every = chat.ask("和华东加起来多少")
    assert every.status == "answered" and every.semantic_query is not None, every.answer
    assert not every.semantic_query.filters and every.result is not None
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")
    assert _last_figure(every) == gold


@pytest.mark.parametrize(
    "turns",
    [
        ["top 3 regions by orders last month", "how many more orders did east china have than south china",
         "and the third one?"],
        ["上个月华东和华南订单量第三名"],
    ],
)  # fmt: skip
def test_a_place_past_the_members_kept_is_asked_back(session: Session, turns: list[str]) -> None:
    """The third of two regions kept has no row: asked back — never "no data matched" as an answer."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    asked = chat.ask(turns[-1], as_of=JULY)
    assert asked.status == "clarification_needed" and asked.error is not None
    assert asked.error.detail.get("reason") == "place_past_the_members"
    last = session.ask("上个月华东和华南订单量第二名", as_of=JULY)  # the last place kept is still answered
    assert last.status == "answered" and _answer_rows(last, "region") == [("华南",)], last.answer


@pytest.mark.parametrize(
    ("first", "then", "left_out"),
    [
        ("上个月华北的GMV", "how about the other regions", ("华北",)),
        ("上个月华北和华东的GMV", "其他区域呢", ("华北", "华东")),
    ],
)
def test_the_other_members_are_those_the_question_before_left_out(
    session: Session, first: str, then: str, left_out: tuple[str, ...]
) -> None:
    """ "华北的GMV" then "how about the other regions": each region but 华北 — never asked "other than what?"
    (still asked when nothing was kept: "各区域GMV" then "其他区域呢")."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    others = chat.ask(then)
    assert others.status == "answered" and others.semantic_query is not None, others.answer
    (kept,) = others.semantic_query.filters
    assert kept.exclude and set(kept.members) == set(left_out)
    gold = _rows(
        session,
        f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} AND region NOT IN ({', '.join(repr(m) for m in left_out)}) "
        "GROUP BY region",
    )
    assert _answer_rows(others, "region", "gmv") == gold
    combined = session.conversation()
    combined.ask(first, as_of=JULY)
    summed = combined.ask("其他区域一共多少")  # one figure of those left: never every region's total
    assert summed.status == "answered" and summed.semantic_query is not None, summed.answer
    assert not summed.semantic_query.dimensions and summed.semantic_query.filters == others.semantic_query.filters
    total = _rows(
        session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND region NOT IN ({', '.join(map(repr, left_out))})"
    )
    assert _last_figure(summed) == total
    chat = session.conversation()
    chat.ask("上个月各区域GMV", as_of=JULY)
    assert chat.ask("其他区域呢").status == "clarification_needed"


@pytest.mark.parametrize("then", ["and for all user types, not just new users", "所有用户类型，不只是新用户"])
def test_all_members_not_just_the_one_before_drops_its_filter(session: Session, then: str) -> None:
    """ "not just new users" names the scope left behind — never a filter on new users kept."""
    chat = session.conversation()
    chat.ask("上周新用户的GMV", as_of=JULY)
    every = chat.ask(then)
    assert every.status == "answered" and every.semantic_query is not None, every.answer
    assert not every.semantic_query.filters
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN '2026-06-22' AND '2026-06-28'")
    assert _last_figure(every) == gold


def test_a_whole_question_after_a_part_taken_away_stands_on_its_own(session: Session) -> None:
    """ "不看占比了，华南上个月GMV环比": the share dropped, then a question of its own — never "不看" asked back."""
    chat = session.conversation()
    chat.ask("上个月各区域GMV占比", as_of=JULY)
    plain = chat.ask("不看占比了，华南上个月GMV环比")
    assert plain.status == "answered" and plain.semantic_query is not None, plain.answer
    query = plain.semantic_query
    assert not query.share and query.comparison is not None and query.comparison.kind == "previous_period"
    assert [(f.dimension, f.members) for f in query.filters] == [("region", ("华南",))]


@pytest.mark.parametrize(
    "turns",
    [
        ["上个月华东的GMV", "华南呢", "两个加起来多少"],
        ["GMV in east china last month", "and south china?", "these two combined"],
    ],
)
def test_the_last_two_members_summed_are_one_total(session: Session, turns: list[str]) -> None:
    """ "华东的GMV", "华南呢", "两个加起来多少": both regions' one total; two periods summed so are asked
    back ("5月GMV", "6月呢", "两个加起来多少"), never one of them answered."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    summed = chat.ask(turns[-1])
    assert summed.status == "answered" and summed.result is not None, summed.answer
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND region IN ('华东', '华南')")
    assert _last_figure(summed) == gold
    periods = session.conversation()
    periods.ask("5月GMV", as_of=JULY)
    periods.ask("6月呢")
    assert periods.ask("两个加起来多少").status == "clarification_needed"


@pytest.mark.parametrize(
    ("then", "metric", "dimensions"),
    [
        ("ok conversion rate by channel then", "conversion_rate", ("channel",)),
        ("orders by region", "order_count", ("region",)),
        ("各渠道订单量呢", "order_count", ("channel",)),
    ],
)
def test_a_metric_and_its_breakdown_said_anew_replace_the_breakdown(
    session: Session, then: str, metric: str, dimensions: tuple[str, ...]
) -> None:
    """ "refund rate by category" then "orders by region": orders by region in the period kept — never
    by category and region (nor asked back because conversion has no category)."""
    chat = session.conversation()
    chat.ask("refund rate by category last quarter", as_of=JULY)
    anew = chat.ask(then)
    assert anew.status == "answered" and anew.semantic_query is not None, anew.answer
    assert (anew.semantic_query.metrics, anew.semantic_query.dimensions) == ((metric,), dimensions)
    assert (anew.semantic_query.time_range.start, anew.semantic_query.time_range.end) == (
        date(2026, 4, 1),
        date(2026, 6, 30),
    )


def test_a_place_by_the_second_metric_shown_ranks_by_it(session: Session) -> None:
    """After GMV and refund rate by channel, "退款率最低的那个" is the channel with the lowest refund
    rate (the rows were listed by GMV, the first metric): never the one lowest by GMV."""
    chat = session.conversation()
    chat.ask("上个月各渠道的GMV和退款率", as_of=JULY)
    lowest = chat.ask("退款率最低的那个订单量是多少")
    assert lowest.status == "answered", lowest.answer
    rates = _rows(
        session,
        "SELECT channel, CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
        f"WHERE {ORDERS} AND {JUNE} GROUP BY channel",
    )
    assert _answer_rows(lowest, "channel") == [(min(rates, key=lambda r: float(str(r[1])))[0],)]


def test_how_much_after_who_is_no_comparative(session: Session) -> None:
    """ "第二名是谁，占比多少": the 少 of 多少 closes no "谁…少" (who has less) — the second region's share."""
    chat = session.conversation()
    chat.ask("上个月各区域的GMV排名", as_of=JULY)
    second = chat.ask("第二名是谁，占比多少")
    assert second.status == "answered" and second.semantic_query is not None, second.answer
    assert second.semantic_query.share and second.semantic_query.rank_place == 2
    regions = _rows(session, f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} GROUP BY region")
    ranked = sorted(regions, key=lambda r: -float(str(r[1])))
    share = float(str(ranked[1][1])) / sum(float(str(r[1])) for r in regions) * 100
    assert f"{ranked[1][0]} ¥{float(str(ranked[1][1])):,.2f}（占 {share:.2f}%）" in second.answer


def test_a_metric_said_with_too_is_added_beside_the_previous_one(session: Session) -> None:
    """ "refund rate too", "再加上退款率": GMV and the refund rate; "再看订单量" moves on to orders."""
    for first, then, metrics in (
        ("GMV last month", "refund rate too", ("gmv", "refund_rate")),
        ("上个月各渠道GMV", "再加上退款率", ("gmv", "refund_rate")),
        ("上个月GMV", "再看订单量", ("order_count",)),
    ):
        chat = session.conversation()
        chat.ask(first, as_of=JULY)
        answer = chat.ask(then)
        assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
        assert answer.semantic_query.metrics == metrics


def test_members_of_a_share_breakdown_keep_the_whole_in_a_follow_up(session: Session) -> None:
    """ "各区域GMV占比" then "只看华东和华南": each of the national total, not of the two's sum."""
    chat = session.conversation()
    chat.ask("上个月各区域GMV占比", as_of=JULY)
    two = chat.ask("只看华东和华南")
    assert two.status == "answered", two.error
    national = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")[0][0]
    assert isinstance(national, float)
    expected = _rows(
        session,
        f"SELECT region, {GMV} / {national} FROM fact_order WHERE {JUNE} AND region IN ('华东', '华南') GROUP BY 1",
    )
    got = _answer_rows(two, "region", "gmv_share")
    assert [r for r, _ in got] == [r for r, _ in expected]
    assert all(g == pytest.approx(e, rel=1e-12) for (_, g), (_, e) in zip(got, expected, strict=True))


@pytest.mark.parametrize(
    ("first", "then"),
    [("上个月GMV最高的3个区域", "换成最低的"), ("top 3 regions by GMV last month", "what about the bottom ones")],
)
def test_the_other_end_keeps_the_count_of_the_ranking(session: Session, first: str, then: str) -> None:
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    bottom = chat.ask(then)
    assert bottom.status == "answered" and bottom.semantic_query is not None
    assert (bottom.semantic_query.top_n, bottom.semantic_query.order) == (3, "asc")
    lowest = _rows(session, f"SELECT region, {GMV} AS v FROM fact_order WHERE {JUNE} GROUP BY 1 ORDER BY v LIMIT 3")
    assert _answer_rows(bottom, "region", "gmv") == lowest


@pytest.mark.parametrize(
    ("turns", "where", "current", "before"),
    [
        (["gmv in june", "and may?", "what's the change?"], "", JUNE, "'2026-05-01' AND '2026-05-31'"),
        (["6月web的GMV", "4月呢", "变化多少"], "AND channel = 'web'", JUNE, "'2026-04-01' AND '2026-04-30'"),
        (
            ["orders from web in q1", "what about q2?", "growth?"],
            "AND channel = 'web'",
            "order_date BETWEEN '2026-04-01' AND '2026-06-30'",
            "'2026-01-01' AND '2026-03-31'",
        ),
    ],
)
def test_a_bare_change_after_two_periods_compares_those_two(
    session: Session, turns: list[str], where: str, current: str, before: str
) -> None:
    """ "gmv in june", "and may?", "what's the change?": June against May — the two periods just
    discussed, the later one current — never May against April."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask(turns[-1])
    query = last.semantic_query
    assert last.status == "answered" and query is not None and query.comparison is not None, last.answer
    metric = query.metrics[0]
    value = GMV if metric == "gmv" else f"COUNT(*) FILTER (WHERE {ORDERS})"
    now = _rows(session, f"SELECT {value} FROM fact_order WHERE {current} {where}")
    then = _rows(session, f"SELECT {value} FROM fact_order WHERE order_date BETWEEN {before} {where}")
    assert _answer_rows(last, metric, f"{metric}_previous") == [(now[0][0], then[0][0])]


@pytest.mark.parametrize(
    ("turns", "rank_by", "order", "top_n"),
    [
        (["上个月各品类GMV同比", "增长最多的是哪个"], "change", "desc", 1),
        (["上个月GMV环比", "按区域拆开看", "降幅最大的是哪个"], "change_pct", "asc", 1),
        (["上个月哪个区域GMV环比降幅最大", "那前3呢"], "change_pct", "asc", 3),  # still by the change
    ],
)
def test_a_follow_up_ranks_the_groups_by_their_change(
    session: Session, turns: list[str], rank_by: str, order: str, top_n: int
) -> None:
    """ "增长最多的是哪个" after a comparison by group: the group whose change ranks first, checked
    against independent SQL (the year before for 同比, May for 环比)."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask(turns[-1])
    query = last.semantic_query
    assert last.status == "answered" and query is not None and query.comparison is not None, last.answer
    assert (query.rank_by, query.order, query.top_n) == (rank_by, order, top_n)
    dim = query.dimensions[0]
    before = query.comparison.range
    measure = "c - p" if rank_by == "change" else "(c - p) / p"
    gold = _rows(
        session,
        f"SELECT {dim}, c, c - p FROM (SELECT {dim}, {GMV.replace('WHERE ', f'WHERE {JUNE} AND ')} AS c, "
        f"{GMV.replace('WHERE ', f'WHERE order_date BETWEEN DATE {before.start.isoformat()!r} AND DATE {before.end.isoformat()!r} AND ')} AS p "
        f"FROM fact_order GROUP BY 1) ORDER BY {measure} {order.upper()} LIMIT {top_n}",
    )
    assert _answer_rows(last, dim, "gmv", "gmv_change") == gold
    for member, *_ in gold:
        assert f"{session.catalog.member_label(dim, member, 'zh')}（" in last.answer


def test_and_in_second_place_is_the_next_place_of_the_ranking(session: Session) -> None:
    """ "which category had the highest GMV" then "and in second place?": the second highest — the
    "and in" a frame of the follow-up, "second place" the place."""
    chat = session.conversation()
    assert chat.ask("which category had the highest GMV last month", as_of=JULY).status == "answered"
    second = chat.ask("and in second place?")
    assert second.status == "answered" and second.semantic_query is not None, second.answer
    assert second.semantic_query.rank_place == 2 and second.semantic_query.dimensions == ("category",)
    ranked = _rows(session, f"SELECT category, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1")
    name, value = sorted(ranked, key=lambda r: -float(r[1]))[1]  # type: ignore[arg-type]
    assert _answer_rows(second, "category", "gmv") == [(name, pytest.approx(value))]


@pytest.mark.parametrize(
    ("turns", "member", "gold"),
    [
        (  # the third of the three listed, by the previous metric; its orders
            ["去年12月各品类的笔单价", "前三名", "第三名的订单量呢"],
            "服饰鞋包",
            f"SELECT COUNT(*) FROM fact_order WHERE {ORDERS} AND order_date BETWEEN DATE '2025-12-01' "
            "AND DATE '2025-12-31' AND category = '服饰鞋包'",
        ),
        (  # "第二个的…", "for the second one": the second row listed, in the listing's own order
            ["上个月GMV前三的品类", "第二个的退款率呢"],
            "家用电器",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND category = '家用电器'",
        ),
        (
            ["top 3 categories by GMV last month", "what's the refund rate for the second one?"],
            "home appliances",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND category = '家用电器'",
        ),
        (  # a place among every group listed, by its value (the table lists them by name)
            ["上个月各渠道的GMV", "排第一的那个渠道退款率多少"],
            "APP",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND channel = 'app'",
        ),
        (
            ["orders by category last month", "the bottom one's gmv?"],
            "home appliances",
            f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND category = '家用电器'",
        ),
        (  # "the one with the …": that row, its "one" the pointer
            ["GMV by channel last month", "the one with the most GMV, how many orders?"],
            "app",
            f"SELECT COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND channel = 'app'",
        ),
        (  # the other order: the metric after "the lowest" places the row, never a ranking by refund rate
            ["GMV by channel last month", "what is the refund rate of the one that had the least GMV"],
            "live stream",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND channel = 'live_stream'",
        ),
        (
            ["上个月各渠道GMV", "退款率呢，GMV最低的那个"],
            "直播",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND channel = 'live_stream'",
        ),
        (
            ["GMV by channel last month", "the one that had the lowest GMV, refund rate?"],
            "live stream",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND {JUNE} AND channel = 'live_stream'",
        ),
        (  # the same metric in another period: that row, never the highest of the week before
            ["上周各品类退款率", "最高的那个品类上上周是多少"],
            "家用电器",
            f"SELECT CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FROM fact_order "
            f"WHERE {ORDERS} AND order_date BETWEEN DATE '2026-06-15' AND DATE '2026-06-21' AND category = '家用电器'",
        ),
    ],
)
def test_a_place_names_the_row_the_previous_answer_placed_so(
    session: Session, turns: list[str], member: str, gold: str
) -> None:
    chat = session.conversation()
    asked: set[str] = set()
    for question in turns[:-1]:
        before = chat.ask(question, as_of=JULY)
        assert before.status == "answered" and before.semantic_query is not None
        asked = set(before.semantic_query.metrics)
    last = chat.ask(turns[-1])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    assert last.interpretation is not None and member in last.interpretation
    new = [m for m in last.semantic_query.metrics if m not in asked] or list(last.semantic_query.metrics)
    assert last.result is not None
    column = [c.name for c in last.result.columns].index(new[-1])  # the figure asked of the row
    assert [(float(last.result.rows[0][column]),)] == _rows(session, gold)


@pytest.mark.parametrize(
    ("turns", "order"),
    [
        (["visitors by channel last month", "which one converts best?"], "desc"),
        (["visitors by channel last month", "which one converts worst?"], "asc"),
        (["GMV by region last month", "which one's orders are highest?"], "desc"),
    ],
)
def test_a_ranking_word_after_a_metric_named_anew_ranks_by_it(session: Session, turns: list[str], order: str) -> None:
    """ "visitors by channel" then "which one converts best?": the channel with the best conversion
    rate — never the top channel by visitors, and its conversion rate (it answered app, whose
    visitors were highest, when live stream converts best)."""
    chat = session.conversation()
    assert chat.ask(turns[0], as_of=JULY).status == "answered"
    last = chat.ask(turns[1])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert query.top_n == 1 and query.order == order and query.metrics != ("visitors",) and not query.filters


@pytest.mark.parametrize(
    ("turns", "kind", "against"),
    [
        (["what was GMV on the best day of the 618 sale?", "that day by channel, vs the same day last year"],
         "same_period_last_year", (date(2025, 6, 18), date(2025, 6, 18))),
        (["今年哪个月GMV最低", "那个月各渠道的GMV环比"], "previous_period", (date(2026, 1, 1), date(2026, 1, 31))),
    ],
)  # fmt: skip
def test_a_comparison_said_with_a_pointed_period_compares_that_period(
    session: Session, turns: list[str], kind: str, against: tuple[date, date]
) -> None:
    chat = session.conversation()
    assert chat.ask(turns[0], as_of=JULY).status == "answered"
    last = chat.ask(turns[1])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    comparison = last.semantic_query.comparison
    assert comparison is not None and comparison.kind == kind
    assert (comparison.range.start, comparison.range.end) == against


@pytest.mark.parametrize(
    "then", ["break that day down by channel", "that day broken down by channel", "那天按渠道拆开"]
)
def test_the_day_pointed_at_broken_down_is_that_day_by_the_dimension(session: Session, then: str) -> None:
    chat = session.conversation()
    assert chat.ask("上个月GMV最高的是哪一天", as_of=JULY).status == "answered"
    last = chat.ask(then)
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert query.dimensions == ("channel",) and query.grain is None
    assert (query.time_range.start, query.time_range.end) == (date(2026, 6, 18), date(2026, 6, 18))


def test_a_pointer_beside_a_period_is_still_a_follow_up(session: Session) -> None:
    """ "top 2 channels" then "their AOV in May": the two channels in May, never every channel."""
    chat = session.conversation()
    assert chat.ask("top 2 channels by GMV last month", as_of=JULY).status == "answered"
    last = chat.ask("their AOV in May")
    assert last.status == "answered" and last.semantic_query is not None
    assert [f.members for f in last.semantic_query.filters] == [("app", "web")]


def test_a_reply_naming_the_day_keeps_the_rest_of_the_turn_asked_back(session: Session) -> None:
    chat = session.conversation()
    assert chat.ask("GMV by channel last month", as_of=JULY).status == "answered"
    assert chat.ask("what about orders last Monday?").status == "clarification_needed"
    last = chat.ask("2026-06-22")
    assert last.status == "answered" and last.semantic_query is not None
    assert last.semantic_query.metrics == ("order_count",)
    assert last.semantic_query.time_range.start == last.semantic_query.time_range.end == date(2026, 6, 22)


def test_one_of_the_ranked_groups_broken_down_is_no_longer_ranked(session: Session) -> None:
    chat = session.conversation()
    assert chat.ask("上个月退款率最高的两个品类", as_of=JULY).status == "answered"
    last = chat.ask("家用电器按渠道看看")
    assert last.status == "answered" and last.semantic_query is not None
    assert last.semantic_query.top_n is None and last.result is not None and len(last.result.rows) == 4


def _last(session: Session, turns: list[str]) -> Answer:
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered", question
    return chat.ask(turns[-1])


@pytest.mark.parametrize(
    "turns",
    [
        ["上个月GMV最高的两个区域", "这两个区域和西南的订单量呢"],  # the two, and one more?
        ["上个月GMV最高的两个区域", "这两个渠道的订单量"],  # regions were listed, not channels
    ],
)
def test_a_pointer_beside_words_that_do_not_fit_it_is_asked_back(session: Session, turns: list[str]) -> None:
    assert _last(session, turns).status == "clarification_needed"


@pytest.mark.parametrize(
    ("turns", "member"),
    [
        (["上个月GMV最高的渠道", "那个小程序呢"], "mini_program"),
        (["上个月GMV最高的渠道", "直播这个渠道呢"], "live_stream"),
    ],
)
def test_a_member_named_beside_a_singular_pointer_is_that_member(
    session: Session, turns: list[str], member: str
) -> None:
    last = _last(session, turns)  # never the top channel the previous answer listed, nor a ranking of one
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    assert [f.members for f in last.semantic_query.filters if f.dimension == "channel"] == [(member,)]
    assert last.semantic_query.top_n is None and last.semantic_query.dimensions == ()


def test_a_pointer_at_listed_periods_that_follow_one_another_is_each_of_them(session: Session) -> None:
    """ "今年GMV最高的两个月" then "这两个月的订单量呢": those months' orders, month by month — or,
    were they apart, asked back (one span would hold the months between)."""
    chat = session.conversation()
    first = chat.ask("今年GMV最高的两个月", as_of=JULY)
    months = sorted(str(m) for (m,) in _answer_rows(first, "period"))
    last = chat.ask("这两个月的订单量呢")
    start, end = date.fromisoformat(months[0][:10]), date.fromisoformat(months[1][:10])
    if (end.year * 12 + end.month) - (start.year * 12 + start.month) != 1:
        assert last.status == "clarification_needed" and months[0][:10] in last.answer
        return
    assert last.status == "answered" and last.semantic_query is not None and last.semantic_query.top_n is None
    expected = _rows(
        session,
        f"SELECT CAST(date_trunc('month', order_date) AS DATE), CAST(COUNT(*) AS DOUBLE) FROM fact_order "
        f"WHERE {ORDERS} AND order_date >= DATE '{months[0][:10]}' AND order_date < DATE '{months[1][:10]}' "
        "+ INTERVAL 1 MONTH GROUP BY 1",
    )
    assert [(str(p)[:10], float(str(v))) for p, v in _answer_rows(last, "period", "order_count")] == [
        (str(p), v) for p, v in expected
    ]


@pytest.mark.parametrize(
    ("turns", "start", "compared"),
    [
        (["6月的GMV对比5月", "这两个月各渠道的订单量呢"], date(2026, 6, 1), date(2026, 5, 1)),
        (["4月和5月的GMV加起来是多少", "这两个月各渠道的订单量呢"], date(2026, 4, 1), None),
    ],
)
def test_a_pointer_at_the_periods_the_question_held_keeps_them(
    session: Session, turns: list[str], start: date, compared: date | None
) -> None:
    """ "6月对比5月" then "这两个月各渠道的订单量呢": the two months the question held, by channel."""
    last = _last(session, turns)
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert query.time_range.start == start and query.dimensions == ("channel",)
    assert (query.comparison.range.start if query.comparison else None) == compared


@pytest.mark.parametrize(
    "turns",
    [
        ["上个月各渠道的GMV", "这两周各渠道的订单量呢"],
        ["gmv by channel last month", "what about orders in those two weeks"],
        ["今年各渠道的GMV", "那几个月的订单量呢"],
    ],
)
def test_a_pointer_at_periods_after_an_answer_that_listed_none_is_asked_back(
    session: Session, turns: list[str]
) -> None:
    """Never the previous period silently: no weeks (days, months) were listed to point at."""
    assert _last(session, turns).status == "clarification_needed"


@pytest.mark.parametrize(
    "turns",
    [
        ["weekly orders in the last 8 weeks", "which weeks saw orders decline week over week"],
        ["近8周每周的订单量", "哪几周环比下降了"],
    ],
)
def test_which_periods_moved_after_a_series_are_of_that_series(session: Session, turns: list[str]) -> None:
    """Each of the 8 weeks against the week before it, those that fell named — never last week alone."""
    last = _last(session, turns)
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert (query.time_range.start, query.time_range.end) == (date(2026, 5, 4), date(2026, 6, 28))
    assert query.grain == "week" and query.premise == "down" and query.premise_asked == "which"


def test_rank_them_from_lowest_ranks_every_group(session: Session) -> None:
    """ "rank them from lowest": every region, lowest first — never the bottom one alone."""
    last = _last(session, ["how many buyers did we have in each region in March", "rank them from lowest"])
    assert last.status == "answered" and last.semantic_query is not None and last.result is not None, last.answer
    assert last.semantic_query.top_n is None and len(last.result.rows) == 7
    names = [c.name for c in last.result.columns]
    values = [float(row[names.index("buyer_count")]) for row in last.result.rows]
    assert values == sorted(values)


def test_a_pointer_at_listed_weeks_apart_is_asked_back_naming_them(session: Session) -> None:
    last = _last(session, ["which two weeks this year had the highest gmv", "orders in those weeks by channel"])
    assert last.status == "clarification_needed" and "those weeks" in last.answer


def test_a_day_said_with_that_day_is_the_day_said(session: Session) -> None:
    last = _last(session, ["上个月哪天GMV最高", "6月1日那天各渠道的GMV呢"])
    if last.status == "answered":
        assert last.semantic_query is not None and last.semantic_query.time_range.start == date(2026, 6, 1)
    else:
        assert last.status == "clarification_needed"


def test_the_share_of_the_rows_pointed_at_is_of_the_whole(session: Session) -> None:
    last = _last(session, ["上个月GMV最高的两个区域", "这两个区域的GMV占比"])
    assert last.status == "answered" and last.result is not None
    whole = float(str(_rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE}")[0][0]))
    parts = _rows(
        session, f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} AND region IN ('华东', '华南') GROUP BY 1"
    )
    expected = [(region, pytest.approx(float(str(value)) / whole)) for region, value in parts]
    assert _answer_rows(last, "region", "gmv_share") == expected


def test_a_reply_to_a_question_asked_of_a_pointer_keeps_the_rows(session: Session) -> None:
    chat = session.conversation()
    assert chat.ask("上个月订单量最高的两个品类", as_of=JULY).status == "answered"
    assert chat.ask("这两个品类的收入呢").status == "clarification_needed"  # 收入: GMV or net revenue?
    last = chat.ask("净销售额")
    assert last.status == "answered" and last.semantic_query is not None
    assert last.semantic_query.metrics == ("net_revenue",)
    assert [f.members for f in last.semantic_query.filters] == [("服饰鞋包", "美妆个护")]


@pytest.mark.parametrize(
    ("turns", "period", "compared"),
    [
        (["今年哪周GMV最高", "前一周呢"], (date(2026, 6, 8), date(2026, 6, 14)), None),
        # the week before the one that fell most week on week: still against its own week before
        (["近12周GMV环比下降最多的是哪周", "前一周呢"], (date(2026, 6, 15), date(2026, 6, 21)),
         (date(2026, 6, 8), date(2026, 6, 14))),
    ],
)  # fmt: skip
def test_the_one_before_the_period_listed_keeps_its_comparison(
    session: Session, turns: list[str], period: tuple[date, date], compared: tuple[date, date] | None
) -> None:
    last = _last(session, turns)
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert (query.time_range.start, query.time_range.end) == period
    got = (query.comparison.range.start, query.comparison.range.end) if query.comparison is not None else None
    assert got == compared


def test_a_rate_after_shares_of_the_rows_pointed_at_is_of_those_rows(session: Session) -> None:
    """ "前两名占比多少" then "它们的退款率和去年618比呢" → "2025-06-01~2025-06-18" (the span offered): the two
    categories' refund rates against last year's 618 — the shares go (a rate has none), the rows stay."""
    chat = session.conversation()
    for question in ("618期间各品类的GMV排名", "前两名占比多少"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    assert chat.ask("它们的退款率和去年618比呢").status == "clarification_needed"  # the day or the whole sale?
    last = chat.ask("2025-06-01~2025-06-18")
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert query.metrics == ("refund_rate",) and not query.share
    assert [f.members for f in query.filters] == [("手机数码", "家用电器")]
    assert query.comparison is not None and query.comparison.range.start == date(2025, 6, 1)


def test_a_member_and_another_breakdown_as_shares_is_never_the_members_share(session: Session) -> None:
    """ "各区域的订单量" then "那华东各渠道的订单量占比": East China's channel mix — never East China's share."""
    last = _last(session, ["上个月各区域的订单量", "那华东各渠道的订单量占比"])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    assert last.semantic_query.dimensions == ("channel",) and not last.semantic_query.share_filters
    expected = _rows(
        session,
        "SELECT channel, COUNT(*) * 1.0 / SUM(COUNT(*)) OVER () FROM fact_order "
        f"WHERE {ORDERS} AND {JUNE} AND region = '华东' GROUP BY channel",
    )
    shares = [c.name for c in (last.result.columns if last.result else []) if c.name.endswith("share")]
    got = _answer_rows(last, "channel", shares[0])
    assert [k for k, _ in got] == [k for k, _ in expected]
    assert all(abs(float(str(a)) - float(str(b))) < 1e-9 for (_, a), (_, b) in zip(got, expected, strict=True))


def test_a_breakdown_against_a_named_period_compares_the_groups(session: Session) -> None:
    last = _last(session, ["buyers in the first week of June", "by user type, vs the first week of May"])
    assert last.status == "answered" and last.semantic_query is not None
    assert last.semantic_query.time_range.start == date(2026, 6, 1)
    assert last.semantic_query.comparison is not None
    assert last.semantic_query.comparison.range.start == date(2026, 5, 1)


def test_them_points_at_the_rows_listed(session: Session) -> None:
    last = _last(session, ["top 3 categories by gmv last month", "orders for them?"])
    assert last.status == "answered" and last.semantic_query is not None
    assert [f.members for f in last.semantic_query.filters] == [("手机数码", "家用电器", "服饰鞋包")]


def test_plus_before_a_metric_adds_it(session: Session) -> None:
    last = _last(session, ["gmv by channel last month", "show orders too, plus refund rate"])
    assert last.status == "answered" and last.semantic_query is not None
    assert last.semantic_query.metrics == ("gmv", "order_count", "refund_rate")


def test_a_place_tied_with_its_neighbour_is_asked_back(session: Session) -> None:
    chat = session.conversation()
    assert chat.ask("上个月各渠道的GMV", as_of=JULY).status == "answered"
    assert chat.ask("第五名的订单量呢").status == "clarification_needed"  # four were listed


@pytest.mark.parametrize(
    ("turns", "read_as", "gold"),
    [
        (  # the two regions listed, each one's orders: never the top two by orders
            ["上个月GMV最高的两个区域", "这两个区域的订单量呢"],
            "华东、华南",
            f"SELECT region, COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND region IN ('华东', '华南') GROUP BY 1",
        ),
        (
            ["top 3 regions by gmv last month", "their orders?"],
            "East China, South China, North China",
            f"SELECT region, COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND region IN ('华东', '华南', '华北') "
            "GROUP BY 1",
        ),
        (
            ["上个月GMV最高的渠道", "它的订单量呢"],
            "APP",
            f"SELECT COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND channel = 'app'",
        ),
        (  # a pronoun and only a new period: those rows then, never the ranking run again
            ["上周订单量最高的两个区域", "它们上个月的呢"],
            "华东、华南",
            f"SELECT region, COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND region IN ('华东', '华南') GROUP BY 1",
        ),
        (
            ["上周GMV最低的渠道", "它上个月的呢"],
            "直播",
            f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND channel = 'live_stream'",
        ),
        (
            ["which region had the lowest gmv last week", "and it last month?"],
            "Northeast China",
            f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND region = '东北'",
        ),
        (  # the one day listed, by channel
            ["上个月哪天GMV最高", "那天各渠道的GMV"],
            "2026-06-18",
            f"SELECT channel, {GMV} FROM fact_order WHERE order_date = DATE '2026-06-18' GROUP BY 1",
        ),
        (
            ["which week this year had the highest gmv", "that week's orders by region"],
            "2026-06-15 to 2026-06-21",
            f"SELECT region, COUNT(*) FROM fact_order WHERE {ORDERS} AND order_date BETWEEN DATE '2026-06-15' "
            "AND DATE '2026-06-21' GROUP BY 1",
        ),
    ],
)
def test_a_pointer_names_the_rows_the_previous_answer_listed(
    session: Session, turns: list[str], read_as: str, gold: str
) -> None:
    chat = session.conversation()
    first = chat.ask(turns[0], as_of=JULY)
    assert first.status == "answered"
    last = chat.ask(turns[1])
    assert last.status == "answered", last.answer
    assert last.interpretation is not None and read_as in last.interpretation
    assert last.result is not None
    values = [tuple(r[-1:]) if len(r) == 1 else tuple(r) for r in last.result.rows]
    assert sorted(tuple(float(v) if isinstance(v, (int, float)) else v for v in row) for row in values) == _rows(
        session, gold
    )


def test_a_period_given_after_a_series_was_asked_back_keeps_what_was_asked(session: Session) -> None:
    """ "环比呢" is asked back (part weeks); the period given next completes it: never a plain series."""
    chat = session.conversation()
    assert chat.ask("今年每周的订单量", as_of=JULY).status == "answered"
    assert chat.ask("环比呢").status == "clarification_needed"
    last = chat.ask("那就看最近8周")
    assert last.status == "answered", last.answer
    query = last.semantic_query
    assert query is not None and query.grain == "week" and query.each_period_before
    assert (query.time_range.start, query.time_range.end) == (date(2026, 5, 4), date(2026, 6, 28))
    first = session.conversation()  # asked back on the first turn: the period replaces the one it named
    assert first.ask("今年每周的订单量环比", as_of=JULY).status == "clarification_needed"
    replied = first.ask("那就看最近8周")
    assert replied.status == "answered" and replied.semantic_query is not None, replied.answer
    assert replied.semantic_query.each_period_before and replied.semantic_query.metrics == ("order_count",)


def test_two_members_joined_by_plus_in_a_follow_up_are_their_total(session: Session) -> None:
    chat = session.conversation()
    for question in ("web orders last month", "same for app"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask("app plus web?")
    assert last.status == "answered" and last.semantic_query is not None and not last.semantic_query.dimensions
    gold = _rows(session, f"SELECT COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND channel IN ('app', 'web')")
    assert last.result is not None and [tuple(last.result.rows[0][-1:])] == gold


def test_the_whole_of_a_period_keeps_the_filter(session: Session) -> None:
    chat = session.conversation()
    for question in ("net revenue by month this year", "only East China"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask("the whole of last year")
    assert last.status == "answered" and last.semantic_query is not None
    assert [f.members for f in last.semantic_query.filters] == [("华东",)]
    assert last.semantic_query.time_range.start == date(2025, 1, 1)


@pytest.mark.parametrize(
    ("turns", "period"),
    [
        # the one before the week the ranking listed: its own figure
        (["weekly GMV for the last 8 weeks", "which week was the lowest?", "what about the week before it?"],
         (date(2026, 6, 15), date(2026, 6, 21))),
        (["最近8周每周的GMV", "最低的是哪周", "那前一周呢"], (date(2026, 6, 15), date(2026, 6, 21))),
        # several weeks and none listed alone: before which one?
        (["最近8周每周的GMV", "那前一周呢"], None),
        (["1-2月GMV", "前一个月呢"], None),
        # two months compared, then one further back: April, never May shown again
        (["6月和5月的GMV对比", "那再往前一个月呢？"], (date(2026, 4, 1), date(2026, 4, 30))),
        (["GMV in June vs May", "and the month before?"], (date(2026, 4, 1), date(2026, 4, 30))),
    ],
)  # fmt: skip
def test_the_one_before_is_of_one_period(session: Session, turns: list[str], period: tuple[date, date] | None) -> None:
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask(turns[-1])
    if period is None:
        assert last.status == "clarification_needed", last.answer
        return
    assert last.status == "answered" and last.semantic_query is not None
    assert (last.semantic_query.time_range.start, last.semantic_query.time_range.end) == period
    assert last.semantic_query.grain is None and last.semantic_query.top_n is None
    gold = _rows(
        session, f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN DATE '{period[0]}' AND DATE '{period[1]}'"
    )
    assert last.result is not None and [tuple(last.result.rows[0][-1:])] == gold


@pytest.mark.parametrize(
    ("turns", "reason"),
    [
        (["今年每月各渠道GMV占比", "环比呢"], "share_and_comparison"),  # each month's shares against the month before
        (["今年每月各渠道GMV占比", "同比呢"], "share_and_comparison"),
        (["上个月各品类GMV同比", "变化最大的是哪个"], "rank_by_change"),
        (["上个月GMV环比", "按区域拆开看", "涨得最少的是哪个"], "rank_by_change"),
        (["what share of gmv came from new users in may", "by channel"], "share_within_or_across"),
        (["gmv by channel in may", "what about new users"], "metric_or_member"),
        (["上个月各区域的GMV", "差多少"], "gap_in_one_question"),  # seven shown: the gap of which two?
        (["上个月GMV最高的3个渠道", "它的订单量呢"], "pointer_not_placed"),  # which of the three?
        (["上个月GMV最高的两个区域", "这三个区域的订单量呢"], "pointer_not_placed"),
        (["上个月各区域的GMV", "这两个区域的订单量呢"], "pointer_not_placed"),  # seven were listed
        (["上个月GMV最高的3天", "那天各渠道的GMV"], "pointer_not_placed"),
        # the top two's combined share: not built, never the top two of a remembered breakdown
        (["上个月各品类GMV占比", "前两名加起来占多少"], "total_of_ranked_zh"),
        (["上个月GMV最高的区域", "老客占比呢"], "share_part_after_breakdown"),
        (["上个月各渠道订单量", "新客占比呢"], "share_part_after_breakdown"),
        (["last month top 2 categories by GMV", "what share is from app?"], "share_within_or_across"),
        (["top 2 categories by gmv last month", "what's their total"], "total_of_ranked"),
        (["今年上半年的GMV", "下半年呢"], "half_not_begun"),
        (["上个月退款率超过5%的品类有哪些", "那订单量呢"], "bound_in_one_question"),
        (["上个月各渠道GMV", "那订单量超过10000的呢"], "bound_in_one_question"),
        (["上个月GMV环比增长最快的渠道", "第二名呢"], "place_by_change"),
        (["6月GMV对比4月", "那5月呢"], "which_side_replaced"),
        (["上个月各区域GMV占比", "华东比华南高多少"], "gap_per_group"),  # the two are the share's parts
        (["上个月GMV超过1000万的区域", "按渠道拆开看"], "bound_in_one_question"),  # the regions' bound, or the cells'?
        (["上个月各区域各渠道GMV", "那订单量超过10000的渠道呢"], "threshold_of_which_groups"),
        (["今年每个月的GMV", "日均呢"], "average_series"),  # each month's daily average: not built
        (["refund rate last quarter", "is that higher than appliances?"], "gap_in_one_question_en"),
        (["GMV last month", "how did it do the week before?"], "window_mismatch"),  # never May against June
    ],
)
def test_a_follow_up_that_would_answer_another_question_is_asked_back(
    session: Session, turns: list[str], reason: str
) -> None:
    """Ranked by the value instead of the change, a part across a breakdown it was never
    checked against, the metric "new users" instead of the filter: each is asked back."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask(turns[-1])
    assert last.status == "clarification_needed" and last.error is not None, last.answer
    message = {
        "rank_by_change": "说明是降得最多还是涨得最多",
        "share_within_or_across": "inside each group",
        "metric_or_member": "both a metric",
        "gap_in_one_question": "在一个问题里",
        "gap_in_one_question_en": "in one question",
        "pointer_after_ranking": "指上一问列出的结果",
        "pointer_not_placed": "无法对应",
        "share_and_comparison": "按时间序列逐期对比",
        "share_part_after_breakdown": "每组内的占比",
        "pointer_after_ranking_en": "points at the rows",
        "total_of_ranked": "top 2",
        "total_of_ranked_zh": "前 2 名的合计",
        "half_not_begun": "2025-07-01 至 2025-12-31",
        "bound_in_one_question": "一个问题里",
        "place_by_change": "按变化排的第 2 名",
        "which_side_replaced": "替换的是所问的期间，还是对比的期间",
        "gap_per_group": "只在一个时间段、不再拆分时计算",
        "threshold_of_which_groups": "每个区域 × 渠道组合",
        "average_series": "暂不支持按月的日均序列",
        "window_mismatch": "not as long as",
    }[reason]
    assert message in last.error.message


@pytest.mark.parametrize("follow_up", ["除了app呢", "what about excluding app?", "不含app的呢"])
def test_all_but_the_one_member_asked_is_the_rest(session: Session, follow_up: str) -> None:
    """ "上个月app的GMV" then "除了app呢": every channel but app (a verb taking app away, "去掉app",
    may take away the filter instead: asked back, see above)."""
    chat = session.conversation()
    assert chat.ask("上个月app的GMV", as_of=JULY).status == "answered"
    rest = chat.ask(follow_up)
    assert rest.status == "answered" and rest.semantic_query is not None, rest.answer
    assert [(f.dimension, f.members, f.exclude) for f in rest.semantic_query.filters] == [("channel", ("app",), True)]
    sql = f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND channel <> 'app'"
    assert _last_figure(rest) == [(pytest.approx(float(_rows(session, sql)[0][0])),)]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("follow_up", "where"), [("除了华南，按区域拆开看", " AND region <> '华南'"), ("不限华南了，按区域都列出来", "")]
)
def test_a_member_taken_out_then_a_breakdown_keeps_the_other_filter(
    session: Session, follow_up: str, where: str
) -> None:
    """ "上个月华南手机数码的GMV" then "除了华南，按区域拆开看": every region but 华南, each, still of
    手机数码 (never 华南's figure again with the breakdown dropped); "不限华南了": every region."""
    chat = session.conversation()
    assert chat.ask("上个月华南手机数码的GMV", as_of=JULY).status == "answered"
    split = chat.ask(follow_up)
    assert split.status == "answered" and split.semantic_query is not None, split.answer
    assert split.semantic_query.dimensions == ("region",)
    sql = f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} AND category = '手机数码'{where} GROUP BY 1"
    want = [(r, pytest.approx(v)) for r, v in _rows(session, sql)]
    assert _answer_rows(split, "region", "gmv") == want


def test_filters_taken_away_and_a_share_asked_anew(session: Session) -> None:
    """ "不限华南和华东了" takes the whole list's filter away (every region, each); "show me share of
    GMV by channel" after another metric is GMV's shares, never that metric over GMV."""
    chat = session.conversation()
    assert chat.ask("上个月华南和华东的GMV", as_of=JULY).status == "answered"
    every = chat.ask("不限华南和华东了，按区域列出来")
    assert every.status == "answered" and every.semantic_query is not None, every.answer
    assert every.semantic_query.filters == () and every.semantic_query.dimensions == ("region",)
    want = [
        (r, pytest.approx(v))
        for r, v in _rows(session, f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1")
    ]
    assert _answer_rows(every, "region", "gmv") == want
    other = session.conversation()
    assert other.ask("discount amount last month", as_of=JULY).status == "answered"
    shares = other.ask("show me share of GMV by channel")
    assert shares.status == "answered" and shares.semantic_query is not None, shares.answer
    assert shares.semantic_query.metrics == ("gmv",) and shares.semantic_query.share


def test_a_comparison_after_shares_compares_the_shares(session: Session) -> None:
    """ "上个月各品类GMV占比" then "同比呢": each category's share of June 2026's whole against its
    share of June 2025's (never last year's shares alone, nor the values' change)."""
    chat = session.conversation()
    assert chat.ask("上个月各品类GMV占比", as_of=JULY).status == "answered"
    compared = chat.ask("同比呢")
    assert compared.status == "answered" and compared.semantic_query is not None, compared.answer
    assert compared.semantic_query.share and compared.semantic_query.comparison is not None
    shares = [
        f"SELECT category, SUM(gmv_amount) / SUM(SUM(gmv_amount)) OVER () FROM fact_order WHERE {ORDERS} "
        f"AND order_date BETWEEN DATE '{start}' AND DATE '{end}' GROUP BY 1"
        for start, end in (("2026-06-01", "2026-06-30"), ("2025-06-01", "2025-06-30"))
    ]
    now, before = ({str(k): float(v) for k, v in _rows(session, sql)} for sql in shares)  # type: ignore[arg-type]
    got = _answer_rows(compared, "category", "gmv_share", "gmv_previous_share", "gmv_share_change")
    assert [
        (c, pytest.approx(now[c]), pytest.approx(before[c]), pytest.approx(now[c] - before[c])) for c in now
    ] == sorted(got)


def test_the_other_half_is_of_the_previous_period_and_a_ranked_metric_is_still_re_ranked(session: Session) -> None:
    """ "the first half of June" then "second half?": June 16–30, never the latest second half of a
    year; "订单量最高的呢" after a top 3 ranks by orders (the ranking word is said of orders)."""
    chat = session.conversation()
    chat.ask("How many orders did we get in the first half of June?", as_of=JULY)
    half = chat.ask("second half?")
    assert half.status == "answered" and half.semantic_query is not None, half.answer
    assert (half.semantic_query.time_range.start, half.semantic_query.time_range.end) == (
        date(2026, 6, 16),
        date(2026, 6, 30),
    )
    ((orders,),) = _rows(
        session,
        "SELECT COUNT(*) FROM fact_order WHERE status IN ('paid','refunded') "
        "AND order_date BETWEEN '2026-06-16' AND '2026-06-30'",
    )
    assert f"{orders:,}" in half.answer
    bounded = session.conversation()
    bounded.ask("上个月退款率超过5%的品类有哪些", as_of=JULY)
    may = bounded.ask("那5月呢")
    assert may.status == "answered" and may.semantic_query is not None, may.answer
    assert may.semantic_query.threshold is not None and may.semantic_query.threshold.value == 0.05
    assert may.follow_up is not None and "threshold" in may.follow_up.inherited
    ranked = session.conversation()
    ranked.ask("上个月GMV最高的3个品类", as_of=JULY)
    by_orders = ranked.ask("订单量最高的呢")
    assert by_orders.status == "answered" and by_orders.semantic_query is not None
    assert by_orders.semantic_query.metrics == ("order_count",) and by_orders.semantic_query.top_n == 3


def test_a_floor_goes_on_with_its_ranking_and_is_asked_back_when_a_metric_changes(session: Session) -> None:
    """ "订单量超过8000的品类中退款率最高的2个" then "那今年2月呢": February's top 2 among February's
    categories with more than 8000 orders (SQL); "那GMV呢" changes the metrics: asked back."""
    chat = session.conversation()
    assert chat.ask("上个月订单量超过8000的品类中退款率最高的2个", as_of=JULY).status == "answered"
    february = chat.ask("那今年2月呢")
    assert february.status == "answered" and february.semantic_query is not None, february.answer
    query = february.semantic_query
    assert query.threshold is not None and query.threshold.metric == "order_count" and query.top_n == 2
    assert february.follow_up is not None and "threshold" in february.follow_up.inherited
    rows = _rows(  # sorted by the rate, lowest first
        session,
        "SELECT COUNT(*) FILTER (WHERE status = 'refunded') * 1.0 / COUNT(*), category FROM fact_order "
        "WHERE status IN ('paid','refunded') AND order_date BETWEEN '2026-02-01' AND '2026-02-28' "
        "GROUP BY 2 HAVING COUNT(*) > 8000",
    )
    assert february.result is not None and [r[0] for r in february.result.rows] == [r[1] for r in rows[::-1][:2]]
    other = chat.ask("那GMV呢")
    assert other.status == "clarification_needed", other.answer
    regrouped = session.conversation()  # the channels with more than 8000 orders, or the categories'? asked
    assert regrouped.ask("上个月订单量超过8000的品类中退款率最高的2个", as_of=JULY).status == "answered"
    assert regrouped.ask("按渠道呢").status == "clarification_needed"


def test_a_why_after_shares_is_of_the_value_and_a_changed_metric_drops_the_premise(session: Session) -> None:
    """ "各渠道GMV占比和去年同期比" then "为什么app占比下降了": a share's why is asked back (the
    analysis explains a metric's change); "为什么app的GMV下降了" is app's GMV, the share gone, said
    so; then "换成订单量看看" is still a why, of orders, with no premise the user never said."""
    chat = session.conversation()
    assert chat.ask("上个月各渠道GMV占比和去年同期比", as_of=JULY).status == "answered"
    share_why = chat.ask("为什么app占比下降了")
    assert share_why.status == "clarification_needed" and share_why.error is not None
    assert "不是占比变化的原因" in share_why.error.message
    value_why = chat.ask("为什么app的GMV下降了")
    assert value_why.status == "answered" and value_why.semantic_query is not None, value_why.answer
    query = value_why.semantic_query
    assert query.intent == "why" and not query.share and query.premise == "down"
    assert [(f.dimension, f.members) for f in query.filters] == [("channel", ("app",))]
    assert value_why.follow_up is not None and "share" in value_why.follow_up.changed
    bare = session.conversation()  # "为什么下降了" after a share says no metric: the share's why, asked back
    assert bare.ask("2026年3月小程序的GMV占比环比", as_of=JULY).status == "answered"
    assert bare.ask("为什么下降了").status == "clarification_needed"
    orders = chat.ask("换成订单量看看")
    assert orders.status == "answered" and orders.semantic_query is not None, orders.answer
    assert orders.semantic_query.intent == "why" and orders.semantic_query.premise is None
    assert orders.follow_up is not None and "why" in orders.follow_up.inherited


def test_the_first_one_and_which_one_is_second_point_at_the_ranking(session: Session) -> None:
    """ "top 2 regions by refund rate" then "the first one": the top one (SQL); "which one is
    second?" the second place."""
    chat = session.conversation()
    assert chat.ask("top 2 regions by refund rate last month", as_of=JULY).status == "answered"
    first = chat.ask("the first one")
    assert first.status == "answered" and first.semantic_query is not None, first.answer
    assert first.semantic_query.top_n == 1 and first.result is not None
    rates = _rows(  # sorted: lowest first
        session,
        "SELECT COUNT(*) FILTER (WHERE status = 'refunded') * 1.0 / COUNT(*), region FROM fact_order "
        f"WHERE status IN ('paid','refunded') AND {JUNE} GROUP BY 2",
    )
    assert [r[0] for r in first.result.rows] == [rates[-1][1]]
    second = chat.ask("which one is second?")
    assert second.status == "answered" and second.semantic_query is not None, second.answer
    assert second.semantic_query.rank_place == 2 and second.result is not None
    assert [r[0] for r in second.result.rows] == [rates[-2][1]]


def test_a_floor_is_asked_back_when_a_follow_up_narrows_its_rows(session: Session) -> None:
    """ "订单量超过8000的品类中…" then "那华东呢" / "上周呢": East China's (or a week's) orders above
    8000, or the categories' as they were? Asked back, never "no category passed"."""
    for follow_up in ("那华东呢", "上周呢"):
        chat = session.conversation()
        assert chat.ask("上个月订单量超过8000的品类中退款率最高的2个", as_of=JULY).status == "answered"
        assert chat.ask(follow_up).status == "clarification_needed"
    chat = session.conversation()  # a category left out changes no other category's orders: the floor goes on
    assert chat.ask("上个月订单量超过8000的品类中退款率最高的2个", as_of=JULY).status == "answered"
    rest = chat.ask("去掉服饰鞋包呢")
    assert rest.status == "answered" and rest.semantic_query is not None, rest.answer
    assert rest.semantic_query.threshold is not None and rest.semantic_query.top_n == 2


def test_a_follow_up_to_a_why_that_moves_its_scope_is_analysed_too(session: Session) -> None:
    """ "why did it drop?" then "only East China": East China's why, an analysis (never the change
    alone under a lead that says why); "by channel" asks for figures and says the why went."""
    chat = session.conversation()
    chat.ask("what was GMV last month", as_of=JULY)
    chat.ask("why did it drop?")
    east = chat.ask("only East China")
    assert east.status == "answered" and east.semantic_query is not None, east.answer
    assert session.store.load(east.run_id).kind == "analyze" and east.semantic_query.intent == "why"
    assert [(f.dimension, f.members) for f in east.semantic_query.filters] == [("region", ("华东",))]
    assert east.follow_up is not None and "why" not in east.follow_up.changed
    split = chat.ask("by channel")
    assert split.status == "answered" and split.semantic_query is not None
    assert session.store.load(split.run_id).kind == "ask" and split.semantic_query.intent != "why"
    assert split.follow_up is not None and "why" in split.follow_up.changed


def test_a_dropped_part_is_never_said_to_be_kept(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月GMV最高的3个渠道", as_of=JULY)
    app = chat.ask("那app呢")
    assert app.follow_up is not None and "ranking" not in app.follow_up.inherited
    assert "ranking" in app.follow_up.changed


# -- memory in a conversation ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def remembering(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    copy = private_copy(demo_dir, tmp_path_factory.mktemp("remembering") / "demo")
    with Session(config=copy / "baton.toml", remember=True) as s:
        yield s


def test_a_breakdown_a_follow_up_inherits_is_not_a_repeated_choice(remembering: Session) -> None:
    user = remembering.user
    remembering.memory.forget_all(user)
    chat = remembering.conversation()
    chat.ask("上个月各渠道的GMV是多少？", as_of=JULY)
    for follow_up in ("那华南呢？", "那华北呢？", "只看新用户"):
        assert chat.ask(follow_up).status == "answered"
    assert remembering.memory.state(user).get("default_breakdown") is None
    for question in ("上个月各渠道的订单量", "上周各渠道的GMV"):  # chosen anew: these count
        remembering.ask(question, as_of=JULY)
    learned = remembering.memory.state(user).get("default_breakdown")
    assert learned is not None and learned.value == "channel" and learned.source == "repeated"
    remembering.memory.forget_all(user)


def test_which_of_the_two_said_never_takes_a_remembered_breakdown(remembering: Session) -> None:
    """ "South China", "North China?", then "which one is bigger?": the two side by side, never the
    top category."""
    user = remembering.user
    remembering.memory.forget_all(user)
    remembering.memory.set_preference(user, "default_breakdown", "category")
    chat = remembering.conversation()
    for question in ("GMV in South China last month", "and North China?"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    which = chat.ask("which one is bigger?")
    assert which.status == "answered" and which.semantic_query is not None, which.answer
    assert which.semantic_query.dimensions == ("region",)
    assert [f.members for f in which.semantic_query.filters] == [("华南", "华北")]
    again = remembering.conversation()
    assert again.ask("GMV in South China last month", as_of=JULY).status == "answered"
    broken = again.ask("拆开看看")  # a breakdown asked for still takes the default
    assert broken.status == "answered" and broken.semantic_query is not None
    assert broken.semantic_query.dimensions == ("category",)
    remembering.memory.forget_all(user)


def test_a_remembered_language_answers_a_question_that_does_not_say_its_own(remembering: Session) -> None:
    user = remembering.user
    remembering.memory.forget_all(user)
    remembering.memory.set_preference(user, "language", "zh")
    unclear = remembering.ask("GMV 2026-06", as_of=JULY)
    assert unclear.status == "answered", unclear.answer
    assert unclear.language == "zh"
    assert any("记住的回答语言" in a for a in unclear.assumptions), unclear.assumptions
    clear = remembering.ask("GMV last month", as_of=JULY)
    assert clear.language == "en" and not any("answer language" in a for a in clear.assumptions)
    remembering.memory.forget_all(user)
    plain = remembering.ask("GMV 2026-06", as_of=JULY)
    assert plain.language == "en"


def test_a_favourite_metric_breaks_a_tie_and_says_so(remembering: Session) -> None:
    user = remembering.user
    remembering.memory.forget_all(user)
    tied = remembering.ask("What was revenue last month?", as_of=JULY)
    assert tied.status == "clarification_needed"
    remembering.memory.set_preference(user, "favourite_metrics", "net_revenue")
    answer = remembering.ask("What was revenue last month?", as_of=JULY)
    assert answer.status == "answered", answer.answer
    assert answer.result is not None and "net_revenue" in [c.name for c in answer.result.columns]
    said = " ".join(answer.assumptions)
    assert "favourite metrics" in said and "GMV" in said  # the other reading is named
    untied = remembering.ask("上个月GMV是多少", as_of=JULY)  # no tie: a favourite changes nothing
    assert untied.result is not None and "gmv" in [c.name for c in untied.result.columns]
    remembering.memory.forget_all(user)


def test_drop_a_member_in_a_follow_up_excludes_it(session: Session) -> None:
    """ "drop web" takes web out (it once kept only web and added a comparison); "drop the channel split"
    takes the breakdown away."""
    conversation = session.conversation()
    assert conversation.ask("orders last week by channel", as_of=JULY).status == "answered"
    dropped = conversation.ask("drop web", as_of=JULY)
    assert dropped.status == "answered" and dropped.semantic_query is not None
    assert dropped.semantic_query.comparison is None
    assert [f.model_dump() for f in dropped.semantic_query.filters] == [
        {"dimension": "channel", "members": ("web",), "exclude": True}
    ]
    assert dropped.result is not None and "web" not in [row[0] for row in dropped.result.rows]
    split = conversation.ask("drop the channel split", as_of=JULY)  # the breakdown goes, web stays out
    assert split.status == "answered" and split.semantic_query is not None
    assert split.semantic_query.dimensions == () and split.semantic_query.filters == dropped.semantic_query.filters


def test_now_frames_a_follow_up(session: Session) -> None:
    """ "now by month" follows the previous question (alone it names nothing of the catalog)."""
    conversation = session.conversation()
    assert conversation.ask("GMV last quarter by channel", as_of=JULY).status == "answered"
    monthly = conversation.ask("now by month", as_of=JULY)
    assert monthly.status == "answered" and monthly.semantic_query is not None
    assert monthly.semantic_query.grain == "month" and monthly.semantic_query.dimensions == ("channel",)
    assert session.ask("now by month", as_of=JULY).status == "refused"


def test_last_month_after_a_named_month_is_asked_which_one(session: Session) -> None:
    """ "2025年9月的GMV" then "和上个月比呢": August 2025, or June 2026 counted from today? Asked."""
    conversation = session.conversation()
    first = conversation.ask("2025年9月的GMV", as_of=JULY)
    assert first.status == "answered"
    against = conversation.ask("和上个月比呢", as_of=JULY)
    assert against.status == "clarification_needed" and against.result is None
    assert against.suggestions == ["2025-08-01~2025-08-31", "2026-06-01~2026-06-30"]


@pytest.mark.parametrize(
    ("first", "then", "start", "end"),
    [
        ("今年3月的GMV", "上一个月呢", "2026-02-01", "2026-02-28"),
        ("今年Q1的GMV", "上一季度呢", "2025-10-01", "2025-12-31"),
        ("去年Q4各渠道订单量", "上一季度呢", "2025-07-01", "2025-09-30"),
    ],
)
def test_the_one_before_in_a_follow_up_is_before_the_period_discussed(
    session: Session, first: str, then: str, start: str, end: str
) -> None:
    """ "上一个月" after March is February, the month before the one just discussed — never
    the month before today."""
    conversation = session.conversation()
    assert conversation.ask(first, as_of=JULY).status == "answered"
    before = conversation.ask(then, as_of=JULY)
    assert before.status == "answered" and before.semantic_query is not None
    period = before.semantic_query.time_range
    assert (period.start.isoformat(), period.end.isoformat()) == (start, end)
    assert f"{start} 至 {end}" in (before.interpretation or "")


@pytest.mark.parametrize(
    ("first", "then"), [("上个月各渠道GMV", "按区域呢"), ("GMV by channel last month", "what about by region?")]
)
def test_what_about_another_breakdown_replaces_the_breakdown(session: Session, first: str, then: str) -> None:
    """ "按区域呢" after a breakdown by channel asks it by region — never channel × region."""
    conversation = session.conversation()
    assert conversation.ask(first, as_of=JULY).status == "answered"
    by_region = conversation.ask(then, as_of=JULY)
    assert by_region.status == "answered" and by_region.semantic_query is not None
    assert by_region.semantic_query.dimensions == ("region",)


def test_the_same_period_said_beside_a_new_metric_keeps_the_period(session: Session) -> None:
    """ "上个月GMV" then "上个月订单量呢": the period said again with a new metric is kept, not asked."""
    conversation = session.conversation()
    assert conversation.ask("上个月GMV", as_of=JULY).status == "answered"
    orders = conversation.ask("上个月订单量呢", as_of=JULY)
    assert orders.status == "answered" and orders.semantic_query is not None
    assert orders.semantic_query.metrics == ("order_count",)
    assert orders.follow_up is not None and "period" not in orders.follow_up.changed


def test_a_monthly_average_is_carried_and_a_period_without_whole_months_is_asked(session: Session) -> None:
    conversation = session.conversation()
    first = conversation.ask("今年上半年月均订单量", as_of=JULY)
    assert first.status == "answered" and first.semantic_query is not None
    assert first.semantic_query.average_per == "month"
    east = conversation.ask("那华东呢", as_of=JULY)
    half = "order_date BETWEEN DATE '2026-01-01' AND DATE '2026-06-30'"
    ((total,),) = _rows(session, f"SELECT COUNT(*) FROM fact_order WHERE {ORDERS} AND {half} AND region = '华东'")
    assert _answer_rows(east, "order_count_per_month") == [(pytest.approx(int(str(total)) / 6, rel=1e-12),)]
    week = conversation.ask("那上周呢", as_of=JULY)  # a week holds no whole month: asked, never divided by 0.23
    assert week.status == "clarification_needed" and week.result is None
    assert week.error is not None and week.error.detail["reason"] == "average_cuts_a_period"


def test_a_per_day_average_is_carried_by_follow_ups_and_what_it_cannot_be_is_asked(session: Session) -> None:
    conversation = session.conversation()
    first = conversation.ask("上个月日均GMV", as_of=JULY)
    assert first.status == "answered" and first.semantic_query is not None and first.semantic_query.average_per == "day"
    south = conversation.ask("那华南呢？", as_of=JULY)
    assert south.status == "answered" and south.semantic_query is not None and south.semantic_query.average_per == "day"
    june = "order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'"
    ((total,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {june} AND region = '华南'")
    assert _answer_rows(south, "gmv_per_day") == [(pytest.approx(float(str(total)) / 30, rel=1e-12),)]
    assert _answer_rows(south, "gmv_total") == [(pytest.approx(float(str(total)), rel=1e-12),)]  # said beside it
    assert south.interpretation is not None and "日均成交总额" in south.interpretation
    weekly = conversation.ask("换成按周看", as_of=JULY)  # a series of per-day averages: asked, not dropped
    assert weekly.status == "clarification_needed" and weekly.result is None
    rate = conversation.ask("那转化率呢", as_of=JULY)  # a rate's daily average has two readings
    assert rate.status == "clarification_needed" and rate.result is None
    orders = conversation.ask("那订单量呢", as_of=JULY)  # follows the last answer, per day and in 华南
    assert orders.status == "answered" and orders.result is not None
    assert [c.name for c in orders.result.columns] == ["order_count_per_day", "order_count_total"]


@pytest.mark.parametrize(
    ("first", "correction", "changed", "sql"),
    [
        (
            "上个月华东的GMV",
            "不对，我是说华南",
            ("filter",),
            f"SELECT {GMV} FROM fact_order WHERE region = '华南' AND {JUNE}",
        ),
        (
            "GMV in East China last month",
            "no, I meant orders",
            ("metric",),
            f"SELECT count(*) FILTER (WHERE {ORDERS}) FROM fact_order WHERE region = '华东' AND {JUNE}",
        ),
        (
            "GMV in East China last month",
            "actually make that south",
            ("filter",),
            f"SELECT {GMV} FROM fact_order WHERE region = '华南' AND {JUNE}",
        ),
        (
            "GMV in East China last month",
            "no, net revenue",
            ("metric",),
            f"SELECT SUM(gmv_amount - discount_amount) FILTER (WHERE status = 'paid') FROM fact_order WHERE region = '华东' AND {JUNE}",
        ),
        (
            "上个月华东的GMV",
            "我的意思是上上个月",
            ("period",),
            f"SELECT {GMV} FROM fact_order WHERE region = '华东' AND order_date BETWEEN DATE '2026-05-01' AND DATE '2026-05-31'",
        ),
    ],
)
def test_a_correction_replaces_the_part_it_names(
    session: Session, first: str, correction: str, changed: tuple[str, ...], sql: str
) -> None:
    """ "不对，我是说华南": the previous question with that part said again, as "换成" says it."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(correction)
    assert answer.status == "answered", answer.answer
    assert answer.follow_up is not None and answer.follow_up.changed == changed
    assert answer.result is not None
    assert [float(v) for v in answer.result.rows[0]] == [float(v) for v in _rows(session, sql)[0]]  # type: ignore[arg-type]


def test_a_polite_opening_ties_nothing(session: Session) -> None:
    """ "Sorry, …" before a whole question is no correction: nothing of the previous question is kept."""
    chat = session.conversation()
    chat.ask("上个月华东的GMV", as_of=JULY)
    answer = chat.ask("Sorry, how many orders did we have in May?")
    assert answer.follow_up is None or answer.follow_up.standalone or answer.status != "answered"
    assert answer.status != "answered" or "华东" not in str(answer.semantic_query)


def test_a_correction_without_a_question_before_it_is_asked_back(session: Session) -> None:
    answer = session.ask("不对，我是说华南", as_of=JULY)
    assert answer.status == "clarification_needed"


@pytest.mark.parametrize(
    ("first", "then", "where"),
    [
        ("上个月华东的GMV", "全国呢", ""),
        ("GMV in East China last month", "overall?", ""),
        ("GMV in East China last month", "nationwide?", ""),
        ("上个月华东的GMV", "大盘呢", ""),
        ("除了直播上个月GMV", "整体呢", ""),
        ("上个月华东的GMV", "不对，是华南", "AND region = '华南'"),
        # the whole of a member: that member kept, the other filter gone, never the same figure again
        ("上个月华南直播的GMV", "华南整体呢", "AND region = '华南'"),
        ("上个月华南直播的GMV", "整个华南呢", "AND region = '华南'"),
        ("GMV for app in East China last month", "what about app overall?", "AND channel = 'app'"),
        ("上个月小程序新客的GMV", "那小程序整体呢", "AND channel = 'mini_program'"),
    ],
)
def test_the_whole_and_corrections_change_the_filter(session: Session, first: str, then: str, where: str) -> None:
    """ "全国呢" / "overall?" drop the one dimension's filter; "不对，是…" replaces the member; "华南整体呢"
    after 华南直播 keeps 华南 alone."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert answer.follow_up is not None and answer.follow_up.changed
    gold = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} {where}")
    assert _answer_rows(answer, "gmv") == gold


@pytest.mark.parametrize(
    ("then", "left"),
    [
        ("不用拆了", []),
        ("no breakdown", []),
        ("不按渠道拆了", ["region"]),
        ("去掉渠道拆分", ["region"]),
        ("not by channel", ["region"]),
        ("and without the channel split?", ["region"]),
        ("no channel breakdown", ["region"]),
        ("去掉直播", ["channel", "region"]),  # an exclusion, never the breakdown taken away
        ("without live stream", ["channel", "region"]),
    ],
)
def test_taking_a_breakdown_away_keeps_the_rest(session: Session, then: str, left: list[str]) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道各区域GMV", as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert list(answer.semantic_query.dimensions) == left
    excluded = [f.members for f in answer.semantic_query.filters if f.exclude]
    assert excluded == ([("live_stream",)] if "直播" in then or "live" in then else [])


def test_compared_with_the_same_period_last_year_said_with_bi(session: Session) -> None:
    """ "比去年同期呢" after a figure: the year-on-year comparison, as "和去年同期比呢" is."""
    chat = session.conversation()
    chat.ask("上个月华东的GMV", as_of=JULY)
    answer = chat.ask("比去年同期呢")
    assert answer.status == "answered" and answer.semantic_query is not None
    comparison = answer.semantic_query.comparison
    assert comparison is not None and comparison.kind == "same_period_last_year"
    assert (comparison.range.start, comparison.range.end) == (date(2025, 6, 1), date(2025, 6, 30))


def test_the_top_of_each_period_is_kept_by_follow_ups_or_asked_back(session: Session) -> None:
    """ "每个月GMV最高的渠道" then "换成订单量" / "按周呢": still each period's own top; "同比呢" would rank
    the channel × month rows as a whole, so it is asked back, never carried as "kept the ranking"."""
    chat = session.conversation()
    assert chat.ask("2026年每个月GMV最高的渠道", as_of=JULY).status == "answered"
    for then, grain in (("换成订单量", "month"), ("按周呢", "week")):
        answer = chat.ask(then)
        assert answer.status == "answered" and answer.semantic_query is not None
        assert answer.semantic_query.rank_each_period and answer.semantic_query.grain == grain
    assert chat.ask("同比呢").status == "clarification_needed"


@pytest.mark.parametrize(
    ("first", "then", "dimension"),
    [("上个月app的GMV", "按渠道拆开", "channel"), ("GMV for web last month", "by channel", "channel")],
)
def test_a_breakdown_by_the_one_member_dimension_shows_every_member(
    session: Session, first: str, then: str, dimension: str
) -> None:
    """ "上个月app的GMV" then "按渠道拆开": every channel, never a breakdown of app alone."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert answer.semantic_query.dimensions == (dimension,) and answer.semantic_query.filters == ()
    gold = _rows(session, f"SELECT {dimension}, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1")
    assert sorted(_answer_rows(answer, dimension, "gmv")) == sorted(gold)
    assert answer.follow_up is not None and "filter" in answer.follow_up.changed


def test_the_whole_with_a_comparison_drops_the_filter(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月华东的GMV", as_of=JULY)
    answer = chat.ask("全国同比呢")
    assert answer.status == "answered" and answer.semantic_query is not None
    assert answer.semantic_query.filters == () and answer.semantic_query.comparison is not None


def test_a_follow_up_after_a_word_not_understood_never_rewords_it(session: Session) -> None:
    """ "ditch GMV" (not understood) then "and for new customers?": never "GMV for new customers" (the
    reply read as a rewording of "ditch"), which would drop orders and keep GMV."""
    chat = session.conversation()
    chat.ask("GMV and orders by channel in May", as_of=JULY)
    assert chat.ask("ditch GMV").status == "clarification_needed"
    answer = chat.ask("and for new customers?")
    assert answer.status != "answered" or (
        answer.semantic_query is not None and answer.semantic_query.metrics == ("gmv", "order_count")
    )


@pytest.mark.parametrize(("then", "region_kept"), [("整体呢", True), ("in total?", True), ("全国呢", False)])
def test_after_a_breakdown_only_the_whole_of_the_country_drops_the_filter(
    session: Session, then: str, region_kept: bool
) -> None:
    """ "上个月华东各渠道GMV" then "整体呢" / "in total?": East China's total (the breakdown summed); "全国呢":
    every region, by channel."""
    chat = session.conversation()
    chat.ask("上个月华东各渠道GMV", as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None
    assert bool(answer.semantic_query.filters) is region_kept
    assert (answer.semantic_query.dimensions == ()) is region_kept


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("今年每个月的订单量", "6月是不是最少的"),
        ("monthly gmv this year", "was june the worst?"),
        ("今年各月GMV", "3月是不是最高的"),
    ],
)
def test_one_month_of_a_series_asked_whether_first_is_never_ranked_alone(
    session: Session, first: str, then: str
) -> None:
    """ "今年每个月的订单量" then "6月是不是最少的" was answered "最低的一个月：2026-06" — June ranked among
    June's one month, so always first: asked back, never answered for a different question."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "clarification_needed", answer.answer
    assert answer.error is not None and answer.error.detail.get("reason") == "ranking_of_one_period"


def test_a_bound_of_the_metric_shown_keeps_the_groups_shown(session: Session) -> None:
    """ "conversion rate by channel" then "any below 2%?", "各区域GMV" then "都超过500万吗" / "哪些低于500万",
    "Q2各品类GMV同比" then "涨幅超过16%的有哪些" were asked back ("ask it again whole"): the bound is of
    the metric shown, over the groups shown — a check of every one, or those that pass."""
    cases: list[tuple[str, str, str, Callable[[float], bool], str]] = [
        ("conversion rate by channel last month", "any below 2%?", "conversion_rate", lambda v: v < 0.02, "keep"),
        ("上个月各渠道GMV", "哪些低于500万", "gmv", lambda v: v < 5_000_000, "keep"),
        ("Q2各品类GMV同比", "涨幅超过16%的有哪些", "gmv_change_pct", lambda v: v > 0.16, "keep"),
        ("上个月各渠道GMV", "都超过500万吗", "gmv", lambda v: v > 5_000_000, "all"),
    ]
    for first, then, column, passes, check in cases:
        chat = session.conversation()
        shown = chat.ask(first, as_of=JULY)
        answer = chat.ask(then)
        query = answer.semantic_query
        assert answer.status == "answered" and query is not None and query.threshold is not None, (then, answer.answer)
        assert query.threshold.check == check and answer.result is not None and shown.result is not None
        names = [c.name for c in shown.result.columns]
        every = {str(row[0]): float(str(row[names.index(column)])) for row in shown.result.rows}
        kept = {str(row[0]) for row in answer.result.rows}
        assert kept == ({k for k, v in every.items() if passes(v)} if check == "keep" else set(every)), then
        if check == "all":
            verdict = "：是" if all(passes(v) for v in every.values()) else "：否"
            assert verdict in answer.answer, answer.answer


def test_a_place_asked_goes_on_only_while_the_question_stays_a_place(session: Session) -> None:
    """ "华南排第几" then "前3名呢" repeated 华南's place (never the top 3), "按月看" ranked region × month cells
    as regions, and "哪些超过500万" after a ranking crashed: the member goes on only with the metric, the
    period or a filter changed; a bound beside a ranking is asked back."""
    chat = session.conversation()
    chat.ask("上个月华南GMV排第几", as_of=JULY)
    top = chat.ask("前3名呢")
    assert top.semantic_query is not None and top.semantic_query.asked_member is None
    assert top.semantic_query.top_n == 3 and top.result is not None and top.result.row_count == 3
    chat = session.conversation()
    chat.ask("上个月华南GMV排第几", as_of=JULY)
    orders = chat.ask("那订单量呢")
    assert orders.semantic_query is not None and orders.semantic_query.asked_member == "华南"
    assert orders.semantic_query.place_asked and orders.semantic_query.metrics == ("order_count",)
    for first in ("上个月GMV前5的区域", "上个月华南GMV排第几"):
        chat = session.conversation()
        chat.ask(first, as_of=JULY)
        assert chat.ask("哪些超过500万").status == "clarification_needed"


def test_after_a_comparison_which_moved_is_named_and_a_share_bound_is_asked_back(session: Session) -> None:
    """ "Q2各渠道GMV同比" then "哪些下降了" was "could not tie this to the previous question", and then
    "占比超过30%的有哪些" was an internal error: the groups that fell are named; a share's bound beside the
    comparison (the share of which period?) is asked back."""
    chat = session.conversation()
    chat.ask("Q2各渠道GMV同比", as_of=JULY)
    fell = chat.ask("哪些下降了")
    assert fell.status == "answered" and fell.semantic_query is not None, fell.answer
    assert fell.semantic_query.premise_asked == "which" and fell.semantic_query.premise == "down"
    assert chat.ask("占比超过30%的有哪些").status == "clarification_needed"


def test_only_two_members_beside_a_ranking_narrows_it_to_them(session: Session) -> None:
    chat = session.conversation()
    chat.ask("今年上半年各区域的退款率", as_of=JULY)
    chat.ask("倒数三名呢")
    narrowed = chat.ask("只看APP和小程序")
    assert narrowed.status == "answered", narrowed.answer
    assert narrowed.semantic_query is not None and narrowed.semantic_query.dimensions == ("region",)
    refund = (
        "COUNT(*) FILTER (WHERE status = 'refunded') * 1.0 / COUNT(*) FILTER (WHERE status IN ('paid', 'refunded'))"
    )
    expected = _rows(
        session,
        f"SELECT region, {refund} FROM fact_order WHERE channel IN ('app', 'mini_program')"
        " AND order_date BETWEEN DATE '2026-01-01' AND DATE '2026-06-30' GROUP BY 1 ORDER BY 2 LIMIT 3",
    )
    got = _answer_rows(narrowed, "region", "refund_rate")
    assert [r[0] for r in got] == [r[0] for r in expected]
    assert [r[1] for r in got] == pytest.approx([r[1] for r in expected])


def test_a_reply_that_names_each_group_as_the_whole_is_the_share_inside_each(session: Session) -> None:
    chat = session.conversation()
    chat.ask("live stream share of GMV during Double 11 2025", as_of=JULY)
    chat.ask("what about Oct?")
    inside = chat.ask("in each region, what share came from live stream")
    assert inside.status == "answered", inside.answer
    october = "order_date BETWEEN DATE '2025-10-01' AND DATE '2025-10-31'"
    expected = _rows(
        session,
        f"SELECT region, SUM(gmv_amount) FILTER (WHERE channel = 'live_stream' AND status IN ('paid', 'refunded'))"
        f" / {GMV} FROM fact_order WHERE {october} GROUP BY 1",
    )
    got = _answer_rows(inside, "region", "gmv_share")
    assert [r[0] for r in got] == [r[0] for r in expected]
    assert [r[1] for r in got] == pytest.approx([r[1] for r in expected])


def test_why_after_a_series_beside_last_year_explains_the_whole_period(session: Session) -> None:
    chat = session.conversation()
    chat.ask("GMV by channel in May for East China", as_of=JULY)
    chat.ask("break it down by week")
    chat.ask("compare with last year")
    why = chat.ask("why?")
    assert why.status == "answered", why.answer
    assert session.store.load(why.run_id).kind == "analyze"
    assert why.semantic_query is not None and why.semantic_query.grain is None
    assert why.follow_up is not None and "grain" in why.follow_up.changed  # said, never silently dropped


def test_switching_to_the_week_before_replaces_the_period(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上周各区域GMV", as_of=JULY)
    before = chat.ask("换成前一周")
    assert before.status == "answered", before.answer
    assert before.semantic_query is not None and before.semantic_query.comparison is None
    week = "order_date BETWEEN DATE '2026-06-15' AND DATE '2026-06-21'"
    expected = _rows(session, f"SELECT region, {GMV} FROM fact_order WHERE {week} GROUP BY 1")
    assert [r[0] for r in _answer_rows(before, "region", "gmv")] == [r[0] for r in expected]
    assert [r[1] for r in _answer_rows(before, "region", "gmv")] == pytest.approx([r[1] for r in expected])
    compared = chat.ask("换成同比")  # a comparison named as such is still a comparison
    assert compared.semantic_query is not None and compared.semantic_query.comparison is not None


def test_a_daily_average_says_the_total_it_is_of(session: Session) -> None:
    answer = session.ask("本周到目前为止的GMV和订单量，日均多少", as_of=JULY)
    assert answer.status == "answered", answer.answer
    days = "order_date BETWEEN DATE '2026-06-29' AND DATE '2026-06-30'"
    ((gmv, orders),) = _rows(session, f"SELECT {GMV}, COUNT(*) FILTER (WHERE {ORDERS}) FROM fact_order WHERE {days}")
    assert _answer_rows(answer, "gmv_total", "order_count_total") == [(pytest.approx(gmv), orders)]
    assert f"合计 ¥{gmv:,.2f}" in answer.answer  # the question's totals, said beside the averages


@pytest.mark.parametrize(
    ("first", "then", "dimension", "members", "gap"),
    [
        ("上个月手机数码的订单量", "比食品多吗", "category", ["手机数码", "食品生鲜"], True),
        ("上个月手机数码的订单量", "比食品高多少", "category", ["手机数码", "食品生鲜"], True),
        ("orders for app last month", "was that more than web?", "channel", ["app", "web"], True),
        ("上个月华东的订单量", "和华南比呢", "region", ["华东", "华南"], False),
        ("上个月华南的订单量", "和华东对比一下", "region", ["华南", "华东"], False),
        ("上个月华东的订单量", "和华南差多少", "region", ["华东", "华南"], True),
    ],
)
def test_a_member_set_against_the_previous_one_is_shown_beside_it(
    session: Session, first: str, then: str, dimension: str, members: list[str], gap: bool
) -> None:
    """ "手机数码的订单量" then "比食品多吗": the two side by side (and their gap when asked), never
    the second member's change over time answered "no: orders fell"."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered", answer.answer
    query = answer.semantic_query
    assert query is not None and query.comparison is None and query.premise_asked is None
    assert query.dimensions == (dimension,) and query.difference is gap
    (kept,) = [f for f in query.filters if f.dimension == dimension]
    assert list(kept.members) == members  # the previous member first, as the lead names them
    listed = ", ".join(f"'{m}'" for m in members)
    expected = _rows(
        session,
        f"SELECT {dimension}, COUNT(*) FILTER (WHERE {ORDERS}) FROM fact_order "
        f"WHERE {JUNE} AND {dimension} IN ({listed}) GROUP BY 1",
    )
    assert _answer_rows(answer, dimension, "order_count") == expected
    assert answer.follow_up is not None and {"filter", "breakdown"} <= set(answer.follow_up.changed)


def test_a_member_set_against_anything_but_one_member_is_asked_back(session: Session) -> None:
    """ "refund rate last quarter" then "is that higher than appliances?": the whole against a member
    takes one figure filtered and one not — asked, never appliances' change over time."""
    for first, then in [("refund rate last quarter", "is that higher than appliances?"), ("上个月GMV", "比华东高吗")]:
        chat = session.conversation()
        chat.ask(first, as_of=JULY)
        asked = chat.ask(then)
        assert asked.status == "clarification_needed", asked.answer
        assert asked.error is not None and asked.error.code == "ambiguous_question"


def test_the_whole_of_a_member_after_two_other_filters_is_asked_back(session: Session) -> None:
    chat = session.conversation()
    chat.ask("上个月华东APP新客的订单量", as_of=JULY)
    asked = chat.ask("APP整体呢")  # without the region, the user type, or both?
    assert asked.status == "clarification_needed", asked.answer


def test_an_average_or_a_total_after_a_series_is_one_figure_of_the_period(session: Session) -> None:
    """ "GMV by day last week" then "the average per day?" / "total vs the previous week?": the
    series gives way to one figure of the whole week, never asked back as a series of averages."""
    week = "order_date BETWEEN DATE '2026-06-22' AND DATE '2026-06-28'"
    ((summed,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {week}")
    total = float(str(summed))
    chat = session.conversation()
    chat.ask("GMV by day last week", as_of=JULY)
    average = chat.ask("what was the average per day?")
    assert average.status == "answered", average.answer
    assert average.semantic_query is not None and average.semantic_query.grain is None
    assert _answer_rows(average, "gmv_per_day", "gmv_total") == [(pytest.approx(total / 7), pytest.approx(total))]
    chat = session.conversation()
    chat.ask("GMV by day last week", as_of=JULY)
    compared = chat.ask("total vs the previous week?")
    assert compared.status == "answered", compared.answer
    before = "order_date BETWEEN DATE '2026-06-15' AND DATE '2026-06-21'"
    ((previous,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {before}")
    assert _answer_rows(compared, "gmv", "gmv_previous") == [(pytest.approx(total), pytest.approx(previous))]
    chat = session.conversation()
    chat.ask("上周各渠道每天的GMV", as_of=JULY)
    summed = chat.ask("合计呢")  # the channels summed, each day: the series stays
    assert summed.semantic_query is not None and summed.semantic_query.grain == "day"
    assert summed.semantic_query.dimensions == ()


@pytest.mark.parametrize(
    ("first", "then", "part", "whole"),
    [
        ("app GMV last month", "what % of app GMV was new users then?", "user_type = 'new'", "channel = 'app'"),
        ("上个月GMV", "新客占比多少", "user_type = 'new'", "TRUE"),
        ("上个月华东GMV", "APP占比多少", "channel = 'app'", "region = '华东'"),
    ],
)
def test_a_share_asked_of_a_member_named_anew_takes_it_as_the_part(
    session: Session, first: str, then: str, part: str, whole: str
) -> None:
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    answer = chat.ask(then)
    assert answer.status == "answered", answer.answer
    ((expected,),) = _rows(
        session,
        f"SELECT SUM(gmv_amount) FILTER (WHERE {ORDERS} AND {part}) / SUM(gmv_amount) FILTER (WHERE {ORDERS}) "
        f"FROM fact_order WHERE {JUNE} AND {whole}",
    )
    assert _answer_rows(answer, "gmv_share") == [(pytest.approx(expected),)]


def test_a_metric_switched_in_its_own_clause_then_ranked_ranks_by_it(session: Session) -> None:
    """ "今年每个月的GMV" then "订单量呢，哪个月最低": the lowest month by orders; "第三名的订单量呢" still
    points at a row listed: the third channel by GMV, its orders."""
    chat = session.conversation()
    chat.ask("今年每个月的GMV", as_of=JULY)
    lowest = chat.ask("订单量呢，哪个月最低")
    assert lowest.status == "answered", lowest.answer
    half = "order_date BETWEEN DATE '2026-01-01' AND DATE '2026-06-30'"
    months = _rows(
        session,
        f"SELECT strftime(date_trunc('month', order_date), '%Y-%m-%d'), COUNT(*) FROM fact_order "
        f"WHERE {ORDERS} AND {half} GROUP BY 1",
    )
    assert _answer_rows(lowest, "period", "order_count") == [min(months, key=lambda r: int(str(r[1])))]
    chat = session.conversation()
    chat.ask("上个月各渠道GMV", as_of=JULY)
    third = chat.ask("第三名的订单量呢")
    assert third.status == "answered" and third.semantic_query is not None, third.answer
    by_gmv = _rows(session, f"SELECT {GMV}, channel FROM fact_order WHERE {JUNE} GROUP BY 2")
    assert [f.members for f in third.semantic_query.filters] == [(sorted(by_gmv, reverse=True)[2][1],)]


@pytest.mark.parametrize("then", ["只看超过500万的", "only the ones over 5m"])
def test_only_those_past_a_bound_keeps_the_groups_shown(session: Session, then: str) -> None:
    chat = session.conversation()
    chat.ask("上个月各渠道GMV", as_of=JULY)
    kept = chat.ask(then)
    assert kept.status == "answered", kept.answer
    expected = _rows(session, f"SELECT channel, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1 HAVING {GMV} > 5000000")
    assert _answer_rows(kept, "channel", "gmv") == expected


@pytest.mark.parametrize(
    ("turns", "members", "gap", "ratio"),
    [
        (["上个月APP的订单量", "比网页高多少", "和小程序比呢"], ["app", "mini_program"], True, False),
        (["上个月华东的订单量", "华东是东北的几倍"], ["华东", "东北"], True, True),
        (["上个月各渠道的订单量", "app是web的几倍"], ["app", "web"], True, True),
        (["orders by channel in may", "what's app minus web in june?"], ["app", "web"], True, False),
    ],
)
def test_members_set_apart_in_a_follow_up_are_shown_side_by_side(
    session: Session, turns: list[str], members: list[str], gap: bool, ratio: bool
) -> None:
    """ "APP比网页高多少" then "和小程序比呢": APP against mini program; "华东是东北的几倍" after 华东:
    both sides named — never asked to be said again in one question."""
    chat = session.conversation()
    answer = chat.ask(turns[0], as_of=JULY)
    for turn in turns[1:]:
        answer = chat.ask(turn)
        assert answer.status == "answered", answer.answer
    query = answer.semantic_query
    assert query is not None and query.difference is gap and query.ratio is ratio
    (dimension,) = query.dimensions
    (kept,) = [f for f in query.filters if f.dimension == dimension]
    assert list(kept.members) == members
    listed = ", ".join(f"'{m}'" for m in members)
    expected = _rows(
        session,
        f"SELECT {dimension}, COUNT(*) FILTER (WHERE {ORDERS}) FROM fact_order "
        f"WHERE {JUNE} AND {dimension} IN ({listed}) GROUP BY 1",
    )
    assert _answer_rows(answer, dimension, "order_count") == expected


def test_every_group_but_one_after_one_member_is_the_exclusion(session: Session) -> None:
    """ "APP的GMV" then "直播以外的渠道呢": every channel but live stream; "去掉直播" (not in the answer)
    is still asked back."""
    chat = session.conversation()
    chat.ask("上个月APP的GMV", as_of=JULY)
    others = chat.ask("直播以外的渠道呢")
    assert others.status == "answered", others.answer
    ((expected,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND channel <> 'live_stream'")
    assert _answer_rows(others, "gmv") == [(expected,)]
    chat = session.conversation()
    chat.ask("上个月APP的GMV", as_of=JULY)
    assert chat.ask("去掉直播").status == "clarification_needed"


def test_a_bound_then_which_ones_keeps_the_groups_shown(session: Session) -> None:
    """ "各渠道转化率" then "低于2%的有哪些": the channels shown whose rate is below 2%."""
    chat = session.conversation()
    every = chat.ask("上个月各渠道转化率", as_of=JULY)
    below = chat.ask("低于2%的有哪些")
    assert below.status == "answered", below.answer
    rates = _answer_rows(every, "channel", "conversion_rate")
    expected = [r for r in rates if float(str(r[1])) < 0.02]
    assert expected and len(expected) < len(rates)  # the bound keeps some, not all
    assert _answer_rows(below, "channel", "conversion_rate") == expected


def test_every_group_after_a_pair_gap_is_each_group(session: Session) -> None:
    """ "华东比华北的订单量高多少" then "所有区域呢": every region, each one — never the national total."""
    chat = session.conversation()
    chat.ask("上个月华东比华北的订单量高多少", as_of=JULY)
    every = chat.ask("所有区域呢")
    assert every.status == "answered", every.answer
    assert every.semantic_query is not None and every.semantic_query.dimensions == ("region",)
    expected = _rows(
        session, f"SELECT region, COUNT(*) FILTER (WHERE {ORDERS}) FROM fact_order WHERE {JUNE} GROUP BY 1"
    )
    assert _answer_rows(every, "region", "order_count") == expected


def test_the_whole_after_a_pair_gap_is_the_whole_figure(session: Session) -> None:
    """ "华东和华南的订单量差多少" then "全国呢": the national figure — the pair and its gap gone, never
    asked back about a gap over periods."""
    chat = session.conversation()
    chat.ask("上个月华东和华南的订单量差多少", as_of=JULY)
    whole = chat.ask("全国呢")
    assert whole.status == "answered", whole.answer
    assert whole.semantic_query is not None and not whole.semantic_query.difference
    ((expected,),) = _rows(session, f"SELECT COUNT(*) FILTER (WHERE {ORDERS}) FROM fact_order WHERE {JUNE}")
    assert _answer_rows(whole, "order_count") == [(expected,)]


def test_a_bound_with_its_metric_and_groups_said_is_one_question(session: Session) -> None:
    """ "各品类GMV" then "订单量超过9000的品类有哪些": all but the period said, answered; "那订单量超过
    10000的呢" (no groups named) is still asked back."""
    chat = session.conversation()
    chat.ask("5月各品类GMV", as_of=JULY)  # May, not the month before today: the period is inherited
    kept = chat.ask("订单量超过9000的品类有哪些")
    assert kept.status == "answered", kept.answer
    may = "order_date BETWEEN DATE '2026-05-01' AND DATE '2026-05-31'"
    expected = _rows(
        session,
        f"SELECT category, COUNT(*) FROM fact_order WHERE {ORDERS} AND {may} GROUP BY 1 HAVING COUNT(*) > 9000",
    )
    assert _answer_rows(kept, "category", "order_count") == expected
    chat = session.conversation()
    chat.ask("上个月各渠道GMV", as_of=JULY)
    assert chat.ask("那订单量超过10000的呢").status == "clarification_needed"


@pytest.mark.parametrize("then", ["跟华南一起呢", "together with South China?"])
def test_a_member_added_together_joins_the_filter(session: Session, then: str) -> None:
    """ "华东的GMV" then "跟华南一起呢": both regions, never South China alone."""
    chat = session.conversation()
    chat.ask("上个月华东的GMV", as_of=JULY)
    both_regions = chat.ask(then)
    assert both_regions.status == "answered", both_regions.answer
    assert both_regions.semantic_query is not None
    (region,) = [f for f in both_regions.semantic_query.filters if f.dimension == "region"]
    assert set(region.members) == {"华东", "华南"}


@pytest.mark.parametrize("then", ["不分新老客呢", "新老客合计呢", "所有用户呢", "what about all users?"])
def test_a_filter_taken_away_by_not_splitting_or_summing_it(session: Session, then: str) -> None:
    """ "小程序新客的买家数" then "不分新老客呢" / "新老客合计呢" / "所有用户呢" (the noun the user
    types share): the mini program's buyers of every user type — distinct buyers (11,846), never the two types side by side nor their sum."""
    chat = session.conversation()
    chat.ask("上个月小程序新客的买家数", as_of=JULY)
    whole = chat.ask(then)
    assert whole.status == "answered", whole.answer
    assert whole.semantic_query is not None and whole.semantic_query.dimensions == ()
    ((expected,),) = _rows(
        session,
        f"SELECT COUNT(DISTINCT user_id) FROM fact_order WHERE {ORDERS} AND {JUNE} AND channel = 'mini_program'",
    )
    assert _answer_rows(whole, "buyer_count") == [(expected,)]


def test_a_gap_of_two_members_after_a_top_three_leaves_the_ranking(session: Session) -> None:
    """ "前三名" then "手机数码比服饰鞋包多多少": the gap of the two, never the top of the two."""
    chat = session.conversation()
    chat.ask("上个月各品类的GMV，前三名", as_of=JULY)
    gap = chat.ask("手机数码比服饰鞋包多多少")
    assert gap.status == "answered", gap.answer
    assert gap.semantic_query is not None and gap.semantic_query.difference
    assert gap.semantic_query.top_n is None and gap.semantic_query.intent != "ranking"
    expected = _rows(
        session,
        f"SELECT category, {GMV} FROM fact_order WHERE {JUNE} AND category IN ('手机数码', '服饰鞋包') GROUP BY 1",
    )
    assert _answer_rows(gap, "category", "gmv") == expected
    (high, low) = sorted((float(str(v)) for _, v in expected), reverse=True)
    assert f"{high - low:,.2f}" in gap.answer


def test_a_series_of_one_member_after_the_top_group_is_every_period(session: Session) -> None:
    """ "退款率最高的渠道" then "直播每个月的退款率走势": every month of live stream in date order,
    never its one highest month."""
    chat = session.conversation()
    chat.ask("今年上半年各渠道的退款率", as_of=JULY)
    chat.ask("退款率最高的渠道是哪个")
    series = chat.ask("直播每个月的退款率走势")
    assert series.status == "answered", series.answer
    assert series.semantic_query is not None and series.semantic_query.top_n is None
    assert series.result is not None and len(series.result.rows) == 6
    periods = [row[0] for row in series.result.rows]
    assert periods == sorted(periods)


def test_a_share_of_one_breakdown_beside_another_is_asked_back(session: Session) -> None:
    """ "按渠道、新老客" then "新客占比多少": new users' share inside each channel, or across the
    channels? asked, never new users of each channel over every channel's visitors."""
    chat = session.conversation()
    chat.ask("上个月网页和小程序的访客数分别多少", as_of=JULY)
    chat.ask("再按新老客拆一下")
    share = chat.ask("新客占比多少")
    assert share.status == "clarification_needed", share.answer
    assert share.error is not None and share.error.code == "ambiguous_question"


def test_members_named_for_another_metric_replace_the_bound(session: Session) -> None:
    """ "GMV超过1000万的区域" then "那华北和华中的订单量分别多少": the two named regions' orders; the
    bound on GMV is gone (named, so changed), never carried onto orders nor asked back."""
    chat = session.conversation()
    chat.ask("上个月GMV超过1000万的区域", as_of=JULY)
    named = chat.ask("那华北和华中的订单量分别多少")
    assert named.status == "answered", named.answer
    assert named.semantic_query is not None and named.semantic_query.threshold is None
    assert named.follow_up is not None and "threshold" in named.follow_up.changed
    expected = _rows(
        session,
        f"SELECT region, COUNT(*) FROM fact_order WHERE {ORDERS} AND {JUNE} AND region IN ('华北', '华中') GROUP BY 1",
    )
    assert _answer_rows(named, "region", "order_count") == expected


@pytest.mark.parametrize(
    ("first", "then", "dimensions"),
    [
        ("GMV by region and user type last month", "just by user type then", ("user_type",)),
        ("GMV by region and user type last month", "by user type only", ("user_type",)),
        ("GMV by region and user type last month", "total by user type?", ("user_type",)),
        ("GMV by region and user type last month", "total across regions?", ("user_type",)),
        ("上个月各渠道各区域GMV", "只按区域看", ("region",)),
        ("上个月各渠道各区域GMV", "整体呢，不分渠道", ("region",)),
    ],
)
def test_one_of_two_breakdowns_kept_or_summed_over(
    session: Session, first: str, then: str, dimensions: tuple[str, ...]
) -> None:
    """After two breakdowns, "only"/"just"/"只" one of them keeps that one; a total across one (or
    "不分" one) sums over it — the other breakdown's groups, never the two again nor the grand total."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    one = chat.ask(then)
    assert one.status == "answered", one.answer
    assert one.semantic_query is not None and one.semantic_query.dimensions == dimensions
    (dim,) = dimensions
    expected = _rows(session, f"SELECT {dim}, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1")
    assert _answer_rows(one, dim, "gmv") == expected


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("上个月华东的GMV占全国多少", "去年同期呢"),
        ("What share of GMV came from East China last month?", "and the same period last year?"),
    ],
)
def test_a_share_then_last_year_is_the_share_then(session: Session, first: str, then: str) -> None:
    """ "华东占全国多少" then "去年同期呢": East China's share of June 2025, said as the period changed —
    never asked back, never the share's change (not built: "同比变化呢" is asked back)."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    then_answer = chat.ask(then)
    assert then_answer.status == "answered", then_answer.answer
    query = then_answer.semantic_query
    assert query is not None and query.share and query.comparison is None
    assert (query.time_range.start, query.time_range.end) == (date(2025, 6, 1), date(2025, 6, 30))
    last_june = "order_date BETWEEN DATE '2025-06-01' AND DATE '2025-06-30'"
    ((part, whole),) = _rows(
        session,
        f"SELECT SUM(gmv_amount) FILTER (WHERE {ORDERS} AND region = '华东'), {GMV} FROM fact_order WHERE {last_june}",
    )
    assert _answer_rows(then_answer, "gmv", "gmv_whole") == [(part, whole)]
    assert chat.ask("同比变化呢").status == "clarification_needed"


@pytest.mark.parametrize(
    ("then", "dimensions"),
    [
        ("total by region over the last 3 months", ("region",)),  # "over" a period sums nothing
        ("total across all regions by user type?", ("user_type",)),
    ],
)
def test_a_total_across_one_breakdown_sums_over_that_one(
    session: Session, then: str, dimensions: tuple[str, ...]
) -> None:
    chat = session.conversation()
    chat.ask("GMV by region and user type last month", as_of=JULY)
    summed = chat.ask(then)
    assert summed.status == "answered", summed.answer
    assert summed.semantic_query is not None and summed.semantic_query.dimensions == dimensions


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("上个月每个区域的成交总额中直播占多少", "直播的成交总额中各区域占多少"),  # a new whole: asked in one question
        ("上个月华东新客GMV占全国新客GMV的比例是多少", "占华东整体GMV呢"),
        ("in each region, what share of last month's orders came from the app?", "app's orders by region, as shares"),
        ("what share of new users' GMV last month was East China?", "and of East China's total GMV?"),
    ],
)
def test_a_share_with_a_new_whole_is_never_the_previous_answer_again(session: Session, first: str, then: str) -> None:
    """A follow-up naming another whole for a share is asked back — never the previous share
    again with "changed the filter", nor a share with its part's filter dropped."""
    chat = session.conversation()
    chat.ask(first, as_of=JULY)
    again = chat.ask(then)
    assert again.status == "clarification_needed", again.answer


def test_a_weekly_comparison_does_not_follow_into_months(session: Session) -> None:
    """ "今年每周GMV同比" (each week against the same ISO week) then "按月看呢": each month against its
    own month a year earlier, as asked alone — never months shifted by 364 days."""
    chat = session.conversation()
    weekly = chat.ask("今年每周GMV同比", as_of=JULY)
    assert weekly.semantic_query is not None and weekly.semantic_query.comparison is not None
    assert weekly.semantic_query.comparison.range.start == date(2025, 1, 2)  # Thursday of ISO week 1
    monthly = chat.ask("按月看呢")
    assert monthly.status == "answered", monthly.answer
    assert monthly.semantic_query is not None and monthly.semantic_query.comparison is not None
    compared = monthly.semantic_query.comparison.range
    assert (compared.start, compared.end) == (date(2025, 1, 1), date(2025, 6, 30))
    rows = _rows(
        session,
        f"SELECT CAST(DATE_TRUNC('month', order_date + INTERVAL 1 YEAR) AS DATE), {GMV} FROM fact_order "
        "WHERE order_date BETWEEN DATE '2025-01-01' AND DATE '2025-06-30' GROUP BY 1",
    )
    assert _answer_rows(monthly, "period", "gmv_previous") == [(str(p), v) for p, v in rows]


def test_a_series_then_its_comparison_is_each_period_against_the_one_before(session: Session) -> None:
    """ "今年每个月GMV" then "环比呢": each month against its month before (never the half year
    before); a new grain or filter keeps that comparison, each period against its own."""
    chat = session.conversation()
    chat.ask("今年每个月GMV", as_of=JULY)
    monthly = chat.ask("环比呢")
    assert monthly.status == "answered", monthly.answer
    assert monthly.follow_up is not None and monthly.follow_up.changed == ("comparison",)
    gold = _rows(
        session,
        f"WITH m AS (SELECT DATE_TRUNC('month', order_date) AS p, {GMV} AS v FROM fact_order "
        "WHERE order_date BETWEEN DATE '2025-12-01' AND DATE '2026-06-30' GROUP BY 1) "
        "SELECT v, LAG(v) OVER (ORDER BY p) FROM m QUALIFY p >= DATE '2026-01-01'",
    )
    assert _answer_rows(monthly, "gmv", "gmv_previous") == gold
    quarterly = chat.ask("按季度看呢")
    assert quarterly.status == "answered", quarterly.answer
    assert quarterly.follow_up is not None and quarterly.follow_up.changed == ("grain",)
    assert sorted(str(p)[:10] for (p,) in _answer_rows(quarterly, "period")) == ["2026-01-01", "2026-04-01"]
    assert (
        quarterly.interpretation is not None
        and "每季度对比上一季度（2025-10-01 至 2026-03-31）" in quarterly.interpretation
    )


def test_the_total_after_each_month_against_its_own_is_against_the_period_before(session: Session) -> None:
    """ "今年每个月GMV环比" then "合计呢": the year so far against the period before it as "今年GMV环比"
    reads it (the same days of the year before) — never against the months' own before (December
    to May, whose overlap would leave only December)."""
    chat = session.conversation()
    chat.ask("今年每个月GMV环比", as_of=JULY)
    total = chat.ask("合计呢")
    assert total.status == "answered", total.answer
    assert total.semantic_query is not None and total.semantic_query.comparison is not None
    compared = total.semantic_query.comparison.range
    assert (compared.start, compared.end) == (date(2025, 1, 1), date(2025, 6, 30))
    gold = _rows(
        session,
        f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN DATE '2025-01-01' AND DATE '2025-06-30'",
    )
    assert _answer_rows(total, "gmv_previous") == gold


def test_the_quarter_before_a_series_of_each_month_against_its_own_stays_so(session: Session) -> None:
    """ "上季度每个月GMV环比" then "前一个季度呢": January to March, each month against its own month
    before (December to February) — the contract's comparison, never the quarter before as a whole."""
    chat = session.conversation()
    chat.ask("上季度每个月GMV环比", as_of=JULY)
    moved = chat.ask("前一个季度呢")
    assert moved.status == "answered", moved.answer
    query = moved.semantic_query
    assert query is not None and query.each_period_before and query.comparison is not None
    assert (query.comparison.range.start, query.comparison.range.end) == (date(2025, 12, 1), date(2026, 2, 28))


def test_kept_pairs_of_a_period_and_a_group_are_counted_as_pairs(session: Session) -> None:
    chat = session.conversation()
    chat.ask("今年各渠道每月GMV", as_of=JULY)
    chat.ask("环比呢")
    kept = chat.ask("只看增长超过10%的")
    assert kept.status == "answered", kept.answer
    assert kept.result is not None
    assert f"月×渠道组合有 {len(kept.result.rows)} 个" in kept.answer


@pytest.mark.parametrize("follow_up", ["which regions were above 5%", "哪些区域超过5%"])
def test_a_bound_said_of_the_groups_held_is_of_the_metric_shown(session: Session, follow_up: str) -> None:
    """ "refund rate by region" then "which regions were above 5%": the regions word names the groups
    held, so the bound is the refund rate's — never asked what "regions" is the metric of."""
    last = _last(session, ["上个月各区域的退款率", follow_up])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    threshold = last.semantic_query.threshold
    assert threshold is not None and (threshold.metric, threshold.op, threshold.value) == ("refund_rate", ">", 0.05)
    expected = _rows(
        session,
        "SELECT region FROM fact_order WHERE " + JUNE + " GROUP BY region HAVING "
        "COUNT(*) FILTER (WHERE status = 'refunded') * 1.0 / COUNT(*) FILTER (WHERE " + ORDERS + ") > 0.05",
    )
    assert _answer_rows(last, "region") == expected


@pytest.mark.parametrize(("place", "follow_up"), [(2, "the second one's orders?"), (3, "and the third one?")])
def test_an_english_place_names_the_row_the_previous_ranking_placed(
    session: Session, place: int, follow_up: str
) -> None:
    chat = session.conversation()
    first = chat.ask("top 3 regions by gmv last month", as_of=JULY)
    assert first.status == "answered" and first.result is not None
    ranked = [row[0] for row in first.result.rows]  # highest first
    last = chat.ask(follow_up)
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    if query.metrics == ("gmv",):  # the same ranking: the row at that place
        assert query.rank_place == place and last.result is not None
        assert [row[0] for row in last.result.rows] == [ranked[place - 1]]
    else:  # another metric: of the row placed so, never a new ranking by it
        assert [f.members for f in query.filters] == [(ranked[place - 1],)]
        assert query.top_n is None and query.rank_place is None


def test_a_placed_day_is_named_by_its_date() -> None:
    """ "第三名的退款率呢" after the top 3 days: the period is that day, shown by its date, never as "第三名"."""
    from baton.contracts.semantic import SemanticQuery, TimeRange
    from baton.nlu.follow_pointers import ListedRows, placed_rows

    june = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30))
    parent = SemanticQuery(metrics=("gmv",), grain="day", time_range=june, top_n=3, as_of=JULY)
    days = ListedRows(("2026-06-18", "2026-06-17", "2026-06-13"), grain="day", values=(3.0, 2.0, 1.0))
    pointed = placed_rows("第三名", days, parent, place=3, count=1, order="desc")
    assert pointed.period is not None and pointed.period.start == date(2026, 6, 13) and pointed.period.text is None


@pytest.mark.parametrize(
    ("turns", "sql", "said"),
    [
        (["上个月GMV同比", "去掉同比，只看上个月"],
         f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30'",
         "；去掉对比期。"),
        (["GMV by month in 2025", "no need to split by month, just the total"],
         f"SELECT {GMV} FROM fact_order WHERE order_date BETWEEN DATE '2025-01-01' AND DATE '2025-12-31'",
         "; took away the time grain."),
        (["上个月GMV最高的3个品类", "全部列出来"],
         f"SELECT category, {GMV} FROM fact_order WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' "
         "GROUP BY 1",
         "；去掉排名。"),
        # a part taken away, then the rest read as a follow-up of what is left
        (["上个月各渠道GMV", "不分渠道，按区域"],
         f"SELECT region, {GMV} FROM fact_order WHERE {JUNE} GROUP BY 1", "；改为拆分维度。"),
        (["上个月GMV同比", "去掉同比，看华东"],
         f"SELECT {GMV} FROM fact_order WHERE {JUNE} AND region = '华东'", "；改为筛选；去掉对比期。"),
    ],
)  # fmt: skip
def test_a_part_taken_away_answers_the_rest(session: Session, turns: list[str], sql: str, said: str) -> None:
    """ "去掉同比", "不分月，给个总数", "全部列出来": the previous question without that part — never
    asked back as words not understood, and the interpretation says what was taken away."""
    chat = session.conversation()
    assert chat.ask(turns[0], as_of=JULY).status == "answered"
    last = chat.ask(turns[1])
    assert last.status == "answered", last.answer
    assert last.interpretation is not None and said in last.interpretation
    assert last.semantic_query is not None
    assert _answer_rows(last, *last.semantic_query.dimensions, "gmv") == _rows(session, sql)


@pytest.mark.parametrize(
    ("turns", "columns", "sql"),
    [
        (["6月GMV", "5月呢", "两者对比一下"], ("gmv", "gmv_previous"),
         "SELECT SUM(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded') AND order_date >= DATE '2026-06-01'), "
         "SUM(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded') AND order_date < DATE '2026-06-01') "
         "FROM fact_order WHERE order_date BETWEEN DATE '2026-05-01' AND DATE '2026-06-30'"),
        (["华东上个月GMV", "华南呢", "差多少"], ("region", "gmv"),
         f"SELECT region, {GMV} FROM fact_order WHERE region IN ('华东', '华南') "
         "AND order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' GROUP BY 1"),
        (["上周各区域订单量", "上上周呢", "两者对比一下"], ("region", "order_count", "order_count_previous"),
         "SELECT region, COUNT(*) FILTER (WHERE status IN ('paid', 'refunded') AND order_date >= DATE '2026-06-22'), "
         "COUNT(*) FILTER (WHERE status IN ('paid', 'refunded') AND order_date < DATE '2026-06-22') "
         "FROM fact_order WHERE order_date BETWEEN DATE '2026-06-15' AND DATE '2026-06-28' GROUP BY 1"),
        (["GMV for app last month", "and web?", "compare the two"], ("channel", "gmv"),
         f"SELECT channel, {GMV} FROM fact_order WHERE channel IN ('app', 'web') "
         "AND order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' GROUP BY 1"),
    ],
)  # fmt: skip
def test_the_last_two_answers_set_side_by_side(
    session: Session, turns: list[str], columns: tuple[str, ...], sql: str
) -> None:
    """ "6月GMV", "5月呢", "两者对比一下" / "华东…", "华南呢", "差多少": both at once — never refused
    as naming nothing of the catalog."""
    chat = session.conversation()
    for question in turns[:-1]:
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask(turns[-1])
    assert last.status == "answered", last.answer
    assert _answer_rows(last, *columns) == _rows(session, sql)


@pytest.mark.parametrize("then", ["变化多少", "两者对比一下"])
def test_two_turns_of_other_lengths_are_asked_back_never_compared(session: Session, then: str) -> None:
    """ "6月GMV", "上半年呢", "变化多少": June against a half year holding it was answered against
    January–May labelled January–June; the two are of other lengths, asked back."""
    chat = session.conversation()
    for question in ("6月GMV", "上半年呢"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    asked = chat.ask(then)
    assert asked.status == "clarification_needed" and asked.result is None, asked.answer


def test_a_gap_of_two_members_then_their_total_and_two_rows_then_their_gap(session: Session) -> None:
    """ "老用户比新用户多多少", "买家数呢", "给个合计": the two members' buyers pooled (the gap goes with
    the groups, never stuck asking about it); "它和华北比呢" then "差多少": the two rows' gap."""
    chat = session.conversation()
    for question in ("上个月新老用户的GMV", "老用户比新用户多多少", "买家数呢"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    total = chat.ask("给个合计")
    assert total.status == "answered" and total.semantic_query is not None, total.answer
    assert not total.semantic_query.difference and not total.semantic_query.dimensions
    pooled = _rows(session, f"SELECT COUNT(DISTINCT user_id) FROM fact_order WHERE {ORDERS} AND {JUNE}")
    assert _answer_rows(total, "buyer_count") == pooled
    chat = session.conversation()
    for question in ("上个月华南的GMV", "它和华北比呢"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    gap = chat.ask("差多少")
    assert gap.status == "answered" and gap.semantic_query is not None and gap.semantic_query.difference, gap.answer
    assert gap.semantic_query.filters[0].members == ("华南", "华北")


@pytest.mark.parametrize(
    ("turns", "members"),
    [
        (["对比一下华东和华南", "客单价，今年以来"], ("华东", "华南")),
        (["compare app and web", "GMV, last quarter"], ("app", "web")),
    ],
)
def test_a_metric_and_a_period_answering_which_metric_complete_the_question(
    session: Session, turns: list[str], members: tuple[str, ...]
) -> None:
    """ "compare app and web" (which metric?) then "GMV, last quarter": app against web — never the
    whole's GMV with the two members dropped without a word."""
    chat = session.conversation()
    assert chat.ask(turns[0], as_of=JULY).status == "clarification_needed"
    last = chat.ask(turns[1])
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    assert [f.members for f in last.semantic_query.filters] == [members]


def test_several_members_named_after_a_top_one_are_each_shown(session: Session) -> None:
    """ "上个月卖得最好的品类", "按订单量呢", "手机数码和服饰鞋包的笔单价": both categories' AOV — the top 1
    was carried over and 服饰鞋包 dropped."""
    chat = session.conversation()
    for question in ("上个月卖得最好的品类", "按订单量呢"):
        assert chat.ask(question, as_of=JULY).status == "answered"
    last = chat.ask("手机数码和服饰鞋包的笔单价")
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    assert last.semantic_query.top_n is None and last.result is not None and last.result.row_count == 2


def test_the_top_day_against_last_year_names_its_own_day_last_year(session: Session) -> None:
    """ "上个月GMV最高的是哪一天" then "去年同一天呢": the previous figure is 2025-06-18's, said so —
    never labelled with the whole of June 2025 (which reads as June's GMV)."""
    chat = session.conversation()
    assert chat.ask("上个月GMV最高的是哪一天", as_of=JULY).status == "answered"
    last = chat.ask("去年同一天呢")
    assert last.status == "answered", last.answer
    ((day_last_year,),) = _rows(session, f"SELECT {GMV} FROM fact_order WHERE order_date = DATE '2025-06-18'")
    assert "对比期（2025-06-18）为 ¥2,954,660.70" in last.answer and day_last_year == 2954660.7


@pytest.mark.parametrize(("turns", "foreign"), [(["华东上个月GMV", "is that up or down from the month before?"], "上个月"),
                                               (["GMV last month", "华东呢"], "last month")])  # fmt: skip
def test_a_period_inherited_across_languages_is_named_by_its_dates(
    session: Session, turns: list[str], foreign: str
) -> None:
    """An English turn after a Chinese one never quotes "上个月" in its English sentences (nor a
    Chinese turn "last month"): the inherited period is named by its dates."""
    chat = session.conversation()
    assert chat.ask(turns[0], as_of=JULY).status == "answered"
    last = chat.ask(turns[1])
    assert last.status == "answered" and last.interpretation is not None, last.answer
    assert foreign not in last.answer and foreign not in last.interpretation and "2026-06-01" in last.answer


@pytest.mark.parametrize(
    ("turns", "kept"),
    [
        # a place word said with a yes/no superlative: the row placed, never a new ranking
        (["GMV by channel last month", "is the bottom one's refund rate the highest?"], "place"),
        # members of one of two dimensions ranked, or among members the question kept: still ranked
        (["上个月各渠道各品类GMV最高的5个组合", "只看app和web呢"], "ranking"),
        (["上个月华东、华南、华北里GMV最高的区域", "华东和华南呢"], "ranking"),
        # every row, and no rows: never the total
        (["上个月GMV最高的3个品类", "全部列出来，不按品类分"], "asked"),
        # the metric asked for, and a period beside the question's own: which one? asked
        (["上个月对比一下华东和华南", "GMV，今年以来"], "asked"),
    ],
)
def test_follow_ups_near_the_new_readings_keep_their_meaning(session: Session, turns: list[str], kept: str) -> None:
    chat = session.conversation()
    chat.ask(turns[0], as_of=JULY)
    last = chat.ask(turns[1])
    if kept == "asked":
        assert last.status == "clarification_needed", last.answer
        return
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    if kept == "place":
        assert [f.members for f in query.filters] == [("live_stream",)] and query.top_n is None
    else:
        assert query.top_n is not None and len(query.filters) == 1


def test_a_ranked_period_of_part_of_a_month_names_those_days_last_year(session: Session) -> None:
    last = session.ask("2026年6月15日到6月30日每月GMV同比", as_of=JULY)
    assert last.status == "answered" and "对比期（2025-06-15 至 2025-06-30）" in last.answer, last.answer


def test_the_same_period_last_year_after_a_ranking_ranks_that_period(session: Session) -> None:
    """p67: "哪个区域退款率最高" then "去年同期呢" set this June's leader beside its value a year
    ago, read as last June's leader; the groups are ranked in that period. "同比呢" still asks for
    the leader's change."""
    chat = session.conversation()
    assert chat.ask("上个月哪个区域退款率最高", as_of=JULY).status == "answered"
    then = chat.ask("去年同期呢")
    assert then.status == "answered" and then.result is not None, then.answer
    ((region, rate),) = _rows(
        session,
        "SELECT region, CAST(COUNT(*) FILTER (WHERE status = 'refunded') AS DOUBLE) / COUNT(*) FILTER "
        "(WHERE status IN ('paid', 'refunded')) AS r FROM fact_order WHERE order_date BETWEEN '2025-06-01' AND "
        "'2025-06-30' GROUP BY 1 ORDER BY 2 DESC LIMIT 1",
    )
    assert [row[:2] for row in then.result.rows] == [[region, pytest.approx(rate)]]
    chat = session.conversation()
    assert chat.ask("上个月哪个区域退款率最高", as_of=JULY).status == "answered"
    change = chat.ask("同比呢")
    assert change.status == "answered" and change.semantic_query is not None
    assert change.semantic_query.comparison is not None


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ("上个月哪个区域退款率最高", "去年同期这个排名呢"),  # s23: "this ranking" points at the ranking
        ("top 3 channels by GMV last month", "show me that for the same month last year"),
    ],
)
def test_a_ranking_pointed_at_after_a_ranking_is_ranked_again(session: Session, first: str, then: str) -> None:
    chat = session.conversation()
    assert chat.ask(first, as_of=JULY).status == "answered"
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    assert answer.semantic_query.comparison is None and answer.time_range is not None
    assert answer.time_range.start == date(2025, 6, 1)


@pytest.mark.parametrize("then", ["去年同期是多少", "what was the figure in the same period last year?"])
def test_the_leaders_value_asked_after_a_ranking_is_compared(session: Session, then: str) -> None:
    """s22: "去年同期是多少" after "哪个区域退款率最高" asks the leader's value then, never who led then."""
    chat = session.conversation()
    assert chat.ask("上个月哪个区域退款率最高", as_of=JULY).status == "answered"
    answer = chat.ask(then)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    assert answer.semantic_query.comparison is not None and answer.time_range is not None
    assert answer.time_range.start == date(2026, 6, 1)


@pytest.mark.parametrize(
    ("first", "follow", "said"),
    [
        ("上个月GMV", "and the previous month?", "'the month before' is read as 2026-05-01 to 2026-05-31."),
        ("GMV on June 15, 2026", "and the day before?", "'the day before' is read as 2026-06-14."),
    ],
)
def test_a_period_counted_from_the_question_before_is_never_said_read_from_as_of(
    session: Session, first: str, follow: str, said: str
) -> None:
    """p70/p71: "and the day before?" was said to be "read relative to as-of date 2026-07-01"; it is
    counted from the question before. "上个月" itself is read from the as-of date, and says so."""
    chat = session.conversation()
    opened = chat.ask(first, as_of=JULY)
    assert opened.status == "answered"
    answer = chat.ask(follow)
    assert answer.status == "answered", answer.answer
    assert said in answer.assumptions and not any("as-of" in a for a in answer.assumptions[:1])
    if first == "上个月GMV":
        assert any("按分析日期 2026-07-01" in a for a in opened.assumptions)


@pytest.mark.parametrize(
    "turns",
    [
        ["Orders last week", "the week before?", "same week last year"],
        ["GMV last week", "vs the same week last year", "and the week before?"],
        ["Which week this year had the highest GMV?", "that week's net revenue", "vs the same week last year"],
    ],
)
def test_a_week_reached_by_a_follow_up_is_compared_with_its_iso_week(session: Session, turns: list[str]) -> None:
    """p72: a week reached by "the week before?" or "that week" lost its kind, and "same week last year"
    compared it with the same dates (Sunday to Saturday in 2025), reversing the change's sign."""
    chat = session.conversation()
    answers = [chat.ask(turns[0], as_of=JULY), *(chat.ask(t) for t in turns[1:])]
    last = answers[-1]
    assert last.status == "answered" and last.semantic_query is not None, last.answer
    query = last.semantic_query
    assert query.comparison is not None and query.time_range.start.weekday() == 0
    compared = query.comparison.range
    assert compared.start.weekday() == 0 and compared.end.weekday() == 6  # Monday to Sunday, a year before
    assert compared.start.isocalendar()[1] == query.time_range.start.isocalendar()[1]


def test_a_period_left_out_in_a_follow_up_is_left_out_of_the_period_before(session: Session) -> None:
    """Review s25: "GMV in H1" then "excluding June, live stream" answered June; after a period that
    does not hold it ("不含6月" twice) it is asked back, never read as a member left out instead."""
    chat = session.conversation()
    assert chat.ask("上半年各渠道GMV", as_of=JULY).status == "answered"
    cut = chat.ask("不含6月")
    assert cut.status == "answered" and cut.semantic_query is not None, cut.answer
    assert (cut.semantic_query.time_range.start, cut.semantic_query.time_range.end) == (
        date(2026, 1, 1),
        date(2026, 5, 31),
    )
    assert cut.semantic_query.dimensions == ("channel",) and cut.semantic_query.filters == ()
    again = chat.ask("excluding June, app only")
    assert again.status == "clarification_needed", again.answer
    other = session.conversation()
    assert other.ask("GMV in H1", as_of=JULY).status == "answered"
    assert other.ask("excluding June, live stream").status == "clarification_needed"


@pytest.mark.parametrize(
    ("first", "follow"), [("上个月净销售额", "只看订单量"), ("net revenue last month", "just orders")]
)
def test_only_a_count_of_other_rows_is_the_count(session: Session, first: str, follow: str) -> None:
    """Review s26: "只看订单量" after net revenue (paid orders) was asked back as if orders (paid and
    refunded) were some of its rows; it is the count instead."""
    chat = session.conversation()
    assert chat.ask(first, as_of=JULY).status == "answered"
    answer = chat.ask(follow)
    assert answer.status == "answered" and answer.semantic_query is not None, answer.answer
    assert answer.semantic_query.metrics == ("order_count",)
