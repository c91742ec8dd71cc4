"""A large, plausible catalog for the retrieval benchmark: a base catalog plus generated metrics.

``large_catalog(base, size=1000, seed=0)`` keeps every metric of ``base`` and adds generated
ones until the catalog holds ``size``. The generated metrics are made of generic business
vocabulary in both languages (``data/metric_vocabulary.yaml``): a measure of a subject
("仓储成本" / "warehouse cost", "客服工单量" / "customer service tickets"), optionally with a
qualifier ("日均" / "average daily …") and a scope ("海外" / "overseas"), each with synonyms and
a definition; plus common metrics that do not split that way (daily active users, return
rate, GMV per visitor, …). Many are near neighbours of any shop's own metrics, so a search
that only matches the word "rate" or "订单" is caught out.

A generated word (label or synonym) that the catalog already uses — for one of ``base``'s
metrics, dimensions or members, or for an earlier generated metric — is left out: in a
governed catalog one word names one thing. A generated metric whose label is taken is not
generated.

Each generated metric borrows a definition from a ``base`` metric of the same unit (its table,
expression, filters, time column and dimensions; a ratio's numerator and denominator), so
the catalog loads, validates and compiles on ``base``'s warehouse. The numbers it computes
mean nothing; the benchmark measures what is *found*, not what is computed. The same
``base``, ``size`` and ``seed`` give the same catalog.
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from baton.catalog.model import Catalog, Metric
from baton.messages import capitalised
from baton.yaml_text import safe_load

__all__ = ["CannotGenerate", "GeneratedWords", "large_catalog", "vocabulary"]

_NAME = re.compile(r"[^a-z0-9]+")


class CannotGenerate(ValueError):
    """The base catalog or the vocabulary cannot make a catalog of the size asked for."""


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, Any]:
    """The business vocabulary the generator combines (measures, subjects, qualifiers, scopes,
    standalone metrics)."""
    text = resources.files("baton.bench").joinpath("data/metric_vocabulary.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = safe_load(text)
    return data


def _key(surface: str) -> str:
    return unicodedata.normalize("NFKC", surface).strip().lower()


def _catalog_words(catalog: Catalog) -> set[str]:
    words: set[str] = set()
    for name, metric in catalog.metrics.items():
        words |= {_key(w) for w in (name, metric.label.zh, metric.label.en, *metric.synonyms)}
    for name, refused in catalog.refused.items():
        words |= {_key(w) for w in (name, refused.label.zh, refused.label.en, *refused.synonyms)}
    for name, dim in catalog.dimensions.items():
        words |= {_key(w) for w in (name, dim.label.zh, dim.label.en, *dim.synonyms)}
        for key, member in dim.members.items():
            words |= {_key(w) for w in (key, member.label.zh, member.label.en, *member.synonyms)}
    return words


@dataclass(frozen=True)
class GeneratedWords:
    """One generated metric's words before they are checked against the catalog."""

    zh: str
    en: str
    synonyms: tuple[str, ...]
    description_zh: str
    description_en: str
    unit: str
    better: str | None
    owner: str


def _standalone(vocab: dict[str, Any]) -> Iterator[GeneratedWords]:
    for item in vocab["standalone"]:
        yield GeneratedWords(
            zh=item["zh"],
            en=item["en"],
            synonyms=tuple(item.get("synonyms", ())),
            description_zh=item["desc"]["zh"],
            description_en=item["desc"]["en"],
            unit=item["unit"],
            better=item.get("better"),
            owner="analytics team",
        )


def _applies(qualifier: dict[str, Any], measure_id: str, measure: dict[str, Any]) -> bool:
    if "units" in qualifier and measure["unit"] not in qualifier["units"]:
        return False
    return "measures" not in qualifier or measure_id in qualifier["measures"]


