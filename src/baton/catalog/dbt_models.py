"""dbt semantic models as catalog tables, joins, dimensions and measures.

MetricFlow names a dimension by the entity path that reaches it: ``listing__country_latest``
is the dimension ``country_latest`` of the model whose primary entity is ``listing``, read
from any model that carries a ``listing`` entity (one join), and
``listing__user__home_state_latest`` two joins away. A catalog dimension keeps that name and
lists, per table, the column it is read from (``listing.country`` through the join named
``listing``), so a query written against MetricFlow means the same rows in Baton.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from baton.catalog import sqlexpr
from baton.catalog.check import column_kind
from baton.catalog.model import Bilingual, Dimension, Join, Measure, Member, Table
from baton.messages import both

Meta = dict[str, Any]
_JOINABLE = ("primary", "unique")
MAX_HOPS = 2


def baton_meta(obj: Any, parent: Any = None) -> Meta:
    """The ``config: meta: baton:`` mapping of a dbt object (labels in Chinese, synonyms…).

    dbt copies a semantic model's meta into its dimensions, entities and measures that have
    none; a mapping equal to the ``parent`` model's is that copy, not the element's own."""
    config = getattr(obj, "config", None)
    meta = getattr(config, "meta", None) or {}
    found = meta.get("baton") if isinstance(meta, dict) else None
    if not isinstance(found, dict) or (parent is not None and found == baton_meta(parent)):
        return {}
    return dict(found)


def humanize(name: str) -> str:
    return name.replace("__", " ").replace("_", " ").strip()


def bilingual(obj: Any, name: str, meta: Meta) -> Bilingual:
    en = getattr(obj, "label", None) or humanize(name)
    return Bilingual(en=en, zh=str(meta.get("label_zh") or en))


def synonyms(name: str, label: Bilingual, meta: Meta) -> tuple[str, ...]:
    """A term's words: its name, humanised, its labels, its meta's synonyms — and, for a name kept
    as its latest value ("country_latest", a slowly changing dimension's), the words without
    "latest": "bookings by country" names it (its label, said in the answer, says it is the latest)."""
    words = [name, humanize(name), label.en, label.zh, *(str(s) for s in meta.get("synonyms") or [])]
    words += [w.removesuffix(" latest") for w in (humanize(name), label.en) if w.endswith(" latest")]
    return tuple(dict.fromkeys(w for w in words if w))


def qualify(sql: str, alias: str) -> str:
    """``sql`` (over a model's own columns) read through the join path ``alias``."""
    node = sqlexpr.parse(sql)
    for column in sqlexpr.columns(node):
        if not column.table:
            column.set("table", exp.to_identifier(alias))
    return node.sql(dialect=sqlexpr.READ)


def _entity_type(entity: Any) -> str:
    return str(getattr(entity.type, "value", entity.type))


def _expr(item: Any) -> str:
    return str(item.expr) if getattr(item, "expr", None) else str(item.name)


@dataclass
class ModelInfo:
    name: str
    table: str
    primary: str | None
    entities: dict[str, str]  # entity -> its column expression
    kinds: dict[str, str]  # entity -> primary | unique | foreign | natural
    time_dims: dict[str, str]  # time dimension -> column expression
    source: Any


@dataclass
class Models:
    """Every semantic model as a catalog table, with joins and MetricFlow-named dimensions."""

    infos: dict[str, ModelInfo] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    dimensions: dict[str, Dimension] = field(default_factory=dict)
    time_dimensions: dict[str, dict[str, str]] = field(default_factory=dict)
    """MetricFlow name -> {table: column} of every time dimension (for filters)"""
    origins: dict[tuple[str | int, ...], tuple[str, ...]] = field(default_factory=dict)
    notes: list[tuple[str, str]] = field(default_factory=list)
    """what was left out, and why (English, Chinese)"""
    join_entities: dict[tuple[str, str], str] = field(default_factory=dict)
    """(table, join name) -> the entity it joins on (MetricFlow names dimensions by entities)"""
    index_said: set[str] = field(default_factory=set)
    """dimensions whose ``meta.baton`` says whether to read their members from the data"""

    def model_of_measure(self, measure: str) -> ModelInfo:
        for info in self.infos.values():
            if any(m.name == measure for m in info.source.measures):
                return info
        raise KeyError(measure)


def _info(model: Any) -> ModelInfo:
    entities = {e.name: _expr(e) for e in model.entities}
    kinds = {e.name: _entity_type(e) for e in model.entities}
    primary = getattr(model, "primary_entity", None) or next((n for n, k in kinds.items() if k == "primary"), None)
    time_dims = {d.name: _expr(d) for d in model.dimensions if str(getattr(d.type, "value", d.type)) == "time"}
    return ModelInfo(model.name, model.node_relation.alias, primary, entities, kinds, time_dims, model)


def read_models(manifest: Any, warehouse: Mapping[str, Mapping[str, str]] | None) -> Models:
    out = Models()
    for model in manifest.semantic_models:
        out.infos[model.name] = _info(model)
    targets = _join_targets(out)
    for info in out.infos.values():
        out.tables[info.table] = _table(info, targets, warehouse, out)
        out.origins[("tables", info.table)] = ("semantic_model", info.name)
        out.origins[("tables", info.table, "time_column")] = ("semantic_model", info.name, "defaults")
    _dimensions(out, warehouse)
    return out


def _join_targets(models: Models) -> dict[str, list[ModelInfo]]:
    """Entity -> the models it identifies (where it is the primary or a unique entity)."""
    found: dict[str, list[ModelInfo]] = {}
    for info in models.infos.values():
        if any(getattr(d, "is_partition", False) for d in info.source.dimensions):
            # a partitioned snapshot repeats each key once per partition; MetricFlow joins it
            # partition to partition, which Baton does not do — so it is not joined at all
            models.notes.append(both("dbt.note_partitioned", model=info.name))
            continue
        for entity, kind in info.kinds.items():
            if kind in _JOINABLE or entity == info.primary:
                found.setdefault(entity, []).append(info)
    return found


def _is_timestamp(warehouse: Mapping[str, Mapping[str, str]] | None, table: str, column: str) -> bool:
    return _kind(warehouse, table, column) == "timestamp"


def _kind(warehouse: Mapping[str, Mapping[str, str]] | None, table: str, column: str) -> str | None:
    columns = {k.lower(): v for k, v in (warehouse or {}).get(table, {}).items()}
    return column_kind(columns.get(column.lower(), "")) if sqlexpr.is_plain_column(column) else None


_YES_NO_WORDS = ("is ", "has ", "was ", "are ")


def yes_no_members(name: str) -> dict[str, Member]:
    """A boolean dimension's two values as members a question can name: ``is_lux_latest`` true is
    "lux", false "not lux" / "non-lux" — so "2020年lux的bookings" and "bookings excluding
    instant" are filters, not words left over. Keyed "true" and "false", as
    :func:`baton.catalog.model.member_key` reads the values back."""
    said = humanize(name).removesuffix(" latest")
    word = next((said.removeprefix(w) for w in _YES_NO_WORDS if said.startswith(w)), said)
    yes, yes_zh = both("dbt.member_true", word=word)
    no, no_zh = both("dbt.member_false", word=word)
    negated = (f"non-{word}", f"non {word}", f"isn't {word}", f"is not {word}")
    return {  # "is lux" names the dimension; the member is the word alone
        "true": Member(label=Bilingual(en=yes, zh=yes_zh), synonyms=(word,)),
        "false": Member(label=Bilingual(en=no, zh=no_zh), synonyms=tuple(dict.fromkeys((no, no_zh, *negated)))),
    }


def _table(
    info: ModelInfo, targets: dict[str, list[ModelInfo]], warehouse: Mapping[str, Mapping[str, str]] | None, out: Models
) -> Table:
    model = info.source
    defaults = getattr(model, "defaults", None)
    agg_time = getattr(defaults, "agg_time_dimension", None)
    time_column = info.time_dims.get(agg_time) if agg_time else next(iter(info.time_dims.values()), None)
    joins: dict[str, Join] = {}
    for entity, column in info.entities.items():
        if info.kinds[entity] == "natural":
            continue
        found = [t for t in targets.get(entity, []) if t.table != info.table]
        for target in found:
            # one join per model the entity identifies; named by the entity when there is one
            name = entity if len(found) == 1 else f"{entity}_{target.table}"
            joins[name] = Join(table=target.table, on={column: target.entities[entity]})
            out.join_entities[(info.table, name)] = entity
            out.origins[("tables", info.table, "joins", name)] = ("semantic_model", info.name, "entities", entity)
    meta = baton_meta(model)
    timestamps = any(
        _is_timestamp(warehouse, info.table, c) for c in info.time_dims.values() if sqlexpr.is_plain_column(c)
    )
    return Table(
        label=bilingual(model, info.table, meta),
        time_column=time_column if time_column and sqlexpr.is_plain_column(time_column) else None,
        time_type="timestamp" if timestamps else "date",
        large=bool(meta.get("large", False)),
        primary_key=(info.entities[info.primary],)
        if info.primary and sqlexpr.is_plain_column(info.entities.get(info.primary, ""))
        else (),
        joins=joins,
    )


def _reach(models: Models, table: str, hops: int) -> list[tuple[str, str, str]]:
    """(join path, entity path, table) reachable from ``table`` in up to ``hops`` joins."""
    out: list[tuple[str, str, str]] = []
    frontier: list[tuple[str, str, str, tuple[str, ...]]] = [("", "", table, (table,))]
    for _ in range(hops):
        nxt = []
        for path, entities, current, seen in frontier:
            for name, join in models.tables[current].joins.items():
                if join.table in seen:  # never back through a table already on the path
                    continue
                entity = models.join_entities.get((current, name), name)
                if entity in entities.split("__"):  # the same key twice adds nothing
                    continue
                step = (f"{path}__{name}" if path else name, f"{entities}__{entity}" if entities else entity)
                nxt.append((*step, join.table, (*seen, join.table)))
        out += [(path, entities, target) for path, entities, target, _ in nxt]
        frontier = nxt
    return out


def _dimensions(models: Models, warehouse: Mapping[str, Mapping[str, str]] | None) -> None:
    """Each categorical dimension under its MetricFlow name(s), readable from every table
    whose joins reach it (a boolean one with its two values as members); each entity as a
    dimension of its own (its key values)."""
    for info in models.infos.values():
        if info.primary is None:
            continue
        for dim in info.source.dimensions:
            kind = str(getattr(dim.type, "value", dim.type))
            meta = baton_meta(dim, info.source)
            own = {info.table: _expr(dim)}
            boolean = _kind(warehouse, info.table, _expr(dim)) == "boolean"
            names = {f"{info.primary}__{dim.name}": own}
            for other in models.tables:
                paths: dict[str, list[str]] = {}
                for path, entities, target in _reach(models, other, MAX_HOPS):
                    if target == info.table and other != info.table:
                        paths.setdefault(f"{entities}__{dim.name}", []).append(path)
                for name, found in paths.items():
                    if len(found) == 1:  # a name two join paths reach is ambiguous: not offered
                        names.setdefault(name, dict(own))[other] = qualify(_expr(dim), found[0])
            for name, columns in names.items():
                if kind == "time":
                    models.time_dimensions[name] = columns
                    continue
                label = bilingual(dim, dim.name, meta)
                words = synonyms(name, label, meta)  # the plain label too: said alone, it is asked back
                if len(names) > 1:  # one dimension reached by several entity paths: each says whose it is
                    path = humanize(name.removesuffix(f"__{dim.name}"))
                    en, zh = both("dbt.label_of_path", label=label.en, label_zh=label.zh, path=path)
                    label = Bilingual(en=en, zh=zh)
                if "index_members" in meta:
                    models.index_said.add(name)
                models.dimensions[name] = Dimension(
                    label=label,
                    synonyms=words,
                    columns=columns,
                    members=yes_no_members(dim.name) if boolean else {},
                    drill=bool(meta.get("drill", True)),
                    index_members=bool(meta.get("index_members", False)),
                    value_after=tuple(str(w) for w in meta.get("value_after", ())),
                )
                for table in columns:
                    models.origins[("dimensions", name, "columns", table)] = (
                        "semantic_model", info.name, "dimensions", dim.name,
                    )  # fmt: skip
    _entity_dimensions(models)
    _latest_words_apart(models)


def _latest_words_apart(models: Models) -> None:
    """A word "latest" was taken off (:func:`synonyms`) that another dimension says in full ("home
    state" of a user, beside "home state latest") stays that one's alone: never a new ambiguity."""
    stripped = {
        name: {w.removesuffix(" latest") for w in dim.synonyms if w.endswith(" latest")}
        for name, dim in models.dimensions.items()
    }
    said = {name: set(dim.synonyms) - stripped[name] for name, dim in models.dimensions.items()}
    for name, dim in list(models.dimensions.items()):
        taken = {w for w in stripped[name] if any(w in words for other, words in said.items() if other != name)}
        if taken:
            kept = tuple(w for w in dim.synonyms if w not in taken)
            models.dimensions[name] = dim.model_copy(update={"synonyms": kept})


def _entity_dimensions(models: Models) -> None:
    by_entity: dict[str, dict[str, str]] = {}
    sources: dict[str, tuple[Any, Any]] = {}
    for info in models.infos.values():
        for entity, column in info.entities.items():
            by_entity.setdefault(entity, {})[info.table] = column
            sources.setdefault(entity, (next(e for e in info.source.entities if e.name == entity), info.source))
    for entity, columns in by_entity.items():
        if entity in models.dimensions:
            continue
        meta = baton_meta(*sources[entity])
        if "index_members" in meta:
            models.index_said.add(entity)
        label = bilingual(sources[entity][0], entity, meta)
        models.dimensions[entity] = Dimension(
            label=label,
            synonyms=synonyms(entity, label, meta),
            columns=columns,
            drill=bool(meta.get("drill", False)),  # a key: one member per row of its table
            index_members=bool(meta.get("index_members", False)),
            value_after=tuple(str(w) for w in meta.get("value_after", ())),  # as a dimension's: "operated by B6"
        )


AGGREGATES = {
    "sum": "SUM({x})",
    "count": "COUNT({x})",
    "count_distinct": "COUNT(DISTINCT {x})",
    "average": "AVG({x})",
    "min": "MIN({x})",
    "max": "MAX({x})",
    "sum_boolean": "SUM(CASE WHEN {x} THEN 1 ELSE 0 END)",
    "median": "MEDIAN({x})",
}


def measure_sql(measure: Any) -> str | None:
    """A dbt measure as one SQL aggregate (None: not computed exactly by Baton)."""
    agg = str(getattr(measure.agg, "value", measure.agg))
    expr = str(measure.expr) if getattr(measure, "expr", None) else str(measure.name)
    x = expr if sqlexpr.is_plain_column(expr) or expr.strip().isdigit() else f"({expr})"
    if agg in AGGREGATES:
        return AGGREGATES[agg].format(x=x)
    if agg == "percentile":
        params = measure.agg_params
        if params is None or params.percentile is None:
            return None
        fn = "QUANTILE_DISC" if params.use_discrete_percentile else "QUANTILE_CONT"
        return f"{fn}({x}, {float(params.percentile)!r})"
    return None


def measure_of(models: Models, name: str, filters: tuple[str, ...] = ()) -> tuple[Measure, ModelInfo] | None:
    """The catalog measure of a dbt measure (dated by its own agg_time_dimension)."""
    info = models.model_of_measure(name)
    measure = next(m for m in info.source.measures if m.name == name)
    sql = measure_sql(measure)
    if sql is None:
        return None
    agg_time = getattr(measure, "agg_time_dimension", None)
    column = info.time_dims.get(agg_time) if agg_time else None
    default = models.tables[info.table].time_column
    return Measure(
        table=info.table,
        expression=sql,
        filters=filters,
        time_column=column if column and column != default else None,
    ), info
