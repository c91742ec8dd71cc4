"""Bilingual (Chinese + English) time expressions -> inclusive date ranges.

Why our own parser: no PyPI library turns Chinese period expressions into *ranges* reliably —
jionlp fails on 上个月 / 本月, dateparser returns points in time rather than periods, and
recognizers-text (Microsoft) is unmaintained. A question's time range decides which rows an
answer counts, so this module is small, table-tested and explicit about every decision.

Conventions (``as_of`` is the analysis date; complete data exists up to ``as_of - 1``):

* Ranges are inclusive ``[start, end]`` and never end after ``as_of - 1``. A period that
  straddles ``as_of - 1`` (本月, this year, a year-less "7月" in July) is cut there and marked
  ``clamped=True``; a period that starts after it (今天, 明年, "2026年7月" on 2026-07-01) raises
  :class:`TimeExpressionError` ("no data yet"), as do impossible dates (2026年13月, 2026-02-30).
* "last N days" / 近N天 is ``[as_of - N, as_of - 1]`` (grain ``custom``). "last N weeks / months /
  quarters / years" (近3个月, past 2 quarters, 最近一周) is the N *complete calendar periods
  before the current one*, e.g. on 2026-07-15 近3个月 = 2026-04-01..2026-06-30. We chose whole
  periods so that month-over-month comparisons and monthly charts line up with calendar months;
  the grain of such a range is the period kind ("month"), meaning "whole months". Years are the
  exception: 近一年 / the past year / last 2 years are the 12 (24) whole months before the current
  one, as people mean them (a calendar year is 去年 / last year).
* last week / 上周 is the previous ISO week (Monday..Sunday); 上上周 / 上上个月 go two back.
* A year-less month, quarter, half or day means the most recent one that has started on or
  before ``as_of - 1`` (on 2026-07-01: 12月 -> 2025-12, 6月 -> 2026-06, 三季度 -> 2025 Q3).
* A bare 4-digit number counts as a year only when it is 19xx/20xx standing alone (not part of a
  number, an amount, a count such as "2000 customers" / "2000个", or after "top" / 前 / 第).
* English "May" is a month only next to a year or a day number, or after "in" / "during".
  Latin tokens (Q2, H1, MTD) must stand alone: "SQ2X" does not contain a quarter.
* "去年同期" / "same period last year" are comparison markers, not ranges: they are skipped
  (use :func:`same_period_last_year`).
* "X以来" / "X至今" / "since X" / "X to date" extend X to ``as_of - 1``.
* :func:`parse_time_range` joins "从X到Y", "X至Y", "X-Y", "between X and Y", "from X to Y" into
  ``start(X)..end(Y)``; a year-less side takes the other side's year. With several unrelated
  expressions it returns the first one (the question's main range).
* :func:`previous_period`: a whole calendar period (or run of N whole periods) of the given grain
  maps to the previous one (June -> May 1..31; 2026Q2 -> 2026Q1); a clamped partial period that
  starts on a period boundary maps to the same days of the previous period (2026-06-01..15 ->
  2026-05-01..15, capped at month end); a weekend (Saturday and Sunday) maps to the weekend
  before, never to the Thursday and Friday before it; anything else shifts back by its own length.

Input is normalised with NFKC character by character (full-width digits and spaces work); the
normalised text has the same length as the input, so spans index the original text.
"""

from __future__ import annotations

from baton.nlu.timeexpr.arithmetic import (
    Grain,
    TimeMatch,
    comparison_range,
    next_period,
    period_bounds,
    previous_period,
    range_grain,
    same_days_last_month,
    same_period_last_year,
    same_week_last_year,
    shift_years,
)
from baton.nlu.timeexpr.reading import PeriodReading, find_time_expressions, parse_time_range, read_periods

__all__ = [
    "Grain",
    "PeriodReading",
    "TimeMatch",
    "comparison_range",
    "find_time_expressions",
    "next_period",
    "parse_time_range",
    "period_bounds",
    "previous_period",
    "range_grain",
    "read_periods",
    "same_days_last_month",
    "same_period_last_year",
    "same_week_last_year",
    "shift_years",
]
