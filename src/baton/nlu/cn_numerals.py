"""Small integers written in Chinese numerals (and ASCII digits), for time expressions.

Questions say "近七天", "最近十四天", "两个月", "二〇二六年"; the time parser needs these as ints.
Only what time expressions use: 0..9999 with 十/百/千, and digit-by-digit years (二〇二六).
The digit and unit tables are shared with the output gate, which reads larger numerals (万/亿).
"""

from __future__ import annotations

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
