"""Text from users and data, for the terminal: shown, never acted on.

A question, a member value, a column name or an error message may hold Rich markup (``[/x]``
made every later ``baton runs list`` fail; ``[link=…]`` would print a hyperlink) or terminal
control sequences (``\\x1b[2J`` clears the screen, ``\\x1b]8;;…`` hides a link, ``\\r`` lets
later text overwrite earlier text). Every such text the CLI prints goes through one of these:

* :func:`terminal_text` — a rich ``Text`` (markup shown as typed), for tables, panels, rules;
* :func:`terminal_markup` — the same, markup-escaped, for a line printed as Rich markup;
* :func:`terminal_str` — the plain string, for ``print`` and for ``Syntax`` (SQL).

All three show control characters (C0 but line breaks and tabs where several lines are meant,
DEL, C1, ESC and so every escape sequence, the bidi overrides U+202A–U+202E and U+2066–U+2069)
as the escapes a programmer reads (``\\x1b``, ``\\r``, ``\\u202e``), via :func:`baton.visible.visible`.
The stored record is unchanged: ``--json`` prints the text exactly as it was written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baton.visible import visible

if TYPE_CHECKING:
    from rich.text import Text


def terminal_str(value: object, *, multiline: bool = True) -> str:
    """``value`` with every control character shown as an escape; line breaks and tabs are kept
    where several lines are meant (``multiline``), while in one line (a table cell) a line
    break shows as ``\\n``."""
    said = str(value)
    return visible(said.replace("\r\n", "\n"), keep="\n\t") if multiline else visible(said, keep="\t")


def terminal_text(value: object, style: str = "", *, multiline: bool = True) -> Text:
    """A user's or the data's text as a rich ``Text``: markup such as ``[/x]`` or ``[link=…]``
    is shown as typed, never interpreted, and no control character reaches the terminal."""
    from rich.text import Text

    return Text(terminal_str(value, multiline=multiline), style=style)


def terminal_markup(value: object) -> str:
    """The same text inside a line printed as Rich markup (``[red]code[/red]: …``)."""
    from rich.markup import escape

    return escape(terminal_str(value))
