"""A follow-up's groups: members replace or add to the filter on their dimension, a dimension
word adds or replaces a breakdown, the whole said ("全国呢") takes a filter away, and a share's
part and the groups it is taken inside follow what the follow-up names."""

from __future__ import annotations

import re
from collections.abc import Sequence

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.conversation import PartName
from baton.contracts.semantic import MemberFilter, SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both, text
from baton.nlu import vocabulary as vocab
from baton.nlu.shares import breakdown_wholes
from baton.nlu.ties import Reading


def filters_of(
    parent: SemanticQuery, r: Reading, catalog: Catalog
) -> tuple[list[MemberFilter], tuple[MemberFilter, ...], list[PartName]]:
    """Members replace the filter on their dimension (or add one; "also"/"再" adds them to it);
    after a share, members of the share's dimension or of its breakdown name the new part whose
    share of the unchanged whole is asked."""
    named: dict[tuple[str, bool], list[str]] = {}
    for m in r.terms.members:
        bucket = named.setdefault((m.dimension, m.excluded), [])
        if m.member not in bucket:
            bucket.append(m.member)
    filters, share_filters = list(parent.filters), parent.share_filters
    said = ({m.dimension for m in r.terms.members} | set(r.terms.dims)) - set(parent.dimensions)
    unsplit = said if r.ties is not None and r.ties.unsplit else set()  # a filter, not a breakdown, not split
    summed = _every_member_summed(r, catalog, parent) | _all_of_the_members(r, catalog, parent)
    whole = unsplit | summed
    left = [f for f in filters if f.dimension not in whole]
    taken_away = bool(whole) and len(left) < len(filters)
    if taken_away:  # "小程序新客的买家数" then "不分新老客呢" / "新老客合计呢": all of them
        filters = left  # and a member named beside it still counts ("所有用户里APP的呢", "不分新老客，APP的呢")
        named = {key: members for key, members in named.items() if key[0] not in summed}
        if not named:
            return filters, share_filters, ["filter"]
    share_dims = {f.dimension for f in share_filters}
    adds = r.ties is not None and r.ties.add
    _replaced_filter_is_named(parent, r, catalog, named)
    parts: list[PartName] = []
    # "各区域GMV占比" then "只看华东和华南": the two's shares of the whole, never of their own sum
    shown = set(parent.dimensions) - set(parent.share_within) if parent.share and not share_dims else set()
    for (dim, excluded), members in named.items():
        if (dim in share_dims or dim in shown) and not excluded:
            kept_parts = [f for f in share_filters if f.dimension != dim]
            share_filters = (*kept_parts, MemberFilter(dimension=dim, members=tuple(members)))
            parts.append("filter")
            continue
        included = next((f for f in filters if f.dimension == dim and not f.exclude), None)
        the_set = dim in r.terms.dims or dim in r.terms.dims_naming_a_set  # "直播以外的渠道呢": every channel but
        if excluded and included is not None and the_set and not set(members) & set(included.members):
            filters = [f for f in filters if f is not included]  # "APP的GMV" then "直播以外的渠道呢"
            included = None
        all_but = _all_but_said(r) or (the_set and _OTHERS.search(r.scan.norm) is not None)
        if excluded and included is not None and set(included.members) == set(members) and all_but:
            # "上个月app的GMV" then "除了app呢" / "不看app，看其他渠道合计": all but what the previous question
            # kept ("去掉app": the member, or the filter on it? asked back below)
            filters = [f for f in filters if f is not included]
            included = None
        if excluded and included is not None:  # "华东和华南的GMV" then "去掉华南": 华东 is left
            filters = [f for f in filters if f is not included]
            filters.append(MemberFilter(dimension=dim, members=_left(catalog, dim, included.members, members)))
            parts.append("filter")
            continue
        outside = next((f for f in filters if f.dimension == dim and f.exclude), None)
        if adds and not excluded and outside is not None and set(members) <= set(outside.members):
            # "除华东外的GMV" then "和华东加起来多少": 华东 is back in; what stays left out is the rest
            rest = tuple(m for m in outside.members if m not in members)
            filters = [f for f in filters if f is not outside]
            filters += [MemberFilter(dimension=dim, members=rest, exclude=True)] if rest else []
            parts.append("exclusion")
            continue
        before = next((f for f in filters if f.dimension == dim and f.exclude == excluded), None)
        kept = [*before.members] if adds and before is not None else []
        joined = tuple(dict.fromkeys([*kept, *members]))
        filters = [f for f in filters if f.dimension != dim]
        filters.append(MemberFilter(dimension=dim, members=joined, exclude=excluded))
        parts.append("exclusion" if excluded else "filter")
    for dim, left_out in r.terms.others_than.items():  # "华北的GMV" then "how about the other regions"
        filters = [f for f in filters if f.dimension != dim]
        filters.append(MemberFilter(dimension=dim, members=left_out, exclude=True))
        parts.append("exclusion")
    for dim in sorted((r.terms.dims_naming_a_set | r.terms.every_of) - {d for d, _ in named}):
        # "华东app的GMV" then "所有渠道呢" / "what about all regions": the filter on it goes; so too
        # "所有渠道里哪个最高", "which channel is highest across all channels" after two were compared
        if any(f.dimension == dim for f in filters):
            filters = [f for f in filters if f.dimension != dim]
            parts.append("filter")
    whole_of = _whole_of_members(r)
    others = {f.dimension for f in filters if f.dimension not in whole_of} if whole_of else set()
    if others:  # "华南直播GMV" then "华南整体呢" / "all of app?": the member's whole, the other filter gone
        if len(others) > 1:  # "华东APP新客GMV" then "APP整体呢": without which filter? asked
            raise AmbiguousQuestion(*both("conversation.whole_of_which"), detail={"follow_up": True})
        dropped = [f for f in filters if f.dimension in others]
        parts.append("exclusion" if all(f.exclude for f in dropped) else "filter")
        filters = [f for f in filters if f.dimension not in others]
    if _the_whole_asked(r, named, broken_down=bool(parent.dimensions)) and filters:
        # "华东的GMV" then "全国呢" / "overall?": the whole, the filter gone
        dims = {f.dimension for f in filters}
        if len(dims) > 1:  # "华东app的GMV" then "全国呢": without which filter? asked
            raise AmbiguousQuestion(*both("conversation.whole_of_which"), detail={"follow_up": True})
        parts.append("exclusion" if all(f.exclude for f in filters) else "filter")
        filters = []
    if taken_away and "filter" not in parts:
        parts.append("filter")
    return filters, share_filters, parts


