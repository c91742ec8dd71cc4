"""The semantic model: what a metric *means*, as data.

The catalog is the only place a metric's definition (口径) lives; the compiler, the planner
and the report all read it from here, so a definition cannot drift between them.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Unit = Literal["currency", "count", "ratio", "number"]


class Bilingual(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    zh: str
    en: str

    def for_lang(self, language: str) -> str:
        return self.zh if language == "zh" else self.en


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
    freshness_key: str | None = None
    large: bool = Field(default=False, description="queries must filter on time_column (partition filter)")


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
    owner: str

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
    tables: dict[str, Table]
    dimensions: dict[str, Dimension]
    metrics: dict[str, Metric]

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
        return self

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

    def time_column(self, table: str) -> str:
        column = self.tables[table].time_column
        if column is None:
            raise ValueError(f"table {table!r} has no time column")
        return column
