"""Acceptance: the web page of `baton serve` in a real browser, against a real server.

Debian's ``chromium`` driven by Playwright (``executable_path``, no browser download), offline
(a dead proxy; only loopback is reached), with a font configuration that holds no CJK font, so
Chinese can only render through the page's own web font. The scenario is a reader's: sign in
with a token, ask in Chinese, see the interpretation, the answer, the chart (SVG marks) and the
table, follow up with "那华南呢？", run an analysis and watch its progress arrive, open run
history and the catalog, and find that another user cannot open the first user's run.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, expect, sync_playwright

from baton.messages import MESSAGES
from tests.charts.pngread import decode_png, ink
from tests.report.test_browser import chromium
from tests.server.conftest import BatonServer

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "web-answer.png"
AS_OF = "2026-07-01"
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--proxy-server=127.0.0.1:9",  # nothing listens: only loopback (the server) is reachable
    "--proxy-bypass-list=127.0.0.1",
]
TIMEOUT_MS = 90_000
expect.set_options(timeout=TIMEOUT_MS)


def system_font_files() -> tuple[set[str], set[str]]:
    """Every font file fontconfig knows, and those covering Chinese (without fc-list: the files
    under /usr/share/fonts, told apart by name)."""
    if shutil.which("fc-list"):
        run = partial(subprocess.run, capture_output=True, text=True, check=False)
        every = set(run(["fc-list", "--format", "%{file}\n"]).stdout.split())
        return every, set(run(["fc-list", ":lang=zh", "--format", "%{file}\n"]).stdout.split())
    every = {str(p) for p in Path("/usr/share/fonts").rglob("*") if p.suffix.lower() in {".ttf", ".otf", ".ttc"}}
    return every, {f for f in every if re.search(r"cjk|wqy|droidsansfallback|han|arphic|uming|ukai", f.lower())}


def latin_only_fonts(folder: Path) -> Path:
    """A fontconfig file that sees the system's fonts except every CJK one, so a missing web
    font cannot hide behind a system font (the page must bring its own)."""
    every, cjk = system_font_files()
    fonts = folder / "fonts"
    fonts.mkdir(parents=True, exist_ok=True)
    for number, name in enumerate(sorted(every - cjk)):
        (fonts / f"{number}-{Path(name).name}").symlink_to(name)
    conf = folder / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>{fonts}</dir>'
        f"<cachedir>{folder / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    return conf


@pytest.fixture(scope="module")
def server(baton_server: BatonServer) -> BatonServer:
    """The server of tests/server/conftest.py (small demo, a token per demo user)."""
    return baton_server


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    executable = chromium()  # skips loudly (fails in CI) without chromium
    conf = latin_only_fonts(tmp_path_factory.mktemp("fontconfig"))
    env: dict[str, str | float | bool] = {**os.environ, "FONTCONFIG_FILE": str(conf)}
    with sync_playwright() as p:
        launched = _launch(p, executable, env)
        yield launched
        launched.close()


def _launch(p: Playwright, executable: str, env: dict[str, str | float | bool]) -> Browser:
    return p.chromium.launch(executable_path=executable, headless=True, args=LAUNCH_ARGS, env=env)


CSP_LISTENER = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", e => window.__cspViolations.push(e.violatedDirective + " " + e.blockedURI));
"""
"""Installed before the page's scripts (by the protocol, not subject to the page's policy)."""


class Tab:
    """One signed-in page, with what it said on the console and every policy violation."""

    def __init__(self, context: BrowserContext, server: BatonServer) -> None:
        context.add_init_script(CSP_LISTENER)
        self.page: Page = context.new_page()
        self.page.set_default_timeout(TIMEOUT_MS)
        self.problems: list[str] = []
        self.page.on("pageerror", lambda e: self.problems.append(f"error: {e}"))
        self.page.on("console", self._console)
        self.server = server

    def _console(self, message: ConsoleMessage) -> None:
        """Record console errors; not the browser's note of the page's 401 from ``GET /api/session``
        (how it learns that there is no session to resume, before signing in)."""
        no_session = message.location.get("url", "").endswith("/api/session") and "401" in message.text
        if message.type == "error" and not no_session:
            self.problems.append(f"{message.type}: {message.text}")

    def check(self) -> None:
        """Nothing went wrong in the page: no error, no refused resource, no policy violation."""
        assert not self.problems, self.problems
        assert self.page.evaluate("window.__cspViolations") == []

    def sign_in(self, token: str, query: str = "") -> None:
        self.page.goto(f"{self.server.url}/?as_of={AS_OF}{query}", wait_until="domcontentloaded")
        self.page.fill("#token", token)
        self.page.click("#signin-form button[type=submit]")
        expect(self.page.locator("body")).to_have_attribute("data-state", "signed-in")

    def ask(self, question: str) -> Any:
        turns = self.page.locator("#thread article.turn[data-status]")
        before = turns.count()
        self.page.fill("#question", question)
        self.page.click("#ask-button")
        expect(turns).to_have_count(before + 1)
        return turns.nth(before)


