"""The Python API behind the `baton` facade."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from baton.config import resolve_config
from baton.contracts.answer import Answer


def ask(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Answer a metric question. Never raises for a bad question: the Answer carries the status."""
    from baton.demo.generator import build_demo
    from baton.orchestrator.ask import ask as run_ask
    from baton.orchestrator.session import Session

    settings = resolve_config(Path(config) if config is not None else None, build_default=build_demo)
    session = Session(settings)
    try:
        return run_ask(session, question, as_of=as_of, user=user)
    finally:
        session.close()


def analyze(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Explain why a metric moved (the analysis relay). Never raises for a bad question."""
    from baton.orchestrator.analyze import analyze as run_analyze

    return run_analyze(question, as_of=as_of, user=user, config=config)
