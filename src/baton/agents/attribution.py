"""Attribution for the insight agent: each member's part in the metric's change, and its tests.

Per member and factor of the metric tree (from one drill-down's rows, incomplete days left
out, sums put on the current period's length):

* ``change`` — the member's *contribution*: for a sum (a product tree V = Π xₖ, or a metric
  that is its own single factor), LMDI-I at member level, ``L(Vᵢ₁, Vᵢ₀)·ln(xᵢₖ₁/xᵢₖ₀)``; for a
  ratio Σn/Σd, the symmetric shift-share split into the within-member rate effect
  ``w̄ᵢ·Δrᵢ`` and the between-member mix effect ``Δwᵢ·(r̄ᵢ − r̄)``. Contributions of all members
  and factors of a dimension add up to the total change; a member that did not change
  contributes about nothing, whatever the rest did.
* two tests on daily values — the member's *own* change (its factor, or its weight for a mix
  factor), which an effect elsewhere cannot move, and its change *relative to the rest*, which
  a change everybody shared (a promotion, the calendar) cannot move. A driver needs both
  (intersection–union: p = max of the two), in the direction of its contribution; BH across
  every candidate of every drill-down.

Which candidates are drivers: :mod:`baton.agents.driver_selection`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from baton.catalog.analysis_queries import ACTIVE_DAYS, CURRENT, PREVIOUS, Factor, MetricTree
from baton.errors import InsufficientData, StatsInputError
from baton.stats import SuffStats, change_test, rate_change_against, ratio_mix_rate
from baton.stats.means import TwoSampleTResult
from baton.stats.proportions import Counts, RateChangeAgainstResult

Q_LEVEL = 0.01
"""BH q at or below which a member effect passed: strict, since a false driver is worse than none."""
PARENT_P = 0.05
"""A pair is tested only under a single member whose same factor changed at this nominal p."""
MIN_EVENTS_A_DAY = 1.0
"""A rate is tested against the rest only when the rest's numerator (refunds, orders) counts at
least this many a day in both periods …"""
MIN_EVENTS = 20
"""… and the member's at least this many in each period; a rate below either is tested on its counts."""
MIN_DAYS = 3

Totals = dict[str, dict[str, float]]
"""period ("current" / "previous") -> component -> total (on the current period's length)."""
Stance = Literal["driver", "offset", "contribution"]


@dataclass
class Candidate:
    members: dict[str, str]
    factor: str
    role: str
    change: float
    before: float | None
    after: float | None
    own_change: float | None
    own_ci: tuple[float, float]
    own_p: float
    excess: float | None
    rest_p: float
    evidence_id: str
    ratio: bool = False
    """The factor is a ratio (conversion, order value): its change can be composition."""
    p_value: float = 1.0
    q_value: float = 1.0
    significant: bool = False
    subsumed_by: str | None = None
    stance: Stance = "contribution"
    immaterial: bool = False
    """Passed its tests, but carries less than ``MIN_SHARE_OF_CHANGE`` of the whole change."""

    @property
    def key(self) -> str:
        return " × ".join(f"{d}={m}" for d, m in self.members.items()) + f" · {self.factor}"

    @property
    def consistent(self) -> bool:
        """Own change, change against the rest and contribution all point the same way."""
        if self.change == 0 or self.own_change is None:
            return False
        if self.role == "mix":
            return True
        same = (self.own_change > 0) == (self.change > 0)
        return same and self.excess is not None and (self.excess > 0) == (self.change > 0)


def _logmean(a: float, b: float) -> float:
    """The logarithmic mean; within rounding of each other (125.00000000000001 and 125.0, whose
    logs are equal) it is their mean, as the quotient would divide rounding error by zero."""
    if a <= 0 or b <= 0 or abs(a - b) <= 1e-9 * max(a, b):
        return (a + b) / 2.0
    return (a - b) / (math.log(a) - math.log(b))


def _ratio(num: float, den: float | None) -> float | None:
    if den is None:
        return num
    return num / den if den else None


def tree_value(tree: MetricTree, comps: dict[str, float]) -> float:
    """The metric itself from component totals."""
    v = _ratio(comps.get(tree.value.num, 0.0), comps.get(tree.value.den, 0.0) if tree.value.den else None)
    return v if v is not None else 0.0


def factor_value(f: Factor, comps: dict[str, float]) -> float | None:
    return _ratio(comps.get(f.num, 0.0), comps.get(f.den, 0.0) if f.den else None)


