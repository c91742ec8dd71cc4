"""The one place the ``baton`` command turns an error into output and an exit code.

Every subcommand reports a :class:`BatonError` through :func:`fail` (directly or with the
:func:`reported` context manager): one line on standard error (``code: message`` in the
user's language, or both languages when there is no question to tell it by), or
``{"error": {...}}`` on standard output with ``--json``; the exit code comes from
:func:`baton.errors.exit_code`. No stack trace reaches a user.

An error's ``internal`` part (an engine's own text: data values, rewritten SQL) is never
printed — it is for the run's trace. One exception, ``reveal_internal``: a command whose user
typed the warehouse URL themselves (``baton init --warehouse``) also prints what the driver
said (a refused connection, a failed login), since that user holds the credentials anyway and
has no run to look in.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

import typer

from baton.contracts.common import Language
from baton.errors import BatonError, exit_code

ANSWER_EXIT = {"answered": 0, "failed": 1, "clarification_needed": 2, "refused": 3}
"""Exit code of a command that produced an Answer, by its status."""


def error_line(exc: BatonError, language: Language | None) -> str:
    """``code: message`` (both languages when ``language`` is None) as Rich markup; the message,
    which may quote the user's input or the data, is shown as typed (:func:`terminal_markup`)."""
    from baton.cli.terminal import terminal_markup

    message = exc.message(language) if language is not None else f"{exc.message('en')} / {exc.message('zh')}"
    return f"[red]{exc.error_code}[/red]: {terminal_markup(message)}"


def fail(
    exc: BatonError,
    *,
    as_json: bool = False,
    language: Language | None = None,
    reveal_internal: bool = False,
    **extra: Any,
) -> NoReturn:
    """Report ``exc`` and exit with its code (``extra`` joins the JSON object, e.g. a verdict).
    ``reveal_internal``: also the driver's own text (only for a user who typed the URL)."""
    said = str(exc.internal.get("engine_error") or "").strip() if reveal_internal else ""
    if as_json:
        shown = {**extra, "error": exc.to_dict(language or "en")}
        if said:
            shown["engine_error"] = said
        print(json.dumps(shown, ensure_ascii=False, indent=2))
    else:
        from rich.console import Console

        from baton.cli.terminal import terminal_markup
        from baton.messages import text

        console = Console(stderr=True, highlight=False)
        console.print(error_line(exc, language), soft_wrap=True)
        for line in _more_problems(exc, language):
            console.print(f"  {terminal_markup(line)}", soft_wrap=True)
        if said:
            console.print(f"[dim]{terminal_markup(text('warehouse.engine_said', language or 'en', text=said))}[/dim]")
    raise typer.Exit(exit_code(exc))


def _more_problems(exc: BatonError, language: Language | None) -> list[str]:
    """The problems after the first of a catalog that did not load, one line each (the error
    line says the first)."""
    from baton.messages import text

    problems = exc.detail.get("problems")
    if not isinstance(problems, list) or not all(isinstance(p, dict) and "field" in p for p in problems):
        return []  # only a catalog's field problems; others (baton init's) are listed in the message
    path = exc.detail.get("file", "")
    lines = []
    for problem in problems[1:]:
        said = [
            text("catalog.bad_field", lang, path=path, **problem)
            for lang in ((language,) if language else ("en", "zh"))
        ]
        lines.append(" / ".join(said))
    return lines


@contextmanager
def reported(
    *, as_json: bool = False, language: Language | None = None, reveal_internal: bool = False, **extra: Any
) -> Iterator[None]:
    """Run a command body; any :class:`BatonError` it raises is reported by :func:`fail`."""
    try:
        yield
    except BatonError as exc:
        fail(exc, as_json=as_json, language=language, reveal_internal=reveal_internal, **extra)
