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
import itertools
import re
from collections import Counter
from collections.abc import Sequence
from datetime import date
from difflib import SequenceMatcher
from functools import cached_property
from typing import Literal

from baton import patterns
from baton.catalog import spine
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import Comparison, Correction, Grain, MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, OutOfScope, QuestionRefused, UnknownMetric, UnsupportedMetric
from baton.messages import average_fields, both, localized
from baton.messages import text as message
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.bounds import check_against_the_average, threshold_of
from baton.nlu.change_words import (
    kept_by_change,
    kept_by_change_of_groups,
    premise_asked,
    read_change_ranking,
    read_good_as_direction,
    read_yes_no,
    said_direction,
    value_ranked_then_changed,
)
from baton.nlu.cues import ChangeMeasure, Cues, closing_direction, rank_within_or_across, read_cues, read_ranking
from baton.nlu.gate import check_question, detect_language
from baton.nlu.lexicon import Hit, Lexicon, Term, normalise
from baton.nlu.metric_words import (
    claim_measure_words,
    claim_metric_affixes,
    claim_own_tables,
    count_of_an_amount,
    metric_as_a_word_of_another,
    metric_labels,
    metric_over_metric,
    metrics_naming,
    no_part_of_a_metric,
)
from baton.nlu.parts import (
    TOTAL_JOINED,
    average_in_a_later_clause,
    each_then_best,
    each_then_which_pass,
    total_and_each,
    total_then_which,
    whole_then_a_member,
    whole_then_each,
)
from baton.nlu.periods import claim_compare_words, event_periods, named_previous, resolve_periods
from baton.nlu.rank_within import ranked_each_period, ranked_within
from baton.nlu.ranking import check_ranking_inside_ranking, ranking_metric, ranks
from baton.nlu.reading import (
    Member,
    Terms,
    check_per_member,
    claim_member_lists,
    claim_member_places,
    claim_term_lists,
    compares_members,
    context_clauses,
    one_period,
    ratio_of_terms,
)
from baton.nlu.residual import metricish, to_simplified, unknown_words
from baton.nlu.scan import Scan
from baton.nlu.shares import INSIDE, ShareMarks, metric_said_of, share_marks
from baton.nlu.ties import Reading, Ties, read_ties
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

_ALL_OF = patterns.compile(
    r"(所有|全部|全体|不限|(?<![完安健齐周保])全|(?:\bacross )?\ball\b|\ball (?:of )?the\b)\s*(?:的\s*)?$", re.I
)
_OTHER = patterns.compile(r"(其他|其余|其它|\bother\b|\bremaining\b|\bthe rest of(?: the)?\b)\s*(?:的\s*)?$", re.I)
"""Other members than the ones a question excludes ("除华东外，其他区域")."""
_MEMBER_COUNT = patterns.compile(r"(?:这|那)?(?:[两二三四五六七八九十]|\d+)\s*个\s*$")
"""The number of members just listed, before their dimension ("华北、华中、东北三个区")."""
_BETWEEN_FILLER = patterns.compile(r"^[\s的了是在与和及的、,，]*(?:(?:the|all|of|for|from|in)\s+)*$", re.I)


_AFTER_EXCLUSION = patterns.compile(r"\s*(?:以外|之外|除外|外)\s*的?\s*(?:(?:其他|其余|别的)的?)?\s*")
"""What stands between excluded members and the dimension word naming the rest ("app以外的渠道")."""


_LATEST_WHOLE: dict[str, dict[Language, str]] = {
    "week": {"zh": "上周", "en": "last week"},
    "month": {"zh": "上个月", "en": "last month"},
    "quarter": {"zh": "上季度", "en": "last quarter"},
}


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


_ACROSS = patterns.compile(r"\bacross\b", re.I)
_SET_AGAINST = patterns.compile(r"(?:和|跟|与|同|\bwith\b|\bvs\.?|\bthan\b|\bto\b)[^，,。;；]{0,8}$", re.I)


def _plain_one_period(cues: Cues, periods: list[timeexpr.PeriodReading]) -> bool:
    """One period and no comparison of periods named ("比上月", "同比", "a week earlier")."""
    return one_period(periods) and cues.comparison_kind is None and not cues.earlier and not cues.why


def _across_the_groups(scan: Scan, cues: Cues, terms: Terms, periods: list[timeexpr.PeriodReading]) -> bool:
    """A compare word beside a breakdown and one period, with no change or comparison asked and
    nothing it is set against ("和上月相比"): the groups side by side, which the breakdown is
    ("新老用户GMV对比")."""
    plain = not (cues.change or cues.comparison_kind or cues.earlier or cues.why)
    named = any(not m.excluded for m in terms.members if m.dimension in terms.dims)
    against = any(_SET_AGAINST.search(scan.norm[: m.start()]) for m in vocab.COMPARE.finditer(scan.norm))
    return bool(terms.dims) and one_period(periods) and plain and not named and not against


def _subtracted(scan: Scan, cues: Cues, members: list[tuple[list[str], Hit]], hits: list[Hit]) -> None:
    """ "app minus web", "app GMV minus web GMV", "华东减去华南": a minus word between two members of
    one dimension (with at most metric words beside it) asks their gap; it is claimed as the gap
    and taken out of the exclusions ("GMV minus live stream", with no member before it, still
    excludes)."""
    ordered = sorted(members, key=lambda m: m[1].start)
    metric_spans = [(h.start, h.end) for h in hits if h.kinds == {"metric"}]
    for (dim_a, a), (dim_b, b) in itertools.pairwise(ordered):
        between = "".join(
            " " if any(s <= i < e for s, e in metric_spans) else scan.norm[i] for i in range(a.end, b.start)
        )
        said = vocab.MINUS.fullmatch(between)
        if said is None or dim_a[0] != dim_b[0]:
            continue
        word = re.search(r"minus|减去|减掉|减", between)
        assert word is not None  # the pattern matched one
        start, end = a.end + word.start(), a.end + word.end()
        if not scan.free(start, end):
            continue
        scan.claim(start, end)
        cues.difference = True
        cues.exclusions = [c for c in cues.exclusions if not (start <= c.start() and c.end() <= end)]


def _restricts(qualifier: str, description: str) -> bool:
    """Whether ``description`` states ``qualifier`` as what the metric counts ("有已支付…订单的用户"),
    not as something it also includes ("scheduled flights, cancelled ones included", "含取消订单")."""
    word = re.escape(qualifier)
    found = list(re.finditer(rf"(?<![a-z]){word}(?![a-z])" if qualifier.isascii() else word, description))
    included = patterns.compile(
        r"^[^,.;，。；]{0,24}?\b(?:included|including|too|as well)\b|^[^，。；]{0,6}?(?:在内|也计入)", re.I
    )
    before = patterns.compile(r"(?:\bincluding|\bincl\.?|\bwith|含|包括|包含)\s*[^,.;，。；]{0,12}$", re.I)
    return any(
        not included.search(description[m.end() :]) and not before.search(description[: m.start()]) for m in found
    )


def _qualifier(longer: str, shorter: str, sep: str = "") -> str:
    """What ``longer`` adds to ``shorter`` at its start or end ("支付" of "支付买家数" and "买家数";
    with ``sep=" "`` whole words: "paying" of "paying buyers" and "buyers"), else ""."""
    big, small = (longer.split(), shorter.split()) if sep else (list(longer), list(shorter))
    n = len(small)
    if n < (1 if sep else 2) or len(big) <= n:
        return ""
    if big[-n:] == small:
        return sep.join(big[:-n])
    if big[:n] == small:
        return sep.join(big[n:])
    return ""


MAX_RANKED = 1000
"""The most rows a top N (or a place) of a ranking names (``SemanticQuery.top_n``)."""


