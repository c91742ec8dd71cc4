"""Acceptance: the HTML report draws its interactive chart in headless Chromium, offline.

Debian's ``chromium`` is used (``scripts/ensure-chromium.sh`` installs it); nothing is
downloaded. The network is off: a dead proxy, no background networking, and the page's own
``default-src 'none'`` policy. In CI (``CI=true``) a missing browser is a failure; elsewhere
the test is skipped with a loud reason.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import warnings
from pathlib import Path

import pytest

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import write_html_report


def chromium() -> str:
    for name in (os.environ.get("BATON_CHROMIUM"), "chromium", "chromium-browser"):
        if name and (path := shutil.which(name)):
            return path
    message = "chromium is not installed: run scripts/ensure-chromium.sh (the HTML report's browser test needs it)"
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message)
    warnings.warn(message, stacklevel=2)
    pytest.skip(message)


OFFLINE_HEADLESS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--proxy-server=127.0.0.1:9",  # nothing listens: a page that tries the network fails at once
    "--proxy-bypass-list=<-loopback>",
)
"""Headless Chromium with no network, no first-run work and no background traffic."""


def dump_dom(page: Path, profile: Path, width: int | None = None) -> str:
    """The page's DOM after headless Chromium ran its scripts (offline), at ``width`` pixels."""
    proc = subprocess.run(
        [
            chromium(),
            *OFFLINE_HEADLESS,
            f"--user-data-dir={profile}",
            "--virtual-time-budget=15000",
            *([f"--window-size={width},900"] if width is not None else []),
            "--dump-dom",
            page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=90,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def interactive_part(dom: str) -> str:
    start = dom.index('id="baton-interactive"')
    return dom[start : dom.index("<figcaption", start)]


@pytest.mark.parametrize(
    ("fixture", "texts", "min_marks"),
    [
        ("daily_zh", ["每日成交总额（2026年6月）", "日期", "成交总额"], 30),
        ("channel_zh", ["成交总额环比（2026年6月）", "渠道", "小程序", "直播", "本期 2026年6月"], 8),
    ],
)
def test_interactive_chart_draws_marks_offline(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    demo_session: Session,
    fixture: str,
    texts: list[str],
    min_marks: int,
) -> None:
    answer: Answer = request.getfixturevalue(fixture)
    page = tmp_path / "report.html"
    write_html_report(answer, page, catalog=demo_session.catalog)
    dom = dump_dom(page, tmp_path / "profile")
    assert 'data-chart="interactive"' in dom, re.findall(r'data-chart-error="[^"]*"', dom)
    chart = interactive_part(dom)
    assert 'class="vega-embed' in chart and "<svg" in chart
    marks = re.findall(r'role="graphics-symbol"', chart)
    assert len(marks) >= min_marks
    assert 'aria-roledescription="visualization"' in chart
    for text in texts:
        assert text in chart, text
    # the static SVG gave way to the interactive chart but is still in the file
    assert re.search(r'id="baton-static"[^>]*hidden', dom)
