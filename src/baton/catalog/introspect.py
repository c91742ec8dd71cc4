"""Guess a draft catalog and the personal-data columns of a warehouse nobody has described yet.

Writing a catalog from nothing is the largest step between installing Baton and its first
answer, so ``baton init`` reads the schema and a few aggregates and proposes one: a time column
per table, categorical columns as dimensions (their members read from the data), a row count
per table and a sum and an average per numeric measure. Everything is a guess the user must
review, so every entry carries a note the writer turns into a "draft" comment.

Columns that hold personal data (by name, or by the shape of a bounded sample of values) are
listed for the policy, masked by default, and never become dimensions: a dimension's members
would print them. Every read is an aggregate or a bounded DISTINCT sample through the
read-only backend, with a timeout.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from sqlglot import exp

from baton.catalog.check import ColumnKind, column_kind
from baton.catalog.check import Warehouse as Backend
from baton.catalog.draft_joins import with_joins
from baton.catalog.model import Bilingual, Catalog, Dimension, Member, Metric, Table, TimeType, Unit, member_key
from baton.catalog.pii_guess import PHONE_DIGITS, MaskStyle, PiiGuess, pii_by_name, pii_by_values, tokens
from baton.contracts.query import ForeignKey
from baton.messages import bilingual, both, localized

MAX_MEMBERS = 50
"""A text column with at most this many distinct values is a dimension with listed members."""
MAX_INDEXED = 10_000
"""A code-like column with more values than MAX_MEMBERS (up to this) is an indexed dimension."""
SAMPLE_SIZE = 200
"""Distinct values sampled from a text column to recognise codes and personal data."""
SCAN_ROWS = 100_000
"""Counts and samples are taken over at most this many rows of a table (the first the engine
returns), so introspecting a large warehouse costs a bounded scan per table; the members of a
categorical column are read from the whole table."""
UNIQUE_SHARE = 0.9
"""A column whose distinct values are at least this share of its rows identifies rows."""
TIMEOUT_S = 120.0

PathKey = tuple[str | int, ...]

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = frozenset(
    {
        *("all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary"),
        *("both", "case", "cast", "check", "collate", "collation", "column", "concurrently", "constraint", "create"),
        *("cross", "current_catalog", "current_date", "current_role", "current_schema", "current_time"),
        *("current_timestamp", "current_user", "default", "deferrable", "desc", "distinct", "do", "else", "end"),
        *("except", "false", "fetch", "for", "foreign", "freeze", "from", "full", "grant", "group", "having", "ilike"),
        *("in", "initially", "inner", "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left"),
        *("like", "limit", "localtime", "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only"),
        *("or", "order", "outer", "overlaps", "pivot", "placing", "primary", "qualify", "references", "returning"),
        *("right", "select", "session_user", "similar", "some", "symmetric", "system_user", "table", "tablesample"),
        *("then", "to", "trailing", "true", "union", "unique", "unpivot", "user", "using", "variadic", "verbose"),
        *("when", "where", "window", "with"),
    }
)
"""SQL reserved words (PostgreSQL's and DuckDB's): a column so named would need quoting."""

_ID_TOKENS = frozenset({"id", "key", "no", "code", "uuid", "guid", "sk", "pk", "fk", "seq", "idx", "zip", "postcode"})
_NOT_ID = frozenset({"paid", "prepaid", "unpaid", "valid", "invalid", "void", "avoid"})
_CALENDAR_TOKENS = frozenset({"year", "yr", "month", "day", "week", "quarter", "hour", "minute", "dow", "weekday"})
_CALENDAR_TOKENS |= {"yyyymm", "yyyymmdd", "ym", "ymd", "lat", "lon", "lng", "latitude", "longitude"}
_MONEY_TOKENS = frozenset({"amount", "amt", "price", "revenue", "cost", "fee"})
_DATE_TOKENS = frozenset({"date", "day", "dt"})
_EVENT_TOKENS = frozenset({"at", "time", "ts", "timestamp", "created", "creation"})
_LATE_TOKENS = frozenset({"updated", "modified", "deleted", "loaded", "etl", "synced", "ingested", "birth", "dob"})


@dataclass
class _Column:
    name: str
    type: str
    kind: ColumnKind
    usable: bool
    non_null: int = 0
    distinct: int | None = None
    low: Any = None
    high: Any = None
    values: list[str] = field(default_factory=list)
    complete: bool = False
    """``values`` holds every value of the column (most frequent first), not a sample"""


@dataclass
class _Table:
    name: str
    rows: int
    """rows read (at most SCAN_ROWS)"""
    columns: dict[str, _Column]
    usable: bool


@dataclass(frozen=True)
class Draft:
    """A guessed catalog, the personal-data columns, and the notes the writer shows as comments."""

    catalog: Catalog
    pii: dict[str, PiiGuess]
    """``table.column`` -> the guess"""
    notes: dict[PathKey, list[str]]
    """catalog field path -> comment lines written above it"""


_CASE_INSENSITIVE = frozenset({"duckdb", "spark"})
"""Engines that match a bare name to a column whatever its case (and keep the case it was made
with); PostgreSQL folds a bare name to lower case, so ``Plan`` there must be quoted."""


def usable_name(name: str, dialect: str) -> bool:
    """Whether a table or column name can be written bare in catalog SQL on this engine
    (PostgreSQL folds bare names to lower case; reserved words need quoting)."""
    return (
        bool(_IDENT.fullmatch(name))
        and name.lower() not in _RESERVED
        and (dialect in _CASE_INSENSITIVE or name == name.lower())
    )


def _contradicted(mask: MaskStyle, column: _Column) -> bool:
    """A name that says phone or email over values none of which could be one ("mobile_os":
    iOS, Android; "mail_count": numbers) is not personal data."""
    if mask == "email" and column.kind != "text":  # mail_count: a number cannot be an address
        return True
    if column.kind != "text" or not column.values:
        return False
    if mask == "phone":
        return not any(len(PHONE_DIGITS.findall(v)) >= 7 for v in column.values)
    if mask == "email":
        return not any("@" in v for v in column.values)
    return False


def guess_pii(column: _Column) -> PiiGuess | None:
    if column.kind in ("boolean", "date", "timestamp"):
        return None
    by_values = pii_by_values(column.values) if column.kind in ("text", "integer") else None
    mask = pii_by_name(column.name)
    if mask is not None and not _contradicted(mask, column):
        return PiiGuess(mask=mask, by="name")
    return by_values


# -- reading the warehouse -----------------------------------------------------------------


def _ident(name: str) -> exp.Identifier:
    return exp.to_identifier(name, quoted=True)


def _run(backend: Backend, query: exp.Expression, rows: int) -> list[tuple[Any, ...]]:
    return backend.execute(query.sql(dialect=backend.engine.dialect), timeout_s=TIMEOUT_S, row_cap=rows).rows


def _id_like(name: str) -> bool:
    words = tokens(name)
    lower = name.lower()
    if lower in _NOT_ID:
        return False
    return bool(words) and (words[-1] in _ID_TOKENS or lower.endswith(("id", "code")))


def _scan(table: str, columns: Iterable[str], where: exp.Expression | None = None) -> exp.Subquery:
    """At most SCAN_ROWS rows of ``table`` (the first the engine returns): what counts are taken over."""
    query = exp.select(*[exp.Column(this=_ident(c)) for c in columns]).from_(exp.Table(this=_ident(table)))
    if where is not None:
        query = query.where(where)
    return query.limit(SCAN_ROWS).subquery("s")


def profile(backend: Backend, table: str, columns: dict[str, str]) -> _Table:
    """Counts over a bounded scan of the table, the members of its categorical columns (from the
    whole table) and a sample of the distinct values of its other text columns."""
    dialect = backend.engine.dialect
    cols = {
        name: _Column(name, dtype, column_kind(dtype), usable_name(name, dialect)) for name, dtype in columns.items()
    }
    selects: list[exp.Expression] = [exp.Count(this=exp.Star())]
    slots: list[tuple[str, str]] = []
    for col in cols.values():
        ref = exp.Column(this=_ident(col.name))
        selects.append(exp.Count(this=ref.copy()))
        slots.append((col.name, "non_null"))
        if col.kind in ("text", "boolean") or (col.kind == "integer" and _id_like(col.name)):
            selects.append(exp.Count(this=exp.Distinct(expressions=[ref.copy()])))
            slots.append((col.name, "distinct"))
        if col.kind == "integer":
            selects += [exp.Min(this=ref.copy()), exp.Max(this=ref.copy())]
            slots += [(col.name, "low"), (col.name, "high")]
    (row,) = _run(backend, exp.select(*selects).from_(_scan(table, cols)), 1)
    for (name, attr), value in zip(slots, row[1:], strict=True):
        setattr(cols[name], attr, int(value) if attr in ("non_null", "distinct") and value is not None else value)
    for col in cols.values():
        _read_values(backend, table, col)
    return _Table(table, int(row[0] or 0), cols, usable_name(table, dialect))


def _read_values(backend: Backend, table: str, col: _Column) -> None:
    ref = exp.Column(this=_ident(col.name))
    present = exp.Not(this=exp.Is(this=ref.copy(), expression=exp.Null()))
    few = col.distinct is not None and 0 < col.distinct <= MAX_MEMBERS and col.distinct < UNIQUE_SHARE * col.non_null
    if col.kind in ("text", "boolean") and few:
        count = exp.Count(this=exp.Star())
        query = (
            exp.select(ref.copy(), count.copy())
            .from_(exp.Table(this=_ident(table)))
            .where(present)
            .group_by(ref.copy())
            .order_by(exp.Ordered(this=count.copy(), desc=True), exp.Ordered(this=ref.copy()))
            .limit(MAX_MEMBERS + 1)
        )
        col.values = [member_key(v) for v, _n in _run(backend, query, MAX_MEMBERS + 1)]
        col.complete = len(col.values) <= MAX_MEMBERS  # the whole table may hold more than the scan
        col.distinct = len(col.values) if col.complete else col.distinct
        return
    phone_range = col.kind == "integer" and isinstance(col.low, int) and col.low >= 13 * 10**9 and col.high < 2 * 10**10
    if col.kind == "text" or phone_range:
        cast = exp.cast(exp.Column(this=_ident(col.name)), exp.DataType.build(exp.DataType.Type.VARCHAR))
        query = exp.select(cast).distinct().from_(_scan(table, [col.name], present)).limit(SAMPLE_SIZE)
        col.values = [str(v) for (v,) in _run(backend, query, SAMPLE_SIZE)]


def profile_warehouse(backend: Backend, tables: Iterable[str] | None = None) -> list[_Table]:
    """Profiles of the warehouse's tables (all, or those named), in name order."""
    schema = backend.schema()
    names = sorted(schema) if tables is None else [t for t in tables if t in schema]
    return [profile(backend, name, schema[name]) for name in names]


