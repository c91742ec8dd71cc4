"""The insight agent: where did the change come from?

For every dimension of the metric and every pair of dimensions it runs one drill-down (SQL
returns, per member and period, the component totals and the sufficient statistics of the
member's own daily value and of its value against the rest, incomplete days left out),
attributes the change to members and factors of the catalog's metric tree so that the parts
add up (:mod:`baton.agents.attribution`), and writes the ranked drivers — with their stance:
driver, offset, or a mere contribution when the change is not significant — as typed
:class:`~baton.contracts.agent_outputs.Driver` values. A dimension that a filter (the
question's or the user's row filter) fixes to one member is not drilled. Dimensions and
factors no driver uses become excluded paths, worded so they never contradict a driver; the
whole change is split over the tree's factors by LMDI, and a ratio factor's part further into
rate within members and mix between them.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from baton.agents.attribution import (
    PARENT_P,
    Q_LEVEL,
    Candidate,
    Drill,
    Totals,
    candidates_for,
    read_drill,
    tree_value,
)
from baton.agents.driver_selection import select_drivers
from baton.agents.insight_text import driver_finding, excluded_paths, members_text, mix_finding, tree_finding
from baton.agents.quality import incomplete_days
from baton.agents.tools import (
    P_FLOOR,
    QueryTool,
    change_unit,
    failed,
    number,
    output_of,
    plan_of,
    rows_as_dicts,
    scaled,
    unit_of,
)
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, MetricTree, drilldown, kept_days, metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Driver, Finding, InsightOutput, Interval, QualityOutput, StatsOutput
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import Assumption, KeyNumber
from baton.errors import BatonError
from baton.messages import text
from baton.numbers import format_probability

MAX_DRIVERS = 10

__all__ = ["Candidate", "InsightDeps", "run", "select_drivers"]


@dataclass(frozen=True)
class InsightDeps:
    tool: QueryTool
    catalog: Catalog


@dataclass
class Drilled:
    """Every drill-down read, their candidates, and the whole change on comparable days."""

    dims: list[str]
    drills: list[Drill] = field(default_factory=list)
    trees: dict[tuple[str, ...], MetricTree] = field(default_factory=dict)
    cands: list[Candidate] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    fixed: list[str] = field(default_factory=list)
    total_change: float = 0.0
    totals: Totals = field(default_factory=dict)


def run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _drill_all(
    deps: InsightDeps, query: SemanticQuery, combos: Sequence[tuple[str, ...]], excluded: list[date], out: Drilled
) -> list[Drill]:
    """One drill-down per combination, recorded in the combinations' order (their statements
    may run concurrently where the engine allows it)."""
    catalog, tool = deps.catalog, deps.tool
    trees = [metric_tree(catalog, query.metrics[0], combo, query.filters) for combo in combos]
    items = [
        (
            "insight:drilldown:" + "×".join(combo),
            drilldown(catalog, query, tree, combo, excluded_days=excluded, dialect=tool.dialect).expression,
        )
        for combo, tree in zip(combos, trees, strict=True)
    ]
    results = tool.run_all(items)
    drills = []
    for combo, tree, result in zip(combos, trees, results, strict=True):
        drill = read_drill(tree, combo, rows_as_dicts(result), kept_days(query, excluded), query.time_range.days)
        out.evidence.append(result.evidence_id)
        out.trees[combo] = tree
        out.cands += candidates_for(tree, drill, result.evidence_id, query.time_range.days == 1)
        drills.append(drill)
    return drills


def _drill(deps: InsightDeps, query: SemanticQuery, excluded: list[date]) -> Drilled:
    """Single dimensions first; a dimension with one member in the data (fixed by a filter or
    the user's row filter) is left out of every drill-down; then the pairs of the rest, where
    one of the two has a member that moved against the rest (no pair can hold a driver
    otherwise: a cell that moved against the rest moves its members too). The drill-downs of
    each stage are independent of one another, so each stage is one batch."""
    metric = query.metrics[0]
    fixed = {f.dimension for f in query.filters if len(f.members) == 1 and not f.exclude}
    dims = [d for d in deps.catalog.metrics[metric].dimensions if d not in fixed and deps.catalog.dimensions[d].drill]
    out = Drilled(dims)
    for d, drill in zip(dims, _drill_all(deps, query, [(d,) for d in dims], excluded, out), strict=True):
        if len(drill.members) < 2:
            out.fixed.append(d)
            out.cands = [c for c in out.cands if list(c.members) != [d]]
            continue
        out.drills.append(drill)
        if not out.totals:
            tree = out.trees[(d,)]
            out.totals = drill.totals
            out.total_change = tree_value(tree, drill.totals[CURRENT]) - tree_value(tree, drill.totals[PREVIOUS])
    out.dims = [d for d in dims if d not in out.fixed]
    moved = {d for c in out.cands if (c.own_p if c.role == "mix" else c.rest_p) <= PARENT_P for d in c.members}
    pairs = [combo for combo in itertools.combinations(out.dims, 2) if moved & set(combo)]
    out.drills += _drill_all(deps, query, pairs, excluded, out)
    return out


def _run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    lang = packet.task.language
    query = plan_of(packet)
    drilled = _drill(deps, query, incomplete_days(output_of(packet, "quality", QualityOutput), query))
    stats = output_of(packet, "stats", StatsOutput)
    significant = bool(stats and stats.tests and stats.tests[0].p_value is not None and stats.tests[0].p_value < 0.05)
    catalog = deps.catalog
    overall = metric_tree(catalog, query.metrics[0], (), query.filters)
    factors = frozenset(f.name for f in overall.factors)
    mixes = {f.name: f.num for f in overall.factors if f.role == "mix"}
    by_name = {f.name: f for f in overall.factors if f.role != "mix"}
    chosen = select_drivers(drilled.cands, drilled.drills, drilled.total_change, significant, factors, mixes, by_name)
    chosen = chosen[:MAX_DRIVERS]
    drivers = [_driver(catalog, query, c, rank, drilled.total_change, lang) for rank, c in enumerate(chosen, 1)]
    # over a distinct count the drills add per-day counts: their total change is stated beside each share
    per_day_total = drilled.total_change if catalog.counted_per_day(query.metrics[0]) else None
    findings = [driver_finding(catalog, d, rank, lang, per_day_total) for rank, d in enumerate(drivers, 1)]
    mix = mix_finding(catalog, query, drilled, drivers, lang)
    if mix is not None:
        findings.append(mix)
    excluded, best_qs = excluded_paths(catalog, drilled, chosen, lang)
    if not chosen:
        findings.append(_no_driver(catalog, drilled, lang))
    tree = tree_finding(catalog, query, overall, drilled, lang)
    if tree is not None:
        findings.append(tree)
    output = InsightOutput(
        task_id=packet.task_id,
        supporting=_supporting(drilled, best_qs, lang),
        drivers=tuple(drivers),
        findings=tuple(findings),
        assumptions_made=_assumptions(drilled, chosen, lang),
        paths_excluded=tuple(excluded),
        confidence=0.85 if chosen else 0.6,
    )
    summary = text(
        "analysis.insight_summary", lang, drills=len(drilled.drills), tests=len(drilled.cands), drivers=len(chosen)
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def _no_driver(catalog: Catalog, drilled: Drilled, lang: Language) -> Finding:
    """ "No driver" is only said when no member effect passed the tests at all; a member carrying
    most of the change is named beside it (not a driver: its tests did not pass)."""
    passed = [c for c in drilled.cands if c.q_value <= Q_LEVEL]
    key = "analysis.insight_no_driver_mixed" if passed else "analysis.insight_no_driver"
    most = carries_most(drilled)
    fields = {"members": members_text(catalog, most.members, lang)} if most is not None else {}
    if most is not None and not passed:
        key = "analysis.insight_no_driver_most"
    sure = [c for c in passed if c.significant]
    if sure and all(c.immaterial for c in sure):  # sure, but too small to explain it
        key = "analysis.insight_no_driver_broad"
    if not drilled.drills:  # nothing to drill: say so, never "tested 0 and found nothing"
        key = "analysis.insight_no_dimension"
    return Finding(
        finding_id="insight-no-driver",
        kind="no_driver",
        summary=text(key, lang, tests=len(drilled.cands), passed=len(passed), **fields),
        confidence=0.7,
        evidence_ids=tuple(drilled.evidence[:1]),
    )


MOST_OF_THE_CHANGE = 0.5
"""A member carrying at least this share of the change is named when no member is a driver."""
MOVED_APART = 0.1
"""… and only when it moved at least this much more than the rest (relative): a member that moved
with everything else carries most of the change only because it is big, which says nothing."""


def carries_most(drilled: Drilled) -> Candidate | None:
    """The one member (of one dimension) that carries most of the change, when no member passed the
    tests: its contribution is a fact of the data, said beside "no driver" — never a driver (a low
    volume can hide a real one: 2 → 13 cancellations of one industry, the rest flat). One that moved
    with the rest (the biggest category, up 9 % when all rose 7 %) is not named: its share is its size."""
    total = drilled.total_change
    most = [
        c
        for c in drilled.cands
        if len(c.members) == 1 and c.role != "mix" and total and c.change / total >= MOST_OF_THE_CHANGE
    ]
    apart = [c for c in most if c.excess is None or ((c.excess > 0) == (total > 0) and abs(c.excess) >= MOVED_APART)]
    return max(apart, key=lambda c: abs(c.change), default=None)


def _driver(
    catalog: Catalog, query: SemanticQuery, c: Candidate, rank: int, total_change: float, lang: Language
) -> Driver:
    """A selected candidate as the typed driver every later step reads (no detour through text)."""
    metric = query.metrics[0]
    unit, places = unit_of(catalog, metric, lang)
    contribution = number(
        f"driver.{rank}.change",
        text("analysis.insight_contribution_label", lang, members=members_text(catalog, c.members, lang)),
        scaled(catalog, metric, c.change),
        change_unit(unit, lang),
        places,
        c.evidence_id,
    )
    return Driver(
        members=dict(c.members),
        factor=c.factor,
        role=c.role,
        stance=c.stance,
        change=c.change,
        share_of_change=c.change / total_change if total_change else 0.0,
        before=c.before,
        after=c.after,
        factor_change=c.own_change,
        excess_relative_change=c.excess,
        p_value=min(1.0, max(0.0, c.p_value)),
        ci=Interval(*c.own_ci),
        q_value=min(1.0, max(0.0, c.q_value)),
        significant=c.significant,
        evidence_ids=(c.evidence_id,),
        contribution=contribution,
    )


def _assumptions(drilled: Drilled, chosen: list[Candidate], lang: Language) -> tuple[Assumption, ...]:
    out = [
        Assumption(
            text=text("analysis.insight_rule", lang, tests=len(drilled.cands), q=Q_LEVEL), source_agent="insight"
        )
    ]
    against = [c for c in drilled.cands if c.q_value <= Q_LEVEL and not c.consistent]
    if against:
        out.append(Assumption(text=text("analysis.insight_against", lang, count=len(against)), source_agent="insight"))
    if drilled.fixed:
        out.append(
            Assumption(text=text("analysis.insight_fixed", lang, dims=", ".join(drilled.fixed)), source_agent="insight")
        )
    return tuple(out)


def _supporting(drilled: Drilled, best_qs: list[float], lang: Language) -> tuple[KeyNumber, ...]:
    """Numbers the assumptions and excluded paths quote, kept structured for the output gate."""
    anchor = drilled.evidence[0] if drilled.evidence else "derived"
    against = [c for c in drilled.cands if c.q_value <= Q_LEVEL and not c.consistent]
    passed = [c for c in drilled.cands if c.q_value <= Q_LEVEL]
    return (
        number("insight.tests_run", text("analysis.insight_tests_label", lang), len(drilled.cands), "tests", 0, anchor),
        number("insight.passed", text("analysis.insight_passed_label", lang), len(passed), "tests", 0, anchor),
        number("insight.q_level", text("analysis.insight_q_label", lang), Q_LEVEL, "q", 2, anchor),
        number("insight.against", text("analysis.insight_against_label", lang), len(against), "tests", 0, anchor),
        number(
            "insight.drilldowns",
            text("analysis.insight_drills_label", lang),
            len(drilled.drills),
            "drill-downs",
            0,
            anchor,
        ),
        *(
            # q-values can be 1e-40: kept as the text states them (4 or 6 places, or the bound)
            KeyNumber(
                key=f"insight.best_q.{i}",
                label=text("analysis.insight_best_q_label", lang),
                value=Decimal(str(P_FLOOR)) if q < P_FLOOR else Decimal(format_probability(q)),
                unit="q",
                evidence_id=anchor,
            )
            for i, q in enumerate(best_qs)
        ),
    )
