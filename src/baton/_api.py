"""The Python API behind the `baton` facade: one-shot questions on a short-lived Session."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from pathlib import Path

from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.notebook import remember_catalog
from baton.orchestrator.session import Session


def _session(config: Path | str | None, user: str | None) -> Session:
    from baton.demo.generator import build_demo  # the default demo, built on first use

    return Session(config=config, user=user, build_default=build_demo)


def _labelled(answer: Answer, session: Session) -> Answer:
    """``answer``, shown in a notebook with its catalog's labels, units and currency."""
    remember_catalog(answer, session.catalog)
    return answer


def ask(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Answer a metric question. Never raises for a bad question: the Answer carries the status.

    For many questions, open one :class:`baton.Session` and call ``session.ask`` instead."""
    with _session(config, user) as session:
        return _labelled(session.ask(question, as_of=as_of), session)


def analyze(
    question: str, *, as_of: date | None = None, user: str | None = None, config: Path | str | None = None
) -> Answer:
    """Explain why a metric moved (the analysis relay). Never raises for a bad question."""
    with _session(config, user) as session:
        return _labelled(session.analyze(question, as_of=as_of), session)


def query(
    metrics: str | Sequence[str],
    *,
    group_by: str | Sequence[str] = (),
    where: str | Sequence[str] = (),
    start_time: date | None = None,
    end_time: date | None = None,
    order: str | Sequence[str] = (),
    limit: int | None = None,
    as_of: date | None = None,
    user: str | None = None,
    language: Language = "en",
    config: Path | str | None = None,
) -> Answer:
    """A semantic-layer query by catalog names (MetricFlow's ``mf query``), governed like
    :func:`ask`. Never raises for a bad request: the Answer carries the status."""
    with _session(config, user) as session:
        answer = session.query(
            metrics,
            group_by=group_by,
            where=where,
            start_time=start_time,
            end_time=end_time,
            order=order,
            limit=limit,
            as_of=as_of,
            language=language,
        )
        return _labelled(answer, session)
