"""The default scenario's three stories, and the realistic shape they sit in, checked with SQL."""

from __future__ import annotations

import datetime as dt
import math

import duckdb
import pytest

from .helpers import COUNTED, metric, scalar

MAY = (dt.date(2026, 5, 1), dt.date(2026, 5, 31))
JUNE = (dt.date(2026, 6, 1), dt.date(2026, 6, 30))
Q1 = (dt.date(2026, 1, 1), dt.date(2026, 3, 31))
Q2 = (dt.date(2026, 4, 1), dt.date(2026, 6, 30))


def test_june_gmv_clearly_down_month_over_month(default_con: duckdb.DuckDBPyConnection) -> None:
    change = metric(default_con, "gmv", {}, *JUNE) / metric(default_con, "gmv", {}, *MAY) - 1
    assert change <= -0.08


def test_june_is_normally_up_because_of_618(default_con: duckdb.DuckDBPyConnection) -> None:
    """Without the planted drop June beats May: the fall is not just calendar noise."""
    may, june = (dt.date(2025, 5, 1), dt.date(2025, 5, 31)), (dt.date(2025, 6, 1), dt.date(2025, 6, 30))
    assert metric(default_con, "gmv", {}, *june) > metric(default_con, "gmv", {}, *may)


def test_app_new_is_by_far_the_largest_contributor(default_con: duckdb.DuckDBPyConnection) -> None:
    deltas = {
        (channel, user_type): metric(default_con, "gmv", {"channel": channel, "user_type": user_type}, *JUNE)
        - metric(default_con, "gmv", {"channel": channel, "user_type": user_type}, *MAY)
        for channel in ("app", "mini_program", "web", "live_stream")
        for user_type in ("new", "returning")
    }
    ranked = sorted(deltas, key=lambda cell: abs(deltas[cell]), reverse=True)
    assert ranked[0] == ("app", "new")
    assert deltas[("app", "new")] < 0
    assert abs(deltas[("app", "new")]) > 5 * abs(deltas[ranked[1]])
    total = sum(deltas.values())
    assert abs(deltas[("app", "new")]) > abs(total)  # the rest of the business grew a little


def test_app_new_change_is_a_conversion_change(default_con: duckdb.DuckDBPyConnection) -> None:
    cell = {"channel": "app", "user_type": "new"}
    log_change = {
        factor: math.log(metric(default_con, factor, cell, *JUNE) / metric(default_con, factor, cell, *MAY))
        for factor in ("traffic", "conversion", "order_value")
    }
    assert log_change["conversion"] < math.log(0.7)
    assert abs(log_change["conversion"]) > 5 * abs(log_change["traffic"])
    assert abs(log_change["conversion"]) > 5 * abs(log_change["order_value"])
    other = {"channel": "app", "user_type": "returning"}
    assert (
        abs(metric(default_con, "conversion", other, *JUNE) / metric(default_con, "conversion", other, *MAY) - 1) < 0.1
    )


def _orders_on(con: duckdb.DuckDBPyConnection, day: dt.date) -> float:
    return scalar(con, "SELECT count(*) FROM fact_order WHERE order_date = ?", [day])


def test_2026_06_12_is_only_partly_loaded(default_con: duckdb.DuckDBPyConnection) -> None:
    fault = dt.date(2026, 6, 12)
    previous = [fault - dt.timedelta(weeks=weeks) for weeks in range(1, 5)]
    ratio = _orders_on(default_con, fault) / (sum(_orders_on(default_con, day) for day in previous) / 4)
    assert 0.35 <= ratio <= 0.7
    # the traffic of that day is complete: only fact_order lost rows
    visitors = "SELECT sum(visitors) FROM fact_traffic WHERE visit_date = ?"
    traffic_ratio = scalar(default_con, visitors, [fault]) / (
        sum(scalar(default_con, visitors, [day]) for day in previous) / 4
    )
    assert traffic_ratio > 0.9
    # neighbouring days are whole
    for day in (fault - dt.timedelta(days=7), fault + dt.timedelta(days=7)):
        others = [day - dt.timedelta(weeks=weeks) for weeks in range(1, 5)]
        assert _orders_on(default_con, day) / (sum(_orders_on(default_con, d) for d in others) / 4) > 0.75


def _refund_by_category(
    con: duckdb.DuckDBPyConnection, period: tuple[dt.date, dt.date]
) -> dict[str, tuple[float, float]]:
    """category -> (share of counted orders, refund rate)."""
    rows = con.execute(
        f"SELECT category, count(*), count(*) FILTER (WHERE status = 'refunded') FROM fact_order "
        f"WHERE {COUNTED} AND order_date BETWEEN ? AND ? GROUP BY 1",
        list(period),
    ).fetchall()
    total = sum(count for _, count, _ in rows)
    return {category: (count / total, refunded / count) for category, count, refunded in rows}


