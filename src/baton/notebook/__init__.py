"""Baton in a notebook: an Answer shows itself (HTML, Markdown), reports, draws its chart and
converts its result to pandas, Arrow or polars.

:func:`register` hands :class:`~baton.contracts.answer.Answer` a loader for the presenter;
``import baton`` calls it. Nothing heavy loads until an answer is first displayed or
converted: not the report, the chart renderer, pandas, pyarrow or polars.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from baton.contracts.answer import Answer

if TYPE_CHECKING:
    from baton.contracts.answer import AnswerPresenter


def _load() -> AnswerPresenter:
    from baton.notebook.presenter import PRESENTER

    return PRESENTER


def register() -> None:
    """Make answers display and convert through :mod:`baton.notebook.presenter`."""
    Answer.use_presenter(_load)


def remember_catalog(answer: Answer, catalog: Any) -> None:
    """Label ``answer``'s display with ``catalog`` (e.g. ``session.catalog``): member and
    column labels, units and currency instead of the codes the Answer carries."""
    from baton.notebook.presenter import remember_catalog as remember

    remember(answer, catalog)


__all__ = ["register", "remember_catalog"]
