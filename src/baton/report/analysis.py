"""The parts of an analysis report (``baton analyze``) that the terminal, Markdown and HTML share.

A manager reads the summary, then the sections in the order the report agent gave them, and
each caveat once: a data-quality problem is said in the quality section only, and the
Answer's own assumptions and excluded paths join their sections instead of being listed a
second time. Issue codes (``incomplete``) are shown as words, and statistical tests become
numbers a person reads (%, a range, p as a bound), the exact value kept beside them.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import Literal, get_args

from baton.catalog.model import Catalog
from baton.contracts.agent_outputs import Driver, QualityFlag, QualityIssue, ReportSection, SectionKind, StatTest
from baton.contracts.answer import Answer
from baton.contracts.common import Language, Unit
from baton.messages import text
from baton.numbers import format_exact, format_number, format_probability, format_signed_percent

_ISSUE_CODE = re.compile(r"\b(" + "|".join(get_args(QualityIssue)) + r"):[ \t]?")
_EFFECT_PLACES = {"cohen_d": Decimal("0.01"), "cohen_h": Decimal("0.001")}
"""How many places an effect size is shown with."""

Scale = Literal["relative", "points", "metric", "plain"]


# -- issue codes -------------------------------------------------------------------------------
def issue_words(issue: str, language: Language) -> str:
    """A quality issue code as the reader's words: ``incomplete`` → 数据不完整 / Incomplete data."""
    return text(f"report.issue_{issue}", language)


def with_issue_words(said: str, language: Language) -> str:
    """``said`` with every ``<issue code>:`` written as words, so no code reaches a reader."""
    return _ISSUE_CODE.sub(lambda m: text("report.issue_prefix", language, issue=issue_words(m[1], language)), said)


def flag_line(flag: QualityFlag, language: Language) -> str:
    """A quality flag as one line (where no quality section states it already), codes as words."""
    from baton.agents.report import flag_line as agent_line

    return with_issue_words(agent_line(flag), language)


# -- sections ----------------------------------------------------------------------------------
def analysis_sections(answer: Answer) -> list[ReportSection]:
    """The sections a reader sees, each caveat once; ``[]`` for a plain ``ask``."""
    if not answer.sections:
        return []
    lang = answer.language
    said = " ".join(item for s in answer.sections if s.kind == "quality" for item in s.items)
    unsaid = [flag_line(f, lang) for f in answer.quality_flags if f.message.strip() not in said]
    sections = _joined(
        list(answer.sections), "quality", unsaid, lang, ("assumptions", "excluded", "definition", "method")
    )
    sections = _joined(sections, "assumptions", answer.assumptions, lang, ("excluded", "definition", "method"))
    sections = _joined(sections, "excluded", answer.excluded_paths, lang, ("definition", "method"))
    return _said_once(sections, _caveats(answer.quality_flags), lang)


def _caveats(flags: list[QualityFlag]) -> set[str]:
    """What the quality section says: no other section repeats it."""
    return {said.strip() for f in flags for said in (f.message, f.assumption) if said}


def _placed(sections: list[ReportSection], new: ReportSection, before: tuple[SectionKind, ...]) -> list[ReportSection]:
    at = next((i for i, s in enumerate(sections) if s.kind in before), len(sections))
    return [*sections[:at], new, *sections[at:]]


def _joined(
    sections: list[ReportSection], kind: SectionKind, extra: list[str], lang: Language, before: tuple[SectionKind, ...]
) -> list[ReportSection]:
    """The Answer's own ``extra`` lines (its assumptions, excluded paths, flags no quality item
    states) joined to the section of ``kind``, or put in a new one; duplicates are dropped later."""
    if not extra:
        return sections
    for i, s in enumerate(sections):
        if s.kind == kind:
            items = (*s.items, *extra) if kind == "quality" else (*extra, *s.items)
            return [*sections[:i], s.model_copy(update={"items": items}), *sections[i + 1 :]]
    return _placed(sections, ReportSection(kind=kind, heading=text(f"report.{kind}", lang), items=tuple(extra)), before)


def _said_once(sections: list[ReportSection], caveats: set[str], lang: Language) -> list[ReportSection]:
    seen: set[str] = set()
    shown: list[ReportSection] = []
    for s in sections:
        items: list[str] = []
        for item in s.items:
            key = item.strip()
            if key in seen or (s.kind != "quality" and key in caveats):
                continue
            seen.add(key)
            items.append(with_issue_words(item, lang) if s.kind == "quality" else item)
        if items:
            shown.append(s.model_copy(update={"items": tuple(items)}))
    return shown


# -- names from the catalog ---------------------------------------------------------------------
def members_text(members: dict[str, str], catalog: Catalog | None, language: Language) -> str:
    """``渠道 APP × 用户类型 新用户`` with a catalog; the codes (``channel=app``) without one."""
    if catalog is None:
        return " × ".join(f"{k}={v}" for k, v in members.items())
    from baton.agents.insight_text import members_text as labelled

    return labelled(catalog, members, language)