def _filtered_only(parent: SemanticQuery) -> set[str]:
    """The dimensions the previous question kept members of without breaking them down."""
    return {f.dimension for f in parent.filters if not f.exclude} - set(parent.dimensions)


def _all_of_the_members(r: Reading, catalog: Catalog, parent: SemanticQuery) -> set[str]:
    """The filtered dimensions a follow-up names whole by the noun their members share ("新用户的GMV"
    then "所有用户呢", "what about all users?"): no filter of them. A share's whole ("占所有用户的比例呢")
    keeps the filter as its part."""
    if r.cues.share:
        return set()
    return {d for d in _filtered_only(parent) if any(p.search(r.scan.norm) for p in _all_of(catalog, d))}


def _all_of(catalog: Catalog, dim: str) -> list[re.Pattern[str]]:
    """ "所有用户" / "all users" for a dimension whose members are 新用户 and 老用户, new users and
    returning users: "all" before the last word every member label ends with."""
    labels = [m.label for m in catalog.dimensions[dim].members.values()]
    if len(labels) < 2:
        return []
    found: list[re.Pattern[str]] = []
    zh = [label.zh for label in labels]
    head = min(zh, key=len)
    while head and not all(z.endswith(head) for z in zh):  # the longest ending they share
        head = head[1:]
    if len(head) >= 2 and all(len(z) > len(head) for z in zh):
        found.append(re.compile(rf"(?:所有|全部|全体)的?{re.escape(head)}"))
    words = [label.en.lower().split() for label in labels]
    last = {w[-1] for w in words}
    if len(last) == 1 and all(len(w) > 1 for w in words):
        noun = next(iter(last))
        forms = "|".join(re.escape(f) for f in sorted({noun, noun.removesuffix("s"), noun.removesuffix("s") + "s"}))
        found.append(re.compile(rf"\b(?:all|every)\s+(?:the\s+|of\s+the\s+)?(?:{forms})\b", re.I))
    return found


