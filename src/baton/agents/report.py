"""The report agent: a short summary first, in the question's language — the premise checked,
the change (both ways when incomplete days were left out, a single day against its usual
level), whether it is real, where it sits (a driver and its offset, "little net change", or
mere contributions when the change is not significant) — then typed sections: drivers,
offsets, metric tree, tests, trend, data quality (each caveat once), ruled out, assumptions,
definition. Its words locate a change and never claim a cause.

It states no number of its own: every figure is a :class:`KeyNumber` an earlier agent wrote,
placed through ``{num:key}`` and rendered here from its exact value and precision. Findings
are picked by their typed ``kind``, never by id or wording.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from baton.agents.tools import metric_label, output_of, plan_of
from baton.catalog.model import Catalog
from baton.context.compress import resolve
from baton.contracts.agent_outputs import (
    Driver,
    Finding,
    FindingKind,
    InsightOutput,
    QualityFlag,
    QualityOutput,
    ReportOutput,
    ReportSection,
    SectionKind,
    SqlOutput,
    StatsOutput,
    TrendOutput,
)
from baton.contracts.common import Language
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import SemanticQuery
from baton.contracts.values import KeyNumber
from baton.messages import average_fields, capitalised, counted, text
from baton.nlu.interpret import filters_text
from baton.numbers import direction_of, display

_PLACEHOLDER = re.compile(r"\{num:([^{}]+)\}")
_KEY_METRICS = (
    "headline.current",
    "headline.previous",
    "headline.change_pct",
    "comparable.change_pct",
    "stats.rel_change",
)
MATERIAL_PP = Decimal("0.5")
"""The as-loaded and comparable changes are both given when they differ by this many points."""


@dataclass(frozen=True)
class ReportDeps:
    catalog: Catalog


@dataclass(frozen=True)
class _Inputs:
    """What the earlier agents wrote, as the report reads it, and the plan and catalog."""

    catalog: Catalog
    query: SemanticQuery
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


def _moved(value: Decimal, lang: Language) -> str:
    return text(f"answer.premise_{direction_of(value)}", lang)


def _single_day(inputs: _Inputs) -> bool:
    """A single day against its usual level (the stats agent ran the prediction test)."""
    return inputs.query.comparison is not None and inputs.query.comparison.kind == "same_weekday"


def _left_out(inputs: _Inputs) -> list[str]:
    """The incomplete days every comparison left out (the quality agent's flags)."""
    flags = inputs.quality.flags if inputs.quality else ()
    return sorted({f.date.isoformat() for f in flags if f.issue == "incomplete" and f.affects_period and f.date})


def _headline(
    inputs: _Inputs, numbers: dict[str, KeyNumber], label: str, period: str, lang: Language
) -> tuple[str, str]:
    """The change, and the key of the relative change that leads — a sentence that starts with
    the metric's label, capitalised ("Cancellations for May 2026 rose …")."""
    said, key = _headline_of(inputs, numbers, label, period, lang)
    return (capitalised(said) if lang == "en" else said), key


def _headline_of(
    inputs: _Inputs, numbers: dict[str, KeyNumber], label: str, period: str, lang: Language
) -> tuple[str, str]:
    """A single day against its usual level; with incomplete days left out and a material
    difference, both ways; else the change."""
    if _single_day(inputs) and "comparable.change_pct" in numbers:
        return fill(
            text("answer.analysis_headline_day", lang, label=label, period=period), numbers
        ), "comparable.change_pct"
    both = _both_ways(inputs, numbers, label, period, lang)
    if both:
        return both, "comparable.change_pct"
    if "headline.change_pct" in numbers:
        down = numbers["headline.change_pct"].value < 0
        key = "answer.analysis_headline_down" if down else "answer.analysis_headline_up"
        return fill(text(key, lang, label=label, period=period), numbers), "headline.change_pct"
    if "headline.change" in numbers:
        return fill(
            text("answer.analysis_headline_change", lang, label=label, period=period), numbers
        ), "headline.change"
    return "", ""


def _both_ways(inputs: _Inputs, numbers: dict[str, KeyNumber], label: str, period: str, lang: Language) -> str:
    """The change on comparable days first when the periods compare different days — incomplete
    days left out, or periods of different lengths put per day — followed by the totals as
    loaded when they differ materially. Days left out lead even when the difference is small:
    the data-quality section says they are left out of every comparison, the headline too."""
    assert inputs.query.comparison is not None
    if not {"comparable.change_pct", "headline.change_pct"} <= set(numbers):
        return ""
    if inputs.catalog.counted_per_day(inputs.query.metrics[0]):
        return ""  # per day, "客单价" divides by buyer-days: another metric, never the lead (its test says so)
    comparable, loaded = numbers["comparable.change_pct"].value, numbers["headline.change_pct"].value
    left_out, days = _left_out(inputs), (inputs.query.time_range.days, len(inputs.query.comparison.dates()))
    stale = sorted(
        f.date.isoformat()
        for f in (inputs.quality.flags if inputs.quality else ())
        if f.issue == "stale" and f.affects_period and f.date
    )
    # opposite directions are always said both ways: the premise sentence names the totals as loaded
    material = abs(comparable - loaded) >= MATERIAL_PP or direction_of(comparable) != direction_of(loaded)
    if not (left_out or stale or (material and days[0] != days[1])):
        return ""
    basis = [text("answer.basis_stale", lang, day=day) for day in stale[:1]]
    if left_out:
        basis.append(text("answer.basis_left_out", lang, days=text("answer.list_sep", lang).join(left_out)))
    if days[0] != days[1] and not inputs.catalog.metrics[inputs.query.metrics[0]].is_ratio:  # a rate needs no per day
        per_day = {**average_fields("day"), **counted("day", days[0], "current"), **counted("day", days[1], "previous")}
        basis.append(text("answer.basis_average", lang, **per_day))
    said = text(
        "answer.analysis_headline_both" if material else "answer.analysis_headline_comparable",
        lang,
        basis=text("answer.clause_sep", lang).join(basis),
        label=label,
        period=period,
        moved=_moved(comparable, lang),
    )
    return fill(said, numbers)


def _premise(
    premise: str | None,
    change: KeyNumber | None,
    significant: bool | None,
    label: str,
    lang: Language,
    loaded: KeyNumber | None = None,
    *,
    unlike: bool = False,
) -> str:
    """What the data says about the direction the question took for granted, said first when
    it is wrong ("why did GMV rise" when it fell) or the change is not significant. When the
    lead is on comparable days and the totals as loaded (``loaded``) went the way the question
    says ("为什么4月订单量比3月低": fewer in total, more per day), both are said, and so when only the
    comparable days went its way ("why did March GMV go down": less per day, more in total). A change that is
    not significant across periods that are not like for like (``unlike``: an event in one of
    them, a month holding a promotion against one without) is never called "maybe noise": the event is said."""
    if premise is None or change is None:
        return ""
    actual = direction_of(change.value)
    total = direction_of(loaded.value) if loaded is not None and loaded is not change else actual
    said = text(f"answer.premise_{premise}", lang)
    found: tuple[str, str] | None = None  # the message and the direction it names
    if premise not in (actual, total):
        found = ("wrong", actual)
    elif actual != premise:  # "为什么4月订单量比3月低": fewer in total, more per day
        found = ("totals_only", actual)
    elif total != premise:  # "why did March GMV go down": less per day, more in total (31 days against 28)
        found = ("comparable_only", total)
    if found is not None:
        shown = text(f"answer.premise_{found[1]}", lang)
        return text(f"answer.analysis_premise_{found[0]}", lang, label=label, said=said, actual=shown)
    if significant is False:
        key = "answer.analysis_premise_not_significant_unlike" if unlike else "answer.analysis_premise_not_significant"
        return text(key, lang, label=label, said=said)
    return ""


def _drivers_said(inputs: _Inputs, numbers: dict[str, KeyNumber], lang: Language) -> str:
    """Drivers in words that fit the evidence: a driver and its offset when the change is
    significant, "little net change" when parts of one dimension cancel, contributions (not
    reasons) otherwise, and the insight's own words when no member is a driver."""
    if inputs.insight is None:
        return ""
    drivers, said_of = inputs.insight.drivers, {f.finding_id: said(f) for f in inputs.findings("driver")}
    if not drivers:
        return " ".join(said(f) for f in inputs.findings("no_driver")) or text("answer.analysis_no_driver", lang)
    net = _net_little(inputs, numbers, lang)
    if net:
        return net
    first = said_of.get("insight-driver-1", "")
    if drivers[0].stance == "contribution":
        return text("answer.analysis_largest_contribution", lang, text=first)
    if drivers[0].stance == "offset":
        return text("answer.analysis_only_offsets", lang, text=first)
    out = [text("answer.analysis_main_driver", lang, text=first)]
    offset = next((i for i, d in enumerate(drivers, 1) if d.stance == "offset"), None)
    if offset is not None:
        out.append(text("answer.analysis_offset_by", lang, text=said_of.get(f"insight-driver-{offset}", "")))
    return text("answer.sentence_sep", lang).join(out)


def _net_little(inputs: _Inputs, numbers: dict[str, KeyNumber], lang: Language) -> str:
    """Parts of one dimension that cancel, when the change itself is not significant: the
    largest fall and the largest rise of the same dimension(s) each exceed twice the net change."""
    assert inputs.insight is not None
    drivers = inputs.insight.drivers
    if _significant(inputs) is not False or not drivers:
        return ""
    dims = set(drivers[0].members)
    same = [(i, d) for i, d in enumerate(drivers, 1) if set(d.members) == dims]
    down = next(((i, d) for i, d in same if d.change < 0), None)
    up = next(((i, d) for i, d in same if d.change > 0), None)
    if down is None or up is None:
        return ""
    net = abs(_total(drivers))
    if min(abs(down[1].change), abs(up[1].change)) < 2 * net:
        return ""
    return fill(
        text(
            "answer.analysis_net_little",
            lang,
            down=_who(inputs, down[1], lang),
            up=_who(inputs, up[1], lang),
            down_key=f"driver.{down[0]}.change",
            up_key=f"driver.{up[0]}.change",
        ),
        numbers,
    )


def _total(drivers: tuple[Driver, ...]) -> float:
    """The whole change the drivers' shares refer to."""
    return next((d.change / d.share_of_change for d in drivers if d.share_of_change), 0.0)


def _who(inputs: _Inputs, d: Driver, lang: Language) -> str:
    """ "APP × 新用户 转化率": the driver's members and factor, in catalog labels."""
    members = " × ".join(inputs.catalog.member_label(dim, m, lang) for dim, m in d.members.items())
    return f"{members} {metric_label(inputs.catalog, d.factor, lang)}"


def _answer(
    inputs: _Inputs, numbers: dict[str, KeyNumber], label: str, period: str, premise: str | None, lang: Language
) -> str:
    """The summary: the premise if the data contradicts it, the change (both ways when
    incomplete days were left out), whether it is real, and where it sits."""
    headline, lead = _headline(inputs, numbers, label, period, lang)
    significant = _significant(inputs) if "stats.rel_change" in numbers else None
    loaded = numbers.get("headline.change_pct")
    unlike = bool(inputs.findings("event"))  # an event in one period only: not like for like, not "noise"
    parts = [_premise(premise, numbers.get(lead), significant, label, lang, loaded, unlike=unlike), headline]
    parts += [said(f) for f in inputs.findings("event")]
    if significant is not None:
        kind = "day" if _single_day(inputs) else "mean"
        key = f"answer.analysis_{kind}_significant" if significant else f"answer.analysis_{kind}_not_significant"
        parts.append(fill(text(key, lang), numbers))
    parts.append(_drivers_said(inputs, numbers, lang))
    touching = [
        f for f in (inputs.quality.flags if inputs.quality else ()) if f.affects_period and f.issue != "incomplete"
    ]
    if touching:
        parts.append(text("answer.analysis_quality_note", lang, count=len(touching)))
    return text("answer.sentence_sep", lang).join(p for p in parts if p) or text("answer.analysis_no_conclusion", lang)


def _sections(inputs: _Inputs, packet: TaskPacket, lang: Language) -> list[ReportSection]:
    sections: list[ReportSection] = []

    def add(kind: SectionKind, lines: list[str], heading: str | None = None) -> None:
        if lines:
            title = text(f"answer.heading_{heading or kind}", lang)
            sections.append(ReportSection(kind=kind, heading=title, items=tuple(lines)))

    drivers = inputs.insight.drivers if inputs.insight else ()
    said_of = {f.finding_id: said(f) for f in inputs.findings("driver")}
    ranked = [(d, said_of[f"insight-driver-{i}"]) for i, d in enumerate(drivers, 1) if f"insight-driver-{i}" in said_of]
    add(
        "drivers",
        [s for d, s in ranked if d.stance != "offset"] or [said(f) for f in inputs.findings("no_driver")],
        "contributions" if drivers and drivers[0].stance == "contribution" else None,
    )
    add("offsets", [s for d, s in ranked if d.stance == "offset"])
    add("tree", [said(f) for f in inputs.findings("metric_tree")])
    add("tests", [said(f) for f in (inputs.stats.findings if inputs.stats else ())])
    if inputs.trend is not None:
        add(
            "trend",
            [said(f) for f in inputs.trend.findings] + ([inputs.trend.seasonality] if inputs.trend.seasonality else []),
        )
    add("quality", [flag_line(f) for f in (inputs.quality.flags if inputs.quality else ())])
    must = packet.must_keep
    add("excluded", [x.path + (f" — {x.reason}" if x.reason else "") for x in must.excluded_paths])
    add("assumptions", [a.text for a in must.assumptions])
    add("definition", [f.predicate for f in must.filters_applied])
    return sections


def flag_line(f: QualityFlag) -> str:
    """A quality flag as one line: table, day, what is wrong, and what is assumed because of it."""
    when = f" {f.date.isoformat()}" if f.date else ""
    return f"{f.table}{when}: {f.message}" + (f" — {f.assumption}" if f.assumption else "")


def run(packet: TaskPacket, deps: ReportDeps) -> AgentReport[ReportOutput]:
    lang: Language = packet.task.language
    query = plan_of(packet)
    label = metric_label(deps.catalog, query.metrics[0], lang) + filters_text(query.filters, deps.catalog, lang)
    inputs = _Inputs(
        catalog=deps.catalog,
        query=query,
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


__all__ = ["ReportDeps", "display", "fill", "flag_line", "resolve", "run", "said"]
