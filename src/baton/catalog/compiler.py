"""SemanticQuery -> SQL, built as a sqlglot AST.

Nothing the user typed is ever concatenated into SQL: member values arrive already resolved
to catalog members and enter the tree as string literals; expressions and filters come from
the catalog file. One AST serves every dialect (DuckDB, PostgreSQL) through sqlglot's
generator.

Query shapes (the output columns are a contract for evals and reports):
- ``[period,] [dims…], metric…`` — ordered by period and dims, or by the first metric for a top N
  (which keeps the rows tied at its last place); a series of sums and counts has its quiet periods
  as 0 (``baton.catalog.spine``);
- with a comparison: ``[dims…], m, m_previous, m_change, m_change_pct`` for each metric;
- with a share: ``[period,] [dims…], m, m_share`` — ``m`` over the question's filters and the
  share's own filters, divided by ``m`` over the question's filters only, summed over every
  member of the breakdown (or per group of ``share_within``: "APP's share of each region's
  orders") (per period when there is one); an additive metric only;
- per day (week, month …): ``[dims…], m_per_day, m_total`` (``m_per_month`` …; the total with no
  comparison, the comparison columns with one)
  — the metric on each day (week …), summed over the period and divided by how many it holds
  (whole ones only; one without rows counts as zero); an additive metric or a distinct count only.
An exclusion filter compiles to ``NOT IN`` (or NULL: a row of unknown member is not excluded).
A metric over two tables (a conversion rate = orders / sessions) aggregates each table on
the query's grain and dimensions in its own CTE, then joins them on those keys.

The tree is built in place (``copy=False`` on sqlglot's builders): every node is made for this
statement, and sqlglot's default — a deep copy of the whole select at each builder call — was
most of a question's compile time. A node used twice is copied where it is used
(``column.copy()``); fragments from the catalog arrive as fresh copies (``sqlexpr.parse``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Literal

from sqlglot import exp

from baton.catalog import spine, sqlexpr
from baton.catalog.model import Catalog, Measure
from baton.catalog.where import METRIC_TIME, where_condition
from baton.contracts.common import Dialect
from baton.contracts.semantic import MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.errors import InvalidInput, QuestionRefused
from baton.messages import average_fields, both

PERIOD = "period"
RANK = "rank_in_top"
"""A top N's rank column (inside the statement only: the result has the query's own columns)."""
TIED = "tied_rows"
"""How many rows share a row's value: the places it holds run from its rank on (inside the statement only)."""
AHEAD = "rows_ahead"
"""A place's result column: how many rows rank above it ("the second highest" after two tied
highest has 2 ahead, not 1): the answer says so, from the result."""
_CMP = "_cmp_period"


@dataclass(frozen=True)
class CompiledQuery:
    sql: str
    dialect: Dialect
    expression: exp.Expr
    columns: tuple[str, ...]
    tables: tuple[str, ...]
    filters_applied: tuple[str, ...]
    aggregation_logic: tuple[str, ...]
    filled: bool = False
    """Periods and members without rows are zeros in it (``baton.catalog.spine``)."""


@dataclass(frozen=True)
class _Leaf:
    alias: str
    measure: Measure


_parse = sqlexpr.parse


def _date(value: date) -> exp.Expr:
    return exp.cast(exp.Literal.string(value.isoformat()), exp.DataType.build(exp.DataType.Type.DATE))


def _between(column: exp.Expr, start: date, end: date) -> exp.Expr:
    return exp.Between(this=column.copy(), low=_date(start), high=_date(end))


def _and(conditions: list[exp.Expr]) -> exp.Expr | None:
    if not conditions:
        return None
    return exp.and_(*conditions) if len(conditions) > 1 else conditions[0]


Source = tuple[str, str]  # (table, time column): one aggregate per source


def _parts(catalog: Catalog, metric_name: str) -> list[tuple[str, Measure]]:
    """A simple or ratio metric's leaf measures with their preferred aliases (a simple
    metric's own name, a ratio part's metric name, otherwise ``<metric>__<role>``)."""
    metric = catalog.metrics[metric_name]
    measures = catalog.measures_of(metric_name)
    if not metric.is_ratio:
        return [(metric_name, measures[0])]
    names = [
        part if isinstance(part, str) else f"{metric_name}__{role}"
        for part, role in ((metric.numerator, "num"), (metric.denominator, "den"))
    ]
    return list(zip(names, measures, strict=True))


def _leaves(query: SemanticQuery, catalog: Catalog) -> dict[Source, list[_Leaf]]:
    """Leaf measures per source (table and time column), de-duplicated, with stable aliases.

    A derived metric contributes its inputs' leaves; an input with filters of its own is a
    leaf of its own (``<metric>__f<n>``)."""
    by_source: dict[Source, list[_Leaf]] = {}
    seen: dict[Measure, str] = {}
    pending: list[tuple[str, tuple[str, ...]]] = [(m, ()) for m in query.metrics]
    while pending:
        metric_name, extra = pending.pop(0)
        metric = catalog.metrics[metric_name]
        if metric.is_derived:
            pending[:0] = [(i.metric, (*extra, *i.filters)) for i in metric.inputs.values()]
            continue
        for preferred, plain in _parts(catalog, metric_name):
            measure = plain.model_copy(update={"filters": (*plain.filters, *extra)}) if extra else plain
            alias = f"{preferred}__f{len(seen)}" if extra else preferred
            if measure in seen:
                continue
            seen[measure] = alias
            source = (measure.table, catalog.time_column_of(measure))
            by_source.setdefault(source, []).append(_Leaf(alias, measure))
    return by_source


def source_tables(query: SemanticQuery, catalog: Catalog) -> tuple[str, ...]:
    """The tables ``query``'s statement reads (its metrics' measures), before it is compiled."""
    return tuple(dict.fromkeys(table for table, _ in _leaves(query, catalog)))


def leaf_alias(query: SemanticQuery, catalog: Catalog, measure: Measure) -> str:
    for leaves in _leaves(query, catalog).values():
        for leaf in leaves:
            if leaf.measure == measure:
                return leaf.alias
    raise KeyError(measure)


def _metric_expr(query: SemanticQuery, catalog: Catalog, metric_name: str, extra: tuple[str, ...] = ()) -> exp.Expr:
    """The metric over leaf-alias columns (simple: the leaf; ratio: num / NULLIF(den, 0);
    derived: its formula with each input replaced by the input's own expression)."""
    metric = catalog.metrics[metric_name]
    if metric.is_derived:
        assert metric.formula is not None

        def value(name: str) -> exp.Expr:
            item = metric.inputs[name]
            return exp.paren(_metric_expr(query, catalog, item.metric, (*extra, *item.filters)))

        formula = _parse(metric.formula)
        if isinstance(formula, exp.Column):  # the formula is one input ("expr: fd")
            return value(formula.name)
        for column in sqlexpr.columns(formula):
            column.replace(value(column.name))
        return formula

    def leaf(measure: Measure) -> exp.Expr:
        widened = measure.model_copy(update={"filters": (*measure.filters, *extra)}) if extra else measure
        return exp.column(leaf_alias(query, catalog, widened))

    measures = catalog.measures_of(metric_name)
    if not metric.is_ratio:
        return leaf(measures[0])
    numerator = leaf(measures[0])
    if isinstance(_parse(measures[0].expression), exp.Count | exp.Sum):
        # a key the denominator counts and the numerator does not: its count or sum is 0, not missing
        # (the FULL JOIN of two tables' aggregates, or a FILTER that matched nothing, leaves it NULL)
        numerator = exp.func("COALESCE", numerator, exp.Literal.number(0))
    num = exp.cast(numerator, exp.DataType.build(exp.DataType.Type.DOUBLE))
    den = exp.func("NULLIF", leaf(measures[1]), exp.Literal.number(0))
    return exp.Div(this=num, expression=den)


