"""Joins a draft catalog takes from the warehouse's declared foreign keys.

``support_tickets.customer_id`` references ``customers.customer_id``: the draft gives the
tickets table a many-to-one join named ``customer`` and reads the customers' dimensions through
it (``country`` of a ticket is ``customer.country``), so "tickets by country" works without
editing. Only what the schema declares is used — a column that merely looks like a key is left
to the user — and only joins onto a table's primary key (many-to-one; ``baton catalog check``
counts the key's repeats). One level deep: a dimension two joins away is the user's to add.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from baton.catalog.model import Dimension, Join, Table
from baton.contracts.query import ForeignKey
from baton.messages import bilingual


def join_name(fk: ForeignKey, taken: set[str]) -> str:
    """``customer_id`` -> ``customer``; a column without an id ending is named by the table."""
    column = fk.column.lower()
    name = column[: -len("_id")] if column.endswith("_id") and len(column) > 3 else fk.ref_table
    return name if name not in taken else f"{name}_{fk.column}"


def with_joins(
    tables: dict[str, Table],
    dimensions: dict[str, Dimension],
    dim_of: dict[str, list[str]],
    keys: dict[str, str],
    foreign_keys: Sequence[ForeignKey],
    notes: dict[tuple[str | int, ...], list[str]],
) -> None:
    """Add each usable foreign key onto a primary key as a join, and the referenced table's
    dimensions to the referencing table through it (in place). A referenced column is a key
    the schema declares unique (an engine accepts a foreign key onto nothing else), so a table
    whose key was not guessed (``products.sku``: not named like an id) takes it as its key."""
    for fk in foreign_keys:
        if fk.table in tables and fk.ref_table in tables and fk.ref_table not in keys:
            keys[fk.ref_table] = fk.ref_column
            tables[fk.ref_table] = tables[fk.ref_table].model_copy(update={"primary_key": (fk.ref_column,)})
            notes[("tables", fk.ref_table, "primary_key")] = [
                bilingual("init.draft_referenced_key", column=fk.ref_column, referenced=f"{fk.table}.{fk.column}")
            ]
    usable = [fk for fk in foreign_keys if fk.table in tables and keys.get(fk.ref_table) == fk.ref_column]
    per_target = Counter((fk.table, fk.ref_table) for fk in usable)
    for fk in usable:
        table = tables[fk.table]
        name = join_name(fk, set(table.joins))
        tables[fk.table] = table.model_copy(
            update={"joins": {**table.joins, name: Join(table=fk.ref_table, on={fk.column: fk.ref_column})}}
        )
        notes[("tables", fk.table, "joins", name)] = [
            bilingual("init.draft_join", column=f"{fk.table}.{fk.column}", target=f"{fk.ref_table}.{fk.ref_column}")
        ]
        if per_target[(fk.table, fk.ref_table)] > 1:
            continue  # buyer_id and seller_id both name users: whose region is it? The user says.
        for dim_name, dim in dimensions.items():
            column = dim.columns.get(fk.ref_table)
            if column is None or fk.table in dim.columns:
                continue
            dimensions[dim_name] = dim.model_copy(update={"columns": {**dim.columns, fk.table: f"{name}.{column}"}})
            if tables[fk.table].time_column is not None:  # only a dated table has metrics
                dim_of.setdefault(fk.table, []).append(dim_name)


__all__ = ["join_name", "with_joins"]
