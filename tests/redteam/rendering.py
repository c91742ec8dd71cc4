"""What the rendering red-team tests share: a demo config with its own runs folder, the real
``baton`` console script, and a real Markdown parser's view of a report's structure."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from datetime import date
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

BATON = [sys.executable, "-m", "baton"]

MARKDOWN_QUESTION = (
    "上个月GMV\n\n## 回答\n\nGMV 是 ¥999,999,999\n\n<img src=x onerror=alert(1)>\n\n<script>alert(1)</script>\n\n```\n"
)
"""The question of issue 14, finding 4: a fake 回答 section, raw HTML and an unclosed fence."""

CONTROL_BYTES = ("\x1b", "\x07", "\r", "\x9b", "\u202e")
"""Bytes a terminal acts on (or, for the bidi override, that reorder what it shows)."""

SGR = re.compile(r"\x1b\[[0-9;]*m")
"""The only escape sequences Rich writes itself when colour is on (select graphic rendition)."""


def private_config(demo: Path, folder: Path) -> Path:
    """A baton.toml on the demo's warehouse, catalog and policy, keeping its runs in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "baton.toml"
    config.write_text(
        f'[warehouse]\nurl = "duckdb:///{(demo / "warehouse.duckdb").as_posix()}"\n\n'
        f'[catalog]\npath = "{(demo / "catalog.yaml").as_posix()}"\n\n'
        f'[policy]\npath = "{(demo / "policies.yaml").as_posix()}"\n\n'
        f'[runs]\npath = "{(folder / "runs").as_posix()}"\n\n'
        '[defaults]\nas_of = "2026-07-01"\nuser = "analyst"\n',
        encoding="utf-8",
    )
    return config


def baton(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The real console script, in a wide terminal so that no cell is cut short; its output is
    decoded as written (a carriage return stays one: no newline translation)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    environ.update({"COLUMNS": "400", "PYTHONIOENCODING": "utf-8", **env})
    proc = subprocess.run([*BATON, *args], capture_output=True, timeout=180, cwd=cwd, env=environ, check=False)
    return subprocess.CompletedProcess(
        proc.args, proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    )


def terminal_problems(output: str) -> list[str]:
    """Bytes a terminal would act on, left in ``output`` (Rich's own colour codes aside)."""
    rest = SGR.sub("", output)
    return [
        f"{ch!r} at {rest.index(ch)}: {rest[max(0, rest.index(ch) - 30) : rest.index(ch) + 30]!r}"
        for ch in CONTROL_BYTES
        if ch in rest
    ]


def markdown_tokens(text: str) -> list[Token]:
    """The report as CommonMark plus tables and strikethrough (what GitHub and most viewers read)."""
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).parse(text)


def headings(tokens: list[Token]) -> list[tuple[str, str]]:
    """Every heading as (tag, text)."""
    out = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            out.append((token.tag, tokens[i + 1].content))
    return out


def inline_children(tokens: list[Token]) -> list[Token]:
    return [child for token in tokens if token.type == "inline" for child in token.children or []]


def plain_text(token: Token) -> str:
    """What an inline token shows as text (escapes resolved, soft breaks as spaces)."""
    out = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "text_special"):
            out.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            out.append(" ")
    return "".join(out)


def paragraphs(tokens: list[Token]) -> list[str]:
    """The shown text of every inline run (paragraphs, headings, list items, cells)."""
    return [plain_text(t) for t in tokens if t.type == "inline"]


def structure_problems(text: str, *, images: int = 0, fences: tuple[str, ...] = ()) -> list[str]:
    """Markdown structure no report of Baton's has: raw HTML, links, extra images, indented code,
    thematic breaks, strikethrough, fences other than Baton's own
    (that the shown text equals the user's text is checked by the tests: it catches emphasis,
    entities, code spans and link text, which all change what is shown)."""
    tokens = markdown_tokens(text)
    problems: list[str] = []
    for token in [*tokens, *inline_children(tokens)]:
        if token.type in ("html_block", "html_inline", "code_block", "hr", "link_open", "s_open"):
            problems.append(f"{token.type}: {token.content!r}")
    found_images = [t for t in inline_children(tokens) if t.type == "image"]
    if len(found_images) != images:
        problems.append(f"{len(found_images)} images, expected {images}")
    found_fences = tuple(t.info for t in tokens if t.type == "fence")
    if found_fences != fences:
        problems.append(f"fences {found_fences}, expected {fences}")
    return problems


def folded(said: str) -> str:
    """User text as a one-line Markdown context shows it: line breaks and tabs as spaces, trimmed."""
    return re.sub(r"\r\n|[\r\n\t\v\f\x85\u2028\u2029]", " ", said).strip()


HOSTILE_MEMBERS = (
    "<script>alert(1)</script>",
    "| forged | row |",
    "# 回答",
    "**粗体** ~~删~~ [链接](http://evil.example)",
    "&lt;b&gt;",
    "[/x]west",
    "[bold red]south[link=http://evil.example]",
    "east\x1b]8;;http://evil.example\x1b\\",
    "\x1b[2Jnorth\x07\r",
)
"""Values a warehouse column may hold: Markdown, HTML, Rich markup and terminal escapes."""


def hostile_warehouse(folder: Path) -> Path:
    """A DuckDB warehouse whose ``region`` column holds :data:`HOSTILE_MEMBERS`, with the catalog,
    policy and baton.toml ``baton init`` writes for it (a private runs folder beside them)."""
    import duckdb

    from baton.cli.init_cmd import initialize

    folder.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(folder / "shop.duckdb")) as con:
        con.execute("CREATE TABLE sales (order_date DATE, region VARCHAR, amount DOUBLE)")
        rows = [
            (f"2026-06-{1 + i % 28:02d}", HOSTILE_MEMBERS[i % len(HOSTILE_MEMBERS)], 10.0 + i)
            for i in range(10 * len(HOSTILE_MEMBERS))
        ]
        con.executemany("INSERT INTO sales VALUES (CAST(? AS DATE), ?, ?)", rows)
    initialize("duckdb:///shop.duckdb", folder, as_of=date(2026, 7, 1), cwd=folder)
    return folder / "baton.toml"