def _day(column: exp.Expr, timestamps: bool) -> exp.Expr:
    """A time column as a date (a timestamp column is cast; a date column is itself)."""
    return exp.cast(column, exp.DataType.build(exp.DataType.Type.DATE)) if timestamps else column


def bucket(column: exp.Expr, grain: str, timestamps: bool = False) -> exp.Expr:
    """A time column at a grain, as a date (a timestamp's day is its date)."""
    if grain == "day":
        return _day(column.copy(), timestamps)
    trunc = exp.func("DATE_TRUNC", exp.Literal.string(grain), column.copy())
    return exp.cast(trunc, exp.DataType.build(exp.DataType.Type.DATE))


def _shifts(query: SemanticQuery) -> bool:
    """A series compared with the same period a year earlier: last year's rows are moved on (a
    calendar year, or 364 days for a weekday-aligned comparison: :func:`_year_on`), so each period
    of the series meets its own last-year period on one row."""
    return query.grain is not None and query.comparison is not None and query.comparison.kind == "same_period_last_year"


def _aligned(column: exp.Expr, query: SemanticQuery, day: exp.Expr) -> exp.Expr:
    """The time column a series is bucketed by (last year's rows shifted by a year; see :func:`_shifts`)."""
    if not _shifts(query):
        return column
    current = query.time_range
    shifted = exp.Add(this=column.copy(), expression=_year_on(query))
    return exp.Case(
        ifs=[exp.If(this=_between(day.copy(), current.start, current.end), true=column.copy())], default=shifted
    )


def _year_on(query: SemanticQuery) -> exp.Interval:
    """How far last year's rows move on: a calendar year, or — when the comparison was aligned by
    weekday (a week's same period last year is the 52nd week before, 364 days) — exactly the days
    between the two periods' starts, so each day meets the day it is compared with."""
    assert query.comparison is not None
    now, then = query.time_range.start, query.comparison.range.start
    try:
        calendar = then == now.replace(year=now.year - 1)
    except ValueError:  # 29 February: a year back is no calendar date
        calendar = False
    if calendar:
        return exp.Interval(this=exp.Literal.string("1"), unit=exp.var("YEAR"))
    return exp.Interval(this=exp.Literal.string(str((now - then).days)), unit=exp.var("DAY"))


def _select_from(columns: Sequence[exp.Expr], inner: exp.Query, alias: str) -> exp.Select:
    """``SELECT columns FROM (inner) AS alias``, built in place (see the module docstring)."""
    return exp.select(*columns, copy=False).from_(inner.subquery(alias, copy=False), copy=False)


def _named(expr: exp.Expr, name: str) -> exp.Expr:
    if isinstance(expr, exp.Column) and expr.name == name:
        return expr
    return expr.as_(name)


def _time_key(catalog: Catalog, table: str, time_col: str) -> tuple[exp.Expr, bool]:
    timestamps = catalog.tables[table].time_type == "timestamp"
    return exp.column(time_col), timestamps


def _where_resolver(catalog: Catalog, table: str, time_col: str) -> Callable[[str], exp.Expr]:
    """A --where name (a dimension, ``metric_time`` or ``metric_time__<grain>``) as this table's SQL."""
    column, timestamps = _time_key(catalog, table, time_col)

    def resolve(name: str) -> exp.Expr:
        if name == METRIC_TIME:
            return _day(column.copy(), timestamps)
        if name.startswith(f"{METRIC_TIME}__"):
            return bucket(column, name.removeprefix(f"{METRIC_TIME}__"), timestamps)
        return _parse(catalog.dimensions[name].columns[table])

    return resolve


def with_joins(catalog: Catalog, table: str, select: exp.Select) -> exp.Select:
    """Add the LEFT JOINs the select's ``join.column`` references walk, and qualify its other
    columns with the table (joins are many-to-one, so no row is repeated)."""
    paths = sorted({c.table for c in sqlexpr.columns(select) if c.table and c.table != table})
    if not paths:
        return select
    for column in sqlexpr.columns(select):
        # join aliases are entity names ("user", "order"): quoted, so no engine reads a keyword
        column.set("table", exp.to_identifier(column.table or table, quoted=bool(column.table)))
    added: set[str] = set()
    for path in paths:
        previous = exp.to_identifier(table)
        for alias, join in catalog.join_path(table, path):
            name = exp.to_identifier(alias, quoted=True)
            if alias not in added:
                on = _and(
                    [
                        exp.column(a, table=previous.copy()).eq(exp.column(b, table=name.copy()))
                        for a, b in join.on.items()
                    ]
                )
                select = select.join(exp.to_table(join.table).as_(name), on=on, join_type="LEFT", copy=False)
                added.add(alias)
            previous = name
    return select


_STEPS: dict[str, tuple[str, str]] = {
    "day": ("1", "DAY"),
    "week": ("7", "DAY"),
    "month": ("1", "MONTH"),
    "quarter": ("3", "MONTH"),
    "year": ("1", "YEAR"),
}


_Side = Literal["current", "previous"]


def _side_select(
    query: SemanticQuery, catalog: Catalog, source: Source, leaves: list[_Leaf], side: _Side
) -> exp.Select:
    """One source's leaves on one side of each period against the one before it: the periods
    themselves, or the rows of the period before each moved on by one period (a month's rows
    become the next month's "previous")."""
    assert query.grain is not None and query.comparison is not None
    table, time_col = source
    column, timestamps = _time_key(catalog, table, time_col)
    day = _day(column.copy(), timestamps)
    if side == "current":
        rows, period = query.time_range, bucket(column, query.grain, timestamps)
    else:
        count, unit = _STEPS[query.grain]
        step = exp.Interval(this=exp.Literal.string(count), unit=exp.var(unit))
        rows, period = query.comparison.range, bucket(exp.Add(this=column.copy(), expression=step), query.grain, True)
    dims = [(dim, _parse(catalog.dimensions[dim].columns[table])) for dim in query.dimensions]
    keys = [(PERIOD, period), (_CMP, exp.Literal.string(side)), *dims]
    return _aggregate(query, catalog, source, leaves, keys, [_between(day, rows.start, rows.end)])


def _table_select(
    query: SemanticQuery, catalog: Catalog, source: Source, leaves: list[_Leaf], side: _Side | None = None
) -> exp.Select:
    """Aggregate one source's leaves on the query's keys (period, comparison period, dims);
    ``side``: one side of each period against the one before it (:func:`_base`)."""
    if side is not None:
        return _side_select(query, catalog, source, leaves, side)
    assert not query.each_period_before, "each period against the one before is compiled one side at a time"
    table, time_col = source
    column, timestamps = _time_key(catalog, table, time_col)
    day = _day(column.copy(), timestamps)
    keys: list[tuple[str, exp.Expr]] = []
    current = query.time_range
    if query.grain is not None:
        keys.append((PERIOD, bucket(_aligned(column, query, day), query.grain, timestamps or _shifts(query))))
    if query.comparison is not None:
        label = exp.Case(
            ifs=[exp.If(this=_between(day, current.start, current.end), true=exp.Literal.string("current"))],
            default=exp.Literal.string("previous"),
        )
        keys.append((_CMP, label))
    for dim in query.dimensions:
        keys.append((dim, _parse(catalog.dimensions[dim].columns[table])))

    where: list[exp.Expr] = []
    time_cond = _between(day, current.start, current.end)
    if query.comparison is not None:
        # one bounding range (lets the engine prune partitions and the firewall see a time
        # filter), then exactly the two periods inside it
        prev = query.comparison.range
        where.append(_between(day, min(prev.start, current.start), max(prev.end, current.end)))
        earlier = (
            day.copy().isin(*[_date(d) for d in query.comparison.dates()])
            if query.comparison.kind == "same_weekday"  # listed days, not the range between them
            else _between(day, prev.start, prev.end)
        )
        time_cond = exp.paren(exp.or_(exp.paren(time_cond), exp.paren(earlier)))
    where.append(time_cond)
    return _aggregate(query, catalog, source, leaves, keys, where)


