"""An analysis report a manager can read: the summary first, then one real section per heading
(in the Answer's order, each once), key numbers as people read them, each caveat said once and
no issue code left untranslated. Answers come from real ``analyze`` runs on a small demo."""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from html.parser import HTMLParser
from typing import get_args

import pytest

from baton.contracts.agent_outputs import QualityFlag, QualityIssue, ReportSection
from baton.contracts.answer import Answer
from baton.numbers import format_probability
from baton.orchestrator.session import Session
from baton.report import render_html, render_markdown
from baton.report.content import report_labels
from baton.report.md_text import md_line, md_span

CODES = "|".join(get_args(QualityIssue))
ISSUE_CODE = re.compile(rf"\b(?:{CODES})\b")
LEADING_CODE = re.compile(rf"^(?:{CODES}):\s*")
LONG_DECIMAL = re.compile(r"\d\.\d{7,}")
ZERO_PROBABILITY = re.compile(r"\b[pq]\s*[=<]\s*0(?:\.0+)?(?![.\d])")
WHY = ["why_zh", "why_en"]


def markdown(request: pytest.FixtureRequest, fixture: str) -> tuple[Answer, str]:
    answer: Answer = request.getfixturevalue(fixture)
    session: Session = request.getfixturevalue("analysis_session")
    return answer, render_markdown(answer, catalog=session.catalog, image="chart.png")


def md_headings(md: str) -> list[str]:
    return [line[3:] for line in md.splitlines() if line.startswith("## ")]


def md_body(md: str, heading: str) -> str:
    """The lines under ``## heading`` up to the next heading of that level."""
    return md.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def md_rows(md: str, heading: str) -> list[list[str]]:
    """The body rows of the first table under ``## heading``."""
    lines = [line for line in md_body(md, heading).splitlines() if line.startswith("|")]
    return [line.strip("| ").split(" | ") for line in lines[2:]]


def in_order_once(shown: list[str], sections: list[ReportSection]) -> list[str]:
    """The section headings among ``shown``, checked to appear once each and in the Answer's order."""
    expected = [s.heading for s in sections]
    found = [h for h in shown if h in expected]
    assert len(found) == len(set(found)), found
    assert found == [h for h in expected if h in found], (found, expected)
    for kind in ("drivers", "quality", "excluded"):
        assert next(s.heading for s in sections if s.kind == kind) in found, kind
    return found


# -- Markdown ------------------------------------------------------------------------------------
@pytest.mark.parametrize("fixture", WHY)
def test_summary_leads_then_each_section_once_in_order(request: pytest.FixtureRequest, fixture: str) -> None:
    answer, md = markdown(request, fixture)
    t = report_labels(answer.language)
    headings = md_headings(md)
    assert len(headings) == len(set(headings)), headings
    found = in_order_once(headings, answer.sections)
    assert headings[0] == t["answer"] and headings[1] == found[0]
    assert headings.index(found[-1]) < headings.index(t["key_numbers"]) < headings.index(t["how"])
    summary = md_line(answer.answer)
    assert f"\n\n{summary}\n\n## {found[0]}\n" in md  # a paragraph of its own, before the sections
    drivers = next(s for s in answer.sections if s.kind == "drivers")
    lines = [line for line in md_body(md, drivers.heading).splitlines() if line]
    assert lines == [f"- {md_line(item)}" for item in drivers.items]
    # the analysis' assumptions and excluded paths are not listed again under "how"
    assert f"### {t['assumptions']}" not in md and f"### {t['excluded']}" not in md


