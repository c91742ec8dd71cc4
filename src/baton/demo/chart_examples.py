"""Example charts from synthetic data, for the docs: ``python -m baton.demo.chart_examples docs/charts``.

The charts a reader of Baton's README should see: daily GMV around 618 with the peak and an
incomplete day marked, GMV by region in Chinese, a period comparison with the change labelled,
a monthly trend per channel (month labels, a legend entry for the incomplete month), a daily rate
over a narrow range with several close change points (distinct percentage ticks, labels that do
not overlap), and a donut with its labels outside the ring. The data are made up here (a seeded
generator), not read from anywhere.
"""

from __future__ import annotations

import datetime as dt
import random
import sys
from pathlib import Path

from baton.charts.model import CellValue, ChartColumn, ChartMark, ChartRequest
from baton.charts.render import render_png, render_svg
from baton.charts.spec import build_spec


def daily_gmv_request() -> ChartRequest:
    rng = random.Random(618)
    start = dt.date(2025, 5, 20)
    rows: list[tuple[CellValue, ...]] = []
    for i in range(40):
        day = start + dt.timedelta(days=i)
        base = 1_150_000 + 9_000 * i + rng.uniform(-90_000, 90_000)
        if day == dt.date(2025, 6, 18):
            base *= 3.1
        elif dt.date(2025, 6, 15) <= day <= dt.date(2025, 6, 20):
            base *= 1.5
        incomplete = i == 39  # today: the day is not over, its GMV is partial
        if incomplete:
            base *= 0.45
        rows.append((day, round(base, 2), incomplete))
    return ChartRequest(
        columns=(
            ChartColumn("order_date", "time", "日期"),
            ChartColumn("gmv", "measure", "成交额（GMV）", "currency", "CNY"),
            ChartColumn("is_partial", "flag", "数据不完整"),
        ),
        rows=tuple(rows),
        language="zh",
        title="每日成交额（2025年5月20日—6月28日）",
        marks=(ChartMark("peak", dt.date(2025, 6, 18), "618 大促峰值"),),
    )


def region_gmv_request() -> ChartRequest:
    regions = [
        ("华东", 48_213_507.0),
        ("华南", 31_908_114.5),
        ("华北", 27_554_320.0),
        ("西南", 14_020_881.0),
        ("华中", 12_770_430.0),
        ("西北", 5_310_007.0),
        ("东北", 4_884_920.0),
    ]
    return ChartRequest(
        columns=(
            ChartColumn("region", "dimension", "大区"),
            ChartColumn("gmv", "measure", "成交额（GMV）", "currency", "CNY"),
        ),
        rows=tuple(regions),
        language="zh",
        title="2025年第二季度各大区成交额",
        intent="compare",
    )


def period_comparison_request() -> ChartRequest:
    rows = [
        ("Electronics", 18_420_000.0, 15_960_000.0),
        ("Apparel", 12_310_000.0, 13_050_000.0),
        ("Home & Kitchen", 9_870_000.0, 8_120_000.0),
        ("Beauty", 6_450_000.0, 5_010_000.0),
        ("Groceries", 4_220_000.0, 4_300_000.0),
    ]
    return ChartRequest(
        columns=(
            ChartColumn("category", "dimension", "Category"),
            ChartColumn("gmv_q2", "measure", "Q2 2025", "currency", "CNY"),
            ChartColumn("gmv_q1", "measure", "Q1 2025", "currency", "CNY"),
        ),
        rows=tuple(rows),
        language="en",
        title="GMV by category: Q2 vs Q1 2025",
        intent="period_comparison",
    )


def monthly_channel_request() -> ChartRequest:
    rng = random.Random(12)
    channels = [("APP", 26_000_000.0), ("小程序", 8_100_000.0), ("网页", 7_600_000.0), ("直播", 4_300_000.0)]
    rows: list[tuple[CellValue, ...]] = []
    for m in range(1, 13):
        for name, base in channels:
            seasonal = 1.0 + 0.35 * (m == 6) + 0.55 * (m == 11) + 0.02 * m
            partial = m == 12  # the month is not over: its GMV is partial
            rows.append((dt.date(2025, m, 1), name, round(base * seasonal * rng.uniform(0.93, 1.07), 2), partial))
    return ChartRequest(
        columns=(
            ChartColumn("month", "time", "月份", grain="month"),
            ChartColumn("channel", "dimension", "渠道"),
            ChartColumn("gmv", "measure", "成交额（GMV）", "currency", "CNY"),
            ChartColumn("is_partial", "flag", "数据不完整"),
        ),
        rows=tuple(rows),
        language="zh",
        title="各渠道每月成交额（2025年，区域：华东；渠道：不含分销）",
    )


def conversion_change_points_request() -> ChartRequest:
    rng = random.Random(7)
    start = dt.date(2026, 5, 1)
    rows: list[tuple[CellValue, ...]] = []
    for i in range(61):
        level = 0.0262 if i < 33 else 0.0231 if i < 36 else 0.0219
        rows.append((start + dt.timedelta(days=i), round(level + rng.uniform(-0.0012, 0.0012), 5)))
    marks = (
        ChartMark("anomaly", start + dt.timedelta(days=41), "Checkout outage"),
        *(ChartMark("change_point", start + dt.timedelta(days=d), "change point") for d in (31, 33, 34, 36)),
    )
    return ChartRequest(
        columns=(
            ChartColumn("day", "time", "Date", grain="day"),
            ChartColumn("conversion_rate", "measure", "Conversion rate", "ratio"),
        ),
        rows=tuple(rows),
        language="en",
        title="Daily conversion rate (May 2026 – Jun 2026; channel: app)",
        marks=marks,
    )


def channel_share_request() -> ChartRequest:
    return ChartRequest(
        columns=(
            ChartColumn("channel", "dimension", "Channel"),
            ChartColumn("gmv", "measure", "GMV", "currency", "CNY"),
        ),
        rows=(
            ("app", 25_413_813.4),
            ("web", 7_894_938.6),
            ("mini program", 7_371_750.0),
            ("live stream", 4_828_670.9),
            ("partner stores", 612_000.0),
        ),
        language="en",
        title="Share of GMV by channel (Jun 2026)",
        intent="share",
    )


EXAMPLES = {
    "line-daily-gmv": daily_gmv_request,
    "bar-region-gmv-zh": region_gmv_request,
    "grouped-bar-period-comparison": period_comparison_request,
    "line-monthly-channels-zh": monthly_channel_request,
    "line-rate-change-points": conversion_change_points_request,
    "donut-channel-share": channel_share_request,
}


def write_examples(folder: Path, *, svg: bool = False) -> list[Path]:
    """Render every example into ``folder`` (PNG, and SVG when asked); the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, make in EXAMPLES.items():
        spec = build_spec(make())
        png_path = folder / f"{name}.png"
        png_path.write_bytes(render_png(spec, scale=2.0))
        written.append(png_path)
        if svg:
            svg_path = folder / f"{name}.svg"
            svg_path.write_text(render_svg(spec), encoding="utf-8")
            written.append(svg_path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0]) if args else Path("docs/charts")
    for path in write_examples(folder, svg="--svg" in args):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
