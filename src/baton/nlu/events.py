"""The catalog's calendar events as periods of a question ("去年双11当天", "大促期间", "春节期间"), and
an event whose days move from year to year set against "the same period last year".

An event is read in the year the question names, or its latest year with data; a mention says
its day or its whole window, or is asked back. The windows come from the catalog (fixed days each
year, or each year's own dates); a year the catalog gives no dates for is asked back.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Literal

from baton import patterns
from baton.contracts.common import LANGUAGES, CalendarEvent
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu.lexicon import normalise
from baton.nlu.scan import Scan

_EVENT_YEAR = patterns.compile(
    r"(去年|今年|前年|(?<!\d)(\d{4})\s*年?|(?<![\d.])(\d{2})\s*年|\blast year'?s?\b|\bthis year'?s?\b|\bin (\d{4})\b)"
    r"\s*(?:的\s*)?$",
    re.I,
)
"""A year before the event's name; "25年双11" is 2025's (two digits need 年)."""
_EVENT_YEAR_AFTER = patterns.compile(r"\s*,?\s*(?:of\s+|in\s+)?(last year|this year|(\d{4})(?!\d))", re.I)
"""A year after the event's name ("the sale this year", "Singles' Day 2025")."""
_EVENT_DAY = patterns.compile(r"\s*(?:当天|那天|当日|那一天|\bday\b)", re.I)
_EVENT_ON = patterns.compile(r"\bon\s+(?:the\s+)?$", re.I)
"""An event "on" which something happened is its peak day ("GMV on Singles' Day")."""


def _event_year(found: re.Match[str], last: date) -> int:
    word = found.group(1).lower()
    digits = next((g for g in found.groups()[1:] if g), None)
    if digits:
        return int(digits) + (2000 if len(digits) == 2 else 0)
    if word.startswith(("去年", "last")):
        return last.year - 1
    if word.startswith("前年"):
        return last.year - 2
    return last.year


_WINDOW_AFTER = patterns.compile(
    r"\s*(?:期间|活动|大促|促销|档期|全程|\bsale\b|\bseason\b|\bcampaign\b|\bperiod\b|\bpromotion\b|\bevent\b)", re.I
)
_SPAN_SAID_AFTER = patterns.compile(
    r"\s*[,，(（]?\s*(?:"
    r"(?P<day>(?:just\s+|only\s+)?the\s+(?:day\s+itself|actual\s+day|day\s+only|peak\s+day)|当天|当日|那一天)"
    r"|(?P<window>(?:the\s+)?(?:whole|entire|full)\s+(?:event|sale|period|window|campaign)|整个活动期间|整个活动|活动期间)"
    r")\s*[)）]?",
    re.I,
)
"""Which of an event's spans is meant, said after its name and year — in Baton's own words when
it asked ("Singles Day 2025 (the day itself)", "Double 11 2025, the whole event", "大促（整个活动期间）")."""
_WINDOW_BEFORE = patterns.compile(r"(?:整个|\bduring\b|\bthe whole\b|\bthroughout\b)\s*(?:the\s+)?$", re.I)


def _names_the_window(norm: str, name: re.Match[str], span: tuple[int, int]) -> bool:
    """Whether the question means the event's whole window ("618期间", "618大促", "during the
    sale"), not its day; an event name that is also a date ("11.11") says neither."""
    return bool(
        _WINDOW_AFTER.match(norm, span[1])
        or _WINDOW_AFTER.match(norm, name.end())
        or _WINDOW_AFTER.search(name.group(0))
        or _WINDOW_BEFORE.search(norm, 0, span[0])
    )


def _latest_year(event: CalendarEvent, last: date) -> int:
    """The latest year whose event window has begun by the last day with data (this year when
    neither this year's nor last year's is known: the reading then says so)."""
    for year in (last.year, last.year - 1):
        window = event.window(year)
        if window is not None and window[0] <= last:
            return year
    return last.year


