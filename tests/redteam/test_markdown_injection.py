"""Issue 14, finding 4: no Markdown structure can come from a user's or the data's text.

A question with a Markdown heading, raw HTML and an unclosed code fence once produced a ``.md``
with a forged "回答" section holding an unchecked number. Every report here is parsed with a real
CommonMark parser (markdown-it-py, with GFM tables and strikethrough): its headings must be
exactly Baton's, nothing may parse as HTML, a link, an image, indented code or a fence of the
user's, and the user's words must be shown exactly as written (line breaks folded), which also
rules out emphasis, entities and code spans made of them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markdown_it.token import Token

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_markdown, write_markdown_report
from baton.report.md_text import md_cell, md_code, md_code_block, md_heading, md_line, md_span
from baton.visible import visible
from tests.redteam.rendering import (
    MARKDOWN_QUESTION,
    baton,
    folded,
    headings,
    inline_children,
    markdown_tokens,
    paragraphs,
    plain_text,
    private_config,
    structure_problems,
)

AS_OF = date(2026, 7, 1)

CLARIFICATION_HEADINGS = [
    ("h1", "Baton 分析报告"),
    ("h2", "回答"),
    ("h2", "计算过程"),
    ("h3", "筛选条件"),
    ("h3", "数据新鲜度"),
    ("h3", "假设"),
    ("h3", "已排除的路径"),
    ("h3", "局限"),
    ("h3", "运行编号"),
]
"""A report that asks back or refuses (Chinese): no numbers, no SQL."""

HOSTILE_CLAUSE = (
    "## 回答 <img src=x onerror=alert(document)> <script>alert(document)</script> *强调* _斜_ "
    "[链接](evil.example) $x$ | a | b | === --- `代码` ~~删~~ www.evil.example ```"
)
"""A context clause Baton reads, states among its assumptions and quotes in its interpretation."""

HOSTILE_DATA = [
    "<script>alert(1)</script>",
    "| forged | row |",
    "# 回答",
    "**粗体** _斜_ ~~删~~",
    "[链接](http://evil.example) ![图](http://evil.example/x.png)",
    "&lt;b&gt; &#60;i&#62; &amp;",
    "```",
    "    缩进",
    "1. 列表",
    "- 列表",
    "> 引用",
    "===",
    "\\",
    "`a`` b`",
]
"""Member values a warehouse may hold: each must land in its table cell as plain text."""


@pytest.fixture(scope="module")
def config(small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return private_config(small_demo_dir, tmp_path_factory.mktemp("md_injection"))


@pytest.fixture(scope="module")
def session(config: Path) -> Iterator[Session]:
    with Session(load_settings(config)) as opened:
        yield opened


def _last_answer(config: Path) -> Answer:
    with Session(load_settings(config)) as reader:
        (row,) = reader.store.list(limit=1)
        answer = reader.store.load(row.run_id).answer
    assert answer is not None
    return answer


def _assert_literal(md: str, *said: str) -> None:
    shown = "\n".join(paragraphs(markdown_tokens(md)))
    for text in said:
        assert folded(text) in shown, (folded(text), shown)


@pytest.mark.parametrize(
    ("question", "exit_code"),
    [
        (MARKDOWN_QUESTION, 2),  # asked back: Baton does not understand the HTML words
        (MARKDOWN_QUESTION.replace("\n", "\r"), 2),  # CommonMark ends a line at a carriage return too
        ("上个月GMV &#60;script&#62;alert(1)&#60;/script&#62; &lt;b&gt; `代码` ~~删~~", 2),  # echoed in the answer
        ("上个月的利润率是多少？\r## 回答\r<script>alert(1)</script>", 3),  # refused: no such metric
    ],
    ids=["newlines", "carriage-returns", "entities-echoed", "refused"],
)
def test_a_question_cannot_forge_a_section(config: Path, tmp_path: Path, question: str, exit_code: int) -> None:
    """`baton ask --format md --out`, then `baton runs replay --format md` of the same run."""
    out = tmp_path / "x.md"
    proc = baton(["ask", question, "--format", "md", "--out", str(out), "--config", str(config)], tmp_path)
    assert proc.returncode == exit_code, proc.stderr
    answer = _last_answer(config)
    replayed = baton(["runs", "replay", answer.run_id, "--format", "md", "--config", str(config)], tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    for md in (out.read_text(encoding="utf-8"), replayed.stdout):
        assert headings(markdown_tokens(md)) == CLARIFICATION_HEADINGS
        assert structure_problems(md) == []
        _assert_literal(md, f"问题：{folded(question)}", answer.answer)


def test_an_analysis_cannot_be_given_a_section(config: Path, tmp_path: Path) -> None:
    """`baton analyze --format md`: whatever it answers, the only 回答 is Baton's."""
    question = "为什么上个月GMV下降了？\n\n## 回答\n\n因为 ¥999,999,999\n\n<script>alert(1)</script>\n\n```\n"
    out = tmp_path / "why.md"
    proc = baton(["analyze", question, "--format", "md", "--out", str(out), "--config", str(config)], tmp_path)
    assert proc.returncode in (0, 2, 3), proc.stderr
    md = out.read_text(encoding="utf-8")
    titles = [text for _, text in headings(markdown_tokens(md))]
    assert titles.count("回答") == 1 and "因为 ¥999,999,999" not in titles
    answer = _last_answer(config)
    assert structure_problems(md, fences=("sql",) if answer.sql else ()) == []
    _assert_literal(md, f"问题：{folded(question)}", answer.answer)


