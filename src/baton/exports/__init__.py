"""Governed exports: a stored run's result as a csv, xlsx or parquet file, previewed under
today's policy and written only when approved (:mod:`baton.exports.service`; docs/exports.md).

Each export is a run of kind ``export`` (``baton runs list/trace`` show it to its owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from baton.lazy import lazy_attributes

if TYPE_CHECKING:
    from baton.exports.service import (
        EXPORT_TTL,
        approve_export,
        export_file,
        export_preview,
        export_result,
        parse_format,
        preview_export,
        request_export,
    )

_WHERE: dict[str, str] = dict.fromkeys(
    (
        "EXPORT_TTL",
        "approve_export",
        "export_file",
        "export_preview",
        "export_result",
        "parse_format",
        "preview_export",
        "request_export",
    ),
    "baton.exports.service",
)

# lazy attributes (PEP 562): importing the package loads neither the run driver nor the writers
__getattr__ = lazy_attributes(__name__, _WHERE)

__all__ = [
    "EXPORT_TTL",
    "approve_export",
    "export_file",
    "export_preview",
    "export_result",
    "parse_format",
    "preview_export",
    "request_export",
]
