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
    from rich.console import Console, ConsoleOptions, RenderResult
    from rich.measure import Measurement
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


_NUMERIC_TAIL = frozenset("0123456789%")


def _closing(char: str) -> bool:
    """Punctuation a line may not start with: closing brackets and quotes, commas, stops, ``%``."""
    import unicodedata

    return unicodedata.category(char) in ("Pe", "Pf", "Po")


def _opening(char: str) -> bool:
    import unicodedata

    return unicodedata.category(char) in ("Ps", "Pi")


def _is_wide(char: str) -> bool:
    from rich.cells import cell_len

    return cell_len(char) > 1


def _atoms(paragraph: str) -> list[tuple[str, str]]:
    """``paragraph`` as (space before, atom) pairs where a line may break before each atom: a
    run of narrow characters (a number, date, identifier or English word) stays whole, a wide
    (CJK) character stands alone, closing punctuation keeps to what it closes, opening punctuation
    to what it opens, and a unit after a number (``-9,234,632.75 元``) to its number."""
    raw: list[tuple[str, str]] = []
    space = ""
    for char in paragraph:
        if char.isspace():
            space += char
        elif not raw or space or _is_wide(char) or _is_wide(raw[-1][1][-1]):
            raw.append((space, char))
            space = ""
        else:
            raw[-1] = (raw[-1][0], raw[-1][1] + char)
    atoms: list[tuple[str, str]] = []
    for space, atom in raw:
        glue = atoms and (
            (not space and (_closing(atom[0]) or _opening(atoms[-1][1][-1])))
            or (space == " " and atoms[-1][1][-1] in _NUMERIC_TAIL and (_is_wide(atom[0]) or atom == "%"))
        )
        if glue:
            atoms[-1] = (atoms[-1][0], atoms[-1][1] + space + atom)
        else:
            atoms.append((space, atom))
    return atoms


def wrap_lines(value: str, width: int) -> list[str]:
    """``value`` wrapped to ``width`` cells without cutting a number, date or identifier (only one
    wider than a whole line is folded); no character is dropped but the spaces at a break."""
    from rich.cells import cell_len, chop_cells

    lines: list[str] = []
    for paragraph in value.split("\n"):
        line, used = "", 0
        for index, (space, atom) in enumerate(_atoms(paragraph)):
            size = cell_len(atom)
            if line and used + cell_len(space) + size <= width:
                line, used = line + space + atom, used + cell_len(space) + size
                continue
            if line:
                lines.append(line)
            pieces = chop_cells(atom, width) if size > width else [atom]
            lines.extend(pieces[:-1])
            lead = space if index == 0 else ""  # a paragraph's indent is kept
            line = lead + pieces[-1]
            used = cell_len(line)
        lines.append(line)
    return lines


class Prose:
    """A user's or the data's text, wrapped for the terminal as :func:`wrap_lines` wraps it (rich
    alone drops what does not fit a table cell, and folds a CJK line inside a number)."""

    def __init__(self, value: object, style: str = "", *, multiline: bool = True) -> None:
        self.value = terminal_str(value, multiline=multiline)
        self.style = style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.text import Text

        lines = wrap_lines(self.value, max(1, options.max_width))
        yield Text("\n".join(lines), style=self.style, no_wrap=True, overflow="fold")

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.cells import cell_len
        from rich.measure import Measurement

        atoms = [cell_len(atom) for p in self.value.split("\n") for _, atom in _atoms(p)]
        widest = max((cell_len(p) for p in self.value.split("\n")), default=0)
        return Measurement(min(max(atoms, default=0), widest), widest).clamp(max_width=options.max_width)
