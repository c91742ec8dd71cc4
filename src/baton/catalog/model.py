"""The semantic model: what a metric *means*, as data.

The catalog is the only place a metric's definition (口径) lives; the compiler, the planner
and the report all read it from here, so a definition cannot drift between them. It also
holds everything analysis must know about a warehouse: metric trees (how a metric factors
into other metrics), where each table's freshness comes from (a load log, or the newest
value of its time column), a calendar of known events, keys, and currencies.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from baton.contracts.common import Bilingual, CalendarEvent, Unit

FreshnessSource = Literal["load_log", "max_time"]
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_FACTOR_SPLIT = re.compile(r"\s*[*×]\s*")

__all__ = [
    "Bilingual",
    "CalendarEvent",
    "Catalog",
    "Dimension",
    "FreshnessSource",
    "LoadLog",
    "Measure",
    "Member",
    "Metric",
    "Table",
    "Unit",
]


class Member(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual
    synonyms: tuple[str, ...] = ()


class Dimension(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual
    synonyms: tuple[str, ...] = ()
    columns: dict[str, str] = Field(description="table -> column that carries this dimension")
    members: dict[str, Member] = Field(default_factory=dict)


class Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual
    time_column: str | None = None
    freshness: FreshnessSource | None = Field(
        default=None,
        description="load_log: the catalog's load log says when it was loaded and up to which date; "
        "max_time: the newest value of time_column (default when the table has one)",
    )
    freshness_key: str | None = Field(default=None, description="the table's name in the load log (default: its own)")
    large: bool = Field(default=False, description="queries must filter on time_column (partition filter)")
    primary_key: tuple[str, ...] = Field(default=(), description="columns that identify a row (duplicate check)")
    updated_column: str | None = Field(
        default=None, description="a last-modified timestamp column (late-arriving data check)"
    )


class LoadLog(BaseModel):
    """A table the loading jobs write after each load: one row per loaded table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str
    table_column: str = "table_name"
    loaded_at_column: str = "loaded_at"
    max_date_column: str = "max_data_date"


class Measure(BaseModel):
    """An aggregate over one table: the leaf every metric compiles to."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str
    expression: str
    filters: tuple[str, ...] = ()


class Metric(BaseModel):
    """A simple metric (table + expression) or a ratio of two measures/metrics."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = ""
    label: Bilingual
    synonyms: tuple[str, ...] = ()
    description: Bilingual
    table: str | None = None
    expression: str | None = None
    filters: tuple[str, ...] = ()
    time_dimension: str | None = None
    numerator: str | Measure | None = None
    denominator: str | Measure | None = None
    dimensions: tuple[str, ...] = ()
    unit: Unit = "number"
    better: Literal["higher", "lower"] | None = Field(
        default=None, description="which way is good: what 'best' and 'worst' rank by (undeclared: asked back)"
    )
    currency: str | None = Field(default=None, description="ISO 4217 code of a currency metric (default: catalog's)")
    tree: tuple[tuple[str, ...], ...] = Field(
        default=(),
        description="decompositions into catalog metrics, e.g. 'sessions * conversion * order_value'; "
        "the first whose metrics all support the question's dimensions is used",
    )
    owner: str

    @field_validator("tree", mode="before")
    @classmethod
    def _parse_tree(cls, value: object) -> object:
        if isinstance(value, str):
            value = [value]
        if isinstance(value, list | tuple):
            return tuple(
                tuple(p for p in _FACTOR_SPLIT.split(item.strip()) if p) if isinstance(item, str) else item
                for item in value
            )
        return value

    @field_validator("currency")
    @classmethod
    def _iso_currency(cls, value: str | None) -> str | None:
        if value is not None and not _CURRENCY.match(value):
            raise ValueError(f"currency must be an ISO 4217 code like CNY or USD, got {value!r}")
        return value

    @model_validator(mode="after")
    def _simple_or_ratio(self) -> Metric:
        simple = self.table is not None or self.expression is not None
        ratio = self.numerator is not None or self.denominator is not None
        if simple == ratio:
            raise ValueError("a metric is either simple (table + expression) or a ratio (numerator + denominator)")
        if simple and (self.table is None or self.expression is None):
            raise ValueError("a simple metric needs both table and expression")
        if ratio and (self.numerator is None or self.denominator is None):
            raise ValueError("a ratio metric needs both numerator and denominator")
        return self

    @property
    def is_ratio(self) -> bool:
        return self.numerator is not None


