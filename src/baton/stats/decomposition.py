"""Where a change came from: additive contributions, mix vs rate for ratios, LMDI for metric trees.

Every decomposition here is exact: its parts add up to the total change (up to float rounding),
which the tests check property-by-property.

* Sums (revenue, orders): member ``i`` contributes ``Δ_i = after_i − before_i``; its share is ``Δ_i / ΣΔ``.
* Ratios ``r = Σnum / Σden`` (a conversion rate, a refund rate, an average order value): with weights ``w_i = den_i/Σden``
  and member rates ``r_i = num_i/den_i``, ``r = Σ w_i·r_i`` and the symmetric shift-share split is
  rate effect ``w̄_i·Δr_i`` and mix effect ``Δw_i·(r̄_i − r̄)``, bars being the two-period averages.
  Because ``ΣΔw_i = 0`` the ``r̄`` term sums to zero; it makes a member's mix effect positive when
  weight moves *towards* members whose rate is above the overall rate. A member absent in one
  period has no rate there; its whole effect is mix (its rate is taken as unchanged).
* Products ``V = Π x_k`` (the metric trees of the catalog, e.g. revenue = sessions × conversion × order value):
  LMDI-I, effect of factor ``k`` = ``L(V₁, V₀)·ln(x_k₁/x_k₀)`` with the logarithmic mean ``L``.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from baton.errors import InsufficientData, StatsInputError
from baton.messages import both

from ._result import to_jsonable

Member = Hashable  # a member name, or a tuple of names for a pair of dimensions
K = TypeVar("K", bound=Hashable)


def _share(part: float, total: float) -> float | None:
    return part / total if total != 0.0 else None


def _ordered_members(before: Mapping[K, Any], after: Mapping[K, Any]) -> list[K]:
    seen = dict.fromkeys(before)
    seen.update(dict.fromkeys(after))
    return list(seen)


class _ToDict:
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = to_jsonable(self)
        return out


# ---------------------------------------------------------------------------------------- sums
@dataclass(frozen=True)
class MemberContribution:
    member: Member
    before: float
    after: float
    change: float
    share_of_change: float | None
    relative_change: float | None


@dataclass(frozen=True)
class AdditiveDecomposition(_ToDict):
    method: str
    total_before: float
    total_after: float
    total_change: float
    members: tuple[MemberContribution, ...]  # ranked by |change|, largest first


def additive_contributions(before: Mapping[K, float], after: Mapping[K, float]) -> AdditiveDecomposition:
    """Each member's change of a summable metric and its share of the total change."""
    members = _ordered_members(before, after)
    rows = []
    for m in members:
        b, a = float(before.get(m, 0.0)), float(after.get(m, 0.0))
        if not (math.isfinite(a) and math.isfinite(b)):
            raise StatsInputError(*both("stats.member_not_finite", member=m))
        rows.append((m, b, a, a - b))
    t0 = math.fsum(r[1] for r in rows)
    t1 = math.fsum(r[2] for r in rows)
    total = math.fsum(r[3] for r in rows)
    out = tuple(
        MemberContribution(m, b, a, d, _share(d, total), (a / b - 1.0) if b != 0.0 else None) for m, b, a, d in rows
    )
    return AdditiveDecomposition(
        method="additive contribution (Δ per member, share of total Δ)",
        total_before=t0,
        total_after=t1,
        total_change=total,
        members=tuple(sorted(out, key=lambda c: -abs(c.change))),
    )


# -------------------------------------------------------------------------------------- ratios
@dataclass(frozen=True)
class RatioMemberEffect:
    member: Member
    weight_before: float
    weight_after: float
    rate_before: float | None
    rate_after: float | None
    rate_effect: float
    mix_effect: float
    total_effect: float
    share_of_change: float | None


@dataclass(frozen=True)
class RatioDecomposition(_ToDict):
    method: str
    ratio_before: float
    ratio_after: float
    total_change: float
    rate_effect: float
    mix_effect: float
    members: tuple[RatioMemberEffect, ...]  # ranked by |total_effect|, largest first


def _num_den(pair: tuple[float, float] | None, member: Member) -> tuple[float, float]:
    if pair is None:
        return 0.0, 0.0
    num, den = float(pair[0]), float(pair[1])
    if not (math.isfinite(num) and math.isfinite(den)) or den < 0.0:
        raise StatsInputError(
            *both("stats.member_ratio_parts", member=member),
        )
    if den == 0.0 and num != 0.0:
        raise StatsInputError(*both("stats.member_no_denominator", member=member))
    return num, den


