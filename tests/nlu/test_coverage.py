"""A model's reading must account for every content word of the question.

Table-driven over the demo catalog: a plan that leaves a word out — one the rules could not
place ("天猫"), a catalog word, an operator — is asked back naming it; spans that say what a
paraphrase became cover it, and the answer states the paraphrase; spans cannot be used to hide a
word (a span holding more than its own catalog word, an ``ignored`` content word, a member the
query does not use, words the question does not hold).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any, cast

import pytest

from baton.catalog.loader import load_catalog
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion, ModelFailure
from baton.llm import Provider
from baton.nlu.coverage import Explained, name_words, terms_of
from baton.nlu.llm_planner import LlmPlanner, validate_plan
from baton.nlu.parser import Planner

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
RULES = Planner(CATALOG)
AS_OF = date(2026, 7, 1)
PARENT = RULES.plan("上个月各渠道的GMV是多少？", as_of=AS_OF)


def _span(words: str, became: str, name: str | None = None) -> dict[str, Any]:
    return {"text": words, "became": became, "name": name, "reason": None}


def _validate(question: str, plan: dict[str, Any], parent: SemanticQuery | None = None) -> SemanticQuery:
    return validate_plan(plan, question=question, catalog=CATALOG, as_of=AS_OF, parent=parent, rules=RULES)


LAST_MONTH = {"period": {"words": "上个月"}}
LAST_MONTH_EN = {"period": {"words": "last month"}}

# question, plan, follows the parent?, the words asked back
LEFT_OUT: list[tuple[str, dict[str, Any], bool, list[str]]] = [
    ("上个月天猫的GMV", {"metrics": ["gmv"], **LAST_MONTH}, False, ["天猫"]),
    (  # a span naming GMV does not cover the word beside it
        "上个月天猫的GMV",
        {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("天猫的GMV", "metric", "gmv")]},
        False,
        ["天猫"],
    ),
    ("GMV on Tmall last month", {"metrics": ["gmv"], **LAST_MONTH_EN}, False, ["tmall"]),
    ("上个月华南的GMV", {"metrics": ["gmv"], **LAST_MONTH}, False, ["华南"]),  # a catalog word dropped
    ("上个月GMV环比", {"metrics": ["gmv"], **LAST_MONTH}, False, ["环比"]),  # an operator dropped
    (  # "top 3" read as a top 5
        "上个月GMV前3的渠道",
        {"metrics": ["gmv"], "dimensions": ["channel"], "top_n": 5, **LAST_MONTH},
        False,
        ["前", "3"],
    ),
    (  # "ignored" covers only filler words
        "上个月天猫的GMV",
        {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("天猫", "ignored")]},
        False,
        ["天猫"],
    ),
    (  # a span naming a member the query does not filter on covers nothing
        "上个月天猫的GMV",
        {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("天猫", "member", "app")]},
        False,
        ["天猫"],
    ),
    (  # a paraphrase span does not cover a member of another dimension inside it
        "上个月华南卖出去的货款",
        {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("华南卖出去的货款", "metric", "gmv")]},
        False,
        ["华南"],
    ),
    ("那天猫呢", dict(PARENT_PLAN := {"metrics": ["gmv"], "dimensions": ["channel"]}), True, ["天猫"]),
    (  # one place of a ranking read as the whole ranking
        "上个月订单量排名第二的品类",
        {"metrics": ["order_count"], "dimensions": ["category"], **LAST_MONTH},
        False,
        ["排名第二"],
    ),
    (  # ranked by the metric listed first (orders), not the one "by" attaches the ranking to
        "orders for the top 2 channels by AOV last month",
        {"metrics": ["order_count", "aov"], "dimensions": ["channel"], "top_n": 2, **LAST_MONTH_EN},
        False,
        ["2", "top"],
    ),
    (  # a ranking span whose number is not the query's
        "Gross sales for the best 2 regions last month",
        {
            "metrics": ["gmv"],
            "dimensions": ["region"],
            "top_n": 3,
            **LAST_MONTH_EN,
            "spans": [_span("Gross sales", "metric", "gmv"), _span("best 2", "ranking")],
        },
        False,
        ["2", "best"],
    ),
]


@pytest.mark.parametrize(("question", "plan", "follows", "words"), LEFT_OUT)
def test_a_word_the_reading_left_out_is_asked_back(
    question: str, plan: dict[str, Any], follows: bool, words: list[str]
) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        _validate(question, plan, PARENT if follows else None)
    assert caught.value.detail["reason"] == "model_left_out"
    assert caught.value.detail["unknown"] == words
    assert all(w in caught.value.message("en") for w in words)


COVERED: list[tuple[str, dict[str, Any]]] = [
    (
        "What were our gross sales through the mobile app last month?",
        {
            "metrics": ["gmv"],
            "filters": [{"dimension": "channel", "members": ["app"]}],
            **LAST_MONTH_EN,
            "spans": [_span("gross sales", "metric", "gmv"), _span("mobile app", "member", "app")],
        },
    ),
    ("上个月华南的GMV", {"metrics": ["gmv"], "filters": [{"dimension": "region", "members": ["华南"]}], **LAST_MONTH}),
    (
        "上个月GMV环比",
        {"metrics": ["gmv"], "comparison": "previous_period", **LAST_MONTH},
    ),
    ("上个月GMV前3的渠道", {"metrics": ["gmv"], "dimensions": ["channel"], "top_n": 3, **LAST_MONTH}),
    (
        "上个月流水前两名的区域",
        {
            "metrics": ["gmv"],
            "dimensions": ["region"],
            "top_n": 2,
            **LAST_MONTH,
            "spans": [_span("流水", "metric", "gmv"), _span("前两名", "ranking")],
        },
    ),
]


@pytest.mark.parametrize(("question", "plan"), COVERED)
def test_a_reading_that_places_every_word_is_used(question: str, plan: dict[str, Any]) -> None:
    assert _validate(question, plan).metrics == ("gmv",)


def test_a_ranking_planned_by_the_metric_its_words_attach_to_is_used() -> None:
    plan = {"metrics": ["aov", "order_count"], "dimensions": ["channel"], "top_n": 2, **LAST_MONTH_EN}
    assert _validate("orders for the top 2 channels by AOV last month", plan).metrics == ("aov", "order_count")


def test_a_follow_up_that_places_its_word_is_used() -> None:
    plan = {**PARENT_PLAN, "filters": [{"dimension": "region", "members": ["华南"]}]}
    assert _validate("那华南呢", plan, PARENT).filters[0].members == ("华南",)


def test_a_paraphrase_is_stated_with_the_reading() -> None:
    planner = LlmPlanner(CATALOG, cast(Provider, None), rules=RULES)
    reading = planner.read(COVERED[0][1], question=COVERED[0][0], as_of=AS_OF, language="en", model="scripted")
    said = " ".join(reading.assumptions)
    gmv, channel, app = (
        CATALOG.metrics["gmv"],
        CATALOG.dimensions["channel"],
        CATALOG.dimensions["channel"].members["app"],
    )
    assert f"'gross sales' as {gmv.label.en}" in said
    assert f"'mobile app' as {channel.label.en} {app.label.en}" in said
    zh = planner.read(COVERED[0][1], question=COVERED[0][0], as_of=AS_OF, language="zh", model="scripted")
    assert any(f"“gross sales”理解为{gmv.label.zh}" in a for a in zh.assumptions)


def test_a_span_quoting_words_the_question_lacks_breaks_the_contract() -> None:
    plan = {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("天猫", "member", "app")]}
    with pytest.raises(ModelFailure) as caught:
        _validate("上个月app的GMV", plan)
    assert caught.value.detail["reason"] == "schema_violation" and caught.value.detail["field"] == "spans.text"


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("mobile app", ["mobile app"]),
        ("gross sales through the mobile app", ["gross sales", "mobile app"]),
        ("天猫的GMV", ["天猫", "gmv"]),
        ("天猫GMV", ["天猫", "gmv"]),
        ("the", []),
        ("top 3", ["top", "3"]),
    ],
)
def test_terms_are_the_rules_segmentation(text: str, terms: list[str]) -> None:
    assert terms_of(text) == terms


def test_words_the_catalog_names_as_one_metric_read_as_another_are_asked_back_naming_both() -> None:
    plan = {"metrics": ["gmv"], **LAST_MONTH, "spans": [_span("订单量", "metric", "gmv")]}
    with pytest.raises(AmbiguousQuestion) as caught:
        _validate("上个月订单量", plan)
    assert caught.value.detail["reason"] == "model_catalog_conflict"
    assert caught.value.detail["suggestions"] == ["order_count", "gmv"]
    said = caught.value.message("en")
    assert CATALOG.metrics["order_count"].label.en in said and CATALOG.metrics["gmv"].label.en in said


# question, the model's paraphrase span (read as GMV), the name it swallowed: asked back naming it
SWALLOWED: list[tuple[str, str, str, dict[str, Any]]] = [
    ("上个月天猫销售额是多少", "天猫销售额", "天猫", LAST_MONTH),  # an unknown noun beside the metric's own word
    ("Tmall sales last month", "Tmall sales", "tmall", LAST_MONTH_EN),  # capitalised beside the target's word
    ("上个月京东卖出去的钱有多少", "京东卖出去的钱", "京东", LAST_MONTH),  # a proper noun inside a paraphrase
    ("What were Tmall sales last month?", "Tmall sales", "tmall", LAST_MONTH_EN),  # capitalised mid-sentence
    ("Show me the Shopee gross sales for last month", "Shopee gross sales", "shopee", LAST_MONTH_EN),
]


@pytest.mark.parametrize(("question", "words", "name", "period"), SWALLOWED)
def test_a_name_swallowed_into_a_paraphrase_span_is_asked_back(
    question: str, words: str, name: str, period: dict[str, Any]
) -> None:
    plan = {"metrics": ["gmv"], **period, "spans": [_span(words, "metric", "gmv")]}
    with pytest.raises(AmbiguousQuestion) as caught:
        _validate(question, plan)
    assert caught.value.detail["reason"] == "model_left_out"
    assert caught.value.detail["unknown"] == [name]


# question, span, what it became: true paraphrases the name check leaves covered
PARAPHRASES: list[tuple[str, dict[str, Any], list[dict[str, Any]]]] = [
    ("上个月卖出去的钱有多少", {"metrics": ["gmv"], **LAST_MONTH}, [_span("卖出去的钱", "metric", "gmv")]),
    ("上个月流水多少", {"metrics": ["gmv"], **LAST_MONTH}, [_span("流水", "metric", "gmv")]),
    (
        "上个月卖货渠道的GMV",
        {"metrics": ["gmv"], "dimensions": ["channel"], **LAST_MONTH},
        [_span("卖货渠道", "dimension", "channel")],
    ),
    (
        "Gross sales of the mobile app last month",
        {"metrics": ["gmv"], "filters": [{"dimension": "channel", "members": ["app"]}], **LAST_MONTH_EN},
        [_span("Gross sales", "metric", "gmv"), _span("mobile app", "member", "app")],
    ),
]


@pytest.mark.parametrize(("question", "plan", "spans"), PARAPHRASES)
def test_a_true_paraphrase_stays_covered(question: str, plan: dict[str, Any], spans: list[dict[str, Any]]) -> None:
    assert _validate(question, {**plan, "spans": spans}).metrics == ("gmv",)


@pytest.mark.parametrize(
    ("text", "before", "beside", "names"),
    [
        ("Tmall sales", "What were ", False, ["Tmall"]),
        ("Tmall sales", "", False, []),  # a capital opening the question says nothing in a paraphrase…
        ("Tmall sales", "", True, ["Tmall"]),  # …but beside the target's own word it restricts it
        ("Mobile app", "", False, []),
        ("mobile app", "the ", False, []),  # a lowercase modifier is a paraphrase
        ("天猫销售额", "", True, ["天猫"]),  # a noun the dictionary lacks, beside the target's own word
        ("卖货销售额", "", True, []),  # a general noun beside it describes the target
        ("天猫卖出去的钱", "", False, []),  # a name jieba only guesses, not before a noun: not caught
        ("天猫流水", "", False, []),  # nor before a head noun: "进店人数" is a paraphrase
        ("进店人数", "", False, []),
        ("京东卖出去的钱", "", False, ["京东"]),
        ("卖出去的钱", "", False, []),
    ],
)
def test_name_words(text: str, before: str, beside: bool, names: list[str]) -> None:
    explained = Explained(zh="销售额", en=frozenset({"sale"}))  # the target's own words
    found = name_words(text, explained, before=before, beside=beside)
    assert [text[a:b] for a, b in found] == names
