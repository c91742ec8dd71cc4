"""ground_truth.json: what was planted, plus headline figures read back from the built tables.

Evals compare Baton's answers with this file, so the figures come from SQL on the finished
warehouse (after data faults), never from the simulator's intentions.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import duckdb

from baton.demo.scenario import Scenario
from baton.demo.world import AS_OF, DATA_END, DATA_START

GROUND_TRUTH_VERSION = 1
MONTHS_IN_TOTALS = 3

_MONTHLY_SQL = """
WITH o AS (
    SELECT date_trunc('month', order_date) AS month,
           sum(gmv_amount) FILTER (WHERE status IN ('paid', 'refunded')) AS gmv,
           count(*) FILTER (WHERE status IN ('paid', 'refunded')) AS orders,
           count(*) FILTER (WHERE status = 'refunded') AS refunded
    FROM fact_order WHERE order_date >= ? GROUP BY 1
), t AS (
    SELECT date_trunc('month', visit_date) AS month, sum(visitors) AS visitors
    FROM fact_traffic WHERE visit_date >= ? GROUP BY 1
)
SELECT strftime(o.month, '%Y-%m'), o.gmv, o.orders, t.visitors, o.refunded
FROM o JOIN t USING (month) ORDER BY o.month
"""

_QUARTERLY_REFUND_SQL = """
SELECT year(order_date) || '-Q' || quarter(order_date) AS quarter,
       count(*) FILTER (WHERE status = 'refunded') AS refunded,
       count(*) FILTER (WHERE status IN ('paid', 'refunded')) AS orders
FROM fact_order WHERE order_date >= ? GROUP BY 1 ORDER BY 1
"""


def _first_of_month_back(months: int) -> dt.date:
    year, month = DATA_END.year, DATA_END.month - (months - 1)
    while month <= 0:
        year, month = year - 1, month + 12
    return dt.date(year, month, 1)


def headline_totals(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Monthly GMV, orders, visitors, conversion, AOV and refund rate for the last months, and Q refund rates."""
    since = _first_of_month_back(MONTHS_IN_TOTALS)
    monthly: dict[str, dict[str, float | int]] = {}
    for month, gmv, orders, visitors, refunded in con.execute(_MONTHLY_SQL, [since, since]).fetchall():
        monthly[month] = {
            "gmv": float(gmv),
            "orders": int(orders),
            "visitors": int(visitors),
            "conversion_rate": round(orders / visitors, 6),
            "aov": round(float(gmv) / orders, 4),
            "refund_rate": round(refunded / orders, 6),
        }
    quarter_start = dt.date(DATA_END.year, 1, 1)
    quarterly = {
        quarter: {"refund_rate": round(refunded / orders, 6), "orders": int(orders)}
        for quarter, refunded, orders in con.execute(_QUARTERLY_REFUND_SQL, [quarter_start]).fetchall()
    }
    rows = {
        table: int(count)
        for table, count in con.execute(
            "SELECT 'fact_order', count(*) FROM fact_order UNION ALL "
            "SELECT 'fact_traffic', count(*) FROM fact_traffic UNION ALL "
            "SELECT 'dim_user', count(*) FROM dim_user UNION ALL "
            "SELECT 'dim_product', count(*) FROM dim_product"
        ).fetchall()
    }
    return {"monthly": monthly, "quarterly": quarterly, "rows": rows}


def ground_truth_document(
    scenario: Scenario, *, seed: int, scale: float, totals: dict[str, Any], seconds: float
) -> dict[str, Any]:
    return {
        "version": GROUND_TRUTH_VERSION,
        "scenario": scenario.name,
        "description": scenario.description,
        "seed": seed,
        "scale": scale,
        "as_of": AS_OF.isoformat(),
        "date_range": [DATA_START.isoformat(), DATA_END.isoformat()],
        "effects": [
            {
                "name": effect.name,
                "metric": effect.metric,
                "where": dict(effect.where),
                "period": [effect.period[0].isoformat(), effect.period[1].isoformat()],
                "change": effect.change,
                "direction": "up" if effect.change > 0 else "down",
                "expected_factor": effect.expected_factor,
            }
            for effect in scenario.effects
        ],
        "data_faults": [
            {"table": fault.table, "date": fault.date.isoformat(), "keep_fraction": fault.keep_fraction}
            for fault in scenario.data_faults
        ],
        "totals": totals,
        "build_seconds": round(seconds, 3),
    }
