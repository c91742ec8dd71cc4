"""Preference statements in Chinese and English are read; anything else — every eval question,
a statement naming a member, a number or a word the catalog lacks — is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baton.catalog.model import Catalog
from baton.contracts.memory import CHART_CODES, LANGUAGE_CODES
from baton.memory import read_statement

EVAL = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "eval"

STATEMENTS: list[tuple[str, str, str | list[str]]] = [
    # default breakdown
    ("以后默认按渠道拆分", "default_breakdown", "channel"),
    ("默认按区域看", "default_breakdown", "region"),
    ("以后都按品类来看吧", "default_breakdown", "category"),
    ("我习惯按用户类型看", "default_breakdown", "user_type"),
    ("默认的拆分维度是区域", "default_breakdown", "region"),
    ("把默认拆分设为品类", "default_breakdown", "category"),
    ("以渠道为默认维度", "default_breakdown", "channel"),
    ("以后默认按渠道拆分。", "default_breakdown", "channel"),
    ("from now on break down by channel", "default_breakdown", "channel"),
    ("always show me by region", "default_breakdown", "region"),
    ("Please always break it down by category from now on.", "default_breakdown", "category"),
    ("going forward, split results by category", "default_breakdown", "category"),
    ("I usually look at things by channel", "default_breakdown", "channel"),
    ("I prefer breakdowns by region", "default_breakdown", "region"),
    ("set my default breakdown to category", "default_breakdown", "category"),
    ("default breakdown: user type", "default_breakdown", "user_type"),
    ("use channel as my default breakdown", "default_breakdown", "channel"),
    # language
    ("以后都用英文回答", "language", "en"),
    ("请用中文", "language", "zh"),
    ("以后请用英语回复", "language", "en"),
    ("回答请用中文", "language", "zh"),
    ("语言设为英文", "language", "en"),
    ("answer in English", "language", "en"),
    ("reply in Chinese from now on", "language", "zh"),
    ("please use english", "language", "en"),
    ("switch to English", "language", "en"),
    ("English please", "language", "en"),
    ("I'd prefer answers in Chinese", "language", "zh"),
    ("my preferred language is English", "language", "en"),
    # favourite metrics
    ("我最关心GMV和订单量", "favourite_metrics", ["gmv", "order_count"]),
    ("我常看的指标是GMV、订单量和退款率", "favourite_metrics", ["gmv", "order_count", "refund_rate"]),
    ("我的核心指标是转化率", "favourite_metrics", ["conversion_rate"]),
    ("我关注访客数和转化率", "favourite_metrics", ["visitors", "conversion_rate"]),
    ("把GMV和订单量设为常用指标", "favourite_metrics", ["gmv", "order_count"]),
    ("我最关心GMV和订单量这两个指标", "favourite_metrics", ["gmv", "order_count"]),
    ("my favourite metrics are GMV and orders", "favourite_metrics", ["gmv", "order_count"]),
    ("my key metrics are GMV, orders and refund rate", "favourite_metrics", ["gmv", "order_count", "refund_rate"]),
    ("I mostly track conversion rate and visitors", "favourite_metrics", ["conversion_rate", "visitors"]),
    ("I care most about AOV", "favourite_metrics", ["aov"]),
    ("key metrics: gmv, aov", "favourite_metrics", ["gmv", "aov"]),
    # chart
    ("图表用折线图", "chart", "line"),
    ("以后用柱状图吧", "chart", "bar"),
    ("以后图表都用柱状图", "chart", "bar"),
    ("以后都用折线图展示", "chart", "line"),
    ("默认图表类型是饼图", "chart", "donut"),
    ("我喜欢折线图", "chart", "line"),
    ("I prefer line charts", "chart", "line"),
    ("draw bar charts from now on", "chart", "bar"),
    ("my default chart is a bar chart", "chart", "bar"),
    ("I like pie charts", "chart", "donut"),
    ("always use tables", "chart", "table"),
]

NOT_STATEMENTS = [
    # questions
    "上个月各渠道的GMV",
    "上个月各渠道的GMV是多少？",
    "按渠道看",  # one question's breakdown, not a default
    "默认按渠道看GMV",  # a metric too: a question, not only a preference
    "always show me GMV by region",
    "What was GMV by channel last month?",
    "我最关心的指标是什么",
    "what are my favourite metrics",
    "以后能用英文吗",
    "show me line charts of GMV",
    "SHOW TABLES",
    # one answer's form, not a preference
    "中文",
    "用折线图",
    "换成折线图",
    "那华南呢",
    # more than one dimension, or something beside the preference
    "以后默认按渠道和区域拆分",
    "from now on break down by channel and region",
    "以后默认按渠道拆分，看上个月",
    # members, numbers and words the catalog does not hold are never stored
    "以后默认看华南",
    "以后默认按华南拆分",
    "from now on break down by South China",
    "我最关心GMV和100",
    "my favourite metrics are GMV and 13800138000",
    "我最关心GMV和利润率",
    "以后默认按城市拆分",
    "from now on break down by city",
    "I care most about revenue",  # two metrics answer to "revenue": not clearly one
    "",
    "   ",
    "以后默认按渠道拆分" * 30,  # too long
]


@pytest.mark.parametrize(("said", "key", "value"), STATEMENTS, ids=[s for s, _, _ in STATEMENTS])
def test_a_statement_is_read(catalog: Catalog, said: str, key: str, value: str | list[str]) -> None:
    pref = read_statement(said, catalog)
    assert pref is not None, said
    assert (pref.key, pref.value) == (key, value)
    assert pref.source == "stated"
    assert pref.evidence == said.rstrip("。.")


@pytest.mark.parametrize(("said", "key", "value"), STATEMENTS, ids=[s for s, _, _ in STATEMENTS])
def test_what_is_read_is_a_catalog_name_or_a_code(
    catalog: Catalog, said: str, key: str, value: str | list[str]
) -> None:
    pref = read_statement(said, catalog)
    assert pref is not None
    allowed: set[str] = {
        "language": set(LANGUAGE_CODES),
        "chart": set[str](CHART_CODES),
        "default_breakdown": set(catalog.dimensions),
        "favourite_metrics": set(catalog.metrics),
    }[pref.key]
    assert set(pref.values) <= allowed


@pytest.mark.parametrize("said", NOT_STATEMENTS, ids=[s[:40] or "<empty>" for s in NOT_STATEMENTS])
def test_anything_else_is_not_a_statement(catalog: Catalog, said: str) -> None:
    assert read_statement(said, catalog) is None


@pytest.mark.parametrize("split", ["dev", "heldout"])
def test_no_eval_question_is_read_as_a_statement(catalog: Catalog, split: str) -> None:
    questions = [json.loads(line)["question"] for line in (EVAL / f"{split}.jsonl").read_text().splitlines() if line]
    assert len(questions) > 100
    read = [(q, p.key) for q in questions if (p := read_statement(q, catalog)) is not None]
    assert read == []


def test_markup_and_control_characters_are_not_statements(catalog: Catalog) -> None:
    assert read_statement("以后默认按渠道拆分\x1b[2J", catalog) is None
    assert read_statement("[red]answer in English[/red]", catalog) is None
    assert read_statement("以后默认按\ue000拆分", catalog) is None  # the reader's own placeholder


@pytest.mark.parametrize("said", ["接下来按品类看", "之后按渠道拆", "后面按区域看", "然后按品类看", "接下来用英文回答"])
def test_the_next_step_of_a_conversation_is_not_a_preference(catalog: Catalog, said: str) -> None:
    assert read_statement(said, catalog) is None


@pytest.mark.parametrize(("said", "value"), [("接下来都按品类看", "category"), ("接下来默认按渠道拆分", "channel")])
def test_the_next_step_said_to_hold_from_now_on_is_a_preference(catalog: Catalog, said: str, value: str) -> None:
    pref = read_statement(said, catalog)
    assert pref is not None and pref.key == "default_breakdown" and pref.value == value
