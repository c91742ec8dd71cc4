"""The rule-based planner: a question in Chinese or English -> SemanticQuery, or a question back.

It works with no LLM, and it accounts for every part of the question, reading in this order:
operators (:mod:`~baton.nlu.cues`: a why and the direction it takes for granted, comparison
and change words, grain, shares, totals, exclusion words, rankings), periods
(:mod:`~baton.nlu.periods` and :mod:`~baton.nlu.timeexpr`: the catalog's calendar events,
every time expression, ranges joined), catalog terms (:mod:`~baton.nlu.lexicon`: metrics,
dimensions, members and the catalog's colloquial phrases) and what joins them
(:mod:`~baton.nlu.reading`), then what is left (:mod:`~baton.nlu.residual`), which must be
filler words. A content word it cannot place is never dropped: the question is asked back
naming it, a metric-like word the catalog does not define is refused with the closest catalog
metrics, and a question that names nothing of the catalog is refused as out of scope. Words
read as something else — traditional characters, a typo of a catalog term
(:mod:`~baton.nlu.typos`), a clause that only sets the scene — are recorded on the query so
the answer states them.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from datetime import date
from functools import cached_property
from typing import Literal, cast, get_args

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Correction, Grain, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, OutOfScope
from baton.messages import both
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.assembly import QueryAssembly
from baton.nlu.bounds import check_against_the_average, currency_of_word
from baton.nlu.catalog_checks import check_share_compared, share_move_said
from baton.nlu.change_words import (
    kept_by_change,
    kept_by_change_of_groups,
    read_change_ranking,
    read_good_as_direction,
    read_yes_no,
    said_direction,
    value_ranked_then_changed,
)
from baton.nlu.cues import (
    Cues,
    claim_comparative,
    claim_comparison_added,
    closing_direction,
    contribution_of_value_or_change,
    read_cues,
    read_kept_periods,
    read_ranking,
)
from baton.nlu.events import event_periods
from baton.nlu.gate import check_question, detect_language
from baton.nlu.guards import (
    CAPITALISED,
    ONLY_BEFORE,
    SUPERLATIVE_WORD,
    a_change_from_a_point_on,
    all_time_beside_a_period,
    ask_back,
    both_members_of_a_distinct_count,
    member_beside_the_whole,
    members_paired_with_periods,
    members_said_of_the_first_metric,
    no_rows_ranked,
    one_member_said_twice,
    the_groups_that_moved,
    the_members_dimension_ranked,
    the_rest_ranked,
    this_period_beside_another,
    total_beside_each_or_a_ranking,
    total_said_before_a_metric,
    until_with_no_start,
    which_of_two_periods,
)
from baton.nlu.lexicon import Hit, normalise, plural_of
from baton.nlu.metric_words import (
    claim_own_tables,
    count_of_an_amount,
    metric_as_a_word_of_another,
    metric_labels,
    metric_over_metric,
    metric_said_whole,
    metrics_near,
    no_part_of_a_metric,
)
from baton.nlu.parts import (
    average_in_a_later_clause,
    each_then_a_share,
    each_then_best,
    each_then_members,
    each_then_which_pass,
    total_then_which,
)
from baton.nlu.periods import (
    a_period_left_out,
    claim_compare_words,
    claim_its_length,
    half_of_the_same_month,
    named_previous,
    resolve_periods,
    until_inside_its_period,
)
from baton.nlu.rank_within import periods_ranked_within, ranked_each_period, ranked_within
from baton.nlu.ranking import check_ranking_inside_ranking, ranking_metric, ranks
from baton.nlu.reading import (
    Member,
    Terms,
    against_the_previous_member,
    compares_members,
    context_clauses,
    member_set_against,
    one_period,
    ratio_of_terms,
)
from baton.nlu.residual import dimension_noun, metricish, the_numbers, to_simplified, unknown_words, where_left
from baton.nlu.scan import Scan
from baton.nlu.shares import ShareMarks, share_marks
from baton.nlu.term_reader import TermReader
from baton.nlu.ties import Reading, read_ties
from baton.nlu.typos import (
    MIN_LENGTH,
    TIME_ABBREVIATIONS,
    TIME_WORDS,
    common_english_word,
    correct,
    correct_cjk,
    expand_abbreviations,
    within_one_edit,
)

_LATEST_WHOLE: dict[str, dict[Language, str]] = {
    "week": {"zh": "上周", "en": "last week"},
    "month": {"zh": "上个月", "en": "last month"},
    "quarter": {"zh": "上季度", "en": "last quarter"},
}


def _periods_kept(scan: Scan) -> bool:
    """Whether the question asks which periods ("哪几周", "which weeks") rather than which groups."""
    return bool(scan.find_all(vocab.PERIOD_AFTER_WHICH) or scan.find_all(_WHICH_PERIODS_EN))


_WHICH_PERIODS_EN = patterns.compile(r"\bwhich\s+(?:days|dates|weeks|months|quarters)\b", re.I)


def _whole_year_is_the_period(scan: Scan, cues: Cues, time_range: TimeRange) -> None:
    """ "占全年的比例" is of the period's total only when the period is a whole year ("2025年各月");
    of a part of a year ("上半年各月GMV占全年") the whole is another period: asked back."""
    said = [scan.text[s:e] for s, e in cues.spans.get("share", []) if _WHOLE_YEAR.search(scan.text[s:e])]
    year = time_range.period_kind == "year" or (
        (time_range.start.month, time_range.start.day, time_range.end.month, time_range.end.day) == (1, 1, 12, 31)
        and time_range.start.year == time_range.end.year
    )
    if said and not year:
        period = time_range.text or f"{time_range.start}~{time_range.end}"
        raise AmbiguousQuestion(*both("nlu.share_of_the_year", word=said[0], period=period), detail={"word": said[0]})


_WHOLE_YEAR = patterns.compile(r"全年|整年|\byear\b", re.I)


def _rate_in_percent(catalog: Catalog, scan: Scan, found: Sequence[Hit], said: Sequence[tuple[int, int]]) -> bool:
    """Whether every share word is a percent word right after a rate ("refund rate pct", "转化率%",
    "conversion rate in percent"): the rate's own unit, a rate being no amount to take a share of."""

    def after_a_rate(start: int) -> bool:
        before = max((h for h in found if h.end <= start), key=lambda h: h.end, default=None)
        if before is None or scan.norm[before.end : start].strip() not in ("", "in", "的"):
            return False
        metrics = [t.target for t in before.terms if t.kind == "metric"]
        return bool(metrics) and all(catalog.metrics[m].unit == "ratio" for m in metrics)

    def of_a_whole(end: int) -> bool:  # "cancel rate % of total": a share asked of a rate, asked back
        return _OF_A_WHOLE.match(scan.norm, end) is not None

    return bool(said) and all(
        _RATE_UNIT.fullmatch(scan.norm[s:e].strip()) and after_a_rate(s) and not of_a_whole(e) for s, e in said
    )


_HOW_MANY_MOVED = patterns.compile(r"几个|多少个")
_OF_A_WHOLE = patterns.compile(r"\s*(?:of|in)\s+(?:the\s+)?(?:total|whole|overall|all)\b|\s*占", re.I)
_COMPARED_CN = patterns.compile(r"(?<!占)比(?![例重])|较")
_HOW_MUCH_AFTER = patterns.compile(r"\s*(?:是|为|有)?(?:多少|几)")
_RATE_UNIT = patterns.compile(r"%|％|pct|percent|percentage|百分比", re.I)


