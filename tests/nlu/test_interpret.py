"""The interpretation names everything the query computes: each filter (and whether it
excludes), the period and the comparison period with their dates, the breakdown, the grain,
the ranking and the share — in both languages, for every answered dev eval question."""

from __future__ import annotations

import json
from datetime import date
from importlib import resources
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import OPEN_START, SemanticQuery
from baton.messages import text
from baton.nlu.interpret import interpret
from baton.nlu.parser import Planner


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")


@pytest.fixture(scope="module")
def planner(catalog: Catalog) -> Planner:
    return Planner(catalog)


def _answered_dev_questions() -> list[tuple[str, str]]:
    lines = resources.files("baton.demo").joinpath("data/eval/dev.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [(c["question"], c["as_of"]) for c in cases if c["expect_status"] == "answered"]


def _missing(query: SemanticQuery, said: str, catalog: Catalog, lang: Language) -> list[str]:
    """What of ``query`` the sentence does not name."""
    start = query.time_range.start  # all time shows its end alone, as all time
    said_start = text("answer.all_time", lang, end=query.time_range.end) if start == OPEN_START else start.isoformat()
    wanted: list[str] = [said_start, query.time_range.end.isoformat()]
    wanted += [catalog.metrics[m].label.for_lang(lang) for m in query.metrics]
    for f in (*query.filters, *query.share_filters):
        dim = catalog.dimensions[f.dimension]
        wanted += [dim.members[m].label.for_lang(lang) for m in f.members]
        if f in query.filters:
            wanted.append(dim.label.for_lang(lang))
        if f.exclude:  # a filter says "is not"; a share's part "all but"
            key = "answer.interpret_excluded" if f in query.filters else "answer.interpret_all_but"
            wanted.append(text(key, lang, dim="", members="").strip())
    wanted += [catalog.dimensions[d].label.for_lang(lang) for d in query.dimensions]
    if query.grain is not None:
        wanted.append(text(f"answer.grain_{query.grain}", lang))
    if query.comparison is not None:
        wanted += [query.comparison.range.start.isoformat(), query.comparison.range.end.isoformat()]
    if query.top_n is not None:
        wanted.append(str(query.top_n))
    if query.share:
        wanted.append({"en": "share", "zh": "占"}[lang])
    return [w for w in wanted if w not in said]


CASES = _answered_dev_questions()


@pytest.mark.parametrize(("question", "as_of"), CASES, ids=[q for q, _ in CASES])
def test_the_interpretation_names_every_part_of_the_query(
    planner: Planner, catalog: Catalog, question: str, as_of: str
) -> None:
    query = planner.plan(question, as_of=date.fromisoformat(as_of))
    for lang in ("en", "zh"):
        said = interpret(query, catalog, lang)
        assert not _missing(query, said, catalog, lang), (lang, said, _missing(query, said, catalog, lang))


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        (
            "Top 3 regions by GMV last month excluding live stream",
            "Read as: GMV by region, where channel is not live stream, top 3 (highest first), "
            "last month (2026-06-01 to 2026-06-30).",
        ),
        (
            "What percentage of GMV came from new users last month?",
            "Read as: the share of new users in GMV, last month (2026-06-01 to 2026-06-30).",
        ),
        (
            "上个月GMV同比",
            "问题理解为：上个月（2026-06-01 至 2026-06-30）的成交总额，对比去年同期：2025-06-01 至 2025-06-30。",
        ),
        (
            "上个月除了直播以外各区域的GMV",
            "问题理解为：上个月（2026-06-01 至 2026-06-30）、渠道不含直播、按区域的成交总额。",
        ),
        (  # the period as said, without the blanks of the why read before it
            "为什么二季度退款率上升了？",
            "问题理解为：二季度（2026-04-01 至 2026-06-30）的退款率上升（问题所述，已用数据核对）的原因，"
            "对比上一周期：2026-01-01 至 2026-03-31。",
        ),
        (
            "上个月退款率超过5%的品类有哪些",
            "问题理解为：上个月（2026-06-01 至 2026-06-30）、按品类的退款率，只看退款率高于 5.00% 的。",
        ),
        (
            "channels with more than 10,000 orders last month",
            "Read as: orders by channel, only those with orders above 10,000, last month (2026-06-01 to 2026-06-30).",
        ),
    ],
)
def test_the_sentence_reads_as_a_sentence(planner: Planner, catalog: Catalog, question: str, expected: str) -> None:
    query = planner.plan(question, as_of=date(2026, 7, 1))
    lang: Language = "zh" if expected.startswith("问题") else "en"
    assert interpret(query, catalog, lang) == expected


def test_a_corrected_word_is_named(planner: Planner, catalog: Catalog) -> None:
    query = planner.plan("GVM last month", as_of=date(2026, 7, 1))
    assert "'GVM'" in interpret(query, catalog, "en")


@pytest.mark.parametrize(
    ("words", "start", "end", "said"),
    [
        ("2026-06-01 to 2026-06-28", date(2026, 6, 1), date(2026, 6, 28), "2026-06-01 to 2026-06-28"),
        ("from 2026-06-01 to 2026-06-10", date(2026, 6, 1), date(2026, 6, 10), "2026-06-01 to 2026-06-10"),
        ("2026-06-05", date(2026, 6, 5), date(2026, 6, 5), "2026-06-05"),
        ("last month", date(2026, 6, 1), date(2026, 6, 30), "last month (2026-06-01 to 2026-06-30)"),
        # dates said that are not the span read: both shown, so the reading can be checked
        (
            "2026-06-01 to 2026-06-28",
            date(2026, 6, 1),
            date(2026, 6, 30),
            "2026-06-01 to 2026-06-28 (2026-06-01 to 2026-06-30)",
        ),
    ],
)
def test_a_period_said_as_its_own_dates_is_said_once(words: str, start: date, end: date, said: str) -> None:
    from baton.nlu.interpret import period_text

    assert period_text(start, end, words, "en") == said
