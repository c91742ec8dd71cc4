"""The analysis relay: plan → sql → quality → stats → trend → insight → report.

Each agent gets a :class:`TaskPacket` sliced from the ledger (only the keys it declares, rows
only for the agent that needs them, must_keep whole, earlier steps compressed by distance),
answers an :class:`AgentReport`, and the orchestrator merges ``data`` verbatim into the ledger
and passes the baton (task frozen, must_keep append-only, lineage checked). Every packet's
size in tokens is traced as a ``handoff`` event and the packet text is stored with the run.

Every step is checkpointed in the run state with its report, context id and token count, so
:func:`resume_analysis` continues a killed run without re-running finished agents, and
:func:`answer_from_state` rebuilds the final Answer from the checkpoints alone (replay).
"""

from __future__ import annotations

import contextlib
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from types import SimpleNamespace
from typing import Any

from baton.agents import insight as insight_agent
from baton.agents import quality as quality_agent
from baton.agents import report as report_agent
from baton.agents import sql_agent, stats_agent
from baton.agents import trend as trend_agent
from baton.agents.chart import analysis_chart
from baton.agents.tools import PLAN_KEY, QueryTool, bi
from baton.context import (
    AgentSpec,
    Grants,
    Ledger,
    PacketRequest,
    StepRecord,
    build_packet,
    merge_report,
    pass_baton,
    start_relay,
)
from baton.contracts.agent_outputs import (
    OUTPUT_MODELS,
    AgentOutputBase,
    AnyAgentOutput,
    InsightOutput,
    QualityOutput,
    ReportOutput,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.answer import (
    Answer,
    AnswerTimeRange,
    DriverInfo,
    ErrorInfo,
    HandoffInfo,
    MetricInfo,
    QualityFlagInfo,
)
from baton.contracts.handoff import AgentReport, Baton, MustKeep, Task
from baton.contracts.run import Budget, RunState, Terminal
from baton.contracts.semantic import Comparison, Language, SemanticQuery, TimeRange
from baton.errors import BatonError, BudgetExceeded, InsufficientEvidence, InternalFailure, PolicyRefusal
from baton.nlu.gate import detect_language
from baton.orchestrator.ask import cancel_run, check_grants, failure_answer, metric_info
from baton.orchestrator.run import RunContext
from baton.orchestrator.session import Session
from baton.policy import Principal
from baton.policy.output_gate import ClaimSupport, check_output, refusal

PROJECT_CONTEXT = (
    "Baton analyses a governed warehouse through its metric catalog, read-only and as the asking user. "
    "Every number must come from a query result and be quoted exactly."
)
RELAY: tuple[str, ...] = ("sql", "quality", "stats", "trend", "insight", "report")
TOKEN_BUDGET = {"trend": 40_000, "report": 16_000}
"""Token budgets per packet; the trend agent reads the daily series itself (≈60 tokens a day)."""
DEFAULT_BUDGET = 8_000

SPECS: dict[str, AgentSpec] = {
    "sql": AgentSpec(
        "sql",
        "Compile the headline comparison and the daily series of the metric tree through the catalog; run them as the user.",
        SqlOutput,
        (PLAN_KEY,),
    ),
    "quality": AgentSpec(
        "quality",
        "Check freshness, daily completeness, nulls, duplicate keys and late-arriving data for the analysed periods.",
        QualityOutput,
        (PLAN_KEY,),
    ),
    "stats": AgentSpec(
        "stats",
        "Test whether the change is real: Welch on daily values from SQL sufficient statistics; rates by two-proportion tests.",
        StatsOutput,
        (PLAN_KEY, "quality.output"),
    ),
    "trend": AgentSpec(
        "trend",
        "Describe the daily series: slope with CI, Mann–Kendall, change points, anomalies against the same weekday.",
        TrendOutput,
        (PLAN_KEY, "sql.output", "quality.output"),
        needs_rows=True,
    ),
    "insight": AgentSpec(
        "insight",
        "Find where the change came from: metric-tree factors per member and pair of dimensions, tested, BH-adjusted.",
        InsightOutput,
        (PLAN_KEY, "quality.output", "stats.output"),
    ),
    "report": AgentSpec(
        "report",
        "Write the answer first, then drivers with intervals, quality caveats, assumptions and excluded paths.",
        ReportOutput,
        (PLAN_KEY, "sql.output", "quality.output", "stats.output", "trend.output", "insight.output"),
    ),
}


@dataclass(frozen=True)
class _Agent:
    run: Callable[[Any, Any], AgentReport[Any]]
    deps: Callable[[QueryTool, Session], Any]


AGENTS: dict[str, _Agent] = {
    "sql": _Agent(sql_agent.run, lambda t, s: sql_agent.SqlDeps(t, s.catalog)),
    "quality": _Agent(quality_agent.run, lambda t, s: quality_agent.QualityDeps(t, s.catalog, dict(s.schema))),
    "stats": _Agent(stats_agent.run, lambda t, s: stats_agent.StatsDeps(t, s.catalog)),
    "trend": _Agent(trend_agent.run, lambda t, s: trend_agent.TrendDeps(s.catalog)),
    "insight": _Agent(insight_agent.run, lambda t, s: insight_agent.InsightDeps(t, s.catalog)),
    "report": _Agent(report_agent.run, lambda t, s: report_agent.ReportDeps(s.catalog)),
}

_DROP_VERB = re.compile(r"(?<![a-z])drop(s|ped|ping)?(?![a-z])", re.IGNORECASE)
_WHY_START = re.compile(r"^\s*(why|what caused|what drove)\b", re.IGNORECASE)


def _with_comparison(query: SemanticQuery) -> SemanticQuery:
    if query.comparison is not None:
        return query.model_copy(update={"intent": "why"})
    days = query.time_range.days
    prev = TimeRange(
        start=query.time_range.start - timedelta(days=days), end=query.time_range.start - timedelta(days=1)
    )
    return query.model_copy(
        update={"comparison": Comparison(kind="previous_period", range=prev), "grain": None, "intent": "why"}
    )


def _checkpoint_key(agent: str) -> str:
    return f"agent:{agent}"


def _tool(ctx: RunContext, session: Session, user: str, language: Language) -> QueryTool:
    return QueryTool(
        ctx=ctx,
        principal=session.principal(user),
        catalog=session.catalog,
        schema=session.schema,
        registry=session.registry,
        runner=session.runner,
        backend=session.backend,
        dialect="duckdb" if session.settings.dialect == "duckdb" else "postgres",
        language=language,
        row_cap=session.settings.row_cap,
    )


def _plan(ctx: RunContext, session: Session, full_question: str | None) -> dict[str, Any]:
    done = ctx.completed("plan")
    if done is not None:
        return dict(done)
    state = ctx.state
    ctx.enter("clarify_metric")
    principal = session.principal(state.user)
    question = full_question if full_question is not None else state.question
    query = _with_comparison(session.planner.plan(question, as_of=state.as_of))
    ctx.trace.emit("plan_created", semantic_query=query.model_dump(mode="json"), entry="analyze")
    ctx.enter("policy_check")
    notes = check_grants(session.catalog, query, principal, state.language)
    ctx.policy_decision("allow", gate="grants", user=state.user, notes=notes)
    state.semantic_query = query
    plan = {
        "query": query.model_dump(mode="json"),
        "metrics": [metric_info(session.catalog, m, state.language).model_dump(mode="json") for m in query.metrics],
        "notes": notes,
    }
    ctx.complete("plan", plan)
    return plan


def _relay(ctx: RunContext, session: Session, plan: dict[str, Any]) -> None:
    state = ctx.state
    language = state.language
    task = Task(
        question=state.question,
        language=language,
        goal=bi(language, "解释指标变化的原因", "explain why the metric moved"),
    )
    ledger = Ledger()
    ledger.add("data", source_agent="planner", step=0, key=PLAN_KEY, data=plan["query"])
    tool = _tool(ctx, session, state.user, language)
    baton: Baton | None = None
    records: list[StepRecord] = []
    constraints = (
        bi(
            language,
            "只读；所有查询经目录编译并以提问用户身份通过防火墙。",
            "Read-only; every query compiles through the catalog and passes the firewall as the asking user.",
        ),
        bi(language, "数字原样引用，不得改写。", "Quote numbers exactly; never re-tell them."),
    )
    states = {"sql": "plan_sql", "quality": "execute", "stats": "analyse", "report": "explain"}
    for step, name in enumerate(RELAY, 1):
        spec = SPECS[name]
        model: type[AgentOutputBase] = OUTPUT_MODELS[name]
        saved = ctx.completed(_checkpoint_key(name))
        if saved is None:
            if name in states:
                ctx.enter(states[name])  # type: ignore[arg-type]
            else:
                ctx.charge_step()  # every agent step counts against the step budget
            packet, text = build_packet(
                PacketRequest(
                    spec=spec,
                    task=task,
                    constraints=constraints,
                    must_keep=baton.must_keep if baton is not None else MustKeep(),
                    snapshot=ledger.snapshot(),
                    history=tuple(records),
                    step=step,
                    project_context=PROJECT_CONTEXT,
                    grants=grants_for(session.principal(state.user)),
                    task_id=f"{state.run_id}:{name}",
                    parent_context_id=baton.lineage.context_id if baton is not None else None,
                    token_budget=TOKEN_BUDGET.get(name, DEFAULT_BUDGET),
                )
            )
            tokens = packet.token_count or 0
            ctx.trace.emit(
                "handoff",
                step=step,
                agent=name,
                context_id=packet.context_id,
                packet_ref=packet.context_id,
                report_ref=f"{packet.context_id}:report",
                tokens=tokens,
                parent_context_id=packet.parent_context_id,
                over_budget=packet.over_budget,
                dropped=list(packet.dropped),
            )
            ctx.store.put_packet(state.run_id, packet.context_id, text)
            ctx.charge_tokens(tokens)
            report = AGENTS[name].run(packet, AGENTS[name].deps(tool, session))
            if report.status == "failed" or report.result is None:
                raise InsufficientEvidence(
                    f"The {name} agent could not finish: {'; '.join(report.issues) or 'no result'}",
                    f"{name} 智能体未能完成：{'；'.join(report.issues) or '无结果'}",
                    detail={"agent": name, "issues": list(report.issues)},
                )
            ctx.store.put_packet(state.run_id, f"{packet.context_id}:report", report.model_dump_json())
            saved = {
                "step": step,
                "context_id": packet.context_id,
                "parent_context_id": packet.parent_context_id,
                "tokens": tokens,
                "report": report.model_dump(mode="json"),
            }
            ctx.complete(_checkpoint_key(name), saved)
        report = AgentReport[model].model_validate(saved["report"])  # type: ignore[valid-type]
        assert report.result is not None
        merge_report(ledger, report, agent=name, step=step, context_id=str(saved["context_id"]))
        payload: AnyAgentOutput = report.result.data
        if baton is None:
            baton = start_relay(
                task,
                payload,
                run_id=state.run_id,
                constraints=constraints,
                expected_output=model,
                context_id=str(saved["context_id"]),
            )
        else:
            baton = pass_baton(baton, payload, expected_output=model, context_id=str(saved["context_id"]))
        records.append(StepRecord(step, name, payload))


def _load(state: RunState, name: str) -> Any:
    saved = state.checkpoints.get(_checkpoint_key(name))
    if saved is None:
        return None
    report = AgentReport[OUTPUT_MODELS[name]].model_validate(saved["report"])  # type: ignore[valid-type]
    return report.result.data if report.result is not None else None


def answer_from_state(state: RunState) -> Answer:
    """The final Answer as a pure function of the run's checkpoints (what replay calls)."""
    plan = state.checkpoints["plan"]
    query = SemanticQuery.model_validate(plan["query"])
    lang: Language = state.language
    sql: SqlOutput = _load(state, "sql")
    quality: QualityOutput = _load(state, "quality")
    stats: StatsOutput = _load(state, "stats")
    trend: TrendOutput = _load(state, "trend")
    insight: InsightOutput = _load(state, "insight")
    report: ReportOutput = _load(state, "report")
    outputs: list[tuple[str, AgentOutputBase]] = [
        (n, o)
        for n, o in (("sql", sql), ("quality", quality), ("stats", stats), ("trend", trend), ("insight", insight))
        if o is not None
    ]
    drivers = [
        DriverInfo(
            members=dict(d["members"]),
            factor=str(d["factor"]),
            change=float(d["change"]),
            share_of_change=float(d["share_of_change"]),
            p_value=float(d["p_value"]),
            ci=[float(x) for x in d["ci"]],
            q_value=float(d["q_value"]),
            significant=True,
            evidence_ids=[str(d["evidence_id"])],
        )
        for d in (insight_agent.driver_details(insight) if insight is not None else [])
    ]
    findings = [
        {
            "agent": name,
            "finding_id": f.finding_id,
            "text": report_agent.said(f),
            "confidence": f.confidence,
            "evidence_ids": list(f.evidence_ids),
            "numbers": [n.model_dump(mode="json") for n in f.numbers],
        }
        for name, out in outputs
        for f in out.findings
    ]
    tests: list[dict[str, Any]] = [
        {"agent": "stats", **t.model_dump(mode="json")} for t in (stats.tests if stats else ())
    ]
    for d in insight_agent.driver_details(insight) if insight is not None else []:
        tests.append(
            {
                "agent": "insight",
                "name": " × ".join(f"{k}={v}" for k, v in d["members"].items()) + f" · {d['factor']} vs rest",
                "method": "Welch t-test on daily member/rest values; delta-method CI of the relative change; BH q",
                "estimate": d["excess_relative_change"],
                "ci_low": d["ci"][0],
                "ci_high": d["ci"][1],
                "p_value": d["p_value"],
                "q_value": d["q_value"],
                "evidence_ids": [d["evidence_id"]],
            }
        )
    assumptions: list[str] = []
    for text in [*plan.get("notes", []), *(a.text for _, o in outputs for a in o.assumptions_made)]:
        if text not in assumptions:
            assumptions.append(text)
    excluded = [f"{x.path} — {x.reason}" if x.reason else x.path for _, o in outputs for x in o.paths_excluded]
    handoffs = [
        HandoffInfo(step=int(c["step"]), agent=name, context_id=str(c["context_id"]), tokens=int(c["tokens"]))
        for name in RELAY
        if (c := state.checkpoints.get(_checkpoint_key(name))) is not None
    ]
    freshness = next(
        (report_agent.said(f) for f in (quality.findings if quality else ()) if f.finding_id == "quality-freshness"),
        None,
    )
    return Answer(
        run_id=state.run_id,
        status="answered",
        question=state.question,
        language=lang,
        answer=report_agent.report_text(report) if report is not None else "",
        semantic_query=query,
        sql=sql.sql if sql is not None else None,
        metrics=[MetricInfo.model_validate(m) for m in plan["metrics"]],
        time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
        data_freshness=freshness,
        assumptions=assumptions,
        user=state.user,
        as_of=state.as_of,
        drivers=drivers,
        findings=findings,
        tests=tests,
        quality_flags=[
            QualityFlagInfo(
                table=f.table, date=f.date, issue=f.issue, affects_period=f.affects_period, assumption=f.assumption
            )
            for f in (quality.flags if quality else ())
        ],
        excluded_paths=excluded,
        handoffs=handoffs,
    )


def grants_for(principal: Principal) -> Grants:
    """The asking user's grants as the context engine sees them: PII columns never reach an
    agent unless the user may see them and the agent needs them."""
    pii = frozenset(column for (_table, column), rule in principal.pii.items() if rule in {"deny", "mask"})
    return Grants(user_id=principal.user, pii_columns=pii, pii_allowed=not pii)


def _drive(ctx: RunContext, session: Session, full_question: str | None = None) -> Answer:
    state = ctx.state
    try:
        plan = _plan(ctx, session, full_question)
        _relay(ctx, session, plan)
        answer = final_answer(session, state)
        ctx.finish("done" if answer.status == "answered" else "refused", answer)
        return answer
    except KeyboardInterrupt:
        cancel_run(ctx, state.semantic_query)
        raise
    except BudgetExceeded as exc:
        answer = budget_answer(state, exc)
        ctx.policy_decision("stop", gate="cost", error=exc.to_dict(state.language))
        ctx.finish("failed", answer, error=exc.to_dict(state.language))
        return answer
    except BatonError as exc:
        answer = failure_answer(state, exc, state.semantic_query)
        ctx.policy_decision("deny" if isinstance(exc, PolicyRefusal) else "stop", error=exc.to_dict(state.language))
        terminal: Terminal = "refused" if answer.status in {"refused", "clarification_needed"} else "failed"
        ctx.finish(terminal, answer, error=exc.to_dict(state.language))
        return answer
    except Exception as exc:
        ctx.trace.emit(
            "tool_call", tool="internal", ok=False, error_code="tool_failure", traceback=traceback.format_exc()
        )
        error = InternalFailure(
            f"Internal error ({type(exc).__name__}); the details are in the run trace.",
            "内部错误，详情已记录在运行轨迹中。",
        )
        answer = failure_answer(state, error, state.semantic_query)
        ctx.finish("failed", answer, error=error.to_dict(state.language))
        return answer


def budget_answer(state: RunState, exc: BudgetExceeded) -> Answer:
    """Stopped by a budget: what the finished agents found is kept and marked partial."""
    base = failure_answer(state, exc, state.semantic_query)
    finished = ", ".join(state.completed_steps) or "-"
    text = (
        f"{exc.message('zh')} 分析已停止，已完成：{finished}；以下为部分结果，未经完整核对。"
        if state.language == "zh"
        else f"{exc.message('en')} The analysis stopped; finished: {finished}. Partial results below, not fully checked."
    )
    if "plan" not in state.checkpoints:
        return base.model_copy(update={"answer": text, "partial": True})
    partial = answer_from_state(state)
    return partial.model_copy(update={"status": "failed", "answer": text, "error": base.error, "partial": True})


def _numbers_in(value: Any, out: list[float]) -> None:
    """Every number in an agent's structured output (numbers serialised as strings included)."""
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, int | float):
        out.append(float(value))
    elif isinstance(value, str):
        with contextlib.suppress(ValueError):
            out.append(float(value))
    elif isinstance(value, dict):
        for item in value.values():
            _numbers_in(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _numbers_in(item, out)


def gated(session: Session, answer: Answer, state: RunState) -> Answer:
    """The output gate over the analysis narrative: every number must trace to a query result or
    a value derived in the ledger (the agents' structured outputs: findings, tests, drivers,
    quality flags); otherwise the answer is refused."""
    evidence_rows: list[list[Any]] = [row for ev in state.evidence if ev.result is not None for row in ev.result.rows]
    derived: list[float] = []
    for name in RELAY:
        saved = state.checkpoints.get(_checkpoint_key(name))
        if saved is not None:
            _numbers_in(saved["report"].get("result", {}).get("data"), derived)
    state_numbers: list[Any] = list(derived)
    for finding in answer.findings:
        state_numbers += [n.get("value") for n in finding.get("numbers", [])]
    for test in answer.tests:
        state_numbers += [v for v in test.values() if isinstance(v, int | float) and not isinstance(v, bool)]
    for driver in answer.drivers:
        state_numbers += [driver.change, driver.share_of_change, *(driver.ci or [])]
        if driver.p_value is not None:
            state_numbers.append(driver.p_value)
        if driver.q_value is not None:
            state_numbers.append(driver.q_value)
    # derived values the narrative may also state: the interval level of every CI (a method
    # parameter, 95 %), and the sizes of the structured lists it summarises
    state_numbers += [0.95, 95]
    state_numbers += [
        len(answer.quality_flags),
        sum(f.affects_period for f in answer.quality_flags),
        len(answer.drivers),
        len(answer.excluded_paths),
        len(answer.tests),
        len(answer.findings),
    ]
    decision = check_output(
        answer.answer,
        evidence=evidence_rows,
        derived=[v for v in state_numbers if v is not None],
        language=answer.language,
        claims=ClaimSupport.from_tests([SimpleNamespace(**t) for t in answer.tests]),
        pii_allowed=False,
        labels=["618", "双11", "双十一"],  # promotion names, not quantities
    )
    if decision.ok:
        return answer.model_copy(update={"gate": decision})
    return answer.model_copy(
        update={
            "status": "refused",
            "gate": decision,
            "answer": refusal(decision, answer.language).message(answer.language),
            "error": ErrorInfo(
                code="output_blocked", message=refusal(decision, answer.language).message(answer.language)
            ),
        }
    )


def analyze_session(
    session: Session,
    question: str,
    *,
    as_of: date | None = None,
    user: str | None = None,
    budget: Budget | None = None,
    run_id: str | None = None,
) -> Answer:
    """Run the analysis relay for ``question`` on an open session."""
    language: Language = "zh" if detect_language(question or "") == "zh" else "en"
    store = session.store
    ctx = RunContext.start(
        kind="analyze",
        question=question,
        user=user or session.settings.user,
        language=language,
        as_of=as_of or session.settings.as_of or date.today(),
        store=store,
        runs_dir=session.runs_dir,
        budget=budget or session.settings.budget,
        config_path=str(session.settings.config_path),
        run_id=run_id,
    )
    return _drive(ctx, session, full_question=question)


def replay_analysis(session: Session, state: RunState) -> Answer:
    """The analysis answer rebuilt from checkpoints alone (no warehouse), through the same gate."""
    return final_answer(session, state)


def final_answer(session: Session, state: RunState) -> Answer:
    """Checkpoints -> Answer (+ chart) -> output gate: the same path live and on replay."""
    return gated(session, with_chart(session, answer_from_state(state), state), state)


def with_chart(session: Session, answer: Answer, state: RunState) -> Answer:
    """The daily series behind the analysis, incomplete days and peaks marked (a chart that
    cannot be built never costs the answer)."""
    sql: SqlOutput | None = _load(state, "sql")
    trend: TrendOutput | None = _load(state, "trend")
    if sql is None or answer.semantic_query is None:
        return answer
    incomplete = [f.date for f in answer.quality_flags if f.date is not None and "incomplete" in f.issue]
    try:
        spec = analysis_chart(
            session.catalog,
            answer.semantic_query,
            [dict(r) for r in sql.rows],
            answer.language,
            incomplete=incomplete,
            change_points=[c.date for c in trend.change_points] if trend is not None else [],
        )
    except BatonError:
        return answer
    return answer.model_copy(update={"chart": spec})


def resume_analysis(session: Session, run_id: str) -> Answer:
    """Continue a run from its checkpoints: finished agents are not run again."""
    ctx = RunContext.resume(run_id, session.store, session.runs_dir)
    return _drive(ctx, session)


__all__ = ["analyze_session", "answer_from_state", "replay_analysis", "resume_analysis"]
