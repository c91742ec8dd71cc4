"""docs/reference.md is generated from the models that read the three files: it must be
current (regenerate with ``python -m baton.reference > docs/reference.md``)."""

from __future__ import annotations

from pathlib import Path

from baton.catalog.model import Catalog, Metric
from baton.config import TOML_KEYS
from baton.policy.model import Policy
from baton.reference import render

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reference.md"


def test_the_committed_page_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == render()


def test_every_key_of_the_three_files_is_documented() -> None:
    page = render()
    for section, key in TOML_KEYS:
        assert f"| `[{section}]` | `{key}` |" in page
    for model in (Catalog, Metric, Policy):
        assert f"### {model.__name__}" in page
        for name in model.model_fields:
            if name != "name" or model is not Metric:
                assert f"| `{name}` |" in page