def pii_columns(profiles: Iterable[_Table]) -> dict[str, PiiGuess]:
    """``table.column`` -> guess, for every column that looks like personal data."""
    out: dict[str, PiiGuess] = {}
    for table in profiles:
        found = {c.name: g for c in table.columns.values() if "." not in c.name and (g := guess_pii(c)) is not None}
        for name, guess in found.items():
            # a bare "name" is a person's only beside other personal data (a users table), not
            # in a lookup table (airlines, products, cities) where it names the thing itself
            if "".join(tokens(name)) == "name" and guess.by == "name" and len(found) == 1:
                continue
            out[f"{table.name}.{name}"] = guess
    return out


# -- the draft -----------------------------------------------------------------------------


def introspect(backend: Backend, *, warehouse: str) -> Draft:
    """The draft catalog of every table of the warehouse behind ``backend``."""
    return build_draft(profile_warehouse(backend), warehouse=warehouse, foreign_keys=backend.foreign_keys())


def build_draft(profiles: list[_Table], *, warehouse: str, foreign_keys: Sequence[ForeignKey] = ()) -> Draft:
    """The catalog the profiles suggest, with joins from the declared ``foreign_keys``;
    ``warehouse`` names it (the file or database name)."""
    pii = pii_columns(profiles)
    notes: dict[PathKey, list[str]] = {}
    used = [t for t in profiles if t.usable]
    skipped_tables = [t.name for t in profiles if not t.usable]
    if skipped_tables:
        notes[("tables",)] = [bilingual("init.draft_skipped", columns=", ".join(skipped_tables))]
    tables: dict[str, Table] = {}
    times: dict[str, str] = {}
    keys: dict[str, str] = {}
    for t in used:
        tables[t.name] = _table(t, notes, times, keys)
    lookups = {fk.ref_table for fk in foreign_keys}
    dimensions, dim_of = _dimensions(used, pii, times, notes, lookups)
    with_joins(tables, dimensions, dim_of, keys, foreign_keys, notes)
    metrics = _metrics(used, pii, times, keys, notes)  # their dimensions are set below
    for name in list(dimensions):
        if name in metrics:  # a column named like a metric: keep both, renamed apart
            dimensions[f"{name}_dim"] = dimensions.pop(name)
            for table, dims in dim_of.items():
                dim_of[table] = [f"{name}_dim" if d == name else d for d in dims]
            notes[("dimensions", f"{name}_dim")] = notes.pop(("dimensions", name), [])
    metrics = {m: x.model_copy(update={"dimensions": tuple(dim_of.get(x.table or "", []))}) for m, x in metrics.items()}
    if metrics:
        notes[("metrics",)] = [bilingual("init.draft_owner")]
    en, zh = both("init.catalog_description", warehouse=warehouse)
    catalog = Catalog(
        name=warehouse,
        description=Bilingual(en=en, zh=zh),
        tables=tables,
        dimensions=dimensions,
        metrics=metrics,
    )
    return Draft(catalog=catalog, pii=pii, notes=notes)