@pytest.fixture(scope="module")
def analyst(browser: Browser, server: BatonServer) -> Iterator[Tab]:
    context = browser.new_context(locale="zh-CN", viewport={"width": 1100, "height": 900})
    tab = Tab(context, server)
    tab.sign_in(server.tokens["analyst"])
    yield tab
    context.close()


@pytest.fixture(scope="module")
def analyst_run(server: BatonServer) -> str:
    """A run of the analyst's, asked through the API."""
    with server.client("analyst") as client:
        answer = client.post("/api/ask", json={"question": "上个月各渠道的GMV是多少？", "as_of": AS_OF})
    assert answer.status_code == 200, answer.text
    run_id: str = answer.json()["run_id"]
    return run_id


def test_page_is_served_with_a_strict_policy(server: BatonServer) -> None:
    with urllib.request.urlopen(f"{server.url}/") as response:
        policy = response.headers["Content-Security-Policy"]
        page = response.read().decode("utf-8")
    assert "script-src 'self';" in policy and "default-src 'none'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert "<script>" not in page and "style=" not in page  # no inline code for the policy to allow
    with urllib.request.urlopen(f"{server.url}/static/vendor/vega-embed/vega-embed.min.js") as response:
        assert response.headers["Content-Type"].startswith("text/javascript")
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(f"{server.url}/static/../page.py")
    assert json.loads(missing.value.read())["error"]["code"] == "not_found"


def test_ask_chart_table_and_follow_up(analyst: Tab) -> None:
    first = analyst.ask("上个月各渠道的GMV是多少？")
    expect(first.locator(".interpretation")).to_contain_text("按渠道的成交总额")
    children = first.evaluate("t => [...t.children].map(c => c.className)")
    assert children.index("interpretation") < children.index("answer-text"), "the interpretation comes first"
    expect(first.locator(".answer-text")).to_contain_text("最高为")
    chart = first.locator(".chart[data-chart=drawn]")
    expect(chart).to_have_count(1)
    assert chart.locator("svg [role=graphics-symbol]").count() >= 4, "the bars are SVG marks in the DOM"
    rows = first.locator("table.result tbody tr")
    expect(rows).to_have_count(4)
    assert first.locator("table.result thead").inner_text().split() == ["渠道", "成交总额"]
    amounts = first.locator("table.result tbody td.num").all_inner_texts()
    assert len(amounts) == 4 and all(re.fullmatch(r"¥[\d,]+\.\d\d", a) for a in amounts), "the one formatter"
    assert "live_stream" not in first.locator("table.result").inner_text(), "members are shown by their labels"
    for panel in ("sql", "definitions", "freshness", "assumptions", "excluded"):
        expect(first.locator(f"details.panel-{panel}")).to_have_count(1)
    first.locator("details.panel-sql summary").click()
    expect(first.locator("details.panel-sql pre")).to_contain_text("SELECT")
    expect(first.locator("details.panel-definitions")).to_contain_text("已支付与已退款订单")

    follow = analyst.ask("那华南呢？")
    expect(follow.locator(".interpretation")).to_contain_text("华南")
    expect(follow.locator(".inherited")).to_contain_text("沿用上一问")
    expect(follow.locator(".chart[data-chart=drawn] svg")).to_have_count(1)
    analyst.check()


