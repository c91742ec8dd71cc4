"""Offline rendering: SVG keeps Chinese labels as text, and PNG glyphs are real, not tofu."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from baton.charts import build_spec, ensure_cjk_font, render_png, render_svg
from baton.charts.common import FONT_STACK, SCHEMA_URL
from baton.charts.render import VL_VERSION
from baton.demo.chart_examples import write_examples
from tests.charts.cases import by_member, daily, period_wide
from tests.charts.pngread import PNG_SIGNATURE, decode_png, ink

TITLE_ROWS = 45  # the title band of the small title-only charts below (scale 1)


def svg_texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def title_spec(text: str) -> dict[str, Any]:
    return {
        "$schema": SCHEMA_URL,
        "title": {"text": text, "fontSize": 28},
        "width": 20,
        "height": 10,
        "data": {"values": [{}]},
        "mark": "point",
        "config": {"font": FONT_STACK, "view": {"stroke": None}, "background": "white"},
    }


def title_band(png: bytes) -> npt.NDArray[np.bool_]:
    return ink(decode_png(png))[:TITLE_ROWS]


def test_svg_keeps_chinese_labels_as_text() -> None:
    req = by_member(["华东", "华南", "华北"], intent="compare")
    texts = svg_texts(render_svg(build_spec(req)))
    for label in ("测试图表", "华东", "华南", "华北", "成员", "数值"):
        assert label in texts, label
    assert any(t.endswith("万") for t in texts), "axis ticks use 万"


def test_axis_labels_follow_the_language() -> None:
    zh = svg_texts(render_svg(build_spec(by_member(["甲", "乙"], lang="zh"))))
    en = svg_texts(render_svg(build_spec(by_member(["A", "B"], lang="en"))))
    assert "¥100万" in zh and "¥0" in zh
    assert "¥1M" in en
    assert not any("万" in t for t in en)


def test_line_chart_dates_are_days_in_chinese() -> None:
    texts = svg_texts(render_svg(build_spec(daily(3))))
    assert [t for t in texts if "月" in t] == ["6月1日", "6月2日", "6月3日"]


def test_png_glyphs_are_real_not_tofu() -> None:
    assert ensure_cjk_font() is not None, "the CJK font package must be installed"
    cjk_a = title_band(render_png(title_spec("每日成交额对比"), scale=1))
    cjk_b = title_band(render_png(title_spec("华东华南区域比"), scale=1))
    tofu_a = title_band(render_png(title_spec("\ue000\ue001\ue002\ue003\ue004\ue005\ue006"), scale=1))
    tofu_b = title_band(render_png(title_spec("\ue010\ue011\ue012\ue013\ue014\ue015\ue016"), scale=1))
    assert cjk_a.sum() > 300, "the title has ink"
    # Tofu is one box per character whatever the character: two strings render alike...
    assert np.array_equal(tofu_a, tofu_b)
    # ...while real glyphs differ from each other and from the boxes.
    assert (cjk_a != cjk_b).sum() > 200
    assert cjk_a.shape != tofu_a.shape or (cjk_a != tofu_a).sum() > 200


_NO_FONT_SCRIPT = """
import sys, vl_convert
from tests.charts.test_render import title_spec
png = vl_convert.vegalite_to_png(title_spec(sys.argv[1]), vl_version=sys.argv[2], scale=1)
sys.stdout.buffer.write(png)
"""


def _render_without_font(text: str) -> bytes:
    """Render in a fresh process where no CJK font was registered."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _NO_FONT_SCRIPT, text, VL_VERSION],
        capture_output=True,
        check=True,
        cwd=root,
        timeout=60,
    )
    return done.stdout


def test_png_differs_from_a_render_without_the_cjk_font() -> None:
    text = "每日成交额对比"
    with_font = title_band(render_png(title_spec(text), scale=1))
    missing_a = _render_without_font(text)
    missing_b = _render_without_font("华东华南区域比")
    assert missing_a.startswith(PNG_SIGNATURE)
    without = title_band(missing_a)
    # Without the font every character is the same box: different texts render the same.
    assert np.array_equal(without, title_band(missing_b))
    assert with_font.shape != without.shape or (with_font != without).sum() > 200


def test_render_png_scales() -> None:
    spec = build_spec(period_wide(["华东", "华南"]))
    small, big = decode_png(render_png(spec, scale=1.0)), decode_png(render_png(spec, scale=2.0))
    assert big.shape[0] == 2 * small.shape[0]
    assert big.shape[1] == 2 * small.shape[1]


def test_examples_write_every_png(tmp_path: Path) -> None:
    paths = write_examples(tmp_path)
    assert [p.name for p in paths] == [
        "line-daily-gmv.png",
        "bar-region-gmv-zh.png",
        "grouped-bar-period-comparison.png",
        "line-monthly-channels-zh.png",
        "line-rate-change-points.png",
        "donut-channel-share.png",
    ]
    for p in paths:
        data = p.read_bytes()
        assert data.startswith(PNG_SIGNATURE)
        assert ink(decode_png(data)).sum() > 5_000
