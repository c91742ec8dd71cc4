"""Where text goes on a chart, decided before drawing so no two labels overlap.

Vega draws text where it is told and does not move it out of the way of other text, so the
labels of marks (peaks, anomalies, change points) and of donut slices are placed here, on
estimated boxes (:func:`baton.charts.axes.text_px`): a label that would touch another one moves
to the next row up; past :data:`MAX_ROWS` it is not drawn and its text goes to the subtitle
instead, so nothing is lost. Donut labels sit outside the ring, one column per side, pushed apart
vertically and joined to their slice by a leader line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from baton.charts.axes import text_px

ROW_PX = 15  # one line of 11-12 px text with its gap
MAX_ROWS = 3
GAP_PX = 4


@dataclass(frozen=True)
class Box:
    """An axis-aligned box in plot pixels (y grows downward)."""

    left: float
    top: float
    right: float
    bottom: float

    def hits(self, other: Box) -> bool:
        return not (
            self.right + GAP_PX <= other.left
            or other.right + GAP_PX <= self.left
            or self.bottom <= other.top
            or other.bottom <= self.top
        )


def _free(box: Box, placed: list[Box]) -> bool:
    return not any(box.hits(p) for p in placed)


@dataclass(frozen=True)
class PointLabel:
    """A label centred above a point at (``x``, ``y``) px, lifted ``level`` rows (``None``: not drawn)."""

    level: int | None


def place_point_label(x: float, y: float, label: str, placed: list[Box], font_size: float = 12) -> PointLabel:
    """Centre ``label`` above its point; lift it a row at a time while it touches another."""
    width = text_px(label, font_size)
    for level in range(MAX_ROWS):
        middle = y - 14 - ROW_PX * level
        box = Box(x - width / 2, middle - ROW_PX / 2, x + width / 2, middle + ROW_PX / 2)
        if _free(box, placed):
            placed.append(box)
            return PointLabel(level)
    return PointLabel(None)


@dataclass(frozen=True)
class RuleLabel:
    """A label at the top of a vertical rule: its row, and whether it reads leftwards of the rule."""

    row: int | None
    leftward: bool = False


def rule_label_y(row: int) -> float:
    """The baseline (bottom) of rule labels in ``row``: above the plot, clear of the data."""
    return -2.0 - ROW_PX * row


def place_rule_label(x: float, label: str, placed: list[Box], width: float, font_size: float = 11) -> RuleLabel:
    """Put ``label`` in the first free row above the plot (rows stack upwards), right of its
    rule, else left of it (left first near the right edge)."""
    size = text_px(label, font_size)
    sides = (True, False) if x + 4 + size > width else (False, True)
    for row in range(MAX_ROWS):
        bottom = rule_label_y(row)
        for leftward in sides:
            left = x - 4 - size if leftward else x + 4
            box = Box(left, bottom - ROW_PX + 1, left + size, bottom)
            if left >= -40 and _free(box, placed):
                placed.append(box)
                return RuleLabel(row, leftward)
    return RuleLabel(None, sides[0])


# Donuts ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SliceLabel:
    """Where one slice's label goes: the text anchor (``x``, ``y``), the side, and the leader line
    from the ring (``x0``, ``y0``) through an elbow (``x1``, ``y1``) to the text."""

    x: float
    y: float
    right: bool
    x0: float
    y0: float
    x1: float
    y1: float


def donut_labels(fractions: list[float], center: tuple[float, float], outer: float, height: float) -> list[SliceLabel]:
    """Labels for slices drawn clockwise from 12 o'clock with these ``fractions`` of the whole:
    outside the ring, each side a column pushed apart so no two overlap."""
    cx, cy = center
    start = 0.0
    raw: list[tuple[float, float, float, bool]] = []  # (x0, y0, wanted y, right side)
    for share in fractions:
        mid = 2 * math.pi * (start + share / 2)
        start += share
        sin, cos = math.sin(mid), -math.cos(mid)
        raw.append((cx + (outer + 2) * sin, cy + (outer + 2) * cos, cy + (outer + 16) * cos, sin >= 0))
    ys = [r[2] for r in raw]
    for right in (True, False):
        side = sorted((i for i, r in enumerate(raw) if r[3] == right), key=lambda i: ys[i])
        _spread(ys, side, top=ROW_PX / 2, bottom=height - ROW_PX / 2)
    out: list[SliceLabel] = []
    column = outer + 22
    for (x0, y0, _, right), y in zip(raw, ys, strict=True):
        x1 = cx + (column - 8 if right else -(column - 8))
        x = cx + (column if right else -column)
        out.append(SliceLabel(x, y, right, x0, y0, x1, y))
    return out


def _spread(ys: list[float], order: list[int], *, top: float, bottom: float) -> None:
    """Push the labels in ``order`` (sorted by y) at least a row apart, within [top, bottom]."""
    previous = top - ROW_PX
    for i in order:
        ys[i] = max(ys[i], previous + ROW_PX)
        previous = ys[i]
    following = bottom + ROW_PX
    for i in reversed(order):
        ys[i] = min(ys[i], following - ROW_PX)
        following = ys[i]
