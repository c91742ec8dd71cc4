"""The catalog's own names for the examples in Baton's messages: a question back on a flights
warehouse says "e.g. top 3 carriers by flights", never the demo's channels and GMV."""

from __future__ import annotations

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.numbers import plural_noun


def example_terms(catalog: Catalog) -> dict[Language, dict[str, str]]:
    """The first amount (or any) metric, the first count and rate, the first dimension with two
    members or more, another dimension, and those two members — per language; a kind the catalog
    lacks is left to the neutral word."""
    metrics = list(catalog.metrics.values())
    amount = next((m for m in metrics if m.unit == "currency"), metrics[0] if metrics else None)
    count = next((m for m in metrics if m.unit == "count" and m.additive), None)
    rate = next((m for m in metrics if m.unit == "ratio"), None)
    named = [(name, d) for name, d in catalog.dimensions.items() if len(d.members) >= 2]
    dims = list(catalog.dimensions.values())
    out: dict[Language, dict[str, str]] = {"en": {}, "zh": {}}
    for lang in ("en", "zh"):
        terms = out[lang]
        for field, metric in (("ex_metric", amount), ("ex_count", count), ("ex_rate", rate)):
            if metric is not None:
                terms[field] = metric.label.for_lang(lang)
        if named:
            name, dim = named[0]
            label = dim.label.for_lang(lang)
            terms["ex_dim"] = label
            terms["ex_dims"] = plural_noun(label) if lang == "en" else label
            first, second = list(dim.members)[:2]
            terms["ex_a"] = catalog.member_label(name, first, lang)
            terms["ex_b"] = catalog.member_label(name, second, lang)
            other = next((d for d in dims if d is not dim), None)
            if other is not None:
                terms["ex_dim2"] = other.label.for_lang(lang)
    return out


__all__ = ["example_terms"]
