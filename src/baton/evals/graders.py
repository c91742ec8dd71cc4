"""Graders: an answered case passes when its rows equal the gold SQL's rows.

Grading is by execution result, never by SQL string: two different queries that return
the same numbers are both right (the comparison is :mod:`baton.warehouse.compare`).
"""

from __future__ import annotations

from baton.warehouse.compare import canonical_cell, canonical_rows, results_match

__all__ = ["canonical_cell", "canonical_rows", "results_match"]
