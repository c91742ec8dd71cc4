"""Errors of the statistics layer: bad arguments vs. too little evidence to compute anything."""

from __future__ import annotations

from baton.errors import InsufficientEvidence, InvalidInput


class StatsInputError(InvalidInput):
    """The arguments are malformed (negative counts, x > n, mismatched lengths, NaN p-values)."""

    code = "invalid_input"


class InsufficientData(InsufficientEvidence):
    """The inputs are valid but carry too little information (n < 2, zero variance, zero totals)."""

    code = "insufficient_evidence"
