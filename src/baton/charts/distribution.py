"""Distributions and relationships: histograms, boxplots (outliers shown) and scatter plots.

Incomplete rows stay in: they count in a histogram's bins (and in the subtitle), show as
points in a boxplot, and are hollow in a scatter.
"""

from __future__ import annotations

from typing import Any

from baton.charts.choose import MAX_SERIES
from baton.charts.common import PALETTE, Ctx, color_scale, member_text
from baton.charts.data import Record, as_float
from baton.numbers import axis_label_expr


def build_histogram(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    records = ctx.finish_records(ctx.base_records(None))
    ctx.note_incomplete(records, "charts.how_in_bins")
    spec = {
        "mark": {"type": "bar", "color": PALETTE[0], "stroke": "white", "strokeWidth": 0.5},
        "encoding": {
            "x": {
                "field": "value",
                "type": "quantitative",
                "bin": {"maxbins": 20},
                "title": ctx.measure.label,
                "axis": {"labelExpr": ctx.value_axis()["labelExpr"]},
            },
            "y": {"aggregate": "count", "type": "quantitative", "title": ctx.say("charts.count")},
        },
    }
    return spec, records


def build_boxplot(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    dim = ctx.dims[0] if ctx.dims else None
    records = ctx.finish_records(ctx.base_records(dim))
    enc: dict[str, Any] = {
        "y": {
            "field": "value",
            "type": "quantitative",
            "title": ctx.measure.label,
            "axis": ctx.value_axis(),
            "scale": {"zero": False},
        },
    }
    if dim is not None:
        enc["x"] = {"field": "member", "type": "nominal", "title": dim.label, "axis": {"labelAngle": 0}}
    box = {
        "mark": {"type": "boxplot", "extent": 1.5, "color": PALETTE[0], "outliers": {"size": 30}},
        "encoding": enc,
    }
    layers: list[dict[str, Any]] = [box]
    if any(r["incomplete"] for r in records):
        layers.append(
            {
                "mark": {"type": "point", "filled": False, "size": 70, "color": "#7f7f7f", "strokeWidth": 1.5},
                "transform": [{"filter": "datum.incomplete"}],
                "encoding": {**enc, "tooltip": ctx.tooltip(dim.label if dim else None)},
            }
        )
        ctx.note_incomplete(records, "charts.how_hollow_points")
    ctx.notes.append(ctx.say("charts.note_boxplot"))
    return {"layer": layers}, records


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
            "axis": {"labelExpr": axis_label_expr(mx.unit, ctx.lang, mx.currency)},
        },
        "y": {
            "field": "y",
            "type": "quantitative",
            "title": my.label,
            "scale": {"zero": False},
            "axis": {"labelExpr": axis_label_expr(my.unit, ctx.lang, my.currency)},
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
