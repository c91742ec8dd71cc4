"""Chart choice by rule, from the shape of a result (and an optional intent hint).

The rules are the ones a careful analyst applies (issue 6 §1): a time series is a line, a
comparison across members is a sorted bar (horizontal when labels are long or members many),
a share of a whole is a donut (≤ 6 parts) or a stacked bar, a distribution is a histogram or a
boxplot, two measures are a scatter, a period comparison is grouped bars with the change
labelled, and a single number is a table — no chart. Every choice carries its reason.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from baton.charts.model import ChartChoice, ChartColumn, ChartRequest
from baton.contracts.common import Language

MAX_SERIES = 8  # lines per chart before the rest fold into "其他/Other"
MAX_DONUT_PARTS = 6
MAX_VERTICAL_BARS = 12
MAX_BARS = 25  # bars before the rest fold into "其他/Other"
LONG_LABEL_WIDTH = 10  # display columns (a CJK character counts two)
MIN_SCATTER_POINTS = 3


def display_width(text: str) -> int:
    """Columns a label takes on screen: wide (CJK) characters count two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def distinct(req: ChartRequest, column: ChartColumn) -> list[object]:
    """Distinct values of a column in first-seen order (``None`` kept as a member)."""
    seen: dict[object, None] = {}
    for v in req.values(column):
        seen.setdefault(v, None)
    return list(seen)


def _say(language: Language, zh: str, en: str) -> str:
    return zh if language == "zh" else en


def _numeric_cells(req: ChartRequest) -> int:
    return len(req.rows) * len(req.by_role("measure"))


def choose_chart(req: ChartRequest) -> ChartChoice:
    """Pick the chart kind for ``req`` by rule; ``req.intent`` breaks ties the shape leaves open."""
    lang = req.language
    times, dims, measures = req.by_role("time"), req.by_role("dimension"), req.by_role("measure")
    if not measures:
        return ChartChoice("table", _say(lang, "没有度量列，以表格展示", "no measure column: shown as a table"))
    if not req.rows:
        return ChartChoice("table", _say(lang, "结果为空，以表格展示", "empty result: shown as a table"))
    if _numeric_cells(req) <= 1:
        return ChartChoice("table", _say(lang, "单个数值，不需要图表", "a single number needs no chart"))

    if req.intent == "period_comparison":
        return _period_comparison(req)

    n_times = len(distinct(req, times[0])) if times else 0
    if times and n_times >= 2:
        return _over_time(req, n_times)

    if req.intent == "distribution" or (not dims and len(measures) == 1):
        return _distribution(req)

    if len(measures) >= 2:
        if req.intent in (None, "relationship") and len(req.rows) >= MIN_SCATTER_POINTS:
            return ChartChoice(
                "scatter",
                _say(lang, "两个度量之间的关系：散点图", "two measures against each other: scatter"),
            )
        if dims:
            return ChartChoice(
                "grouped_bar",
                _say(lang, "多个度量按成员比较：分组柱状图", "several measures per member: grouped bars"),
            )
        return ChartChoice("table", _say(lang, "数据点太少，以表格展示", "too few points: shown as a table"))

    # One measure, at least one dimension, at most one time value.
    if req.intent == "share":
        return _share(req)
    members = distinct(req, dims[0])
    if len(req.rows) > len(members) and len(dims) == 1:
        return ChartChoice(
            "boxplot",
            _say(lang, "每个成员有多个观测值：箱线图（显示离群值）", "many observations per member: boxplot"),
        )
    if len(dims) >= 2:
        return ChartChoice(
            "grouped_bar",
            _say(lang, "两个维度上的比较：分组柱状图", "comparison across two dimensions: grouped bars"),
        )
    return _comparison(req, members)


