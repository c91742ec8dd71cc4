"""The trend agent: the shape of the daily series around the change.

OLS slope with its CI and Mann–Kendall on the current period (peak-window and incomplete days
left out, so 618 or 双11 never read as trend), change points in the mean over both periods,
and robust anomaly scores against the same weekday of earlier weeks. Works on the short daily
series the sql agent carried in its rows; runs no query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Literal

from baton.agents.quality import incomplete_days
from baton.agents.tools import bi, metric_label, number, output_of, plan_of, scaled, unit_of
from baton.catalog.analysis_queries import Factor, metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import ChangePoint, Finding, QualityOutput, SqlOutput, TrendOutput
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.stats import (
    KNOWN_PEAKS,
    InsufficientData,
    StatsInputError,
    detect_mean_changes,
    exclude_days,
    mann_kendall,
    ols_fit,
    seasonal_anomaly_scores,
)


@dataclass(frozen=True)
class TrendDeps:
    catalog: Catalog


def _value(f: Factor, row: dict[str, object]) -> float | None:
    num = float(str(row.get(f.num) or 0))
    if f.den is None:
        return num
    den = float(str(row.get(f.den) or 0))
    return num / den if den else None


def run(packet: TaskPacket, deps: TrendDeps) -> AgentReport[TrendOutput]:
    lang = packet.task.language
    catalog = deps.catalog
    query = plan_of(packet)
    assert query.comparison is not None
    metric = query.metrics[0]
    sql = output_of(packet, "sql", SqlOutput)
    if sql is None or not sql.rows:
        return AgentReport(
            task_id=packet.task_id, status="failed", issues=("insufficient_evidence: no daily series in the packet",)
        )
    quality = output_of(packet, "quality", QualityOutput)
    skip = set(incomplete_days(quality))
    tree = metric_tree(catalog, metric, (), query.filters)
    series: dict[date, float] = {}
    for row in sql.rows:
        value = _value(tree.value, row)
        if value is not None:
            series[date.fromisoformat(str(row["period"]))] = scaled(catalog, metric, value)
    cur, prev = query.time_range, query.comparison.range
    found = re.search(r"ev_[0-9a-f]+", sql.data_summary.note or "")
    ev = found.group(0) if found else sql.evidence_id
    label = metric_label(catalog, metric, lang)
    unit, places = unit_of(catalog, metric, lang)
    findings: list[Finding] = []
    issues: list[str] = []

    cur_days = sorted(d for d in series if cur.start <= d <= cur.end)
    kept_days, kept = exclude_days(cur_days, [series[d] for d in cur_days], incomplete_days=skip)
    slope_n = None
    slope_ci: tuple[Decimal, Decimal] | None = None
    mk_p: Decimal | None = None
    direction: Literal["up", "down", "flat"] = "flat"
    try:
        x = [float((d - cur.start).days) for d in kept_days]
        ols = ols_fit(x, kept)
        mk = mann_kendall(kept, x)
        lo, hi = ols.ci or (ols.estimate, ols.estimate)
        per_day = bi(lang, f"{unit}/天", f"{unit}/day")
        slope_n = number(
            "trend.slope",
            bi(lang, f"{label} 本期日斜率", f"{label} daily slope, current period"),
            ols.estimate,
            per_day,
            max(places, 2),
            ev,
        )
        low_n = number(
            "trend.slope_low",
            bi(lang, "斜率 95% 区间下限", "slope 95% CI low"),
            min(lo, ols.estimate),
            per_day,
            max(places, 2),
            ev,
        )
        high_n = number(
            "trend.slope_high",
            bi(lang, "斜率 95% 区间上限", "slope 95% CI high"),
            max(hi, ols.estimate),
            per_day,
            max(places, 2),
            ev,
        )
        slope_ci = (low_n.value, high_n.value)
        mk_p = Decimal(repr(round(mk.p_value or 1.0, 6)))
        direction = "up" if mk.trend == "increasing" else "down" if mk.trend == "decreasing" else "flat"
        mk_n = number("trend.mk_p", "Mann–Kendall p", mk.p_value or 1.0, "p", 4, ev)
        words = {
            "up": ("上升", "rising"),
            "down": ("下降", "falling"),
            "flat": ("无明显趋势", "without a clear trend"),
        }[direction]
        findings.append(
            Finding(
                finding_id="trend-slope",
                summary=bi(
                    lang,
                    f"本期（剔除大促与不完整日期）{words[0]}：斜率 {{num:trend.slope}}（95% 区间 {{num:trend.slope_low}} 至 {{num:trend.slope_high}}），Mann–Kendall p = {{num:trend.mk_p}}。",
                    f"Within the current period (peaks and incomplete days left out) the series is {words[1]}: slope {{num:trend.slope}} (95% CI {{num:trend.slope_low}} to {{num:trend.slope_high}}), Mann–Kendall p = {{num:trend.mk_p}}.",
                ),
                confidence=0.7,
                evidence_ids=(ev,),
                numbers=(slope_n, low_n, high_n, mk_n),
            )
        )
    except (InsufficientData, StatsInputError) as exc:
        issues.append(f"trend: {exc}")

    both = sorted(
        d for d in series if prev.start <= d <= cur.end and (prev.start <= d <= prev.end or cur.start <= d <= cur.end)
    )
    cp_days, cp_values = exclude_days(both, [series[d] for d in both], incomplete_days=skip)
    change_points: list[ChangePoint] = []
    try:
        cps = detect_mean_changes(cp_values, min_size=5)
        for cp in cps.change_points:
            change_points.append(
                ChangePoint(
                    date=cp_days[cp.index],
                    before=Decimal(repr(round(cp.mean_before, 4))),
                    after=Decimal(repr(round(cp.mean_after, 4))),
                    method="optimal partitioning (penalised SSE, 3·ln n)",
                )
            )
    except (InsufficientData, StatsInputError) as exc:
        issues.append(f"change points: {exc}")
    if change_points:
        first = change_points[0]
        findings.append(
            Finding(
                finding_id="trend-change-point",
                summary=bi(
                    lang,
                    f"均值在 {first.date} 前后发生变化（共 {len(change_points)} 个变点，已剔除大促日期）。",
                    f"The mean shifts around {first.date} ({len(change_points)} change point(s), promotion days left out).",
                ),
                confidence=0.6,
                evidence_ids=(ev,),
            )
        )

    all_days = sorted(series)
    report = seasonal_anomaly_scores(all_days, [series[d] for d in all_days], incomplete_days=skip)
    in_scope = [s for s in report.days if prev.start <= s.day <= cur.end]
    anomalies = [s for s in in_scope if s.label == "anomaly"]
    peaks = sorted({s.peak_name for s in in_scope if s.label == "peak" and s.peak_name})
    if anomalies:
        shown = ", ".join(
            f"{s.day} ({'高' if s.direction == 'high' else '低'})" if lang == "zh" else f"{s.day} ({s.direction})"
            for s in anomalies[:5]
        )
        findings.append(
            Finding(
                finding_id="trend-anomalies",
                summary=bi(
                    lang,
                    f"与前几周同星期相比的异常日：{shown}。",
                    f"Days unusual against the same weekday of earlier weeks: {shown}.",
                ),
                confidence=0.6,
                evidence_ids=(ev,),
            )
        )
    seasonality = None
    if peaks:
        names = [next(p.name_zh if lang == "zh" else p.name for p in KNOWN_PEAKS if p.name == n) for n in peaks]
        seasonality = bi(
            lang,
            f"分析期包含 {'、'.join(names)}：按大促高峰处理，不计为趋势或异常。",
            f"The periods include {', '.join(names)}: treated as promotion peaks, not as trend or anomaly.",
        )
    output = TrendOutput(
        task_id=packet.task_id,
        metric=metric,
        grain="day",
        direction=direction,
        slope=slope_n,
        slope_ci=slope_ci,
        mann_kendall_p=mk_p,
        change_points=tuple(change_points),
        seasonality=seasonality,
        findings=tuple(findings),
        confidence=0.7,
    )
    status = "success" if slope_n is not None else "partial"
    days_total = (cur.end - cur.start + timedelta(days=1)).days
    return AgentReport(
        task_id=packet.task_id,
        status=status,
        result=ReportResult(
            summary=bi(lang, f"分析了 {days_total} 天的走势。", f"Analysed {days_total} days of trend."), data=output
        ),
        issues=tuple(issues),
    )
