"""How an Answer shows itself in a notebook: a short repr, an HTML fragment and Markdown in the
answer's language, every text escaped, the table holding the result's rows; the chart as PNG;
reports as text."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser

import pytest

from baton.contracts.answer import Answer
from baton.errors import InvalidInput
from baton.notebook import remember_catalog
from baton.notebook.display import png_size
from baton.orchestrator.session import Session
from tests.notebook.conftest import CHANNEL_QUESTION

PNG = b"\x89PNG\r\n\x1a\n"
SCRIPT = "<script>alert(1)</script>"


class _Page(HTMLParser):
    """The parts of a fragment the tests read: tags seen, table cells by row, images, summaries."""

    def __init__(self, source: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.head: list[str] = []
        self.rows: list[list[str]] = []
        self.images: list[dict[str, str | None]] = []
        self.summaries: list[str] = []
        self._cell: list[str] | None = None
        self._in: list[str] = []
        self.feed(source)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._in.append(tag)
        if tag == "tr" and "tbody" in self._in:
            self.rows.append([])
        if tag in ("td", "th", "summary"):
            self._cell = []
        if tag == "img":
            self.images.append(dict(attrs))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th", "summary") and self._cell is not None:
            value = "".join(self._cell)
            if tag == "td":
                self.rows[-1].append(value)
            elif tag == "th":
                self.head.append(value)
            else:
                self.summaries.append(value)
            self._cell = None
        while self._in and self._in.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def _labelled(answer: Answer, session: Session) -> Answer:
    copy = answer.model_copy()
    remember_catalog(copy, session.catalog)
    return copy


def test_repr_is_one_short_line(channel_zh: Answer) -> None:
    shown = repr(channel_zh)
    assert shown == f"<Answer answered run={channel_zh.run_id} {CHANNEL_QUESTION!r} 4 rows>"
    long = channel_zh.model_copy(update={"question": "很长的问题" * 40, "result": None, "status": "refused"})
    assert len(repr(long)) < 120 and repr(long).startswith("<Answer refused ") and "rows" not in repr(long)


def test_html_in_chinese(channel_zh: Answer) -> None:
    html = channel_zh._repr_html_()
    page = _Page(html)
    assert 'lang="zh-CN"' in html and "script" not in page.tags
    assert channel_zh.interpretation is not None
    assert html.index(channel_zh.interpretation) < html.index(channel_zh.answer) < html.index("<table>")
    assert page.summaries == ["执行的 SQL", "指标口径"]
    assert "成交总额" in page.head and "数据新鲜度" in html and "假设" in html
    assert channel_zh.data_freshness is not None and channel_zh.data_freshness in html
    assert channel_zh.assumptions[0] in html


def test_html_table_rows_are_the_results_rows(channel_zh: Answer, demo_session: Session) -> None:
    """Labelled by the catalog: members by their labels, money with ¥, one row per result row."""
    assert channel_zh.result is not None
    catalog = demo_session.catalog
    labels = catalog.dimensions["channel"].members
    page = _Page(_labelled(channel_zh, demo_session)._repr_html_())
    assert len(page.rows) == channel_zh.result.row_count == 4
    shown = {row[0]: row[1] for row in page.rows}
    expected = {labels[code].label.for_lang("zh"): value for code, value in channel_zh.result.rows}
    assert shown.keys() == expected.keys()
    for label, value in expected.items():
        assert shown[label] == f"¥{value:,.2f}"
    # without a catalog the members stay codes, the numbers are still formatted
    bare = _Page(channel_zh._repr_html_())
    assert {row[0] for row in bare.rows} == {code for code, _ in channel_zh.result.rows}


def test_html_in_english_with_dates(monthly_en: Answer) -> None:
    html = monthly_en._repr_html_()
    page = _Page(html)
    assert 'lang="en"' in html and page.summaries == ["SQL executed", "Metric definitions"]
    assert monthly_en.result is not None and len(page.rows) == monthly_en.result.row_count == 6
    assert [row[0] for row in page.rows] == [str(r[0])[:7] for r in monthly_en.result.rows]  # 2026-01, a month
    assert "Data freshness" in html and "成交总额" not in html


def test_the_chart_is_an_inline_png_at_its_css_size(channel_zh: Answer) -> None:
    page = _Page(channel_zh._repr_html_())
    (image,) = page.images
    src = image["src"] or ""
    assert src.startswith("data:image/png;base64,")
    png = base64.b64decode(src.removeprefix("data:image/png;base64,"))
    assert png.startswith(PNG)
    assert int(image["width"] or 0) == png_size(png)[0] // 2
    assert image["alt"] and "成交总额" in image["alt"]


def test_chart_png(channel_zh: Answer) -> None:
    png = channel_zh.chart_png()
    width, height = png_size(png)
    assert png.startswith(PNG) and width > 600 and height > 300
    assert png_size(channel_zh.chart_png(scale=1.0))[0] == pytest.approx(width / 2, abs=1)
    with pytest.raises(InvalidInput) as caught:
        channel_zh.model_copy(update={"chart": None}).chart_png()
    assert caught.value.error_code == "no_chart"
    for scale in (0, -1.0, 100, float("nan")):
        with pytest.raises(InvalidInput) as bad:
            channel_zh.chart_png(scale=scale)
        assert bad.value.error_code == "invalid_input" and "scale" in bad.value.message("zh")


def _hostile(answer: Answer) -> Answer:
    """The answer with markup in every text it carries."""
    assert answer.result is not None and answer.metrics
    rows = [[f"{SCRIPT}{row[0]}", *row[1:]] for row in answer.result.rows]
    metric = answer.metrics[0].model_copy(update={"definition": SCRIPT, "label": f"<b>{SCRIPT}</b>"})
    return answer.model_copy(
        update={
            "question": f"{SCRIPT}上个月各渠道的GMV是多少？",
            "interpretation": f"<img src=x onerror=alert(1)>{SCRIPT}",
            "answer": f"{SCRIPT}**bold** [link](javascript:alert(1))",
            "assumptions": [SCRIPT],
            "data_freshness": SCRIPT,
            "suggestions": [SCRIPT],
            "sql": f"SELECT '{SCRIPT}'",
            "metrics": [metric],
            "result": answer.result.model_copy(update={"rows": rows}),
        }
    )


def test_html_escapes_every_text(channel_zh: Answer) -> None:
    html = _hostile(channel_zh)._repr_html_()
    page = _Page(html)
    assert "script" not in page.tags and "b" not in page.tags
    assert [(img.get("src") or "")[:15] for img in page.images] == ["data:image/png;"]  # only the chart
    assert "<script" not in html.lower() and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;上个月各渠道的GMV是多少？" in html  # the question, shown as text
    assert all(row[0].startswith(SCRIPT) for row in page.rows)  # member values read back as the text they were


def test_markdown_escapes_every_text(channel_zh: Answer) -> None:
    md = _hostile(channel_zh)._repr_markdown_()
    assert f"```sql\nSELECT '{SCRIPT}'\n```" in md  # SQL is shown exactly, inside a fence (code, not HTML)
    prose = re.sub(r"```sql\n.*?\n```", "", md, flags=re.DOTALL)
    raw_tags = re.findall(r"(?<!\\)<(?!/?(?:details|summary)>)[A-Za-z/]", prose)
    assert raw_tags == []  # every other "<" that could open a tag is backslash-escaped
    assert "\\*\\*bold\\*\\*" in md and "\\[link\\]" in md
    assert "](data:image/png;base64," in md  # the one image: the chart


def test_a_real_question_with_markup(demo_session: Session) -> None:
    """Asked, not constructed: the clarification quotes the question's markup as text."""
    answer = demo_session.ask(f"{SCRIPT}上个月各渠道的GMV是多少？")
    assert answer.status == "clarification_needed"
    html = answer._repr_html_()
    assert "<script" not in html.lower() and "&lt;script&gt;" in html
    assert re.search(r'<p class="baton-status">状态: 需要澄清', html), "the status in words, in Chinese"


