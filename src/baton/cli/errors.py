"""The one place the ``baton`` command turns an error into output and an exit code.

Every subcommand reports a :class:`BatonError` through :func:`fail` (directly or with the
:func:`reported` context manager): one line on standard error (``code: message`` in the
user's language, or both languages when there is no question to tell it by), or
``{"error": {...}}`` on standard output with ``--json``; the exit code comes from
:func:`baton.errors.exit_code`. No stack trace reaches a user.
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
    """``code: message`` (both languages when ``language`` is None), markup-escaped."""
    from rich.markup import escape

    message = exc.message(language) if language is not None else f"{exc.message('en')} / {exc.message('zh')}"
    return f"[red]{exc.error_code}[/red]: {escape(message)}"


def fail(exc: BatonError, *, as_json: bool = False, language: Language | None = None, **extra: Any) -> NoReturn:
    """Report ``exc`` and exit with its code (``extra`` joins the JSON object, e.g. a verdict)."""
    if as_json:
        print(json.dumps({**extra, "error": exc.to_dict(language or "en")}, ensure_ascii=False, indent=2))
    else:
        from rich.console import Console

        Console(stderr=True, highlight=False).print(error_line(exc, language))
    raise typer.Exit(exit_code(exc))


@contextmanager
def reported(*, as_json: bool = False, language: Language | None = None, **extra: Any) -> Iterator[None]:
    """Run a command body; any :class:`BatonError` it raises is reported by :func:`fail`."""
    try:
        yield
    except BatonError as exc:
        fail(exc, as_json=as_json, language=language, **extra)
