"""Same-weekday robust anomaly scores, a calendar of events (a test-local promotion calendar,
as a catalog would declare it) and incomplete days."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from baton.contracts.common import Bilingual, CalendarEvent
from baton.stats import (
    DayScore,
    StatsInputError,
    exclude_days,
    peak_window_for,
    seasonal_anomaly_scores,
)

CALENDAR = (
    CalendarEvent(name=Bilingual(zh="618 大促", en="618"), start="06-01", end="06-18", peak="06-18"),
    CalendarEvent(name=Bilingual(zh="双11", en="Double 11"), start="11-01", end="11-11", peak="11-11"),
)
WEEKDAY_FACTOR = [1.0, 0.95, 0.9, 0.95, 1.1, 1.5, 1.4]  # Monday … Sunday


def _daily(start: dt.date, end: dt.date, seed: int = 0) -> tuple[list[dt.date], list[float]]:
    rng = np.random.default_rng(seed)
    days = [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]
    values = [1000.0 * WEEKDAY_FACTOR[d.weekday()] * (1 + rng.normal(0, 0.02)) for d in days]
    return days, values


def _label(report_days: tuple[DayScore, ...], day: dt.date) -> str:
    return next(d.label for d in report_days if d.day == day)


def test_weekly_seasonality_is_not_an_anomaly() -> None:
    days, values = _daily(dt.date(2026, 3, 2), dt.date(2026, 5, 24))
    report = seasonal_anomaly_scores(days, values)
    assert report.anomalies == ()
    scored = [d for d in report.days if d.score is not None]
    assert len(scored) == len(days) - 7 * 3  # the first three weeks lack three weeks of history
    assert {d.label for d in report.days} == {"normal", "insufficient_history"}


def test_planted_drop_is_a_low_anomaly() -> None:
    days, values = _daily(dt.date(2026, 3, 2), dt.date(2026, 5, 24))
    i = days.index(dt.date(2026, 5, 20))
    values[i] *= 0.6
    report = seasonal_anomaly_scores(days, values)
    assert [(d.day, d.direction) for d in report.anomalies] == [(dt.date(2026, 5, 20), "low")]
    hit = report.anomalies[0]
    assert hit.score is not None
    assert hit.score < -3.5
    assert hit.n_history == 4


def test_618_is_a_peak_and_does_not_poison_later_baselines() -> None:
    days, values = _daily(dt.date(2026, 4, 6), dt.date(2026, 7, 12), seed=1)
    for i, d in enumerate(days):
        if peak_window_for(d, CALENDAR) is not None:
            values[i] *= 3.0 if d == dt.date(2026, 6, 18) else 1.8
    report = seasonal_anomaly_scores(days, values, peaks=CALENDAR)
    in_window = [d for d in report.days if dt.date(2026, 6, 1) <= d.day <= dt.date(2026, 6, 18)]
    assert {d.label for d in in_window} == {"peak"}
    assert {d.peak_name for d in in_window} == {"618"}
    assert [d.day for d in in_window if d.is_peak_day] == [dt.date(2026, 6, 18)]
    assert report.anomalies == ()
    # After the promotion the baseline reaches back past it, to ordinary weeks.
    after = next(d for d in report.days if d.day == dt.date(2026, 6, 22))
    assert after.label == "normal"
    assert after.n_history == 4
    assert after.baseline_median == pytest.approx(1000.0, rel=0.05)
    # Without the calendar the promotion poisons the baseline of the following Monday.
    naive = seasonal_anomaly_scores(days, values, peaks=())
    naive_after = next(d for d in naive.days if d.day == dt.date(2026, 6, 22))
    assert naive_after.baseline_median == pytest.approx(1800.0, rel=0.05)
    assert all(d.label != "peak" for d in naive.days)


def test_double_11_window() -> None:
    window = peak_window_for(dt.date(2026, 11, 11), CALENDAR)
    assert window is not None
    assert window.label("zh") == "双11"
    assert window.is_peak_day(dt.date(2026, 11, 11))
    assert peak_window_for(dt.date(2026, 11, 12), CALENDAR) is None
    assert peak_window_for(dt.date(2026, 10, 31), CALENDAR) is None
    assert peak_window_for(dt.date(2026, 11, 11)) is None  # no calendar, no events


@pytest.mark.parametrize(
    ("window", "reason"),
    [
        ({"start": "11-12", "end": "11-01"}, "wrap"),
        ({"start": "02-30", "end": "03-01"}, "day"),
        ({"start": "06-01", "end": "06-18", "peak": "06-20"}, "peak"),
        ({"start": "6/1", "end": "06-18"}, "MM-DD"),
        ({}, "no days at all"),
        ({"start": "06-01"}, "a start with no end"),
        ({"dates": {2026: {"start": "2025-02-16", "end": "2025-02-23"}}}, "a window listed under another year"),
        ({"dates": {2026: {"start": "2026-02-16", "end": "2026-05-01"}}}, "a window of months"),
        ({"dates": {2026: {"start": "2026-02-16", "end": "2026-02-23", "peak": "2026-03-01"}}}, "a peak outside"),
        ({"peak": "02-17", "dates": {2026: {"start": "2026-02-16", "end": "2026-02-23"}}}, "a fixed peak alone"),
    ],
)
def test_calendar_events_are_validated(window: dict[str, str], reason: str) -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        CalendarEvent.model_validate({"name": {"zh": "x", "en": "x"}, **window})


SPRING_FESTIVAL = CalendarEvent.model_validate(
    {
        "name": {"zh": "春节", "en": "Spring Festival"},
        "dates": {
            2025: {"start": "2025-01-28", "end": "2025-02-04", "peak": "2025-01-29"},
            2026: {"start": "2026-02-16", "end": "2026-02-23", "peak": "2026-02-17"},
        },
    }
)
NEW_YEAR_SALE = CalendarEvent.model_validate(  # fixed days, but one year dated apart, across the new year
    {"name": {"zh": "年货节", "en": "New Year sale"}, "start": "01-05", "end": "01-20",
     "dates": {2025: {"start": "2025-12-26", "end": "2026-01-06"}}}
)  # fmt: skip
LEAP_PEAK = CalendarEvent.model_validate(
    {"name": {"zh": "闰日", "en": "leap"}, "start": "02-20", "end": "03-05", "peak": "02-29"}
)
OVERLAPPING = CalendarEvent.model_validate(
    {"name": {"zh": "冬季", "en": "winter sale"},
     "dates": {2025: {"start": "2025-12-20", "end": "2026-01-10", "peak": "2026-01-10"},
               2026: {"start": "2026-01-05", "end": "2026-01-20"}}}
)  # fmt: skip


@pytest.mark.parametrize(
    ("event", "day", "inside", "peak"),
    [
        (SPRING_FESTIVAL, dt.date(2026, 2, 17), True, True),
        (SPRING_FESTIVAL, dt.date(2026, 2, 23), True, False),
        (SPRING_FESTIVAL, dt.date(2025, 2, 17), False, False),  # last year's fell on other days
        (SPRING_FESTIVAL, dt.date(2025, 1, 29), True, True),
        (SPRING_FESTIVAL, dt.date(2024, 2, 10), False, False),  # a year not listed has no such event
        (NEW_YEAR_SALE, dt.date(2026, 1, 3), True, False),  # 2025's window runs into 2026
        (NEW_YEAR_SALE, dt.date(2026, 1, 20), True, True),  # 2026 keeps the fixed days
        (NEW_YEAR_SALE, dt.date(2025, 1, 10), False, False),  # 2025 is dated apart
        (NEW_YEAR_SALE, dt.date(2025, 12, 30), True, False),
        (LEAP_PEAK, dt.date(2025, 3, 1), True, False),  # 29 February's event still holds its days in 2025
        (LEAP_PEAK, dt.date(2025, 2, 28), True, True),  # its peak is the 28th there
        (LEAP_PEAK, dt.date(2028, 2, 29), True, True),
        (OVERLAPPING, dt.date(2026, 1, 10), True, True),  # 2025's window runs into 2026's: its peak is still one
    ],
)
def test_an_event_whose_days_move_is_found_on_each_years_own_days(
    event: CalendarEvent, day: dt.date, inside: bool, peak: bool
) -> None:
    assert (event.contains(day), event.is_peak_day(day)) == (inside, peak)
    assert (peak_window_for(day, (event,)) is event) is inside


def test_a_moving_holiday_is_a_peak_never_an_anomaly() -> None:
    """Spring Festival halves the days of a month: declared with its dates, every day of it reads
    as the event, and the week after is measured against ordinary weeks."""
    days, values = _daily(dt.date(2025, 12, 1), dt.date(2026, 3, 29), seed=3)
    for i, d in enumerate(days):
        if SPRING_FESTIVAL.contains(d):
            values[i] *= 0.4
    report = seasonal_anomaly_scores(days, values, peaks=(SPRING_FESTIVAL,))
    held = [d for d in report.days if SPRING_FESTIVAL.contains(d.day)]
    assert len(held) == 8 and {d.label for d in held} == {"peak"} and report.anomalies == ()
    assert [d.day for d in held if d.is_peak_day] == [dt.date(2026, 2, 17)]
    naive = seasonal_anomaly_scores(days, values)
    assert any(a.day == dt.date(2026, 2, 17) for a in naive.anomalies)  # undeclared: the holiday is an anomaly


def test_incomplete_day_is_labelled_and_left_out_of_baselines() -> None:
    days, values = _daily(dt.date(2026, 3, 2), dt.date(2026, 5, 24), seed=2)
    bad = dt.date(2026, 5, 5)
    values[days.index(bad)] *= 0.3
    report = seasonal_anomaly_scores(days, values, incomplete_days={bad})
    assert _label(report.days, bad) == "incomplete"
    assert report.anomalies == ()
    # With a two-week baseline, the incomplete Tuesday would drag the next Tuesday's median down.
    short = seasonal_anomaly_scores(days, values, weeks=2, min_history=2, incomplete_days={bad})
    next_week = next(d for d in short.days if d.day == bad + dt.timedelta(weeks=1))
    assert next_week.n_history == 2
    assert next_week.baseline_median == pytest.approx(950.0, rel=0.04)
    flagged = seasonal_anomaly_scores(days, values)
    assert [d.day for d in flagged.anomalies] == [bad]


def test_exclude_days_drops_peaks_and_incomplete_days() -> None:
    days = [dt.date(2026, 5, 30) + dt.timedelta(days=i) for i in range(25)]
    kept_days, kept = exclude_days(days, list(range(25)), peaks=CALENDAR, incomplete_days={dt.date(2026, 6, 20)})
    assert dt.date(2026, 5, 31) in kept_days
    assert all(not (dt.date(2026, 6, 1) <= d <= dt.date(2026, 6, 18)) for d in kept_days)
    assert dt.date(2026, 6, 20) not in kept_days
    assert len(kept_days) == len(kept) == 25 - 18 - 1


@pytest.mark.parametrize("kwargs", [{"weeks": 0}, {"min_history": 5, "weeks": 4}, {"threshold": 0.0}])
def test_bad_arguments(kwargs: dict[str, float]) -> None:
    days, values = _daily(dt.date(2026, 3, 2), dt.date(2026, 3, 29))
    with pytest.raises(StatsInputError):
        seasonal_anomaly_scores(days, values, **kwargs)  # type: ignore[arg-type]
