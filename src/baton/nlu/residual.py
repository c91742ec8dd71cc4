"""What is left of a question once every reader has claimed its spans: the content words no
reader placed (Chinese segmented with jieba only when something but filler words remains),
and the conversion of traditional characters read before anything else."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from baton import patterns
from baton.nlu import vocabulary as vocab
from baton.nlu.lexicon import glued_to_chinese
from baton.nlu.scan import Scan


def metricish(term: str) -> bool:
    """Whether an unplaced word names a metric ("profit margin", "复购率"): then it is refused
    as a metric the catalog does not define, with the closest ones, not asked back."""
    if term.isascii():
        return any(word in vocab.METRICISH_EN for word in term.lower().split())
    return any(term.endswith(s) or s in term for s in vocab.METRICISH_ZH)


_ZH_FILLERS_BY_LENGTH = sorted(vocab.ZH_FILLERS, key=len, reverse=True)
_CHUNKS = patterns.compile(r"[A-Za-z][A-Za-z'_-]*|[\u4e00-\u9fff]+|[^\sA-Za-z\u4e00-\u9fff]+")


_MEANINGFUL_SYMBOLS = frozenset("%％+＋=<>≥≤")
"""Symbols that say something (a share, a sum, a condition): never skipped as punctuation."""


_ENTITY_BREAKDOWN = patterns.compile(
    r"(?:按照?|每一?个|每一?位|每名|各个?|分)(?:用户|客户|顾客|人)"
    rf"|(?i:{vocab.EACH_ENTITY.pattern})"
)
"""A breakdown or a ratio by a filler noun ("按用户", "每个客户", "per user GMV"): each word is a
filler, but together they ask for a breakdown by, or a value per, an entity no catalog term
claimed — never dropped as filler (p65: "per user GMV" was answered as GMV)."""


_SMALL_TALK = patterns.compile(
    r"\b(?:(?:a\s+|one\s+)?quick\s+(?:one|question|q)|real\s+quick|one\s+more\s+(?:thing|question)"
    r"|(?:a\s+)?question\s+for\s+you)\b",
    re.I,
)
"""How a message opens in chat ("quick one -", "quick question:"): no part of the question."""
_MODAL_MAY = patterns.compile(
    r"\bmay(?=\s+(?:i|we|you|he|she|they|it|this|that|there|be|have|has|not|also|still|well|need|want|ask)\b)",
    re.I,
)


def unknown_words(residual: str) -> list[str]:
    """Content words left over: adjacent English content words form one term ("profit margin"),
    and so do adjacent Chinese ones ("广告投入产出比"); Chinese is segmented (jieba) only when
    something but filler words remains. "may" is a filler only as a verb ("may I see"): left
    unread otherwise, it is a month no reader placed, never dropped."""
    words: list[str] = [m.group(0) for m in _ENTITY_BREAKDOWN.finditer(residual)]
    shouting = not any(ch.islower() for ch in residual)  # "SHOW ME GMV": capitals say nothing of a word
    residual = _SMALL_TALK.sub(" ", _MODAL_MAY.sub(" ", _ENTITY_BREAKDOWN.sub(" ", residual)))
    phrase: list[str] = []
    for found in _CHUNKS.finditer(residual):
        chunk = found.group(0)
        if all(unicodedata.category(ch)[0] in "PSZ" for ch in chunk):
            words.extend(ch for ch in chunk if ch in _MEANINGFUL_SYMBOLS)
            continue  # punctuation and symbols
        word = chunk.lower().strip("'-_")
        if chunk.isascii() and word.replace("'", "").replace("-", "").replace("_", "").isalpha():
            # "desktop-site": each part of a hyphenated word is a word to account for
            parts = [w for w in re.split(r"[-_]+", word) if w]
            glued = glued_to_chinese(residual, found.start(), found.end())  # "2020年3月us的订单": a name
            # "in the US": a code, never "us" — unless every word is in capitals, or a verb's object ("Show ME")
            shouted = (
                chunk.isupper()
                and word in vocab.OBJECT_PRONOUNS
                and not shouting
                and vocab.PRONOUN_VERB_BEFORE.search(residual, 0, found.start()) is None
            )
            phrase += [w for w in parts if (glued or shouted or w not in vocab.EN_FILLERS) and len(w) > 1]
            continue
        if chunk.isascii() and any(ch.isdigit() for ch in chunk):
            words.append(chunk.strip())  # a number no reader placed is never dropped
            continue
        if phrase:
            words.append(" ".join(phrase))
            phrase = []
        if not chunk.isascii() and _content_left(chunk):
            words.extend(_joined(_segment(chunk)))
    if phrase:
        words.append(" ".join(phrase))
    return words


_MEASURE_NOUNS = frozenset(["金额", "数量", "数目", "数值", "值"])


def _joined(segments: list[str]) -> list[str]:
    """Adjacent content segments as one term; a filler word ends a term, except a measure noun
    that completes it ("退货" + "金额" is the metric-like "退货金额")."""
    out: list[str] = []
    current = ""
    for segment in [*segments, ""]:
        if segment and (
            (segment not in vocab.ZH_FILLERS and not _all_fillers(segment)) or (current and segment in _MEASURE_NOUNS)
        ):
            current += segment
            continue
        if current:
            out.append(current)
        current = ""
    return out


def _all_fillers(word: str) -> bool:
    """A segment made only of characters of asking ("的了", "我算下"): no content, unlike "每",
    "人" or "分", which are fillers only as whole words ("每人" is not)."""
    return all(ch in vocab.FUNCTION_CHARACTERS for ch in word)


def _content_left(chunk: str) -> bool:
    """Whether a Chinese chunk holds anything but filler words and particles (no segmentation
    needed if not): a plain question ("…是多少？") never loads the segmenter's dictionary.
    Only filler words of two or more characters are taken out here; what remains must be
    particles or single-character fillers standing alone ("各" left between two claimed terms),
    so single-character fillers that form a word ("每人", "分时", "过期") send the chunk to the
    segmenter."""
    for word in _ZH_FILLERS_BY_LENGTH:
        if len(word) > 1:
            chunk = chunk.replace(word, " ")
    left = "".join(" " if ch in vocab.PARTICLES else ch for ch in chunk)
    return any(len(run) > 1 or run not in vocab.ZH_FILLERS for run in left.split())


def _segment(text: str) -> list[str]:
    """Chinese word segmentation (jieba, loaded once and quietly)."""
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    return [w.strip() for w in jieba.lcut(text) if w.strip()]


def to_simplified(text: str) -> str:
    """Traditional characters as simplified ones (OpenCC's t2s, Apache-2.0). The converter
    (about 12 ms to load) is loaded only when a Chinese character lies outside GB 2312, the
    simplified character set: a plain simplified question never pays for it."""
    if all(_simplified(ch) for ch in text if "\u4e00" <= ch <= "\u9fff"):
        return text
    return str(_converter().convert(text))


def _simplified(ch: str) -> bool:
    try:
        ch.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return True


@lru_cache(maxsize=1)
def _converter() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


def where_left(scan: Scan, word: str) -> int:
    """Where an unplaced word stands in the question (its first place no reader claimed), -1 if nowhere."""
    return scan.residual().find(word)


def the_numbers(scan: Scan, word: str) -> bool:
    """ "给我数", "GMV的数", "各渠道的数", "按天的数", "上个月的数": the numbers asked for, no word to
    place — said to the asker, or after 的 of words already read. "客户数", "GMV数" and "新客的数"
    (of a member: new users' count?) may count something no catalog metric names: left to place."""
    core = word.strip("".join(vocab.FUNCTION_CHARACTERS))
    at = where_left(scan, word)
    if core not in vocab.THE_NUMBERS_ZH or at < 0:
        return False
    if core != word:  # "给我数" segmented as "我数"
        return True
    before = scan.text[:at].rstrip()
    if not before.endswith("的"):
        return False
    of = len(before) - 1
    said = [(start, end) for start, end in scan.claimed if end == of]
    if not said or any(end == of for _, end in scan.members):
        return False
    start = min(s for s, _ in said)
    # a dimension's name is its breakdown only after a breakdown word ("各渠道的数", "按渠道和区域的数");
    # "渠道的数" counts channels
    named = any(end == of for s, end in scan.terms if (s, end) not in scan.metrics)
    while (joined := _JOINED_BEFORE.search(scan.norm, 0, start)) is not None:
        listed = [s for s, e in scan.terms if e == joined.start()]
        if not listed:
            break
        start = min(listed)
    return not named or vocab.BREAKDOWN_BEFORE.search(scan.norm, 0, start) is not None


_JOINED_BEFORE = patterns.compile(r"(?:和|与|及|、|\band\b)\s*$", re.I)


def dimension_noun(scan: Scan, word: str) -> bool:
    """ "加上品类维度", "按渠道这个维度", "by the channel dimension": the word for a dimension, said of
    the one just named — no word to place. Said of nothing ("看维度") it is left to place."""
    at = where_left(scan, word)
    if word.lower() not in vocab.DIMENSION_NOUNS or at < 0:
        return False
    named = [end for start, end in scan.terms if (start, end) not in scan.metrics and (start, end) not in scan.members]
    return any(end <= at and scan.text[end:at].strip().lower() in vocab.DIMENSION_NOUN_AFTER for end in named)


__all__ = ["dimension_noun", "metricish", "the_numbers", "to_simplified", "unknown_words", "where_left"]
