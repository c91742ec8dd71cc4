"""The sql agent: the relay's first step. Compiles through the catalog and runs, as the asking
user, the headline comparison (both periods' totals) and the daily series of the metric tree's
components, and records what every later agent must know about them: filters, aggregation
logic, row counts, execution time.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import sqlglot
from sqlglot import exp

from baton.agents.tools import (
    QueryTool,
    change_unit,
    failed,
    metric_label,
    number,
    plan_of,
    rows_as_dicts,
    scaled,
    unit_of,
)
from baton.catalog.analysis_queries import daily_series, metric_tree
from baton.catalog.compiler import CompiledQuery, compile_query
from baton.catalog.model import Catalog
from baton.context.ledger import make_scope
from baton.contracts.agent_outputs import ColumnInfo, ColumnSummary, DataSummary, Finding, SqlOutput
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.query import QueryResult
from baton.contracts.semantic import GRAINS, SemanticQuery
from baton.contracts.values import AppliedFilter, FactScope, KeyNumber, Period
from baton.errors import BatonError
from baton.messages import average_fields, text
from baton.numbers import percent_change

HISTORY_DAYS = 35
"""Days before the comparison period in the daily series: weekday baselines for trend and quality."""
_SUFFIXES = ("_previous", "_change_whole", "_change_share", "_change_pct", "_change")


@dataclass(frozen=True)
class SqlDeps:
    tool: QueryTool
    catalog: Catalog


def _column_meaning(catalog: Catalog, name: str, language: Language) -> str:
    base = name
    for suffix in _SUFFIXES:
        base = base.removesuffix(suffix)
    per = next((g for g in GRAINS if base.endswith(f"_per_{g}") and base[: -len(g) - 5] in catalog.metrics), None)
    base = base if per is None else base[: -len(per) - 5]
    if base in catalog.metrics:
        label = catalog.metrics[base].label.for_lang(language)
        label = label if per is None else text("answer.average_label", language, label=label, **average_fields(per))
        found = next((s for s in _SUFFIXES if name.endswith(s)), None)
        return label if found is None else text(f"analysis.column{found}", language, label=label)
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


def _fact_scope(catalog: Catalog, query: SemanticQuery, metric: str) -> FactScope:
    """The headline's scope: the metric's own filters and the question's. One member kept is a
    member pair; members excluded ("excluding live stream") or several kept are a predicate on the
    dimension, so the fact never reads as scoped *to* the excluded member, nor as unfiltered."""
    predicates = [p for m in catalog.measures_of(metric) for p in m.filters]
    pairs: list[tuple[str, str]] = []
    for f in query.filters:
        if len(f.members) == 1 and not f.exclude:
            pairs.append((f.dimension, f.members[0]))
            continue
        kept = exp.column(f.dimension).isin(*[exp.Literal.string(m) for m in sorted(f.members)])
        predicates.append((exp.not_(kept) if f.exclude else kept).sql())
    return make_scope(predicates, pairs)


def _headline_numbers(
    catalog: Catalog, query: SemanticQuery, row: dict[str, Any], evidence_id: str, language: Language
) -> tuple[KeyNumber, ...]:
    """Current, comparison, change (and relative change) of the metric, as structured facts."""
    assert query.comparison is not None
    metric = query.metrics[0]
    current, previous = float(row[metric]), float(row[f"{metric}_previous"])
    cur, prev = query.time_range, query.comparison.range
    label = metric_label(catalog, metric, language)
    unit, places = unit_of(catalog, metric, language)
    scope = _fact_scope(catalog, query, metric)
    numbers = [
        number(
            key,
            f"{label} {rng.start}~{rng.end}",
            scaled(catalog, metric, value),
            unit,
            places,
            evidence_id,
            metric=metric,
            scope=scope,
            period=Period(start=rng.start, end=rng.end + timedelta(days=1)),
        )
        for key, value, rng in (("headline.current", current, cur), ("headline.previous", previous, prev))
    ]
    numbers.append(
        number(
            "headline.change",
            text("analysis.headline_change_label", language, label=label),
            scaled(catalog, metric, current - previous),
            change_unit(unit, language),
            places,
            evidence_id,
        )
    )
    pct = percent_change(current, previous)
    if pct is not None:
        numbers.append(
            number(
                "headline.change_pct",
                text("analysis.headline_change_pct_label", language, label=label),
                pct,
                "%",
                2,
                evidence_id,
            )
        )
    return tuple(numbers)


def _headline_finding(numbers: tuple[KeyNumber, ...], evidence_id: str, language: Language) -> Finding:
    with_pct = any(n.key == "headline.change_pct" for n in numbers)
    key = "analysis.headline_pct" if with_pct else "analysis.headline"
    return Finding(
        finding_id="sql-headline",
        kind="headline",
        summary=text(key, language),
        confidence=1.0,
        evidence_ids=(evidence_id,),
        numbers=numbers,
    )


def _missing_days(rows: list[dict[str, Any]], query: SemanticQuery, start: date) -> list[str]:
    assert query.comparison is not None
    seen = {str(r["period"]) for r in rows}
    end, cur = query.time_range.end, query.time_range
    expected = [start + timedelta(days=i) for i in range((end - start).days + 1)]
    in_periods = [d for d in expected if cur.start <= d <= cur.end or query.comparison.contains(d)]
    return [d.isoformat() for d in in_periods if d.isoformat() not in seen]


def _filters_applied(
    catalog: Catalog, query: SemanticQuery, headline: CompiledQuery, evidence_id: str, language: Language
) -> tuple[AppliedFilter, ...]:
    """The metric's definition, the question's member filters and the two periods, as predicates."""
    assert query.comparison is not None
    cur, prev = query.time_range, query.comparison.range
    out = [
        AppliedFilter(
            predicate=predicate, description=text("analysis.filter_definition", language), evidence_id=evidence_id
        )
        for measure in catalog.measures_of(query.metrics[0])
        for predicate in measure.filters
    ]
    for flt in query.filters:
        members = ", ".join("'" + m.replace("'", "''") + "'" for m in flt.members)
        for table in headline.tables:
            column = catalog.dimensions[flt.dimension].columns.get(table)
            if column is not None:
                out.append(
                    AppliedFilter(
                        predicate=f"{column} {'NOT IN' if flt.exclude else 'IN'} ({members})",
                        description=text("analysis.filter_question", language),
                    )
                )
    dated = (catalog.dated_by(query.metrics[0], t) or (catalog.time_column(t),) for t in headline.tables)
    for col in dict.fromkeys(c for columns in dated for c in columns):
        earlier = (
            f"{col} IN (" + ", ".join(f"DATE '{d}'" for d in query.comparison.dates()) + ")"
            if query.comparison.kind == "same_weekday"
            else f"{col} BETWEEN DATE '{prev.start}' AND DATE '{prev.end}'"
        )
        out.append(
            AppliedFilter(
                predicate=f"({col} BETWEEN DATE '{cur.start}' AND DATE '{cur.end}') OR ({earlier})",
                description=text("analysis.filter_periods", language),
                evidence_id=evidence_id,
            )
        )
    return tuple(out)


def _run(packet: TaskPacket, deps: SqlDeps) -> AgentReport[SqlOutput]:
    language = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    # an analysis tests daily values and puts periods of different lengths per day itself: its
    # headline totals are the periods' own, whether or not the question said "日均"; and they are
    # the whole's ("为什么各区域的订单量下降了": all regions, whose drivers the analysis finds), never
    # the first group of a breakdown
    whole = {"average_per": None, "dimensions": (), "top_n": None, "rank_place": None, "threshold": None}
    query = plan_of(packet).model_copy(update=whole)
    assert query.comparison is not None
    cur, prev = query.time_range, query.comparison.range
    # a single day's usual level is a mean of days, not a period total: the stats agent states it
    usual_level = query.comparison.kind == "same_weekday"
    headline = compile_query(
        query.model_copy(update={"comparison": None}) if usual_level else query, catalog, dialect=tool.dialect
    )
    totals = tool.run("headline_totals", headline.expression)
    tree = metric_tree(catalog, query.metrics[0], (), query.filters)
    start = min(cur.start, prev.start) - timedelta(days=HISTORY_DAYS)
    windows = [(r.start - timedelta(days=HISTORY_DAYS), r.end) for r in sorted((prev, cur), key=lambda r: r.start)]
    daily_q = daily_series(catalog, query, tree, start=start, end=cur.end, windows=windows, dialect=tool.dialect)
    daily = tool.run("daily_series", daily_q.expression)
    daily_rows = rows_as_dicts(daily)
    row = rows_as_dicts(totals)[0] if totals.rows else {}
    findings: list[Finding] = []
    anomalies: list[str] = []
    metric = query.metrics[0]
    if row.get(metric) is not None and row.get(f"{metric}_previous") is not None:
        numbers = _headline_numbers(catalog, query, row, totals.evidence_id, language)
        findings.append(_headline_finding(numbers, totals.evidence_id, language))
    elif not usual_level:
        anomalies.append(text("analysis.no_comparison_value", language))
    missing = _missing_days(daily_rows, query, start)
    if missing:
        anomalies.append(text("analysis.days_without_rows", language, days=", ".join(missing[:10])))
    output = _output(packet, deps, query, headline, totals, daily, daily_q.columns, tree.components, start)
    output = output.model_copy(update={"findings": tuple(findings), "anomalies_found": tuple(anomalies)})
    summary = text("analysis.sql_summary", language, first=totals.evidence_id, second=daily.evidence_id)
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def _output(
    packet: TaskPacket,
    deps: SqlDeps,
    query: SemanticQuery,
    headline: CompiledQuery,
    totals: QueryResult,
    daily: QueryResult,
    daily_columns: tuple[str, ...],
    components: tuple[str, ...],
    start: date,
) -> SqlOutput:
    """What later agents need to know about the two queries (no findings yet)."""
    assert query.comparison is not None
    language, catalog, dialect = packet.task.language, deps.catalog, deps.tool.dialect
    cur = query.time_range
    daily_rows = rows_as_dicts(daily)
    logic = (
        *headline.aggregation_logic,
        text(
            "analysis.daily_series_logic",
            language,
            evidence=daily.evidence_id,
            components=", ".join(components),
            start=start,
            end=cur.end,
        ),
    )
    return SqlOutput(
        task_id=packet.task_id,
        sql=sqlglot.transpile(totals.sql, read=dialect, write=dialect, pretty=True)[0],
        dialect=dialect,
        evidence_id=totals.evidence_id,
        daily_evidence_id=daily.evidence_id,
        result_shape=(totals.row_count, len(totals.columns)),
        columns=tuple(
            ColumnInfo(name=c.name, type=c.type, meaning=_column_meaning(catalog, c.name, language))
            for c in totals.columns
        ),
        filters_applied=_filters_applied(catalog, query, headline, totals.evidence_id, language),
        aggregation_logic=logic,
        execution_time_s=round((totals.elapsed_ms + daily.elapsed_ms) / 1000.0, 4),
        data_summary=DataSummary(
            row_count=len(daily_rows),
            columns=_summaries(daily_rows, daily_columns),
            note=text("analysis.daily_series_note", language, evidence=daily.evidence_id),
        ),
        rows=tuple(daily_rows),
        confidence=1.0,
    )
