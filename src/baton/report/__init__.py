"""Reports of an Answer: Markdown (with a PNG beside it) and one self-contained HTML page.

Both are built from the same :class:`~baton.report.content.ReportContent` so they say the
same things in the same order; files are written atomically.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baton.lazy import lazy_attributes

if TYPE_CHECKING:
    from baton.report.content import KeyFigure, ReportContent, build_content, key_figures
    from baton.report.files import atomic_write_bytes, atomic_write_text, write_chart_png
    from baton.report.html import render_html, vendor_size, write_html_report
    from baton.report.markdown import render_markdown, write_markdown_report

_WHERE: dict[str, str] = {
    **dict.fromkeys(("KeyFigure", "ReportContent", "build_content", "key_figures"), "baton.report.content"),
    **dict.fromkeys(("atomic_write_bytes", "atomic_write_text", "write_chart_png"), "baton.report.files"),
    **dict.fromkeys(("render_html", "vendor_size", "write_html_report"), "baton.report.html"),
    **dict.fromkeys(("render_markdown", "write_markdown_report"), "baton.report.markdown"),
}


# lazy attributes (PEP 562): ``--json`` output never loads the HTML or PNG writers
__getattr__ = lazy_attributes(__name__, _WHERE)


__all__ = [
    "KeyFigure",
    "ReportContent",
    "atomic_write_bytes",
    "atomic_write_text",
    "build_content",
    "key_figures",
    "render_html",
    "render_markdown",
    "vendor_size",
    "write_chart_png",
    "write_html_report",
    "write_markdown_report",
]