def _aggregate(
    query: SemanticQuery,
    catalog: Catalog,
    source: Source,
    leaves: list[_Leaf],
    keys: list[tuple[str, exp.Expr]],
    where: list[exp.Expr],
) -> exp.Select:
    """``source``'s leaves aggregated on ``keys`` over its rows in ``where`` (the time
    conditions) that pass the question's filters and the leaves' own."""
    table, time_col = source
    where = [
        *where,
        *[_member_condition(catalog, table, flt) for flt in query.filters],
        *_named_keys(query, catalog, table),
    ]
    if query.where:
        where.append(where_condition(query.where, _where_resolver(catalog, table, time_col)))

    shared = {leaf.measure.filters for leaf in leaves}
    common_filters = next(iter(shared)) if len(shared) == 1 else ()
    where.extend(_parse(f) for f in common_filters)

    selects: list[exp.Expr] = [_named(expr, name) for name, expr in keys]
    for leaf in leaves:
        agg = _parse(leaf.measure.expression)
        own = tuple(f for f in leaf.measure.filters if f not in common_filters)
        if own:
            cond = _and([_parse(f) for f in own])
            agg = exp.Filter(this=agg, expression=exp.Where(this=cond))
        selects.append(agg.as_(leaf.alias))

    select = exp.select(*selects, copy=False).from_(exp.to_table(table), copy=False)
    cond = _and(where)
    if cond is not None:
        select = select.where(cond, copy=False)
    grouped = [expr.copy() for _, expr in keys if not isinstance(expr, exp.Literal)]  # PostgreSQL: no constants
    if grouped:
        select = select.group_by(*grouped, copy=False)
    return with_joins(catalog, table, select)


def members_only(query: SemanticQuery) -> bool:
    """A ranking or a bound by a dimension, or a member's place asked ("is Singapore the lowest?"):
    of its members, never of rows with an empty key."""
    kept = query.threshold is not None or query.asked_member is not None
    return bool(query.dimensions) and (_ranked(query) or kept)


def _named_keys(query: SemanticQuery, catalog: Catalog, table: str) -> list[exp.Expr]:
    """A ranking by a dimension ranks its members, and a bound keeps (or checks) members: rows
    whose key is empty (NULL) are no member ("which country had the fewest accounts" never answers
    "none", "did every country pass 50k" is not "no" for rows of no country), so they are left
    out — and the answer says so (``baton.orchestrator.unnamed_groups``)."""
    if not members_only(query) or query.contribution:  # a contribution's whole has every row: kept a level up
        return []
    return [exp.not_(_parse(catalog.dimensions[d].columns[table]).is_(exp.null())) for d in query.dimensions]


def _member_condition(catalog: Catalog, table: str, flt: MemberFilter) -> exp.Expr:
    """A member filter on ``table``'s rows: ``IN``, or ``NOT IN`` that keeps rows of unknown member."""
    dimension = _parse(catalog.dimensions[flt.dimension].columns[table])
    members = dimension.isin(*[exp.Literal.string(m) for m in flt.members])
    # "all but live stream" keeps rows whose channel is unknown (NULL)
    unknown = dimension.copy().is_(exp.null())
    return exp.paren(exp.or_(exp.not_(members), unknown)) if flt.exclude else members


def _loaded_by_every(query: SemanticQuery, catalog: Catalog, sources: list[Source]) -> exp.Query:
    """The keys any source's table holds (a member only the second metric's table has is a row),
    each row with the index of its source (``spine.SOURCE``: a series fills each metric's quiet
    periods between its own table's first and last, never before a table that starts later)."""
    branches = [
        _loaded(query, catalog, source).select(exp.Literal.number(i).as_(spine.SOURCE), append=True, copy=False)
        for i, source in enumerate(sources)
    ]
    loaded: exp.Query = branches[0]
    for branch in branches[1:]:
        loaded = exp.union(loaded, branch, distinct=False)
    return loaded


def _own_sources(query: SemanticQuery, catalog: Catalog, sources: list[Source]) -> dict[str, int]:
    """Each value column's one source (its index in ``sources``), for a metric read from one table."""
    own: dict[str, int] = {}
    for metric in query.metrics:
        read = list(_leaves(query.model_copy(update={"metrics": (metric,)}), catalog))
        if len(read) == 1 and read[0] in sources:
            own[value_column(query, metric)] = sources.index(read[0])
    return own


def _loaded(query: SemanticQuery, catalog: Catalog, source: Source) -> exp.Select:
    """The periods and members ``source``'s table holds in the question's range, whatever its
    other filters (only its filters on the keys themselves apply): where the table has rows, the
    data is there, and a key the question's rows miss is a 0 (``baton.catalog.spine``). A
    breakdown of a metric dated by another column than the table's own (cancellations of
    subscriptions) takes the members of every row the table holds by the period's end: a group
    with none in the period is a 0 too, never missing — and a row adds no empty key (an active
    subscription has no cancel reason) unless it is an event of the period."""
    table, time_col = source
    own = catalog.tables[table].time_column
    event_dated = query.grain is None and own is not None and own != time_col
    column, timestamps = _time_key(catalog, table, time_col)
    day = _day(column.copy(), timestamps)
    keys: list[tuple[str, exp.Expr]] = []
    if query.grain is not None:
        keys.append((PERIOD, bucket(column, query.grain, timestamps)))
    keys += [(dim, _parse(catalog.dimensions[dim].columns[table])) for dim in query.dimensions]
    in_period = _between(day, query.time_range.start, query.time_range.end)
    where: list[exp.Expr] = [in_period]
    if event_dated and own is not None:  # every row held by the period's end; an empty key only with an event
        held_column, held_timestamps = _time_key(catalog, table, own)
        held_day = _day(held_column, held_timestamps)
        named = exp.and_(*[exp.not_(expr.copy().is_(exp.null())) for _, expr in keys], copy=False)
        earlier = exp.and_(exp.LTE(this=held_day, expression=_date(query.time_range.end)), named, copy=False)
        where = [exp.or_(exp.paren(in_period.copy()), exp.paren(earlier), copy=False)]
    where += [
        _member_condition(catalog, table, f)
        for f in query.filters
        if f.dimension in query.dimensions or _attribute_of_a_key(catalog, table, f.dimension, query.dimensions)
    ]
    where += _named_keys(query, catalog, table)
    # an aggregate of its own: the keys are groups of rows, never rows (an aggregate-only table, an export)
    held = exp.Count(this=exp.Star()).as_("rows_held")
    select = exp.select(*[_named(expr, name) for name, expr in keys], held, copy=False).from_(
        exp.to_table(table), copy=False
    )
    select = select.where(_and(where), copy=False).group_by(*[expr.copy() for _, expr in keys], copy=False)
    return with_joins(catalog, table, select)


