"""The HTML report is one self-contained, phone-readable file with the Vega libraries inline."""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html, vendor_size, write_html_report
from baton.report.html import VENDOR_SCRIPTS, page_style, vendor_scripts


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
    assert "<link" not in markup and "@import" not in markup
    # the one url() is the embedded CJK font, a data URL (font-src data: in the policy)
    assert markup.count("url(") == markup.count("url(data:font/woff;base64,") == 1
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', page)
    assert policy is not None and "font-src data:" in policy.group(1)
    assert "unsafe-" not in policy.group(1)  # no 'unsafe-inline' / 'unsafe-eval': scripts and styles by hash
    assert re.search(r'font-family: "Baton CJK"; font-style: normal', page)
    assert 'body { margin: 0; font: 16px/1.6 "Baton CJK",' in page  # the embedded font comes first
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


def test_the_font_is_cut_to_the_page_and_left_out_without_cjk(demo_session: Session, single_zh: Answer) -> None:
    """The embedded subset holds the page's characters (a bigger page, a bigger font); a page
    with no CJK character at all embeds none."""
    small = render_html(single_zh, catalog=demo_session.catalog)
    more = single_zh.model_copy(update={"answer": single_zh.answer + "鬱鬱葱葱，龘靐齉齾"})
    bigger = render_html(more, catalog=demo_session.catalog)
    font = re.compile(r"base64,([A-Za-z0-9+/=]+)")
    small_font, big_font = (font.search(p) for p in (small, bigger))
    assert small_font is not None and big_font is not None
    assert 5_000 < len(small_font.group(1)) < len(big_font.group(1)) < 400_000
    assert "@font-face" not in page_style("<main><h1>Baton report</h1><p>GMV: ¥1.20M — +3.5%</p></main>")
    assert page_style("<p>GMV：¥120万</p>").startswith("@font-face")


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
