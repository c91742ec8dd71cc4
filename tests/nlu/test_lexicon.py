"""The catalog's words found in a question: two synonyms of one term that overlap are one hit."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from baton.catalog.loader import load_catalog
from baton.nlu.lexicon import Lexicon
from baton.nlu.parser import Planner

SAAS = Path(__file__).resolve().parents[1] / "fixtures" / "saas" / "catalog.yaml"


def test_two_synonyms_of_one_term_that_overlap_are_one_hit(tmp_path: Path) -> None:
    """ "new accounts signed up": "new accounts" and "accounts signed up" both name new accounts —
    one hit over both, never the longer one and a stray "new" asked back."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["metrics"]["new_accounts"]["synonyms"].append("accounts signed up")
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = Lexicon(load_catalog(path))
    hits = lexicon.find("how many new accounts signed up in 2025 by country")
    assert [(h.text, {t.target for t in h.terms}) for h in hits] == [
        ("new accounts signed up", {"new_accounts"}),
        ("country", {"country"}),
    ]
    # terms of different things that overlap stay apart: the longer is taken
    assert [h.text for h in lexicon.find("new subscriptions by plan")] == ["new subscriptions", "plan"]


def test_a_chat_word_glued_to_chinese_is_never_a_member_spelled_in_capitals(tmp_path: Path) -> None:
    """A state code "OK" beside the word "ok": "…多少ok" is a chat word; "OK的…" (in capitals) is the member."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["dimensions"]["plan"]["members"]["oklahoma"] = {"label": {"zh": "俄州", "en": "Oklahoma"}, "synonyms": ["OK"]}
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = Lexicon(load_catalog(path))
    assert [h.text for h in lexicon.find("上个月新订阅数多少ok")] == ["新订阅数"]
    assert [h.text for h in lexicon.find("上个月OK的新订阅数")] == ["OK", "新订阅数"]


def test_a_dimension_is_found_in_the_english_plural_the_catalog_does_not_list(tmp_path: Path) -> None:
    """ "top 3 tiers": the plural of a dimension word is the dimension, unless it is another term."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["dimensions"]["plan"]["synonyms"] = ["套餐", "plan", "tier", "billing category", "level"]
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = Lexicon(load_catalog(path))
    for said in ("plans", "tiers", "billing categories"):
        hits = lexicon.find(f"new subscriptions by {said} last month")
        assert [(h.text, h.kinds) for h in hits] == [("new subscriptions", {"metric"}), (said, {"dimension"})]
    assert not any(h.text == "subscription" for h in lexicon.find("subscriptions"))  # metrics are never pluralised
    assert [h.text for h in lexicon.find("new subscriptions levels")] == [
        "new subscriptions"
    ]  # a filler word stays one


def test_a_rate_or_a_value_is_found_in_the_english_plural() -> None:
    """ "refund rates by region", "average order values by category": the rates of the groups; a
    name ending otherwise is never pluralised ("average orders" counts orders, "conversions" counts)."""
    lexicon = Lexicon(load_catalog(Path(__file__).resolve().parents[2] / "src/baton/demo/data/catalog.yaml"))
    for said, metric in (
        ("refund rates", "refund_rate"),
        ("conversion rates", "conversion_rate"),
        ("average order values", "aov"),
    ):
        (hit,) = [h for h in lexicon.find(f"{said} by region last month") if h.kinds == {"metric"}]
        assert (hit.text, {t.target for t in hit.terms}) == (said, {metric})
    assert not any(h.text == "average orders" for h in lexicon.find("daily average orders by region"))


@pytest.mark.parametrize(
    ("question", "metric"),
    [
        ("order share by region last month", "order_count"),
        ("visitor share by channel last month", "visitors"),
        ("order growth last month", "order_count"),
        ("weekly visitor trend this year", "visitors"),
        ("buyer mix by user type last month", "buyer_count"),
        ("rank channels in order of GMV last month", None),  # "in order of": no count said
        ("each order value last month", None),  # "order value": no noun a count stands before
    ],
)
def test_a_count_named_in_the_singular_before_a_noun_is_that_count(question: str, metric: str | None) -> None:
    """ "order share", "visitor trend": a count named by one plural word, said in the singular as
    English does before a noun — only before such a noun."""
    lexicon = Lexicon(load_catalog(Path(__file__).resolve().parents[2] / "src/baton/demo/data/catalog.yaml"))
    found = {t.target for h in lexicon.find(question) for t in h.terms if t.kind == "metric"}
    assert found == ({metric} if metric else {"gmv"} if "GMV" in question else set())


def test_a_period_right_after_a_dimension_word_is_read_as_said(tmp_path: Path) -> None:
    """ "各产品线上个月的新订阅数": 线 ends the dimension word, never 线上 (online) — the period is 上个月."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["dimensions"]["plan"]["synonyms"].append("产品线")
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    query = Planner(load_catalog(path)).plan("各产品线上个月的新订阅数", as_of=date(2025, 7, 1))
    assert query.dimensions == ("plan",)
    assert (query.time_range.start, query.time_range.end) == (date(2025, 6, 1), date(2025, 6, 30))


def test_a_term_that_is_part_of_a_period_is_never_cut_from_it(tmp_path: Path) -> None:
    """A member "2025年" (a cohort) before 上半年: the period is 2025's first half, as said."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["dimensions"]["plan"]["members"]["cohort_2025"] = {"label": {"zh": "2025年", "en": "cohort 2025"}}
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    query = Planner(load_catalog(path)).plan("2025年上半年新订阅数", as_of=date(2026, 7, 1))
    assert (query.time_range.start, query.time_range.end) == (date(2025, 1, 1), date(2025, 6, 30))
