"""Pieces every chart builder shares: fonts, locale, axes, palettes and the base records.

Kept apart from the builders so each builder module reads as "which layers, which encodings".
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from baton.charts.axes import infer_grain, label_expr, time_axis, time_formats
from baton.charts.data import (
    ADDITIVE_UNITS,
    Record,
    as_float,
    incomplete_rows,
    interval_columns,
    to_json,
)
from baton.charts.model import CellValue, ChartColumn, ChartRequest
from baton.contracts.common import Language, Unit
from baton.errors import InvalidInput
from baton.messages import both, text
from baton.numbers import format_number

# The family the renderer registers (Noto Sans CJK, OFL) first; the rest serve browsers that
# open the HTML report on machines with their own CJK fonts.
FONT_FAMILY = "Noto Sans CJK SC"
FONT_STACK = (
    f"{FONT_FAMILY}, Noto Sans SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, WenQuanYi Micro Hei, sans-serif"
)
SCHEMA_URL = "https://vega.github.io/schema/vega-lite/v5.21.0.json"
DEFAULT_WIDTH = 640
DEFAULT_HEIGHT = 320

# d3 zh-CN locale (as d3-format / d3-time-format publish it), inlined so a spec is
# self-contained: the same month names and separators in vl-convert and in a browser. It names
# no currency: a chart's amounts carry the metric's own sign (numbers.currency_sign), never d3's.
ZH_LOCALE: dict[str, Any] = {
    "number": {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["", ""]},
    "time": {
        "dateTime": "%x %A %X",
        "date": "%Y年%-m月%-d日",
        "time": "%H:%M:%S",
        "periods": ["上午", "下午"],
        "days": ["星期日", "星期一", "星期二", "星期三", "星期四", "星期五", "星期六"],
        "shortDays": ["周日", "周一", "周二", "周三", "周四", "周五", "周六"],
        "months": [f"{m}月" for m in range(1, 13)],
        "shortMonths": [f"{m}月" for m in range(1, 13)],
    },
}

PALETTE = (
    "#4c78a8",
    "#f58518",
    "#54a24b",
    "#e45756",
    "#72b7b2",
    "#b279a2",
    "#eeca3b",
    "#9d755d",
    "#ff9da6",
    "#bab0ac",
)
OTHER_COLOR = "#b0b0b0"
MARK_COLORS = {"anomaly": "#d62728", "peak": "#e6550d", "change_point": "#6a3d9a", "incomplete": "#7f7f7f"}


def member_text(value: CellValue, language: Language) -> str:
    """A dimension member as a label; a missing member stays visible as (空)/(blank)."""
    if value is None or value == "":
        return text("charts.blank", language)
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ", timespec="minutes")
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def period_text(value: CellValue, language: Language) -> str:
    """A period label: a first-of-month date reads as the month (2025年6月 / Jun 2025)."""
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime) and value.day == 1:
        return text("charts.month", language, date=value)
    return member_text(value, language)


@dataclass
class Ctx:
    """A request resolved once: its roles, primary measure, flags and the notes for the subtitle."""

    req: ChartRequest
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        measures = self.req.by_role("measure")
        if not measures:
            raise InvalidInput(*both("charts.needs_measure"))
        self.measure: ChartColumn = measures[0]
        self.measures = measures
        self.dims = self.req.by_role("dimension")
        self.times = self.req.by_role("time")
        self.low, self.high = interval_columns(self.req)
        self.incomplete = incomplete_rows(self.req)

    @property
    def lang(self) -> Language:
        return self.req.language

    @property
    def unit(self) -> Unit:
        return self.measure.unit

    @property
    def additive(self) -> bool:
        return self.unit in ADDITIVE_UNITS

    @property
    def other(self) -> str:
        return text("charts.other", self.lang)

    def fmt(self, value: object, unit: Unit | None = None) -> str:
        return format_number(value, unit or self.unit, self.lang, self.measure.currency)

    def status(self, incomplete: bool) -> str:
        return text("charts.status_incomplete" if incomplete else "charts.status_complete", self.lang)

    def cell(self, row: tuple[CellValue, ...], column: ChartColumn | None) -> CellValue:
        return None if column is None else row[self.req.index(column)]

    def base_records(self, member_of: ChartColumn | None) -> list[Record]:
        """One record per row: member, value (+ interval, time), the incomplete flag, texts."""
        records: list[Record] = []
        for i, row in enumerate(self.req.rows):
            value = as_float(self.cell(row, self.measure))
            rec: Record = {
                "member": member_text(self.cell(row, member_of), self.lang) if member_of else "",
                "value": value,
                "incomplete": self.incomplete[i],
            }
            if self.times:
                rec["t"] = to_json(self.cell(row, self.times[0]))
            if self.low is not None and self.high is not None:
                rec["low"] = as_float(self.cell(row, self.low))
                rec["high"] = as_float(self.cell(row, self.high))
            records.append(rec)
        return records

    def finish_records(self, records: list[Record]) -> list[Record]:
        """Add the display texts (formatted value, interval, status) every tooltip uses."""
        for rec in records:
            rec["value_text"] = self.fmt(rec.get("value"))
            rec["status"] = self.status(bool(rec.get("incomplete")))
            if "low" in rec or "high" in rec:
                rec["interval_text"] = f"{self.fmt(rec.get('low'))} – {self.fmt(rec.get('high'))}"
        return records

    def value_axis(
        self,
        values: Iterable[float | None],
        *,
        length: int = DEFAULT_HEIGHT,
        zero: bool = True,
        title: str | None = None,
    ) -> dict[str, Any]:
        """The value axis over ``values``: labels formatted like :mod:`baton.numbers`, with the
        decimals the tick step needs (distinct labels even over a small range)."""
        expr = label_expr(self.unit, self.lang, self.measure.currency, values, length=length, zero=zero)
        return {"title": title or self.measure.label, "labelExpr": expr}

    def tooltip(self, member_title: str | None, *, with_time: bool = False) -> list[dict[str, Any]]:
        tips: list[dict[str, Any]] = []
        if with_time and self.times:
            tips.append(time_tooltip(self))
        if member_title:
            tips.append({"field": "member", "type": "nominal", "title": member_title})
        tips.append({"field": "value_text", "type": "nominal", "title": self.measure.label})
        if self.low is not None and self.high is not None:
            tips.append(
                {
                    "field": "interval_text",
                    "type": "nominal",
                    "title": f"{self.low.label} – {self.high.label}",
                }
            )
        tips.append({"field": "status", "type": "nominal", "title": text("charts.data_status", self.lang)})
        return tips

    def say(self, key: str, **fields: Any) -> str:
        """The message ``key`` in the chart's language."""
        return text(key, self.lang, **fields)

    def note_incomplete(self, records: list[Record], how: str) -> None:
        """Note how incomplete rows are drawn; ``how`` is the message key of the drawing."""
        n = sum(1 for r in records if r.get("incomplete"))
        if n:
            self.notes.append(self.say("charts.note_incomplete", how=self.say(how), count=n))

    def note_interval(self, how: str) -> None:
        """Note how the interval is drawn; ``how`` is the message key of the drawing."""
        if self.low is not None and self.high is not None:
            self.notes.append(
                self.say("charts.note_interval", how=self.say(how), low=self.low.label, high=self.high.label)
            )

    def note_folded(self, n_folded: int) -> None:
        if n_folded:
            self.notes.append(self.say("charts.note_folded", count=n_folded, other=self.other))


