"""A CJK web font cut to the characters a page shows, so Chinese renders on any machine.

Browsers draw Chinese with a system font; a machine without one shows boxes. Baton ships Noto
Sans CJK (``noto-cjk-sans-otc``, SIL OFL 1.1) for its PNG charts; here fontTools cuts the
Simplified Chinese face of that collection down to the glyphs of a given text (about 55 KB for an
analysis report of some 300 distinct Chinese characters) as WOFF (zlib — WOFF2 would need brotli,
one more native dependency for ~30 % bytes).
Subsets are cached per text in the process: a report is rendered once, the web page's font once.
"""

from __future__ import annotations

import base64
import functools
import io
import threading
from pathlib import Path

FONT_FAMILY = "Baton CJK"
SC_FACE = "Noto Sans CJK SC"
_lock = threading.Lock()


def cjk_font_file() -> Path | None:
    """The Noto Sans CJK collection (a ``.ttc``/``.otc`` holding the SC face), or ``None``."""
    from baton.charts.render import cjk_font_dir

    folder = cjk_font_dir()
    if folder is None:
        return None
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in {".ttc", ".otc"} and "NotoSansCJK" in path.name.replace("-", ""):
            return path
    return None


def _face_index(path: Path) -> int:
    """The SC face's number in the collection (the JP face comes first)."""
    from fontTools.ttLib import TTCollection  # type: ignore[import-untyped]

    collection = TTCollection(str(path), lazy=True)
    for number, font in enumerate(collection.fonts):
        if font["name"].getDebugName(1) == SC_FACE:
            return number
    return 0


@functools.lru_cache(maxsize=32)
def subset_woff(text: str) -> bytes | None:
    """The SC face cut to ``text``'s characters (plus ASCII), as WOFF bytes; ``None`` without the font."""
    from fontTools import subset  # type: ignore[import-untyped]
    from fontTools.ttLib import TTFont

    path = cjk_font_file()
    if path is None:
        return None
    chars = "".join(sorted(set(text) | {chr(c) for c in range(0x20, 0x7F)}))
    options = subset.Options()
    options.flavor = "woff"
    options.notdef_outline = True
    options.hinting = False  # browsers draw CJK outlines unhinted anyway
    options.layout_features = ["kern"]  # Latin kerning only: no CJK shaping is needed horizontally; half the bytes
    with _lock:  # fontTools objects are not shared, but the lazy file reads are cheaper one at a time
        font = TTFont(str(path), fontNumber=_face_index(path), lazy=True)
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        buffer = io.BytesIO()
        font.flavor = "woff"
        font.save(buffer)
    return buffer.getvalue()


def font_face_css(text: str) -> str:
    """An ``@font-face`` rule embedding the subset for ``text`` as a data URL ('' without the font).

    Use ``font-family: "Baton CJK", sans-serif`` after it; a page's CSP must allow ``font-src data:``."""
    data = subset_woff(text)
    if data is None:
        return ""
    encoded = base64.b64encode(data).decode("ascii")
    return (
        f'@font-face {{ font-family: "{FONT_FAMILY}"; font-style: normal; font-weight: 400; '
        f'src: url(data:font/woff;base64,{encoded}) format("woff"); }}'
    )