class Catalog(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    version: int = 1
    name: str
    description: Bilingual | None = None
    as_of_default: date | None = None
    currency: str | None = Field(default=None, description="ISO 4217 code of every currency metric without its own")
    load_log: LoadLog | None = None
    calendar: tuple[CalendarEvent, ...] = ()
    tables: dict[str, Table]
    dimensions: dict[str, Dimension]
    metrics: dict[str, Metric]

    @field_validator("currency")
    @classmethod
    def _iso_currency(cls, value: str | None) -> str | None:
        if value is not None and not _CURRENCY.match(value):
            raise ValueError(f"currency must be an ISO 4217 code like CNY or USD, got {value!r}")
        return value

    @model_validator(mode="after")
    def _references_resolve(self) -> Catalog:
        for dim_name, dim in self.dimensions.items():
            for table in dim.columns:
                if table not in self.tables:
                    raise ValueError(f"dimension {dim_name!r} names unknown table {table!r}")
        for name, metric in self.metrics.items():
            object.__setattr__(metric, "name", name)
            for dim_name in metric.dimensions:
                if dim_name not in self.dimensions:
                    raise ValueError(f"metric {name!r} allows unknown dimension {dim_name!r}")
            if metric.table is not None and metric.table not in self.tables:
                raise ValueError(f"metric {name!r} reads unknown table {metric.table!r}")
            for part in (metric.numerator, metric.denominator):
                if isinstance(part, str):
                    ref = self.metrics.get(part)
                    if ref is None:
                        raise ValueError(f"metric {name!r} refers to unknown metric {part!r}")
                    if ref.is_ratio:
                        raise ValueError(f"metric {name!r}: a ratio's parts must be simple metrics ({part!r})")
                elif isinstance(part, Measure) and part.table not in self.tables:
                    raise ValueError(f"metric {name!r} reads unknown table {part.table!r}")
            for table in self.tables_of(name):
                for dim_name in metric.dimensions:
                    if table not in self.dimensions[dim_name].columns:
                        raise ValueError(f"metric {name!r}: dimension {dim_name!r} has no column in table {table!r}")
        for name, metric in self.metrics.items():
            for factors in metric.tree:
                self._check_tree(name, factors)
        for table_name, info in self.tables.items():
            if info.freshness == "load_log" and self.load_log is None:
                raise ValueError(f"table {table_name!r} takes its freshness from the load log, but none is declared")
            if info.freshness == "max_time" and info.time_column is None:
                raise ValueError(f"table {table_name!r}: freshness max_time needs a time_column")
        return self

    def _check_tree(self, name: str, factors: tuple[str, ...]) -> None:
        """A tree's factors must be catalog metrics whose product is the metric itself
        (numerators and denominators cancel: a × b/a × c/b = c)."""
        if len(factors) < 2:
            raise ValueError(f"metric {name!r}: a tree needs at least two factors, got {list(factors)}")
        power: Counter[str] = Counter()
        for factor in factors:
            ref = self.metrics.get(factor)
            if ref is None:
                raise ValueError(f"metric {name!r}: tree factor {factor!r} is not a catalog metric")
            if ref.is_ratio:
                if not (isinstance(ref.numerator, str) and isinstance(ref.denominator, str)):
                    raise ValueError(f"metric {name!r}: tree factor {factor!r} must be a ratio of two named metrics")
                power[ref.numerator] += 1
                power[ref.denominator] -= 1
            else:
                power[factor] += 1
        left = {k: v for k, v in power.items() if v != 0}
        if left != {name: 1}:
            raise ValueError(
                f"metric {name!r}: the tree {' * '.join(factors)} does not multiply out to {name!r} (left over: {left})"
            )

    def measures_of(self, metric_name: str) -> tuple[Measure, ...]:
        """The leaf measures a metric needs: one for a simple metric, two for a ratio."""
        metric = self.metrics[metric_name]
        if not metric.is_ratio:
            assert metric.table is not None and metric.expression is not None
            return (Measure(table=metric.table, expression=metric.expression, filters=metric.filters),)
        return (self._as_measure(metric.numerator), self._as_measure(metric.denominator))

    def _as_measure(self, part: str | Measure | None) -> Measure:
        if isinstance(part, Measure):
            return part
        assert part is not None
        return self.measures_of(part)[0]

    def tables_of(self, metric_name: str) -> tuple[str, ...]:
        seen: list[str] = []
        for measure in self.measures_of(metric_name):
            if measure.table not in seen:
                seen.append(measure.table)
        return tuple(seen)

    def member_label(self, dimension: str, member: object, language: str) -> str:
        """A member's label in ``language``; its own key when the catalog names it no label."""
        dim = self.dimensions.get(dimension)
        info = dim.members.get(str(member)) if dim is not None else None
        return info.label.for_lang(language) if info is not None else str(member)

    def currency_of(self, metric_name: str) -> str | None:
        """The ISO currency of a currency metric (its own, else the catalog's); None otherwise."""
        metric = self.metrics[metric_name]
        if metric.unit != "currency":
            return None
        return metric.currency or self.currency

    def freshness_of(self, table: str) -> FreshnessSource | None:
        """Where ``table``'s freshness comes from (None: it has no time column and no load log)."""
        info = self.tables[table]
        if info.freshness is not None:
            return info.freshness
        return "max_time" if info.time_column is not None else None

    def large_tables(self) -> dict[str, str]:
        """Tables every query must filter on their time column: table -> time column."""
        return {t: self.time_column(t) for t, info in self.tables.items() if info.large}

    def time_column(self, table: str) -> str:
        column = self.tables[table].time_column
        if column is None:
            raise ValueError(f"table {table!r} has no time column")
        return column
