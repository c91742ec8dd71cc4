"""A Chinese report is Chinese throughout: outside SQL, code and the names of things, no English
word reaches its reader — no section title, label, stat word (``vs``, ``two-sample t-test``)."""

from __future__ import annotations

import html
import re

import pytest

from baton.catalog.model import Catalog
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html, render_markdown

WORD = re.compile(r"[A-Za-z][A-Za-z'’–-]*")
NAMES = {"Baton", "Welch", "Student", "Mann–Kendall", "Cohen's"}
"""The product and the statistical methods, named after people: the same words in a Chinese text."""


def allowed_words(answer: Answer, catalog: Catalog) -> set[str]:
    """What a Chinese reader may see in Latin letters: names above, the question's own words and
    the catalog's Chinese texts (a member may be called ``APP``); acronyms and one-letter symbols
    (p, q, d, K/M) are let through by :func:`english_words`."""
    texts = [answer.question]
    for metric in catalog.metrics.values():
        texts += [metric.label.zh, metric.description.zh, metric.owner]
    for dimension in catalog.dimensions.values():
        texts += [dimension.label.zh, *(m.label.zh for m in dimension.members.values())]
    texts += [event.name.zh for event in catalog.calendar]
    return NAMES | {w for t in texts for w in WORD.findall(t)}


def english_words(text: str, allowed: set[str]) -> list[str]:
    text = re.sub(r"\S+@\S+", " ", text)  # an owner's e-mail address
    text = re.sub(r"\b\w*[_.]\w+\b", " ", text)  # identifiers: tables, run and evidence ids
    return [w for w in WORD.findall(text) if not (w in allowed or w.isupper() or len(w) == 1)]


def html_visible_text(page: str) -> str:
    body = page[page.index("<main>") : page.index("</main>")]
    body = re.sub(r"<(pre|code|svg|script|style)\b.*?</\1>", " ", body, flags=re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def md_visible_text(md: str) -> str:
    md = re.sub(r"^(`{3,}).*?^\1", " ", md, flags=re.DOTALL | re.MULTILINE)  # SQL blocks
    md = re.sub(r"(`+).+?\1", " ", md)  # code spans: identifiers, expressions, the run id
    md = re.sub(r"!\[[^\]]*\]\([^)]*\)", " ", md)  # the chart image's file name
    return md.replace("\\", "")


@pytest.mark.parametrize("fixture", ["why_zh", "channel_zh"])
def test_a_chinese_report_has_no_english_words(request: pytest.FixtureRequest, fixture: str) -> None:
    answer: Answer = request.getfixturevalue(fixture)
    session: Session = request.getfixturevalue("analysis_session" if fixture == "why_zh" else "demo_session")
    allowed = allowed_words(answer, session.catalog)
    page = html_visible_text(render_html(answer, catalog=session.catalog))
    md = md_visible_text(render_markdown(answer, catalog=session.catalog, image="chart.png"))
    assert english_words(page, allowed) == [], page
    assert english_words(md, allowed) == [], md
    assert "本期" in page and "对比期" in page  # and the words are there, in Chinese


def test_the_scan_finds_what_used_to_leak() -> None:
    """The scanner itself: the words that reached Chinese reports before are caught."""
    leaked = "每日数值视为相互独立的样本（Welch two-sample t-test）；46,130,939.79 元 vs 52,811,563.35 元。## Drivers"
    assert english_words(leaked, NAMES) == ["two-sample", "t-test", "vs", "Drivers"]
    assert english_words("fact_order 2026-06-12：行数 1124（trade-data@baton.example）；p = 0.01", NAMES) == []