def _time_score(column: _Column) -> tuple[int, str]:
    words = set(tokens(column.name))
    score, reason = (1 if column.kind == "date" else 0), "init.reason_first"
    if words & _DATE_TOKENS:
        score, reason = score + 4, "init.reason_date_name"
    elif words & _EVENT_TOKENS:
        score, reason = score + 3, "init.reason_event_name"
    if words & _LATE_TOKENS:  # when a row was changed or loaded, not when its event happened
        score, reason = score - 10, "init.reason_first"
    return score, reason


def _table(t: _Table, notes: dict[PathKey, list[str]], times: dict[str, str], keys: dict[str, str]) -> Table:
    path: PathKey = ("tables", t.name)
    found = [c for c in t.columns.values() if c.kind in ("date", "timestamp") and c.usable and c.non_null > 0]
    time: _Column | None = None
    if found:
        time = max(found, key=lambda c: (_time_score(c)[0], -found.index(c)))
        reason = "init.reason_only" if len(found) == 1 else _time_score(time)[1]
        notes[path] = [" / ".join(both("init.draft_table", time_column=time.name, **localized("reason", reason)))]
        times[t.name] = time.name
    else:
        notes[path] = [bilingual("init.draft_table_no_time")]
    skipped = [c.name for c in t.columns.values() if not c.usable]
    if skipped:
        notes[path].append(bilingual("init.draft_skipped", columns=", ".join(skipped)))
    key = _primary_key(t)
    if key is not None:
        keys[t.name] = key
        notes[(*path, "primary_key")] = [bilingual("init.draft_primary_key", column=key, rows=t.rows)]
    time_type: TimeType = "timestamp" if time is not None and time.kind == "timestamp" else "date"
    return Table(
        label=Bilingual(en=t.name, zh=t.name),
        time_column=time.name if time is not None else None,
        time_type=time_type,
        freshness="max_time" if time is not None else None,
        primary_key=(key,) if key is not None else (),
    )


