"""SQL for the analysis relay, built as sqlglot ASTs around queries compiled through the catalog.

Heavy work stays in the warehouse: every builder here returns aggregates — period totals,
short daily series, or sufficient statistics (n, Σ(y − K), Σ(y − K)² with a shift K computed
in SQL next to the data) per period and member — never raw rows. Metric definitions (口径)
come only from the catalog: each builder starts from :func:`compile_query` on a
:class:`SemanticQuery` and wraps the compiled tree.

The metric tree of a metric names its *components* (leaf sums the compiler exposes) and its
*factors* (values computed from components). Trees come from the catalog (``tree:`` on a
metric, e.g. revenue = sessions × conversion × order value, with a fallback where a factor
cannot follow the question's dimensions); a ratio N / D has a rate factor (N / D) and a mix
factor (the weight D) without being told; any other metric is its own single factor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Literal

from sqlglot import exp

from baton.catalog.compiler import PERIOD, CompiledQuery, compile_query, leaf_alias
from baton.catalog.model import Catalog
from baton.contracts.common import Dialect
from baton.contracts.semantic import Comparison, MemberFilter, SemanticQuery, TimeRange

TreeKind = Literal["product", "ratio", "simple"]
CURRENT, PREVIOUS = "current", "previous"
WHICH = "which"
ACTIVE_DAYS = "active_days"
"""A drill-down's days (per period) on which any member had rows."""


@dataclass(frozen=True)
class Factor:
    """``num / den`` of components (``den`` None: the component itself)."""

    name: str
    num: str
    den: str | None = None
    role: Literal["factor", "rate", "mix"] = "factor"


@dataclass(frozen=True)
class MetricTree:
    metric: str
    kind: TreeKind
    metrics: tuple[str, ...]  # the catalog metrics compiled to expose the components
    components: tuple[str, ...]  # leaf aliases (output columns)
    value: Factor  # how the metric itself is computed from components
    factors: tuple[Factor, ...]


def _supports(catalog: Catalog, metric: str, dims: Sequence[str], filters: Sequence[MemberFilter]) -> bool:
    allowed = set(catalog.metrics[metric].dimensions)
    return all(d in allowed for d in dims) and all(f.dimension in allowed for f in filters)


def _factor(catalog: Catalog, name: str) -> Factor:
    """A tree factor: a simple metric is its own component, a ratio is ``num / den`` of two."""
    m = catalog.metrics[name]
    if m.is_ratio:
        assert isinstance(m.numerator, str) and isinstance(m.denominator, str)  # the catalog checks it
        return Factor(name, m.numerator, m.denominator)
    return Factor(name, name)


def _product_tree(
    catalog: Catalog, metric: str, dims: Sequence[str], filters: Sequence[MemberFilter]
) -> MetricTree | None:
    """The first of the metric's declared trees whose components all follow ``dims`` and ``filters``."""
    for names in catalog.metrics[metric].tree:
        factors = tuple(_factor(catalog, n) for n in names)
        components: list[str] = [metric]
        for f in factors:
            for part in (f.num, f.den):
                if part is not None and part not in components:
                    components.append(part)
        if all(_supports(catalog, c, dims, filters) for c in components):
            return MetricTree(metric, "product", tuple(components), tuple(components), Factor(metric, metric), factors)
    return None


def metric_tree(
    catalog: Catalog, metric: str, dims: Sequence[str] = (), filters: Sequence[MemberFilter] = ()
) -> MetricTree:
    """The decomposition of ``metric`` usable on ``dims`` under ``filters``: a product tree the
    catalog declares, else rate × mix for a ratio, else the metric as its own single factor."""
    product = _product_tree(catalog, metric, dims, filters)
    if product is not None:
        return product
    m = catalog.metrics[metric]
    if m.is_ratio:
        probe = SemanticQuery(
            metrics=(metric,),
            time_range=TimeRange(start=date(2000, 1, 1), end=date(2000, 1, 1)),
            as_of=date(2000, 1, 1),
        )
        num_m, den_m = catalog.measures_of(metric)
        num, den = leaf_alias(probe, catalog, num_m), leaf_alias(probe, catalog, den_m)
        den_name = m.denominator if isinstance(m.denominator, str) else den
        return MetricTree(
            metric,
            "ratio",
            (metric,),
            (num, den),
            Factor(metric, num, den, "rate"),
            (Factor(metric, num, den, "rate"), Factor(den_name, den, None, "mix")),
        )
    return MetricTree(metric, "simple", (metric,), (metric,), Factor(metric, metric), (Factor(metric, metric),))


