"""The insight agent: where did the change come from?

For every dimension of the metric and every pair of dimensions it runs one drill-down (SQL
returns, per member and period, the component totals and the sufficient statistics of the
daily value ``factor(member) / factor(rest)``). Per member and factor of the metric tree:

* ``change`` — what the member contributed to the metric's change *beyond what the rest of
  the data did* (metric units): LMDI weight × excess log change for products and sums,
  w̄·L(r)·excess for a ratio's rate, the shift-share mix effect for its weights. A change
  everybody shared (a promotion, the calendar) is nobody's driver.
* the test — Welch on the daily member/rest values, current vs comparison; ``ci`` is the 95 %
  delta-method interval of their relative change; Benjamini–Hochberg across all drill-downs.

Drivers are the significant ones (q ≤ 0.05; when the headline change is significant, in its
direction), a pair replacing a single member when it carries ≥ 80 % of that member's effect,
ranked by |change|. Dimensions and factors that explain nothing become excluded paths.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from baton.agents.quality import incomplete_days
from baton.agents.tools import (
    QueryTool,
    bi,
    dimension_label,
    failed,
    member_label,
    metric_label,
    number,
    output_of,
    plan_of,
    rows_as_dicts,
    scaled,
    unit_of,
)
from baton.catalog.analysis_queries import CURRENT, PREVIOUS, MetricTree, drilldown, metric_tree
from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Driver, Finding, InsightOutput, QualityOutput, StatsOutput
from baton.contracts.handoff import AgentReport, ReportResult, TaskPacket
from baton.contracts.semantic import Language
from baton.contracts.values import Assumption, ExcludedPath, KeyNumber
from baton.errors import BatonError
from baton.stats import (
    InsufficientData,
    StatsInputError,
    SuffStats,
    TreeTotals,
    benjamini_hochberg,
    metric_tree_lmdi,
    ratio_mix_rate,
    welch_t_test,
)

Q_LEVEL = 0.05
Q_FLOOR = 1e-6


def q_text(q: float) -> str:
    """A q-value as the report states it: below 1e-6 as a bound, never rounded to zero."""
    return f"< {Q_FLOOR:.6f}" if q < Q_FLOOR else f"= {q:.3g}"


SPECIFIC_SHARE = 0.8
MAX_DRIVERS = 10
MIN_DAYS = 3
MATERIAL_SHARE = 0.1
"""A driver carries at least this share of the top driver's change."""


@dataclass(frozen=True)
class InsightDeps:
    tool: QueryTool
    catalog: Catalog


@dataclass
class Candidate:
    members: dict[str, str]
    factor: str
    change: float
    full: float
    factor_change: float | None
    p_value: float
    ci: tuple[float, float]
    evidence_id: str
    q_value: float = 1.0
    significant: bool = False
    subsumed_by: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return " × ".join(f"{d}={m}" for d, m in self.members.items()) + f" · {self.factor}"


def _logmean(a: float, b: float) -> float:
    if a <= 0 or b <= 0:
        return (a + b) / 2.0
    return a if a == b else (a - b) / (math.log(a) - math.log(b))


def _ratio(num: float, den: float | None) -> float | None:
    if den is None:
        return num
    return num / den if den else None


def _log_change(before: float | None, after: float | None) -> float | None:
    if before is None or after is None or before <= 0 or after <= 0:
        return None
    return math.log(after / before)


def _suff(row: dict[str, Any], i: int) -> SuffStats | None:
    n = int(row.get(f"n{i}") or 0)
    if n < MIN_DAYS:
        return None
    return SuffStats(
        n=n,
        total=float(row.get(f"s{i}") or 0.0),
        sum_sq=max(0.0, float(row.get(f"ss{i}") or 0.0)),
        shift=float(row.get(f"k{i}") or 0.0),
    )


def _value(tree: MetricTree, comps: dict[str, float]) -> float:
    v = _ratio(comps.get(tree.value.num, 0.0), comps.get(tree.value.den, 0.0) if tree.value.den else None)
    return v if v is not None else 0.0


