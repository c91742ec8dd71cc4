"""Line charts: one line per member (top 7 + "Other" past 8), interval bands, incomplete days
drawn dashed with hollow points, and anomalies, peaks and change points marked.

Incomplete days are split out visually, not removed: each record carries ``y_solid`` (null on
incomplete points, so the solid line breaks there) and ``y_dash`` (the value on incomplete
points and their neighbours, so a dashed segment bridges the gap).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from baton.charts.choose import MAX_SERIES
from baton.charts.common import MARK_COLORS, Ctx, color_scale, member_text, time_x
from baton.charts.data import Record, as_float, fold_other, time_key, to_json, top_members

MAX_POINTS_WITH_DOTS = 62


def _series_records(ctx: Ctx) -> tuple[list[Record], str | None]:
    """Long records (t, member, value …) and the legend title (``None``: a single series)."""
    if ctx.dims:
        return ctx.base_records(ctx.dims[0]), ctx.dims[0].label
    if len(ctx.measures) == 1:
        return ctx.base_records(None), None
    # Several measures and no dimension: one line per measure.
    records: list[Record] = []
    for i, row in enumerate(ctx.req.rows):
        for m in ctx.measures:
            records.append(
                {
                    "t": to_json(ctx.cell(row, ctx.times[0])),
                    "member": m.label,
                    "value": as_float(ctx.cell(row, m)),
                    "incomplete": ctx.incomplete[i],
                }
            )
    return records, ctx.say("charts.measure")


def _split_incomplete(records: list[Record]) -> bool:
    """Fill ``y_solid``/``y_dash`` per series in time order; True when anything is incomplete."""
    by_series: dict[str, list[Record]] = defaultdict(list)
    for r in records:
        by_series[r["member"]].append(r)
    any_incomplete = False
    for series in by_series.values():
        series.sort(key=lambda r: str(r["t"]))
        flags = [bool(r["incomplete"]) for r in series]
        for i, r in enumerate(series):
            near = flags[i] or (i > 0 and flags[i - 1]) or (i + 1 < len(flags) and flags[i + 1])
            r["y_solid"] = None if flags[i] else r["value"]
            r["y_dash"] = r["value"] if near else None
            any_incomplete = any_incomplete or flags[i]
    return any_incomplete


def build_line(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    records, legend_title = _series_records(ctx)
    totals: dict[str, float] = defaultdict(float)
    for r in records:
        totals[r["member"]] += abs(r["value"] or 0.0)
    order, folded = top_members(totals, MAX_SERIES - 1, MAX_SERIES)
    if folded:
        records = fold_other(records, folded, ctx.other, ("t",), ctx.additive)
        order = [*order, ctx.other]
        ctx.note_folded(len(folded))
    records = ctx.finish_records(records)
    any_incomplete = _split_incomplete(records)
    multi = len(order) > 1

    x = time_x(ctx)
    color: dict[str, Any] = (
        {"field": "member", "type": "nominal", "title": legend_title, "scale": color_scale(order, ctx.other)}
        if multi
        else {"value": color_scale(order, ctx.other)["range"][0]}
    )
    y_axis = ctx.value_axis()
    layers: list[dict[str, Any]] = []
    if ctx.low is not None and ctx.high is not None:
        layers.append(
            {
                "mark": {"type": "area", "opacity": 0.18},
                "encoding": {
                    "x": x,
                    "y": {"field": "low", "type": "quantitative", "axis": y_axis, "title": ctx.measure.label},
                    "y2": {"field": "high"},
                    "color": color,
                },
            }
        )
        ctx.note_interval("charts.how_band")
    layers.append(
        {
            "mark": {"type": "line", "strokeWidth": 2},
            "encoding": {
                "x": x,
                "y": {"field": "y_solid" if any_incomplete else "value", "type": "quantitative", "axis": y_axis},
                "color": color,
            },
        }
    )
    if any_incomplete:
        layers.append(
            {
                "mark": {"type": "line", "strokeWidth": 2, "strokeDash": [5, 4]},
                "encoding": {"x": x, "y": {"field": "y_dash", "type": "quantitative"}, "color": color},
            }
        )
    n_times = len({r["t"] for r in records})
    tooltip = ctx.tooltip(legend_title, with_time=True)
    layers.append(
        {
            "mark": {"type": "point", "filled": True, "size": 28 if n_times <= MAX_POINTS_WITH_DOTS else 0},
            "transform": [{"filter": "!datum.incomplete"}],
            "encoding": {"x": x, "y": {"field": "value", "type": "quantitative"}, "color": color, "tooltip": tooltip},
        }
    )
    if any_incomplete:
        label = ctx.status(True)
        layers.append(
            {
                "mark": {"type": "point", "filled": False, "size": 110, "strokeWidth": 2, "fill": "white"},
                "transform": [{"filter": "datum.incomplete"}],
                "encoding": {
                    "x": x,
                    "y": {"field": "value", "type": "quantitative"},
                    "stroke": color if multi else {"value": MARK_COLORS["incomplete"]},
                    "shape": {
                        "field": "status",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": [label], "range": ["circle"]},
                    },
                    "tooltip": tooltip,
                },
            }
        )
        ctx.note_incomplete(records, "charts.how_hollow_dashed")
    layers.extend(_annotation_layers(ctx, records, x))
    return {"layer": layers}, records


def _annotation_layers(ctx: Ctx, records: list[Record], x: dict[str, Any]) -> list[dict[str, Any]]:
    """Points with labels for anomalies and peaks, rules for change points (and for any mark
    whose time is not in the data: it is still drawn, never dropped)."""
    marks = [m for m in ctx.req.marks if m.kind != "incomplete"]
    if not marks:
        return []
    first = records[0]["member"] if records else ""
    lookup = {(r["member"], time_key(r["t"])): r["value"] for r in records}
    points: list[Record] = []
    rules: list[Record] = []
    for m in marks:
        series = member_text(m.series, ctx.lang) if m.series is not None else first
        at = to_json(m.at)
        value = lookup.get((series, time_key(at)))
        row = {"t": at, "value": value, "label": m.label, "kind": m.kind, "member": series}
        (rules if m.kind == "change_point" or value is None else points).append(row)
    x_plain = {k: v for k, v in x.items() if k not in ("axis", "title")}
    layers: list[dict[str, Any]] = []
    if points:
        kind_color = {
            "field": "kind",
            "type": "nominal",
            "legend": None,
            "scale": {"domain": list(MARK_COLORS), "range": list(MARK_COLORS.values())},
        }
        layers.append(
            {
                "data": {"values": points},
                "mark": {"type": "point", "filled": True, "size": 120, "shape": "diamond"},
                "encoding": {"x": x_plain, "y": {"field": "value", "type": "quantitative"}, "color": kind_color},
            }
        )
        layers.append(
            {
                "data": {"values": points},
                "mark": {"type": "text", "dy": -14, "fontWeight": "bold", "fontSize": 12},
                "encoding": {
                    "x": x_plain,
                    "y": {"field": "value", "type": "quantitative"},
                    "text": {"field": "label"},
                    "color": kind_color,
                },
            }
        )
    if rules:
        layers.append(
            {
                "data": {"values": rules},
                "mark": {"type": "rule", "strokeDash": [3, 3], "color": MARK_COLORS["change_point"]},
                "encoding": {"x": x_plain},
            }
        )
        layers.append(
            {
                "data": {"values": rules},
                "mark": {"type": "text", "align": "left", "dx": 4, "dy": 2, "baseline": "top", "fontSize": 11},
                "encoding": {
                    "x": x_plain,
                    "y": {"value": 0},
                    "text": {"field": "label"},
                    "color": {"value": MARK_COLORS["change_point"]},
                },
            }
        )
    return layers
