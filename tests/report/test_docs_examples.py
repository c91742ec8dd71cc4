"""The report examples in ``docs/`` are what today's code writes
(``python -m baton.demo.report_examples --no-charts docs``): real sections, key numbers a person
reads, Chinese throughout, the CJK font embedded in the HTML."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from baton.orchestrator.session import Session
from tests.report.test_chinese_throughout import NAMES, WORD, english_words, html_visible_text, md_visible_text

DOCS = Path(__file__).resolve().parents[2] / "docs"


def catalog_words(session: Session) -> set[str]:
    texts = [m.label.zh + m.description.zh + m.owner for m in session.catalog.metrics.values()]
    texts += [m.label.zh for d in session.catalog.dimensions.values() for m in d.members.values()]
    return NAMES | {"GMV"} | {w for t in texts for w in WORD.findall(t)}


def test_the_analysis_example_reads_as_a_report(demo_session: Session) -> None:
    md = (DOCS / "analysis-example.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", md, re.MULTILINE)
    assert headings[:4] == ["回答", "驱动因素", "指标树", "显著性检验"], headings
    assert not [line for line in md.splitlines() if re.search(r"[^#\s].*#{2,} ", line)]  # no "## Drivers" mid-text
    figures = md[md.index("## 关键数字") : md.index("## 图表")]
    rows = [line.strip("|").split(" | ") for line in figures.splitlines() if line.startswith("| ")][1:]
    for _, value, exact, *_rest in rows:  # never -0.4436298991351343: a percentage, money with its sign
        assert not re.search(r"\d\.\d{5,}", value + exact) and re.search(r"[%¥万]", value + exact), (value, exact)
    assert re.search(r"\| -¥[\d,]+\.\d{2} \|", figures) and re.search(r"\| [+-]\d+\.\d{4}% \|", figures)
    assert english_words(md_visible_text(md), catalog_words(demo_session)) == []


@pytest.mark.parametrize("name", ["analysis-example.html", "report-example.html"])
def test_the_html_examples_embed_their_cjk_font(demo_session: Session, name: str) -> None:
    page = (DOCS / name).read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert policy is not None and "font-src data:" in policy.group(1) and "unsafe-" not in policy.group(1)
    assert '@font-face { font-family: "Baton CJK"' in page and "url(data:font/woff;base64," in page
    assert english_words(html_visible_text(page), catalog_words(demo_session)) == []
