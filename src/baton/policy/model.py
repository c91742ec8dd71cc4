"""The policy file (``policies.yaml``): who may see which tables, columns and rows.

The file is the single source of grants. It is validated strictly (unknown keys are errors)
because a typo in a security file must never silently widen or narrow access.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from baton.errors import ConfigError
from baton.messages import both
from baton.yaml_text import safe_load

if TYPE_CHECKING:
    from baton.policy.principal import Principal

PiiHandling = Literal["deny", "mask", "allow"]
MaskStyle = Literal["full", "phone", "email"]
RunVisibility = Literal["own", "all"]
ALL_COLUMNS = "*"

DEFAULT_MAX_COST = 1.0e11
"""A role's cost budget when its policy names none: the most one query may cost in the engine's
estimate — DuckDB: the estimated rows summed over the plan's operators; PostgreSQL: the plan's total
cost or its largest row estimate, whichever is larger. Measured on a ten-million-row fact table:
the costliest of 60 everyday questions and two analyses is estimated at 3.9×10^10 by DuckDB (a
COUNT(DISTINCT) beside other aggregates, which DuckDB plans as a join it estimates at n²/2),
everything else under 2×10^7, PostgreSQL's at most 3.4×10^6; a self-join of that table on a
low-cardinality column is ~10^13: refused."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PiiColumn(_Strict):
    """A column that holds personal data, and how it looks when masked."""

    mask: MaskStyle = Field(default="full", description="full: ***; phone: 138****1234; email: a***@x.com")


class AggregateOnly(_Strict):
    """A table a role may read only as aggregates (no detail rows).

    ``dimensions`` may be grouped and filtered on; ``measures`` may appear inside aggregate
    functions; any other column only inside ``COUNT(...)`` / ``COUNT(DISTINCT ...)``.

    ``min_group_size`` (k, default 10) is k-anonymity-style suppression: the firewall adds
    ``HAVING COUNT(*) >= k`` to the query level that aggregates the table, so a group built
    from fewer than k rows is silently left out of the result (not refused). Set it to 1 to
    turn suppression off. Within one statement the firewall also refuses differencing (two
    scans of the table, ROLLUP/CUBE/GROUPING SETS, conditions inside aggregates).

    ``max_queries_per_day`` bounds differencing *across* statements (two approved results
    subtracted by the reader): the statements one user may run per 24 hours that read the table
    (None: no budget). Roles only grant: a user holding several roles gets the largest budget any
    of them sets, and none (unlimited) only when a role says ``max_queries_per_day: null``
    explicitly — a role that does not mention it does not lift another role's budget.
    """

    dimensions: tuple[str, ...] = Field(description="columns that may be grouped and filtered on")
    measures: tuple[str, ...] = Field(default=(), description="columns that may be aggregated")
    min_group_size: int = Field(default=10, ge=1, description="groups of fewer rows are left out of results")
    max_queries_per_day: int | None = Field(
        default=None, ge=1, description="statements reading the table one user may run per 24 hours (none: no budget)"
    )


