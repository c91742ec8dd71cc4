"""A follow-up that names only a ratio's unit: "GMV by channel" then "how about per buyer?" /
"每个买家呢" asks for the catalog's ratio of the metric shown over that unit.

The ratio is found in the catalog, never composed: a ratio metric whose numerator is the metric
asked before and whose denominator's label or synonyms carry the unit word. The follow-up is then
read as if it had named that metric ("how about GMV per buyer?"), so every rule of a metric
changed in a follow-up holds. A unit one metric counts but no ratio is over is asked back by
name; a word no metric counts ("per region"), a unit several count ("每人": buyers? signups?), the
shown metric's own unit, or two ratios leave the question to the readers after it.
"""

from __future__ import annotations

import re

from baton import patterns
from baton.catalog.model import Catalog, Metric
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import text as message

_PER_UNIT = patterns.compile(
    r"^\s*(?:(?:and|ok|so|then)\s*,?\s*)?(?:(?:how|what)\s+about\s+)?(?:the\s+)?(?:average\s+)?"
    r"(?P<said>per\s+(?:each\s+)?(?P<unit>[a-z]+(?:\s+[a-z]+)?))\s*[?？.!]*\s*$"
    r"|^\s*(?:那|那么)?(?P<said_cn>(?:按|平均)?每(?:个|位|一个)?(?P<unit_cn>[\u4e00-\u9fff]{1,4}?)(?:平均)?)的?\s*呢?\s*[?？。]*\s*$",
    re.I,
)


def _surfaces(metric: Metric) -> list[str]:
    return [s.lower() for s in (metric.label.zh, metric.label.en, *metric.synonyms)]


def _counts(surface: str, unit: str) -> bool:
    """Whether a metric's surface is a count of the unit itself: "买家数" or "订单量" of 买家 or 单
    (the unit, then 数 / 量 / 数量, ending the surface), "buyers", "number of buyers" or "order
    count" of buyer or order — never a surface that only mentions it ("customers who placed an
    order" counts customers, not orders)."""
    if re.search(r"[\u4e00-\u9fff]", unit):
        return surface == unit or re.search(rf"{re.escape(unit)}(?:数量?|量)$", surface) is not None
    stem = re.escape(unit.lower().removesuffix("s"))
    return (
        re.fullmatch(
            rf"(?:(?:the\s+)?(?:number|count|total)\s+of\s+)?(?:(?:unique|distinct)\s+)?{stem}s?(?:\s+(?:count|volume|number))?",
            surface,
        )
        is not None
    )


def per_unit_question(question: str, parent: SemanticQuery, catalog: Catalog) -> str | None:
    """``question`` with its unit replaced by the one ratio of ``parent``'s metric over it
    ("how about per buyer?" → "how about GMV per buyer?") — of its numerator when it is a ratio
    itself ("GMV per buyer" then "per order?") —, or None when it says more than a
    unit or the catalog holds no such ratio, or more than one."""
    m = _PER_UNIT.match(question)
    if m is None or len(parent.metrics) != 1:
        return None
    chinese = m.group("unit_cn") is not None
    unit = m.group("unit_cn") if chinese else m.group("unit")
    said = "said_cn" if chinese else "said"
    shown = parent.metrics[0]
    numerator = catalog.metrics[shown].numerator
    over = {shown} | ({numerator} if isinstance(numerator, str) else set())  # "GMV per buyer", "per order?"
    counted = [name for name, metric in catalog.metrics.items() if any(_counts(s, unit) for s in _surfaces(metric))]
    found = [
        metric
        for name, metric in catalog.metrics.items()
        if name != shown and metric.numerator in over and metric.denominator in counted
    ]
    if len(counted) != 1 or shown in counted:  # "每人呢": which count of people? left to be asked
        return None
    if not found:  # "订单量" then "每个买家呢": buyers are counted, but nothing is per buyer
        _no_ratio(catalog, shown, counted[0])
    if len(found) != 1:
        return None
    label = found[0].label.zh if chinese else found[0].label.en
    return question[: m.start(said)] + label + question[m.end(said) :]


def _no_ratio(catalog: Catalog, shown: str, unit: str) -> None:
    def said(lang: Language) -> str:
        labels = {
            "metric": catalog.metrics[shown].label.for_lang(lang),
            "unit": catalog.metrics[unit].label.for_lang(lang),
        }
        return message("nlu.no_ratio_over", lang, **labels)

    en, zh = (said(lang) for lang in LANGUAGES)
    raise AmbiguousQuestion(en, zh, detail={"follow_up": True, "unit": unit})


__all__ = ["per_unit_question"]
