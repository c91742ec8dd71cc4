"""Charts a reader can forward: distinct tick labels, time axes at their grain, marks whose
labels never overlap, legends with their symbols, donut labels outside the ring.

Each test reads the SVG that vl-convert draws (texts, positions, legend symbols), not only the
spec, so it checks what a reader sees.
"""

from __future__ import annotations

import datetime as dt
import itertools
import math

import pytest

from baton.charts import ChartColumn, ChartMark, ChartRequest, build_spec, render_svg
from baton.charts.model import CellValue
from baton.contracts.common import Language, Unit
from tests.charts.cases import CASES, REGIONS_ZH, START, Case, daily
from tests.charts.svgread import axis_labels, legend_entries, mark_origins, overlaps, visible_texts

INVISIBLE = {None, "none", "white", "#fff", "#ffffff", "transparent"}


def series(values: list[float], unit: Unit, lang: Language = "zh") -> ChartRequest:
    """A daily series of ``values`` (a rate, an amount …)."""
    rows = tuple((START + dt.timedelta(days=i), v) for i, v in enumerate(values))
    cols = (ChartColumn("d", "time", "日期"), ChartColumn("v", "measure", "指标", unit, "CNY"))
    return ChartRequest(cols, rows, lang, "t")


def ticks(svg: str) -> list[list[str]]:
    return [labels for labels in axis_labels(svg) if labels]


@pytest.mark.parametrize(
    ("low", "high"),
    [(0.0142, 0.0284), (0.021, 0.029), (0.0011, 0.0038), (0.00012, 0.00031), (0.1, 0.93), (0.4, 2.5)],
)
def test_percentage_axes_have_distinct_labels(low: float, high: float) -> None:
    values = [low + (high - low) * i / 19 for i in range(20)]
    svg = render_svg(build_spec(series(values, "ratio")))
    y = ticks(svg)[-1]
    assert all(t.endswith("%") for t in y), y
    assert len(set(y)) == len(y) >= 3, y


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize(("low", "high"), [(10_020.0, 10_080.0), (1_234_500.0, 1_236_100.0), (0.5, 3.5)])
def test_amount_axes_without_zero_have_distinct_labels(lang: Language, low: float, high: float) -> None:
    """Boxplots and scatters start at the data, not at zero: a narrow range at a large scale."""
    rows: list[tuple[CellValue, ...]] = [
        (g, low + (high - low) * ((7 * i) % 10) / 9) for g in ("a", "b") for i in range(12)
    ]
    cols = (ChartColumn("g", "dimension", "G"), ChartColumn("v", "measure", "V", "currency", "CNY"))
    svg = render_svg(build_spec(ChartRequest(cols, tuple(rows), lang, "t", intent="distribution")))
    y = ticks(svg)[-1]
    assert len(set(y)) == len(y) >= 3, y
    assert all("¥" in t for t in y), y
    if lang == "en":
        assert not any("万" in t for t in y)


def test_an_amount_axis_uses_one_scale() -> None:
    """Never 8,000 next to 1万 on one axis."""
    svg = render_svg(build_spec(series([2_000.0 + 900 * i for i in range(20)], "currency")))
    y = ticks(svg)[-1]
    assert all(t == "¥0" or t.endswith("万") for t in y), y


def periods(grain: str, n: int) -> list[dt.date]:
    if grain == "week":
        return [dt.date(2026, 1, 5) + dt.timedelta(weeks=i) for i in range(n)]
    if grain == "month":
        return [dt.date(2026, 1 + i, 1) for i in range(n)]
    if grain == "quarter":
        return [dt.date(2025, 1 + 3 * i, 1) for i in range(n)]
    return [dt.date(2021 + i, 1, 1) for i in range(n)]