def _every_member_summed(r: Reading, catalog: Catalog, parent: SemanticQuery) -> set[str]:
    """The filtered dimensions a follow-up sums with a total word, named by every member or by the
    dimension itself ("新老客合计呢", "new and returning combined?", "所有用户类型合计"): no filter of them."""
    if not r.cues.total:
        return set()
    named: dict[str, set[str]] = {}
    for m in r.terms.members:
        if not m.excluded:
            named.setdefault(m.dimension, set()).add(m.member)
    every = {d for d, members in named.items() if len(members) > 1 and members == set(catalog.dimensions[d].members)}
    filtered = _filtered_only(parent)
    return (every | set(r.terms.dims)) & filtered - set(r.terms.others_than)  # "其他区域一共": those left, summed


def _whole_of_members(r: Reading) -> set[str]:
    """The dimensions of members a whole word is said of ("华南整体呢", "整个小程序呢", "app overall?",
    "all of South China?"): each member's whole, not its part the previous filters kept."""
    norm = r.scan.norm
    return {
        m.dimension
        for m in r.terms.members
        if not m.excluded
        and (_WHOLE_AFTER.match(norm, m.hit.end) is not None or _WHOLE_BEFORE.search(norm[: m.hit.start]) is not None)
    }


_WHOLE_AFTER = patterns.compile(r"\s*的?\s*(?:整体|总体|全部|\boverall\b|\bas a whole\b)", re.I)
_WHOLE_BEFORE = patterns.compile(r"(?:整个|\ball of\b|\bthe whole of\b|\boverall\b)\s*(?:the\s+)?$", re.I)


def _the_whole_asked(r: Reading, named: dict[tuple[str, bool], list[str]], *, broken_down: bool) -> bool:
    """The follow-up asks of the whole ("全国呢", "整体呢", "overall?", "全国同比呢") and names no
    member or share that the whole could belong to. After a breakdown ("华东各渠道GMV") only 全国 / 大盘
    / 全平台 say the whole; "整体呢" / "overall?" may be the breakdown's own total, and is not read so."""
    cues = r.cues
    if named or r.terms.dims or r.terms.dims_naming_a_set or cues.share or cues.difference or cues.ratio:
        return False
    whole = (_THE_WHOLE_PLACE if broken_down else _THE_WHOLE).search(r.scan.norm)
    if whole is not None and cues.comparison_kind is None and vocab.COMPARE.search(r.scan.norm):
        # "和全国比呢": the member against the whole takes two figures, one filtered; asked back
        raise AmbiguousQuestion(*both("nlu.member_beside_the_whole"), detail={"follow_up": True})
    return whole is not None


_THE_WHOLE = patterns.compile(
    r"整体|全国|总体|全平台|大盘|\boverall\b|\bnationwide\b|\b(?:company|platform|site)[- ]?wide\b|\bthe whole\b"
    + vocab.WHOLE_OF_A_PERIOD,
    re.I,
)
"""The whole said in a follow-up ("全国呢", "全国同比呢", "overall YoY?"); never 平均水平 (an average), never
"in total" (the previous figures summed)."""
_THE_WHOLE_PLACE = patterns.compile(r"全国|全平台|大盘|\bnationwide\b|\b(?:company|platform|site)[- ]?wide\b", re.I)


