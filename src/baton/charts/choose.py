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
from baton.messages import text

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


def _numeric_cells(req: ChartRequest) -> int:
    return len(req.rows) * len(req.by_role("measure"))


def choose_chart(req: ChartRequest) -> ChartChoice:
    """Pick the chart kind for ``req`` by rule; ``req.intent`` breaks ties the shape leaves open."""
    lang = req.language
    times, dims, measures = req.by_role("time"), req.by_role("dimension"), req.by_role("measure")
    if not measures:
        return ChartChoice("table", text("charts.reason_no_measure", lang))
    if not req.rows:
        return ChartChoice("table", text("charts.reason_empty", lang))
    if _numeric_cells(req) <= 1:
        return ChartChoice("table", text("charts.reason_single_number", lang))

    if req.intent == "period_comparison":
        return _period_comparison(req)

    n_times = len(distinct(req, times[0])) if times else 0
    if times and n_times >= 2:
        return _over_time(req, n_times)

    if req.intent == "distribution" or (not dims and len(measures) == 1):
        return _distribution(req)

    if len(measures) >= 2:
        if req.intent in (None, "relationship") and len(req.rows) >= MIN_SCATTER_POINTS:
            return ChartChoice("scatter", text("charts.reason_scatter", lang))
        if dims:
            return ChartChoice("grouped_bar", text("charts.reason_measures_grouped", lang))
        return ChartChoice("table", text("charts.reason_too_few", lang))

    # One measure, at least one dimension, at most one time value.
    if req.intent == "share":
        return _share(req)
    members = distinct(req, dims[0])
    if len(req.rows) > len(members) and len(dims) == 1:
        return ChartChoice("boxplot", text("charts.reason_boxplot_members", lang))
    if len(dims) >= 2:
        return ChartChoice("grouped_bar", text("charts.reason_two_dimensions", lang))
    return _comparison(req, members)


def _over_time(req: ChartRequest, n_times: int) -> ChartChoice:
    lang = req.language
    dims, measures = req.by_role("dimension"), req.by_role("measure")
    if req.intent == "share" and dims:
        return ChartChoice("stacked_bar", text("charts.reason_share_over_time", lang))
    if req.intent == "distribution":
        return _distribution(req)
    n_series = len(distinct(req, dims[0])) if dims else len(measures)
    if n_series > MAX_SERIES:
        return ChartChoice(
            "line",
            text("charts.reason_line_folded", lang, points=n_times, series=n_series, kept=MAX_SERIES - 1),
        )
    return ChartChoice("line", text("charts.reason_line", lang, points=n_times, series=n_series))


def _distribution(req: ChartRequest) -> ChartChoice:
    lang = req.language
    dims = req.by_role("dimension")
    if dims and len(distinct(req, dims[0])) >= 2:
        return ChartChoice("boxplot", text("charts.reason_boxplot_groups", lang))
    return ChartChoice("histogram", text("charts.reason_histogram", lang))


def _share(req: ChartRequest) -> ChartChoice:
    lang = req.language
    dims = req.by_role("dimension")
    measure = req.by_role("measure")[0]
    members = distinct(req, dims[0])
    values = [v for v in req.values(measure) if isinstance(v, int | float) or hasattr(v, "is_finite")]
    non_negative = all(float(v) >= 0 for v in values)  # type: ignore[arg-type]
    if len(dims) == 1 and len(members) <= MAX_DONUT_PARTS and non_negative:
        return ChartChoice("donut", text("charts.reason_donut", lang, parts=len(members)))
    return ChartChoice("stacked_bar", text("charts.reason_share_stacked", lang, parts=len(members)))


def _comparison(req: ChartRequest, members: list[object]) -> ChartChoice:
    lang = req.language
    widest = max(display_width(str(m)) for m in members)
    folded = len(members) > MAX_BARS
    note = text("charts.reason_bars_folded_note", lang, limit=MAX_BARS) if folded else ""
    if widest > LONG_LABEL_WIDTH or len(members) > MAX_VERTICAL_BARS:
        return ChartChoice(
            "horizontal_bar", text("charts.reason_horizontal_bars", lang, members=len(members), note=note)
        )
    return ChartChoice("bar", text("charts.reason_bars", lang, members=len(members)))


def _period_comparison(req: ChartRequest) -> ChartChoice:
    lang = req.language
    measures, dims = req.by_role("measure"), req.by_role("dimension")
    wide = len(measures) >= 2
    long = len(dims) >= 1 and len(measures) == 1 and _has_two_periods(req)
    if wide or long:
        return ChartChoice("grouped_bar", text("charts.reason_period_comparison", lang))
    return ChartChoice("table", text("charts.reason_period_comparison_table", lang))


def _has_two_periods(req: ChartRequest) -> bool:
    """Long form: the last dimension (or the time column) holds exactly two periods."""
    candidates = req.by_role("time") + req.by_role("dimension")[-1:]
    return any(len(Counter(req.values(c))) == 2 for c in candidates)