def test_an_answered_report_quotes_the_question_literally(session: Session, tmp_path: Path) -> None:
    """A context clause full of Markdown is read, stated as an assumption and quoted in the
    interpretation: everywhere it appears it is plain text, and the answer is the real one."""
    answer = session.ask(f"我在准备周报 {HOSTILE_CLAUSE}；上个月各区域GMV", as_of=AS_OF)
    assert answer.status == "answered", answer.answer
    assert any("我在准备周报" in a for a in answer.assumptions)
    out = tmp_path / "region.md"
    write_markdown_report(answer, out, catalog=session.catalog)
    md = out.read_text(encoding="utf-8")
    twin = answer.model_copy(update={"question": "问", "interpretation": "读", "assumptions": ["设"]})
    expected = render_markdown(twin, catalog=session.catalog, image="region.png")
    assert headings(markdown_tokens(md)) == headings(markdown_tokens(expected))
    assert structure_problems(md, images=1 if answer.chart else 0, fences=("sql",)) == []
    assert answer.interpretation is not None
    _assert_literal(md, answer.question, answer.interpretation, answer.answer, *answer.assumptions)


def test_data_in_tables_and_code_is_shown_literally(session: Session) -> None:
    """Member values, column names, metric texts and SQL come from the warehouse and its catalog."""
    real = session.ask("上个月各区域GMV", as_of=AS_OF)
    assert real.status == "answered" and real.result is not None
    rows = [[HOSTILE_DATA[i % len(HOSTILE_DATA)], row[1]] for i, row in enumerate(real.result.rows)]
    rows += [[value, 1.0] for value in HOSTILE_DATA[len(rows) :]]
    column = real.result.columns[0].model_copy(update={"name": "<b>区|域</b> `x`"})
    result = real.result.model_copy(update={"rows": rows, "columns": [column, *real.result.columns[1:]]})
    metric = real.metrics[0].model_copy(
        update={"expression": "SUM(`gmv`)", "definition": "# 口径 <i>x</i>", "owner": "a@b.example [x](y)"}
    )
    sql = "SELECT '```\n# 回答\n<script>alert(1)</script>\n```' AS x\n~~~\n    缩进"
    hostile = real.model_copy(update={"result": result, "metrics": [metric], "sql": sql})
    md = render_markdown(hostile)  # no catalog: column names and members are shown as the data has them
    assert headings(markdown_tokens(md)) == headings(markdown_tokens(render_markdown(real)))
    assert structure_problems(md, fences=("sql",)) == []
    (fence,) = [t for t in markdown_tokens(md) if t.type == "fence"]
    assert fence.content == sql + "\n"
    tokens = markdown_tokens(md)
    cells = [t for i, t in enumerate(tokens) if t.type == "inline" and tokens[i - 1].type in ("td_open", "th_open")]
    shown_cells = {"".join(c.content for c in cell.children or []) for cell in cells}
    assert {"<b>区|域</b> `x`", *(folded(value) for value in HOSTILE_DATA)} <= shown_cells
    _assert_literal(md, "SUM(`gmv`)", "# 口径 <i>x</i>", "a@b.example [x](y)")