def factor_text(factor: str, catalog: Catalog | None, language: Language) -> str:
    from baton.agents.tools import metric_label

    return metric_label(catalog, factor, language) if catalog is not None else factor


# -- tests as key numbers -----------------------------------------------------------------------
def driver_of(test: StatTest, answer: Answer) -> Driver | None:
    """The driver an insight test belongs to: the insight's tests follow the drivers' order."""
    mine = [t for t in answer.tests if t.agent == "insight"]
    return next((d for t, d in zip(mine, answer.drivers, strict=False) if t is test), None)


def stat_label(test: StatTest, answer: Answer, catalog: Catalog | None) -> str:
    """What a test compared; a driver's test is named by its members and factor."""
    d = driver_of(test, answer)
    if d is None or catalog is None:
        return test.name
    lang = answer.language
    return text(
        "report.driver_test_mix" if d.role == "mix" else "report.driver_test",
        lang,
        members=members_text(d.members, catalog, lang),
        factor=factor_text(d.factor, catalog, lang),
    )


def stat_value(value: Decimal, test: StatTest, answer: Answer, catalog: Catalog | None) -> str:
    """An estimate (or an interval end) in the unit of what the test measured."""
    lang = answer.language
    scale = _scale(test, answer)
    unit, currency = _metric_unit(answer, catalog) if scale == "metric" else ("number", None)
    if scale == "relative":
        return format_signed_percent(value, lang)
    if scale == "points" or unit == "ratio":
        return f"{float(value) * 100:+.2f}" + text("report.unit_pp", lang)
    if scale == "plain":
        return f"{value.quantize(Decimal('0.000001'), rounding=ROUND_HALF_UP).normalize():f}"
    shown = format_number(value, unit, lang, currency)
    return shown if shown.startswith("-") or value == 0 else "+" + shown


def stat_interval(test: StatTest, answer: Answer, catalog: Catalog | None) -> str:
    low, high = (stat_value(v, test, answer, catalog) for v in (test.ci_low, test.ci_high))
    shown = text("report.range", answer.language, low=low, high=high)
    return shown if test.ci_level == Decimal("0.95") else f"{shown} ({float(test.ci_level) * 100:.0f}%)"


def stat_detail(test: StatTest, language: Language) -> str | None:
    """p, q (as bounds below 10⁻⁶, never 0) and the effect size, or ``None``."""
    parts = [probability_text(name, v) for name, v in (("p", test.p_value), ("q", test.q_value)) if v is not None]
    places = _EFFECT_PLACES.get(test.effect_size_kind or "")
    if places is not None and test.effect_size is not None:
        letter = (test.effect_size_kind or "")[-1]
        parts.append(f"Cohen's {letter} = {test.effect_size.quantize(places, rounding=ROUND_HALF_UP):f}")
    return text("report.detail_sep", language).join(parts) or None


def probability_text(name: str, value: object) -> str:
    """``p = 0.0240`` or ``q < 0.000001``."""
    shown = format_probability(value)
    return f"{name} {shown}" if shown.startswith("<") else f"{name} = {shown}"


EXACT_PERCENT_PLACES = 4
"""Decimals of a relative change in the key numbers' exact column (``-12.6499%``)."""


def stat_exact(value: Decimal, test: StatTest, answer: Answer, catalog: Catalog | None) -> str:
    """An estimate at full precision, in the unit a reader reads it in: ``-12.6499%``,
    ``-¥222,687.45``; a plain statistic to six places."""
    lang = answer.language
    scale = _scale(test, answer)
    if scale == "relative":
        return format_signed_percent(value, lang, EXACT_PERCENT_PLACES)
    unit, currency = _metric_unit(answer, catalog) if scale == "metric" else ("number", None)
    if scale == "points" or unit == "ratio":
        points = format_signed_percent(value, lang, EXACT_PERCENT_PLACES).removesuffix("%")
        return points + text("report.unit_pp", lang)
    if scale == "plain":
        return f"{value.quantize(Decimal('0.000001'), rounding=ROUND_HALF_UP).normalize():f}"
    return format_exact(value, unit, lang, currency)


def _scale(test: StatTest, answer: Answer) -> Scale:
    kind = test.effect_size_kind
    if kind == "relative_change" or driver_of(test, answer) is not None:
        return "relative"
    return {"cohen_h": "points", "cohen_d": "metric"}.get(kind or "", "plain")  # type: ignore[return-value]


def _metric_unit(answer: Answer, catalog: Catalog | None) -> tuple[Unit, str | None]:
    query = answer.semantic_query
    if catalog is None or query is None or not query.metrics or query.metrics[0] not in catalog.metrics:
        return "number", None
    name = query.metrics[0]
    return catalog.metrics[name].unit, catalog.currency_of(name)
