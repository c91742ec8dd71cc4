"""The web page of `baton serve`: ``GET /``, its static files, its CJK web font and its answer view.

The page is plain JavaScript modules and one style sheet (``static/``), no build step and no
network beyond its own origin: the Vega, Vega-Lite and Vega-Embed libraries are the ones the
HTML report bundles (``baton/report/vendor``), served from here. Its Content-Security-Policy
allows scripts, styles, fonts and requests from its own origin only: no inline script or style,
no ``eval`` (charts run Vega's expression interpreter, as the HTML report does). The page's
words are Baton's messages (``baton.messages.web``), inlined as a JSON data block, which is
never executed and so needs no exception in the policy.

Chinese renders without any system font: ``/static/fonts/baton-cjk.woff`` is the bundled Noto
Sans CJK SC cut (:func:`baton.report.fonts.subset_woff`) to the characters the page can show —
its own strings, every Chinese message of the product, the catalog's labels, members and
definitions, and GB2312's 6,763 common hanzi for whatever else a question or answer holds.
Cutting it takes seconds, so it is built once per catalog in a background thread, kept in the
process and written under the runs folder for the next start.

``GET /api/runs/{id}/view`` gives the page what the reports show of a run — labelled columns,
numbers written by the one formatter, key figures with their intervals — so the page never
formats a number itself.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import logging
import threading
from concurrent.futures import Future
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any
from weakref import WeakKeyDictionary

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException

from baton.server.auth import CurrentUser
from baton.server.errors import ERROR_RESPONSES
from baton.server.routes_runs import RunId, visible_state
from baton.server.workers import Runtime, runtime

log = logging.getLogger("baton.server")
router = APIRouter()

CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""Only the page's own files run; no inline code, no eval, nothing from another origin."""

PAGE_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}

PAGE_FILES = {
    "app.js": "text/javascript",
    "api.js": "text/javascript",
    "answer.js": "text/javascript",
    "app.css": "text/css",
}
"""The page's own files under ``/static/`` and their types."""

VENDOR_FILES = ("vega/vega.min.js", "vega-lite/vega-lite.min.js", "vega-embed/vega-embed.min.js")
"""The chart libraries under ``/static/vendor/`` (the HTML report's bundled copies)."""

FONT_PATH = "fonts/baton-cjk.woff"
GB2312_ROWS = range(0xB0, 0xF8)
"""GB2312's two levels of hanzi (3,755 + 3,008 characters)."""
SYMBOL_ROWS = range(0xA1, 0xA4)
"""GB2312's punctuation, symbols and full-width forms."""


@lru_cache(maxsize=16)
def _static_text(name: str) -> str:
    return resources.files("baton.server").joinpath("static", name).read_text(encoding="utf-8")


@lru_cache(maxsize=4)
def _vendor_text(name: str) -> str:
    return resources.files("baton.report").joinpath("vendor", name).read_text(encoding="utf-8")


STRINGS_SLOT = "{{strings}}"
"""Where ``index.html`` receives :func:`page_strings` (a JSON data block: never executed)."""


def page_strings() -> dict[str, dict[str, str]]:
    """The page's strings by language, from :mod:`baton.messages` (``web.<name>`` as ``name``,
    with the answer statuses' labels ``answer.status_<status>`` as ``status_<status>``)."""
    from baton.messages import MESSAGES

    strings: dict[str, dict[str, str]] = {"en": {}, "zh": {}}
    for key, (english, chinese) in MESSAGES.items():
        area, _, name = key.partition(".")
        if area == "web" or (area == "answer" and name.startswith("status_")):
            strings["en"][name], strings["zh"][name] = english, chinese
    return strings


@lru_cache(maxsize=1)
def page_html() -> str:
    """``index.html`` with the page's strings inlined (``<`` escaped: the JSON cannot end its block)."""
    data = json.dumps(page_strings(), ensure_ascii=False, sort_keys=True).replace("<", "\\u003c")
    return _static_text("index.html").replace(STRINGS_SLOT, data)


@router.get("/", include_in_schema=False)
def page(request: Request) -> HTMLResponse:
    """The web page (its font starts building now, if it is not built yet)."""
    web_font(runtime(request))
    return HTMLResponse(page_html(), headers=PAGE_HEADERS)


