"""The member index: the members of a dimension read from the warehouse, so a question may name
a member the catalog does not list ("flights to ORD", "ORD的航班").

A dimension opts in with ``index_members: true``. Its members are the distinct non-empty values
of its column, read from one of its tables (a small, non-large table first), at most
:data:`MAX_MEMBERS` of them: a column with more values is an identifier rather than a set of
members, so none is indexed and the index says so. The values are read once per *data version*
— the table's freshness row (newest data date, load time), or its row count when it has no
freshness source — and kept as JSON in a cache folder, keyed by catalog, dimension, source and
version, so a second session reads the file instead of the warehouse and a new load is read
afresh.

The index only teaches the planner words: an indexed value reaches SQL as a member filter,
which the compiler writes as a string literal, never as SQL text.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from sqlglot import exp

from baton.catalog import sqlexpr
from baton.catalog.freshness import freshness_query, tracked_tables
from baton.catalog.model import Bilingual, Catalog, Dimension, Member
from baton.private import open_private, private_dir

MAX_MEMBERS = 2000
"""At most this many members per dimension; a column with more is not indexed at all."""
MAX_MEMBER_LENGTH = 100
"""Longer values are text, not member names a question would carry."""
CACHE_FORMAT = 1
_SLUG = re.compile(r"[^A-Za-z0-9_-]+")


class _Rows(Protocol):
    @property
    def rows(self) -> Sequence[Sequence[Any]]: ...


class MemberSource(Protocol):
    """What the index needs of a warehouse backend: run one read-only statement."""

    def execute(self, sql: str, *, timeout_s: float = ..., row_cap: int = ...) -> _Rows: ...


@dataclass(frozen=True)
class IndexedDimension:
    """One dimension's entry in the index, and where it came from."""

    dimension: str
    table: str
    column: str
    version: str
    members: tuple[str, ...]
    complete: bool
    """False when the column holds more than MAX_MEMBERS values: then no member is indexed."""
    cached: bool
    """Read from the cache file: no distinct-values query ran."""
    dropped: int = 0
    """Values left out because no question could name them (blank, too long, no letter)."""


def indexed_dimensions(catalog: Catalog) -> list[str]:
    return [name for name, dim in catalog.dimensions.items() if dim.index_members]


def member_index(
    catalog: Catalog, backend: MemberSource, cache_dir: Path, *, dialect: str = "duckdb"
) -> dict[str, tuple[str, ...]]:
    """Dimension -> its indexed members (empty when it has too many to index)."""
    return {d.dimension: d.members for d in read_member_index(catalog, backend, cache_dir, dialect=dialect)}


def read_member_index(
    catalog: Catalog,
    backend: MemberSource,
    cache_dir: Path,
    *,
    dialect: str = "duckdb",
    timeout_s: float = 30.0,
    exclude_columns: Collection[str] = (),
    limit: int = MAX_MEMBERS,
) -> tuple[IndexedDimension, ...]:
    """Every ``index_members`` dimension's entry: from the cache when its data version is
    unchanged, else from the warehouse (and cached). ``exclude_columns`` (``table.column``,
    e.g. personal data) are never read; a dimension with no other source is left out."""
    out: list[IndexedDimension] = []
    versions: dict[str, str] = {}
    for name in indexed_dimensions(catalog):
        source = _source(catalog, catalog.dimensions[name], exclude_columns)
        if source is None:
            continue
        table, column = source
        if table not in versions:
            versions[table] = _data_version(catalog, table, backend, dialect, timeout_s)
        key = _cache_key(catalog.name, name, table, column, versions[table], limit)
        path = cache_dir / f"{_slug(catalog.name)}.{_slug(name)}.{key[:20]}.json"
        entry = _read_cache(path, key)
        if entry is None:
            entry = _read_members(backend, name, table, column, versions[table], dialect, timeout_s, limit)
            _write_cache(path, key, catalog.name, entry)
        out.append(entry)
    return tuple(out)


def with_members(catalog: Catalog, index: Mapping[str, Sequence[str]], *, reserved: Collection[str] = ()) -> Catalog:
    """A copy of ``catalog`` whose dimensions also list the indexed members (label = value).

    A listed member keeps its own label and synonyms. A value that is already another catalog
    term (a metric, a dimension, a member of another dimension) or one of the ``reserved``
    words (words of the question language, compared case-insensitively) is not added, so the
    index never changes how a question that worked before is read; a code — an ASCII value in
    capitals ("US", "IN"), or of up to three letters in lower case ("us", labelled "US") — is
    kept: the planner reads those only as written in capitals."""
    taken = _catalog_words(catalog)
    words = {_norm(w) for w in reserved}
    dimensions = dict(catalog.dimensions)
    for name, values in index.items():
        dim = dimensions.get(name)
        if dim is None:
            continue
        own = {_norm(s) for key, m in dim.members.items() for s in (key, m.label.zh, m.label.en, *m.synonyms)}
        added = dict(dim.members)
        for value in values:
            norm = _norm(value)
            if value in added or norm in own:
                continue
            if norm in taken or (norm in words and not _a_code(value)):
                continue
            label = value.upper() if norm in words else value  # "us": read as written "US" only
            added[value] = Member(label=Bilingual(zh=label, en=label))
        dimensions[name] = dim.model_copy(update={"members": added})
    return catalog.model_copy(update={"dimensions": dimensions})


def _a_code(value: str) -> bool:
    return value.isascii() and (value.isupper() or (value.isalpha() and value.islower() and len(value) <= 3))


# -- where a dimension's members are read ------------------------------------------------------


