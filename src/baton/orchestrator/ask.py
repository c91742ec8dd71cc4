"""The walk of a simple question: plan -> grants -> compile -> firewall -> run -> answer.

Every failure becomes an Answer with a status and a typed error in the question's language;
the trace keeps the detail (including an internal failure's traceback), the user never sees
a stack trace.
"""

from __future__ import annotations

import traceback
from datetime import date, timedelta
from typing import Any

import sqlglot
from pydantic import BaseModel, ConfigDict

from baton.agents.chart import chart_for_answer
from baton.agents.narrator import Narrator, period_text
from baton.agents.quality import completeness
from baton.catalog.compiler import compile_query
from baton.catalog.model import Catalog
from baton.catalog.quality_queries import daily_row_counts
from baton.contracts.answer import Answer, AnswerTimeRange, ErrorInfo, MetricInfo, QualityFlagInfo, ResultTable, Status
from baton.contracts.query import TableLoad
from baton.contracts.run import Budget, RunState, SqlRecord, Terminal
from baton.contracts.semantic import Language, SemanticQuery
from baton.errors import (
    AmbiguousQuestion,
    BatonError,
    BudgetExceeded,
    InsufficientEvidence,
    PermissionDenied,
    PolicyRefusal,
    UnknownMetric,
    UserCancelled,
)
from baton.nlu.gate import detect_language
from baton.orchestrator.run import RunContext
from baton.orchestrator.session import Session
from baton.policy import Principal
from baton.policy.output_gate import ClaimSupport, GateDecision, check_output, gate_narrative, refusal
from baton.sql import ApprovedSql, approve


def metric_info(catalog: Catalog, name: str, language: Language) -> MetricInfo:
    metric = catalog.metrics[name]
    if metric.is_ratio:
        parts = catalog.measures_of(name)
        num = metric.numerator if isinstance(metric.numerator, str) else parts[0].expression
        den = metric.denominator if isinstance(metric.denominator, str) else parts[1].expression
        expression = f"{num} / {den}"
        filters = [f"{'numerator' if i == 0 else 'denominator'}: {f}" for i, p in enumerate(parts) for f in p.filters]
    else:
        expression = metric.expression or ""
        filters = list(metric.filters)
    return MetricInfo(
        name=name,
        label=metric.label.for_lang(language),
        definition=metric.description.for_lang(language),
        expression=expression,
        filters=filters,
        owner=metric.owner,
    )


def check_grants(catalog: Catalog, query: SemanticQuery, principal: Principal, language: Language) -> list[str]:
    """Refuse out loud what the user may not see; return the row-filter notes that apply."""
    notes: list[str] = []
    for metric in query.metrics:
        for table in catalog.tables_of(metric):
            label = catalog.metrics[metric].label
            if not principal.can_read_table(table):
                raise PermissionDenied(
                    f"Not permitted: user {principal.user!r} may not read {label.en} (table {table}).",
                    f"不允许：用户“{principal.user}”无权查看{label.zh}（数据表 {table}）。",
                    detail={"user": principal.user, "table": table, "metric": metric},
                )
            restricted = principal.row_filters.get(table, {})
            for flt in query.filters:
                column = catalog.dimensions[flt.dimension].columns[table]
                allowed = restricted.get(column)
                if allowed is not None and any(m not in allowed for m in flt.members):
                    outside = [m for m in flt.members if m not in allowed]
                    raise PermissionDenied(
                        f"Not permitted: user {principal.user!r} may only see {column} in {list(allowed)}, "
                        f"not {outside}.",
                        f"不允许：用户“{principal.user}”只能查看 {column} 为 {'、'.join(allowed)} 的数据，"
                        f"无权查看 {'、'.join(outside)}。",
                        detail={"user": principal.user, "table": table, "column": column, "requested": outside},
                    )
            for column, allowed in restricted.items():
                note = (
                    f"按用户 {principal.user} 的权限，{table} 仅包含 {column} 为 {'、'.join(allowed)} 的数据。"
                    if language == "zh"
                    else f"Per the grants of user {principal.user}, {table} is limited to {column} in ({', '.join(allowed)})."
                )
                if note not in notes:
                    notes.append(note)
    return notes