def _the_latest_whole(cues: Cues, language: Language, as_of: date) -> list[timeexpr.PeriodReading]:
    """ "GMV MoM by region", "各品类订单量周环比": a week, month or quarter over the one before,
    with no period said, is the latest whole one against its predecessor — named in the
    interpretation with its dates ("last month (2026-06-01 to 2026-06-30)")."""
    unit = cues.window[1] if cues.comparison_kind == "previous_period" and cues.window and cues.window[0] == 1 else None
    said = _LATEST_WHOLE.get(unit or "", {}).get(language)
    match = timeexpr.parse_time_range(said, as_of) if said is not None else None
    if match is None:
        return []
    return [timeexpr.PeriodReading(span=(0, 0), match=dataclasses.replace(match, span=(0, 0)))]


_DAY_APART = patterns.compile(r"当天|当日|那天|那一天|\bthat day\b|\bthe day itself\b", re.I)
"""A day word said apart from the event it would be the day of: not read as a filler."""

_YES_NO_THEN_A_CLAUSE = patterns.compile(
    r"^(?P<head>.*?(?:吗|么|没有)\s*[?？]?)\s*[，,]\s*(?P<tail>[^，,。？?]{1,16}?)\s*[?？。]?\s*$"
)


def _period_said_last(text: str, as_of: date) -> str:
    """ "直播的退款率比APP高吗，上个月": a yes/no question whose period follows it in a clause of its
    own reads as if said first ("上个月直播的退款率比APP高吗"), so the words that close the
    question (高吗) close it still."""
    m = _YES_NO_THEN_A_CLAUSE.match(text)
    periods = timeexpr.read_periods(m.group("tail"), as_of) if m is not None else []
    if m is None or len(periods) != 1 or periods[0].match is None:
        return text
    tail = m.group("tail")
    start, end = periods[0].span
    return text if tail[:start].strip() or tail[end:].strip() else tail.strip() + m.group("head")


_SET_AGAINST_BEFORE = patterns.compile(
    r"(?:比|较|和|跟|与|同|对比|相比|截至|截止到?|直到|到|至|从|自|以来|之前|以前|\bvs\.?|\bthan|\bversus|\bwith|\bto"
    r"|\buntil|\btill|\bthrough|\bthru|\bby|\bbefore|\bsince|\bfrom|\bafter)\s*$",
    re.I,
)
"""Words a period is set against or anchored to ("比上个月", "截至上个月", "through June"): it stays."""


def _period_before_a_bound(text: str, as_of: date) -> str:
    """ "家电退款率上个月超过5%了吗", "refund rate last month above 5%?": a period said between a metric
    and its bound reads as if said first, so the bound is read beside its metric. A period set
    against something ("比上个月超过…") is left where it is."""
    periods = timeexpr.read_periods(text, as_of)
    if len(periods) != 1 or periods[0].match is None:
        return text
    start, end = periods[0].span
    head, tail = text[:start].rstrip(), text[end:].lstrip()
    bound = vocab.THRESHOLD.match(normalise(tail))
    if not head or bound is None or bound.group("op") is None or _SET_AGAINST_BEFORE.search(head):
        return text
    said = text[start:end].strip()
    sep = " " if head[-1:].isascii() or tail[:1].isascii() else ""
    return f"{said}{' ' if said[-1:].isascii() else ''}{head}{sep}{tail}"


