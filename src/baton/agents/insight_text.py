"""What the insight agent says: driver sentences by stance and role, the rate-versus-mix split,
the metric tree, and excluded paths worded so they never contradict a driver.

Every number is a :class:`KeyNumber` placed by ``{num:key}``; q-values below 1e-6 are bounds.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from baton.agents.attribution import PARENT_P, Q_LEVEL, Candidate, dimension_split, factor_value, tree_value
from baton.agents.tools import P_FLOOR, change_unit, dimension_label, metric_label, number, p_number, scaled, unit_of
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, MetricTree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Driver, Finding
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import ExcludedPath, KeyNumber
from baton.errors import InsufficientData, StatsInputError
from baton.messages import text
from baton.numbers import format_probability
from baton.stats import FactorEffect, lmdi, ratio_mix_rate

if TYPE_CHECKING:
    from baton.agents.insight import Drilled

MIX_DOMINATES = 0.5
MATERIAL_FACTOR = 0.1


def members_text(catalog: Catalog, members: dict[str, str], lang: Language) -> str:
    """ "渠道 APP × 用户类型 新用户": each dimension and member by its catalog label."""
    return " × ".join(
        f"{dimension_label(catalog, d, lang)} {catalog.member_label(d, m, lang)}" for d, m in members.items()
    )


def q_text(q: float) -> str:
    """A q-value as the report states it — "= 0.0240", "= 0.000045", "< 0.000001" — never
    rounded to zero nor in scientific notation."""
    if math.isnan(q) or q < P_FLOOR:
        return f"< {P_FLOOR:.6f}"
    return "= " + format_probability(q)


def _level(catalog: Catalog, factor: str, value: float, key: str, label: str, ev: str, lang: Language) -> KeyNumber:
    unit, places = unit_of(catalog, factor, lang)
    return number(key, label, scaled(catalog, factor, value), unit, places, ev)


def driver_finding(
    catalog: Catalog, d: Driver, rank: int, lang: Language, per_day_total: float | None = None
) -> Finding:
    """The sentence a report states about driver ``rank``; every number a structured value.
    ``per_day_total``: the whole change its share is of, when that adds per-day distinct counts
    (a metric over buyers): stated, as the headline's change is another (the period's distinct count)."""
    k, ev = f"driver.{rank}", d.evidence_ids[0]
    own = d.factor_change or 0.0
    low, high = d.ci if d.ci is not None else (own, own)
    q_num, q_rel = p_number(f"{k}.q", "q (BH)", d.q_value if d.q_value is not None else 1.0, ev, "q")
    factor = metric_label(catalog, d.factor, lang)
    if d.factor in catalog.metrics and catalog.counted_per_day(d.factor):  # buyers summed over days: buyer-days
        factor = text("analysis.per_day_distinct", lang, label=factor)
    assert d.contribution is not None
    nums = [
        d.contribution,
        number(f"{k}.share", text("analysis.insight_share_label", lang), d.share_of_change * 100, "%", 1, ev),
        number(f"{k}.own", text("analysis.insight_factor_change_label", lang, factor=factor), own * 100, "%", 1, ev),
        number(f"{k}.ci_low", text("analysis.ci_low", lang), min(low, own) * 100, "%", 1, ev),
        number(f"{k}.ci_high", text("analysis.ci_high", lang), max(high, own) * 100, "%", 1, ev),
        q_num,
    ]
    if d.role == "mix":
        nums += [
            number(f"{k}.before", text("analysis.insight_weight_before", lang), (d.before or 0) * 100, "%", 1, ev),
            number(f"{k}.after", text("analysis.insight_weight_after", lang), (d.after or 0) * 100, "%", 1, ev),
        ]
        key = "analysis.insight_mix_driver"
    else:
        nums += [
            _level(catalog, d.factor, d.before or 0.0, f"{k}.before", text("analysis.insight_before", lang), ev, lang),
            _level(catalog, d.factor, d.after or 0.0, f"{k}.after", text("analysis.insight_after", lang), ev, lang),
            number(
                f"{k}.excess",
                text("analysis.insight_excess_label", lang),
                (d.excess_relative_change or 0.0) * 100,
                "%",
                1,
                ev,
            ),
        ]
        key = "analysis.insight_driver"
    beyond = text("analysis.insight_share_beyond", lang) if abs(d.share_of_change) > 1.0 else ""
    if per_day_total is not None and d.share_of_change:
        total = float(d.contribution.value) / d.share_of_change
        label = text("analysis.insight_per_day_total_label", lang)
        nums.append(number(f"{k}.basis_total", label, total, d.contribution.unit, d.contribution.precision, ev))
        beyond = text("analysis.insight_share_of_per_day", lang, k=k) + beyond
    return Finding(
        finding_id=f"insight-driver-{rank}",
        kind="driver",
        summary=text(
            key,
            lang,
            members=members_text(catalog, d.members, lang),
            dim=dimension_label(catalog, next(iter(d.members)), lang),  # a mix is of one dimension
            factor=factor,
            k=k,
            rel=q_rel,
            stance=text(f"analysis.insight_stance_{d.stance}", lang),
            beyond=beyond,
        ),
        confidence=0.9 if rank == 1 else 0.8,
        evidence_ids=(ev,),
        numbers=tuple(nums),
    )


def mix_finding(
    catalog: Catalog, query: SemanticQuery, drilled: Drilled, drivers: list[Driver], lang: Language
) -> Finding | None:
    """For a ratio metric: the change split, on the top driver's (first) dimension, into the rate
    within members and the mix between them — in words when the mix dominates. Without a driver,
    on the dimension of a significant but immaterial mix shift: the split shows why it is none."""
    small = next((c for c in drilled.cands if c.immaterial and len(c.members) == 1), None)
    if drivers:
        dim = next(iter(drivers[0].members))
    elif small is not None:
        dim = next(iter(small.members))
    else:
        return None
    drill = next((d for d in drilled.drills if d.dims == (dim,)), None)
    tree = drilled.trees.get((dim,))
    if drill is None or tree is None:
        return None
    split = dimension_split(drill, tree)
    if split is None:
        return None
    within, between = split
    metric = query.metrics[0]
    unit, places = unit_of(catalog, metric, lang)
    ev = drilled.evidence[0]
    nums = (
        number(
            "mix.within",
            text("analysis.insight_within_label", lang),
            scaled(catalog, metric, within),
            change_unit(unit, lang),
            places,
            ev,
        ),
        number(
            "mix.between",
            text("analysis.insight_between_label", lang),
            scaled(catalog, metric, between),
            change_unit(unit, lang),
            places,
            ev,
        ),
    )
    key = "analysis.insight_mix_dominates" if abs(between) > abs(within) else "analysis.insight_rate_dominates"
    return Finding(
        finding_id="insight-rate-mix",
        kind="metric_tree",
        summary=text(
            key,
            lang,
            dim=dimension_label(catalog, dim, lang),
            label=metric_label(catalog, metric, lang),
            weight=metric_label(catalog, tree.factors[1].name, lang),
        ),
        confidence=0.9,
        evidence_ids=(ev,),
        numbers=nums,
    )


def tree_finding(
    catalog: Catalog, query: SemanticQuery, overall: MetricTree, drilled: Drilled, lang: Language
) -> Finding | None:
    """The metric tree of the whole change (the catalog's product tree) by LMDI — the factor
    effects sum exactly to the change on comparable days — and, for a ratio factor whose change
    is mostly mix on some dimension, that split."""
    if overall.kind != "product":
        return None
    drill = next(
        (d for d in drilled.drills if len(d.dims) == 1 and drilled.trees[d.dims].factors == overall.factors), None
    )
    if drill is None:
        return None
    totals = drill.totals
    try:
        before, after = (
            {f.name: factor_value(f, totals[w]) or 0.0 for f in overall.factors} for w in (PREVIOUS, CURRENT)
        )
        split = lmdi(
            before,
            after,
            value_before=tree_value(overall, totals[PREVIOUS]),
            value_after=tree_value(overall, totals[CURRENT]),
        )
    except (KeyError, InsufficientData, StatsInputError):
        return None
    metric = query.metrics[0]
    unit, places = unit_of(catalog, metric, lang)
    ev = drilled.evidence[0]
    nums = [
        number(
            f"tree.{e.factor}",
            text("analysis.insight_tree_effect_label", lang, factor=metric_label(catalog, e.factor, lang)),
            scaled(catalog, metric, e.effect),
            change_unit(unit, lang),
            places,
            ev,
        )
        for e in split.factors
    ]
    parts = text("answer.clause_sep", lang).join(
        f"{metric_label(catalog, e.factor, lang)} {{num:tree.{e.factor}}}" for e in split.factors
    )
    summary = text("analysis.insight_tree", lang, parts=parts)
    composition = _composition(catalog, overall, drilled, split.factors, split.total_change, lang)
    if composition is not None:
        summary += composition[0]
        nums.append(composition[1])
    return Finding(
        finding_id="insight-metric-tree",
        kind="metric_tree",
        summary=summary,
        confidence=0.9,
        evidence_ids=(ev,),
        numbers=tuple(nums),
    )


def _composition(
    catalog: Catalog,
    overall: MetricTree,
    drilled: Drilled,
    effects: tuple[FactorEffect, ...],
    total: float,
    lang: Language,
) -> tuple[str, KeyNumber] | None:
    """The ratio factor of the tree whose effect is mostly the mix of some dimension."""
    best: tuple[float, str, str, float] | None = None
    for e in effects:
        f = next(f for f in overall.factors if f.name == e.factor)
        if f.den is None or abs(e.effect) < MATERIAL_FACTOR * abs(total) or e.after == e.before:
            continue
        for drill in (
            d for d in drilled.drills if len(d.dims) == 1 and drilled.trees[d.dims].factors == overall.factors
        ):
            den = f.den
            try:
                rm = ratio_mix_rate(
                    {m.key: (m.before[f.num], m.before[den]) for m in drill.members if m.before[den] > 0},
                    {m.key: (m.after[f.num], m.after[den]) for m in drill.members if m.after[den] > 0},
                )
            except (InsufficientData, StatsInputError):
                continue
            if rm.total_change == 0:
                continue
            mix_part = e.effect * rm.mix_effect / rm.total_change
            if abs(mix_part) >= MIX_DOMINATES * abs(e.effect) and (best is None or abs(mix_part) > abs(best[0])):
                best = (mix_part, e.factor, drill.dims[0], e.effect)
    if best is None:
        return None
    mix_part, factor, dim, _ = best
    metric = overall.metric
    unit, places = unit_of(catalog, metric, lang)
    num = number(
        "tree.mix",
        text("analysis.insight_tree_mix_label", lang),
        scaled(catalog, metric, mix_part),
        change_unit(unit, lang),
        places,
        drilled.evidence[0],
    )
    said = text(
        "analysis.insight_tree_mix",
        lang,
        factor=metric_label(catalog, factor, lang),
        dim=dimension_label(catalog, dim, lang),
    )
    return said, num


def excluded_paths(
    catalog: Catalog, drilled: Drilled, chosen: list[Candidate], lang: Language
) -> tuple[list[ExcludedPath], list[float]]:
    """Dimensions and factors no driver uses, each with the reason the data gives — never
    "nothing moved" where a test passed — and single readings a pair explains better."""
    out: list[ExcludedPath] = []
    best_qs: list[float] = []
    named_dims = {d for c in chosen for d in c.members}
    for d in (d for d in drilled.dims if d not in named_dims):
        involved = [c for c in drilled.cands if d in c.members]
        label = dimension_label(catalog, d, lang)
        path = text("analysis.insight_path_dimension", lang, label=label)
        out.append(_path(path, involved, label, "dimension", best_qs, lang))
    for d in drilled.fixed:
        label = dimension_label(catalog, d, lang)
        out.append(
            ExcludedPath(
                path=text("analysis.insight_path_dimension", lang, label=label),
                reason=text("analysis.insight_dimension_fixed", lang, label=label),
            )
        )
    named_factors = {c.factor for c in chosen}
    for factor in sorted({c.factor for c in drilled.cands} - named_factors):
        involved = [c for c in drilled.cands if c.factor == factor]
        label = metric_label(catalog, factor, lang)
        path = text("analysis.insight_path_factor", lang, label=label)
        out.append(_path(path, involved, label, "factor", best_qs, lang))
    subsumed = sorted(
        {
            members_text(catalog, c.members, lang)
            for c in drilled.cands
            if c.subsumed_by
            and len(c.members) == 1
            and c.significant
            and not any(x.members == c.members for x in chosen)
        }
    )
    if subsumed:
        out.append(
            ExcludedPath(
                path=text("analysis.insight_path_single", lang, members=text("answer.list_sep", lang).join(subsumed)),
                reason=text("analysis.insight_single_reason", lang),
            )
        )
    return out, best_qs


def _path(
    path: str, involved: list[Candidate], label: str, what: str, best_qs: list[float], lang: Language
) -> ExcludedPath:
    """Why a dimension or factor explains nothing: part of a driver (echo), composition inside a
    member or another dimension's mix, changes too small for the whole change (immaterial) or next
    to the drivers (minor), members that moved less than or against the rest, moved only with the
    rest (shared) or too sparsely to test against it (sparse), or no change passed the tests (flat)."""
    best_q = min((c.q_value for c in involved), default=1.0)
    best_qs.append(best_q)
    passed = [c for c in involved if c.significant]
    if any(c.subsumed_by and "composition" not in c.subsumed_by and "mix" not in c.subsumed_by for c in passed):
        reason = "echo"
    elif any(c.subsumed_by for c in passed):
        reason = "composition"
    elif passed and all(c.immaterial for c in passed):
        reason = "immaterial"
    elif passed:
        reason = "minor"
    elif any(c.q_value <= Q_LEVEL for c in involved):
        reason = "against"
    elif any(c.own_p <= PARENT_P / max(len(involved), 1) and c.rest_p > PARENT_P for c in involved):
        moved = [c for c in involved if c.own_p <= PARENT_P / max(len(involved), 1) and c.rest_p > PARENT_P]
        reason = "sparse" if all(c.ratio and c.excess is None for c in moved) else "shared"
    else:
        reason = "flat"
    evidence = tuple(sorted({c.evidence_id for c in involved}))[:1]
    return ExcludedPath(
        path=path,
        reason=text(f"analysis.insight_{what}_{reason}", lang, label=label, q=q_text(best_q)),
        evidence_ids=evidence,
    )
