"""The stats agent: is the change real?

Current vs comparison period from sufficient statistics computed in SQL (n, Σ(y−K), Σ(y−K)²
of the daily metric value per period, incomplete days left out): Welch's t-test with the CI of
the difference and the delta-method CI of the relative change, Cohen's d; for a rate, the
two-proportion test with Wilson intervals per period, Newcombe's interval of the difference
and Cohen's h.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from baton.agents.quality import incomplete_days
from baton.agents.tools import QueryTool, bi, failed, metric_label, number, output_of, plan_of, rows_as_dicts
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, metric_tree, period_suffstats
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Finding, QualityOutput, StatsOutput, StatTest
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.values import Assumption
from baton.errors import BatonError
from baton.stats import InsufficientData, SuffStats, two_proportion_test, welch_t_test

ALPHA = 0.05


@dataclass(frozen=True)
class StatsDeps:
    tool: QueryTool
    catalog: Catalog


def dec(value: float, places: int = 6) -> Decimal:
    return Decimal(repr(round(float(value), places)))


def stat_test(name: str, method: str, estimate: float, ci: tuple[float, float], **kw: Any) -> StatTest:
    low, high = dec(min(ci[0], estimate)), dec(max(ci[1], estimate))
    est = min(max(dec(estimate), low), high)
    return StatTest(name=name, method=method, estimate=est, ci_low=low, ci_high=high, **kw)


def run(packet: TaskPacket, deps: StatsDeps) -> AgentReport[StatsOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:  # the stats layer's errors are BatonErrors too
        return failed(packet, exc)


def _run(packet: TaskPacket, deps: StatsDeps) -> AgentReport[StatsOutput]:
    lang = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    query = plan_of(packet)
    assert query.comparison is not None
    metric = query.metrics[0]
    label = metric_label(catalog, metric, lang)
    quality = output_of(packet, "quality", QualityOutput)
    excluded = incomplete_days(quality)
    tree = metric_tree(catalog, metric, (), query.filters)
    result = tool.run(
        "stats:period_suffstats",
        period_suffstats(catalog, query, tree, excluded_days=excluded, dialect=tool.dialect).expression,
    )
    ev = result.evidence_id
    rows = {str(r["which"]): r for r in rows_as_dicts(result)}
    if CURRENT not in rows or PREVIOUS not in rows:
        raise InsufficientData("a period has no data", "某一期没有数据")
    a_row, b_row = rows[PREVIOUS], rows[CURRENT]

    def suff(r: dict[str, Any]) -> SuffStats:
        return SuffStats(
            n=int(r["n"]), total=float(r["s"] or 0.0), sum_sq=float(r["ss"] or 0.0), shift=float(r["k"] or 0.0)
        )

    welch = welch_t_test(suff(a_row), suff(b_row), ALPHA)
    ratio = catalog.metrics[metric].unit == "ratio"
    scale = 100.0 if ratio else 1.0
    days_note = (
        bi(
            lang,
            f"（剔除不完整日期 {', '.join(str(d) for d in excluded)}）",
            f" (incomplete days left out: {', '.join(str(d) for d in excluded)})",
        )
        if excluded
        else ""
    )
    name = bi(lang, f"{label} 日均值：本期 vs 对比期", f"{label} daily mean: current vs comparison")
    tests: list[StatTest] = [
        stat_test(
            name,
            "Welch two-sample t-test on daily values (sufficient statistics from SQL)",
            welch.estimate,
            welch.ci or (welch.estimate, welch.estimate),
            effect_size=dec(welch.effect_size)
            if welch.effect_size is not None and welch.effect_size == welch.effect_size
            else None,
            effect_size_kind="cohen_d",
            p_value=dec(welch.p_value or 0.0, 12),
            n=welch.n_a + welch.n_b,
            assumptions=welch.assumptions,
            evidence_ids=(ev,),
        )
    ]
    numbers = []
    if welch.relative_change is not None and welch.relative_ci is not None:
        tests.append(
            stat_test(
                bi(lang, f"{label} 日均值相对变化", f"{label} daily mean, relative change"),
                "delta method on the Welch means",
                welch.relative_change,
                welch.relative_ci,
                effect_size=dec(welch.relative_change),
                effect_size_kind="relative_change",
                p_value=dec(welch.p_value or 0.0, 12),
                n=welch.n_a + welch.n_b,
                evidence_ids=(ev,),
            )
        )
        numbers += [
            number(
                "stats.rel_change",
                bi(lang, "日均值相对变化", "relative change of the daily mean"),
                welch.relative_change * 100,
                "%",
                2,
                ev,
            ),
            number("stats.rel_ci_low", bi(lang, "95% 区间下限", "95% CI low"), welch.relative_ci[0] * 100, "%", 2, ev),
            number(
                "stats.rel_ci_high", bi(lang, "95% 区间上限", "95% CI high"), welch.relative_ci[1] * 100, "%", 2, ev
            ),
        ]
    numbers += [
        number("stats.p_value", "p", welch.p_value or 0.0, "p", 4 if (welch.p_value or 0.0) >= 0.0001 else 8, ev),
        number(
            "stats.cohen_d",
            "Cohen's d",
            welch.effect_size if welch.effect_size is not None and welch.effect_size == welch.effect_size else 0.0,
            "d",
            2,
            ev,
        ),
    ]
    significant = (welch.p_value or 1.0) < ALPHA
    summary = bi(
        lang,
        "日均值相对变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），p = {num:stats.p_value}，Cohen's d = {num:stats.cohen_d}"
        + ("，变化显著。" if significant else "，变化不显著。"),
        "The daily mean changed by {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}), p = {num:stats.p_value}, Cohen's d = {num:stats.cohen_d}"
        + ("; the change is significant." if significant else "; the change is not significant."),
    )
    if "stats.rel_change" not in {n.key for n in numbers}:
        summary = bi(lang, "日均值变化：p = {num:stats.p_value}。", "Daily mean change: p = {num:stats.p_value}.")
    findings = [
        Finding(
            finding_id="stats-headline",
            summary=summary,
            confidence=0.95 if significant else 0.6,
            evidence_ids=(ev,),
            numbers=tuple(numbers),
        )
    ]

    if ratio and tree.kind == "ratio":
        num_c, den_c = tree.value.num, tree.value.den or ""
        x1, n1, x2, n2 = (
            round(float(a_row[num_c])),
            round(float(a_row[den_c])),
            round(float(b_row[num_c])),
            round(float(b_row[den_c])),
        )
        if 0 <= x1 <= n1 and 0 <= x2 <= n2 and n1 > 0 and n2 > 0:
            prop = two_proportion_test(x1, n1, x2, n2, ALPHA)
            tests.append(
                stat_test(
                    bi(lang, f"{label}：本期 vs 对比期", f"{label}: current vs comparison"),
                    prop.method,
                    prop.estimate,
                    prop.ci or (prop.estimate, prop.estimate),
                    effect_size=dec(prop.effect_size or 0.0),
                    effect_size_kind="cohen_h",
                    p_value=dec(prop.p_value or 0.0, 12),
                    n=n1 + n2,
                    assumptions=prop.assumptions,
                    evidence_ids=(ev,),
                )
            )
            lo, hi = prop.ci or (prop.estimate, prop.estimate)
            pp = bi(lang, "个百分点", "pp")
            nums = (
                number("stats.rate_previous", bi(lang, "对比期比率", "comparison rate"), prop.p1 * scale, "%", 3, ev),
                number("stats.rate_current", bi(lang, "本期比率", "current rate"), prop.p2 * scale, "%", 3, ev),
                number("stats.rate_diff", bi(lang, "比率差", "rate difference"), prop.estimate * scale, pp, 3, ev),
                number("stats.rate_ci_low", bi(lang, "95% 区间下限", "95% CI low"), lo * scale, pp, 3, ev),
                number("stats.rate_ci_high", bi(lang, "95% 区间上限", "95% CI high"), hi * scale, pp, 3, ev),
                number("stats.rate_p", "p", prop.p_value or 0.0, "p", 4 if (prop.p_value or 0.0) >= 0.0001 else 8, ev),
                number("stats.cohen_h", "Cohen's h", prop.effect_size or 0.0, "h", 3, ev),
            )
            findings.append(
                Finding(
                    finding_id="stats-proportion",
                    summary=bi(
                        lang,
                        "比率由 {num:stats.rate_previous} 变为 {num:stats.rate_current}，差 {num:stats.rate_diff}（Newcombe 95% 区间 {num:stats.rate_ci_low} 至 {num:stats.rate_ci_high}），p = {num:stats.rate_p}，Cohen's h = {num:stats.cohen_h}。",
                        "The rate moved from {num:stats.rate_previous} to {num:stats.rate_current}, a difference of {num:stats.rate_diff} (Newcombe 95% CI {num:stats.rate_ci_low} to {num:stats.rate_ci_high}), p = {num:stats.rate_p}, Cohen's h = {num:stats.cohen_h}.",
                    ),
                    confidence=0.95 if (prop.p_value or 1.0) < ALPHA else 0.6,
                    evidence_ids=(ev,),
                    numbers=nums,
                )
            )
    assumptions = [
        Assumption(
            text=bi(
                lang,
                f"每日数值视为相互独立的样本（Welch t 检验）{days_note}。",
                f"Daily values are treated as independent samples (Welch t-test){days_note}.",
            ),
            source_agent="stats",
        )
    ]
    output = StatsOutput(
        task_id=packet.task_id,
        analysis_type="comparison",
        tests=tuple(tests),
        findings=tuple(findings),
        assumptions_made=tuple(assumptions),
        next_steps_suggested=(
            bi(lang, "按维度下钻，找出变化来源。", "Drill down by dimension to find where the change came from."),
        ),
        confidence=0.9 if significant else 0.6,
    )
    return AgentReport(
        task_id=packet.task_id,
        status="success",
        result=ReportResult(
            summary=bi(
                lang,
                "变化显著。" if significant else "变化不显著。",
                "Significant change." if significant else "Change not significant.",
            ),
            data=output,
        ),
    )
