"""The catalog terms of a question: metrics (one of several equal names asked back), dimensions
(a breakdown, or the set a filter applies to: "所有渠道", "app以外的渠道"), members (excluded by the
words around them: "除了A和B以外", "非A", "A除外"; subtracted: "app minus web") — each hit claimed,
so what is left can be accounted for."""

from __future__ import annotations

import dataclasses
import functools
import itertools
import re
from collections.abc import Sequence

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.common import LANGUAGES, Language
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.messages import both
from baton.messages import text as message
from baton.nlu import vocabulary as vocab
from baton.nlu.catalog_checks import CatalogChecks
from baton.nlu.cues import Cues
from baton.nlu.guards import (
    BY_BEFORE,
    CLOSED_LATER,
    CN_COMMA,
    COMMA,
    ask_back,
    clause_ends,
    comma_after_an_exclusion,
    in_one_list,
    member_dimensions,
    members_only,
)
from baton.nlu.lexicon import Hit, Term, normalise
from baton.nlu.metric_words import (
    claim_measure_words,
    claim_metric_affixes,
    rates_said_as_shares,
    ratios_said_in_parts,
)
from baton.nlu.reading import (
    Member,
    Terms,
    check_per_member,
    claim_member_lists,
    claim_member_places,
    claim_term_lists,
)
from baton.nlu.scan import Scan
from baton.nlu.ties import Ties

_ALL_OF = patterns.compile(
    r"(所有|全部|全体|不限|(?<![完安健齐周保])全|(?:\bacross )?\ball\b|\ball (?:of )?the\b)\s*(?:的\s*)?$", re.I
)
_OTHER = patterns.compile(
    r"(其他|其余|其它|剩下|剩余|余下|\bother\b|\bremaining\b|\bthe rest of(?: the)?\b)\s*(?:的\s*)?$", re.I
)
"""Other members than the ones a question excludes ("除华东外，其他区域")."""
_MEMBER_COUNT = patterns.compile(r"(?:这|那)?(?:[两二三四五六七八九十]|\d+)\s*个\s*$")
"""The number of members just listed, before their dimension ("华北、华中、东北三个区")."""
_BETWEEN_FILLER = patterns.compile(r"^[\s的了是在与和及的、,，]*(?:(?:the|all|of|for|from|in)\s+)*$", re.I)


_AFTER_EXCLUSION = patterns.compile(r"\s*(?:以外|之外|除外|外)\s*的?\s*(?:(?:其他|其余|别的)的?)?\s*")
"""What stands between excluded members and the dimension word naming the rest ("app以外的渠道")."""
_BEFORE_ITS_MEMBER = patterns.compile(r"\s*(?:[(（:：=]|\bis\b|是|为)?\s*", re.I)
"""What stands between a dimension word and the member it names ("my category (home appliances)",
"品类：家电", "region East China")."""


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


_EXCLUDED_BEFORE = patterns.compile(rf"(?:{vocab.EXCLUDE_BEFORE.pattern})\s*(?:the\s+)?$", re.I)


def _cues_inside_terms(cues: Cues, hits: Sequence[Hit]) -> None:
    """Drop the ratio and share cues said inside ``hits`` (a ratio metric said as its two parts);
    a cue left with no span is no longer said."""
    for part in ("ratio", "share"):
        spans = [(s, e) for s, e in cues.spans.get(part, []) if not any(h.start <= s and e <= h.end for h in hits)]
        if part in cues.spans and not spans:
            setattr(cues, part, False)
        if part in cues.spans:
            cues.spans[part] = spans


_MEMBER_AFTER_PREPOSITION = patterns.compile(
    r"(?:\b(?:from|to|via|into|out\s+of|through|at|in|on)\s+(?:the\s+)?|从|到|在|经由?)\s*$", re.I
)
"""A preposition before a value: what it says ties the value to a role the dimension word of
the groups does not name ("destinations from LGA")."""
_NEVER = re.compile(r"(?!)")
_BESIDE = patterns.compile(r"\s*(?:为|是|在|=|:|：|\b(?:is|in|at|on)\b)?\s*", re.I)
"""What may stand between a dimension word and its value: "origin LGA", "origin in LGA", "出发机场在LGA"
— never 的 ("LGA的目的地": the destinations of flights from LGA)."""


