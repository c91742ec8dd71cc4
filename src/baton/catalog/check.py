"""Does a catalog fit the warehouse it describes? (`baton catalog check`)

A catalog that loads is well-formed; whether its tables, columns and join keys exist, whether
its time columns hold dates, and whether its listed members occur in the data is only known
against the live warehouse. Found here, a typo is one line of a report; found later, it is a
failed question. The check reads the warehouse's schema and runs a few bounded queries that
read aggregates and metadata, never detail rows: join-key uniqueness, listed members, and
every expression bound by the engine over no rows (``WHERE FALSE``), as the compiler would
send it.

The catalog package sits below the warehouse package, so the backend is a structural
protocol here (``baton.warehouse.engine.Backend`` satisfies it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from sqlglot import exp

from baton.catalog import sqlexpr
from baton.catalog.model import Catalog, Join, Measure, TimeType
from baton.contracts.query import ForeignKey
from baton.errors import BatonError, QueryTimeout, WarehouseUnavailable
from baton.messages import both, localized

PathKey = tuple[str | int, ...]
Kind = Literal["date", "timestamp", "numeric", "text", "other"]
ColumnKind = Literal["date", "timestamp", "boolean", "integer", "number", "text", "other"]
Subject = dict[str, str]

__all__ = ["CatalogProblem", "ColumnKind", "Warehouse", "check_catalog", "column_kind", "kind_of", "locate"]


@dataclass(frozen=True)
class CatalogProblem:
    """One mismatch between the catalog and the warehouse, tied to the catalog field it is about."""

    code: str
    path: PathKey
    message: tuple[str, str]
    table: str | None = None
    column: str | None = None


class _Rows(Protocol):
    @property
    def rows(self) -> list[tuple[Any, ...]]: ...


class _Engine(Protocol):
    @property
    def dialect(self) -> str: ...


class Warehouse(Protocol):
    """What the check needs of a backend: the schema, and statements with a timeout and row cap."""

    @property
    def engine(self) -> _Engine: ...

    def schema(self) -> dict[str, dict[str, str]]: ...

    def foreign_keys(self) -> list[ForeignKey]: ...

    def execute(self, sql: str, *, timeout_s: float = ..., row_cap: int = ...) -> _Rows: ...

    def explain_cost(self, sql: str) -> float: ...


_INTEGERS = frozenset({
    "TINYINT", "SMALLINT", "INTEGER", "INT", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT",
    "UHUGEINT", "INT1", "INT2", "INT4", "INT8", "SERIAL", "SMALLSERIAL", "BIGSERIAL",
})  # fmt: skip
_DECIMALS = frozenset(
    {"DECIMAL", "NUMERIC", "REAL", "FLOAT", "FLOAT4", "FLOAT8", "DOUBLE", "DOUBLE PRECISION", "MONEY"}
)
_TEXT = frozenset(
    {"VARCHAR", "TEXT", "CHAR", "CHARACTER", "CHARACTER VARYING", "BPCHAR", "STRING", "NAME", "NVARCHAR", "ENUM"}
)
_NUMERIC_AGGREGATES = (
    exp.Sum,
    exp.Avg,
    exp.Stddev,
    exp.StddevPop,
    exp.StddevSamp,
    exp.Variance,
    exp.VariancePop,
    exp.Median,
    exp.Quantile,
    exp.ApproxQuantile,
    exp.PercentileCont,
    exp.PercentileDisc,
)
_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv)


def column_kind(dtype: str) -> ColumnKind:
    """What a warehouse type name holds, whichever engine spelled it (``DECIMAL(14,2)``,
    ``TIMESTAMP WITHOUT TIME ZONE``, ``character varying`` …): the one reading of a type for
    the check, ``baton init`` and the dbt import."""
    base = dtype.upper().split("(", 1)[0].strip()
    if base == "DATE":
        return "date"
    if base.startswith("TIMESTAMP") or base == "DATETIME":
        return "timestamp"
    if base in ("BOOLEAN", "BOOL"):
        return "boolean"
    if base in _INTEGERS:
        return "integer"
    if base in _DECIMALS:
        return "number"
    if base in _TEXT:
        return "text"
    return "other"


def kind_of(dtype: str) -> Kind:
    """The kind the check compares: integers and decimals alike are numbers."""
    kind = column_kind(dtype)
    if kind in ("integer", "number"):
        return "numeric"
    return kind if kind in ("date", "timestamp", "text") else "other"


def locate(problem: CatalogProblem, lines: Mapping[PathKey, int], file: Path) -> tuple[Path, int | None]:
    """The file and line of the most specific prefix of the problem's path found in ``lines``
    (a field left to its default has no line: its parent's is used)."""
    path = problem.path
    while path:
        if path in lines:
            return file, lines[path]
        path = path[:-1]
    return file, None


def check_catalog(
    catalog: Catalog, backend: Warehouse, *, members: bool = True, costs: bool = True, timeout_s: float = 30.0
) -> list[CatalogProblem]:
    """Every problem found, in catalog order: tables (with ``costs``, whether the engine can
    estimate a query on each, and their joins), the load log, dimensions (and, with ``members``,
    their listed members), metrics (and, with ``members``, the text values their filters name)."""
    check = _Check(catalog, backend, timeout_s, costs=costs, members=members)
    check.tables()
    check.load_log()
    check.dimensions(members=members)
    check.metrics()
    return check.problems


def _value_columns(node: exp.Expr | None) -> Iterator[exp.Column]:
    """The columns whose values an aggregate takes (not those of conditions; casts and other
    functions may turn any type into a number, so what they wrap is not judged)."""
    if isinstance(node, exp.Column):
        if not isinstance(node.this, exp.Star):
            yield node
    elif isinstance(node, exp.Paren | exp.Neg | exp.Abs | exp.Round | exp.Nullif):
        yield from _value_columns(node.this)
    elif isinstance(node, _ARITHMETIC):
        yield from _value_columns(node.this)
        yield from _value_columns(node.expression)
    elif isinstance(node, exp.Case):
        for branch in node.args.get("ifs") or []:
            yield from _value_columns(branch.args.get("true"))
        yield from _value_columns(node.args.get("default"))
    elif isinstance(node, exp.If):
        yield from _value_columns(node.args.get("true"))
        yield from _value_columns(node.args.get("false"))
    elif isinstance(node, exp.Coalesce | exp.Greatest | exp.Least):
        yield from _value_columns(node.this)
        for item in node.expressions:
            yield from _value_columns(item)
    elif isinstance(node, exp.Distinct):
        for item in node.expressions:
            yield from _value_columns(item)


class _Schema:
    """The warehouse's tables and column types, matched case-insensitively (PostgreSQL folds
    unquoted names to lower case, DuckDB ignores case)."""

    def __init__(self, raw: Mapping[str, Mapping[str, str]]) -> None:
        self._tables = {t.lower(): {c.lower(): str(d).upper() for c, d in cols.items()} for t, cols in raw.items()}

    def has(self, table: str) -> bool:
        return table.lower() in self._tables

    def type_of(self, table: str, column: str) -> str | None:
        return self._tables.get(table.lower(), {}).get(column.lower())


class _Check:
    """One check run: the catalog, the backend's schema, and the problems found so far."""

    def __init__(
        self, catalog: Catalog, backend: Warehouse, timeout_s: float, *, costs: bool = True, members: bool = True
    ) -> None:
        self.catalog = catalog
        self.costs = costs
        self.members = members
        self.backend = backend
        self.timeout_s = timeout_s
        self.dialect = backend.engine.dialect
        self.schema = _Schema(backend.schema())
        self.problems: list[CatalogProblem] = []
        self.unsound_joins: set[tuple[str, str]] = set()
        """(table, join name) of joins with missing keys or a key that is not unique."""

    def add(
        self,
        code: str,
        path: PathKey,
        subject: Subject,
        *,
        key: str | None = None,
        table: str | None = None,
        column: str | None = None,
        **fields: Any,
    ) -> None:
        """Record a problem (once); its message is ``check.<key>`` (default: the code)."""
        message = both(f"check.{key or code}", **subject, table=table, column=column, **fields)
        problem = CatalogProblem(code, path, message, table, column)
        if problem not in self.problems:
            self.problems.append(problem)

    # tables, joins and the load log -----------------------------------------------------------

    def tables(self) -> None:
        for name, info in self.catalog.tables.items():
            subject = localized("subject", "check.subject_table", name=name)
            base: PathKey = ("tables", name)
            if not self.schema.has(name):
                self.add("missing_table", base, subject, table=name)
                continue
            if self.costs:
                self.cost(subject, base, name)
            if info.time_column is not None:
                self.time_column(subject, (*base, "time_column"), name, info.time_column, info.time_type)
            for index, column in enumerate(info.primary_key):
                self.column(subject, (*base, "primary_key", index), name, column)
            if info.updated_column is not None:
                self.time_column(subject, (*base, "updated_column"), name, info.updated_column, None)
            for join_name, join in info.joins.items():
                self.join(name, join_name, join)

    def cost(self, subject: Subject, path: PathKey, table: str) -> None:
        """Whether the engine can estimate a query on the table: the firewall approves nothing it
        cannot bound (a Spark table without statistics), so every question on it would be refused."""
        query = exp.select(exp.func("COUNT", exp.Star())).from_(exp.to_table(table))
        try:
            self.backend.explain_cost(query.sql(dialect=self.dialect))
        except WarehouseUnavailable:
            raise
        except (BatonError, ValueError) as exc:  # ValueError: an engine plan without a readable estimate
            en, zh = (
                (exc.message("en"), exc.message("zh")) if isinstance(exc, BatonError) else (type(exc).__name__,) * 2
            )
            self.add("no_cost_estimate", path, subject, table=table, error=en, error_zh=zh)

    def column(self, subject: Subject, path: PathKey, table: str, column: str) -> str | None:
        """The column's type; a problem when the table lacks it."""
        dtype = self.schema.type_of(table, column)
        if dtype is None and self.schema.has(table):
            self.add("missing_column", path, subject, table=table, column=column)
        return dtype

    def time_column(self, subject: Subject, path: PathKey, table: str, column: str, declared: TimeType | None) -> None:
        dtype = self.column(subject, path, table, column)
        if dtype is None:
            return
        kind = kind_of(dtype)
        if kind not in ("date", "timestamp"):
            self.add("time_not_temporal", path, subject, table=table, column=column, type=dtype)
        elif declared is not None and kind != declared:
            self.add("time_type_mismatch", path, subject, table=table, column=column, type=dtype, declared=declared)

    def join(self, table: str, name: str, join: Join) -> None:
        subject = localized("subject", "check.subject_join", table=table, name=name)
        path: PathKey = ("tables", table, "joins", name)
        if not self.schema.has(join.table):
            return  # reported once, under the joined table itself
        keys_ok = True
        for local, remote in join.on.items():
            key_path = (*path, "on", local)
            types = []
            for owner, column in ((table, local), (join.table, remote)):
                dtype = self.schema.type_of(owner, column)
                if dtype is None:
                    self.add("bad_join", key_path, subject, key="join_key_missing", table=owner, column=column)
                    keys_ok = False
                types.append(dtype)
            local_type, remote_type = types
            if local_type is not None and remote_type is not None and _incomparable(local_type, remote_type):
                self.add(
                    "bad_join",
                    key_path,
                    subject,
                    key="join_key_types",
                    table=join.table,
                    column=remote,
                    local=f"{table}.{local}",
                    local_type=local_type,
                    remote=f"{join.table}.{remote}",
                    remote_type=remote_type,
                )
                keys_ok = False
        if not (keys_ok and self.unique(subject, path, join)):
            self.unsound_joins.add((table, name))

    def unique(self, subject: Subject, path: PathKey, join: Join) -> bool:
        """A many-to-one join needs a unique key on the joined side, else rows fan out and
        every sum over them counts some rows twice (NULL keys never match, so they are left out)."""
        keys = [exp.column(c) for c in join.on.values()]
        groups = (
            exp.select(exp.Count(this=exp.Star()).as_("n"))
            .from_(exp.to_table(join.table))
            .where(exp.and_(*[exp.not_(k.copy().is_(exp.null())) for k in keys]))
            .group_by(*keys)
            .having(exp.Count(this=exp.Star()) > 1)
        )
        query = exp.select(exp.Count(this=exp.Star()), exp.func("MAX", exp.column("n"))).from_(groups.subquery("d"))
        rows = self.run(subject, path, query, row_cap=1)
        if rows is None:
            return False
        if rows[0][0]:
            columns = ", ".join(join.on.values())
            self.add(
                "join_not_unique", path, subject, table=join.table, column=columns, keys=rows[0][0], most=rows[0][1]
            )
            return False
        return True

    def load_log(self) -> None:
        log = self.catalog.load_log
        if log is None:
            return
        subject = localized("subject", "check.subject_load_log")
        if not self.schema.has(log.table):
            self.add("missing_table", ("load_log", "table"), subject, table=log.table)
            return
        self.column(subject, ("load_log", "table_column"), log.table, log.table_column)
        self.time_column(subject, ("load_log", "loaded_at_column"), log.table, log.loaded_at_column, None)
        self.time_column(subject, ("load_log", "max_date_column"), log.table, log.max_date_column, None)

    # dimensions and metrics -------------------------------------------------------------------

    def dimensions(self, *, members: bool) -> None:
        for name, dim in self.catalog.dimensions.items():
            subject = localized("subject", "check.subject_dimension", name=name)
            wanted = list(dim.members) if members else []
            found: set[str] | None = set()
            read: list[str] = []
            for table, sql in dim.columns.items():
                path: PathKey = ("dimensions", name, "columns", table)
                node = self.expression(subject, path, table, sql)
                if node is None:
                    found = None
                elif found is None or set(wanted) <= found:  # nothing left to look for: bind it only
                    self.bind(subject, path, table, sql, [node], [])
                else:
                    got = self.members_in(subject, path, table, sql, node, wanted)
                    found = None if got is None or found is None else found | got
                    if isinstance(node, exp.Column):
                        read.append(f"{self.read_from(table, node)}.{node.name}")
                    else:
                        read.append(f"{table} ({sql})")
            if found is None:
                continue  # a column could not be read: its problem is reported, members stay unjudged
            for member in wanted:
                if member not in found:
                    self.add(
                        "missing_member",
                        ("dimensions", name, "members", member),
                        subject,
                        member=member,
                        columns=", ".join(dict.fromkeys(read)),  # two tables may read one column through joins
                    )

    def members_in(
        self, subject: Subject, path: PathKey, table: str, sql: str, node: exp.Expr, wanted: list[str]
    ) -> set[str] | None:
        """Which of ``wanted`` occur in the column: one bounded SELECT DISTINCT of at most
        ``len(wanted)`` values (None when unknown). A column read through joins is read in its
        own table (no join of a large table needed); an expression through a join the check
        found unsound is not judged."""
        if isinstance(node, exp.Column):
            table = self.read_from(table, node)
            node = exp.Column(this=node.this.copy())
        elif self.through_unsound_join(table, node):
            return None
        text = isinstance(node, exp.Column) and kind_of(self.schema.type_of(table, node.name) or "") == "text"
        value = node if text else exp.cast(node, exp.DataType.build(exp.DataType.Type.VARCHAR))
        query = (
            exp.select(value.copy().as_("member"))
            .distinct()
            .from_(exp.to_table(table))
            .where(value.copy().isin(*[exp.Literal.string(m) for m in wanted]))
        )
        rows = self.run(subject, path, self.joined(table, query), row_cap=len(wanted) + 1, sql=sql)
        return None if rows is None else {str(row[0]) for row in rows}

    def filter_values(self, subject: Subject, path: PathKey, table: str, sql: str, node: exp.Expr) -> None:
        """A filter term that keeps given text values of a column (``=``, ``IN``) keeps at least
        one value the column holds: ``status = 'payed'`` would make the metric silently zero. (A
        ``<>`` of a value not loaded yet, or one value of a list, leaves the metric as it is.)"""
        if not self.members:
            return
        for column, values in sqlexpr.kept_terms(node):
            owner = self.read_from(table, column)
            if kind_of(self.schema.type_of(owner, column.name) or "") != "text":
                continue
            read = exp.Column(this=column.this.copy())  # its own quoting: "Status" stays "Status"
            wanted = sorted(values)
            query = (
                exp.select(read.copy().as_("value"))
                .distinct()
                .from_(exp.to_table(owner))
                .where(read.copy().isin(*[exp.Literal.string(v) for v in wanted]))
            )
            rows = self.run(subject, path, query, row_cap=len(wanted) + 1, sql=sql)
            if rows == []:
                for value in wanted:
                    self.add(
                        "missing_filter_value", path, subject, table=owner, column=column.name, value=value, sql=sql
                    )

    def through_unsound_join(self, table: str, node: exp.Expr) -> bool:
        for column in sqlexpr.columns(node):
            if not column.table or column.table.lower() == table.lower():
                continue
            source = table
            for part in column.table.split("__"):
                if (source, part) in self.unsound_joins:
                    return True
                source = self.catalog.tables[source].joins[part].table
        return False

    def metrics(self) -> None:
        for name, metric in self.catalog.metrics.items():
            subject = localized("subject", "check.subject_metric", name=name)
            base: PathKey = ("metrics", name)
            if metric.is_derived:
                for input_name, item in metric.inputs.items():
                    for index, sql in enumerate(item.filters):
                        path = (*base, "inputs", input_name, "filters", index)
                        for table in self.catalog.tables_of(item.metric):
                            node = self.expression(subject, path, table, sql)
                            if node is not None:
                                self.bind(subject, path, table, sql, [], [node])
                                self.filter_values(subject, path, table, sql, node)
            elif metric.is_ratio:
                for part_name, part in (("numerator", metric.numerator), ("denominator", metric.denominator)):
                    if isinstance(part, Measure):  # a named part is a metric, checked on its own
                        self.measure(subject, (*base, part_name), part, "time_column")
            else:
                assert metric.table is not None and metric.expression is not None
                own = Measure(
                    table=metric.table,
                    expression=metric.expression,
                    filters=metric.filters,
                    time_column=metric.time_dimension,
                )
                self.measure(subject, base, own, "time_dimension")

    def measure(self, subject: Subject, base: PathKey, measure: Measure, time_field: str) -> None:
        table = measure.table
        if not self.schema.has(table):
            return  # reported under the table
        value = self.expression(subject, (*base, "expression"), table, measure.expression, aggregate=True)
        filters = [self.expression(subject, (*base, "filters", i), table, f) for i, f in enumerate(measure.filters)]
        if measure.time_column is not None:
            declared = self.catalog.tables[table].time_type
            self.time_column(subject, (*base, time_field), table, measure.time_column, declared)
        conditions = [f for f in filters if f is not None]
        for index, (sql, node) in enumerate(zip(measure.filters, filters, strict=True)):
            if node is not None:
                self.filter_values(subject, (*base, "filters", index), table, sql, node)
        if value is not None and len(conditions) == len(filters):
            sql = " WHERE ".join([measure.expression, " AND ".join(measure.filters)]).removesuffix(" WHERE ")
            self.bind(subject, (*base, "expression"), table, sql, [value], conditions)

    # expressions ------------------------------------------------------------------------------

    def expression(
        self, subject: Subject, path: PathKey, table: str, sql: str, *, aggregate: bool = False
    ) -> exp.Expr | None:
        """``sql`` parsed, when every column it reads exists (else None, with the problems added)."""
        if not self.schema.has(table):
            return None
        try:
            node = sqlexpr.parse(sql)
        except ValueError as exc:
            self.add("bad_expression", path, subject, key="not_sql", table=table, sql=sql, error=exc)
            return None
        ok = True
        for column in sqlexpr.columns(node):
            owner = self.owner(subject, path, table, column.table)
            if owner is None or self.column(subject, path, owner, column.name) is None:
                ok = False
        if ok and aggregate:
            ok = self.aggregates(subject, path, table, node)
        return node if ok else None

    def owner(self, subject: Subject, path: PathKey, table: str, qualifier: str) -> str | None:
        """The table a column qualified by ``qualifier`` reads (a join path, or the table itself)."""
        if not qualifier or qualifier.lower() == table.lower():
            return table
        try:
            hops = self.catalog.join_path(table, qualifier)
        except ValueError:
            join = next(p for p in qualifier.split("__") if p)
            self.add("bad_join", path, subject, key="unknown_join", table=table, join=join, via=qualifier)
            return None
        target = hops[-1][1].table
        return target if self.schema.has(target) else None

    def read_from(self, table: str, column: exp.Column) -> str:
        """The table an already resolved column reads (its own, or the end of its join path)."""
        return self.catalog.table_read(table, column.table)

    def aggregates(self, subject: Subject, path: PathKey, table: str, node: exp.Expr) -> bool:
        """SUM, AVG … take numbers; MIN and MAX numbers or times (over text they rank strings).
        False when one does not."""
        ok = True
        for agg in node.find_all(exp.AggFunc):
            if isinstance(agg, _NUMERIC_AGGREGATES):
                allowed: tuple[Kind, ...] = ("numeric",)
            elif isinstance(agg, exp.Min | exp.Max):
                allowed = ("numeric", "date", "timestamp")
            else:
                continue
            for column in _value_columns(agg.this):
                owner = self.read_from(table, column)
                dtype = self.schema.type_of(owner, column.name) or ""
                if kind_of(dtype) not in (*allowed, "other"):
                    function = agg.key.upper()
                    self.add("bad_type", path, subject, table=owner, column=column.name, function=function, type=dtype)
                    ok = False
        return ok

    def bind(
        self, subject: Subject, path: PathKey, table: str, sql: str, values: list[exp.Expr], conditions: list[exp.Expr]
    ) -> None:
        """Have the engine bind the expression over no rows: unknown functions, wrong argument
        types and the like fail here, not in a user's question."""
        selects = [v.copy() for v in values] or [exp.Literal.number(1)]
        where = exp.and_(*[exp.paren(c.copy()) for c in conditions], exp.false())
        query = exp.select(*selects).from_(exp.to_table(table)).where(where)
        self.run(subject, path, self.joined(table, query), row_cap=1, sql=sql)

    def joined(self, table: str, select: exp.Select) -> exp.Select:
        """The LEFT JOINs the select's ``join.column`` references walk, as the compiler adds them."""
        from baton.catalog.compiler import with_joins

        return with_joins(self.catalog, table, select)

    def run(
        self, subject: Subject, path: PathKey, query: exp.Query, *, row_cap: int, sql: str | None = None
    ) -> list[tuple[Any, ...]] | None:
        """The query's rows; None (and a problem) when the engine rejects it or it fails."""
        try:
            raw = self.backend.execute(query.sql(dialect=self.dialect), timeout_s=self.timeout_s, row_cap=row_cap)
        except WarehouseUnavailable:
            raise  # nothing more can be checked: the command reports it as any other command would
        except QueryTimeout as exc:
            self._failed(subject, path, exc)
            return None
        except BatonError as exc:  # the engine could not run it (how it says so differs by engine)
            if sql is None:
                self._failed(subject, path, exc)
            else:
                # `catalog check` is the catalog author's tool on the config's own connection (no
                # policy user, no run): the engine's first line says what the catalog got wrong
                engine = str(exc.internal.get("engine_error") or exc.message("en")).strip().splitlines()[0][:300]
                self.add("bad_expression", path, subject, key="rejected", sql=sql, error=engine)
            return None
        return list(raw.rows)

    def _failed(self, subject: Subject, path: PathKey, exc: BatonError) -> None:
        self.add("query_failed", path, subject, error=exc.message("en"), error_zh=exc.message("zh"))


def _incomparable(left: str, right: str) -> bool:
    """Whether two key types cannot be equal without a cast (a number against text, say)."""
    kinds = {kind_of(left), kind_of(right)}
    return len(kinds) == 2 and "other" not in kinds and kinds != {"date", "timestamp"}
