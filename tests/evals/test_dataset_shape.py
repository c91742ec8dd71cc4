"""The shipped eval dataset keeps its promised shape: size, language balance, coverage, gold SQL.

The scores Baton reports are only as meaningful as this file, so its shape is checked on every
run without building a warehouse (executing the gold SQL is `baton eval`'s job).
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import resources
from pathlib import Path

import pytest
import sqlglot
from sqlglot import exp

from baton.catalog.loader import load_catalog
from baton.evals.runner import EvalCase, default_dataset, load_cases

CJK = re.compile(r"[\u4e00-\u9fff]")
TIME_FORMS = (
    "yesterday",
    "last_n_days",
    "this_week",
    "this_month",
    "this_quarter",
    "this_year",
    "last_week",
    "last_month",
    "last_quarter",
    "last_year",
    "quarter",
    "half_year",
    "year_month_zh",
    "iso_month",
    "month_name_year",
    "yearless_day",
    "iso_date",
    "range",
    "last_n_months",
)


@pytest.fixture(scope="module")
def cases() -> list[EvalCase]:
    return load_cases(default_dataset())


@pytest.fixture(scope="module")
def catalog_metrics() -> list[str]:
    path = Path(str(resources.files("baton.demo").joinpath("data/catalog.yaml")))
    return list(load_catalog(path).metrics)


def _tagged(cases: list[EvalCase], prefix: str) -> Counter[str]:
    return Counter(t.removeprefix(prefix) for c in cases for t in c.tags if t.startswith(prefix))


def test_size_ids_and_language_balance(cases: list[EvalCase]) -> None:
    assert len(cases) >= 70
    assert len({c.id for c in cases}) == len(cases)
    langs = Counter(c.lang for c in cases)
    assert langs["zh"] == langs["en"] == len(cases) // 2
    for case in cases:
        assert case.id.startswith(case.lang + "-"), case.id
        assert bool(CJK.search(case.question)) == (case.lang == "zh"), case.id


def test_every_catalog_metric_is_answered_at_least_twice(cases: list[EvalCase], catalog_metrics: list[str]) -> None:
    answered = _tagged([c for c in cases if c.expect_status == "answered"], "metric:")
    assert set(answered) <= set(catalog_metrics), set(answered) - set(catalog_metrics)
    thin = {m: answered[m] for m in catalog_metrics if answered[m] < 2}
    assert not thin, f"metrics covered fewer than twice: {thin}"


def test_status_mix(cases: list[EvalCase]) -> None:
    statuses = Counter(c.expect_status for c in cases)
    codes = Counter(c.expect_code for c in cases)
    assert statuses["refused"] >= 8 and statuses["clarification_needed"] >= 6
    assert statuses["answered"] >= len(cases) * 0.6
    assert codes["unknown_metric"] >= 3 and codes["out_of_scope"] >= 3 and codes["permission_denied"] >= 1
    assert any(c.user == "east_manager" and c.expect_status == "answered" for c in cases)


@pytest.mark.parametrize("form", TIME_FORMS)
def test_every_time_form_is_covered(cases: list[EvalCase], form: str) -> None:
    assert _tagged(cases, "time:")[form] >= 1


@pytest.mark.parametrize(
    "tag",
    [
        "grain:day",
        "grain:week",
        "grain:month",
        "grain:quarter",
        "compare:mom",
        "compare:yoy",
        "top_n",
        "lowest",
        "multi_metric",
        "two_dims",
        "filter:two_members",
        "group:channel",
        "group:region",
        "group:category",
        "group:user_type",
    ],
)
def test_every_question_shape_is_covered(cases: list[EvalCase], tag: str) -> None:
    answered = [c for c in cases if c.expect_status == "answered"]
    needed = 2 if tag.startswith("compare:") else 1
    assert sum(tag in c.tags for c in answered) >= needed, tag


def test_answered_cases_have_one_select_and_others_an_error_code(cases: list[EvalCase]) -> None:
    for case in cases:
        if case.expect_status == "answered":
            assert case.gold_sql and case.expect_code is None, case.id
            statements = sqlglot.parse(case.gold_sql, read="duckdb")
            assert len(statements) == 1 and isinstance(statements[0], exp.Query), case.id
            assert case.ordered == ("top_n" in case.tags), case.id
        else:
            assert case.gold_sql is None and case.expect_code, case.id
            assert not case.ordered, case.id
