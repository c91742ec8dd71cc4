"""The stats agent: is the change real, and what is it on comparable days?

Current vs comparison period from sufficient statistics computed in SQL (n, Σ(y−K), Σ(y−K)²
of the daily metric value per period, incomplete days left out of everything): Welch's t-test
with the CI of the difference and Fieller's CI of the relative change (built from the same SE
and critical value, so it excludes 0 exactly when p < α: the verdict and the interval printed
beside it cannot disagree), Cohen's d (a single day: the prediction test against its usual
level); for a rate, the two-proportion test with Wilson intervals per period, Newcombe's interval of the difference and Cohen's h.

It also states the *comparable* change — both periods on the kept (complete) days, sums put on
the current period's length — which the metric tree and the drivers add up to, and, for a
single day, the catalog's calendar events that day belongs to.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from baton.agents.attribution import tree_value
from baton.agents.calendar_notes import events_in_one_period
from baton.agents.quality import incomplete_days
from baton.agents.tools import (
    QueryTool,
    change_unit,
    failed,
    metric_label,
    number,
    output_of,
    p_number,
    plan_of,
    rows_as_dicts,
    scaled,
    unit_of,
)
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, MetricTree, kept_days, metric_tree, period_suffstats
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Finding, QualityOutput, StatsOutput, StatTest
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import Assumption, KeyNumber
from baton.errors import BatonError, IncompletePeriod, InsufficientData
from baton.messages import both, text
from baton.numbers import percent_change
from baton.stats import SuffStats, change_test, two_proportion_test
from baton.stats.means import TwoSampleTResult

ALPHA = 0.05


@dataclass(frozen=True)
class StatsDeps:
    tool: QueryTool
    catalog: Catalog


def dec(value: float, places: int = 6) -> Decimal:
    return Decimal(repr(round(float(value), places)))


def _places(percent: float) -> int:
    """Two decimals, more for a bound so near zero that two would show it as 0.00 %: an interval
    that excludes zero never reads as one that touches it."""
    places = 2
    while places < 6 and percent != 0 and round(percent, places) == 0:
        places += 1
    return places


def stat_test(name: str, method: str, estimate: float, ci: tuple[float, float], **kw: Any) -> StatTest:
    low, high = dec(min(ci[0], estimate)), dec(max(ci[1], estimate))
    est = min(max(dec(estimate), low), high)
    return StatTest(name=name, method=method, estimate=est, ci_low=low, ci_high=high, agent="stats", **kw)


def run(packet: TaskPacket, deps: StatsDeps) -> AgentReport[StatsOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:  # the stats layer's errors are BatonErrors too
        return failed(packet, exc)


def _suff(row: dict[str, Any]) -> SuffStats:
    return SuffStats(
        n=int(row["n"]), total=float(row["s"] or 0.0), sum_sq=float(row["ss"] or 0.0), shift=float(row["k"] or 0.0)
    )


def _run(packet: TaskPacket, deps: StatsDeps) -> AgentReport[StatsOutput]:
    lang = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    query = plan_of(packet)
    metric = query.metrics[0]
    excluded = incomplete_days(output_of(packet, "quality", QualityOutput), query)
    kept = kept_days(query, excluded)  # an analysis always has its comparison
    assert query.comparison is not None
    for which, period in ((CURRENT, query.time_range), (PREVIOUS, query.comparison.range)):
        if not kept[which]:  # "为什么6月12日的订单量下降" on a half-loaded 12 June
            key = "analysis.stats_day_incomplete" if period.start == period.end else "analysis.stats_period_incomplete"
            raise IncompletePeriod(
                *both(key, start=period.start, end=period.end),
                detail={"period": which, "incomplete_days": [d.isoformat() for d in excluded]},
            )
    tree = metric_tree(catalog, metric, (), query.filters)
    result = tool.run(
        "stats:period_suffstats",
        period_suffstats(catalog, query, tree, excluded_days=excluded, dialect=tool.dialect).expression,
    )
    rows = {str(r["which"]): r for r in rows_as_dicts(result)}
    if CURRENT not in rows or PREVIOUS not in rows:
        raise InsufficientData(*both("analysis.stats_period_without_data"))
    before, after = rows[PREVIOUS], rows[CURRENT]
    quiet = _quiet_days(catalog, query, tree, rows, kept)
    welch = change_test(_suff(before).with_zeros(quiet[PREVIOUS]), _suff(after).with_zeros(quiet[CURRENT]), ALPHA)
    label = metric_label(catalog, metric, lang)
    tests, finding = _welch(welch, label, excluded, result.evidence_id, lang)
    findings = [finding]
    if tree.kind != "simple" or catalog.metrics[metric].additive:
        # per-day comparable totals sum a metric over days: a median or a distinct count does not sum
        findings.append(_comparable(catalog, query, tree, rows, excluded, result.evidence_id, lang))
    findings += _events(catalog, query, result.evidence_id, lang)
    if catalog.metrics[metric].unit == "ratio" and tree.kind == "ratio":
        found = _proportion(tree, before, after, label, result.evidence_id, lang)
        if found is not None:
            tests.append(found[0])
            findings.append(found[1])
    significant = (welch.p_value or 1.0) < ALPHA
    days_note = text("analysis.stats_days_left_out", lang, days=", ".join(map(str, excluded))) if excluded else ""
    output = StatsOutput(
        task_id=packet.task_id,
        analysis_type="comparison",
        tests=tuple(tests),
        findings=tuple(findings),
        assumptions_made=(
            Assumption(
                text=text(
                    "analysis.stats_independent_days", lang, note=days_note, method=_method_words(welch.method, lang)
                ),
                source_agent="stats",
            ),
        ),
        next_steps_suggested=(text("analysis.stats_next_step", lang),),
        confidence=0.9 if significant else 0.6,
    )
    verdict = text("analysis.stats_significant" if significant else "analysis.stats_not_significant", lang)
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=verdict, data=output))


def _quiet_days(
    catalog: Catalog, query: SemanticQuery, tree: MetricTree, rows: dict[str, dict[str, Any]], kept: dict[str, int]
) -> dict[str, int]:
    """Per period, the kept days without rows: zeros of a count or an amount (a simple metric
    of one table), added to the daily sample; a rate or an average has no value on such a day."""
    metric = catalog.metrics[query.metrics[0]]
    if tree.kind != "simple" or not metric.amount_or_count:
        return {PREVIOUS: 0, CURRENT: 0}
    return {which: max(kept[which] - int(rows[which]["n"]), 0) for which in (PREVIOUS, CURRENT)}


def comparable_totals(
    tree: MetricTree, query: SemanticQuery, rows: dict[str, dict[str, Any]], excluded: list[date]
) -> dict[str, float]:
    """The metric in each period on the kept days, sums put on the current period's length
    (``current days / kept days``): the basis the tree and the drivers add up to."""
    kept = kept_days(query, excluded)
    days = query.time_range.days
    out: dict[str, float] = {}
    for which in (PREVIOUS, CURRENT):
        scale = days / kept[which] if kept[which] else 0.0
        out[which] = tree_value(tree, {c: float(rows[which][c] or 0.0) * scale for c in tree.components})
    return out


def _comparable(
    catalog: Catalog,
    query: SemanticQuery,
    tree: MetricTree,
    rows: dict[str, dict[str, Any]],
    excluded: list[date],
    ev: str,
    lang: Language,
) -> Finding:
    metric = query.metrics[0]
    values = comparable_totals(tree, query, rows, excluded)
    unit, places = unit_of(catalog, metric, lang)
    before, after = values[PREVIOUS], values[CURRENT]
    numbers = [
        number(
            "comparable.previous",
            text("analysis.comparable_previous", lang),
            scaled(catalog, metric, before),
            unit,
            places,
            ev,
        ),
        number(
            "comparable.current",
            text("analysis.comparable_current", lang),
            scaled(catalog, metric, after),
            unit,
            places,
            ev,
        ),
        number(
            "comparable.change",
            text("analysis.comparable_change", lang),
            scaled(catalog, metric, after - before),
            change_unit(unit, lang),
            places,
            ev,
        ),
    ]
    pct = percent_change(after, before)
    if pct is not None:
        numbers.append(
            number(
                "comparable.change_pct",
                text("analysis.comparable_change_pct", lang),
                pct,
                "%",
                2,
                ev,
            )
        )
    basis = text(
        "analysis.comparable_basis_excluded" if excluded else "analysis.comparable_basis",
        lang,
        days=", ".join(map(str, excluded)),
    )
    if catalog.counted_per_day(metric):  # "客单价" over buyer-days: said, never passed off as the 口径's
        basis += text("analysis.comparable_basis_distinct", lang, metric=metric_label(catalog, metric, lang))
    key = "analysis.comparable_pct" if pct is not None else "analysis.comparable"
    return Finding(
        finding_id="stats-comparable",
        kind="comparable",
        summary=text(key, lang, basis=basis),
        confidence=0.95,
        evidence_ids=(ev,),
        numbers=tuple(numbers),
    )


def _events(catalog: Catalog, query: SemanticQuery, ev: str, lang: Language) -> list[Finding]:
    """For a single day: the calendar events (from the catalog) it belongs to, named. For a
    comparison: an event whose days fall in one period and not the other ("why did GMV fall last
    week?" against a week holding a promotion's peak), named with its days — the two are not like for like."""
    if query.time_range.days != 1:
        return _event_in_one_period(catalog, query, ev, lang)
    day = query.time_range.start
    out: list[Finding] = []
    for event in catalog.calendar:
        if event.contains(day):
            key = "analysis.event_peak" if event.is_peak_day(day) else "analysis.event_window"
            out.append(
                Finding(
                    finding_id=f"stats-event-{len(out) + 1}",
                    kind="event",
                    summary=text(key, lang, day=day, event=event.name.for_lang(lang)),
                    confidence=1.0,
                    evidence_ids=(ev,),
                )
            )
    return out


def _event_in_one_period(catalog: Catalog, query: SemanticQuery, ev: str, lang: Language) -> list[Finding]:
    """Each catalog event with days in one period only, as a finding (:mod:`baton.agents.calendar_notes`)."""
    return [
        Finding(finding_id=f"stats-event-{i}", kind="event", summary=said, confidence=1.0, evidence_ids=(ev,))
        for i, said in enumerate(events_in_one_period(catalog, query, lang), start=1)
    ]


def _welch(
    welch: TwoSampleTResult, label: str, excluded: list[date], ev: str, lang: Language
) -> tuple[list[StatTest], Finding]:
    """The daily-mean test (and its relative change), and the finding that states them."""
    effect = welch.effect_size if welch.effect_size is not None and not math.isnan(welch.effect_size) else None
    p = welch.p_value or 0.0
    n = welch.n_a + welch.n_b
    tests = [
        stat_test(
            text("analysis.stats_welch_name", lang, label=label),
            f"{welch.method} on daily values (sufficient statistics from SQL)",
            welch.estimate,
            welch.ci or (welch.estimate, welch.estimate),
            effect_size=dec(effect) if effect is not None else None,
            effect_size_kind="cohen_d",
            p_value=Decimal(repr(p)),
            n=n,
            assumptions=welch.assumptions,
            evidence_ids=(ev,),
        )
    ]
    numbers: list[KeyNumber] = []
    if welch.relative_change is not None and welch.relative_ci is not None:
        tests.append(
            stat_test(
                text("analysis.stats_relative_name", lang, label=label),
                "Fieller's interval for the ratio of the means, with the test's SE and t critical value "
                "(excludes 0 iff p < alpha)",
                welch.relative_change,
                welch.relative_ci,
                effect_size=dec(welch.relative_change),
                effect_size_kind="relative_change",
                p_value=Decimal(repr(p)),
                n=n,
                evidence_ids=(ev,),
            )
        )
        low, high = welch.relative_ci[0] * 100, welch.relative_ci[1] * 100
        numbers += [
            number("stats.rel_change", text("analysis.stats_rel_label", lang), welch.relative_change * 100, "%", 2, ev),
            number("stats.rel_ci_low", text("analysis.ci_low", lang), low, "%", _places(low), ev),
            number("stats.rel_ci_high", text("analysis.ci_high", lang), high, "%", _places(high), ev),
        ]
    p_shown, p_rel = p_number("stats.p_value", "p", p, ev)
    numbers += [p_shown, number("stats.cohen_d", "Cohen's d", effect or 0.0, "d", 2, ev)]
    significant = (welch.p_value or 1.0) < ALPHA
    shown = welch.relative_change is not None and welch.relative_ci is not None
    key = "analysis.stats_headline" if shown else "analysis.stats_headline_p_only"
    verdict = text("analysis.stats_verdict_yes" if significant else "analysis.stats_verdict_no", lang)
    finding = Finding(
        finding_id="stats-headline",
        kind="test",
        summary=text(key, lang, verdict=verdict, p_rel=p_rel),
        confidence=0.95 if significant else 0.6,
        evidence_ids=(ev,),
        numbers=tuple(numbers),
    )
    return tests, finding


def _proportion(
    tree: MetricTree, before: dict[str, Any], after: dict[str, Any], label: str, ev: str, lang: Language
) -> tuple[StatTest, Finding] | None:
    """A rate's two-proportion test (Wilson per period, Newcombe for the difference, Cohen's h)."""
    num_c, den_c = tree.value.num, tree.value.den or ""
    x1, n1 = round(float(before[num_c])), round(float(before[den_c]))
    x2, n2 = round(float(after[num_c])), round(float(after[den_c]))
    if not (0 <= x1 <= n1 and 0 <= x2 <= n2 and n1 > 0 and n2 > 0):
        return None
    prop = two_proportion_test(x1, n1, x2, n2, ALPHA)
    lo, hi = prop.ci or (prop.estimate, prop.estimate)
    test = stat_test(
        text("analysis.stats_rate_name", lang, label=label),
        prop.method,
        prop.estimate,
        (lo, hi),
        effect_size=dec(prop.effect_size or 0.0),
        effect_size_kind="cohen_h",
        p_value=Decimal(repr(prop.p_value or 0.0)),
        n=n1 + n2,
        assumptions=prop.assumptions,
        evidence_ids=(ev,),
    )
    pp = text("analysis.unit_pp", lang)
    p = prop.p_value or 0.0
    p_shown, p_rel = p_number("stats.rate_p", "p", p, ev)
    numbers = (
        number("stats.rate_previous", text("analysis.stats_rate_previous", lang), prop.p1 * 100, "%", 3, ev),
        number("stats.rate_current", text("analysis.stats_rate_current", lang), prop.p2 * 100, "%", 3, ev),
        number("stats.rate_diff", text("analysis.stats_rate_diff", lang), prop.estimate * 100, pp, 3, ev),
        number("stats.rate_ci_low", text("analysis.ci_low", lang), lo * 100, pp, 3, ev),
        number("stats.rate_ci_high", text("analysis.ci_high", lang), hi * 100, pp, 3, ev),
        p_shown,
        number("stats.cohen_h", "Cohen's h", prop.effect_size or 0.0, "h", 3, ev),
    )
    finding = Finding(
        finding_id="stats-proportion",
        kind="rate_test",
        summary=text("analysis.stats_rate_finding", lang, p_rel=p_rel),
        confidence=0.95 if p < ALPHA else 0.6,
        evidence_ids=(ev,),
        numbers=numbers,
    )
    return test, finding


def _method_words(method: str, lang: Language) -> str:
    """A two-sample test's name in the reader's language (the test's record keeps its own)."""
    return text("analysis.method_welch" if method.startswith("Welch") else "analysis.method_student", lang)