def _source(catalog: Catalog, dim: Dimension, exclude: Collection[str]) -> tuple[str, str] | None:
    """(table, column expression) to read the members from: a plain column on a small table
    first. ``join.column`` is read on the joined table itself; an expression reading through
    joins, or reading an excluded column, is not used."""
    candidates: list[tuple[bool, bool, str, str]] = []
    for table, sql in dim.columns.items():
        try:
            node = sqlexpr.parse(sql)
            where = catalog.table_read(table, node.table) if isinstance(node, exp.Column) else table
        except ValueError:
            continue
        text = node.name if isinstance(node, exp.Column) and where != table else sql
        if not isinstance(node, exp.Column) and any(c.table for c in sqlexpr.columns(node)):
            continue
        if any(f"{where}.{c.name}" in exclude for c in sqlexpr.columns(sqlexpr.parse(text))):
            continue
        candidates.append((catalog.tables[where].large, not isinstance(node, exp.Column), where, text))
    if not candidates:
        return None
    _, _, table, column = min(candidates, key=lambda c: (c[0], c[1]))
    return table, column


def _data_version(catalog: Catalog, table: str, backend: MemberSource, dialect: str, timeout_s: float) -> str:
    """The table's freshness row (newest data date, load time), or its row count without one."""
    if tracked_tables(catalog, [table]):
        query: exp.Query = freshness_query(catalog, [table])
    else:
        query = exp.select(exp.func("COUNT", exp.Star()).as_("row_count")).from_(exp.to_table(table))
    rows = backend.execute(query.sql(dialect=dialect), timeout_s=timeout_s, row_cap=1000).rows
    return json.dumps([[None if v is None else str(v) for v in row] for row in rows], ensure_ascii=False)


def _read_members(
    backend: MemberSource,
    dimension: str,
    table: str,
    column: str,
    version: str,
    dialect: str,
    timeout_s: float,
    limit: int,
) -> IndexedDimension:
    """The distinct values, one more than ``limit`` at most (so "too many" is known)."""
    value = sqlexpr.parse(column)
    query = (
        exp.select(value.as_("member"))
        .distinct()
        .from_(exp.to_table(table))
        .where(exp.Not(this=exp.Is(this=value.copy(), expression=exp.null())))
        .limit(limit + 1)
    )
    rows = backend.execute(query.sql(dialect=dialect), timeout_s=timeout_s, row_cap=limit + 1).rows
    if len(rows) > limit:
        return IndexedDimension(dimension, table, column, version, (), complete=False, cached=False)
    values = {str(row[0]).strip() for row in rows if row and row[0] is not None}
    kept = sorted(v for v in values if _nameable(v))
    return IndexedDimension(
        dimension, table, column, version, tuple(kept), complete=True, cached=False, dropped=len(values) - len(kept)
    )


def _nameable(value: str) -> bool:
    """A value a question can name: not blank, not long, one letter at least, no control characters."""
    return (
        0 < len(value) <= MAX_MEMBER_LENGTH
        and any(ch.isalpha() for ch in value)
        and not any(unicodedata.category(ch)[0] == "C" for ch in value)
    )


# -- the cache ---------------------------------------------------------------------------------


def _slug(name: str) -> str:
    return _SLUG.sub("_", name)[:60] or "_"


def _cache_key(catalog: str, dimension: str, table: str, column: str, version: str, limit: int) -> str:
    payload = json.dumps([CACHE_FORMAT, catalog, dimension, table, column, version, limit], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _read_cache(path: Path, key: str) -> IndexedDimension | None:
    """The cached entry, or None when the file is missing, unreadable or for another key."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key:
            return None
        members = data["members"]
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            return None
        return IndexedDimension(
            dimension=str(data["dimension"]),
            table=str(data["table"]),
            column=str(data["column"]),
            version=str(data["version"]),
            members=tuple(members),
            complete=bool(data["complete"]),
            cached=True,
            dropped=int(data.get("dropped", 0)),
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _write_cache(path: Path, key: str, catalog: str, entry: IndexedDimension) -> None:
    """Write atomically, then remove the dimension's entries for older data versions. A cache
    that cannot be written costs a re-read next time, never the question."""
    data = {
        "key": key,
        "catalog": catalog,
        "dimension": entry.dimension,
        "table": entry.table,
        "column": entry.column,
        "version": entry.version,
        "complete": entry.complete,
        "dropped": entry.dropped,
        "members": list(entry.members),
    }
    prefix = path.name.rsplit(".", 2)[0] + "."
    try:
        private_dir(path.parent)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        with open_private(tmp, "w") as handle:
            handle.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
        os.replace(tmp, path)
        for old in path.parent.glob(f"{glob.escape(prefix)}*.json"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        return


def _norm(text: str) -> str:
    """As the planner compares words: NFKC, lower case."""
    return unicodedata.normalize("NFKC", text).strip().lower()


def _catalog_words(catalog: Catalog) -> set[str]:
    """Every word the catalog already gives a meaning to (metrics, dimensions, listed members)."""
    words: set[str] = set()
    for name, metric in catalog.metrics.items():
        words |= {_norm(s) for s in (name, metric.label.zh, metric.label.en, *metric.synonyms)}
    for name, refused in catalog.refused.items():
        words |= {_norm(s) for s in (name, refused.label.zh, refused.label.en, *refused.synonyms)}
    for name, dim in catalog.dimensions.items():
        words |= {_norm(s) for s in (name, dim.label.zh, dim.label.en, *dim.synonyms)}
        for key, member in dim.members.items():
            words |= {_norm(s) for s in (key, member.label.zh, member.label.en, *member.synonyms)}
    return words