def candidates_for(
    tree: MetricTree, dims: tuple[str, ...], rows: list[dict[str, Any]], evidence_id: str
) -> tuple[list[Candidate], dict[str, dict[str, float]]]:
    """Every (member, factor) of one drill-down with its specific change and its test."""
    by_member: dict[tuple[str, ...], dict[str, dict[str, Any]]] = {}
    for row in rows:
        key = tuple(str(row[d]) for d in dims)
        by_member.setdefault(key, {})[str(row["which"])] = row
    totals = {
        w: {c: sum(float(m[w][c] or 0.0) for m in by_member.values() if w in m) for c in tree.components}
        for w in (PREVIOUS, CURRENT)
    }
    mix: dict[tuple[str, ...], float] = {}
    if tree.kind == "ratio":
        num, den = tree.value.num, tree.value.den or ""
        pairs = {
            w: {k: (float(m[w][num] or 0.0), float(m[w][den] or 0.0)) for k, m in by_member.items() if w in m}
            for w in (PREVIOUS, CURRENT)
        }
        try:
            decomposition = ratio_mix_rate(pairs[PREVIOUS], pairs[CURRENT])
            mix = {e.member: e.mix_effect for e in decomposition.members}  # type: ignore[misc]
        except (InsufficientData, StatsInputError):
            mix = {}
    out: list[Candidate] = []
    for key, periods in by_member.items():
        if PREVIOUS not in periods or CURRENT not in periods:
            continue
        before = {c: float(periods[PREVIOUS][c] or 0.0) for c in tree.components}
        after = {c: float(periods[CURRENT][c] or 0.0) for c in tree.components}
        rest0 = {c: totals[PREVIOUS][c] - before[c] for c in tree.components}
        rest1 = {c: totals[CURRENT][c] - after[c] for c in tree.components}
        m0, m1 = _value(tree, before), _value(tree, after)
        for i, f in enumerate(tree.factors):
            a, b = _suff(periods[PREVIOUS], i), _suff(periods[CURRENT], i)
            if a is None or b is None:
                continue
            try:
                test = welch_t_test(a, b)
            except (InsufficientData, StatsInputError):
                continue
            f0 = _ratio(before[f.num], before[f.den] if f.den else None)
            f1 = _ratio(after[f.num], after[f.den] if f.den else None)
            c0 = _ratio(rest0[f.num], rest0[f.den] if f.den else None)
            c1 = _ratio(rest1[f.num], rest1[f.den] if f.den else None)
            own, rest = _log_change(f0, f1), _log_change(c0, c1)
            if f.role == "mix":
                if key not in mix:
                    continue
                change = mix[key]
                full = change
            else:
                if own is None or rest is None:
                    continue
                if tree.kind == "ratio":
                    w0 = before[f.den or ""] / totals[PREVIOUS][f.den or ""] if totals[PREVIOUS][f.den or ""] else 0.0
                    w1 = after[f.den or ""] / totals[CURRENT][f.den or ""] if totals[CURRENT][f.den or ""] else 0.0
                    weight = (w0 + w1) / 2.0 * _logmean(f0 or 0.0, f1 or 0.0)
                else:
                    weight = _logmean(m0, m1)
                change = weight * (own - rest)
                full = weight * own
            rel = test.relative_change
            ci = test.relative_ci if test.relative_ci is not None else (math.nan, math.nan)
            if rel is None or not all(map(math.isfinite, ci)):
                continue
            out.append(
                Candidate(
                    members=dict(zip(dims, key, strict=True)),
                    factor=f.name,
                    change=change,
                    full=full,
                    factor_change=(math.exp(own) - 1.0) if own is not None else None,
                    p_value=float(test.p_value if test.p_value is not None else 1.0),
                    ci=(float(ci[0]), float(ci[1])),
                    evidence_id=evidence_id,
                    extra={"excess_relative_change": rel, "role": f.role},
                )
            )
    return out, totals