@pytest.mark.parametrize("fixture", WHY)
def test_key_numbers_read_as_people_read_them(request: pytest.FixtureRequest, fixture: str) -> None:
    answer, md = markdown(request, fixture)
    t = report_labels(answer.language)
    rows = md_rows(md, t["key_numbers"])
    assert len(rows) == len(answer.tests) >= 2
    to = " 至 " if answer.language == "zh" else " to "
    for test, (label, value, exact, interval, detail) in zip(answer.tests, rows, strict=True):
        # the exact value in the reader's unit (never a float's repr like -0.4436298991351343)
        relative = test.effect_size_kind == "relative_change" or "·" in label  # a driver's own change
        if relative:
            assert re.fullmatch(r"[+-]\d+\.\d{4}%", exact), exact
            assert Decimal(exact[:-1]) == (test.estimate * 100).quantize(Decimal("0.0001"), ROUND_HALF_UP)
        elif test.effect_size_kind == "cohen_d":
            assert re.fullmatch(r"-?¥\d{1,3}(?:,\d{3})*\.\d{2}", exact), exact
            assert Decimal(re.sub("[¥,]", "", exact)) == test.estimate.quantize(Decimal("0.01"), ROUND_HALF_UP)
        for cell in (label, value, exact, interval, detail):
            assert not LONG_DECIMAL.search(cell) and not re.search(r"\dE-?\d", cell, re.IGNORECASE), cell
        assert "=" not in label  # members and factors by their catalog labels, not codes
        assert not ZERO_PROBABILITY.search(detail), detail
        assert to in interval, interval
        if test.p_value is not None:
            assert f"p {format_probability(test.p_value)}" in detail.replace("= ", "")
            if test.p_value < Decimal("0.000001"):
                assert "p < 0.000001" in detail
        if test.effect_size_kind == "relative_change":
            assert re.fullmatch(r"[+-]\d+\.\d{2}%", value), value
            assert re.fullmatch(rf"[+-]\d+\.\d{{2}}%{to}[+-]\d+\.\d{{2}}%", interval), interval
        if test.effect_size_kind == "cohen_d":  # a difference of daily GMV: money, scaled
            assert re.fullmatch(r"[+-]¥[\d,]+(?:\.\d{1,2})?(?:万|亿|K|M|B)?", value), value
            assert re.search(r"Cohen's d = -?\d+\.\d{2}(?!\d)", detail), detail


@pytest.mark.parametrize("fixture", WHY)
def test_each_quality_caveat_is_said_once(request: pytest.FixtureRequest, fixture: str) -> None:
    answer, md = markdown(request, fixture)
    quality = next(s for s in answer.sections if s.kind == "quality")
    body = md_body(md, quality.heading)
    assert answer.quality_flags
    for flag in answer.quality_flags:
        said = md_span(LEADING_CODE.sub("", flag.message))
        assert md.count(said) == 1 and said in body, said
        if flag.assumption:
            assert md.count(md_span(flag.assumption)) == 1 and md_span(flag.assumption) in body


def test_no_issue_code_reaches_the_chinese_report(analysis_session: Session, why_zh: Answer) -> None:
    md = render_markdown(why_zh, catalog=analysis_session.catalog)
    prose = re.sub(r"```.*?```", "", md, flags=re.DOTALL).replace("\\", "")
    assert not ISSUE_CODE.search(prose), ISSUE_CODE.findall(prose)
    outline = Outline.of(render_html(why_zh, catalog=analysis_session.catalog))
    assert not ISSUE_CODE.search(outline.visible), ISSUE_CODE.findall(outline.visible)


def test_issue_codes_in_flags_are_translated_and_said_once(analysis_session: Session, why_zh: Answer) -> None:
    """Flags whose messages carry their code, and no quality section from the agent: the report
    builds that section, writes the codes as words, and does not repeat the caveat elsewhere."""
    flags = [
        QualityFlag(
            table="fact_order",
            date=date(2026, 6, 12),
            issue="incomplete",
            message="incomplete: 行数 60（本期）",
            affects_period=True,
            assumption="2026-06-12 剔除出日均值检验。",
        ),
        QualityFlag(
            table="fact_order", issue="late_arriving", message="late_arriving: 约 1.9 % 晚到", affects_period=True
        ),
    ]
    sections = [s for s in why_zh.sections if s.kind != "quality"]
    assumptions = [*why_zh.assumptions, "2026-06-12 剔除出日均值检验。"]
    answer = why_zh.model_copy(update={"sections": sections, "quality_flags": flags, "assumptions": assumptions})
    md = render_markdown(answer, catalog=analysis_session.catalog)
    t = report_labels("zh")
    body = md_body(md, "数据质量")
    assert "- fact\\_order 2026-06-12: 数据不完整：行数 60（本期） — 2026-06-12 剔除出日均值检验。" in body
    assert "- fact\\_order: 数据晚到更新：约 1.9 % 晚到" in body
    assert md.count("2026-06-12 剔除出日均值检验。") == 1 and md.count("约 1.9 % 晚到") == 1
    assert not ISSUE_CODE.search(md.replace("\\", "")) and f"### {t['limitations']}" not in md
    headings = md_headings(md)
    assert headings.index("数据质量") < headings.index(next(s.heading for s in sections if s.kind == "excluded"))


