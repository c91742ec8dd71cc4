"""The input gate: questions that must not reach the planner at all.

Empty, oversized or binary input is invalid; a request to change data or rules is outside
a read-only analyst's job and is refused before anything is parsed or run. "drop" alone is
the verb of a metric ("Why did GMV drop?"); only "drop table/database/…" is a write.
"""

from __future__ import annotations

import re
import unicodedata

from baton import patterns
from baton.errors import OutOfScope, QuestionRefused
from baton.messages import both

MAX_QUESTION_CHARS = 2_000

_WRITE_OR_OVERRIDE = patterns.compile(
    r"删除|删掉|删了|清空|修改|更改|把[^，,。？?]{1,20}?(?:改成|改为)|更新数据|插入|写入|新增一条|建表|删表|导出全部|"
    r"忽略(上面|之前|以上|前面|所有)?的?(规则|指令|限制|要求)|绕过|无视(规则|限制)|越权|"
    r"(?<![a-z])(delete|truncate|insert|update|alter|grant|revoke|merge)(?![a-z])|"
    r"(?<![a-z])drop\s+(?:the\s+|all\s+)?(?:table|tables|database|schema|view|column|index|data|rows?|records?)(?![a-z])|"
    r"ignore (all |the |any )?(previous |above |prior )?(rules|instructions|policies|restrictions)|"
    r"bypass|disregard (the |all )?(rules|instructions)|jailbreak",
    re.IGNORECASE,
)


_EN_WORD = patterns.compile(r"[A-Za-z]{2,}")
_ZH_GRAMMAR = patterns.compile(
    r"[的各了吗呢是哪和与按每在比最近吧，。？！、：]|多少|什么|上个|这个|[上本下这前后]周|[上本]月|[今去前明]年|[昨今前]天"
)
"""Function words, words of time and full-width punctuation: a question that has one is written
in Chinese, whatever English words it mixes in ("Q1各region的refund rate", "上周订单量 vs the same
week last year") — a member's name is no word of time."""


def detect_language(text: str) -> str:
    """Chinese when the question is written in Chinese: an English sentence naming Chinese members
    ("daily orders of 手机数码 in 东北 last month") is English — its Chinese is names, without
    Chinese function words, and shorter than its English (a word per two characters)."""
    chinese = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    if not chinese:
        return "en"
    english = sum(1 for w in _EN_WORD.findall(text) if not w.isupper())
    if english >= 2 and 2 * english > chinese and not _ZH_GRAMMAR.search(text):
        return "en"
    return "zh"


def language_is_clear(text: str) -> bool:
    """Whether a question shows its language: a Chinese character, or at least two English words
    that are not acronyms ("GMV?", "top 3 GMV" and "2026-06 GMV" do not say)."""
    if detect_language(text) == "zh":
        return True
    return sum(1 for w in _EN_WORD.findall(text) if not w.isupper()) >= 2


def check_question(question: str) -> str:
    """Return the cleaned question or raise a typed error."""
    language = detect_language(question)
    if "\x00" in question or any(unicodedata.category(ch) == "Cc" and ch not in "\t\n\r" for ch in question):
        raise QuestionRefused(*both("nlu.control_characters"), detail={"reason": "control_characters"})
    cleaned = " ".join(question.split())
    if not cleaned:
        raise QuestionRefused(*both("nlu.empty"), detail={"reason": "empty"})
    if len(cleaned) > MAX_QUESTION_CHARS:
        raise QuestionRefused(
            *both("nlu.too_long", length=len(cleaned), limit=MAX_QUESTION_CHARS),
            detail={"reason": "too_long", "length": len(cleaned)},
        )
    match = _WRITE_OR_OVERRIDE.search(cleaned)
    if match:
        raise OutOfScope(
            *both("nlu.out_of_scope", matched=match.group(0)),
            detail={"matched": match.group(0), "language": language},
        )
    return cleaned
