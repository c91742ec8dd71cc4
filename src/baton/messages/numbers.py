"""Words of number formatting (``numbers.<key>``).

The 万/亿 and K/M/B/T scale suffixes and the currency words are formatting *data* read back by
the output gate; they stay in :mod:`baton.numbers`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "bucket_quarter": ("{year} Q{quarter}", "{year}年第{quarter}季度"),
    "bucket_year": ("year {year}", "{year}年"),
    "no_currency": ("units", "单位"),
    "base_zero": ("base 0", "基期为0"),
    "missing": ("n/a", "—"),
    "not_a_number": ("not a number: {value!r}", "不是数字：{value!r}"),
    "cannot_format": ("cannot format {kind} as a number", "无法将 {kind} 格式化为数字"),
}