def _primary_key(t: _Table) -> str | None:
    """An id-like column with a different value in every row (its name closest to the table's)."""
    unique = [
        c
        for c in t.columns.values()
        if c.usable and _id_like(c.name) and t.rows > 0 and c.distinct == c.non_null == t.rows
    ]
    own = set(tokens(t.name))
    unique.sort(key=lambda c: (c.name.lower() != "id", not (set(tokens(c.name)[:-1]) & own)))
    return unique[0].name if unique else None


def _dimension_kind(c: _Column, *, lookup: bool = False) -> Literal["members", "indexed"] | None:
    """How a column makes a dimension, if it does. ``lookup``: its table is one a foreign key
    points at (cities, products), where a name unique to each row ("city_name") is what the rows
    of the referencing table are grouped by."""
    if c.kind not in ("text", "boolean") or not c.usable or c.distinct is None or c.distinct < 2:
        return None
    named = lookup and bool(_NAME_WORDS & set(tokens(c.name)))
    if c.distinct >= UNIQUE_SHARE * c.non_null and not named:  # identifies rows (or free text): not a category
        return None
    if c.complete and c.distinct <= MAX_MEMBERS and all(len(v) <= 100 for v in c.values):
        return "members"
    code_like = all(len(v) <= 32 and not any(ch.isspace() for ch in v) for v in c.values)
    short = all(len(v) <= 100 for v in c.values)  # a name ("product 12"), never free text
    indexable = c.kind == "text" and bool(c.values) and (code_like or (named and short))
    return "indexed" if indexable and c.distinct <= MAX_INDEXED else None


