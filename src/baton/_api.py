"""The Python API behind the `baton` facade: resolve the config, open a session, run, close."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from pathlib import Path

from baton.config import resolve_config
from baton.contracts.answer import Answer


def _run_question(
    run: Callable[..., Answer], question: str, as_of: date | None, user: str | None, config: Path | str | None
) -> Answer:
    from baton.demo.generator import build_demo
    from baton.orchestrator.session import Session

    settings = resolve_config(Path(config) if config is not None else None, build_default=build_demo)
    session = Session(settings)
    try:
        return run(session, question, as_of=as_of, user=user)
    finally:
        session.close()


def ask(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Answer a metric question. Never raises for a bad question: the Answer carries the status."""
    from baton.orchestrator.ask import ask as run_ask

    return _run_question(run_ask, question, as_of, user, config)


def analyze(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Explain why a metric moved (the analysis relay). Never raises for a bad question."""
    from baton.orchestrator.analyze import analyze_session

    return _run_question(analyze_session, question, as_of, user, config)
