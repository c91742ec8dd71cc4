"""Charts chosen by rule, as validated Vega-Lite v5 specs, rendered offline with a CJK font.

Callers describe a result with :class:`ChartRequest`, get a kind from :func:`choose_chart`,
a spec from :func:`build_spec`, and an image from :func:`render_svg` / :func:`render_png`.
Attributes load lazily, so an answer's spec never imports the renderer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baton.lazy import lazy_attributes

if TYPE_CHECKING:
    from baton.charts.choose import choose_chart
    from baton.charts.model import (
        CHART_KINDS,
        ChartChoice,
        ChartColumn,
        ChartKind,
        ChartMark,
        ChartRequest,
        ColumnRole,
        Intent,
        MarkKind,
    )
    from baton.charts.render import cjk_font_dir, ensure_cjk_font, render_png, render_svg
    from baton.charts.schema import VEGA_LITE_VERSION, validate_spec, vega_lite_schema
    from baton.charts.spec import build_spec
    from baton.contracts.common import Unit
    from baton.errors import ChartNotApplicable, InvalidChartSpec
    from baton.numbers import axis_label_expr, format_change, format_number

_WHERE: dict[str, str] = {
    **dict.fromkeys(("choose_chart",), "baton.charts.choose"),
    **dict.fromkeys(
        (
            "CHART_KINDS",
            "ChartChoice",
            "ChartColumn",
            "ChartKind",
            "ChartMark",
            "ChartRequest",
            "ColumnRole",
            "Intent",
            "MarkKind",
        ),
        "baton.charts.model",
    ),
    **dict.fromkeys(("cjk_font_dir", "ensure_cjk_font", "render_png", "render_svg"), "baton.charts.render"),
    **dict.fromkeys(("VEGA_LITE_VERSION", "validate_spec", "vega_lite_schema"), "baton.charts.schema"),
    **dict.fromkeys(("build_spec",), "baton.charts.spec"),
    **dict.fromkeys(("Unit",), "baton.contracts.common"),
    **dict.fromkeys(("ChartNotApplicable", "InvalidChartSpec"), "baton.errors"),
    **dict.fromkeys(("axis_label_expr", "format_change", "format_number"), "baton.numbers"),
}


# lazy attributes (PEP 562): building a spec never loads the renderer
__getattr__ = lazy_attributes(__name__, _WHERE)


__all__ = [
    "CHART_KINDS",
    "VEGA_LITE_VERSION",
    "ChartChoice",
    "ChartColumn",
    "ChartKind",
    "ChartMark",
    "ChartNotApplicable",
    "ChartRequest",
    "ColumnRole",
    "Intent",
    "InvalidChartSpec",
    "MarkKind",
    "Unit",
    "axis_label_expr",
    "build_spec",
    "choose_chart",
    "cjk_font_dir",
    "ensure_cjk_font",
    "format_change",
    "format_number",
    "render_png",
    "render_svg",
    "validate_spec",
    "vega_lite_schema",
]
