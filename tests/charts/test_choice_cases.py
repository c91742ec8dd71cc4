"""The chart-choice eval set: every case picks its expected kind and yields a valid spec."""

from __future__ import annotations

import json

import pytest

from baton.charts import ChartNotApplicable, build_spec, choose_chart, validate_spec
from baton.charts.common import FONT_FAMILY
from tests.charts.cases import CASES, Case


def test_eval_set_covers_every_shape() -> None:
    assert len(CASES) >= 30
    kinds = {c.expected for c in CASES}
    assert {"line", "bar", "horizontal_bar", "stacked_bar", "donut", "histogram", "boxplot"} <= kinds
    assert {"scatter", "grouped_bar", "table"} <= kinds
    assert {c.request.language for c in CASES} == {"zh", "en"}
    assert len({c.id for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_case_chooses_expected_kind(case: Case) -> None:
    choice = choose_chart(case.request)
    assert choice.kind == case.expected, choice.reason
    assert choice.reason


@pytest.mark.parametrize("case", [c for c in CASES if c.expected != "table"], ids=lambda c: c.id)
def test_case_spec_is_valid_vega_lite(case: Case) -> None:
    spec = build_spec(case.request)
    validate_spec(spec)  # build_spec validates too; this guards against a silent skip
    assert spec["usermeta"]["baton"]["kind"] == case.expected
    assert spec["config"]["font"].startswith(FONT_FAMILY)
    assert spec["title"]["text"] == case.request.title
    assert spec["data"]["values"], "data travel inline"
    json.dumps(spec, allow_nan=False)  # plain JSON, no NaN/Infinity


@pytest.mark.parametrize("case", [c for c in CASES if c.expected == "table"], ids=lambda c: c.id)
def test_table_cases_build_no_chart(case: Case) -> None:
    with pytest.raises(ChartNotApplicable):
        build_spec(case.request)