def select_drivers(cands: list[Candidate], total_change: float, headline_significant: bool) -> list[Candidate]:
    """BH across every candidate, the significance rule, pair-over-single specificity, ranking."""
    if not cands:
        return []
    qs = benjamini_hochberg([c.p_value for c in cands])
    for c, q in zip(cands, qs, strict=True):
        c.q_value = q
        same_way = total_change == 0 or not headline_significant or (c.change > 0) == (total_change > 0)
        c.significant = q <= Q_LEVEL and same_way and c.change != 0
    sig = [c for c in cands if c.significant]
    pairs = [c for c in sig if len(c.members) == 2]
    for single in (c for c in sig if len(c.members) == 1):
        ((dim, member),) = single.members.items()
        for pair in pairs:
            if (
                pair.factor == single.factor
                and pair.members.get(dim) == member
                and (pair.change > 0) == (single.change > 0)
                and abs(pair.change) >= SPECIFIC_SHARE * abs(single.change)
            ):
                single.subsumed_by = pair.key
                break
    ranked = sorted((c for c in sig if c.subsumed_by is None), key=lambda c: (-abs(c.change), len(c.members), c.key))
    drivers: list[Candidate] = []
    for c in ranked:
        # a slice overlapping a stronger driver (app × 华东 after app × new) mostly echoes it
        echo = next((d for d in drivers if set(d.members.items()) & set(c.members.items())), None)
        if echo is not None:
            c.subsumed_by = echo.key
            continue
        drivers.append(c)
    if drivers:
        floor = MATERIAL_SHARE * abs(drivers[0].change)
        drivers = [c for c in drivers if abs(c.change) >= floor]
    return drivers


def run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    try:
        return _run(packet, deps)
    except BatonError as exc:
        return failed(packet, exc)