def color_scale(order: list[str], other: str) -> dict[str, Any]:
    """A fixed member → colour mapping: palette in order, grey for "Other"."""
    colors: list[str] = []
    k = 0
    for m in order:
        if m == other:
            colors.append(OTHER_COLOR)
        else:
            colors.append(PALETTE[k % len(PALETTE)])
            k += 1
    return {"domain": order, "range": colors}


def config(language: Language) -> dict[str, Any]:
    cfg: dict[str, Any] = {
        "font": FONT_STACK,
        "background": "white",
        "title": {"anchor": "start", "fontSize": 16, "subtitleFontSize": 11, "subtitleColor": "#555"},
        "axis": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal", "labelLimit": 220},
        "legend": {"labelFontSize": 11, "titleFontSize": 11, "labelLimit": 220},
        "view": {"stroke": None},
    }
    if language == "zh":
        cfg["locale"] = ZH_LOCALE
    return cfg


def time_x(ctx: Ctx, *, title: bool = True) -> dict[str, Any]:
    """The x encoding of a time column, read as UTC so dates never shift by a time zone; its
    labels follow the grain (``6月1日``, ``2026年1月``, ``2026年第2季度``) with one tick per period."""
    assert ctx.times
    column = ctx.times[0]
    values = ctx.req.values(column)
    enc: dict[str, Any] = {"field": "t", "type": "temporal", "title": column.label if title else None}
    if _has_clock(values):
        enc.update(timeUnit="utcyearmonthdatehoursminutes", axis={"format": "%m-%d %H:%M", "labelAngle": 0})
        return enc
    enc.update(timeUnit="utcyearmonthdate", axis=time_axis(values, column.grain, ctx.lang, DEFAULT_WIDTH))
    return enc


def time_tooltip(ctx: Ctx) -> dict[str, Any]:
    """The tooltip entry of a time column, written at its grain (a month as ``2026年1月``)."""
    column = ctx.times[0]
    values = ctx.req.values(column)
    tip: dict[str, Any] = {"field": "t", "type": "temporal", "title": column.label}
    if _has_clock(values):
        tip.update(timeUnit="utcyearmonthdatehoursminutes", format="%Y-%m-%d %H:%M")
    else:
        tip.update(timeUnit="utcyearmonthdate", format=time_formats(column.grain or infer_grain(values), ctx.lang)[1])
    return tip


def _has_clock(values: list[CellValue]) -> bool:
    return any(isinstance(v, dt.datetime) and (v.hour, v.minute, v.second) != (0, 0, 0) for v in values)
