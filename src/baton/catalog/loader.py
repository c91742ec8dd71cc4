"""Load a catalog YAML file, failing with errors that name the file, line and field.

A catalog is edited by hand by data teams; "validation error at metrics.revenue.unit" is not
enough, they need the line. PyYAML's node tree carries marks, so we map every field path to
the line it was written on and attach it to each pydantic error.

A parsed catalog is cached by the SHA-256 of its bytes (a changed file is parsed afresh, an
unchanged one never twice in a process), and parsed with libyaml's C loader where PyYAML
has it; line marks are only composed when a file turns out to be invalid.
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from baton.catalog.model import Catalog, CatalogErrors, FieldError
from baton.errors import ConfigError
from baton.messages import both
from baton.yaml_text import safe_load

PathKey = tuple[str | int, ...]


def _line_map(node: yaml.Node, path: PathKey = (), out: dict[PathKey, int] | None = None) -> dict[PathKey, int]:
    out = {} if out is None else out
    out.setdefault(path, node.start_mark.line + 1)  # a key's own line, not its first child's
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            key = key_node.value
            out[(*path, key)] = key_node.start_mark.line + 1
            _line_map(value_node, (*path, key), out)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _line_map(item, (*path, index), out)
    return out


def _line_for(lines: dict[PathKey, int], loc: tuple[Any, ...]) -> int | None:
    path: PathKey = tuple(p for p in loc if isinstance(p, str | int))
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(
            *both("catalog.cannot_read", path=path, error=exc.strerror), detail={"file": str(path)}
        ) from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(*both("catalog.not_utf8", path=path), detail={"file": str(path)}) from exc


def yaml_problem(path: Path, exc: yaml.YAMLError, key: str = "catalog.not_yaml") -> ConfigError:
    """A YAML syntax error as a ConfigError naming the file and line (``key`` takes path, line, error)."""
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    return ConfigError(
        *both(key, path=path, line=line, error=getattr(exc, "problem", exc)),
        detail={"file": str(path), "line": line},
    )


def _parse(path: Path, text: str) -> Any:
    try:
        return safe_load(text)
    except yaml.YAMLError as exc:
        raise yaml_problem(path, exc) from exc


def _lines_of(text: str) -> dict[PathKey, int]:
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    return _line_map(node) if node is not None else {}


def load_yaml_with_lines(path: Path) -> tuple[Any, dict[PathKey, int]]:
    """Parse a YAML file; return its data and a map field path -> line number."""
    text = _read_text(path)
    return _parse(path, text), _lines_of(text)


def catalog_problems(exc: ValidationError, lines: dict[PathKey, int]) -> list[dict[str, Any]]:
    """Every problem of a catalog that did not load, in file order: each field pydantic
    rejected, and each cross-reference problem at the field it names (line, field, error)."""
    found: list[tuple[tuple[Any, ...], str]] = []
    for error in exc.errors():
        cause = error.get("ctx", {}).get("error")
        causes = cause.problems if isinstance(cause, CatalogErrors) else [cause]
        for one in causes:
            if not error["loc"] and isinstance(one, FieldError):  # a catalog-wide check that knows its field
                found.append((one.loc, str(one)))
            elif not error["loc"] and isinstance(one, ValueError):
                found.append(((), str(one)))
            else:
                found.append((tuple(error["loc"]), error["msg"]))
    rows = [
        {"line": _line_for(lines, loc), "field": ".".join(str(p) for p in loc) or "(root)", "error": msg}
        for loc, msg in found
    ]
    return sorted(rows, key=lambda row: row["line"] or 0)


def validation_error(path: Path, exc: ValidationError, lines: dict[PathKey, int]) -> ConfigError:
    """Turn a pydantic error into a ConfigError naming file, line and field of the first
    problem; its detail lists them all."""
    problems = catalog_problems(exc, lines)
    first = problems[0]
    return ConfigError(
        *both("catalog.bad_field", path=path, line=first["line"], field=first["field"], error=first["error"]),
        detail={
            "file": str(path),
            "line": first["line"],
            "field": first["field"],
            "errors": len(problems),
            "problems": problems,
        },
    )


_CACHE: dict[str, Catalog] = {}
_CACHE_LOCK = threading.Lock()


def load_catalog(path: Path) -> Catalog:
    """The catalog in ``path``, parsed once per distinct content (catalogs are frozen models)."""
    text = _read_text(path)
    key = hashlib.sha256(text.encode("utf-8")).hexdigest()
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    data = _parse(path, text)
    if not isinstance(data, dict):
        raise ConfigError(*both("catalog.not_mapping", path=path))
    try:
        catalog = Catalog.model_validate(data)
    except ValidationError as exc:
        raise validation_error(path, exc, _lines_of(text)) from exc
    with _CACHE_LOCK:
        _CACHE[key] = catalog
    return catalog
