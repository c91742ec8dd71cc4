"""The semantic model: what a metric *means*, as data.

The catalog is the only place a metric's definition (口径) lives; the compiler, the planner
and the report all read it from here, so a definition cannot drift between them. It also
holds everything analysis must know about a warehouse: metric trees (how a metric factors
into other metrics), where each table's freshness comes from (a load log, or the newest
value of its time column), a calendar of known events, keys, and currencies.

Metrics are simple (one aggregate over one table), ratios (two measures) or derived (a
formula over other metrics, each optionally filtered). A table may declare many-to-one joins
(a foreign key to another table's key); a dimension or filter reads a joined table's column
as ``join.column`` (``a__b.column`` for a path of joins). Metrics Baton cannot compute
exactly yet (cumulative, conversion, offsets) are kept as *refused*, with the reason, so a
question naming one is refused by name instead of approximated.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from datetime import date
from functools import partial
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from baton.contracts.common import Bilingual, CalendarEvent, Unit

FreshnessSource = Literal["load_log", "max_time"]
TimeType = Literal["date", "timestamp"]
_CURRENCY = re.compile(r"^[A-Z]{3}$")
_FACTOR_SPLIT = re.compile(r"\s*[*×]\s*")

__all__ = [
    "Bilingual",
    "CalendarEvent",
    "Catalog",
    "Dimension",
    "FreshnessSource",
    "Join",
    "LoadLog",
    "Measure",
    "Member",
    "Metric",
    "MetricInput",
    "RefusedMetric",
    "Table",
    "TimeType",
    "Unit",
]


def member_key(value: object) -> str:
    """A value read back from the warehouse as the catalog keys its member: a boolean as "true" or
    "false" (how a draft and a dbt import key them, and a literal every engine compares with a
    boolean), anything else as its text."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


class Member(BaseModel):
    """One value of a dimension, as people name it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual = Field(description="how answers name the member")
    synonyms: tuple[str, ...] = Field(default=(), description="other words questions use for it")


class Dimension(BaseModel):
    """Something to break down or filter by, read from one column per table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual = Field(description="how answers name the dimension")
    synonyms: tuple[str, ...] = Field(default=(), description="other words questions use for it")
    columns: dict[str, str] = Field(
        description="table -> the column (or SQL expression) that carries this dimension; "
        "'join.column' reads it through one of the table's joins, 'a__b.column' through a path of joins"
    )
    members: dict[str, Member] = Field(
        default_factory=dict, description="value in the data -> its label and synonyms (values questions may name)"
    )
    drill: bool = Field(
        default=True,
        description="analysis may drill into it to find drivers (false for keys and other many-valued columns)",
    )
    index_members: bool = Field(
        default=False,
        description="read the members from the warehouse (a bounded member index, refreshed with the data) "
        "so questions can name members not listed here",
    )
    value_after: tuple[str, ...] = Field(
        default=(),
        description="words a question puts right before a value of this dimension ('from' for an origin, 'to' "
        "for a destination): a value several dimensions hold is this one's after them",
    )


