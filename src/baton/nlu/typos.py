"""Typo tolerance, on catalog terms and time words only.

A Latin-script word of the question that is no known word, no catalog term and no time word
is read as a catalog term (or an English time word) when exactly one of them is within one
edit — a substitution, insertion, deletion or swap of neighbours ("GVM" → "GMV", "lst" →
"last", "revnue" → "revenue"). Two candidates, or none, leave the word as it was (the planner
then asks back about it). Every correction is returned, so the answer states it.

Written here because the distance needed is tiny and bounded (one edit, words of a question):
difflib's ratio is not an edit distance and a dependency would add nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from baton import patterns
from baton.contracts.semantic import Correction

TIME_WORDS = frozenset(
    [
        "last",
        "this",
        "next",
        "previous",
        "prev",
        "prior",
        "mth",
        "mths",
        "wk",
        "wks",
        "qtr",
        "qtrs",
        "yr",
        "yrs",
        "past",
        "month",
        "months",
        "week",
        "weeks",
        "year",
        "years",
        "quarter",
        "quarters",
        "day",
        "days",
        "today",
        "yesterday",
        "daily",
        "weekly",
        "monthly",
        "quarterly",
        "yearly",
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
        "since",
        "until",
        "through",
        "date",
        "dates",
        "weekend",
        "weekends",
        "weekday",
        "weekdays",
        "fortnight",
    ]
)
TIME_ABBREVIATIONS = frozenset(
    [
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "wk",
        "yr",
        "qtr",
        "mtd",
        "ytd",
        "qtd",
        "wtd",
        "mon",
        "tue",
        "tues",
        "wed",
        "thu",
        "thur",
        "thurs",
        "fri",
        "sat",
        "sun",
    ]
)
"""Short time words read as they are and never a typo's target ("far" is not "mar")."""
_WORD = patterns.compile(r"[A-Za-z][A-Za-z_-]*(?:'[A-Za-z]+)?")
"""A Latin word, with its contraction ("didn't" is one word, never "didn" + "t")."""
MIN_LENGTH = 3


def transposed(a: str, b: str) -> bool:
    """``b`` is ``a`` with two adjacent letters swapped ("form" and "from")."""
    diffs = [i for i in range(len(a)) if len(a) == len(b) and a[i] != b[i]]
    return len(diffs) == 2 and diffs[1] == diffs[0] + 1 and (a[diffs[0]], a[diffs[1]]) == (b[diffs[1]], b[diffs[0]])