def _attribute_of_a_key(catalog: Catalog, table: str, dimension: str, keys: Sequence[str]) -> bool:
    """Whether ``dimension`` and a breakdown key are one and the same thing said two ways: one read
    through a join on the other's column (an airline's name of a breakdown by carrier code, a
    destination's time zone of one by destination, a carrier code of a breakdown by airline name),
    or both read from one joined row (an airport's time zone of a breakdown by airport name). A
    filter on it removes whole members of the key — never a 0 for the carrier "excluding United"
    left out."""
    joins = catalog.tables[table].joins

    def join_of(column: str) -> str | None:
        alias, dot, _ = column.partition(".")
        return alias if dot and alias in joins else None

    column = catalog.dimensions[dimension].columns.get(table, "")
    keyed = [catalog.dimensions[d].columns.get(table, "") for d in keys]
    through = join_of(column)
    if through is not None and (set(joins[through].on) <= set(keyed) or through in map(join_of, keyed)):
        return True
    return any(column in joins[alias].on for alias in map(join_of, keyed) if alias is not None)


def compile_query(
    query: SemanticQuery, catalog: Catalog, dialect: Dialect = "duckdb", *, plain: bool = False, fill_gaps: bool = True
) -> CompiledQuery:
    """The governed SQL of ``query`` (its columns follow the shapes in the module docstring).

    An answer's statement shows a series' quiet periods as 0 (``baton.catalog.spine``; ``fill_gaps``:
    the engine can take it) and keeps the rows that tie at a top N's last place. ``plain`` leaves
    both out: an analysis reads its daily components' missing days itself, and for a user who
    reads a table only in groups of a minimum size a hidden group is no zero, and the aggregating
    level must stay outermost for the firewall to count the groups it hid. A ranking of weeks,
    months or quarters ranks those the period holds whole (``spine.whole_periods``)."""
    if query.average_per is not None and (query.grain is not None or query.share):  # copied unvalidated
        fields = average_fields(query.average_per)
        raise QuestionRefused(*both("nlu.average_with_share" if query.share else "catalog.average_series", **fields))
    shape = _Shape(ties=not plain, spine=fill_gaps and not plain, floored=plain)
    asked = query.time_range
    whole = spine.whole_query(query)
    if whole is not None:  # a ranking of weeks or months: those the period holds whole
        query = whole
    if query.share:  # the periods of a share of the range are of the whole range asked, never the trimmed one
        return _compile_share(query, catalog, dialect, shape, asked)
    return _compile_plain(query, catalog, dialect, shape)


@dataclass(frozen=True)
class _Shape:
    """What an answer's statement adds to the plain aggregate (see :func:`compile_query`)."""

    ties: bool
    spine: bool
    floored: bool = False
    """Compiled plain for a user with a minimum group size: a group missing on one side may be
    hidden by the floor, so it is never a 0."""


def _ranked(query: SemanticQuery) -> bool:
    """Rows ordered by the first metric (or its change): a top N, one place, or a ranking of every row ("rank the regions")."""
    ranked = query.top_n is not None or query.rank_place is not None or query.intent == "ranking"
    return ranked or query.rank_by != "value"


def _contribution_columns(metric: str, change: exp.Expr) -> list[exp.Expr]:
    """The change of every group together (a window over all of them — the rows of an empty key
    too —, read before a top N keeps some) and each group's part of it: "which channel contributed
    most to the decline" is answered with the whole's move beside it, so a whole that rose is said,
    never left to be assumed. Not for a user with a minimum group size: the groups it hides would
    be missing from the whole."""
    whole = exp.Window(this=exp.Sum(this=change.copy()))
    part = exp.Case().when(
        exp.NEQ(this=whole.copy(), expression=exp.Literal.number(0)),
        exp.Div(
            this=exp.cast(exp.paren(change.copy()), exp.DataType.build(exp.DataType.Type.DOUBLE)),
            expression=whole.copy(),
        ),
    )
    return [whole.as_(f"{metric}_change_whole"), part.as_(f"{metric}_change_share")]


def _rank_rows(
    final: exp.Select, query: SemanticQuery, metric: str, columns: Sequence[str], keys: Sequence[str], ties: bool
) -> exp.Select:
    """Order by ``metric`` (NULLs last) and keep the top N — with every row that ties the N-th
    (``RANK() <= N``, as ``FETCH FIRST N ROWS WITH TIES``) — or the rows at ``rank_place``: the
    place-th value from the top, rows that tie sharing a place (``DENSE_RANK() = place``: "the
    second highest" after two tied highest is the next value), every row with it. Without ``ties``, a top N is
    ``LIMIT N`` and a place the one row ``OFFSET`` place − 1, ties broken by the row's keys."""
    by = exp.Ordered(this=exp.column(metric), desc=query.order == "desc", nulls_first=False)
    listed = query.listed or query.order  # the rows kept, in the order the question lists them
    shown = exp.Ordered(this=exp.column(metric), desc=listed == "desc", nulls_first=False)
    within = [k for k in keys if k in query.rank_within or (k == PERIOD and query.rank_each_period)]
    then = [exp.Ordered(this=exp.column(k)) for k in keys if k not in within]
    if within:  # "每个渠道GMV最高的2个品类", "每个月GMV最高的渠道": the top N inside each group, groups in order
        lead = [exp.Ordered(this=exp.column(k)) for k in within]
        if not ties:  # plain: every row, each group's ranked; the answer takes the top of each
            return final.order_by(*lead, by, *then, copy=False)
        top = exp.Literal.number(query.top_n or 1)
        kept = _kept_by_window(
            final, columns, exp.Rank(), by, RANK, lambda rank: exp.LTE(this=rank, expression=top), partition=within
        )
        return kept.order_by(*lead, shown, *then, copy=False)
    if query.rank_place is not None and not ties:
        return final.order_by(by, *then, copy=False).limit(1, copy=False).offset(query.rank_place - 1, copy=False)
    if query.rank_place is not None:  # the place-th value from the top (ties share a place), every row with it
        place = exp.Literal.number(query.rank_place)
        return _at_place(final, columns, by, place).order_by(*then, copy=False)
    if query.top_n is None:
        return final.order_by(shown, copy=False)
    if not ties:  # plain: the aggregating level stays outermost, so the rows stay in the ranking's order
        return final.order_by(by, copy=False).limit(query.top_n, copy=False)
    top = exp.Literal.number(query.top_n)
    kept = _kept_by_window(final, columns, exp.Rank(), by, RANK, lambda rank: exp.LTE(this=rank, expression=top))
    return kept.order_by(shown, *then, copy=False)


def _passing(final: exp.Select, threshold: Threshold, column: str, columns: Sequence[str]) -> exp.Select:
    """``final``'s rows whose ``column`` passes ``threshold`` (a level up: it bounds an aggregate's
    output, so a group is kept or dropped whole, and a group the spine fills with 0 is one too)."""
    compare = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE}[threshold.op]
    kept = _select_from([exp.column(c) for c in columns], final, "grouped")
    passing: exp.Expr = compare(this=exp.column(column), expression=_bound(threshold.value))
    if threshold.upper is not None:  # "在100万到500万之间": both ends kept
        passing = exp.and_(passing, exp.LTE(this=exp.column(column), expression=_bound(threshold.upper)))
    return kept.where(passing, copy=False)


