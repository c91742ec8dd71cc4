"""Offline SVG/PNG rendering with vl-convert and a CJK font the project ships.

vl-convert draws text only with fonts it knows; without a CJK font Chinese labels come out as
nothing or boxes. Baton depends on ``noto-cjk-sans-otc`` (Noto Sans CJK, SIL OFL 1.1), finds
it with importlib, and registers its folder once per process. ``BATON_CJK_FONT_DIR`` overrides
the folder; Debian's Noto CJK / WenQuanYi folders are used when the package is absent.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import threading
from pathlib import Path
from typing import Any

import vl_convert

from baton.charts.schema import VEGA_LITE_VERSION
from baton.errors import ToolFailure
from baton.messages import both
from baton.visible import visible

FONT_PACKAGE = "noto_cjk_sans_otc"
FONT_DIR_ENV = "BATON_CJK_FONT_DIR"
SYSTEM_FONT_DIRS = (
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/truetype/wqy",
)
FONT_SUFFIXES = frozenset({".ttc", ".ttf", ".otf", ".otc"})
VL_VERSION = ".".join(VEGA_LITE_VERSION.split(".")[:2])  # vl-convert takes "5.21"
_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")

_lock = threading.Lock()
_registered: list[Path] = []


def cjk_font_dir() -> Path | None:
    """The folder holding a CJK font: the env override, the font package, or a system folder."""
    override = os.environ.get(FONT_DIR_ENV)
    if override and Path(override).is_dir():
        return Path(override)
    try:
        module = importlib.import_module(FONT_PACKAGE)
    except ImportError:
        module = None
    if module is not None:
        path = Path(str(module.FONT_PATH))
        if path.is_file():
            return path.parent
    for folder in map(Path, SYSTEM_FONT_DIRS):
        if folder.is_dir() and any(f.suffix.lower() in FONT_SUFFIXES for f in folder.iterdir()):
            return folder
    return None


def ensure_cjk_font() -> Path | None:
    """Register the CJK font folder with vl-convert once; the folder used, or ``None``."""
    with _lock:
        if _registered:
            return _registered[0]
        folder = cjk_font_dir()
        if folder is None:
            return None
        try:
            vl_convert.register_font_directory(str(folder))
        except Exception as exc:  # vl-convert raises plain exceptions for unreadable fonts
            raise ToolFailure(*both("charts.font_register_failed", folder=folder, error=exc)) from exc
        _registered.append(folder)
        return folder


def _prepare(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec to draw: fonts registered, control characters shown as escapes."""
    folder = ensure_cjk_font()
    if folder is None and _CJK.search(json.dumps(spec, ensure_ascii=False)):
        raise ToolFailure(*both("charts.no_cjk_font", package=FONT_PACKAGE.replace("_", "-"), env=FONT_DIR_ENV))
    drawable: dict[str, Any] = _drawable(spec)
    return drawable


def _drawable(value: Any) -> Any:
    """``value`` with every string's control characters shown as escapes (``\\x1b``): vl-convert
    reads the SVG it draws as XML, which forbids them, and a member value holding an ESC made
    it abort the whole process. Only strings change (a member is changed alike everywhere)."""
    if isinstance(value, str):
        return visible(value, keep="\n\t")
    if isinstance(value, dict):
        return {key: _drawable(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_drawable(item) for item in value]
    return value


def render_svg(spec: dict[str, Any]) -> str:
    """The chart as an SVG document; text stays ``<text>`` elements (searchable, selectable)."""
    drawable = _prepare(spec)
    try:
        svg: str = vl_convert.vegalite_to_svg(drawable, vl_version=VL_VERSION)
    except Exception as exc:
        raise ToolFailure(*both("charts.render_failed", error=exc)) from exc
    return svg


def render_png(spec: dict[str, Any], scale: float = 2.0) -> bytes:
    """The chart as a PNG image at ``scale`` × its CSS size."""
    drawable = _prepare(spec)
    try:
        png: bytes = vl_convert.vegalite_to_png(drawable, vl_version=VL_VERSION, scale=scale)
    except Exception as exc:
        raise ToolFailure(*both("charts.render_failed", error=exc)) from exc
    return png
