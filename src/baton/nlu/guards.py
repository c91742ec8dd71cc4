"""Question shapes the rule planner reads only in part: each guard either settles how a
shape is read (a listing's order, the groups that moved) or asks back, naming what it would need,
rather than answer a different question."""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from typing import Literal

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES
from baton.contracts.semantic import OPEN_START, Comparison, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues
from baton.nlu.lexicon import Hit
from baton.nlu.parts import TOTAL_JOINED, total_and_each, whole_then_a_member, whole_then_each
from baton.nlu.reading import Terms
from baton.nlu.scan import Scan
from baton.nlu.shares import INSIDE, metric_said_of


def members_only(hit: Hit) -> Hit:
    """A term that names a member and a metric alike, read as the member only."""
    if {"metric", "member"} <= hit.kinds:
        return dataclasses.replace(hit, terms=tuple(t for t in hit.terms if t.kind != "metric"))
    return hit


_COMMA_ONLY = patterns.compile(r"^\s*[,，]\s*$")
CN_COMMA = patterns.compile(r"\s*，\s*")
CLOSED_LATER = patterns.compile(r"[^。？?；;！!]*?(?:以外|之外|除外|其他|其余|其它|剩下|剩余|别的)")
"""An exclusion list a Chinese comma runs on in ("除了APP，小程序和网页以外", "除了华东，华南，其他区域"):
closed by 以外 or 其他 later; without it ("除了华东，华南和华北的GMV") the comma ends the exclusion."""


ONLY_BEFORE = patterns.compile(
    r"(?:只|仅|单)(?:看|算|统计|查|限|要)?\s*(?:一下)?\s*$|\b(?:only|just)\s+(?:for\s+|in\s+)?(?:the\s+)?$", re.I
)
""" "只看" / "仅限" / "only (the)" right before a member: it narrows, never breaks down."""


COMMA = patterns.compile(r"[,，;；]")
"""A comma ends a clause; 、 lists ("除了直播、华东" takes both out)."""


def no_rows_ranked(scan: Scan, cues: Cues) -> None:
    """ "前0的品类", "排名第0": a count or place of none names no row — asked back, never a failure."""
    if (cues.top_n is not None and cues.top_n < 1) or (cues.rank_place is not None and cues.rank_place < 1):
        said = [scan.text[s:e] for s, e in cues.spans.get("ranking", [])] or [scan.text]
        raise AmbiguousQuestion(*both("nlu.ranked_none", said=said[0]), detail={"reason": "ranked_none"})


def comma_after_an_exclusion(cue: re.Match[str], prev: Hit, nxt: Hit) -> None:
    """ "不含华东，华南的GMV": a member of the excluded one's dimension after a Chinese comma is
    either excluded too or the one asked for, and the exclusion would be empty if it were the
    one asked for — asked back. After 除(了) ("除了华东，华南的…", besides East China, South
    China's…) the comma ends the exclusion."""
    if cue.group(0).startswith("除") and not cue.group(0).startswith("除去"):
        return
    if not member_dimensions(prev) & member_dimensions(nxt):
        return
    raise AmbiguousQuestion(
        *both("nlu.excluded_then_named", excluded=prev.text, named=nxt.text),
        detail={"reason": "excluded_then_named", "excluded": prev.text, "named": nxt.text},
    )


def member_dimensions(hit: Hit) -> set[str]:
    """The dimensions whose members a hit names (one, unless a value is held by several)."""
    return {t.target.split(":", 1)[0] for t in hit.terms if t.kind == "member"}


def in_one_list(join: str, prev: Hit, nxt: Hit, scan: Scan) -> bool:
    """Whether two members an exclusion word governs stand in one list: a list word between them,
    or nothing at all between two of one dimension ("不含华东华南": both taken out, as Chinese lists
    them side by side). Raises (asks back, naming both) for two of different dimensions side by
    side ("不含华东app": both taken out, their intersection, or only the first?)."""
    if vocab.LIST_JOIN.match(join):
        return True
    if join.strip():
        return False
    first, second = member_dimensions(prev), member_dimensions(nxt)
    if len(first) == 1 and first == second:
        return True
    phrase = scan.text[prev.start : nxt.end]
    raise AmbiguousQuestion(
        *both("nlu.exclusion_across_dimensions", first=prev.text, second=nxt.text, phrase=phrase),
        detail={"reason": "exclusion_across_dimensions", "members": [prev.text, nxt.text]},
    )


