"""From a :class:`ChartRequest` to a validated Vega-Lite v5 spec with its data inline.

The spec is data, not code: nothing here generates or runs plotting code. Each spec carries
the chosen kind and the rule's reason in ``usermeta.baton`` so the trace and the report can
say why this chart was drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baton.charts.bars import build_bar, build_donut, build_grouped, build_stacked
from baton.charts.choose import choose_chart
from baton.charts.common import DEFAULT_HEIGHT, DEFAULT_WIDTH, SCHEMA_URL, Ctx, config
from baton.charts.data import Record
from baton.charts.distribution import build_boxplot, build_histogram, build_scatter
from baton.charts.lines import build_line
from baton.charts.model import ChartChoice, ChartKind, ChartRequest
from baton.charts.schema import validate_spec
from baton.errors import ChartNotApplicable
from baton.messages import both

Builder = Callable[[Ctx], tuple[dict[str, Any], list[Record]]]


def _needs(ctx: Ctx, kind: ChartKind) -> str | None:
    """Why ``kind`` cannot draw this result, or ``None`` when it can."""
    n_dims, n_measures, has_time = len(ctx.dims), len(ctx.measures), bool(ctx.times)
    period = ctx.req.intent == "period_comparison"
    required: dict[ChartKind, tuple[bool, str]] = {
        "line": (has_time, "a time column"),
        "bar": (n_dims >= 1, "a dimension column"),
        "horizontal_bar": (n_dims >= 1, "a dimension column"),
        "stacked_bar": (n_dims >= 1, "a dimension column"),
        "donut": (n_dims >= 1, "a dimension column"),
        "histogram": (True, ""),
        "boxplot": (True, ""),
        "scatter": (n_measures >= 2, "two measure columns"),
        "grouped_bar": (
            n_measures >= 2 or n_dims >= 2 or (period and (has_time or n_dims >= 1)),
            "two measures, two dimensions, or a period column",
        ),
        "table": (False, "a chart (this result is shown as a table)"),
    }
    ok, what = required[kind]
    return None if ok else what


def _builders(period: bool) -> dict[ChartKind, Builder]:
    return {
        "line": build_line,
        "bar": lambda c: build_bar(c, horizontal=False),
        "horizontal_bar": lambda c: build_bar(c, horizontal=True),
        "stacked_bar": build_stacked,
        "donut": build_donut,
        "histogram": build_histogram,
        "boxplot": build_boxplot,
        "scatter": build_scatter,
        "grouped_bar": lambda c: build_grouped(c, period=period),
    }


def build_spec(req: ChartRequest, choice: ChartChoice | None = None) -> dict[str, Any]:
    """A validated Vega-Lite v5 spec for ``req`` (the rule's choice unless ``choice`` is given).

    Raises :class:`ChartNotApplicable` for results that are a table (a single number, no
    measure) or when ``choice`` does not fit the result's columns.
    """
    choice = choice or choose_chart(req)
    ctx = Ctx(req) if req.by_role("measure") else None
    missing = "a measure column" if ctx is None else _needs(ctx, choice.kind)
    if ctx is None or missing is not None:
        raise ChartNotApplicable(
            *both("charts.not_applicable", kind=choice.kind, missing=missing, reason=choice.reason),
            detail={"kind": choice.kind},
        )
    period = req.intent == "period_comparison"
    body, records = _builders(period)[choice.kind](ctx)
    title: dict[str, Any] = {"text": req.title}
    if ctx.notes:
        title["subtitle"] = list(dict.fromkeys(ctx.notes))
    spec: dict[str, Any] = {
        "$schema": SCHEMA_URL,
        "title": title,
        "description": choice.reason,
        "width": DEFAULT_WIDTH,
        "height": DEFAULT_HEIGHT,
        "data": {"values": records},
        **body,
        "config": config(req.language),
        "usermeta": {"baton": {"kind": choice.kind, "reason": choice.reason, "language": req.language}},
    }
    validate_spec(spec)
    return spec