# --------------------------------------------------------------------------------- helpers
def _date(value: date) -> exp.Expr:
    return exp.cast(exp.Literal.string(value.isoformat()), exp.DataType.build(exp.DataType.Type.DATE))


def _between(column: exp.Expr, start: date, end: date) -> exp.Expr:
    return exp.Between(this=column, low=_date(start), high=_date(end))


def _double(expr: exp.Expr) -> exp.Expr:
    return exp.cast(expr, exp.DataType.build(exp.DataType.Type.DOUBLE))


def _div(num: exp.Expr, den: exp.Expr) -> exp.Expr:
    return exp.Div(this=_double(num), expression=exp.func("NULLIF", den, exp.Literal.number(0)))


def _col(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table)


def _num(value: float) -> exp.Expr:
    return exp.Literal.number(repr(float(value)))


def _which(column: exp.Expr, current: TimeRange) -> exp.Expr:
    return exp.Case(
        ifs=[exp.If(this=_between(column.copy(), current.start, current.end), true=exp.Literal.string(CURRENT))],
        default=exp.Literal.string(PREVIOUS),
    )


def _in_comparison(column: exp.Expr, comparison: Comparison) -> exp.Expr:
    """The comparison's days: its range, or the listed days of a same-weekday comparison."""
    if comparison.kind == "same_weekday":
        return column.copy().isin(*[_date(d) for d in comparison.dates()])
    return _between(column.copy(), comparison.range.start, comparison.range.end)


def _in_periods(column: exp.Expr, current: TimeRange, comparison: Comparison, excluded: Sequence[date]) -> exp.Expr:
    """Rows of the current period or the comparison, without the excluded (incomplete) days:
    a day left out is left out of every total, test and share computed from these rows."""
    inside = exp.or_(
        exp.paren(_between(column.copy(), current.start, current.end)),
        exp.paren(_in_comparison(column, comparison)),
    )
    if not excluded:
        return inside
    return exp.and_(exp.paren(inside), exp.not_(column.copy().isin(*[_date(d) for d in sorted(set(excluded))])))


def kept_days(query: SemanticQuery, excluded: Sequence[date]) -> dict[str, int]:
    """Days each period keeps once ``excluded`` days are left out ("current"/"previous")."""
    assert query.comparison is not None
    cur = query.time_range
    current = cur.dates()
    gone = set(excluded)
    return {
        CURRENT: sum(d not in gone for d in current),
        PREVIOUS: sum(d not in gone for d in query.comparison.dates()),
    }


def _sub(query: exp.Expr, alias: str = "d") -> exp.Expr:
    """A compiled query as a named subquery."""
    assert isinstance(query, exp.Query)
    return query.subquery(alias)


def _y(num: exp.Expr, den: exp.Expr | None) -> exp.Expr:
    return _div(num, den) if den is not None else _double(num)


def _factor_value(f: Factor, prefix: str = "") -> exp.Expr:
    return _y(_col(prefix + f.num), _col(prefix + f.den) if f.den else None)


def _member_vs_rest(f: Factor) -> exp.Expr:
    """The factor of the member divided by the factor of the rest (NULL when undefined)."""
    return exp.Div(
        this=_factor_value(f),
        expression=exp.func("NULLIF", _factor_value(f, "rest_"), exp.Literal.number(0)),
    )


@dataclass(frozen=True)
class BuiltQuery:
    """A wrapped query: the AST, its SQL, its output columns and what it rests on."""

    name: str
    expression: exp.Query
    columns: tuple[str, ...]
    compiled: CompiledQuery

    def sql(self, dialect: Dialect) -> str:
        return self.expression.sql(dialect=dialect)


def compile_components(
    catalog: Catalog,
    tree: MetricTree,
    *,
    filters: Sequence[MemberFilter],
    start: date,
    end: date,
    as_of: date,
    dims: Sequence[str] = (),
    dialect: Dialect = "duckdb",
) -> CompiledQuery:
    """Daily components of ``tree`` (period, dims…, components…), compiled through the catalog."""
    sq = SemanticQuery(
        metrics=tree.metrics,
        dimensions=tuple(dims),
        filters=tuple(filters),
        time_range=TimeRange(start=start, end=end),
        grain="day",
        as_of=as_of,
    )
    compiled = compile_query(sq, catalog, dialect, plain=True)
    expression = compiled.expression.copy()
    assert isinstance(expression, exp.Select)
    have = set(compiled.columns)
    for component in tree.components:
        if component not in have:
            expression = expression.select(exp.column(component), append=True)
    return CompiledQuery(
        sql=expression.sql(dialect=dialect),
        dialect=dialect,
        expression=expression,
        columns=(*compiled.columns, *(c for c in tree.components if c not in have)),
        tables=compiled.tables,
        filters_applied=compiled.filters_applied,
        aggregation_logic=compiled.aggregation_logic,
    )


