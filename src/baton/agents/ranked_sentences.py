"""Sentences of a ranking: the top (or bottom) N, one place and the rows that share it, whether the
member asked is first or where it stands, and a metric shown beside the one the rows are ranked by."""

from __future__ import annotations

from typing import Any

from baton.agents.narration import NarratorBase, Sentence
from baton.contracts.semantic import SemanticQuery
from baton.messages import text
from baton.nlu.interpret import (
    value_label,
)
from baton.numbers import place_word, plural_noun


class RankedSentences(NarratorBase):
    """The sentences of a ranking."""

    def _ranked_sentence(self, say: Sentence) -> str:
        """Rows ordered by a metric (a ranking over periods and groups), listed in that order."""
        query, metric, rows, period, filters, language, _fmt = say
        label = value_label(self.catalog, query, metric, language)
        if query.top_n is not None or not query.order_by:
            ascending = query.order == "asc"
        else:
            ascending = not query.order_by[0].startswith("-")
        word = text("answer.bottom_word" if ascending else "answer.top_word", language)
        count = len(rows) if query.top_n is None else min(len(rows), query.top_n)
        items = self._listed(say, capped=True)
        if query.grain is not None and not query.dimensions and query.top_n is not None:  # "最高的3个月"
            unit = text(f"answer.unit_{query.grain}", language)
            units = unit if count == 1 or language == "zh" else plural_noun(unit)
            where = {"label": label, "filters": filters, "period": period, "items": items}
            if count == 1 and len(rows) == 1:  # "最高的一个月", "Top month": no "1"
                return text("answer.ranked_periods_one", language, word=word, unit=units, **where)
            return text("answer.ranked_periods", language, word=word, count=count, unit=units, **where)
        return text(
            "answer.ranked",
            language,
            label=label,
            filters=filters,
            period=period,
            word=word,
            count=count,
            items=items,
        )

    def _place_sentence(self, say: Sentence) -> str:
        """One place of a ranking ("订单量第2高的品类：美妆个护（9,429）"), and the rows that share it
        ("这2个并列（72）")."""
        query, metric, rows, period, filters, language, fmt = say
        dims = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        ) or text(f"answer.grain_{query.grain or 'day'}", language)
        said = text(
            "answer.rank_place",
            language,
            place=place_word(query.rank_place or 0, language),
            side=text("answer.side_high" if query.order == "desc" else "answer.side_low", language),
            dims=dims,
            label=value_label(self.catalog, query, metric, language),
            filters=filters,
            period=period,
            items=self._listed(say),
        )
        sep = text("answer.metric_sep", language)
        if len(rows) < 2:
            return said
        tied = text("answer.tied_place", language, count=len(rows), value=fmt(rows[0][metric]))
        return f"{said}{sep}{tied}"

    def _first_asked_sentence(self, say: Sentence) -> str:
        """Whether the member asked is first of the ranking ("是，华东的成交总额在 7 个区域中最高（¥…）"),
        or which is and where the member stands ("否，…最高的是 APP（…）；网页排第 2（…）")."""
        query, metric, rows, period, filters, language, fmt = say
        dim = query.dimensions[0]
        asked = next((r for r in rows if str(r.get(dim)) == query.asked_member), None)
        fields = {
            "label": value_label(self.catalog, query, metric, language),
            "filters": filters,
            "period": period,
            "member": self.catalog.member_label(dim, query.asked_member or "", language),
            "counted": self._counted_groups(query, len(rows), language),
            "side": text("answer.side_high" if query.order != "asc" else "answer.side_low", language),
        }
        place = asked_place(query, metric, rows)
        if asked is None or place is None:  # no value: no place in the ranking, never "first"
            return text("answer.first_asked_no_rows", language, **fields)
        if query.place_asked:  # "华南排第几": its place, and the first beside it
            return self._place_of_member_sentence(say, asked, place, fields)
        if place == 1:
            return text("answer.first_asked_yes", language, value=fmt(asked[metric]), **fields)
        valued = [r for r in rows if r.get(metric) is not None]  # the rows come in the dimension's order
        top = max(valued, key=lambda r: -float(r[metric]) if query.order == "asc" else float(r[metric]))
        return text(
            "answer.first_asked_no",
            language,
            top=self._row_label(query, top, language),
            top_value=fmt(top[metric]),
            place=place,
            value=fmt(asked[metric]),
            **fields,
        )

    def _place_of_member_sentence(
        self, say: Sentence, asked: dict[str, Any], place: int, fields: dict[str, str]
    ) -> str:
        """Where the member asked stands ("华南的成交总额在 7 个区域中排第 3（¥…）；最高的是 华东（¥…）")."""
        query, metric, rows, _, _, language, fmt = say
        if place == 1:
            return text("answer.place_asked_first", language, value=fmt(asked[metric]), **fields)
        valued = [r for r in rows if r.get(metric) is not None]
        top = max(valued, key=lambda r: -float(r[metric]) if query.order == "asc" else float(r[metric]))
        return text(
            "answer.place_asked",
            language,
            place=place,
            value=fmt(asked[metric]),
            top=self._row_label(query, top, language),
            top_value=fmt(top[metric]),
            **fields,
        )

    def _alongside_sentence(self, say: Sentence) -> str:
        """A metric shown beside the one the rows are ranked by: its values in the ranking's
        order, never called a ranking of its own ("Their orders: web (6,055), app (27,521)")."""
        query, metric, rows, _period, _filters, language, _fmt = say
        label = value_label(self.catalog, query, metric, language)
        key = "answer.ranked_alongside_one" if len(rows) == 1 else "answer.ranked_alongside"
        return text(key, language, label=label, items=self._listed(say, capped=True))


def asked_place(query: SemanticQuery, metric: str, rows: list[dict[str, Any]]) -> int | None:
    """The place of the member asked whether first (``asked_member``) among ``rows`` by ``metric``,
    ties level; None when it has no row or no value."""
    if query.asked_member is None or not query.dimensions:
        return None
    dim = query.dimensions[0]
    asked = next((r for r in rows if str(r.get(dim)) == query.asked_member), None)
    if asked is None or asked.get(metric) is None:
        return None
    return 1 + sum(1 for r in rows if _ahead(r[metric], asked[metric], query.order))


def _ahead(value: Any, than: Any, order: str | None) -> bool:
    """Whether ``value`` ranks before ``than`` (highest first unless ``order`` is "asc"); ties are level."""
    if value is None or than is None:
        return False
    return float(value) < float(than) if order == "asc" else float(value) > float(than)


__all__ = ["RankedSentences", "asked_place"]