def _assumptions(query: SemanticQuery, language: Language) -> list[str]:
    tr = query.time_range
    out = []
    if tr.text:
        out.append(
            f"“{tr.text}”按分析日期 {query.as_of.isoformat()} 解释为 {period_text(tr.start, tr.end, None, 'zh')}。"
            if language == "zh"
            else f"{tr.text!r} is read relative to as-of date {query.as_of.isoformat()}: {period_text(tr.start, tr.end, None, 'en')}."
        )
    if query.comparison is not None:
        c = query.comparison.range
        kind_zh = "环比（上一个同长度/同类周期）" if query.comparison.kind == "previous_period" else "同比（去年同期）"
        kind_en = "the previous period" if query.comparison.kind == "previous_period" else "the same period last year"
        out.append(
            f"对比期为{kind_zh}：{period_text(c.start, c.end, None, 'zh')}。"
            if language == "zh"
            else f"Compared with {kind_en}: {period_text(c.start, c.end, None, 'en')}."
        )
    return out


def _freshness_text(loads: list[TableLoad], query: SemanticQuery, language: Language) -> tuple[str | None, list[str]]:
    if not loads:
        return None, []
    newest = min(t.max_data_date for t in loads)
    parts = ", ".join(f"{t.table_name} {t.loaded_at.strftime('%Y-%m-%d %H:%M')}" for t in loads)
    text = (
        f"数据更新至 {newest.isoformat()}（加载时间：{parts}）"
        if language == "zh"
        else f"Data up to {newest.isoformat()} (loaded: {parts})"
    )
    notes = []
    if query.time_range.end > newest:
        notes.append(
            f"所选时间范围截至 {query.time_range.end.isoformat()}，但数据只更新到 {newest.isoformat()}，之后的日期没有数据。"
            if language == "zh"
            else f"The range ends {query.time_range.end.isoformat()} but data only reaches {newest.isoformat()}; later days have no data."
        )
    return text, notes


class ExplainInput(BaseModel):
    """Everything the explain step needs, checkpointed, so replay needs no warehouse."""

    model_config = ConfigDict(extra="forbid")
    query: SemanticQuery
    evidence_id: str
    approved_sql: str
    dialect: str
    tables: list[str]
    grant_notes: list[str]
    pii_allowed: bool
    freshness: list[TableLoad]
    incomplete_days: list[date] = []


def ask(
    session: Session,
    question: str,
    *,
    as_of: date | None = None,
    user: str | None = None,
    budget: Budget | None = None,
) -> Answer:
    """Answer one question; the run is persisted after every step of its state machine."""
    language: Language = "zh" if detect_language(question or "") == "zh" else "en"
    ctx = RunContext.start(
        kind="ask",
        question=question,
        user=user or session.settings.user,
        language=language,
        as_of=as_of or session.settings.as_of or date.today(),
        store=session.store,
        runs_dir=session.runs_dir,
        budget=budget or session.settings.budget,
        config_path=str(session.settings.config_path),
    )
    return drive_ask(session, ctx, full_question=question)