def _run(packet: TaskPacket, deps: InsightDeps) -> AgentReport[InsightOutput]:
    lang = packet.task.language
    catalog, tool = deps.catalog, deps.tool
    query = plan_of(packet)
    metric = query.metrics[0]
    excluded = incomplete_days(output_of(packet, "quality", QualityOutput))
    stats = output_of(packet, "stats", StatsOutput)
    headline_significant = bool(
        stats and stats.tests and stats.tests[0].p_value is not None and stats.tests[0].p_value < 0.05
    )
    fixed = {f.dimension for f in query.filters if len(f.members) == 1}
    dims = [d for d in catalog.metrics[metric].dimensions if d not in fixed]
    combos: list[tuple[str, ...]] = [(d,) for d in dims] + list(itertools.combinations(dims, 2))
    cands: list[Candidate] = []
    total_change = 0.0
    evidence: list[str] = []
    top_tree: MetricTree | None = None
    top_totals: dict[str, dict[str, float]] = {}
    for combo in combos:
        tree = metric_tree(catalog, metric, combo, query.filters)
        result = tool.run(
            "insight:drilldown:" + "×".join(combo),
            drilldown(catalog, query, tree, combo, excluded_days=excluded, dialect=tool.dialect).expression,
        )
        evidence.append(result.evidence_id)
        found, totals = candidates_for(tree, combo, rows_as_dicts(result), result.evidence_id)
        cands += found
        if len(combo) == 1 and total_change == 0.0:
            total_change = _value(tree, totals[CURRENT]) - _value(tree, totals[PREVIOUS])
        if top_tree is None and "visitors" in tree.components:
            top_tree, top_totals = tree, totals
    drivers = select_drivers(cands, total_change, headline_significant)[:MAX_DRIVERS]
    unit, places = unit_of(catalog, metric, lang)
    change_unit = bi(lang, "个百分点", "pp") if unit == "%" else unit

    def members_text(c: Candidate) -> str:
        return " × ".join(
            f"{dimension_label(catalog, d, lang)} {member_label(catalog, d, m, lang)}" for d, m in c.members.items()
        )

    findings: list[Finding] = []
    out_drivers: list[Driver] = []
    for rank, c in enumerate(drivers, 1):
        k = f"driver.{rank}"
        share = c.change / total_change if total_change else 0.0
        nums = (
            number(
                f"{k}.change",
                bi(lang, f"{members_text(c)} 的贡献", f"contribution of {members_text(c)}"),
                scaled(catalog, metric, c.change),
                change_unit,
                places,
                c.evidence_id,
            ),
            number(f"{k}.share", bi(lang, "占总变化", "share of the change"), share * 100, "%", 1, c.evidence_id),
            number(
                f"{k}.factor_change",
                bi(
                    lang,
                    f"{metric_label(catalog, c.factor, lang)} 变化",
                    f"{metric_label(catalog, c.factor, lang)} change",
                ),
                (c.factor_change or 0.0) * 100,
                "%",
                1,
                c.evidence_id,
            ),
            number(
                f"{k}.excess",
                bi(lang, "相对其余部分的变化", "change relative to the rest"),
                c.extra["excess_relative_change"] * 100,
                "%",
                1,
                c.evidence_id,
            ),
            number(
                f"{k}.ci_low",
                bi(lang, "95% 区间下限", "95% CI low"),
                min(c.ci[0], c.extra["excess_relative_change"]) * 100,
                "%",
                1,
                c.evidence_id,
            ),
            number(
                f"{k}.ci_high",
                bi(lang, "95% 区间上限", "95% CI high"),
                max(c.ci[1], c.extra["excess_relative_change"]) * 100,
                "%",
                1,
                c.evidence_id,
            ),
            # below 1e-6 a q-value is stated as a bound ("q < 0.000001"), never rounded to zero
            number(
                f"{k}.q",
                "q (BH) upper bound" if c.q_value < Q_FLOOR else "q (BH)",
                max(c.q_value, Q_FLOOR),
                "q",
                6 if c.q_value < 0.0001 else 4,
                c.evidence_id,
            ),
        )
        detail = {
            "members": c.members,
            "factor": c.factor,
            "change": c.change,
            "share_of_change": share,
            "p_value": c.p_value,
            "q_value": c.q_value,
            "ci": list(c.ci),
            "factor_change": c.factor_change,
            "excess_relative_change": c.extra["excess_relative_change"],
            "evidence_id": c.evidence_id,
        }
        q_rel = "<" if c.q_value < Q_FLOOR else "="
        findings.append(
            Finding(
                finding_id=f"insight-driver-{rank}",
                summary=bi(
                    lang,
                    f"{members_text(c)}：{metric_label(catalog, c.factor, lang)}变化 {{num:{k}.factor_change}}，相对其余部分 {{num:{k}.excess}}（95% 区间 {{num:{k}.ci_low}} 至 {{num:{k}.ci_high}}，q {q_rel} {{num:{k}.q}}），贡献 {{num:{k}.change}}（占总变化 {{num:{k}.share}}）。",
                    f"{members_text(c)}: {metric_label(catalog, c.factor, lang)} changed {{num:{k}.factor_change}}, {{num:{k}.excess}} relative to the rest (95% CI {{num:{k}.ci_low}} to {{num:{k}.ci_high}}, q {q_rel} {{num:{k}.q}}), contributing {{num:{k}.change}} ({{num:{k}.share}} of the change).",
                ),
                detail=json.dumps(detail, ensure_ascii=False, sort_keys=True),
                confidence=0.9 if rank == 1 else 0.8,
                evidence_ids=(c.evidence_id,),
                numbers=nums,
            )
        )
        out_drivers.append(
            Driver(
                dimension="×".join(c.members),
                member="×".join(c.members.values()),
                contribution=nums[0],
                share=nums[1].value / 100,
                direction="up" if c.change > 0 else "down",
                evidence_ids=(c.evidence_id,),
            )
        )

    excluded_paths: list[ExcludedPath] = []
    best_qs: list[float] = []
    named_dims = {d for c in drivers for d in c.members}
    for d in dims:
        if d in named_dims:
            continue
        own = [c for c in cands if list(c.members) == [d]]
        best_q = min((c.q_value for c in own), default=1.0)
        best_qs.append(best_q)
        echoes = any(c.significant for c in cands if d in c.members)
        excluded_paths.append(
            ExcludedPath(
                path=bi(
                    lang,
                    f"维度：{dimension_label(catalog, d, lang)}",
                    f"dimension: {dimension_label(catalog, d, lang)}",
                ),
                reason=bi(
                    lang,
                    f"其显著差异只是上述驱动因素的反映（最小 q {q_text(best_q)}）。"
                    if echoes
                    else f"没有哪个{dimension_label(catalog, d, lang)}成员的变化与其余部分显著不同（最小 q {q_text(best_q)}）。",
                    f"its significant differences only echo the drivers above (smallest q {q_text(best_q)})."
                    if echoes
                    else f"no {dimension_label(catalog, d, lang)} member moved differently from the rest (smallest q {q_text(best_q)}).",
                ),
                evidence_ids=tuple(sorted({c.evidence_id for c in own}))[:1],
            )
        )
    named_factors = {c.factor for c in drivers}
    all_factors = {c.factor for c in cands}
    for factor in sorted(all_factors - named_factors):
        own = [c for c in cands if c.factor == factor]
        best_q = min((c.q_value for c in own), default=1.0)
        best_qs.append(best_q)
        fl = metric_label(catalog, factor, lang)
        echoes = any(c.significant for c in own)
        excluded_paths.append(
            ExcludedPath(
                path=bi(lang, f"因子：{fl}", f"factor: {fl}"),
                reason=bi(
                    lang,
                    f"{fl}的显著差异只是上述驱动因素的反映或影响很小（最小 q {q_text(best_q)}）。"
                    if echoes
                    else f"任何成员的{fl}都没有与其余部分显著不同的变化（最小 q {q_text(best_q)}）。",
                    f"its significant differences only echo the drivers above or are immaterial (smallest q {q_text(best_q)})."
                    if echoes
                    else f"no member's {fl} moved differently from the rest (smallest q {q_text(best_q)}).",
                ),
            )
        )
    subsumed = [c for c in cands if c.subsumed_by and len(c.members) == 1]
    if subsumed:
        excluded_paths.append(
            ExcludedPath(
                path=bi(
                    lang,
                    "单维度解释：" + "、".join(sorted({members_text(c) for c in subsumed})),
                    "single-dimension readings: " + ", ".join(sorted({members_text(c) for c in subsumed})),
                ),
                reason=bi(
                    lang,
                    "其变化集中在更具体的维度组合中（见驱动因素）。",
                    "their change is concentrated in a more specific pair (see drivers).",
                ),
            )
        )
    if not drivers:
        findings.append(
            Finding(
                finding_id="insight-no-driver",
                summary=bi(
                    lang,
                    f"检验了 {len(cands)} 个成员×因子组合（BH 校正），没有显著的驱动因素：变化在各维度上是普遍的。",
                    f"Tested {len(cands)} member × factor combinations (BH-adjusted): no significant driver; the change is shared across every dimension.",
                ),
                confidence=0.7,
                evidence_ids=tuple(evidence[:1]),
            )
        )
    if metric == "gmv" and top_tree is not None and evidence:
        tree_finding = _tree_finding(catalog, metric, top_totals, lang, evidence[0])
        if tree_finding is not None:
            findings.append(tree_finding)
    offsetting = [c for c in cands if c.q_value <= Q_LEVEL and not c.significant and c.change != 0]
    assumptions = [
        Assumption(
            text=bi(
                lang,
                f"驱动因素按“相对其余部分的变化”判定：每日成员/其余之比，Welch 检验，BH 校正 {len(cands)} 个检验（q ≤ {Q_LEVEL}）。",
                f"A driver is a member whose factor moved relative to the rest of the data: daily member/rest ratios, Welch test, BH across {len(cands)} tests (q ≤ {Q_LEVEL}).",
            ),
            source_agent="insight",
        )
    ]
    if offsetting and headline_significant:
        assumptions.append(
            Assumption(
                text=bi(
                    lang,
                    f"{len(offsetting)} 个与总变化方向相反的显著差异按“抵消项”处理，不列为驱动因素。",
                    f"{len(offsetting)} significant differences against the direction of the change are treated as offsets, not drivers.",
                ),
                source_agent="insight",
            )
        )
    anchor = evidence[0] if evidence else "derived"
    supporting = [
        number("insight.tests_run", bi(lang, "检验数", "tests run"), len(cands), "tests", 0, anchor),
        number("insight.q_level", bi(lang, "显著性阈值 q", "q threshold"), Q_LEVEL, "q", 2, anchor),
        number("insight.offsets", bi(lang, "抵消项数", "offsets"), len(offsetting), "tests", 0, anchor),
        number("insight.drilldowns", bi(lang, "下钻数", "drill-downs"), len(combos), "drill-downs", 0, anchor),
        *(
            # q-values can be 1e-40: kept as the text states them (3 significant digits, or the bound)
            KeyNumber(
                key=f"insight.best_q.{i}",
                label=bi(lang, "最小 q", "smallest q"),
                value=Decimal(str(Q_FLOOR)) if q < Q_FLOOR else Decimal(f"{q:.3g}"),
                unit="q",
                evidence_id=anchor,
            )
            for i, q in enumerate(best_qs)
        ),
    ]
    output = InsightOutput(
        task_id=packet.task_id,
        supporting=tuple(supporting),
        drivers=tuple(out_drivers),
        findings=tuple(findings),
        assumptions_made=tuple(assumptions),
        paths_excluded=tuple(excluded_paths),
        hypotheses=(),
        confidence=0.85 if drivers else 0.6,
    )
    summary = bi(
        lang,
        f"{len(combos)} 个下钻，{len(cands)} 个检验，{len(drivers)} 个驱动因素。",
        f"{len(combos)} drill-downs, {len(cands)} tests, {len(drivers)} drivers.",
    )
    return AgentReport(task_id=packet.task_id, status="success", result=ReportResult(summary=summary, data=output))


