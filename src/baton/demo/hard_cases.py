"""The hard-case scenarios of ``baton analyze``: planted effects and faults, scored.

Each case builds a packaged demo scenario (``baton.demo.scenarios``) at a scale, asks one why-
question (in Chinese and in English) and scores the Answer against what was planted:

* ``top`` — the top driver is a planted effect's slice (with the question's single-member
  filters) and factor (no planted effect: no driver at all);
* ``top3`` — every planted driver of the question is among the first three drivers;
* ``related`` — no driver is unrelated to a planted effect (it shares a member with one and
  contradicts none);
* ``faults`` — the incomplete days flagged are exactly the planted faults inside the periods;
* ``direction`` — the top driver moves the metric the way it changed (on comparable days),
  judged when the change is significant: otherwise it has no direction to move with;
* ``not_sig`` — "not significant" is said when the headline test has p ≥ 0.05;
* ``no_cause`` — no causal wording anywhere in the report;
* ``paths`` — no excluded path names a dimension or factor a driver uses;
* ``adds_up`` — the metric tree's LMDI terms (a product metric), or the rate and mix effects (a
  ratio), add up to the change on comparable days.

``python -m baton.demo.hard_cases`` builds every case into a temporary folder and prints the
table.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from baton.contracts.answer import Answer

AS_OF = date(2026, 7, 1)
CRITERIA = ("top", "top3", "related", "faults", "direction", "not_sig", "no_cause", "paths", "adds_up")
_CAUSAL = re.compile(
    r"导致|因为|由于|造成|引起|原因|归因|\bbecause\b|\bcaused?\b|\bcauses\b|\bdue to\b|\breasons?\b|\bled to\b|\bdrove\b",
    re.IGNORECASE,
)
_NOT_SIGNIFICANT = re.compile(r"不显著|not statistically significant|not significant", re.IGNORECASE)

Planted = tuple[dict[str, str], str]
"""(slice, factor) of a planted driver, as the question should find it."""


@dataclass(frozen=True)
class ScenarioCase:
    name: str
    scenario: str
    questions: tuple[str, str]
    """(Chinese, English)."""
    drivers: tuple[Planted, ...] = ()
    scale: float = 0.2
    user: str | None = None


CASES: tuple[ScenarioCase, ...] = (
    ScenarioCase(
        "mix shift, flat rates",
        "new_user_mix_shift",
        ("为什么2026年5月的转化率下降了？", "Why did the conversion rate fall in May 2026?"),
        (({"user_type": "new"}, "visitors"),),
    ),
    ScenarioCase(
        "strong effect, small segment",
        "small_segment_conversion_drop",
        ("为什么2026年4月的转化率下降了？", "Why did conversion change in April 2026?"),
        (({"region": "华中", "channel": "live_stream"}, "conversion_rate"),),
    ),
    ScenarioCase(
        "effect + load faults (rate)",
        "mini_program_drop_with_faults",
        ("为什么2026年5月的转化率下降了？", "Why did the conversion rate drop in May 2026?"),
        (({"channel": "mini_program"}, "conversion_rate"),),
    ),
    ScenarioCase(
        "effect + load faults (sum)",
        "mini_program_drop_with_faults",
        ("为什么2026年5月的订单量下降了？", "Why did orders fall in May 2026?"),
        (({"channel": "mini_program"}, "conversion_rate"),),
    ),
    ScenarioCase(
        "two drivers, opposite sign",
        "opposite_drivers",
        ("为什么2026年4月的GMV上升了？", "Why did GMV rise in April 2026?"),
        (({"channel": "app"}, "aov"), ({"channel": "web"}, "conversion_rate")),
    ),
    ScenarioCase(
        "price driver offset elsewhere",
        "live_order_value_offset",
        ("为什么2026年5月的GMV变化了？", "How did GMV change in May 2026, and why?"),
        (({"channel": "live_stream"}, "aov"), ({"channel": "mini_program"}, "visitors")),
    ),
    ScenarioCase(
        "fault that inflates a rate",
        "traffic_fault_inflates_conversion",
        ("为什么2026年4月的转化率上升了？", "Why did the conversion rate rise in April 2026?"),
    ),
    ScenarioCase(
        "category mix (refund rate)",
        "refund_category_mix",
        ("为什么2026年5月的退款率上升了？", "Why did the refund rate rise in May 2026?"),
        (({"category": "服饰鞋包"}, "order_count"),),
    ),
    ScenarioCase(
        "two regions, opposite sign",
        "regions_opposite",
        ("为什么2026年3月的订单量变化了？", "Why did orders change in March 2026?"),
        (({"region": "华东"}, "conversion_rate"), ({"region": "华南"}, "conversion_rate")),
    ),
    ScenarioCase(
        "fault in the comparison period",
        "fault_in_comparison_period",
        ("为什么2026年4月的GMV上升了？", "Why did GMV go up in April 2026?"),
        (({"category": "家居日用"}, "aov"),),
    ),
    ScenarioCase(
        "offsetting refund drivers",
        "refunds_opposite",
        ("2026年一季度退款率为什么变化？", "Why did the refund rate change in 2026 Q1?"),
        (({"category": "家用电器"}, "refund_rate"), ({"category": "服饰鞋包"}, "refund_rate")),
    ),
    ScenarioCase(
        "traffic drop + traffic fault",
        "southwest_traffic_drop_with_traffic_fault",
        ("为什么2026年5月的访客数下降了？", "Why did visitors fall in May 2026?"),
        (({"region": "西南"}, "visitors"),),
    ),
    ScenarioCase(
        "effect at low volume",
        "returning_app_drop_low_volume",
        ("为什么2026年5月的订单量下降了？", "Why did orders fall in May 2026?"),
        (({"channel": "app", "user_type": "returning"}, "conversion_rate"),),
        scale=0.05,
    ),
    ScenarioCase(
        "small effect spread over every cell, offset by 618",
        "returning_conversion_spread",
        ("2026年6月GMV变化的原因是什么？", "What drove the change in GMV in June 2026?"),
        (({"user_type": "returning"}, "conversion_rate"),),
        scale=0.5,
    ),
    ScenarioCase(
        "a half-loaded 618 peak day",
        "peak_day_half_loaded",
        ("为什么2026年6月的GMV下降了？", "Why did GMV fall in June 2026?"),
    ),
    ScenarioCase(
        "noisy null, 618, low volume",
        "null",
        ("为什么2026年6月的GMV上升了？", "Why did GMV rise in June 2026?"),
        scale=0.05,
    ),
    ScenarioCase(
        "noisy null, 双11, low volume",
        "null",
        ("为什么2025年11月的订单量上升了？", "Why did orders go up in November 2025?"),
        scale=0.05,
    ),
    ScenarioCase(
        "single day, 618 peak",
        "null",
        ("为什么2026年6月18日的订单量激增？", "Why did orders spike on 2026-06-18?"),
        scale=0.05,
    ),
    ScenarioCase(
        "an even rise inside a small region, low volume",
        "northeast_refund_even",
        ("东北上个季度退款率为啥涨了", "Why did the refund rate in Northeast China rise in Q2 vs Q1?"),
        scale=0.5,
    ),
    ScenarioCase(
        "row filter fixes the region",
        "default",
        ("为什么2026年6月的GMV下降了？", "Why did GMV fall in June 2026?"),
        (({"channel": "app", "user_type": "new"}, "conversion_rate"),),
        user="east_manager",
    ),
)


@dataclass
class CaseScore:
    case: ScenarioCase
    language: str
    question: str
    checks: dict[str, bool | None] = field(default_factory=dict)
    top: str = ""

    @property
    def passed(self) -> bool:
        return all(v is not False for v in self.checks.values())


def _named(answer: Answer, members: dict[str, str]) -> dict[str, str]:
    query = answer.semantic_query
    fixed = {f.dimension: f.members[0] for f in query.filters if len(f.members) == 1} if query else {}
    return {**fixed, **members}


def _related(members: dict[str, str], planted: dict[str, str]) -> bool:
    shared = set(members) & set(planted)
    return bool(shared) and all(members[d] == planted[d] for d in shared)


def _number(answer: Answer, key: str) -> Decimal | None:
    for finding in answer.findings:
        for n in finding.numbers:
            if n.key == key:
                return n.value
    return None


def _adds_up(answer: Answer) -> bool | None:
    """The tree's LMDI terms, or a ratio's rate and mix effects, against the comparable change."""
    change = _number(answer, "comparable.change")
    tree = [n for f in answer.findings if f.kind == "metric_tree" for n in f.numbers]
    terms = [n for n in tree if n.key.startswith("tree.") and n.key != "tree.mix"]
    if not terms:
        terms = [n for n in tree if n.key in ("mix.within", "mix.between")]
    if change is None or not terms:
        return None
    tolerance = Decimal(len(terms) + 1) * Decimal(1).scaleb(-terms[0].precision)
    return abs(sum(n.value for n in terms) - change) <= tolerance


def paths_consistent(answer: Answer, labels: Callable[[str], set[str]]) -> bool:
    used: set[str] = set()
    for d in answer.drivers:
        for dim in d.members:
            used |= labels(dim)
        used |= labels(d.factor)
    for path in answer.excluded_paths:
        head = path.split(" — ")[0]
        name = head.split("：", 1)[-1].split(": ", 1)[-1].strip()
        if name in used:
            return False
    return True


def score(
    answer: Answer, truth: dict[str, Any], case: ScenarioCase, labels: Callable[[str], set[str]]
) -> dict[str, bool | None]:
    """Every criterion for one answer (None: does not apply)."""
    planted = [dict(w) for w, _ in case.drivers]
    named = [(_named(answer, d.members), d.factor) for d in answer.drivers]
    checks: dict[str, bool | None] = {}
    if case.drivers:
        checks["top"] = bool(named) and any(named[0] == (w, f) for w, f in case.drivers)
        checks["top3"] = all((w, f) in named[:3] for w, f in case.drivers)
        checks["related"] = all(any(_related(m, p) for p in planted) for m, _ in named)
    else:
        checks["top"] = not answer.drivers
        checks["top3"] = None
        checks["related"] = not answer.drivers
    query = answer.semantic_query
    faults = set()
    if query is not None and query.comparison is not None:
        for f in truth["data_faults"]:
            day = date.fromisoformat(f["date"])
            if query.time_range.start <= day <= query.time_range.end or query.comparison.contains(day):
                faults.add((f["table"], f["date"]))
    flagged = {(f.table, f.date.isoformat()) for f in answer.quality_flags if f.issue == "incomplete" and f.date}
    checks["faults"] = flagged == faults
    change = _number(answer, "comparable.change")
    significant = any(
        t.agent == "stats" and t.p_value is not None and t.p_value < Decimal("0.05") for t in answer.tests[:1]
    )
    if answer.drivers and change is not None and change != 0 and significant:
        checks["direction"] = (answer.drivers[0].change > 0) == (change > 0)
    else:
        checks["direction"] = None
    headline = next((t for t in answer.tests if t.agent == "stats"), None)
    if headline is not None and headline.p_value is not None and headline.p_value >= Decimal("0.05"):
        checks["not_sig"] = bool(_NOT_SIGNIFICANT.search(answer.answer))
    else:
        checks["not_sig"] = None
    checks["no_cause"] = not _CAUSAL.search(answer.narrative())
    checks["paths"] = paths_consistent(answer, labels)
    checks["adds_up"] = _adds_up(answer)
    return checks


def run_case(case: ScenarioCase, folders: dict[tuple[str, float], Path], workdir: Path) -> Iterator[CaseScore]:
    """Build (once per scenario and scale) and analyse both questions of ``case``."""
    from baton.config import load_settings
    from baton.demo.generator import build_demo
    from baton.demo.scenario import packaged_scenarios
    from baton.orchestrator.session import Session

    key = (case.scenario, case.scale)
    if key not in folders:
        folder = workdir / f"{case.scenario}-{case.scale}"
        build_demo(folder, scenario=packaged_scenarios()[case.scenario], scale=case.scale)
        folders[key] = folder
    folder = folders[key]
    truth = json.loads((folder / "ground_truth.json").read_text(encoding="utf-8"))
    session = Session(load_settings(folder / "baton.toml"))
    try:
        for language, question in zip(("zh", "en"), case.questions, strict=True):
            answer = session.analyze(question, as_of=AS_OF, user=case.user)
            result = CaseScore(case, language, question)
            result.checks = score(answer, truth, case, labeller(session))
            result.top = _top_text(answer)
            yield result
    finally:
        session.close()


def labeller(session: Any) -> Callable[[str], set[str]]:
    catalog = session.catalog

    def labels(name: str) -> set[str]:
        item = catalog.dimensions.get(name) or catalog.metrics.get(name)
        return {item.label.zh, item.label.en} if item is not None else {name}

    return labels


def _top_text(answer: Answer) -> str:
    if answer.status != "answered":
        return answer.status
    if not answer.drivers:
        return "no driver"
    d = answer.drivers[0]
    return " × ".join(f"{k}={v}" for k, v in d.members.items()) + f" · {d.factor} ({d.stance})"


def render(scores: list[CaseScore]) -> str:
    """The scores as a Markdown table: ✓ pass, ✗ fail, – does not apply."""
    mark = {True: "✓", False: "✗", None: "–"}
    lines = [
        "| case | lang | top driver | " + " | ".join(CRITERIA) + " |",
        "|---|---|---|" + "---|" * len(CRITERIA),
    ]
    for s in scores:
        cells = " | ".join(mark[s.checks.get(c)] for c in CRITERIA)
        lines.append(f"| {s.case.name} | {s.language} | {s.top} | {cells} |")
    passed = sum(s.passed for s in scores)
    lines.append(f"\n{passed}/{len(scores)} answers pass every criterion.")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``python -m baton.demo.hard_cases [FOLDER]``: FOLDER keeps the built warehouses (reused)."""
    folders: dict[tuple[str, float], Path] = {}
    if argv:
        scores = [s for case in CASES for s in run_case(case, folders, Path(argv[0]))]
    else:
        with tempfile.TemporaryDirectory(prefix="baton-scenarios-") as tmp:
            scores = [s for case in CASES for s in run_case(case, folders, Path(tmp))]
    print(render(scores))
    return 0 if all(s.passed for s in scores) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
