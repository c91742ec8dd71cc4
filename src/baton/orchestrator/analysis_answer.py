"""The analysis Answer, built from the relay's checkpoints — the same function live and on
replay — and what the output gate checks its narrative against.

The drivers, tests, findings and quality flags are the typed values the agents made; nothing
is re-parsed from text or re-coerced from a dict on the way.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from baton.contracts.agent_outputs import (
    AgentOutputBase,
    InsightOutput,
    QualityOutput,
    ReportedFinding,
    ReportOutput,
    SqlOutput,
    StatsOutput,
    StatTest,
    TrendOutput,
)
from baton.contracts.answer import Answer, AnswerTimeRange, HandoffInfo
from baton.contracts.semantic import SemanticQuery
from baton.errors import BatonError
from baton.orchestrator.ask import suppression_notes
from baton.orchestrator.driver import GateInput, RunScope, base_fields
from baton.orchestrator.planning import PlanOutput
from baton.orchestrator.planning import assumptions as plan_assumptions

if TYPE_CHECKING:
    from baton.orchestrator.analyze import AgentStep


def _output(steps: dict[str, AgentStep[Any]], name: str, model: type[Any]) -> Any:
    done = steps.get(name)
    return done.output if done is not None and isinstance(done.output, model) else None


def analysis_answer(scope: RunScope, planned: PlanOutput, steps: dict[str, AgentStep[Any]]) -> Answer:
    """Checkpoints -> the analysis Answer (with its chart)."""
    from baton.agents.report import said

    query = planned.query
    sql: SqlOutput | None = _output(steps, "sql", SqlOutput)
    quality: QualityOutput | None = _output(steps, "quality", QualityOutput)
    stats: StatsOutput | None = _output(steps, "stats", StatsOutput)
    insight: InsightOutput | None = _output(steps, "insight", InsightOutput)
    report: ReportOutput | None = _output(steps, "report", ReportOutput)
    outputs: list[tuple[str, AgentOutputBase]] = [
        (name, done.output) for name, done in steps.items() if name != "report"
    ]
    findings = [
        ReportedFinding(
            agent=name,
            finding_id=f.finding_id,
            kind=f.kind,
            text=said(f),
            confidence=f.confidence,
            evidence_ids=f.evidence_ids,
            numbers=f.numbers,
        )
        for name, out in outputs
        for f in out.findings
    ]
    assumptions: list[str] = []
    read = plan_assumptions(query, scope.language)
    limited = suppression_notes([e.result for e in scope.state.evidence if e.result is not None], scope.language)
    for item in [
        *read,
        *planned.notes,
        *planned.grant_notes,
        *(a.text for _, o in outputs for a in o.assumptions_made),
        *limited,
    ]:
        if item not in assumptions:
            assumptions.append(item)
    freshness = next((said(f) for f in (quality.findings if quality else ()) if f.kind == "freshness"), None)
    answer = Answer(
        **base_fields(scope.state),
        status="answered",
        answer=report.answer if report is not None else "",
        sections=list(report.sections) if report is not None else [],
        semantic_query=query,
        sql=sql.sql if sql is not None else None,
        metrics=planned.metrics,
        time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
        data_freshness=freshness,
        assumptions=assumptions,
        drivers=list(insight.drivers) if insight is not None else [],
        findings=findings,
        tests=_tests(stats, insight),
        quality_flags=list(quality.flags) if quality is not None else [],
        excluded_paths=[f"{x.path} — {x.reason}" if x.reason else x.path for _, o in outputs for x in o.paths_excluded],
        handoffs=[
            HandoffInfo(step=done.step, agent=name, context_id=done.context_id, tokens=done.tokens)
            for name, done in steps.items()
        ],
    )
    return answer.model_copy(update={"chart": _chart(scope, answer, sql, steps)})


def _tests(stats: StatsOutput | None, insight: InsightOutput | None) -> list[StatTest]:
    """The stats agent's tests, then one test per driver: the member's own relative change of
    its factor with its interval (both tests' p, BH q)."""
    from decimal import Decimal

    from baton.agents.stats_agent import dec

    tests = list(stats.tests) if stats is not None else []
    for d in insight.drivers if insight is not None else ():
        own = d.factor_change or 0.0
        low, high = d.ci if d.ci is not None else (own, own)
        tests.append(
            StatTest(
                name=" × ".join(f"{k}={v}" for k, v in d.members.items()) + f" · {d.factor} ({d.role})",
                method="Welch t-tests on daily values: the member's own change and its change against the rest "
                "(both required, p the larger); Fieller CI of the own relative change; BH q",
                estimate=dec(own),
                ci_low=dec(min(low, own)),
                ci_high=dec(max(high, own)),
                effect_size=dec(own),
                effect_size_kind="relative_change",
                # exact p and q (a bound is only how the text states them)
                p_value=Decimal(repr(d.p_value)) if d.p_value is not None else None,
                q_value=Decimal(repr(d.q_value)) if d.q_value is not None else None,
                evidence_ids=d.evidence_ids,
                agent="insight",
            )
        )
    return tests


def _chart(
    scope: RunScope, answer: Answer, sql: SqlOutput | None, steps: dict[str, AgentStep[Any]]
) -> dict[str, Any] | None:
    """The daily series behind the analysis, incomplete days and events marked (a chart that
    cannot be built never costs the answer)."""
    from baton.agents.chart import analysis_chart

    trend: TrendOutput | None = _output(steps, "trend", TrendOutput)
    if sql is None or answer.semantic_query is None:
        return None
    incomplete = [f.date for f in answer.quality_flags if f.date is not None and f.issue == "incomplete"]
    try:
        return analysis_chart(
            scope.session.catalog,
            answer.semantic_query,
            [dict(r) for r in sql.rows],
            answer.language,
            incomplete=incomplete,
            change_points=[c.date for c in trend.change_points] if trend is not None else [],
        )
    except BatonError:
        return None


def _numbers_in(value: Any, out: list[float]) -> None:
    """Every number in an agent's structured output (numbers serialised as strings included)."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        out.append(float(value))
    elif isinstance(value, str):
        try:
            out.append(float(value))
        except ValueError:
            return
    elif isinstance(value, dict):
        for item in value.values():
            _numbers_in(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _numbers_in(item, out)


def _periods_said(query: SemanticQuery | None) -> list[str]:
    """The periods as the question said them ("第26周", "week 26"): words, never numbers to trace."""
    if query is None:
        return []
    said = [query.time_range.text or ""]
    if query.comparison is not None:
        said.append(query.comparison.range.text or "")
    return said


def analysis_gate_input(scope: RunScope, answer: Answer, steps: dict[str, AgentStep[Any]]) -> GateInput:
    """Every number the narrative may state traces to a query result or a value the agents
    derived (findings, tests, drivers, quality flags); "significant" needs a test saying so."""
    from baton.agents.quality import LATE_LAG_DAYS
    from baton.policy.output_gate import ClaimSupport

    evidence_rows = [row for ev in scope.state.evidence if ev.result is not None for row in ev.result.rows]
    derived: list[Any] = []
    for done in steps.values():
        _numbers_in(done.output.model_dump(mode="json"), derived)
    for finding in answer.findings:
        derived += [n.value for n in finding.numbers]
    for test in answer.tests:
        _numbers_in(test.model_dump(mode="json"), derived)
    for driver in answer.drivers:
        _numbers_in(driver.model_dump(mode="json", exclude={"members", "factor", "evidence_ids"}), derived)
    # derived values the narrative may also state: the interval level of every CI (a method
    # parameter, 95 %), and the sizes of the structured lists it summarises
    derived += [0.95, 95, LATE_LAG_DAYS]  # … and the lag a late update is counted after ("more than 3 days")
    query = answer.semantic_query
    if query is not None and query.comparison is not None:  # the periods' lengths the summary states
        derived += [query.time_range.days, len(query.comparison.dates())]
    derived += [
        len(answer.quality_flags),
        sum(f.affects_period for f in answer.quality_flags),
        len(answer.drivers),
        len(answer.excluded_paths),
        len(answer.tests),
        len(answer.findings),
    ]
    claims = ClaimSupport.from_tests(answer.tests)
    insight = _output(steps, "insight", InsightOutput)
    passed = next((int(n.value) for n in insight.supporting if n.key == "insight.passed"), 0) if insight else 0
    return GateInput(
        evidence=evidence_rows,
        derived=derived,
        labels=[*_periods_said(query), *scope.session.planning_catalog.labels()],
        # member tests that passed back the report's "changed significantly" about members
        claims=dataclasses.replace(claims, significant_tests=claims.significant_tests + passed),
        pii_allowed=False,
    )