_EACH_BEFORE = patterns.compile(r"(?:各个?|每个?|\b(?:each|every|all)\s+)\s*$", re.I)


def _starts_at_or_after(norm: str, start: int, hit: Hit) -> bool:
    """Whether ``start`` is ``hit``'s own start, or after it with nothing but spaces between."""
    return start == hit.start or (start >= hit.end and not norm[hit.end : start].strip())


def _words_before_a_member(scan: Scan, start: int, member: Hit, hits: Sequence[Hit]) -> str:
    """The text from ``start`` to ``member``, without what only says the member is one of the rows
    ("excluding flights to ATL", "excluding origin JFK"): words already read (the rows' metric word,
    the word placing the value after it) and the member's own dimension word."""
    said = list(scan.norm[start : member.start])
    dims = member_dimensions(member)
    for hit in hits:
        own = hit.kinds == {"dimension"} and {t.target for t in hit.terms} <= dims
        if start <= hit.start and hit.end <= member.start and own:
            said[hit.start - start : hit.end - start] = " " * (hit.end - hit.start)
    for s, e in scan.claimed:  # "flights to" of "excluding flights to ATL"
        if start <= s and e <= member.start:
            said[s - start : e - start] = " " * (e - s)
    return "".join(said)


def _listed_with(hit: Hit, hits: Sequence[Hit], norm: str, dims: set[str]) -> set[str]:
    """The dimensions among ``dims`` of the members listed with ``hit`` ("JFK和LGA", "EWR or LGA")
    that name a value of one dimension only."""
    ordered = sorted((h for h in hits if "member" in h.kinds), key=lambda h: h.start)
    at = next(i for i, h in enumerate(ordered) if h is hit) if any(h is hit for h in ordered) else None
    if at is None:
        return set()
    found: set[str] = set()
    for step in (-1, 1):
        i = at
        while 0 <= i + step < len(ordered):
            a, b = sorted((ordered[i], ordered[i + step]), key=lambda h: h.start)
            if a.end > b.start or not vocab.LIST_JOIN.match(norm[a.end : b.start]):
                break
            i += step
            own = member_dimensions(ordered[i])
            found |= own & dims if len(own) == 1 else set()
    return found


def _beside(norm: str, a: Hit, b: Hit) -> bool:
    """Whether two hits stand next to each other, a particle or sign at most between them."""
    first, second = (a, b) if a.start < b.start else (b, a)
    return first.end <= second.start and _BESIDE.fullmatch(norm, first.end, second.start) is not None


