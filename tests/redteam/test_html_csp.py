"""The HTML report's Content-Security-Policy: no inline script, event handler or ``eval`` runs
unless Baton put it there, and the interactive chart still draws (issue 14).

Vega draws under the policy with its expression interpreter (no ``Function``); the page's own
scripts and style are allowed by their SHA-256 hashes. Checked in headless Chromium through
the DevTools protocol (:mod:`tests.report.browser`): no console error or warning, no uncaught
error, no policy violation, no dialog; a script smuggled into the page does not run.
"""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html
from tests.redteam.rendering import private_config
from tests.report.browser import PageReport, open_page

AS_OF = date(2026, 7, 1)
HOSTILE_QUESTION = '上个月每天的GMV <script>alert("q")</script><img src=x onerror=alert("img")> "><svg onload=alert(1)>'
MARK = "#baton-interactive svg [aria-roledescription=point], #baton-interactive svg [aria-roledescription=bar]"
"""A data mark of the interactive chart (a point, a bar), which shows a tooltip on hover."""
CHART_DRAWN = "document.body.getAttribute('data-chart') !== 'pending'"
PROBES = {
    "chart": "document.body.getAttribute('data-chart')",
    "chart_error": "document.body.getAttribute('data-chart-error')",
    "marks": "document.querySelectorAll('#baton-interactive svg [role=graphics-symbol]').length",
    "static_hidden": "document.getElementById('baton-static').hidden",
    "scripts": "document.scripts.length",
    "pwned": "typeof window.__pwned",
    "tooltip": "(function () { var t = document.getElementById('vg-tooltip-element');"
    " return t ? t.classList.contains('visible') && t.textContent : null; })()",
}


@pytest.fixture(scope="module")
def session(small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    config = private_config(small_demo_dir, tmp_path_factory.mktemp("html_csp"))
    with Session(load_settings(config)) as opened:
        yield opened


@pytest.fixture(scope="module")
def daily(session: Session) -> Answer:
    answer = session.ask("上个月每天的GMV", as_of=AS_OF)
    assert answer.chart is not None, answer.answer
    return answer


def _policy(page: str) -> dict[str, list[str]]:
    (content,) = re.findall(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', page)
    return {d.split()[0]: d.split()[1:] for d in (part.strip() for part in content.split(";")) if d}


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _open(tmp_path: Path, page: str, hover: str | None = None) -> PageReport:
    path = tmp_path / "report.html"
    path.write_text(page, encoding="utf-8")
    return open_page(path, tmp_path / "profile", PROBES, until=CHART_DRAWN, hover=hover)


def test_the_policy_allows_only_the_reports_own_scripts_and_style(session: Session, daily: Answer) -> None:
    page = render_html(daily, catalog=session.catalog)
    policy = _policy(page)
    assert policy["default-src"] == ["'none'"]
    for directive in ("script-src", "style-src"):
        assert not {"'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "*"} & set(policy[directive]), directive
    scripts = re.findall(r"<script>(.*?)</script>", page, flags=re.DOTALL)
    assert len(scripts) == 4  # three libraries and the embed call (the spec is data, not script)
    assert sorted(policy["script-src"]) == sorted({_sha256(s) for s in scripts})
    styles = re.findall(r"<style>(.*?)</style>", page, flags=re.DOTALL)
    assert styles and {_sha256(s) for s in styles} <= set(policy["style-src"])


def test_the_chart_draws_under_the_policy(tmp_path: Path, session: Session, daily: Answer) -> None:
    """Vega compiles no expression with ``Function``; its tooltip shows on hover; nothing is refused."""
    report = _open(tmp_path, render_html(daily, catalog=session.catalog), hover=MARK)
    assert report.values["chart"] == "interactive", report.values["chart_error"]
    assert report.values["marks"] >= 28 and report.values["static_hidden"] is True
    assert report.values["tooltip"], report.values
    assert report.problems() == []


def test_a_script_in_the_question_does_not_run(tmp_path: Path, session: Session, daily: Answer) -> None:
    hostile = daily.model_copy(update={"question": HOSTILE_QUESTION})
    report = _open(tmp_path, render_html(hostile, catalog=session.catalog))
    assert report.values["chart"] == "interactive" and report.values["scripts"] == 5
    assert report.dialogs == [] and report.problems() == []


def test_a_smuggled_script_is_refused_by_the_policy(tmp_path: Path, session: Session, daily: Answer) -> None:
    """Should an escaping slip ever let markup through, the policy still stops it running."""
    page = render_html(daily, catalog=session.catalog)
    smuggled = (
        '<script>window.__pwned = "inline"; alert("inline")</script>'
        "<img src=\"data:,\" onerror=\"window.__pwned = 'handler'; alert('handler')\">"
        '<a id="js" href="javascript:window.__pwned=\'link\'">x</a>'
    )
    page = page.replace("<main>", "<main>" + smuggled, 1)
    report = _open(tmp_path, page)
    assert report.values["pwned"] == "undefined" and report.dialogs == []
    assert report.values["chart"] == "interactive"  # the report's own scripts still ran
    refused = {v["directive"] for v in report.violations}
    assert {"script-src-elem", "script-src-attr"} <= refused, report.violations
