"""In headless Chromium on a machine without a CJK font, the HTML report draws its Chinese with
the font subset it embeds ("Baton CJK"), not as boxes (``scripts/ensure-chromium.sh``; offline).

Proof three ways: the page's font face loaded; Chromium says which font drew the answer's glyphs
(``CSS.getPlatformFontsForNode``: the web font, every glyph); and, as the PNG chart test does, two
different Chinese words drawn in the page look different, while in the same page without the
embedded font they are the same row of boxes (Chromium is shown no system CJK font, whatever the
machine has).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.report import render_html
from baton.report.content import report_labels
from baton.report.html import csp_hash
from tests.charts.pngread import decode_png, ink
from tests.report.browser import PageReport, open_page

FACE_LOADED = (
    "Array.from(document.fonts).filter(function (f) { return f.family.replace(/\"/g, '') === 'Baton CJK'; })"
    ".map(function (f) { return f.status; })"
)
WORD_STYLE = "position:absolute;left:0;top:0;font-size:48px;line-height:1.2;background:#fff;color:#000;padding:4px"


def add_words(a: str, b: str) -> str:
    """A probe that sets two words in the page's own font (DevTools runs it; the page's policy
    does not apply to the protocol) and reports their widths."""
    return (
        "(function () { var out = [];"
        f" [['word-a', {a!r}], ['word-b', {b!r}]].forEach(function (w, i) {{"
        " var e = document.createElement('div'); e.id = w[0]; e.textContent = w[1];"
        f" e.style.cssText = '{WORD_STYLE};top:' + (i * 90) + 'px';"  # the CSSOM: no inline style attribute
        " document.body.appendChild(e); out.push(e.getBoundingClientRect().width); });"
        " return out; })()"
    )


def without_font(page: str) -> str:
    """The same page with its embedded font face taken out (and its policy's style hash updated)."""
    style = re.search(r"<style>(.*?)</style>", page, re.DOTALL)
    assert style is not None and style.group(1).startswith("@font-face")
    bare = style.group(1).split("\n", 1)[1]
    page = page.replace(csp_hash(style.group(1)), csp_hash(bare)).replace(style.group(0), f"<style>{bare}</style>")
    assert "@font-face" not in page
    return page


def without_system_cjk_fonts(folder: Path) -> Path:
    """A fontconfig file that sees the system's fonts but none that covers Chinese, so the
    font-missing page shows what a machine without a CJK font shows, whatever this one has."""
    cjk: set[str] = set()
    if (fc_list := shutil.which("fc-list")) is not None:
        listed = subprocess.run([fc_list, ":lang=zh", "file"], capture_output=True, text=True, check=False, timeout=30)
        cjk = {line.strip().rstrip(":") for line in listed.stdout.splitlines() if line.strip()}
    fonts = folder / "fonts"
    fonts.mkdir(parents=True, exist_ok=True)
    for number, font in enumerate(sorted(Path("/usr/share/fonts").rglob("*"))):
        if font.suffix.lower() in {".ttf", ".otf", ".ttc"} and str(font) not in cjk:
            (fonts / f"{number}-{font.name}").symlink_to(font)
    conf = folder / "fonts.conf"
    conf.write_text(
        f'<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>{fonts}</dir>'
        f"<cachedir>{folder / 'cache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    return conf


def opened(path: Path, profile: Path, words: tuple[str, str]) -> PageReport:
    return open_page(
        path,
        profile,
        {"faces": FACE_LOADED, "widths": add_words(*words)},
        until="document.fonts.status === 'loaded'",
        fonts_of=("p.answer", "h1"),
        shots=("#word-a", "#word-b"),
    )


def differing_pixels(a: bytes, b: bytes) -> int:
    ink_a, ink_b = ink(decode_png(a)), ink(decode_png(b))
    if ink_a.shape != ink_b.shape:
        return int(max(ink_a.sum(), ink_b.sum()))
    return int(np.count_nonzero(ink_a != ink_b))


def test_chinese_renders_from_the_embedded_font(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo_session: Session, channel_zh: Answer
) -> None:
    monkeypatch.setenv("FONTCONFIG_FILE", str(without_system_cjk_fonts(tmp_path / "fontconfig")))  # for chromium
    page = render_html(channel_zh, catalog=demo_session.catalog)
    assert 'font-family: "Baton CJK"' in page and "font/woff;base64," in page
    labels = report_labels("zh")
    words = (labels["key_numbers"], labels["how"])  # 关键数字 / 计算过程: four characters each, both in the page
    assert len(words[0]) == len(words[1])

    with_font = tmp_path / "with-font.html"
    with_font.write_text(page, encoding="utf-8")
    seen = opened(with_font, tmp_path / "profile-a", words)
    assert seen.problems() == []  # the font loads under the page's policy: font-src data:
    assert seen.values["faces"] == ["loaded"]
    for selector, said in (("p.answer", channel_zh.answer), ("h1", labels["title"])):
        fonts = seen.fonts[selector]
        assert fonts and all(f["isCustomFont"] for f in fonts), (selector, fonts)  # every glyph from the web font
        # all of the text, spaces included — but a space where the line wraps draws no glyph
        assert len(said) - said.count(" ") <= sum(f["glyphCount"] for f in fonts) <= len(said)
    # two different words look different: real glyphs, not a row of boxes
    assert differing_pixels(seen.shots["#word-a"], seen.shots["#word-b"]) > 500

    bare = tmp_path / "without-font.html"
    bare.write_text(without_font(page), encoding="utf-8")
    missing = opened(bare, tmp_path / "profile-b", words)
    assert missing.problems() == []
    assert missing.values["faces"] == []
    assert not any(f["isCustomFont"] for f in missing.fonts["h1"])
    # the font-missing case: both words are the same boxes
    assert differing_pixels(missing.shots["#word-a"], missing.shots["#word-b"]) == 0
    assert differing_pixels(seen.shots["#word-a"], missing.shots["#word-a"]) > 500
