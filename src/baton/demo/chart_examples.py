"""Example charts from synthetic data, for the docs: ``python -m baton.demo.chart_examples docs/charts``.

Three charts a reader of Baton's README should see: daily GMV around 618 with the peak and an
incomplete day marked, GMV by region in Chinese, and a period comparison with the change
labelled. The data are made up here (a seeded generator), not read from anywhere.
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


EXAMPLES = {
    "line-daily-gmv": daily_gmv_request,
    "bar-region-gmv-zh": region_gmv_request,
    "grouped-bar-period-comparison": period_comparison_request,
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