def ratio_mix_rate(
    before: Mapping[K, tuple[float, float]], after: Mapping[K, tuple[float, float]]
) -> RatioDecomposition:
    """Split the change of ``Σnum/Σden`` into per-member rate and mix effects (symmetric shift-share)."""
    members = _ordered_members(before, after)
    pairs = [(m, _num_den(before.get(m), m), _num_den(after.get(m), m)) for m in members]
    d0 = math.fsum(p0[1] for _, p0, _ in pairs)
    d1 = math.fsum(p1[1] for _, _, p1 in pairs)
    if d0 <= 0.0 or d1 <= 0.0:
        raise InsufficientData(*both("stats.zero_denominator"))
    r0 = math.fsum(p0[0] for _, p0, _ in pairs) / d0
    r1 = math.fsum(p1[0] for _, _, p1 in pairs) / d1
    r_bar = (r0 + r1) / 2.0
    rows = []
    for m, (n0, den0), (n1, den1) in pairs:
        if den0 == 0.0 and den1 == 0.0:
            continue
        w0, w1 = den0 / d0, den1 / d1
        rate0 = n0 / den0 if den0 > 0 else None
        rate1 = n1 / den1 if den1 > 0 else None
        # A member absent in one period keeps its other-period rate: its effect is all mix.
        a0 = rate0 if rate0 is not None else n1 / den1
        a1 = rate1 if rate1 is not None else n0 / den0
        rate_eff = (w0 + w1) / 2.0 * (a1 - a0)
        mix_eff = (w1 - w0) * ((a0 + a1) / 2.0 - r_bar)
        rows.append((m, w0, w1, rate0, rate1, rate_eff, mix_eff))
    total = r1 - r0
    effects = tuple(
        RatioMemberEffect(m, w0, w1, q0, q1, re, me, re + me, _share(re + me, total))
        for m, w0, w1, q0, q1, re, me in rows
    )
    return RatioDecomposition(
        method="symmetric shift-share: rate = w̄·Δr_i, mix = Δw·(r̄_i − r̄)",
        ratio_before=r0,
        ratio_after=r1,
        total_change=total,
        rate_effect=math.fsum(e.rate_effect for e in effects),
        mix_effect=math.fsum(e.mix_effect for e in effects),
        members=tuple(sorted(effects, key=lambda e: -abs(e.total_effect))),
    )


# ------------------------------------------------------------------------------------ products
@dataclass(frozen=True)
class FactorEffect:
    factor: str
    before: float
    after: float
    log_change: float
    effect: float
    share_of_change: float | None


@dataclass(frozen=True)
class LmdiDecomposition(_ToDict):
    method: str
    value_before: float
    value_after: float
    total_change: float
    factors: tuple[FactorEffect, ...]  # in the order given


def lmdi(
    before: Mapping[str, float],
    after: Mapping[str, float],
    *,
    value_before: float | None = None,
    value_after: float | None = None,
) -> LmdiDecomposition:
    """LMDI-I attribution of ``ΔV`` for ``V = Π factors``; effects sum to ``value_after − value_before``.

    ``value_before``/``value_after`` default to the products of the factors; pass the observed
    totals (e.g. GMV) when the factors were derived from them, so the effects add up to them.
    """
    if list(before) != list(after):
        raise StatsInputError(
            *both("stats.same_factors"),
        )
    if not before:
        raise StatsInputError(*both("stats.no_factors"))
    for k in before:
        if not (before[k] > 0.0 and after[k] > 0.0 and math.isfinite(before[k]) and math.isfinite(after[k])):
            raise InsufficientData(
                *both("stats.factor_not_positive", factor=k),
            )
    v0 = math.prod(before.values()) if value_before is None else float(value_before)
    v1 = math.prod(after.values()) if value_after is None else float(value_after)
    logs = {k: math.log(after[k] / before[k]) for k in before}
    s = math.fsum(logs.values())
    total = v1 - v0
    # L(V1, V0) with ln(V1/V0) taken as Σ ln ratios, so that the effects add up to V1 − V0 exactly.
    weight = total / s if s != 0.0 else (v0 + v1) / 2.0
    effects = tuple(
        FactorEffect(k, float(before[k]), float(after[k]), lg, weight * lg, _share(weight * lg, total))
        for k, lg in logs.items()
    )
    return LmdiDecomposition(
        method="LMDI-I (logarithmic mean Divisia index), additive",
        value_before=v0,
        value_after=v1,
        total_change=total,
        factors=effects,
    )
