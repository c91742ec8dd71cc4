"""Issue 14, finding 5: no text from a user or the data is interpreted by the terminal.

A stored question with Rich markup (``[/x]``) made every later ``baton runs list`` fail with an
internal error, and a refused question with terminal escape sequences was written back raw to
the terminal by ``runs list``. Every command that prints a user's or the data's text is run
here through the real console script: it must exit as usual, show the text literally (markup
as typed, control characters as visible escapes such as ``\\x1b``) and write no byte a
terminal acts on — with colour off, and with colour forced on (Rich's own colour codes are then
the only escape sequences allowed).
"""

from __future__ import annotations

import io
import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest
from rich.console import Console

from baton.cli.errors import error_line
from baton.cli.render import render_answer
from baton.contracts.agent_outputs import ReportSection
from baton.errors import InvalidInput
from tests.redteam.rendering import (
    HOSTILE_MEMBERS,
    SGR,
    baton,
    hostile_warehouse,
    private_config,
    terminal_problems,
)

MARKUP_QUESTION = "[/x] [bold red]上个月[link=http://evil.example]GMV[/link] 是多少"
"""Rich markup: an unbalanced closing tag, a style and a hyperlink."""

ANALYSIS_QUESTION = "为什么上个月GMV下降了？我在准备周报 [/x] [bold red]"
"""An analysis (its agents receive the question, so `runs trace --packets` shows it)."""

ESCAPE_QUESTION = "删除所有订单 \x1b[2J\x1b]8;;http://evil.example\x1b\\点我\x1b]8;;\x1b\\ \x07\r\u202eGMV\x9b31m"
"""Clear the screen, a hidden hyperlink, a bell, a carriage return, a bidi override and an
8-bit control sequence introducer."""


@pytest.fixture
def config(small_demo_dir: Path, tmp_path: Path) -> Path:
    """The demo, with a runs folder of this test's own (so `runs list` shows its runs only)."""
    return private_config(small_demo_dir, tmp_path / "config")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`baton init` on a warehouse whose members carry markup and escape sequences."""
    return hostile_warehouse(tmp_path_factory.mktemp("hostile_shop"))


def _asked(config: Path, question: str, tmp_path: Path, command: str = "ask") -> str:
    """Ask through the real CLI (its own output is checked too); the run id of the stored run."""
    proc = baton([command, question, "--config", str(config)], tmp_path)
    assert proc.returncode in (0, 1, 2, 3), proc.stderr  # answered, asked back, refused, a typed failure
    assert "internal error" not in proc.stderr, proc.stderr
    assert terminal_problems(proc.stdout + proc.stderr) == []
    listed = baton(["runs", "list", "--json", "--limit", "1", "--config", str(config)], tmp_path)
    (row,) = json.loads(listed.stdout)
    assert row["question"] == question  # stored as asked: the record stays exact
    return str(row["run_id"])


def _assert_shown(proc_out: str, *texts: str) -> None:
    flat = re.sub(r"\s+", "", SGR.sub("", proc_out))  # a long cell may wrap
    for text in texts:
        assert re.sub(r"\s+", "", text) in flat, (text, proc_out[-3000:])


@dataclass(frozen=True)
class StoredRuns:
    """Three runs of hostile questions in one private runs folder, asked once for the module."""

    config: Path
    cwd: Path
    refused: str
    analysed: str
    escaped: str


@pytest.fixture(scope="module")
def stored(small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> StoredRuns:
    cwd = tmp_path_factory.mktemp("stored_runs")
    config = private_config(small_demo_dir, cwd / "config")
    return StoredRuns(
        config=config,
        cwd=cwd,
        refused=_asked(config, MARKUP_QUESTION, cwd),
        analysed=_asked(config, ANALYSIS_QUESTION, cwd, "analyze"),
        escaped=_asked(config, ESCAPE_QUESTION, cwd),
    )


@pytest.mark.parametrize("force_color", ["", "1"], ids=["plain", "colour"])
def test_markup_in_a_stored_question_is_shown_as_typed(stored: StoredRuns, force_color: str) -> None:
    """`runs list` and `runs show` of a refused question; `runs trace --packets` of an analysis,
    whose agents received the question."""
    config, cwd = stored.config, stored.cwd
    env = {"FORCE_COLOR": force_color} if force_color else {}
    shown = json.loads(baton(["runs", "show", stored.refused, "--json", "--config", str(config)], cwd).stdout)
    for args, expected in (
        (["runs", "list"], [MARKUP_QUESTION[:40], ANALYSIS_QUESTION]),
        (["runs", "show", stored.refused], [stored.refused, shown["answer"]["answer"]]),
        (["runs", "trace", stored.analysed, "--packets"], [ANALYSIS_QUESTION]),
    ):
        proc = baton([*args, "--config", str(config)], cwd, **env)
        assert proc.returncode == 0, (args, proc.stderr)
        assert terminal_problems(proc.stdout + proc.stderr) == [], args
        _assert_shown(proc.stdout, *expected)


@pytest.mark.parametrize("force_color", ["", "1"], ids=["plain", "colour"])
def test_escape_sequences_in_a_stored_question_are_shown_not_sent(stored: StoredRuns, force_color: str) -> None:
    config, cwd = stored.config, stored.cwd
    env = {"FORCE_COLOR": force_color} if force_color else {}
    for args in (["runs", "list"], ["runs", "show", stored.escaped], ["runs", "trace", stored.escaped, "--packets"]):
        proc = baton([*args, "--config", str(config)], cwd, **env)
        assert proc.returncode == 0, (args, proc.stderr)
        assert terminal_problems(proc.stdout + proc.stderr) == [], args
        if args[1] == "list":
            _assert_shown(proc.stdout, "删除所有订单 \\x1b[2J\\x1b]8;;http://evil.example\\x1b\\点我")


def test_data_in_answers_tables_and_sql_is_plain_text(shop: Path, tmp_path: Path) -> None:
    """Members with markup and escapes reach `baton query`, `baton ask` and `baton sql` output."""
    for args in (
        ["query", "--metrics", "sales_rows", "--group-by", "region"],
        ["ask", "sales rows by region last month"],
        ["sql", "run", 'SELECT region AS "[/y]\x1b[2J", COUNT(*) AS n FROM sales GROUP BY 1'],
        ["sql", "check", "SELECT region || '\x1b[2J[/x]' AS r, COUNT(*) AS n FROM sales GROUP BY 1"],
    ):
        proc = baton([*args, "--config", str(shop)], tmp_path, FORCE_COLOR="1")
        assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr)
        assert terminal_problems(proc.stdout + proc.stderr) == [], args
        if args[0] != "sql" or args[1] == "run":
            _assert_shown(proc.stdout, "[/x]west", "[bold red]south[link=http://evil.example]", "\\x1b[2Jnorth\\x07\\r")


def test_catalog_check_and_init_print_plain_text(shop: Path, tmp_path: Path) -> None:
    """A catalog problem quotes a member; `baton init` names the folder it wrote to."""
    catalog = shop.parent / "catalog.yaml"
    text = catalog.read_text(encoding="utf-8")
    catalog.write_text(
        text.replace("    members:\n", '    members:\n      "ghost\\e[2J[/x]": {label: {zh: g, en: g}}\n', 1),
        encoding="utf-8",
    )
    try:
        proc = baton(["catalog", "check", "--config", str(shop)], tmp_path)
    finally:
        catalog.write_text(text, encoding="utf-8")
    assert proc.returncode == 1, proc.stderr
    assert terminal_problems(proc.stdout + proc.stderr) == []
    _assert_shown(proc.stdout, "ghost\\x1b[2J[/x]")
    folder = tmp_path / "out\x1b[2J[/x]\x07"
    proc = baton(
        ["init", "--warehouse", f"duckdb:///{(shop.parent / 'shop.duckdb').as_posix()}", "--path", str(folder)],
        tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    assert terminal_problems(proc.stdout + proc.stderr) == []
    _assert_shown(proc.stdout, "out\\x1b[2J[/x]\\x07")


def test_error_lines_are_plain_text(config: Path, tmp_path: Path) -> None:
    """A typed error quotes the user's input (here --as-of); a written file is named by --out."""
    proc = baton(["ask", "上个月GMV", "--as-of", "\x1b[2J[/x]", "--config", str(config)], tmp_path)
    assert proc.returncode == 1 and "internal error" not in proc.stderr, proc.stderr
    assert terminal_problems(proc.stdout + proc.stderr) == []
    _assert_shown(proc.stderr, "\\x1b[2J[/x]")
    out = tmp_path / "[/x]\x1b[2J" / "r.md"
    proc = baton(["ask", "上个月GMV", "--format", "md", "--out", str(out), "--config", str(config)], tmp_path)
    assert proc.returncode == 0 and out.is_file(), proc.stderr
    assert terminal_problems(proc.stdout + proc.stderr) == []
    _assert_shown(proc.stderr, "[/x]\\x1b[2J")
    line = error_line(InvalidInput("bad \x1b]8;;http://evil.example\x1b\\ [/x]", "坏"), "en")
    printed = io.StringIO()
    Console(file=printed, force_terminal=True, width=200, highlight=False).print(line)
    assert terminal_problems(printed.getvalue()) == [] and "[/x]" in SGR.sub("", printed.getvalue())