class TermReader(CatalogChecks):
    """Reads a question's catalog terms; the planner's first reader after the operators and periods."""

    def __init__(self, catalog: Catalog) -> None:
        super().__init__(catalog)
        self._equals: dict[str, list[str]] = {}

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
            hits = [members_only(hit) for hit in hits]
        # "excluding new users": a metric is never taken out, the member is
        hits = [members_only(h) if _EXCLUDED_BEFORE.search(scan.norm, 0, h.start) else h for h in hits]
        hits = self._without_rows_excluded(scan, hits)
        hits, ratios_read = ratios_said_in_parts(self.catalog, scan, hits, language)
        hits, rates_read = rates_said_as_shares(self.catalog, scan, hits, language)  # "% of orders refunded"
        ratios_read = [*ratios_read, *rates_read]
        if ratios_read:  # "GMV divided by orders": its "divided by" is the metric's, no ratio or share of its own
            _cues_inside_terms(cues, [h for h in hits if any(r.written == h.text for r in ratios_read)])
        terms = Terms(ratios_read=ratios_read)
        self._metric_or_member_listed(scan, hits)
        terms.metrics = self._metrics(hits, language, prefer)
        fitting = terms.metrics or (list(context.metrics) if context is not None else [])
        hits = [self._fitting(hit, fitting) for hit in hits]
        # a follow-up's groups, and the dimensions its members were kept by, name a value's kind
        shown = (*context.dimensions, *(f.dimension for f in context.filters)) if context is not None else ()
        hits = [self._one_dimension(hit, hits, fitting, scan.norm, shown) for hit in hits]
        for hit in hits:  # "flights went to ORD": the catalog's words before a value are the value's
            # … and before each of its values ("飞往各目的地", "flights to each destination"), its marker kept
            own = {t.target for t in hit.terms} if hit.kinds == {"dimension"} else set()
            start = hit.start
            if own and (marker := _EACH_BEFORE.search(scan.norm, 0, hit.start)) is not None:
                start = marker.start()
            for dim in member_dimensions(hit) | own:
                said = self._value_after(dim).search(scan.norm, 0, start)
                if said is not None and said.start() < start and scan.free(said.start(), start):
                    scan.claim(said.start(), start)
        terms.metric_hits = [h for h in hits if any(t.kind == "metric" for t in self._chosen_terms(h, hits))]
        terms.hits = hits
        members = [  # one member per hit, however many of its surfaces matched ("app", "APP")
            (target.split(":", 1), hit)
            for hit in hits
            for target in dict.fromkeys(t.target for t in self._chosen_terms(hit, hits) if t.kind == "member")
        ]
        _subtracted(scan, cues, members, hits)
        excluded = self._excluded(scan, cues, [hit for _, hit in members], hits)
        terms.members = [Member(dim, member, hit, id(hit) in excluded) for (dim, member), hit in members]
        check_per_member(scan, terms.members)
        claim_member_lists(scan, cues, terms.members)
        claim_member_places(scan, terms.members)
        claim_term_lists(scan, hits)
        # "categories excluding phones by orders": a metric after "by" orders the groups, each one asked
        by_metric = any(BY_BEFORE.search(scan.norm, 0, h.start) for h in terms.metric_hits)
        each = bool(cues.top_n or cues.best or cues.rank or cues.separately or by_metric)
        moved = cues.change or cues.comparison_kind is not None or (cues.why and cues.premise is not None)
        # a change of every member is each one's ("为什么所有渠道都下滑了": each channel's, its premise checked)
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
                    kept=_kept_members(context, hit.terms[0].target),
                )
        _not_just_the_old_scope(scan, terms)
        _no_longer_limited(scan, terms)
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

    def _one_dimension(
        self, hit: Hit, hits: list[Hit], metrics: Sequence[str] = (), norm: str = "", shown: Sequence[str] = ()
    ) -> Hit:
        """A value that several dimensions hold ("LGA": an origin and a destination) means the
        one a dimension word right beside it names ("从LGA出发", "origin LGA"), else the one a
        dimension word of the question names — unless a preposition before it says the value is
        of another ("destinations from LGA": the groups are destinations, LGA is where they are
        flown from); with none, in a follow-up, the one the previous answer was broken down or filtered by
        ("各出发机场的航班数" then "只看LGA": the origin shown; "flights from JFK" then "what about LGA": the
        origin kept), when only one of those holds the value; else it is asked back, never read as both. A word naming several
        dimensions the metrics can be broken down by ("home state": the viewer's and the listing
        owner's) is asked back the same way."""
        breakdowns = self._distinct_readings(sorted({t.target for t in hit.terms if t.kind == "dimension"}), metrics)
        if len(breakdowns) == 1 and hit.kinds == {"dimension"}:
            return dataclasses.replace(hit, terms=tuple(t for t in hit.terms if t.target == breakdowns[0]))
        owned = self._of_the_member_beside(hit, hits, breakdowns, metrics, norm) if len(breakdowns) > 1 else []
        if len(owned) == 1 and hit.kinds == {"dimension"}:  # "JFK airport": the airport JFK is, as its own dimension
            term = next(t for t in hit.terms if t.kind == "dimension")
            return dataclasses.replace(hit, terms=(dataclasses.replace(term, target=owned[0]),))
        if len(breakdowns) > 1 and hit.kinds == {"dimension"}:
            raise AmbiguousQuestion(
                *(
                    message("nlu.dimension_of_several", lang, word=hit.text, dimensions=self._labels(breakdowns, lang))
                    for lang in LANGUAGES
                ),
                detail={"word": hit.text, "suggestions": breakdowns},
            )
        dims = sorted(member_dimensions(hit))
        if len(dims) < 2:
            return hit
        after = [d for d in dims if self._value_after(d).search(norm, 0, hit.start)]
        listed = _listed_with(hit, hits, norm, set(dims))
        if len(after) == 1 or (not after and len(listed) == 1):
            # "flights from LGA": the catalog says a value after "from" is an origin; "JFK和LGA": LGA is
            # listed with an origin only an origin holds
            dim = after[0] if after else listed.pop()
            return dataclasses.replace(
                hit, terms=tuple(t for t in hit.terms if t.kind != "member" or t.target.split(":", 1)[0] == dim)
            )
        naming = [h for h in hits if h is not hit and {t.target for t in h.terms if t.kind == "dimension"} & set(dims)]
        beside = [h for h in naming if _beside(norm, h, hit)]
        # "LGA的各目的地": a dimension word of the groups (各, by) names no value apart from it
        naming = [h for h in naming if not vocab.GROUP_MARKER.search(norm, 0, h.start)]
        named = {t.target for h in beside or naming for t in h.terms if t.kind == "dimension"} & set(dims)
        if not beside and _MEMBER_AFTER_PREPOSITION.search(norm, 0, hit.start):
            named = set()
        elif not named and len(set(shown) & set(dims)) == 1:  # a value of the groups shown, or of the filter kept
            named = set(shown) & set(dims)
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
                    dimensions=self._labels(dims, lang),
                    first=self.catalog.dimensions[dims[0]].label.for_lang(lang),
                )
                for lang in LANGUAGES
            ),
            detail={"member": hit.text, "suggestions": dims},
        )

    def _without_rows_excluded(self, scan: Scan, hits: list[Hit]) -> list[Hit]:
        """``hits`` without a metric word that only names the rows an exclusion takes away, with the
        catalog's word that places the member after it ("average delay excluding flights to ATL": the
        flights to ATL, no count of flights asked) — its span claimed — when another metric is asked."""
        rows: list[tuple[Hit, int]] = []
        for hit in hits:
            if hit.kinds != {"metric"} or not _EXCLUDED_BEFORE.search(scan.norm, 0, hit.start):
                continue
            after = next((h for h in hits if h.start >= hit.end), None)
            if after is None:
                continue
            # the words placing the value may hold the whole metric word ("flights to" of a destination) —
            # never only its end ("cancelled flights to ATL": the cancelled ones are no rows noun)
            words = [self._value_after(d).search(scan.norm, hit.start, after.start) for d in member_dimensions(after)]
            if any(w and _starts_at_or_after(scan.norm, w.start(), hit) for w in words):
                rows.append((hit, after.start))
        kept = [h for h in hits if all(h is not hit for hit, _ in rows)]
        if not rows or not any("metric" in h.kinds for h in kept):
            return hits
        for hit, member_start in rows:
            scan.claim(hit.start, member_start)
        return kept

    def _value_after(self, dim: str) -> re.Pattern[str]:
        """The catalog's words before a value of ``dim``, ending the text before the value."""
        return self._values_after.get(dim, _NEVER)

    @functools.cached_property
    def _values_after(self) -> dict[str, re.Pattern[str]]:
        out: dict[str, re.Pattern[str]] = {}
        for name, dim in self.catalog.dimensions.items():
            words = sorted(dim.value_after, key=len, reverse=True)
            # a Latin word starts a word ("from", never "...from"); a Chinese one may follow anything ("LGA飞往")
            said = "|".join(
                ("(?<![a-z])" if w[:1].isascii() else "") + re.escape(w.lower()).replace(r"\ ", r"\s+") for w in words
            )
            if words:
                out[name] = re.compile(rf"(?:{said})\s*(?:the\s+)?$", re.I)
        return out

    def _of_the_member_beside(
        self, hit: Hit, hits: list[Hit], breakdowns: list[str], metrics: Sequence[str], norm: str
    ) -> list[str]:
        """The dimensions of a member said right beside ``hit`` ("JFK airport", "ATL机场") that read the
        column of one of the word's ``breakdowns``: the word names that member's dimension."""
        tables = [t for m in metrics for t in self.catalog.tables_of(m)]

        def reads(dim: str) -> tuple[str | None, ...]:
            return tuple(self.catalog.dimensions[dim].columns.get(t) for t in tables)

        owners = {d for h in hits if "member" in h.kinds and _beside(norm, h, hit) for d in member_dimensions(h)}
        named = {reads(b) for b in breakdowns}
        return sorted(d for d in owners if tables and reads(d) in named)

    def _distinct_readings(self, dims: list[str], metrics: Sequence[str]) -> list[str]:
        """Dimensions that read another column for the asked metrics' tables (the shortest name
        of each): "home state" of an account is its user's, by either entity path."""
        tables = [t for m in metrics for t in self.catalog.tables_of(m)]
        if not tables or len(dims) < 2:
            return dims
        kept: dict[tuple[str | None, ...], str] = {}
        for dim in sorted(dims, key=lambda d: (len(d), d)):
            kept.setdefault(tuple(self.catalog.dimensions[dim].columns.get(t) for t in tables), dim)
        return sorted(kept.values())

    def _labels(self, dims: Sequence[str], lang: Language) -> str:
        """The dimensions by label; two that share a label also by name, so each can be told apart."""
        labels = [self.catalog.dimensions[d].label.for_lang(lang) for d in dims]
        named = [f"{label} ({d})" if labels.count(label) > 1 else label for label, d in zip(labels, dims, strict=True)]
        return message("answer.list_sep", lang).join(named)

    def _metric_or_member_listed(self, scan: Scan, hits: list[Hit]) -> None:
        """ "revenue and new customers last month": a word naming a metric and a member, listed beside
        another metric, may be the second metric or whose revenue — asked back, never read as the
        member unsaid ("revenue of new customers" says whose)."""
        metrics = [h for h in hits if h.kinds == {"metric"}]
        for hit in hits:
            if not {"metric", "member"} <= hit.kinds:
                continue
            for other in metrics:
                lo, hi = sorted(((other.start, other.end), (hit.start, hit.end)))
                if vocab.LIST_JOIN.fullmatch(scan.norm[lo[1] : hi[0]]):
                    raise AmbiguousQuestion(
                        *both("nlu.metric_or_member_listed", said=hit.text, other=other.text),
                        detail={"word": hit.text, "reason": "metric_or_member_listed"},
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

    def _excluded(self, scan: Scan, cues: Cues, member_hits: list[Hit], hits: Sequence[Hit]) -> set[int]:
        """Members an exclusion word applies to ("除了A和B以外", "非A", "excluding A", "A除外")."""
        out: set[int] = set()
        ordered = sorted({id(h): h for h in member_hits}.values(), key=lambda h: h.start)
        for cue in cues.exclusions:
            chain = [h for h in ordered if h.start >= cue.end()]
            if not chain or not _BETWEEN_FILLER.match(_words_before_a_member(scan, cue.end(), chain[0], hits)):
                continue
            scan.claim(cue.start(), cue.end())
            out.add(id(chain[0]))
            last = chain[0]
            joins = [scan.norm[prev.end : nxt.start] for prev, nxt in itertools.pairwise(chain)]
            for i, (prev, nxt) in enumerate(itertools.pairwise(chain)):
                cn_comma = CN_COMMA.fullmatch(scan.text[prev.end : nxt.start]) is not None
                closed_later = cn_comma and CLOSED_LATER.match(scan.norm, nxt.start) is not None
                if cn_comma and not closed_later:
                    comma_after_an_exclusion(cue, prev, nxt)
                if not in_one_list(joins[i], prev, nxt, scan) or (clause_ends(joins, i) and not closed_later):
                    break
                if cn_comma and not closed_later:
                    break  # "除了华东，华南和华北的GMV": the Chinese comma ends the exclusion, unless 以外 closes a list
                if COMMA.search(joins[i]) and member_dimensions(prev) != member_dimensions(nxt):
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
                    if not in_one_list(scan.norm[prev.end : last.start], prev, last, scan) or id(prev) in out:
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
        kept: tuple[str, ...] = (),
    ) -> None:
        """A dimension word is a breakdown, unless it names the dimension of members just named
        ("app 渠道", "华北、华中两个区") or the set a filter applies to ("所有渠道", "除华东外，其他
        区域"); "all channels" with a ranking, a share or "each" still asks for each channel.
        "Other channels" with nothing excluded is asked back: other than what? — unless the question
        before kept some (``kept``: "华北的GMV" then "how about the other regions": each region but 华北)."""
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
        # "my category (home appliances)", "品类：家电": the dimension word names the member after it
        excluding = _EXCLUDED_BEFORE.search(scan.norm, 0, hit.start) is not None  # "excluding origin JFK"
        named_after = any(
            (not m.excluded or excluding)
            and m.hit.start >= hit.end
            and _BEFORE_ITS_MEMBER.fullmatch(scan.norm[hit.end : m.hit.start])
            for m in named_here
        )
        attached = attached or (named_after and not each_asked and not groups_ranked)
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
        if other and not named_here and kept:
            scan.claim(other.start(1), other.end(1))
            terms.others_than[dim] = kept
            if dim not in terms.dims:  # each of them, as "except 华北, each region" reads
                terms.dims.append(dim)
            return
        if other and not any(m.excluded for m in named_here):
            raise ask_back("nlu.other_than_what", {"dimension": dim})
        scope = other or every
        if scope:
            scan.claim(scope.start(1), scope.end(1))
        if every is not None:
            terms.every_of.add(dim)
        if scope and asks_per_member and not any(not m.excluded for m in named_here):
            scope = None  # "rank all channels", "除华东外其他区域各是多少": every one, one by one
        if every and moved and not named_here:
            scope = None  # "did all channels go down", "所有渠道都下降了吗": each channel's change
        if every is not None and scope is every and not named_here and "across" not in every.group(0).lower():
            terms.all_said[dim] = scan.text[every.start(1) : hit.end]  # "GMV across all regions": their total
        if attached or scope:
            terms.dims_naming_a_set.add(dim)
            return
        if not self.catalog.dimensions[dim].drill:  # a key ("planes"): thousands of groups, never unsaid
            _no_dimension_after_another_member(scan, hit, terms, each_asked or groups_ranked)
        if dim not in terms.dims:
            terms.dims.append(dim)


