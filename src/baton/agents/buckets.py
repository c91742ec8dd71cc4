"""Time buckets cut by the asked period's ends (a week, month, quarter or year at the edge of the
period that holds only some of its days), so a short edge bucket is not read as a collapse."""

from __future__ import annotations

from datetime import date
from typing import Any, NamedTuple

from baton.catalog.spine import bucket_end, missing_periods, period_start
from baton.contracts.answer import ResultTable
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import text


class PartialBucket(NamedTuple):
    """One edge bucket and how much of it the period holds."""

    label: str
    """The bucket as the result shows it (its first day)."""
    edge: str
    """``first`` or ``last``."""
    days: int
    """Days of the bucket inside the period."""
    total: int
    """Days in the bucket."""


def bucket_start(value: Any) -> date | None:
    """The bucket's first day from a ``period`` cell (a date, or an ISO date string)."""
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value)[:10])
    except ValueError:
        return None


def partial_buckets(query: SemanticQuery, rows: list[dict[str, Any]]) -> list[PartialBucket]:
    """The first and last buckets of the result when the period's ends cut them."""
    if query.grain is None or query.grain == "day" or not rows or "period" not in rows[0]:
        return []
    starts = sorted({d for d in (bucket_start(r["period"]) for r in rows) if d is not None})
    if not starts:
        return []
    tr, out = query.time_range, []
    edges = [("first", starts[0]), ("last", starts[-1])] if len(starts) > 1 else [("", starts[0])]
    for named, start in edges:
        end = bucket_end(start, query.grain)
        if end is None:
            continue
        edge = named or ("last" if end > tr.end else "first")
        inside = (min(end, tr.end) - max(start, tr.start)).days + 1
        total = (end - start).days + 1
        if 0 < inside < total:
            out.append(PartialBucket(start.isoformat(), edge, inside, total))
    return out


def partial_notes(query: SemanticQuery, table: ResultTable | None, language: Language) -> list[str]:
    """The assumptions that say which edge buckets are partial ("the last week, 2026-06-29,
    holds 2 of its 7 days (the period ends 2026-06-30)")."""
    if table is None:
        return []
    names = [c.name for c in table.columns]
    rows = [dict(zip(names, r, strict=True)) for r in table.rows]
    out = []
    for b in partial_buckets(query, rows):
        date_ = query.time_range.start if b.edge == "first" else query.time_range.end
        out.append(
            text(
                f"answer.partial_{b.edge}",
                language,
                grain=text(f"answer.grain_{query.grain}", language),
                bucket=b.label,
                days=b.days,
                total=b.total,
                date=date_.isoformat(),
            )
        )
    return out


def gap_notes(query: SemanticQuery, table: ResultTable | None, language: Language) -> list[str]:
    """The assumptions that name the periods a series lacks: between its first and last (a rate
    with nothing measured, or a series too long to be filled with zeros: ``baton.catalog.spine``),
    and after its last, up to the end of the asked period (nothing recorded, or not loaded yet)."""
    names = [c.name for c in table.columns] if table is not None else []
    if table is None or query.grain is None or "period" not in names:
        return []
    listed = query.top_n is not None or query.rank_place is not None or query.order_by or query.intent == "ranking"
    if listed or query.threshold is not None:
        return []  # a ranking (or a bound) lists some periods: the others have rows, they are only not in it
    at = names.index("period")
    periods = sorted({d for d in (bucket_start(r[at]) for r in table.rows) if d is not None})
    if not periods:
        return []
    grain = text(f"answer.grain_{query.grain}", language)
    notes = []
    missing = missing_periods(query, periods)
    if missing:
        shown = ", ".join(d.isoformat() for d in missing[:3]) + (", …" if len(missing) > 3 else "")
        notes.append(text("answer.gaps", language, count=len(missing), grain=grain, periods=shown))
    if period_start(query.time_range.end, query.grain) > periods[-1]:
        last, end = periods[-1].isoformat(), query.time_range.end.isoformat()
        key = "answer.gaps_after_day" if query.grain == "day" else "answer.gaps_after"
        notes.append(text(key, language, grain=grain, last=last, end=end))
    return notes