def _replaced_filter_is_named(
    parent: SemanticQuery, r: Reading, catalog: Catalog, named: dict[tuple[str, bool], list[str]]
) -> None:
    """ "华南的GMV" then "换成web" / "I meant web": web instead of South China, or web within it? A
    replacement naming members only of dimensions the previous question did not filter, while it
    filtered another, is asked back, never read as a narrowing. A member left out narrows where the
    replacement is of something else ("orders instead, excluding East China") or a correction ("我是说
    不含APP的", "I meant excluding app"), unless the set it is left out of is named; said as the
    replacement itself ("换成不含APP的", "换成除了APP以外的渠道"), it is asked back."""
    other_part = bool(r.periods) or r.cues.grain is not None or r.cues.comparison_kind is not None
    new_metric = bool(r.terms.metrics) and tuple(r.terms.metrics) != parent.metrics
    narrows = r.ties is not None and (r.ties.corrected or new_metric or other_part)
    if narrows:
        named = {key: members for key, members in named.items() if not key[1] or key[0] in r.terms.dims_naming_a_set}
    if r.ties is None or not r.ties.replace or not named or r.terms.dims:
        return
    filtered = [f for f in parent.filters if not f.exclude]
    if not filtered or any(dim in {f.dimension for f in parent.filters} for dim, _ in named):
        return

    def said(lang: Language, pairs: Sequence[tuple[str, Sequence[str]]]) -> str:
        sep = text("answer.list_sep", lang)
        return sep.join(catalog.member_label(dim, m, lang) for dim, members in pairs for m in members)

    def new_said(lang: Language) -> str:  # "渠道不含APP": a member left out said as such
        parts = [
            text(
                "answer.filter_part_excluded",
                lang,
                dim=catalog.dimensions[dim].label.for_lang(lang),
                members=said(lang, [(dim, members)]),
            )
            if excluded
            else said(lang, [(dim, members)])
            for (dim, excluded), members in named.items()
        ]
        return text("answer.list_sep", lang).join(parts)

    old = [(f.dimension, f.members) for f in filtered]
    raise AmbiguousQuestion(
        *(
            text("conversation.replace_which_filter", lang, kept=said(lang, old), members=new_said(lang))
            for lang in LANGUAGES
        ),
        detail={"follow_up": True, "reason": "replace_which_filter"},
    )


def broken_down_again(
    parent: SemanticQuery, r: Reading, filters: list[MemberFilter], dims: list[str]
) -> tuple[list[MemberFilter], bool]:
    """ "上个月app的GMV" then "按渠道拆开": every channel, never a breakdown of app alone — a
    dimension the previous question narrowed to one member, now asked as a breakdown without
    naming members, loses that narrowing (said as a changed filter)."""
    named = {m.dimension for m in r.terms.members}
    asked = [d for d in dims if d in r.terms.dims and d not in parent.dimensions and d not in named]
    kept = [f for f in filters if f.exclude or f.dimension not in asked or len(f.members) > 1]
    return kept, len(kept) != len(filters)


def _left(catalog: Catalog, dim: str, included: Sequence[str], excluded: Sequence[str]) -> tuple[str, ...]:
    """The members a filter keeps once a follow-up takes some out; taking out one it does not
    hold, or all of them, is asked back."""
    absent = not set(excluded) <= set(included)
    if absent or set(included) <= set(excluded):

        def said(lang: Language, members: Sequence[str]) -> str:
            return text("answer.list_sep", lang).join(catalog.member_label(dim, m, lang) for m in members)

        raise AmbiguousQuestion(
            *(
                text(
                    "conversation.exclude_absent" if absent else "conversation.exclude_all",
                    lang,
                    members=said(lang, excluded),
                    kept=said(lang, included),
                    dimension=catalog.dimensions[dim].label.for_lang(lang),
                )
                for lang in LANGUAGES
            ),
            detail={"excluded": list(excluded), "kept": list(included)},
        )
    return tuple(m for m in included if m not in excluded)


def shares_within(parent: SemanticQuery, r: Reading, dims: list[str]) -> tuple[str, ...]:
    """The breakdowns each group of which is its share's whole: the earlier question's, and those
    the follow-up marks so ("in each region, what share came from live stream")."""
    marked = breakdown_wholes(r.scan, list(r.terms.dims), r.terms.hits)
    return tuple(d for d in dims if d in parent.share_within or d in marked)


_ALL_BUT = patterns.compile(
    r"除了|除去|除开|除掉|以外|之外|除外|不含|不包含|不包括|不算|不计|排除|剔除|(?<![是])非"
    r"|\b(?:excluding|except|other than|without|not including|apart from|aside from|but not|all but|everything but)\b",
    re.I,
)
"""Words that say "all but" a member. A verb taking it away (去掉, 不看, 不要, drop, remove) may take
away the filter instead: after a question of that member alone, which one is asked back."""


def _all_but_said(r: Reading) -> bool:
    """The exclusion said as "all but" (除了, 以外, 不含, excluding, except, without)."""
    return _ALL_BUT.search(r.scan.norm) is not None