@router.get("/static/" + FONT_PATH, include_in_schema=False)
async def font(request: Request) -> Response:
    """The CJK web font, cut to what the page can show (waits while it is being built)."""
    data, tag = await asyncio.wrap_future(web_font(runtime(request)))
    if data is None:  # no bundled CJK font: the page falls back to the system's fonts
        raise HTTPException(status_code=404)
    headers = {"ETag": f'"{tag}"', "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if request.headers.get("if-none-match") == f'"{tag}"':
        return Response(status_code=304, headers=headers)
    return Response(data, media_type="font/woff", headers=headers)


@router.get("/static/{name:path}", include_in_schema=False)
def static_file(name: str) -> Response:
    """One of the page's files, or a bundled chart library; 404 for anything else."""
    headers = {"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
    if name in PAGE_FILES:
        return Response(_static_text(name), media_type=PAGE_FILES[name], headers=headers)
    vendor = name.removeprefix("vendor/")
    if name.startswith("vendor/") and vendor in VENDOR_FILES:
        return Response(_vendor_text(vendor), media_type="text/javascript", headers=headers)
    raise HTTPException(status_code=404)


@router.get("/api/runs/{run_id}/view", responses={409: {"description": "The run has no answer yet"}, **ERROR_RESPONSES})
async def run_view(run_id: RunId, request: Request, me: CurrentUser) -> dict[str, Any]:
    """What the reports show of a run, ready to display: labelled table, numbers written by the
    one formatter, key figures with intervals, sections, definitions (404 for someone else's run)."""
    from baton.errors import Conflict
    from baton.messages import both
    from baton.report.content import build_content
    from baton.report.deliver import check_run_export

    rt = runtime(request)

    def view() -> dict[str, Any]:
        state = visible_state(rt, run_id, me)  # the rules of GET /api/runs/{id}: 404 if not theirs
        if state is None or state.answer is None:
            status = "running" if state is None else state.status
            raise Conflict(*both("server.no_answer_yet", run_id=run_id, status=status), detail={"run_id": run_id})
        check_run_export(state, rt.reader.engine.dialect, rt.reader.principal(me.user))
        return dataclasses.asdict(build_content(state.answer, rt.reader.catalog))

    return await asyncio.to_thread(view)


# -- the web font ---------------------------------------------------------------------------------------
_fonts: dict[str, Future[tuple[bytes | None, str]]] = {}
_by_runtime: WeakKeyDictionary[Runtime, Future[tuple[bytes | None, str]]] = WeakKeyDictionary()
_fonts_lock = threading.Lock()


def gb2312_characters(rows: range = GB2312_ROWS) -> str:
    """Every character of the given GB2312 rows (decoded by Python's ``gb2312`` codec)."""
    found = []
    for high in rows:
        for low in range(0xA1, 0xFF):
            try:
                found.append(bytes((high, low)).decode("gb2312"))
            except UnicodeDecodeError:
                continue
    return "".join(found)


def page_characters(catalog_json: str) -> str:
    """Every character the page may show: its own files, the product's messages, the catalog and
    GB2312's common hanzi and symbols (sorted, each once)."""
    from baton.messages import MESSAGES

    texts = [_static_text(name) for name in ("index.html", *PAGE_FILES)]
    texts += [zh for _, zh in MESSAGES.values()]
    texts += [catalog_json, gb2312_characters(), gb2312_characters(SYMBOL_ROWS)]
    texts.append("".join(chr(c) for c in (*range(0xA0, 0x100), *range(0x2010, 0x2070), *range(0x2190, 0x2200))))
    return "".join(sorted({c for text in texts for c in text if c.isprintable()}))


def web_font(rt: Runtime) -> Future[tuple[bytes | None, str]]:
    """The page's font for this server's catalog, as (WOFF bytes or None, tag): built once in a
    background thread, kept in the process and cached under ``<runs_dir>/web/``."""
    with _fonts_lock:
        future = _by_runtime.get(rt)
        if future is not None:
            return future
        chars = page_characters(rt.reader.catalog.model_dump_json())
        tag = hashlib.sha256(chars.encode("utf-8")).hexdigest()[:16]
        future = _fonts.get(tag)
        if future is None:
            future = _fonts[tag] = Future()
            path = Path(rt.settings.runs_dir) / "web" / f"baton-cjk-{tag}.woff"
            threading.Thread(
                target=_build_font, args=(future, chars, tag, path), name="baton-web-font", daemon=True
            ).start()
        _by_runtime[rt] = future
    return future


def _build_font(future: Future[tuple[bytes | None, str]], chars: str, tag: str, path: Path) -> None:
    try:
        if not path.is_file():
            _cut_font(chars, path)
        future.set_result((path.read_bytes() if path.is_file() else None, tag))
    except Exception:  # a page without its font still works: tell the log, answer 404
        log.exception("building the web font failed")
        future.set_result((None, tag))


_CUT_SCRIPT = """
import sys
from pathlib import Path
from baton.report.files import atomic_write_bytes
from baton.report.fonts import subset_woff
data = subset_woff(sys.stdin.buffer.read().decode("utf-8"))
if data is not None:
    atomic_write_bytes(Path(sys.argv[1]), data)
"""


def _cut_font(chars: str, path: Path) -> None:
    """Cut the font in a child process: seconds of pure-Python work that would otherwise hold
    the server's interpreter lock (and so slow every request) while it runs."""
    import subprocess
    import sys

    path.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [sys.executable, "-c", _CUT_SCRIPT, str(path)],
        input=chars.encode("utf-8"),
        capture_output=True,
        timeout=300,
        check=False,
    )
    if done.returncode != 0:  # no usable interpreter to start (a frozen app?): cut it here instead
        log.warning("cutting the web font in a child failed: %s", done.stderr.decode("utf-8", "replace")[-2000:])
        from baton.report.files import atomic_write_bytes
        from baton.report.fonts import subset_woff

        data = subset_woff(chars)
        if data is not None:
            atomic_write_bytes(path, data)
