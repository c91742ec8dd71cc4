"""Answers the report tests share: asked once per session on the real demo warehouse."""

from __future__ import annotations

from datetime import date

import pytest

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
