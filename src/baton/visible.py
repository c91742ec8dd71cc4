"""Control characters made visible: text from users and data, as a reader can see it.

A question, a member value or an error message may carry characters that a terminal, an SVG
renderer or a Markdown viewer acts on instead of showing: ESC (the start of every terminal
escape sequence: clear the screen, a hidden hyperlink, a new window title), BEL, a carriage
return that lets later text overwrite earlier text, DEL, the C1 controls (U+0080–U+009F, 8-bit
forms of the same sequences) and the bidirectional overrides and isolates that reorder what is
shown (U+202A–U+202E, U+2066–U+2069). :func:`visible` writes each as the escape a programmer
reads (``\\x1b``, ``\\r``, ``\\u202e``), so the text stays legible and nothing in it acts.
"""

from __future__ import annotations

import re

_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _escape(char: str) -> str:
    code = ord(char)
    return _NAMED.get(char) or (f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}")


def visible(text: str, keep: str = "") -> str:
    """``text`` with every control character shown as an escape (``\\x1b``), except those in
    ``keep`` (``"\\n\\t"`` where several lines are meant). A backslash already in the text is
    left as it is: the stored record (``--json``) is the exact one."""
    return _CONTROL.sub(lambda m: m.group(0) if m.group(0) in keep else _escape(m.group(0)), text)


def has_controls(text: str, keep: str = "") -> bool:
    """Whether :func:`visible` would change ``text``."""
    return any(ch not in keep for ch in _CONTROL.findall(text))
