"""Find catalog terms (metrics, dimensions, members) in a question.

The lexicon is built from the catalog's names, labels and synonyms, so adding a synonym to
the YAML teaches the parser a word. Matching is longest-first over NFKC-normalised text;
ASCII terms must stand at word boundaries ("app" is not found inside "happy"), CJK terms
match anywhere since Chinese has no spaces.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from baton import patterns
from baton.catalog.model import Catalog, Member
from baton.nlu import vocabulary as vocab
from baton.nlu.typos import TIME_ABBREVIATIONS, TIME_WORDS
from baton.numbers import plural_noun

CASED_WORDS = vocab.EN_FILLERS | vocab.OPERATOR_WORDS | vocab.COMMON_EN | TIME_WORDS | TIME_ABBREVIATIONS
"""English words that a catalog term written in capitals (a country code: "US", "IN") names
only when the question writes it in capitals too: "revenue in IN" names India, "show us" not."""
Kind = Literal["metric", "dimension", "member", "refused"]
_PARTICLES = patterns.compile(r"了多少|了几|了|过")
_ASCII_WORD = patterns.compile(r"(?<![A-Za-z0-9_])[a-z]+(?![A-Za-z0-9_])")
_WORD_HYPHEN = patterns.compile(r"(?<=[a-z])-(?=[a-z])")
"""A hyphen inside an English compound ("new-user orders", "mini-program"): read as a space, for
catalog terms only (the question's own words keep it: "year-over-year" is an operator)."""
_CHARS_OR_PARTICLE = patterns.compile(r"(?<=[\u4e00-\u9fff])(?P<particle>了多少|了几|了|过)(?=[\u4e00-\u9fff])|.", re.S)


_AMOUNT_GLUED = patterns.compile(r"\d+(?:\.\d+)?(?:[\u4e00-\u9fff%％])")
"""An amount glued after a Latin name, as Chinese typing does ("GMV100万以上"): the name still ends there."""


@dataclass(frozen=True)
class Term:
    kind: Kind
    target: str  # metric name, dimension name, or "dimension:member"
    surface: str


@dataclass(frozen=True)
class Hit:
    start: int
    end: int
    text: str
    terms: tuple[Term, ...]  # several when one surface form names several things

    @property
    def kinds(self) -> set[Kind]:
        return {t.kind for t in self.terms}


def _longest_first(candidates: list[tuple[int, int]], blocked: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Non-overlapping spans, the longest taken first; then a taken span that a longer reading
    of two terms would cover better gives way: "华东区域" is the member 华东 and the dimension word
    区域, not the member 华东区 and a stray "域" (a shorter term ending where the overlapping one
    starts, the two reaching past the taken span)."""
    claimed = list(blocked)
    taken: list[tuple[int, int]] = []
    for index, end in sorted(set(candidates), key=lambda s: (-(s[1] - s[0]), s[0])):
        if any(index < c_end and c_start < end for c_start, c_end in claimed):
            continue
        claimed.append((index, end))
        taken.append((index, end))
    spans = set(candidates)
    for later_start, later_end in sorted(spans - set(taken)):
        over = [t for t in taken if t[0] < later_start < t[1] < later_end]
        if len(over) != 1 or (over[0][0], later_start) not in spans:
            continue
        rest = [t for t in claimed if t != over[0]]
        if any(later_start < c_end and c_start < later_end for c_start, c_end in rest):
            continue
        taken.remove(over[0])
        claimed.remove(over[0])
        taken += [(over[0][0], later_start), (later_start, later_end)]
        claimed += [(over[0][0], later_start), (later_start, later_end)]
    return taken


def glued_to_chinese(text: str, start: int, end: int) -> bool:
    """Whether the Latin word ``text[start:end]`` is written right against a Chinese character
    ("2020年3月us的订单"): a name to place, never an English filler — unless it is a chat word
    ("…多少ok"), which is one anywhere."""
    before = text[start - 1] if start > 0 else ""
    after = text[end] if end < len(text) else ""
    against = any("\u4e00" <= ch <= "\u9fff" for ch in (before, after))
    return against and text[start:end].lower().strip("'-_") not in vocab.CHAT_WORDS


def plural_of(surface: str) -> str | None:
    """The plural of an English dimension word ("city" → "cities", "product line" → "product
    lines"), so a catalog need not list it; ``None`` for a word already plural or not English."""
    word = surface.strip()
    if not word.isascii() or not word[-1:].isalpha() or word.lower().endswith("s") or len(word) < 3:
        return None
    head, _, last = word.rpartition(" ")
    return f"{head} {plural_noun(last)}".strip()


_ATTRIBUTIVE_HEAD = patterns.compile(
    r"\s+(?:share|shares|mix|split|growth|trend|trends|volume|volumes|count|counts|numbers|figures)\b"
)
"""The nouns a count's name stands before in the singular ("order share", "session trend",
"order growth"): only there is "order" the count of orders — "in order of GMV" is none, and "order
total" may be an amount."""


def _attributive_singular(surface: str) -> str | None:
    """ "order" of a count named by one plural English word ("orders", "sessions"), else ``None`` —
    never of a word of four letters or fewer, which is seldom a plural ("news", "plus", "bus")."""
    word = surface.strip().lower()
    if not word.isascii() or not word.isalpha() or " " in word or not word.endswith("s") or word.endswith("ss"):
        return None
    return word[:-1] if len(word) > 4 else None


_RATE_WORDS = (" rate", " ratio", " value", " margin")
"""The last words of a metric name said in the plural across groups ("refund rates by region",
"average order values"); never "average order" → "average orders", which counts orders."""


def normalise(text: str) -> str:
    """NFKC + lower case; length-preserving for the characters questions contain."""
    out = unicodedata.normalize("NFKC", text)
    return out.lower() if len(out) == len(text) else text.lower()


class Lexicon:
    def __init__(self, catalog: Catalog) -> None:
        entries: dict[str, list[Term]] = {}

        def add(surface: str, term: Term) -> None:
            key = _WORD_HYPHEN.sub(" ", normalise(surface.strip()))
            if key and term not in entries.setdefault(key, []):
                entries[key].append(term)

        for name, metric in catalog.metrics.items():
            for surface in (name, metric.label.zh, metric.label.en, *metric.synonyms):
                add(surface, Term("metric", name, surface))
        for name, refused in catalog.refused.items():  # named so it is refused, never matched to a neighbour
            for surface in (name, refused.label.zh, refused.label.en, *refused.synonyms):
                add(surface, Term("refused", name, surface))
        for name, dim in catalog.dimensions.items():
            for surface in (name, dim.label.zh, dim.label.en, *dim.synonyms):
                add(surface, Term("dimension", name, surface))
            for member, info in dim.members.items():
                # a key its label spells in other capitals ("us" labelled "US") is said as the label is
                as_keyed = (
                    () if member not in (info.label.zh, info.label.en) and _is_case_of(member, info) else (member,)
                )
                for surface in (*as_keyed, info.label.zh, info.label.en, *info.synonyms):
                    add(surface, Term("member", f"{name}:{member}", surface))
        for name, dim in catalog.dimensions.items():  # "top 3 cities": a dimension named in the plural
            for surface in (dim.label.en, *dim.synonyms):
                plural = plural_of(surface)
                key = _WORD_HYPHEN.sub(" ", normalise(plural)) if plural else ""
                if plural and key not in entries and key not in vocab.EN_FILLERS and key not in vocab.COMMON_EN:
                    add(plural, Term("dimension", name, surface))
        for name, metric in catalog.metrics.items():  # "refund rates by region": a metric of several words
            for surface in (metric.label.en, *metric.synonyms):  # one word in the plural counts ("conversions")
                plural = plural_of(surface) if surface.strip().lower().endswith(_RATE_WORDS) else None
                key = _WORD_HYPHEN.sub(" ", normalise(plural)) if plural else ""
                if plural and key not in entries:
                    add(plural, Term("metric", name, surface))
        for name, metric in catalog.metrics.items():  # "per buyer GMV": "GMV per buyer" said the other way round
            for surface in (metric.label.en, *metric.synonyms):
                per = _PER.fullmatch(surface.strip())
                if per and _WORD_HYPHEN.sub(" ", normalise(f"per {per['of']} {per['value']}")) not in entries:
                    add(f"per {per['of']} {per['value']}", Term("metric", name, surface))
        attributive: dict[str, list[Term]] = {}
        for name, metric in catalog.metrics.items():  # "order share": a count's name said before a noun
            for surface in (metric.label.en, *metric.synonyms) if metric.unit == "count" else ():
                singular = _attributive_singular(surface)
                if singular and singular not in entries and singular not in vocab.EN_FILLERS:
                    attributive.setdefault(singular, []).append(Term("metric", name, surface))
        self._attributive = {k: terms for k, terms in attributive.items() if len({t.target for t in terms}) == 1}
        self._entries = entries
        self._surfaces = sorted(entries, key=len, reverse=True)
        self._searched = sorted([*entries, *self._attributive], key=len, reverse=True)
        self._cased = {
            k for k, terms in entries.items() if k in CASED_WORDS and all(t.surface.isupper() for t in terms)
        }

    def find(self, text: str, blocked: list[tuple[int, int]] | None = None) -> list[Hit]:
        """Non-overlapping hits, longest first, skipping spans already claimed."""
        norm = _WORD_HYPHEN.sub(" ", normalise(text))
        claimed = list(blocked or [])
        candidates: list[tuple[int, int]] = []
        for surface in self._searched:
            start = 0
            while True:
                index = norm.find(surface, start)
                if index < 0:
                    break
                end = index + len(surface)
                start = index + 1
                if surface.isascii() and (
                    (
                        index > 0
                        and (norm[index - 1].isascii() and (norm[index - 1].isalnum() or norm[index - 1] == "_"))
                    )
                    or (
                        end < len(norm)
                        and norm[end].isascii()
                        and (norm[end].isalnum() or norm[end] == "_")
                        and not (surface[-1].isalpha() and _AMOUNT_GLUED.match(norm, end))
                    )
                ):
                    continue
                if surface in self._cased and not text[index:end].isupper() and not glued_to_chinese(norm, index, end):
                    continue  # "show us" is not the member "US"; "上个月us的收入" is
                if surface in self._attributive and not _ATTRIBUTIVE_HEAD.match(norm, end):
                    continue
                candidates.append((index, end))
        candidates += self._across_particles(norm)
        hits: list[Hit] = []
        taken = _longest_first(candidates, claimed)
        for index, end in taken:
            surface = self._surface(norm, index, end)
            start, stop = self._joined_with_its_own(norm, (index, end), candidates, [*claimed, *taken])
            hits.append(Hit(start, stop, text[start:stop], tuple(self._terms(surface))))
        return sorted(hits, key=lambda h: h.start)

    def _surface(self, norm: str, index: int, end: int) -> str:
        said = norm[index:end]
        return _PARTICLES.sub("", said) if said not in self._entries and said not in self._attributive else said

    def _terms(self, surface: str) -> list[Term]:
        return self._entries.get(surface) or self._attributive[surface]

    def _joined_with_its_own(
        self, norm: str, span: tuple[int, int], candidates: list[tuple[int, int]], taken: list[tuple[int, int]]
    ) -> tuple[int, int]:
        """ "new accounts signed up": two synonyms of one term that overlap ("new accounts",
        "accounts signed up") are one hit over both, never the longer and a stray "new"."""

        def targets(a: int, b: int) -> set[tuple[str, str]]:
            return {(t.kind, t.target) for t in self._terms(self._surface(norm, a, b))}

        own = targets(*span)
        start, end = span
        for a, b in candidates:
            if not (a < end and start < b) or (a, b) == span or targets(a, b) != own:
                continue
            wider = (min(a, start), max(b, end))
            if not any(wider[0] < e and s < wider[1] for s, e in taken if (s, e) != span):
                start, end = wider
        return start, end

    def _across_particles(self, norm: str) -> list[tuple[int, int]]:
        """Chinese terms split by an aspect or quantity particle ("新增了多少注册用户" is the
        term "新增注册用户" asked about, "多少人下过单" the term "多少人下单"): found in the text without the particle, kept only
        when the particle sits inside the term."""
        kept: list[int] = []
        compact = []
        for m in _CHARS_OR_PARTICLE.finditer(norm):
            if m.group("particle"):
                continue
            kept.append(m.start())
            compact.append(m.group(0))
        joined = "".join(compact)
        if len(joined) == len(norm):
            return []
        out: list[tuple[int, int]] = []
        for surface in self._surfaces:
            if surface.isascii() or len(surface) < 4:
                continue
            index = joined.find(surface)
            while index >= 0:
                start, end = kept[index], kept[index + len(surface) - 1] + 1
                if end - start > len(surface):
                    out.append((start, end))
                index = joined.find(surface, index + 1)
        return out

    def codes_said_lower(self, text: str, found: Sequence[Hit]) -> list[tuple[int, int, Term]]:
        """Members read only as written in capitals ("US") that the question says in lower case
        as a pronoun never stands — not after a verb that takes one ("show us"): "in the us",
        "us bookings", "did us have". A pronoun dropped there would drop the member's filter."""
        norm = normalise(text)
        out: list[tuple[int, int, Term]] = []
        for m in _ASCII_WORD.finditer(norm):
            word = m.group(0)
            if word not in self._cased or word not in vocab.OBJECT_PRONOUNS or text[m.start() : m.end()].isupper():
                continue
            if any(h.start <= m.start() < h.end for h in found) or vocab.PRONOUN_VERB_BEFORE.search(norm, 0, m.start()):
                continue
            member = next((t for t in self._entries[word] if t.kind == "member"), None)
            if member is not None:
                out.append((m.start(), m.end(), member))
        return out

    def all_surfaces(self) -> list[str]:
        """Every surface form of every catalog term (normalised)."""
        return list(self._surfaces)

    def surfaces(self, kind: Kind) -> dict[str, list[str]]:
        """target -> surface forms, for suggestions and fuzzy matching."""
        out: dict[str, list[str]] = {}
        for surface, terms in self._entries.items():
            for term in terms:
                if term.kind == kind:
                    out.setdefault(term.target, []).append(surface)
        return out


_PER = patterns.compile(r"(?P<value>[^\s].*?)\s+per\s+(?P<of>[^\s].*)", re.I)


def _is_case_of(key: str, member: Member) -> bool:
    return key.lower() in (member.label.zh.lower(), member.label.en.lower())


def reserved_words() -> frozenset[str]:
    """Words a member read from the data may not become, as they would change how questions
    using them as words are read: function, operator and time words of both languages."""
    return vocab.EN_FILLERS | vocab.OPERATOR_WORDS | vocab.ZH_FILLERS | TIME_WORDS | TIME_ABBREVIATIONS