def checked_bound(query: SemanticQuery) -> Threshold | None:
    """The bound a yes/no question checks ("上个月GMV超过1.5亿吗", "每个渠道都超过100万吗"): every
    row is kept and compared with it; none when the threshold keeps groups (or there is none)."""
    bound = query.threshold
    return bound if bound is not None and bound.check == "all" else None


def _bound(value: float) -> exp.Expr:
    """A threshold as a plain decimal literal (``5000000``, ``0.05``; never ``5e+06``)."""
    return exp.Literal.number(format(Decimal(repr(value)).normalize(), "f"))


def _at_place(final: exp.Select, columns: Sequence[str], by: exp.Ordered, place: exp.Expr) -> exp.Select:
    """The rows that hold ``place`` in a competition ranking (as a top N counts them: two tied
    second hold places 2 and 3, so "the third" is them, never the next value), with how many rows
    rank above them (``AHEAD``: ``RANK() - 1``)."""
    rank = exp.Window(this=exp.Rank(), order=exp.Order(expressions=[by.copy()]))
    tied = exp.Window(this=exp.Count(this=exp.Star()), partition_by=[by.this.copy()])
    marked = _select_from([*[exp.column(c) for c in columns], rank.as_(RANK), tied.as_(TIED)], final, "ranked_rows")
    ahead = exp.Sub(this=exp.column(RANK), expression=exp.Literal.number(1)).as_(AHEAD)
    kept = _select_from([*[exp.column(c) for c in columns], ahead], marked, "ranked")
    last_held = exp.Sub(
        this=exp.Add(this=exp.column(RANK), expression=exp.column(TIED)), expression=exp.Literal.number(1)
    )
    return kept.where(
        exp.and_(exp.LTE(this=exp.column(RANK), expression=place), exp.GTE(this=last_held, expression=place.copy())),
        copy=False,
    )


def _kept_by_window(
    final: exp.Select,
    columns: Sequence[str],
    function: exp.Expr,
    by: exp.Ordered,
    alias: str,
    keep: Callable[[exp.Column], exp.Expr],
    *,
    partition: Sequence[str] = (),
) -> exp.Select:
    """``final``'s ``columns``, for the rows whose ``function() OVER (PARTITION BY partition ORDER
    BY by)`` passes ``keep`` (the window is computed a level up: it orders by an aggregate's output
    column)."""
    window = exp.Window(
        this=function,
        partition_by=[exp.column(k) for k in partition] or None,
        order=exp.Order(expressions=[by.copy()]),
    )
    marked = _select_from([*[exp.column(c) for c in columns], window.as_(alias)], final, "ranked_rows")
    kept = _select_from([exp.column(c) for c in columns], marked, "ranked")
    return kept.where(keep(exp.column(alias)), copy=False)


def share_of_the_range(query: SemanticQuery) -> bool:
    """A share of a series with no part or breakdown named ("各月GMV占全年的比例", "each month's share
    of 2025 orders"): each period's share of the whole range — the one whole it can be of."""
    return query.share and query.grain is not None and not query.dimensions and not query.share_filters


def share_comparison_built(query: SemanticQuery) -> bool:
    """Whether a share's comparison (if any) is one this compiler builds: one period's parts of one
    whole against another period's, listed or ranked by the share now — never inside each group,
    over a series, ranked by a change, bounded, or as which parts moved (one part's move asked yes or
    no is built: "did app's share grow")."""
    if query.comparison is None:
        return True
    unbuilt = query.grain is not None or query.rank_by != "value" or query.share_within or query.threshold is not None
    return not (unbuilt or (query.premise_asked is not None and bool(query.dimensions)))


def _compile_share(
    query: SemanticQuery, catalog: Catalog, dialect: Dialect, shape: _Shape, asked: TimeRange
) -> CompiledQuery:
    """Each metric over the part the question names, next to its share of the whole (for a share of
    the range, the whole over the range ``asked``, though a ranking keeps only the whole weeks)."""
    ratios = [m for m in query.metrics if not catalog.metrics[m].amount_or_count]  # a share of a rate means nothing
    if not share_comparison_built(query):  # baton.nlu.catalog_checks asks it back first
        raise QuestionRefused(*both("nlu.share_with_comparison"))
    if ratios:
        raise QuestionRefused(*both("catalog.share_not_additive", metric=", ".join(ratios)))
    # the part is ranked by its share below, never cut by its own value first
    unshared = {"share": False, "share_filters": (), "top_n": None, "rank_place": None, "threshold": None}
    part = _compile_plain(
        query.model_copy(update={**unshared, "filters": (*query.filters, *query.share_filters)}),
        catalog,
        dialect,
        shape,
    )
    over_the_range = share_of_the_range(query)  # "各月GMV占全年的比例": each period of the range's total
    whole = _compile_plain(  # no spine of its own: a period the part lacks is a 0 of a whole that has rows
        query.model_copy(
            update={
                **unshared,
                "dimensions": query.share_within,
                **({"grain": None, "time_range": asked} if over_the_range else {}),
            }
        ),
        catalog,
        dialect,
        _Shape(ties=False, spine=False),
    )
    assert isinstance(part.expression, exp.Query) and isinstance(whole.expression, exp.Query)
    _rename_ctes(whole.expression, "whole_")  # Spark lifts nested CTEs to the top: the part's and the whole's apart
    keys = [PERIOD] if query.grain is not None else []
    outs = _share_outputs(query, keys)
    columns = [o.alias_or_name for o in outs]
    final = _with_the_whole(_select_from(outs, part.expression, "n"), whole, query, [] if over_the_range else keys)
    if members_only(query):  # the parts ranked or bounded are members; the whole keeps every row
        named = [exp.not_(exp.column(d, table="n").is_(exp.null())) for d in query.dimensions]
        final = final.where(exp.and_(*named, copy=False), copy=False)
    bounded: tuple[str, ...] = ()
    if query.threshold is not None and checked_bound(query) is None:  # "GMV占比超过一半的渠道": the parts that pass
        final = _passing(final, query.threshold, bounded_column(query), columns)
        bound = query.threshold
        bounded = (f"{bounded_column(query)} {bound.op} {_bound(bound.value).sql()}",)
    if _ranked(query):
        # by the share: over periods each has its own whole, so the largest part need not be the largest share
        by_share = f"{query.metrics[0]}_share"
        final = _rank_rows(final, query, by_share, columns, [*keys, *query.dimensions], shape.ties)
        columns += [AHEAD] if query.rank_place is not None and shape.ties else []
    elif query.listed is not None:  # "各渠道GMV占比，从低到高": the parts by their share, as said
        by = exp.Ordered(this=exp.column(f"{query.metrics[0]}_share"), desc=query.listed == "desc", nulls_first=False)
        final = final.order_by(
            *[exp.column(k) for k in keys], by, *[exp.column(d) for d in query.dimensions], copy=False
        )
    elif keys or query.dimensions:
        final = final.order_by(*[exp.column(k) for k in (*keys, *query.dimensions)], copy=False)
    return CompiledQuery(
        sql=final.sql(dialect=dialect, pretty=True),
        dialect=dialect,
        expression=final,
        columns=tuple(columns),
        tables=part.tables,
        filters_applied=(*part.filters_applied, *bounded),
        aggregation_logic=(
            *part.aggregation_logic,
            *(f"{m}_share: {m} / {m}_whole, {m} of the whole" for m in query.metrics),
            *(
                f"{m}_share_change: {m}_share - {m}_previous_share, each period's share of its own whole"
                for m in (query.metrics if query.comparison is not None else ())
            ),
        ),
        filled=part.filled,
    )


