"""Bar-family charts: sorted (horizontal) bars, stacked share bars, donuts and grouped bars.

Bars carry their formatted value as a label, intervals as error bars, incomplete members as
pale dashed bars (kept, and counted in the subtitle), and marks as highlighted bars.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from baton.charts.axes import text_px
from baton.charts.choose import MAX_BARS, MAX_SERIES, display_width
from baton.charts.common import (
    DEFAULT_HEIGHT,
    DEFAULT_WIDTH,
    MARK_COLORS,
    OTHER_COLOR,
    PALETTE,
    Ctx,
    color_scale,
    member_text,
    period_text,
    time_x,
)
from baton.charts.data import Record, as_float, fold_other, time_key, to_json, top_members
from baton.charts.layout import donut_labels
from baton.charts.model import ChartColumn
from baton.numbers import MISSING, format_change, format_number

PREVIOUS_COLOR = "#9ecae9"
CURRENT_COLOR = "#4c78a8"


def label_angle(members: list[str], width: int = 640) -> int:
    """0 when every label fits under its band (about 7 px per display column), else -40."""
    widest = max((display_width(m) for m in members), default=0)
    return 0 if widest * 7 <= width / max(len(members), 1) - 8 else -40


def _fitting_size(
    records: list[Record], bands: int, size: float = 10, smallest: float = 7, key: str = "label_text"
) -> float:
    """A font size at which every value label fits over its bar (neighbours of equal height
    would otherwise print over each other)."""
    widest = max((text_px(str(r[key]), size) for r in records), default=0.0)
    room = DEFAULT_WIDTH / max(bands, 1) - 4
    return size if widest <= room else max(smallest, round(size * room / widest, 1))


def _plotted(records: list[Record]) -> list[float | None]:
    """Every number a value axis spans: values and interval bounds."""
    return [r.get(k) for r in records for k in ("value", "low", "high")]


def _order_by_value(records: list[Record], other: str) -> list[str]:
    totals: dict[str, float] = defaultdict(float)
    for r in records:
        totals[r["member"]] += r["value"] or 0.0
    return sorted(totals, key=lambda m: (m == other, -totals[m], m))


def _incomplete_style(records: list[Record]) -> dict[str, Any]:
    if not any(r.get("incomplete") for r in records):
        return {}
    test = "datum.incomplete"
    return {
        "fillOpacity": {"condition": {"test": test, "value": 0.3}, "value": 1},
        "strokeOpacity": {"condition": {"test": test, "value": 1}, "value": 0},
        "strokeDash": {"condition": {"test": test, "value": [4, 3]}, "value": [1, 0]},
    }


def _apply_marks(ctx: Ctx, records: list[Record], key: str = "member") -> None:
    """Attach each (non-incomplete) mark to its bar; a mark with no bar goes to the subtitle."""
    for m in ctx.req.marks:
        if m.kind == "incomplete":
            continue
        target = time_key(m.at)
        hits = [r for r in records if time_key(r.get(key)) == target]
        for r in hits:
            r["note"] = m.label
            r["mark_kind"] = m.kind
        if not hits:
            ctx.notes.append(ctx.say("charts.mark_at", label=m.label, at=target))


def build_bar(ctx: Ctx, horizontal: bool) -> tuple[dict[str, Any], list[Record]]:
    dim = ctx.dims[0]
    records = ctx.base_records(dim)
    totals = {r["member"]: abs(r["value"] or 0.0) for r in records}
    _, folded = top_members(totals, MAX_BARS - 1, MAX_BARS)
    if folded:
        records = fold_other(records, folded, ctx.other, (), ctx.additive)
        ctx.note_folded(len(folded))
    records = ctx.finish_records(records)
    _apply_marks(ctx, records)
    for r in records:
        r["label_text"] = f"{r['value_text']} {r['note']}" if r.get("note") else r["value_text"]
    order = _order_by_value(records, ctx.other)
    cat: dict[str, Any] = {"field": "member", "type": "nominal", "sort": order, "title": dim.label}
    if not horizontal:
        cat["axis"] = {"labelAngle": label_angle(order)}
    length = DEFAULT_WIDTH if horizontal else DEFAULT_HEIGHT
    axis = ctx.value_axis(_plotted(records), length=length)
    val: dict[str, Any] = {"field": "value", "type": "quantitative", "axis": axis}
    pos_cat, pos_val = ("y", "x") if horizontal else ("x", "y")
    color = {
        "condition": [
            {"test": "datum.mark_kind != null", "value": MARK_COLORS["peak"]},
            {"test": "datum.folded_members > 0", "value": OTHER_COLOR},
        ],
        "value": PALETTE[0],
    }
    bar = {
        "mark": {"type": "bar", "stroke": PALETTE[0], "strokeWidth": 1.5},
        "encoding": {
            pos_cat: cat,
            pos_val: val,
            "color": color,
            "tooltip": ctx.tooltip(dim.label),
            **_incomplete_style(records),
        },
    }
    text_mark = (
        {"type": "text", "align": "left", "dx": 4, "fontSize": 10}
        if horizontal
        else {"type": "text", "baseline": "bottom", "dy": -3, "fontSize": _fitting_size(records, len(order))}
    )
    labels = {
        "mark": text_mark,
        "encoding": {
            pos_cat: {"field": "member", "type": "nominal", "sort": order},
            pos_val: {"field": "value", "type": "quantitative"},
            "text": {"field": "label_text"},
        },
    }
    layers = [bar, labels]
    if ctx.low is not None and ctx.high is not None:
        layers.append(
            {
                "mark": {"type": "errorbar", "ticks": True},
                "encoding": {
                    pos_cat: {"field": "member", "type": "nominal", "sort": order},
                    pos_val: {"field": "low", "type": "quantitative", "title": ctx.measure.label},
                    f"{pos_val}2": {"field": "high"},
                },
            }
        )
        ctx.note_interval("charts.how_error_bars")
    ctx.note_incomplete(records, "charts.how_dashed_bars")
    size = {"height": max(160, 24 * len(order))} if horizontal else {}
    return {"layer": layers, **size}, records


def _with_shares(records: list[Record], group_key: str | None, ctx: Ctx) -> None:
    totals: dict[Any, float] = defaultdict(float)
    for r in records:
        totals[r.get(group_key) if group_key else None] += max(r["value"] or 0.0, 0.0)
    for r in records:
        total = totals[r.get(group_key) if group_key else None]
        share = (r["value"] or 0.0) / total if total else None
        r["share"] = share
        r["share_text"] = format_number(share, "ratio", ctx.lang)


def _share_tooltip(ctx: Ctx, member_title: str | None) -> list[dict[str, Any]]:
    tips = ctx.tooltip(member_title, with_time=bool(ctx.times))
    tips.insert(-1, {"field": "share_text", "type": "nominal", "title": ctx.say("charts.share")})
    return tips


def build_stacked(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    """Shares of a whole: per time point, per category of a first dimension, or one bar."""
    if ctx.times:
        group_key: str | None = "t"
        member_dim = ctx.dims[0]
    elif len(ctx.dims) >= 2:
        group_key, member_dim = "cat", ctx.dims[1]
    else:
        group_key, member_dim = None, ctx.dims[0]
    records = ctx.base_records(member_dim)
    if group_key == "cat":
        for rec, row in zip(records, ctx.req.rows, strict=True):
            rec["cat"] = member_text(ctx.cell(row, ctx.dims[0]), ctx.lang)
    totals: dict[str, float] = defaultdict(float)
    for r in records:
        totals[r["member"]] += abs(r["value"] or 0.0)
    order, folded = top_members(totals, MAX_SERIES - 1, MAX_SERIES)
    if folded:
        records = fold_other(records, folded, ctx.other, (group_key,) if group_key else (), ctx.additive)
        order = [*order, ctx.other]
        ctx.note_folded(len(folded))
    records = ctx.finish_records(records)
    _with_shares(records, group_key, ctx)
    rank = {m: i for i, m in enumerate(order)}
    for r in records:
        r["rank"] = rank[r["member"]]
    share_axis = {"title": ctx.say("charts.share_of", label=ctx.measure.label), "format": ".0%"}
    val = {"field": "value", "type": "quantitative", "stack": "normalize", "axis": share_axis}
    enc: dict[str, Any] = {
        "color": {
            "field": "member",
            "type": "nominal",
            "title": member_dim.label,
            "scale": color_scale(order, ctx.other),
        },
        "order": {"field": "rank", "type": "quantitative"},
        "tooltip": _share_tooltip(ctx, member_dim.label),
        **_incomplete_style(records),
    }
    size: dict[str, Any] = {}
    if group_key == "t":
        enc.update(x=time_x(ctx), y=val)
    elif group_key == "cat":
        enc.update(x={"field": "cat", "type": "nominal", "title": ctx.dims[0].label, "axis": {"labelAngle": 0}}, y=val)
    else:
        enc.update(x=val)
        size = {"height": 60}
    ctx.note_incomplete(records, "charts.how_dashed_segments")
    bar = {"mark": {"type": "bar", "stroke": "white", "strokeWidth": 1}, "encoding": enc}
    return {**bar, **size}, records


DONUT_WIDTH, DONUT_HEIGHT = 560, 300
DONUT_OUTER, DONUT_INNER = 105, 62


def build_donut(ctx: Ctx) -> tuple[dict[str, Any], list[Record]]:
    """A donut whose labels (member and share) sit outside the ring, joined by leader lines."""
    dim = ctx.dims[0]
    records = ctx.finish_records(ctx.base_records(dim))
    _with_shares(records, None, ctx)
    order = _order_by_value(records, ctx.other)
    rank = {m: i for i, m in enumerate(order)}
    for r in records:
        r["rank"] = rank[r["member"]]
        r["label_text"] = f"{r['member']} {r['share_text']}"
    ranked = sorted(records, key=lambda r: r["rank"])
    total = sum(max(r["value"] or 0.0, 0.0) for r in ranked) or 1.0
    center = (DONUT_WIDTH / 2, DONUT_HEIGHT / 2)
    spots = donut_labels([max(r["value"] or 0.0, 0.0) / total for r in ranked], center, DONUT_OUTER, DONUT_HEIGHT)
    for r, spot in zip(ranked, spots, strict=True):
        r.update(lx=spot.x, ly=spot.y, right=spot.right, x0=spot.x0, y0=spot.y0, x1=spot.x1, y1=spot.y1)
    common = {
        "theta": {"field": "value", "type": "quantitative", "stack": True},
        "order": {"field": "rank", "type": "quantitative"},
        "color": {"field": "member", "type": "nominal", "title": dim.label, "scale": color_scale(order, ctx.other)},
    }
    arc = {
        "mark": {"type": "arc", "innerRadius": DONUT_INNER, "outerRadius": DONUT_OUTER, "stroke": "white"},
        "encoding": {**common, "tooltip": _share_tooltip(ctx, dim.label), **_incomplete_style(records)},
    }
    layers: list[dict[str, Any]] = [arc, *_leaders(), _slice_text(True), _slice_text(False)]
    ctx.note_incomplete(records, "charts.how_dashed_slices")
    return {"layer": layers, "width": DONUT_WIDTH, "height": DONUT_HEIGHT}, records


def _pixels(x: str, y: str) -> dict[str, Any]:
    """Position channels read as plot pixels (no scale): the layout was computed in pixels."""
    return {
        "x": {"field": x, "type": "quantitative", "scale": None},
        "y": {"field": y, "type": "quantitative", "scale": None},
    }


def _leaders() -> list[dict[str, Any]]:
    """Leader lines: ring edge to elbow, elbow to the label."""
    line = {"type": "rule", "color": "#888", "strokeWidth": 0.8}
    return [
        {"mark": line, "encoding": {**_pixels("x0", "y0"), "x2": {"field": "x1"}, "y2": {"field": "y1"}}},
        {"mark": line, "encoding": {**_pixels("x1", "y1"), "x2": {"field": "lx"}, "y2": {"field": "ly"}}},
    ]


def _slice_text(right: bool) -> dict[str, Any]:
    mark = {"type": "text", "fontSize": 11, "align": "left" if right else "right", "dx": 3 if right else -3}
    return {
        "mark": {**mark, "baseline": "middle", "color": "#333"},
        "transform": [{"filter": "datum.right" if right else "!datum.right"}],
        "encoding": {**_pixels("lx", "ly"), "text": {"field": "label_text"}},
    }


def _period_columns(ctx: Ctx) -> tuple[ChartColumn | None, ChartColumn | None]:
    """Long-form period comparison: (period column, member column)."""
    for col in ctx.times + ctx.dims[::-1]:
        if len(set(ctx.req.values(col))) == 2:
            others = [d for d in ctx.dims if d != col]
            return col, (others[0] if others else None)
    return None, None


def _grouped_records(ctx: Ctx, period: bool) -> tuple[list[Record], list[str], str, ChartColumn | None]:
    """Records with ``member`` (x) and ``group`` (bars side by side), the group order (previous
    period first, so the current one sits on the right), the legend title and the member column.

    Period comparison, wide form: the first measure is the current period, the second the
    previous. Long form: the later time (or the first-seen value of the period dimension) is
    the current period.
    """
    total = ctx.say("charts.total")
    member_col = ctx.dims[0] if ctx.dims else None
    records: list[Record] = []
    if len(ctx.measures) >= 2:
        measures = ctx.measures[:2] if period else ctx.measures
        for i, row in enumerate(ctx.req.rows):
            for m in measures:
                records.append(
                    {
                        "member": member_text(ctx.cell(row, member_col), ctx.lang) if member_col else total,
                        "group": m.label,
                        "value": as_float(ctx.cell(row, m)),
                        "incomplete": ctx.incomplete[i],
                    }
                )
        groups = [m.label for m in measures]
        groups = groups[::-1] if period else groups
        return records, groups, ctx.say("charts.period") if period else "", member_col
    if period:
        period_col, member_col = _period_columns(ctx)
    else:
        period_col, member_col = ctx.dims[1], ctx.dims[0]
    assert period_col is not None
    seen = list(dict.fromkeys(ctx.req.values(period_col)))
    if period_col.role == "time":
        seen = sorted(seen, key=lambda v: str(to_json(v)), reverse=True)
    for rec, row in zip(ctx.base_records(member_col), ctx.req.rows, strict=True):
        rec["group"] = period_text(ctx.cell(row, period_col), ctx.lang)
        if member_col is None:
            rec["member"] = total
        rec.pop("t", None)
        records.append(rec)
    groups = [period_text(v, ctx.lang) for v in seen]
    groups = groups[::-1] if period else groups
    return records, groups, period_col.label, member_col


def build_grouped(ctx: Ctx, period: bool) -> tuple[dict[str, Any], list[Record]]:
    records, groups, legend_title, member_col = _grouped_records(ctx, period)
    records = ctx.finish_records(records)
    current = groups[-1]
    cur_value = {r["member"]: r["value"] or 0.0 for r in records if r["group"] == current}
    order = sorted(dict.fromkeys(r["member"] for r in records), key=lambda m: (-cur_value.get(m, 0.0), m))
    scale = (
        {"domain": groups, "range": [PREVIOUS_COLOR, CURRENT_COLOR]}
        if period and len(groups) == 2
        else color_scale(groups, ctx.other)
    )
    x = {
        "field": "member",
        "type": "nominal",
        "sort": order,
        "title": member_col.label if member_col else None,
        "axis": {"labelAngle": label_angle(order)},
    }
    # Wide period form: the measure labels name the periods, not the quantity (the title does).
    tops = [max(r["value"] or 0.0, r.get("high") or 0.0) for r in records]
    y_scale = {"domainMax": max(tops, default=0.0) * 1.12} if period and tops and max(tops) > 0 else {}
    y_axis = ctx.value_axis([*_plotted(records), y_scale.get("domainMax")])
    if period and len(ctx.measures) >= 2:
        y_axis["title"] = None
    tooltip = ctx.tooltip(member_col.label if member_col else None)
    tooltip.insert(-1, {"field": "group", "type": "nominal", "title": legend_title or ctx.measure.label})
    bar = {
        "mark": {"type": "bar", "stroke": CURRENT_COLOR, "strokeWidth": 1.5},
        "encoding": {
            "x": x,
            "xOffset": {"field": "group", "sort": groups},
            "y": {"field": "value", "type": "quantitative", "axis": y_axis, "scale": y_scale},
            "color": {"field": "group", "type": "nominal", "title": legend_title or None, "scale": scale},
            "tooltip": tooltip,
            **_incomplete_style(records),
        },
    }
    values = {
        "mark": {
            "type": "text",
            "baseline": "bottom",
            "dy": -2,
            "fontSize": _fitting_size(records, len(order) * len(groups), size=9, key="value_text"),
        },
        "encoding": {
            "x": {"field": "member", "type": "nominal", "sort": order},
            "xOffset": {"field": "group", "sort": groups},
            "y": {"field": "value", "type": "quantitative"},
            "text": {"field": "value_text"},
        },
    }
    layers: list[dict[str, Any]] = [bar, values]
    if ctx.low is not None and ctx.high is not None and len(ctx.measures) == 1:
        layers.append(
            {
                "mark": {"type": "rule", "strokeWidth": 1.5, "color": "#333"},
                "encoding": {
                    "x": {"field": "member", "type": "nominal", "sort": order},
                    "xOffset": {"field": "group", "sort": groups},
                    "y": {"field": "low", "type": "quantitative"},
                    "y2": {"field": "high"},
                },
            }
        )
        ctx.note_interval("charts.how_error_bars")
    if period and len(groups) == 2:
        layers.append(_change_layer(ctx, records, groups, order))
    ctx.note_incomplete(records, "charts.how_dashed_bars")
    return {"layer": layers}, records


def _points(current: float | None, previous: float | None, ctx: Ctx) -> str:
    """A rate's (or a share's) move as its label says it: in percentage points ("+3.6pp"), never a
    change of a percentage in percent."""
    if current is None or previous is None:
        return MISSING
    return ctx.say("charts.points", points=f"{(current - previous) * 100:+.1f}")


def _change_layer(ctx: Ctx, records: list[Record], groups: list[str], order: list[str]) -> dict[str, Any]:
    previous, current = groups
    by_member: dict[str, dict[str, float | None]] = defaultdict(dict)
    for r in records:
        by_member[r["member"]][r["group"]] = r["value"]
    changes: list[Record] = []
    for member, vals in by_member.items():
        cur, prev = vals.get(current), vals.get(previous)
        top = max(v for v in (cur, prev, 0.0) if v is not None)
        said = _points(cur, prev, ctx) if ctx.unit == "ratio" else format_change(cur, prev, ctx.lang)
        changes.append({"member": member, "top": top, "change_text": said})
    key = "charts.note_change_points" if ctx.unit == "ratio" else "charts.note_change_labels"
    ctx.notes.append(ctx.say(key, current=current, previous=previous))
    return {
        "data": {"values": changes},
        "mark": {"type": "text", "baseline": "bottom", "dy": -14, "fontSize": 12, "fontWeight": "bold"},
        "encoding": {
            "x": {"field": "member", "type": "nominal", "sort": order},
            "y": {"field": "top", "type": "quantitative"},
            "text": {"field": "change_text"},
            "color": {"value": "#222"},
        },
    }
