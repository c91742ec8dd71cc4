"""`baton query` on every engine: the same semantic-layer queries give the same rows as on
DuckDB (and, for the row-filtered one, as hand-written SQL on the DuckDB file), through the
Python API and through the console script."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import duckdb
import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

pytestmark = pytest.mark.spark_full  # on Spark: the scale-1 demo (make test-spark)

AS_OF = date(2026, 7, 1)
QUARTER: dict[str, Any] = {"start_time": date(2026, 4, 1), "end_time": date(2026, 6, 30)}
JUNE: dict[str, Any] = {"start_time": date(2026, 6, 1), "end_time": date(2026, 6, 30)}
QUERIES: dict[str, tuple[str | list[str], dict[str, Any]]] = {
    # a row-filtered user, a filter, a month grain, an order and a limit
    "east_app_by_month": (
        "gmv",
        {
            "group_by": "region,metric_time__month",
            "where": "{{ Dimension('channel') }} = 'app'",
            "order": "-gmv",
            "limit": 8,
            "user": "east_manager",
            **QUARTER,
        },
    ),
    "counts_by_channel": (["order_count", "buyer_count"], {"group_by": "channel", "order": "channel", **JUNE}),
    "conversion_by_day": (
        "conversion_rate",
        {"group_by": "user_type,metric_time__day", "order": ["metric_time__day", "user_type"], **JUNE},
    ),
    "refund_rate_ranked": ("refund_rate", {"group_by": "category", "order": "-refund_rate", "limit": 5, **QUARTER}),
}
_DUCKDB: dict[str, list[list[object]]] = {}


def _rows(answer: Answer) -> list[list[object]]:
    assert answer.status == "answered", answer.error
    assert answer.result is not None and answer.result.rows
    return answer.result.rows


def _same(got: list[list[object]], want: list[list[object]] | list[tuple[object, ...]]) -> None:
    """Equal row by row: numbers to 1e-9 relative, everything else as text (dates as ISO days)."""
    assert len(got) == len(want), (got, want)
    for row, expected in zip(got, want, strict=True):
        assert len(row) == len(expected), (row, expected)
        for value, gold in zip(row, expected, strict=True):
            if isinstance(gold, int | float | Decimal) and not isinstance(gold, bool):
                assert float(str(value)) == pytest.approx(float(gold), rel=1e-9), (row, expected)
            else:
                assert str(value)[:10] == str(gold)[:10], (row, expected)


def _query(folder: Path, name: str) -> list[list[object]]:
    metrics, options = QUERIES[name]
    with Session(load_settings(folder / "baton.toml")) as session:
        return _rows(session.query(metrics, **options, as_of=AS_OF))


@pytest.mark.parametrize("name", list(QUERIES))
def test_query_gives_the_same_rows_as_on_duckdb(backend: Path, demo_dir: Path, name: str) -> None:
    if name not in _DUCKDB:
        _DUCKDB[name] = _query(demo_dir, name)
    _same(_query(backend, name), _DUCKDB[name])


def test_row_filtered_query_equals_hand_written_sql(backend: Path, demo_dir: Path) -> None:
    con = duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True)
    try:
        gold = con.execute(
            "SELECT CAST(date_trunc('month', order_date) AS DATE) AS m, region, SUM(gmv_amount) AS g "
            "FROM fact_order WHERE order_date BETWEEN '2026-04-01' AND '2026-06-30' "
            "AND status IN ('paid', 'refunded') AND channel = 'app' AND region = '华东' "
            "GROUP BY m, region ORDER BY g DESC LIMIT 8"
        ).fetchall()
    finally:
        con.close()
    rows = _query(backend, "east_app_by_month")
    assert len(gold) == 3  # one region (the user's row filter), three months
    _same(rows, gold)


def test_console_query_json_is_the_same_on_every_engine(backend: Path, demo_dir: Path) -> None:
    def run(folder: Path) -> dict[str, Any]:
        args = ["query", "--metrics", "gmv,aov", "--group-by", "category", "--start-time", "2026-06-01"]
        args += ["--end-time", "2026-06-30", "--order", "-gmv", "--limit", "3", "--json", "--as-of", "2026-07-01"]
        proc = subprocess.run(
            [sys.executable, "-m", "baton", *args, "--config", str(folder / "baton.toml")],
            capture_output=True,
            text=True,
            timeout=180,
            env=dict(os.environ),
            check=False,
        )
        assert proc.returncode == 0, proc.stderr
        data: dict[str, Any] = json.loads(proc.stdout)
        assert data["status"] == "answered"
        return data

    got = run(backend)
    want = run(demo_dir) if backend != demo_dir else got
    assert [c["name"] for c in got["result"]["columns"]] == ["category", "gmv", "aov"]
    assert [c["name"] for c in want["result"]["columns"]] == ["category", "gmv", "aov"]
    _same(got["result"]["rows"], want["result"]["rows"])
    assert got["interpretation"] == want["interpretation"]
