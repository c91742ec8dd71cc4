"""The insight agent: where did the change come from?

For every dimension of the metric and every pair of dimensions it runs one drill-down (SQL
returns, per member and period, the component totals and the sufficient statistics of the
daily value ``factor(member) / factor(rest)``), attributes the change to members and factors
of the catalog's metric tree (:mod:`baton.agents.attribution`), and writes the ranked drivers
as typed :class:`~baton.contracts.agent_outputs.Driver` values. Dimensions and factors that
explain nothing become excluded paths; the whole change is split over the tree's factors by
LMDI when the metric has a product tree.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from baton.agents.attribution import (
    Q_LEVEL,
    Candidate,
    Totals,
    candidates_for,
    factor_value,
    select_drivers,
    tree_value,
)
from baton.agents.quality import incomplete_days
from baton.agents.tools import (
    QueryTool,
    change_unit,
    dimension_label,
    failed,
    member_label,
    metric_label,
    number,
    output_of,
    plan_of,
    rows_as_dicts,
    scaled,
    unit_of,
)
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, MetricTree, drilldown, metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import (
    Driver,
    Finding,
    InsightOutput,
    Interval,
    QualityOutput,
    StatsOutput,
)
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import Assumption, ExcludedPath, KeyNumber
from baton.errors import BatonError, InsufficientData, StatsInputError
from baton.messages import text
from baton.stats import lmdi

Q_FLOOR = 1e-6
MAX_DRIVERS = 10

__all__ = ["Candidate", "InsightDeps", "q_text", "run", "select_drivers"]


def q_text(q: float) -> str:
    """A q-value as the report states it: below 1e-6 as a bound, never rounded to zero."""
    return f"< {Q_FLOOR:.6f}" if q < Q_FLOOR else f"= {q:.3g}"


@dataclass(frozen=True)
class InsightDeps:
    tool: QueryTool
    catalog: Catalog


@dataclass
class _Drilled:
    """Every drill-down's candidates, and what the whole change and the tree totals were."""

    dims: list[str]
    combos: list[tuple[str, ...]]
    cands: list[Candidate] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    total_change: float = 0.0
    tree: MetricTree | None = None
    tree_totals: Totals = field(default_factory=dict)


def run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _drill(deps: InsightDeps, query: SemanticQuery, excluded: list[date]) -> _Drilled:
    catalog, tool, metric = deps.catalog, deps.tool, query.metrics[0]
    fixed = {f.dimension for f in query.filters if len(f.members) == 1}
    dims = [d for d in catalog.metrics[metric].dimensions if d not in fixed]
    out = _Drilled(dims, [(d,) for d in dims] + list(itertools.combinations(dims, 2)))
    overall = metric_tree(catalog, metric, (), query.filters)
    for combo in out.combos:
        tree = metric_tree(catalog, metric, combo, query.filters)
        result = tool.run(
            "insight:drilldown:" + "×".join(combo),
            drilldown(catalog, query, tree, combo, excluded_days=excluded, dialect=tool.dialect).expression,
        )
        out.evidence.append(result.evidence_id)
        found, totals = candidates_for(tree, combo, rows_as_dicts(result), result.evidence_id)
        out.cands += found
        if len(combo) == 1 and out.total_change == 0.0:
            out.total_change = tree_value(tree, totals[CURRENT]) - tree_value(tree, totals[PREVIOUS])
        if out.tree is None and overall.kind == "product" and tree.factors == overall.factors:
            out.tree, out.tree_totals = tree, totals
    return out