def clause_ends(joins: list[str], i: int) -> bool:
    """A comma after an exclusion's member ends its clause ("除了APP，小程序的GMV": 小程序 is not
    excluded) unless the list goes on to an "and" ("excluding app, web and live stream")."""
    if not _COMMA_ONLY.match(joins[i]):
        return False
    for join in joins[i + 1 :]:
        if not vocab.LIST_JOIN.match(join):
            return True
        if not _COMMA_ONLY.match(join):
            return False
    return True


_POPULATION_BEFORE = patterns.compile(r"\b(?:among|within|of|for|in|from|across|on)\s+(?:the\s+|all\s+)?$")


def listing_order(
    cues: Cues, order: Literal["desc", "asc"], top_n: int | None, place: int | None, share: bool
) -> Literal["desc", "asc"] | None:
    """The listing order said apart from the end a ranking takes ("前三，从低到高"); of a share's
    parts without a top N ("各渠道GMV占比，从低到高"), the order they are listed in."""
    if share and top_n is None and place is None and cues.listed is not None:
        return cues.listed
    return cues.listed if cues.listed != order and (top_n or 0) != 1 and place is None else None


_BY = patterns.compile(r"\bby\s", re.I)
_RANKED_BY = patterns.compile(
    r"\b(?:top|bottom|rank(?:ed|ing)?|sort(?:ed)?|order(?:ed)?|highest|lowest|best|worst|most|least|fewest)\b[^,.;?]*$",
    re.I,
)
_POSSESSIVE = patterns.compile(r"\s*(?:'s?\s*)?")


def _a_metric_of_the_period(scan: Scan, before: re.Match[str], end: int) -> bool:
    """ "top 3 channels by June GMV": after a ranking word in its clause, "by" ranks by the
    period's metric said right after it — never "by end of June orders were…" (until then)."""
    if not _BY.match(scan.norm, before.start()) or not _RANKED_BY.search(scan.norm, 0, before.start()):
        return False
    at = _POSSESSIVE.match(scan.norm, end)
    return at is not None and any(start == at.end() for start, _ in scan.metrics)


