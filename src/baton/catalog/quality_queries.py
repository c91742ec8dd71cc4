"""SQL for data-quality checks, built as sqlglot ASTs from the catalog's tables and columns.

Each check returns a handful of aggregate rows: daily row counts (for completeness against
the same weekday and the neighbouring days), null counts and duplicate keys over a period,
how late rows keep changing (the table's ``updated_column``). Freshness is
:mod:`baton.catalog.freshness`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlglot import exp

from baton.catalog import sqlexpr
from baton.catalog.compiler import bucket
from baton.catalog.model import Catalog
from baton.catalog.sqlexpr import is_plain_column


def _date(value: date) -> exp.Expr:
    return exp.cast(exp.Literal.string(value.isoformat()), exp.DataType.build(exp.DataType.Type.DATE))


def _day(catalog: Catalog, table: str, column: str) -> exp.Expr:
    """A time column as its day, read as the compiler reads it (a timestamp cast to its date:
    grouped raw, every second was a "day"; bounded raw, the last day ended at midnight)."""
    return bucket(exp.column(column), "day", catalog.tables[table].time_type == "timestamp")


def _between(catalog: Catalog, table: str, column: str, start: date, end: date) -> exp.Expr:
    return exp.Between(this=_day(catalog, table, column), low=_date(start), high=_date(end))


def table_columns(catalog: Catalog, table: str) -> list[str]:
    """The table's own columns the catalog reads as dimensions (in catalog order; not those
    read through a join or computed by an expression)."""
    columns = [dim.columns[table] for dim in catalog.dimensions.values() if table in dim.columns]
    return list(dict.fromkeys(c for c in columns if is_plain_column(c)))


def daily_row_counts(
    catalog: Catalog, table: str, start: date, end: date, also: Sequence[tuple[date, date]] = ()
) -> exp.Query:
    """``day, row_count`` for every day of ``[start, end]`` (and of each range ``also`` names:
    last year's window of an event whose peak day is checked) that has rows."""
    day = _day(catalog, table, catalog.time_column(table))
    ranges = [exp.Between(this=day.copy(), low=_date(s), high=_date(e)) for s, e in ((start, end), *also)]
    return (
        exp.select(day.as_("day"), exp.func("COUNT", exp.Star()).as_("row_count"))
        .from_(exp.to_table(table))
        .where(exp.or_(*ranges) if len(ranges) > 1 else ranges[0])
        .group_by(day.copy())
        .order_by(day.copy())
    )


def first_day(table: str, time_column: str, *, up_to: date | None = None, after: date | None = None) -> exp.Query:
    """``first_day``: the table's first day with rows up to ``up_to`` or after ``after`` (NULL
    when it has none); the one-sided bound is the time filter a large table must be read with."""
    column = exp.column(time_column)
    bound: exp.Expr
    if up_to is not None and after is None:
        bound = exp.LTE(this=column, expression=_date(up_to))
    elif after is not None and up_to is None:
        bound = exp.GT(this=column, expression=_date(after))
    else:
        raise ValueError("first_day takes exactly one of up_to and after")
    return exp.select(exp.func("MIN", column).as_("first_day")).from_(exp.to_table(table)).where(bound)


def null_counts(
    catalog: Catalog,
    table: str,
    start: date,
    end: date,
    *,
    time_column: str | None = None,
    filters: Sequence[str] = (),
) -> tuple[exp.Query, list[str]]:
    """``rows`` and ``nulls_<column>`` for each catalog column of ``table`` over the period: of
    the rows a metric counts when its ``time_column`` and ``filters`` are given (a metric dated
    by ``cancelled_at`` with ``cancelled_at IS NOT NULL``), else of the rows loaded in it."""
    time_col = time_column or catalog.time_column(table)
    columns = table_columns(catalog, table)
    selects: list[exp.Expr] = [exp.func("COUNT", exp.Star()).as_("rows")]
    selects += [
        exp.Sub(this=exp.func("COUNT", exp.Star()), expression=exp.func("COUNT", exp.column(c))).as_(f"nulls_{c}")
        for c in columns
    ]
    conditions = [_between(catalog, table, time_col, start, end), *(sqlexpr.parse(f) for f in filters)]
    query = exp.select(*selects).from_(exp.to_table(table)).where(exp.and_(*conditions))
    return query, columns


def key_columns(catalog: Catalog, table: str) -> list[str]:
    """The table's key as the catalog declares it (``primary_key``), else its grain: the time
    column and every catalog dimension column."""
    declared = catalog.tables[table].primary_key
    if declared:
        return list(declared)
    return [catalog.time_column(table), *table_columns(catalog, table)]


def duplicate_keys(catalog: Catalog, table: str, keys: Sequence[str], start: date, end: date) -> exp.Query:
    """``keys`` (distinct key values) and ``duplicate_rows`` (rows beyond the first per key)."""
    time_col = catalog.time_column(table)
    inner = (
        exp.select(*[exp.column(k) for k in keys], exp.func("COUNT", exp.Star()).as_("c"))
        .from_(exp.to_table(table))
        .where(_between(catalog, table, time_col, start, end))
        .group_by(*[exp.column(k) for k in keys])
    )
    return exp.select(
        exp.func("COUNT", exp.Star()).as_("keys"),
        exp.func(
            "COALESCE",
            exp.func("SUM", exp.Sub(this=exp.column("c"), expression=exp.Literal.number(1))),
            exp.Literal.number(0),
        ).as_("duplicate_rows"),
    ).from_(inner.subquery("k"))


def late_updates(
    catalog: Catalog, table: str, updated_column: str, start: date, end: date, *, lag_days: int
) -> exp.Query:
    """``rows`` and ``late_rows``: rows changed more than ``lag_days`` after their date."""
    time_col = catalog.time_column(table)
    lag = exp.DateDiff(
        this=exp.cast(exp.column(updated_column), exp.DataType.build(exp.DataType.Type.DATE)),
        expression=_day(catalog, table, time_col),
        unit=exp.var("DAY"),
    )
    late = exp.func(
        "SUM",
        exp.Case(
            ifs=[exp.If(this=exp.GT(this=lag, expression=exp.Literal.number(lag_days)), true=exp.Literal.number(1))],
            default=exp.Literal.number(0),
        ),
    )
    return (
        exp.select(exp.func("COUNT", exp.Star()).as_("rows"), late.as_("late_rows"))
        .from_(exp.to_table(table))
        .where(_between(catalog, table, time_col, start, end))
    )