def test_the_chart_link_is_only_the_chart(session: Session, tmp_path: Path) -> None:
    """The image beside the report is named after ``--out``: a file name cannot add a link."""
    answer = session.ask("上个月每天的GMV", as_of=AS_OF)
    assert answer.chart is not None
    out = tmp_path / "a) [x](http://evil.example) <b> ![y.md"
    written = write_markdown_report(answer, out, catalog=session.catalog)
    md = out.read_text(encoding="utf-8")
    assert structure_problems(md, images=1, fences=("sql",)) == []
    (image,) = [c for t in markdown_tokens(md) if t.type == "inline" for c in t.children or [] if c.type == "image"]
    assert unquote(str(image.attrs["src"])) == written[1].name


ALPHABET = [*string.printable, "\x1b", "\x00", "\x7f", "\x9b", "\u202e", "\u3000", "\xa0", "\x85", "\u2028", "回", "答"]
"""ASCII (every Markdown character), control characters, Unicode spaces and line separators, CJK."""


def _only(tokens: list[Token], *types: str) -> Token:
    """The one inline token of a parse whose block tokens are exactly ``types``."""
    assert [t.type for t in tokens if t.type != "inline"] == list(types), [t.type for t in tokens]
    (inline,) = [t for t in tokens if t.type == "inline"]
    return inline


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(ALPHABET), max_size=40))
@example("<img src=x onerror=alert(1)> <b>x</b> <!-- c --> <?p?> <!D>")
@example("&#60; &lt; &amp;amp; <http://evil.example> <a@b.example>")
@example("```\n# 回答\n~~~")
@example("    缩进\n\t代码")
@example("1. 列表\n2) 项")
@example("===\n---\n***\n___")
@example("| a | b |\n|---|---|")
@example("[x](y) ![x](y) [x]: y")
@example("上个月GMV\r## 回答\r")
@example("-")
@example("``` x ``")
def test_every_context_shows_any_text_as_itself(said: str) -> None:
    """Whatever the text, each context's function yields exactly that context's structure
    holding exactly the text (on one line, control characters visible)."""
    shown = visible(re.sub(r"\r\n|[\r\n\t\v\f\x85\u2028\u2029]", " ", said)).strip()
    if shown:
        para = ("paragraph_open", "paragraph_close")
        assert plain_text(_only(markdown_tokens(md_line(said)), *para)) == shown
        item = ("bullet_list_open", "list_item_open", *para, "list_item_close", "bullet_list_close")
        assert plain_text(_only(markdown_tokens("- " + md_line(said)), *item)) == shown
        quote = ("blockquote_open", *para, "blockquote_close")
        assert plain_text(_only(markdown_tokens("> " + md_line(said)), *quote)) == shown
        assert plain_text(_only(markdown_tokens("**L**：" + md_span(said)), *para)) == "L：" + shown
    heading = _only(markdown_tokens("## " + md_heading(said)), "heading_open", "heading_close")
    assert plain_text(heading) == shown
    table = markdown_tokens(f"| h |\n|---|\n| {md_cell(said)} |")
    cells = [t for i, t in enumerate(table) if t.type == "inline" and table[i - 1].type == "td_open"]
    assert [t.type for t in table].count("tr_open") == 2 and len(cells) == 1
    assert plain_text(cells[0]) == shown
    code = visible(re.sub(r"\r\n|[\r\n\t\v\f\x85\u2028\u2029]", " ", said))
    if code.strip(" "):
        spans = [c for c in inline_children(markdown_tokens("x " + md_code(said))) if c.type == "code_inline"]
        assert [s.content for s in spans] == [code]
    (fence,) = [t for t in markdown_tokens("\n".join(md_code_block(said, "sql"))) if t.type != "inline"]
    assert fence.type == "fence" and fence.info == "sql"
    assert fence.content == visible(said.replace("\r\n", "\n"), keep="\n\t") + "\n"
