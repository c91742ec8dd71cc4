"""What every answer sentence is written from, and the wording every kind of sentence shares: a
row's label, a metric's formatter, a list of rows, a count of groups, the rows tied at a high or
a low. The sentences themselves live beside it, one module per kind (compared, bounded, ranked),
and :class:`baton.agents.narrator.Narrator` puts them together."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import SemanticQuery
from baton.messages import capitalised, text
from baton.numbers import bucket_label, format_exact, plural_noun
from baton.numbers import format_signed_percent as format_pct


class Sentence(NamedTuple):
    """What every sentence of one metric is written from."""

    query: SemanticQuery
    metric: str
    rows: list[dict[str, Any]]
    period: str
    filters: str
    language: Language
    fmt: Callable[[Any], str]


_MAX_TIED = 5
"""Rows sharing a high or a low that a sentence names; the rest are said to follow."""
MAX_LISTED = 12
"""Parts (or series) a sentence lists one by one; the rest are counted."""

_BEFORE_HAN = r"(?=[\u4e00-\u9fff])"
"""Followed by a CJK ideograph."""


def period_of(row: dict[str, Any]) -> str:
    return str(row.get("period", ""))


def by_time(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows in time order, whatever order the query asked them in."""
    return sorted(rows, key=period_of) if rows and "period" in rows[0] else rows


def polish(sentence: str, language: Language, period: str) -> str:
    """An English sentence starts with a capital ("Refund rate by channel…"); in Chinese a period
    that ends in a date keeps a space before the word after it ("2026-06-30 按区域拆分")."""
    if language == "zh":
        if period[-1:].isdigit():
            return re.sub(re.escape(period) + _BEFORE_HAN, lambda m: m.group(0) + " ", sentence)
        return sentence
    return capitalised(sentence)


class NarratorBase:
    """The catalog the sentences name things from, and the wording they share."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def member_label(self, dimension: str, member: Any, language: Language) -> str:
        return self.catalog.member_label(dimension, member, language)

    def _row_label(self, query: SemanticQuery, row: dict[str, Any], language: Language) -> str:
        bits = []
        if "period" in row:
            bits.append(bucket_label(row["period"], query.grain, language))
        bits.extend(self.member_label(d, row[d], language) for d in query.dimensions)
        return " / ".join(bits)

    def _formatter(self, metric: str, language: Language) -> Callable[[Any], str]:
        """A metric's values as the sentences write them (exact, in its unit and currency)."""
        unit, currency = self.catalog.metrics[metric].unit, self.catalog.currency_of(metric)
        return lambda value: format_exact(value, unit, language, currency)

    def _group_word(self, query: SemanticQuery, language: Language) -> str:
        """What one row of a breakdown is: "渠道", "region and channel", a period of a series ("月"),
        or — in a series by groups — a pair of a period and a group ("月×渠道组合", "month × channel pair")."""
        group = text("answer.and_sep", language).join(
            self.catalog.dimensions[d].label.for_lang(language) for d in query.dimensions
        )
        if query.grain is None:
            return group
        grain = text(f"answer.grain_{query.grain}", language)
        if not query.dimensions:
            return grain
        return text("answer.period_group_pairs", language, grain=grain, groups=group)

    def _counted_groups(self, query: SemanticQuery, n: int, language: Language) -> str:
        """ "4 个渠道" / "4 channels", "30 天" / "1 day", "18 个月×渠道组合": how many groups or periods."""
        if query.dimensions:
            group = self._group_word(query, language)
            plural = language == "en" and n != 1
            return text("answer.groups_counted", language, n=n, group=plural_noun(group) if plural else group)
        if language == "en" and n == 1:
            return text("answer.groups_counted", language, n=n, group=text(f"answer.unit_{query.grain}", language))
        return text(f"answer.count_{query.grain}", language, n=n)

    def _listed(self, say: Sentence, *, capped: bool = False) -> str:
        """Each row's label and value, in the rows' order ("web (¥7,894,938.60), app (…)");
        ``capped``: the first ``MAX_LISTED`` and a word that more follow."""
        query, metric, rows, _period, _filters, language, fmt = say
        return self._items(query, rows, language, lambda r: fmt(r[metric]), capped=capped)

    def _items(
        self,
        query: SemanticQuery,
        rows: list[dict[str, Any]],
        language: Language,
        value_of: Callable[[dict[str, Any]], str],
        *,
        capped: bool = True,
    ) -> str:
        """Each row's label and what ``value_of`` says of it ("APP（-28.07%）"), in the rows' order;
        ``capped``: the first ``MAX_LISTED`` and a word that more follow."""
        shown = rows[:MAX_LISTED] if capped else rows
        items = text("answer.list_sep", language).join(
            text("answer.item_value", language, item=self._row_label(query, r, language), value=value_of(r))
            for r in shown
        )
        return items + (text("answer.more_rows", language) if len(rows) > len(shown) else "")

    def _empty_key_aside(self, say: Sentence, *, changed: bool = False) -> str:
        """ "Rows with no country ((empty): 39) are not named as the highest or lowest": the group of an
        empty key is left out of the ends a sentence names, so the sentence says it, with its value,
        rather than leave a larger one in the table unremarked; ``changed``: of the rises and falls,
        with the group's own change."""
        query, metric, rows, _period, _filters, language, fmt = say
        empty = [r for r in rows if not named_row(query, r) and r.get(metric) is not None]
        if not empty or len(empty) == len(rows):
            return ""
        dims = no_key_labels(self.catalog, query.dimensions, language)
        said = [fmt(r[metric]) for r in empty[:_MAX_TIED]]
        if changed:
            pct = [r.get(f"{metric}_change_pct") for r in empty[:_MAX_TIED]]
            said = [
                v
                if p is None
                else text("answer.value_and_change", language, value=v, pct=format_pct(float(p), language))
                for v, p in zip(said, pct, strict=True)
            ]
        key = "answer.empty_key_not_named_change" if changed else "answer.empty_key_not_named"
        return text(key, language, dimensions=dims, values=text("answer.list_sep", language).join(said))

    def _tied(
        self, query: SemanticQuery, rows: list[dict[str, Any]], metric: str, row: dict[str, Any], language: Language
    ) -> str:
        """``row``'s label, and those of the rows with the same value ("最高为 A、B（1）"): a high
        or low that several rows share is never said as one of them."""
        same = [r for r in rows if r[metric] is not None and r[metric] == row[metric] and named_row(query, r)]
        labels = [self._row_label(query, r, language) for r in same[:_MAX_TIED]]
        more = text("answer.more_rows", language) if len(same) > _MAX_TIED else ""
        return text("answer.list_sep", language).join(labels) + more


def no_key_labels(catalog: Catalog, dimensions: Sequence[str], language: Language) -> str:
    """The dimensions a row with an empty key has no value of ("no industry or no country"): each
    such row lacks one of them."""
    return text("answer.or_no_sep", language).join(catalog.dimensions[d].label.for_lang(language) for d in dimensions)


def named_row(query: SemanticQuery, row: dict[str, Any]) -> bool:
    """Whether a row is of members: a group of an empty key (NULL) is none, so never a highest,
    a lowest or a mover named (the table still shows it)."""
    return all(row.get(d) is not None for d in query.dimensions)


__all__ = ["MAX_LISTED", "NarratorBase", "Sentence", "by_time", "named_row", "no_key_labels", "period_of", "polish"]