def event_periods(calendar: Sequence[CalendarEvent], scan: Scan, as_of: date) -> list[timeexpr.PeriodReading]:
    """The catalog's calendar events as periods: "去年双11当天" is 2025-11-11, "大促期间" the
    event's window in its latest year with data (or the year the question names). A mention
    that says neither its day nor its window takes what another mention of the same event says
    ("618期间各品类GMV同比去年618": both windows); with none, it is asked back."""
    out: list[timeexpr.PeriodReading] = []
    last = as_of - timedelta(days=1)
    for event in calendar:
        mentions: list[_Mention] = []
        for name in sorted({event.name.zh, event.name.en, *event.synonyms}, key=len, reverse=True):
            # "2024.11.11" is a date; "6.1-6.18" a range of days whose end only looks like the event
            # … a year written straight before it is its year ("2025双11")
            bounded = r"(?:(?<=(?<![\d.])[12]\d{3})|(?<![\d.]))(?<![\d.][-~到至])" + re.escape(normalise(name))
            bounded += r"(?![\d])(?!\s*(?:-|~|到|至)\s*\d{1,2}[./]\d)"  # "6.18-6.20": days, not the event
            for m in re.finditer(bounded, scan.norm):
                taken = [p.span for p in out] + [x.span for x in mentions]
                if not scan.free(m.start(), m.end()) or any(a < m.end() and m.start() < b for a, b in taken):
                    continue
                mentions.append(_mention(event, m, scan, last))
        said: set[Literal["day", "window"]] = {x.said for x in mentions if x.said is not None}
        if mentions and not said:  # "Singles Day 2025 GMV on the day itself": said apart from the name
            said = _span_said_apart(scan, mentions)
        shared = next(iter(said)) if len(said) == 1 else None
        out += [_event_reading(event, x, scan, last, x.said or shared) for x in mentions]
    return [p for p in out if p.match is not None or p.error is not None]


_SPAN_SAID_APART = patterns.compile(
    r"(?:\bon\s+)?(?:just\s+|only\s+)?\bthe\s+(?:(?P<day>day\s+itself|actual\s+day|peak\s+day)"
    r"|(?P<window>(?:whole|entire|full)\s+(?:event|sale|campaign)))\b"
    r"|(?P<day_zh>活动当天|大促当天)|(?P<window_zh>整个活动期间|整个大促期间|整个活动|活动期间)"
    r"|[(（]\s*(?:(?P<day_paren>(?:the\s+)?day\s+itself|当天)|(?P<window_paren>(?:the\s+)?(?:whole|entire|full)\s+"
    r"(?:event|sale|campaign)|整个活动期间))\s*[)）]",
    re.I,
)


def _span_said_apart(scan: Scan, mentions: Sequence[_Mention]) -> set[Literal["day", "window"]]:
    """Which span the question says, once, away from its event's name ("GMV on the day itself");
    the words are claimed. Said twice or both ways: nothing (the mention is asked back)."""
    found = scan.find_all(_SPAN_SAID_APART)
    if len(found) != 1 or any(a <= found[0].start() < b for a, b in (x.span for x in mentions)):
        return set()
    scan.claim(found[0].start(), found[0].end())
    said = found[0].group("day") or found[0].group("day_zh") or found[0].group("day_paren")
    return {"day" if said else "window"}


_WINDOW_WORD_BEFORE = patterns.compile(r"(?:整个|\bthe\s+(?:whole|entire)\s+|\bthroughout\s+(?:the\s+)?)$", re.I)
"""A window word said right before the event's name ("整个双11期间", "the whole spring sale"), part of its span."""


@dataclass(frozen=True)
class _Mention:
    """One mention of a calendar event: its year, its span and whether it says its day or its window."""

    name: tuple[int, int]
    span: tuple[int, int]
    year: int
    said: Literal["day", "window"] | None


