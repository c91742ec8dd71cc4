"""Does a model's reading account for every word of the question?

A model may read a question the rules could not, but it must not do so by leaving a word out
("上个月天猫的GMV" read as the total GMV). The check uses the rule planner's own accounting: the
question is read in simplified characters (not typo-corrected: a span quotes the question's own
words, and a misspelt word is the model's to place, stated as a paraphrase), and each reader
of the rules claims its words — but a claim *covers* a word only when the validated query uses
what the word asks for:

* a catalog word (metric, dimension, member) covers itself when its target is in the query;
* a period Baton reads covers itself (the planner has already checked every period is used);
* an operator word ("环比", "top 3", "占比", "按周", "为什么") covers itself when the query has
  that part (a comparison, the same ranking, a share, that grain, a why);
* a follow-up's tying words ("那…呢", "只看") cover themselves;
* a span of the model's plan (:class:`~baton.contracts.model_plan.ModelSpan`) covers the words
  it quotes when what it says they became is a part of the query: a span naming the target by
  a catalog word covers those words; a span that is one term by the rules' segmentation
  ("gross sales", "mobile app") covers the whole term — a paraphrase, stated in the answer.

What no claim covers is read by the rules' own residual reader
(:func:`baton.nlu.residual.unknown_words`): filler words vanish, and any content word left is
returned, to be asked back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from baton import patterns
from baton.catalog.model import Catalog
from baton.contracts.model_plan import ModelPlan, ModelSpan
from baton.contracts.semantic import SemanticQuery
from baton.errors import AmbiguousQuestion
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.cues import Cues, read_cues, read_ranking
from baton.nlu.events import event_periods
from baton.nlu.lexicon import Hit, normalise
from baton.nlu.parser import Planner
from baton.nlu.periods import claim_compare_words
from baton.nlu.ranking import ranking_metric, ranks
from baton.nlu.residual import to_simplified, unknown_words
from baton.nlu.scan import Scan
from baton.nlu.ties import read_ties

__all__ = ["Conflict", "Coverage", "Explained", "ReadAs", "check_coverage", "name_words", "terms_of"]

MAX_PARAPHRASE_TERMS = 4
"""The most content terms a span without a catalog word of its target may cover ("purchases were
made"): longer, it could hide a word that should have been a part of the query."""
_WORDS = patterns.compile(r"[A-Za-z][A-Za-z'_-]*|[\u4e00-\u9fff]+|\d+(?:\.\d+)?|[^\sA-Za-z\u4e00-\u9fff\d]+")


@dataclass(frozen=True)
class ReadAs:
    """Words of the question the model read as a catalog entry the catalog does not call so."""

    words: str
    kind: str
    name: str


@dataclass(frozen=True)
class Conflict:
    """Words the catalog names as one metric that a span read as another."""

    words: str
    catalog_metric: str
    model_metric: str


@dataclass
class Coverage:
    """The words no reading covers, and the paraphrases the model's spans made."""

    uncovered: list[str] = field(default_factory=list)
    read_as: list[ReadAs] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    """Spans that read a catalog metric's own name as another metric ("付款人数", which the
    catalog names as one metric, read as a second): two metrics claim the words equally."""


def terms_of(text: str) -> list[str]:
    """The content terms of ``text`` by the rules' segmentation, where a filler word, a
    punctuation mark or a change of script ends a term ("mobile app" is one term, "天猫的GMV"
    and "sales on the website" are two)."""
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            out.append(" ".join(run))
            run.clear()

    for chunk in _WORDS.findall(text):
        word = chunk.lower().strip("'-_")
        if chunk.isascii() and chunk[0].isalpha():
            parts = [w for w in re.split(r"[-_]+", word) if w]
            if all(w in vocab.EN_FILLERS or len(w) <= 1 for w in parts):
                flush()
            else:
                run.extend(parts)
            continue
        flush()
        if chunk[0].isdigit():
            out.append(chunk)
        elif "\u4e00" <= chunk[0] <= "\u9fff":
            out.extend(unknown_words(chunk))
    flush()
    return out


def _dims_used(query: SemanticQuery) -> set[str]:
    return {*query.dimensions, *(f.dimension for f in (*query.filters, *query.share_filters))}


def _members_used(query: SemanticQuery) -> set[str]:
    return {f"{f.dimension}:{m}" for f in (*query.filters, *query.share_filters) for m in f.members}


def _operator_checks(query: SemanticQuery) -> dict[str, Callable[[], bool]]:
    """For each operator part the rules' cue reader records: does the query do what it asks?"""
    compared = query.comparison is not None
    kind = query.comparison.kind if query.comparison is not None else None
    why = query.intent == "why"
    checks: dict[str, Callable[[], bool]] = {
        "why": lambda: why,
        "same_period_last_year": lambda: kind == "same_period_last_year",
        "previous_period": lambda: compared,
        "week_earlier": lambda: compared,
        "month_earlier": lambda: compared,
        "change": lambda: compared or why,
        "up": lambda: compared or why,
        "down": lambda: compared or why,
        "which_time": lambda: query.grain is not None and query.top_n is not None,
        "trend": lambda: query.grain is not None,
        "share": lambda: query.share or compared,
        "total": lambda: True,
        "cumulative": lambda: query.grain is None,
        "breakdown": lambda: bool(query.dimensions),
        "separately": lambda: bool(query.dimensions),
        "combination": lambda: len(query.dimensions) + (query.grain is not None) > 1,
        "threshold": lambda: query.threshold is not None,
    }
    for grain in ("day", "week", "month", "quarter", "year"):
        checks[f"grain:{grain}"] = lambda g=grain: query.grain == g  # type: ignore[misc]
        checks[f"average_per:{grain}"] = lambda g=grain: query.average_per == g  # type: ignore[misc]
    return checks


class _Check:
    """One model reading's coverage of one question."""

    def __init__(self, rules: Planner, question: str, query: SemanticQuery, plan: ModelPlan, *, as_of: date) -> None:
        self.rules = rules
        self.catalog = rules.catalog
        self.query = query
        self.plan = plan
        self.as_of = as_of
        text = to_simplified(question)  # not typo-corrected: a model's spans quote the question verbatim
        self.scan = Scan(text=text, norm=normalise(text))
        self.covered: list[tuple[int, int]] = []
        self.read_as: list[ReadAs] = []
        self.conflicts: list[Conflict] = []

    def run(self, follows: bool) -> Coverage:
        scan = self.scan
        found = self.rules.lexicon.find(scan.text)
        scan.terms = [(h.start, h.end) for h in found]
        scan.members = [(h.start, h.end) for h in found if "member" in h.kinds]
        if follows:
            read_ties(scan)
            self.covered += scan.claimed
        cues = self._operators()
        self._periods()
        self._ranking(cues)
        self._catalog_words()
        self._exclusions()
        for span in self.plan.spans:
            self._span(span)
        chars = list(scan.text)
        for start, end in self.covered:
            chars[start:end] = " " * (end - start)
        return Coverage(uncovered=unknown_words("".join(chars)), read_as=self.read_as, conflicts=self.conflicts)

    def _operators(self) -> Cues:
        cues = read_cues(self.scan)
        checks = _operator_checks(self.query)
        for part, spans in cues.spans.items():
            if part in checks and checks[part]():
                self.covered += spans
        return cues

    def _ranking(self, cues: Cues) -> None:
        scan, query = self.scan, self.query
        ranking = Cues()
        try:
            read_ranking(scan, ranking)
        except AmbiguousQuestion:
            return
        ranked = query.top_n is not None or bool(query.dimensions)
        same = ranking.top_n is None or (ranking.top_n == query.top_n and ranking.order == query.order)
        same = same and ranking.rank_place == query.rank_place  # "排名第二" is one row, never all of them
        if ranked and same and self._ranks_by_the_first(ranking):
            self.covered += ranking.spans.get("ranking", [])
        if cues.average and all(self.catalog.metrics[m].is_ratio for m in query.metrics):
            self.covered += cues.spans.get("average", [])

    def _ranks_by_the_first(self, ranking: Cues) -> bool:
        """Several metrics: the ranking words cover the plan only when they attach to its first
        metric, the one the compiler ranks by ("orders for the top 2 channels by AOV" planned as
        orders then AOV would rank by orders)."""
        metrics = list(self.query.metrics)
        if len(metrics) < 2 or not ranks(ranking):
            return True
        hits = [h for h in self.rules.lexicon.find(self.scan.text) if "metric" in h.kinds]
        return ranking_metric(self.scan, hits, metrics) == metrics[0]

    def _periods(self) -> None:
        scan = self.scan
        periods = event_periods(self.catalog.calendar, scan, self.as_of)
        for period in periods:
            scan.claim(*period.span)
        periods += timeexpr.read_periods(scan.residual(), self.as_of)
        for period in periods:
            for span in period.spans:
                scan.claim(*span)
                self.covered.append(span)
        if self.query.comparison is not None and periods:
            before = len(scan.claimed)
            claim_compare_words(scan, [])
            self.covered += scan.claimed[before:]
        words = self.plan.period.words if self.plan.period is not None else None
        if words:
            self.covered += self._where(words)

    def _used(self, hit: Hit) -> bool:
        metrics, dims, members = set(self.query.metrics), _dims_used(self.query), _members_used(self.query)
        for term in hit.terms:
            if (
                (term.kind == "metric" and term.target in metrics)
                or (term.kind == "dimension" and term.target in dims)
                or (term.kind == "member" and term.target in members)
            ):
                return True
        return False

    def _catalog_words(self) -> None:
        for hit in self.rules.lexicon.find(self.scan.text, blocked=list(self.scan.claimed)):
            self.scan.claim(hit.start, hit.end)
            if self._used(hit):
                self.covered.append((hit.start, hit.end))

    def _exclusions(self) -> None:
        if not any(f.exclude for f in self.query.filters):
            return
        for pattern in (vocab.EXCLUDE_BEFORE, vocab.EXCLUDE_AFTER, vocab.EXCLUDE_TAIL):
            self.covered += [(m.start(), m.end()) for m in pattern.finditer(self.scan.norm) if m.end() > m.start()]

    def _where(self, words: str) -> list[tuple[int, int]]:
        needle = normalise(to_simplified(" ".join(words.split())))
        if not needle:
            return []
        return [(m.start(), m.end()) for m in re.finditer(re.escape(needle), self.scan.norm)]

    # -- the model's spans ----------------------------------------------------------------------
    def _span(self, span: ModelSpan) -> None:
        where = self._where(span.text)
        if not where or span.became == "ignored":
            return
        if span.became in ("metric", "dimension", "member"):
            target = self._target(span)
            if target is None:
                return
            for start, end in where:
                self._cover_named(span, target, start, end)
            return
        if not self._operator_used(span) or self._other_number(span):
            return
        if len(terms_of(self._numberless(span))) > MAX_PARAPHRASE_TERMS:
            return
        if span.became == "time":
            where = [w for w in where if self._next_to_period_words(*w)]
        for start, end in where:
            hits = self.rules.lexicon.find(self.scan.text[start:end])
            self._cover_around(start, end, [(start + h.start, start + h.end) for h in hits if self._other_part(h, "")])

    def _next_to_period_words(self, start: int, end: int) -> bool:
        """A time span covers only words inside or right beside the quoted period words ("暑期档"
        + "到现在"): Baton reads every other period itself."""
        words = self.plan.period.words if self.plan.period is not None else None
        for a, b in self._where(words or ""):
            gap = self.scan.text[b:start] if start >= b else self.scan.text[end:a] if end <= a else ""
            if not gap.strip():
                return True
        return False

    def _numberless(self, span: ModelSpan) -> str:
        """A ranking's words without its number when the number is the query's ("top 3", "哪两个");
        another number stays, and is left uncovered."""
        n = self.query.top_n
        if span.became != "ranking" or n is None:
            return span.text
        words = [str(n), *(w for w, v in {**vocab.EN_NUMBERS, **vocab.CN_DIGITS}.items() if v == n)]
        pattern = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
        return re.sub(rf"(?<![\dA-Za-z])(?:{pattern})(?![\dA-Za-z])", " ", span.text, flags=re.IGNORECASE)

    def _other_number(self, span: ModelSpan) -> bool:
        """A ranking span holding a number that is not the query's ("best 2" read as a top 3)."""
        if span.became != "ranking":
            return False
        left = self._numberless(span)
        return bool(re.search(r"\d", left)) or any(
            re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", left, re.IGNORECASE)
            for w in (*vocab.EN_NUMBERS, *vocab.CN_DIGITS)
            if len(w) > 1 or not w.isascii()
        )

    def _operator_used(self, span: ModelSpan) -> bool:
        query = self.query
        return {
            "time": True,
            "comparison": query.comparison is not None,
            "ranking": query.top_n is not None,
            "share": query.share,
            "grain": query.grain is not None,
            "why": query.intent == "why",
        }.get(span.became, False)

    def _target(self, span: ModelSpan) -> str | None:
        """The catalog entry a span names, if the query uses it (a member as ``dim:key``)."""
        name = normalise((span.name or "").strip())
        if not name:
            return None
        if span.became == "metric":
            pool = {m: self.catalog.metrics[m] for m in self.query.metrics}
            return _match(name, {m: _surfaces(m, info) for m, info in pool.items()})
        if span.became == "dimension":
            pool_d = {d: self.catalog.dimensions[d] for d in _dims_used(self.query) if d in self.catalog.dimensions}
            return _match(name, {d: _surfaces(d, info) for d, info in pool_d.items()})
        candidates: dict[str, list[str]] = {}
        for target in _members_used(self.query):
            dim, key = target.split(":", 1)
            info = self.catalog.dimensions[dim].members.get(key)
            candidates[target] = [target, *_surfaces(key, info)]
        return _match(name, candidates)

    def _cover_named(self, span: ModelSpan, target: str, start: int, end: int) -> None:
        """Within the span: the target's own catalog words (and, one term, the span around them:
        "mobile app"); a span without them is a paraphrase ("gross sales") of at most
        :data:`MAX_PARAPHRASE_TERMS` terms, covered but for other catalog words inside it."""
        hits = self.rules.lexicon.find(self.scan.text[start:end])
        own = [h for h in hits if any(t.target == target and t.kind == span.became for t in h.terms)]
        self.covered += [(start + h.start, start + h.end) for h in own]
        terms = len(terms_of(self.scan.text[start:end]))
        if own:
            whole = [h for h in own if h.start == 0 and h.end == end - start]
            if terms == 1 and not whole:
                self._cover_around(start, end, self._names(start, end, hits, span.became, target, beside=True))
                self.read_as.append(ReadAs(" ".join(span.text.split()), span.became, target))
            return
        if terms > MAX_PARAPHRASE_TERMS:
            return
        named = [
            t.target
            for h in hits
            if h.start == 0 and h.end == end - start
            for t in h.terms
            if t.kind == "metric" and t.target != target
        ]
        if span.became == "metric" and named:
            self.conflicts.append(Conflict(" ".join(span.text.split()), named[0], target))
            return
        holes = [(start + h.start, start + h.end) for h in hits if self._other_part(h, target)]
        self._cover_around(start, end, holes + self._names(start, end, hits, span.became, target))
        self.read_as.append(ReadAs(" ".join(span.text.split()), span.became, target))

    def _names(
        self, start: int, end: int, hits: Sequence[Hit], kind: str, target: str, *, beside: bool = False
    ) -> list[tuple[int, int]]:
        """Where a paraphrase span holds a word that reads as a name its target does not explain
        ("天猫" in "天猫销售额", "Tmall" in "Tmall sales"): left uncovered, to be asked back."""
        explained = _explained(self.catalog, kind, target)
        text = self.scan.text
        chars = list(text[start:end])
        for h in hits:
            chars[h.start : h.end] = " " * (h.end - h.start)
        found = name_words("".join(chars), explained, before=text[:start], beside=beside)
        return [(start + a, start + b) for a, b in found]

    def _other_part(self, hit: Hit, target: str) -> bool:
        """Whether a catalog word inside a paraphrase names a breakdown or a filter other than the
        span's own: it must be placed itself ("华南" inside "华南卖的"), while a metric word inside a
        metric's paraphrase ("orders … refunded") or another member of the target's own dimension
        ("app" in "mini-app") is part of the paraphrase."""
        own_dim = target.split(":", 1)[0] if ":" in target else target
        for term in hit.terms:
            if term.kind in ("member", "dimension") and term.target.split(":", 1)[0] != own_dim:
                return True
        return False

    def _cover_around(self, start: int, end: int, holes: list[tuple[int, int]]) -> None:
        """``[start, end)`` covered except the holes (other catalog words: each must be used)."""
        at = start
        for a, b in sorted(holes):
            if a > at:
                self.covered.append((at, a))
            at = max(at, b)
        if at < end:
            self.covered.append((at, end))


_NAME_TAGS = ("n", "j")
"""jieba's part-of-speech tags of a word that can name something: nouns and abbreviations; a
verb or an adjective is paraphrase."""
_PROPER_TAGS = frozenset(["nr", "nrt", "nrfg", "ns", "nt", "nz"])
"""jieba's tags of a proper noun: a person's, a place's, an organisation's or another name."""
_MEASURE_NOUNS_ZH = (
    "钱",
    "东西",
    "金额",
    "数额",
    "总额",
    "数量",
    "数目",
    "总数",
    "数值",
    "数据",
    "规模",
    "业绩",
    "多少",
)
"""Generic nouns of an amount or a thing, which any paraphrase may use ("卖出去的钱", "买东西")."""
_KNOWN_EN = vocab.EN_FILLERS | vocab.COMMON_EN | vocab.METRICISH_EN | vocab.OPERATOR_WORDS
_EN_WORD = patterns.compile(r"[A-Za-z][A-Za-z']*")
_ZH_RUN = patterns.compile(r"[\u4e00-\u9fff]+")


@dataclass(frozen=True)
class Explained:
    """The words a span's target explains: its catalog words and description (Chinese read by
    substring, English by word stem)."""

    zh: str
    en: frozenset[str]


def _stem(word: str) -> str:
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _explained(catalog: Catalog, kind: str, target: str) -> Explained:
    texts: list[str] = []
    if kind == "metric":
        info: object = catalog.metrics[target]
        description = catalog.metrics[target].description
        texts += [description.zh, description.en]
    elif kind == "dimension":
        info = catalog.dimensions[target]
    else:
        dim, key = target.split(":", 1)
        info = catalog.dimensions[dim].members.get(key)
        texts += _surfaces(dim, catalog.dimensions[dim])
    texts += _surfaces(target.split(":", 1)[-1], info)
    english = {_stem(w) for t in texts for w in _EN_WORD.findall(t.lower())}
    return Explained("\n".join(texts).lower(), frozenset(english))


def name_words(text: str, explained: Explained, *, before: str = "", beside: bool = False) -> list[tuple[int, int]]:
    """Where ``text`` (a paraphrase's words but its catalog words) holds a word that reads as a
    name its target does not explain — neither its catalog words, its description nor a general
    word. ``beside``: the span holds the target's own catalog word in one term ("天猫销售额")."""
    return [*_english_names(text, explained, before, beside), *_chinese_names(text, explained, beside)]


def _english_names(text: str, explained: Explained, before: str, beside: bool) -> list[tuple[int, int]]:
    """A capitalised word that is neither general nor the target's ("What were Tmall sales"): mid-
    sentence, or opening the question beside the target's own word ("Tmall sales last month")."""
    out: list[tuple[int, int]] = []
    for m in _EN_WORD.finditer(text):
        word = m.group(0).lower().strip("'")
        said = (before + text[: m.start()]).rstrip()
        opens = not said or said[-1] in ".!?。！？"
        if (
            m.group(0)[0].isupper()
            and (beside or not opens)
            and len(word) > 1
            and word not in _KNOWN_EN
            and _stem(word) not in explained.en
        ):
            out.append(m.span())
    return out


def _chinese_names(text: str, explained: Explained, beside: bool) -> list[tuple[int, int]]:
    """A proper noun jieba's dictionary knows ("京东"); beside the target's own word, a noun it
    lacks (a new word restricting the target: "天猫" in "天猫销售额"), while a general noun ("卖货"
    in "卖货渠道") describes the target. A new noun in a span without the target's word is not
    told from a paraphrase's own new word ("进店人数"), so "天猫流水" passes, stated."""
    out: list[tuple[int, int]] = []
    for m in _ZH_RUN.finditer(text):
        at = m.start()
        for word, tag in _tagged(m.group(0)):
            known = _in_dictionary(word)
            new = beside and tag.startswith(_NAME_TAGS) and not known
            if (
                ((tag in _PROPER_TAGS and known) or new)
                and len(word) > 1
                and word not in vocab.ZH_FILLERS
                and word not in explained.zh
                and not any(noun in word for noun in _MEASURE_NOUNS_ZH)
            ):
                out.append((at, at + len(word)))
            at += len(word)
    return out


def _in_dictionary(word: str) -> bool:
    """Whether jieba's general dictionary holds the word (a word it only guessed is not a name
    it knows: "拉新拉")."""
    import jieba

    return bool(jieba.get_FREQ(word))


def _tagged(text: str) -> list[tuple[str, str]]:
    """Chinese words with their part of speech (jieba.posseg, loaded once and quietly)."""
    import logging

    import jieba
    import jieba.posseg

    jieba.setLogLevel(logging.WARNING)
    return [(p.word, p.flag) for p in jieba.posseg.cut(text)]


def _surfaces(name: str, info: object) -> list[str]:
    label = getattr(info, "label", None)
    labels = [label.zh, label.en] if label is not None else []
    return [name, *labels, *getattr(info, "synonyms", ())]


def _match(name: str, candidates: Mapping[str, Sequence[str]]) -> str | None:
    found = [t for t, surfaces in candidates.items() if name in {normalise(s) for s in surfaces}]
    return found[0] if len(found) == 1 else None


def check_coverage(
    rules: Planner, question: str, query: SemanticQuery, plan: ModelPlan, *, as_of: date, follows: bool
) -> Coverage:
    """The content words of ``question`` that neither Baton's reading nor the model's spans
    place in ``query`` (empty: every word is accounted for), and the spans read as paraphrases."""
    return _Check(rules, question, query, plan, as_of=as_of).run(follows)