def _combination(
    subject: dict[str, Any], measure: dict[str, Any], qualifier: dict[str, Any], scope: dict[str, Any]
) -> GeneratedWords:
    scope_en = scope["en"]

    def zh(s: str, m: str) -> str:
        return f"{scope['zh']}{qualifier['zh']}{s}{m}"

    def en(s: str, m: str, sc: str = scope_en) -> str:
        return str(qualifier["en"]).format(m=" ".join(p for p in (sc, s, m) if p))

    synonyms = [zh(a, measure["zh"]) for a in subject["zh_alt"][:1]]
    synonyms += [zh(subject["zh"], a) for a in measure["zh_alt"][:1]]
    synonyms += [en(a, measure["en"]) for a in subject["en_alt"][:1]]
    synonyms += [en(subject["en"], a) for a in measure["en_alt"][:1]]
    synonyms += [en(subject["en"], measure["en"], a) for a in scope.get("en_alt", ())]
    described_zh = str(measure["desc"]["zh"]).format(s=scope["zh"] + subject["zh"])
    described_en = str(measure["desc"]["en"]).format(s=" ".join(p for p in (scope_en, subject["en"]) if p))
    return GeneratedWords(
        zh=zh(subject["zh"], measure["zh"]),
        en=en(subject["en"], measure["en"]),
        synonyms=tuple(synonyms),
        description_zh=str(qualifier["desc"]["zh"]).format(d=described_zh),
        description_en=capitalised(str(qualifier["desc"]["en"]).format(d=described_en)),
        unit=qualifier.get("unit_of", {}).get(measure["unit"], measure["unit"]),
        better=measure.get("better"),
        owner=f"{subject['en']} data team",
    )


def _combinations(vocab: dict[str, Any], seed: int) -> list[GeneratedWords]:
    out = [
        _combination(subject, vocab["measures"][measure_id], qualifier, scope)
        for subject in vocab["subjects"].values()
        for measure_id in subject["measures"]
        for qualifier in vocab["qualifiers"]
        if _applies(qualifier, measure_id, vocab["measures"][measure_id])
        for scope in vocab["scopes"]
    ]
    random.Random(seed).shuffle(out)
    return out


def _templates(base: Catalog) -> dict[str, list[Metric]]:
    """Base metrics to borrow a definition from, by unit ("any": every simple or ratio metric)."""
    usable = [m for m in base.metrics.values() if not m.is_derived]
    if not usable:
        raise CannotGenerate("the base catalog has no simple or ratio metric to borrow a definition from")
    by_unit: dict[str, list[Metric]] = {"any": [m for m in usable if not m.is_ratio] or usable}
    for metric in usable:
        if metric.unit == "ratio" and not metric.is_ratio:
            continue
        by_unit.setdefault(metric.unit, []).append(metric)
    return by_unit


def _definition(template: Metric) -> dict[str, Any]:
    keep = ("table", "expression", "filters", "time_dimension", "numerator", "denominator", "dimensions", "currency")
    return {field: getattr(template, field) for field in keep if getattr(template, field) not in (None, ())}


def _name(en: str, taken: set[str]) -> str:
    stem = _NAME.sub("_", en.lower()).strip("_") or "metric"
    name, n = stem, 2
    while name in taken:
        name, n = f"{stem}_{n}", n + 1
    return name


def large_catalog(base: Catalog, size: int = 1000, seed: int = 0) -> Catalog:
    """``base`` with generated metrics added until it holds ``size`` metrics (deterministic)."""
    if size <= len(base.metrics):
        return base
    vocab = vocabulary()
    rng = random.Random(seed)
    templates = _templates(base)
    words = _catalog_words(base)
    names = set(base.metrics) | set(base.refused)
    metrics: dict[str, Metric] = dict(base.metrics)
    for item in (*_standalone(vocab), *_combinations(vocab, seed)):
        if len(metrics) >= size:
            break
        if _key(item.zh) in words or _key(item.en) in words:
            continue
        words |= {_key(item.zh), _key(item.en)}
        synonyms: list[str] = []
        for synonym in item.synonyms:
            if _key(synonym) not in words:
                synonyms.append(synonym)
                words.add(_key(synonym))
        name = _name(item.en, names)
        names.add(name)
        pool = templates.get(item.unit) or templates["any"]
        metrics[name] = Metric(
            name=name,
            label={"zh": item.zh, "en": item.en},
            synonyms=tuple(synonyms),
            description={"zh": item.description_zh, "en": item.description_en},
            unit=item.unit,
            better=item.better,
            owner=item.owner,
            **_definition(rng.choice(pool)),
        )
    if len(metrics) < size:
        raise CannotGenerate(f"the vocabulary makes {len(metrics)} metrics with this base catalog, fewer than {size}")
    fields = {field: getattr(base, field) for field in Catalog.model_fields}
    return Catalog.model_validate({**fields, "metrics": metrics})
