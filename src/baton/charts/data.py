"""Cell conversion and the long-form records every chart spec inlines.

Specs use a few internal field names (``t``, ``member``, ``value``, …) instead of the result's
own column names, because Vega-Lite reads dots and brackets in a field name as nested access
and Chinese names need quoting in expressions; the readable labels travel as axis titles.
Incomplete rows are flagged here (``incomplete: true``) and are never removed.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import defaultdict
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from baton.charts.model import CellValue, ChartColumn, ChartRequest
from baton.contracts.common import Unit

JsonValue = str | int | float | bool | None
Record = dict[str, Any]

ADDITIVE_UNITS: frozenset[Unit] = frozenset({"currency", "count", "number"})


def as_float(value: object) -> float | None:
    """A finite float for a numeric cell, ``None`` for missing, text or non-finite values."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float | Decimal):
        f = float(value)
        return f if math.isfinite(f) else None
    return None


def to_json(value: CellValue) -> JsonValue:
    """A JSON value Vega-Lite parses the way the result meant it (dates as UTC ISO strings)."""
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, dt.datetime):
        naive = value.replace(tzinfo=None) if value.tzinfo is None else value.astimezone(dt.UTC)
        return naive.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, int):
        return value
    return as_float(value)


def time_key(value: object) -> str:
    """The key a time cell and a mark's ``at`` share, so marks find their rows."""
    if isinstance(value, dt.datetime):
        return str(to_json(value))
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


_NOT_FLAGGED = ("", "false", "0", "no", "n", "ok", "complete", "否")
"""Flag-cell texts read as "not flagged" (vocabulary matched against data, not a message)."""


def is_flagged(value: object) -> bool:
    """A quality-flag cell: true, 1, or a non-empty text other than false/0/no/ok."""
    if value is None:
        return False
    if isinstance(value, bool | int | float | Decimal):
        return bool(value)
    return str(value).strip().lower() not in _NOT_FLAGGED


def incomplete_rows(req: ChartRequest) -> list[bool]:
    """Per row: is it flagged incomplete (by a flag column or an ``incomplete`` mark)?"""
    flags = req.by_role("flag")
    flagged = [is_flagged(v) for v in req.values(flags[0])] if flags else [False] * len(req.rows)
    marks = [m for m in req.marks if m.kind == "incomplete"]
    if not marks:
        return flagged
    keys = _row_keys(req)
    dims = req.by_role("dimension")
    members = [str(v) for v in req.values(dims[0])] if dims else [None] * len(req.rows)
    for m in marks:
        at = time_key(m.at)
        for i, key in enumerate(keys):
            if key == at and (m.series is None or members[i] == m.series):
                flagged[i] = True
    return flagged


def _row_keys(req: ChartRequest) -> list[str]:
    """Per row, the value marks point at: the time cell, else the first dimension's member."""
    times, dims = req.by_role("time"), req.by_role("dimension")
    anchor = times[0] if times else (dims[0] if dims else None)
    if anchor is None:
        return [""] * len(req.rows)
    return [time_key(v) for v in req.values(anchor)]


def interval_columns(req: ChartRequest) -> tuple[ChartColumn | None, ChartColumn | None]:
    lows, highs = req.by_role("interval_low"), req.by_role("interval_high")
    return (lows[0] if lows else None, highs[0] if highs else None)


def top_members(totals: dict[str, float], keep: int, limit: int) -> tuple[list[str], set[str]]:
    """Members ordered by total (largest first); when more than ``limit``, the top ``keep``
    and the set that folds into "Other"."""
    ordered = sorted(totals, key=lambda m: (-totals[m], m))
    if len(ordered) <= limit:
        return ordered, set()
    return ordered[:keep], set(ordered[keep:])


def fold_other(
    records: Iterable[Record],
    folded: set[str],
    other: str,
    group_keys: tuple[str, ...],
    additive: bool,
) -> list[Record]:
    """Replace the members in ``folded`` by one ``other`` member per group (sum, or mean for
    non-additive units such as ratios); intervals cannot be combined and are left out for it,
    and the merged row is incomplete if any of its parts is."""
    kept: list[Record] = []
    groups: dict[tuple[Any, ...], list[Record]] = defaultdict(list)
    for r in records:
        if r["member"] in folded:
            groups[tuple(r[k] for k in group_keys)].append(r)
        else:
            kept.append(r)
    for key, parts in groups.items():
        values = [r["value"] for r in parts if r["value"] is not None]
        total = sum(values) if additive else (sum(values) / len(values) if values else None)
        merged: Record = dict(zip(group_keys, key, strict=True))
        merged.update(
            member=other,
            value=total if values else None,
            incomplete=any(r["incomplete"] for r in parts),
            folded_members=len(parts),
        )
        kept.append(merged)
    return kept
