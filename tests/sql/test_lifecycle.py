"""The approval registry: only approved ids run, bound to their user, until they expire."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from baton.policy import load_policy
from baton.sql import ApprovalRegistry, FirewallError, approve
from tests.redteam.warehouse import SCHEMA

DEMO = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "policies.yaml"
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)


def test_registry_enforces_existence_owner_and_expiry() -> None:
    policy = load_policy(DEMO)
    registry = ApprovalRegistry()
    approved = approve("SELECT 1 AS x", principal=policy.principal("analyst"), schema=SCHEMA, ttl_seconds=60, now=NOW)
    approved_id = registry.register(approved)
    assert registry.take(approved_id, "analyst", now=NOW + timedelta(seconds=30)) == approved
    assert registry.take(approved_id, "analyst", now=NOW + timedelta(seconds=31)) == approved  # reusable until expiry

    cases = [
        ("0" * 64, "analyst", NOW, "approval_not_found"),
        (approved_id, "marketing", NOW, "approval_wrong_user"),
        (approved_id, "analyst", NOW + timedelta(seconds=60), "approval_expired"),
    ]
    for key, user, moment, code in cases:
        with pytest.raises(FirewallError) as caught:
            registry.take(key, user, now=moment)
        assert caught.value.error_code == code
        assert "not permitted" in caught.value.message("en").lower()
    assert len(registry) == 0  # the expired approval was dropped


def test_purge_drops_only_expired_approvals() -> None:
    policy = load_policy(DEMO)
    registry = ApprovalRegistry()
    short = approve("SELECT 1 AS a", principal=policy.principal("analyst"), schema=SCHEMA, ttl_seconds=10, now=NOW)
    long = approve("SELECT 2 AS b", principal=policy.principal("analyst"), schema=SCHEMA, ttl_seconds=1000, now=NOW)
    registry.register(short)
    registry.register(long)
    assert registry.purge_expired(now=NOW + timedelta(seconds=11)) == 1
    assert registry.take(long.approved_sql_id, "analyst", now=NOW) == long


def test_a_remembered_verdict_is_recalled_by_its_key_while_it_has_time_left() -> None:
    """The governed path keys a verdict by statement, user, grants, policy and limits: the same key
    recalls it until a minute before it expires; another key (a changed grant) recalls nothing."""
    policy = load_policy(DEMO)
    registry = ApprovalRegistry()
    analyst = policy.principal("analyst")
    approved = approve("SELECT 1 AS x", principal=analyst, schema=SCHEMA, ttl_seconds=300, now=NOW)
    key = ("SELECT 1 AS x", "analyst", analyst.grants_fingerprint(), analyst.policy_version)
    registry.remember(key, approved)
    assert registry.recall(key, now=NOW + timedelta(seconds=200)) is approved
    assert registry.recall(key, now=NOW + timedelta(seconds=241)) is None  # under a minute left: approve again
    other = policy.principal("marketing")
    assert (
        registry.recall(("SELECT 1 AS x", "marketing", other.grants_fingerprint(), other.policy_version), now=NOW)
        is None
    )


def test_the_governed_path_reuses_a_verdict_only_for_the_same_user_and_grants(demo_dir: Path) -> None:
    """Two asks of one question approve its statements once per user: the second analyst run
    reuses the verdicts, a marketing run gets its own (row limits, suppression, another fingerprint)."""
    from baton.orchestrator.session import Session

    with Session(config=demo_dir / "baton.toml", remember=False) as session:
        first = session.governed("analyst", "en").approve("SELECT COUNT(*) AS n FROM dim_product", name="q")
        again = session.governed("analyst", "en").approve("SELECT COUNT(*) AS n FROM dim_product", name="q")
        other = session.governed("marketing", "en")
        assert again is first
        with pytest.raises(FirewallError):  # marketing may not read dim_product: never the analyst's verdict
            other.approve("SELECT COUNT(*) AS n FROM dim_product", name="q")
