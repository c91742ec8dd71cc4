"""The chart agent on real answers: the query's intent picks the chart, the catalog names it."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from baton.agents.chart import ChartAgent, intent_of, span_label
from baton.charts import validate_spec
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)


@pytest.mark.parametrize(
    ("question", "kind", "texts"),
    [
        ("上个月每天的GMV", "line", ["每日成交总额", "日期"]),
        ("上个月每天各渠道的GMV", "line", ["各渠道每日成交总额", "小程序", "直播"]),
        ("每月GMV 今年", "line", ["每月成交总额", "月份"]),
        ("weekly buyers this year", "line", ["Weekly buyers", "Week"]),
        ("上个月各渠道的GMV是多少？", "bar", ["各渠道成交总额", "渠道", "小程序"]),
        ("What was GMV by channel last month?", "horizontal_bar", ["GMV by channel", "mini program", "live stream"]),
        ("GMV by region last month", "horizontal_bar", ["GMV by region", "East China", "Northeast China"]),
        ("top 3 categories by GMV last month", "horizontal_bar", ["Top 3 category by GMV"]),
        ("上季度各品类的退款率", "bar", ["各品类退款率", "品类"]),
        ("上个月各大区各渠道GMV", "grouped_bar", ["各区域、渠道成交总额", "华东"]),
        ("上个月GMV环比", "grouped_bar", ["成交总额环比", "本期 2026年6月", "对比期 2026年5月"]),
        ("上个月各渠道GMV环比", "grouped_bar", ["成交总额环比", "本期 2026年6月", "APP"]),
        (
            "GMV by channel last month vs the same period last year",
            "grouped_bar",
            ["Current: Jun 2026", "Previous: Jun 2025"],
        ),
    ],
)
def test_query_intent_picks_the_chart_and_catalog_labels_name_it(
    demo_session: Session, question: str, kind: str, texts: list[str]
) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.chart is not None
    validate_spec(answer.chart)
    assert answer.chart["usermeta"]["baton"]["kind"] == kind
    assert answer.chart["usermeta"]["baton"]["language"] == answer.language
    blob = json.dumps(answer.chart, ensure_ascii=False)
    for text in texts:
        assert text in blob, (text, answer.chart["title"])
    assert answer.result is not None
    assert len(answer.chart["data"]["values"]) >= answer.result.row_count  # no row silently dropped


@pytest.mark.parametrize("question", ["上个月转化率", "2026年5月的GMV", "What was GMV last month?"])
def test_a_single_value_is_a_table_not_a_chart(demo_session: Session, question: str) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered"
    assert answer.chart is None
    assert answer.semantic_query is not None and answer.result is not None
    plan = ChartAgent(demo_session.catalog).plan(answer.semantic_query, answer.result, answer.language)
    assert plan.choice.kind == "table" and plan.spec is None


def test_member_codes_become_catalog_labels_in_each_language(demo_session: Session) -> None:
    zh = demo_session.ask("上个月各渠道的GMV是多少？", as_of=AS_OF)
    en = demo_session.ask("What was GMV by channel last month?", as_of=AS_OF)
    assert zh.chart is not None and en.chart is not None
    zh_members = {r["member"] for r in zh.chart["data"]["values"]}
    en_members = {r["member"] for r in en.chart["data"]["values"]}
    channel = demo_session.catalog.dimensions["channel"]
    assert zh_members == {m.label.zh for m in channel.members.values()}
    assert en_members == {m.label.en for m in channel.members.values()}


def test_refused_answers_carry_no_chart(demo_session: Session) -> None:
    answer = demo_session.ask("上个月的利润率是多少？", as_of=AS_OF)
    assert answer.status == "refused" and answer.chart is None


def test_intent_and_period_labels() -> None:
    assert span_label(date(2026, 6, 1), date(2026, 6, 30), "zh") == "2026年6月"
    assert span_label(date(2026, 6, 1), date(2026, 6, 30), "en") == "Jun 2026"
    assert span_label(date(2026, 6, 1), date(2026, 6, 15), "zh") == "2026-06-01 至 2026-06-15"
    assert span_label(date(2026, 2, 1), date(2026, 2, 28), "en") == "Feb 2026"


def test_intent_of_follows_the_query(demo_session: Session) -> None:
    cases = {
        "上个月每天的GMV": "trend",
        "上个月各渠道的GMV是多少？": "compare",
        "上个月GMV环比": "period_comparison",
        "上个月转化率": None,
    }
    for question, intent in cases.items():
        query = demo_session.planner.plan(question, as_of=AS_OF)
        assert intent_of(query) == intent, question


def test_a_single_series_trend_marks_the_peak_the_narrative_names(demo_session: Session) -> None:
    answer = demo_session.ask("上个月每天的GMV", as_of=AS_OF)
    assert answer.chart is not None and answer.result is not None
    peak_row = max(answer.result.rows, key=lambda r: float(r[1]))
    assert f"最高为 {peak_row[0]}" in answer.answer
    blob = json.dumps(answer.chart, ensure_ascii=False)
    assert '"最高"' in blob and str(peak_row[0]) in blob
    several = demo_session.ask("上个月每天各渠道的GMV", as_of=AS_OF)
    assert several.chart is not None and '"最高"' not in json.dumps(several.chart, ensure_ascii=False)


def test_analysis_chart_marks_the_incomplete_day_and_the_618_peak(demo_dir: Path) -> None:
    from baton.config import load_settings
    from baton.orchestrator.session import Session

    session = Session(load_settings(demo_dir / "baton.toml"))
    answer = session.analyze("为什么2026年6月的GMV下降了？", as_of=date(2026, 7, 1))
    session.close()
    assert answer.status == "answered", answer.error
    spec = answer.chart
    assert spec is not None
    validate_spec(spec)
    text = json.dumps(spec, ensure_ascii=False)
    assert "2026-06-12" in text  # the incomplete day is drawn, not dropped
    assert "数据不完整" in text
    assert "618" in text
    assert "2026-05-01" in text and "2026-06-30" in text  # both periods are on the chart


@pytest.mark.parametrize("question", ["上个月各渠道GMV的占比", "What share of GMV did each channel have last month?"])
def test_share_questions_draw_parts_of_a_whole(demo_session: Session, question: str) -> None:
    answer = demo_session.ask(question, as_of=date(2026, 7, 1))
    assert answer.status == "answered", answer.error
    assert answer.semantic_query is not None and answer.semantic_query.intent == "share"
    assert answer.chart is not None
    assert answer.chart["usermeta"]["baton"]["kind"] in {"donut", "stacked_bar"}
    validate_spec(answer.chart)


def test_two_measures_across_members_draw_a_scatter(demo_session: Session) -> None:
    answer = demo_session.ask("上个月各区域的GMV和订单量", as_of=date(2026, 7, 1))
    assert answer.status == "answered", answer.error
    assert answer.chart is not None
    assert answer.chart["usermeta"]["baton"]["kind"] == "scatter"
    assert "成交总额与订单量" in json.dumps(answer.chart, ensure_ascii=False)
    validate_spec(answer.chart)


@pytest.mark.parametrize(
    ("question", "texts"),
    [
        ("上个月华东各渠道的GMV", ["各渠道成交总额", "2026年6月", "区域：华东"]),
        ("上个月除直播外各渠道的GMV", ["渠道：不含直播"]),
        ("上个月华东和华南每天的GMV", ["每日成交总额", "区域：华东、华南"]),
        ("上个月华东GMV环比", ["环比", "区域：华东"]),
        ("上季度华东各品类的退款率", ["2026年第2季度", "区域：华东"]),
        ("GMV by channel in East China last month", ["GMV by channel", "Jun 2026", "region: East China"]),
        ("GMV by channel excluding live stream last month", ["channel: excluding live stream"]),
    ],
)
def test_the_title_states_the_filters_and_the_period(demo_session: Session, question: str, texts: list[str]) -> None:
    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.status == "answered", answer.error
    assert answer.chart is not None
    title = answer.chart["title"]["text"]
    for text in texts:
        assert text in title, (text, title)


def test_the_title_comes_from_the_query_not_the_question(demo_session: Session) -> None:
    """The filters are read from the SemanticQuery: a query built by hand is titled the same way."""
    from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange

    query = SemanticQuery(
        metrics=("gmv",),
        dimensions=("channel",),
        filters=(
            MemberFilter(dimension="region", members=("华东",)),
            MemberFilter(dimension="channel", members=("live_stream",), exclude=True),
        ),
        time_range=TimeRange(start=date(2026, 1, 1), end=date(2026, 3, 31)),
        as_of=AS_OF,
    )
    catalog = demo_session.catalog
    east = catalog.member_label("region", "华东", "zh")
    live = catalog.member_label("channel", "live_stream", "zh")
    zh = ChartAgent(catalog).title(query, "gmv", "zh")
    assert zh == f"各渠道成交总额（2026年第1季度，区域：{east}；渠道：不含{live}）"
    en = ChartAgent(catalog).title(query, "gmv", "en")
    assert "Q1 2026" in en and catalog.member_label("region", "华东", "en") in en and "excluding" in en


@pytest.mark.parametrize(
    ("question", "labels"),
    [
        ("每月GMV 今年", ["2026年1月", "2026年2月", "2026年3月"]),
        ("monthly GMV this year", ["Jan 2026", "Feb 2026", "Mar 2026"]),
    ],
)
def test_a_monthly_trend_is_labelled_by_month(demo_session: Session, question: str, labels: list[str]) -> None:
    from baton.charts import render_svg
    from tests.charts.svgread import axis_labels

    answer = demo_session.ask(question, as_of=AS_OF)
    assert answer.chart is not None
    x_labels = next(axis for axis in axis_labels(render_svg(answer.chart)) if axis)
    assert x_labels[:3] == labels
    tips = [ly["encoding"]["tooltip"][0] for ly in answer.chart["layer"] if "tooltip" in ly.get("encoding", {})]
    assert tips and all(tip["format"] in ("%Y年%-m月", "%b %Y") for tip in tips)


def test_periods_read_as_quarters_years_and_month_ranges() -> None:
    assert span_label(date(2026, 4, 1), date(2026, 6, 30), "zh") == "2026年第2季度"
    assert span_label(date(2026, 4, 1), date(2026, 6, 30), "en") == "Q2 2026"
    assert span_label(date(2025, 1, 1), date(2025, 12, 31), "zh") == "2025年"
    assert span_label(date(2024, 1, 1), date(2025, 12, 31), "en") == "2024 – 2025"
    assert span_label(date(2026, 1, 1), date(2026, 6, 30), "zh") == "2026年1月 至 2026年6月"
    assert span_label(date(2026, 5, 1), date(2026, 6, 30), "en") == "May 2026 – Jun 2026"


def test_a_parts_share_inside_each_group_is_charted_as_those_shares(demo_session: Session) -> None:
    """ "各区域中直播的GMV占比": each region's own share side by side, never how the part splits."""
    answer = demo_session.ask("上个月各区域中直播的GMV占比", as_of=AS_OF)
    assert answer.status == "answered" and answer.chart is not None and answer.result is not None
    names = [c.name for c in answer.result.columns]
    shares = {row[names.index("region")]: row[names.index("gmv_share")] for row in answer.result.rows}
    spec = answer.chart
    assert "直播" in spec["title"]["text"]
    plotted = {v["member"]: v["value"] for v in spec["data"]["values"]}
    labels = {m: demo_session.catalog.member_label("region", m, "zh") for m in shares}
    assert plotted == {labels[m]: pytest.approx(share) for m, share in shares.items()}