def daily_series(
    catalog: Catalog,
    query: SemanticQuery,
    tree: MetricTree,
    *,
    start: date,
    end: date,
    windows: Sequence[tuple[date, date]] = (),
    dialect: Dialect = "duckdb",
) -> BuiltQuery:
    """The daily components over ``[start, end]``, only the days inside ``windows`` if given
    (history + each period, so a year-over-year series stays short)."""
    compiled = compile_components(
        catalog, tree, filters=query.filters, start=start, end=end, as_of=query.as_of, dialect=dialect
    )
    inner = _sub(compiled.expression)
    select = exp.select(
        _col(PERIOD), *[exp.func("COALESCE", _col(c), exp.Literal.number(0)).as_(c) for c in tree.components]
    ).from_(inner)
    if windows:
        select = select.where(exp.or_(*[exp.paren(_between(_col(PERIOD), a, b)) for a, b in windows]))
    select = select.order_by(_col(PERIOD))
    return BuiltQuery("daily_series", select, (PERIOD, *tree.components), compiled)


def _both_periods(
    catalog: Catalog, query: SemanticQuery, tree: MetricTree, dims: Sequence[str], dialect: Dialect
) -> tuple[TimeRange, Comparison, CompiledQuery]:
    """The current period, the comparison, and the daily components over the span of both."""
    assert query.comparison is not None
    cur, prev = query.time_range, query.comparison.range
    compiled = compile_components(
        catalog,
        tree,
        filters=query.filters,
        start=min(cur.start, prev.start),
        end=max(cur.end, prev.end),
        as_of=query.as_of,
        dims=dims,
        dialect=dialect,
    )
    return cur, query.comparison, compiled


def _suffstats(y: str, prefix: str = "") -> list[exp.Expr]:
    """n, Σ(y−K), Σ(y−K)² and K of column ``y`` (K its mean, from the window column ``k_<y>``)."""
    dev = exp.Sub(this=_col(y), expression=_col(f"k_{y}"))
    return [
        exp.func("COUNT", _col(y)).as_(f"{prefix}n"),
        exp.func("SUM", dev.copy()).as_(f"{prefix}s"),
        exp.func("SUM", exp.Mul(this=exp.paren(dev.copy()), expression=exp.paren(dev.copy()))).as_(f"{prefix}ss"),
        exp.func("MAX", _col(f"k_{y}")).as_(f"{prefix}k"),
    ]


def _with_shifts(source: str, ys: Sequence[str], partition: Sequence[str]) -> exp.Select:
    """``source`` with each y's mean over both periods (per member) as ``k_<y>``: sums are taken
    around a value next to the data and keep their digits."""
    shifts = [
        exp.Window(this=exp.func("AVG", _col(y)), partition_by=[_col(p) for p in partition]).as_(f"k_{y}") for y in ys
    ]
    return exp.select(exp.Star(), *shifts).from_(source)


def period_suffstats(
    catalog: Catalog,
    query: SemanticQuery,
    tree: MetricTree,
    *,
    excluded_days: Sequence[date] = (),
    dialect: Dialect = "duckdb",
) -> BuiltQuery:
    """Per period: days kept, component totals, and n, Σ(y−K), Σ(y−K)², K of the daily metric value y.

    Excluded (incomplete) days are left out of everything — the totals as well as the daily
    statistics — so the headline, the tests and the metric tree compare the same days.
    """
    cur, comparison, compiled = _both_periods(catalog, query, tree, (), dialect)
    base = (
        exp.select(
            _which(_col(PERIOD), cur).as_(WHICH),
            *[exp.func("COALESCE", _col(c), exp.Literal.number(0)).as_(c) for c in tree.components],
        )
        .select(_factor_value(tree.value).as_("y"), append=True)
        .from_(_sub(compiled.expression))
        .where(_in_periods(_col(PERIOD), cur, comparison, excluded_days))
    )
    final = (
        exp.select(
            _col(WHICH),
            exp.func("COUNT", exp.Star()).as_("days"),
            *[exp.func("SUM", _col(c)).as_(c) for c in tree.components],
            *_suffstats("y"),
        )
        .from_(_with_shifts("b", ["y"], []).subquery("w"))
        .group_by(_col(WHICH))
        .order_by(_col(WHICH))
        .with_("b", as_=base)
    )
    columns = (WHICH, "days", *tree.components, "n", "s", "ss", "k")
    return BuiltQuery("period_suffstats", final, columns, compiled)