def within_one_edit(a: str, b: str) -> bool:
    """Damerau–Levenshtein distance ≤ 1 (adjacent swaps count as one edit)."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la == lb:
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1 or transposed(a, b)
    short, long_ = (a, b) if la < lb else (b, a)
    i = 0
    while i < len(short) and short[i] == long_[i]:
        i += 1
    return short[i:] == long_[i + 1 :]


ABBREVIATIONS: dict[str, str] = {
    "avg": "average",
    "excl": "excluding",
    "ex": "excluding",
    "ly": "last year",
    "w/o": "without",
    "pct": "percent",
    "y/y": "yoy",
    "y-o-y": "yoy",
    "m/m": "mom",
    "m-o-m": "mom",
    "q/q": "qoq",
    "q-o-q": "qoq",
    "w/w": "wow",
    "w-o-w": "wow",
    "p/d": "per day",
    "p/w": "per week",
    "p/m": "per month",
    "w/c": "week commencing",
    "w/b": "week beginning",
    "w/e": "week ending",
    "/order": " per order",
    "mo": "month",
    "mos": "months",
    "mth": "month",
    "mths": "months",
    "mnth": "month",
    "mnths": "months",
    "wk": "week",
    "wks": "weeks",
    "yr": "year",
    "yrs": "years",
    "qtr": "quarter",
    "qtrs": "quarters",
    "ppl": "people",
    "yday": "yesterday",
    "chg": "change",
}
"""Shorthand analysts write for words the operator patterns and catalog names read in full
("y/y", "w/c 15 June", "GMV/order": never dropped as punctuation, or read as a sort order)."""
_ABBREVIATION = patterns.compile(
    r"(?<![A-Za-z/])(?P<w>avg|excl|ex|ly|w/o|pct|[ymqw]/[ymqw]|[ymqw]-o-[ymqw]|p/[dwm]|w/[cbe]|mos?|mn?ths?|wks?|yrs?|qtrs?|ppl|yday|chg)"
    r"(?:\.|(?![A-Za-z/'-]))"
    r"|(?<=[A-Za-z])\s*(?P<per>/\s*order)(?![A-Za-z/])",
    re.I,
)


_COUNTED_UNIT = patterns.compile(
    r"\b(?P<said>(?:last|past|next|prior|first|previous|trailing|preceding)\s+)(?P<n>\d{1,3})(?P<u>[dw])(?![A-Za-z\d])",
    re.I,
)
""""previous 7d", "the prior 4w": a count of days or weeks written short after a word of a range
("l7d" is read as one word; "超过1w" is 1万, never a week)."""
_GLUED_COMPARISON = patterns.compile(
    r"(?<=[\u4e00-\u9fff]|[A-Z])(?=(?:yoy|mom|wow|qoq|YoY|MoM|WoW|QoQ|YOY|MOM|WOW|QOQ)\b)"
)
"""Where a comparison's shorthand is written straight after a Chinese word or a capitalised name
("订单量mom", "GMVyoy"): a space, so it is read as the word it is."""


def expand_abbreviations(text: str, terms: Sequence[tuple[int, int]] = ()) -> tuple[str, tuple[Correction, ...]]:
    """``text`` with each shorthand of :data:`ABBREVIATIONS` written out, each one stated; never
    one inside a catalog term (``terms``: "non referred bookings pct" is a metric's name)."""
    corrections: list[Correction] = []

    def expand(match: re.Match[str]) -> str:
        said = (match.group("w") or "/order").lower()
        full = ABBREVIATIONS.get(said)
        inside = any(s <= match.start() and match.end() <= e for s, e in terms)
        if full is None or inside:  # "m/y": no shorthand of ours
            return match.group(0)
        corrections.append(Correction(written=match.group(0).strip(), read_as=full.strip(), kind="shorthand"))
        return full

    def counted(match: re.Match[str]) -> str:
        short = match.group("n") + match.group("u")
        full = f"{match.group('n')} {'days' if match.group('u').lower() == 'd' else 'weeks'}"
        corrections.append(Correction(written=short, read_as=full, kind="shorthand"))
        return match.group("said") + full

    expanded = _COUNTED_UNIT.sub(counted, _ABBREVIATION.sub(expand, text))
    return _GLUED_COMPARISON.sub(" ", expanded), tuple(dict.fromkeys(corrections))  # "7d vs previous 7d": said once


COMMON_WORD = 1000
"""A word at least this frequent in pyspellchecker's English list (dairy 4,018, chanel 328) is a
word of its own, never a typo of a catalog term."""


@lru_cache(maxsize=1)
def _english() -> Any:
    """pyspellchecker's English word frequencies (MIT; about 0.14 s to load, only when a
    correction is about to be made). A frequency list is what tells a typo from a real word;
    no such list ships with Baton's other dependencies."""
    from spellchecker import SpellChecker

    return SpellChecker(language="en", distance=1).word_frequency


def common_english_word(word: str) -> bool:
    return int(_english()[word.lower()]) >= COMMON_WORD


def _inflected(a: str, b: str) -> bool:
    """One is the other with a plural ending ("apps" and "app"): the same word, not a typo."""
    return a == b + "s" or b == a + "s"


@lru_cache(maxsize=16)
def _prepared(vocabulary: tuple[str, ...], known: frozenset[str]) -> tuple[dict[str, str], frozenset[str]]:
    """The vocabulary by lower-cased word and every word known as written, once per catalog."""
    vocab = {v.lower(): v for v in vocabulary if len(v) >= MIN_LENGTH and v.isascii() and " " not in v}
    return vocab, frozenset({k.lower() for k in known} | set(vocab))


def correct(text: str, vocabulary: Iterable[str], known: Iterable[str]) -> tuple[str, tuple[Correction, ...]]:
    """``text`` with each unknown Latin word replaced by its one close vocabulary word."""
    vocab, known_words = _prepared(tuple(vocabulary), frozenset(known))
    corrections: list[Correction] = []

    def replace(match: re.Match[str]) -> str:
        word = match.group(0)
        low = word.lower()
        if len(low) < MIN_LENGTH or low in known_words or "'" in low:
            return word
        candidates = {v for k, v in vocab.items() if within_one_edit(low, k)}
        if len(candidates) != 1:
            return word
        (fixed,) = candidates
        if word.isupper() and len(word) > 1 and not transposed(low, fixed.lower()):
            return word  # an acronym with another letter is another name (API is not app, NMV not GMV)
        if common_english_word(low) and not _inflected(low, fixed.lower()):
            return word  # "dairy" is a word, not a misspelt "daily"
        corrections.append(Correction(written=word, read_as=fixed, kind="typo"))
        return fixed

    return _WORD.sub(replace, text), tuple(corrections)


_CJK = patterns.compile(r"[\u4e00-\u9fff]+")
_TYPE_CHARACTERS = frozenset("率量数额价值")
"""The characters that say what kind of number a Chinese metric name is: a different one is a
different metric ("下单率" is not "下单量"), never a typo."""


def correct_cjk(
    text: str, surfaces: Mapping[str, str], terms: Iterable[tuple[int, int]]
) -> tuple[str, tuple[Correction, ...]]:
    """Chinese metric names with one wrong character (退宽率 → 退款率, 转话率 → 转化率).

    A window of the question is read as a catalog metric name when: the name ends in a
    metric-type character (率量数额价值) and names one target; the window differs from it in
    one character that is neither a metric-type, operator nor particle character; the window
    is not inside a term the question already names (``terms``) and ends where a word may end;
    and the wrong character forms no word of the segmenter's dictionary with its neighbours
    ("卖家数" is about sellers, "注销数" about deregistrations: other metrics, never typos).
    """
    spans = list(terms)
    targets = _metric_names(tuple(surfaces.items()))
    corrections: list[Correction] = []
    out = text
    for run in _CJK.finditer(text):
        for length in sorted(targets, reverse=True):
            for at in range(run.start(), run.end() - length + 1):
                window = out[at : at + length]
                if not _may_be_a_typo(out, at, window, surfaces, spans):
                    continue
                surface = _the_one_name(window, targets[length], at, spans)
                if surface is None or _forms_a_word(window, surface, surfaces):
                    continue
                out = out[:at] + surface + out[at + length :]
                corrections.append(Correction(written=window, read_as=surface, kind="typo"))
    return out, tuple(corrections)


@lru_cache(maxsize=16)
def _metric_names(surfaces: tuple[tuple[str, str], ...]) -> dict[int, list[tuple[str, str]]]:
    """The Chinese metric names by length (once per catalog: ``surfaces`` as its items)."""
    by_length: dict[int, list[tuple[str, str]]] = {}
    for surface, target in surfaces:
        if len(surface) >= 3 and _CJK.fullmatch(surface) and surface[-1] in _TYPE_CHARACTERS:
            by_length.setdefault(len(surface), []).append((surface, target))
    return by_length


def _may_be_a_typo(text: str, at: int, window: str, surfaces: Mapping[str, str], spans: list[tuple[int, int]]) -> bool:
    end = at + len(window)
    if window in surfaces or any(a < end and at < b and b - a >= 3 for a, b in spans):
        return False  # already a term, or inside one the question names
    if any(ch in _PARTICLES for ch in window) or "多少" in window:
        return False  # a phrase ("增长了多少"), not a term
    a_term_and_more = any(window[:k] in surfaces or window[-k:] in surfaces for k in range(2, len(window)))
    if a_term_and_more and not _ends_clearly(text, end):
        return False  # a term and the next word ("华南多多少")
    return _ends_a_word(text, end, spans)  # "新客运营": 新客运 starts another word


def _the_one_name(window: str, names: list[tuple[str, str]], at: int, spans: list[tuple[int, int]]) -> str | None:
    """The catalog name one character from ``window``, if exactly one target has such names
    (the first surface of a target: its label)."""
    found: dict[str, str] = {}
    for surface, target in names:
        if not _one_character_off(window, surface):
            continue
        wrong = _first_difference(window, surface)
        if window[wrong] not in _PARTICLES and not any(a <= at + wrong < b for a, b in spans):
            found.setdefault(target, surface)
    return next(iter(found.values())) if len(found) == 1 else None


def _forms_a_word(window: str, surface: str, surfaces: Mapping[str, str] | None = None) -> bool:
    """Whether the wrong character makes a word with a neighbour: one of jieba's dictionary
    (loaded only when a correction is about to be made) or of another catalog name ("营收" of
    "净营收": 营收额 is not a misspelt 营业额)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()  # get_FREQ reads the dictionary without loading it: before, every word is unknown
    wrong = _first_difference(window, surface)
    pairs = [window[max(wrong - 1, 0) : wrong + 1], window[wrong : wrong + 2]]
    words = [pair for pair in pairs if len(pair) == 2 and pair not in surface]
    return any(jieba.get_FREQ(pair) or any(pair in name for name in surfaces or ()) for pair in words)


_PARTICLES = frozenset("的了是在和与及或吗呢吧啊")
_OPERATOR_CHARACTERS = frozenset("外内前后比多少高低各每占总非除不以加减中里上过超破达")
"""Operator and locative characters ("订单中", "GMV里", "APP上", "订单过8000"): a window they differ in is a
phrase, never a typo."""
_AFTER_A_TERM = frozenset("的了是在和与及或吗呢吧啊有多少各每按比占环同")


def _ends_clearly(text: str, end: int) -> bool:
    """The text ends, or a particle or punctuation follows ("订单亮。", "订单亮是多少")."""
    return end >= len(text) or not _CJK.match(text[end]) or text[end] in "的是吗呢吧"


def _ends_a_word(text: str, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a term may end at ``end``: the text ends, or what follows is not Chinese, a
    particle, or another catalog term."""
    if end >= len(text) or not _CJK.match(text[end]):
        return True
    return text[end] in _AFTER_A_TERM or any(a == end for a, _ in spans)


def _first_difference(a: str, b: str) -> int:
    return next(i for i in range(len(a)) if a[i] != b[i])


def _one_character_off(a: str, b: str) -> bool:
    diffs = [i for i in range(len(a)) if a[i] != b[i]]
    # "下单率" is another metric and "直播外" an exclusion ("除直播外"); "客单介" is a typo
    return len(diffs) == 1 and a[diffs[0]] not in _TYPE_CHARACTERS and a[diffs[0]] not in _OPERATOR_CHARACTERS