@pytest.mark.parametrize(
    ("grain", "n", "zh", "en"),
    [
        ("month", 6, ["2026年1月", "2026年2月", "2026年3月"], ["Jan 2026", "Feb 2026", "Mar 2026"]),
        ("quarter", 4, ["2025年第1季度", "2025年第2季度"], ["Q1 2025", "Q2 2025"]),
        ("year", 5, ["2021年", "2022年"], ["2021", "2022"]),
        ("week", 8, ["1月5日", "1月12日"], ["Jan 5", "Jan 12"]),
    ],
)
@pytest.mark.parametrize("given", [True, False], ids=["grain-given", "grain-inferred"])
def test_time_axes_follow_the_grain(grain: str, n: int, zh: list[str], en: list[str], given: bool) -> None:
    for lang, expected in (("zh", zh), ("en", en)):
        days = periods(grain, n)
        col = ChartColumn("p", "time", "期间", grain=grain if given else None)  # type: ignore[arg-type]
        req = ChartRequest(
            (col, ChartColumn("v", "measure", "GMV", "currency", "CNY")),
            tuple((d, 1000.0 + 10 * i) for i, d in enumerate(days)),
            lang,  # type: ignore[arg-type]
            "t",
        )
        x = ticks(render_svg(build_spec(req)))[0]
        assert x[: len(expected)] == expected, (lang, x)
        assert len(set(x)) == len(x)
        assert not any("1日" in t for t in x) or grain == "week"


def change_point_request() -> ChartRequest:
    days = [3, 4, 5, 6, 7, 8, 9, 10, 27, 29]
    marks = (
        ChartMark("peak", START + dt.timedelta(days=5), "618 大促峰值"),
        ChartMark("anomaly", START + dt.timedelta(days=6), "异常低点"),
        *(ChartMark("change_point", START + dt.timedelta(days=d), "均值变点") for d in days),
    )
    return daily(30, REGIONS_ZH[:3], marks=marks)


def test_mark_labels_never_overlap_and_none_is_lost() -> None:
    req = change_point_request()
    spec = build_spec(req)
    labels = visible_texts(render_svg(spec), "mark")
    for a, b in itertools.combinations(labels, 2):
        assert not overlaps(a, b), (a, b)
    drawn = len(labels)
    subtitle = " ".join(spec["title"].get("subtitle", []))
    unlabelled = subtitle.count("均值变点") + subtitle.count("异常低点") + subtitle.count("618")
    assert drawn >= 6, "most labels are drawn"
    assert drawn + unlabelled == len(req.marks), "a label with no room is named in the subtitle"
    rules = [ly for ly in spec["layer"] if ly["mark"]["type"] == "rule"]
    assert len(rules[0]["data"]["values"]) == 10, "every change point keeps its rule"


def test_mark_colours_follow_their_kind_on_multi_series_charts() -> None:
    spec = build_spec(change_point_request())
    diamonds = [ly for ly in spec["layer"] if ly["mark"].get("shape") == "diamond"]
    assert {ly["encoding"]["color"]["value"] for ly in diamonds} == {"#e6550d", "#d62728"}


def test_every_legend_entry_shows_its_symbol() -> None:
    last = START + dt.timedelta(days=9)
    for req in (
        daily(10, REGIONS_ZH[:3], marks=(ChartMark("incomplete", last, "x"),)),
        daily(10, marks=(ChartMark("incomplete", last, "x"),)),
    ):
        entries = legend_entries(render_svg(build_spec(req)))
        assert any(e.label == "数据不完整" for e in entries)
        for e in entries:
            assert e.fill not in INVISIBLE or e.stroke not in INVISIBLE, e