def all_time_beside_a_period(scan: Scan, cues: Cues, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """ "best month ever in 2025": all time and a period both name the range — asked which, never
    read as two periods to compare (their lengths differ) nor either one alone. Compared in words
    ("历史累计 vs 去年"), it is asked back as a comparison with nothing before all time."""
    if cues.comparison_spans() or vocab.COMPARE.search(scan.norm):
        return
    matches = [p.match for p in periods if p.match is not None]
    every = next((m for m in matches if m.start == OPEN_START), None)
    other = next((m for m in matches if m.start != OPEN_START), None)
    if every is not None and other is not None:
        raise AmbiguousQuestion(
            *both("nlu.all_time_beside_a_period", every=every.text, other=other.text),
            detail={"missing": "time_range", "periods": [every.text, other.text]},
        )


def until_with_no_start(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """ "累计到3月底的GMV", "至5月", "orders by end of April": from when? Asked back, never the end
    period alone (a range said whole — "今年到3月底" — is one period and passes)."""
    for period in periods:
        if period.match is None:
            continue
        before = vocab.UNTIL_BEFORE.search(scan.norm, 0, period.span[0])
        if before is None or _a_metric_of_the_period(scan, before, period.span[1]):
            continue
        said = scan.text[before.start() : period.span[1]]
        raise AmbiguousQuestion(*both("nlu.until_with_no_start", said=said), detail={"reason": "until_with_no_start"})


_FROM_A_POINT_ON = patterns.compile(r"(?:起|开始)\s*$|\b(?:onwards?|and\s+(?:after|later))\s*$", re.I)


def this_period_beside_another(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """ "上个月GMV和去年这个月比": June a year earlier, or this month (July) a year back? Asked back
    with both sets of dates; alone ("去年这个月的GMV") it is this month a year back."""
    said = [p.match for p in periods if p.match is not None]
    if len(said) < 2:
        return
    for match in said:
        if vocab.THIS_PERIOD_LAST_YEAR.search(match.text):
            other = next(m for m in said if m is not match)
            same = (timeexpr.shift_years(other.start, -1), timeexpr.shift_years(other.end, -1))
            fields = {
                "said": match.text,
                "parent": f"{other.text} ({other.start} – {other.end})",
                "same": f"{same[0]} – {same[1]}",
                "current": f"{match.start} – {match.end}",
            }
            raise AmbiguousQuestion(
                *both("nlu.this_period_or_that", **fields), detail={"reason": "this_period_or_that"}
            )


def which_of_two_periods(cues: Cues, periods: Sequence[timeexpr.PeriodReading], *, groups_named: bool) -> bool:
    """ "5月和6月哪个月的取消率更高", "which quarter had the higher refund rate, Q1 or Q2?",
    "今年5月的GMV和去年5月比，哪个高", "上个月和去年同月比，哪个的GMV高" (no groups named): two
    periods named, or one and the period a comparison word names, and which is higher
    asked — the two compared (both values and the change say which), never a series over the
    range, a ranking of the months between them, or of groups the question does not name."""
    # "上个月和去年同月比，哪个…高": one period and the one its comparison word names ("哪天…下降最多" ranks days)
    named = len(periods) == 1 and cues.comparison_kind is not None and not (cues.which_time or cues.change)
    two = len(periods) == 2 or named
    if not two or not (cues.which_time or not groups_named) or not cues.best or cues.why:
        return False
    if cues.top_n not in (None, 1) or cues.rank_place is not None or cues.both_ends:
        return False
    cues.grain, cues.which_time, cues.best, cues.top_n = None, False, False, None
    return True


def a_change_from_a_point_on(cues: Cues, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """ "GMV从5月开始下降了多少": the fall since May against what — April, the months before, or May
    itself? A change said of a period running from a point on is asked back, never compared with
    the period before the whole span."""
    if cues.comparison_kind == "same_period_last_year" or not (cues.change or cues.moved or cues.comparison_kind):
        return  # "6月10日起GMV同比": against the same days a year earlier, well defined
    for period in periods:
        if period.match is not None and _FROM_A_POINT_ON.search(period.match.text):
            said = period.match.text
            raise AmbiguousQuestion(
                *both("nlu.change_from_a_point_on", said=said), detail={"reason": "change_from_a_point_on"}
            )


def members_paired_with_periods(scan: Scan, periods: list[timeexpr.PeriodReading], terms: Terms) -> None:
    """ "GMV for East China in May vs South China in June": each member said with its own period
    pairs them crosswise, which one query of both members over both periods never answers."""
    said = sorted(p.span for p in periods if p.match is not None)
    if len(said) != 2:
        return
    (_, first_end), (second_start, _) = said
    kept = [m for m in terms.members if not m.excluded]
    inside = {m.member for m in kept if first_end <= m.hit.start and m.hit.end <= second_start}
    outside = {m.member for m in kept if m.hit.end <= said[0][0] or m.hit.start >= said[1][1]}
    if inside and outside and inside != outside:
        phrase = scan.text[min(m.hit.start for m in kept) : said[1][1]]
        raise AmbiguousQuestion(*both("nlu.members_paired_with_periods", phrase=phrase), detail={"reason": "paired"})


def members_said_of_the_first_metric(scan: Scan, terms: Terms) -> None:
    """ "上个月GMV和新用户订单量", "APP的访客数和新用户订单量": a member said of a metric after
    another one filters that metric only — which a query of one filter cannot hold — so it is
    asked back; a member before the first metric ("华东的GMV和订单量") is said of all of them."""
    if len(set(terms.metrics)) < 2:
        return
    first = min(terms.metric_hits, key=lambda h: h.start)
    for member in terms.members:
        said_of = metric_said_of(scan, member.hit, terms.hits)
        if member.excluded or said_of is None or said_of.start <= first.start:
            continue
        if _POPULATION_BEFORE.search(scan.norm[: member.hit.start]) or INSIDE.match(scan.norm, said_of.end):
            continue  # "the highest AOV among live stream orders", "APP的订单中": where, not a metric of its own
        detail = {"member": member.hit.text, "metric": said_of.text, "reason": "member_of_one_metric"}
        raise AmbiguousQuestion(
            *both("nlu.member_of_one_metric", member=member.hit.text, metric=said_of.text, first=first.text),
            detail=detail,
        )


_BOTH_BEFORE = patterns.compile(
    r"(?:(?<!\bfor )\bboth\s+(?:(?:on|in|from|via|through|at|of)\s+)?(?:the\s+)?"
    r"|同时(?:在|从|通过|于)?)$",
    re.I,
)
"""Two members said as one place people were in at once ("buyers on both app and web", "buyers of
both …", "同时在app和web…"); "for both" asks for each ("show buyers for both app and web")."""
_EACH_SAID = patterns.compile(r"^\s*compare\b|\brespectively\b|\bseparately\b|\bside by side\b|分别|各自", re.I)
"""Words that ask for each member ("compare buyers on both app and web", "分别"): never the overlap."""
_BOTH_BETWEEN = patterns.compile(r"^\s*(?:and|&|和|与|跟|及)\s*(?:on\s+|in\s+|from\s+|via\s+|the\s+|在)?\s*$", re.I)
_BOTH_AFTER = patterns.compile(r"^\s*(?:上|里|中)?\s*都(?=有(?!多少)|买过?|下过?单|购买过?|消费过?|在)")


def both_members_of_a_distinct_count(catalog: Catalog, scan: Scan, terms: Terms) -> None:
    """ "buyers on both app and web", "同时在app和web下单的买家", "app和web都买过的买家": the people
    in two members at once — an overlap the catalog's count cannot hold (each member's count, or
    all of them, is another number). Asked back; for a sum ("GMV on both app and web") each is meant."""
    if not any(catalog.metrics[m].distinct_count for m in terms.metrics) or _EACH_SAID.search(scan.norm):
        return
    kept = sorted((m for m in terms.members if not m.excluded), key=lambda m: m.hit.start)
    for first, second in itertools.pairwise(kept):
        if first.dimension != second.dimension or not _BOTH_BETWEEN.match(scan.norm[first.hit.end : second.hit.start]):
            continue
        before = _BOTH_BEFORE.search(scan.norm[: first.hit.start])
        after = _BOTH_AFTER.match(scan.norm[second.hit.end :])
        if before is None and after is None:
            continue
        said = scan.text[before.start() if before else first.hit.start : second.hit.end + (after.end() if after else 0)]
        detail = {"words": said, "members": [first.member, second.member], "reason": "both_members_overlap"}
        raise AmbiguousQuestion(
            *both("nlu.both_members_overlap", said=said, first=first.hit.text, second=second.hit.text), detail=detail
        )


SUPERLATIVE_WORD = patterns.compile(
    r"最|\b(?:highest|lowest|largest|smallest|biggest|most|least|fewest|best|worst|top|bottom)\b", re.I
)
"""A ranking word that picks a group ("为什么GMV最高的区域下降了"), not a comparative ("更高")."""


def two_members_apart(dims: Sequence[str], filters: Sequence[MemberFilter]) -> bool:
    """The breakdown is two members of one dimension, shown side by side."""
    return len(dims) == 1 and any(f.dimension == dims[0] and len(f.members) == 2 and not f.exclude for f in filters)


_EACH_AND_SUM = patterns.compile(r"\beach\s*(?:and|&|,|plus)\s*(?:the\s+)?(?:combined|total|in total|together|sum)\b")
_SUMMED = patterns.compile(
    r"总|合计|总共|一共|加起来|合起来|加在一起|加一起|之和|加总|汇总|总和|共计|总计|in total|combined|altogether|together|total|sum"
    r"|(?:add|sum)\s.*\bup"
)
BY_BEFORE = patterns.compile(r"\bby\s+(?:the\s+)?$")
"""English "by" right before a metric ("top regions by GMV", "categories by orders")."""


_WHOLE_BEFORE = patterns.compile(r"(?:总|整体的?|全国的?|总体的?|\btotal\s+|\boverall\s+|\ball\s+)$")


def member_beside_the_whole(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "二季度家电的退款率比整体高多少", "新用户的订单量和总GMV", "than overall": a member beside the
    whole takes one query filtered and one not — asked back, never the member's figure twice or
    a comparison with the previous period."""
    if cues.share or not any(not m.excluded for m in terms.members):
        return  # "华东的订单量占全国的比例": a share is of the whole by construction
    whole = vocab.WHOLE_REF.search(scan.norm)
    beside = vocab.GAP.search(scan.norm) or vocab.COMPARE.search(scan.norm) or len(terms.metric_hits) > 1
    later = vocab.WHOLE_PLACE.search(scan.norm)
    beside = beside or (later is not None and _in_a_later_clause(scan, terms, later.start()))
    total_metric = len(terms.metric_hits) > 1 and any(
        _WHOLE_BEFORE.search(scan.norm[: h.start]) for h in terms.metric_hits
    )
    joined = _whole_joined_to_a_member(scan, terms) or whole_then_a_member(scan, terms)
    if (whole and beside) or total_metric or joined:
        said = joined or (whole.group(0) if whole else "")
        raise ask_back("nlu.member_beside_the_whole", {"whole": said, "members": [m.member for m in terms.members]})


def _in_a_later_clause(scan: Scan, terms: Terms, at: int) -> bool:
    """ "家电的退货率是多少，整体呢", "East China GMV last month; what about nationwide?": the whole asked
    in a clause after the member's — a second figure, never dropped."""
    member_end = min((m.hit.end for m in terms.members if not m.excluded), default=None)
    if member_end is None or member_end > at:
        return False
    return vocab.CLAUSE_BREAK.search(scan.norm, member_end, at) is not None


def _of_another_metric(word: re.Match[str], start: int, end: int, terms: Terms) -> bool:
    """The whole word names another metric than the one between it and the member ("APP的订单量和买家
    总数": 买家总数 is buyers, apart from APP's orders) — never "全部订单量以及新用户订单量" (all orders)."""

    def metric(hit: Hit) -> str | None:
        return next((t.target for t in hit.terms if t.kind == "metric"), None)

    beside = [h for h in terms.metric_hits if h.end == word.start() or h.start == word.end()]
    between = [h for h in terms.metric_hits if start <= h.start and h.end <= end]
    named = {metric(h) for h in beside}
    return bool(beside) and any(metric(h) not in named for h in between)


_WHOLE_WORD = patterns.compile(
    r"整体|全国|总体|全平台|大盘|全部|所有|全体|总量|总数|\boverall\b|\bthe whole\b|\ball\b|\bin total\b|\btotal\b"
    r"|\bnationwide\b|\b(?:company|platform|site)[- ]?wide\b",
    re.I,
)
_JOINED = patterns.compile(r"和|与|以及|及|跟|还有|、|\band\b|&|\bplus\b|\bvs\.?|\bversus\b", re.I)
_CLAUSE_MARK = patterns.compile(r"[，,。？?；;！!]")


def _whole_joined_to_a_member(scan: Scan, terms: Terms) -> str | None:
    """ "全国和华东的GMV", "app和全部渠道的退款率", "全部订单量以及新用户订单量", "orders overall and for
    the app": the whole and a member joined as two things asked — the whole word as said, if so.
    Only a join with no other member between them counts ("所有渠道中app和web": the members are
    listed inside the whole, one list)."""
    spans = [(m.hit.start, m.hit.end) for m in terms.members]
    for word in _WHOLE_WORD.finditer(scan.norm):
        for m in terms.members:
            if m.excluded:
                continue
            start, end = (word.end(), m.hit.start) if word.end() <= m.hit.start else (m.hit.end, word.start())
            between = scan.norm[start:end]
            if end < start or end - start > 20 or _CLAUSE_MARK.search(between):
                continue
            if any(start <= s and e <= end for s, e in spans):
                continue
            if _of_another_metric(word, start, end, terms):
                continue  # "APP的订单量和买家总数": 总数 is part of another metric's name, said of APP too
            if _JOINED.search(between):
                return word.group(0)
    return None


_SHARE_FROM_THE_TOP = patterns.compile(
    r"\b(?:share|percentage|percent|proportion|fraction)\b[^?.!]{0,40}?\b(?:came|comes|come|coming|is|was|were)\s+"
    r"from\s+(?:the\s+)?top\b",
    re.I,
)
"""One share said of the top N as a whole ("what share of GMV came from the top 3 regions"): their sum's."""


_TOTAL_BEFORE = patterns.compile(r"(?<![各每])总的?\s*$")


def the_rest_ranked(cues: Cues, terms: Terms) -> None:
    """ "非华东地区GMV最高的3个", "top 3 excluding East China": a ranking that names no dimension, whose
    only members are excluded ones of one dimension, ranks the rest of that dimension — never a
    remembered default breakdown, never another dimension."""
    ranked = cues.top_n is not None or cues.rank_place is not None or cues.best or cues.rank
    periods_ranked = cues.which_time or cues.grain is not None  # "非app渠道GMV最高的一天": days are ranked
    if not ranked or periods_ranked or terms.dims or any(not m.excluded for m in terms.members):
        return
    excluded = {m.dimension for m in terms.members}
    if len(excluded) == 1:
        terms.dims.append(excluded.pop())


def one_member_said_twice(catalog: Catalog, scan: Scan, terms: Terms) -> None:
    """ "web端和PC端上月订单量分别": two words of the question the catalog reads as one member, listed
    side by side, ask for two figures Baton has only one of — asked back, naming the member, never
    one figure for both (said again elsewhere, "官网订单量，网页端的", it is the same one)."""
    said: dict[tuple[str, str], list[Hit]] = {}
    for m in terms.members:
        said.setdefault((m.dimension, m.member), []).append(m.hit)
    for (dim, key), found in said.items():
        hits = sorted(found, key=lambda h: h.start)
        listed = next(
            (
                [a.text.strip(), b.text.strip()]
                for a, b in itertools.pairwise(hits)
                if a.text.strip().lower() != b.text.strip().lower()
                and vocab.LIST_JOIN.fullmatch(scan.norm[a.end : b.start])
            ),
            None,
        )
        if listed is not None:
            member = catalog.dimensions[dim].members.get(key)
            names = {lang: member.label.for_lang(lang) if member is not None else key for lang in LANGUAGES}
            raise AmbiguousQuestion(
                *(
                    message(
                        "nlu.one_member_said_twice",
                        lang,
                        first=listed[0],
                        second=listed[1],
                        member=names[lang],
                        dimension=catalog.dimensions[dim].label.for_lang(lang),
                    )
                    for lang in LANGUAGES
                ),
                detail={"reason": "one_member_said_twice", "words": listed, "member": key},
            )


def total_said_before_a_metric(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "华东和华南总GMV", "GMV超过100万的品类的总GMV": 总 before a metric, over several members, the
    groups a bound keeps or a top N, asks for their sum ("各渠道总GMV" is each channel's, "上个月总GMV" the
    one figure either way)."""
    if cues.total or cues.separately:
        return
    kept: dict[str, int] = {}
    for m in terms.members:
        if not m.excluded:
            kept[m.dimension] = kept.get(m.dimension, 0) + 1
    listed = any(n > 1 and d not in terms.dims for d, n in kept.items())  # "华东和华南总订单量按渠道"
    groups_picked = cues.bound is not None or (cues.top_n or 0) > 1
    if not (listed or groups_picked):
        return
    picked = [b for part in ("ranking", "threshold") for _a, b in cues.spans.get(part, [])]
    picked += [m.hit.end for m in terms.members if not m.excluded]
    for hit in terms.metric_hits:
        said = _TOTAL_BEFORE.search(scan.norm[: hit.start])
        if said is not None and said.start() >= max(picked, default=0):  # "总GMV最高的3个渠道": a ranking
            cues.total = True
            cues.spans.setdefault("total", []).append((said.start(), said.start() + 1))
            return


def ranked_ends(order: str) -> dict[str, str]:
    """The end of a ranking a top N is counted from, as messages say it ("top 3" / "前 3 名",
    "bottom 3" / "倒数 3 名")."""
    return {"ends": "bottom", "ends_zh": "倒数"} if order == "asc" else {"ends": "top", "ends_zh": "前"}


def total_beside_each_or_a_ranking(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "华东和华北的订单量，分别和合计" and "total GMV of the top 3 categories" ask for a sum
    beside the rows themselves; one query answers one of the two, so both are asked back
    ("top 3 channels by total GMV" is a ranking by the metric, no sum)."""
    said = [scan.norm[a:b] for a, b in cues.spans.get("total", []) if not BY_BEFORE.search(scan.norm[:a])]
    each = [scan.norm[a:b] for a, b in cues.spans.get("separately", []) if scan.norm[a:b].strip() != "each"]
    each += [m.group(0) for m in _EACH_AND_SUM.finditer(scan.norm)]  # "each and combined"
    summed = [w for w in said if _SUMMED.fullmatch(w.strip())]
    beside_groups = [w for w in summed if w.strip() != "total"]  # "total GMV by channel" is the breakdown
    of_the_top = _SHARE_FROM_THE_TOP.search(scan.norm) if cues.share else None
    if of_the_top is not None:  # "what share of GMV came from the top 3 regions": their sum's share
        summed.append(of_the_top.group(0))
    if summed and cues.top_n is not None and cues.top_n > 1:
        raise AmbiguousQuestion(
            *both("nlu.total_of_ranked", n=cues.top_n, **ranked_ends(cues.order)),
            detail={"total": summed, "top_n": cues.top_n},
        )
    series = cues.grain is not None and not cues.which_time  # "上周每天的GMV加起来": each day, or the week's sum?
    # "各区域GMV，以及全国合计", "GMV by channel and in total"
    if (said and each) or (beside_groups and (terms.dims or series)):
        raise ask_back("nlu.each_and_total", {"total": said, "each": each, "dimensions": list(terms.dims)})
    joined = TOTAL_JOINED.search(scan.norm)  # "for each channel and the total", "各区域GMV和全国GMV"
    if (joined and (terms.dims or cues.grain is not None or each)) or whole_then_each(scan):
        said = [joined.group(0)] if joined else []
        raise ask_back("nlu.each_and_total", {"total": said, "each": each, "dimensions": list(terms.dims)})
    both_said = total_and_each(scan)  # "总GMV和各渠道GMV", "total GMV and GMV by channel"
    if both_said is not None and (terms.dims or cues.grain is not None):
        raise ask_back("nlu.each_and_total", {"total": [both_said], "each": each, "dimensions": list(terms.dims)})


def the_members_dimension_ranked(cues: Cues, terms: Terms) -> None:
    """ "上个月华东的GMV是最高的吗": a yes/no of one member being first names no dimension but the
    member's own — ranked over it, never over a remembered default breakdown."""
    named = [m for m in terms.members if not m.excluded]
    best = cues.best and cues.top_n is None and cues.rank_place is None
    if ((best and cues.yes_no) or cues.place_asked) and not terms.dims and len(named) == 1:
        terms.dims.append(named[0].dimension)  # "华南上个月GMV排第几": among the regions


def first_asked(
    cues: Cues, dims: list[str], top_n: int | None, place: int | None, comparison: Comparison | None
) -> bool:
    """ "华东是不是GMV最高的区域", "is app the biggest channel?": a yes/no of whether one member is first
    of a one-dimension ranking by value — answered over every member, never asked back."""
    return cues.yes_no and len(dims) == 1 and top_n in (None, 1) and place is None and _by_value(cues, comparison)


def place_is_asked(cues: Cues, dims: list[str], comparison: Comparison | None) -> bool:
    """ "华南上个月GMV排第几", "where does web rank among channels": the place of one member in a
    one-dimension ranking by value — every member ranked, its place said."""
    unranked = cues.top_n is None and cues.rank_place is None
    return cues.place_asked and len(dims) == 1 and unranked and _by_value(cues, comparison)


def _by_value(cues: Cues, comparison: Comparison | None) -> bool:
    """A ranking of the value alone: no comparison, share, gap or bound beside it."""
    return comparison is None and not (cues.share or cues.difference or cues.bound is not None)


def check_place_among_members(place: int | None, dims: Sequence[str], filters: Sequence[MemberFilter]) -> None:
    """ "华东和华南订单量第三名", or "and the third one?" after two regions were compared: a place past
    the members kept has no row — asked back, never answered "no data matched"."""
    kept = [f for f in filters if f.dimension in dims and not f.exclude]
    if place is None or len(dims) != 1 or not kept or place <= len(kept[0].members):
        return
    count = len(kept[0].members)
    raise AmbiguousQuestion(
        *both("nlu.place_past_the_members", place=place, count=count),
        detail={"reason": "place_past_the_members", "dimensions": list(dims), "place": place},
    )


def check_ranking_of_one_period(time_range: TimeRange, grain: Grain | None, dims: Sequence[str]) -> None:
    """ "was June our worst month this year?", or "6月是不是最少的" after a monthly series: a ranking of
    periods inside one such period has one row, so its first is never an answer — asked back."""
    if grain is None or dims or not _one_bucket(time_range, grain):
        return
    raise AmbiguousQuestion(
        *(
            message(
                "nlu.ranking_of_one_period", lang, period=time_range.text, grain=message(f"answer.grain_{grain}", lang)
            )
            for lang in LANGUAGES
        ),
        detail={"reason": "ranking_of_one_period", "period": time_range.text, "grain": grain},
    )


def _one_bucket(time_range: TimeRange, grain: Grain) -> bool:
    """Whether ``time_range`` lies inside one period of ``grain`` (June for months, one day for days)."""
    if grain == "day":
        return time_range.start == time_range.end
    if grain not in ("week", "month", "quarter", "year"):
        return False
    return timeexpr.period_bounds(time_range.start, grain) == timeexpr.period_bounds(time_range.end, grain)


def the_groups_that_moved(query: SemanticQuery, kept: AmbiguousQuestion) -> SemanticQuery:
    """ "哪些渠道GMV环比下降了", "上个月GMV同比下降的品类": every group's change, and the answer names those
    that moved the way said (``premise_asked="which"``). Beside a ranking, a bound, a share or several
    metrics it is asked back (``kept``): a filter on the change Baton does not apply."""
    if query.premise_asked is not None:  # "上个月有GMV环比下降的渠道吗": the yes/no's own verdict
        return query
    if query.threshold is not None and query.threshold.of != "value":  # "增长超过5%的品类有哪些": the bound keeps them
        return query
    if vocab.ONLY_THOSE.search(str(kept.detail.get("phrase", ""))):  # "只看增长的": rows kept, not only named
        raise kept
    groups = bool(query.dimensions) or query.grain is not None
    plain = query.top_n is None and query.rank_place is None and query.threshold is None and not query.share
    if not (groups and plain and query.premise is not None and query.rank_by == "value" and len(query.metrics) == 1):
        raise kept
    if query.comparison is None or query.intent == "why" or query.difference:
        raise kept
    return query.model_copy(update={"premise_asked": "which"})


def ask_back(key: str, detail: dict[str, object], **fields: object) -> AmbiguousQuestion:
    """A question back, in both languages (``fields``: what its message names)."""
    return AmbiguousQuestion(*both(key, **fields), detail=detail)


A_PLACE = patterns.compile(r"第几|多少|\bplace\b|\bposition\b|\brank\b|\bwhere\b|\bhow\b", re.I)
"""A place asked in so many words ("排第几", "where does … rank"), not a bare "排名" (also a ranking
of the groups inside a member: "华南各渠道GMV排名")."""
ACROSS_GROUPS = patterns.compile(r"\bacross\b|\bamong\b|\bover all\b|各.{0,6}之间|所有.{0,6}的平均", re.I)
"""An average said over the groups themselves ("average AOV across channels")."""
CAPITALISED = patterns.compile(r"(?<![A-Za-z0-9_])[A-Z][A-Za-z]+(?![A-Za-z0-9_])")
"""A capitalised Latin word, in an English sentence or between Chinese characters ("2013年JetBlue的")."""