def _rename_ctes(statement: exp.Query, prefix: str) -> None:
    """Rename the CTEs of ``statement`` (and the references to them) with ``prefix``, in place: two
    subqueries compiled alike name theirs alike ("base", "cmp"), and a dialect without nested CTEs
    (sqlglot lifts them to the top for Spark) must not merge them into one name."""
    names = {cte.alias for cte in statement.find_all(exp.CTE)}
    for cte in statement.find_all(exp.CTE):
        cte.set("alias", exp.TableAlias(this=exp.to_identifier(prefix + cte.alias)))
    for table in statement.find_all(exp.Table):
        if table.name in names and not table.db:
            table.set("this", exp.to_identifier(prefix + table.name))


def _sides(query: SemanticQuery, metric: str) -> list[str]:
    """A metric's column of each period compared ("m", "m_previous"), or its one column."""
    return [metric, f"{metric}_previous"] if query.comparison is not None else [metric]


def _share_outputs(query: SemanticQuery, keys: list[str]) -> list[exp.Expr]:
    """The part ("n") and its share of the whole ("d") for each metric and period compared — each
    period's share of its own whole — and with a comparison the share's move (in points, as a
    ratio's change) beside the part's own change."""
    outs: list[exp.Expr] = [exp.column(k, table="n") for k in (*keys, *query.dimensions)]
    for m in query.metrics:
        shares = []
        for side in _sides(query, m):  # "gmv_previous_share": of that period's whole
            share = exp.Div(
                this=exp.cast(exp.column(side, table="n"), exp.DataType.build(exp.DataType.Type.DOUBLE)),
                expression=exp.func("NULLIF", exp.column(side, table="d"), exp.Literal.number(0)),
            )
            shares.append(share)
            whole_of = exp.column(side, table="d").as_(f"{side}_whole")
            outs += [exp.column(side, table="n").as_(side), share.copy().as_(f"{side}_share"), whole_of]
        if query.comparison is not None:
            now, before = shares
            outs.append(exp.Sub(this=exp.paren(now), expression=exp.paren(before)).as_(f"{m}_share_change"))
            outs += [exp.column(c, table="n").as_(c) for c in (f"{m}_change", f"{m}_change_pct")]
    return outs


def _with_the_whole(final: exp.Select, whole: CompiledQuery, query: SemanticQuery, keys: list[str]) -> exp.Select:
    """The part's rows joined to their whole: by period and the groups each is the whole of, or —
    one row — across (metrics of two tables, or a comparison's pivot, first said as one row)."""
    assert isinstance(whole.expression, exp.Query)
    groups = list(query.share_within)
    if keys or groups:
        on = _and([exp.column(k, table="n").eq(exp.column(k, table="d")) for k in (*keys, *groups)])
        return final.join(whole.expression.subquery("d", copy=False), on=on, join_type="LEFT", copy=False)
    one_row = whole.expression
    if len(whole.tables) > 1 or query.comparison is not None:
        maxima = [exp.func("MAX", exp.column(s)).as_(s) for m in query.metrics for s in _sides(query, m)]
        one_row = _select_from(maxima, whole.expression, "whole_row")
    return final.join(one_row.subquery("d", copy=False), join_type="CROSS", copy=False)


def definition_text(catalog: Catalog, name: str) -> str:
    """A metric's computation in one line: its expression, ``num / den`` or its formula."""
    metric = catalog.metrics[name]
    if metric.is_derived:
        inputs = ", ".join(
            f"{k} = {v.metric}" + (f" [{' AND '.join(v.filters)}]" if v.filters else "")
            for k, v in metric.inputs.items()
        )
        return f"{metric.formula} ({inputs})"
    if metric.is_ratio:
        parts = [p.expression if isinstance(p, Measure) else str(p) for p in (metric.numerator, metric.denominator)]
        return f"{parts[0]} / {parts[1]}"
    return metric.expression or ""


def _ordering(keys: tuple[str, ...], output: list[str]) -> list[exp.Ordered]:
    """``-m,dim`` as ORDER BY m DESC NULLS LAST, dim ASC NULLS LAST (names checked against the output)."""
    ordered = []
    for key in keys:
        name = key.removeprefix("-")
        if name not in output:
            raise InvalidInput(*both("catalog.bad_order", key=name, columns=", ".join(output)))
        ordered.append(exp.Ordered(this=exp.column(name), desc=key.startswith("-"), nulls_first=False))
    return ordered


def bounded_column(query: SemanticQuery) -> str:
    """The output column the query's threshold bounds: a metric's value, or its change ("gmv_change_pct")."""
    assert query.threshold is not None
    column = value_column(query, query.threshold.metric)
    return column if query.threshold.of == "value" else f"{column}_{query.threshold.of}"  # gmv_share, gmv_change


def value_column(query: SemanticQuery, metric: str) -> str:
    """The output column that holds ``metric``'s value ("revenue", or "revenue_per_day")."""
    return metric if query.average_per is None else f"{metric}_per_{query.average_per}"


def shown_metric(query: SemanticQuery, names: list[str]) -> str | None:
    """The first of the query's metrics whose value column is among ``names`` (a result's columns)."""
    return next((m for m in query.metrics if value_column(query, m) in names), None)


def averaged_over(query: SemanticQuery) -> tuple[int, ...]:
    """How many days (weeks, months …) an average per day (week …) divides the period by, and the
    comparison's; QuestionRefused when either cuts a week or a month (a part-week is no week)."""
    per = query.average_per
    assert per is not None
    if query.comparison is not None and per == "day":  # "the same weekday" compares chosen days
        return query.time_range.days, len(query.comparison.dates())
    ranges = [query.time_range] + ([query.comparison.range] if query.comparison is not None else [])
    counts = [spine.whole_period_count(r.start, r.end, per) for r in ranges]
    whole = [count for count in counts if count is not None]
    if len(whole) < len(counts):
        cut = next(r for r, count in zip(ranges, counts, strict=True) if count is None)
        raise QuestionRefused(
            *both("catalog.average_cuts_a_period", start=cut.start, end=cut.end, **average_fields(per)),
            detail={"reason": "average_cuts_a_period"},
        )
    return tuple(whole)


def _total_of_sums(query: SemanticQuery, catalog: Catalog, shape: _Shape) -> bool:
    """One figure of sums and counts ("views on 2020-01-03"): no rows in its period is a 0, as a
    series' quiet day is (in the answer's statement, whose series the spine fills: never a share's
    whole, joined as the one row it is) — unless the user's minimum group size may have hidden them."""
    keyed = query.grain is not None or bool(query.dimensions)
    sums = all(catalog.metrics[m].amount_or_count for m in query.metrics)
    return not keyed and shape.spine and not shape.floored and sums


def _totals(query: SemanticQuery, catalog: Catalog) -> list[str]:
    """The metrics of an average whose total is said beside it: the additive ones."""
    if query.average_per is None:
        return []
    return [m for m in query.metrics if catalog.metrics[m].additive]