def members_read_from_data(
    catalog: Catalog, profiles: Iterable[_Table], pii: Collection[str], said: Collection[str]
) -> Catalog:
    """A dbt project's dimensions that say nothing of their members (``said``: those whose meta
    does), with their members read from the data at question time where each plain column the
    dimension has is a category: text of at most :data:`MAX_AUTO_MEMBERS` short values, no key,
    no personal data ("bookings in the US" then names the country, never leaves "US" to be asked
    back or, lower-cased, dropped). A lookup table's column (one another table joins to) may hold
    each value once ("home state" of a few users); columns reached by a join path hold the same
    values, so the plain ones decide."""
    columns = {(t.name, c.name): c for t in profiles for c in t.columns.values()}
    lookups = {join.table for table in catalog.tables.values() for join in table.joins.values()}
    dims = dict(catalog.dimensions)
    for name, dim in catalog.dimensions.items():
        if name in said or dim.members or dim.index_members:
            continue
        plain = [(t, c) for t, col in dim.columns.items() if (c := columns.get((t, col))) is not None]
        if not plain or any(f"{t}.{c}" in pii for t, c in dim.columns.items()):
            continue  # only paths or expressions, or personal data: left as the project says
        if all(_auto_category(c, lookup=t in lookups) for t, c in plain):
            dims[name] = dim.model_copy(update={"index_members": True})
    return catalog.model_copy(update={"dimensions": dims})


MAX_AUTO_MEMBERS = 500
"""The most distinct values a dbt dimension's column may hold to have its members read unasked."""
_KEY_WORDS = frozenset({"id", "ids", "uuid", "key", "pk", "fk"})


def _auto_category(c: _Column, *, lookup: bool) -> bool:
    """Whether a column is a category whose values a question may name: text (never True/False),
    few short values, not a key, and — outside a lookup table — not one value per row."""
    if c.kind != "text" or not c.usable or not c.values or c.distinct is None or c.distinct > MAX_AUTO_MEMBERS:
        return False
    if (tokens(c.name) or [""])[-1] in _KEY_WORDS or not all(len(v) <= 40 for v in c.values):
        return False
    return lookup or c.distinct < UNIQUE_SHARE * c.non_null


_NAME_WORDS = frozenset({"name", "label", "title"})
"""Words of a column that names the thing its row stands for."""


