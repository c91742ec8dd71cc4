"""The sentence of a ranking by a change ("哪个渠道上个月GMV环比下降最多"): the groups in the
order the statement ranked them, each with its value, its change and its change in percent — both
measures, whichever one ranked — and, when a group did not move the way the question takes for
granted, that said in words (a "largest fall" that is a rise is never written as a fall)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import text
from baton.numbers import format_number, format_signed_percent, possessive


def change_text(catalog: Catalog, metric: str, change: Any, language: Language, fmt: Callable[[Any], str]) -> str:
    """A change as its metric says it: a signed amount or count ("+¥1,200.00"), a rate's in points."""
    if change is None:
        return text("numbers.missing", language)
    if catalog.metrics[metric].unit == "ratio":
        return text("answer.gap_points", language, points=f"{float(change) * 100:+.2f}")
    return ("+" if float(change) > 0 else "") + fmt(change)


def change_ranking_sentence(
    catalog: Catalog,
    query: SemanticQuery,
    metric: str,
    rows: list[dict[str, Any]],
    language: Language,
    where: Mapping[str, str],
    label_of: Callable[[dict[str, Any]], str],
    fmt: Callable[[Any], str],
) -> str:
    """``where``: the sentence's label, filters, period, kind and previous period, as written."""
    falls = query.order == "asc"
    column = f"{metric}_{query.rank_by}"
    unknown = [row for row in rows if row.get(column) is None]  # a value hidden or empty: not ranked
    rows = [row for row in rows if row.get(column) is not None]
    items = [
        text(
            "answer.change_ranked_item"
            if row.get(f"{metric}_change_pct") is not None
            else "answer.change_ranked_item_no_pct",
            language,
            group=label_of(row),
            value=fmt(row[metric]),
            change=change_text(catalog, metric, row.get(f"{metric}_change"), language, fmt),
            pct=format_signed_percent(row.get(f"{metric}_change_pct"), language),
        )
        for row in rows
    ]
    listed = text("answer.list_sep", language).join(items)
    moved = text("answer.change_moved_down" if falls else "answer.change_moved_up", language)
    other_way = [row for row in rows if _other_way(row.get(column), falls)]
    unranked = text("answer.change_unknown", language, n=len(unknown)) if unknown else ""
    if not rows:
        return text("answer.change_ranked_nothing", language, **where) + unranked
    if len(other_way) == len(rows):  # "下降最多" when none fell: said, never called a fall
        measure = text(f"answer.change_measure_{query.rank_by}", language)
        # by percent, the groups of an earlier value not above zero are not ranked: they may have moved
        key = "answer.change_ranked_none_pct" if query.rank_by == "change_pct" else "answer.change_ranked_none"
        said = text(key, language, moved=moved, measure=measure, items=listed, **where)
        return said + _whole_of_a_contribution(catalog, query, metric, rows, language, label_of, fmt) + unranked
    every = "_all" if query.top_n is None and len(rows) > 1 else ""  # every group listed: an order, not a top
    word = text(f"answer.change_word_{query.rank_by}_{'down' if falls else 'up'}{every}", language)
    sentence = text("answer.change_ranked", language, word=word, items=listed, **where)
    if other_way:
        names = text("answer.list_sep", language).join(label_of(row) for row in other_way)
        move = text("answer.change_move_down" if falls else "answer.change_move_up", language)
        sentence += text("answer.change_ranked_not_all", language, groups=names, move=move)
    return sentence + _whole_of_a_contribution(catalog, query, metric, rows, language, label_of, fmt) + unranked


def _whole_of_a_contribution(
    catalog: Catalog,
    query: SemanticQuery,
    metric: str,
    rows: list[dict[str, Any]],
    language: Language,
    label_of: Callable[[dict[str, Any]], str],
    fmt: Callable[[Any], str],
) -> str:
    """ "哪个渠道对GMV下降贡献最大": the whole's change beside the groups', and each one's part of it,
    as the interpretation promised — or, when the whole moved the other way (or not at all), that
    there was no such move to contribute to (the question takes it for granted, the answer never
    does); under a minimum group size (no whole column), that they are not shown."""
    if not query.contribution:
        return ""
    if f"{metric}_change_whole" not in rows[0]:
        return text("answer.contribution_floored", language)
    falls = query.order == "asc"
    whole = rows[0].get(f"{metric}_change_whole")
    dimension = catalog.dimensions[query.dimensions[0]].label.for_lang(language)
    change = change_text(catalog, metric, whole, language, fmt)
    if whole is None or _other_way(whole, falls):
        move = text("answer.change_move_down" if falls else "answer.change_move_up", language)
        word = text(f"answer.change_word_change_{'down' if falls else 'up'}", language)
        return text(
            "answer.contribution_whole_other_way", language, dimension=dimension, change=change, move=move, word=word
        )
    parts = text("answer.list_sep", language).join(
        text(
            "answer.contribution_part",
            language,
            group=possessive(label_of(row), language),
            share=_share(row.get(f"{metric}_change_share"), language),
        )
        for row in rows
    )
    return text("answer.contribution_whole", language, change=change, parts=parts)


def _share(share: Any, language: Language) -> str:
    return text("numbers.missing", language) if share is None else format_number(share, "ratio", language)


def _other_way(change: Any, falls: bool) -> bool:
    """A change that is no fall (or no rise) at all: zero or the other sign."""
    return float(change) >= 0 if falls else float(change) <= 0


__all__ = ["change_ranking_sentence", "change_text"]