def assert_glyphs_not_tofu(page: Page, shown: Any) -> None:
    """As the PNG chart test does: boxes look alike whatever the character, real glyphs differ.
    Probes in the page's font, then the interpretation as drawn against the same line with its
    Chinese characters swapped for characters no font has (boxes)."""
    page.evaluate(
        """() => {
          const box = document.createElement('div');
          box.id = 'glyph-probe';
          box.style.cssText = 'position:absolute;left:0;top:0;background:#fff;font:32px "Baton CJK",sans-serif';
          const lines = ['华南华东成交', '渠道总额新用', '\\ue000\\ue001\\ue002\\ue003\\ue004\\ue005',
                         '\\ue010\\ue011\\ue012\\ue013\\ue014\\ue015'];
          lines.forEach((line, i) => { const p = document.createElement('p'); p.id = 'probe-' + i;
            p.style.margin = '0'; p.style.whiteSpace = 'nowrap'; p.textContent = line; box.append(p); });
          document.body.append(box);
        }"""
    )
    boxed = "".join(chr(0xE000 + ord(c) % 64) if ord(c) > 0x2E80 else c for c in shown.inner_text())
    line = shown.element_handle()
    line.evaluate(
        "(p, text) => { const q = p.cloneNode(); q.id = 'probe-boxed'; q.textContent = text; p.after(q); }", boxed
    )
    try:
        cjk_a, cjk_b, tofu_a, tofu_b = (_ink(page.locator(f"#probe-{i}").screenshot()) for i in range(4))
        assert cjk_a.sum() > 300, "the line has ink"
        assert np.array_equal(tofu_a, tofu_b), "boxes render alike"
        assert (cjk_a != cjk_b).sum() > 200, "real glyphs differ from each other"
        assert cjk_a.shape != tofu_a.shape or (cjk_a != tofu_a).sum() > 200, "...and from the boxes"
        drawn, boxes = _ink(line.screenshot()), _ink(page.locator("#probe-boxed").screenshot())
        assert drawn.shape != boxes.shape or (drawn != boxes).sum() > 200, "the interpretation is not boxes"
    finally:
        page.evaluate(
            "document.getElementById('glyph-probe').remove(); document.getElementById('probe-boxed').remove()"
        )


def _ink(png: bytes) -> np.ndarray[Any, np.dtype[np.bool_]]:
    return ink(decode_png(png))


def test_analysis_streams_progress_and_renders_drivers(analyst: Tab) -> None:
    page = analyst.page
    page.click("#new-conversation")
    expect(page.locator("#thread article")).to_have_count(0)
    page.fill("#question", "为什么2026年6月的GMV下降了？")
    page.click("#analyze-button")
    turn = page.locator("#thread article.turn[data-kind=analyze]")
    expect(turn).to_have_attribute("data-state", "done")
    transitions = turn.locator("ol.progress li.transition")
    assert transitions.count() > 1, "the relay's transitions arrived as events"
    assert turn.locator("ol.progress li.done").count() == 1
    drivers = turn.locator("section.section-drivers")
    expect(drivers.locator("h3")).to_have_text("驱动因素")
    expect(drivers.locator("li").first).to_contain_text("95% 区间")
    expect(turn.locator("table.figures")).to_contain_text("至")  # key numbers with their intervals
    expect(turn.locator("details.panel-excluded li").first).to_contain_text("维度")
    expect(turn.locator(".chart[data-chart=drawn] svg")).to_have_count(1)
    analyst.check()


def test_run_history_and_catalog(analyst: Tab, analyst_run: str) -> None:
    page = analyst.page
    page.click("nav.tabs button[data-view=runs]")
    row = page.locator(f"#runs-table tbody tr.clickable[data-run-id={analyst_run}]")
    expect(row).to_contain_text("上个月各渠道的GMV是多少？")
    row.click()
    expect(page.locator("#run-detail .interpretation")).to_contain_text("按渠道的成交总额")
    expect(page.locator("#run-detail .chart[data-chart=drawn] svg")).to_have_count(1)
    page.click("nav.tabs button[data-view=catalog]")
    expect(page.locator("#catalog-metrics")).to_contain_text("成交总额")
    expect(page.locator("#catalog-metrics")).to_contain_text("已支付与已退款订单")
    expect(page.locator("#catalog-dimensions .members")).to_contain_text(["华南"])
    page.click("nav.tabs button[data-view=ask]")
    analyst.check()