def _no_dimension_after_another_member(scan: Scan, hit: Hit, terms: Terms, each_asked: bool) -> None:
    """ "flights on AIRBUS planes": a key's word right after a member of another dimension is the
    noun the member describes (the planes AIRBUS made), or a breakdown of it — asked back, never a
    breakdown into every plane unsaid. A breakdown word says which ("by plane"). A dimension of a
    few groups ("华东渠道分布", "East China channel breakdown") is read as before: its breakdown."""
    dim = hit.terms[0].target
    before = next(
        (
            m
            for m in terms.members
            if m.dimension != dim
            and not m.excluded
            and m.hit.end <= hit.start
            and not scan.norm[m.hit.end : hit.start].strip()
        ),
        None,
    )
    if before is None or each_asked or dim in terms.dims:  # "by plane … on AIRBUS planes": said
        return
    raise AmbiguousQuestion(
        *both("nlu.dimension_after_member", dimension=hit.text, member=before.hit.text),
        detail={"unknown": [hit.text], "suggestions": [dim]},
    )


def _not_just_the_old_scope(scan: Scan, terms: Terms) -> None:
    """ "for all user types, not just new users": the member after "not just" is the scope left
    behind, no filter, when every member of its dimension is asked (alone, "not just" stays unread)."""
    for m in list(terms.members):
        said = vocab.NOT_JUST.search(scan.norm, 0, m.hit.start)
        if said is not None and m.dimension in terms.every_of and not m.excluded:
            scan.claim(said.start(), said.end())
            terms.members.remove(m)


