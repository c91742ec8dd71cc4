"""An answer's series and top N on every engine: quiet days are zeros where the engine takes a
spine of periods (Spark's cost estimate cannot: there the gaps stay, named in the assumptions),
and a top N keeps the rows tied at its last place — checked against plain SQL on the demo's
DuckDB file, whose data every engine's copy holds."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path

import duckdb
import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session

pytestmark = pytest.mark.spark_full  # on Spark: the scale-1 demo (make test-spark)

AS_OF = date(2026, 7, 1)
CORNER = "category = '手机数码' AND channel = 'live_stream' AND region = '东北' AND status IN ('paid', 'refunded')"


def _ask(folder: Path, question: str) -> Answer:
    with Session(load_settings(folder / "baton.toml")) as session:
        answer = session.ask(question, as_of=AS_OF)
    assert answer.status == "answered" and answer.result is not None, answer.error
    return answer


def _gold(demo_dir: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(demo_dir / "warehouse.duckdb"), read_only=True)
    try:
        return [tuple(row) for row in con.execute(sql).fetchall()]
    finally:
        con.close()


@pytest.mark.notimpl(["spark"], reason="no spine of periods: Spark estimates a join as the product of its inputs")
def test_quiet_days_are_zeros(backend: Path, demo_dir: Path) -> None:
    answer = _ask(backend, "2026年6月东北直播渠道手机数码每天的订单量")
    counts = {
        d: int(str(n))
        for d, n in _gold(
            demo_dir,
            f"SELECT order_date, COUNT(*) FROM fact_order WHERE {CORNER} "
            "AND order_date BETWEEN '2026-06-01' AND '2026-06-30' GROUP BY 1",
        )
        if isinstance(d, date)
    }
    ((first, last),) = _gold(
        demo_dir,
        "SELECT MIN(order_date), MAX(order_date) FROM fact_order WHERE order_date >= '2026-06-01' "
        "AND order_date <= '2026-06-30'",
    )
    assert isinstance(first, date) and isinstance(last, date)
    days = [first + timedelta(days=i) for i in range((last - first).days + 1)]  # the days the table holds
    assert answer.result is not None
    rows = [(str(d)[:10], int(str(n))) for d, n in answer.result.rows]
    assert rows == [(d.isoformat(), counts.get(d, 0)) for d in days]


def test_a_series_never_invents_a_value(backend: Path, demo_dir: Path) -> None:
    """Every engine: each day shown has its count; a day not shown had no order and is named."""
    answer = _ask(backend, "2026年6月东北直播渠道手机数码每天的订单量")
    assert answer.result is not None
    rows = _gold(
        demo_dir,
        f"SELECT CAST(order_date AS VARCHAR), COUNT(*) FROM fact_order WHERE {CORNER} "
        "AND order_date BETWEEN '2026-06-01' AND '2026-06-30' GROUP BY 1",
    )
    counts = {str(d): int(str(n)) for d, n in rows}
    shown = {str(d)[:10]: int(str(n)) for d, n in answer.result.rows}
    assert all(counts.get(d, 0) == n for d, n in shown.items())
    unshown = sorted(d for d in counts if d not in shown)
    assert not unshown
    if len(shown) < 30:  # gaps inside, or after the last day with orders: named
        assert any("没有数据行" in note for note in answer.assumptions)


def test_a_top_n_keeps_its_ties(backend: Path, demo_dir: Path) -> None:
    answer = _ask(backend, "2026年6月8日华南app渠道订单量最高的3个品类")
    gold = _gold(
        demo_dir,
        "SELECT category, n FROM (SELECT category, COUNT(*) AS n, RANK() OVER (ORDER BY COUNT(*) DESC) AS r "
        "FROM fact_order WHERE status IN ('paid', 'refunded') AND order_date = DATE '2026-06-08' "
        "AND region = '华南' AND channel = 'app' GROUP BY 1) WHERE r <= 3 ORDER BY n DESC, category",
    )
    assert answer.result is not None and len(gold) == 4
    assert [(str(c), int(str(n))) for c, n in answer.result.rows] == [(str(c), int(str(n))) for c, n in gold]
    assert "第3名有2个并列" in answer.answer


def test_each_period_against_the_one_before_it(backend: Path, demo_dir: Path) -> None:
    """Every engine: each week's orders per channel beside the week before — the earlier weeks'
    rows counted twice (a week of its own, and the next one's before), as LAG over one range."""
    answer = _ask(backend, "近4周各渠道每周订单数环比")
    gold = _gold(
        demo_dir,
        "WITH w AS (SELECT CAST(DATE_TRUNC('week', order_date) AS DATE) AS p, channel, COUNT(*) AS n FROM fact_order "
        "WHERE status IN ('paid', 'refunded') AND order_date BETWEEN DATE '2026-05-25' AND DATE '2026-06-28' "
        "GROUP BY 1, 2) SELECT CAST(p AS VARCHAR), channel, n, LAG(n) OVER (PARTITION BY channel ORDER BY p) "
        "FROM w QUALIFY p >= DATE '2026-06-01' ORDER BY 1, 2",
    )
    assert answer.result is not None and len(gold) == 16
    names = [c.name for c in answer.result.columns]
    assert names[:4] == ["period", "channel", "order_count", "order_count_previous"]
    shown = [(str(p)[:10], str(c), int(str(n)), int(str(b))) for p, c, n, b, *_ in answer.result.rows]
    assert shown == [(p, str(c), int(str(n)), int(str(b))) for p, c, n, b in gold]
    assert answer.interpretation is not None and "每周对比上一周" in answer.interpretation
