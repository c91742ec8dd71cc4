"""The reference page for Baton's three files (``baton.toml``, the catalog, the policy file),
generated from the Pydantic models that read them, so the page cannot drift from the code.

    python -m baton.reference > docs/reference.md

A test compares the committed page with a fresh rendering.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

_INTRO = """# Reference: `baton.toml`, the catalog and the policy file

Generated from the models that read these files (`python -m baton.reference`); do not edit by
hand. `baton init --warehouse URL [--dbt DIR]` writes all three for an existing warehouse, and
`baton catalog check` validates a catalog against the live warehouse.
"""


def _type_name(annotation: Any) -> str:
    """A field's type as a reader of YAML/TOML thinks of it."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return " \\| ".join(f"`{a}`" for a in args)
    if origin in (typing.Union, types.UnionType):
        parts = [a for a in args if a is not type(None)]
        text = " or ".join(_type_name(a) for a in parts)
        return f"{text} (optional)" if len(parts) < len(args) else text
    if origin in (list, tuple, set, frozenset):
        inner = [a for a in args if a is not Ellipsis]
        return f"list of {_type_name(inner[0])}" if inner else "list"
    if origin is dict:
        return f"mapping of {_type_name(args[0])} → {_type_name(args[1])}" if args else "mapping"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return f"[{annotation.__name__}](#{annotation.__name__.lower()})"
    alias = getattr(annotation, "__value__", None)  # a `type X = ...` alias
    if alias is not None:
        return _type_name(alias)
    return getattr(annotation, "__name__", str(annotation)).replace("NoneType", "null")


def _default(field: FieldInfo) -> str:
    if field.default_factory is not None:
        return "empty"
    if field.default is PydanticUndefined:
        return "**required**"
    value = field.default
    if value is None:
        return "—"
    if isinstance(value, BaseModel):
        return "defaults"
    return f"`{value}`" if value not in ("", ()) else "empty"


def _nested(annotation: Any) -> Iterator[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        yield annotation
    for arg in typing.get_args(annotation):
        yield from _nested(arg)


def _first_paragraph(doc: str | None) -> str:
    return " ".join((doc or "").strip().split("\n\n")[0].split())


def model_table(model: type[BaseModel], *, skip: tuple[str, ...] = ()) -> str:
    rows = ["| key | type | default | meaning |", "|---|---|---|---|"]
    for name, field in model.model_fields.items():
        if f"{model.__name__}.{name}" in skip:
            continue
        meaning = " ".join((field.description or "").split()).replace("|", "\\|")
        rows.append(f"| `{name}` | {_type_name(field.annotation)} | {_default(field)} | {meaning} |")
    return "\n".join(rows)


def models_section(title: str, root: type[BaseModel], *, skip: tuple[str, ...] = ()) -> str:
    """``root`` and every model it contains, each with its docstring and field table."""
    seen: list[type[BaseModel]] = []
    queue = [root]
    while queue:
        model = queue.pop(0)
        if model in seen:
            continue
        seen.append(model)
        for field in model.model_fields.values():
            queue += [m for m in _nested(field.annotation) if m not in seen]
    parts = [f"## {title}"]
    for model in seen:
        parts += [f"### {model.__name__}", _first_paragraph(model.__doc__), model_table(model, skip=skip)]
    return "\n\n".join(p for p in parts if p)


def toml_section() -> str:
    from baton.config import TOML_KEYS, Settings

    rows = ["| section | key | type | default | meaning |", "|---|---|---|---|---|"]
    fields = Settings.model_fields
    for (section, key), name in TOML_KEYS.items():
        field = fields[name]
        meaning = " ".join((field.description or "").split())
        rows.append(f"| `[{section}]` | `{key}` | {_type_name(field.annotation)} | {_default(field)} | {meaning} |")
    from baton.contracts.run import Budget
    from baton.llm.settings import LlmSettings

    return "\n\n".join(
        [
            "## baton.toml",
            _first_paragraph(Settings.__doc__),
            "\n".join(rows),
            "### [budget]",
            _first_paragraph(Budget.__doc__),
            model_table(Budget),
            "### [llm]",
            _first_paragraph(LlmSettings.__doc__),
            model_table(LlmSettings),
        ]
    )


def render() -> str:
    from baton.catalog.model import Catalog
    from baton.policy.model import Policy

    sections = [
        _INTRO,
        toml_section(),
        models_section("catalog.yaml", Catalog, skip=("Metric.name",)),
        models_section("policies.yaml", Policy),
    ]
    return "\n\n".join(s.strip() for s in sections) + "\n"


if __name__ == "__main__":
    print(render(), end="")
