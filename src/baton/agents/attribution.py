"""Attribution for the insight agent: each member's part in the metric's change, and its test.

Per member and factor of the metric tree (from one drill-down's rows):

* ``change`` — what the member contributed to the metric's change *beyond what the rest of
  the data did* (metric units): LMDI weight × excess log change for products and sums,
  w̄·L(r)·excess for a ratio's rate, the shift-share mix effect for its weights. A change
  everybody shared (a promotion, the calendar) is nobody's driver.
* the test — Welch on the daily member/rest values, current vs comparison; ``ci`` is the 95 %
  delta-method interval of their relative change; Benjamini–Hochberg across all drill-downs.

Drivers are the significant ones (q ≤ 0.05; when the headline change is significant, in its
direction), a pair replacing a single member when it carries ≥ 80 % of that member's effect,
ranked by |change|.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from baton.catalog.analysis_queries import CURRENT, PREVIOUS, Factor, MetricTree
from baton.errors import InsufficientData, StatsInputError
from baton.stats import SuffStats, benjamini_hochberg, ratio_mix_rate, welch_t_test

Q_LEVEL = 0.05
SPECIFIC_SHARE = 0.8
MIN_DAYS = 3
MATERIAL_SHARE = 0.1
"""A driver carries at least this share of the top driver's change."""

Totals = dict[str, dict[str, float]]
"""period ("current" / "previous") -> component -> total."""


@dataclass
class Candidate:
    members: dict[str, str]
    factor: str
    change: float
    full: float
    factor_change: float | None
    p_value: float
    ci: tuple[float, float]
    evidence_id: str
    q_value: float = 1.0
    significant: bool = False
    subsumed_by: str | None = None
    excess_relative_change: float = 0.0
    role: str = "factor"

    @property
    def key(self) -> str:
        return " × ".join(f"{d}={m}" for d, m in self.members.items()) + f" · {self.factor}"


def _logmean(a: float, b: float) -> float:
    if a <= 0 or b <= 0:
        return (a + b) / 2.0
    return a if a == b else (a - b) / (math.log(a) - math.log(b))


def _ratio(num: float, den: float | None) -> float | None:
    if den is None:
        return num
    return num / den if den else None


def _log_change(before: float | None, after: float | None) -> float | None:
    if before is None or after is None or before <= 0 or after <= 0:
        return None
    return math.log(after / before)


def _suff(row: dict[str, Any], i: int) -> SuffStats | None:
    n = int(row.get(f"n{i}") or 0)
    if n < MIN_DAYS:
        return None
    return SuffStats(
        n=n,
        total=float(row.get(f"s{i}") or 0.0),
        sum_sq=max(0.0, float(row.get(f"ss{i}") or 0.0)),
        shift=float(row.get(f"k{i}") or 0.0),
    )


def tree_value(tree: MetricTree, comps: dict[str, float]) -> float:
    """The metric itself from component totals."""
    v = _ratio(comps.get(tree.value.num, 0.0), comps.get(tree.value.den, 0.0) if tree.value.den else None)
    return v if v is not None else 0.0


def factor_value(f: Factor, comps: dict[str, float]) -> float | None:
    return _ratio(comps.get(f.num, 0.0), comps.get(f.den, 0.0) if f.den else None)


def _mix_effects(tree: MetricTree, by_member: dict[tuple[str, ...], dict[str, dict[str, Any]]]) -> dict[Any, float]:
    """For a ratio, each member's shift-share mix effect (weight moving between members)."""
    if tree.kind != "ratio":
        return {}
    num, den = tree.value.num, tree.value.den or ""
    pairs = {
        w: {k: (float(m[w][num] or 0.0), float(m[w][den] or 0.0)) for k, m in by_member.items() if w in m}
        for w in (PREVIOUS, CURRENT)
    }
    try:
        decomposition = ratio_mix_rate(pairs[PREVIOUS], pairs[CURRENT])
    except (InsufficientData, StatsInputError):
        return {}
    return {e.member: e.mix_effect for e in decomposition.members}


@dataclass(frozen=True)
class _Member:
    """One member's component totals in both periods, and the rest of the data's."""

    key: tuple[str, ...]
    rows: dict[str, dict[str, Any]]
    before: dict[str, float]
    after: dict[str, float]
    rest_before: dict[str, float]
    rest_after: dict[str, float]


def _change(
    tree: MetricTree, f: Factor, m: _Member, totals: Totals, mix: dict[Any, float]
) -> tuple[float, float, float | None] | None:
    """(specific change, full change, own log change) of factor ``f`` for member ``m``."""
    f0, f1 = factor_value(f, m.before), factor_value(f, m.after)
    own = _log_change(f0, f1)
    if f.role == "mix":
        return (mix[m.key], mix[m.key], own) if m.key in mix else None
    rest = _log_change(factor_value(f, m.rest_before), factor_value(f, m.rest_after))
    if own is None or rest is None:
        return None
    if tree.kind == "ratio":
        den = f.den or ""
        w0 = m.before[den] / totals[PREVIOUS][den] if totals[PREVIOUS][den] else 0.0
        w1 = m.after[den] / totals[CURRENT][den] if totals[CURRENT][den] else 0.0
        weight = (w0 + w1) / 2.0 * _logmean(f0 or 0.0, f1 or 0.0)
    else:
        weight = _logmean(tree_value(tree, m.before), tree_value(tree, m.after))
    return weight * (own - rest), weight * own, own


