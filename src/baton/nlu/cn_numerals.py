"""Integers written in Chinese numerals (and ASCII digits), for time expressions and bounds.

Questions say "近七天", "最近十四天", "两个月", "二〇二六年"; the time parser needs these as ints:
0..9999 with 十/百/千, and digit-by-digit years (二〇二六). Bounds say larger numbers in sections
of 亿 and 万 ("一亿五千万", "1亿5千万", "五万四千", spoken "1万5"): ``parse_large`` reads those.
The digit and unit tables are shared with the output gate, which reads larger numerals (万/亿).
No library reads mixed digit-and-numeral sections ("1亿5千万") exactly as Decimal, hence our own.
"""

from __future__ import annotations

from decimal import Decimal

from baton import patterns

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


def parse_cn_int(text: str) -> int:
    """Parse "14", "十四", "三十", "两", "一百零五" or "二〇二六" into an int.

    Raises ValueError on anything else (the caller's regex decides what reaches here).
    """
    token = text.strip()
    if not token:
        raise ValueError("empty numeral")
    if _ASCII_DIGITS.fullmatch(token):
        return int(token)
    if len(token) > 1 and all(ch in _DIGITS for ch in token):
        # Digit by digit, as in years: 二〇二六 -> 2026.
        return int("".join(str(_DIGITS[ch]) for ch in token))
    total = 0
    current = 0
    for ch in token:
        if ch in _DIGITS:
            current = _DIGITS[ch]
        elif ch in _UNITS:
            total += (current or 1) * _UNITS[ch]
            current = 0
        else:
            raise ValueError(f"not a Chinese numeral: {text!r}")
    return total + current


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
