"""Text from users and data, escaped for each place a Markdown report puts it.

Every text in a report that Baton did not write itself — the question, the interpretation and
the answer that quote it, assumptions, member values, column names, catalog labels and
definitions, error messages, SQL, the run id — goes through exactly one of these functions, the
one for its context, so that no heading, list, block quote, fence, indented code, table row,
link, image, autolink, raw HTML, entity, emphasis, strikethrough, math or setext underline can
come from it. The text is shown as written, except that it is one line (line breaks and tabs
read as spaces, the ends trimmed) and control characters are visible escapes (``\\x1b``).

==================  ==========================================================================
context             function
==================  ==========================================================================
a line's start      :func:`md_line` — a paragraph, a list item, a block quote: what begins a
                    Markdown block (``-``, ``+``, ``=``, ``1.``) is escaped too
inside a line       :func:`md_span` — after Baton's own words on the line (``**问题**：…``),
                    in emphasis (``_…_``), an image's alt text
heading             :func:`md_heading` — after ``## ``
table cell          :func:`md_cell` — between pipes
code span           :func:`md_code` — an identifier, an expression, the run id
code block          :func:`md_code_block` — SQL: a fence longer than any backtick run inside
link target         :func:`md_url` — a relative file name, percent-encoded
==================  ==========================================================================
"""

from __future__ import annotations

import re
from urllib.parse import quote

from baton.visible import visible

_BREAKS = re.compile(r"\r\n|[\r\n\t\v\f\x85\u2028\u2029]")
"""What CommonMark (or a viewer) ends a line at, and tabs (indentation): read as a space."""

_INLINE = re.compile(
    r"[\\`*_\[\]|~$@>]"  # escapes, code, emphasis, links, images, pipes, strikethrough, math, quotes
    r"|<(?=[A-Za-z/!?])"  # raw HTML (a tag, a comment, a declaration) and <scheme:…> autolinks
    r"|&(?=[A-Za-z0-9#])"  # entities and numeric character references: &lt; &#60;
    r"|(?<=[A-Za-z]):(?=//)|(?i:(?<=\bwww)\.)"  # GitHub's bare autolinks: http://…, www.… (and user@host)
)
"""What starts inline Markdown; each is written as a backslash escape (CommonMark escapes any
ASCII punctuation). A ``<`` or ``&`` that cannot start a tag or an entity stays as it is
(``p < 0.05``, ``A & B``), so the raw report stays readable; ``>`` is always escaped."""

_BLOCK_START = re.compile(r"^(?:[-+=#]|\d{1,9}(?=[.)](?:\s|$)))")
"""What begins a heading, a list item, a thematic break or a setext underline at a line's
start (``>``, backticks, ``~``, ``*``, ``_``, ``|`` and a tag's ``<`` are escaped everywhere
already; leading spaces, which would indent code, are trimmed)."""

_HEADING_HASHES = re.compile(r"#")


def _one_line(text: str) -> str:
    return visible(_BREAKS.sub(" ", text)).strip()


def md_span(text: str) -> str:
    """``text`` inside a line Baton has begun: every inline construct escaped."""
    return _INLINE.sub(lambda m: "\\" + m.group(0), _one_line(text))


def md_line(text: str) -> str:
    """``text`` at the start of a block (a paragraph, a list item's or a block quote's text)."""
    escaped = md_span(text)
    match = _BLOCK_START.match(escaped)
    if match is None:
        return escaped
    if not match.group(0).isdigit():
        return "\\" + escaped
    end = match.end()
    return escaped[:end] + "\\" + escaped[end:]  # 1. -> 1\.


def md_heading(text: str) -> str:
    """A heading's text (after ``## ``): no closing ``#`` sequence, no inline construct."""
    return _HEADING_HASHES.sub(r"\\#", md_span(text))


def md_cell(text: str) -> str:
    """A table cell's text: pipes escaped with the rest; a leading ``-`` is only text here."""
    return md_span(text)


def md_code(text: str) -> str:
    """An inline code span showing ``text`` exactly (on one line): delimited by a backtick run
    longer than any inside it, padded with a space where it begins or ends with a backtick."""
    body = visible(_BREAKS.sub(" ", text))
    if not body:
        return ""
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    pad = " " if body[0] in "` " or body[-1] in "` " else ""
    return f"{ticks}{pad}{body}{pad}{ticks}"


def md_code_block(text: str, info: str = "") -> list[str]:
    """A fenced code block showing ``text`` exactly, as lines: the fence is longer than any
    backtick run in the text, so no line of it can close the block early."""
    body = visible(text.replace("\r\n", "\n"), keep="\n\t")
    fence = "`" * max(3, max((len(run) for run in re.findall(r"`+", body)), default=0) + 1)
    return [fence + re.sub(r"[^\w+.-]", "", info), *body.split("\n"), fence]


def md_url(path: str) -> str:
    """A relative link target (the chart's file name), percent-encoded: no ``)``, space or ``<``
    can end it early or add a title."""
    return quote(path, safe="/")
