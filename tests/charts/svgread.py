"""Read what a rendered chart shows: the texts of an SVG drawn by vl-convert, with their absolute
positions and roles (axis label, legend label, mark), and the legend's symbols.

Positions add up the ``translate(x,y)`` of every enclosing group; a text's box is estimated from
its font size (CJK characters count two columns), like the layout code does, but from where the
renderer actually put it.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass

from baton.charts.choose import display_width

SVG = "{http://www.w3.org/2000/svg}"
_TRANSLATE = re.compile(r"translate\(\s*([-\d.e]+)[ ,]+([-\d.e]+)\s*\)")


@dataclass(frozen=True)
class SvgText:
    text: str
    x: float
    y: float
    anchor: str
    size: float
    role: str
    visible: bool

    def box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) in SVG pixels, estimated from the font size."""
        width = display_width(self.text) * 0.5 * self.size
        left = {"start": self.x, "middle": self.x - width / 2, "end": self.x - width}[self.anchor]
        return left, self.y - 0.8 * self.size, left + width, self.y + 0.2 * self.size


@dataclass(frozen=True)
class LegendEntry:
    label: str
    fill: str | None
    stroke: str | None


def _shift(element: ET.Element) -> tuple[float, float]:
    match = _TRANSLATE.search(element.get("transform", ""))
    return (float(match.group(1)), float(match.group(2))) if match else (0.0, 0.0)


def _walk(element: ET.Element, x: float, y: float, role: str) -> Iterator[tuple[ET.Element, float, float, str]]:
    dx, dy = _shift(element)
    roles = re.findall(r"role-([\w-]+)", element.get("class", ""))
    here = roles[0] if roles else role
    yield element, x + dx, y + dy, here
    for child in element:
        yield from _walk(child, x + dx, y + dy, here)


def texts(svg: str) -> list[SvgText]:
    root = ET.fromstring(svg)
    out = []
    for el, x, y, role in _walk(root, 0.0, 0.0, ""):
        if el.tag != f"{SVG}text":
            continue
        size = float(el.get("font-size", "11px").removesuffix("px"))
        visible = el.get("opacity", "1") != "0"
        out.append(SvgText(el.text or "", x, y, el.get("text-anchor", "start"), size, role, visible))
    return out


def visible_texts(svg: str, role: str) -> list[SvgText]:
    return [t for t in texts(svg) if t.role == role and t.visible and t.text]


def overlaps(a: SvgText, b: SvgText) -> bool:
    al, at, ar, ab = a.box()
    bl, bt, br, bb = b.box()
    return not (ar <= bl or br <= al or ab <= bt or bb <= at)


def legend_entries(svg: str) -> list[LegendEntry]:
    """Each legend label with the fill and stroke of the symbol drawn beside it."""
    root = ET.fromstring(svg)
    out = []
    for group in root.iter(f"{SVG}g"):
        if "role-legend-symbol" not in group.get("class", ""):
            continue
        parent = next(p for p in root.iter() if group in list(p))
        label = next((t.text or "" for t in parent.iter(f"{SVG}text")), "")
        path = next(group.iter(f"{SVG}path"), None)
        fill = path.get("fill") if path is not None else None
        stroke = path.get("stroke") if path is not None else None
        out.append(LegendEntry(label, fill, stroke))
    return out


def axis_labels(svg: str) -> list[list[str]]:
    """The visible tick labels of each axis, axis by axis."""
    root = ET.fromstring(svg)
    out = []
    for group in root.iter(f"{SVG}g"):
        if "role-axis " in group.get("class", "") + " ":
            labels = [
                t.text
                for g in group.iter(f"{SVG}g")
                if "role-axis-label" in g.get("class", "")
                for t in g.iter(f"{SVG}text")
                if t.get("opacity", "1") != "0" and t.text
            ]
            out.append(labels)
    return out


def mark_origins(svg: str, description: str) -> list[tuple[float, float]]:
    """Absolute origins of the marks Vega describes as ``description`` (an arc's centre)."""
    root = ET.fromstring(svg)
    return [(x, y) for el, x, y, _ in _walk(root, 0.0, 0.0, "") if el.get("aria-roledescription") == description]
