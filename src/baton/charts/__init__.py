"""Charts chosen by rule, as validated Vega-Lite v5 specs, rendered offline with a CJK font.

Callers describe a result with :class:`ChartRequest`, get a kind from :func:`choose_chart`,
a spec from :func:`build_spec`, and an image from :func:`render_svg` / :func:`render_png`.
"""

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
    Unit,
)
from baton.charts.numbers import axis_label_expr, format_change, format_number
from baton.charts.render import cjk_font_dir, ensure_cjk_font, render_png, render_svg
from baton.charts.schema import VEGA_LITE_VERSION, InvalidChartSpec, validate_spec, vega_lite_schema
from baton.charts.spec import ChartNotApplicable, build_spec

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
