"""Completeness with counting noise: exact tails against SciPy, no false flags at low volume,
partial loads and empty days found, a table with constant rows held to its constancy."""

from __future__ import annotations

import math
import statistics
from datetime import date, timedelta

import numpy as np
import pytest
from scipy import stats as sps

from baton.stats import completeness, dispersion, lower_tail

START = date(2026, 2, 1)
WEEKDAY = (1.0, 0.97, 0.98, 1.0, 1.05, 1.12, 1.1)


@pytest.mark.parametrize(("rows", "expected", "phi"), [(3, 8.0, 1.0), (20, 35.0, 1.0), (5, 12.0, 2.5), (30, 40.0, 3.0)])
def test_exact_tails_match_scipy(rows: int, expected: float, phi: float) -> None:
    if phi == 1.0:
        reference = float(sps.poisson.cdf(rows, expected))
    else:
        size = expected / (phi - 1.0)
        reference = float(sps.nbinom.cdf(rows, size, 1.0 / phi))
    assert lower_tail(rows, expected, phi) == pytest.approx(reference, rel=1e-9)


@pytest.mark.parametrize(("rows", "expected", "phi"), [(6, 60.0, 5.0), (100, 1000.0, 100.0), (0, 1000.0, 100.0)])
def test_overdispersed_tails_stay_exact_at_high_volume(rows: int, expected: float, phi: float) -> None:
    """A normal curve would overstate these by orders of magnitude (a skewed, noisy table)."""
    reference = float(sps.nbinom.cdf(rows, expected / (phi - 1.0), 1.0 / phi))
    assert lower_tail(rows, expected, phi) == pytest.approx(reference, rel=1e-9)


def test_under_dispersed_tables_use_a_narrow_normal() -> None:
    """Its variance is the dispersion × the expected rows, the dispersion no lower than 20 / expected."""
    assert lower_tail(34, 56.0, 0.05) == pytest.approx(float(sps.norm.cdf((34.5 - 56) / math.sqrt(20.0))), rel=1e-12)
    assert lower_tail(340, 560.0, 0.05) == pytest.approx(
        float(sps.norm.cdf((340.5 - 560) / math.sqrt(28.0))), rel=1e-12
    )


def test_the_poisson_floor_has_no_cliff() -> None:
    assert lower_tail(12, 20.1, 0.05) == pytest.approx(lower_tail(12, 19.9, 0.05), rel=0.1)


def test_a_few_rows_expected_are_judged_as_poisson_at_least() -> None:
    """A day expected to hold two rows may hold none: no table of a few rows a day is under-dispersed."""
    assert lower_tail(0, 2.0, 0.05) == pytest.approx(float(sps.poisson.cdf(0, 2.0)), rel=1e-12)


def test_a_sparse_tables_empty_days_are_no_failed_loads() -> None:
    """Signups of a small business (a row on about half the days), the days of none absent from
    the counts as a GROUP BY returns them: the days with rows alone look regular."""
    signups = "2100010100131001010110011010103100011003120120001013122302311011112000102000111000000011"
    counts = {START + timedelta(days=i): int(n) for i, n in enumerate(signups) if n != "0"}
    days = [START + timedelta(days=i) for i in range(len(signups) - 30, len(signups))]
    assert not [c.day for c in completeness(counts, days) if c.incomplete]


def _noisy(level: float, days: int, seed: int) -> dict[date, int]:
    """Poisson counts around a weekday profile with 4 % day-to-day noise (like a real table)."""
    rng = np.random.default_rng(seed)
    out = {}
    for i in range(days):
        day = START + timedelta(days=i)
        mean = level * WEEKDAY[day.weekday()] * math.exp(rng.normal(0.0, 0.04))
        out[day] = int(rng.poisson(mean))
    return out


@pytest.mark.parametrize("level", [8.0, 80.0, 400.0])
def test_no_false_flags_from_counting_noise(level: float) -> None:
    flagged = 0
    for seed in range(20):
        counts = _noisy(level, 120, seed)
        days = [START + timedelta(days=i) for i in range(56, 120)]
        flagged += sum(c.incomplete for c in completeness(counts, days))
    assert flagged == 0  # 20 × 64 ordinary days


@pytest.mark.parametrize(("level", "keep"), [(80.0, 0.3), (400.0, 0.5), (4000.0, 0.7)])
def test_partial_loads_are_flagged(level: float, keep: float) -> None:
    counts = _noisy(level, 120, 1)
    bad = START + timedelta(days=90)
    counts[bad] = round(counts[bad] * keep)
    days = [START + timedelta(days=i) for i in range(56, 120)]
    assert {c.day for c in completeness(counts, days) if c.incomplete} == {bad}


def test_a_day_without_rows_in_a_table_that_always_has_rows() -> None:
    counts = _noisy(40.0, 120, 2)
    gone = START + timedelta(days=100)
    del counts[gone]
    days = [START + timedelta(days=i) for i in range(56, 120)]
    assert {c.day for c in completeness(counts, days) if c.incomplete} == {gone}


def test_a_sparse_table_may_have_empty_days() -> None:
    counts = {d: n for d, n in _noisy(1.5, 120, 3).items() if n}
    days = [START + timedelta(days=i) for i in range(56, 120)]
    assert not [c for c in completeness(counts, days) if c.incomplete]


