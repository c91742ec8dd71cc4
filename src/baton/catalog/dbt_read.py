"""Read a dbt semantic project into dbt-semantic-interfaces objects, remembering where each
object was written.

Three forms arrive, and all become one validated ``PydanticSemanticManifest``:
- the YAML dbt users write: ``semantic_models:`` and ``metrics:`` lists beside other dbt keys
  (``models:`` with a ``time_spine:`` config, ``sources:``), with ``model: ref('x')``;
- MetricFlow's own one-object-per-document form (``semantic_model:``, ``metric:``,
  ``project_configuration:`` documents, ``$source_schema`` placeholders);
- a compiled ``target/semantic_manifest.json``.

dbt-semantic-interfaces parses and validates; this module only gathers the documents, turns
dbt's shorthands into the object form the library reads (dbt-core does the same when it
compiles a project), and keeps a line map so every error names the user's file and line.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from baton.catalog.loader import yaml_problem
from baton.errors import ConfigError
from baton.messages import both
from baton.yaml_text import SafeLoader, safe_load_all

if TYPE_CHECKING:
    from dbt_semantic_interfaces.implementations.semantic_manifest import PydanticSemanticManifest

Origin = tuple[Path, int | None]
_REF = re.compile(r"""^\s*ref\(\s*['"](?:[\w.-]+['"]\s*,\s*['"])?([\w.-]+)['"]\s*(?:,\s*\w+\s*=\s*[^)]*)?\)\s*$""")
_SKIP_DIRS = {"target", "dbt_packages", "logs", "node_modules", ".git"}


@dataclass
class DbtSources:
    """The objects of a project, by kind, and where each was written."""

    semantic_models: list[dict[str, Any]] = field(default_factory=list)
    metrics: list[dict[str, Any]] = field(default_factory=list)
    project_configuration: dict[str, Any] | None = None
    time_spines: list[dict[str, Any]] = field(default_factory=list)
    origins: dict[tuple[str, ...], Origin] = field(default_factory=dict)
    """("semantic_model", name[, part, item]) / ("metric", name[, field]) -> file, line"""
    skipped: list[Path] = field(default_factory=list)


def _documents(path: Path, text: str) -> Iterator[tuple[Any, yaml.Node | None]]:
    """Each YAML document of a file with its node tree (for line numbers)."""
    try:
        nodes = list(yaml.compose_all(text, Loader=SafeLoader))
    except yaml.YAMLError as exc:
        raise yaml_problem(path, exc, "dbt.not_yaml") from exc
    datas = safe_load_all(text)
    yield from zip(datas, nodes, strict=True)


def _child(node: yaml.Node | None, key: str | int) -> yaml.Node | None:
    found: yaml.Node | None = None
    if isinstance(node, yaml.MappingNode):
        found = next((v for k, v in node.value if k.value == key), None)
    elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
        found = node.value[key]
    return found


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _record(sources: DbtSources, kind: str, obj: Any, node: yaml.Node | None, path: Path) -> None:
    """Remember the lines of an object, its measures, dimensions and entities, and the
    fields a catalog problem may point back to."""
    if not isinstance(obj, dict) or not isinstance(obj.get("name"), str):
        return
    name = obj["name"]
    sources.origins[(kind, name)] = (path, _line(node))
    for key, value in obj.items():
        if isinstance(value, str | dict):
            sources.origins[(kind, name, key)] = (path, _line(_child(node, key)))
    for part in ("measures", "dimensions", "entities"):
        items = obj.get(part)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                continue
            item_node = _child(_child(node, part), index)
            sources.origins[(kind, name, part, item["name"])] = (path, _line(item_node))
            for key in ("expr", "agg", "type"):
                if key in item:
                    sources.origins[(kind, name, part, item["name"], key)] = (path, _line(_child(item_node, key)))
    defaults = _child(node, "defaults")
    if defaults is not None:
        sources.origins[(kind, name, "defaults")] = (path, _line(defaults))


def _node_relation(item: dict[str, Any], schema: str) -> dict[str, Any]:
    """dbt's ``model: ref('x')`` as the ``node_relation`` MetricFlow reads (table ``x``)."""
    out = dict(item)
    model = out.pop("model", None)
    if "node_relation" not in out and isinstance(model, str):
        match = _REF.match(model)
        alias = match.group(1) if match else model.strip()
        out["node_relation"] = {"alias": alias, "schema_name": schema}
    return out


def _time_spines(models: Any, schema: str) -> list[dict[str, Any]]:
    """dbt's ``models: - name: x, time_spine: {standard_granularity_column: c}`` as MetricFlow
    time spines (only their existence matters to Baton; MetricFlow's validator wants one)."""
    spines: list[dict[str, Any]] = []
    for model in models if isinstance(models, list) else []:
        spine = model.get("time_spine") if isinstance(model, dict) else None
        if not isinstance(spine, dict) or not isinstance(model.get("name"), str):
            continue
        column = spine.get("standard_granularity_column", "date_day")
        grain = "day"
        for col in model.get("columns") or []:
            if isinstance(col, dict) and col.get("name") == column and col.get("granularity"):
                grain = str(col["granularity"])
        spines.append(
            {
                "node_relation": {"alias": model["name"], "schema_name": schema},
                "primary_column": {"name": column, "time_granularity": grain},
            }
        )
    return spines


def _followed(path: Path) -> Path:
    """A symlink checked out as a text file (git with ``core.symlinks=false``) holds only the
    relative path of its target: read the target instead."""
    if path.stat().st_size > 512:
        return path
    target = path.read_text(encoding="utf-8").strip()
    if "\n" in target or not target.endswith((".yml", ".yaml")):
        return path
    linked = (path.parent / target).resolve()
    return linked if linked.is_file() else path


def _read_yaml_file(sources: DbtSources, path: Path, schema: str) -> None:
    path = _followed(path)
    text = path.read_text(encoding="utf-8").replace("$source_schema", schema)
    for data, node in _documents(path, text):
        if data is None:
            continue
        if not isinstance(data, dict):
            sources.skipped.append(path)
            continue
        for index, item in enumerate(data.get("semantic_models") or []):
            item_node = _child(_child(node, "semantic_models"), index)
            _record(sources, "semantic_model", item, item_node, path)
            sources.semantic_models.append(_node_relation(item, schema) if isinstance(item, dict) else item)
        for index, item in enumerate(data.get("metrics") or []):
            _record(sources, "metric", item, _child(_child(node, "metrics"), index), path)
            sources.metrics.append(item)
        if "semantic_model" in data:
            _record(sources, "semantic_model", data["semantic_model"], _child(node, "semantic_model"), path)
            item = data["semantic_model"]
            sources.semantic_models.append(_node_relation(item, schema) if isinstance(item, dict) else item)
        if "metric" in data:
            _record(sources, "metric", data["metric"], _child(node, "metric"), path)
            sources.metrics.append(data["metric"])
        if "project_configuration" in data and sources.project_configuration is None:
            sources.project_configuration = data["project_configuration"]
        sources.time_spines += _time_spines(data.get("models"), schema)


def read_sources(project: Path, schema: str) -> DbtSources:
    """Every semantic model and metric in the YAML files under ``project``."""
    sources = DbtSources()
    files = [project] if project.is_file() else sorted(_yaml_files(project))
    for path in files:
        try:
            _read_yaml_file(sources, path, schema)
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(*both("dbt.cannot_read", path=path, error=exc), detail={"file": str(path)}) from exc
    return sources


def _yaml_files(root: Path) -> Iterator[Path]:
    for path in root.rglob("*"):
        if path.suffix in (".yml", ".yaml") and not _SKIP_DIRS.intersection(path.relative_to(root).parts[:-1]):
            yield path


def _project_configuration(sources: DbtSources) -> dict[str, Any]:
    if sources.project_configuration is not None:
        return sources.project_configuration
    return {"time_spines": sources.time_spines, "time_spine_table_configurations": []}


def build_manifest(sources: DbtSources, origin_file: Path) -> PydanticSemanticManifest:
    """The documents as a validated, transformed manifest (dbt-semantic-interfaces does both)."""
    from dbt_semantic_interfaces.parsing.dir_to_model import parse_yaml_files_to_validation_ready_semantic_manifest
    from dbt_semantic_interfaces.parsing.objects import YamlConfigFile

    documents = [
        *(("semantic_model", item) for item in sources.semantic_models),
        *(("metric", _metric_shorthands(item)) for item in sources.metrics),
        ("project_configuration", _project_configuration(sources)),
    ]
    files = []
    for kind, item in documents:
        # one "file" per object, named by where the user wrote it, so the library's own
        # issues point back to it
        name = item.get("name") if isinstance(item, dict) else None
        path, line = (
            sources.origins.get((kind, name), (origin_file, None)) if isinstance(name, str) else (origin_file, None)
        )
        contents = yaml.safe_dump({kind: item}, allow_unicode=True, sort_keys=False)
        files.append(YamlConfigFile(filepath=f"{path}:{line or 1}", contents=contents))
    result = parse_yaml_files_to_validation_ready_semantic_manifest(files, raise_issues_as_exceptions=False)
    _raise_blocking(result.issues.errors, sources, origin_file)
    manifest: PydanticSemanticManifest = result.semantic_manifest
    return manifest


def _metric_shorthands(item: Any) -> Any:
    """dbt's ``numerator: other_metric`` and ``metrics: [a, b]`` as the objects MetricFlow reads."""
    if not isinstance(item, dict) or not isinstance(item.get("type_params"), dict):
        return item
    params = dict(item["type_params"])
    for key in ("numerator", "denominator"):
        if isinstance(params.get(key), str):
            params[key] = {"name": params[key]}
    if isinstance(params.get("metrics"), list):
        params["metrics"] = [{"name": m} if isinstance(m, str) else m for m in params["metrics"]]
    return {**item, "type_params": params}


def read_manifest_json(path: Path) -> PydanticSemanticManifest:
    """A compiled ``semantic_manifest.json`` (what ``dbt parse`` writes to ``target/``)."""
    from dbt_semantic_interfaces.implementations.semantic_manifest import PydanticSemanticManifest

    try:
        manifest: PydanticSemanticManifest = PydanticSemanticManifest.parse_raw(path.read_text(encoding="utf-8"))
        return manifest
    except OSError as exc:
        raise ConfigError(*both("dbt.cannot_read", path=path, error=exc), detail={"file": str(path)}) from exc
    except Exception as exc:  # the library raises pydantic's and json's errors alike
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(*both("dbt.bad_manifest", path=path, error=first), detail={"file": str(path)}) from exc


def validate(manifest: PydanticSemanticManifest, sources: DbtSources | None, origin_file: Path) -> None:
    """MetricFlow's own semantic validation; its errors become one ConfigError."""
    from dbt_semantic_interfaces.validations.semantic_manifest_validator import SemanticManifestValidator

    results = SemanticManifestValidator[Any]().validate_semantic_manifest(manifest)
    _raise_blocking(results.errors, sources, origin_file)


SHOWN_ERRORS = 5
"""At most this many validation problems are said in the message (all go to ``detail``, up to 20)."""


def _raise_blocking(errors: Any, sources: DbtSources | None, origin_file: Path) -> None:
    errors = list(errors)
    if not errors:
        return
    first = errors[0]
    path, line = _issue_origin(first, sources, origin_file)
    said = [
        f"{p}:{n}: {e.message}" for e in errors[1:SHOWN_ERRORS] for p, n in [_issue_origin(e, sources, origin_file)]
    ]
    rest = len(errors) - 1 - len(said)
    en, zh = both("dbt.invalid", path=path, line=line, error=first.message)
    for problem in said:  # every problem, where it is written: "(1 more)" alone left the user to guess
        also = both("dbt.also", problem=problem)
        en, zh = en + also[0], zh + also[1]
    if rest:
        en, zh = en + both("dbt.more", count=rest)[0], zh + both("dbt.more", count=rest)[1]
    raise ConfigError(en, zh, detail={"file": str(path), "line": line, "errors": [e.message for e in errors[:20]]})


def _issue_origin(issue: Any, sources: DbtSources | None, origin_file: Path) -> Origin:
    """An issue's object (metric or semantic model) as the file and line the user wrote it on."""
    context = getattr(issue, "context", None)
    named = getattr(context, "file_name", None) or getattr(getattr(context, "file_context", None), "file_name", None)
    if isinstance(named, str) and ":" in named:
        file, _, line = named.rpartition(":")
        if line.isdigit():
            return Path(file), int(line)
    if sources is not None and context is not None:
        metric = getattr(getattr(context, "metric", None), "metric_name", None)
        model = getattr(getattr(context, "semantic_model", None), "semantic_model_name", None)
        for kind, name in (("metric", metric), ("semantic_model", model)):
            if isinstance(name, str) and (kind, name) in sources.origins:
                return sources.origins[(kind, name)]
    return origin_file, None