def _over_time(req: ChartRequest, n_times: int) -> ChartChoice:
    lang = req.language
    dims, measures = req.by_role("dimension"), req.by_role("measure")
    if req.intent == "share" and dims:
        return ChartChoice(
            "stacked_bar",
            _say(lang, "各部分占比随时间变化：堆叠柱状图", "parts of a whole over time: stacked bars"),
        )
    if req.intent == "distribution":
        return _distribution(req)
    n_series = len(distinct(req, dims[0])) if dims else len(measures)
    if n_series > MAX_SERIES:
        return ChartChoice(
            "line",
            _say(
                lang,
                f"时间序列（{n_times} 个时间点）：折线图；{n_series} 个成员，按合计保留前 {MAX_SERIES - 1} 个，其余合并为“其他”",
                f"time series ({n_times} points): line chart; {n_series} members, the top {MAX_SERIES - 1} "
                "by total kept and the rest merged into 'Other'",
            ),
        )
    return ChartChoice(
        "line",
        _say(
            lang,
            f"时间序列（{n_times} 个时间点，{n_series} 条线）：折线图",
            f"time series ({n_times} points, {n_series} line(s)): line chart",
        ),
    )


def _distribution(req: ChartRequest) -> ChartChoice:
    lang = req.language
    dims = req.by_role("dimension")
    if dims and len(distinct(req, dims[0])) >= 2:
        return ChartChoice(
            "boxplot", _say(lang, "按组比较分布：箱线图（显示离群值）", "distribution by group: boxplot")
        )
    return ChartChoice("histogram", _say(lang, "单个度量的分布：直方图", "distribution of one measure: histogram"))


def _share(req: ChartRequest) -> ChartChoice:
    lang = req.language
    dims = req.by_role("dimension")
    measure = req.by_role("measure")[0]
    members = distinct(req, dims[0])
    values = [v for v in req.values(measure) if isinstance(v, int | float) or hasattr(v, "is_finite")]
    non_negative = all(float(v) >= 0 for v in values)  # type: ignore[arg-type]
    if len(dims) == 1 and len(members) <= MAX_DONUT_PARTS and non_negative:
        return ChartChoice(
            "donut",
            _say(lang, f"占比（{len(members)} 个部分）：环形图", f"share of a whole ({len(members)} parts): donut"),
        )
    return ChartChoice(
        "stacked_bar",
        _say(
            lang,
            f"占比（{len(members)} 个部分）：百分比堆叠柱状图",
            f"share of a whole ({len(members)} parts): stacked bar",
        ),
    )


def _comparison(req: ChartRequest, members: list[object]) -> ChartChoice:
    lang = req.language
    widest = max(display_width(str(m)) for m in members)
    folded = len(members) > MAX_BARS
    note_zh = f"；超过 {MAX_BARS} 个成员，其余合并为“其他”" if folded else ""
    note_en = f"; over {MAX_BARS} members, the rest merged into 'Other'" if folded else ""
    if widest > LONG_LABEL_WIDTH or len(members) > MAX_VERTICAL_BARS:
        return ChartChoice(
            "horizontal_bar",
            _say(
                lang,
                f"成员间比较（{len(members)} 个，标签较长或成员较多）：按数值排序的横向条形图{note_zh}",
                f"comparison across {len(members)} members with long labels or many members: "
                f"horizontal bars sorted by value{note_en}",
            ),
        )
    return ChartChoice(
        "bar",
        _say(
            lang,
            f"成员间比较（{len(members)} 个）：按数值排序的柱状图",
            f"comparison across {len(members)} members: bars sorted by value",
        ),
    )


def _period_comparison(req: ChartRequest) -> ChartChoice:
    lang = req.language
    measures, dims = req.by_role("measure"), req.by_role("dimension")
    wide = len(measures) >= 2
    long = len(dims) >= 1 and len(measures) == 1 and _has_two_periods(req)
    if wide or long:
        return ChartChoice(
            "grouped_bar",
            _say(lang, "本期与上期对比：分组柱状图并标注变化", "current vs previous period: grouped bars with change"),
        )
    return ChartChoice(
        "table",
        _say(
            lang,
            "期间对比需要两个度量列或一个期间维度，以表格展示",
            "a period comparison needs two measures or a period dimension: shown as a table",
        ),
    )


def _has_two_periods(req: ChartRequest) -> bool:
    """Long form: the last dimension (or the time column) holds exactly two periods."""
    candidates = req.by_role("time") + req.by_role("dimension")[-1:]
    return any(len(Counter(req.values(c))) == 2 for c in candidates)