_NO_LONGER_LIMITED = patterns.compile(r"不(?:再)?(?:限|限定|限制|局限)(?:于|在)?\s*$")
_LIST_JOIN = patterns.compile(r"\s*(?:和|与|跟|及|以及|、|,|，|/)\s*")


def _no_longer_limited(scan: Scan, terms: Terms) -> None:
    """ "不限华南了，按区域都列出来", "不限华南和华东了": the members after "不限" (one, or a list of one
    dimension) are a filter taken away — every member of their dimension, never one of them kept."""
    ordered = sorted((m for m in terms.members if not m.excluded), key=lambda m: m.hit.start)
    for i, m in enumerate(ordered):
        said = _NO_LONGER_LIMITED.search(scan.norm, 0, m.hit.start)
        if said is None or m not in terms.members:
            continue
        scan.claim(said.start(), said.end())
        listed = [m]
        for nxt in ordered[i + 1 :]:  # "不限华南和华东": the list goes on while its joins do
            if nxt.dimension != m.dimension or not _LIST_JOIN.fullmatch(scan.norm[listed[-1].hit.end : nxt.hit.start]):
                break
            listed.append(nxt)
        for member in listed:
            terms.members.remove(member)
        terms.every_of.add(m.dimension)


def _kept_members(context: SemanticQuery | None, dim: str) -> tuple[str, ...]:
    """The members the question before kept of ``dim`` (its include filter), if any."""
    kept = [f for f in context.filters if f.dimension == dim and not f.exclude] if context is not None else []
    return kept[0].members if kept else ()


__all__ = ["TermReader"]
