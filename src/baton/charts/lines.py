"""Line charts: one line per member (top 7 + "Other" past 8), interval bands, incomplete days
drawn dashed with hollow points, and anomalies, peaks and change points marked.

Incomplete days are split out visually, not removed: each record carries ``y_solid`` (null on
incomplete points, so the solid line breaks there) and ``y_dash`` (the value on incomplete
points and their neighbours, so a dashed segment bridges the gap).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from baton.charts.axes import nice_domain
from baton.charts.choose import MAX_SERIES
from baton.charts.common import DEFAULT_HEIGHT, DEFAULT_WIDTH, MARK_COLORS, Ctx, color_scale, member_text, time_x
from baton.charts.data import Record, as_float, fold_other, time_key, to_json, top_members
from baton.charts.layout import ROW_PX, Box, place_point_label, place_rule_label, rule_label_y

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
    y_axis = ctx.value_axis([r.get(k) for r in records for k in ("value", "low", "high")])
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
                    # one grey ring for every series: a field-encoded stroke would leave the
                    # legend entry without its symbol (the dashed segment keeps the series colour)
                    "stroke": {"value": MARK_COLORS["incomplete"]},
                    "shape": {
                        "field": "status",
                        "type": "nominal",
                        "title": None,
                        "scale": {"domain": [label], "range": ["circle"]},
                        "legend": {"symbolStrokeWidth": 2, "symbolOpacity": 1},
                    },
                    "tooltip": tooltip,
                },
            }
        )
        ctx.note_incomplete(records, "charts.how_hollow_dashed")
    layers.extend(_annotation_layers(ctx, records, x))
    return {"layer": layers}, records


def _epoch(value: object) -> float | None:
    """Seconds since 1970 of a time as the records hold it (``2026-06-01`` or ``…T08:00:00Z``)."""
    text = str(value)
    try:
        when = dt.datetime.fromisoformat(text.replace("Z", "+00:00")) if "T" in text else None
        day = when or dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC)
    except ValueError:
        return None
    return day.replace(tzinfo=day.tzinfo or dt.UTC).timestamp()


def _x_pixels(rows: list[Record], records: list[Record]) -> list[float]:
    """Each annotation's x in plot pixels on the time scale (its domain spans data and marks)."""
    times = [t for t in (_epoch(r["t"]) for r in [*records, *rows]) if t is not None]
    lo, hi = (min(times), max(times)) if times else (0.0, 1.0)
    span = (hi - lo) or 1.0
    return [((_epoch(r["t"]) or lo) - lo) / span * DEFAULT_WIDTH for r in rows]


def _annotation_layers(ctx: Ctx, records: list[Record], x: dict[str, Any]) -> list[dict[str, Any]]:
    """Points with labels for anomalies and peaks, rules for change points (and for any mark
    whose time is not in the data: it is still drawn, never dropped). Labels are placed so none
    overlaps another (:mod:`baton.charts.layout`); one that finds no room goes to the subtitle."""
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
    _place_labels(records, points, rules)
    x_plain = {k: v for k, v in x.items() if k not in ("axis", "title")}
    layers = _point_layers(points, x_plain) + _rule_layers(rules, x_plain)
    unplaced = [r for r in points + rules if r.get("level") is None and r.get("row") is None]
    if unplaced:
        said = [ctx.say("charts.mark_at", label=r["label"], at=time_key(r["t"])) for r in unplaced]
        ctx.notes.append(ctx.say("charts.note_unlabelled", marks=ctx.say("charts.list_sep").join(said)))
    return layers


def _place_labels(records: list[Record], points: list[Record], rules: list[Record]) -> None:
    """Set ``level`` (points) and ``row``/``leftward`` (rules); ``None`` where no room was left."""
    lo, hi = nice_domain([r.get(k) for r in records for k in ("value", "low", "high")])
    placed: list[Box] = []
    for r, x_px in sorted(zip(points, _x_pixels(points, records), strict=True), key=lambda p: p[1]):
        y_px = DEFAULT_HEIGHT - ((r["value"] or 0.0) - lo) / ((hi - lo) or 1.0) * DEFAULT_HEIGHT
        r["level"] = place_point_label(x_px, y_px, r["label"], placed).level
    for r, x_px in sorted(zip(rules, _x_pixels(rules, records), strict=True), key=lambda p: p[1]):
        spot = place_rule_label(x_px, r["label"], placed, DEFAULT_WIDTH)
        r["row"], r["leftward"] = spot.row, spot.leftward
        r["top"] = 0.0 if spot.row is None else rule_label_y(spot.row) - ROW_PX + 2


def _point_layers(points: list[Record], x_plain: dict[str, Any]) -> list[dict[str, Any]]:
    """A diamond per point and its label, coloured by kind as values: a colour *scale* here would
    merge with the series' colour scale and repaint the marks."""
    y = {"field": "value", "type": "quantitative"}
    layers: list[dict[str, Any]] = []
    for kind in dict.fromkeys(r["kind"] for r in points):
        color = {"value": MARK_COLORS[kind]}
        mine = [r for r in points if r["kind"] == kind]
        layers.append(
            {
                "data": {"values": mine},
                "mark": {"type": "point", "filled": True, "size": 120, "shape": "diamond"},
                "encoding": {"x": x_plain, "y": y, "color": color},
            }
        )
        for level in sorted({r["level"] for r in mine if r["level"] is not None}):
            layers.append(
                {
                    "data": {"values": [r for r in mine if r["level"] == level]},
                    "mark": {"type": "text", "dy": -14 - ROW_PX * level, "fontWeight": "bold", "fontSize": 12},
                    "encoding": {"x": x_plain, "y": y, "text": {"field": "label"}, "color": color},
                }
            )
    return layers


def _rule_layers(rules: list[Record], x_plain: dict[str, Any]) -> list[dict[str, Any]]:
    if not rules:
        return []
    color = MARK_COLORS["change_point"]
    layers: list[dict[str, Any]] = [
        {
            "data": {"values": rules},
            "mark": {"type": "rule", "strokeDash": [3, 3], "color": color},
            # each rule rises to its label's row above the plot, so the two read as one
            "encoding": {
                "x": x_plain,
                "y": {"field": "top", "type": "quantitative", "scale": None},
                "y2": {"value": DEFAULT_HEIGHT},
            },
        }
    ]
    spots = sorted({(r["row"], r["leftward"]) for r in rules if r["row"] is not None})
    for row, leftward in spots:
        mark = {"type": "text", "align": "right" if leftward else "left", "dx": -4 if leftward else 4}
        layers.append(
            {
                "data": {"values": [r for r in rules if (r["row"], r["leftward"]) == (row, leftward)]},
                "mark": {**mark, "baseline": "bottom", "fontSize": 11},
                "encoding": {
                    "x": x_plain,
                    "y": {"value": rule_label_y(row)},
                    "text": {"field": "label"},
                    "color": {"value": color},
                },
            }
        )
    return layers