def _run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    lang = packet.task.language
    query = plan_of(packet)
    drilled = _drill(deps, query, incomplete_days(output_of(packet, "quality", QualityOutput)))
    stats = output_of(packet, "stats", StatsOutput)
    headline_significant = bool(
        stats and stats.tests and stats.tests[0].p_value is not None and stats.tests[0].p_value < 0.05
    )
    chosen = select_drivers(drilled.cands, drilled.total_change, headline_significant)[:MAX_DRIVERS]
    drivers = [_driver(deps.catalog, query, c, rank, drilled.total_change, lang) for rank, c in enumerate(chosen, 1)]
    findings = [_driver_finding(deps.catalog, d, rank, lang) for rank, d in enumerate(drivers, 1)]
    excluded, best_qs = _excluded_paths(deps.catalog, drilled, chosen, lang)
    if not chosen:
        findings.append(
            Finding(
                finding_id="insight-no-driver",
                kind="no_driver",
                summary=text("analysis.insight_no_driver", lang, tests=len(drilled.cands)),
                confidence=0.7,
                evidence_ids=tuple(drilled.evidence[:1]),
            )
        )
    tree_finding = _tree_finding(deps.catalog, query.metrics[0], drilled, lang)
    if tree_finding is not None:
        findings.append(tree_finding)
    output = InsightOutput(
        task_id=packet.task_id,
        supporting=_supporting(drilled, best_qs, lang),
        drivers=tuple(drivers),
        findings=tuple(findings),
        assumptions_made=_assumptions(drilled, headline_significant, lang),
        paths_excluded=tuple(excluded),
        confidence=0.85 if chosen else 0.6,
    )
    summary = text(
        "analysis.insight_summary", lang, drills=len(drilled.combos), tests=len(drilled.cands), drivers=len(chosen)
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def _members_text(catalog: Catalog, members: dict[str, str], lang: Language) -> str:
    return " × ".join(
        f"{dimension_label(catalog, d, lang)} {member_label(catalog, d, m, lang)}" for d, m in members.items()
    )


def _driver(
    catalog: Catalog, query: SemanticQuery, c: Candidate, rank: int, total_change: float, lang: Language
) -> Driver:
    """A selected candidate as the typed driver every later step reads (no detour through text)."""
    metric = query.metrics[0]
    unit, places = unit_of(catalog, metric, lang)
    contribution = number(
        f"driver.{rank}.change",
        text("analysis.insight_contribution_label", lang, members=_members_text(catalog, c.members, lang)),
        scaled(catalog, metric, c.change),
        change_unit(unit, lang),
        places,
        c.evidence_id,
    )
    return Driver(
        members=dict(c.members),
        factor=c.factor,
        change=c.change,
        share_of_change=c.change / total_change if total_change else 0.0,
        factor_change=c.factor_change,
        excess_relative_change=c.excess_relative_change,
        p_value=c.p_value,
        ci=Interval(*c.ci),
        q_value=c.q_value,
        significant=c.significant,
        evidence_ids=(c.evidence_id,),
        contribution=contribution,
    )


def _driver_finding(catalog: Catalog, d: Driver, rank: int, lang: Language) -> Finding:
    """The sentence a report states about driver ``rank``; every number a structured value."""
    k, ev = f"driver.{rank}", d.evidence_ids[0]
    excess = d.excess_relative_change or 0.0
    low, high = d.ci if d.ci is not None else Interval(excess, excess)
    q = d.q_value if d.q_value is not None else 1.0
    factor = metric_label(catalog, d.factor, lang)
    assert d.contribution is not None
    nums = (
        d.contribution,
        number(f"{k}.share", text("analysis.insight_share_label", lang), d.share_of_change * 100, "%", 1, ev),
        number(
            f"{k}.factor_change",
            text("analysis.insight_factor_change_label", lang, factor=factor),
            (d.factor_change or 0.0) * 100,
            "%",
            1,
            ev,
        ),
        number(f"{k}.excess", text("analysis.insight_excess_label", lang), excess * 100, "%", 1, ev),
        number(f"{k}.ci_low", text("analysis.ci_low", lang), min(low, excess) * 100, "%", 1, ev),
        number(f"{k}.ci_high", text("analysis.ci_high", lang), max(high, excess) * 100, "%", 1, ev),
        # below 1e-6 a q-value is stated as a bound ("q < 0.000001"), never rounded to zero
        number(
            f"{k}.q",
            "q (BH) upper bound" if q < Q_FLOOR else "q (BH)",
            max(q, Q_FLOOR),
            "q",
            6 if q < 0.0001 else 4,
            ev,
        ),
    )
    return Finding(
        finding_id=f"insight-driver-{rank}",
        kind="driver",
        summary=text(
            "analysis.insight_driver",
            lang,
            members=_members_text(catalog, d.members, lang),
            factor=factor,
            k=k,
            rel="<" if q < Q_FLOOR else "=",
        ),
        confidence=0.9 if rank == 1 else 0.8,
        evidence_ids=(ev,),
        numbers=nums,
    )


def _excluded_paths(
    catalog: Catalog, drilled: _Drilled, chosen: list[Candidate], lang: Language
) -> tuple[list[ExcludedPath], list[float]]:
    """Dimensions and factors no driver names, and single readings a pair explains better."""
    out: list[ExcludedPath] = []
    best_qs: list[float] = []
    named_dims = {d for c in chosen for d in c.members}
    for d in (d for d in drilled.dims if d not in named_dims):
        own = [c for c in drilled.cands if list(c.members) == [d]]
        best_q = min((c.q_value for c in own), default=1.0)
        best_qs.append(best_q)
        echoes = any(c.significant for c in drilled.cands if d in c.members)
        label = dimension_label(catalog, d, lang)
        out.append(
            ExcludedPath(
                path=text("analysis.insight_path_dimension", lang, label=label),
                reason=text(
                    "analysis.insight_dimension_echo" if echoes else "analysis.insight_dimension_flat",
                    lang,
                    label=label,
                    q=q_text(best_q),
                ),
                evidence_ids=tuple(sorted({c.evidence_id for c in own}))[:1],
            )
        )
    named_factors = {c.factor for c in chosen}
    for factor in sorted({c.factor for c in drilled.cands} - named_factors):
        own = [c for c in drilled.cands if c.factor == factor]
        best_q = min((c.q_value for c in own), default=1.0)
        best_qs.append(best_q)
        label = metric_label(catalog, factor, lang)
        echoes = any(c.significant for c in own)
        out.append(
            ExcludedPath(
                path=text("analysis.insight_path_factor", lang, label=label),
                reason=text(
                    "analysis.insight_factor_echo" if echoes else "analysis.insight_factor_flat",
                    lang,
                    label=label,
                    q=q_text(best_q),
                ),
            )
        )
    subsumed = sorted(
        {_members_text(catalog, c.members, lang) for c in drilled.cands if c.subsumed_by and len(c.members) == 1}
    )
    if subsumed:
        out.append(
            ExcludedPath(
                path=text("analysis.insight_path_single", lang, members=text("answer.list_sep", lang).join(subsumed)),
                reason=text("analysis.insight_single_reason", lang),
            )
        )
    return out, best_qs


def _tree_finding(catalog: Catalog, metric: str, drilled: _Drilled, lang: Language) -> Finding | None:
    """The metric tree of the whole change (the catalog's product tree), by LMDI: the factor
    effects sum exactly to the change."""
    tree, totals = drilled.tree, drilled.tree_totals
    if tree is None or not drilled.evidence:
        return None
    try:
        before, after = ({f.name: factor_value(f, totals[w]) or 0.0 for f in tree.factors} for w in (PREVIOUS, CURRENT))
        decomposition = lmdi(
            before,
            after,
            value_before=tree_value(tree, totals[PREVIOUS]),
            value_after=tree_value(tree, totals[CURRENT]),
        )
    except (KeyError, InsufficientData, StatsInputError):
        return None
    unit, places = unit_of(catalog, metric, lang)
    ev = drilled.evidence[0]
    nums = tuple(
        number(
            f"tree.{e.factor}",
            text("analysis.insight_tree_effect_label", lang, factor=metric_label(catalog, e.factor, lang)),
            scaled(catalog, metric, e.effect),
            unit,
            places,
            ev,
        )
        for e in decomposition.factors
    )
    parts = text("answer.clause_sep", lang).join(
        f"{metric_label(catalog, e.factor, lang)} {{num:tree.{e.factor}}}" for e in decomposition.factors
    )
    return Finding(
        finding_id="insight-metric-tree",
        kind="metric_tree",
        summary=text("analysis.insight_tree", lang, parts=parts),
        confidence=0.9,
        evidence_ids=(ev,),
        numbers=nums,
    )


def _assumptions(drilled: _Drilled, headline_significant: bool, lang: Language) -> tuple[Assumption, ...]:
    out = [
        Assumption(
            text=text("analysis.insight_rule", lang, tests=len(drilled.cands), q=Q_LEVEL), source_agent="insight"
        )
    ]
    offsetting = [c for c in drilled.cands if c.q_value <= Q_LEVEL and not c.significant and c.change != 0]
    if offsetting and headline_significant:
        out.append(
            Assumption(text=text("analysis.insight_offsets", lang, count=len(offsetting)), source_agent="insight")
        )
    return tuple(out)


def _supporting(drilled: _Drilled, best_qs: list[float], lang: Language) -> tuple[KeyNumber, ...]:
    """Numbers the assumptions and excluded paths quote, kept structured for the output gate."""
    anchor = drilled.evidence[0] if drilled.evidence else "derived"
    offsetting = [c for c in drilled.cands if c.q_value <= Q_LEVEL and not c.significant and c.change != 0]
    return (
        number("insight.tests_run", text("analysis.insight_tests_label", lang), len(drilled.cands), "tests", 0, anchor),
        number("insight.q_level", text("analysis.insight_q_label", lang), Q_LEVEL, "q", 2, anchor),
        number("insight.offsets", text("analysis.insight_offsets_label", lang), len(offsetting), "tests", 0, anchor),
        number(
            "insight.drilldowns",
            text("analysis.insight_drills_label", lang),
            len(drilled.combos),
            "drill-downs",
            0,
            anchor,
        ),
        *(
            # q-values can be 1e-40: kept as the text states them (3 significant digits, or the bound)
            KeyNumber(
                key=f"insight.best_q.{i}",
                label=text("analysis.insight_best_q_label", lang),
                value=Decimal(str(Q_FLOOR)) if q < Q_FLOOR else Decimal(f"{q:.3g}"),
                unit="q",
                evidence_id=anchor,
            )
            for i, q in enumerate(best_qs)
        ),
    )