def _dimensions(
    tables: list[_Table],
    pii: dict[str, PiiGuess],
    times: dict[str, str],
    notes: dict[PathKey, list[str]],
    lookups: Collection[str] = (),
) -> tuple[dict[str, Dimension], dict[str, list[str]]]:
    """Categorical columns as dimensions; one dimension per column name, with a column per table —
    unless the tables' columns of one name hold different things (an invoice's ``status`` paid /
    void, a subscription's active / cancelled): then one dimension per table (``invoice_status``)."""
    parts: dict[str, list[tuple[str, _Column, str]]] = {}
    for t in tables:
        for c in t.columns.values():
            kind = None if f"{t.name}.{c.name}" in pii else _dimension_kind(c, lookup=t.name in lookups)
            if kind is not None:
                parts.setdefault(c.name, []).append((t.name, c, kind))
    parts = _split_apart(parts)
    out: dict[str, Dimension] = {}
    dim_of: dict[str, list[str]] = {}
    for name, found in parts.items():
        values = list(dict.fromkeys(v for _t, c, _k in found for v in c.values))
        indexed = any(k == "indexed" for _t, _c, k in found) or len(values) > MAX_MEMBERS
        columns = {t: c.name for t, c, _k in found}
        where = ", ".join(f"{t}.{c.name}" for t, c, _k in found)
        label = Bilingual(en=name, zh=name)
        spaced = name.replace("_", " ")
        out[name] = Dimension(
            label=label,
            synonyms=(spaced,) if spaced != name else (),
            columns=columns,
            members={} if indexed else {v: Member(label=Bilingual(en=v, zh=v)) for v in values},
            drill=not indexed,  # too many members to drill into when explaining a change
            index_members=indexed,
        )
        names = any(c.distinct is not None and c.distinct >= UNIQUE_SHARE * c.non_null for _t, c, _k in found)
        notes[("dimensions", name)] = [
            bilingual("init.draft_dimension_names", columns=where)
            if names
            else bilingual("init.draft_dimension_indexed", columns=where, limit=MAX_MEMBERS)
            if indexed
            else bilingual("init.draft_dimension", columns=where, count=len(values))
        ]
        for table in columns:
            if table in times:
                dim_of.setdefault(table, []).append(name)
    return out, dim_of


def _split_apart(
    parts: dict[str, list[tuple[str, _Column, str]]],
) -> dict[str, list[tuple[str, _Column, str]]]:
    """Columns of one name whose values (all of them read) share none are different things: each
    table's its own dimension, named by the table. Columns of sampled values stay together."""
    out: dict[str, list[tuple[str, _Column, str]]] = {}
    for name, found in parts.items():
        if len(found) < 2 or any(k != "members" for _t, _c, k in found):
            out[name] = found
            continue
        groups: list[tuple[set[str], list[tuple[str, _Column, str]]]] = []
        for part in found:  # a column sharing values with several groups joins them all (a chain)
            values, members = set(part[1].values), [part]
            for group in [g for g in groups if g[0] & values]:
                groups.remove(group)
                values |= group[0]
                members = [*group[1], *members]
            groups.append((values, members))
        if len(groups) == 1:
            out[name] = found
            continue
        for _values, members in groups:
            key = f"{_table_stem(members[0][0])}_{name}"
            out[key if key not in parts and key not in out else f"{members[0][0]}_{name}"] = members
    return out


def _table_stem(table: str) -> str:
    """A table's name as a word for what it holds (``fact_invoice`` → ``invoice``)."""
    return re.sub(r"^(?:fact|dim|fct|stg|f|d)_", "", table, flags=re.I) or table


def _variants(key: str, **fields: str) -> list[str]:
    """A synonym template in both languages, also with its name's underscores as spaces (English)
    and with spaces around a Latin name (Chinese: "orders 有多少行" as well as "orders有多少行")."""
    (field_name, value), *_ = fields.items()
    en, zh = both(key, **fields)
    out = [en, zh, both(key, **{field_name: value.replace("_", " ")})[0]]
    if value.isascii():
        out.append(re.sub(r"\s+", " ", both(key, **{field_name: f" {value} "})[1]).strip())
    return out


