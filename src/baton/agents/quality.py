"""The quality agent: check the data before anyone reads it.

Freshness (from the catalog's freshness source vs the as-of date), daily completeness (each
day's row count against the same weekday of earlier weeks AND its neighbouring days — a partly
loaded day is low on both, a holiday plateau only on the first; calendar events are left out
of the baselines — and improbably low under the table's own counting noise, see
:func:`baton.stats.completeness`), null rates, duplicate keys and late-arriving updates. An
incomplete day's caveat says which way it pushes the metric as loaded (:func:`bias_text`). Every flag carries a
typed ``issue``, says whether it touches the analysed periods and what the relay assumes
because of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from baton.agents.tools import QueryTool, failed, metric_label, number, plan_of, rows_as_dicts
from baton.catalog import quality_queries as qq
from baton.catalog.analysis_queries import metric_tree
from baton.catalog.freshness import freshness_query, load_key_to_table, tracked_tables
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Finding, QualityFlag, QualityIssue, QualityOutput
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery, TimeRange
from baton.contracts.values import Assumption, KeyNumber
from baton.errors import BatonError
from baton.messages import text
from baton.stats import HISTORY_WEEKS, DayCheck, completeness, peak_days_a_year_back, peak_window_for

LATE_LAG_DAYS = 3
LATE_SHARE = 0.01
NULL_RATE = 0.01


@dataclass(frozen=True)
class QualityDeps:
    tool: QueryTool
    catalog: Catalog
    schema: dict[str, dict[str, str]]


@dataclass
class _Checks:
    """What the checks found so far (the agent's output, accumulated)."""

    language: Language
    query: SemanticQuery
    flags: list[QualityFlag] = field(default_factory=list)
    numbers: list[KeyNumber] = field(default_factory=list)
    assumptions: list[Assumption] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    checks: list[str] = field(default_factory=list)

    @property
    def current(self) -> TimeRange:
        return self.query.time_range

    @property
    def previous(self) -> TimeRange:
        assert self.query.comparison is not None
        return self.query.comparison.range

    @property
    def first(self) -> date:
        return min(self.current.start, self.previous.start)

    @property
    def last(self) -> date:
        return max(self.current.end, self.previous.end)

    def in_periods(self, day: date) -> bool:
        assert self.query.comparison is not None
        return self.current.start <= day <= self.current.end or self.query.comparison.contains(day)

    def flag(
        self,
        table: str,
        issue: QualityIssue,
        key: str,
        *,
        day: date | None = None,
        affects: bool = True,
        assumption: str | None = None,
        **fields: Any,
    ) -> None:
        self.flags.append(
            QualityFlag(
                table=table,
                date=day,
                issue=issue,
                message=text(f"analysis.quality_{key}", self.language, table=table, day=day, **fields),
                affects_period=affects,
                assumption=assumption,
            )
        )


def _tables(catalog: Catalog, query: SemanticQuery) -> list[str]:
    """The time-keyed tables behind the metric's tree (every component's table)."""
    tree = metric_tree(catalog, query.metrics[0], (), query.filters)
    tables: list[str] = []
    for m in tree.metrics:
        for t in catalog.tables_of(m):
            if t not in tables and catalog.tables[t].time_column is not None:
                tables.append(t)
    return tables


def run(packet: TaskPacket, deps: QualityDeps) -> AgentReport[QualityOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _run(packet: TaskPacket, deps: QualityDeps) -> AgentReport[QualityOutput]:
    query = plan_of(packet)
    acc = _Checks(packet.task.language, query)
    tables = _tables(deps.catalog, query)
    data_end = _freshness(acc, deps, tables)
    for table in tables:
        _completeness(acc, deps, table, min(acc.last, data_end.get(table, acc.last)))
    for table in tables:
        _nulls_and_duplicates(acc, deps, table, min(acc.last, data_end.get(table, acc.last)))
    for table in tables:
        if table in data_end:
            _late_updates(acc, deps, table, data_end[table])
    output = QualityOutput(
        task_id=packet.task_id,
        checks_run=tuple(acc.checks),
        flags=tuple(acc.flags),
        completeness=tuple(acc.numbers),
        findings=tuple(acc.findings),
        assumptions_made=tuple(acc.assumptions),
        confidence=0.9,
    )
    summary = text("analysis.quality_summary", acc.language, checks=len(acc.checks), flags=len(acc.flags))
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def _freshness(acc: _Checks, deps: QualityDeps, tables: list[str]) -> dict[str, date]:
    """Each table's newest data date from its catalog freshness source; stale tables flagged."""
    catalog, lang = deps.catalog, acc.language
    tracked = tracked_tables(catalog, tables)
    if not tracked:
        return {}
    result = deps.tool.run("quality:freshness", freshness_query(catalog, tracked, since=acc.first))
    acc.checks.append("freshness")
    keys = load_key_to_table(catalog)
    loads = {keys.get(str(r["table_name"]), str(r["table_name"])): r for r in rows_as_dicts(result)}
    data_end: dict[str, date] = {}
    for table in tracked:
        entry = loads.get(table)
        if entry is None or entry["max_data_date"] is None:
            acc.flag(table, "stale", "no_freshness")
            continue
        max_day = date.fromisoformat(str(entry["max_data_date"])[:10])
        data_end[table] = max_day
        lag = (acc.query.as_of - max_day).days
        if max_day < acc.last:
            acc.flag(
                table,
                "stale",
                "stale_in_period",
                day=max_day,
                last=acc.last,
                assumption=text("analysis.quality_stale_assumption", lang, day=max_day),
            )
        elif lag > 1:
            acc.flag(table, "stale", "stale_lag", day=max_day, affects=False, lag=lag)
    shown = ", ".join(_fresh_text(t, loads[t]) for t in tracked if t in data_end)
    if shown:
        acc.findings.append(
            Finding(
                finding_id="quality-freshness",
                kind="freshness",
                summary=text("analysis.quality_freshness", lang, tables=shown),
                confidence=1.0,
                evidence_ids=(result.evidence_id,),
            )
        )
    return data_end


def _fresh_text(table: str, row: dict[str, Any]) -> str:
    day = str(row["max_data_date"])[:10]
    loaded = row.get("loaded_at")
    return f"{table} {day}" + (f" ({str(loaded).replace('T', ' ')[:16]})" if loaded else "")


def _completeness(acc: _Checks, deps: QualityDeps, table: str, end: date) -> None:
    """Days of the analysed periods whose rows fall far below the usual for that weekday."""
    lang, first = acc.language, acc.first
    start = first - timedelta(weeks=2 * HISTORY_WEEKS)
    days = [d for d in (first + timedelta(days=i) for i in range((end - first).days + 1)) if acc.in_periods(d)]
    a_year_back = peak_days_a_year_back(days, deps.catalog.calendar)  # a peak day is judged by last year's event
    query = qq.daily_row_counts(deps.catalog, table, start, end, a_year_back)
    result = deps.tool.run(f"quality:daily_rows:{table}", query)
    acc.checks.append(f"completeness:{table}")
    counts = {date.fromisoformat(str(r["day"])[:10]): int(r["row_count"]) for r in rows_as_dicts(result)}
    checked = completeness(counts, days, deps.catalog.calendar)
    bad = [c for c in checked if c.incomplete]
    for c in bad:
        key = f"quality.completeness.{table}.{c.day.isoformat()}"
        share = number(
            key,
            text("analysis.quality_completeness_label", lang, table=table, day=c.day),
            (c.share or 0.0) * 100,
            "%",
            1,
            result.evidence_id,
        )
        acc.numbers.append(share)
        current = acc.current.start <= c.day <= acc.current.end
        where = text("analysis.quality_current" if current else "analysis.quality_comparison", lang)
        assumption = text(
            "analysis.quality_incomplete_assumption",
            lang,
            table=table,
            day=c.day,
            share=share.rendered(),
            usual=_usual(deps.catalog, c, lang),
            direction=bias_text(deps.catalog, acc.query.metrics[0], table, lang),
        )
        acc.flag(
            table,
            "incomplete",
            "incomplete",
            day=c.day,
            rows=c.rows,
            share=share.rendered(),
            usual=_usual(deps.catalog, c, lang),
            where=where,
            assumption=assumption,
        )
        acc.findings.append(
            Finding(
                finding_id=f"quality-incomplete-{table}-{c.day.isoformat()}",
                kind="incomplete",
                summary=text("analysis.quality_incomplete_finding", lang, table=table, day=c.day, key=key),
                confidence=0.9,
                evidence_ids=(result.evidence_id,),
                numbers=(share,),
            )
        )
    if not bad and checked:
        acc.findings.append(
            Finding(
                finding_id=f"quality-complete-{table}",
                kind="complete",
                summary=text("analysis.quality_complete", lang, table=table, days=len(checked)),
                confidence=0.8,
                evidence_ids=(result.evidence_id,),
            )
        )


def _usual(catalog: Catalog, check: DayCheck, lang: Language) -> str:
    """What a flagged day's rows were judged against, in words."""
    if check.event_baseline is None:
        return text("analysis.quality_usual_weekday", lang)
    event = peak_window_for(check.day, catalog.calendar)
    return text("analysis.quality_usual_event", lang, event=event.label(lang) if event is not None else "")


def bias_text(catalog: Catalog, metric: str, table: str, lang: Language) -> str:
    """Which way a partly loaded ``table`` pushes ``metric`` as loaded: down when it holds the
    metric (or a ratio's numerator), up when it holds only a ratio's denominator, either way
    when it holds both."""
    label = metric_label(catalog, metric, lang)
    measures = catalog.measures_of(metric)
    if all(m.table != table for m in measures):
        return text("analysis.quality_bias_none", lang, label=label, table=table)
    if len(measures) == 1:
        part = text("analysis.quality_part_whole", lang)
        return text("analysis.quality_bias_low", lang, label=label, table=table, part=part)
    in_num, in_den = (m.table == table for m in measures)
    if in_num and in_den:
        return text("analysis.quality_bias_either", lang, label=label, table=table)
    if in_den:
        return text("analysis.quality_bias_high", lang, label=label, table=table)
    part = text("analysis.quality_part_numerator", lang)
    return text("analysis.quality_bias_low", lang, label=label, table=table, part=part)


def _nulls_and_duplicates(acc: _Checks, deps: QualityDeps, table: str, end: date) -> None:
    """Empty dimension columns and rows that repeat the table's key, over the analysed span."""
    catalog, lang = deps.catalog, acc.language
    time_column, filters = _rows_of_metric(catalog, acc.query.metrics[0], table)
    nulls_q, columns = qq.null_counts(catalog, table, acc.first, end, time_column=time_column, filters=filters)
    if columns:
        result = deps.tool.run(f"quality:nulls:{table}", nulls_q)
        acc.checks.append(f"nulls:{table}")
        row = rows_as_dicts(result)[0]
        total = int(row["rows"] or 0)
        for col in columns:
            missing = int(row[f"nulls_{col}"] or 0)
            if total and missing / total > NULL_RATE:
                share = number(
                    f"quality.nulls.{table}.{col}",
                    text("analysis.quality_nulls_label", lang, table=table, column=col),
                    missing / total * 100,
                    "%",
                    1,
                    result.evidence_id,
                )
                acc.numbers.append(share)
                acc.flag(
                    table,
                    "nulls",
                    "nulls",
                    column=col,
                    missing=missing,
                    share=share.rendered(),
                    assumption=text("analysis.quality_nulls_assumption", lang, column=col),
                )
    keys = qq.key_columns(catalog, table)
    result = deps.tool.run(f"quality:duplicates:{table}", qq.duplicate_keys(catalog, table, keys, acc.first, end))
    acc.checks.append(f"duplicates:{table}")
    dup = int(rows_as_dicts(result)[0]["duplicate_rows"] or 0)
    if dup:
        acc.flag(
            table,
            "duplicates",
            "duplicates",
            rows=dup,
            keys=", ".join(keys),
            assumption=text("analysis.quality_duplicates_assumption", lang),
        )


def _rows_of_metric(catalog: Catalog, metric: str, table: str) -> tuple[str | None, tuple[str, ...]]:
    """The time column and filters the metric's measures on ``table`` share: the rows its drill-
    downs split. None and no filters for a table the metric does not read itself."""
    columns = catalog.dated_by(metric, table)
    if len(columns) != 1:
        return None, ()
    measures = [m for m in catalog.measures_of(metric) if m.table == table]
    shared = set(measures[0].filters).intersection(*(m.filters for m in measures[1:]))
    return columns[0], tuple(f for f in measures[0].filters if f in shared)


def _late_updates(acc: _Checks, deps: QualityDeps, table: str, data_end: date) -> None:
    """Share of rows still changed days after their date (on a mature window) — the recent days
    of the current period may still move."""
    column = deps.catalog.tables[table].updated_column
    if column is None or column.lower() not in {c.lower() for c in deps.schema.get(table, {})}:
        return
    mature_end = min(acc.previous.end, data_end - timedelta(days=14))
    mature_start = mature_end - timedelta(days=27)
    result = deps.tool.run(
        f"quality:late:{table}",
        qq.late_updates(deps.catalog, table, column, mature_start, mature_end, lag_days=LATE_LAG_DAYS),
    )
    acc.checks.append(f"late_arriving:{table}")
    row = rows_as_dicts(result)[0]
    rows, late = int(row["rows"] or 0), int(row["late_rows"] or 0)
    recent = (data_end - acc.current.end).days < 14
    if rows and late / rows > LATE_SHARE and recent:
        share = number(
            f"quality.late.{table}",
            text("analysis.quality_late_label", acc.language, table=table),
            late / rows * 100,
            "%",
            1,
            result.evidence_id,
        )
        acc.numbers.append(share)
        acc.flag(
            table,
            "late_arriving",
            "late",
            share=share.rendered(),
            lag=LATE_LAG_DAYS,
            assumption=text("analysis.quality_late_assumption", acc.language),
        )


def incomplete_days(output: QualityOutput | None, query: SemanticQuery | None = None) -> list[date]:
    """Days every comparison leaves out: incomplete days inside the analysed periods and, given
    the ``query``, the days of its periods after a stale table's last loaded day (no data yet is
    not a zero)."""
    if output is None:
        return []
    days = {f.date for f in output.flags if f.date is not None and f.affects_period and f.issue == "incomplete"}
    if query is not None and query.comparison is not None:
        cur = query.time_range
        period_days = [*cur.dates(), *query.comparison.dates()]
        for f in output.flags:
            if f.issue == "stale" and f.affects_period and f.date is not None:
                days |= {d for d in period_days if d > f.date}
    return sorted(days)