def drive_ask(session: Session, ctx: RunContext, *, full_question: str | None = None) -> Answer:
    """Run (or continue) the ask state machine; completed steps come from checkpoints.

    The state keeps at most 2,000 characters of the question; the planner (and its input
    gate) sees the full text, so an oversized question is refused, not silently cut."""
    state = ctx.state
    language = state.language
    query: SemanticQuery | None = None
    try:
        principal = session.principal(state.user)
        catalog = session.catalog

        planned = ctx.completed("clarify_metric")
        if planned is None:
            ctx.enter("clarify_metric")
            query = session.planner.plan(
                full_question if full_question is not None else state.question, as_of=state.as_of
            )
            ctx.trace.emit("plan_created", semantic_query=query.model_dump(mode="json"))
            state.semantic_query = query
            ctx.complete("clarify_metric", query.model_dump(mode="json"))
        else:
            query = SemanticQuery.model_validate(planned)

        drafted = ctx.completed("plan_sql")
        if drafted is None:
            ctx.enter("plan_sql")
            compiled = compile_query(
                query, catalog, dialect="postgres" if session.settings.dialect == "postgres" else "duckdb"
            )
            state.sql = [SqlRecord(name="answer", draft=compiled.sql)]
            drafted = {"sql": compiled.sql, "dialect": compiled.dialect, "tables": list(compiled.tables)}
            ctx.complete("plan_sql", drafted)

        def policy_check(recheck: bool) -> tuple[ApprovedSql, list[str]]:
            notes = check_grants(catalog, query, principal, language)
            large = {t: catalog.time_column(t) for t, info in catalog.tables.items() if info.large}
            approved = approve(
                drafted["sql"],
                principal=principal,
                schema=session.schema,
                dialect=drafted["dialect"],
                language=language,
                row_limit=session.settings.row_cap,
                large_tables=large,
                estimate_cost=session.backend.explain_cost if principal.max_cost is not None else None,
            )
            ctx.policy_decision(
                "allow",
                tool="warehouse.query",
                approved_sql_id=approved.approved_sql_id,
                checks=list(approved.checks_passed),
                row_filters=list(approved.row_filters_applied),
                recheck=recheck,
            )
            return approved, notes

        checked = ctx.completed("policy_check")
        if checked is None:
            ctx.enter("policy_check")
            approved, notes = policy_check(recheck=False)
            if approved.estimated_cost is not None:
                ctx.charge_cost(float(approved.estimated_cost))
            state.sql[0].approved_sql_id = approved.approved_sql_id
            state.sql[0].approved_sql = approved.sql
            checked = {"approved": approved.model_dump(mode="json"), "notes": notes}
            ctx.complete("policy_check", checked)
        elif ctx.completed("execute") is None:
            # resumed after the check: grants may have changed and approvals expire, so the
            # stored approval is never trusted; the statement is checked again as the user now
            approved, _ = policy_check(recheck=True)
            checked = {**checked, "approved": approved.model_dump(mode="json")}
        approved = ApprovedSql.model_validate(checked["approved"])

        executed = ctx.completed("execute")
        if executed is None:
            ctx.enter("execute")
            session.registry.register(approved)
            result = ctx.tool_call(
                "warehouse.query",
                {"approved_sql_id": approved.approved_sql_id},
                lambda: session.runner.run(approved.approved_sql_id, user=state.user),
            )
            ctx.add_query_evidence(result, name="answer", user=state.user)
            state.sql[0].evidence_id = result.evidence_id
            ctx.policy_decision("allow", tool="warehouse.freshness", reason="system metadata (meta_table_load)")
            fresh = ctx.tool_call("warehouse.freshness", {"tables": drafted["tables"]}, session.runner.freshness)
            incomplete = daily_completeness(session, ctx, principal, query, drafted, language)
            executed = ExplainInput(
                query=query,
                evidence_id=result.evidence_id,
                approved_sql=approved.sql,
                dialect=drafted["dialect"],
                tables=list(drafted["tables"]),
                grant_notes=list(checked["notes"]),
                pii_allowed=not principal.pii,
                freshness=fresh.for_tables(drafted["tables"]),
                incomplete_days=incomplete,
            ).model_dump(mode="json")
            ctx.complete("execute", executed)

        ctx.enter("explain")
        answer = explain(catalog, state, ExplainInput.model_validate(executed))
        for event in answer_events(answer):
            ctx.trace.emit("policy_decision", **event)
        ctx.complete("explain")
        ctx.finish("done" if answer.status == "answered" else "refused", answer)
    except KeyboardInterrupt:
        cancel_run(ctx, query)
        raise
    except BudgetExceeded as exc:
        answer = partial_answer(state, exc, query)
        ctx.policy_decision("stop", gate="cost", error=exc.to_dict(language))
        ctx.finish("failed", answer, error=exc.to_dict(language))
    except BatonError as exc:
        answer = failure_answer(state, exc, query)
        ctx.policy_decision("deny" if isinstance(exc, PolicyRefusal) else "stop", error=exc.to_dict(language))
        terminal: Terminal = "refused" if answer.status in {"refused", "clarification_needed"} else "failed"
        ctx.finish(terminal, answer, error=exc.to_dict(language))
    except Exception as exc:
        ctx.trace.emit(
            "tool_call", tool="internal", ok=False, error_code="tool_failure", traceback=traceback.format_exc()
        )
        answer = Answer(
            **_base(state),
            status="failed",
            answer="内部错误，本次未能回答；详情已记录在运行轨迹中。"
            if language == "zh"
            else "Internal error; the details are in the run trace.",
            error=ErrorInfo(code="tool_failure", message=type(exc).__name__),
        )
        ctx.finish("failed", answer, error={"code": "tool_failure", "message": type(exc).__name__})
    return answer


def _base(state: RunState) -> dict[str, Any]:
    return {
        "run_id": state.run_id,
        "question": state.question,
        "language": state.language,
        "user": state.user,
        "as_of": state.as_of,
    }


