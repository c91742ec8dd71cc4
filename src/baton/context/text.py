"""Bilingual tokenisation for relevance: jieba for Chinese, words for English (never ``str.split``)."""

from __future__ import annotations

import logging
import re
import threading
from functools import lru_cache

_lock = threading.Lock()

_WORD = re.compile(r"[0-9A-Za-z\u4e00-\u9fff]")

STOPWORDS: frozenset[str] = frozenset(
    [
        "的",
        "了",
        "和",
        "与",
        "及",
        "是",
        "在",
        "对",
        "把",
        "被",
        "为",
        "也",
        "就",
        "都",
        "而",
        "及其",
        "或",
        "这",
        "那",
        "其",
        "之",
        "个",
        "各",
        "中",
        "上",
        "下",
        "吗",
        "呢",
        "啊",
        "按",
        "从",
        "到",
        "以",
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "for",
        "and",
        "or",
        "is",
        "are",
        "was",
        "were",
        "be",
        "by",
        "with",
        "at",
        "as",
        "from",
        "that",
        "this",
        "it",
        "its",
        "what",
        "why",
        "how",
        "which",
        "who",
        "did",
        "does",
        "do",
    ]
)


@lru_cache(maxsize=1)
def _ensure_jieba() -> bool:
    """Initialise jieba once, quietly (it logs its dictionary load at DEBUG by default)."""
    with _lock:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        logging.getLogger("jieba").setLevel(logging.WARNING)
        jieba.initialize()
    return True


def terms(text: str) -> frozenset[str]:
    """Content terms of mixed Chinese/English text: jieba words, lower-cased, stopwords removed."""
    if not text.strip():
        return frozenset()
    _ensure_jieba()
    import jieba

    out: set[str] = set()
    for raw in jieba.lcut(text):
        token = raw.strip().lower()
        if token and _WORD.search(token) and token not in STOPWORDS:
            out.add(token)
    return frozenset(out)


def overlap(query: frozenset[str], document: frozenset[str]) -> float:
    """Share of the query's terms found in the document (0 when the query is empty)."""
    if not query:
        return 0.0
    return len(query & document) / len(query)
