"""The Python API behind the `baton` facade: one-shot questions on a short-lived Session."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session


def _session(config: Path | str | None, user: str | None) -> Session:
    from baton.demo.generator import build_demo  # the default demo, built on first use

    return Session(config=config, user=user, build_default=build_demo)


def ask(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Answer a metric question. Never raises for a bad question: the Answer carries the status.

    For many questions, open one :class:`baton.Session` and call ``session.ask`` instead."""
    with _session(config, user) as session:
        return session.ask(question, as_of=as_of)


def analyze(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Explain why a metric moved (the analysis relay). Never raises for a bad question."""
    with _session(config, user) as session:
        return session.analyze(question, as_of=as_of)