def test_a_constant_table_is_held_to_its_constancy() -> None:
    counts = {START + timedelta(days=i): 56 for i in range(120)}
    assert dispersion(counts) == pytest.approx(0.05)
    short = START + timedelta(days=95)
    counts[short] = 34  # 40 % of the rows missing
    days = [START + timedelta(days=i) for i in range(56, 120)]
    assert {c.day for c in completeness(counts, days) if c.incomplete} == {short}


def test_the_day_after_an_event_is_not_judged_against_the_event() -> None:
    """A promotion lifts days 06-14..06-18 (the peak ×2.5) and business dips after it (×0.76, real):
    the Saturday after it, with the event's days among its neighbours, is no gap. Inside the window
    a half-loaded day is still found."""
    from baton.contracts.common import Bilingual, CalendarEvent

    event = CalendarEvent(name=Bilingual(zh="大促", en="sale"), start="06-14", end="06-18", peak="06-18")
    counts: dict[date, int] = {}
    day = date(2026, 4, 1)
    while day <= date(2026, 6, 21):
        level = 2000 * WEEKDAY[day.weekday()]
        if date(2026, 6, 14) <= day <= date(2026, 6, 18):
            level *= 2.5 if day == date(2026, 6, 18) else 1.4
        elif day > date(2026, 6, 18):
            level *= 0.76
        counts[day] = round(level)
        day += timedelta(days=1)
    counts[date(2026, 6, 16)] //= 2  # half loaded, inside the event
    checks = {c.day: c for c in completeness(counts, [date(2026, 6, 16), date(2026, 6, 20)], [event])}
    assert not checks[date(2026, 6, 20)].incomplete
    assert checks[date(2026, 6, 16)].incomplete
    blind = completeness(counts, [date(2026, 6, 20)], [])  # the event's days as neighbours: a false gap
    assert blind[0].incomplete


def _two_sales(level: float, peak: float, size_this_year: float, seed: int) -> dict[date, int]:
    """Poisson counts over two years with a sale on 06-14..06-18 each year (its days ×1.4, the
    peak ×``peak``); this year's sale ``size_this_year`` times last year's."""
    rng = np.random.default_rng(seed)
    counts: dict[date, int] = {}
    for start, end, size in (
        (date(2025, 4, 1), date(2025, 6, 30), 1.0),
        (date(2026, 4, 1), date(2026, 6, 30), size_this_year),
    ):
        day = start
        while day <= end:
            mean = level * WEEKDAY[day.weekday()]
            if date(day.year, 6, 14) <= day <= date(day.year, 6, 18):
                mean *= size * (peak if day.day == 18 else 1.4)
            counts[day] = int(rng.poisson(mean))
            day += timedelta(days=1)
    return counts


@pytest.mark.parametrize("size_this_year", [0.7, 1.0, 1.3])
def test_a_peak_day_is_judged_against_last_years_event(size_this_year: float) -> None:
    """Half a peak day (×2.5) still looks like an ordinary day to the weekday baselines; against
    last year's peak over its other days, scaled by this year's other days, it is found — and a
    whole peak of a smaller or bigger sale is not flagged."""
    from baton.contracts.common import Bilingual, CalendarEvent
    from baton.stats import peak_days_a_year_back

    event = CalendarEvent(name=Bilingual(zh="大促", en="sale"), start="06-14", end="06-18", peak="06-18")
    peak = date(2026, 6, 18)
    days = [date(2026, 6, 1) + timedelta(days=i) for i in range(30)]
    assert peak_days_a_year_back(days, [event]) == [(date(2025, 6, 14), date(2025, 6, 18))]
    for seed in range(5):
        counts = _two_sales(800.0, 2.5, size_this_year, seed)
        whole = {c.day: c for c in completeness(counts, days, [event])}
        assert not [d for d, c in whole.items() if c.incomplete]
        assert whole[peak].event_baseline == pytest.approx(counts[peak], rel=0.25)
        counts[peak] = round(counts[peak] * 0.45)
        half = {c.day: c for c in completeness(counts, days, [event])}
        assert [d for d, c in half.items() if c.incomplete] == [peak]
        assert half[peak].share == pytest.approx(0.45, abs=0.12)
        weekday_only = {
            c.day: c for c in completeness({d: n for d, n in counts.items() if d.year == 2026}, days, [event])
        }
        assert not weekday_only[peak].incomplete  # without last year's event the half peak passes as ordinary


def test_a_peak_that_did_badly_is_no_failed_load() -> None:
    """Last year's peak was 3.5 times the sale's days, this year's only 1.1 times its other days: far below
    what last year predicts, but still above the sale's other days — a promotion that did badly,
    which an analysis must see, never a load to leave out."""
    from baton.contracts.common import Bilingual, CalendarEvent

    event = CalendarEvent(name=Bilingual(zh="大促", en="sale"), start="06-14", end="06-18", peak="06-18")
    peak = date(2026, 6, 18)
    for seed in range(5):
        counts = _two_sales(800.0, 3.5, 1.0, seed)
        others = [counts[date(2026, 6, d)] for d in range(14, 18)]
        counts[peak] = round(1.1 * statistics.median(others))
        check = completeness(counts, [peak], [event])[0]
        assert check.share is not None and check.share < 0.6
        assert not check.incomplete
