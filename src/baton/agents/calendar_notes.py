"""The catalog's calendar events that make two compared periods unlike: an event with days in one
period and none in the other (a month holding a promotion against the month before it), or in
both on unlike days (February against last February, Spring Festival's eight days in one and four
in the other, its peak in one only). Said by the statistics agent as a finding and by a plain
comparison's answer as a caveat; an event on like days in both (this year's promotion against last
year's) is said nowhere."""

from __future__ import annotations

from datetime import date

from baton.catalog.model import Catalog
from baton.contracts.common import CalendarEvent, Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import text


def events_in_one_period(catalog: Catalog, query: SemanticQuery, lang: Language) -> list[str]:
    """One sentence per catalog event with days in only one of the compared periods, with its
    days (and its peak when held); none without a comparison."""
    if query.comparison is None:
        return []
    current, previous = query.time_range, query.comparison
    out: list[str] = []
    for event in catalog.calendar:
        inside = {
            "current": [d for d in current.dates() if event.contains(d)],
            "previous": [d for d in previous.dates() if event.contains(d)],
        }
        held = [side for side, days in inside.items() if days]
        if len(held) == 2:
            out += _unlike_days(event, inside["current"], inside["previous"], lang)
        if len(held) != 1:  # in neither, or in both (said above when unlike)
            continue
        side = held[0]
        days = inside[side]
        period = current if side == "current" else previous.range
        peak = _peak_in(event, days)
        fields = {
            "period": text("analysis.event_period", lang, start=period.start, end=period.end),
            "event": event.label(lang),
            "first": days[0],
            "last": days[-1],
            "peak": text("analysis.event_peak_said", lang, day=peak) if peak is not None else "",
        }
        out.append(text(f"analysis.event_in_{side}_only", lang, **fields))
    return out


def _peak_in(event: CalendarEvent, days: list[date]) -> date | None:
    return next((d for d in days if event.is_peak_day(d)), None)


def _unlike_days(event: CalendarEvent, current: list[date], previous: list[date], lang: Language) -> list[str]:
    """An event in both periods on a different number of days, or with its peak in one only."""
    peaks = [_peak_in(event, days) for days in (current, previous)]
    if len(current) == len(previous) and (peaks[0] is None) == (peaks[1] is None):
        return []

    def held(days: list[date], peak: date | None) -> str:
        said = text("analysis.event_peak_said", lang, day=peak) if peak is not None else ""
        return text("analysis.event_days_held", lang, first=days[0], last=days[-1], count=len(days), peak=said)

    return [
        text(
            "analysis.event_on_unlike_days",
            lang,
            event=event.label(lang),
            current=held(current, peaks[0]),
            previous=held(previous, peaks[1]),
        )
    ]


__all__ = ["events_in_one_period"]