def daily_completeness(
    session: Session,
    ctx: RunContext,
    principal: Principal,
    query: SemanticQuery,
    drafted: dict[str, Any],
    language: Language,
) -> list[date]:
    """For a daily series, the days whose rows fall far below the same weekday of earlier weeks
    (a partly loaded day), so the answer marks them instead of presenting them as real dips.
    The row counts are one more governed query: firewall, policy decision, tool call."""
    if query.grain != "day" or query.time_range.days > 400:
        return []
    catalog = session.catalog
    table = drafted["tables"][0]
    if not catalog.tables[table].large:
        return []
    start = query.time_range.start - timedelta(weeks=8)
    sql = daily_row_counts(catalog, table, start, query.time_range.end).sql(dialect=drafted["dialect"])
    large = {t: catalog.time_column(t) for t, info in catalog.tables.items() if info.large}
    approved = approve(
        sql,
        principal=principal,
        schema=session.schema,
        dialect=drafted["dialect"],
        language=language,
        large_tables=large,
    )
    ctx.policy_decision(
        "allow", tool="warehouse.query", approved_sql_id=approved.approved_sql_id, purpose="completeness"
    )
    session.registry.register(approved)
    result = ctx.tool_call(
        "warehouse.query",
        {"approved_sql_id": approved.approved_sql_id},
        lambda: session.runner.run(approved.approved_sql_id, user=ctx.state.user),
    )
    counts = {date.fromisoformat(str(r[0])[:10]): int(r[1]) for r in result.rows if r[0] is not None}
    days = [d for d in counts if query.time_range.start <= d <= query.time_range.end]
    return sorted(c.day for c in completeness(counts, sorted(days)) if c.incomplete)


def explain(catalog: Catalog, state: RunState, data: ExplainInput) -> Answer:
    """The answer, as a pure function of the run's checkpoints and evidence (replayable)."""
    language = state.language
    query = data.query
    evidence = state.evidence_by_id(data.evidence_id)
    if evidence is None or evidence.result is None:
        raise InsufficientEvidence(
            f"Evidence {data.evidence_id} is missing from the run.", f"运行记录缺少证据 {data.evidence_id}。"
        )
    result = evidence.result
    table = ResultTable(
        columns=result.columns, rows=result.rows, row_count=result.row_count, truncated=result.truncated
    )
    freshness, fresh_notes = _freshness_text(data.freshness, query, language)
    text = Narrator(catalog).compose(query, table, language)
    text, gate = _output_gate(catalog, query, table, data.pii_allowed, text, language)
    chart = _chart(catalog, query, table, language, tuple(data.incomplete_days)) if gate.ok else None
    flags = [
        QualityFlagInfo(
            table=t,
            date=day,
            issue="incomplete: "
            + (
                "当日行数明显低于前几周同星期"
                if language == "zh"
                else "far fewer rows than the same weekday in earlier weeks"
            ),
            affects_period=True,
            assumption=(
                f"{day.isoformat()} 的数据不完整：图中单独标出，数值按已加载数据计算，可能偏低。"
                if language == "zh"
                else f"{day.isoformat()} is incomplete: marked on the chart; its value uses the data as loaded and may be understated."
            ),
        )
        for t in data.tables[:1]
        for day in data.incomplete_days
    ]
    answer = Answer(
        **_base(state),
        status="answered",
        answer=text,
        semantic_query=query,
        sql=_pretty(data.approved_sql, data.dialect),
        result=table,
        metrics=[metric_info(catalog, m, language) for m in query.metrics],
        time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
        data_freshness=freshness,
        assumptions=[
            *_assumptions(query, language),
            *data.grant_notes,
            *fresh_notes,
            *(f.assumption or "" for f in flags),
        ],
        chart=chart,
        gate=gate,
        quality_flags=flags,
    )
    if not gate.ok:
        answer = failure_answer(state, refusal(gate, language), query).model_copy(update={"gate": gate})
    return answer


def answer_events(answer: Answer) -> list[dict[str, Any]]:
    """The output gate's decision, as trace payloads (the decision is traced, not just taken)."""
    gate = answer.gate
    if gate is None:
        return []
    return [
        {
            "gate": "output",
            "decision": "allow" if gate.ok else "deny",
            "action": gate.action,
            "numbers_checked": gate.numbers_checked,
            "violations": [v.model_dump() for v in [*gate.replaced, *gate.violations]],
            "rounding_rule": gate.rounding_rule,
        }
    ]


