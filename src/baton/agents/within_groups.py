"""The sentence of a top N inside each group ("每个渠道GMV最高的2个品类") or each period of a series
("每个月GMV最高的渠道"): each group in the order the statement returned them, with its top rows;
rows that tie the N-th are kept, and a plain statement (which returns every row, each group ranked)
is cut to the top of each here the same way."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from itertools import groupby
from typing import Any

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import text
from baton.numbers import bucket_label, plural_noun

PERIOD = "period"
"""The result column of a series' period (the compiler's name for it)."""

MAX_GROUPS = 12
"""Groups a sentence lists one by one; the rest are counted."""


def group_keys(query: SemanticQuery) -> tuple[str, ...]:
    """The columns whose groups a top N is taken inside: the period, or ``rank_within``."""
    return (PERIOD,) if query.rank_each_period else query.rank_within


def top_of_each(query: SemanticQuery, metric: str, rows: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """``rows`` (ordered by group, then ranked) as each group's top N, ties at the N-th kept."""
    n = query.top_n or 1
    out = []
    keys = group_keys(query)
    for _key, grouped in groupby(rows, key=lambda r: tuple(r[k] for k in keys)):
        ranked = list(grouped)
        if len(ranked) > n and ranked[n - 1][metric] is not None:
            edge = ranked[n - 1][metric]
            ranked = ranked[:n] + [r for r in ranked[n:] if r[metric] == edge]
        out.append(ranked)
    return out


def within_groups_sentence(
    catalog: Catalog,
    query: SemanticQuery,
    metric: str,
    rows: list[dict[str, Any]],
    language: Language,
    where: Mapping[str, str],
    fmt: Callable[[Any], str],
) -> str:
    """``where``: the sentence's label, filters and period, as written."""
    keys = group_keys(query)
    ranked = [d for d in query.dimensions if d not in keys] or [PERIOD]  # "each channel's best month": periods
    groups = top_of_each(query, metric, rows)
    nouns = [
        text(f"answer.grain_{query.grain}", language) if d == PERIOD else catalog.dimensions[d].label.for_lang(language)
        for d in ranked
    ]
    nouns = nouns if language == "zh" else [plural_noun(n) for n in nouns]

    def label(row: dict[str, Any], dims: Sequence[str]) -> str:
        return " / ".join(
            bucket_label(row[d], query.grain, language) if d == PERIOD else catalog.member_label(d, row[d], language)
            for d in dims
        )

    parts = [
        text(
            "answer.within_group",
            language,
            group=label(top[0], keys),
            items=text("answer.list_sep", language).join(
                text("answer.item_value", language, item=label(r, ranked), value=fmt(r[metric])) for r in top
            ),
        )
        for top in groups[:MAX_GROUPS]
    ]
    listed = text("answer.within_sep", language).join(parts)
    if len(groups) > MAX_GROUPS:
        listed += text("answer.more_rows", language)
    if query.rank_each_period:
        group = text(f"answer.grain_{query.grain}", language)
    else:
        group = text("answer.and_sep", language).join(catalog.dimensions[d].label.for_lang(language) for d in keys)
    return text(
        "answer.top_each_period" if query.rank_each_period else "answer.top_within",
        language,
        word=text("answer.bottom_word" if query.order == "asc" else "answer.top_word", language),
        n=query.top_n or 1,
        ranked=text("answer.and_sep", language).join(nouns),
        group=group,
        groups=listed,
        **where,
    )


__all__ = ["group_keys", "top_of_each", "within_groups_sentence"]
