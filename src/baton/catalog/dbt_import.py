"""Import a dbt semantic project (MetricFlow semantic models and metrics) as a Baton catalog.

Data teams already describe their metrics in dbt; they should not write them twice. Simple,
ratio and derived metrics become catalog metrics with the same meaning — measures as SQL
aggregates, metric filters in MetricFlow's syntax translated to SQL on the measure's table
(through joins where the dimension lives elsewhere), each measure dated by its own
``agg_time_dimension``. What Baton cannot compute exactly yet — cumulative and conversion
metrics, offsets, filling empty periods, semi-additive measures — is imported as *refused*
with the reason, so a question naming it says so instead of answering something close.

Labels and descriptions are kept as 口径; Chinese labels, synonyms, units and owners come
from each object's ``config: meta: baton:`` mapping (dbt's own place for tool metadata).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from baton.catalog import sqlexpr, where
from baton.catalog.compiler import bucket
from baton.catalog.dbt_models import Meta, Models, baton_meta, bilingual, measure_of, read_models, synonyms
from baton.catalog.dbt_read import DbtSources, build_manifest, read_manifest_json, read_sources, validate
from baton.catalog.model import Bilingual, Catalog, Measure, Metric, MetricInput, RefusedMetric
from baton.errors import ConfigError
from baton.messages import both
from baton.yaml_text import safe_load

Origin = tuple[Path, int | None]
_UNITS = ("currency", "count", "ratio", "number")


@dataclass(frozen=True)
class DbtImport:
    """A dbt project as a catalog, with where each catalog entry came from."""

    catalog: Catalog
    origins: dict[tuple[str | int, ...], Origin] = field(default_factory=dict)
    """catalog field path (e.g. ("metrics", "bookings", "expression")) -> (dbt file, line)"""
    refused: dict[str, str] = field(default_factory=dict)
    """metric name -> why it is refused (English)"""
    notes: list[tuple[str, str]] = field(default_factory=list)
    """what was left out, and why (English, Chinese)"""
    index_said: frozenset[str] = frozenset()
    """dimensions whose dbt meta says whether their members are read from the data (the rest are
    decided from the warehouse's profile at ``baton init``)"""


class Refused(Exception):
    """A metric Baton will not compute; carries the message key and its fields."""

    def __init__(self, key: str, **fields: Any) -> None:
        super().__init__(key)
        self.key, self.fields = key, fields


def import_dbt(
    project: Path,
    *,
    schema: str | None = None,
    name: str | None = None,
    warehouse: Mapping[str, Mapping[str, str]] | None = None,
) -> DbtImport:
    """Read the semantic models and metrics of the dbt project in ``project`` (a folder of
    YAML files, or a compiled ``semantic_manifest.json``). ``schema`` fills MetricFlow's
    ``$source_schema`` placeholder; ``warehouse`` (table -> column -> type) tells date columns
    from timestamps. Raises ConfigError naming the file and line of a problem."""
    if not project.exists():
        raise ConfigError(*both("dbt.not_found", path=project), detail={"file": str(project)})
    sources: DbtSources | None = None
    manifest_json = project if project.suffix == ".json" else None
    if manifest_json is not None:
        manifest = read_manifest_json(manifest_json)
    else:
        sources = read_sources(project, schema or "main")
        if not sources.semantic_models and not sources.metrics:
            compiled = project / "target" / "semantic_manifest.json"
            if compiled.is_file():
                return import_dbt(compiled, schema=schema, name=name, warehouse=warehouse)
            raise ConfigError(*both("dbt.empty", path=project), detail={"file": str(project)})
        manifest = build_manifest(sources, project)
    validate(manifest, sources, project)
    return _convert(manifest, sources, name or _project_name(project), warehouse, project)


def _project_name(project: Path) -> str:
    folder = project if project.is_dir() else project.parent
    dbt_project = folder / "dbt_project.yml"
    if dbt_project.is_file():
        data = safe_load(dbt_project.read_text(encoding="utf-8"))
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            return str(data["name"])
    return folder.resolve().name


def _convert(
    manifest: Any,
    sources: DbtSources | None,
    name: str,
    warehouse: Mapping[str, Mapping[str, str]] | None,
    project: Path,
) -> DbtImport:
    models = read_models(manifest, warehouse)
    by_name = {m.name: m for m in manifest.metrics}
    converter = _Metrics(models, by_name)
    for metric in manifest.metrics:
        converter.convert(metric.name)
    try:
        catalog = _catalog(name, models, converter)
    except ValidationError as exc:  # a combination the catalog cannot hold: said, not a traceback
        first = exc.errors()[0]
        raise ConfigError(
            *both("dbt.not_importable", path=project, error=first["msg"]), detail={"file": str(project)}
        ) from exc
    origins = _origins(models.origins | converter.origins, sources, project)
    return DbtImport(
        catalog=catalog,
        origins=origins,
        refused={k: v.reason.en for k, v in converter.refused.items()},
        notes=models.notes,
        index_said=frozenset(models.index_said),
    )


def _catalog(name: str, models: Models, converter: _Metrics) -> Catalog:
    return Catalog(
        name=name,
        description=Bilingual(**dict(zip(("en", "zh"), both("dbt.description", name=name), strict=True))),
        tables=models.tables,
        dimensions=models.dimensions,
        metrics=converter.metrics,
        refused=converter.refused,
    )


def _origins(
    keys: Mapping[tuple[str | int, ...], tuple[str, ...]], sources: DbtSources | None, project: Path
) -> dict[tuple[str | int, ...], Origin]:
    """Catalog paths -> the dbt file and line they were read from (the most specific one known)."""
    out: dict[tuple[str | int, ...], Origin] = {}
    for path, key in keys.items():
        found = None
        for size in range(len(key), 1, -1):
            found = sources.origins.get(key[:size]) if sources is not None else None
            if found is not None:
                break
        out[path] = found or (project, None)
    return out


def _bucket_sql(column: str, grain: str) -> str:
    """A time column at a grain, as a date, in catalog SQL (the compiler's own bucketing;
    a date column cast to a date is itself)."""
    return bucket(sqlexpr.parse(column), grain, timestamps=True).sql(dialect=sqlexpr.READ)


class _Metrics:
    """dbt metrics -> catalog metrics, each converted once (derived ones after their inputs)."""

    def __init__(self, models: Models, by_name: dict[str, Any]) -> None:
        self.models, self.by_name = models, by_name
        self.metrics: dict[str, Metric] = {}
        self.refused: dict[str, RefusedMetric] = {}
        self.origins: dict[tuple[str | int, ...], tuple[str, ...]] = {}

    def convert(self, name: str) -> None:
        if name in self.metrics or name in self.refused:
            return
        metric = self.by_name[name]
        meta = baton_meta(metric)
        label = bilingual(metric, name, meta)
        self.origins[("metrics", name)] = ("metric", name)
        try:
            body = self._body(metric, name)
        except Refused as exc:
            en, zh = both(exc.key, **exc.fields)
            self.refused[name] = RefusedMetric(
                label=label,
                synonyms=synonyms(name, label, meta),
                description=self._description(metric, label, meta),
                reason=Bilingual(en=en, zh=zh),
            )
            return
        converted = Metric(
            label=label,
            synonyms=synonyms(name, label, meta),
            description=self._description(metric, label, meta),
            unit=self._unit(metric, meta, body),
            better=meta.get("better"),
            currency=meta.get("currency"),
            owner=str(meta.get("owner") or "dbt"),
            **body,
        )
        self.metrics[name] = converted.model_copy(update={"dimensions": self._dimensions(converted)})

    @staticmethod
    def _description(metric: Any, label: Bilingual, meta: Meta) -> Bilingual:
        en = metric.description or label.en
        return Bilingual(en=en, zh=str(meta.get("description_zh") or en))

    def _type(self, metric: Any) -> str:
        return str(getattr(metric.type, "value", metric.type))

    def _body(self, metric: Any, name: str) -> dict[str, Any]:
        kind = self._type(metric)
        if kind in ("cumulative", "conversion"):
            raise Refused(f"dbt.refused_{kind}", metric=name)
        if kind == "simple":
            return self._simple(metric, name)
        if kind == "ratio":
            return self._ratio(metric, name)
        if kind == "derived":
            return self._derived(metric, name)
        raise Refused("dbt.refused_kind", metric=name, kind=kind)

    def _filters(self, metric: Any) -> list[str]:
        flt = getattr(metric, "filter", None)
        return [w.where_sql_template for w in flt.where_filters] if flt is not None else []

    def _measure(self, metric_name: str, metric: Any, extra: list[str]) -> Measure:
        """The simple metric's measure with its own filter and ``extra`` filters, in SQL."""
        params = metric.type_params
        measure = params.measure
        if measure is None:
            raise Refused("dbt.refused_kind", metric=metric_name, kind="simple without a measure")
        fills = (measure.join_to_timespine, measure.fill_nulls_with is not None)
        if (
            any(fills)
            or getattr(params, "join_to_timespine", False)
            or getattr(params, "fill_nulls_with", None) is not None
        ):
            raise Refused("dbt.refused_fill", metric=metric_name)
        dbt_measure = next(
            m for m in self.models.model_of_measure(measure.name).source.measures if m.name == measure.name
        )
        if getattr(dbt_measure, "non_additive_dimension", None) is not None:
            raise Refused("dbt.refused_semi_additive", metric=metric_name, measure=measure.name)
        found = measure_of(self.models, measure.name)
        if found is None:
            agg = getattr(dbt_measure.agg, "value", dbt_measure.agg)
            raise Refused("dbt.refused_agg", metric=metric_name, measure=measure.name, agg=agg)
        leaf, info = found
        templates = [*self._filters(measure), *self._filters(metric), *extra]
        sql = tuple(dict.fromkeys(self._filter_sql(metric_name, t, leaf) for t in templates))
        self.origins.setdefault(
            ("metrics", metric_name, "expression"), ("semantic_model", info.name, "measures", measure.name, "expr")
        )
        self.origins.setdefault(("metrics", metric_name, "filters"), ("metric", metric_name, "filter"))
        return leaf.model_copy(update={"filters": sql})

    def _filter_sql(self, metric_name: str, template: str, leaf: Measure) -> str:
        """A MetricFlow filter as SQL on the measure's table (dimensions through joins)."""
        table = leaf.table
        time_column = leaf.time_column or self.models.tables[table].time_column

        def rename(ref: str) -> str:
            if ref == where.METRIC_TIME or ref.startswith(f"{where.METRIC_TIME}__"):
                if time_column is None:
                    raise Refused("dbt.refused_filter", metric=metric_name, reference=ref)
                grain = ref.removeprefix(where.METRIC_TIME).removeprefix("__") or "day"
                return _bucket_sql(time_column, grain)
            dimension = self.models.dimensions.get(ref)
            if dimension is None and table in self.models.time_dimensions.get(ref, {}):
                return _bucket_sql(self.models.time_dimensions[ref][table], "day")  # a timestamp's day
            columns = dimension.columns if dimension is not None else {}
            if table not in columns:
                base, _, grain = ref.rpartition("__")
                timed = self.models.time_dimensions.get(base, {})
                if grain in where.GRAINS and table in timed:
                    return _bucket_sql(timed[table], grain)
                raise Refused("dbt.refused_filter", metric=metric_name, reference=ref)
            return f"({columns[table]})"

        try:
            return where.untemplate(template, rename).strip()  # a YAML block keeps its last newline
        except ValueError as exc:
            raise Refused("dbt.refused_filter", metric=metric_name, reference=str(exc)) from None

    def _simple(self, metric: Any, name: str) -> dict[str, Any]:
        leaf = self._measure(name, metric, [])
        if leaf.expression.startswith("AVG(") and leaf.expression.endswith(")"):
            # AVG(x) = SUM(x) / COUNT(x) exactly (both skip NULLs); as a ratio, an analysis can
            # split a change of the average into the members' own averages and their mix
            x = leaf.expression[len("AVG(") : -1]
            return {
                "numerator": leaf.model_copy(update={"expression": f"SUM({x})"}),
                "denominator": leaf.model_copy(update={"expression": f"COUNT({x})"}),
            }
        out: dict[str, Any] = {"table": leaf.table, "expression": leaf.expression, "filters": leaf.filters}
        if leaf.time_column is not None:
            out["time_dimension"] = leaf.time_column
        return out

    def _input(self, parent: str, item: Any, extra: list[str]) -> Measure:
        """A ratio's numerator or denominator: a simple metric, with the input's filters."""
        if item.offset_window is not None or item.offset_to_grain is not None:
            raise Refused("dbt.refused_offset", metric=parent)
        source = self.by_name.get(item.name)
        if source is None or self._type(source) != "simple":
            raise Refused("dbt.refused_nested", metric=parent, input=item.name)
        return self._measure(item.name, source, [*self._filters(item), *extra])

    def _ratio(self, metric: Any, name: str) -> dict[str, Any]:
        params, extra = metric.type_params, self._filters(metric)
        parts = []
        for role, item in (("numerator", params.numerator), ("denominator", params.denominator)):
            self.convert(item.name)
            simple = item.name in self.metrics and self.metrics[item.name].table is not None
            plain = simple and not self._filters(item) and not extra and item.offset_window is None
            parts.append(item.name if plain else self._input(name, item, extra))
            self.origins[("metrics", name, role)] = ("metric", name)
        return {"numerator": parts[0], "denominator": parts[1]}

    def _derived(self, metric: Any, name: str) -> dict[str, Any]:
        params, extra = metric.type_params, self._filters(metric)
        inputs: dict[str, MetricInput] = {}
        for item in params.metrics or []:
            if item.offset_window is not None or item.offset_to_grain is not None:
                raise Refused("dbt.refused_offset", metric=name)
            self.convert(item.name)
            if item.name in self.refused:
                raise Refused("dbt.refused_input", metric=name, input=item.name)
            templates = [*self._filters(item), *extra]
            filters = self._input_filters(name, item.name, templates)
            inputs[item.alias or item.name] = MetricInput(metric=item.name, filters=filters)
        return {"formula": params.expr, "inputs": inputs}

    def _input_filters(self, parent: str, input_name: str, templates: list[str]) -> tuple[str, ...]:
        """A derived metric's input filters in SQL; the same text must hold on every table
        the input reads (a filter meaning different columns per table is refused)."""
        if not templates:
            return ()
        translated = {
            tuple(self._filter_sql(parent, t, leaf) for t in templates)
            for leaf in self._leaves(self.metrics[input_name])
        }
        if len(translated) != 1:
            raise Refused("dbt.refused_filter", metric=parent, reference=", ".join(templates))
        return next(iter(translated))

    def _leaves(self, metric: Metric) -> list[Measure]:
        """The measures a converted metric reads (each with its own table and time column)."""
        if metric.table is not None and metric.expression is not None:
            return [Measure(table=metric.table, expression=metric.expression, time_column=metric.time_dimension)]
        if metric.is_derived:
            return [leaf for i in metric.inputs.values() for leaf in self._leaves(self.metrics[i.metric])]
        parts = (metric.numerator, metric.denominator)
        return [p if isinstance(p, Measure) else self._leaves(self.metrics[str(p)])[0] for p in parts]

    def _dimensions(self, metric: Metric) -> tuple[str, ...]:
        """The dimensions readable from every table the metric reads."""
        tables = {leaf.table for leaf in self._leaves(metric)}
        return tuple(d for d, dim in self.models.dimensions.items() if tables <= set(dim.columns))

    def _part_of_a_whole(self, body: dict[str, Any]) -> bool:
        """A ratio shown as a percentage: the numerator measures what the denominator does, on the
        same table (instant booking value over booking value). Anything else ("bookings per
        booker", 1.62) is a plain number, never "161.76%"; a project says otherwise with
        ``meta: baton: unit``."""
        ends = []
        for part in (body["numerator"], body["denominator"]):
            leaf = part if isinstance(part, Measure) else self._leaves(self.metrics[str(part)])[0]
            ends.append((leaf.table, leaf.expression))
        return ends[0] == ends[1]

    def _unit(self, metric: Any, meta: Meta, body: dict[str, Any]) -> Any:
        unit = meta.get("unit")
        if unit in _UNITS:
            return unit
        if "numerator" in body:
            average = isinstance(body["numerator"], Measure) and body["numerator"].expression.startswith("SUM(")
            if average and self._type(metric) == "simple":
                return "number"
            return "ratio" if self._part_of_a_whole(body) else "number"
        expression = str(body.get("expression", "")).upper()
        return "count" if expression.startswith(("COUNT(", "SUM(1)", "SUM((1))")) else "number"
