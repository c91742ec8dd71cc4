"""Per-user query budgets on aggregate-only tables and per-role cost budgets.

Differencing across queries (two approved aggregates subtracted by the reader) cannot be
stopped inside one statement; a daily budget of statements on aggregate-only tables bounds it.
The caller counts the user's executed statements on those tables in the last 24 hours.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from baton.errors import FirewallError
from baton.policy import Policy, load_policy
from baton.policy.model import DEFAULT_MAX_COST
from baton.sql import check_aggregate_query_budget

DEMO = Path(__file__).resolve().parents[2] / "src" / "baton" / "demo" / "data" / "policies.yaml"


def _policy(*grants: dict[str, Any]) -> Policy:
    """One user holding one role per grant of fact_order."""
    roles = {f"r{i}": {"tables": {"fact_order": grant, "fact_traffic": {}}} for i, grant in enumerate(grants)}
    return Policy.model_validate(
        {"version": "t", "default_user": "u", "roles": roles, "users": {"u": {"roles": list(roles)}}}
    )


def _aggregate(**extra: Any) -> dict[str, Any]:
    return {"aggregate_only": {"dimensions": ["region"], "measures": ["gmv_amount"], **extra}}


def _budget(policy: Policy) -> int | None:
    return policy.principal("u").aggregate_only["fact_order"].max_queries_per_day


def test_the_demo_gives_marketing_a_daily_budget() -> None:
    marketing = load_policy(DEMO).principal("marketing")
    assert marketing.aggregate_only["fact_order"].max_queries_per_day == 500


@pytest.mark.parametrize(
    ("grants", "expected"),
    [
        ((_aggregate(),), None),  # nobody set one: no budget
        ((_aggregate(max_queries_per_day=50),), 50),
        ((_aggregate(max_queries_per_day=50), _aggregate(max_queries_per_day=200)), 200),  # roles only grant
        ((_aggregate(max_queries_per_day=50), _aggregate()), 50),  # a role silent on it does not lift it
        ((_aggregate(max_queries_per_day=50), _aggregate(max_queries_per_day=None)), None),  # said explicitly
        ((_aggregate(max_queries_per_day=50), {}), "detail"),  # a role reads detail rows: no aggregate rule at all
    ],
)
def test_budgets_merge_to_the_largest_and_unlimited_only_when_a_role_says_so(
    grants: tuple[dict[str, Any], ...], expected: int | str | None
) -> None:
    policy = _policy(*grants)
    if expected == "detail":
        assert "fact_order" not in policy.principal("u").aggregate_only
    else:
        assert _budget(policy) == expected


def test_a_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        _policy(_aggregate(max_queries_per_day=0))


def test_the_budget_check_refuses_once_the_days_budget_is_used() -> None:
    principal = _policy(_aggregate(max_queries_per_day=3)).principal("u")
    for used in (0, 1, 2):
        check_aggregate_query_budget(principal, ["fact_order", "fact_traffic"], used_today=used)
    with pytest.raises(FirewallError) as caught:
        check_aggregate_query_budget(principal, ["fact_traffic", "fact_order"], used_today=3)
    error = caught.value
    assert error.error_code == "query_budget_exceeded"
    assert error.detail["table"] == "fact_order" and error.detail["budget"] == 3 and error.detail["used"] == 3
    assert "Not permitted" in error.message("en") and "不允许" in error.message("zh")
    assert "fact_order" in error.message("zh")


def test_tables_without_a_budget_are_never_refused() -> None:
    unlimited = _policy(_aggregate()).principal("u")
    check_aggregate_query_budget(unlimited, ["fact_order"], used_today=10**9)
    budgeted = _policy(_aggregate(max_queries_per_day=1)).principal("u")
    check_aggregate_query_budget(budgeted, ["fact_traffic"], used_today=10**9)  # not an aggregate-only table
    check_aggregate_query_budget(budgeted, [], used_today=10**9)


def test_a_negative_count_is_a_programming_error() -> None:
    budgeted = _policy(_aggregate(max_queries_per_day=1)).principal("u")
    with pytest.raises(ValueError):
        check_aggregate_query_budget(budgeted, ["fact_order"], used_today=-1)


def test_every_role_has_a_cost_budget() -> None:
    policy = _policy({})
    assert policy.roles["r0"].max_cost == DEFAULT_MAX_COST and math.isfinite(DEFAULT_MAX_COST)
    assert policy.principal("u").max_cost == DEFAULT_MAX_COST
    with pytest.raises(ValueError):
        Policy.model_validate(
            {
                "version": "t",
                "default_user": "u",
                "roles": {"r": {"tables": {}, "max_cost": float("inf")}},
                "users": {"u": {"roles": ["r"]}},
            }
        )


def test_the_largest_cost_budget_of_a_users_roles_applies() -> None:
    policy = Policy.model_validate(
        {
            "version": "t",
            "default_user": "u",
            "roles": {"small": {"tables": {}, "max_cost": 10.0}, "large": {"tables": {}, "max_cost": 1e12}},
            "users": {"u": {"roles": ["small", "large"]}},
        }
    )
    assert policy.principal("u").max_cost == 1e12
