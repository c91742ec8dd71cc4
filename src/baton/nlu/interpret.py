"""How Baton read a question, in the reader's words: the sentence every answer leads with.

It is written from the SemanticQuery that was compiled, never from the question, so what it
says is what was computed: the metrics (or the share, or the why), every filter and exclusion,
the breakdown or time grain, a ranking, the period with its dates, the comparison period, and
the words read as something else (a typo, a traditional character); for a semantic-layer
query, its filters, order and row limit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from baton import patterns
from baton.catalog.compiler import averaged_over, value_column
from baton.catalog.model import Catalog
from baton.contracts.common import Language
from baton.contracts.semantic import OPEN_START, MemberFilter, SemanticQuery, Threshold, TimeRange
from baton.messages import average_fields, counted, text
from baton.numbers import format_exact, format_signed_percent, place_word, plural_noun, possessive


def interpret(query: SemanticQuery, catalog: Catalog, language: Language) -> str:
    """One sentence: the question as Baton computes it."""
    lang = language
    parts = {
        "subject": _subject(query, catalog, lang),
        "filters": _filters(query.filters, catalog, lang) + _where(query.where, lang),
        "breakdown": _breakdown(query, catalog, lang),
        "ranking": _ranking(query, catalog, lang)
        + _first_asked(query, catalog, lang)
        + _threshold(query, catalog, lang)
        + _order_and_limit(query, catalog, lang)
        + _gap(query, lang),
        "period": _period(query.time_range, lang),
        "comparison": _comparison(query, lang) + _period_ratio(query, lang) + _asked(query, catalog, lang),
        "corrections": _corrections(query, lang),
    }
    return text("answer.interpret", lang, **parts)


def _first_asked(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    """ "，以及华东是否最高": the member whose first place is asked."""
    if query.asked_member is None or not query.dimensions:
        return ""
    member = catalog.member_label(query.dimensions[0], query.asked_member, lang)
    if query.place_asked:
        return text("answer.interpret_place_asked", lang, member=member)
    side = text("answer.side_high" if query.order != "asc" else "answer.side_low", lang)
    return text("answer.interpret_first_asked", lang, member=member, side=side)


def _asked(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    """ "，以及成交总额是否上升" / "，以及是否每个渠道的成交总额都上升": a direction asked as a yes/no."""
    if not query.premise_asked or query.premise is None:
        return ""
    moved = text(f"answer.premise_{query.premise}", lang)
    metrics = _labels(query.metrics, catalog, lang)
    if query.share and query.share_filters:  # "，以及APP占成交总额的比例是否上升"
        metrics = text(
            "answer.share_of_label",
            lang,
            owner=possessive(share_part(query.share_filters, catalog, lang), lang),
            label=metrics,
        )
    if not query.dimensions and query.grain is None:
        return text("answer.interpret_asked", lang, metrics=metrics, moved=moved)
    group = _dims(query.dimensions, catalog, lang) or text(f"answer.grain_{query.grain}", lang)
    if query.premise_asked == "which" and lang == "en":
        group = plural_noun(group)  # "in which months GMV fell"
    return text(f"answer.interpret_asked_{query.premise_asked}", lang, metrics=metrics, moved=moved, group=group)


def _gap(query: SemanticQuery, lang: Language) -> str:
    """ "，及两者之差" (two members) or "，及最高与最低之差" (a whole ranking's ends); "几倍" for a ratio."""
    if not query.difference:
        return ""
    ends = query.gap_of_the_ends and query.top_n is None  # a top two's gap is "the two"'s
    key = ("interpret_ends" if ends else "interpret") + ("_ratio" if query.ratio else "_gap")
    return text(f"answer.{key}", lang)


def _threshold(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    """ "，只看退款率高于 5.00% 的" / ", only those with refund rate above 5.00%" (beside a ranking:
    "，只在订单量高于 8,000 的分组中排名"); over one total,
    "，以及成交总额是否高于 ¥150,000,000.00"."""
    bound = query.threshold
    if bound is None:
        return ""
    said = bound_said(query, catalog, lang)
    total = not query.dimensions and query.grain is None
    checked = "answer.interpret_checked_total" if total else "answer.interpret_checked_groups"
    key = "answer.interpret_threshold" if bound.check == "keep" else checked
    key = "answer.interpret_ranked_floor" if query.ranked and bound.check == "keep" else key  # kept, then ranked
    return text(key, lang, metric=said["label"], op=said["op"], bound=said["bound"])


def bound_said(query: SemanticQuery, catalog: Catalog, lang: Language) -> dict[str, str]:
    """The query's threshold in words — what it bounds, its operator and its number ("订单量",
    "高于", "8,000") — as the interpretation, a ranking among the kept groups and a chart title say it."""
    bound = query.threshold
    assert bound is not None
    label, fmt = bounded_label(query, catalog, lang)
    return {"label": label, "op": text(f"answer.bound_{bound.op_name}", lang), "bound": bound_text(bound, fmt, lang)}


def bounded_label(query: SemanticQuery, catalog: Catalog, lang: Language) -> tuple[str, Callable[[Any], str]]:
    """What the query's threshold bounds, as sentences name it, and how its numbers are written:
    the metric's value ("退款率", ``5.00%``), or its change against the comparison period
    ("成交总额环比变化率", ``-10.00%``; "成交总额环比变化额", ``-¥1,000,000.00``)."""
    bound = query.threshold
    assert bound is not None
    metric = bound.metric
    label = value_label(catalog, query, metric, lang)
    unit, currency = catalog.metrics[metric].unit, catalog.currency_of(metric)
    if bound.of == "share":  # "华东的成交总额占比", "share of GMV"
        part = share_part(query.share_filters, catalog, lang)
        key = "answer.bounded_share_of" if part else "answer.bounded_share"
        said = text(key, lang, label=label, owner=possessive(part, lang))
        return said, lambda v: format_exact(v, "ratio", lang)
    if bound.of == "value" or query.comparison is None:
        return label, lambda v: format_exact(v, unit, lang, currency)
    kind = text(f"answer.kind_{query.comparison.kind}", lang)
    label = text(f"answer.bounded_{bound.of}", lang, label=label, kind=kind)
    if bound.of == "change_pct":
        return label, lambda v: format_signed_percent(v, lang)
    if unit == "ratio":  # a rate's change is in points ("1.00 个百分点"), never a relative percent
        return label, lambda v: text("answer.gap_points", lang, points=f"{float(v) * 100:.2f}")
    return label, lambda v: format_exact(v, unit, lang, currency)


def bound_text(bound: Threshold, fmt: Callable[[float], str], lang: Language) -> str:
    """A bound's number as said after its operator word: "¥1,000,000.00", or a range's two ends
    ("¥1,000,000.00 and ¥5,000,000.00" / "¥1,000,000.00 和 ¥5,000,000.00 之间")."""
    if bound.upper is None:
        return fmt(bound.value)
    return text("answer.bound_range", lang, low=fmt(bound.value), high=fmt(bound.upper))


def filters_text(filters: tuple[MemberFilter, ...], catalog: Catalog, lang: Language) -> str:
    """The filters as an answer sentence names them after the metric ("（区域=华东；渠道不含直播）")."""
    if not filters:
        return ""
    parts = [
        text(
            "answer.filter_part_excluded" if f.exclude else "answer.filter_part",
            lang,
            dim=catalog.dimensions[f.dimension].label.for_lang(lang),
            members=text("answer.list_sep", lang).join(catalog.member_label(f.dimension, m, lang) for m in f.members),
        )
        for f in filters
    ]
    return text("answer.filters", lang, parts=text("answer.filter_sep", lang).join(parts))


def where_text(where: tuple[str, ...], lang: Language) -> str:
    """A semantic-layer query's checked filters as an answer sentence names them after the metric."""
    if not where:
        return ""
    return text("query.where_note", lang, conditions=text("query.where_sep", lang).join(where))


def _where(where: tuple[str, ...], lang: Language) -> str:
    if not where:
        return ""
    return text("query.interpret_where", lang, conditions=text("query.where_sep", lang).join(where))


def _order_and_limit(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    """An explicit order and row limit (a top N already says both)."""
    if query.top_n is not None:
        return ""
    keys = []
    for key in query.order_by:
        name = key.removeprefix("-")
        if name in catalog.metrics:
            label = catalog.metrics[name].label.for_lang(lang)
        elif name in catalog.dimensions:
            label = catalog.dimensions[name].label.for_lang(lang)
        else:
            label = text("query.period_column", lang)
        keys.append(text("query.order_desc" if key.startswith("-") else "query.order_asc", lang, name=label))
    said = text("query.interpret_order", lang, keys=text("answer.list_sep", lang).join(keys)) if keys else ""
    if query.limit is not None:
        said += text("query.interpret_limit", lang, n=query.limit)
    return said


def value_label(catalog: Catalog, query: SemanticQuery, metric: str, lang: Language) -> str:
    """How a metric's value column is named to the reader: its label, or "日均GMV" ("月均GMV" …)."""
    label = catalog.metrics[metric].label.for_lang(lang)
    if query.average_per is None:
        return label
    return text("answer.average_label", lang, label=label, **average_fields(query.average_per))


def averaged_row(query: SemanticQuery, row: dict[str, Any]) -> dict[str, Any]:
    """An average's row keyed by metric ("revenue_per_month" as "revenue"), for readers written per metric."""
    if query.average_per is None:
        return row
    out = dict(row)
    for metric in query.metrics:
        column = value_column(query, metric)
        for key in [k for k in row if k.startswith(column)]:
            out[metric + key.removeprefix(column)] = row[key]
    return out


def _labels(names: tuple[str, ...], catalog: Catalog, lang: Language) -> str:
    return text("answer.and_sep", lang).join(catalog.metrics[m].label.for_lang(lang) for m in names)


def _subject(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    metrics = _labels(query.metrics, catalog, lang)
    if query.intent == "why":  # an analysis tests daily values: "为什么日均GMV下降了" is read as said
        if query.average_per is not None:
            metrics = text("answer.and_sep", lang).join(value_label(catalog, query, m, lang) for m in query.metrics)
        moved = {"up": "interpret_rose", "down": "interpret_fell", None: "interpret_moved"}[query.premise]
        return text("answer.interpret_why", lang, metrics=metrics, moved=text(f"answer.{moved}", lang))
    if query.share_within:
        group = _dims(query.share_within, catalog, lang)
        if not query.share_filters:
            return text("answer.interpret_share_within_by", lang, group=group, metrics=metrics)
        part = share_part(query.share_filters, catalog, lang)
        return text("answer.interpret_share_within", lang, part=part, group=group, metrics=metrics)
    if query.share and query.share_filters:
        part = share_part(query.share_filters, catalog, lang)
        return text("answer.interpret_share_of_part", lang, part=part, metrics=metrics)
    if query.share and query.grain is not None and not query.dimensions:  # the periods are the parts
        return text("answer.interpret_share_of_range", lang, metrics=metrics)
    if query.share:
        return text("answer.interpret_share_by", lang, metrics=metrics)
    if query.average_per is not None:
        per = query.average_per
        counts = averaged_over(query)
        said = (
            text("answer.interpret_two_counts", lang, **counted(per, counts[0]), **counted(per, counts[1], "other"))
            if len(set(counts)) > 1
            else text(f"answer.count_{per}", lang, n=counts[0])
        )
        return text("answer.interpret_average", lang, metrics=metrics, count=said, count_zh=said, **average_fields(per))
    return metrics


def share_part(share_filters: tuple[MemberFilter, ...], catalog: Catalog, lang: Language) -> str:
    """The part a share is of, by its members' names ("new users", "all but live stream")."""
    parts = [
        text("answer.interpret_all_but", lang, members=_members(f, catalog, lang))
        if f.exclude
        else _members(f, catalog, lang)
        for f in share_filters
    ]
    if len(parts) == 2:  # "华东的APP" / "app in East China": both at once, never either (in catalog order)
        order = list(catalog.dimensions)
        first, second = (
            p for _, p in sorted(zip(share_filters, parts, strict=True), key=lambda fp: order.index(fp[0].dimension))
        )
        return text("answer.share_part_both", lang, first=first, second=second)
    return text("answer.interpret_filter_sep", lang).join(parts)


def _members(member_filter: MemberFilter, catalog: Catalog, lang: Language) -> str:
    return text("answer.interpret_or", lang).join(
        catalog.member_label(member_filter.dimension, m, lang) for m in member_filter.members
    )


def _dims(dims: tuple[str, ...], catalog: Catalog, lang: Language) -> str:
    return text("answer.and_sep", lang).join(catalog.dimensions[d].label.for_lang(lang) for d in dims)


def _filters(filters: tuple[MemberFilter, ...], catalog: Catalog, lang: Language) -> str:
    said = [
        text(
            "answer.interpret_excluded" if f.exclude else "answer.interpret_member",
            lang,
            dim=catalog.dimensions[f.dimension].label.for_lang(lang),
            members=_members(f, catalog, lang),
        )
        for f in filters
    ]
    if not said:
        return ""
    return text("answer.interpret_where", lang, filters=text("answer.interpret_filter_sep", lang).join(said))


def _breakdown(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    out = []
    dims = tuple(d for d in query.dimensions if d not in query.share_within)  # "each region's": said already
    if dims:
        out.append(text("answer.interpret_by", lang, dims=_dims(dims, catalog, lang)))
    if query.grain is not None:
        out.append(text("answer.interpret_per", lang, grain=text(f"answer.grain_{query.grain}", lang)))
    return "".join(out)


def _ranking(query: SemanticQuery, catalog: Catalog, lang: Language) -> str:
    """Top/bottom N or an order; with several metrics, the one ranked by (the first)."""
    high = query.order == "desc"
    by = "_by" if len(query.metrics) > 1 else ""
    metric = value_label(catalog, query, query.metrics[0], lang)
    if query.listed is not None and query.listed != query.order:  # "前三…从低到高排"
        first = text(f"answer.listed_{query.listed}", lang)
    else:
        first = text("answer.first_high" if high else "answer.first_low", lang)
    if query.rank_by != "value":
        return _change_ranking(query, catalog, metric, lang)
    if query.share and query.top_n is None and query.rank_place is None and query.listed is not None:
        return text(f"answer.listed_{query.listed}", lang)  # "各渠道GMV占比，从低到高": the parts' order
    if query.rank_place is not None:
        side = text("answer.side_high" if high else "answer.side_low", lang)
        return text(
            "answer.interpret_place" + by, lang, place=place_word(query.rank_place, lang), side=side, metric=metric
        )
    if query.top_n is not None and (query.rank_each_period or query.rank_within):
        # "，每月按成交总额取最高的 1 个渠道", "，每个渠道内取最高的 2 个品类"
        sep = text("answer.and_sep", lang)
        if query.rank_each_period:
            kind, group = "each_period", text(f"answer.grain_{query.grain}", lang)
        else:
            kind, group = "within", sep.join(catalog.dimensions[d].label.for_lang(lang) for d in query.rank_within)
        nouns = [catalog.dimensions[d].label.for_lang(lang) for d in query.dimensions if d not in query.rank_within]
        nouns = nouns or ([text(f"answer.grain_{query.grain}", lang)] if query.grain else [])  # a group's top period
        plural = lang == "en" and query.top_n > 1
        ranked = sep.join(plural_noun(n) if plural else n for n in nouns)
        key = f"answer.interpret_{'top' if high else 'bottom'}_{kind}"
        return text(key, lang, n=query.top_n, metric=metric, group=group, ranked=ranked, first=first)
    if query.top_n is not None:
        key = "answer.interpret_top" if high else "answer.interpret_bottom"
        return text(key + by, lang, n=query.top_n, metric=metric, first=first)
    if query.intent == "ranking":  # every row: listed is the whole of its order
        high = (query.listed or query.order) == "desc"
        return text(
            ("answer.interpret_ranked_desc" if high else "answer.interpret_ranked_asc") + by, lang, metric=metric
        )
    return ""


def _change_ranking(query: SemanticQuery, catalog: Catalog, metric: str, lang: Language) -> str:
    """ "，按成交总额的变化额（不是变化率）取下降最多的 1 个": the measure is always named."""
    move = text("answer.change_move_down" if query.order == "asc" else "answer.change_move_up", lang)
    points = query.rank_by == "change" and catalog.metrics[query.metrics[0]].unit == "ratio"
    measure = text("answer.interpret_measure_" + ("points" if points else query.rank_by), lang)
    listed = text(f"answer.listed_{query.listed}", lang) if query.listed is not None else ""
    listed += text("answer.interpret_contribution", lang) if query.contribution else ""
    if query.top_n is not None:
        said = text("answer.interpret_change_top", lang, n=query.top_n, move=move, metric=metric, measure=measure)
        return said + listed
    return text("answer.interpret_change_ranked", lang, move=move, metric=metric, measure=measure) + listed


def period_text(start: object, end: object, words: str | None, language: Language) -> str:
    """A period as the reader sees it: its words and its dates ("last month (2026-06-01 to …)");
    a range open at its start by words that say its end ("all dates up to 2026-07-01"), else as all
    time up to its end (the question's "历史累计", "since the beginning" are in its assumptions)."""
    if start == OPEN_START:
        return words if words and str(end) in words else text("answer.all_time", language, end=end)
    span = (
        text("answer.span_day", language, day=start)
        if start == end
        else text("answer.span", language, start=start, end=end)
    )
    return (
        text("answer.period_words", language, words=words, span=span)
        if words and not _its_dates(words, start, end)
        else span
    )


def _its_dates(words: str, start: object, end: object) -> bool:
    """Whether the words are only the period's own dates ("2026-06-01 to 2026-06-28"): said once."""
    said = _DATES_SAID.fullmatch(words.strip())
    if said is None:
        return False
    dates = [d for d in said.groups() if d]
    return dates == [str(start), str(end)] or (start == end and dates == [str(start)])


_DATES_SAID = patterns.compile(
    r"(?:from\s+|从\s*)?(\d{4}-\d{2}-\d{2})(?:\s*(?:至|到|to|-|–|~|through)\s*(\d{4}-\d{2}-\d{2}))?"
)


def _period(period: TimeRange, lang: Language) -> str:
    return period_text(period.start, period.end, period.text, lang)


def compared_with(query: SemanticQuery, lang: Language) -> tuple[str, str]:
    """The comparison's kind and its period as an answer says them ("同比", "2025-06-01 至
    2025-06-30"); a series with each period against the one before says so ("vs the month
    before", "every month against its own, …"), never one earlier period."""
    cmp = query.comparison
    assert cmp is not None
    span = period_text(cmp.range.start, cmp.range.end, None, lang)
    if query.each_period_before:
        grain = text(f"answer.grain_{query.grain}", lang)
        return text(f"answer.kind_each_before_{query.grain}", lang), text(
            "answer.each_before_span", lang, grain=grain, span=span
        )
    return text(f"answer.kind_{cmp.kind}", lang), span


def _comparison(query: SemanticQuery, lang: Language) -> str:
    comparison = query.comparison
    if comparison is None:
        return ""
    period = _period(comparison.range, lang)
    if query.each_period_before:
        grain = text(f"answer.grain_{query.grain}", lang)
        return text("answer.interpret_each_before", lang, grain=grain, period=period)
    if comparison.kind == "custom":
        return text("answer.interpret_against", lang, period=period)
    return text(
        "answer.interpret_compared", lang, kind=text(f"answer.interpret_{comparison.kind}", lang), period=period
    )


def _period_ratio(query: SemanticQuery, lang: Language) -> str:
    """ "，及前者是后者的几倍": the ratio of two periods ("6月GMV是5月的几倍")."""
    return text("answer.interpret_ratio", lang) if query.ratio and not query.difference else ""


def _corrections(query: SemanticQuery, lang: Language) -> str:
    if not query.corrections:
        return ""
    said = text("answer.list_sep", lang).join(
        text("answer.interpret_read_as", lang, written=c.written, read_as=c.read_as)
        for c in query.corrections
        if c.kind in ("typo", "shorthand", "ratio", "pointer", "partial")
    )
    traditional = any(c.kind == "traditional" for c in query.corrections)
    context = [
        text("answer.interpret_context", lang, written=c.written) for c in query.corrections if c.kind == "context"
    ]
    notes = [n for n in (said, text("answer.interpret_traditional", lang) if traditional else "", *context) if n]
    return text("answer.interpret_notes", lang, notes=text("answer.list_sep", lang).join(notes))


__all__ = [
    "averaged_row",
    "bound_text",
    "filters_text",
    "interpret",
    "period_text",
    "share_part",
    "value_label",
    "where_text",
]
