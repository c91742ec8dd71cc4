"""Are two query results the same? Rows compared as multisets (or in order), cells with a
relative tolerance for floating point and dates as ISO strings.

Used by replay's re-execution (did the data change?) and by the eval graders (does an answer
match its gold SQL?): comparison by execution result, never by SQL string.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from typing import Any


def canonical_cell(value: Any, digits: int = 6) -> Any:
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, Decimal | int | float):
        number = float(value)
        if math.isnan(number):
            return "nan"
        if number == 0:
            return 0.0
        magnitude = math.floor(math.log10(abs(number)))
        return round(number, digits - 1 - magnitude)
    if isinstance(value, datetime | date):
        return (
            value.isoformat()[:10] if isinstance(value, date) and not isinstance(value, datetime) else value.isoformat()
        )
    return str(value)


def canonical_rows(rows: list[list[Any]] | list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    return [tuple(canonical_cell(v) for v in row) for row in rows]


def results_match(
    got: list[list[Any]], gold: list[list[Any]] | list[tuple[Any, ...]], *, ordered: bool
) -> tuple[bool, str]:
    """Compare two result sets; return (ok, reason)."""
    a, b = canonical_rows(got), canonical_rows(gold)
    if len(a) != len(b):
        return False, f"row count {len(a)} != gold {len(b)}"
    if a and len(a[0]) != len(b[0]):
        return False, f"column count {len(a[0])} != gold {len(b[0])}"
    if ordered:
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return False, f"row {i}: {x} != gold {y}"
        return True, "ok"
    missing = Counter(b) - Counter(a)
    extra = Counter(a) - Counter(b)
    if missing or extra:
        return False, f"rows differ: missing {list(missing)[:2]}, unexpected {list(extra)[:2]}"
    return True, "ok"