class Join(BaseModel):
    """A many-to-one join: this table's foreign key -> another table's key."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str = Field(description="the joined table")
    on: dict[str, str] = Field(min_length=1, description="this table's column -> the joined table's column")

    @model_validator(mode="before")
    @classmethod
    def _yaml_on(cls, data: object) -> object:
        """YAML 1.1 reads an unquoted ``on:`` key as the boolean true; it means ``on``."""
        if isinstance(data, dict) and True in data and "on" not in data:
            data = {("on" if k is True else k): v for k, v in data.items()}
        return data


class Table(BaseModel):
    """A warehouse table the catalog reads (by its name in the warehouse's default schema)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual = Field(description="how answers name the table")
    time_column: str | None = Field(
        default=None,
        description="the date or timestamp column its metrics are dated by (unless a metric says otherwise)",
    )
    time_type: TimeType = Field(default="date", description="whether the table's time columns hold dates or timestamps")
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
    joins: dict[str, Join] = Field(default_factory=dict, description="many-to-one joins, by name")


class LoadLog(BaseModel):
    """A table the loading jobs write after each load: one row per loaded table."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str = Field(description="the load-log table")
    table_column: str = Field(default="table_name", description="column naming the loaded table")
    loaded_at_column: str = Field(default="loaded_at", description="column with when it was loaded")
    max_date_column: str = Field(default="max_data_date", description="column with the newest date it holds")


class FieldError(ValueError):
    """A catalog check that fails at one field: the loader reports that field's line, not the
    top of the file where a model-wide check would point."""

    def __init__(self, loc: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.loc = loc


def _fail(loc: tuple[str, ...], message: str) -> None:
    raise FieldError(loc, message)


class CatalogErrors(ValueError):
    """Every cross-reference problem of a catalog at once (one per table, dimension, metric),
    so that `baton catalog check` lists them all instead of one per run."""

    def __init__(self, problems: list[ValueError]) -> None:
        super().__init__(str(problems[0]))
        self.problems = problems


_DISTINCT = re.compile(r"\bCOUNT\s*\(\s*DISTINCT\b|\bAPPROX_COUNT_DISTINCT\b|\bCOUNT_DISTINCT\b", re.I)


class Measure(BaseModel):
    """An aggregate over one table: the leaf every metric compiles to."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    table: str = Field(description="the table it aggregates")
    expression: str = Field(description="one SQL aggregate, e.g. SUM(amount)")
    filters: tuple[str, ...] = Field(default=(), description="SQL conditions on the table's rows (AND-ed)")
    time_column: str | None = Field(default=None, description="the time column it is dated by (default: the table's)")


class MetricInput(BaseModel):
    """One metric a derived metric's formula reads, optionally with filters of its own."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    metric: str = Field(description="a catalog metric")
    filters: tuple[str, ...] = Field(default=(), description="SQL conditions applied to that metric's rows")


class Metric(BaseModel):
    """A simple metric (table + expression), a ratio of two measures/metrics, or a derived
    metric (a formula over named inputs)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = ""
    label: Bilingual = Field(description="how answers name the metric")
    synonyms: tuple[str, ...] = Field(default=(), description="other words questions use for it")
    description: Bilingual = Field(description="its definition, shown with every answer")
    table: str | None = Field(default=None, description="simple metric: the table it aggregates")
    expression: str | None = Field(default=None, description="simple metric: one SQL aggregate, e.g. SUM(amount)")
    filters: tuple[str, ...] = Field(default=(), description="simple metric: SQL conditions on rows (AND-ed)")
    time_dimension: str | None = Field(
        default=None, description="simple metric: the column it is dated by (default: the table's time_column)"
    )
    numerator: str | Measure | None = Field(default=None, description="ratio: a simple metric's name, or a measure")
    denominator: str | Measure | None = Field(default=None, description="ratio: a simple metric's name, or a measure")
    formula: str | None = Field(default=None, description="a derived metric: SQL arithmetic over its inputs' names")
    inputs: dict[str, MetricInput] = Field(default_factory=dict, description="a derived metric's inputs, by name")
    dimensions: tuple[str, ...] = Field(default=(), description="the dimensions it may be broken down and filtered by")
    unit: Unit = Field(default="number", description="what its values are")
    better: Literal["higher", "lower"] | None = Field(
        default=None, description="which way is good: what 'best' and 'worst' rank by (undeclared: asked back)"
    )
    currency: str | None = Field(default=None, description="ISO 4217 code of a currency metric (default: catalog's)")
    tree: tuple[tuple[str, ...], ...] = Field(
        default=(),
        description="decompositions into catalog metrics, e.g. 'sessions * conversion * order_value'; "
        "the first whose metrics all support the question's dimensions is used",
    )
    owner: str = Field(description="who answers for the definition")

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
    def _one_kind(self) -> Metric:
        simple = self.table is not None or self.expression is not None
        ratio = self.numerator is not None or self.denominator is not None
        derived = self.formula is not None or bool(self.inputs)
        if sum((simple, ratio, derived)) != 1:
            raise ValueError(
                "a metric is either simple (table + expression), a ratio (numerator + denominator) "
                "or derived (formula + inputs)"
            )
        if simple and (self.table is None or self.expression is None):
            raise ValueError("a simple metric needs both table and expression")
        if ratio and (self.numerator is None or self.denominator is None):
            raise ValueError("a ratio metric needs both numerator and denominator")
        if derived and (self.formula is None or not self.inputs):
            raise ValueError("a derived metric needs both formula and inputs")
        if not simple and self.time_dimension is not None:
            raise ValueError("time_dimension belongs to a simple metric (a ratio's parts carry their own)")
        return self

    @property
    def is_ratio(self) -> bool:
        return self.numerator is not None

    @property
    def is_derived(self) -> bool:
        return self.formula is not None

    @property
    def additive(self) -> bool:
        """Whether the metric sums over its parts (a SUM or a plain COUNT): shares and
        contributions need that; averages, distinct counts, ratios and formulas do not."""
        if self.expression is None:
            return False
        head = self.expression.strip().upper().replace(" ", "")
        return (head.startswith("SUM(") or head.startswith("COUNT(")) and not self.distinct_count

    @property
    def amount_or_count(self) -> bool:
        """A sum, a count or a distinct count — not a rate or an average: a part of it over its
        whole is a share, and its daily values averaged are its average per day."""
        return self.unit != "ratio" and (self.additive or self.distinct_count)

    @property
    def distinct_count(self) -> bool:
        """A COUNT(DISTINCT …): a share of it is meaningful (the share of buyers who are new),
        and missing rows can only lower it, though its parts do not add up."""
        return (self.expression or "").replace(" ", "").upper().startswith("COUNT(DISTINCT")


class RefusedMetric(BaseModel):
    """A metric the catalog knows of but Baton does not compute (yet): named so a question
    asking for it is refused with the reason, never answered with something close."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    label: Bilingual = Field(description="how the metric is named")
    synonyms: tuple[str, ...] = Field(default=(), description="other words questions use for it")
    description: Bilingual | None = Field(default=None, description="its definition where it is defined")
    reason: Bilingual = Field(description="why Baton refuses it (shown to whoever asks)")


class Catalog(BaseModel):
    """The metric catalog: the only place a metric's definition lives."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    version: int = Field(default=1, description="file format version")
    name: str = Field(description="the catalog's name (shown in reports)")
    description: Bilingual | None = Field(default=None, description="what the warehouse holds")
    as_of_default: date | None = Field(default=None, description="the date relative periods are read against")
    currency: str | None = Field(default=None, description="ISO 4217 code of every currency metric without its own")
    load_log: LoadLog | None = Field(default=None, description="a table the loading jobs write (optional)")
    calendar: tuple[CalendarEvent, ...] = Field(
        default=(), description="known yearly events (promotions); none unless declared"
    )
    tables: dict[str, Table] = Field(description="warehouse table name -> what Baton knows of it")
    dimensions: dict[str, Dimension] = Field(description="dimension name -> its columns and members")
    metrics: dict[str, Metric] = Field(description="metric name -> its definition")
    refused: dict[str, RefusedMetric] = Field(
        default_factory=dict, description="metrics known by name that Baton refuses, with the reason"
    )

    @field_validator("currency")
    @classmethod
    def _iso_currency(cls, value: str | None) -> str | None:
        if value is not None and not _CURRENCY.match(value):
            raise ValueError(f"currency must be an ISO 4217 code like CNY or USD, got {value!r}")
        return value

    @model_validator(mode="after")
    def _references_resolve(self) -> Catalog:
        for name, metric in self.metrics.items():
            object.__setattr__(metric, "name", name)
        problems: list[ValueError] = []
        for check in self._reference_checks():
            try:
                check()
            except ValueError as exc:  # FieldError knows its field; a plain ValueError the catalog's top
                problems.append(exc)
        if len(problems) == 1:
            raise problems[0]
        if problems:
            raise CatalogErrors(problems)
        return self

    def _reference_checks(self) -> Iterator[Callable[[], None]]:
        """One check per table, dimension and metric: each stops at its entity's first problem
        (later checks of it would read what failed), the others still run."""
        for table_name in self.tables:
            yield partial(self._check_table, table_name)
        for dim_name in self.dimensions:
            yield partial(self._check_dimension, dim_name)
        for name in self.refused:
            if name in self.metrics:
                yield partial(_fail, ("refused", name), f"metric {name!r} is both defined and refused")
        for name in self.metrics:
            yield partial(self._check_metric, name)

    def _check_table(self, table_name: str) -> None:
        info = self.tables[table_name]
        for join_name, join in info.joins.items():
            if join.table not in self.tables:
                raise FieldError(
                    ("tables", table_name, "joins", join_name),
                    f"table {table_name!r}: join {join_name!r} names unknown table {join.table!r}",
                )
        if info.freshness == "load_log" and self.load_log is None:
            raise FieldError(
                ("tables", table_name, "freshness"),
                f"table {table_name!r} takes its freshness from the load log, but none is declared",
            )
        if info.freshness == "max_time" and info.time_column is None:
            raise FieldError(
                ("tables", table_name, "freshness"), f"table {table_name!r}: freshness max_time needs a time_column"
            )

    def _check_dimension(self, dim_name: str) -> None:
        for table, column in self.dimensions[dim_name].columns.items():
            if table not in self.tables:
                raise FieldError(
                    ("dimensions", dim_name, "columns"), f"dimension {dim_name!r} names unknown table {table!r}"
                )
            self._check_joins(f"dimension {dim_name!r}", table, column, ("dimensions", dim_name, "columns", table))

    def _check_metric(self, name: str) -> None:
        metric = self.metrics[name]
        self._check_derived(name, metric)
        for dim_name in metric.dimensions:
            if dim_name not in self.dimensions:
                raise FieldError(
                    ("metrics", name, "dimensions"), f"metric {name!r} allows unknown dimension {dim_name!r}"
                )
        if metric.table is not None and metric.table not in self.tables:
            raise FieldError(("metrics", name, "table"), f"metric {name!r} reads unknown table {metric.table!r}")
        for part in (metric.numerator, metric.denominator):
            if isinstance(part, str):
                ref = self.metrics.get(part)
                if ref is None:
                    raise FieldError(("metrics", name), f"metric {name!r} refers to unknown metric {part!r}")
                if ref.is_ratio:
                    raise FieldError(
                        ("metrics", name), f"metric {name!r}: a ratio's parts must be simple metrics ({part!r})"
                    )
            elif isinstance(part, Measure) and part.table not in self.tables:
                raise FieldError(("metrics", name), f"metric {name!r} reads unknown table {part.table!r}")
        for table in self.tables_of(name):
            for dim_name in metric.dimensions:
                if table not in self.dimensions[dim_name].columns:
                    raise FieldError(
                        ("metrics", name, "dimensions"),
                        f"metric {name!r}: dimension {dim_name!r} has no column in table {table!r}",
                    )
        for measure in self.measures_of(name):
            if measure.table not in self.tables:
                continue  # that metric's own check says so
            for sql in (measure.expression, *measure.filters):
                self._check_joins(f"metric {name!r}", measure.table, sql, ("metrics", name))
        for factors in metric.tree:
            self._check_tree(name, factors)

    def _check_tree(self, name: str, factors: tuple[str, ...]) -> None:
        """A tree's factors must be catalog metrics whose product is the metric itself
        (numerators and denominators cancel: a × b/a × c/b = c)."""
        if len(factors) < 2:
            raise FieldError(
                ("metrics", name, "tree"), f"metric {name!r}: a tree needs at least two factors, got {list(factors)}"
            )
        power: Counter[str] = Counter()
        for factor in factors:
            ref = self.metrics.get(factor)
            if ref is None:
                raise FieldError(
                    ("metrics", name, "tree"), f"metric {name!r}: tree factor {factor!r} is not a catalog metric"
                )
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

    def _check_derived(self, name: str, metric: Metric) -> None:
        """A derived metric's inputs are catalog metrics, its formula names only them, and no
        metric is its own input (directly or through others)."""
        if not metric.is_derived:
            return
        from baton.catalog.sqlexpr import column_names

        assert metric.formula is not None
        try:
            names = column_names(metric.formula)
        except ValueError as exc:
            raise ValueError(f"metric {name!r}: formula {metric.formula!r} is not SQL ({exc})") from None
        unknown = sorted(n for n in names if n not in metric.inputs)
        if unknown:
            raise FieldError(
                ("metrics", name, "formula"),
                f"metric {name!r}: formula names {unknown}, which are not among its inputs",
            )
        seen: list[str] = [name]

        def walk(current: Metric) -> None:
            for item in current.inputs.values():
                if item.metric not in self.metrics:
                    raise FieldError(
                        ("metrics", name, "inputs"), f"metric {name!r} reads unknown metric {item.metric!r}"
                    )
                if item.metric in seen:
                    raise ValueError(f"metric {name!r} is defined through itself ({' -> '.join([*seen, item.metric])})")
                seen.append(item.metric)
                walk(self.metrics[item.metric])
                seen.pop()

        walk(metric)

    def _check_joins(self, what: str, table: str, sql: str, loc: tuple[str, ...]) -> None:
        """Every ``join.column`` an expression reads must follow the table's declared joins
        (reported at ``loc``, the field that holds the expression)."""
        from baton.catalog.sqlexpr import qualifiers

        try:
            paths = qualifiers(sql)
        except ValueError as exc:
            raise FieldError(loc, f"{what}: {sql!r} is not SQL ({exc})") from None
        for path in paths:
            if path == table:
                continue
            try:
                self.join_path(table, path, what=f"{what} (read from table {table!r})")
            except ValueError as exc:
                raise FieldError(loc, str(exc)) from None

    def join_path(self, table: str, path: str, *, what: str = "query") -> tuple[tuple[str, Join], ...]:
        """The joins ``a__b`` walks from ``table``: (alias so far, join) for each hop."""
        hops: list[tuple[str, Join]] = []
        current, alias = table, ""
        for part in path.split("__"):
            info = self.tables.get(current)
            if info is None:  # a join to a table the catalog lacks (reported at that join)
                raise ValueError(f"{what}: the join path {path!r} reaches unknown table {current!r}")
            join = info.joins.get(part)
            if join is None:
                raise ValueError(f"{what}: table {current!r} has no join named {part!r} (in {path!r})")
            alias = f"{alias}__{part}" if alias else part
            hops.append((alias, join))
            current = join.table
        return tuple(hops)

    def table_read(self, table: str, qualifier: str | None) -> str:
        """The table a column written ``qualifier.column`` in ``table``'s SQL reads: ``table``
        itself when unqualified (or qualified by its own name), else the end of that join path."""
        if not qualifier or qualifier.lower() == table.lower():
            return table
        return self.join_path(table, qualifier)[-1][1].table

    def counted_per_day(self, metric_name: str) -> bool:
        """Whether one of the metric's measures is a distinct count (``COUNT(DISTINCT …)``): its
        daily values do not add up to the period's — a buyer of two days is two buyer-days."""
        return any(_DISTINCT.search(m.expression) for m in self.measures_of(metric_name))

    def measures_of(self, metric_name: str) -> tuple[Measure, ...]:
        """The leaf measures a metric needs: one for a simple metric, two for a ratio, every
        input's (with the input's filters) for a derived metric."""
        metric = self.metrics[metric_name]
        if metric.is_derived:
            out: list[Measure] = []
            for item in metric.inputs.values():
                for measure in self.measures_of(item.metric):
                    leaf = measure.model_copy(update={"filters": (*measure.filters, *item.filters)})
                    if leaf not in out:
                        out.append(leaf)
            return tuple(out)
        if not metric.is_ratio:
            assert metric.table is not None and metric.expression is not None
            return (
                Measure(
                    table=metric.table,
                    expression=metric.expression,
                    filters=metric.filters,
                    time_column=metric.time_dimension,
                ),
            )
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

    def labels(self) -> list[str]:
        """Every label a narrative may name (metrics, dimensions, members, calendar events) in both
        languages with their synonyms: names, not quantities (what the output gate lets through)."""
        out: list[str] = []
        for metric in self.metrics.values():
            out += [metric.label.zh, metric.label.en, *metric.synonyms]
        for dimension in self.dimensions.values():
            out += [dimension.label.zh, dimension.label.en, *dimension.synonyms]
            for member in dimension.members.values():
                out += [member.label.zh, member.label.en, *member.synonyms]
        for event in self.calendar:
            out += [event.name.zh, event.name.en]
        return out

    def member_label(self, dimension: str, member: object, language: str) -> str:
        """A member's label in ``language``; its own key when the catalog names it no label; an
        empty key (NULL: rows of no member) as such, never as "None"."""
        if member is None:
            from baton.messages import text

            return text("answer.member_empty", "zh" if language == "zh" else "en")
        dim = self.dimensions.get(dimension)
        info = dim.members.get(member_key(member)) if dim is not None else None
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

    def time_column_of(self, measure: Measure) -> str:
        """The column a measure is dated by: its metric's time dimension, else its table's."""
        return measure.time_column or self.time_column(measure.table)

    def dated_by(self, metric_name: str, table: str) -> tuple[str, ...]:
        """The columns the metric's measures on ``table`` are dated by (none when it reads
        nothing of the table itself: a joined dimension table)."""
        return tuple(dict.fromkeys(self.time_column_of(m) for m in self.measures_of(metric_name) if m.table == table))

    def metric_names(self) -> tuple[str, ...]:
        """Every metric name a question may use, computed or refused."""
        return (*self.metrics, *self.refused)
