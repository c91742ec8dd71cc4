"""Chart-choice eval cases: a result shape (with or without Chinese labels) and the chart kind a
careful analyst would draw for it. The data are synthetic but shaped like real query results."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal

from baton.charts import ChartColumn, ChartKind, ChartMark, ChartRequest, Intent, Unit
from baton.charts.model import CellValue
from baton.contracts.common import Language

START = dt.date(2025, 6, 1)
REGIONS_ZH = ["华东", "华南", "华北", "西南", "华中", "西北", "东北", "港澳台", "海外", "其他渠道"]
REGIONS_EN = ["East", "South", "North", "Southwest", "Central", "Northwest", "Northeast", "HK/Macau", "Overseas"]
CATEGORIES_LONG = [
    "家用电器及厨房小家电",
    "手机数码与智能穿戴",
    "美妆个护与香水彩妆",
    "食品饮料与生鲜水果",
    "母婴用品及儿童玩具",
]


@dataclass(frozen=True)
class Case:
    id: str
    request: ChartRequest
    expected: ChartKind


def _t(label: str) -> ChartColumn:
    return ChartColumn("day", "time", label)


def _d(name: str, label: str) -> ChartColumn:
    return ChartColumn(name, "dimension", label)


def _m(name: str, label: str, unit: Unit = "number") -> ChartColumn:
    return ChartColumn(name, "measure", label, unit, "CNY" if unit == "currency" else None)


def _req(
    columns: list[ChartColumn],
    rows: list[tuple[CellValue, ...]],
    lang: Language = "zh",
    intent: Intent | None = None,
    marks: tuple[ChartMark, ...] = (),
) -> ChartRequest:
    return ChartRequest(tuple(columns), tuple(rows), lang, "测试图表" if lang == "zh" else "Test chart", intent, marks)


def daily(days: int, members: list[str] | None = None, lang: Language = "zh", **kw: object) -> ChartRequest:
    rows: list[tuple[CellValue, ...]] = []
    for i in range(days):
        day = START + dt.timedelta(days=i)
        if members:
            rows += [(day, m, 1000.0 * (k + 1) + 37 * i) for k, m in enumerate(members)]
        else:
            rows.append((day, 120_000 + 5_000 * i))
    cols = [_t("日期" if lang == "zh" else "Date")]
    if members:
        cols.append(_d("region", "大区" if lang == "zh" else "Region"))
    cols.append(_m("gmv", "成交额" if lang == "zh" else "GMV", "currency"))
    return _req(cols, rows, lang, **kw)  # type: ignore[arg-type]


def by_member(members: list[str], lang: Language = "zh", unit: Unit = "currency", **kw: object) -> ChartRequest:
    rows: list[tuple[CellValue, ...]] = [(m, 1_000_000.0 / (k + 1)) for k, m in enumerate(members)]
    cols = [_d("member", "成员" if lang == "zh" else "Member"), _m("v", "数值" if lang == "zh" else "Value", unit)]
    return _req(cols, rows, lang, **kw)  # type: ignore[arg-type]


def observations(groups: list[str], per_group: int, lang: Language = "zh", **kw: object) -> ChartRequest:
    rows: list[tuple[CellValue, ...]] = [
        (g, float((7 * i + 3 * k) % 23 + k)) for k, g in enumerate(groups) for i in range(per_group)
    ]
    cols = [_d("g", "组" if lang == "zh" else "Group"), _m("x", "客单价" if lang == "zh" else "AOV", "currency")]
    return _req(cols, rows, lang, **kw)  # type: ignore[arg-type]


def values_only(n: int, lang: Language = "en", **kw: object) -> ChartRequest:
    rows: list[tuple[CellValue, ...]] = [(float((13 * i) % 50),) for i in range(n)]
    return _req([_m("x", "Order value", "currency")], rows, lang, **kw)  # type: ignore[arg-type]


def two_measures(n: int, lang: Language = "zh", with_dim: bool = False, **kw: object) -> ChartRequest:
    cols = [_m("spend", "广告花费" if lang == "zh" else "Ad spend", "currency"), _m("orders", "订单数", "count")]
    rows: list[tuple[CellValue, ...]] = [(1000.0 * i, 40 + 3 * i + (i % 4)) for i in range(n)]
    if with_dim:
        cols.insert(0, _d("ch", "渠道"))
        rows = [(REGIONS_ZH[i % 3], *r) for i, r in enumerate(rows)]
    return _req(cols, rows, lang, **kw)  # type: ignore[arg-type]


def period_wide(members: list[str], lang: Language = "zh") -> ChartRequest:
    cur, prev = ("本期", "上期") if lang == "zh" else ("This month", "Last month")
    rows: list[tuple[CellValue, ...]] = [(m, 5000.0 + 700 * k, 4800.0 + 650 * k) for k, m in enumerate(members)]
    cols = [_d("m", "大区" if lang == "zh" else "Region"), _m("cur", cur, "currency"), _m("prev", prev, "currency")]
    return _req(cols, rows, lang, intent="period_comparison")


def period_long(members: list[str], lang: Language = "zh") -> ChartRequest:
    periods = [dt.date(2025, 5, 1), dt.date(2025, 6, 1)]
    rows: list[tuple[CellValue, ...]] = [
        (p, m, 100.0 + 10 * k + 5 * j) for j, p in enumerate(periods) for k, m in enumerate(members)
    ]
    cols = [ChartColumn("month", "time", "月份"), _d("m", "大区"), _m("v", "订单数", "count")]
    return _req(cols, rows, lang, intent="period_comparison")


def stacked_share(lang: Language = "zh") -> ChartRequest:
    rows: list[tuple[CellValue, ...]] = [
        (r, c, 100.0 * (i + 1) + 10 * j) for i, r in enumerate(REGIONS_ZH[:4]) for j, c in enumerate(["新客", "老客"])
    ]
    return _req([_d("r", "大区"), _d("c", "客户类型"), _m("v", "订单数", "count")], rows, lang, intent="share")


CASES: tuple[Case, ...] = (
    # Time series
    Case("ts-single-zh", daily(30), "line"),
    Case("ts-single-en", daily(14, lang="en"), "line"),
    Case("ts-3-members-zh", daily(10, REGIONS_ZH[:3]), "line"),
    Case("ts-8-members-en", daily(7, REGIONS_EN[:8], lang="en"), "line"),
    Case("ts-10-members-folds-zh", daily(7, REGIONS_ZH), "line"),
    Case("ts-trend-intent-en", daily(5, lang="en", intent="trend"), "line"),
    Case("ts-compare-intent-still-line", daily(6, REGIONS_ZH[:2], intent="compare"), "line"),
    Case("ts-share-over-time-zh", daily(5, REGIONS_ZH[:4], intent="share"), "stacked_bar"),
    Case(
        "ts-incomplete-mark-zh",
        daily(9, marks=(ChartMark("incomplete", START + dt.timedelta(days=8), "未完结"),)),
        "line",
    ),
    # Comparison across members
    Case("cmp-regions-zh", by_member(REGIONS_ZH[:5]), "bar"),
    Case("cmp-regions-en", by_member(REGIONS_EN[:4], lang="en"), "bar"),
    Case("cmp-long-labels-zh", by_member(CATEGORIES_LONG), "horizontal_bar"),
    Case("cmp-many-members-en", by_member([f"City {i}" for i in range(15)], lang="en"), "horizontal_bar"),
    Case("cmp-intent-compare-zh", by_member(REGIONS_ZH[:3], intent="compare"), "bar"),
    Case(
        "cmp-two-dims-zh",
        _req(
            [_d("r", "大区"), _d("c", "品类"), _m("v", "销量", "count")],
            [(r, c, 10.0 + i) for i, (r, c) in enumerate([(r, c) for r in REGIONS_ZH[:3] for c in ["男装", "女装"]])],
        ),
        "grouped_bar",
    ),
    Case("cmp-40-members-folds-en", by_member([f"SKU-{i:03d}" for i in range(40)], lang="en"), "horizontal_bar"),
    # Share of a whole
    Case("share-4-parts-zh", by_member(REGIONS_ZH[:4], intent="share"), "donut"),
    Case("share-6-parts-en", by_member(REGIONS_EN[:6], lang="en", intent="share"), "donut"),
    Case("share-9-parts-zh", by_member(REGIONS_ZH[:9], intent="share"), "stacked_bar"),
    Case("share-two-dims-zh", stacked_share(), "stacked_bar"),
    # Distribution
    Case("dist-values-only-en", values_only(200), "histogram"),
    Case("dist-values-only-zh", values_only(50, lang="zh"), "histogram"),
    Case("dist-by-group-zh", observations(["新客", "老客"], 30), "boxplot"),
    Case("dist-intent-one-group-en", observations(["All"], 40, lang="en", intent="distribution"), "histogram"),
    Case("dist-intent-groups-en", observations(["A", "B", "C"], 3, lang="en", intent="distribution"), "boxplot"),
    # Relationship
    Case("rel-two-measures-zh", two_measures(40), "scatter"),
    Case("rel-two-measures-dim-zh", two_measures(30, with_dim=True), "scatter"),
    Case("rel-intent-en", two_measures(12, lang="en", intent="relationship"), "scatter"),
    # Period comparison
    Case("period-wide-zh", period_wide(REGIONS_ZH[:5]), "grouped_bar"),
    Case("period-wide-en", period_wide(REGIONS_EN[:3], lang="en"), "grouped_bar"),
    Case("period-long-time-zh", period_long(REGIONS_ZH[:4]), "grouped_bar"),
    Case(
        "period-total-only-zh",
        _req(
            [_m("cur", "本期", "currency"), _m("prev", "上期", "currency")],
            [(Decimal("12345.6"), Decimal("11000"))],
            intent="period_comparison",
        ),
        "grouped_bar",
    ),
    Case(
        "period-too-little-shape-en",
        _req(
            [_d("r", "Region"), _m("v", "GMV")],
            [("East", 1.0), ("West", 2.0), ("North", 3.0)],
            lang="en",
            intent="period_comparison",
        ),
        "table",
    ),
    # Single numbers and non-charts
    Case("single-number-zh", _req([_m("gmv", "成交额", "currency")], [(1_284_317.0,)]), "table"),
    Case("single-number-en", _req([_m("n", "Orders", "count")], [(42,)], lang="en", intent="trend"), "table"),
    Case("no-measure-zh", _req([_d("r", "大区")], [("华东",), ("华南",)]), "table"),
    Case("empty-result-en", _req([_t("Date"), _m("v", "GMV")], [], lang="en"), "table"),
    Case(
        "one-day-by-region-zh",
        _req(
            [_t("日期"), _d("r", "大区"), _m("v", "成交额", "currency")],
            [(START, r, 10.0 * (k + 1)) for k, r in enumerate(REGIONS_ZH[:3])],
        ),
        "bar",
    ),
)
