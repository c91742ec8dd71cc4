"""YAML read with libyaml's C loader where PyYAML was built with it.

``yaml.safe_load`` always uses the pure-Python loader, five to ten times slower on a catalog
or a policy file — read on every question a fresh CLI process answers. The C loader builds the
same safe types (no Python objects), so one loader serves every YAML file Baton reads.
"""

from __future__ import annotations

from typing import Any

import yaml

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """The YAML document in ``text`` as plain data (raises ``yaml.YAMLError`` like ``yaml.safe_load``)."""
    return yaml.load(text, Loader=SafeLoader)


def safe_load_all(text: str) -> list[Any]:
    """Every YAML document in ``text`` as plain data."""
    return list(yaml.load_all(text, Loader=SafeLoader))


__all__ = ["SafeLoader", "safe_load", "safe_load_all"]