class TableGrant(_Strict):
    """One table granted to a role."""

    columns: tuple[str, ...] | Literal["*"] = Field(default="*", description="the columns it may read")
    row_filter: dict[str, tuple[str, ...]] = Field(
        default_factory=dict, description="column -> allowed values: only those rows are ever read"
    )
    aggregate_only: AggregateOnly | None = Field(default=None, description="only aggregates, never detail rows")

    @field_validator("row_filter")
    @classmethod
    def _non_empty_values(cls, value: dict[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
        for column, allowed in value.items():
            if not allowed:
                raise ValueError(f"row_filter on {column!r} lists no allowed values")
        return value


class Role(_Strict):
    """A named bundle of grants."""

    description: str = Field(default="", description="what the role is for")
    tables: dict[str, TableGrant] = Field(description="table -> what of it the role may read")
    pii: PiiHandling = Field(
        default="mask", description="personal-data columns: masked (shown, never computed on), refused or shown"
    )
    pii_overrides: dict[str, PiiHandling] = Field(default_factory=dict, description="table.column -> its own handling")
    export_detail: bool = Field(default=False, description="may export detail rows")
    runs: RunVisibility = Field(
        default="own",
        description="own: a user sees and continues only their own runs; all: every user's runs as they were "
        "recorded, data included (auditors and admins only)",
    )
    max_rows: int = Field(default=10_000, gt=0, description="most rows one query may return")
    max_cost: float = Field(
        default=DEFAULT_MAX_COST,
        gt=0,
        allow_inf_nan=False,
        description="most estimated cost one query may have (DuckDB: estimated rows summed over the plan; "
        "PostgreSQL: total cost or largest row estimate; Spark: estimated bytes summed over the optimized plan)",
    )

    @field_validator("pii_overrides")
    @classmethod
    def _qualified_names(cls, value: dict[str, PiiHandling]) -> dict[str, PiiHandling]:
        for key in value:
            _split_column(key)
        return value


class User(_Strict):
    """A person (or program) Baton acts for; their grants are the union of their roles'."""

    description: str = Field(default="", description="who it is")
    roles: tuple[str, ...] = Field(min_length=1, description="the roles granted")


class Policy(_Strict):
    """The whole policy file. Use :meth:`principal` to get one user's effective grants."""

    version: str = Field(min_length=1, description="the policy's version (recorded with every run)")
    default_user: str = Field(description="who Baton acts for when no user is named")
    pii_columns: dict[str, PiiColumn] = Field(default_factory=dict, description="table.column -> how it is masked")
    roles: dict[str, Role] = Field(description="role name -> its grants")
    users: dict[str, User] = Field(description="user name -> its roles")

    @field_validator("pii_columns")
    @classmethod
    def _pii_names(cls, value: dict[str, PiiColumn]) -> dict[str, PiiColumn]:
        for key in value:
            _split_column(key)
        return value

    @model_validator(mode="after")
    def _references_resolve(self) -> Policy:
        if self.default_user not in self.users:
            raise ValueError(f"default_user {self.default_user!r} is not listed under users")
        for name, user in self.users.items():
            for role_name in user.roles:
                if role_name not in self.roles:
                    raise ValueError(f"user {name!r} has unknown role {role_name!r}")
        for role_name, role_spec in self.roles.items():
            for key in role_spec.pii_overrides:
                if key not in self.pii_columns:
                    raise ValueError(f"role {role_name!r}: pii_overrides names {key!r}, not a pii column")
        return self

    def principal(self, user: str) -> Principal:
        """The effective grants of ``user``; an unknown user is PermissionDenied."""
        from baton.policy.principal import resolve_principal

        return resolve_principal(self, user)


def _split_column(qualified: str) -> tuple[str, str]:
    table, dot, column = qualified.partition(".")
    if not dot or not table or not column or "." in column:
        raise ValueError(f"{qualified!r} must be written table.column")
    return table, column


def split_column(qualified: str) -> tuple[str, str]:
    """``"customers.phone"`` -> ``("customers", "phone")``."""
    return _split_column(qualified)


def load_policy(path: Path) -> Policy:
    """Read and validate a policy file; any problem is a ConfigError naming file and field."""
    try:
        raw = safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(
            *both("policy.cannot_read", path=path, error=exc),
            detail={"file": str(path)},
        ) from exc
    except yaml.YAMLError as exc:
        raise ConfigError(
            *both("policy.not_yaml", path=path, error=exc),
            detail={"file": str(path)},
        ) from exc
    if not isinstance(raw, dict):
        raise ConfigError(
            *both("policy.not_mapping", path=path),
            detail={"file": str(path)},
        )
    try:
        return Policy.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise ConfigError(
            *both("policy.bad_field", path=path, field=field, error=first["msg"]),
            detail={"file": str(path), "field": field, "errors": len(exc.errors())},
        ) from exc
