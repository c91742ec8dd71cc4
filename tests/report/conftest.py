"""Answers the report tests share: asked once per session on the real demo warehouse."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)


@pytest.fixture(scope="session")
def daily_zh(demo_session: Session) -> Answer:
    return demo_session.ask("上个月每天的GMV", as_of=AS_OF)


@pytest.fixture(scope="session")
def channel_zh(demo_session: Session) -> Answer:
    return demo_session.ask("上个月各渠道GMV环比", as_of=AS_OF)


@pytest.fixture(scope="session")
def region_en(demo_session: Session) -> Answer:
    return demo_session.ask("GMV by region last month", as_of=AS_OF)


@pytest.fixture(scope="session")
def single_zh(demo_session: Session) -> Answer:
    return demo_session.ask("上个月转化率", as_of=AS_OF)


@pytest.fixture(scope="session")
def analysis_session(small_demo_dir: Path) -> Iterator[Session]:
    session = Session(load_settings(small_demo_dir / "baton.toml"))
    yield session
    session.close()


def _analysed(session: Session, question: str) -> Answer:
    answer = session.analyze(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.sections, answer.answer
    return answer


@pytest.fixture(scope="session")
def why_zh(analysis_session: Session) -> Answer:
    """A real analysis report (Chinese): drivers, tests, quality flags, excluded paths."""
    return _analysed(analysis_session, "为什么2026年6月的GMV下降了？")


@pytest.fixture(scope="session")
def why_en(analysis_session: Session) -> Answer:
    return _analysed(analysis_session, "Why did GMV fall in June 2026?")
