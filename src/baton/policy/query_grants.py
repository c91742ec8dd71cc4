"""Grants checked on the question itself, before any SQL exists.

A question about data the user may not see is refused out loud (``permission_denied``), not
answered with an empty or silently filtered result; a row filter that applies becomes a note
the answer states ("limited to region in (华东)"). The firewall enforces the same grants again
on every statement; this check is what lets the refusal name the metric and the members.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.errors import PermissionDenied
from baton.messages import both, text
from baton.policy.principal import Principal


def _column_owner(catalog: Catalog, table: str, sql: str) -> list[tuple[str, str]]:
    """The (table, column) pairs a dimension's SQL on ``table`` reads (through its joins)."""
    from baton.catalog import sqlexpr

    return [(catalog.table_read(table, c.table), c.name) for c in sqlexpr.columns(sqlexpr.parse(sql))]


def _dimensions_read(catalog: Catalog, query: SemanticQuery) -> list[str]:
    """Every dimension the query groups, filters or --where-s by."""
    from baton.catalog import sqlexpr

    names = {*query.dimensions, *(f.dimension for f in (*query.filters, *query.share_filters))}
    for condition in query.where:
        names |= {n for n in sqlexpr.column_names(condition) if n in catalog.dimensions}
    return sorted(names)


def _refuse_dimension(key: str, principal: Principal, name: str, label: Any, column: str) -> PermissionDenied:
    return PermissionDenied(
        *both(key, user=principal.user, label=label.en, label_zh=label.zh, column=column),
        detail={"user": principal.user, "dimension": name, "column": column},
    )


def _check_dimension_sources(catalog: Catalog, query: SemanticQuery, principal: Principal) -> None:
    """A dimension read from a personal-data column the user sees masked (or not at all)
    cannot group or filter: masked values would merge every group into one "***" row. Nor can
    one read through a join from a table the user sees only some rows of: the rest would
    become a silent NULL group, and a filter on them an empty result instead of a refusal."""
    tables = {t for m in query.metrics for t in catalog.tables_of(m)}
    for name in _dimensions_read(catalog, query):
        dimension = catalog.dimensions[name]
        for table, sql in dimension.columns.items():
            if table not in tables:
                continue
            for owner, column in _column_owner(catalog, table, sql):
                if principal.pii.get((owner, column), "allow") != "allow":
                    raise _refuse_dimension(
                        "answer.not_permitted_pii_dimension", principal, name, dimension.label, f"{owner}.{column}"
                    )
                if owner != table and principal.row_filters.get(owner):
                    raise _refuse_dimension(
                        "answer.not_permitted_joined_rows", principal, name, dimension.label, f"{owner}.{column}"
                    )


def check_grants(catalog: Catalog, query: SemanticQuery, principal: Principal, language: Language) -> list[str]:
    """Refuse what the user may not see; return the row-filter notes that apply."""
    notes: list[str] = []
    _check_dimension_sources(catalog, query, principal)
    for metric in query.metrics:
        label = catalog.metrics[metric].label
        for table in catalog.tables_of(metric):
            if not principal.can_read_table(table):
                raise PermissionDenied(
                    *both(
                        "answer.not_permitted_metric",
                        user=principal.user,
                        label=label.en,
                        label_zh=label.zh,
                        table=table,
                    ),
                    detail={"user": principal.user, "table": table, "metric": metric},
                )
            restricted = principal.row_filters.get(table, {})
            share_dims = {*query.dimensions, *(f.dimension for f in query.share_filters)} if query.share else set()
            if any(catalog.dimensions[d].columns.get(table) in restricted for d in share_dims):
                # a share over the dimension a row filter limits: "华东占 100 %" is not an answer
                raise PermissionDenied(
                    *both(
                        "answer.not_permitted_share",
                        user=principal.user,
                        table=table,
                        label=label.en,
                        label_zh=label.zh,
                    ),
                    detail={
                        "user": principal.user,
                        "table": table,
                        "metric": metric,
                        "reason": "share_of_limited_whole",
                    },
                )
            for flt in (*query.filters, *query.share_filters):
                column = catalog.dimensions[flt.dimension].columns[table]
                allowed = restricted.get(column)
                if flt.exclude:
                    _check_exclusion(catalog, principal, table, flt.dimension, flt.members, allowed)
                    continue
                outside = [m for m in flt.members if allowed is not None and m not in allowed]
                if outside:
                    raise PermissionDenied(
                        *both(
                            "answer.not_permitted_members",
                            user=principal.user,
                            **_members_said(catalog, flt.dimension, allowed=allowed or (), outside=outside),
                        ),
                        detail={"user": principal.user, "table": table, "column": column, "requested": outside},
                    )
            for column, allowed in restricted.items():
                note = text(
                    "answer.row_filter_note",
                    language,
                    user=principal.user,
                    table=table,
                    column=column,
                    allowed=text("answer.list_sep", language).join(allowed),
                )
                if note not in notes:
                    notes.append(note)
    return notes


def _members_said(catalog: Catalog, dimension: str, **lists: Iterable[str]) -> dict[str, str]:
    """Members as plain text in both languages ("East China, South China" / "华东、华南"), by
    their catalog labels, with the dimension's label (never a Python list)."""
    label = catalog.dimensions[dimension].label
    said = {"dim": label.en, "dim_zh": label.zh}
    for field, members in lists.items():
        langs: tuple[tuple[Language, str], ...] = (("en", ""), ("zh", "_zh"))
        for lang, suffix in langs:
            labels = [catalog.member_label(dimension, m, lang) for m in members]
            said[field + suffix] = text("answer.list_sep", lang).join(labels)
    return said


def _check_exclusion(
    catalog: Catalog,
    principal: Principal,
    table: str,
    dimension: str,
    excluded: tuple[str, ...],
    allowed: tuple[str, ...] | None,
) -> None:
    """ "All regions except 华东" asks for nothing a user limited to 华东 may see: refused out loud,
    not answered with an empty result. A remainder the user may see is answered (row filter)."""
    if allowed is None or [m for m in allowed if m not in excluded]:
        return
    column = catalog.dimensions[dimension].columns[table]
    raise PermissionDenied(
        *both(
            "answer.not_permitted_excluded",
            user=principal.user,
            **_members_said(catalog, dimension, allowed=allowed),
        ),
        detail={"user": principal.user, "table": table, "column": column, "excluded": list(excluded)},
    )