def test_status_is_written_in_the_answers_language(channel_zh: Answer, monthly_en: Answer) -> None:
    refused_zh = channel_zh.model_copy(update={"status": "refused", "chart": None})
    refused_en = monthly_en.model_copy(update={"status": "refused", "chart": None})
    status_zh = re.findall(r'<p class="baton-status">([^<]*)</p>', refused_zh._repr_html_())
    assert status_zh == ["状态: 已拒绝"]
    assert re.findall(r'<p class="baton-status">([^<]*)</p>', refused_en._repr_html_()) == ["Status: Refused"]
    assert "_状态: 已拒绝_" in refused_zh._repr_markdown_() and "refused" not in refused_zh._repr_markdown_()
    assert "_Status: Refused_" in refused_en._repr_markdown_()


def test_markdown_in_both_languages(channel_zh: Answer, monthly_en: Answer) -> None:
    zh = channel_zh._repr_markdown_()
    assert channel_zh.interpretation is not None and zh.startswith("> " + channel_zh.interpretation[:6])
    assert "<details><summary>执行的 SQL</summary>" in zh and "<details><summary>指标口径</summary>" in zh
    assert zh.count("\n| ") == 4 + 1  # header + one line per row (the separator starts with "|-")
    en = monthly_en._repr_markdown_()
    assert "<details><summary>SQL executed</summary>" in en and "```sql" in en and "Data freshness" in en


def test_reports(channel_zh: Answer, demo_session: Session) -> None:
    page = channel_zh.report(catalog=demo_session.catalog)  # html by default
    assert page.lstrip().lower().startswith("<!doctype html>") and "Content-Security-Policy" in page
    assert "直播" in [cell for row in _Page(page).rows for cell in row]  # the catalog labels members
    md = channel_zh.report(format="md")
    assert md.startswith("# ") and f"baton-chart-{channel_zh.run_id}.png" in md
    with pytest.raises(InvalidInput) as caught:
        channel_zh.report("pdf")
    assert "html, md" in caught.value.message("en")


def test_a_chart_that_cannot_be_drawn_is_a_note(channel_zh: Answer) -> None:
    broken = channel_zh.model_copy(update={"chart": {"mark": {"type": "nonsense"}, "data": {"values": []}}})
    html = broken._repr_html_()
    (note,) = re.findall(r'<p class="baton-note">(图表无法绘制：[^<]*)</p>', html)
    assert "\n" not in note and " at " not in note  # one line, no JavaScript stack
    assert "<img" not in html and "<table>" in html  # the rest of the answer still shows
    assert "图表无法绘制" in broken._repr_markdown_()
