"""In headless Chromium at a phone's width, the analysis report's key numbers wrap instead of
running off the screen (``scripts/ensure-chromium.sh`` installs the browser; offline)."""

from __future__ import annotations

import re
from pathlib import Path

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html
from baton.report.html import csp_hash
from tests.report.test_browser import dump_dom

PROBE = """<script>
(function () {
  var wrap = document.querySelector("table.figures").parentElement;
  var main = document.querySelector("main");
  document.body.setAttribute("data-figures-overflow", String(wrap.scrollWidth - wrap.clientWidth));
  document.body.setAttribute("data-narrow-overflow", String(main.clientWidth > 520 ? 1 : 0));
})();
</script>"""
"""Measures, once the page is laid out, how far the key numbers overflow their box (which scrolls
sideways when they do), and checks that the page was really laid out narrow."""


def measured(page: Path, profile: Path, width: int) -> dict[str, int]:
    dom = dump_dom(page, profile, width)
    return {k: int(v) for k, v in re.findall(r'data-(\w+)-overflow="(-?\d+)"', dom)}


def test_key_numbers_fit_a_phone_screen(tmp_path: Path, analysis_session: Session, why_zh: Answer) -> None:
    page = render_html(why_zh, catalog=analysis_session.catalog).replace("</body>", PROBE + "</body>")
    probe = csp_hash(PROBE.removeprefix("<script>").removesuffix("</script>"))
    page = page.replace("script-src ", f"script-src {probe} ", 1)  # the page's policy allows only its own scripts
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    overflow = measured(path, tmp_path / "profile", 390)
    assert overflow == {"figures": 0, "narrow": 0}
