"""What the specs show: incomplete days kept and marked, "Other" folding, marks, intervals,
period changes, and refusals when a requested kind does not fit."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from baton.charts import (
    ChartChoice,
    ChartColumn,
    ChartMark,
    ChartNotApplicable,
    ChartRequest,
    build_spec,
    choose_chart,
)
from baton.errors import InvalidInput
from tests.charts.cases import REGIONS_ZH, START, by_member, daily, observations, period_wide, two_measures


def layers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return list(spec.get("layer", [spec]))


def mark_type(layer: dict[str, Any]) -> str:
    mark = layer["mark"]
    return str(mark["type"] if isinstance(mark, dict) else mark)


def daily_with_flags(days: int, incomplete: set[int]) -> ChartRequest:
    rows = tuple((START + dt.timedelta(days=i), 1000.0 + i, i in incomplete) for i in range(days))
    cols = (
        ChartColumn("d", "time", "日期"),
        ChartColumn("gmv", "measure", "成交额", "currency"),
        ChartColumn("partial", "flag", "不完整"),
    )
    return ChartRequest(cols, rows, "zh", "每日成交额")


def test_incomplete_days_stay_in_the_data_and_are_drawn_distinctly() -> None:
    spec = build_spec(daily_with_flags(10, {4, 9}))
    data = spec["data"]["values"]
    assert len(data) == 10, "no row is dropped"
    flagged = sorted(r["t"] for r in data if r["incomplete"])
    assert flagged == ["2025-06-05", "2025-06-10"]
    by_t = {r["t"]: r for r in data}
    assert by_t["2025-06-05"]["y_solid"] is None and by_t["2025-06-05"]["y_dash"] == 1004.0
    assert by_t["2025-06-04"]["y_dash"] == 1003.0, "the dashed segment starts at the neighbour"
    assert by_t["2025-06-02"]["y_dash"] is None
    dashed = [ly for ly in layers(spec) if isinstance(ly["mark"], dict) and ly["mark"].get("strokeDash")]
    hollow = [ly for ly in layers(spec) if isinstance(ly["mark"], dict) and ly["mark"].get("filled") is False]
    assert dashed and dashed[0]["encoding"]["y"]["field"] == "y_dash"
    assert hollow and hollow[0]["transform"] == [{"filter": "datum.incomplete"}]
    assert any("数据不完整（2 个）" in s for s in spec["title"]["subtitle"])


def test_incomplete_mark_flags_the_day_without_a_flag_column() -> None:
    last = START + dt.timedelta(days=6)
    req = daily(7, marks=(ChartMark("incomplete", last, "今日未完结"),))
    data = build_spec(req)["data"]["values"]
    assert len(data) == 7
    assert [r["t"] for r in data if r["incomplete"]] == [last.isoformat()]


@pytest.mark.parametrize(
    "req",
    [
        ChartRequest(
            (
                ChartColumn("r", "dimension", "大区"),
                ChartColumn("v", "measure", "成交额", "currency"),
                ChartColumn("f", "flag", "不完整"),
            ),
            (("华东", 5.0, False), ("华南", 3.0, True), ("华北", 4.0, None)),
            "zh",
            "各大区",
        ),
        ChartRequest(
            (ChartColumn("x", "measure", "金额"), ChartColumn("f", "flag", "不完整")),
            tuple((float(i), i == 3) for i in range(20)),
            "zh",
            "分布",
        ),
        ChartRequest(
            (ChartColumn("a", "measure", "花费"), ChartColumn("b", "measure", "订单"), ChartColumn("f", "flag", "f")),
            tuple((float(i), float(2 * i), "partial" if i == 1 else "") for i in range(6)),
            "en",
            "Spend vs orders",
        ),
    ],
    ids=["bar", "histogram", "scatter"],
)
def test_incomplete_rows_are_never_dropped(req: ChartRequest) -> None:
    spec = build_spec(req)
    data = spec["data"]["values"]
    assert len(data) == len(req.rows)
    assert sum(1 for r in data if r["incomplete"]) == 1
    assert any("1" in s for s in spec["title"]["subtitle"]), "the subtitle counts incomplete rows"


def test_more_than_eight_series_fold_into_other_by_total() -> None:
    req = daily(5, REGIONS_ZH)  # 10 members; later members have larger values
    choice = choose_chart(req)
    spec = build_spec(req)
    members = {r["member"] for r in spec["data"]["values"]}
    assert len(members) == 8 and "其他" in members
    assert {"华东", "华南", "华北"}.isdisjoint(members), "the three smallest fold"
    other = [r for r in spec["data"]["values"] if r["member"] == "其他"]
    assert len(other) == 5
    # the fold is a sum for additive units: 1000+2000+3000 plus 3×37·i per day
    assert sorted(r["value"] for r in other) == [6000.0 + 111 * i for i in range(5)]
    assert "其他" in choice.reason
    assert any("3 个成员" in s for s in spec["title"]["subtitle"])


def test_bars_are_sorted_and_long_labels_go_horizontal() -> None:
    req = by_member(["西北", "华东", "华南"])
    rows = (("西北", 1.0), ("华东", 30.0), ("华南", 20.0))
    req = ChartRequest(req.columns, rows, "zh", "t")
    spec = build_spec(req)
    assert spec["layer"][0]["encoding"]["x"]["sort"] == ["华东", "华南", "西北"]
    long = ChartRequest(req.columns, (("华东大区线上自营旗舰店", 1.0), ("华南", 2.0)), "zh", "t")
    assert choose_chart(long).kind == "horizontal_bar"
    enc = build_spec(long)["layer"][0]["encoding"]
    assert (enc["y"]["field"], enc["x"]["field"]) == ("member", "value")


def test_donut_only_up_to_six_parts() -> None:
    assert choose_chart(by_member(REGIONS_ZH[:6], intent="share")).kind == "donut"
    assert choose_chart(by_member(REGIONS_ZH[:7], intent="share")).kind == "stacked_bar"
    negative = ChartRequest(by_member(["a", "b"]).columns, (("a", 5.0), ("b", -1.0)), "zh", "t", intent="share")
    assert choose_chart(negative).kind == "stacked_bar"
    spec = build_spec(by_member(REGIONS_ZH[:4], intent="share"))
    shares = [r["share"] for r in spec["data"]["values"]]
    assert abs(sum(shares) - 1.0) < 1e-9
    # the ring, two leader-line segments, and the labels of each side (outside the ring)
    assert [mark_type(ly) for ly in layers(spec)] == ["arc", "rule", "rule", "text", "text"]


def test_peak_and_change_point_marks_are_drawn() -> None:
    req = daily(
        10,
        marks=(
            ChartMark("peak", START + dt.timedelta(days=5), "峰值"),
            ChartMark("change_point", START + dt.timedelta(days=2), "改版上线"),
            ChartMark("anomaly", dt.date(2030, 1, 1), "不在数据中"),
        ),
    )
    spec = build_spec(req)
    annotated = [ly for ly in layers(spec) if "data" in ly]
    labels = {r["label"] for ly in annotated for r in ly["data"]["values"]}
    assert labels == {"峰值", "改版上线", "不在数据中"}, "a mark outside the data is still drawn"
    peak = next(r for ly in annotated for r in ly["data"]["values"] if r["label"] == "峰值")
    assert peak["value"] == 120_000 + 5_000 * 5
    kinds = {mark_type(ly) for ly in annotated}
    assert {"point", "text", "rule"} <= kinds


def test_bar_marks_highlight_their_member_or_go_to_the_subtitle() -> None:
    req = by_member(["华东", "华南"], marks=(ChartMark("anomaly", "华南", "异常"), ChartMark("peak", "西藏", "缺失")))
    spec = build_spec(req)
    by_member_ = {r["member"]: r for r in spec["data"]["values"]}
    assert by_member_["华南"]["note"] == "异常"
    assert by_member_["华南"]["label_text"].endswith("异常")
    assert any("缺失" in s for s in spec["title"]["subtitle"])


def test_intervals_become_bands_and_error_bars() -> None:
    cols = (
        ChartColumn("d", "time", "日期"),
        ChartColumn("v", "measure", "转化率", "ratio"),
        ChartColumn("lo", "interval_low", "95% 下限"),
        ChartColumn("hi", "interval_high", "95% 上限"),
    )
    rows = tuple((START + dt.timedelta(days=i), 0.1, 0.08, 0.12) for i in range(5))
    line = build_spec(ChartRequest(cols, rows, "zh", "转化率"))
    band = next(ly for ly in layers(line) if mark_type(ly) == "area")
    assert band["encoding"]["y"]["field"] == "low" and band["encoding"]["y2"]["field"] == "high"
    bar_cols = (ChartColumn("r", "dimension", "大区"), *cols[1:])
    bar = build_spec(ChartRequest(bar_cols, (("华东", 0.1, 0.08, 0.12), ("华南", 0.2, 0.15, 0.25)), "zh", "转化率"))
    err = next(ly for ly in layers(bar) if mark_type(ly) == "errorbar")
    assert err["encoding"]["y2"]["field"] == "high"
    assert bar["data"]["values"][0]["interval_text"] == "8.0% – 12.0%"


def test_period_comparison_labels_the_change() -> None:
    spec = build_spec(period_wide(["华东", "华南"]))
    change = next(ly for ly in layers(spec) if "data" in ly)
    texts = {r["member"]: r["change_text"] for r in change["data"]["values"]}
    # 本期 5000 vs 上期 4800; 5700 vs 5450
    assert texts == {"华东": "+4.2%", "华南": "+4.6%"}
    bars = layers(spec)[0]["encoding"]
    assert bars["xOffset"]["sort"] == ["上期", "本期"], "the current period sits on the right"
    assert len(spec["data"]["values"]) == 4


def test_boxplot_shows_outliers_and_scatter_uses_both_measures() -> None:
    req = observations(["新客", "老客"], 20)
    far = ChartRequest(req.columns, (*req.rows, ("新客", 400.0)), "zh", "t", intent="distribution")
    box = build_spec(far)
    assert [mark_type(ly) for ly in layers(box)][:4] == ["rule", "bar", "tick", "point"]
    stats = {b["member"]: b for b in layers(box)[0]["data"]["values"]}
    assert stats["新客"]["uw"] < 400.0, "whiskers stop at 1.5×IQR: the far value is an outlier"
    outliers = [r for r in box["data"]["values"] if r["outlier"]]
    assert [r["value"] for r in outliers] == [400.0]
    tips = {t["title"]: t["field"] for t in layers(box)[1]["encoding"]["tooltip"]}
    assert "中位数" in tips and stats["新客"]["median_text"].startswith("¥")
    scatter = build_spec(two_measures(10))
    enc = layers(scatter)[0]["encoding"]
    assert (enc["x"]["field"], enc["y"]["field"]) == ("x", "y")
    assert (enc["x"]["title"], enc["y"]["title"]) == ("广告花费", "订单数")


def test_requested_kind_that_does_not_fit_is_refused() -> None:
    req = by_member(["华东", "华南"])
    with pytest.raises(ChartNotApplicable):
        build_spec(req, ChartChoice("line", "forced"))
    with pytest.raises(ChartNotApplicable):
        build_spec(req, ChartChoice("scatter", "forced"))
    spec = build_spec(req, ChartChoice("donut", "forced"))
    assert spec["usermeta"]["baton"] == {"kind": "donut", "reason": "forced", "language": "zh"}


def test_malformed_requests_are_rejected() -> None:
    cols = (ChartColumn("a", "dimension", "A"), ChartColumn("v", "measure", "V"))
    with pytest.raises(InvalidInput):
        ChartRequest(cols, (("x", 1.0, 2.0),), "zh", "t")
    with pytest.raises(InvalidInput):
        ChartRequest((cols[0], ChartColumn("a", "measure", "V")), (), "zh", "t")
    with pytest.raises(InvalidInput):
        ChartRequest((*cols, ChartColumn("f", "flag", "F"), ChartColumn("g", "flag", "G")), (), "zh", "t")
