"""A statement the firewall refuses never reaches Spark: the server's own query history shows
the allowed control sent after it, and never the refused one."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.orchestrator.session import Session
from tests.spark_server import QueryHistory

pytestmark = pytest.mark.spark


def _canary(kind: str) -> str:
    return f"baton_canary_{kind}_{uuid.uuid4().hex}"


@pytest.mark.parametrize(
    ("user", "template", "code"),
    [
        # Spark would run both: marketing has no grant on dim_user; east_manager may not read phone (pii: deny)
        ("marketing", "SELECT count(*) AS n FROM dim_user WHERE city <> '{canary}'", "table_not_permitted"),
        ("east_manager", "SELECT phone FROM dim_user WHERE phone = '{canary}'", "pii_denied"),
    ],
)
def test_refused_statement_never_reaches_spark(
    spark_small_demo_dir: Path, spark_history: QueryHistory, user: str, template: str, code: str
) -> None:
    refused, control = _canary("refused"), _canary("control")
    with Session(load_settings(spark_small_demo_dir / "baton.toml")) as session:
        answer = session.sql(template.format(canary=refused), user=user)
        assert answer.status == "refused" and answer.error is not None, answer
        assert answer.error.code == code, answer.error
        allowed = session.sql(
            f"SELECT count(*) AS n FROM dim_product WHERE product_name <> '{control}'", user="analyst"
        )
        assert allowed.status == "answered", allowed.error
    # the history is ordered: once the later control shows, the refused one would have too
    assert spark_history.wait_seen(control, timeout=30), "the allowed control never showed in the history"
    assert not spark_history.seen(refused)
