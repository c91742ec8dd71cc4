"""Loading the red-team case files (YAML lists of dicts)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
DIALECTS = ("duckdb", "postgres")
"""The engines the execution tests here run on (Spark's run in tests/backends)."""
FIREWALL_DIALECTS = (*DIALECTS, "spark")
"""The dialects a case is approved or refused in unless it says otherwise."""


@dataclass(frozen=True)
class Case:
    id: str
    category: str
    user: str
    query: str
    dialects: tuple[str, ...]
    code: str | None
    reference: str | None
    large_tables: dict[str, str] | None = None


def load_cases(name: str) -> list[Case]:
    raw: list[dict[str, Any]] = yaml.safe_load((HERE / name).read_text(encoding="utf-8"))
    return [
        Case(
            id=item["id"],
            category=item["category"],
            user=item["user"],
            query=item["query"],
            dialects=tuple(item.get("dialects", FIREWALL_DIALECTS)),
            code=item.get("code"),
            reference=item.get("reference"),
            large_tables=item.get("large_tables"),
        )
        for item in raw
    ]


MALICIOUS = load_cases("malicious.yaml")
LEGITIMATE = load_cases("legitimate.yaml")
CONTAINMENT = load_cases("containment.yaml")