@dataclass(frozen=True)
class Member:
    """One member's rows and component totals in both periods."""

    key: tuple[str, ...]
    rows: dict[str, dict[str, Any]]
    before: dict[str, float]
    after: dict[str, float]


@dataclass(frozen=True)
class Drill:
    """One drill-down, read: its members, the totals, and every member × factor contribution."""

    dims: tuple[str, ...]
    members: list[Member]
    totals: Totals
    contributions: dict[tuple[tuple[str, ...], str], float]
    kept: dict[str, int]
    """Days each period keeps (incomplete ones left out): a member's days without rows are zeros."""


def read_drill(
    tree: MetricTree, dims: tuple[str, ...], rows: list[dict[str, Any]], kept: dict[str, int], days: int
) -> Drill:
    """Rows (member × period) -> members with totals on the current period's length (``days``;
    each period's sums scaled by days / its ``kept`` days), and every member's contribution."""
    scale = {w: days / kept[w] if kept[w] else 0.0 for w in (PREVIOUS, CURRENT)}
    by_member: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
    for row in rows:
        by_member.setdefault(tuple(str(row[d]) for d in dims), {})[str(row["which"])] = row
    members = []
    for key, periods in by_member.items():
        before, after = (dict.fromkeys(tree.components, 0.0) for _ in range(2))
        for which, comps in ((PREVIOUS, before), (CURRENT, after)):
            if which in periods:
                comps.update({c: float(periods[which][c] or 0.0) * scale[which] for c in tree.components})
        members.append(Member(key, periods, before, after))
    totals = {
        PREVIOUS: {c: math.fsum(m.before[c] for m in members) for c in tree.components},
        CURRENT: {c: math.fsum(m.after[c] for m in members) for c in tree.components},
    }
    return Drill(dims, members, totals, _contributions(tree, members), kept)


def _contributions(tree: MetricTree, members: list[Member]) -> dict[tuple[tuple[str, ...], str], float]:
    if tree.kind == "ratio":
        return _shift_share(tree, members)
    out: dict[tuple[tuple[str, ...], str], float] = {}
    for m in members:
        out.update(_member_lmdi(tree, m))
    return out


def _member_lmdi(tree: MetricTree, m: Member) -> dict[tuple[tuple[str, ...], str], float]:
    """LMDI-I of one member's change over the tree's factors (a member that appears or
    vanishes has no logarithm: its whole change goes to the first factor that is zero)."""
    v0, v1 = tree_value(tree, m.before), tree_value(tree, m.after)
    x0 = [factor_value(f, m.before) for f in tree.factors]
    x1 = [factor_value(f, m.after) for f in tree.factors]
    if all(a is not None and b is not None and a > 0 and b > 0 for a, b in zip(x0, x1, strict=True)):
        weight = _logmean(v1, v0)
        return {
            (m.key, f.name): weight * math.log(b / a)  # type: ignore[operator]
            for f, a, b in zip(tree.factors, x0, x1, strict=True)
        }
    gone = next((i for i, (a, b) in enumerate(zip(x0, x1, strict=True)) if not a or not b), 0)
    return {(m.key, f.name): (v1 - v0 if i == gone else 0.0) for i, f in enumerate(tree.factors)}


def _shift_share(tree: MetricTree, members: list[Member]) -> dict[tuple[tuple[str, ...], str], float]:
    num, den = tree.value.num, tree.value.den or ""
    rate, mix = tree.factors[0].name, tree.factors[1].name
    try:
        split = ratio_mix_rate(
            {m.key: (m.before[num], m.before[den]) for m in members if m.before[den] > 0},
            {m.key: (m.after[num], m.after[den]) for m in members if m.after[den] > 0},
        )
    except (InsufficientData, StatsInputError):
        return {}
    out: dict[tuple[tuple[str, ...], str], float] = {}
    for e in split.members:
        key = e.member if isinstance(e.member, tuple) else (str(e.member),)
        out[(key, rate)] = e.rate_effect
        out[(key, mix)] = e.mix_effect
    return out