def test_a_past_conversation_is_reopened_and_followed_up(analyst: Tab) -> None:
    """Run history lists the user's conversations; opening one puts its turns back in the thread,
    and the next question follows up on it (its filter kept, said as inherited)."""
    page = analyst.page
    page.click("#new-conversation")
    first = analyst.ask("上个月各区域的订单量是多少？")
    expect(first.locator(".interpretation")).to_contain_text("按区域的订单量")
    second = analyst.ask("只看新用户")
    expect(second.locator(".interpretation")).to_contain_text("新用户")
    page.click("#new-conversation")
    expect(page.locator("#thread article")).to_have_count(0)

    page.click("nav.tabs button[data-view=runs]")
    row = page.locator("#conversations-table tbody tr.clickable", has_text="上个月各区域的订单量是多少？").first
    expect(row.locator("td.num")).to_have_text("2")
    row.click()
    expect(page.locator("#view-ask")).to_be_visible()
    turns = page.locator("#thread article.turn[data-status]")
    expect(turns).to_have_count(2)
    expect(turns.nth(1).locator(".interpretation")).to_contain_text("新用户")

    third = analyst.ask("那5月呢？")
    expect(third.locator(".interpretation")).to_contain_text("新用户")  # the reopened conversation's filter
    expect(third.locator(".interpretation")).to_contain_text("2026-05-01")
    expect(third.locator(".inherited")).to_contain_text("沿用上一问")
    analyst.check()


def test_escaped_question_and_language_toggle(analyst: Tab) -> None:
    page = analyst.page
    hostile = '<img src=x onerror="window.__pwned=1">上个月GMV'
    turn = analyst.ask(hostile)
    expect(turn.locator(".question")).to_have_text(hostile)
    assert turn.locator("img").count() == 0 and not page.evaluate("window.__pwned === 1")
    refused = analyst.ask("上个月的利润率是多少？")  # no such metric: refused, with what the catalog has
    expect(refused.locator(".status")).to_contain_text("已拒绝")
    assert refused.locator(".suggestions code").count() >= 1 and refused.locator(".chart").count() == 0
    page.click("#lang-toggle")
    expect(page.locator("#ask-button")).to_have_text("Ask")
    page.click("#lang-toggle")
    expect(page.locator("#ask-button")).to_have_text("提问")
    analyst.check()


def test_screenshot_of_a_chinese_answer_shows_glyphs(analyst: Tab, tmp_path: Path) -> None:
    """Last, so the font (cut when the page was first served) is ready: the answer page in Chinese,
    drawn with the web font only, taken into a temporary folder; ``BATON_UPDATE_SCREENSHOTS=1`` also
    saves it as docs/web-answer.png for docs/web.md."""
    page = analyst.page
    page.click("#new-conversation")
    turn = analyst.ask("上个月各渠道的GMV是多少？")
    expect(turn.locator(".chart[data-chart=drawn]")).to_have_count(1)
    page.evaluate("document.fonts.ready")
    assert page.evaluate("document.fonts.check('16px \"Baton CJK\"', '华南成交总额')"), "the web font is loaded"
    assert page.evaluate("[...document.fonts].some(f => f.family.includes('Baton CJK') && f.status === 'loaded')")
    shot = tmp_path / "web-answer.png"
    page.screenshot(path=str(shot), full_page=True)
    assert ink(decode_png(shot.read_bytes())).sum() > 20_000
    assert_glyphs_not_tofu(page, turn.locator(".interpretation"))
    analyst.check()
    if os.environ.get("BATON_UPDATE_SCREENSHOTS") == "1":  # never written into the repository otherwise
        SCREENSHOT.write_bytes(shot.read_bytes())


def test_web_font_covers_the_page_and_the_catalog(server: BatonServer) -> None:
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    with urllib.request.urlopen(f"{server.url}/static/fonts/baton-cjk.woff", timeout=120) as response:
        assert response.headers["Content-Type"] == "font/woff"
        etag = response.headers["ETag"]
        data = response.read()
    assert [p.read_bytes() for p in (server.runs_dir / "web").glob("baton-cjk-*.woff")] == [data], "cached on disk"
    cmap = TTFont(io.BytesIO(data)).getBestCmap()
    for text in ("沿用上一问", "华南华东", "成交总额", "驱动因素", "蘸", "齄", "，。？（）"):  # UI, catalog, GB2312
        assert all(ord(c) in cmap for c in text), text
    cached = urllib.request.Request(f"{server.url}/static/fonts/baton-cjk.woff", headers={"If-None-Match": etag})
    with pytest.raises(urllib.error.HTTPError) as not_modified:
        urllib.request.urlopen(cached)
    assert not_modified.value.code == 304


