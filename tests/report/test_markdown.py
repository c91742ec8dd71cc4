"""The Markdown report: answer first, key numbers, chart PNG beside it, table, how it was computed."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import key_figures, render_markdown, write_markdown_report

AS_OF = date(2026, 7, 1)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def test_sections_come_in_the_readers_order(demo_session: Session, channel_zh: Answer) -> None:
    md = render_markdown(channel_zh, catalog=demo_session.catalog, image="chart.png")
    order = [
        "## 回答",
        "## 关键数字",
        "## 图表",
        "## 结果表",
        "## 计算过程",
        "### 执行的 SQL",
        "### 指标口径",
        "### 筛选条件",
        "### 数据新鲜度",
        "### 假设",
        "### 已排除的路径",
        "### 局限",
        "### 输出核验",
        "### 运行编号",
    ]
    positions = [md.index(h) for h in order]
    assert positions == sorted(positions)
    assert channel_zh.interpretation is not None
    assert md.index("## 回答") < md.index(channel_zh.interpretation) < md.index(channel_zh.answer)
    assert md.index(channel_zh.answer) < md.index("## 关键数字")
    assert "![成交总额环比（2026年6月）](chart.png)" in md
    assert channel_zh.run_id in md and "SUM(gmv_amount)" in md and "status IN ('paid', 'refunded')" in md
    assert "数据更新至 2026-06-30" in md
    # member codes read as catalog labels; a negative amount keeps its sign before the currency
    assert "| APP |" in md and "| 小程序 |" in md and "| 渠道 |" in md
    assert "-¥9,917,873.30" in md and "¥-" not in md


def test_english_report_and_key_numbers(demo_session: Session, region_en: Answer) -> None:
    md = render_markdown(region_en, catalog=demo_session.catalog, image="r.png")
    for heading in (
        "## Answer",
        "## Key numbers",
        "## Chart",
        "## Result table",
        "## How this was computed",
        "### Excluded paths",
        "### Limitations",
        "### Run id",
    ):
        assert heading in md
    assert "East China" in md and "| Region |" in md
    figures = key_figures(region_en, demo_session.catalog)
    assert region_en.result is not None
    top = max(region_en.result.rows, key=lambda r: r[1])
    assert figures[0].label.startswith("GMV · Highest: East China")
    assert figures[0].exact == f"¥{top[1]:,.2f}"
    assert figures[0].value.endswith("M")  # the scanning form: 14.16M
    assert figures[-1].value == str(region_en.result.row_count)


def test_png_is_written_beside_the_md_and_linked_relatively(
    tmp_path: Path, demo_session: Session, daily_zh: Answer
) -> None:
    out = tmp_path / "nested" / "daily.md"
    written = write_markdown_report(daily_zh, out, catalog=demo_session.catalog)
    assert written == [out, out.with_name("daily.png")]
    assert out.with_name("daily.png").read_bytes().startswith(PNG_SIGNATURE)
    text = out.read_text(encoding="utf-8")
    assert "](daily.png)" in text and str(tmp_path) not in text
    assert sorted(p.name for p in out.parent.iterdir()) == ["daily.md", "daily.png"]  # no temp files left


def test_a_single_value_has_no_chart_section(demo_session: Session, single_zh: Answer) -> None:
    md = render_markdown(single_zh, catalog=demo_session.catalog, image="ignored.png")
    assert "## 图表" not in md and "ignored.png" not in md
    assert "## 关键数字" in md and "转化率" in md and "%" in md


def test_user_words_cannot_become_markdown(demo_session: Session, region_en: Answer) -> None:
    """A question is shown literally: no link, emphasis or inline HTML comes from it."""
    asked = region_en.model_copy(update={"question": "GMV [click](http://x.example) <b>*now*</b>"})
    md = render_markdown(asked, catalog=demo_session.catalog)
    assert "\\[click\\](http\\://x.example) \\<b\\>\\*now\\*\\</b\\>" in md
    assert "[click](" not in md and "<b>" not in md


def test_a_context_clause_is_shown_literally(demo_session: Session) -> None:
    """The words Baton read as context reach the assumptions escaped."""
    answer = demo_session.ask("I'm prepping a *deck* for [review]. GMV by region last month", as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    md = render_markdown(answer, catalog=demo_session.catalog)
    assert "\\*deck\\* for \\[review\\]" in md and "*deck*" not in md.replace("\\*deck\\*", "")


def test_a_report_that_is_not_an_answer_names_its_status_in_the_readers_language(demo_session: Session) -> None:
    from baton.report import render_html

    refused = demo_session.ask("上个月的利润率是多少？", as_of=AS_OF)
    asked_back = demo_session.ask("GMV by channel", as_of=AS_OF)  # no period: asked back
    assert (refused.status, asked_back.status) == ("refused", "clarification_needed")
    assert "状态: 已拒绝" in render_markdown(refused, catalog=demo_session.catalog, image=None).replace("：", ": ")
    page = render_html(refused, catalog=demo_session.catalog)
    assert "已拒绝" in page and ": refused<" not in page
    md_en = render_markdown(asked_back, catalog=demo_session.catalog, image=None)
    assert "Needs clarification" in md_en and "clarification_needed" not in md_en
