"""Policies: users, roles, grants, row filters and PII handling (``policies.yaml``)."""

from baton.policy.model import (
    ALL_COLUMNS,
    AggregateOnly,
    PiiColumn,
    Policy,
    Role,
    TableGrant,
    User,
    load_policy,
    split_column,
)
from baton.policy.principal import AggregateRule, Principal, resolve_principal

__all__ = [
    "ALL_COLUMNS",
    "AggregateOnly",
    "AggregateRule",
    "PiiColumn",
    "Policy",
    "Principal",
    "Role",
    "TableGrant",
    "User",
    "load_policy",
    "resolve_principal",
    "split_column",
]
