"""The presenter :class:`~baton.contracts.answer.Answer` delegates to: display, reports, the
chart as PNG, and the result as pandas, Arrow or polars.

A catalog makes the table read as the report does (column and member labels, units, ¥); the
Answer itself carries metric labels but codes for members. :func:`remember_catalog` ties a
catalog to an answer for as long as the answer lives, so its display uses it.
"""

from __future__ import annotations

import functools
import json
import weakref
from typing import TYPE_CHECKING, Any

from baton.catalog.model import Catalog
from baton.contracts.answer import Answer
from baton.errors import InvalidInput
from baton.messages import both
from baton.notebook import display, frames

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]
    import polars
    import pyarrow  # type: ignore[import-untyped]

REPORT_FORMATS = ("html", "md")
MAX_SCALE = 8.0
"""The largest PNG scale: a 640-pixel chart at 8× is already about 5,000 pixels wide."""
_catalogs: dict[int, Catalog] = {}


def remember_catalog(answer: Answer, catalog: Catalog) -> None:
    """Label ``answer``'s display with ``catalog`` (kept until the answer is garbage-collected)."""
    key = id(answer)
    if key not in _catalogs:
        weakref.finalize(answer, _catalogs.pop, key, None)
    _catalogs[key] = catalog


def catalog_for(answer: Answer, catalog: object | None = None) -> Catalog | None:
    """The catalog given, else the one remembered for ``answer``, else none."""
    if isinstance(catalog, Catalog):
        return catalog
    return _catalogs.get(id(answer))


@functools.lru_cache(maxsize=32)
def _png(spec_json: str, scale: float) -> bytes:
    from baton.charts import render_png

    return render_png(json.loads(spec_json), scale=scale)


def render_chart_png(spec: dict[str, Any], scale: float) -> bytes:
    """The spec drawn as PNG, cached: a notebook asks for HTML and Markdown of every output."""
    return _png(json.dumps(spec, sort_keys=True, ensure_ascii=False), scale)


class NotebookPresenter:
    """Implements :class:`~baton.contracts.answer.AnswerPresenter`."""

    def html(self, answer: Answer, catalog: object | None = None) -> str:
        chart = display.chart_for(answer, render_chart_png, display.CHART_SCALE)
        return display.render_html(answer, catalog_for(answer, catalog), chart)

    def markdown(self, answer: Answer, catalog: object | None = None) -> str:
        chart = display.chart_for(answer, render_chart_png, display.CHART_SCALE)
        return display.render_markdown(answer, catalog_for(answer, catalog), chart)

    def report(self, answer: Answer, format: str, catalog: object | None = None) -> str:
        """The HTML page or the Markdown report (its chart linked as ``baton-chart-<run id>.png``,
        the name ``baton ask --format md`` writes: save :meth:`chart_png` under it)."""
        fmt = {"markdown": "md", "htm": "html"}.get(format.strip().lower(), format.strip().lower())
        if fmt not in REPORT_FORMATS:
            raise InvalidInput(*both("notebook.bad_format", formats=", ".join(REPORT_FORMATS), raw=format))
        known = catalog_for(answer, catalog)
        if fmt == "html":
            from baton.report import render_html

            return render_html(answer, catalog=known)
        from baton.report import render_markdown

        image = f"baton-chart-{answer.run_id}.png" if answer.chart is not None else None
        return render_markdown(answer, catalog=known, image=image)

    def chart_png(self, answer: Answer, scale: float) -> bytes:
        if answer.chart is None:
            raise InvalidInput(*both("notebook.no_chart"), code="no_chart")
        if isinstance(scale, bool) or not isinstance(scale, int | float) or not 0 < scale <= MAX_SCALE:
            raise InvalidInput(*both("notebook.bad_scale", raw=scale))
        return render_chart_png(answer.chart, float(scale))

    def to_pandas(self, answer: Answer) -> pandas.DataFrame:
        return frames.to_pandas(answer)

    def to_arrow(self, answer: Answer) -> pyarrow.Table:
        return frames.to_arrow(answer)

    def to_polars(self, answer: Answer) -> polars.DataFrame:
        return frames.to_polars(answer)


PRESENTER = NotebookPresenter()
