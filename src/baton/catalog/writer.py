"""Render the three files ``baton init`` writes: baton.toml, catalog.yaml and policies.yaml.

YAML is written by hand rather than dumped, because a draft is meant to be read and edited:
each guess carries a comment above the entry it concerns, labels stay on one line, and the
line every catalog entry lands on is recorded so a problem can be reported as ``file:line``
before the file exists. Scalars are quoted whenever YAML would read them as anything but the
same string (``yes``, ``2026-07-01``, ``001``); ``baton init`` loads the text back and compares
it with the catalog it rendered, so a quoting mistake cannot reach the disk.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from typing import Any, cast

import yaml

from baton.catalog.model import Catalog
from baton.messages import bilingual

PathKey = tuple[str | int, ...]
_PLAIN = re.compile(r"\w(?:[\w\-. ]*[\w\-])?")
_RESOLVE = cast(Callable[..., str], yaml.resolver.Resolver().resolve)
_INLINE_WIDTH = 110


@dataclass(frozen=True)
class Rendered:
    """A YAML document and the line each field path starts on."""

    text: str
    lines: dict[PathKey, int]


def _escaped(quoted: str) -> str:
    """Escape what a double-quoted YAML scalar may not hold raw (json.dumps left it alone)."""
    out = []
    for ch in quoted:
        if ch.isprintable():
            out.append(ch)
        elif ord(ch) > 0xFFFF:
            out.append(f"\\U{ord(ch):08x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out)


def scalar(value: Any) -> str:
    """One YAML scalar that reads back as exactly ``value``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return json.dumps(value)
    text = str(value)
    if _PLAIN.fullmatch(text) and _RESOLVE(yaml.ScalarNode, text, (True, False)) == "tag:yaml.org,2002:str":
        return text
    return _escaped(json.dumps(text, ensure_ascii=False))


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{scalar(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    return scalar(value)


class _Emitter:
    """Block YAML with comments above keys; small mappings and lists of scalars on one line."""

    def __init__(self, notes: Mapping[PathKey, list[str]]) -> None:
        self.notes = notes
        self.out: list[str] = []
        self.lines: dict[PathKey, int] = {}

    def _comment(self, path: PathKey, indent: int) -> None:
        for note in self.notes.get(path, []):
            self.out.extend(f"{' ' * indent}# {line}".rstrip() for line in note.splitlines())

    def _inline(self, value: Any, path: PathKey, indent: int) -> bool:
        if not isinstance(value, dict | list | tuple) or not value:
            return True
        if any(p[: len(path)] == path and len(p) > len(path) for p in self.notes):
            return False
        if isinstance(value, list | tuple) and all(not isinstance(v, dict | list | tuple) for v in value):
            return True
        return len(_flow(value)) + indent <= _INLINE_WIDTH

    def _record(self, path: PathKey, value: Any) -> None:
        self.lines[path] = len(self.out)
        if isinstance(value, dict):
            for k, v in value.items():
                self._record((*path, k), v)
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                self._record((*path, i), v)

    def mapping(self, data: Mapping[str, Any], path: PathKey, indent: int) -> None:
        for key, value in data.items():
            here = (*path, key)
            self._comment(here, indent)
            head = f"{' ' * indent}{scalar(key)}:"
            if self._inline(value, here, indent):
                self.out.append(f"{head} {_flow(value)}")
                self._record(here, value)
                continue
            self.out.append(head)
            self.lines[here] = len(self.out)
            if isinstance(value, dict):
                self.mapping(value, here, indent + 2)
            else:
                self.sequence(value, here, indent + 2)

    def sequence(self, items: list[Any] | tuple[Any, ...], path: PathKey, indent: int) -> None:
        for index, item in enumerate(items):
            here = (*path, index)
            self._comment(here, indent)
            if self._inline(item, here, indent):
                self.out.append(f"{' ' * indent}- {_flow(item)}")
                self._record(here, item)
            else:
                self.out.append(f"{' ' * indent}-")
                self.lines[here] = len(self.out)
                if isinstance(item, dict):
                    self.mapping(item, here, indent + 2)
                else:
                    self.sequence(item, here, indent + 2)


def render_yaml(data: Mapping[str, Any], *, header: str, notes: Mapping[PathKey, list[str]] | None = None) -> Rendered:
    """``data`` as block YAML under a comment header, with ``notes`` as comments above their paths."""
    emitter = _Emitter(notes or {})
    emitter.out.extend(f"# {line}".rstrip() for line in header.splitlines())
    emitter._comment((), 0)
    emitter.mapping(data, (), 0)
    emitter.lines[()] = 1
    return Rendered("\n".join(emitter.out) + "\n", emitter.lines)


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    """The catalog as the plain data of its YAML file (defaults left out, metric names as keys)."""
    data: dict[str, Any] = {"version": catalog.version}
    data.update(catalog.model_dump(mode="json", exclude_defaults=True, exclude={"version"}))
    for metric in data.get("metrics", {}).values():
        metric.pop("name", None)
    for metric in data.get("metrics", {}).values():
        if "tree" in metric:  # written as a formula, the way people read a metric tree
            metric["tree"] = [" * ".join(factors) for factors in metric["tree"]]
    return data


def render_catalog(catalog: Catalog, *, header: str, notes: Mapping[PathKey, list[str]] | None = None) -> Rendered:
    return render_yaml(catalog_data(catalog), header=header, notes=notes)


def render_policy(
    tables: Iterable[str], pii: Mapping[str, tuple[str, str]], *, user: str, version: str, max_cost: float
) -> str:
    """One role reading every table (personal data masked), one user holding it, the default user.

    ``pii``: ``table.column`` -> (mask style, why it was guessed); ``max_cost``: the role's cost
    budget, written out (with what it means) so the file states it."""
    role = "reader"
    data: dict[str, Any] = {
        "version": version,
        "default_user": user,
        "pii_columns": {column: {"mask": mask} for column, (mask, _why) in pii.items()},
        "roles": {
            role: {
                "description": bilingual("init.role_description"),
                "tables": {table: {} for table in tables},
                "pii": "mask",
                "max_rows": 10_000,
                "max_cost": max_cost,
            }
        },
        "users": {user: {"roles": [role], "description": bilingual("init.user_description")}},
    }
    notes: dict[PathKey, list[str]] = {("pii_columns", column): [why] for column, (_mask, why) in pii.items()}
    notes[("roles", role, "max_cost")] = [bilingual("init.policy_cost_budget")]
    if pii:
        notes[("pii_columns",)] = [bilingual("init.policy_pii_draft")]
    return render_yaml(data, header=bilingual("init.policy_header"), notes=notes).text


def _toml_string(value: str) -> str:
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")


def render_config(url: str, *, as_of: date | None, user: str) -> str:
    """baton.toml: the warehouse, the two files beside it, the defaults and the runs folder."""
    lines = [f"# {line}".rstrip() for line in bilingual("init.config_header").splitlines()]
    lines += [
        "[warehouse]",
        f"url = {_toml_string(url)}",
        "",
        "[catalog]",
        'path = "catalog.yaml"',
        "",
        "[policy]",
        'path = "policies.yaml"',
        "",
        "[defaults]",
    ]
    if as_of is not None:
        lines.append(f'as_of = "{as_of.isoformat()}"  # {bilingual("init.config_as_of")}')
    lines += [f"user = {_toml_string(user)}", "", "[runs]", 'path = "runs"', ""]
    return "\n".join(lines)


__all__ = ["Rendered", "catalog_data", "render_catalog", "render_config", "render_policy", "render_yaml", "scalar"]