def _averaged(query: SemanticQuery, keys: list[str], totals: list[str]) -> exp.Select:
    """Each metric's values per day (week …; the ``per_period`` CTE) summed and divided by how many
    — and, with no comparison, the ``totals`` (the additive metrics) summed alone: the total the
    average is of, said beside it. A distinct count's daily values summed are no total of the
    period (a buyer of two days counted twice): none is given."""
    counts = [exp.Literal.number(n) for n in averaged_over(query)]
    divisor: exp.Expr = counts[0]
    if len(counts) > 1:
        is_current = exp.column(_CMP).eq(exp.Literal.string("current"))
        divisor = exp.Case(ifs=[exp.If(this=is_current, true=counts[0])], default=counts[1])
    averages = [
        exp.Div(
            this=exp.cast(exp.func("SUM", exp.column(m)), exp.DataType.build(exp.DataType.Type.DOUBLE)),
            expression=divisor.copy(),
        ).as_(value_column(query, m))
        for m in query.metrics
    ]
    if query.comparison is None:  # "本周GMV，日均多少": the period's total beside its average
        averages += [exp.func("SUM", exp.column(m)).as_(f"{m}_total") for m in totals]
    select = exp.select(*[exp.column(k) for k in keys], *averages, copy=False).from_(
        exp.table_("per_period"), copy=False
    )
    return select.group_by(*[exp.column(k) for k in keys], copy=False) if keys else select


def _one_table(query: SemanticQuery, catalog: Catalog) -> bool:
    """No metric is a ratio or a formula of others: one source's leaves are the metrics themselves."""
    return not any(catalog.metrics[m].is_ratio or catalog.metrics[m].is_derived for m in query.metrics)


def _base(
    query: SemanticQuery,
    catalog: Catalog,
    by_table: dict[Source, list[_Leaf]],
    key_names: list[str],
    metric_cols: list[exp.Expr],
) -> tuple[list[tuple[str, exp.Query]], exp.Select]:
    """The aggregate the answer's statement is built on, and the CTEs it reads. Each period
    against the one before it is its two sides stacked (``UNION ALL``), each side over its own
    range — the ranges overlap (February is March's month before and a month of its own), so
    each row counts once in each; a side's tables are joined before the sides are stacked, as a
    plain series joins them (Spark estimates a join of stacked rows as their product)."""
    if not query.each_period_before:
        return _joined(query, catalog, by_table, key_names, metric_cols)
    ctes: list[tuple[str, exp.Query]] = []
    sides: list[exp.Select] = []
    for side in ("current", "previous"):
        side_ctes, side_base = _joined(query, catalog, by_table, key_names, [c.copy() for c in metric_cols], side)
        ctes += side_ctes
        sides.append(side_base)
    return ctes, _select_from([exp.Star()], exp.union(*sides, distinct=False, copy=False), "both_periods")


def _joined(
    query: SemanticQuery,
    catalog: Catalog,
    by_table: dict[Source, list[_Leaf]],
    key_names: list[str],
    metric_cols: list[exp.Expr],
    side: _Side | None = None,
) -> tuple[list[tuple[str, exp.Query]], exp.Select]:
    """One source's aggregate; or, for metrics over several tables (a ratio of two tables'
    measures), each source's aggregate as a CTE, joined on the keys. ``side``: one side of each
    period against the one before it, its CTEs named for it."""
    if len(by_table) == 1 and _one_table(query, catalog):
        source, leaves = next(iter(by_table.items()))
        return [], _table_select(query, catalog, source, leaves, side)
    tables = [table for table, _ in by_table]
    suffix = f"__{side}" if side is not None else ""
    ctes: list[tuple[str, exp.Query]] = [
        (
            (f"agg_{table}" if tables.count(table) == 1 else f"agg_{table}__{time_col}") + suffix,
            _table_select(query, catalog, (table, time_col), leaves, side),
        )
        for (table, time_col), leaves in by_table.items()
    ]
    names = [name for name, _ in ctes]
    if not key_names:
        base = exp.select(*metric_cols, copy=False).from_(exp.table_(names[0]), copy=False)
        for name in names[1:]:
            base = base.join(exp.table_(name), join_type="CROSS", copy=False)
        return ctes, base
    return ctes, _joined_on_keys(list(zip(names, by_table.values(), strict=True)), key_names, metric_cols)


_KEYS = "all_keys"


def _typed_null(column: str, table: str) -> exp.Expr:
    """``(SELECT column FROM table WHERE 1 = 0)``: NULL, typed as the column is."""
    never = exp.EQ(this=exp.Literal.number(1), expression=exp.Literal.number(0))
    return exp.select(exp.column(column), copy=False).from_(exp.table_(table), copy=False).where(never).subquery()


def _joined_on_keys(
    ctes: list[tuple[str, list[_Leaf]]], key_names: list[str], metric_cols: list[exp.Expr]
) -> exp.Select:
    """Several tables' aggregates side by side on their keys: every key any of them holds (a
    member one table lacks is still a row), an empty key (NULL) one group of all of them, never
    two half rows. Stacked and grouped rather than joined: a FULL JOIN on ``IS NOT DISTINCT
    FROM`` is refused by PostgreSQL, and a join on it is costed as a cross product. The first
    branch's columns of other tables are NULLs of the column's own type (an empty scalar subquery
    of it): PostgreSQL types a UNION pairwise from the left, and two untyped NULLs are text."""
    aliases = [leaf.alias for _, leaves in ctes for leaf in leaves]
    owner = {leaf.alias: name for name, leaves in ctes for leaf in leaves}
    branches = []
    for i, (name, leaves) in enumerate(ctes):
        own = {leaf.alias for leaf in leaves}
        # typed in the first branch only: a later NULL takes the type the column has by then
        columns = [
            exp.column(a) if a in own else (_typed_null(a, owner[a]) if i == 0 else exp.Null()).as_(a) for a in aliases
        ]
        branches.append(
            exp.select(*[exp.column(k) for k in key_names], *columns, copy=False).from_(exp.table_(name), copy=False)
        )
    stacked: exp.Query = branches[0]
    for branch in branches[1:]:
        stacked = exp.union(stacked, branch, distinct=False)
    keys = [exp.column(k) for k in key_names]
    grouped = (
        exp.select(*keys, *[exp.func("MAX", exp.column(a)).as_(a) for a in aliases], copy=False)
        .from_(stacked.subquery("stacked", copy=False), copy=False)
        .group_by(*[k.copy() for k in keys], copy=False)
    )
    return exp.select(*[exp.column(k) for k in key_names], *metric_cols, copy=False).from_(
        grouped.subquery(_KEYS, copy=False), copy=False
    )


def _side_of(value: str, which: str, *, zero: bool, one_figure: bool = False) -> exp.Expr:
    """One period's value of a compared row (``MAX`` of the one row of that side); with ``zero``, 0
    when the group has no row there but other groups do (a day the table holds no row at all is
    unknown, never 0) — or, for ``one_figure`` of the answer's own statement (no groups, the data
    span checked before it is built), 0 whenever the period has no row, as its total alone is."""

    def on_side(then: exp.Expr) -> exp.Expr:
        return exp.Case(ifs=[exp.If(this=exp.column(_CMP).eq(exp.Literal.string(which)), true=then)])

    taken: exp.Expr = exp.func("MAX", on_side(exp.column(value)))
    if zero and one_figure:  # p68: "12月 vs 11月 bookings" with no booking in November: 0, never "—"
        taken = exp.func("COALESCE", taken, exp.Literal.number(0))
    elif zero:  # 0 where another group has rows on this side (the table holds the period), else unknown
        held = on_side(exp.Literal.number(1))
        any_row = exp.Window(this=exp.func("MAX", exp.func("MAX", held)))
        some = exp.Case(
            ifs=[exp.If(this=exp.EQ(this=any_row, expression=exp.Literal.number(1)), true=exp.Literal.number(0))]
        )
        taken = exp.func("COALESCE", taken, some)
    return taken.as_(value if which == "current" else f"{value}_previous")


