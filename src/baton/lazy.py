"""Lazy package attributes (PEP 562): the one loader every package that defers imports uses.

A package lists where each public name lives; the name's module is imported the first time
the name is read and the value is kept on the package, so ``baton.stats`` loads SciPy, and
``baton.report`` the HTML and PNG writers, only when a caller needs them.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_attributes(package: str, where: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``where[name]`` (absolute, or
    relative to the package) on first use."""

    def load(name: str) -> Any:
        module = where.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return load


__all__ = ["lazy_attributes"]
