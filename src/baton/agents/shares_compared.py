"""Sentences of a share against another period ("各渠道GMV占比环比", "app's share of GMV vs last
year"): each period's share of its own whole, and the move between them in points."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baton.agents.change_ranking import change_text
from baton.agents.compared_sentences import ComparedSentences, premise_sentence
from baton.agents.narration import MAX_LISTED, Sentence
from baton.contracts.common import Language
from baton.messages import capitalised, text
from baton.nlu.interpret import share_part
from baton.numbers import format_exact, format_signed_percent, possessive


class SharesCompared(ComparedSentences):
    """The sentences of a share with a comparison (columns ``m_share``, ``m_previous_share`` and
    ``m_share_change`` from :func:`baton.catalog.compiler.compile_query`)."""

    def _shares_compared(self, say: Sentence) -> str:
        query, metric, rows, period, filters, language, fmt = say
        where = self._compared_where(say)
        if not rows:
            return text("answer.no_values", language, label=where["label"], filters=filters, period=period)
        first = rows[0]
        wholes = {
            "whole": fmt(first.get(f"{metric}_whole")),
            "previous_whole": fmt(first.get(f"{metric}_previous_whole")),
        }
        if query.dimensions:
            if query.top_n is None and query.rank_place is None and query.intent != "ranking":
                # the parts by their share now, largest first unless the question listed them the other way
                low_first = query.listed == "asc"
                rows = sorted(rows, key=lambda r: float(r.get(f"{metric}_share") or 0), reverse=not low_first)
            shown = rows[:MAX_LISTED]
            items = text("answer.list_sep", language).join(
                self._share_moved(metric, r, self._row_label(query, r, language), language) for r in shown
            )
            more = text("answer.more_items", language, count=len(rows) - len(shown)) if len(rows) > len(shown) else ""
            return text("answer.shares_compared", language, items=items, more=more, **wholes, **where)
        part = share_part(query.share_filters, self.catalog, language)
        label = text("answer.share_of_label", language, owner=possessive(part, language), label=where["label"])
        said = premise_sentence(query, label, first.get(f"{metric}_share_change"), language)  # "app占比…高了多少"
        values = {
            "owner": possessive(part, language),
            "value": fmt(first.get(metric)),
            "previous_value": fmt(first.get(f"{metric}_previous")),
            **self._shares(metric, first, language),
        }
        moved = self._part_moved(metric, first, part, where, language, fmt)
        return said + capitalised(text("answer.share_value_compared", language, **values, **wholes, **where)) + moved

    def _part_moved(
        self,
        metric: str,
        row: dict[str, Any],
        part: str,
        where: dict[str, str],
        language: Language,
        fmt: Callable[[Any], str],
    ) -> str:
        """ "直播GMV同比涨了多少，占比变化多少": the part's own move too, not only its share's — of
        the part within the question's filters, which the sentence names."""
        change, pct = row.get(f"{metric}_change"), row.get(f"{metric}_change_pct")
        if change is None:
            return ""
        moved = text(
            "answer.share_part_moved",
            language,
            part=part,
            label=where["label"],
            filters=where["filters"],
            kind=where["kind"],
            pct=format_signed_percent(pct, language),
            change=change_text(self.catalog, metric, change, language, fmt),
        )
        return (" " if language == "en" else "") + moved

    @staticmethod
    def _shares(metric: str, row: dict[str, Any], language: Language) -> dict[str, str]:
        """A row's share now and before, and the move in points ("-8.90 个百分点")."""
        moved = row.get(f"{metric}_share_change")
        points = (
            text("answer.gap_points", language, points=f"{float(moved) * 100:+.2f}")
            if moved is not None
            else text("numbers.missing", language)
        )
        return {
            "share": format_exact(row.get(f"{metric}_share"), "ratio", language),
            "previous": format_exact(row.get(f"{metric}_previous_share"), "ratio", language),
            "points": points,
        }

    def _share_moved(self, metric: str, row: dict[str, Any], name: str, language: Language) -> str:
        """ "APP 占 55.84%（对比期 64.74%，-8.90 个百分点）"."""
        return text("answer.share_item_compared", language, item=name, **self._shares(metric, row, language))


__all__ = ["SharesCompared"]