def test_another_user_cannot_open_the_run(browser: Browser, server: BatonServer, analyst_run: str) -> None:
    run_id = analyst_run
    context = browser.new_context(locale="zh-CN")
    try:
        other = Tab(context, server)
        other.sign_in(server.tokens["east_manager"], f"&run={run_id}")
        expect(other.page.locator("#run-detail .run-error")).to_contain_text("无法打开这次运行")
        expect(other.page.locator("#runs-error")).not_to_be_empty()
        assert other.page.locator("#run-detail .interpretation").count() == 0
        response = other.page.request.get(f"{server.url}/api/runs/{run_id}")
        assert response.status == 404 and response.json()["error"]["code"] == "not_found"
        view = other.page.request.get(f"{server.url}/api/runs/{run_id}/view")
        assert view.status == 404
        # the page's cookie alone cannot write: the CSRF token lives in the page's memory only
        forged = other.page.request.post(f"{server.url}/api/ask", data={"question": "上个月GMV"})
        assert forged.status == 403 and forged.json()["error"]["code"] == "permission_denied"
        # a reload resumes the session from its cookie (GET /api/session): no token asked again
        other.page.reload(wait_until="domcontentloaded")
        expect(other.page.locator("body")).to_have_attribute("data-state", "signed-in")
        expect(other.page.locator("#who")).to_contain_text("east_manager")
        assert other.page.locator("#signin-form").is_hidden()
        other.page.click("#signout")  # DELETE /api/session: needs the CSRF token the page got back
        expect(other.page.locator("#signin-form")).to_be_visible()
        assert other.page.request.get(f"{server.url}/api/me").status == 401
    finally:
        context.close()


def test_without_its_formatted_view_the_page_shows_no_raw_number(
    browser: Browser, server: BatonServer, analyst_run: str
) -> None:
    """``GET /view`` failing (here: answered 500 by the browser's router) leaves only the raw
    Answer, whose rows are unformatted numbers: the page says the table is in the reports instead."""
    with server.client("analyst") as client:
        rows = client.get(f"/api/runs/{analyst_run}").json()["answer"]["result"]["rows"]
    raw = [str(v) for row in rows for v in row if isinstance(v, int | float) and abs(v) >= 1000]
    assert raw, "the run's result holds numbers the page must not print as they are"
    context = browser.new_context(locale="zh-CN")
    try:
        tab = Tab(context, server)
        failure = {"error": {"code": "internal_error", "message": "view failed", "status": 500}}
        tab.page.route("**/api/runs/*/view", lambda route: route.fulfill(status=500, json=failure))
        tab.sign_in(server.tokens["analyst"], f"&run={analyst_run}")
        detail = tab.page.locator("#run-detail")
        expect(detail.locator(".table-unavailable")).to_have_text(MESSAGES["web.table_unavailable"][1])
        assert detail.locator("table.result").count() == 0
        shown = detail.inner_text()
        assert not [v for v in raw if v in shown], "no unformatted number on the page"
        assert tab.page.evaluate("window.__cspViolations") == []
    finally:
        context.close()


def test_run_view_is_the_reports_content_for_its_owner_only(server: BatonServer, analyst_run: str) -> None:
    run_id = analyst_run
    with server.client("analyst", language="zh-CN") as client:
        view = client.get(f"/api/runs/{run_id}/view")
    assert view.status_code == 200
    content = view.json()
    assert content["run_id"] == run_id and content["interpretation"].startswith("问题理解为")
    assert content["table_header"] == ["渠道", "成交总额"]
    assert all(re.fullmatch(r"¥[\d,]+\.\d\d", row[1]) for row in content["table_rows"])
    with server.client(None, language="en") as client:
        anonymous = client.get(f"/api/runs/{run_id}/view")
    assert anonymous.status_code == 401 and anonymous.json()["error"]["code"] == "unauthorized"
    with server.client("admin") as client:
        assert client.get(f"/api/runs/{run_id}/view").status_code == 200  # an admin sees every run
        assert client.get("/api/runs/run_nope/view").json()["error"]["status"] == 404