def _members(
    tree: MetricTree, dims: tuple[str, ...], rows: list[dict[str, Any]]
) -> tuple[list[_Member], Totals, dict[tuple[str, ...], dict[str, dict[str, Any]]]]:
    by_member: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_member.setdefault(tuple(str(row[d]) for d in dims), {})[str(row["which"])] = row
    totals = {
        w: {c: sum(float(m[w][c] or 0.0) for m in by_member.values() if w in m) for c in tree.components}
        for w in (PREVIOUS, CURRENT)
    }
    members: list[_Member] = []
    for key, periods in by_member.items():
        if PREVIOUS not in periods or CURRENT not in periods:
            continue
        before = {c: float(periods[PREVIOUS][c] or 0.0) for c in tree.components}
        after = {c: float(periods[CURRENT][c] or 0.0) for c in tree.components}
        members.append(
            _Member(
                key,
                periods,
                before,
                after,
                {c: totals[PREVIOUS][c] - before[c] for c in tree.components},
                {c: totals[CURRENT][c] - after[c] for c in tree.components},
            )
        )
    return members, totals, by_member


def candidates_for(
    tree: MetricTree, dims: tuple[str, ...], rows: list[dict[str, Any]], evidence_id: str
) -> tuple[list[Candidate], Totals]:
    """Every (member, factor) of one drill-down with its specific change and its test."""
    members, totals, by_member = _members(tree, dims, rows)
    mix = _mix_effects(tree, by_member)
    out: list[Candidate] = []
    for m in members:
        for i, f in enumerate(tree.factors):
            a, b = _suff(m.rows[PREVIOUS], i), _suff(m.rows[CURRENT], i)
            changed = _change(tree, f, m, totals, mix)
            if a is None or b is None or changed is None:
                continue
            try:
                test = welch_t_test(a, b)
            except (InsufficientData, StatsInputError):
                continue
            ci = test.relative_ci if test.relative_ci is not None else (math.nan, math.nan)
            if test.relative_change is None or not all(map(math.isfinite, ci)):
                continue
            change, full, own = changed
            out.append(
                Candidate(
                    members=dict(zip(dims, m.key, strict=True)),
                    factor=f.name,
                    change=change,
                    full=full,
                    factor_change=(math.exp(own) - 1.0) if own is not None else None,
                    p_value=float(test.p_value if test.p_value is not None else 1.0),
                    ci=(float(ci[0]), float(ci[1])),
                    evidence_id=evidence_id,
                    excess_relative_change=test.relative_change,
                    role=f.role,
                )
            )
    return out, totals


def select_drivers(cands: list[Candidate], total_change: float, headline_significant: bool) -> list[Candidate]:
    """BH across every candidate, the significance rule, pair-over-single specificity, ranking."""
    if not cands:
        return []
    qs = benjamini_hochberg([c.p_value for c in cands])
    for c, q in zip(cands, qs, strict=True):
        c.q_value = q
        same_way = total_change == 0 or not headline_significant or (c.change > 0) == (total_change > 0)
        c.significant = q <= Q_LEVEL and same_way and c.change != 0
    sig = [c for c in cands if c.significant]
    _prefer_pairs(sig)
    ranked = sorted((c for c in sig if c.subsumed_by is None), key=lambda c: (-abs(c.change), len(c.members), c.key))
    drivers: list[Candidate] = []
    for c in ranked:
        # a slice overlapping a stronger driver (one member of a stronger pair) mostly echoes it
        echo = next((d for d in drivers if set(d.members.items()) & set(c.members.items())), None)
        if echo is not None:
            c.subsumed_by = echo.key
            continue
        drivers.append(c)
    if drivers:
        floor = MATERIAL_SHARE * abs(drivers[0].change)
        drivers = [c for c in drivers if abs(c.change) >= floor]
    return drivers


def _prefer_pairs(sig: list[Candidate]) -> None:
    """A single member is subsumed by a pair that carries most of its change in the same factor."""
    pairs = [c for c in sig if len(c.members) == 2]
    for single in (c for c in sig if len(c.members) == 1):
        ((dim, member),) = single.members.items()
        for pair in pairs:
            if (
                pair.factor == single.factor
                and pair.members.get(dim) == member
                and (pair.change > 0) == (single.change > 0)
                and abs(pair.change) >= SPECIFIC_SHARE * abs(single.change)
            ):
                single.subsumed_by = pair.key
                break
