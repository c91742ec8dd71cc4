"""The sql agent: the relay's first step. Compiles through the catalog and runs, as the asking
user, the headline comparison (both periods' totals) and the daily series of the metric tree's
components, and records what every later agent must know about them: filters, aggregation
logic, row counts, execution time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal
from typing import Any

import sqlglot

from baton.agents.tools import QueryTool, bi, failed, metric_label, number, plan_of, rows_as_dicts, scaled, unit_of
from baton.catalog.analysis_queries import daily_series, metric_tree
from baton.catalog.compiler import compile_query
from baton.catalog.model import Catalog
from baton.context.ledger import make_scope
from baton.contracts.agent_outputs import ColumnInfo, ColumnSummary, DataSummary, Finding, SqlOutput
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.values import AppliedFilter, Assumption, Period
from baton.errors import BatonError

HISTORY_DAYS = 35
"""Days before the comparison period in the daily series: weekday baselines for trend and quality."""


@dataclass(frozen=True)
class SqlDeps:
    tool: QueryTool
    catalog: Catalog


def _column_meaning(catalog: Catalog, name: str, language: str) -> str:
    base = name.removesuffix("_previous").removesuffix("_change_pct").removesuffix("_change")
    if base in catalog.metrics:
        label = catalog.metrics[base].label.for_lang(language)
        if name.endswith("_previous"):
            return bi("zh" if language == "zh" else "en", f"{label}（对比期）", f"{label} (comparison period)")
        if name.endswith("_change_pct"):
            return bi("zh" if language == "zh" else "en", f"{label} 变化率", f"{label} relative change")
        if name.endswith("_change"):
            return bi("zh" if language == "zh" else "en", f"{label} 变化量", f"{label} change")
        return label
    if name in catalog.dimensions:
        return catalog.dimensions[name].label.for_lang(language)
    return name


def _summaries(rows: list[dict[str, Any]], columns: tuple[str, ...]) -> tuple[ColumnSummary, ...]:
    out = []
    for name in columns:
        values = [r[name] for r in rows if r.get(name) is not None]
        numeric = [float(v) for v in values if isinstance(v, int | float)]
        out.append(
            ColumnSummary(
                name=name,
                non_null=len(values),
                distinct=len({str(v) for v in values}),
                min=str(min(values)) if values else None,
                max=str(max(values)) if values else None,
                mean=Decimal(repr(round(sum(numeric) / len(numeric), 4))) if numeric else None,
                total=Decimal(repr(round(sum(numeric), 4))) if numeric and name != "period" else None,
            )
        )
    return tuple(out)


def run(packet: TaskPacket, deps: SqlDeps) -> AgentReport[SqlOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _run(packet: TaskPacket, deps: SqlDeps) -> AgentReport[SqlOutput]:
    language = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    query = plan_of(packet)
    assert query.comparison is not None
    metric = query.metrics[0]
    cur, prev = query.time_range, query.comparison.range

    headline = compile_query(query, catalog, dialect=tool.dialect)
    totals = tool.run("headline_totals", headline.expression)
    tree = metric_tree(catalog, metric, (), query.filters)
    start = min(cur.start, prev.start) - timedelta(days=HISTORY_DAYS)
    windows = [(r.start - timedelta(days=HISTORY_DAYS), r.end) for r in sorted((prev, cur), key=lambda r: r.start)]
    daily_q = daily_series(catalog, query, tree, start=start, end=cur.end, windows=windows, dialect=tool.dialect)
    daily = tool.run("daily_series", daily_q.expression)
    daily_rows = rows_as_dicts(daily)

    row = rows_as_dicts(totals)[0] if totals.rows else {}
    current, previous = row.get(metric), row.get(f"{metric}_previous")
    findings: list[Finding] = []
    anomalies: list[str] = []
    label = metric_label(catalog, metric, language)
    unit, places = unit_of(catalog, metric, language)
    scope = make_scope(
        [p for m in catalog.measures_of(metric) for p in m.filters],
        [(f.dimension, f.members[0]) for f in query.filters if len(f.members) == 1],
    )
    if current is not None and previous is not None:
        period_cur = Period(start=cur.start, end=cur.end + timedelta(days=1))
        period_prev = Period(start=prev.start, end=prev.end + timedelta(days=1))
        ev = totals.evidence_id
        n_cur = number(
            "headline.current",
            f"{label} {cur.start}~{cur.end}",
            scaled(catalog, metric, float(current)),
            unit,
            places,
            ev,
            metric=metric,
            scope=scope,
            period=period_cur,
        )
        n_prev = number(
            "headline.previous",
            f"{label} {prev.start}~{prev.end}",
            scaled(catalog, metric, float(previous)),
            unit,
            places,
            ev,
            metric=metric,
            scope=scope,
            period=period_prev,
        )
        diff = scaled(catalog, metric, float(current) - float(previous))
        n_diff = number(
            "headline.change",
            bi(language, f"{label} 变化量", f"{label} change"),
            diff,
            bi(language, "个百分点", "pp") if unit == "%" else unit,
            places,
            ev,
        )
        summary = bi(
            language,
            "{num:headline.current}（本期） vs {num:headline.previous}（对比期），变化 {num:headline.change}",
            "{num:headline.current} (current) vs {num:headline.previous} (comparison), change {num:headline.change}",
        )
        numbers = [n_cur, n_prev, n_diff]
        if float(previous) != 0:
            pct = (float(current) / float(previous) - 1.0) * 100.0
            numbers.append(
                number(
                    "headline.change_pct", bi(language, f"{label} 变化率", f"{label} relative change"), pct, "%", 2, ev
                )
            )
            summary += bi(language, "（{num:headline.change_pct}）。", " ({num:headline.change_pct}).")
        else:
            summary += bi(language, "。", ".")
        findings.append(
            Finding(
                finding_id="sql-headline", summary=summary, confidence=1.0, evidence_ids=(ev,), numbers=tuple(numbers)
            )
        )
    else:
        anomalies.append(
            bi(language, "对比查询没有返回两期的数值。", "The comparison returned no value for one period.")
        )

    days_seen = {str(r["period"]) for r in daily_rows}
    expected = [(start + timedelta(days=i)).isoformat() for i in range((cur.end - start).days + 1)]
    in_periods = [d for d in expected if any(r.start.isoformat() <= d <= r.end.isoformat() for r in (prev, cur))]
    missing = [d for d in in_periods if d not in days_seen]
    if missing:
        anomalies.append(
            bi(language, f"以下日期没有数据：{', '.join(missing[:10])}", f"No rows on: {', '.join(missing[:10])}")
        )

    filters: list[AppliedFilter] = []
    for measure in catalog.measures_of(metric):
        for predicate in measure.filters:
            filters.append(
                AppliedFilter(
                    predicate=predicate,
                    description=bi(language, "指标口径", "metric definition"),
                    evidence_id=totals.evidence_id,
                )
            )
    for flt in query.filters:
        members = ", ".join("'" + m.replace("'", "''") + "'" for m in flt.members)
        for table in headline.tables:
            column = catalog.dimensions[flt.dimension].columns.get(table)
            if column is not None:
                filters.append(
                    AppliedFilter(
                        predicate=f"{column} IN ({members})",
                        description=bi(language, "问题中的筛选", "filter from the question"),
                    )
                )
    for table in headline.tables:
        col = catalog.time_column(table)
        filters.append(
            AppliedFilter(
                predicate=f"({col} BETWEEN DATE '{cur.start}' AND DATE '{cur.end}') OR ({col} BETWEEN DATE '{prev.start}' AND DATE '{prev.end}')",
                description=bi(language, "本期与对比期", "current and comparison periods"),
                evidence_id=totals.evidence_id,
            )
        )
    logic = [
        *headline.aggregation_logic,
        bi(
            language,
            f"日序列（证据 {daily.evidence_id}）：按天汇总 {', '.join(tree.components)}，{start} 至 {cur.end}",
            f"daily series (evidence {daily.evidence_id}): {', '.join(tree.components)} summed per day, {start} to {cur.end}",
        ),
    ]
    output = SqlOutput(
        task_id=packet.task_id,
        sql=sqlglot.transpile(totals.sql, read=tool.dialect, write=tool.dialect, pretty=True)[0],
        dialect=tool.dialect,
        evidence_id=totals.evidence_id,
        result_shape=(totals.row_count, len(totals.columns)),
        columns=tuple(
            ColumnInfo(name=c.name, type=c.type, meaning=_column_meaning(catalog, c.name, language))
            for c in totals.columns
        ),
        filters_applied=tuple(filters),
        aggregation_logic=tuple(logic),
        execution_time_s=round((totals.elapsed_ms + daily.elapsed_ms) / 1000.0, 4),
        data_summary=DataSummary(
            row_count=len(daily_rows),
            columns=_summaries(daily_rows, daily_q.columns),
            note=bi(
                language,
                f"rows 为日序列（证据 {daily.evidence_id}）",
                f"rows are the daily series (evidence {daily.evidence_id})",
            ),
        ),
        rows=tuple(daily_rows),
        anomalies_found=tuple(anomalies),
        findings=tuple(findings),
        assumptions_made=(
            Assumption(
                text=bi(
                    language,
                    f"对比期为 {prev.start} 至 {prev.end}（{'环比' if query.comparison.kind == 'previous_period' else '同比'}）。",
                    f"The comparison period is {prev.start} to {prev.end} ({'previous period' if query.comparison.kind == 'previous_period' else 'same period last year'}).",
                ),
                source_agent="sql",
            ),
        ),
        confidence=1.0,
    )
    summary = bi(
        language,
        f"运行了 2 条查询（{totals.evidence_id}, {daily.evidence_id}）。",
        f"Ran 2 queries ({totals.evidence_id}, {daily.evidence_id}).",
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))
