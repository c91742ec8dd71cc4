"""Which attribution candidates are drivers (:mod:`baton.agents.attribution` makes them and
their tests).

Selection: significant candidates, a pair replacing a single member when it carries ≥ 80 % of
that member's contribution, a ratio factor's change that is only composition inside a member
(its pairs' own changes add to under half of it) left to the mix, one driver per overlapping
slice and factor, material ones only (≥ 10 % of the largest). A driver against the direction
of a significant change is an *offset*; when the change is not significant every driver is a
*contribution*, not a reason. A member whose change is a larger driver's, through its mix, is
that driver's echo.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from baton.agents.attribution import (
    PARENT_P,
    Q_LEVEL,
    Candidate,
    Drill,
    Member,
    counts_of,
    counts_test,
)
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, Factor
from baton.stats import benjamini_hochberg

SPECIFIC_SHARE = 0.8
COMPOSITION_SHARE = 0.5
SPREAD_CELLS = 3
"""A member whose change runs the same way in at least this many cells of another dimension (none of
them significant alone) holds an effect spread thinly: it is kept, not left to the mix as noise."""
SPREAD_AGAINST = 0.1
"""…and the cells that moved against it carry under this share of those that moved with it."""
ECHO_Z = 2.576
"""|z| (two-sided 1 %, as :data:`Q_LEVEL`) by which a member, outside a larger driver's members,
must still move apart from the rest not to be that driver's echo through its mix."""
MATERIAL_SHARE = 0.1
"""A driver carries at least this share of the largest driver's contribution."""
MIN_SHARE_OF_CHANGE = 0.05
"""And at least this share of the whole change: a mix shift worth 0.2 % of a refund rate that rose
in every user type is no driver of it, however sure its test (the change happened inside every
member; the metric tree says so)."""


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
        apart = counts_test(
            counts_of(factor, [m.before for m in mine], [m.after for m in mine]),
            counts_of(factor, [m.before for m in rest], [m.after for m in rest]),
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
