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

Selection: significant candidates, a pair replacing a single member when it carries ≥ 80 % of
that member's contribution, a ratio factor's change that is only composition inside a member
(its pairs' own changes add to under half of it) left to the mix, one driver per overlapping
slice and factor, material ones only (≥ 10 % of the largest). A driver against the direction
of a significant change is an *offset*; when the change is not significant every driver is a
*contribution*, not a reason.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from baton.catalog.analysis_queries import ACTIVE_DAYS, CURRENT, PREVIOUS, Factor, MetricTree
from baton.errors import InsufficientData, StatsInputError
from baton.stats import SuffStats, benjamini_hochberg, change_test, rate_change_against, ratio_mix_rate
from baton.stats.means import TwoSampleTResult
from baton.stats.proportions import Counts, RateChangeAgainstResult

Q_LEVEL = 0.01
"""BH q at or below which a member effect passed: strict, since a false driver is worse than none."""
PARENT_P = 0.05
"""A pair is tested only under a single member whose same factor changed at this nominal p."""
SPECIFIC_SHARE = 0.8
COMPOSITION_SHARE = 0.5
SPREAD_CELLS = 3
"""A member whose change runs the same way in at least this many cells of another dimension (none of
them significant alone) holds an effect spread thinly: it is kept, not left to the mix as noise."""
SPREAD_AGAINST = 0.1
"""…and the cells that moved against it carry under this share of those that moved with it."""
MIN_EVENTS_A_DAY = 1.0
"""A rate is tested against the rest only when the rest's numerator (refunds, orders) counts at
least this many a day in both periods …"""
MIN_EVENTS = 20
"""… and the member's at least this many in each period; a rate below either is tested on its counts."""
ECHO_Z = 2.576
"""|z| (two-sided 1 %, as :data:`Q_LEVEL`) by which a member, outside a larger driver's members,
must still move apart from the rest not to be that driver's echo through its mix."""
MATERIAL_SHARE = 0.1
"""A driver carries at least this share of the largest driver's contribution."""
MIN_SHARE_OF_CHANGE = 0.05
"""And at least this share of the whole change: a mix shift worth 0.2 % of a refund rate that rose
in every user type is no driver of it, however sure its test (the change happened inside every
member; the metric tree says so)."""
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
    for which, comps in ((PREVIOUS, m.before), (CURRENT, m.after)):
        own = float(comps.get(f.num) or 0.0)
        rest = float(drill.totals[which].get(f.num) or 0.0) - own
        if rest / days < MIN_EVENTS_A_DAY or own < MIN_EVENTS:
            return True
    return False


def counted_against_rest(drill: Drill, m: Member, f: Factor) -> RateChangeAgainstResult | None:
    """The member's rate change against the rest's from the periods' event counts (a Poisson
    rate-ratio interaction); ``None`` when a side has no events."""
    return _counts_test(
        _counts(f, [m.before], [m.after]), _counts(f, [drill.totals[PREVIOUS]], [drill.totals[CURRENT]], m)
    )


def _counts(
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


def _counts_test(member: Counts, rest: Counts) -> RateChangeAgainstResult | None:
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


def select_drivers(
    cands: list[Candidate],
    drills: list[Drill],
    total_change: float,
    headline_significant: bool,
    tree_factors: frozenset[str] = frozenset(),
    mix_factors: dict[str, str] | None = None,
    factors: Mapping[str, Factor] | None = None,
) -> list[Candidate]:
    """BH across every candidate, the significance rule, specificity, materiality, stance.

    ``tree_factors`` are the factors of the metric's full tree: a factor outside it comes from
    a coarser fallback tree (used where a factor cannot follow a dimension) and lumps several
    factors together, so it echoes any stronger driver it overlaps, whatever that one's factor.
    ``mix_factors`` maps a ratio's mix factor to its denominator component; ``factors`` are the full
    tree's factors by name (their counts tell an echo through a larger driver's mix)."""
    if not cands:
        return []
    for c in cands:
        # a weight is relative to the whole already: a mix is judged by its one test
        c.p_value = c.own_p if c.role == "mix" else max(c.own_p, c.rest_p)
    tested = _hierarchy(cands)
    for c, q in zip(tested, benjamini_hochberg([c.p_value for c in tested]), strict=True):
        c.q_value = q
        c.significant = q <= Q_LEVEL and c.consistent
    sig = [c for c in cands if c.significant]
    _prefer_pairs(sig)
    _leave_composition_to_mix(sig, drills, cands)
    _echoes_through_mix(sig, drills, factors or {})
    _mix_explained_elsewhere(sig, drills, mix_factors or {})
    drivers = _one_per_slice(sig, tree_factors)
    if total_change:
        for c in drivers:
            c.immaterial = abs(c.change) < MIN_SHARE_OF_CHANGE * abs(total_change)
        drivers = [c for c in drivers if not c.immaterial]
    if drivers:
        floor = MATERIAL_SHARE * abs(drivers[0].change)
        drivers = [c for c in drivers if abs(c.change) >= floor]
    for c in drivers:
        with_change = total_change == 0 or (c.change > 0) == (total_change > 0)
        c.stance = ("driver" if with_change else "offset") if headline_significant else "contribution"
    return sorted(drivers, key=lambda c: (total_change != 0 and (c.change > 0) != (total_change > 0), -abs(c.change)))


def _one_per_slice(sig: list[Candidate], tree_factors: frozenset[str]) -> list[Candidate]:
    """One driver per overlapping slice and factor, the largest first; the rest are its echoes.

    A pair that stood in for a single member (:func:`_prefer_pairs`) and is then itself the echo
    of a larger driver over its other member gives that single back: otherwise the single's change
    would be said to sit in a pair no driver names, and its own cells (each an echo of it) would
    be left to stand for it. The selection is redone until no stand-in is lost."""
    preferred = {c.key: c.subsumed_by for c in sig if len(c.members) == 1 and c.subsumed_by in {p.key for p in sig}}
    while True:
        ranked = sorted(
            (c for c in sig if c.subsumed_by is None), key=lambda c: (-abs(c.change), len(c.members), c.key)
        )
        drivers: list[Candidate] = []
        echoed: set[str] = set()
        for c in ranked:
            lumped = bool(tree_factors) and c.factor not in tree_factors
            echo = next(
                (
                    d
                    for d in drivers
                    if (d.factor == c.factor or lumped) and set(d.members.items()) & set(c.members.items())
                ),
                None,
            )
            if echo is not None:
                c.subsumed_by = echo.key
                echoed.add(c.key)
                continue
            drivers.append(c)
        lost = [c for c in sig if preferred.get(c.key) in echoed]
        if not lost:
            return drivers
        for c in sig:  # redo: the echoes of this round are judged again, with the singles given back
            if c.key in echoed:
                c.subsumed_by = None
        for c in lost:
            del preferred[c.key]
            c.subsumed_by = None


def _hierarchy(cands: list[Candidate]) -> list[Candidate]:
    """The candidates that are tested: every single member, and a pair only under a single
    member of it whose same factor shows a change, on its own or against the rest (nominal
    p ≤ PARENT_P: a slice falling against a rising tide shows only the second) — hierarchical
    testing, so the many pairs do not drown the singles nor add false drivers of their own."""
    parents = {
        (next(iter(c.members.items())), c.factor)
        for c in cands
        if len(c.members) == 1 and min(c.own_p, c.rest_p) <= PARENT_P
    }
    return [c for c in cands if len(c.members) == 1 or any((item, c.factor) in parents for item in c.members.items())]


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
                and _carried(pair, single) >= SPECIFIC_SHARE
            ):
                single.subsumed_by = pair.key
                break


def _carried(pair: Candidate, single: Candidate) -> float:
    """The share of ``single``'s change that ``pair`` carries: of its contribution, or, for a
    summed factor (a count of events or of people), of the factor itself where that is more — a
    sum adds up over the pair's cells, while the single's contribution also carries the shift of
    weight between its cells (traffic gained in a cell of lower value per unit lifts the single's
    traffic effect and lowers its value effect by about as much)."""
    share = pair.change / single.change if single.change else 0.0
    p0, p1, s0, s1 = pair.before, pair.after, single.before, single.after
    if single.ratio or single.role != "factor" or p0 is None or p1 is None or s0 is None or s1 is None or s1 == s0:
        return share
    return max(share, (p1 - p0) / (s1 - s0))


def _leave_composition_to_mix(sig: list[Candidate], drills: list[Drill], cands: list[Candidate]) -> None:
    """A single member's change in a ratio factor is kept only when its own cells (pairs with
    another dimension whose tree has the factor) show it: in every such dimension their
    contributions add to at least half of it, and in at least one some cell changed the same way
    (BH q ≤ PARENT_P) — or, none alone significant, in every such dimension its cells moved its way
    (:func:`_spread`: returning users converting less in every channel and region). Otherwise it
    is composition inside the member (Simpson) or noise."""
    for single in (c for c in sig if len(c.members) == 1 and c.ratio):
        ((dim, member),) = single.members.items()
        checked, shown, spread, composed_by = False, False, True, None
        for drill in drills:
            if len(drill.dims) != 2 or dim not in drill.dims:
                continue
            at = drill.dims.index(dim)
            inside = [v for (key, f), v in drill.contributions.items() if f == single.factor and key[at] == member]
            if not inside:
                continue
            checked = True
            if abs(math.fsum(inside)) < COMPOSITION_SHARE * abs(single.change):
                composed_by = composed_by or drill.dims[1 - at]
            # in every pairing the cells moved the member's way (none alone significant): an effect
            # spread thinly, not a mix inside the member (a pairing of fewer cells cannot tell)
            spread = spread and _spread(inside, single.change)
            shown = shown or any(
                c.q_value <= PARENT_P and (c.change > 0) == (single.change > 0)
                for c in cands
                if c.factor == single.factor and c.members.get(dim) == member and set(c.members) == set(drill.dims)
            )
        if composed_by is not None or (checked and not shown and not spread):
            single.subsumed_by = f"{dim}={member} · {single.factor} (composition)"


def _echoes_through_mix(sig: list[Candidate], drills: list[Drill], factors: Mapping[str, Factor]) -> None:
    """A member whose change sits in its cells with a larger driver of another dimension is that
    driver's echo through its mix: web's refund rate rose because a quarter of web's orders are
    appliances, whose refunds rose everywhere — outside appliances web moved with the rest. Kept
    only when, outside every such driver's members, it still moved apart from the rest (its event
    counts, |z| ≥ :data:`ECHO_Z`; app converting less beside new users converting less: both kept);
    a pair inside an echo (web × new users) is the same driver's echo. A single a pair stood in for
    is judged too (largest first), so a pair given back never brings back an echo."""
    echoes: dict[tuple[str, str, str], str] = {}
    pairs = {c.key for c in sig if len(c.members) == 2}
    held = [c for c in sig if len(c.members) == 1 and (c.subsumed_by is None or c.subsumed_by in pairs)]
    for single in sorted(held, key=lambda c: -abs(c.change)):
        ((dim, member),) = single.members.items()
        for drill in drills:
            if len(drill.dims) != 2 or dim not in drill.dims:
                continue
            at = drill.dims.index(dim)
            larger = _larger_of_the_other(sig, single, drill.dims[1 - at])
            cells = [(k, v) for (k, f), v in drill.contributions.items() if f == single.factor and k[at] == member]
            if not larger or not cells:
                continue
            if _echo(drill, at, member, single, larger, cells, factors.get(single.factor)):
                inside = [larger[key[1 - at]] for key, _ in cells if key[1 - at] in larger]
                single.subsumed_by = max(inside, key=lambda c: abs(c.change)).key
                echoes[(dim, member, single.factor)] = single.subsumed_by
                break
    for pair in (c for c in sig if len(c.members) == 2 and c.subsumed_by is None):
        inside_pair = [echoes.get((d, m, pair.factor)) for d, m in pair.members.items()]
        pair.subsumed_by = next((key for key in inside_pair if key is not None), None)


def _larger_of_the_other(sig: list[Candidate], single: Candidate, other: str) -> dict[str, Candidate]:
    """The standing singles of dimension ``other`` in ``single``'s factor and direction, larger than it."""
    return {
        c.members[other]: c
        for c in sig
        if set(c.members) == {other}
        and c.factor == single.factor
        and c.subsumed_by is None
        and (c.change > 0) == (single.change > 0)
        and abs(c.change) > abs(single.change)
    }


def _echo(
    drill: Drill,
    at: int,
    member: str,
    single: Candidate,
    larger: Mapping[str, Candidate],
    cells: list[tuple[tuple[str, ...], float]],
    factor: Factor | None,
) -> bool:
    """Whether ``single`` is the larger drivers' echo: outside their members it did not move apart
    from the rest (counts), or — with no counts to test — its cells there carry under half of it."""
    if factor is not None and single.excess is not None:
        outside = [m for m in drill.members if m.key[1 - at] not in larger]
        mine = [m for m in outside if m.key[at] == member]
        rest = [m for m in outside if m.key[at] != member]
        apart = _counts_test(
            _counts(factor, [m.before for m in mine], [m.after for m in mine]),
            _counts(factor, [m.before for m in rest], [m.after for m in rest]),
        )
        if apart is not None:
            return (apart.z > 0) != (single.excess > 0) or abs(apart.z) < ECHO_Z
    own = math.fsum(v for key, v in cells if key[1 - at] not in larger)
    return abs(own) < COMPOSITION_SHARE * abs(single.change) or (own > 0) != (single.change > 0)


def _spread(inside: list[float], change: float) -> bool:
    """At least :data:`SPREAD_CELLS` cells moved the way of ``change``, and those moving against
    it carry under a tenth as much (noise at the edges of an effect everywhere)."""
    along = [abs(v) for v in inside if (v > 0) == (change > 0) and v != 0]
    against = [abs(v) for v in inside if (v > 0) != (change > 0) and v != 0]
    return len(along) >= SPREAD_CELLS and math.fsum(against) < SPREAD_AGAINST * math.fsum(along)


def _mix_explained_elsewhere(sig: list[Candidate], drills: list[Drill], mix_factors: dict[str, str]) -> None:
    """A dimension's mix that is only the echo of another's: inside each member of the other
    dimension its weights did not move (under half of the marginal shift), e.g. channel shares
    shifting only because new users, who favour some channels, doubled everywhere."""
    for mix in (c for c in sig if c.role == "mix" and len(c.members) == 1):
        ((dim, member),) = mix.members.items()
        den = mix_factors.get(mix.factor)
        marginal = (mix.after or 0.0) - (mix.before or 0.0)
        for drill in drills:
            if den is None or len(drill.dims) != 2 or dim not in drill.dims or marginal == 0:
                continue
            inside = _conditional_shift(drill, dim, member, den)
            if inside is not None and abs(inside) < COMPOSITION_SHARE * abs(marginal):
                mix.subsumed_by = f"{dim} mix (explained by {drill.dims[1 - drill.dims.index(dim)]})"
                break


def _conditional_shift(drill: Drill, dim: str, member: str, den: str) -> float | None:
    """Σₓ w̄ₓ·Δw(member | x): how much ``member``'s weight moved inside the other dimension's members."""
    at = drill.dims.index(dim)
    by_other: dict[str, list[Member]] = {}
    for m in drill.members:
        by_other.setdefault(m.key[1 - at], []).append(m)
    total0, total1 = drill.totals[PREVIOUS].get(den, 0.0), drill.totals[CURRENT].get(den, 0.0)
    if not total0 or not total1:
        return None
    shift = 0.0
    for cells in by_other.values():
        d0, d1 = math.fsum(c.before[den] for c in cells), math.fsum(c.after[den] for c in cells)
        if not d0 or not d1:
            continue
        mine = [c for c in cells if c.key[at] == member]
        w0 = math.fsum(c.before[den] for c in mine) / d0
        w1 = math.fsum(c.after[den] for c in mine) / d1
        shift += (d0 / total0 + d1 / total1) / 2.0 * (w1 - w0)
    return shift


def dimension_split(drill: Drill, tree: MetricTree) -> tuple[float, float] | None:
    """(within-member rate effect, between-member mix effect) of a ratio tree on one dimension."""
    if tree.kind != "ratio" or len(tree.factors) != 2:
        return None
    rate, mix = tree.factors[0].name, tree.factors[1].name
    within = math.fsum(v for (_, f), v in drill.contributions.items() if f == rate)
    between = math.fsum(v for (_, f), v in drill.contributions.items() if f == mix)
    return within, between