def _compile_plain(query: SemanticQuery, catalog: Catalog, dialect: Dialect, shape: _Shape) -> CompiledQuery:
    if query.average_per is not None:
        averaged = [m for m in query.metrics if not catalog.metrics[m].amount_or_count]
        if averaged:
            raise QuestionRefused(
                *both("catalog.average_not_additive", metric=", ".join(averaged), **average_fields(query.average_per)),
                detail={"metrics": averaged, "reason": "average_not_additive"},
            )
    daily = query if query.average_per is None else query.model_copy(update={"grain": query.average_per})
    by_table = _leaves(daily, catalog)
    key_names = (
        ([PERIOD] if daily.grain is not None else [])
        + ([_CMP] if query.comparison is not None else [])
        + list(query.dimensions)
    )
    metric_cols = [_named(_metric_expr(daily, catalog, m), m) for m in query.metrics]

    ctes, base = _base(daily, catalog, by_table, key_names, metric_cols)

    totals = _totals(query, catalog)
    if query.average_per is not None:
        ctes.append(("per_period", base))
        key_names = [k for k in key_names if k != PERIOD]
        base = _averaged(query, key_names, totals)
    values = [value_column(query, m) for m in query.metrics]

    output: list[str]
    filled = query.comparison is None and shape.spine and spine.fills_gaps(query, catalog)
    if query.comparison is None:
        final = base
        output = [*key_names, *values, *(f"{m}_total" for m in totals)]
        if filled:
            ctes.append((spine.MEASURED, base))
            ctes.append((spine.LOADED, _loaded_by_every(daily, catalog, list(by_table))))
            own = _own_sources(daily, catalog, list(by_table)) if len(by_table) > 1 and daily.grain else None
            final = spine.on_spine(query, PERIOD, list(query.dimensions), values, own)
        elif _total_of_sums(query, catalog, shape):  # no rows in the period: 0 orders, ¥0 — never "n/a"
            zero = exp.Literal.number(0)
            zeroed = [*values, *(f"{m}_total" for m in totals)]
            final = _select_from([exp.func("COALESCE", exp.column(v), zero).as_(v) for v in zeroed], base, "total")
    else:
        ctes.append(("base", base))
        group = [k for k in key_names if k != _CMP]
        # a sum or a count (or its average per day) of a group with no rows in one period is 0 there (a
        # member that stopped churning fell by all of it), never "n/a"; a rate has no value — and for a
        # user with a minimum group size a missing side may be a hidden group, never a 0
        summed = {value_column(query, m) for m in query.metrics if catalog.metrics[m].amount_or_count}
        summed = set() if shape.floored else summed
        # the period asked is checked against the newest load; the one compared only when it is earlier
        # (s23: "first half of June compared to the first half of July", July not loaded: never 0)
        loaded = {"current": True, "previous": query.comparison.range.end < query.time_range.start}
        pivot = exp.select(
            *[exp.column(k) for k in group],
            *[
                _side_of(m, which, zero=m in summed, one_figure=not group and shape.spine and loaded[which])
                for m in values
                for which in ("current", "previous")
            ],
            copy=False,
        ).from_(exp.table_("base"), copy=False)
        if group:
            pivot = pivot.group_by(*[exp.column(k) for k in group], copy=False)
        ctes.append(("cmp", pivot))
        outs: list[exp.Expr] = [exp.column(k) for k in group]
        output = list(group)
        for m in values:
            cur, prev = exp.column(m), exp.column(f"{m}_previous")
            change = exp.Sub(this=cur.copy(), expression=prev.copy())
            # a change in percent is of a positive base only: from -5.44 to -3.14 is up 2.30, never
            # "-42.23%" (dividing by a negative base turns the sign); from 0 it has none
            pct = exp.Case().when(
                exp.GT(this=prev.copy(), expression=exp.Literal.number(0)),
                exp.Div(
                    this=exp.cast(exp.paren(change.copy()), exp.DataType.build(exp.DataType.Type.DOUBLE)),
                    expression=prev.copy(),
                ),
            )
            outs += [cur, prev, change.as_(f"{m}_change"), pct.as_(f"{m}_change_pct")]
            output += [m, f"{m}_previous", f"{m}_change", f"{m}_change_pct"]
            if (
                query.contribution
                and m == values[0]
                and not shape.floored
                and catalog.metrics[query.metrics[0]].additive
            ):
                outs += _contribution_columns(m, change)
                output += [f"{m}_change_whole", f"{m}_change_share"]
        final = exp.select(*outs, copy=False).from_(exp.table_("cmp"), copy=False)
        if query.contribution:  # the whole over every row (an empty key's too), then the members ranked
            named = exp.and_(*[exp.not_(exp.column(d).is_(exp.null())) for d in query.dimensions], copy=False)
            final = exp.select(*[exp.column(c) for c in output]).from_(final.subquery("whole"), copy=False)
            final = final.where(named, copy=False)

    order_keys = [k for k in output if k in key_names]
    if query.threshold is not None and checked_bound(query) is None:
        final = _passing(final, query.threshold, bounded_column(query), output)
    if query.order_by:
        final = final.order_by(*_ordering(query.order_by, output), copy=False)
    elif query.threshold is not None and not _ranked(query):  # above a bound highest first, below it lowest first
        by = bounded_column(query)
        high = query.threshold.op in (">", ">=")
        passing_first = exp.Ordered(this=exp.column(by), desc=high, nulls_first=False)
        final = final.order_by(passing_first, *[exp.column(k) for k in order_keys], copy=False)
    elif _ranked(query):
        by = values[0] if query.rank_by == "value" else f"{values[0]}_{query.rank_by}"
        final = _rank_rows(final, query, by, output, order_keys, shape.ties)
        output += [AHEAD] if query.rank_place is not None and shape.ties else []
    elif order_keys:
        final = final.order_by(*[exp.column(k) for k in order_keys], copy=False)
    for name, cte in ctes:
        final = final.with_(name, as_=cte, copy=False)
    if query.limit is not None:
        final = final.limit(query.limit, copy=False)

    filters = [f"{f.dimension} {'NOT IN' if f.exclude else 'IN'} ({', '.join(f.members)})" for f in query.filters]
    filters.append(f"{query.time_range.start.isoformat()} <= date <= {query.time_range.end.isoformat()}")
    filters += [f"where: {w}" for w in query.where]
    if query.threshold is not None:
        bound = query.threshold
        upper = f" and <= {_bound(bound.upper).sql()}" if bound.upper is not None else ""
        checked = " (checked, not filtered)" if checked_bound(query) is not None else ""
        filters.append(f"{bounded_column(query)} {bound.op} {_bound(bound.value).sql()}{upper}{checked}")
    per = query.average_per
    over = f", per {per}: summed over the {per}s and divided by {averaged_over(query)[0]}" if per else ""
    logic = [f"{value_column(query, m)}: {definition_text(catalog, m)}{over}" for m in query.metrics]
    return CompiledQuery(
        sql=final.sql(dialect=dialect, pretty=True),
        dialect=dialect,
        expression=final,
        columns=tuple(output),
        tables=tuple(dict.fromkeys(table for table, _ in by_table)),
        filled=filled,
        filters_applied=tuple(filters),
        aggregation_logic=tuple(logic),
    )
