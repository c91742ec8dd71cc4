"""Distributions and relationships: histograms, boxplots (outliers shown) and scatter plots.

Incomplete rows stay in: they count in a histogram's bins (and in the subtitle), show as
points in a boxplot, and are hollow in a scatter.
"""

from __future__ import annotations

from typing import Any

from baton.charts.axes import label_expr
from baton.charts.choose import MAX_SERIES
from baton.charts.common import DEFAULT_HEIGHT, DEFAULT_WIDTH, PALETTE, Ctx, color_scale, member_text
from baton.charts.data import Record, as_float
from baton.charts.model import ChartColumn
from baton.numbers import format_number


def _axis_expr(ctx: Ctx, column: ChartColumn, values: list[float | None], length: int) -> str:
    return label_expr(column.unit, ctx.lang, column.currency, values, length=length, zero=False)


def build_histogram(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    records = ctx.finish_records(ctx.base_records(None))
    values = [r["value"] for r in records]
    ctx.note_incomplete(records, "charts.how_in_bins")
    spec = {
        "mark": {"type": "bar", "color": PALETTE[0], "stroke": "white", "strokeWidth": 0.5},
        "encoding": {
            "x": {
                "field": "value",
                "type": "quantitative",
                "bin": {"maxbins": 20},
                "title": ctx.measure.label,
                "axis": {"labelExpr": ctx.value_axis(values, length=DEFAULT_WIDTH, zero=False)["labelExpr"]},
            },
            "y": {"aggregate": "count", "type": "quantitative", "title": ctx.say("charts.count")},
        },
    }
    return spec, records


WHISKER_IQR = 1.5


def _box_stats(values: list[float]) -> dict[str, float]:
    """Quartiles (linear interpolation, as Vega computes them) and 1.5×IQR whiskers."""
    data = sorted(values)

    def quantile(p: float) -> float:
        at = (len(data) - 1) * p
        low = int(at)
        high = min(low + 1, len(data) - 1)
        return data[low] + (data[high] - data[low]) * (at - low)

    q1, median, q3 = quantile(0.25), quantile(0.5), quantile(0.75)
    reach = WHISKER_IQR * (q3 - q1)
    inside = [v for v in data if q1 - reach <= v <= q3 + reach] or data
    return {"q1": q1, "median": median, "q3": q3, "lw": inside[0], "uw": inside[-1]}


def build_boxplot(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    """Boxes computed here (quartiles, 1.5×IQR whiskers, outliers as points) so tooltips carry
    numbers written by :mod:`baton.numbers` and titles in the chart's language."""
    dim = ctx.dims[0] if ctx.dims else None
    records = ctx.finish_records(ctx.base_records(dim))
    if dim is None:
        for r in records:
            r["member"] = ctx.measure.label
    groups: dict[str, list[float]] = {}
    for r in records:
        if r["value"] is not None:
            groups.setdefault(r["member"], []).append(r["value"])
    stats = [{"member": m, **_box_stats(vs), "n": len(vs)} for m, vs in groups.items()]
    bounds = {b["member"]: (b["lw"], b["uw"]) for b in stats}
    for r in records:
        low, high = bounds.get(r["member"], (r["value"], r["value"]))
        r["outlier"] = r["value"] is not None and not low <= r["value"] <= high
    for b in stats:
        for key in ("q1", "median", "q3", "lw", "uw"):
            b[f"{key}_text"] = ctx.fmt(b[key])
        b["n_text"] = format_number(b["n"], "count", ctx.lang)
    x: dict[str, Any] = {
        "field": "member",
        "type": "nominal",
        "title": dim.label if dim else None,
        "sort": list(groups),  # the result's order, not the alphabet
        "axis": {"labelAngle": 0},
    }
    y_axis = ctx.value_axis([r["value"] for r in records], zero=False)
    y: dict[str, Any] = {"type": "quantitative", "title": ctx.measure.label, "axis": y_axis, "scale": {"zero": False}}
    layers = _box_layers(ctx, stats, x, y)
    point = {
        "x": x,
        "y": {"field": "value", "type": "quantitative"},
        "tooltip": ctx.tooltip(dim.label if dim else None),
    }
    layers.append(
        {
            "mark": {"type": "point", "filled": True, "size": 30, "color": PALETTE[0]},
            "transform": [{"filter": "datum.outlier && !datum.incomplete"}],
            "encoding": point,
        }
    )
    if any(r["incomplete"] for r in records):
        layers.append(
            {
                "mark": {"type": "point", "filled": False, "size": 70, "color": "#7f7f7f", "strokeWidth": 1.5},
                "transform": [{"filter": "datum.incomplete"}],
                "encoding": point,
            }
        )
        ctx.note_incomplete(records, "charts.how_hollow_points")
    ctx.notes.append(ctx.say("charts.note_boxplot"))
    return {"layer": layers}, records


def _box_layers(ctx: Ctx, stats: list[dict[str, Any]], x: dict[str, Any], y: dict[str, Any]) -> list[dict[str, Any]]:
    """Whisker rule, box (with the formatted summary as its tooltip) and median tick."""
    tips = [
        {"field": "member", "type": "nominal", "title": x["title"] or ctx.measure.label},
        {"field": "median_text", "type": "nominal", "title": ctx.say("charts.median")},
        {"field": "q1_text", "type": "nominal", "title": ctx.say("charts.q1")},
        {"field": "q3_text", "type": "nominal", "title": ctx.say("charts.q3")},
        {"field": "lw_text", "type": "nominal", "title": ctx.say("charts.lower_whisker")},
        {"field": "uw_text", "type": "nominal", "title": ctx.say("charts.upper_whisker")},
        {"field": "n_text", "type": "nominal", "title": ctx.say("charts.observations")},
    ]
    data = {"values": stats}
    return [
        {
            "data": data,
            "mark": {"type": "rule", "color": "#333"},
            "encoding": {"x": x, "y": {**y, "field": "lw"}, "y2": {"field": "uw"}},
        },
        {
            "data": data,
            "mark": {"type": "bar", "color": PALETTE[0], "width": {"band": 0.5}},
            "encoding": {"x": x, "y": {"field": "q1", "type": "quantitative"}, "y2": {"field": "q3"}, "tooltip": tips},
        },
        {
            "data": data,
            "mark": {"type": "tick", "color": "white", "thickness": 2, "width": {"band": 0.5}},
            "encoding": {"x": x, "y": {"field": "median", "type": "quantitative"}},
        },
    ]


def build_scatter(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    mx, my = ctx.measures[0], ctx.measures[1]
    dim = ctx.dims[0] if ctx.dims else None
    records: list[Record] = []
    for i, row in enumerate(ctx.req.rows):
        x, y = as_float(ctx.cell(row, mx)), as_float(ctx.cell(row, my))
        records.append(
            {
                "member": member_text(ctx.cell(row, dim), ctx.lang) if dim else "",
                "x": x,
                "y": y,
                "x_text": ctx.fmt(x, mx.unit),
                "y_text": ctx.fmt(y, my.unit),
                "incomplete": ctx.incomplete[i],
                "status": ctx.status(ctx.incomplete[i]),
            }
        )
    members = list(dict.fromkeys(r["member"] for r in records))
    color: dict[str, Any] = (
        {"field": "member", "type": "nominal", "title": dim.label, "scale": color_scale(members, ctx.other)}
        if dim is not None and 1 < len(members) <= MAX_SERIES
        else {"value": PALETTE[0]}
    )
    tooltip: list[dict[str, Any]] = []
    if dim is not None:
        tooltip.append({"field": "member", "type": "nominal", "title": dim.label})
    tooltip += [
        {"field": "x_text", "type": "nominal", "title": mx.label},
        {"field": "y_text", "type": "nominal", "title": my.label},
        {"field": "status", "type": "nominal", "title": ctx.say("charts.data_status")},
    ]
    enc: dict[str, Any] = {
        "x": {
            "field": "x",
            "type": "quantitative",
            "title": mx.label,
            "scale": {"zero": False},
            "axis": {"labelExpr": _axis_expr(ctx, mx, [r["x"] for r in records], DEFAULT_WIDTH)},
        },
        "y": {
            "field": "y",
            "type": "quantitative",
            "title": my.label,
            "scale": {"zero": False},
            "axis": {"labelExpr": _axis_expr(ctx, my, [r["y"] for r in records], DEFAULT_HEIGHT)},
        },
        "color": color,
        "tooltip": tooltip,
    }
    layers: list[dict[str, Any]] = [
        {
            "mark": {"type": "point", "filled": True, "size": 50, "opacity": 0.8},
            "transform": [{"filter": "!datum.incomplete"}],
            "encoding": enc,
        }
    ]
    if any(r["incomplete"] for r in records):
        layers.append(
            {
                "mark": {"type": "point", "filled": False, "size": 70, "strokeWidth": 1.5},
                "transform": [{"filter": "datum.incomplete"}],
                "encoding": enc,
            }
        )
        ctx.note_incomplete(records, "charts.how_hollow_points")
    return {"layer": layers}, records
