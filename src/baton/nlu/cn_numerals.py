"""Integers written in Chinese numerals (and ASCII digits), for time expressions and bounds.

Questions say "近七天", "最近十四天", "两个月", "二〇二六年"; the time parser needs these as ints:
0..9999 with 十/百/千, and digit-by-digit years (二〇二六). Bounds say larger numbers in sections
of 亿 and 万 ("一亿五千万", "1亿5千万", "五万四千", spoken "1万5"): ``parse_large`` reads those.
The digit and unit tables are shared with the output gate, which reads larger numerals (万/亿).
No library reads mixed digit-and-numeral sections ("1亿5千万") exactly as Decimal, hence our own.
"""

from __future__ import annotations

import itertools
from decimal import Decimal

from baton import patterns
from baton.errors import AmbiguousQuestion
from baton.messages import both

DIGITS: dict[str, int] = {
    "零": 0,
    "〇": 0,
    "一": 1,
    "二": 2,
    "两": 2,
    "俩": 2,  # spoken: "最近俩月"
    "三": 3,
    "仨": 3,  # spoken: "最近仨月"
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
SMALL_UNITS: dict[str, int] = {"十": 10, "百": 100, "千": 1000}
_DIGITS = DIGITS
_UNITS = SMALL_UNITS
_ASCII_DIGITS = patterns.compile(r"[0-9]+")


def approximate(text: str) -> bool:
    """ "两三", "三五", "二三十", "两三千", "十七八", "一千二三百": two digits said side by side, alone or
    beside a unit — a rough number ("近两三个月": two or three months; "近十七八天": seventeen or
    eighteen days), never 23, 35 or 18 as a reading digit by digit or place by place makes it. A
    year's digits ("二〇二六", "一九九八") have no unit."""
    token = text.strip()
    pair = any(
        a in _DIGITS and b in _DIGITS and "零" not in a + b and "〇" not in a + b for a, b in itertools.pairwise(token)
    )
    return pair and (len(token) == 2 or any(ch in "十百千万亿" for ch in token))


def rough_number_asked(said: str) -> AmbiguousQuestion:
    """The question back for a rough number ("近两三个月", "超过两三千万"): which one?"""
    return AmbiguousQuestion(
        *both("nlu.approximate_count", said=said), detail={"reason": "approximate_count", "said": said}
    )


def parse_cn_int(text: str) -> int:
    """Parse "14", "十四", "三十", "两", "一百零五", "二〇二六", "四千五" (spoken: 4,500) or "4千5百"
    (digits beside the units) into an int.

    A bare digit right after 百 or 千 is the next place down, as spoken ("三百五" is 350; "三百零五"
    is 305). Raises ValueError on anything else (the caller's regex decides what reaches here).
    """
    token = _MIXED_DIGIT.sub(lambda m: _CN_DIGIT[int(m.group(0))], text.strip())
    if not token:
        raise ValueError("empty numeral")
    if _ASCII_DIGITS.fullmatch(token):
        return int(token)
    if len(token) > 1 and all(ch in _DIGITS for ch in token):
        # Digit by digit, as in years: 二〇二六 -> 2026.
        return int("".join(str(_DIGITS[ch]) for ch in token))
    total = 0
    current = 0
    unit_before = 0  # the unit just before the current digit, when nothing (no 零) stands between
    for ch in token:
        if ch in _DIGITS:
            current = _DIGITS[ch]
            unit_before = unit_before if current else 0
        elif ch in _UNITS:
            total += (current or 1) * _UNITS[ch]
            current, unit_before = 0, _UNITS[ch]
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    if current and unit_before >= 100:  # "四千五": 4,500
        return total + current * unit_before // 10
    return total + current


_MIXED_DIGIT = patterns.compile(r"(?<=[十百千])[0-9](?![0-9])|[0-9](?=[十百千])")
"""One ASCII digit beside a unit ("4千5百"): read as the Chinese digit it stands for."""
_CN_DIGIT = "零一二三四五六七八九"


_LARGE_UNITS = (("亿", Decimal(100_000_000)), ("万", Decimal(10_000)))
_SECTION = patterns.compile(r"(\d+(?:\.\d+)?)([十百千])?")


def parse_large(text: str) -> Decimal:
    """Parse "一亿五千万", "1亿5千万", "五万四千", "1万5" (spoken: 15,000) into a Decimal.

    A bare digit after a unit is the next place down ("1万5" is 1万5千, "1亿5" 1亿5千万), as
    spoken; raises ValueError on anything else.
    """
    token = text.strip()
    for unit, value in _LARGE_UNITS:
        if unit in token:
            head, tail = token.split(unit, 1)
            if tail[:1] in ("零", "〇"):  # "1万零5": 10,005, a place skipped, never the next place down
                return _section(head) * value + parse_large(tail.lstrip("零〇"))
            return _section(head) * value + _rest(tail, value)
    return _section(token)


def _rest(tail: str, value: Decimal) -> Decimal:
    """What follows a 亿 or 万: nothing, one bare digit (the next place down) or a smaller number."""
    if not tail:
        return Decimal(0)
    if len(tail) == 1 and ((tail.isascii() and tail.isdigit()) or tail in _DIGITS):
        return Decimal(parse_cn_int(tail)) * value / 10
    return parse_large(tail)


def _section(text: str) -> Decimal:
    """A number below 万: digits with one unit ("5千", "1.5千") or a Chinese numeral ("四千五百")."""
    if not text:
        raise ValueError("empty numeral")
    digits = _SECTION.fullmatch(text)
    if digits is not None:
        return Decimal(digits.group(1)) * _UNITS.get(digits.group(2) or "", 1)
    return Decimal(parse_cn_int(text))
