"""How fresh each table is, as one query built from the catalog.

A table's freshness comes from the catalog's load log (the loading jobs say when a table was
loaded and up to which date it holds data) or, by default, from the newest value of its time
column. Either way the query returns the same three columns, one row per table:
``table_name``, ``loaded_at`` (NULL when only the data itself is known) and ``max_data_date``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlglot import exp

from baton.catalog.model import Catalog

COLUMNS = ("table_name", "loaded_at", "max_data_date")


def _date(value: date) -> exp.Expr:
    return exp.cast(exp.Literal.string(value.isoformat()), exp.DataType.build(exp.DataType.Type.DATE))


def tracked_tables(catalog: Catalog, tables: Sequence[str] | None = None) -> list[str]:
    """The tables (of ``tables``, or the whole catalog) whose freshness can be known."""
    names = list(tables) if tables is not None else list(catalog.tables)
    return [t for t in names if t in catalog.tables and catalog.freshness_of(t) is not None]


def _from_load_log(catalog: Catalog, tables: Sequence[str]) -> exp.Query:
    log = catalog.load_log
    assert log is not None  # the catalog validates that a load_log table is declared
    keys = [exp.Literal.string(catalog.tables[t].freshness_key or t) for t in tables]
    return (
        exp.select(
            exp.column(log.table_column).as_("table_name"),
            exp.column(log.loaded_at_column).as_("loaded_at"),
            exp.column(log.max_date_column).as_("max_data_date"),
        )
        .from_(exp.to_table(log.table))
        .where(exp.column(log.table_column).isin(*keys))
    )


def _from_max_time(catalog: Catalog, table: str, since: date | None) -> exp.Query:
    column = catalog.time_column(table)
    query = exp.select(
        exp.Literal.string(table).as_("table_name"),
        exp.null().as_("loaded_at"),
        exp.cast(exp.func("MAX", exp.column(column)), exp.DataType.build(exp.DataType.Type.DATE)).as_("max_data_date"),
    ).from_(exp.to_table(table))
    if since is not None:
        # large tables must be read with a time filter; data older than this window is stale anyway
        query = query.where(exp.GTE(this=exp.column(column), expression=_date(since)))
    return query


def freshness_query(catalog: Catalog, tables: Sequence[str] | None = None, *, since: date | None = None) -> exp.Query:
    """One row per tracked table: ``table_name, loaded_at, max_data_date``.

    ``since`` bounds the scan of tables read by their time column (a governed query on a large
    table needs a time filter); a load log is a small table and is read whole.
    """
    names = tracked_tables(catalog, tables)
    if not names:
        raise ValueError("no table in the catalog has a freshness source")
    parts: list[exp.Query] = []
    logged = [t for t in names if catalog.freshness_of(t) == "load_log"]
    if logged:
        parts.append(_from_load_log(catalog, logged))
    parts += [_from_max_time(catalog, t, since) for t in names if catalog.freshness_of(t) == "max_time"]
    query = parts[0]
    for part in parts[1:]:
        query = exp.union(query, part, distinct=False)
    return exp.select(*[exp.column(c) for c in COLUMNS]).from_(query.subquery("f")).order_by(exp.column("table_name"))


def load_key_to_table(catalog: Catalog) -> dict[str, str]:
    """A load-log row's key -> the catalog table it describes."""
    return {(info.freshness_key or name): name for name, info in catalog.tables.items()}
