"""The quality agent: check the data before anyone reads it.

Freshness (the load log vs the as-of date), daily completeness (each day's row count against
the same weekday of earlier weeks AND its neighbouring days — a partly loaded day is low on
both, a holiday plateau only on the first), null rates, duplicate keys and late-arriving
updates. Every flag says whether it touches the analysed periods and what the relay assumes
because of it.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from baton.agents.tools import QueryTool, bi, failed, number, plan_of, rows_as_dicts
from baton.catalog import quality_queries as qq
from baton.catalog.analysis_queries import metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Finding, QualityFlag, QualityOutput
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import Assumption, KeyNumber
from baton.errors import BatonError
from baton.stats import peak_window_for

WEEKDAY_RATIO = 0.8
NEIGHBOUR_RATIO = 0.75
HISTORY_WEEKS = 4
LATE_LAG_DAYS = 3
LATE_SHARE = 0.01
NULL_RATE = 0.01

INCOMPLETE = "incomplete"


@dataclass(frozen=True)
class QualityDeps:
    tool: QueryTool
    catalog: Catalog
    schema: dict[str, dict[str, str]]


@dataclass(frozen=True)
class DayCheck:
    day: date
    rows: int
    weekday_ratio: float | None
    neighbour_ratio: float | None

    @property
    def incomplete(self) -> bool:
        if self.rows == 0:
            return True
        return (
            self.weekday_ratio is not None
            and self.neighbour_ratio is not None
            and self.weekday_ratio < WEEKDAY_RATIO
            and self.neighbour_ratio < NEIGHBOUR_RATIO
        )


def weekday_factors(counts: dict[date, int]) -> dict[int, float]:
    """Median rows per weekday over the window (peak windows left out), relative to the overall median."""
    ordinary = {d: c for d, c in counts.items() if peak_window_for(d) is None and c > 0}
    if not ordinary:
        return {}
    overall = statistics.median(ordinary.values())
    by_day: dict[int, list[int]] = {}
    for d, c in ordinary.items():
        by_day.setdefault(d.weekday(), []).append(c)
    return {wd: statistics.median(v) / overall for wd, v in by_day.items() if overall > 0}


def completeness(counts: dict[date, int], days: list[date]) -> list[DayCheck]:
    """Each day's rows vs the median of the same weekday in up to 4 earlier weeks (skipping
    peak windows, reaching back ≤ 8 weeks) and vs the median of the 3 days on either side,
    all weekday-adjusted (so a Tuesday next to a weekend is not "low")."""
    factors = weekday_factors(counts)

    def adjusted(d: date) -> float:
        return counts[d] / factors.get(d.weekday(), 1.0)

    out: list[DayCheck] = []
    for day in days:
        rows = counts.get(day, 0)
        history = [
            counts[h]
            for h in (day - timedelta(weeks=k) for k in range(1, 2 * HISTORY_WEEKS + 1))
            if h in counts and peak_window_for(h) is None
        ][:HISTORY_WEEKS]
        neighbours = [
            adjusted(n) for k in (1, 2, 3) for n in (day - timedelta(days=k), day + timedelta(days=k)) if n in counts
        ]
        weekday = rows / statistics.median(history) if len(history) >= 2 and statistics.median(history) > 0 else None
        near = (
            rows / factors.get(day.weekday(), 1.0) / statistics.median(neighbours)
            if len(neighbours) >= 2 and statistics.median(neighbours) > 0
            else None
        )
        out.append(DayCheck(day, rows, weekday, near))
    return out


def _tables(catalog: Catalog, query: SemanticQuery) -> list[str]:
    tree = metric_tree(catalog, query.metrics[0], (), query.filters)
    tables: list[str] = []
    for m in tree.metrics:
        for t in catalog.tables_of(m):
            if t not in tables and catalog.tables[t].time_column is not None:
                tables.append(t)
    return tables


def _in(day: date, start: date, end: date) -> bool:
    return start <= day <= end


def run(packet: TaskPacket, deps: QualityDeps) -> AgentReport[QualityOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _run(packet: TaskPacket, deps: QualityDeps) -> AgentReport[QualityOutput]:
    lang = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    query = plan_of(packet)
    assert query.comparison is not None
    cur, prev = query.time_range, query.comparison.range
    first, last = min(cur.start, prev.start), max(cur.end, prev.end)
    tables = _tables(catalog, query)
    flags: list[QualityFlag] = []
    numbers: list[KeyNumber] = []
    assumptions: list[Assumption] = []
    findings: list[Finding] = []
    checks: list[str] = []

    def in_periods(day: date) -> bool:
        return _in(day, cur.start, cur.end) or _in(day, prev.start, prev.end)

    # freshness -------------------------------------------------------------------------
    load = tool.run("quality:load_log", qq.load_log())
    checks.append("freshness")
    loads: dict[str, dict[str, Any]] = {str(r["table_name"]): r for r in rows_as_dicts(load)}
    data_end: dict[str, date] = {}
    for table in tables:
        entry = loads.get(table)
        if entry is None:
            flags.append(
                QualityFlag(
                    table=table,
                    issue=bi(lang, "stale: 加载日志中没有该表", "stale: the table is not in the load log"),
                    affects_period=True,
                )
            )
            continue
        max_day = date.fromisoformat(str(entry["max_data_date"]))
        data_end[table] = max_day
        lag = (query.as_of - max_day).days
        if max_day < last:
            flags.append(
                QualityFlag(
                    table=table,
                    date=max_day,
                    issue=bi(
                        lang,
                        f"stale: 数据只更新到 {max_day}，分析期截至 {last}",
                        f"stale: data only reaches {max_day}; the analysis runs to {last}",
                    ),
                    affects_period=True,
                    assumption=bi(
                        lang,
                        f"{max_day} 之后的日期按无数据处理。",
                        f"Days after {max_day} are treated as having no data.",
                    ),
                )
            )
        elif lag > 1:
            flags.append(
                QualityFlag(
                    table=table,
                    date=max_day,
                    issue=bi(
                        lang,
                        f"stale: 数据滞后 {lag} 天（截至 {max_day}）",
                        f"stale: data lags {lag} days (up to {max_day})",
                    ),
                    affects_period=False,
                )
            )

    if loads:
        shown = ", ".join(
            f"{t} {loads[t]['max_data_date']!s} ({str(loads[t]['loaded_at']).replace('T', ' ')[:16]})"
            for t in tables
            if t in loads
        )
        findings.append(
            Finding(
                finding_id="quality-freshness",
                summary=bi(lang, f"数据更新至（加载时间）：{shown}", f"Data up to (loaded at): {shown}"),
                confidence=1.0,
                evidence_ids=(load.evidence_id,),
            )
        )

    # completeness ------------------------------------------------------------------------
    for table in tables:
        end = min(last, data_end.get(table, last))
        start = first - timedelta(weeks=2 * HISTORY_WEEKS)
        result = tool.run(f"quality:daily_rows:{table}", qq.daily_row_counts(catalog, table, start, end))
        checks.append(f"completeness:{table}")
        counts = {date.fromisoformat(str(r["day"])): int(r["row_count"]) for r in rows_as_dicts(result)}
        days = [
            first + timedelta(days=i) for i in range((end - first).days + 1) if in_periods(first + timedelta(days=i))
        ]
        checked = completeness(counts, days)
        bad = [c for c in checked if c.incomplete]
        for c in bad:
            ratio = c.weekday_ratio if c.weekday_ratio is not None else 0.0
            key = f"quality.completeness.{table}.{c.day.isoformat()}"
            share = number(
                key,
                bi(lang, f"{table} {c.day} 完整度", f"{table} {c.day} completeness"),
                ratio * 100,
                "%",
                1,
                result.evidence_id,
            )
            numbers.append(share)
            where = bi(
                lang,
                "本期" if _in(c.day, cur.start, cur.end) else "对比期",
                "current period" if _in(c.day, cur.start, cur.end) else "comparison period",
            )
            assumption = bi(
                lang,
                f"{c.day} 的 {table} 数据不完整（约为同星期常规量的 {share.rendered()}）：日均值检验剔除该日；期间合计按已加载数据计算，可能偏低。",
                f"{table} on {c.day} is incomplete (about {share.rendered()} of the usual rows for that weekday): it is left out of the daily tests; period totals use the data as loaded and may be understated.",
            )
            flags.append(
                QualityFlag(
                    table=table,
                    date=c.day,
                    issue=bi(
                        lang,
                        f"{INCOMPLETE}: 行数 {c.rows}，约为同星期前几周的 {share.rendered()}（{where}）",
                        f"{INCOMPLETE}: {c.rows} rows, about {share.rendered()} of the same weekday in earlier weeks ({where})",
                    ),
                    affects_period=True,
                    assumption=assumption,
                )
            )
            assumptions.append(Assumption(text=assumption, source_agent="quality"))
            findings.append(
                Finding(
                    finding_id=f"quality-incomplete-{table}-{c.day.isoformat()}",
                    summary=bi(
                        lang,
                        f"{table} 在 {c.day} 只加载了约 {{num:{key}}} 的数据。",
                        f"{table} on {c.day} holds only about {{num:{key}}} of its usual rows.",
                    ),
                    confidence=0.9,
                    evidence_ids=(result.evidence_id,),
                    numbers=(share,),
                )
            )
        if not bad and checked:
            findings.append(
                Finding(
                    finding_id=f"quality-complete-{table}",
                    summary=bi(
                        lang,
                        f"{table} 在分析期内 {len(checked)} 天数据完整。",
                        f"{table}: all {len(checked)} days of the analysed periods look complete.",
                    ),
                    confidence=0.8,
                    evidence_ids=(result.evidence_id,),
                )
            )

    # nulls and duplicate keys ------------------------------------------------------------------
    for table in tables:
        end = min(last, data_end.get(table, last))
        nulls_q, columns = qq.null_counts(catalog, table, first, end)
        if columns:
            result = tool.run(f"quality:nulls:{table}", nulls_q)
            checks.append(f"nulls:{table}")
            row = rows_as_dicts(result)[0]
            total = int(row["rows"] or 0)
            for col in columns:
                missing = int(row[f"nulls_{col}"] or 0)
                if total and missing / total > NULL_RATE:
                    flags.append(
                        QualityFlag(
                            table=table,
                            issue=bi(
                                lang,
                                f"nulls: {col} 有 {missing} 行为空（{missing / total:.1%}）",
                                f"nulls: {col} is empty on {missing} rows ({missing / total:.1%})",
                            ),
                            affects_period=True,
                            assumption=bi(
                                lang,
                                f"{col} 为空的行不属于任何 {col} 成员。",
                                f"Rows with an empty {col} belong to no {col} member.",
                            ),
                        )
                    )
        keys = qq.key_columns(catalog, table, deps.schema)
        result = tool.run(f"quality:duplicates:{table}", qq.duplicate_keys(catalog, table, keys, first, end))
        checks.append(f"duplicates:{table}")
        dup = int(rows_as_dicts(result)[0]["duplicate_rows"] or 0)
        if dup:
            flags.append(
                QualityFlag(
                    table=table,
                    issue=bi(
                        lang,
                        f"duplicates: 键 ({', '.join(keys)}) 有 {dup} 行重复",
                        f"duplicates: {dup} rows repeat the key ({', '.join(keys)})",
                    ),
                    affects_period=True,
                    assumption=bi(lang, "重复行按原样计入。", "Duplicate rows are counted as they are."),
                )
            )

    # late-arriving updates ---------------------------------------------------------------------
    for table in tables:
        schema_columns = {c.lower() for c in deps.schema.get(table, {})}
        if "updated_at" not in schema_columns or table not in data_end:
            continue
        mature_end = min(prev.end, data_end[table] - timedelta(days=14))
        mature_start = mature_end - timedelta(days=27)
        result = tool.run(
            f"quality:late:{table}",
            qq.late_updates(catalog, table, "updated_at", mature_start, mature_end, lag_days=LATE_LAG_DAYS),
        )
        checks.append(f"late_arriving:{table}")
        row = rows_as_dicts(result)[0]
        rows, late = int(row["rows"] or 0), int(row["late_rows"] or 0)
        recent = (data_end[table] - cur.end).days < 14
        if rows and late / rows > LATE_SHARE and recent:
            share = number(
                f"quality.late.{table}",
                bi(lang, f"{table} 晚到更新占比", f"{table} late updates"),
                late / rows * 100,
                "%",
                1,
                result.evidence_id,
            )
            numbers.append(share)
            flags.append(
                QualityFlag(
                    table=table,
                    issue=bi(
                        lang,
                        f"late_arriving: 约 {share.rendered()} 的行在其日期 {LATE_LAG_DAYS} 天后仍被更新（如退款），本期末几天可能仍会变化",
                        f"late_arriving: about {share.rendered()} of rows are updated more than {LATE_LAG_DAYS} days after their date (e.g. refunds); the last days of the period may still change",
                    ),
                    affects_period=True,
                    assumption=bi(
                        lang,
                        "本期最后几天的数据按当前加载状态视为最终值。",
                        "The last days of the period are taken as loaded, as if final.",
                    ),
                )
            )
    output = QualityOutput(
        task_id=packet.task_id,
        input_task_id=None,
        checks_run=tuple(checks),
        flags=tuple(flags),
        completeness=tuple(numbers),
        findings=tuple(findings),
        assumptions_made=tuple(assumptions),
        confidence=0.9,
    )
    summary = bi(
        lang, f"运行 {len(checks)} 项检查，{len(flags)} 个问题。", f"Ran {len(checks)} checks; {len(flags)} flags."
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def incomplete_days(output: QualityOutput | None) -> list[date]:
    """Days the relay leaves out of daily tests: incomplete days inside the analysed periods."""
    if output is None:
        return []
    return sorted(
        {f.date for f in output.flags if f.date is not None and f.affects_period and f.issue.startswith(INCOMPLETE)}
    )
