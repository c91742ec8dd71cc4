"""The shipped eval keeps its promised shape: size, splits, language balance, phrasing classes,
coverage and gold SQL whose columns carry Baton's names.

The scores Baton reports are only as meaningful as these files, so their shape is checked on
every run without building a warehouse (executing the gold SQL is `baton eval`'s job).
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
from baton.contracts.semantic import GRAINS
from baton.evals.runner import SPLITS, EvalCase, default_datasets, load_cases

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


PHRASINGS = ("exclusion", "members", "comparison", "share", "ranking", "grain", "single_day")
SMALL_PHRASINGS = ("traditional", "typo", "colloquial", "unknown", "out_of_scope", "permission")


@pytest.fixture(scope="module")
def cases() -> list[EvalCase]:
    return [c for path in default_datasets() for c in load_cases(path)]


@pytest.fixture(scope="module")
def dev(cases: list[EvalCase]) -> list[EvalCase]:
    return [c for c in cases if c.split == "dev"]


@pytest.fixture(scope="module")
def catalog_metrics() -> list[str]:
    path = Path(str(resources.files("baton.demo").joinpath("data/catalog.yaml")))
    return list(load_catalog(path).metrics)


def _tagged(cases: list[EvalCase], prefix: str) -> Counter[str]:
    return Counter(t.removeprefix(prefix) for c in cases for t in c.tags if t.startswith(prefix))


def test_size_splits_ids_and_language_balance(cases: list[EvalCase]) -> None:
    assert len(cases) >= 300
    assert len({c.id for c in cases}) == len(cases)
    for split in SPLITS:
        chosen = [c for c in cases if c.split == split]
        assert len(chosen) >= 100, split
        langs = Counter(c.lang for c in chosen)
        assert abs(langs["zh"] - langs["en"]) <= 0.1 * len(chosen), (split, langs)
    for case in cases:
        assert f"{case.lang}-" in case.id, case.id
        assert bool(CJK.search(case.question)) == (case.lang == "zh"), case.id


@pytest.mark.parametrize("split", SPLITS)
def test_every_phrasing_class_is_covered_in_both_splits(cases: list[EvalCase], split: str) -> None:
    counts = Counter(c.phrasing for c in cases if c.split == split)
    thin = {p: counts[p] for p in PHRASINGS if counts[p] < 8} | {p: counts[p] for p in SMALL_PHRASINGS if counts[p] < 4}
    assert not thin, thin


def test_gold_columns_carry_batons_names(cases: list[EvalCase], catalog_metrics: list[str]) -> None:
    """Grading is by column name, so every gold column must be one Baton could produce."""
    dims = {"channel", "region", "category", "user_type"}
    compared = ("", "_previous", "_change", "_change_pct")
    per_period = tuple(f"_per_{grain}{s}" for grain in GRAINS for s in compared)
    shares = ("_share", "_previous_share", "_share_change")  # a share, against another period's
    contribution = ("_change_whole", "_change_share")  # the whole's change, each group's part of it
    suffixes = (*compared, *shares, *per_period, *contribution)
    allowed = {"period", *dims, *(m + s for m in catalog_metrics for s in suffixes)}
    for case in cases:
        if case.gold_sql is None:
            continue
        (statement,) = sqlglot.parse(case.gold_sql, read="duckdb")
        assert isinstance(statement, exp.Query), case.id
        names = statement.named_selects
        while names == ["*"] and isinstance(inner := statement.find(exp.Subquery), exp.Subquery):
            statement = inner.this  # SELECT * FROM (…): the inner query's columns
            names = statement.named_selects
        assert names and set(names) <= allowed, (case.id, names)


def test_every_catalog_metric_is_answered_at_least_twice(dev: list[EvalCase], catalog_metrics: list[str]) -> None:
    answered = _tagged([c for c in dev if c.expect_status == "answered"], "metric:")
    assert set(answered) <= set(catalog_metrics), set(answered) - set(catalog_metrics)
    thin = {m: answered[m] for m in catalog_metrics if answered[m] < 2}
    assert not thin, f"metrics covered fewer than twice: {thin}"


@pytest.mark.parametrize("split", SPLITS)
def test_status_mix(cases: list[EvalCase], split: str) -> None:
    chosen = [c for c in cases if c.split == split]
    statuses = Counter(c.expect_status for c in chosen)
    codes = Counter(c.expect_code for c in chosen)
    assert statuses["refused"] >= 8 and statuses["clarification_needed"] >= 6
    assert statuses["answered"] >= len(chosen) * 0.6
    assert codes["unknown_metric"] >= 3 and codes["out_of_scope"] >= 3 and codes["permission_denied"] >= 1
    assert any(c.user == "east_manager" and c.expect_status == "answered" for c in chosen)


@pytest.mark.parametrize("form", TIME_FORMS)
def test_every_time_form_is_covered(dev: list[EvalCase], form: str) -> None:
    assert _tagged(dev, "time:")[form] >= 1


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
def test_every_question_shape_is_covered(dev: list[EvalCase], tag: str) -> None:
    answered = [c for c in dev if c.expect_status == "answered"]
    needed = 2 if tag.startswith("compare:") else 1
    assert sum(tag in c.tags for c in answered) >= needed, tag


def test_answered_cases_have_one_select_and_others_an_error_code(cases: list[EvalCase]) -> None:
    for case in cases:
        if case.expect_status == "answered":
            assert case.gold_sql and case.expect_code is None, case.id
            statements = sqlglot.parse(case.gold_sql, read="duckdb")
            assert len(statements) == 1 and isinstance(statements[0], exp.Query), case.id
            assert not case.ordered or "ORDER BY" in case.gold_sql.upper(), case.id
        else:
            assert case.gold_sql is None, case.id
            assert case.expect_code or case.expect_status == "clarification_needed", case.id
            assert not case.ordered, case.id
