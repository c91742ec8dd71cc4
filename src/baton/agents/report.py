"""The report agent (basic): the answer first, in the question's language, then drivers with
numbers and intervals, the tests, quality caveats, assumptions and excluded paths.

It states no number of its own: every figure is a :class:`KeyNumber` an earlier agent wrote,
placed through ``{num:key}`` and rendered here from its exact value and precision. Findings
are picked by their typed ``kind``, never by id or wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from baton.agents.tools import metric_label, output_of, plan_of
from baton.catalog.model import Catalog
from baton.context.compress import resolve
from baton.contracts.agent_outputs import (
    Finding,
    FindingKind,
    InsightOutput,
    QualityOutput,
    ReportOutput,
    ReportSection,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.values import KeyNumber
from baton.messages import text
from baton.nlu.interpret import filters_text
from baton.numbers import display

_PLACEHOLDER = re.compile(r"\{num:([^{}]+)\}")
_KEY_METRICS = ("headline.current", "headline.previous", "headline.change_pct", "stats.rel_change")


@dataclass(frozen=True)
class ReportDeps:
    catalog: Catalog


@dataclass(frozen=True)
class _Inputs:
    """What the earlier agents wrote, as the report reads it."""

    sql: SqlOutput | None
    quality: QualityOutput | None
    stats: StatsOutput | None
    trend: TrendOutput | None
    insight: InsightOutput | None

    def findings(self, kind: FindingKind) -> list[Finding]:
        outs = (self.sql, self.quality, self.stats, self.trend, self.insight)
        return [f for out in outs if out is not None for f in out.findings if f.kind == kind]


def fill(template: str, numbers: dict[str, KeyNumber]) -> str:
    return _PLACEHOLDER.sub(lambda m: display(numbers[m.group(1)]), template)


def said(finding: Finding) -> str:
    """A finding in reader form (same numbers as ``resolve``, reader units)."""
    return fill(finding.summary, {n.key: n for n in finding.numbers})


def _significant(inputs: _Inputs) -> bool | None:
    """Whether the daily mean changed significantly (``None``: not tested)."""
    if inputs.stats is None or not inputs.stats.tests or inputs.stats.tests[0].p_value is None:
        return None
    return inputs.stats.tests[0].p_value < 0.05


def _premise(
    premise: str | None, numbers: dict[str, KeyNumber], significant: bool | None, label: str, lang: Language
) -> str:
    """What the data says about the direction the question took for granted, said first when
    it is wrong ("why did GMV rise" when it fell) or the change is not significant."""
    if premise is None or "headline.change_pct" not in numbers:
        return ""
    change = numbers["headline.change_pct"].value
    actual = "up" if change > 0 else "down" if change < 0 else "flat"
    said = text(f"answer.premise_{premise}", lang)
    if actual != premise:
        return text(
            "answer.analysis_premise_wrong", lang, label=label, said=said, actual=text(f"answer.premise_{actual}", lang)
        )
    if significant is False:
        return text("answer.analysis_premise_not_significant", lang, label=label, said=said)
    return ""


def _answer(
    inputs: _Inputs, numbers: dict[str, KeyNumber], label: str, period: str, premise: str | None, lang: Language
) -> str:
    """The answer paragraph: the premise if the data contradicts it, the change, whether it is
    real, the main driver, caveats."""
    significant = _significant(inputs) if "stats.rel_change" in numbers else None
    parts: list[str] = [p for p in (_premise(premise, numbers, significant, label, lang),) if p]
    if "headline.change_pct" in numbers:
        down = numbers["headline.change_pct"].value < 0
        key = "answer.analysis_headline_down" if down else "answer.analysis_headline_up"
        parts.append(fill(text(key, lang, label=label, period=period), numbers))
    elif "headline.change" in numbers:
        parts.append(fill(text("answer.analysis_headline_change", lang, label=label, period=period), numbers))
    if significant is not None:
        key = "answer.analysis_mean_significant" if significant else "answer.analysis_mean_not_significant"
        parts.append(fill(text(key, lang), numbers))
    drivers = inputs.findings("driver")
    if drivers:
        parts.append(text("answer.analysis_main_driver", lang, text=said(drivers[0])))
    elif inputs.insight is not None:
        parts.append(text("answer.analysis_no_driver", lang))
    touching = [f for f in (inputs.quality.flags if inputs.quality else ()) if f.affects_period]
    if touching:
        parts.append(text("answer.analysis_quality_note", lang, count=len(touching)))
    return text("answer.sentence_sep", lang).join(parts) or text("answer.analysis_no_conclusion", lang)


def _sections(inputs: _Inputs, packet: TaskPacket, lang: Language) -> list[ReportSection]:
    sections: list[ReportSection] = []

    def add(heading: str, lines: list[str]) -> None:
        if lines:
            sections.append(ReportSection(heading=text(f"answer.heading_{heading}", lang), body="\n".join(lines)))

    add("drivers", [f"{i}. {said(f)}" for i, f in enumerate(inputs.findings("driver"), 1)])
    add("tree", [said(f) for f in inputs.findings("metric_tree")])
    add("tests", [said(f) for f in (inputs.stats.findings if inputs.stats else ())])
    if inputs.trend is not None:
        add(
            "trend",
            [said(f) for f in inputs.trend.findings] + ([inputs.trend.seasonality] if inputs.trend.seasonality else []),
        )
    add(
        "quality",
        [
            f"- {f.table}{' ' + f.date.isoformat() if f.date else ''}: {f.message}"
            + (f" — {f.assumption}" if f.assumption else "")
            for f in (inputs.quality.flags if inputs.quality else ())
        ],
    )
    must = packet.must_keep
    add("assumptions", [f"- {a.text}" for a in must.assumptions])
    add("excluded", [f"- {x.path}" + (f" — {x.reason}" if x.reason else "") for x in must.excluded_paths])
    add("definition", [f"- {f.predicate}" for f in must.filters_applied])
    return sections


def run(packet: TaskPacket, deps: ReportDeps) -> AgentReport[ReportOutput]:
    lang: Language = packet.task.language
    query = plan_of(packet)
    label = metric_label(deps.catalog, query.metrics[0], lang) + filters_text(query.filters, deps.catalog, lang)
    inputs = _Inputs(
        sql=output_of(packet, "sql", SqlOutput),
        quality=output_of(packet, "quality", QualityOutput),
        stats=output_of(packet, "stats", StatsOutput),
        trend=output_of(packet, "trend", TrendOutput),
        insight=output_of(packet, "insight", InsightOutput),
    )
    numbers: dict[str, KeyNumber] = {n.key: n for n in packet.must_keep.key_numbers}
    for out in (inputs.sql, inputs.quality, inputs.stats, inputs.trend, inputs.insight):
        if out is not None:
            numbers.update({n.key: n for f in out.findings for n in f.numbers})
    period = query.time_range.text or f"{query.time_range.start}~{query.time_range.end}"
    answer = _answer(inputs, numbers, label, period, query.premise, lang)
    touching = [f for f in (inputs.quality.flags if inputs.quality else ()) if f.affects_period]
    output = ReportOutput(
        task_id=packet.task_id,
        title=text("answer.analysis_title", lang, label=label, period=period),
        language=lang,
        answer=answer,
        sections=tuple(_sections(inputs, packet, lang)),
        key_metrics=tuple(numbers[k] for k in _KEY_METRICS if k in numbers),
        limitations=tuple(f.message for f in touching),
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


__all__ = ["ReportDeps", "display", "fill", "report_text", "resolve", "run", "said"]
