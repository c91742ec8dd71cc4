"""A user's effective grants, merged from all their roles.

Roles only ever grant: a user with two roles sees the union. Where a union cannot be
expressed safely (row filters on different columns of one table) the policy is refused
rather than guessed, so a misconfiguration fails closed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from baton.errors import ConfigError, PermissionDenied
from baton.messages import both
from baton.policy.model import (
    ALL_COLUMNS,
    DEFAULT_MAX_COST,
    AggregateOnly,
    MaskStyle,
    Policy,
    Role,
    TableGrant,
    split_column,
)

PiiRule = Literal["deny", "mask"]


@dataclass(frozen=True)
class AggregateRule:
    """How an aggregate-only table may be read (see :class:`baton.policy.model.AggregateOnly`)."""

    dimensions: frozenset[str]
    measures: frozenset[str]
    min_group_size: int = 1
    max_queries_per_day: int | None = None


@dataclass(frozen=True)
class Principal:
    """What one user may see. ``tables[t]`` is the allowed column set, ``{"*"}`` meaning all."""

    user: str
    roles: tuple[str, ...]
    policy_version: str
    tables: Mapping[str, frozenset[str]]
    row_filters: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    pii: Mapping[tuple[str, str], PiiRule] = field(default_factory=dict)
    mask_styles: Mapping[tuple[str, str], MaskStyle] = field(default_factory=dict)
    aggregate_only: Mapping[str, AggregateRule] = field(default_factory=dict)
    can_export_detail: bool = False
    sees_all_runs: bool = False
    max_rows: int = 10_000
    max_cost: float = DEFAULT_MAX_COST

    def can_read_table(self, table: str) -> bool:
        return table in self.tables

    def can_read_column(self, table: str, column: str) -> bool:
        """Granted and not denied as PII."""
        allowed = self.tables.get(table)
        if allowed is None:
            return False
        if self.pii.get((table, column)) == "deny":
            return False
        return ALL_COLUMNS in allowed or column in allowed

    def column_granted(self, table: str, column: str) -> bool:
        """Granted by the table grant, ignoring PII handling."""
        allowed = self.tables.get(table)
        return allowed is not None and (ALL_COLUMNS in allowed or column in allowed)

    def readable_columns(self, table: str, catalog_columns: list[str]) -> list[str]:
        """The catalog's columns of ``table`` this user may read, in catalog order."""
        return [column for column in catalog_columns if self.can_read_column(table, column)]

    def grants_fingerprint(self) -> str:
        """A stable hash of everything that shapes what a query returns for this user."""
        payload = {
            "tables": {t: sorted(cols) for t, cols in sorted(self.tables.items())},
            "row_filters": {t: {c: list(v) for c, v in sorted(f.items())} for t, f in sorted(self.row_filters.items())},
            "pii": sorted(f"{t}.{c}={rule}" for (t, c), rule in self.pii.items()),
            "masks": sorted(f"{t}.{c}={style}" for (t, c), style in self.mask_styles.items()),
            "aggregate_only": {
                t: [sorted(rule.dimensions), sorted(rule.measures), rule.min_group_size, rule.max_queries_per_day]
                for t, rule in sorted(self.aggregate_only.items())
            },
            "max_rows": self.max_rows,
            "max_cost": self.max_cost,
            "policy_version": self.policy_version,
        }
        text = json.dumps(payload, ensure_ascii=False, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def resolve_principal(policy: Policy, user: str) -> Principal:
    """Merge the roles of ``user`` into one Principal."""
    spec = policy.users.get(user)
    if spec is None:
        raise PermissionDenied(
            *both("policy.unknown_user", user=user, version=policy.version),
            detail={"user": user, "policy_version": policy.version},
        )
    roles = [policy.roles[name] for name in spec.roles]
    grants_by_table: dict[str, list[TableGrant]] = {}
    for role in roles:
        for table, grant in role.tables.items():
            grants_by_table.setdefault(table, []).append(grant)

    tables = {table: _merge_columns(grants) for table, grants in grants_by_table.items()}
    row_filters: dict[str, dict[str, tuple[str, ...]]] = {}
    for table, grants in grants_by_table.items():
        merged = _merge_row_filters(user, table, grants)
        if merged:
            row_filters[table] = merged
    aggregate_only: dict[str, AggregateRule] = {}
    for table, grants in grants_by_table.items():
        rule = _merge_aggregate_only(grants)
        if rule is not None:
            aggregate_only[table] = rule

    pii: dict[tuple[str, str], PiiRule] = {}
    masks: dict[tuple[str, str], MaskStyle] = {}
    for key, column_spec in policy.pii_columns.items():
        table, column = split_column(key)
        masks[(table, column)] = column_spec.mask
        handling = _merge_pii(roles, table, key)
        if handling != "allow":
            pii[(table, column)] = handling

    return Principal(
        user=user,
        roles=tuple(spec.roles),
        policy_version=policy.version,
        tables=tables,
        row_filters=row_filters,
        pii=pii,
        mask_styles=masks,
        aggregate_only=aggregate_only,
        can_export_detail=any(role.export_detail for role in roles),
        sees_all_runs=any(role.runs == "all" for role in roles),
        max_rows=max(role.max_rows for role in roles),
        max_cost=max(role.max_cost for role in roles),  # roles only grant: the largest budget
    )


def _merge_columns(grants: list[TableGrant]) -> frozenset[str]:
    columns: set[str] = set()
    for grant in grants:
        if grant.columns == ALL_COLUMNS:
            return frozenset({ALL_COLUMNS})
        columns.update(grant.columns)
    return frozenset(columns)


def _merge_row_filters(user: str, table: str, grants: list[TableGrant]) -> dict[str, tuple[str, ...]]:
    if any(not grant.row_filter for grant in grants):
        return {}  # one role sees every row
    if len(grants) == 1:
        return dict(grants[0].row_filter)
    columns = {tuple(sorted(grant.row_filter)) for grant in grants}
    if len(columns) != 1 or len(next(iter(columns))) != 1:
        raise ConfigError(
            *both("policy.row_filters_conflict", user=user, table=table),
            detail={"user": user, "table": table},
        )
    (column,) = next(iter(columns))
    values: list[str] = []
    for grant in grants:
        values.extend(v for v in grant.row_filter[column] if v not in values)
    return {column: tuple(values)}


def _merge_aggregate_only(grants: list[TableGrant]) -> AggregateRule | None:
    rules: list[AggregateOnly] = []
    for grant in grants:
        if grant.aggregate_only is None:
            return None  # one role may read detail rows
        rules.append(grant.aggregate_only)
    return AggregateRule(
        dimensions=frozenset(d for rule in rules for d in rule.dimensions),
        measures=frozenset(m for rule in rules for m in rule.measures),
        min_group_size=min(rule.min_group_size for rule in rules),  # roles only grant: the smallest k
        max_queries_per_day=_merge_query_budgets(rules),
    )


def _merge_query_budgets(rules: list[AggregateOnly]) -> int | None:
    """The largest daily budget the roles set; None (no budget) when none sets one, or when a role
    says ``max_queries_per_day: null`` explicitly (a role silent on it does not lift the others')."""
    stated = [rule.max_queries_per_day for rule in rules if "max_queries_per_day" in rule.model_fields_set]
    if not stated or any(budget is None for budget in stated):
        return None
    return max(budget for budget in stated if budget is not None)


def _merge_pii(roles: list[Role], table: str, key: str) -> Literal["deny", "mask", "allow"]:
    """The most permissive handling among roles that grant the table (roles only grant)."""
    rank = {"deny": 0, "mask": 1, "allow": 2}
    best: Literal["deny", "mask", "allow"] = "deny"
    for role in roles:
        if table not in role.tables:
            continue
        handling = role.pii_overrides.get(key, role.pii)
        if rank[handling] > rank[best]:
            best = handling
    return best