def _suff(row: dict[str, Any] | None, y: str, days: int | None, zeros: int = 0) -> SuffStats | None:
    """The sufficient statistics of ``y`` in one period; with ``days`` (a summable value) the
    days the member had no rows count as zeros, so a member that went quiet shows it; ``zeros``:
    that many zeros added as they are (its share of the rest on days only the rest had rows)."""
    n = int(row.get(f"{y}_n") or 0) if row is not None else 0
    total = float(row.get(f"{y}_s") or 0.0) if row is not None else 0.0
    sum_sq = max(0.0, float(row.get(f"{y}_ss") or 0.0)) if row is not None else 0.0
    shift = float(row.get(f"{y}_k") or 0.0) if row is not None else 0.0
    missing = (days - n) if days is not None else zeros
    if missing > 0:  # zeros around the shift K: Σ(0 − K) and Σ(0 − K)²
        n, total, sum_sq = n + missing, total - missing * shift, sum_sq + missing * shift * shift
    return SuffStats(n=n, total=total, sum_sq=sum_sq, shift=shift) if n >= 1 else None


def period_test(
    m: Member, y: str, single_day: bool, days: dict[str, int] | None = None, zeros: dict[str, int] | None = None
) -> TwoSampleTResult | None:
    """The change of daily value ``y`` between the periods (None when too few days); ``days``
    (kept days per period) for a summable value, whose missing days are zeros; ``zeros`` (per
    period) zeros to add as they are."""
    a = _suff(m.rows.get(PREVIOUS), y, days[PREVIOUS] if days else None, (zeros or {}).get(PREVIOUS, 0))
    b = _suff(m.rows.get(CURRENT), y, days[CURRENT] if days else None, (zeros or {}).get(CURRENT, 0))
    if a is None or b is None or a.n < (2 if single_day else MIN_DAYS) or b.n < (1 if single_day else MIN_DAYS):
        return None
    try:
        test = change_test(a, b)
    except (InsufficientData, StatsInputError):
        return None
    return test if test.p_value is not None and math.isfinite(test.p_value) else None


def candidates_for(tree: MetricTree, drill: Drill, evidence_id: str, single_day: bool) -> list[Candidate]:
    """Every (member, factor) of one drill-down with its contribution and its two tests; a
    ratio's mix is one candidate per single dimension (see :func:`_mix_candidate`)."""
    out: list[Candidate] = []
    active = _active_days(drill)
    for m in drill.members:
        for i, f in enumerate(tree.factors):
            if f.role == "mix":
                continue
            change = drill.contributions.get((m.key, f.name))
            days = drill.kept if f.den is None else None  # a sum: days without rows are zeros
            own = period_test(m, f"o{i}", single_day, days)
            if change is None or own is None or own.relative_change is None:
                continue
            # against the rest: a sum's share of the rest is 0 on the days only the rest had rows
            zeros = {w: max(0, active[w] - _member_days(m, w)) for w in active} if f.den is None else None
            sparse = too_few_events(drill, m, f)  # daily ratios mostly 0 or undefined: test the counts instead
            rest = counted_against_rest(drill, m, f) if sparse else period_test(m, f"r{i}", single_day, zeros=zeros)
            out.append(_candidate(drill, m, f, change, own, rest, evidence_id))
    mix = next((i for i, f in enumerate(tree.factors) if f.role == "mix"), None)
    if mix is not None and len(drill.dims) == 1:
        found = _mix_candidate(tree, drill, mix, evidence_id, single_day)
        if found is not None:
            out.append(found)
    return out


def too_few_events(drill: Drill, m: Member, f: Factor) -> bool:
    """Whether a rate is too sparse for a test of its daily ratio to the rest: the rest's numerator
    counts under :data:`MIN_EVENTS_A_DAY` a day (the ratio divides by a rate mostly 0: a region's
    returning users' 0.6 refunds a day gave new users "+114 % against the rest" for a rise shared
    evenly), or the member's under :data:`MIN_EVENTS` in a period (5 refunds in a quarter, then 32:
    daily rates of 0 or 100 %). Such a rate is tested on its counts (:func:`counted_against_rest`)."""
    if f.den is None:
        return False
    days = max(drill.kept.get(CURRENT, 0), 1)
    member, rest = _member_and_rest(drill, m, f)
    return any(r / days < MIN_EVENTS_A_DAY or own < MIN_EVENTS for (own, _), (r, _) in zip(member, rest, strict=True))


def counted_against_rest(drill: Drill, m: Member, f: Factor) -> RateChangeAgainstResult | None:
    """The member's rate change against the rest's from the periods' event counts (a Poisson
    rate-ratio interaction); ``None`` when a side has no events."""
    return counts_test(*_member_and_rest(drill, m, f))


def _member_and_rest(drill: Drill, m: Member, f: Factor) -> tuple[Counts, Counts]:
    """The member's (events, exposure) before and after, and the rest's (the totals less the member)."""
    return counts_of(f, [m.before], [m.after]), counts_of(f, [drill.totals[PREVIOUS]], [drill.totals[CURRENT]], m)