def test_english_report_shows_issues_in_words(analysis_session: Session, why_en: Answer) -> None:
    flag = QualityFlag(table="fact_traffic", issue="stale", message="stale: data lags 2 days", affects_period=True)
    answer = why_en.model_copy(update={"quality_flags": [*why_en.quality_flags, flag]})
    md = render_markdown(answer, catalog=analysis_session.catalog).replace("\\", "")
    assert not re.search(rf"\b(?:{CODES}):", md)
    assert "- fact_traffic: Stale data: data lags 2 days" in md


def test_words_in_sections_are_shown_literally(analysis_session: Session, why_en: Answer) -> None:
    hostile = ReportSection(kind="method", heading="Method", items=("Read *deck* as [x](http://e.example) <b>",))
    answer = why_en.model_copy(update={"sections": [*why_en.sections, hostile]})
    md = render_markdown(answer, catalog=analysis_session.catalog)
    assert "- Read \\*deck\\* as \\[x\\](http\\://e.example) \\<b\\>" in md and "[x](" not in md
    page = render_html(answer, catalog=analysis_session.catalog)
    assert "<li>Read *deck* as [x](http://e.example) &lt;b&gt;</li>" in page and "<b>" not in page


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (Decimal("3E-12"), "< 0.000001"),
        (Decimal(0), "< 0.000001"),
        (Decimal("0.000001"), "0.000001"),
        (Decimal("0.0000234"), "0.000023"),
        (Decimal("0.023974629499"), "0.0240"),
        (1.0, "1.0000"),
    ],
)
def test_probabilities_are_never_zero(value: object, shown: str) -> None:
    assert format_probability(value) == shown


# -- HTML ----------------------------------------------------------------------------------------
class Outline(HTMLParser):
    """A page as a reader meets it: its headings, the list items under each, its visible text."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[str, str]] = []
        self.items: dict[str, list[str]] = {}
        self._texts: list[str] = []
        self._hidden = 0
        self._open: str | None = None
        self._buffer: list[str] = []

    @classmethod
    def of(cls, page: str) -> Outline:
        outline = cls()
        outline.feed(page)
        return outline

    @property
    def visible(self) -> str:
        return "".join(self._texts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._hidden += tag in ("script", "style", "svg", "title")
        if tag in ("h1", "h2", "h3", "li"):
            self._open, self._buffer = tag, []

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style", "svg", "title")
        if tag != self._open:
            return
        said = "".join(self._buffer)
        if tag == "li":
            self.items.setdefault(self.headings[-1][1], []).append(said)
        else:
            self.headings.append((tag, said))
        self._open = None

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._texts.append(data)
            self._buffer.append(data)


@pytest.mark.parametrize("fixture", WHY)
def test_html_sections_are_real_headings_with_list_items(request: pytest.FixtureRequest, fixture: str) -> None:
    answer: Answer = request.getfixturevalue(fixture)
    session: Session = request.getfixturevalue("analysis_session")
    outline = Outline.of(render_html(answer, catalog=session.catalog))
    t = report_labels(answer.language)
    h2 = [said for tag, said in outline.headings if tag == "h2"]
    found = in_order_once(h2, answer.sections)
    assert h2[0] == t["answer"] and h2[1] == found[0] and h2.index(found[-1]) < h2.index(t["key_numbers"])
    assert not re.search(r"(?m)^\s*#{1,3} ", outline.visible) and "## " not in outline.visible
    drivers = next(s for s in answer.sections if s.kind == "drivers")
    assert outline.items[drivers.heading] == list(drivers.items)
    quality = next(s for s in answer.sections if s.kind == "quality")
    assert len(outline.items[quality.heading]) == len(answer.quality_flags)
    assert answer.answer in outline.visible


def test_a_mix_drivers_key_number_is_named_as_its_share(analysis_session: Session) -> None:
    """ "why did AOV drop": app's driver is its share of orders (a mix); its test in the key
    numbers is named as that share, never as app's own orders."""
    answer = analysis_session.analyze("why did AOV drop in June 2026", as_of=date(2026, 7, 1))
    assert answer.status == "answered", answer.error
    mixes = [d for d in answer.drivers if d.role == "mix"]
    assert mixes, [d.role for d in answer.drivers]
    md = render_markdown(answer, catalog=analysis_session.catalog)
    assert "share of orders" in md
    assert "orders, own change" not in md