def test_donut_labels_sit_outside_the_ring_without_overlap() -> None:
    cols = (ChartColumn("c", "dimension", "Channel"), ChartColumn("v", "measure", "GMV", "currency", "CNY"))
    rows: tuple[tuple[CellValue, ...], ...] = (
        ("app", 25_413_813.4),
        ("web", 7_894_938.6),
        ("mini program", 7_371_750.0),
        ("live stream", 4_828_670.9),
        ("marketplace partners", 310_000.0),
        ("offline stores", 290_000.0),
    )
    spec = build_spec(ChartRequest(cols, rows, "en", "Share", intent="share"))
    svg = render_svg(spec)
    labels = visible_texts(svg, "mark")
    assert len(labels) == len(rows) and all("%" in t.text for t in labels)
    (cx, cy), *_ = mark_origins(svg, "arc mark")
    outer = spec["layer"][0]["mark"]["outerRadius"]
    for t in labels:
        left, top, right, bottom = t.box()
        nearest_x, nearest_y = min(max(cx, left), right), min(max(cy, top), bottom)
        assert math.hypot(nearest_x - cx, nearest_y - cy) > outer, t.text
    for a, b in itertools.combinations(labels, 2):
        assert not overlaps(a, b), (a.text, b.text)


@pytest.mark.parametrize("case", [c for c in CASES if c.expected != "table"], ids=lambda c: c.id)
def test_every_eval_chart_is_readable(case: Case) -> None:
    """Across every chart shape: distinct tick labels, legend symbols, no overlapping labels."""
    spec = build_spec(case.request)
    svg = render_svg(spec)
    for labels in ticks(svg):
        assert len(set(labels)) == len(labels), labels
    for e in legend_entries(svg):
        assert e.fill not in INVISIBLE or e.stroke not in INVISIBLE, e
    if spec["usermeta"]["baton"]["kind"] in ("line", "donut"):
        marks = visible_texts(svg, "mark")
        for a, b in itertools.combinations(marks, 2):
            assert not overlaps(a, b), (a.text, b.text)


@pytest.mark.parametrize("top", [3_139_843.1, 87.0, 0.0284, 1_049_000.0, 12_345_678.0])
def test_the_layout_predicts_the_axis_vega_draws(top: float) -> None:
    """Labels are placed on the estimated value scale: its ticks must be the ones Vega draws."""
    from baton.charts.axes import axis_ticks
    from baton.numbers import SCALE_SUFFIXES

    values = [top * (0.3 + 0.7 * i / 9) for i in range(10)]
    drawn = []
    for label in ticks(render_svg(build_spec(series(values, "number", "en"))))[-1]:
        plain = label.replace(",", "")
        factor = float(SCALE_SUFFIXES[plain[-1]]) if plain[-1] in SCALE_SUFFIXES else 1.0
        drawn.append(float(plain.rstrip("".join(SCALE_SUFFIXES))) * factor)
    assert drawn == pytest.approx(axis_ticks(values, length=320))


@pytest.mark.parametrize(("lang", "first"), [("zh", "2025年12月20日"), ("en", "Dec 20, 2025")])
def test_days_across_a_new_year_carry_the_year(lang: Language, first: str) -> None:
    rows = tuple((dt.date(2025, 12, 20) + dt.timedelta(days=i), 100.0 + i) for i in range(22))
    cols = (ChartColumn("d", "time", "日期", grain="day"), ChartColumn("v", "measure", "GMV", "count"))
    x = ticks(render_svg(build_spec(ChartRequest(cols, rows, lang, "t"))))[0]
    assert x[0] == first and any("2026" in t for t in x), x
    assert len(set(x)) == len(x)


@pytest.mark.parametrize("n", [6, 12])
def test_value_labels_of_equal_bars_do_not_overlap(n: int) -> None:
    cols = (ChartColumn("r", "dimension", "大区"), ChartColumn("v", "measure", "成交额", "currency", "CNY"))
    rows: tuple[tuple[CellValue, ...], ...] = tuple((f"区{i}", 48_213_507.0) for i in range(n))
    labels = visible_texts(render_svg(build_spec(ChartRequest(cols, rows, "zh", "t"))), "mark")
    assert len(labels) == n and all(t.text == "¥4,821.35万" for t in labels)
    for a, b in itertools.combinations(labels, 2):
        assert not overlaps(a, b), (a, b)