def test_render_answer_prints_every_text_plainly(config: Path) -> None:
    """Each text `render_answer` prints (question words, answer, assumptions, sections, table,
    SQL, metrics, freshness, suggestions, error, run id) arrives as typed."""
    from baton.config import load_settings
    from baton.orchestrator.session import Session

    with Session(load_settings(config)) as session:
        real = session.ask("上个月各区域GMV", as_of=date(2026, 7, 1))
    assert real.result is not None and real.metrics
    bad = " [/x][bold]\x1b[2J\x07\r\u202e\x9b"
    shown_bad = " [/x][bold]\\x1b[2J\\x07\\r\\u202e\\x9b"
    result = real.result.model_copy(
        update={
            "columns": [real.result.columns[0].model_copy(update={"name": "列" + bad}), *real.result.columns[1:]],
            "rows": [[m, real.result.rows[i % len(real.result.rows)][1]] for i, m in enumerate(HOSTILE_MEMBERS)],
        }
    )
    hostile = real.model_copy(
        update={
            "interpretation": "读" + bad,
            "answer": "答" + bad,
            "assumptions": ["设" + bad],
            "suggestions": ["议" + bad],
            "data_freshness": "新" + bad,
            "sql": f"{real.sql}\n-- 查{bad}",
            "metrics": [real.metrics[0].model_copy(update={"label": "标" + bad, "definition": "定" + bad})],
            "result": result,
            "sections": [ReportSection(kind="quality", heading="节" + bad, items=("项" + bad,))],
            "run_id": "号" + bad,
        }
    )
    printed = io.StringIO()
    render_answer(hostile, Console(file=printed, force_terminal=True, color_system="truecolor", width=400))
    output = printed.getvalue()
    assert terminal_problems(output) == []
    shown = SGR.sub("", output)
    for said in ("读", "答", "设", "议", "新", "查", "标", "定", "节", "项", "列", "号"):
        assert said + shown_bad in shown, (said, shown)
    assert "[/x]west" in shown and "\\x1b[2Jnorth\\x07\\r" in shown