def _own_value(f: Factor) -> exp.Expr:
    """A factor's own daily value for a member: its value, or for a mix factor its weight (the
    member's share of the denominator)."""
    if f.role == "mix":
        return _div(_col(f.num), _col(f"tot_{f.num}"))
    return _factor_value(f)


def drilldown(
    catalog: Catalog,
    query: SemanticQuery,
    tree: MetricTree,
    dims: Sequence[str],
    *,
    excluded_days: Sequence[date] = (),
    dialect: Dialect = "duckdb",
) -> BuiltQuery:
    """Per member of ``dims`` and period: component totals over the kept days, and for every
    factor the sufficient statistics of two daily values —

    * ``o<i>``: the member's own factor value (a mix factor: its weight), for the test of the
      member's own change, which an effect elsewhere cannot move;
    * ``r<i>`` (not for a mix factor): factor(member) / factor(rest), for the test that the
      member moved differently from the rest (a change everybody shared, a promotion or the
      calendar, leaves it flat).

    Excluded (incomplete) days are left out of every total and statistic. Rows are members × 2,
    never raw data.
    """
    cur, comparison, compiled = _both_periods(catalog, query, tree, dims, dialect)
    comps = tree.components
    zero = exp.Literal.number(0)
    cells = exp.select(
        _col(PERIOD), *[_col(d) for d in dims], *[exp.func("COALESCE", _col(c), zero).as_(c) for c in comps]
    ).from_(_sub(compiled.expression))
    cells = cells.where(_in_periods(_col(PERIOD), cur, comparison, excluded_days))
    totals = (
        exp.select(_col(PERIOD), *[exp.func("SUM", _col(c)).as_(f"tot_{c}") for c in comps])
        .from_("cells")
        .group_by(_col(PERIOD))
    )
    joined = exp.select(
        _col(PERIOD, "c"),
        *[_col(d, "c") for d in dims],
        _which(_col(PERIOD, "c"), cur).as_(WHICH),
        *[_col(c, "c") for c in comps],
        *[_col(f"tot_{c}", "t") for c in comps],
        *[exp.Sub(this=_col(f"tot_{c}", "t"), expression=_col(c, "c")).as_(f"rest_{c}") for c in comps],
    ).from_(exp.to_table("cells").as_("c"))
    joined = joined.join(
        exp.to_table("totals").as_("t"), on=exp.EQ(this=_col(PERIOD, "c"), expression=_col(PERIOD, "t"))
    )
    ys: list[exp.Expr] = []
    names: list[str] = []
    for i, f in enumerate(tree.factors):
        ys.append(_own_value(f).as_(f"o{i}"))
        names.append(f"o{i}")
        if f.role != "mix":  # a weight is already relative to the whole: its own test is the test
            ys.append(_member_vs_rest(f).as_(f"r{i}"))
            names.append(f"r{i}")
    with_y = exp.select(exp.Star(), *ys).from_("joined")
    aggs: list[exp.Expr] = [exp.func("COUNT", exp.Star()).as_("days")]
    aggs += [exp.func("SUM", _col(c)).as_(c) for c in comps]
    for name in names:
        aggs += _suffstats(name, f"{name}_")
    aggs.append(exp.func("MAX", _col(ACTIVE_DAYS, "a")).as_(ACTIVE_DAYS))
    # the days any member had rows, per period: a member's days without rows among them are its zeros
    active = (
        exp.select(_which(_col(PERIOD), cur).as_(WHICH), exp.func("COUNT", exp.Star()).as_(ACTIVE_DAYS))
        .from_("totals")
        .group_by(_which(_col(PERIOD), cur))
    )
    final = (
        exp.select(*[_col(d) for d in dims], _col(WHICH, "shifted"), *aggs)
        .from_("shifted")
        .join(exp.to_table("active").as_("a"), on=exp.EQ(this=_col(WHICH, "shifted"), expression=_col(WHICH, "a")))
        .group_by(*[_col(d) for d in dims], _col(WHICH, "shifted"))
        .order_by(*[_col(d) for d in dims], _col(WHICH, "shifted"))
    )
    for name, cte in (
        ("cells", cells),
        ("totals", totals),
        ("active", active),
        ("joined", joined),
        ("with_y", with_y),
        ("shifted", _with_shifts("with_y", names, dims)),
    ):
        final = final.with_(name, as_=cte)
    columns = (
        *dims,
        WHICH,
        "days",
        *comps,
        *[f"{y}_{p}" for y in names for p in ("n", "s", "ss", "k")],
        ACTIVE_DAYS,
    )
    return BuiltQuery("drilldown:" + "×".join(dims), final, columns, compiled)