def _forecast_asked(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> bool:
    """What a period still running (or not begun) will come to: not a figure of days past — the
    peak day so far ("今年单日GMV最高能到多少") and a period to date by its words ("5月以来") are."""
    if vocab.SO_FAR.search(scan.norm) or vocab.PEAK_SO_FAR.search(scan.norm):
        return False
    running = any(p.match is not None and p.match.clamped for p in periods)
    to_come = any(p.match is None and "latest_complete_day" in getattr(p.error, "detail", {}) for p in periods)
    return running or to_come


_A_MOVE = patterns.compile(r"变|涨|跌|增|降|升|掉|减|\bchang|\bmov|\bgr[eo]w|\brise|\brose|\bfell|\bfall|\bdrop", re.I)
"""A change word that says a move over time ("变化了多少", "grew"), not a comparative ("高吗")."""


def _a_move(scan: Scan, cues: Cues) -> bool:
    spans = [*cues.spans.get("change", []), *cues.spans.get("up", []), *cues.spans.get("down", [])]
    return any(_A_MOVE.search(scan.norm[a:b]) for a, b in spans)


def _no_move_dropped(scan: Scan, cues: Cues, query: SemanticQuery) -> None:
    """A move asked ("APP和网页上个月GMV分别涨了多少") that the query compares with no other period
    (and is no why, and no series, which shows the move) would answer the levels alone: asked back."""
    if query.comparison is None and query.grain is None and query.intent != "why" and _a_move(scan, cues):
        raise ask_back("nlu.move_without_base", {"reason": "move_without_base"})


_ACROSS = patterns.compile(r"\bacross\b", re.I)
_SET_AGAINST = patterns.compile(r"(?:和|跟|与|同|\bwith\b|\bvs\.?|\bthan\b|\bto\b)[^，,。;；]{0,8}$", re.I)


def _two_ends(scan: Scan, cues: Cues, terms: Terms) -> bool:
    """A ranking's highest and lowest, or its top (or bottom) two: the rows a gap word sets apart —
    a top two only when nothing else is set against it ("最高的两个区域和最低的区域差多少", "the top
    two and East China": asked back)."""
    if cues.both_ends:
        return True
    ends_said = len(vocab.BEST.findall(scan.norm))
    named = any(not m.excluded for m in terms.members)
    return cues.top_n == 2 and cues.rank_place is None and ends_said <= 1 and not named


def _each_period_of_a_range(
    scan: Scan, cues: Cues, terms: Terms, periods: Sequence[timeexpr.PeriodReading], context: SemanticQuery | None
) -> None:
    """ "三四月份华东的买家数分别是多少", "Q1 to Q2 GMV, each", "3-4月GMV分别同比多少": "each" said of a
    range of whole periods, and of nothing else the question lists (two metrics, two members, a
    breakdown, a period and the base listed with it — "1-3月的GMV和去年同期分别是多少" —, or what a
    follow-up keeps of the question before), asks for each period — a series by the range's own
    period, never one figure of the range. "each" before a noun counts a unit ("how much was each
    order worth")."""
    if cues.grain is not None or len(periods) != 1 or periods[0].ends is None:
        return
    spans = cues.spans.get("separately", [])
    if not any(
        _EACH_OF_THE_PERIODS.fullmatch(scan.norm, s, len(scan.norm))
        or scan.norm[s:e].strip().lower() not in ("each", "every")
        for s, e in spans
    ):
        return
    said_compared = [scan.norm[s:e].strip() for s, e in cues.comparison_spans()]
    # "3-4月GMV分别同比多少": each month's rate; a base said as a period ("去年同期和3-4月…分别") is listed
    base_listed = any(not _RATE_WORD.fullmatch(w) for w in said_compared) or (cues.change and not said_compared)
    listed_before = context is not None and any(len(f.members) > 1 and not f.exclude for f in context.filters)
    inherited = context is not None and (len(context.metrics) > 1 or bool(context.dimensions) or listed_before)
    if base_listed or inherited or len(terms.metrics) > 1 or terms.dims or _members_listed(terms):
        return
    grain = periods[0].ends[0].grain
    if grain in get_args(Grain):  # halves and weekends are no series grain: left as said
        cues.grain = cast("Grain", grain)


_EACH_OF_THE_PERIODS = patterns.compile(
    r"(?:each|every)(?:\s+(?:of\b.*|one\b.*|(?:day|week|month|quarter|year|period)s?\b.*))?\s*[?.!]?\s*$", re.I
)
"""A bare "each" said of the periods ("Q1 to Q2 GMV, each", "in each of January to March"), never
of a unit after it ("each order")."""
_RATE_WORD = patterns.compile(
    r"(?:日|周|月|季度?|年)?(?:同比|环比)|yoy|mom|wow|qoq|(?:year|month|week|quarter)[- ]o(?:ver|n)[- ](?:year|month|week|quarter)",
    re.I,
)
"""A comparison said as a rate of each period ("同比", "MoM"), never a base listed beside the range
("1-3月的GMV和去年同期分别是多少": the two totals)."""


def _members_listed(terms: Terms) -> bool:
    """Whether the question lists two or more members of one dimension ("华东和华南"), which an
    "each" may be said of; one member is a filter."""
    kept = Counter(m.dimension for m in terms.members if not m.excluded)
    return any(n > 1 for n in kept.values())


def _plain_one_period(cues: Cues, periods: list[timeexpr.PeriodReading]) -> bool:
    """One period and no comparison of periods named ("比上月", "同比", "a week earlier")."""
    return one_period(periods) and cues.comparison_kind is None and not cues.earlier and not cues.why


def _across_the_groups(scan: Scan, cues: Cues, terms: Terms, periods: list[timeexpr.PeriodReading]) -> bool:
    """A compare word beside a breakdown and one period, with no change or comparison asked and
    nothing it is set against ("和上月相比"): the groups side by side, which the breakdown is
    ("新老用户GMV对比")."""
    plain = not (cues.change or cues.comparison_kind or cues.earlier or cues.why)
    named = any(not m.excluded for m in terms.members if m.dimension in terms.dims)
    compares = list(vocab.COMPARE.finditer(scan.norm))
    against = any(_SET_AGAINST.search(scan.norm[: m.start()]) for m in compares)
    # "by user type, vs the first week of May": the groups against a period, never side by side
    of_a_period = any(
        p.span[0] >= m.end() and scan.norm[m.end() : p.span[0]].strip() in ("", "the")
        for m in compares
        for p in periods
    )
    return bool(terms.dims) and one_period(periods) and plain and not named and not against and not of_a_period


def _members_compared(scan: Scan, cues: Cues) -> None:
    """Members compared with each other are one row each, never a change over time ("华东的GMV比华南多
    多少"); the gap is asked by a gap word, a ratio, or a yes/no of which is higher ("华东比华南更高吗")."""
    which_asked = cues.change and cues.yes_no
    cues.change = False
    cues.difference = cues.difference or cues.ratio or vocab.GAP.search(scan.norm) is not None or which_asked
    if cues.difference and cues.top_n is None and cues.rank_place is None:
        cues.best = False  # "how much higher was A than B": the gap, not which is higher


def _bounded_last(cues: Cues, terms: Terms) -> None:
    """ "订单量超过8000的品类的退款率": with no ranking, the metric a floor bounds goes last, after
    the one listed for the groups it keeps."""
    bound = cues.bound
    if ranks(cues) or bound is None or bound.floor is None or bound.term is None or len(terms.metrics) != 2:
        return
    hit = next((h for h in terms.metric_hits if (h.start, h.end) == bound.term), None)
    bounded = {t.target for t in hit.terms if t.kind == "metric"} if hit is not None else set()
    if terms.metrics[0] in bounded and terms.metrics[1] not in bounded:
        terms.metrics.reverse()


_RANKED_BEFORE = patterns.compile(
    r"\b(?:top|bottom|best|worst|highest|lowest|largest|smallest)\s+(?:\d+|one|two|three|four|five|ten)?\s*$", re.I
)
_OPERATOR_AFTER = patterns.compile(r"\s*(?:(?:of|in|for|between|from|on|vs\.?|versus|against)\b|[?？.!]|$)", re.I)
_OPERATOR_BEFORE = patterns.compile(r"\b(?:the|a|what'?s|what\s+is|show)\s+$", re.I)
"""What stands beside a change word said as one ("Delta of flights", "the Delta vs November", "what's
the Delta?"): the word is then asked about, never read as the name it begins."""
_BY_A_METRIC = patterns.compile(r"\s+by\s+(?:the\s+)?", re.I)
_WITH_A_BOUND = patterns.compile(
    r"\s+(?:with|having|(?:that|which|who)?\s*(?:had|have|has|got|saw|received|made))\s+"
    r"(?:more|fewer|less|over|under|above|below|at\s+least|at\s+most|no\s+(?:more|fewer|less)|[<>≥≤]|\d)",
    re.I,
)
"""What stands between a plural noun and the bound of another metric ("listings with more than 5 bookings")."""


class Planner(TermReader, QueryAssembly):
    """Turns questions into SemanticQuery objects over one catalog."""

    @cached_property
    def _vocabulary(self) -> list[str]:
        """Latin-script catalog terms and time words a typo may be read as — never a function
        word of a term's name ("WoW" is not "how": a word read as filler would be dropped)."""
        words = [
            w
            for surfaces in self.lexicon.all_surfaces()
            for w in surfaces.split()
            if w.isascii() and w.lower() not in vocab.EN_FILLERS
        ]
        # "seperately", "exluding": long operator words only ("www" is not a misspelt "wow")
        return [*words, *TIME_WORDS, *(w for w in vocab.OPERATOR_WORDS if len(w) >= 5)]

    @cached_property
    def _member_heads(self) -> dict[str, list[str]]:
        """The first word of each several-word member name ("delta" of "Delta Air Lines Inc.")
        that is not a catalog term of its own or a common English word -> those members."""
        heads: dict[str, list[str]] = {}
        own = set(self.lexicon.all_surfaces())
        common = {*vocab.EN_FILLERS, *vocab.COMMON_EN, *vocab.OPERATOR_WORDS, *vocab.METRICISH_EN}
        for dim in self.catalog.dimensions.values():
            for member in dim.members.values():
                for name in (member.label.en, *member.synonyms):
                    words = name.split()
                    head = normalise(words[0]) if len(words) > 1 and words[0].isalpha() else ""
                    if head and head not in own and head not in common and member.label.en not in heads.get(head, []):
                        heads.setdefault(head, []).append(member.label.en)
        return heads

    @cached_property
    def _members_by_first_word(self) -> dict[tuple[str, str], list[tuple[str, str]]]:
        """(dimension, first word of a several-word member label) -> (member, its label)."""
        out: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for dim_name, dim in self.catalog.dimensions.items():
            for key, member in dim.members.items():
                words = member.label.en.split()
                if len(words) > 1 and words[0].isalpha():
                    out.setdefault((dim_name, normalise(words[0])), []).append((key, member.label.en))
        return out

    def _no_longer_member_begun(self, found: list[Hit]) -> None:
        """ "Airbus flights": a word naming one member (AIRBUS) that also begins the name of another
        of its dimension (AIRBUS INDUSTRIE) is asked back — the data may spell one maker twice —,
        never read as the one it names exactly, the other left out unsaid. Both named is no question,
        nor a word the catalog gave the member as a synonym ("north" for North China)."""
        named = {t.target for h in found for t in h.terms if t.kind == "member"}
        for hit in found:
            for term in hit.terms:
                if term.kind != "member":
                    continue
                dim, key = term.target.split(":", 1)
                if term.surface in self.catalog.dimensions[dim].members[key].synonyms:
                    continue
                said = normalise(hit.text)
                begun = self._members_by_first_word.get((dim, said.split()[0] if said.split() else said), [])
                others = [
                    label
                    for k, label in begun
                    if k != key and f"{dim}:{k}" not in named and normalise(label).startswith(f"{said} ")
                ]
                if others:
                    member = self.catalog.dimensions[dim].members[key].label.en
                    raise AmbiguousQuestion(
                        *both("nlu.member_and_longer", word=hit.text, member=member, others=", ".join(others[:5])),
                        detail={"word": hit.text, "suggestions": [member, *others[:5]]},
                    )

    def _partial_members(self, text: str, found: list[Hit]) -> tuple[str, list[Correction]]:
        """A capitalised word that begins a member's name ("Delta" for "Delta Air Lines Inc.") names
        that member in part: the one member it begins is read in full, and the answer says so; the
        word that begins several, or that is also an operator word ("Delta of flights, June vs May": the
        change?), is asked back — never read as one or the other unsaid."""
        corrections: list[Correction] = []
        for word in reversed(list(CAPITALISED.finditer(text))):  # from the end: earlier offsets stay put
            if any(h.start <= word.start() < h.end for h in found):
                continue
            members = self._member_heads.get(normalise(word.group()))
            # "the Delta in flights", "Delta of orders": the change; "did Delta fly", "Delta flights": the name
            # in Chinese, asked for after a comparison ("12月比11月航班数Delta是多少"), the word may be the change
            beside_cjk = _HOW_MUCH_AFTER.match(text, word.end()) and _COMPARED_CN.search(text, 0, word.start())
            operator = vocab.CHANGE_WORDS.fullmatch(normalise(word.group())) is not None and (
                _OPERATOR_AFTER.match(text, word.end()) is not None
                or _OPERATOR_BEFORE.search(text, 0, word.start()) is not None
                or not text[: word.start()].strip()
                or beside_cjk is not None
            )
            if members and (len(members) > 1 or operator):
                named = ", ".join(members[:5])
                raise AmbiguousQuestion(
                    *both("nlu.partial_member", word=word.group(), members=named),
                    detail={"word": word.group(), "suggestions": members[:5]},
                )
            if members:
                text = text[: word.start()] + members[0] + text[word.end() :]
                corrections.insert(0, Correction(written=word.group(), read_as=members[0], kind="partial"))
        return text, corrections

    def _an_average_by_name(self, hit: Hit) -> bool:
        """A term naming only metrics whose label says they are averages ("Average departure delay")."""
        metrics = [t.target for t in hit.terms if t.kind == "metric"]
        return (
            bool(metrics)
            and len(metrics) == len(hit.terms)
            and all(vocab.AVERAGE.match(self.catalog.metrics[m].label.en.strip()) for m in metrics)
        )

    @cached_property
    def _cjk_surfaces(self) -> dict[str, str]:
        """Chinese catalog terms and what each names, for one-character typos."""
        return {
            surface: target
            for kind in ("metric", "dimension", "member")
            for target, surfaces in self.lexicon.surfaces(kind).items()
            for surface in surfaces
            if not surface.isascii()
        }

    def _read_kept(
        self, question: str, as_of: date, prefer: Sequence[str], kept: AmbiguousQuestion | None
    ) -> tuple[Reading, AmbiguousQuestion | None]:
        """The question read, with the groups a move keeps (``kept``) read as such. A move said
        before a dimension word ("GMV环比下降的区域有几个") is found only with the catalog's words:
        when the first read leaves a word unread, they are looked for, and the question read again
        keeping those groups — the extra scan only on that path."""
        try:
            return self.read(question, as_of=as_of, prefer=prefer, which_moved=kept is not None), kept
        except AmbiguousQuestion as asked:
            unread = "unknown" in (asked.detail or {})
            if kept is not None and unread:  # a word of the filter left unread
                raise kept from None
            scan = Scan(text=question, norm=normalise(question))
            groups = kept_by_change_of_groups(scan, self.lexicon.find(question)) if unread else None
            if groups is None:
                raise
        try:
            return self.read(question, as_of=as_of, prefer=prefer, which_moved=True), groups
        except AmbiguousQuestion as asked:
            if "unknown" in (asked.detail or {}):
                raise groups from None
            raise

    # -- public ---------------------------------------------------------------------------
    def plan(
        self, question: str, *, as_of: date, default_breakdown: str | None = None, prefer: Sequence[str] = ()
    ) -> SemanticQuery:
        """The question as a SemanticQuery, or a typed error: asked back (``AmbiguousQuestion``),
        refused (``UnknownMetric``, ``OutOfScope``, ``QuestionRefused``) or a period that is not
        one (``TimeExpressionError``). Periods are read relative to ``as_of``. A breakdown asked
        for without naming its dimension ("拆开看看", "top 3") is asked back, or — given a
        ``default_breakdown`` the metrics allow (a user's remembered default) — by that one.
        ``prefer``: metrics that break a tie between metrics a word names equally (a user's
        favourites; the caller states the choice)."""
        kept = kept_by_change(question)
        check_against_the_average(question)
        check_ranking_inside_ranking(question)
        read, kept = self._read_kept(question, as_of, prefer, kept)
        kept = kept or kept_by_change_of_groups(read.scan, read.terms.hits)
        cues, terms = read.cues, read.terms
        listed = _members_listed(terms)  # "1月和2月华东的买家数分别是多少": each month, 华东 only a filter
        cues.side_by_side = cues.separately and not (cues.total or cues.breakdown or terms.dims or listed)
        time_range, comparison = resolve_periods(read.scan, read.cues, read.periods)
        if cues.share_contributed and comparison is not None and not cues.change and cues.premise is None:
            raise contribution_of_value_or_change(cues.share_contributed)  # "上个月GMV环比，哪个渠道贡献最大"
        _whole_year_is_the_period(read.scan, read.cues, time_range)
        if comparison is not None:
            members_paired_with_periods(read.scan, read.periods, read.terms)
        the_rest_ranked(read.cues, read.terms)
        the_members_dimension_ranked(read.cues, read.terms)
        if (
            default_breakdown is not None
            and not read.terms.dims
            and not read.terms.dims_naming_a_set  # "regions other than East China": never another dimension
            and not read.cues.distribution  # "笔单价分布": over which dimension is asked back
            and self.breakdown_fits(read.terms.metrics, default_breakdown)
        ):
            read.terms.dims.append(default_breakdown)
        bounded = read.cues.bound.term if read.cues.bound is not None else None
        placed = [*read.scan.members, *(span for period in read.periods for span in period.spans)]
        for noun in metric_as_a_word_of_another(self.catalog, read.scan, read.terms.metric_hits, bounded, placed):
            # "average delay for flights": "flights" names the rows averaged over, not a second metric
            read.terms.metric_hits.remove(noun)
            read.terms.metrics = [m for m in read.terms.metrics if m not in {t.target for t in noun.terms}]
        count_of_an_amount(self.catalog, read.scan, read.terms.metric_hits)
        metric_over_metric(read.scan, read.terms.metric_hits)
        members_said_of_the_first_metric(read.scan, read.terms)
        one_member_said_twice(self.catalog, read.scan, read.terms)
        both_members_of_a_distinct_count(self.catalog, read.scan, read.terms)
        total_said_before_a_metric(read.scan, read.cues, read.terms)
        total_beside_each_or_a_ranking(read.scan, read.cues, read.terms)
        each_then_which_pass(read.scan, read.cues, read.terms)
        apart = each_then_members(read.scan, read.terms)
        if apart is not None:  # "各区域GMV，以及华东比华南高多少": every region, then two of them
            raise self.each_then_members(*apart, next(iter(read.terms.metrics), None))
        member_beside_the_whole(read.scan, read.cues, read.terms)
        average_in_a_later_clause(read.scan, read.cues, read.terms)
        self._kept_and_excluded(read.cues, read.terms)
        if read.cues.bound is not None and len(read.terms.metrics) >= 2:  # "listings with more than 5 bookings"
            self._noun_as_groups(read.scan, read.terms, bound=read.cues.bound.term)
        self._ranked_first(read.scan, read.cues, read.terms)
        _bounded_last(read.cues, read.terms)
        read.cues.rank_within = ranked_within(read.scan, read.cues, read.terms)
        if read.cues.rank_within is None:  # "每个渠道GMV最高的月份": the top period of each group
            read.cues.rank_within = periods_ranked_within(read.scan, read.cues, read.terms)
        read.cues.rank_each_period = ranked_each_period(read.scan, read.cues, read.terms)
        no_rows_ranked(read.scan, read.cues)
        # "其他渠道都…吗": each of the rest; "每天…都" is of the days, never of the rest
        all_said = vocab.ALL_OF_THEM.search(read.scan.norm) is not None or (read.cues.every and read.cues.grain is None)
        if read.cues.yes_no and read.terms.dims_naming_a_set and all_said:
            summed = vocab.SUM_SAID.search(read.scan.norm) is not None
            read.cues.every = read.cues.every or vocab.ALL_EACH_EN.search(read.scan.norm) is not None
            read.cues.all_of_them = "sum" if summed else "each" if read.cues.every else "unsaid"
        terms = read.terms
        marks = share_marks(read.scan, terms.members, terms.dims, terms.hits) if read.cues.share else ShareMarks()
        query = self.build(read.cues, terms, time_range, comparison, read.corrections, as_of, marks=marks)
        _no_move_dropped(read.scan, read.cues, query)
        check_share_compared(query, read.scan.norm)
        query = share_move_said(query, read.scan, read.cues.spans)
        self._unit_in_currency(query, read.cues.unit_currency)
        return query if kept is None or query.contribution else the_groups_that_moved(query, kept)

    def _unit_in_currency(self, query: SemanticQuery, currency: str | None) -> None:
        """ "上个月GMV多少万美元" of a CNY metric: Baton does not convert — asked back, never the CNY figure."""
        for metric in query.metrics if currency is not None else ():
            own = self.catalog.currency_of(metric)
            if own is None or own.upper() != currency:  # another currency, or no amount of money at all
                label = self.catalog.metrics[metric].label
                key = "nlu.unit_currency" if own is not None else "nlu.unit_not_money"
                raise AmbiguousQuestion(
                    *(message(key, lang, metric=label.for_lang(lang), currency=own or "") for lang in LANGUAGES),
                    detail={"reason": "unit_currency", "metric": metric, "currency": currency},
                )

    def _kept_and_excluded(self, cues: Cues, terms: Terms) -> None:
        """ "app excluding web": a member kept and then another of its dimension excluded — the
        exclusion does nothing, so the words were meant otherwise (a gap, a mistake); asked back by
        name. Said first ("除了APP，小程序的GMV": besides app, mini program) it sets the member
        apart, and in a share it takes the member out of the whole."""
        if cues.share:
            return
        kept = [m for m in terms.members if not m.excluded]
        for m in terms.members:
            before = [k for k in kept if k.dimension == m.dimension and k.member != m.member]
            other = next((k for k in before if k.hit.start < m.hit.start), None)
            if m.excluded and other is not None:
                labels = {
                    f"{field}{suffix}": label
                    for lang, suffix in (("en", ""), ("zh", "_zh"))
                    for field, label in (
                        ("dimension", self.catalog.dimensions[m.dimension].label.for_lang(lang)),
                        ("kept", self.catalog.member_label(m.dimension, other.member, lang)),
                        ("excluded", self.catalog.member_label(m.dimension, m.member, lang)),
                    )
                }
                raise AmbiguousQuestion(
                    *both("nlu.kept_and_excluded", **labels),
                    detail={"kept": other.member, "excluded": m.member, "dimension": m.dimension},
                )

    def _ranked_first(self, scan: Scan, cues: Cues, terms: Terms) -> None:
        """Several metrics and a ranking: the metric ranked by goes first (the compiler ranks by
        the first); one the words do not attach the ranking to is asked back."""
        if not ranks(cues) or len(terms.metrics) < 2:
            return
        self._noun_as_groups(scan, terms)
        if len(terms.metrics) < 2:
            return
        first = ranking_metric(scan, terms.metric_hits, terms.metrics)
        if first is None:
            labels = metric_labels(self.catalog, terms.metrics, sep="answer.or_sep")
            raise AmbiguousQuestion(
                *(message("nlu.rank_metric", lang, metrics=labels[lang]) for lang in LANGUAGES),
                detail={"metrics": list(terms.metrics), "reason": "rank_metric"},
            )
        terms.metrics.remove(first)
        terms.metrics.insert(0, first)

    def _noun_as_groups(self, scan: Scan, terms: Terms, bound: tuple[int, int] | None = None) -> None:
        """ "top 3 listings by booking value", "listings with more than 5 bookings": a count named like
        a dimension in the plural ("listings" of the dimension "listing"), ranked by another metric
        said after "by" — or bounded by another said right after "with"/"that had" (``bound``: the
        span of the metric the bound is of) — names the groups, never a second metric beside."""
        for hit in list(terms.metric_hits):
            named = {t.target for t in hit.terms if t.kind == "metric"}
            if len(named) != 1:
                continue
            if bound is None:
                after = _BY_A_METRIC.match(scan.norm, hit.end)
                if after is None or _RANKED_BEFORE.search(scan.norm, 0, hit.start) is None:
                    continue
                if not any(h.start == after.end() for h in terms.metric_hits if h is not hit):
                    continue
            elif not (_WITH_A_BOUND.match(scan.norm, hit.end) and hit.end < bound[0]):
                continue
            others = [m for m in terms.metrics if m not in named]
            dims = [
                name
                for name, dim in self.catalog.dimensions.items()
                if normalise(hit.text) in {normalise(p) for p in map(plural_of, (dim.label.en, *dim.synonyms)) if p}
                and self.breakdown_fits(others, name)
            ]
            if len(dims) == 1 and others:
                terms.metric_hits.remove(hit)
                terms.metrics = others
                if dims[0] not in terms.dims:
                    terms.dims.append(dims[0])
                return

    def breakdown_fits(self, metrics: Sequence[str], dimension: str) -> bool:
        """Whether every metric may be broken down by ``dimension``."""
        return dimension in self.catalog.dimensions and all(
            dimension in self.catalog.metrics[m].dimensions for m in metrics
        )

    def read(
        self,
        question: str,
        *,
        as_of: date,
        context: SemanticQuery | None = None,
        prefer: Sequence[str] = (),
        which_moved: bool = False,
    ) -> Reading:
        """Every part of the question read and accounted for, before a query is built. With a
        ``context`` (the question follows an earlier one) the question may leave out what it
        inherits — its metric, its period — and the words that tie it to the earlier question
        ("那…呢", "what about", "只看", "换成") are read as such. ``which_moved``: the question keeps
        the groups that moved one way ("哪些渠道下降了"), its 哪些 the groups the answer names."""
        text, corrections = self._prepare(question)
        text = half_of_the_same_month(_period_before_a_bound(_period_said_last(text, as_of), as_of))
        language: Language = "zh" if detect_language(text) == "zh" else "en"
        found = self.lexicon.find(text)
        self._no_code_in_lower_case(text, found)
        self._no_longer_member_begun(found)
        text, whole_names = self._partial_members(text, found)
        if whole_names:  # "Delta": Delta Air Lines Inc., read in full and said so
            corrections = (*corrections, *whole_names)
            found = self.lexicon.find(text)
        scan = Scan(text=text, norm=normalise(text))
        scan.terms = [(hit.start, hit.end) for hit in found]
        scan.members = [(hit.start, hit.end) for hit in found if "member" in hit.kinds]
        scan.metrics = [(hit.start, hit.end) for hit in found if "metric" in hit.kinds]
        scan.averages = [(hit.start, hit.end) for hit in found if self._an_average_by_name(hit)]
        refused = next((hit for hit in found if hit.kinds == {"refused"}), None)
        if refused is not None:  # named whole ("flights month to date"): refused before its words are read as a period
            raise self.refused_metric(refused.terms[0].target)
        ties = read_ties(scan) if context is not None else None
        moved_before = _moved_before(context)
        cues = read_cues(scan, follows=context is not None, moved_before=moved_before)
        cues.as_of = as_of
        cues.share = cues.share and not _rate_in_percent(self.catalog, scan, found, cues.spans.get("share", []))
        claim_comparison_added(scan, cues, compared_already=context is not None and context.comparison is not None)
        periods = event_periods(self.catalog.calendar, scan, as_of)
        for period in periods:
            scan.claim(*period.span)
        for apart in scan.find_all(_DAY_APART) if periods else ():  # "双11整个活动期间的GMV，以及当天的": which day?
            cues.unsupported.append(scan.text[apart.start() : apart.end()])
            scan.claim(apart.start(), apart.end())
        periods += timeexpr.read_periods(scan.residual_for_periods(vocab.PERIOD_AFTER_A_TERM), as_of, said=scan.text)
        for period in periods:
            for span in period.spans:
                scan.claim(*span)
        if cues.will_be and _forecast_asked(scan, periods):  # "今年GMV能有多少", "what will GMV be next month"
            raise OutOfScope(*both("nlu.forecast"), detail={"reason": "forecast"})
        periods.sort(key=lambda p: p.span)
        claim_its_length(scan, periods)
        periods = until_inside_its_period(scan, periods)
        periods, left_out = a_period_left_out(scan, periods, as_of, context.time_range if context else None)
        if left_out is not None:  # "Q2 excluding June, app only": the word left June out, no member
            cues.exclusions = [c for c in cues.exclusions if not (left_out[0] <= c.start() < left_out[1])]
        for period in periods:
            scan.claim(*period.span)
        until_with_no_start(scan, periods)
        all_time_beside_a_period(scan, cues, periods)
        this_period_beside_another(scan, periods)
        a_change_from_a_point_on(cues, periods)
        periods = named_previous(scan, cues, cues.spans.get("previous_period", []), periods, as_of)
        if not periods and context is None:
            if which_moved and _periods_kept(scan):  # "which weeks fell wow": over which weeks? never the last one
                raise AmbiguousQuestion(*both("nlu.which_period"), detail={"missing": "time_range"})
            periods = _the_latest_whole(cues, language, as_of)
        read_ranking(scan, cues)
        groups_named = any(h.kinds & {"dimension", "member"} for h in found)
        two_periods_compared = which_of_two_periods(cues, periods, groups_named=groups_named)
        cues.ranked_change = read_change_ranking(scan, cues)
        cues.value_ranked = value_ranked_then_changed(scan, cues)
        cues.premise = cues.premise if cues.why else said_direction(scan, cues, measures=False)
        read_yes_no(scan, cues)
        if not cues.why and (cues.yes_no or which_moved):
            cues.premise = cues.premise or closing_direction(scan, cues)  # "6月GMV比5月高吗": higher is asked
            if which_moved and cues.premise is not None:
                claim_comparative(scan, cues)
            for which in scan.find_all(vocab.ANY_GROUP) if cues.premise and cues.any_group else ():
                if which.group("which"):  # "有没有哪个渠道涨了": "哪个" says any one of them
                    scan.claim(which.start("which"), which.end("which"))
            for asked in scan.find_all(vocab.YES_NO) if cues.premise or cues.best else ():  # "有没有比去年同期多"
                if scan.free(asked.start(), asked.end()):
                    scan.claim(asked.start(), asked.end())
        spans_of_periods = {p.span for p in periods}
        operators = [c for c in scan.claimed if c not in spans_of_periods]
        terms = self._read_terms(scan, cues, language, context=context, ties=ties, prefer=prefer)
        corrections = (*corrections, *terms.ratios_read)
        _each_period_of_a_range(scan, cues, terms, periods, context)
        if cues.best and each_then_best(scan, terms):  # "各区域退款率多少，哪个最高": every group, highest first
            cues.several, cues.rank = True, True
            if cues.which_time:  # "今年各月新增用户数，以及哪个月最多": every month, the most first
                cues.top_n = None
        elif (cues.best or cues.top_n is not None) and total_then_which(scan, terms, bounded=cues.bound is not None):
            # "上个月GMV多少，哪个区域最高": the total, then a ranking; the examples name the question's own terms
            own = {"metric_name": next(iter(terms.metrics), None), "dimension": next(iter(terms.dims), None)}
            raise AmbiguousQuestion(*self.with_examples("nlu.total_then_which", **own), detail={})
        for shown in each_then_a_share(scan, cues, terms):  # "各渠道的订单量，以及直播的占比": every channel's
            terms.members.remove(shown)
        cues.narrowed = frozenset(
            m.dimension for m in terms.members if ONLY_BEFORE.search(scan.norm, 0, m.hit.start) and not m.excluded
        )
        moved = terms.metrics or (list(context.metrics) if context is not None else [])
        if moved:  # "refund rate improved the most": a fall, as lower is better
            read_good_as_direction(scan, cues, self.catalog.metrics[moved[0]].better)
        self._pair_of_the_breakdown(scan, cues, terms, periods)
        self._no_gap_of_two_metrics(scan, cues, terms, periods)
        self._no_average_across_groups(cues, terms, scan)
        self._no_count_of_a_rate(corrections, found)
        if compares_members(cues, terms, periods):
            hits = sorted((m.hit for m in terms.members), key=lambda h: h.start)
            contrasted = vocab.COMPARE.search(scan.norm[hits[0].start : hits[-1].end]) is not None
            if cues.total and contrasted:  # "app and web combined vs mini program": a sum against a member
                raise ask_back("nlu.sum_against_member", {"members": [m.member for m in terms.members]})
            if contrasted and _a_move(scan, cues) and cues.comparison_kind is None and len(periods) < 2:
                # "APP的退款率比网页变化了多少": the gap between the two, or each one's change? asked
                raise ask_back("nlu.members_change_or_gap", {"members": [m.member for m in terms.members]})
            _members_compared(scan, cues)
            named = Counter(d for d, _ in {(m.dimension, m.member) for m in terms.members if not m.excluded})
            if cues.difference and 2 not in named.values():  # "华东、华南和华北的GMV差多少": which two?
                raise ask_back("nlu.gap_of_two", {"members": [m.member for m in terms.members]})
            if context is not None and (cues.difference or contrasted):  # "华东是东北的几倍" as a follow-up
                cues.members_apart = next(d for d, n in named.items() if n > 1)
            claim_compare_words(scan, [])
        elif context is not None and (against := member_set_against(scan, cues, terms, periods)) is not None:
            if not against_the_previous_member(against, context):  # "上个月GMV" then "比华东高吗": against what?
                raise AmbiguousQuestion(*both("conversation.gap_in_one_question"), detail={"follow_up": True})
            cues.members_apart, cues.against_previous = against.dimension, True  # "手机的订单量" then "比食品多吗"
            _members_compared(scan, cues)
            claim_compare_words(scan, [])
        elif (
            _two_ends(scan, cues, terms)
            and (cues.ratio or vocab.GAP.search(scan.norm))
            and _plain_one_period(cues, periods)
        ):
            # "GMV最高和最低的区域差多少", "最高的两个渠道差多少": the gap of a ranking's two ends
            cues.change, cues.difference = False, True
            claim_compare_words(scan, [])  # "最高的渠道比最低的高多少"
        elif (cues.top_n or 0) > 2 and vocab.GAP_BETWEEN.search(scan.norm) and _plain_one_period(cues, periods):
            raise ask_back("nlu.gap_of_two", {"top_n": cues.top_n})  # "GMV前三的渠道差多少": which two of the three?
        elif _across_the_groups(scan, cues, terms, periods):  # "上个月各渠道GMV对比", "compare GMV across channels"
            for said in scan.find_all(_ACROSS):
                scan.claim(said.start(), said.end())
            claim_compare_words(scan, [])
        ranked_words = [scan.norm[a:b] for a, b in cues.spans.get("ranking", [])]
        superlative = any(SUPERLATIVE_WORD.search(w) for w in ranked_words)
        if cues.why and cues.top_n is None and cues.rank_place is None and not superlative:
            cues.best = False  # "why was the refund rate higher in Q2": a why, not which group is highest
        follows_with_one = context is not None and len(periods) == 1  # "和5月比呢": against the previous period
        kind_follows = context is not None and cues.comparison_kind is not None  # "和前一个月比呢"
        if (periods or kind_follows) and (
            len(periods) > 1 or cues.comparison_kind or cues.change or cues.earlier or cues.why or follows_with_one
        ):
            members = [(m.hit.start, m.hit.end) for m in terms.members]
            cues.compare_word = claim_compare_words(scan, members, [p.span for p in periods]) or cues.not_as
        cues.compare_word = cues.compare_word or two_periods_compared
        if cues.ratio and len(periods) == 2 and not cues.difference:  # "6月GMV是5月的几倍": the first over the second
            cues.compare_word = cues.first_is_asked = True
        context_words = context_clauses(scan, terms, periods, operators)
        if which_moved:  # "哪些渠道下降了", "哪几个月环比下降了": the groups (or periods) the answer names
            read_kept_periods(scan, cues, "which_moved")
            cues.take(scan, "which_moved", vocab.WHICH)
            cues.take(scan, "which_moved", _HOW_MANY_MOVED)  # "下降的区域有几个": the answer counts them too
        for unit in cues.take(scan, "unit", vocab.UNIT_ASKED):  # "多少万元", "in rmb": how it is written
            money: str | None = unit.group("cur") or unit.group("cur_en")
            cues.unit_currency = currency_of_word(money) if money else cues.unit_currency
        # "其中哪个最高": among the rows held, as any ranking is — never of a top N already taken
        ranked = cues.top_n is not None or cues.rank_place is not None or cues.best
        if ranked and (cues.top_n or 1) == 1 and (context is None or context.top_n is None):
            scan.take(vocab.AMONG_THEM)
        only_taken_out = terms.members and all(m.excluded for m in terms.members)
        if only_taken_out and cues.top_n is None and cues.rank_place is None:  # "去掉华东，只看剩下的": what is left
            for pattern in (vocab.THE_REST, vocab.THE_REST_WORD):
                for said in scan.find_all(pattern):
                    scan.claim(said.start(), said.end())
        self._account_for_the_rest(scan, cues, terms, language, follows=context is not None)
        return Reading(scan, cues, terms, periods, (*corrections, *context_words), language, ties)

    def _no_personal_data(self, question: str, found: Sequence[Hit]) -> None:
        """ "用户手机号导出来", "show me customer phone numbers": aggregates only, never a person's own
        data (:data:`~baton.nlu.vocabulary.PERSONAL_DATA`) — read before typos are mended ("phone"
        is one letter off a member "phones")."""
        terms = [(h.start, h.end) for h in found]
        norm = normalise(question)
        asked_for = vocab.HANDED_OUT.search(norm) is not None or not any("metric" in h.kinds for h in found)
        for said in vocab.PERSONAL_DATA.finditer(norm):
            if asked_for and not any(s <= said.start() and said.end() <= e for s, e in terms):
                word = question[said.start() : said.end()]
                raise OutOfScope(*both("nlu.personal_data", said=word), detail={"personal_data": word, "final": True})

    def _pair_of_the_breakdown(
        self, scan: Scan, cues: Cues, terms: Terms, periods: list[timeexpr.PeriodReading]
    ) -> None:
        """ "上个月新老用户GMV差多少", "gap between user types": a gap word over a breakdown, with no
        second period or comparison to set against, asks the gap between its groups — the two
        members of a two-member dimension (in catalog order), compared like named members; a
        dimension of more members is asked which two, never read as a change over time."""
        if not (cues.change and one_period(periods) and terms.dims and vocab.GAP_BETWEEN.search(scan.norm)):
            return
        if cues.comparison_kind is not None or cues.earlier or cues.why:
            return
        if cues.both_ends or cues.top_n is not None or cues.rank_place is not None:
            return  # "最高和最低的区域差多少": the ends of the ranking
        if cues.grain is not None or len(terms.dims) > 1:  # "每个月新老用户的GMV差距", "各品类新老用户…差多少"
            raise ask_back("nlu.gap_per_group", {"dimensions": list(terms.dims), "grain": cues.grain})
        if len(terms.dims) != 1:
            return
        (dim,) = terms.dims
        if any(m.dimension == dim for m in terms.members):
            return
        members = list(self.catalog.dimensions[dim].members)
        if len(members) != 2:
            raise ask_back("nlu.gap_of_two", {"dimension": dim, "members": members})
        word = next(h for h in terms.hits if h.kinds == {"dimension"} and h.terms[0].target == dim)
        terms.members += [Member(dim, member, word, excluded=False) for member in members]

    # -- reading --------------------------------------------------------------------------
    def _prepare(self, question: str) -> tuple[str, tuple[Correction, ...]]:
        """The gate, then traditional → simplified characters, a person's own data refused, then
        typos of catalog terms."""
        text = check_question(question)
        corrections: list[Correction] = []
        simplified = to_simplified(text)
        if simplified != text:
            corrections.append(Correction(written=text, read_as=simplified, kind="traditional"))
            text = simplified
        found = self.lexicon.find(text)
        self._no_personal_data(text, found)
        text, cjk = correct_cjk(text, self._cjk_surfaces, [(h.start, h.end) for h in found])
        corrections.extend(cjk)
        terms = [(h.start, h.end) for h in self.lexicon.find(text)] if cjk else [(h.start, h.end) for h in found]
        text, shorthand = expand_abbreviations(text, terms)  # "non referred bookings pct": a term's own "pct"
        corrections.extend(shorthand)
        known = {*vocab.EN_FILLERS, *vocab.METRICISH_EN, *vocab.COMMON_EN, *vocab.OPERATOR_WORDS, *TIME_ABBREVIATIONS}
        known |= vocab.CURRENCY_WORDS
        text, typos = correct(text, self._vocabulary, known)
        return text, (*corrections, *typos)

    # -- what is left ---------------------------------------------------------------------
    def _account_for_the_rest(
        self, scan: Scan, cues: Cues, terms: Terms, language: Language, *, follows: bool = False
    ) -> None:
        """Every word must have been read: the rest are filler words, or the question is refused
        (nothing of the catalog, or an undefined metric) or asked back naming what is left. A
        follow-up (``follows``) may leave its metric to the question it follows."""
        claim_own_tables(self.catalog, scan, terms.metrics)
        unknown = [
            w for w in unknown_words(scan.residual()) if not the_numbers(scan, w) and not dimension_noun(scan, w)
        ]
        # "第一个周一", "每周一": a week word read, its weekday left over is never a filler "一"
        for m in vocab.WEEKDAY_ZH.finditer(scan.norm):
            if scan.free(m.start("wd"), m.end("wd")):  # named as the weekday, never its character alone
                unknown = [w for w in unknown if w not in m.group(0)]
                unknown += [] if any(m.group(0) in w for w in unknown) else [m.group(0)]
        for m in vocab.EACH_ENTITY.finditer(scan.norm):  # "GMV of each user": "each" read as a breakdown word
            entity = "entity" if m.group("entity") else "one"
            if scan.free(m.start(entity), m.end(entity)) and not any(m.group(entity) in w for w in unknown):
                unknown.append(m.group(0))
        if cues.action or cues.advice or cues.forecast:
            key = "nlu.action_requested" if cues.action else "nlu.advice_requested" if cues.advice else "nlu.forecast"
            raise OutOfScope(*both(key), detail={"unknown": unknown, "final": True})
        if cues.average and any(not self.catalog.metrics[m].is_ratio for m in terms.metrics):
            cues.unsupported.append("平均" if language == "zh" else "average")
        # "average delivery time": what an average is taken of is a metric
        metric_words = (
            ratio_of_terms(scan, terms, unknown)
            + [w for w in unknown if metricish(w)]
            + (unknown[:1] if cues.average and not terms.metrics else [])
        )
        if not terms.metrics and not follows and not metric_words:
            no_part_of_a_metric(self.catalog, self.lexicon, unknown)
        if not terms.any and not metric_words and (unknown or cues.unsupported):
            if any(self._near_catalog(w) for w in unknown):
                raise AmbiguousQuestion(*self.not_understood(unknown), detail={"unknown": unknown})
            raise OutOfScope(*self.with_examples("nlu.not_about_data"), detail={"unknown": unknown})
        if metric_words:
            raise self.unknown_metric(metric_said_whole(scan, terms.hits, metric_words[0]))
        if len(unknown) == 1 and not cues.unsupported and len(terms.metrics) == 1:
            self._no_such_breakdown(scan, unknown[0], terms.metrics[0])
        if cues.unsupported or unknown:
            words = [*cues.unsupported, *unknown]
            raise AmbiguousQuestion(
                *self.not_understood(words),
                detail={"unknown": words, "suggestions": self.examples(language, self._offered(terms, words))},
            )
        if not terms.metrics and not follows:
            raise AmbiguousQuestion(
                *(
                    message(
                        "nlu.which_metric", lang, examples=message("answer.list_sep", lang).join(self.examples(lang))
                    )
                    for lang in LANGUAGES
                ),
                detail={"missing": "metric", "suggestions": list(self.catalog.metrics)},
            )

    def _no_such_breakdown(self, scan: Scan, word: str, metric: str) -> None:
        """ "GMV by city", "各城市的GMV": a breakdown by a word no dimension names is asked back with
        the dimensions the metric has, never as a word merely not understood."""
        at = where_left(scan, word)
        if at < 0 or not vocab.BREAKDOWN_BEFORE.search(scan.norm[:at]) or word.lower() in vocab.DIMENSION_NOUNS:
            return
        allowed = self.catalog.metrics[metric].dimensions

        def said(lang: Language) -> str:
            listed = message("answer.list_sep", lang).join(
                self.catalog.dimensions[d].label.for_lang(lang) for d in allowed
            )
            label = self.catalog.metrics[metric].label.for_lang(lang)
            return message(
                "nlu.no_such_breakdown",
                lang,
                word=word,
                metric=label,
                allowed=listed or message("nlu.no_dimensions", lang),
            )

        raise AmbiguousQuestion(
            said("en"),
            said("zh"),
            detail={"unknown": [word], "reason": "no_such_breakdown", "suggestions": list(allowed)},
        )

    def _offered(self, terms: Terms, unplaced: Sequence[str]) -> list[str]:
        """The metrics a question asked back offers first: those it named, then those whose names
        hold a word it could not place."""
        return [*terms.metrics, *metrics_near(self.lexicon, unplaced)]

    def _near_catalog(self, word: str) -> bool:
        """Whether a word no reader placed is part of a catalog term ("下单" of "下单量", "customers"
        of "new customers"): then the question is about the data, only not one Baton can read."""
        if word.isascii():  # or, not an English word, one letter off a term's ("NMV", "GMW": near GMV)
            tokens = set(word.lower().split()) - vocab.EN_FILLERS
            words = {w for surface in self.lexicon.all_surfaces() if surface.isascii() for w in surface.split()}
            return bool(tokens & words) or any(
                len(t) >= MIN_LENGTH and not common_english_word(t) and within_one_edit(t, w)
                for t in tokens
                for w in words
            )
        pairs = {word[i : i + 2] for i in range(len(word) - 1)}
        return any(
            pair in surface for surface in self.lexicon.all_surfaces() if not surface.isascii() for pair in pairs
        )

    # -- the query ------------------------------------------------------------------------


def _moved_before(context: SemanticQuery | None) -> Literal["up", "down"] | None:
    """The way the previous question said its change went: its premise ("上个月GMV环比下降了多少"),
    or the move a contribution ranked by ("哪个渠道对GMV下降贡献最大")."""
    if context is None or context.comparison is None:
        return None
    if context.contribution:
        return "down" if context.order == "asc" else "up"
    return context.premise


__all__ = ["Planner"]