def test_appliance_refunds_drive_the_q2_refund_rise(default_con: duckdb.DuckDBPyConnection) -> None:
    overall_q1 = metric(default_con, "refund_rate", {}, *Q1)
    overall_q2 = metric(default_con, "refund_rate", {}, *Q2)
    assert overall_q2 > overall_q1 * 1.08
    before, after = _refund_by_category(default_con, Q1), _refund_by_category(default_con, Q2)
    # shift-share: rate effect at Q1 weights + mix effect at Q2 rates; sums to the overall change
    contribution = {
        category: before[category][0] * (after[category][1] - before[category][1])
        + (after[category][0] - before[category][0]) * after[category][1]
        for category in before
    }
    assert sum(contribution.values()) == pytest.approx(overall_q2 - overall_q1, rel=1e-9)
    ranked = sorted(contribution, key=lambda c: abs(contribution[c]), reverse=True)
    assert ranked[0] == "家用电器"
    assert contribution["家用电器"] > 0.7 * (overall_q2 - overall_q1)
    assert contribution["家用电器"] > 4 * abs(contribution[ranked[1]])
    assert after["家用电器"][1] > 1.8 * before["家用电器"][1]


# --- realistic shape ----------------------------------------------------------------------------


def test_weekends_are_busier(default_con: duckdb.DuckDBPyConnection) -> None:
    by_weekday = dict(
        default_con.execute(
            "SELECT isodow(visit_date), sum(visitors) / count(DISTINCT visit_date) FROM fact_traffic GROUP BY 1"
        ).fetchall()
    )
    assert min(by_weekday[6], by_weekday[7]) > 1.08 * max(by_weekday[day] for day in (1, 2, 3, 4))


def test_year_over_year_growth(default_con: duckdb.DuckDBPyConnection) -> None:
    h1_2025 = metric(default_con, "gmv", {}, dt.date(2025, 1, 1), dt.date(2025, 5, 31))
    h1_2026 = metric(default_con, "gmv", {}, dt.date(2026, 1, 1), dt.date(2026, 5, 31))
    assert 1.1 < h1_2026 / h1_2025 < 1.4


def _busiest_day(con: duckdb.DuckDBPyConnection, start: str, end: str) -> str:
    sql = "SELECT order_date FROM fact_order WHERE order_date BETWEEN ? AND ? GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    row = con.execute(sql, [start, end]).fetchone()
    assert row is not None
    return str(row[0])


def test_promotion_peaks(default_con: duckdb.DuckDBPyConnection) -> None:
    assert _busiest_day(default_con, "2025-01-01", "2025-12-31") == "2025-11-11"
    assert _busiest_day(default_con, "2025-06-01", "2025-06-30") == "2025-06-18"
    assert _busiest_day(default_con, "2026-06-01", "2026-06-30") == "2026-06-18"
    run_up = metric(default_con, "gmv", {}, dt.date(2025, 11, 1), dt.date(2025, 11, 11)) / 11
    october = metric(default_con, "gmv", {}, dt.date(2025, 10, 1), dt.date(2025, 10, 31)) / 31
    assert run_up > 1.3 * october


def test_conversion_differs_by_channel_and_user_type(default_con: duckdb.DuckDBPyConnection) -> None:
    year = (dt.date(2025, 1, 1), dt.date(2025, 12, 31))
    rate = {
        (channel, user_type): metric(default_con, "conversion", {"channel": channel, "user_type": user_type}, *year)
        for channel in ("app", "mini_program", "web", "live_stream")
        for user_type in ("new", "returning")
    }
    assert rate[("app", "returning")] > 1.5 * rate[("web", "returning")]
    assert rate[("web", "returning")] > 1.5 * rate[("web", "new")]
    assert all(0.005 < value < 0.08 for value in rate.values())


def test_mixes_differ(default_con: duckdb.DuckDBPyConnection) -> None:
    share = dict(
        default_con.execute(
            "SELECT channel, count(*) FILTER (WHERE category = '美妆个护') / count(*) FROM fact_order GROUP BY 1"
        ).fetchall()
    )
    assert share["live_stream"] > 2 * share["web"]
    regions = dict(default_con.execute("SELECT region, count(*) FROM fact_order GROUP BY 1").fetchall())
    assert regions["华东"] > 4 * regions["东北"]


def test_statuses_and_late_changes(default_con: duckdb.DuckDBPyConnection) -> None:
    shares = dict(
        default_con.execute("SELECT status, count(*) / sum(count(*)) OVER () FROM fact_order GROUP BY 1").fetchall()
    )
    assert 0.02 < shares["refunded"] < 0.08
    assert 0.015 < shares["cancelled"] < 0.05
    lag = dict(
        default_con.execute(
            "SELECT status, avg(epoch(updated_at) - epoch(order_ts)) / 3600 FROM fact_order GROUP BY 1"
        ).fetchall()
    )
    assert lag["paid"] < 1 and lag["cancelled"] < 3
    assert lag["refunded"] > 48  # refunds arrive days later
    assert scalar(default_con, "SELECT count(*) FROM fact_order WHERE updated_at < order_ts") == 0
    assert (
        scalar(default_con, "SELECT count(*) FROM fact_order WHERE updated_at > TIMESTAMP '2026-07-01 02:00:00'") == 0
    )


def test_discounts_are_partial(default_con: duckdb.DuckDBPyConnection) -> None:
    assert (
        scalar(
            default_con, "SELECT count(*) FROM fact_order WHERE discount_amount < 0 OR discount_amount >= gmv_amount"
        )
        == 0
    )
    average = scalar(default_con, "SELECT sum(discount_amount) / sum(gmv_amount) FROM fact_order")
    assert 0.03 < average < 0.3