class Planner:
    """Turns questions into SemanticQuery objects over one catalog."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.lexicon = Lexicon(catalog)
        self._equals: dict[str, list[str]] = {}

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

    def _no_partial_member(self, text: str, found: list[Hit]) -> None:
        """A capitalised word that begins a member's name ("Delta" for "Delta Air Lines Inc.")
        names that member in part: asked back, never read as an ordinary word ("delta")."""
        for word in _CAPITALISED.finditer(text):
            if any(h.start <= word.start() < h.end for h in found):
                continue
            members = self._member_heads.get(normalise(word.group()))
            if members:
                named = ", ".join(members[:5])
                raise AmbiguousQuestion(
                    *both("nlu.partial_member", word=word.group(), members=named),
                    detail={"word": word.group(), "suggestions": members[:5]},
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
        try:
            read = self.read(question, as_of=as_of, prefer=prefer, which_moved=kept is not None)
        except AmbiguousQuestion as asked:
            if kept is not None and "unknown" in (asked.detail or {}):  # a word of the filter left unread
                raise kept from None
            raise
        kept = kept or kept_by_change_of_groups(read.scan, read.terms.hits)
        cues, terms = read.cues, read.terms
        cues.side_by_side = cues.separately and not (cues.total or cues.breakdown or terms.dims or terms.members)
        time_range, comparison = resolve_periods(read.scan, read.cues, read.periods)
        if comparison is not None:
            _members_paired_with_periods(read.scan, read.periods, read.terms)
        _the_rest_ranked(read.cues, read.terms)
        _the_members_dimension_ranked(read.cues, read.terms)
        if (
            default_breakdown is not None
            and not read.terms.dims
            and not read.terms.dims_naming_a_set  # "regions other than East China": never another dimension
            and self.breakdown_fits(read.terms.metrics, default_breakdown)
        ):
            read.terms.dims.append(default_breakdown)
        bounded = read.cues.bound.term if read.cues.bound is not None else None
        metric_as_a_word_of_another(self.catalog, read.scan, read.terms.metric_hits, bounded)
        count_of_an_amount(self.catalog, read.scan, read.terms.metric_hits)
        metric_over_metric(read.scan, read.terms.metric_hits)
        _members_said_of_the_first_metric(read.scan, read.terms)
        _total_said_before_a_metric(read.scan, read.cues, read.terms)
        _total_beside_each_or_a_ranking(read.scan, read.cues, read.terms)
        each_then_which_pass(read.scan, read.cues, read.terms)
        _member_beside_the_whole(read.scan, read.cues, read.terms)
        average_in_a_later_clause(read.scan, read.cues, read.terms)
        self._kept_and_excluded(read.cues, read.terms)
        self._ranked_first(read.scan, read.cues, read.terms)
        read.cues.rank_within = ranked_within(read.scan, read.cues, read.terms)
        read.cues.rank_each_period = ranked_each_period(read.scan, read.cues, read.terms)
        _no_rows_ranked(read.scan, read.cues)
        # "其他渠道都…吗": each of the rest; "每天…都" is of the days, never of the rest
        all_said = vocab.ALL_OF_THEM.search(read.scan.norm) is not None or (read.cues.every and read.cues.grain is None)
        if read.cues.yes_no and read.terms.dims_naming_a_set and all_said:
            summed = vocab.SUM_SAID.search(read.scan.norm) is not None
            read.cues.every = read.cues.every or vocab.ALL_EACH_EN.search(read.scan.norm) is not None
            read.cues.all_of_them = "sum" if summed else "each" if read.cues.every else "unsaid"
        terms = read.terms
        marks = share_marks(read.scan, terms.members, terms.dims, terms.hits) if read.cues.share else ShareMarks()
        query = self._build(
            read.cues, terms, time_range, comparison, read.corrections, as_of, read.language, marks=marks
        )
        return query if kept is None else the_groups_that_moved(query, kept)

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
        first = ranking_metric(scan, terms.metric_hits, terms.metrics)
        if first is None:
            labels = metric_labels(self.catalog, terms.metrics, sep="answer.or_sep")
            raise AmbiguousQuestion(
                *(message("nlu.rank_metric", lang, metrics=labels[lang]) for lang in LANGUAGES),
                detail={"metrics": list(terms.metrics), "reason": "rank_metric"},
            )
        terms.metrics.remove(first)
        terms.metrics.insert(0, first)

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
        language: Language = "zh" if detect_language(text) == "zh" else "en"
        scan = Scan(text=text, norm=normalise(text))
        found = self.lexicon.find(text)
        scan.terms = [(hit.start, hit.end) for hit in found]
        scan.members = [(hit.start, hit.end) for hit in found if "member" in hit.kinds]
        scan.metrics = [(hit.start, hit.end) for hit in found if "metric" in hit.kinds]
        refused = next((hit for hit in found if hit.kinds == {"refused"}), None)
        if refused is not None:  # named whole ("flights month to date"): refused before its words are read as a period
            raise self.refused_metric(refused.terms[0].target)
        self._no_partial_member(text, found)
        ties = read_ties(scan) if context is not None else None
        cues = read_cues(scan, follows=context is not None)
        periods = event_periods(self.catalog.calendar, scan, as_of)
        for period in periods:
            scan.claim(*period.span)
        periods += timeexpr.read_periods(scan.residual(), as_of)
        for period in periods:
            for span in period.spans:
                scan.claim(*span)
        periods.sort(key=lambda p: p.span)
        _until_with_no_start(scan, periods)
        _this_period_beside_another(scan, periods)
        _a_change_from_a_point_on(cues, periods)
        periods = named_previous(scan, cues, cues.spans.get("previous_period", []), periods, as_of)
        if not periods and context is None:
            periods = _the_latest_whole(cues, language, as_of)
        read_ranking(scan, cues)
        cues.ranked_change = read_change_ranking(scan, cues)
        cues.value_ranked = value_ranked_then_changed(scan, cues)
        cues.premise = cues.premise if cues.why else said_direction(scan, cues, measures=False)
        read_yes_no(scan, cues)
        if not cues.why and (cues.yes_no or which_moved):
            cues.premise = cues.premise or closing_direction(scan, cues)  # "6月GMV比5月高吗": higher is asked
            for which in scan.find_all(vocab.ANY_GROUP) if cues.premise and cues.any_group else ():
                if which.group("which"):  # "有没有哪个渠道涨了": "哪个" says any one of them
                    scan.claim(which.start("which"), which.end("which"))
            for asked in scan.find_all(vocab.YES_NO) if cues.premise or cues.best else ():  # "有没有比去年同期多"
                if scan.free(asked.start(), asked.end()):
                    scan.claim(asked.start(), asked.end())
        spans_of_periods = {p.span for p in periods}
        operators = [c for c in scan.claimed if c not in spans_of_periods]
        terms = self._read_terms(scan, cues, language, context=context, ties=ties, prefer=prefer)
        if cues.best and each_then_best(scan, terms):  # "各区域退款率多少，哪个最高": every group, highest first
            cues.several, cues.rank = True, True
            if cues.which_time:  # "今年各月新增用户数，以及哪个月最多": every month, the most first
                cues.top_n = None
        elif (cues.best or cues.top_n is not None) and total_then_which(scan, terms, bounded=cues.bound is not None):
            raise _asked("nlu.total_then_which", {})  # "上个月GMV多少，哪个区域最高": the total, then a ranking
        cues.narrowed = frozenset(
            m.dimension for m in terms.members if _ONLY_BEFORE.search(scan.norm, 0, m.hit.start) and not m.excluded
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
                raise _asked("nlu.sum_against_member", {"members": [m.member for m in terms.members]})
            which_asked = cues.change and cues.yes_no  # "华东的GMV比华南更高吗"
            cues.change = False  # "华东的GMV比华南多多少": the members are compared, one row each
            cues.difference = cues.difference or cues.ratio or vocab.GAP.search(scan.norm) is not None  # … the gap
            cues.difference = cues.difference or which_asked  # which is higher, said with the gap
            if cues.difference and cues.top_n is None and cues.rank_place is None:
                cues.best = False  # "how much higher was A than B": the gap, not which is higher
            named = Counter(m.dimension for m in terms.members if not m.excluded)
            if cues.difference and 2 not in named.values():  # "华东、华南和华北的GMV差多少": which two?
                raise _asked("nlu.gap_of_two", {"members": [m.member for m in terms.members]})
            claim_compare_words(scan, [])
        elif cues.both_ends and (cues.ratio or vocab.GAP.search(scan.norm)) and _plain_one_period(cues, periods):
            cues.change, cues.difference = False, True  # "GMV最高和最低的区域差多少": the two ends' gap
            claim_compare_words(scan, [])  # "最高的渠道比最低的高多少"
        elif _across_the_groups(scan, cues, terms, periods):  # "上个月各渠道GMV对比", "compare GMV across channels"
            for said in scan.find_all(_ACROSS):
                scan.claim(said.start(), said.end())
            claim_compare_words(scan, [])
        ranked_words = [scan.norm[a:b] for a, b in cues.spans.get("ranking", [])]
        superlative = any(_SUPERLATIVE_WORD.search(w) for w in ranked_words)
        if cues.why and cues.top_n is None and cues.rank_place is None and not superlative:
            cues.best = False  # "why was the refund rate higher in Q2": a why, not which group is highest
        follows_with_one = context is not None and len(periods) == 1  # "和5月比呢": against the previous period
        if periods and (
            len(periods) > 1 or cues.comparison_kind or cues.change or cues.earlier or cues.why or follows_with_one
        ):
            members = [(m.hit.start, m.hit.end) for m in terms.members]
            cues.compare_word = claim_compare_words(scan, members, [p.span for p in periods])
        if cues.ratio and len(periods) == 2 and not cues.difference:  # "6月GMV是5月的几倍": the first over the second
            cues.compare_word = cues.first_is_asked = True
        context_words = context_clauses(scan, terms, periods, operators)
        if which_moved:  # "哪些渠道下降了": the groups the answer names
            cues.take(scan, "which_moved", vocab.WHICH)
        self._account_for_the_rest(scan, cues, terms, language, follows=context is not None)
        return Reading(scan, cues, terms, periods, (*corrections, *context_words), language, ties)

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
            raise _asked("nlu.gap_per_group", {"dimensions": list(terms.dims), "grain": cues.grain})
        if len(terms.dims) != 1:
            return
        (dim,) = terms.dims
        if any(m.dimension == dim for m in terms.members):
            return
        members = list(self.catalog.dimensions[dim].members)
        if len(members) != 2:
            raise _asked("nlu.gap_of_two", {"dimension": dim, "members": members})
        word = next(h for h in terms.hits if h.kinds == {"dimension"} and h.terms[0].target == dim)
        terms.members += [Member(dim, member, word, excluded=False) for member in members]

    # -- reading --------------------------------------------------------------------------
    def _prepare(self, question: str) -> tuple[str, tuple[Correction, ...]]:
        """The gate, then traditional → simplified characters, then typos of catalog terms."""
        text = check_question(question)
        corrections: list[Correction] = []
        simplified = to_simplified(text)
        if simplified != text:
            corrections.append(Correction(written=text, read_as=simplified, kind="traditional"))
            text = simplified
        text, cjk = correct_cjk(text, self._cjk_surfaces, [(h.start, h.end) for h in self.lexicon.find(text)])
        corrections.extend(cjk)
        text, shorthand = expand_abbreviations(text)
        corrections.extend(shorthand)
        known = {*vocab.EN_FILLERS, *vocab.METRICISH_EN, *vocab.COMMON_EN, *vocab.OPERATOR_WORDS, *TIME_ABBREVIATIONS}
        text, typos = correct(text, self._vocabulary, known)
        return text, (*corrections, *typos)

    def order_of(self, cues: Cues, metrics: Sequence[str]) -> Literal["desc", "asc"]:
        """The ranking direction; "best"/"worst" follow the metric's declared ``better``."""
        if cues.quality is None:
            return cues.order
        better = self.catalog.metrics[metrics[0]].better
        if better is None:
            raise _asked("nlu.better_unknown", {"metric": metrics[0]})
        good_is_high = better == "higher"
        return "desc" if (cues.quality == "good") == good_is_high else "asc"

    def _read_terms(
        self,
        scan: Scan,
        cues: Cues,
        language: Language,
        *,
        context: SemanticQuery | None,
        ties: Ties | None,
        prefer: Sequence[str] = (),
    ) -> Terms:
        hits = self.lexicon.find(scan.text, blocked=list(scan.claimed))
        if ties is not None and ties.restrict:  # "只看新用户": a word naming a metric and a member is the member
            hits = [_members_only(hit) for hit in hits]
        terms = Terms()
        terms.metrics = self._metrics(hits, language, prefer)
        fitting = terms.metrics or (list(context.metrics) if context is not None else [])
        hits = [self._fitting(hit, fitting) for hit in hits]
        hits = [self._one_dimension(hit, hits) for hit in hits]
        terms.metric_hits = [h for h in hits if any(t.kind == "metric" for t in self._chosen_terms(h, hits))]
        terms.hits = hits
        members = [  # one member per hit, however many of its surfaces matched ("app", "APP")
            (target.split(":", 1), hit)
            for hit in hits
            for target in dict.fromkeys(t.target for t in self._chosen_terms(hit, hits) if t.kind == "member")
        ]
        _subtracted(scan, cues, members, hits)
        excluded = self._excluded(scan, cues, [hit for _, hit in members])
        terms.members = [Member(dim, member, hit, id(hit) in excluded) for (dim, member), hit in members]
        check_per_member(scan, terms.members)
        claim_member_lists(scan, cues, terms.members)
        claim_member_places(scan, terms.members)
        claim_term_lists(scan, hits)
        # "categories excluding phones by orders": a metric after "by" orders the groups, each one asked
        by_metric = any(_BY_BEFORE.search(scan.norm, 0, h.start) for h in terms.metric_hits)
        each = bool(cues.top_n or cues.best or cues.rank or cues.separately or by_metric)
        moved = cues.change or cues.comparison_kind is not None  # a change of every member is each one's
        for hit in hits:
            scan.claim(hit.start, hit.end)
            if hit.kinds == {"dimension"}:
                self._dimension(
                    scan,
                    hit,
                    terms,
                    asks_per_member=each or cues.share,
                    each_asked=each,
                    moved=moved,
                    groups_ranked=each and not cues.which_time,
                )
        claim_metric_affixes(self.catalog, scan, terms.metric_hits)
        claim_measure_words(self.catalog, scan, terms.metrics or (list(context.metrics) if context is not None else []))
        return terms

    def _fitting(self, hit: Hit, metrics: list[str]) -> Hit:
        """A word naming a dimension (or member) of several tables means the one the asked
        metrics can be broken down by ("JFK": the flights' origin, not the weather station's)."""
        if not metrics:
            return hit

        def fits(term: Term) -> bool:
            if term.kind not in ("dimension", "member"):
                return True
            dim = term.target.split(":", 1)[0]
            return all(dim in self.catalog.metrics[m].dimensions for m in metrics)

        kept = tuple(t for t in hit.terms if fits(t))
        if kept == hit.terms or not any(t.kind in ("dimension", "member") for t in kept):
            return hit
        return dataclasses.replace(hit, terms=kept)

    def _one_dimension(self, hit: Hit, hits: list[Hit]) -> Hit:
        """A value that several dimensions hold ("LGA": an origin and a destination) means the
        one a dimension word of the question names ("从LGA出发"); with none, it is asked back,
        never read as both."""
        dims = sorted(_member_dimensions(hit))
        if len(dims) < 2:
            return hit
        named = {t.target for h in hits if h is not hit for t in h.terms if t.kind == "dimension"} & set(dims)
        if len(named) == 1:
            dim = named.pop()
            kept = tuple(t for t in hit.terms if t.kind != "member" or t.target.split(":", 1)[0] == dim)
            return dataclasses.replace(hit, terms=kept)
        raise AmbiguousQuestion(
            *(
                message(
                    "nlu.member_of_several",
                    lang,
                    member=hit.text,
                    dimensions=message("answer.list_sep", lang).join(
                        self.catalog.dimensions[d].label.for_lang(lang) for d in dims
                    ),
                )
                for lang in LANGUAGES
            ),
            detail={"member": hit.text, "suggestions": dims},
        )

    def _chosen_terms(self, hit: Hit, hits: list[Hit]) -> list[Term]:
        terms = list(hit.terms)
        if {"metric", "member"} <= hit.kinds:
            # "new users" is the metric new_users, unless another metric is asked about
            own = {t.target for t in terms if t.kind == "metric"}
            others = [h for h in hits if h.kinds == {"metric"} and h is not hit and {t.target for t in h.terms} - own]
            chosen = "member" if others else "metric"
            terms = [t for t in terms if t.kind == chosen]
        return terms

    def _metrics(self, hits: list[Hit], language: Language, prefer: Sequence[str] = ()) -> list[str]:
        metrics: list[str] = []
        for hit in hits:
            if hit.kinds == {"refused"}:
                raise self.refused_metric(hit.terms[0].target)
            targets = sorted({t.target for t in self._chosen_terms(hit, hits) if t.kind == "metric"})
            if len(targets) > 1 and len(set(targets) & set(prefer)) == 1:
                targets = sorted(set(targets) & set(prefer))
            elif len(targets) > 1:
                raise self.several_metrics(hit.text, targets)
            if len(targets) == 1 and targets[0] not in prefer:
                equals = self._one_of_equals(hit, targets[0], prefer)
                targets = [equals] if equals else targets
            metrics += [t for t in targets if t not in metrics]
        return metrics

    def _one_of_equals(self, hit: Hit, metric: str, prefer: Sequence[str] = ()) -> str | None:
        """A loose name (a synonym) of a metric that is another metric plus a qualifier the other's
        own definition already states ("付款人数" of 支付买家数, when 买家数 counts buyers of paid
        orders) names both equally: asked back naming both, never one picked."""
        info = self.catalog.metrics[metric]
        said = {normalise(t.surface) for t in hit.terms if t.target == metric}
        if said & {normalise(metric), normalise(info.label.zh), normalise(info.label.en)}:
            return None
        equals = self._equal_metrics(metric)
        if equals:
            named = [metric, *equals]
            preferred = [m for m in named if m in prefer]
            if len(preferred) == 1:
                return preferred[0]
            raise self.several_metrics(hit.text, named)
        return None

    def _equal_metrics(self, metric: str) -> list[str]:
        """Metrics of the same unit whose label ``metric``'s label extends by a qualifier their
        definition already holds (zh: "支付" + "买家数"; en: "paying" + "buyers")."""
        if metric in self._equals:
            return self._equals[metric]
        x = self.catalog.metrics[metric]
        out: list[str] = []
        for name, y in self.catalog.metrics.items():
            if name == metric or y.unit != x.unit or y.is_ratio or x.is_ratio:
                continue
            zh = _qualifier(x.label.zh, y.label.zh)
            en = _qualifier(x.label.en.lower(), y.label.en.lower(), " ")
            if (zh and _restricts(zh, y.description.zh)) or (en and _restricts(en, y.description.en.lower())):
                out.append(name)
        self._equals[metric] = out
        return out

    def _excluded(self, scan: Scan, cues: Cues, member_hits: list[Hit]) -> set[int]:
        """Members an exclusion word applies to ("除了A和B以外", "非A", "excluding A", "A除外")."""
        out: set[int] = set()
        ordered = sorted({id(h): h for h in member_hits}.values(), key=lambda h: h.start)
        for cue in cues.exclusions:
            chain = [h for h in ordered if h.start >= cue.end()]
            if not chain or not _BETWEEN_FILLER.match(scan.norm[cue.end() : chain[0].start]):
                continue
            scan.claim(cue.start(), cue.end())
            out.add(id(chain[0]))
            last = chain[0]
            joins = [scan.norm[prev.end : nxt.start] for prev, nxt in itertools.pairwise(chain)]
            for i, (prev, nxt) in enumerate(itertools.pairwise(chain)):
                cn_comma = _CN_COMMA.fullmatch(scan.text[prev.end : nxt.start]) is not None
                closed_later = cn_comma and _CLOSED_LATER.match(scan.norm, nxt.start) is not None
                if cn_comma and not closed_later:
                    _comma_after_an_exclusion(cue, prev, nxt)
                if not _in_one_list(joins[i], prev, nxt, scan) or (_clause_ends(joins, i) and not closed_later):
                    break
                if cn_comma and not closed_later:
                    break  # "除了华东，华南和华北的GMV": the Chinese comma ends the exclusion, unless 以外 closes a list
                if _COMMA.search(joins[i]) and _member_dimensions(prev) != _member_dimensions(nxt):
                    break  # "除了直播，华东和华南的订单量": the comma ends the exclusion, another dimension follows
                out.add(id(nxt))
                scan.claim(prev.end, nxt.start)
                last = nxt
            self._close_exclusion(scan, last.end)
        for hit in ordered:
            after = vocab.EXCLUDE_AFTER.match(scan.norm, hit.end)
            if after and scan.free(after.start(), after.end()):
                scan.claim(after.start(), after.end())
                out.add(id(hit))
                last = hit
                for prev in reversed([h for h in ordered if h.end <= hit.start]):
                    if not _in_one_list(scan.norm[prev.end : last.start], prev, last, scan) or id(prev) in out:
                        break
                    out.add(id(prev))
                    last = prev
        return out

    def _close_exclusion(self, scan: Scan, end: int) -> None:
        """ "剔除家电品类后", "除了A以外": the word that closes the exclusion, after a dimension word."""
        dim_word = next(
            (
                h
                for h in self.lexicon.find(scan.text[end:])
                if h.start == 0 or not scan.text[end : end + h.start].strip()
            ),
            None,
        )
        after = end + dim_word.end if dim_word is not None and dim_word.kinds == {"dimension"} else end
        tail = vocab.EXCLUDE_TAIL.match(scan.norm, after)
        if tail and scan.free(tail.start(), tail.end()):
            scan.claim(tail.start(), tail.end())

    def _dimension(
        self,
        scan: Scan,
        hit: Hit,
        terms: Terms,
        *,
        asks_per_member: bool,
        each_asked: bool,
        moved: bool = False,
        groups_ranked: bool = False,
    ) -> None:
        """A dimension word is a breakdown, unless it names the dimension of members just named
        ("app 渠道", "华北、华中两个区") or the set a filter applies to ("所有渠道", "除华东外，其他
        区域"); "all channels" with a ranking, a share or "each" still asks for each channel.
        "Other channels" with nothing excluded is asked back: other than what?"""
        dim = hit.terms[0].target
        count = _MEMBER_COUNT.search(scan.norm, 0, hit.start)
        named_here = [m for m in terms.members if m.dimension == dim]
        if count and named_here:
            scan.claim(count.start(), count.end())
            before = scan.norm[: count.start()]
        else:
            before = scan.norm[: hit.start]
        if vocab.GROUP_MARKER.search(before):
            if dim not in terms.dims:
                terms.dims.append(dim)
            return
        adjacent = [m for m in named_here if m.hit.end <= len(before) and not before[m.hit.end :].strip()]
        # "华东地区" names its member's dimension; "非华东地区…最高的3个": the set left, ranked — each asked
        attached = bool(adjacent) and not (groups_ranked and all(m.excluded for m in adjacent))
        # "regions other than East China": the dimension names the set the exclusion applies to — one
        # figure, unless each is asked ("top 3 regions excluding East China", "… ranked by GMV")
        set_named = bool(vocab.EXCLUDE_BEFORE.match(scan.norm[hit.end :].lstrip()))
        attached = attached or (set_named and not each_asked)
        # "除了app以外的渠道GMV(占比)": the dimension names the set left after the exclusion — one
        # figure (or its share of the whole) unless each is asked ("…分别是多少", a ranking)
        rest_of = any(m.excluded and _AFTER_EXCLUSION.fullmatch(before[m.hit.end :]) for m in named_here)
        attached = attached or (rest_of and not each_asked)
        every = _ALL_OF.search(before)
        other = _OTHER.search(before)
        if other and not any(m.excluded for m in named_here):
            raise _asked("nlu.other_than_what", {"dimension": dim})
        scope = other or every
        if scope:
            scan.claim(scope.start(1), scope.end(1))
        if scope and asks_per_member and not any(not m.excluded for m in named_here):
            scope = None  # "rank all channels", "除华东外其他区域各是多少": every one, one by one
        if every and moved and not named_here:
            scope = None  # "did all channels go down", "所有渠道都下降了吗": each channel's change
        if attached or scope:
            terms.dims_naming_a_set.add(dim)
            return
        if dim not in terms.dims:
            terms.dims.append(dim)

    # -- what is left ---------------------------------------------------------------------
    def _account_for_the_rest(
        self, scan: Scan, cues: Cues, terms: Terms, language: Language, *, follows: bool = False
    ) -> None:
        """Every word must have been read: the rest are filler words, or the question is refused
        (nothing of the catalog, or an undefined metric) or asked back naming what is left. A
        follow-up (``follows``) may leave its metric to the question it follows."""
        claim_own_tables(self.catalog, scan, terms.metrics)
        unknown = unknown_words(scan.residual())
        if cues.action or cues.advice:
            key = "nlu.action_requested" if cues.action else "nlu.advice_requested"
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
            raise self.unknown_metric(metric_words[0])
        if cues.unsupported or unknown:
            words = [*cues.unsupported, *unknown]
            raise AmbiguousQuestion(
                *self.not_understood(words), detail={"unknown": words, "suggestions": self.examples(language)}
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

    @staticmethod
    def not_understood(words: list[str]) -> tuple[str, str]:
        """ "Baton did not understand …" naming the words, in English and Chinese."""

        def said(lang: Language) -> str:
            return message("nlu.not_understood", lang, words=message("answer.list_sep", lang).join(words))

        return said("en"), said("zh")

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

    def _named_in_plural(self, terms: Terms, dims: Sequence[str]) -> bool:
        """A grouping named in the English plural ("which categories had the highest GMV", "top
        channels"): several groups are asked for, however many there are."""
        for hit in terms.hits:
            word = hit.text.lower()
            if hit.kinds != {"dimension"} or hit.terms[0].target not in dims or not word.isascii():
                continue
            dim = self.catalog.dimensions[hit.terms[0].target]
            names = {dim.label.en.lower(), *(s.lower() for s in dim.synonyms)}
            singular = {word[:-1] if word.endswith("s") else "", word[:-3] + "y" if word.endswith("ies") else ""}
            singular |= {word[:-2]} if word.endswith("es") else set()
            if (singular - {""}) & names:
                return True
        return False

    # -- the query ------------------------------------------------------------------------
    def _build(
        self,
        cues: Cues,
        terms: Terms,
        time_range: TimeRange,
        comparison: Comparison | None,
        corrections: tuple[Correction, ...],
        as_of: date,
        language: Language,
        *,
        marks: ShareMarks,
    ) -> SemanticQuery:
        dims = list(terms.dims)
        if cues.all_of_them == "each" and not dims:  # "所有渠道GMV都超过100万吗", "所有渠道都有订单吗": each one
            dims = sorted(terms.dims_naming_a_set)
        elif cues.all_of_them == "unsaid" and cues.bound is not None and not dims:
            # "所有渠道GMV超过4000万吗": their sum, or each one? asked, never guessed
            raise _asked(
                "nlu.check_sum_or_each", {"dimensions": sorted(terms.dims_naming_a_set), "reason": "check_sum_or_each"}
            )
        filters, share_filters = self._filters(cues, terms, dims, marks)
        self._no_filter_of_nothing(filters)
        self.check_dimensions(terms.metrics, dims, [f.dimension for f in (*filters, *share_filters)])
        grain = cues.grain
        if cues.trend and grain is None:
            grain = self.default_grain(time_range)
        if comparison is not None and grain is not None:
            # "近4周每周的取消率有没有变高": a change word over a series is the series itself;
            # a comparison the question names cannot be drawn per period yet, so it is asked back
            implied = comparison.kind == "previous_period" and cues.comparison_kind is None and not cues.why
            if comparison.kind == "same_period_last_year" and not cues.why:
                pass  # "2026年每月GMV同比": each period of the series beside its own last year
            elif not implied:
                raise AmbiguousQuestion(
                    *(
                        message("nlu.grain_with_comparison", lang, grain=message(f"answer.grain_{grain}", lang))
                        for lang in LANGUAGES
                    ),
                    detail={"grain": grain},
                )
            else:
                comparison = None
        top_n, place = cues.top_n, cues.rank_place
        longest = max(top_n or 0, place or 0)
        if longest > MAX_RANKED:  # "top 5000 categories": more than a ranking lists
            raise AmbiguousQuestion(
                *both("nlu.ranking_too_long", n=longest, most=MAX_RANKED), detail={"reason": "ranking_too_long"}
            )
        if (top_n is not None or place is not None or cues.best or cues.rank) and not dims and grain is None:
            raise AmbiguousQuestion(*self.with_examples("nlu.ranking_of_what"), detail={"missing": "breakdown"})
        if cues.breakdown and not dims and grain is None:
            raise AmbiguousQuestion(*self.with_examples("nlu.breakdown_by_what"), detail={"missing": "breakdown"})
        several = False  # "which categories had the most": the whole ranking, highest first
        if cues.best and top_n is None and place is None and not cues.both_ends:
            several = cues.several or self._named_in_plural(terms, dims)
            cues.rank = cues.rank or several
            top_n = None if several else 1  # "ranked second-lowest": the place is the ranking
        ranked_inside: tuple[str, ...] = ()  # "每个渠道GMV最高的2个品类": the top N inside each channel
        simple = comparison is None and grain is None and not (cues.share or cues.difference or cues.bound)
        each_period = False  # "每个月GMV最高的渠道": the top N inside each month of the series
        plain_series = comparison is None and not (cues.share or cues.difference or cues.bound)
        if cues.rank_within is not None and top_n is not None and place is None and not several and simple:
            ranked_inside = (cues.rank_within,)
        elif cues.rank_each_period and top_n is not None and place is None and not several and plain_series:
            each_period = grain is not None and len(dims) == 1
        if not (ranked_inside or each_period) and (top_n is not None or place is not None or several):
            # of each group, or of the pairs?
            self.check_ranked_keys(dims, grain, combination=cues.combination)
        ranked = bool(top_n or place or cues.rank)
        if ranked or cues.best:  # "was June our worst month this year?": one month ranked is no ranking
            check_ranking_of_one_period(time_range, grain, dims)
        asked_member = None
        one = [f for f in filters if f.dimension in dims and len(f.members) == 1 and not f.exclude]
        if (
            ranked
            and one
            and (_first_asked(cues, dims, top_n, place, comparison) or _place_asked(cues, dims, comparison))
        ):
            asked_member, filters = one[0].members[0], [f for f in filters if f is not one[0]]
            top_n = None  # "华东是不是GMV最高的区域": every region ranked, and whether 华东 is first
        elif ranked and one:
            raise _asked("nlu.ranking_of_one", {"dimensions": dims})  # "show East China's top region"
        elif ranked and any(_A_PLACE.search(said) for said in cues.place_said):
            other = [m for m in terms.members if not m.excluded and m.dimension not in dims]
            if len(other) == 1:  # "华南GMV在各渠道里排第几": a region's place among channels?
                said = other[0].hit.text
                raise _asked("nlu.place_of_other_kind", {"member": said, "dimensions": dims}, member=said)
        rank_by: ChangeMeasure | Literal["value"] = "value"
        order = self.order_of(cues, terms.metrics) if (ranked or cues.best) else cues.order
        if ranked and comparison is not None and cues.quality is not None and not cues.change:
            # "上个月GMV环比表现最差的渠道": the worst value, or the worst change?
            raise _asked("nlu.rank_value_or_change", {"dimensions": dims})
        if cues.rank and comparison is not None and top_n is None and place is None and not cues.change and dims:
            # "各渠道GMV环比，从低到高排": sorted by the value, or by the change? asked, never dropped
            raise _asked("nlu.rank_value_or_change", {"dimensions": dims})
        if ranked and comparison is not None and cues.change and not cues.value_ranked:
            # "哪个渠道GMV环比下降最多": ranked by the change, not by the value — when it says which way
            if cues.ranked_change is None or not dims:
                raise _asked("nlu.rank_by_change", {"dimensions": dims})
            if place is not None:  # a place by a change is not stated: asked, never shown as the first
                raise _asked("nlu.place_by_change", {"reason": "place_by_change"}, place=place)
            rank_by, order = cues.ranked_change
        share = cues.share
        parted = {f.dimension for f in share_filters}
        within = [d for d in dims if (d in marks.inside or d in marks.whole) and d not in parted] if share else []
        if share:
            self.check_share(terms.metrics, dims, share_filters, comparison, grain)
            if within and set(within) == set(dims) and not share_filters:  # "每个区域的订单中占比": of what?
                raise _asked("nlu.share_of_what", {"dimensions": within})
            if len(dims) > 1 and not within:
                # "channel mix of GMV for new vs returning users": each cell of the grand total, or
                # the channels inside each user type? asked, as a part beside a breakdown is
                raise _asked("nlu.share_within_or_across", {"dimensions": dims})
        if cues.average_per is not None:
            self.check_average(cues.average_per, terms.metrics, grain, share)
        threshold = None
        if cues.bound is not None:  # "退款率超过5%的品类": the groups that pass, no ranking beside it
            of_change = cues.bound.change is not None  # "环比增长超过5%的品类": compared, and kept by the change
            beside = ranked or cues.best or (share and not cues.bound.share) or cues.difference or cues.ratio
            beside = beside or (comparison is not None and not of_change)
            beside = beside or (bool(dims) and grain is not None)  # "每天GMV超过200万的渠道": every day, or any?
            groups = bool(dims) or grain is not None
            threshold = threshold_of(
                cues.bound,
                self.catalog,
                terms.metric_hits,
                terms.metrics,
                groups=groups,
                beside=beside,
                yes_no=cues.yes_no,
                compared=comparison is not None,
                shared=share,
            )
            if cues.yes_no and (not groups or cues.every):  # "超过1.5亿吗", "每个渠道都超过100万吗": a check
                threshold = threshold.model_copy(update={"check": "all"})
        compared = comparison is not None and rank_by == "value"
        intent = (
            "why"
            if cues.why
            else "comparison"
            if comparison
            else "share"
            if share
            else "ranking"
            if top_n or place or (cues.rank and (dims or grain))
            else "trend"
            if grain
            else "breakdown"
            if dims
            else "value"
        )
        query = SemanticQuery(
            metrics=tuple(terms.metrics),
            dimensions=tuple(dims),
            filters=tuple(filters),
            time_range=time_range,
            grain=grain,
            comparison=comparison,
            top_n=top_n,
            rank_place=place,
            order=order,
            listed=listing_order(cues, order, top_n, place, share),
            rank_by=rank_by,
            rank_within=ranked_inside,
            rank_each_period=each_period,
            intent=intent,
            share=share,
            share_filters=tuple(share_filters),
            share_within=tuple(within),
            # one direction asked beside several metrics ("orders and AOV, and did AOV go up"): of which? none
            premise=cues.premise
            if cues.why or (compared and threshold is None and not (cues.yes_no and len(terms.metrics) > 1))
            else None,
            asked_member=asked_member,
            place_asked=asked_member is not None and cues.place_asked,
            premise_asked=premise_asked(
                cues, compared=compared, groups=bool(dims) or grain is not None, metrics=len(terms.metrics)
            ),
            threshold=threshold,
            average_per=cues.average_per,
            difference=cues.difference and (two_members_apart(dims, filters) or cues.both_ends),
            ratio=cues.ratio,
            corrections=corrections,
            as_of=as_of,
        )
        self.check_average_periods(query)
        gap_said = cues.difference and not query.difference  # "by region, new minus returning orders"
        if gap_said or (query.difference and (query.grain is not None or query.comparison is not None)):
            # "今年每月华东比华南多多少": a gap per month or inside each group is not built: asked back
            raise _asked("nlu.gap_per_group", {"dimensions": list(dims), "grain": grain})
        two_periods = query.comparison is not None and query.comparison.kind == "custom"
        if query.ratio and not query.difference and not (two_periods and not dims and query.grain is None):
            # "GMV和订单量的比值", "GMV增长了几倍": a ratio of two members, or of two periods' totals, only
            raise _asked("nlu.ratio_of_two", {"ratio": True})
        return query

    def _no_count_of_a_rate(self, corrections: Sequence[Correction], found: Sequence[Hit]) -> None:
        """ "conversions last month": a rate's name in the plural counts things (conversions,
        refunds), the rate does not; read as the rate only after asking."""
        for c in corrections:
            if c.kind != "typo" or c.written.lower() != c.read_as.lower() + "s":
                continue
            named = [t for h in found if h.text.lower() == c.read_as.lower() for t in h.terms if t.kind == "metric"]
            if named and all(self.catalog.metrics[t.target].is_ratio for t in named):
                metric = self.catalog.metrics[named[0].target]
                raise AmbiguousQuestion(
                    *both("nlu.count_of_a_rate", written=c.written, metric=metric.label.en, metric_zh=metric.label.zh),
                    detail={"reason": "count_of_a_rate", "written": c.written, "metric": named[0].target},
                )

    def _no_gap_of_two_metrics(self, scan: Scan, cues: Cues, terms: Terms, periods: Sequence[object]) -> None:
        """ "difference between GMV and net revenue last month", "上个月GMV比净收入高多少": the gap
        between two metrics, or each against the period before? Each one's change only when a
        second period, or a previous-period word, sets one against it; else asked back."""
        said = [scan.norm[a:b] for a, b in cues.spans.get("change", [])]
        gap = any(vocab.GAP.fullmatch(w.strip()) for w in said)  # GAP holds every GAP_BETWEEN word
        if not gap or len(terms.metrics) < 2 or terms.members:
            return
        if len(periods) > 1 or cues.comparison_kind or cues.spans.get("previous_period"):
            return
        first, second = (self.catalog.metrics[m].label for m in terms.metrics[:2])
        raise AmbiguousQuestion(
            *both("nlu.gap_of_two_metrics", first=first.en, second=second.en, first_zh=first.zh, second_zh=second.zh),
            detail={"reason": "gap_of_two_metrics", "metrics": list(terms.metrics)},
        )

    def _no_filter_of_nothing(self, filters: Sequence[MemberFilter]) -> None:
        """ "不看新客老客的GMV", "excluding every channel": every member of a dimension taken out leaves
        no rows; asked back (naming them), never answered with an empty result."""
        for f in filters:
            members = self.catalog.dimensions[f.dimension].members
            if f.exclude and members and set(members) <= set(f.members):
                label = self.catalog.dimensions[f.dimension].label
                raise AmbiguousQuestion(
                    *both("nlu.everything_excluded", dimension=label.en, dimension_zh=label.zh),
                    detail={"reason": "everything_excluded", "dimension": f.dimension},
                )

    def _no_average_across_groups(self, cues: Cues, terms: Terms, scan: Scan) -> None:
        """ "average AOV across channels": the overall rate, or the mean of the groups' rates?
        They differ; asked back."""
        ratios = bool(terms.metrics) and all(self.catalog.metrics[m].is_ratio for m in terms.metrics)
        if cues.average and ratios and terms.dims and _ACROSS_GROUPS.search(scan.norm):
            raise _asked(
                "nlu.average_across_groups",
                {"reason": "average_across_groups", "metrics": list(terms.metrics), "dimensions": list(terms.dims)},
            )

    def check_ranked_keys(self, dims: Sequence[str], grain: Grain | None, *, combination: bool) -> None:
        """A top N or a place over two keys ("各区域GMV最高的品类") ranks their combinations only
        when the question says so (``combination``: "组合", "pairs"); else it is asked back, as
        the top of each group is not built (the rules, a model's plan and a follow-up alike)."""
        if len(dims) + (grain is not None) < 2 or combination:
            return

        def labels(language: Language) -> list[str]:
            named = [self.catalog.dimensions[d].label.for_lang(language) for d in dims]
            return named + ([message(f"answer.grain_{grain}", language)] if grain is not None else [])

        raise rank_within_or_across(labels, {"dimensions": list(dims), "grain": grain})

    def _filters(
        self, cues: Cues, terms: Terms, dims: list[str], marks: ShareMarks
    ) -> tuple[list[MemberFilter], list[MemberFilter]]:
        """Member filters by dimension, and the filters of a share's part. Several members of
        one dimension are shown one by one — their dimension is added to ``dims`` — unless the
        question asks for their total; with a share, the members of one dimension are the part
        whose share of the whole is asked — across a breakdown the whole is the filtered total
        ("华东各品类GMV占比"), unless the breakdown's groups are marked as the whole
        ("每个区域的订单中APP占多少"); members of the breakdown's own dimension are the part of
        the whole unfiltered by them ("各渠道中APP的GMV占比": APP's share of all channels, not
        100 %; "各区域中华东和华南的GMV占比": each of the national total); a member marked as the
        part beside an unmarked breakdown ("app share of orders by region": within each region,
        or across them?) is asked back."""
        explicit = list(dims)
        by_dim: dict[tuple[str, bool], list[str]] = {}
        for m in terms.members:
            bucket = by_dim.setdefault((m.dimension, m.excluded), [])
            if m.member not in bucket:
                bucket.append(m.member)
        filters = [MemberFilter(dimension=d, members=tuple(ms), exclude=ex) for (d, ex), ms in by_dim.items()]
        for f in filters:
            narrowed = f.dimension in cues.narrowed and bool(explicit)  # "只看app和小程序，各区域GMV": one subset
            if not f.exclude and len(f.members) > 1 and not cues.total and not narrowed and f.dimension not in dims:
                dims.append(f.dimension)
        if not cues.share or not filters:
            return filters, []
        shown = [f for f in filters if not f.exclude and f.dimension in explicit]
        if shown:  # "各渠道中APP的GMV占比": members of the breakdown's own dimension, of the unfiltered whole
            return [f for f in filters if f not in shown], shown
        whole = marks.whole | set(explicit)  # a breakdown's members are never the part
        if explicit and not set(explicit) & marks.inside:
            parts = [f.dimension for f in filters if f.dimension in marks.part and f.dimension not in whole]
            if marks.weak:
                parts += [f.dimension for f in filters if f.dimension in marks.whole and f.dimension not in explicit]
            if parts:
                raise _asked("nlu.share_within_or_across", {"dimensions": [*explicit, *parts]})
            return filters, []  # a share across a breakdown: of the filtered whole
        # "除了直播以外，APP的GMV占比": what is excluded leaves the whole, what is named is the part;
        # only an exclusion ("非直播的GMV占比") is itself the part. Members a word marks as the whole
        # ("新用户的订单中", "among new users") filter the whole (nlu/shares.py).
        named = [f for f in filters if not f.exclude and f.dimension not in whole] or [
            f for f in filters if f.dimension not in whole
        ]
        share_dims = {f.dimension for f in named}
        if len(share_dims) > 1 and set(explicit) & marks.inside and len(share_dims & marks.part) == 1:
            # "华东每个品类的订单中直播占多少": 直播 is marked the part, 华东 bounds each group's whole
            share_dims &= marks.part
            named = [f for f in named if f.dimension in share_dims]
        if len(share_dims) != 1:
            raise _asked("nlu.share_of_what", {"dimensions": sorted(share_dims)})
        (share_dim,) = share_dims
        part = [f for f in named if f.dimension == share_dim]
        return [f for f in filters if f not in part], part

    def check_share(
        self,
        metrics: list[str],
        dims: list[str],
        share_filters: list[MemberFilter],
        comparison: Comparison | None,
        grain: Grain | None,
    ) -> None:
        ratios = [m for m in metrics if self.catalog.metrics[m].is_ratio or self.catalog.metrics[m].unit == "ratio"]
        if ratios:
            raise _asked("nlu.share_of_a_ratio", {"metrics": ratios})
        if comparison is not None:
            raise _asked("nlu.share_with_comparison", {})
        if not dims and not share_filters:
            raise _asked("nlu.share_of_what", {"dimensions": []})

    def check_average(self, per: Grain, metrics: list[str], grain: Grain | None, share: bool) -> None:
        """An average per day (week, month …) is of an amount or a count, over one period ("日均GMV",
        "月均订单量"); of a rate ("日均转化率": the period's rate, or the mean of daily rates?), over
        a series, or with a share it is asked back."""
        fields = average_fields(per)
        rates = [m for m in metrics if not self.catalog.metrics[m].amount_or_count]
        if rates:
            labels = metric_labels(self.catalog, rates)
            raise AmbiguousQuestion(
                *(message("nlu.average_of_a_ratio", lang, metrics=labels[lang], **fields) for lang in LANGUAGES),
                detail={"metrics": rates, "reason": "average_of_a_ratio"},
            )
        if grain is not None:
            raise AmbiguousQuestion(
                *both("nlu.average_with_grain", **fields, **localized("series", f"answer.grain_{grain}")),
                detail={"grain": grain, "reason": "average_with_grain"},
            )
        if share:
            raise AmbiguousQuestion(*both("nlu.average_with_share", **fields), detail={"reason": "average_with_share"})

    @staticmethod
    def check_average_periods(query: SemanticQuery) -> None:
        """An average per week (month …) divides by whole weeks: a period that cuts one ("上个季度
        周均GMV": 13 weeks and two days) is asked back, with the whole weeks inside it; so is a why
        about one (an analysis explains a total, or an average per day)."""
        per = query.average_per
        if per is None or per == "day":
            return
        fields = average_fields(per)
        if query.intent == "why":
            raise AmbiguousQuestion(*both("nlu.average_of_why", **fields), detail={"reason": "average_of_why"})
        ranges = [query.time_range] + ([query.comparison.range] if query.comparison is not None else [])
        for period in ranges:
            if spine.whole_period_count(period.start, period.end, per) is not None:
                continue
            inside = spine.whole_inside(period.start, period.end, per)
            whole = (
                localized("whole", "nlu.average_whole_part", start=inside[0], end=inside[1], **fields)
                if inside
                else {"whole": "", "whole_zh": ""}
            )
            said = {"period": period.text or f"{period.start}~{period.end}"}
            raise AmbiguousQuestion(
                *both("nlu.average_cuts_a_period", start=period.start, end=period.end, **said, **fields, **whole),
                detail={
                    "reason": "average_cuts_a_period",
                    "suggestions": [f"{inside[0]}~{inside[1]}"] if inside else [],
                },
            )

    def check_dimensions(self, metrics: list[str], dims: list[str], filtered: list[str]) -> None:
        """Every breakdown and filter is one the metrics can be broken down by (else invalid)."""
        for metric in metrics:
            allowed = self.catalog.metrics[metric].dimensions
            for dim in [*dims, *filtered]:
                if dim not in allowed:
                    raise QuestionRefused(
                        *(self._unsupported_dimension(metric, dim, allowed, lang) for lang in LANGUAGES),
                        detail={"metric": metric, "dimension": dim, "reason": "unsupported_dimension"},
                    )

    def _unsupported_dimension(self, metric: str, dim: str, allowed: Sequence[str], lang: Language) -> str:
        listed = message("answer.list_sep", lang).join(self.catalog.dimensions[d].label.for_lang(lang) for d in allowed)
        return message(
            "nlu.unsupported_dimension",
            lang,
            metric=self.catalog.metrics[metric].label.for_lang(lang),
            dimension=self.catalog.dimensions[dim].label.for_lang(lang),
            allowed=listed or message("nlu.no_dimensions", lang),
        )

    def refused_metric(self, name: str) -> UnsupportedMetric:
        """A metric the catalog names but Baton does not compute: refused with the catalog's reason."""
        refused = self.catalog.refused[name]
        return UnsupportedMetric(
            *(
                message(
                    "nlu.metric_refused", lang, label=refused.label.for_lang(lang), reason=refused.reason.for_lang(lang)
                )
                for lang in LANGUAGES
            ),
            detail={"metric": name, "refused": True},
        )

    def several_metrics(self, term: str, names: Sequence[str]) -> AmbiguousQuestion:
        """Asked back: ``term`` names every metric of ``names`` equally, so Baton will not pick one."""
        named = list(names)
        return AmbiguousQuestion(
            *(
                message(
                    "nlu.several_metrics",
                    lang,
                    term=term,
                    labels=message("answer.list_sep", lang).join(
                        self.catalog.metrics[m].label.for_lang(lang) for m in named
                    ),
                )
                for lang in LANGUAGES
            ),
            detail={"term": term, "suggestions": named},
        )

    def unknown_metric(self, term: str) -> UnknownMetric:
        """The refusal of a metric the catalog does not define, naming the metrics whose names hold
        the word (else the closest three)."""
        closest = metrics_naming(self.lexicon, term) or self.closest_metrics(term)

        def listed(lang: Language) -> str:
            return message("answer.list_sep", lang).join(
                message("nlu.metric_item", lang, label=self.catalog.metrics[m].label.for_lang(lang), name=m)
                for m in closest
            )

        return UnknownMetric(
            *(message("nlu.unknown_metric", lang, term=term, closest=listed(lang)) for lang in LANGUAGES),
            detail={"term": term, "suggestions": closest},
        )

    def closest_metrics(self, term: str, k: int = 3) -> list[str]:
        """Catalog metrics ranked by similarity of their names, labels and synonyms to a term."""
        needle = normalise(term)
        scores: list[tuple[float, str]] = []
        for name, surfaces in self.lexicon.surfaces("metric").items():
            best = 0.0
            for surface in surfaces:
                ratio = SequenceMatcher(None, needle, surface).ratio()
                shared_tail = 0.15 if needle[-1:] == surface[-1:] and not needle.isascii() else 0.0
                overlap = len(set(needle) & set(surface)) / max(len(set(needle)), 1)
                best = max(best, ratio + shared_tail + 0.3 * overlap)
            scores.append((best, name))
        scores.sort(key=lambda s: (-s[0], list(self.catalog.metrics).index(s[1])))
        return [name for _, name in scores[:k]]

    def with_examples(self, key: str) -> tuple[str, str]:
        """A message in both languages whose examples name this catalog's own metric and dimensions."""
        metric = next(iter(self.catalog.metrics.values()), None)
        dims = list(self.catalog.dimensions.values())

        def say(lang: Language) -> str:
            return message(
                key,
                lang,
                metric=metric.label.for_lang(lang) if metric else "",
                dimension=dims[0].label.for_lang(lang) if dims else "",
                dimensions=message("answer.list_sep", lang).join(d.label.for_lang(lang) for d in dims[:2]),
            )

        return say("en"), say("zh")

    def examples(self, language: str) -> list[str]:
        return [m.label.for_lang(language) for m in list(self.catalog.metrics.values())[:5]]

    @staticmethod
    def default_grain(time_range: TimeRange) -> Grain:
        """The grain of a trend whose grain the question does not say, by the period's length."""
        if time_range.days <= 62:
            return "day"
        if time_range.days <= 190:
            return "week"
        return "month"


_BY_BEFORE = patterns.compile(r"\bby\s+(?:the\s+)?$", re.I)
"""English "by" right before a metric ("top regions by GMV", "categories by orders")."""


def _members_only(hit: Hit) -> Hit:
    if {"metric", "member"} <= hit.kinds:
        return dataclasses.replace(hit, terms=tuple(t for t in hit.terms if t.kind != "metric"))
    return hit


_COMMA_ONLY = patterns.compile(r"^\s*[,，]\s*$")
_CN_COMMA = patterns.compile(r"\s*，\s*")
_CLOSED_LATER = patterns.compile(r"[^。？?；;！!]*?(?:以外|之外|除外|其他|其余|其它|剩下|剩余|别的)")
"""An exclusion list a Chinese comma runs on in ("除了APP，小程序和网页以外", "除了华东，华南，其他区域"):
closed by 以外 or 其他 later; without it ("除了华东，华南和华北的GMV") the comma ends the exclusion."""


_ONLY_BEFORE = patterns.compile(
    r"(?:只|仅|单)(?:看|算|统计|查|限|要)?\s*(?:一下)?\s*$|\b(?:only|just)\s+(?:for\s+|in\s+)?(?:the\s+)?$", re.I
)
""" "只看" / "仅限" / "only (the)" right before a member: it narrows, never breaks down."""


_COMMA = patterns.compile(r"[,，;；]")
"""A comma ends a clause; 、 lists ("除了直播、华东" takes both out)."""


def _no_rows_ranked(scan: Scan, cues: Cues) -> None:
    """ "前0的品类", "排名第0": a count or place of none names no row — asked back, never a failure."""
    if (cues.top_n is not None and cues.top_n < 1) or (cues.rank_place is not None and cues.rank_place < 1):
        said = [scan.text[s:e] for s, e in cues.spans.get("ranking", [])] or [scan.text]
        raise AmbiguousQuestion(*both("nlu.ranked_none", said=said[0]), detail={"reason": "ranked_none"})


def _comma_after_an_exclusion(cue: re.Match[str], prev: Hit, nxt: Hit) -> None:
    """ "不含华东，华南的GMV": a member of the excluded one's dimension after a Chinese comma is
    either excluded too or the one asked for, and the exclusion would be empty if it were the
    one asked for — asked back. After 除(了) ("除了华东，华南的…", besides East China, South
    China's…) the comma ends the exclusion."""
    if cue.group(0).startswith("除") and not cue.group(0).startswith("除去"):
        return
    if not _member_dimensions(prev) & _member_dimensions(nxt):
        return
    raise AmbiguousQuestion(
        *both("nlu.excluded_then_named", excluded=prev.text, named=nxt.text),
        detail={"reason": "excluded_then_named", "excluded": prev.text, "named": nxt.text},
    )


def _member_dimensions(hit: Hit) -> set[str]:
    """The dimensions whose members a hit names (one, unless a value is held by several)."""
    return {t.target.split(":", 1)[0] for t in hit.terms if t.kind == "member"}


def _in_one_list(join: str, prev: Hit, nxt: Hit, scan: Scan) -> bool:
    """Whether two members an exclusion word governs stand in one list: a list word between them,
    or nothing at all between two of one dimension ("不含华东华南": both taken out, as Chinese lists
    them side by side). Raises (asks back, naming both) for two of different dimensions side by
    side ("不含华东app": both taken out, their intersection, or only the first?)."""
    if vocab.LIST_JOIN.match(join):
        return True
    if join.strip():
        return False
    first, second = _member_dimensions(prev), _member_dimensions(nxt)
    if len(first) == 1 and first == second:
        return True
    phrase = scan.text[prev.start : nxt.end]
    raise AmbiguousQuestion(
        *both("nlu.exclusion_across_dimensions", first=prev.text, second=nxt.text, phrase=phrase),
        detail={"reason": "exclusion_across_dimensions", "members": [prev.text, nxt.text]},
    )


def _clause_ends(joins: list[str], i: int) -> bool:
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


_UNTIL_BEFORE = patterns.compile(
    r"(?:累计到|累计至|累积到|截至|截止到?|截止至|直到|一直到|(?:^|[\s，,；;])(?:到|至))\s*$"
    r"|\b(?:up\s+to|up\s+until|through|thru|until|till|as\s+of|by)\s+(?:the\s+)?$",
    re.I,
)
"""A period's end said with no start ("累计到3月底", "GMV up to March 31", "as of June 15", "by end of
April"): the words that would make it the end of a range."""


def listing_order(
    cues: Cues, order: Literal["desc", "asc"], top_n: int | None, place: int | None, share: bool
) -> Literal["desc", "asc"] | None:
    """The listing order said apart from the end a ranking takes ("前三，从低到高"); of a share's
    parts without a top N ("各渠道GMV占比，从低到高"), the order they are listed in."""
    if share and top_n is None and place is None and cues.listed is not None:
        return cues.listed
    return cues.listed if cues.listed != order and (top_n or 0) != 1 and place is None else None


def _until_with_no_start(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> None:
    """ "累计到3月底的GMV", "至5月", "orders by end of April": from when? Asked back, never the end
    period alone (a range said whole — "今年到3月底" — is one period and passes)."""
    for period in periods:
        if period.match is None:
            continue
        before = _UNTIL_BEFORE.search(scan.norm, 0, period.span[0])
        if before is None:
            continue
        said = scan.text[before.start() : period.span[1]]
        raise AmbiguousQuestion(*both("nlu.until_with_no_start", said=said), detail={"reason": "until_with_no_start"})


_FROM_A_POINT_ON = patterns.compile(r"(?:起|开始)\s*$|\b(?:onwards?|and\s+(?:after|later))\s*$", re.I)


def _this_period_beside_another(scan: Scan, periods: Sequence[timeexpr.PeriodReading]) -> None:
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


def _a_change_from_a_point_on(cues: Cues, periods: Sequence[timeexpr.PeriodReading]) -> None:
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


def _members_paired_with_periods(scan: Scan, periods: list[timeexpr.PeriodReading], terms: Terms) -> None:
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


def _members_said_of_the_first_metric(scan: Scan, terms: Terms) -> None:
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


_SUPERLATIVE_WORD = patterns.compile(
    r"最|\b(?:highest|lowest|largest|smallest|biggest|most|least|fewest|best|worst|top|bottom)\b", re.I
)
"""A ranking word that picks a group ("为什么GMV最高的区域下降了"), not a comparative ("更高")."""


def two_members_apart(dims: Sequence[str], filters: Sequence[MemberFilter]) -> bool:
    """The breakdown is two members of one dimension, shown side by side."""
    return len(dims) == 1 and any(f.dimension == dims[0] and len(f.members) == 2 and not f.exclude for f in filters)


_EACH_AND_SUM = patterns.compile(r"\beach\s*(?:and|&|,|plus)\s*(?:the\s+)?(?:combined|total|in total|together|sum)\b")
_SUMMED = patterns.compile(
    r"总|合计|总共|一共|加起来|合起来|加在一起|加一起|之和|加总|汇总|总和|共计|总计|in total|combined|altogether|together|total|sum"
)
_BY_BEFORE = patterns.compile(r"\bby\s+(?:the\s+)?$")


_WHOLE_BEFORE = patterns.compile(r"(?:总|整体的?|全国的?|总体的?|\btotal\s+|\boverall\s+|\ball\s+)$")


def _member_beside_the_whole(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "二季度家电的退款率比整体高多少", "新用户的订单量和总GMV", "than overall": a member beside the
    whole takes one query filtered and one not — asked back, never the member's figure twice or
    a comparison with the previous period."""
    if cues.share or not any(not m.excluded for m in terms.members):
        return  # "华东的订单量占全国的比例": a share is of the whole by construction
    whole = vocab.WHOLE_REF.search(scan.norm)
    beside = vocab.GAP.search(scan.norm) or vocab.COMPARE.search(scan.norm) or len(terms.metric_hits) > 1
    total_metric = len(terms.metric_hits) > 1 and any(
        _WHOLE_BEFORE.search(scan.norm[: h.start]) for h in terms.metric_hits
    )
    joined = _whole_joined_to_a_member(scan, terms) or whole_then_a_member(scan, terms)
    if (whole and beside) or total_metric or joined:
        said = joined or (whole.group(0) if whole else "")
        raise _asked("nlu.member_beside_the_whole", {"whole": said, "members": [m.member for m in terms.members]})


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
    r"整体|全国|总体|全平台|大盘|全部|所有|全体|总量|总数|\boverall\b|\bthe whole\b|\ball\b|\bin total\b|\btotal\b",
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


def _the_rest_ranked(cues: Cues, terms: Terms) -> None:
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


def _total_said_before_a_metric(scan: Scan, cues: Cues, terms: Terms) -> None:
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


def _total_beside_each_or_a_ranking(scan: Scan, cues: Cues, terms: Terms) -> None:
    """ "华东和华北的订单量，分别和合计" and "total GMV of the top 3 categories" ask for a sum
    beside the rows themselves; one query answers one of the two, so both are asked back
    ("top 3 channels by total GMV" is a ranking by the metric, no sum)."""
    said = [scan.norm[a:b] for a, b in cues.spans.get("total", []) if not _BY_BEFORE.search(scan.norm[:a])]
    each = [scan.norm[a:b] for a, b in cues.spans.get("separately", []) if scan.norm[a:b].strip() != "each"]
    each += [m.group(0) for m in _EACH_AND_SUM.finditer(scan.norm)]  # "each and combined"
    summed = [w for w in said if _SUMMED.fullmatch(w.strip())]
    beside_groups = [w for w in summed if w.strip() != "total"]  # "total GMV by channel" is the breakdown
    of_the_top = _SHARE_FROM_THE_TOP.search(scan.norm) if cues.share else None
    if of_the_top is not None:  # "what share of GMV came from the top 3 regions": their sum's share
        summed.append(of_the_top.group(0))
    if summed and cues.top_n is not None and cues.top_n > 1:
        raise AmbiguousQuestion(
            *both("nlu.total_of_ranked", n=cues.top_n), detail={"total": summed, "top_n": cues.top_n}
        )
    if (said and each) or (beside_groups and terms.dims):  # "各区域GMV，以及全国合计", "GMV by channel and in total"
        raise _asked("nlu.each_and_total", {"total": said, "each": each, "dimensions": list(terms.dims)})
    joined = TOTAL_JOINED.search(scan.norm)  # "for each channel and the total", "各区域GMV和全国GMV"
    if (joined and (terms.dims or cues.grain is not None or each)) or whole_then_each(scan):
        said = [joined.group(0)] if joined else []
        raise _asked("nlu.each_and_total", {"total": said, "each": each, "dimensions": list(terms.dims)})
    both_said = total_and_each(scan)  # "总GMV和各渠道GMV", "total GMV and GMV by channel"
    if both_said is not None and (terms.dims or cues.grain is not None):
        raise _asked("nlu.each_and_total", {"total": [both_said], "each": each, "dimensions": list(terms.dims)})


def _the_members_dimension_ranked(cues: Cues, terms: Terms) -> None:
    """ "上个月华东的GMV是最高的吗": a yes/no of one member being first names no dimension but the
    member's own — ranked over it, never over a remembered default breakdown."""
    named = [m for m in terms.members if not m.excluded]
    best = cues.best and cues.top_n is None and cues.rank_place is None
    if ((best and cues.yes_no) or cues.place_asked) and not terms.dims and len(named) == 1:
        terms.dims.append(named[0].dimension)  # "华南上个月GMV排第几": among the regions


def _first_asked(
    cues: Cues, dims: list[str], top_n: int | None, place: int | None, comparison: Comparison | None
) -> bool:
    """ "华东是不是GMV最高的区域", "is app the biggest channel?": a yes/no of whether one member is first
    of a one-dimension ranking by value — answered over every member, never asked back."""
    return cues.yes_no and len(dims) == 1 and top_n in (None, 1) and place is None and _by_value(cues, comparison)


def _place_asked(cues: Cues, dims: list[str], comparison: Comparison | None) -> bool:
    """ "华南上个月GMV排第几", "where does web rank among channels": the place of one member in a
    one-dimension ranking by value — every member ranked, its place said."""
    unranked = cues.top_n is None and cues.rank_place is None
    return cues.place_asked and len(dims) == 1 and unranked and _by_value(cues, comparison)


def _by_value(cues: Cues, comparison: Comparison | None) -> bool:
    """A ranking of the value alone: no comparison, share, gap or bound beside it."""
    return comparison is None and not (cues.share or cues.difference or cues.bound is not None)


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


def _asked(key: str, detail: dict[str, object], **fields: object) -> AmbiguousQuestion:
    """A question back, in both languages (``fields``: what its message names)."""
    return AmbiguousQuestion(*both(key, **fields), detail=detail)


_A_PLACE = patterns.compile(r"第几|多少|\bplace\b|\bposition\b|\brank\b|\bwhere\b|\bhow\b", re.I)
"""A place asked in so many words ("排第几", "where does … rank"), not a bare "排名" (also a ranking
of the groups inside a member: "华南各渠道GMV排名")."""
_ACROSS_GROUPS = patterns.compile(r"\bacross\b|\bamong\b|\bover all\b|各.{0,6}之间|所有.{0,6}的平均", re.I)
"""An average said over the groups themselves ("average AOV across channels")."""
_CAPITALISED = patterns.compile(r"(?<![\w])[A-Z][A-Za-z]+")


__all__ = ["Planner", "check_ranking_of_one_period", "listing_order", "the_groups_that_moved", "two_members_apart"]