def counts_of(
    f: Factor, before: list[dict[str, float]], after: list[dict[str, float]], less: Member | None = None
) -> Counts:
    """(events, exposure) before and after, summed over ``before`` / ``after`` (less one member)."""

    def side(comps: list[dict[str, float]], own: dict[str, float] | None) -> tuple[float, float]:
        events = math.fsum(float(c.get(f.num) or 0.0) for c in comps) - float((own or {}).get(f.num) or 0.0)
        if f.den is None:
            return events, 1.0
        exposure = math.fsum(float(c.get(f.den) or 0.0) for c in comps) - float((own or {}).get(f.den) or 0.0)
        return events, exposure

    return side(before, less.before if less else None), side(after, less.after if less else None)


def counts_test(member: Counts, rest: Counts) -> RateChangeAgainstResult | None:
    try:
        return rate_change_against(member, rest)
    except (InsufficientData, StatsInputError):
        return None


def _active_days(drill: Drill) -> dict[str, int]:
    """Per period, the days on which any member of the drill-down had rows."""
    seen = [(w, row.get(ACTIVE_DAYS)) for m in drill.members for w, row in m.rows.items()]
    return {w: max((int(v) for x, v in seen if x == w and v is not None), default=0) for w in (PREVIOUS, CURRENT)}


def _member_days(m: Member, which: str) -> int:
    row = m.rows.get(which)
    return int(row.get("days") or 0) if row is not None else 0


def _candidate(
    drill: Drill,
    m: Member,
    f: Factor,
    change: float,
    own: TwoSampleTResult,
    rest: TwoSampleTResult | RateChangeAgainstResult | None,
    evidence_id: str,
) -> Candidate:
    assert own.relative_change is not None
    ci = own.relative_ci or (own.relative_change, own.relative_change)
    weight = f.role == "mix"
    return Candidate(
        members=dict(zip(drill.dims, m.key, strict=True)),
        factor=f.name,
        role=f.role,
        change=change,
        before=_weight(f, m.before, drill.totals[PREVIOUS]) if weight else factor_value(f, m.before),
        after=_weight(f, m.after, drill.totals[CURRENT]) if weight else factor_value(f, m.after),
        own_change=own.relative_change,
        own_ci=(float(ci[0]), float(ci[1])),
        own_p=float(own.p_value or 1.0),
        excess=rest.relative_change if rest is not None else None,
        rest_p=float(rest.p_value if rest.p_value is not None else 1.0) if rest is not None else 1.0,
        evidence_id=evidence_id,
        ratio=f.den is not None,
    )


def _mix_candidate(tree: MetricTree, drill: Drill, i: int, evidence_id: str, single_day: bool) -> Candidate | None:
    """A dimension's mix as one candidate: the shift of weight between its members is one
    change (what one member gains, others lose), so its contribution is the dimension's whole
    mix effect, named by the member whose weight moved most (a riser on ties), and tested by
    that member's daily weight."""
    f = tree.factors[i]
    total = drill.totals
    moved = {
        m.key: (_weight(f, m.after, total[CURRENT]) or 0.0) - (_weight(f, m.before, total[PREVIOUS]) or 0.0)
        for m in drill.members
    }
    if not moved:
        return None
    key = max(moved, key=lambda k: (round(abs(moved[k]), 12), moved[k] > 0))
    member = next(m for m in drill.members if m.key == key)
    own = period_test(member, f"o{i}", single_day, drill.kept)  # a weight is zero on days without rows
    if own is None or own.relative_change is None:
        return None
    change = math.fsum(v for (_, factor), v in drill.contributions.items() if factor == f.name)
    return _candidate(drill, member, f, change, own, None, evidence_id)


def _weight(f: Factor, comps: dict[str, float], totals: dict[str, float]) -> float | None:
    return comps[f.num] / totals[f.num] if totals.get(f.num) else None


def dimension_split(drill: Drill, tree: MetricTree) -> tuple[float, float] | None:
    """(within-member rate effect, between-member mix effect) of a ratio tree on one dimension."""
    if tree.kind != "ratio" or len(tree.factors) != 2:
        return None
    rate, mix = tree.factors[0].name, tree.factors[1].name
    within = math.fsum(v for (_, f), v in drill.contributions.items() if f == rate)
    between = math.fsum(v for (_, f), v in drill.contributions.items() if f == mix)
    return within, between
