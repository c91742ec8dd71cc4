"""The HTML report is one self-contained, phone-readable file with the Vega libraries inline."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html, vendor_size, write_html_report
from baton.report.html import VENDOR_SCRIPTS, vendor_scripts


def test_vendored_libraries_ship_with_their_licences() -> None:
    folder = resources.files("baton.report").joinpath("vendor")
    for name in VENDOR_SCRIPTS:
        script = folder.joinpath(name)
        licence = folder.joinpath(name.split("/")[0]).joinpath("LICENSE")
        assert script.is_file() and licence.is_file(), name
        assert "BSD" in licence.read_text(encoding="utf-8") or "Redistribution" in licence.read_text(encoding="utf-8")
    assert 600_000 < vendor_size() < 1_200_000
    for _, source in vendor_scripts():
        assert re.search(r"</script", source, re.IGNORECASE) is None


def test_page_is_self_contained_and_phone_ready(demo_session: Session, daily_zh: Answer) -> None:
    page = render_html(daily_zh, catalog=demo_session.catalog)
    assert page.startswith("<!doctype html>") and '<html lang="zh-CN">' in page
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "default-src 'none'" in page  # the page cannot fetch anything
    assert "@media (max-width: 600px)" in page and "overflow-x: auto" in page
    # nothing is loaded from elsewhere: no src/href attributes, no <link>, no @import
    markup = re.sub(r"<script[^>]*>.*?</script>", "<script></script>", page, flags=re.DOTALL)
    assert re.search(r"\s(?:src|href|xlink:href)\s*=", markup) is None
    assert "<link" not in markup and "@import" not in markup and "url(" not in markup
    # the three libraries are inline, then the spec, then the embed call
    assert page.count("<script") == page.count("</script>") == 5
    assert "vegaEmbed" in page and '"$schema"' not in page.split('id="baton-spec">')[0]
    # the static SVG is there with its Chinese text, before the interactive container
    static = page[page.index('id="baton-static"') : page.index('id="baton-interactive"')]
    assert "<svg" in static and "每日成交总额（2026年6月）" in static and "<?xml" not in static
    assert daily_zh.answer.replace("（", "（") in page
    assert daily_zh.run_id in page


def test_text_is_escaped(demo_session: Session, daily_zh: Answer) -> None:
    hostile = daily_zh.model_copy(update={"question": "<script>alert(1)</script> & 上个月"})
    page = render_html(hostile, catalog=demo_session.catalog)
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; 上个月" in page


def test_a_single_value_page_has_no_scripts(demo_session: Session, single_zh: Answer) -> None:
    page = render_html(single_zh, catalog=demo_session.catalog)
    assert "<script" not in page and 'data-chart="none"' in page
    assert single_zh.answer in page


def test_written_atomically(tmp_path: Path, demo_session: Session, region_en: Answer) -> None:
    out = tmp_path / "r.html"
    out.write_text("old", encoding="utf-8")
    assert write_html_report(region_en, out, catalog=demo_session.catalog) == [out]
    page = out.read_text(encoding="utf-8")
    assert '<html lang="en">' in page and "East China" in page
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]


def test_the_interpretation_leads_the_answer(demo_session: Session, region_en: Answer) -> None:
    page = render_html(region_en, catalog=demo_session.catalog)
    assert region_en.interpretation is not None and region_en.interpretation.startswith("Read as: GMV by region")
    assert page.index('class="interpretation"') < page.index('class="answer"')
    assert region_en.interpretation in page
