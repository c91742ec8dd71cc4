"""Catalog search: which metrics and dimensions a question is about, in Chinese or English.

A catalog of a thousand metrics does not fit in a planner's prompt. ``CatalogIndex`` is a
bilingual lexical index over one catalog, ranked with BM25 (``rank_bm25.BM25Okapi``):

* every *name* of an entry — a metric's key, labels and synonyms; a dimension's, and its
  members' — is its own short document, and an entry scores as its best-matching name, so
  a metric with thirty synonyms is not penalised for its long list, and a question that says
  a metric's exact name finds that metric before its longer neighbours ("订单量" before
  "退货订单量");
* a metric's definition (both languages) is a second, weaker field (``DEFINITION_WEIGHT``);
* words the question spends on a dimension or a member ("各渠道", "华南", "by channel") are
  kept out of the metric query, unless they are part of a metric's own name written out in
  the question — found longest first, as the rule parser finds terms;
* text is cut into terms the same way on both sides: Chinese runs by jieba
  (``lcut_for_search``, which also yields the shorter words inside long ones) and, for
  robustness against segmentation that differs between a question and a name ("客单价" read
  as 客 + 单价), also into character bigrams; Latin runs into lower-case words (``snake_case``
  split, plurals folded); stop words (``data/search_stopwords.yaml``) and punctuation dropped;
  traditional characters read as simplified.

``CatalogIndex.search(question)`` ranks entries; ``catalog_slice(question)`` cuts the catalog
to what a model planner is shown (:class:`~baton.contracts.catalog_slice.CatalogSlice`): the
top metrics with their definitions, the dimensions whose members the question names, those
retrieved and those the chosen metrics allow, each with a bounded list of members (members
the question names always kept), the refused metrics it is close to, and the time grains.
Never a data row.

jieba, OpenCC and rank_bm25 are imported on first use: a question that never searches the
catalog never loads the segmenter's dictionary. jieba's dictionary is process-wide, so
whichever part of Baton loads it first loads it for all.
"""

from __future__ import annotations

import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, get_args

from baton.catalog.model import Catalog
from baton.contracts.catalog_slice import (
    CatalogSlice,
    SliceDimension,
    SliceLabel,
    SliceMember,
    SliceMetric,
    SliceRefused,
)
from baton.contracts.common import Bilingual
from baton.contracts.semantic import Grain
from baton.yaml_text import safe_load

__all__ = ["DEFINITION_WEIGHT", "CatalogIndex", "HitKind", "SearchHit", "canonical", "index_for", "tokenize"]

HitKind = Literal["metric", "dimension", "refused"]

_CJK_CLASS = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_RUNS = re.compile(rf"[{_CJK_CLASS}]+|[a-z0-9]+")
_CJK = re.compile(rf"[{_CJK_CLASS}]")
DEFINITION_WEIGHT = 0.3
"""How much a metric's definition counts against its best-matching name."""
NAMED_WEIGHT = 1.0
"""What a name written out in full in the question adds, as a share of that name's score
(the longest names found, as the rule parser finds terms)."""
DEFAULT_MEMBERS_PER_DIMENSION = 12
WHOLE_CATALOG_TOKENS = 4000
"""A catalog whose whole prompt form is at most this many tokens is sent whole: retrieval only
orders it. Measured (Qwen2.5 BPE): a 12-metric, 4-dimension catalog is about 2,500 tokens whole
against 1,400 for its slice; 30 such metrics about 3,900; 100 about 11,200."""


@lru_cache(maxsize=1)
def expansions() -> dict[str, str]:
    """Query expansion (``data/search_expansions.yaml``): everyday words of a question and the
    catalog words they are usually said for ("footfall" for visits). The expansion only adds
    search terms (at :data:`EXPANSION_WEIGHT`); what a planner may read is still the catalog's."""
    text = resources.files("baton.catalog").joinpath("data/search_expansions.yaml").read_text(encoding="utf-8")
    data = safe_load(text) or {}
    return {str(k): str(v) for k, v in data.items()}


EXPANSION_WEIGHT = 0.5
"""What an expanded term's match counts against the question's own words."""


@dataclass(frozen=True)
class SearchHit:
    """One catalog entry a question matched, with its score (higher is closer)."""

    kind: HitKind
    name: str
    score: float


@lru_cache(maxsize=1)
def _stopwords() -> frozenset[str]:
    text = resources.files("baton.catalog").joinpath("data/search_stopwords.yaml").read_text(encoding="utf-8")
    data = safe_load(text)
    return frozenset(w.lower() for lang in ("zh", "en") for w in str(data.get(lang, "")).split())


_jieba_lock = threading.Lock()