def _tree_finding(
    catalog: Catalog, metric: str, totals: dict[str, dict[str, float]], lang: Language, evidence_id: str
) -> Finding | None:
    """The metric tree of the whole change: gmv = visitors × conversion_rate × aov, by LMDI
    (the factor effects sum exactly to the change)."""
    try:
        before, after = (
            TreeTotals(gmv=totals[w]["gmv"], orders=totals[w]["order_count"], visitors=totals[w]["visitors"])
            for w in (PREVIOUS, CURRENT)
        )
        decomposition = metric_tree_lmdi(before, after)
    except (KeyError, InsufficientData, StatsInputError):
        return None
    unit, places = unit_of(catalog, metric, lang)
    nums = tuple(
        number(
            f"tree.{e.factor}",
            bi(lang, f"{metric_label(catalog, e.factor, lang)} 的贡献", f"{e.factor} effect"),
            scaled(catalog, metric, e.effect),
            unit,
            places,
            evidence_id,
        )
        for e in decomposition.factors
    )
    zh = "，".join(f"{metric_label(catalog, e.factor, 'zh')} {{num:tree.{e.factor}}}" for e in decomposition.factors)
    en = ", ".join(f"{metric_label(catalog, e.factor, 'en')} {{num:tree.{e.factor}}}" for e in decomposition.factors)
    return Finding(
        finding_id="insight-metric-tree",
        summary=bi(
            lang,
            f"指标树分解（LMDI，各因子贡献之和等于总变化）：{zh}。",
            f"Metric tree (LMDI; the factor effects sum to the change): {en}.",
        ),
        confidence=0.9,
        evidence_ids=(evidence_id,),
        numbers=nums,
    )


def driver_details(output: InsightOutput) -> list[dict[str, Any]]:
    """The machine-readable driver records (ranked) carried in the driver findings' detail."""
    out: list[dict[str, Any]] = []
    for finding in output.findings:
        if finding.finding_id.startswith("insight-driver-") and finding.detail:
            out.append(json.loads(finding.detail))
    return out
