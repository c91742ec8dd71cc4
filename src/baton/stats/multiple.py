"""Multiple testing across drill-downs: Benjamini–Hochberg false-discovery-rate control."""

from __future__ import annotations

import math
from collections.abc import Sequence

from baton.errors import StatsInputError
from baton.messages import both


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """BH adjusted q-values in input order: ``q_(i) = min_{j ≥ i} m·p_(j)/j``, monotone and capped at 1."""
    ps = [float(p) for p in p_values]
    for p in ps:
        if math.isnan(p) or p < 0.0 or p > 1.0:
            raise StatsInputError(*both("stats.p_range", p=p))
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    q = [0.0] * m
    running = 1.0
    for rank in range(m, 0, -1):
        i = order[rank - 1]
        running = min(running, ps[i] * (m / rank))  # m/rank ≥ 1 exactly, so q ≥ p survives rounding
        q[i] = running
    return q


def bh_significant(p_values: Sequence[float], q: float = 0.05) -> list[bool]:
    """Which hypotheses the BH step-up procedure rejects at FDR level ``q`` (in input order)."""
    if not 0.0 < q < 1.0:
        raise StatsInputError(*both("stats.q_range", q=q))
    return [qv <= q for qv in benjamini_hochberg(p_values)]
