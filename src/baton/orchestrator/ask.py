"""The walk of a simple question: plan -> grants -> compile -> firewall -> run -> answer.

Every failure becomes an Answer with a status and a typed error in the question's language;
the trace keeps the detail (including an internal failure's traceback), the user never sees
a stack trace.
"""

from __future__ import annotations

import secrets
import time
import traceback
from datetime import UTC, date, datetime
from typing import Any

import sqlglot

from baton.agents.narrator import Narrator, period_text
from baton.catalog.compiler import compile_query
from baton.catalog.model import Catalog
from baton.contracts.answer import Answer, Status, AnswerTimeRange, ErrorInfo, MetricInfo, ResultTable
from baton.contracts.query import QueryResult
from baton.contracts.semantic import Language, SemanticQuery
from baton.errors import AmbiguousQuestion, BatonError, PermissionDenied, PolicyRefusal, UnknownMetric
from baton.nlu.gate import detect_language
from baton.orchestrator.session import Session
from baton.policy import Principal
from baton.sql import approve
from baton.trace.writer import TraceWriter, args_hash


def new_run_id() -> str:
    return "run_" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "_" + secrets.token_hex(3)


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


def _freshness_text(
    session: Session, tables: tuple[str, ...], query: SemanticQuery, language: Language
) -> tuple[str | None, list[str]]:
    try:
        fresh = session.runner.freshness()
    except BatonError:
        return None, []
    loads = fresh.for_tables(tables)
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


def ask(
    session: Session,
    question: str,
    *,
    as_of: date | None = None,
    user: str | None = None,
) -> Answer:
    run_id = new_run_id()
    trace = TraceWriter(run_id, session.runs_dir)
    started = time.perf_counter()
    language: Language = "zh" if detect_language(question or "") == "zh" else "en"
    acting_user = user or session.settings.user
    as_of_date = as_of or session.settings.as_of or date.today()
    trace.emit("run_started", question=question[:2000], user=acting_user, as_of=as_of_date.isoformat(), entry="ask")
    base: dict[str, Any] = {
        "run_id": run_id,
        "question": question[:2000],
        "language": language,
        "user": acting_user,
        "as_of": as_of_date,
    }
    query: SemanticQuery | None = None
    sql: str | None = None
    try:
        principal = session.principal(acting_user)
        query = session.planner.plan(question, as_of=as_of_date)
        trace.emit("plan_created", semantic_query=query.model_dump(mode="json"))
        catalog = session.catalog
        notes = check_grants(catalog, query, principal, language)
        compiled = compile_query(
            query, catalog, dialect="duckdb" if session.settings.dialect == "duckdb" else "postgres"
        )
        sql = compiled.sql
        large = {t: catalog.time_column(t) for t, info in catalog.tables.items() if info.large}
        approved = approve(
            compiled.sql,
            principal=principal,
            schema=session.schema,
            dialect=compiled.dialect,
            language=language,
            row_limit=session.settings.row_cap,
            large_tables=large,
            estimate_cost=session.backend.explain_cost if principal.max_cost is not None else None,
        )
        session.registry.register(approved)
        trace.emit(
            "policy_decision",
            decision="allow",
            approved_sql_id=approved.approved_sql_id,
            checks=list(approved.checks_passed),
            row_filters=list(approved.row_filters_applied),
        )
        t0 = time.perf_counter()
        result: QueryResult = session.runner.run(approved.approved_sql_id, user=acting_user)
        trace.emit(
            "tool_call",
            tool="warehouse.query",
            args_hash=args_hash({"approved_sql_id": approved.approved_sql_id}),
            latency_ms=round((time.perf_counter() - t0) * 1000, 3),
            ok=True,
            rows=result.row_count,
            cached=result.cached,
        )
        trace.emit("evidence_selected", evidence_ids=[result.evidence_id], data_version=result.data_version)
        table = ResultTable(
            columns=result.columns, rows=result.rows, row_count=result.row_count, truncated=result.truncated
        )
        freshness, fresh_notes = _freshness_text(session, compiled.tables, query, language)
        text = Narrator(catalog).compose(query, table, language)
        answer = Answer(
            **base,
            status="answered",
            answer=text,
            semantic_query=query,
            sql=_pretty(approved.sql, compiled.dialect),
            result=table,
            metrics=[metric_info(catalog, m, language) for m in query.metrics],
            time_range=AnswerTimeRange(start=query.time_range.start, end=query.time_range.end),
            data_freshness=freshness,
            assumptions=[*_assumptions(query, language), *notes, *fresh_notes],
        )
    except BatonError as exc:
        answer = _failure(base, exc, language, query, sql, session)
        trace.emit(
            "policy_decision" if isinstance(exc, PolicyRefusal) else "plan_created",
            decision="deny" if isinstance(exc, PolicyRefusal) else "stop",
            error=exc.to_dict(language),
        )
    except Exception as exc:
        trace.emit("tool_call", tool="internal", ok=False, error_code="tool_failure", traceback=traceback.format_exc())
        answer = Answer(
            **base,
            status="failed",
            answer="内部错误，本次未能回答；详情已记录在运行轨迹中。"
            if language == "zh"
            else "Internal error; the details are in the run trace.",
            error=ErrorInfo(code="tool_failure", message=type(exc).__name__),
        )
    trace.emit("answer_created", status=answer.status, answer=answer.answer)
    trace.emit("run_finished", status=answer.status, duration_ms=round((time.perf_counter() - started) * 1000, 3))
    return answer


def _pretty(sql: str, dialect: str) -> str:
    """The executed statement, laid out for reading (same tree, same semantics)."""
    return sqlglot.transpile(sql, read=dialect, write=dialect, pretty=True)[0]


def _failure(
    base: dict[str, Any],
    exc: BatonError,
    language: Language,
    query: SemanticQuery | None,
    sql: str | None,
    session: Session,
) -> Answer:
    status: Status
    if isinstance(exc, AmbiguousQuestion):
        status = "clarification_needed"
    elif isinstance(exc, PolicyRefusal | UnknownMetric):
        status = "refused"
    else:
        status = "failed"
    suggestions = [str(s) for s in exc.detail.get("suggestions", [])]
    return Answer(
        **base,
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
