"""`baton analyze` in the terminal: the summary panel, then a heading rule per section with its
bullets, and a drivers table of numbers a person reads (through the real console script)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest
from rich.console import Console

from baton.cli.render import render_answer
from baton.contracts.agent_outputs import QualityIssue, ReportSection
from baton.contracts.answer import Answer
from baton.numbers import display

BATON = [sys.executable, "-m", "baton"]
RULE = re.compile(r"^(\S.*?) ─{3,}\s*$")
ISSUE_CODE = re.compile(r"\b(?:" + "|".join(get_args(QualityIssue)) + r")\b")
QUESTIONS = {"zh": "为什么2026年6月的GMV下降了？", "en": "Why did GMV fall in June 2026?"}


def baton(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200"}  # wide enough that no table row wraps
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=180, env=env, check=False)


def analysed(config: Path, lang: str) -> tuple[str, Answer]:
    """The terminal report of a real run, and that run's Answer as recorded."""
    proc = baton("analyze", QUESTIONS[lang], "--config", str(config), "--as-of", "2026-07-01")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    run_id = re.findall(r"run_\w+", proc.stdout)[-1]
    shown = baton("runs", "show", run_id, "--json", "--config", str(config))
    assert shown.returncode == 0, shown.stderr
    answer = Answer.model_validate(json.loads(shown.stdout)["answer"])
    assert answer.status == "answered" and answer.sections, answer.answer
    return proc.stdout, answer


def drivers_rows(out: str, title: str) -> list[list[str]]:
    """The body rows of the drivers table (the one titled ``title``)."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == title)
    body = lines[start + 1 : next(i for i in range(start, len(lines)) if lines[i].startswith("└"))]
    return [[c.strip() for c in line.strip("│").split("│")] for line in body if line.startswith("│")]


@pytest.fixture(scope="module")
def run_zh(small_demo_dir: Path) -> tuple[str, Answer]:
    return analysed(small_demo_dir / "baton.toml", "zh")


@pytest.fixture(scope="module")
def run_en(small_demo_dir: Path) -> tuple[str, Answer]:
    return analysed(small_demo_dir / "baton.toml", "en")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_sections_follow_the_summary_under_their_headings(request: pytest.FixtureRequest, lang: str) -> None:
    out, answer = request.getfixturevalue(f"run_{lang}")
    lines = out.splitlines()
    rules = [(i, m[1]) for i, line in enumerate(lines) if (m := RULE.match(line))]
    expected = [s.heading for s in answer.sections]
    found = [heading for _, heading in rules if heading in expected]
    assert len(found) == len(set(found)) and found == [h for h in expected if h in found], found
    assert {s.heading for s in answer.sections if s.kind in ("drivers", "quality", "excluded")} <= set(found)
    assert lines[0].startswith("╭") and rules[0][0] > next(i for i, line in enumerate(lines) if line.startswith("╰"))
    for i, _ in rules:
        assert lines[i + 1].startswith("• "), lines[i + 1]
    assert not re.search(r"\d\.\d{7,}", out)  # no float's repr anywhere
    if lang == "zh":
        assert not ISSUE_CODE.search(out), ISSUE_CODE.findall(out)


def test_drivers_table_reads_as_numbers(run_zh: tuple[str, Answer]) -> None:
    out, answer = run_zh
    assert answer.drivers
    rows = drivers_rows(out, "驱动因素")
    assert len(rows) == len(answer.drivers)
    for driver, (members, _factor, change, share, q, ci) in zip(answer.drivers, rows, strict=True):
        assert "=" not in members and members.count(" × ") == len(driver.members) - 1  # catalog labels
        assert driver.contribution is not None and change == display(driver.contribution)
        assert re.fullmatch(r"-?[\d,]+\.\d%", share), share
        assert re.fullmatch(r"< 0\.000001|0\.\d{4}|0\.0000\d\d|1\.0000", q), q
        assert re.fullmatch(r"[+-]\d+\.\d{2}% 至 [+-]\d+\.\d{2}%", ci), ci
        if driver.q_value is not None and driver.q_value < 1e-6:
            assert q == "< 0.000001"


def test_markup_in_the_data_is_shown_literally(run_zh: tuple[str, Answer]) -> None:
    _, answer = run_zh
    hostile = ReportSection(kind="method", heading="[red]方法[/red]", items=("[bold]不是加粗[/bold] [link=x]y[/link]",))
    console = Console(record=True, width=200, color_system=None)
    render_answer(answer.model_copy(update={"sections": [*answer.sections, hostile]}), console)
    out = console.export_text()
    assert "[red]方法[/red] ───" in out and "• [bold]不是加粗[/bold] [link=x]y[/link]" in out


BOX = re.compile(r"[\s│┃╭╮╰╯─━┏┓┗┛┡┩╇┳┻╋┃└┘┌┐├┤┬┴┼•]")
TOKEN = re.compile(r"[-+¥]?[A-Za-z0-9_][A-Za-z0-9_.,:%-]*[A-Za-z0-9_%]")


def rendered(answer: Answer, width: int) -> str:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    render_answer(answer, console)
    return console.export_text()


@pytest.mark.parametrize("width", [80, 120])
def test_no_text_is_dropped_at_any_width(run_zh: tuple[str, Answer], width: int) -> None:
    """Every character of the summary and of every section item is on the screen: wrapped, never cut."""
    _, answer = run_zh
    out = rendered(answer, width)
    flat = BOX.sub("", out)
    said = [answer.answer, *(answer.interpretation or "",), *(i for s in answer.sections for i in s.items)]
    for item in said:
        assert BOX.sub("", item) in flat, item
    assert max(len(line) for line in out.splitlines()) <= width


def test_numbers_dates_and_identifiers_stay_whole_at_80(run_zh: tuple[str, Answer]) -> None:
    """A number, date or identifier in the prose never breaks across lines (``20`` / ``26-05-01``)."""
    _, answer = run_zh
    out = rendered(answer, 80)
    lines = out.splitlines()
    flat = BOX.sub("", out)
    prose = " ".join([answer.answer, *(i for s in answer.sections for i in s.items)])
    tokens = {t for t in TOKEN.findall(prose) if len(t) >= 4 and re.search(r"[\d_]", t)}
    assert any("," in t for t in tokens) and any(re.fullmatch(r"\d{4}-\d{2}-\d{2}", t) for t in tokens)
    split = [t for t in tokens if sum(line.count(t) for line in lines) < flat.count(t)]
    assert not split, split


def test_the_panel_title_names_the_status_in_the_answers_language(run_zh: tuple[str, Answer]) -> None:
    out = rendered(run_zh[1], 80)
    assert "分析 · 已回答" in out.splitlines()[0] and "answered" not in out.splitlines()[0]