_OTHERS = patterns.compile(r"其他|其余|其它|剩下|剩余|\bother\b|\bremaining\b|\bthe rest\b", re.I)
"""The other members, said beside the dimension they are of ("其他品类", "the other channels")."""

_ACROSS_SAID = patterns.compile(r"\bacross\s+(?:all\s+)?(?:the\s+)?", re.I)
"""A total said across a breakdown ("total across regions?"): summed over it."""


def _summed_across(r: Reading) -> set[str]:
    """The dimensions said right after "across" ("total across all regions by user type": region)."""
    ends = {m.end() for m in _ACROSS_SAID.finditer(r.scan.norm)}
    return {t.target for h in r.terms.hits if h.start in ends for t in h.terms if t.kind == "dimension"}


_ONLY = patterns.compile(r"只|仅|单按|\bjust\b|\bonly\b", re.I)


def dimensions_of(parent: SemanticQuery, r: Reading, filters: list[MemberFilter]) -> list[str]:
    """Breakdowns: added ("按品类拆开"), replaced ("换成按品类"); a dimension narrowed to one
    member is no longer broken down ("各渠道…" then "app呢")."""
    ties, said = r.ties, list(r.terms.dims)
    filtered = _filtered_only(parent)
    if r.cues.total or (ties is not None and ties.unsplit):
        said = [d for d in said if d not in filtered]  # "不分新老客" / "新老客合计" of a filter: the filter goes
    if r.cues.total:
        said = [d for d in said if d not in r.terms.others_than]  # "其他区域一共多少": one figure of them
    if ties is not None and ties.unsplit:  # "不分渠道呢": that breakdown goes; "不用拆了": all of them
        if not set(said) <= set(parent.dimensions):  # "不分渠道，按区域": which goes, which comes? asked
            raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True})
        of_members = {m.dimension for m in r.terms.members}  # "不分新老客呢": that dimension's, filter or split
        if (of_members or r.terms.dims) and not said:
            return [d for d in parent.dimensions if d not in of_members]
        return [d for d in parent.dimensions if said and d not in said]
    replace = ties is not None and ties.replace
    # "按区域呢" / "what about by region" after a breakdown asks the same by another one; a
    # drill-down says so ("再按区域拆开", "add region")
    ranked = r.cues.top_n is not None or r.cues.best or r.cues.rank  # "按品类看，最高的3个呢": of each region? asked
    instead = (
        ties is not None and ties.framed and not (ties.breakdown or ties.add or ranked) and bool(parent.dimensions)
    )
    # "refund rate by category" then "orders by channel": a metric and its breakdown said anew ask that
    # question in the period kept — never orders by category and channel
    restated = bool(r.terms.metrics) and tuple(r.terms.metrics) != parent.metrics and not ranked
    restated = restated and not (ties is not None and (ties.add or ties.breakdown))
    replace = replace or ((instead or restated) and not set(said) & set(parent.dimensions))
    dims = said if (replace and said) else [*parent.dimensions, *(d for d in said if d not in parent.dimensions)]
    across = _summed_across(r)
    if across and across < set(parent.dimensions) and not r.terms.members and r.cues.total:
        dims = [d for d in parent.dimensions if d not in across]  # "total across regions?": summed over them
    elif (
        said
        and set(said) < set(parent.dimensions)
        and not r.terms.members
        and (_ONLY.search(r.scan.norm) or r.cues.total)
    ):
        dims = list(said)  # "按区域和新老客" then "只按区域看" / "by user type only" / "totals by user type"
    named = {m.dimension for m in r.terms.members}  # named, or narrowed by taking members out
    for f in filters:
        if f.exclude or f.dimension not in named or f.dimension in said:
            continue
        if len(f.members) == 1 and f.dimension in dims:
            dims.remove(f.dimension)
        elif len(f.members) > 1 and not r.cues.total and f.dimension not in dims:
            if dims and f.dimension in r.cues.narrowed:  # "只看APP和小程序" beside a breakdown: one subset
                continue
            dims.append(f.dimension)  # "华东和华南呢": one row each
    if r.cues.total:  # "其他区域一共多少": the regions left out before, as one figure
        dims = [d for d in dims if d not in r.terms.others_than]
    return dims
