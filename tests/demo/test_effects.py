"""Each packaged scenario's planted effects show up, in the planted direction and about the planted size.

Two views: against the null scenario built with the same seed (isolates the effect), and the
way an analyst sees it — the effect's cell moves against the rest of the business (everything
outside the cell), period over the preceding period of equal length (a difference-in-
differences that cancels seasonality).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from baton.demo.generator import DemoBuild
from baton.demo.scenario import Effect, load_scenario, packaged_scenarios

from .helpers import connect, metric

EFFECT_SCENARIOS = sorted(
    name
    for name, path in packaged_scenarios().items()
    if name not in {"null", "default"} and load_scenario(path).effects
)
SmallBuild = Callable[[str], DemoBuild]


def _previous(effect: Effect) -> tuple[dt.date, dt.date]:
    start, end = effect.period
    length = (end - start).days + 1
    return start - dt.timedelta(days=length), start - dt.timedelta(days=1)


@pytest.mark.parametrize("name", [*EFFECT_SCENARIOS, "default"])
def test_effect_size_against_null(small_build: SmallBuild, name: str) -> None:
    scenario = load_scenario(packaged_scenarios()[name])
    assert scenario.effects
    with connect(small_build(name)) as con, connect(small_build("null")) as null:
        for effect in scenario.effects:
            where = dict(effect.where)
            ratio = metric(con, effect.metric, where, *effect.period) / metric(
                null, effect.metric, where, *effect.period
            )
            assert ratio == pytest.approx(1 + effect.change, rel=0.15), effect.name
            untouched = _previous(effect)
            if untouched[0] >= dt.date(2025, 1, 1):
                before = metric(con, effect.metric, where, *untouched) / metric(null, effect.metric, where, *untouched)
                assert before == pytest.approx(1.0, abs=0.06), effect.name


@pytest.mark.parametrize("name", EFFECT_SCENARIOS)
def test_effect_direction_period_over_period(small_build: SmallBuild, name: str) -> None:
    scenario = load_scenario(packaged_scenarios()[name])
    with connect(small_build(name)) as con:
        for effect in scenario.effects:
            where = dict(effect.where)
            cell = metric(con, effect.metric, where, *effect.period) / metric(
                con, effect.metric, where, *_previous(effect)
            )
            rest = metric(con, effect.metric, where, *effect.period, rest=True) / metric(
                con, effect.metric, where, *_previous(effect), rest=True
            )
            relative = cell / rest - 1
            assert relative * effect.change > 0, effect.name
            assert abs(relative) > 0.5 * abs(effect.change), effect.name


def test_mix_shift_moves_overall_conversion_not_channel_conversion(small_build: SmallBuild) -> None:
    may = (dt.date(2026, 5, 1), dt.date(2026, 5, 31))
    with connect(small_build("channel_mix_shift")) as con, connect(small_build("null")) as null:
        for channel in ("app", "mini_program", "web", "live_stream"):
            where = {"channel": channel}
            ratio = metric(con, "conversion", where, *may) / metric(null, "conversion", where, *may)
            assert ratio == pytest.approx(1.0, abs=0.05), channel
        assert metric(con, "traffic", {}, *may) / metric(null, "traffic", {}, *may) == pytest.approx(1.0, abs=0.05)
        assert metric(con, "conversion", {}, *may) / metric(null, "conversion", {}, *may) < 0.93


def test_fault_scenario_drops_its_day(small_build: SmallBuild) -> None:
    fault = dt.date(2026, 4, 15)
    sql = "SELECT count(*) FROM fact_order WHERE order_date = ?"
    with connect(small_build("fault_with_north_conversion_drop")) as con, connect(small_build("null")) as null:
        faulted, whole = con.execute(sql, [fault]).fetchone(), null.execute(sql, [fault]).fetchone()
        assert faulted is not None and whole is not None
        assert 0.2 < faulted[0] / whole[0] < 0.4  # keep_fraction 0.3 (华北 conversion also lower that day)


def _daily_orders(build: DemoBuild) -> dict[dt.date, int]:
    with connect(build) as con:
        return dict(con.execute("SELECT order_date, count(*) FROM fact_order GROUP BY 1").fetchall())


SPRING_FESTIVAL = [(dt.date(2025, 1, 27), dt.date(2025, 2, 4)), (dt.date(2026, 2, 15), dt.date(2026, 2, 23))]
"""A real, known calendar dip (春节 logistics pause), not a data fault."""


def test_null_scenario_has_no_partial_days(small_build: SmallBuild) -> None:
    daily = _daily_orders(small_build("null"))
    for day, count in daily.items():
        previous = sorted(daily.get(day - dt.timedelta(weeks=weeks), 0) for weeks in range(1, 5))
        if previous[0] == 0 or any(start <= day <= end for start, end in SPRING_FESTIVAL):
            continue  # the first four weeks have no history
        median = (previous[1] + previous[2]) / 2
        assert count > 0.7 * median, day


def test_null_scenario_has_no_planted_conversion_or_refund_changes(small_build: SmallBuild) -> None:
    with connect(small_build("null")) as con:
        months = [(dt.date(2026, m, 1), dt.date(2026, m + 1, 1) - dt.timedelta(days=1)) for m in (3, 4, 5)]
        months.append((dt.date(2026, 6, 1), dt.date(2026, 6, 30)))
        for channel in ("app", "mini_program", "web", "live_stream"):
            for user_type in ("new", "returning"):
                where = {"channel": channel, "user_type": user_type}
                rates = [metric(con, "conversion", where, *month) for month in months]
                assert max(rates) / min(rates) < 1.12, where
        q1 = (dt.date(2026, 1, 1), dt.date(2026, 3, 31))
        q2 = (dt.date(2026, 4, 1), dt.date(2026, 6, 30))
        assert metric(con, "refund_rate", {}, *q2) / metric(con, "refund_rate", {}, *q1) == pytest.approx(1, abs=0.06)
