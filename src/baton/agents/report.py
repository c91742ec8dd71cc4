"""The report agent (basic): the answer first, in the question's language, then drivers with
numbers and intervals, the tests, quality caveats, assumptions and excluded paths.

It states no number of its own: every figure is a :class:`KeyNumber` an earlier agent wrote,
placed through ``{num:key}`` and rendered here from its exact value and precision.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from baton.agents.tools import Language, bi, metric_label, output_of, plan_of
from baton.catalog.model import Catalog
from baton.context.compress import resolve
from baton.contracts.agent_outputs import (
    Finding,
    InsightOutput,
    QualityOutput,
    ReportOutput,
    ReportSection,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.values import KeyNumber

_PLACEHOLDER = re.compile(r"\{num:([^{}]+)\}")


@dataclass(frozen=True)
class ReportDeps:
    catalog: Catalog


def display(n: KeyNumber) -> str:
    """The number's exact digits (its precision), with a reader's unit: 12.30% / 1234.50 元 / p 0.0003."""
    digits = f"{n.value:.{n.precision}f}"
    if n.unit == "%":
        return digits + "%"
    if n.unit in ("p", "q", "d", "h"):
        return digits
    return f"{digits} {n.unit}"


def fill(template: str, numbers: dict[str, KeyNumber]) -> str:
    return _PLACEHOLDER.sub(lambda m: display(numbers[m.group(1)]), template)


def said(finding: Finding) -> str:
    """A finding in reader form (same numbers as ``resolve``, reader units)."""
    return fill(finding.summary, {n.key: n for n in finding.numbers})


def run(packet: TaskPacket, deps: ReportDeps) -> AgentReport[ReportOutput]:
    lang: Language = packet.task.language
    catalog = deps.catalog
    query = plan_of(packet)
    metric = query.metrics[0]
    label = metric_label(catalog, metric, lang)
    sql = output_of(packet, "sql", SqlOutput)
    quality = output_of(packet, "quality", QualityOutput)
    stats = output_of(packet, "stats", StatsOutput)
    trend = output_of(packet, "trend", TrendOutput)
    insight = output_of(packet, "insight", InsightOutput)
    numbers: dict[str, KeyNumber] = {n.key: n for n in packet.must_keep.key_numbers}
    for out in (sql, quality, stats, trend, insight):
        if out is not None:
            numbers.update({n.key: n for f in out.findings for n in f.numbers})
    period = query.time_range.text or f"{query.time_range.start}~{query.time_range.end}"

    parts: list[str] = []
    if "headline.change_pct" in numbers:
        down = numbers["headline.change_pct"].value < 0
        parts.append(
            fill(
                bi(
                    lang,
                    f"{period}{label}较对比期{'下降' if down else '上升'}（变化 {{num:headline.change_pct}}）：{{num:headline.current}}，对比期 {{num:headline.previous}}。",
                    f"{label} for {period} {'fell' if down else 'rose'} against the comparison period (change {{num:headline.change_pct}}): {{num:headline.current}} vs {{num:headline.previous}}.",
                ),
                numbers,
            )
        )
    elif "headline.change" in numbers:
        parts.append(
            fill(
                bi(
                    lang,
                    f"{period}{label}变化 {{num:headline.change}}。",
                    f"{label} for {period} changed by {{num:headline.change}}.",
                ),
                numbers,
            )
        )
    if "stats.rel_change" in numbers and stats is not None:
        significant = stats.tests and stats.tests[0].p_value is not None and stats.tests[0].p_value < 0.05
        parts.append(
            fill(
                bi(
                    lang,
                    "日均值变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），"
                    + ("统计上显著。" if significant else "统计上不显著。"),
                    "The daily mean changed {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}), "
                    + ("statistically significant." if significant else "not statistically significant."),
                ),
                numbers,
            )
        )
    driver_findings = [f for f in (insight.findings if insight else ()) if f.finding_id.startswith("insight-driver-")]
    if driver_findings:
        parts.append(bi(lang, "主要原因：", "Main driver: ") + said(driver_findings[0]))
    elif insight is not None:
        parts.append(
            bi(
                lang,
                "没有发现显著的驱动因素：变化在各维度上是普遍的。",
                "No significant driver: the change is shared across every dimension.",
            )
        )
    incomplete = [f for f in (quality.flags if quality else ()) if f.affects_period]
    if incomplete:
        parts.append(
            bi(
                lang,
                f"注意：{len(incomplete)} 个数据质量问题涉及分析期（见下文）。",
                f"Note: {len(incomplete)} data-quality issue(s) touch the analysed periods (see below).",
            )
        )
    answer = " ".join(parts) or bi(lang, "没有得到结论。", "No conclusion could be drawn.")

    sections: list[ReportSection] = []
    if driver_findings:
        sections.append(
            ReportSection(
                heading=bi(lang, "驱动因素", "Drivers"),
                body="\n".join(f"{i}. {said(f)}" for i, f in enumerate(driver_findings, 1)),
            )
        )
    tree = [said(f) for f in (insight.findings if insight else ()) if f.finding_id == "insight-metric-tree"]
    if tree:
        sections.append(ReportSection(heading=bi(lang, "指标树", "Metric tree"), body="\n".join(tree)))
    tests = [said(f) for f in (stats.findings if stats else ())]
    if tests:
        sections.append(ReportSection(heading=bi(lang, "显著性检验", "Tests"), body="\n".join(tests)))
    if trend is not None:
        lines = [said(f) for f in trend.findings]
        if trend.seasonality:
            lines.append(trend.seasonality)
        if lines:
            sections.append(ReportSection(heading=bi(lang, "走势", "Trend"), body="\n".join(lines)))
    if quality is not None and quality.flags:
        lines = [
            f"- {f.table}{' ' + f.date.isoformat() if f.date else ''}: {f.issue}"
            + (f" — {f.assumption}" if f.assumption else "")
            for f in quality.flags
        ]
        sections.append(ReportSection(heading=bi(lang, "数据质量", "Data quality"), body="\n".join(lines)))
    if packet.must_keep.assumptions:
        sections.append(
            ReportSection(
                heading=bi(lang, "前置假设", "Assumptions"),
                body="\n".join(f"- {a.text}" for a in packet.must_keep.assumptions),
            )
        )
    if packet.must_keep.excluded_paths:
        sections.append(
            ReportSection(
                heading=bi(lang, "已排除的路径", "Ruled out"),
                body="\n".join(
                    f"- {x.path}" + (f" — {x.reason}" if x.reason else "") for x in packet.must_keep.excluded_paths
                ),
            )
        )
    if packet.must_keep.filters_applied:
        sections.append(
            ReportSection(
                heading=bi(lang, "口径与过滤条件", "Definition and filters"),
                body="\n".join(f"- {f.predicate}" for f in packet.must_keep.filters_applied),
            )
        )
    key_metrics = tuple(
        numbers[k]
        for k in ("headline.current", "headline.previous", "headline.change_pct", "stats.rel_change")
        if k in numbers
    )
    output = ReportOutput(
        task_id=packet.task_id,
        title=bi(lang, f"{period}{label}变化分析", f"Why {label} moved: {period}"),
        language=lang,
        answer=answer,
        sections=tuple(sections),
        key_metrics=key_metrics,
        limitations=tuple(f.issue for f in incomplete),
        contradictions_shown=tuple(c.rendered() for c in packet.contradictions),
        confidence=0.8,
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=answer[:200], data=output))


def report_text(output: ReportOutput) -> str:
    """The whole report as text: the answer, then each section."""
    blocks = [output.answer]
    for section in output.sections:
        blocks.append(f"## {section.heading}\n{section.body}")
    return "\n\n".join(blocks)


__all__ = ["ReportDeps", "display", "fill", "report_text", "resolve", "run"]