def _output_gate(
    catalog: Catalog, query: SemanticQuery, table: ResultTable, pii_allowed: bool, text: str, language: Language
) -> tuple[str, GateDecision]:
    """Check the narrative against the result (numbers, PII, claims); regenerate it from the
    structured result once if it fails. The caller refuses the answer if it still fails."""
    names = {c.name for c in table.columns}
    derived: list[Any] = [table.row_count, len(table.rows), len(query.metrics), query.time_range.days]
    derived += [query.top_n] if query.top_n is not None else []
    for dim in query.dimensions:
        if dim in names:
            index = [c.name for c in table.columns].index(dim)
            derived.append(len({row[index] for row in table.rows}))
    labels = [query.time_range.text or ""]
    for metric in catalog.metrics.values():
        labels += [metric.label.zh, metric.label.en, *metric.synonyms]
    for dimension_info in catalog.dimensions.values():
        labels += [dimension_info.label.zh, dimension_info.label.en, *dimension_info.synonyms]
    for dimension in catalog.dimensions.values():
        for member in dimension.members.values():
            labels += [member.label.zh, member.label.en, *member.synonyms]

    def check(candidate: str) -> GateDecision:
        return check_output(
            candidate,
            evidence=table.rows,
            derived=derived,
            language=language,
            claims=ClaimSupport(),
            pii_allowed=pii_allowed,
            labels=labels,
        )

    return gate_narrative(text, check, lambda: Narrator(catalog).compose(query, table, language))


def _chart(
    catalog: Catalog, query: SemanticQuery, table: ResultTable, language: Language, incomplete: tuple[date, ...]
) -> dict[str, Any] | None:
    """The answer's chart spec (declarative; no code runs); a chart that cannot be built never costs the answer."""
    try:
        return chart_for_answer(catalog, query, table, language, incomplete)
    except BatonError:
        return None


def _pretty(sql: str, dialect: str) -> str:
    """The executed statement, laid out for reading (same tree, same semantics)."""
    return sqlglot.transpile(sql, read=dialect, write=dialect, pretty=True)[0]


def cancel_run(ctx: RunContext, query: SemanticQuery | None) -> None:
    """Ctrl-C: the run ends as cancelled with its state kept (it can be resumed)."""
    exc = UserCancelled("Cancelled by the user.", "用户已取消。")
    ctx.policy_decision("stop", error=exc.to_dict(ctx.state.language))
    ctx.finish("cancelled", failure_answer(ctx.state, exc, query), error=exc.to_dict(ctx.state.language))


def partial_answer(state: RunState, exc: BudgetExceeded, query: SemanticQuery | None) -> Answer:
    """Stopped by a budget: keep what finished (the query result, if any) and say so."""
    answer = failure_answer(state, exc, query)
    finished = ", ".join(state.completed_steps) or "-"
    result = None
    if state.evidence and state.evidence[-1].result is not None:
        r = state.evidence[-1].result
        result = ResultTable(columns=r.columns, rows=r.rows, row_count=r.row_count, truncated=r.truncated)
    text = (
        f"{exc.message('zh')} 运行已停止，已完成的步骤：{finished}；以下为部分结果，未经完整核对。"
        if state.language == "zh"
        else f"{exc.message('en')} The run stopped; finished steps: {finished}. Partial results below, not fully checked."
    )
    return answer.model_copy(update={"answer": text, "partial": True, "result": result})


def failure_answer(state: RunState, exc: BatonError, query: SemanticQuery | None) -> Answer:
    language = state.language
    status: Status
    if isinstance(exc, AmbiguousQuestion):
        status = "clarification_needed"
    elif isinstance(exc, PolicyRefusal | UnknownMetric):
        status = "refused"
    else:
        status = "failed"
    suggestions = [str(s) for s in exc.detail.get("suggestions", [])]
    return Answer(
        **_base(state),
        status=status,
        answer=exc.message(language),
        semantic_query=query,
        sql=None,
        error=ErrorInfo(code=exc.error_code, message=exc.message(language), detail=_jsonable(exc.detail)),
        suggestions=suggestions,
    )


def _jsonable(detail: dict[str, Any]) -> dict[str, Any]:
    return {
        k: (v if isinstance(v, str | int | float | bool | list | dict | type(None)) else str(v))
        for k, v in detail.items()
    }