def _mention(event: CalendarEvent, m: re.Match[str], scan: Scan, last: date) -> _Mention:
    day = _EVENT_DAY.match(scan.norm, m.end()) or _EVENT_ON.search(scan.norm, 0, m.start())
    end_of_name = day.end() if day and day.start() >= m.end() else m.end()
    window_first = None if day else _WINDOW_AFTER.match(scan.norm, end_of_name)
    end_of_name = window_first.end() if window_first is not None else end_of_name  # "the sale event this year"
    year_match = _EVENT_YEAR.search(scan.norm, 0, m.start())
    after = None if year_match else _EVENT_YEAR_AFTER.match(scan.norm, end_of_name)
    if after is not None and not scan.free(after.start(), after.end()):
        after = None  # "vs last year" was read as the comparison
    found = year_match or after
    year = _event_year(found, last) if found else _latest_year(event, last)
    span = (year_match.start() if year_match else m.start(), after.end() if after else end_of_name)
    window_before = _WINDOW_WORD_BEFORE.search(scan.norm, 0, span[0])
    if window_before is not None and scan.free(window_before.start(), span[0]):
        span = (window_before.start(), span[1])
    which = _SPAN_SAID_AFTER.match(scan.norm, span[1])
    if which is not None:
        span = (span[0], which.end())
    the_day = bool(which.group("day")) if which else bool(day)
    window_word = _WINDOW_AFTER.match(scan.norm, span[1])
    if window_word and not the_day:
        span = (span[0], window_word.end())
    said: Literal["day", "window"] | None = "day" if the_day else None
    if not the_day and (which or _names_the_window(scan.norm, m, span)):
        said = "window"
    return _Mention((m.start(), m.end()), span, year, said)


def _event_reading(
    event: CalendarEvent, x: _Mention, scan: Scan, last: date, said: Literal["day", "window"] | None
) -> timeexpr.PeriodReading:
    name = scan.text[x.name[0] : x.name[1]]
    window = event.window(x.year)
    if window is None:  # a dated event the catalog gives no days for that year
        asked = AmbiguousQuestion(
            *both("nlu.event_not_dated", name=name, year=x.year), detail={"missing": "time_range", "term": name}
        )
        return timeexpr.PeriodReading(x.span, None, asked)
    start, end, peak = window
    if said == "day":
        start = end = peak
    if said is None and start != end:
        asked = AmbiguousQuestion(
            *both("nlu.which_event_span", name=name, day=peak, start=start, end=end),
            detail={"missing": "time_range", "term": name, "suggestions": [peak.isoformat(), f"{start}~{end}"]},
        )
        return timeexpr.PeriodReading(x.span, None, asked)
    match = timeexpr.TimeMatch(start, min(end, last), x.span, scan.text[x.span[0] : x.span[1]], "custom", end > last)
    return timeexpr.PeriodReading(x.span, match if start <= last else None, None)


def moving_event_last_year(calendar: Sequence[CalendarEvent], query: SemanticQuery) -> None:
    """ "春节期间GMV同比": last year's Spring Festival, or the same dates a year back? When the period
    asked is an event's window (whole, or cut short where the data ends) or its day, and last
    year's fell on other dates, the two are not one period, and the question is asked back naming
    both — never answered against dates that held no such event."""
    comparison = query.comparison
    if comparison is None or comparison.kind != "same_period_last_year":
        return
    asked = (query.time_range.start, query.time_range.end)
    against = (comparison.range.start, comparison.range.end)
    for event in calendar:
        now, before = event.window(asked[0].year), event.window(asked[0].year - 1)
        if now is None or not (asked == (now[2], now[2]) or (asked[0] == now[0] and asked[1] <= now[1])):
            continue
        own = _its_days_last_year(asked, now, before)
        if own == against:
            continue
        if own is None:
            raise AmbiguousQuestion(
                *(
                    message("nlu.event_not_dated", lang, name=event.label(lang), year=asked[0].year - 1)
                    for lang in LANGUAGES
                ),
                detail={"missing": "time_range"},
            )
        held, same_days = _days(*own), _days(*against)
        raise AmbiguousQuestion(
            *(
                message("nlu.moving_event_last_year", lang, name=event.label(lang), held=held, same_days=same_days)
                for lang in LANGUAGES
            ),
            detail={"missing": "comparison", "suggestions": [held, same_days]},
        )


def _its_days_last_year(
    asked: tuple[date, date], now: tuple[date, date, date], before: tuple[date, date, date] | None
) -> tuple[date, date] | None:
    """The days of last year's event that the asked days of this year's stand for: its peak for
    the peak, its first days for a window cut short ("春节期间" while it is still on)."""
    if before is None:
        return None
    if asked == (now[2], now[2]):
        return before[2], before[2]
    return before[0], min(before[1], before[0] + (asked[1] - asked[0]))


def _days(start: date, end: date) -> str:
    return start.isoformat() if start == end else f"{start}~{end}"


__all__ = ["event_periods", "moving_event_last_year"]