@lru_cache(maxsize=1)
def _jieba() -> Any:
    """jieba, initialised once and quietly (its dictionary load logs at DEBUG by default)."""
    with _jieba_lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        logging.getLogger("jieba").setLevel(logging.WARNING)
        jieba.initialize()
    return jieba


@lru_cache(maxsize=1)
def _t2s() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


def _simplified(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


def canonical(text: str) -> str:
    """``text`` as the search reads it: NFKC, lower case, simplified characters, words and
    Chinese runs separated by single spaces (and one space at each end)."""
    norm = unicodedata.normalize("NFKC", text).lower().replace("_", " ")
    if any(_CJK.match(ch) and not _simplified(ch) for ch in norm):
        norm = str(_t2s().convert(norm))
    return " " + " ".join(_RUNS.findall(norm)) + " "


def _fold(word: str) -> str:
    """An English word without its plural ending ("orders" -> "order", "categories" -> "category")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _chinese_terms(run: str, bigrams: bool) -> list[str]:
    """A Chinese run's words (jieba's search mode) and, with ``bigrams``, its character pairs,
    both taken only from the pieces left between stop words ("上个月的订单量" -> 订单量)."""
    stop = _stopwords()
    jieba = _jieba()
    pieces: list[str] = []
    start = 0
    for word, begin, end in jieba.tokenize(run):
        if word in stop:
            if begin > start:
                pieces.append(run[start:begin])
            start = end
    if start < len(run):
        pieces.append(run[start:])
    out: list[str] = []
    for piece in pieces:
        words = [w for w in jieba.lcut_for_search(piece) if w not in stop]
        out += words
        if bigrams and len(piece) > 2:
            out += [p for p in (piece[i : i + 2] for i in range(len(piece) - 1)) if p not in words and p not in stop]
    return out


def _terms(canon: str, bigrams: bool) -> list[str]:
    stop = _stopwords()
    out: list[str] = []
    for run in canon.split():
        if _CJK.match(run):
            out += _chinese_terms(run, bigrams)
        elif len(run) > 1 and not run.isdigit() and run not in stop:
            out.append(_fold(run))
    return out


def _expansion(canon: str) -> tuple[list[str], str]:
    """The search terms :func:`expansions` adds for a question (its canonical form), and the
    added words as one canonical text (a catalog name among them counts as written out)."""
    out: list[str] = []
    said: list[str] = []
    for word, more in expansions().items():
        key = canonical(word).strip()
        if key and (_found_at(canon, key) if key.isascii() else key in canon):
            out += _terms(canonical(more), False)
            said += [canonical(phrase).strip() for phrase in more.split(",")]
    return list(dict.fromkeys(out)), " " + " , ".join(said) + " "


def tokenize(text: str, *, bigrams: bool = True) -> list[str]:
    """The search terms of mixed Chinese/English text (a question and a catalog name alike)."""
    return _terms(canonical(text), bigrams)


def _found_at(canon: str, surface: str) -> list[int]:
    """Where ``surface`` (canonical, without its end spaces) stands in ``canon``: anywhere
    inside a Chinese run, only at word boundaries for Latin words ("app" is not in "happy")."""
    out: list[int] = []
    start = canon.find(surface)
    while start >= 0:
        end = start + len(surface)
        left = canon[start - 1] == " " or (_CJK.match(canon[start]) is not None and _CJK.match(canon[start - 1]))
        right = canon[end] == " " or (_CJK.match(canon[end - 1]) is not None and _CJK.match(canon[end]))
        if left and right:
            out.append(start)
        start = canon.find(surface, start + 1)
    return out


def _one_edit(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter added, dropped, changed, or two neighbours swapped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (
            len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]]
        )
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


def _swapped(a: str, b: str) -> bool:
    return len(a) == len(b) and sorted(a) == sorted(b) and _one_edit(a, b)


class _Field:
    """One BM25 field: short documents, each owned by a catalog entry; an entry scores as
    its best document. Only documents sharing a term with the query are scored."""

    def __init__(self, docs: Sequence[list[str]], owners: Sequence[int], texts: Sequence[str] = ()) -> None:
        from rank_bm25 import BM25Okapi

        self.owners = list(owners)
        self.texts = list(texts)
        self.bm25 = BM25Okapi([d or ["\x00"] for d in docs]) if docs else None
        self.postings: dict[str, list[int]] = {}
        for i, doc in enumerate(docs):
            for term in dict.fromkeys(doc):
                self.postings.setdefault(term, []).append(i)

    def candidates(self, query: Iterable[str]) -> list[int]:
        return sorted({i for term in query for i in self.postings.get(term, ())})

    def best(self, query: list[str]) -> dict[int, float]:
        """entry -> the score of its best-matching document (entries with none left out)."""
        ids = self.candidates(query)
        if self.bm25 is None or not ids:
            return {}
        out: dict[int, float] = {}
        for doc, score in zip(ids, self.bm25.get_batch_scores(query, ids), strict=True):
            owner = self.owners[doc]
            if score > out.get(owner, 0.0):
                out[owner] = float(score)
        return out


def _label(value: Bilingual) -> SliceLabel:
    return SliceLabel(zh=value.zh, en=value.en)


@dataclass(frozen=True)
class _Claim:
    start: int
    end: int
    entries: frozenset[int]


class CatalogIndex:
    """A BM25 index over one catalog's metrics, refused metrics and dimensions; built once,
    read by any number of questions (``search`` and ``catalog_slice`` are thread-safe)."""

    def __init__(self, catalog: Catalog, *, bigrams: bool = True) -> None:
        self.catalog = catalog
        self.bigrams = bigrams
        self._entries: list[tuple[HitKind, str]] = []
        names: list[tuple[int, str]] = []  # (entry, surface): every name of every entry
        definitions: list[tuple[int, str]] = []
        self._member_of: dict[tuple[int, str], str] = {}  # (dimension entry, surface) -> member key
        for name, metric in catalog.metrics.items():
            entry = self._add("metric", name)
            names += [(entry, s) for s in (name, metric.label.zh, metric.label.en, *metric.synonyms)]
            definitions.append((entry, f"{metric.description.zh} {metric.description.en}"))
        for name, refused in catalog.refused.items():
            entry = self._add("refused", name)
            names += [(entry, s) for s in (name, refused.label.zh, refused.label.en, *refused.synonyms)]
            if refused.description is not None:
                definitions.append((entry, f"{refused.description.zh} {refused.description.en}"))
        for name, dim in catalog.dimensions.items():
            entry = self._add("dimension", name)
            names += [(entry, s) for s in (name, dim.label.zh, dim.label.en, *dim.synonyms)]
            for key, member in dim.members.items():
                for surface in (key, member.label.zh, member.label.en, *member.synonyms):
                    names.append((entry, surface))
                    self._member_of.setdefault((entry, canonical(surface).strip()), key)
        unique = list(dict.fromkeys((entry, canonical(s).strip()) for entry, s in names))
        unique = [(entry, s) for entry, s in unique if s]
        metric_like = [(e, s) for e, s in unique if self._entries[e][0] != "dimension"]
        dimensional = [(e, s) for e, s in unique if self._entries[e][0] == "dimension"]
        self._metric_names = self._field(metric_like)
        self._dimension_names = self._field(dimensional)
        self._definitions = self._field([(e, canonical(text).strip()) for e, text in definitions])
        self._latin: dict[int, list[str]] = {}
        for field in (self._metric_names, self._dimension_names, self._definitions):
            for term in field.postings:
                if term.isascii() and len(term) >= 3:
                    self._latin.setdefault(len(term), []).append(term)
        self._known = {
            t for field in (self._metric_names, self._dimension_names, self._definitions) for t in field.postings
        }
        self._whole_tokens: int | None = None

    def _add(self, kind: HitKind, name: str) -> int:
        self._entries.append((kind, name))
        return len(self._entries) - 1

    def _field(self, docs: list[tuple[int, str]]) -> _Field:
        return _Field(
            [_terms(f" {text} ", self.bigrams) for _, text in docs], [e for e, _ in docs], [t for _, t in docs]
        )

    # -- reading a question --------------------------------------------------------------------

    def _claims(self, canon: str, query: list[str]) -> list[_Claim]:
        """Names of entries written out in the question, longest first, not overlapping."""
        found: dict[tuple[int, int], set[int]] = {}
        for field in (self._metric_names, self._dimension_names):
            for doc in field.candidates(query):
                surface = field.texts[doc]
                for start in _found_at(canon, surface):
                    found.setdefault((start, start + len(surface)), set()).add(field.owners[doc])
        claims: list[_Claim] = []
        for (start, end), entries in sorted(found.items(), key=lambda kv: (kv[0][0] - kv[0][1], kv[0][0])):
            if all(end <= c.start or start >= c.end for c in claims):
                claims.append(_Claim(start, end, frozenset(entries)))
        return claims

    def _spelled(self, term: str) -> list[str]:
        """An English word no catalog name uses, read as the catalog's word one typing slip
        away ("oders" -> "order", "revnue" -> "revenue"; three-letter words only when two letters
        are swapped); itself when there is none, or more than two."""
        if not term.isascii() or len(term) < 3 or term in self._known:
            return [term]
        near = [
            word
            for size in (len(term) - 1, len(term), len(term) + 1)
            for word in self._latin.get(size, ())
            if (_swapped(term, word) if len(term) == 3 else _one_edit(term, word))
        ]
        return sorted(set(near)) if 0 < len(set(near)) <= 2 else [term]

    def _read(self, question: str) -> tuple[str, list[str], list[_Claim]]:
        canon = canonical(question)
        query = list(dict.fromkeys(_terms(canon, self.bigrams)))
        return canon, query, self._claims(canon, query)

    def _corrected(self, query: list[str]) -> list[str]:
        return list(dict.fromkeys(word for term in query for word in self._spelled(term)))

    def _metric_query(self, canon: str, claims: list[_Claim]) -> list[str]:
        """The question's terms without the words it spends on dimensions and members."""
        spent = [c for c in claims if all(self._entries[e][0] == "dimension" for e in c.entries)]
        chars = list(canon)
        for claim in spent:
            chars[claim.start : claim.end] = " " * (claim.end - claim.start)
        return list(dict.fromkeys(_terms("".join(chars), self.bigrams)))

    def search(self, question: str, k: int = 10, *, kinds: Sequence[HitKind] | None = None) -> list[SearchHit]:
        """The ``k`` catalog entries closest to ``question`` (score > 0), best first; ``kinds``
        restricts them (default: metrics, refused metrics and dimensions alike)."""
        wanted = set(kinds or ("metric", "refused", "dimension"))
        canon, query, claims = self._read(question)
        scores: dict[int, float] = {}
        if wanted & {"metric", "refused"}:
            metric_query = self._corrected(self._metric_query(canon, claims))
            names = self._metric_names.best(metric_query)
            named = {e for c in claims for e in c.entries}
            scores.update({e: score * (1 + NAMED_WEIGHT) if e in named else score for e, score in names.items()})
            for entry, score in self._definitions.best(metric_query).items():
                scores[entry] = scores.get(entry, 0.0) + DEFINITION_WEIGHT * score
            expanded, phrases = _expansion(canon)
            expanded = [t for t in expanded if t not in metric_query]
            if expanded:
                top = max(scores.values(), default=0.0)
                spelled = {e for c in self._claims(phrases, expanded) for e in c.entries}
                for entry, score in self._metric_names.best(expanded).items():
                    # a catalog name the thesaurus spells out counts as much as the question's best match
                    lift = top if entry in spelled else 0.0
                    scores[entry] = scores.get(entry, 0.0) + EXPANSION_WEIGHT * (score + lift)
        if "dimension" in wanted:
            scores.update(self._dimension_names.best(self._corrected(query)))
        hits = [
            SearchHit(self._entries[e][0], self._entries[e][1], score)
            for e, score in scores.items()
            if score > 0 and self._entries[e][0] in wanted
        ]
        hits.sort(key=lambda h: (-h.score, h.kind, h.name))
        return hits[:k]

    def named(self, question: str) -> list[tuple[HitKind, str]]:
        """The entries whose name (key, label or synonym; a member's for a dimension) the
        question writes out in full, longest names first and not overlapping, in question order."""
        _canon, _query, claims = self._read(question)
        out: list[tuple[HitKind, str]] = []
        for claim in sorted(claims, key=lambda c: c.start):
            out += [self._entries[e] for e in sorted(claim.entries) if self._entries[e] not in out]
        return out

    def members_named(self, question: str) -> dict[str, list[str]]:
        """dimension -> the member keys ``question`` names by a key, label or synonym."""
        canon, _query, claims = self._read(question)
        found: dict[str, list[str]] = {}
        for claim in claims:
            surface = canon[claim.start : claim.end]
            for entry in sorted(claim.entries):
                key = self._member_of.get((entry, surface))
                if key is not None and key not in found.setdefault(self._entries[entry][1], []):
                    found[self._entries[entry][1]].append(key)
        return {dim: keys for dim, keys in found.items() if keys}

    # -- the slice -----------------------------------------------------------------------------

    def catalog_slice(
        self,
        question: str,
        *,
        metrics: int = 10,
        dimensions: int = 8,
        members: int = DEFAULT_MEMBERS_PER_DIMENSION,
    ) -> CatalogSlice:
        """The part of the catalog a planner is shown for ``question``: the top ``metrics``
        metrics, up to ``dimensions`` dimensions (those whose members the question names
        first, then those retrieved, then those the chosen metrics allow, most shared first)
        with at most ``members`` members each (named members always kept), the refused metrics
        the question is close to, and the time grains."""
        catalog = self.catalog
        ranked = self.search(question, k=metrics + 3, kinds=("metric", "refused"))
        chosen = [h.name for h in ranked if h.kind == "metric"][:metrics]
        if len(catalog.metrics) <= metrics:  # the whole catalog fits: retrieval only orders it
            chosen += [name for name in catalog.metrics if name not in chosen]
        refused = [h.name for h in ranked if h.kind == "refused"][:3]
        named = self.members_named(question)
        dims: list[str] = list(named)
        dims += [h.name for h in self.search(question, k=dimensions, kinds=("dimension",)) if h.name not in dims]
        allowed: dict[str, float] = {}
        for rank, name in enumerate(chosen):
            for dim_name in catalog.metrics[name].dimensions:
                allowed[dim_name] = allowed.get(dim_name, 0.0) + 1.0 / (rank + 1)
        dims += [d for d in sorted(allowed, key=lambda d: -allowed[d]) if d not in dims]
        return self._slice(chosen, dims[: max(dimensions, len(named))], refused, named=named, members=members)

    def prompt_slice(
        self, question: str, *, count_tokens: Callable[[str], int], budget: int = WHOLE_CATALOG_TOKENS
    ) -> CatalogSlice:
        """What a model planner is shown: the whole catalog when its prompt form fits ``budget``
        tokens (nothing is left out for retrieval to miss), else :meth:`catalog_slice`."""
        if self._whole_tokens is None:
            self._whole_tokens = count_tokens(self.whole_catalog().to_prompt_json())
        if self._whole_tokens <= budget:
            return self.whole_catalog()
        return self.catalog_slice(question)

    def whole_catalog(self) -> CatalogSlice:
        """The whole catalog in the slice's form: what a planner would be shown without retrieval."""
        catalog = self.catalog
        most = max((len(d.members) for d in catalog.dimensions.values()), default=0)
        return self._slice(
            list(catalog.metrics), list(catalog.dimensions), list(catalog.refused), named={}, members=most
        )

    def _slice(
        self,
        metrics: Sequence[str],
        dimensions: Sequence[str],
        refused: Sequence[str],
        *,
        named: dict[str, list[str]],
        members: int,
    ) -> CatalogSlice:
        catalog = self.catalog
        return CatalogSlice(
            catalog=catalog.name,
            metrics=tuple(self._slice_metric(name) for name in metrics),
            dimensions=tuple(self._slice_dimension(d, named.get(d, []), members) for d in dimensions),
            refused=tuple(self._slice_refused(name) for name in refused),
            grains=get_args(Grain),
            metrics_total=len(catalog.metrics),
            dimensions_total=len(catalog.dimensions),
        )

    def _slice_metric(self, name: str) -> SliceMetric:
        metric = self.catalog.metrics[name]
        return SliceMetric(
            name=name,
            label=_label(metric.label),
            synonyms=metric.synonyms,
            description=_label(metric.description),
            unit=metric.unit,
            ratio=metric.is_ratio,
            better=metric.better,
            dimensions=metric.dimensions,
        )

    def _slice_dimension(self, name: str, named: Sequence[str], limit: int) -> SliceDimension:
        dim = self.catalog.dimensions[name]
        keys = [*named, *(k for k in dim.members if k not in named)]
        keys = keys[: max(limit, len(named))]
        return SliceDimension(
            name=name,
            label=_label(dim.label),
            synonyms=dim.synonyms,
            members=tuple(
                SliceMember(key=k, label=_label(dim.members[k].label), synonyms=dim.members[k].synonyms) for k in keys
            ),
            more_members=len(dim.members) - len(keys),
        )

    def _slice_refused(self, name: str) -> SliceRefused:
        refused = self.catalog.refused[name]
        return SliceRefused(
            name=name, label=_label(refused.label), synonyms=refused.synonyms, reason=_label(refused.reason)
        )


_INDEXES: dict[int, tuple[Catalog, CatalogIndex]] = {}
_INDEXES_LOCK = threading.Lock()
_INDEXES_KEPT = 4


def index_for(catalog: Catalog) -> CatalogIndex:
    """The index of ``catalog``, built once per catalog object (the loader hands out one
    object per catalog file content) and kept for the last few catalogs used."""
    key = id(catalog)
    with _INDEXES_LOCK:
        hit = _INDEXES.get(key)
        if hit is not None and hit[0] is catalog:
            return hit[1]
    index = CatalogIndex(catalog)
    with _INDEXES_LOCK:
        _INDEXES[key] = (catalog, index)
        while len(_INDEXES) > _INDEXES_KEPT:
            del _INDEXES[next(iter(_INDEXES))]
    return index
