"""Axis labels a reader can tell apart: number ticks with the precision their step needs, and
time ticks that follow the grain (days, weeks, months, quarters, years) in both languages.

Vega picks the ticks when it draws, so the label precision is chosen here from the tick step
the renderer will pick: the same rule as d3 (a nice domain, then a 1/2/5 × 10ᵏ step for about one
tick per 40 px), one step finer for safety, with trailing zeros trimmed. That is what keeps a
small percentage range from reading 0 %, 1 %, 1 %, 2 %. Amounts use one scale per axis
(万/亿, K/M/B from :mod:`baton.numbers`) so an axis never mixes 8,000 and 1万.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math
from collections.abc import Iterable
from typing import Any

from baton.charts.choose import display_width
from baton.charts.model import CellValue
from baton.contracts.common import Language, Unit
from baton.contracts.semantic import Grain
from baton.messages import text
from baton.numbers import currency_sign, scales_for

PX_PER_TICK = 40  # Vega-Lite's default: ceil(axis length / 40) ticks
MAX_DECIMALS = 6
CHAR_PX = 0.56  # width of one display column, in font sizes (a CJK character is two columns)
_E10, _E5, _E2 = math.sqrt(50), math.sqrt(10), math.sqrt(2)


def text_px(label: str, font_size: float = 11.0) -> float:
    """Estimated width of ``label`` in pixels (a slight overestimate, so layouts keep a margin)."""
    return display_width(label) * CHAR_PX * font_size


def tick_step(lo: float, hi: float, count: float) -> float:
    """d3's ``tickStep``: the 1/2/5 × 10ᵏ step of about ``count`` ticks over ``[lo, hi]``."""
    span = abs(hi - lo)
    if span == 0 or count <= 0:
        return 0.0
    step = span / count
    power = math.floor(math.log10(step))
    error = step / 10**power
    factor = 10 if error >= _E10 else 5 if error >= _E5 else 2 if error >= _E2 else 1
    return float(factor * 10.0**power)


def nice_domain(values: Iterable[float | None], *, zero: bool = True) -> tuple[float, float]:
    """The domain Vega draws for a linear scale: d3's ``nice()`` (10 ticks, repeated until the
    step settles), zero included when asked."""
    finite = [v for v in values if v is not None and math.isfinite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    if zero:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    if lo == hi:
        return (lo - 1.0, hi + 1.0) if lo else (0.0, 1.0)
    previous = 0.0
    for _ in range(10):
        step = tick_step(lo, hi, 10)
        if step == previous:
            break
        lo, hi, previous = math.floor(lo / step) * step, math.ceil(hi / step) * step, step
    return lo, hi


def axis_ticks(values: Iterable[float | None], *, length: int, zero: bool = True) -> list[float]:
    """The ticks Vega draws on a value axis ``length`` px long (one per about 40 px)."""
    lo, hi = nice_domain(values, zero=zero)
    step = tick_step(lo, hi, math.ceil(length / PX_PER_TICK))
    first = math.ceil(lo / step - 1e-9)
    return [k * step for k in range(first, math.floor(hi / step + 1e-9) + 1)]


def _decimals(step: float) -> int:
    """Decimals that tell ticks ``step`` apart (d3 ``precisionFixed``), within bounds."""
    if step <= 0:
        return 2
    return max(0, min(MAX_DECIMALS, -math.floor(math.log10(step))))


def label_expr(
    unit: Unit,
    language: Language,
    currency: str | None,
    values: Iterable[float | None],
    *,
    length: int,
    zero: bool = True,
) -> str:
    """A Vega label expression for a value axis over ``values`` drawn ``length`` px long."""
    lo, hi = nice_domain(values, zero=zero)
    # One 1/2/5 level finer than the estimate: enough decimals even when Vega picks more ticks.
    step = tick_step(lo, hi, math.ceil(length / PX_PER_TICK)) / 2.5
    if unit == "ratio":
        return f"format(datum.value, '.{max(0, _decimals(step) - 2)}~%')"
    top = max(abs(lo), abs(hi))
    divisor, suffix = 1.0, ""
    for threshold, scale, name in scales_for(language):
        if top >= float(threshold):
            divisor, suffix = float(scale), name
            break
    prefix = currency_sign(currency) if unit == "currency" else ""
    digits = _decimals(step / divisor)
    body = f"format(abs(datum.value) / {divisor:.0f}, ',.{digits}~f') + '{suffix}'"
    return f"datum.value == 0 ? '{prefix}0' : (datum.value < 0 ? '-' : '') + '{prefix}' + {body}"


# Time axes ---------------------------------------------------------------------------------------

GRAIN_DAYS: dict[Grain, int] = {"day": 1, "week": 7, "month": 28, "quarter": 90, "year": 365}


def as_day(value: CellValue) -> dt.date | None:
    if isinstance(value, dt.datetime):
        return value.date()
    return value if isinstance(value, dt.date) else None


def infer_grain(values: Iterable[CellValue]) -> Grain:
    """The grain of a time column from its values: the smallest gap and where periods start."""
    days = sorted({d for d in map(as_day, values) if d is not None})
    if len(days) < 2:
        return "day"
    gap = min((b - a).days for a, b in itertools.pairwise(days))
    if all(d.day == 1 for d in days):
        if all(d.month == 1 for d in days) and gap >= 365:
            return "year"
        if all(d.month % 3 == 1 for d in days) and gap >= 89:
            return "quarter"
        if gap >= 28:
            return "month"
    if gap >= 7 and gap % 7 == 0 and len({d.weekday() for d in days}) == 1:
        return "week"
    return "day"


def time_formats(grain: Grain, language: Language) -> tuple[str, str]:
    """(axis label format, tooltip format) of a grain in ``language`` (d3 time format)."""
    return text(f"charts.axis_{grain}_format", language), text(f"charts.tip_{grain}_format", language)


def _sample_label(grain: Grain, language: Language, with_year: bool) -> str:
    """The widest label of a grain (for spacing ticks)."""
    sample = dt.date(2026, 12, 28)
    if with_year:
        return text("charts.sample_day_year", language, date=sample)
    return {
        "day": text("charts.sample_day", language, date=sample),
        "week": text("charts.sample_day", language, date=sample),
        "month": text("charts.month", language, date=sample),
        "quarter": text("charts.sample_quarter", language, year=sample.year, q=4),
        "year": str(sample.year),
    }[grain]


def _ms(day: dt.date) -> int:
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)


def tick_values(days: list[dt.date], label: str, width: int) -> list[int]:
    """The periods to label (UTC milliseconds): every period when they fit, else every k-th."""
    room = text_px(label) + 14
    fits = max(2, int(width // room))
    stride = math.ceil(len(days) / fits)
    return [_ms(d) for d in days[::stride]]


def time_axis(values: list[CellValue], grain: Grain | None, language: Language, width: int) -> dict[str, Any]:
    """Axis properties of a date column: the grain's label format (days and weeks that span
    years carry the year) and one tick per period."""
    grain = grain or infer_grain(values)
    days = sorted({d for d in map(as_day, values) if d is not None})
    label_format = time_formats(grain, language)[0]
    with_year = grain in ("day", "week") and len({d.year for d in days}) > 1
    if with_year:
        label_format = text("charts.axis_day_year_format", language)
    sample = _sample_label(grain, language, with_year)
    return {"format": label_format, "labelAngle": 0, "values": tick_values(days, sample, width)}