_ROW_SYNONYMS = (
    "init.rows_synonym_of",
    "init.rows_synonym_number",
    "init.rows_synonym_count",
    "init.rows_synonym_few",
    "init.rows_synonym_records",
    "init.rows_synonym_record_count",
    "init.rows_synonym_record_of",
    "init.rows_synonym_in",
    "init.rows_synonym_in_table",
    "init.rows_synonym_table_records",
    "init.rows_synonym_plain",  # "How many tickets were there last month?": a table's rows are its things
)


_MEASURE_SYNONYMS = {
    "sum": ("init.sum_label", "init.sum_synonym_of", "init.sum_synonym_total"),
    "avg": ("init.avg_label", "init.avg_synonym_mean", "init.avg_synonym_per_row"),
}


def _metrics(
    tables: list[_Table],
    pii: dict[str, PiiGuess],
    times: dict[str, str],
    keys: dict[str, str],
    notes: dict[PathKey, list[str]],
) -> dict[str, Metric]:
    """A row count per dated table, and a sum and an average per numeric measure column."""
    measures = [
        (t, c)
        for t in tables
        if t.name in times
        for c in t.columns.values()
        if c.kind in ("integer", "number")
        and c.usable
        and c.non_null > 0
        and not _id_like(c.name)
        and c.name != keys.get(t.name)
        and not set(tokens(c.name)) & _CALENDAR_TOKENS
        and f"{t.name}.{c.name}" not in pii
    ]
    shared = {c.name for t, c in measures if sum(1 for _t, o in measures if o.name == c.name) > 1}
    out: dict[str, Metric] = {}
    for t in tables:
        if t.name not in times:
            continue
        name = _free(out, f"{t.name}_rows")
        en, zh = both("init.rows_label", table=t.name)
        synonyms = [s for key in ("init.rows_label", *_ROW_SYNONYMS) for s in _variants(key, table=t.name)]
        out[name] = _metric(en, zh, synonyms, ("init.rows_description", t.name, ""), t.name, "COUNT(*)", "count")
        notes[("metrics", name)] = [bilingual("init.draft_metric_rows", table=t.name)]
    for t, c in measures:
        money = bool(set(tokens(c.name)) & _MONEY_TOKENS)
        named = c.name if c.name not in shared else f"{t.name} {c.name}"  # "orders amount" beside "refunds amount"
        for kind, function in (("sum", "SUM"), ("avg", "AVG")):
            base = f"{c.name}_{kind}" if c.name not in shared else f"{t.name}_{c.name}_{kind}"
            name = _free(out, base)
            en, zh = both(f"init.{kind}_label", column=named)
            synonyms = [s for key in _MEASURE_SYNONYMS[kind] for s in _variants(key, column=named)]
            unit: Unit = "currency" if money else ("count" if kind == "sum" and c.kind == "integer" else "number")
            description = (f"init.{kind}_description", t.name, c.name)
            out[name] = _metric(en, zh, synonyms, description, t.name, f"{function}({c.name})", unit)
            notes[("metrics", name)] = [bilingual("init.draft_metric", table=t.name, column=c.name)]
            if money:
                notes[("metrics", name, "unit")] = [bilingual("init.draft_currency")]
    return out


def _free(taken: dict[str, Metric], name: str) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    return candidate


def _metric(
    en: str, zh: str, synonyms: list[str], description: tuple[str, str, str], table: str, expression: str, unit: Unit
) -> Metric:
    key, table_name, column = description
    d_en, d_zh = both(key, table=table_name, column=column)
    words = tuple(dict.fromkeys(s for s in synonyms if s and s not in (en, zh)))
    return Metric(
        label=Bilingual(en=en, zh=zh),
        synonyms=words,
        description=Bilingual(en=d_en, zh=d_zh),
        table=table,
        expression=expression,
        unit=unit,
        owner="TODO",
    )


__all__ = [
    "MAX_INDEXED",
    "MAX_MEMBERS",
    "Draft",
    "PiiGuess",
    "build_draft",
    "guess_pii",
    "introspect",
    "pii_by_name",
    "pii_by_values",
    "pii_columns",
    "profile",
    "profile_warehouse",
    "tokens",
    "usable_name",
]
