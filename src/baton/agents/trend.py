"""The trend agent: the shape of the daily series around the change.

OLS slope with its CI and Mann–Kendall on the current period (calendar-event and incomplete
days left out, so a promotion never reads as trend), change points in the mean over both
periods, and robust anomaly scores against the same weekday of earlier weeks. Works on the
short daily series the sql agent carried in its rows; runs no query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Literal

from baton.agents.quality import incomplete_days
from baton.agents.tools import change_unit, metric_label, number, output_of, p_number, plan_of, scaled, unit_of
from baton.catalog.analysis_queries import Factor, metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import ChangePoint, Finding, QualityOutput, SqlOutput, TrendOutput
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import KeyNumber
from baton.errors import InsufficientData, StatsInputError
from baton.messages import text
from baton.stats import detect_mean_changes, exclude_days, mann_kendall, ols_fit, seasonal_anomaly_scores

Direction = Literal["up", "down", "flat"]


@dataclass(frozen=True)
class TrendDeps:
    catalog: Catalog


@dataclass(frozen=True)
class _Slope:
    number: KeyNumber
    ci: tuple[Decimal, Decimal]
    mann_kendall_p: Decimal
    direction: Direction
    finding: Finding


def _value(f: Factor, row: dict[str, object]) -> float | None:
    num = float(str(row.get(f.num) or 0))
    if f.den is None:
        return num
    den = float(str(row.get(f.den) or 0))
    return num / den if den else None


def _series(catalog: Catalog, query: SemanticQuery, sql: SqlOutput) -> dict[date, float]:
    metric = query.metrics[0]
    tree = metric_tree(catalog, metric, (), query.filters)
    series: dict[date, float] = {}
    for row in sql.rows:
        value = _value(tree.value, row)
        if value is not None:
            series[date.fromisoformat(str(row["period"])[:10])] = scaled(catalog, metric, value)
    return series


def run(packet: TaskPacket, deps: TrendDeps) -> AgentReport[TrendOutput]:
    lang = packet.task.language
    catalog = deps.catalog
    query = plan_of(packet)
    sql = output_of(packet, "sql", SqlOutput)
    if sql is None or not sql.rows:
        return AgentReport(
            task_id=packet.task_id, status="failed", issues=("insufficient_evidence: no daily series in the packet",)
        )
    skip = set(incomplete_days(output_of(packet, "quality", QualityOutput), plan_of(packet)))
    series = _series(catalog, query, sql)
    ev = sql.daily_evidence_id or sql.evidence_id
    issues: list[str] = []
    findings: list[Finding] = []
    slope: _Slope | None = None
    try:
        slope = _slope(catalog, query, series, skip, ev, lang)
        findings.append(slope.finding)
    except (InsufficientData, StatsInputError) as exc:
        issues.append(f"trend: {exc}")
    try:
        change_points = _change_points(catalog, query, series, skip)
    except (InsufficientData, StatsInputError) as exc:
        change_points = []
        issues.append(f"change points: {exc}")
    if change_points:
        findings.append(
            Finding(
                finding_id="trend-change-point",
                kind="change_point",
                summary=text(
                    "analysis.trend_change_point",
                    lang,
                    days=text("answer.list_sep", lang).join(str(c.date) for c in change_points),
                    count=len(change_points),
                ),
                confidence=0.6,
                evidence_ids=(ev,),
                numbers=(  # the count the summary states, for the output gate
                    KeyNumber(
                        key="trend.change_points",
                        label=text("charts.change_point", lang),
                        value=Decimal(len(change_points)),
                        unit="count",
                        precision=0,
                        evidence_id=ev,
                    ),
                ),
            )
        )
    anomalies, seasonality = _anomalies(catalog, query, series, skip, ev, lang)
    findings += anomalies
    output = TrendOutput(
        task_id=packet.task_id,
        metric=query.metrics[0],
        grain="day",
        direction=slope.direction if slope else "flat",
        slope=slope.number if slope else None,
        slope_ci=slope.ci if slope else None,
        mann_kendall_p=slope.mann_kendall_p if slope else None,
        change_points=tuple(change_points),
        seasonality=seasonality,
        findings=tuple(findings),
        confidence=0.7,
    )
    days_total = (query.time_range.end - query.time_range.start + timedelta(days=1)).days
    summary = text("analysis.trend_summary", lang, days=days_total)
    return AgentReport(
        task_id=packet.task_id,
        status="success" if slope is not None else "partial",
        result=ReportResult(summary=summary, data=output),
        issues=tuple(issues),
    )


def _slope(
    catalog: Catalog, query: SemanticQuery, series: dict[date, float], skip: set[date], ev: str, lang: Language
) -> _Slope:
    """OLS slope (with CI) and Mann–Kendall over the current period, event and incomplete days out."""
    cur = query.time_range
    metric = query.metrics[0]
    label = metric_label(catalog, metric, lang)
    unit, places = unit_of(catalog, metric, lang)
    cur_days = sorted(d for d in series if cur.start <= d <= cur.end)
    kept_days, kept = exclude_days(
        cur_days, [series[d] for d in cur_days], peaks=catalog.calendar, incomplete_days=skip
    )
    x = [float((d - cur.start).days) for d in kept_days]
    ols = ols_fit(x, kept)
    mk = mann_kendall(kept, x)
    lo, hi = ols.ci or (ols.estimate, ols.estimate)
    per_day = text("analysis.trend_per_day", lang, unit=change_unit(unit, lang))  # a rate moves in points
    digits = max(places, 2)
    slope = number(
        "trend.slope", text("analysis.trend_slope_label", lang, label=label), ols.estimate, per_day, digits, ev
    )
    low = number("trend.slope_low", text("analysis.trend_slope_low", lang), min(lo, ols.estimate), per_day, digits, ev)
    high = number(
        "trend.slope_high", text("analysis.trend_slope_high", lang), max(hi, ols.estimate), per_day, digits, ev
    )
    mk_n, mk_rel = p_number("trend.mk_p", "Mann–Kendall p", mk.p_value if mk.p_value is not None else 1.0, ev)
    direction: Direction = "up" if mk.trend == "increasing" else "down" if mk.trend == "decreasing" else "flat"
    finding = Finding(
        finding_id="trend-slope",
        kind="slope",
        summary=text("analysis.trend_slope", lang, words=text(f"analysis.trend_{direction}", lang), p_rel=mk_rel),
        confidence=0.7,
        evidence_ids=(ev,),
        numbers=(slope, low, high, mk_n),
    )
    return _Slope(slope, (low.value, high.value), Decimal(repr(round(mk.p_value or 1.0, 6))), direction, finding)


def _change_points(
    catalog: Catalog, query: SemanticQuery, series: dict[date, float], skip: set[date]
) -> list[ChangePoint]:
    assert query.comparison is not None
    cur, prev = query.time_range, query.comparison.range
    both_periods = sorted(d for d in series if prev.start <= d <= prev.end or cur.start <= d <= cur.end)
    days, values = exclude_days(
        both_periods, [series[d] for d in both_periods], peaks=catalog.calendar, incomplete_days=skip
    )
    found = detect_mean_changes(values, min_size=5)
    return [
        ChangePoint(
            date=days[cp.index],
            before=Decimal(repr(round(cp.mean_before, 4))),
            after=Decimal(repr(round(cp.mean_after, 4))),
            method="optimal partitioning (penalised SSE, 3·ln n)",
        )
        for cp in found.change_points
    ]


def _anomalies(
    catalog: Catalog, query: SemanticQuery, series: dict[date, float], skip: set[date], ev: str, lang: Language
) -> tuple[list[Finding], str | None]:
    """Unusual days against the same weekday of earlier weeks; calendar events named as such."""
    assert query.comparison is not None
    first, last = query.comparison.range.start, query.time_range.end
    days = sorted(series)
    report = seasonal_anomaly_scores(days, [series[d] for d in days], incomplete_days=skip, peaks=catalog.calendar)
    in_scope = [s for s in report.days if first <= s.day <= last]
    unusual = [s for s in in_scope if s.label == "anomaly"]
    findings: list[Finding] = []
    if unusual:
        shown = text("answer.list_sep", lang).join(
            text("analysis.trend_day_marked", lang, day=s.day, mark=text(f"analysis.trend_{s.direction}_day", lang))
            for s in unusual[:5]
        )
        findings.append(
            Finding(
                finding_id="trend-anomalies",
                kind="anomalies",
                summary=text("analysis.trend_anomalies", lang, days=shown),
                confidence=0.6,
                evidence_ids=(ev,),
            )
        )
    seen = {s.peak_name for s in in_scope if s.label == "peak" and s.peak_name}
    names = [e.label(lang) for e in catalog.calendar if e.name.en in seen]
    seasonality = (
        text("analysis.trend_events", lang, events=text("answer.list_sep", lang).join(names)) if names else None
    )
    return findings, seasonality
