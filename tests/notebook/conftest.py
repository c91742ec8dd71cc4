"""Answers the notebook tests share: asked once per session on the real demo warehouse."""

from __future__ import annotations

from datetime import date

import pytest

from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

AS_OF = date(2026, 7, 1)
CHANNEL_QUESTION = "上个月各渠道的GMV是多少？"


@pytest.fixture(scope="session")
def channel_zh(demo_session: Session) -> Answer:
    """GMV by channel for June 2026 (a breakdown with a bar chart), in Chinese."""
    return demo_session.ask(CHANNEL_QUESTION, as_of=AS_OF)


@pytest.fixture(scope="session")
def monthly_en(demo_session: Session) -> Answer:
    """Monthly GMV, first half of 2026 (a DATE column), in English."""
    return demo_session.ask("GMV by month in the first half of 2026", as_of=AS_OF)


@pytest.fixture(scope="session")
def orders_zh(demo_session: Session) -> Answer:
    """Orders by channel last month (a BIGINT column)."""
    return demo_session.ask("上个月各渠道的订单数", as_of=AS_OF)


@pytest.fixture(scope="session")
def analysis_zh(demo_session: Session) -> Answer:
    """Why East China's orders fell in June 2026: an analysis, drivers and no result table."""
    return demo_session.analyze("为什么6月华东的订单量下降了", as_of=AS_OF)
