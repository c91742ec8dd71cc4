"""Every number Baton shows, formatted in one place.

* :func:`format_exact` — a result cell as the answer sentence states it: thousands grouped,
  two decimals for money with the metric's currency sign, a percentage for ratios.
* :func:`format_number` — scaled for charts and key figures: 万/亿 in Chinese, K/M/B in
  English; :func:`axis_label_expr` is the same rule as a Vega expression for axis ticks.
* :func:`format_change` / :func:`format_signed_percent` — relative changes.
* :func:`format_probability` — a p or q value, as a bound below 10⁻⁶ rather than 0.
* :func:`display` — a structured :class:`~baton.contracts.values.KeyNumber` with its unit.

Rounding is stated, not implied: half away from zero (``ROUND_HALF_UP`` on the exact decimal
value). The output gate reads numbers back with the scales and currency signs defined here
(:data:`SCALE_SUFFIXES`, :data:`CURRENCY_SIGNS`), so what this module writes it can verify.
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import TYPE_CHECKING, Any, Literal

from baton.contracts.common import Language, Unit
from baton.errors import InvalidInput
from baton.messages import both, pick, text

if TYPE_CHECKING:
    from baton.contracts.values import KeyNumber

MISSING = "—"

CURRENCY_SIGNS: dict[str, str] = {"CNY": "¥", "JPY": "¥", "USD": "$", "EUR": "€", "GBP": "£"}
"""ISO 4217 code -> the sign written before an amount (other currencies are written with their code)."""

_CURRENCY_WORDS: dict[str, tuple[str, str]] = {
    "CNY": ("元", "CNY"),
    "USD": ("美元", "USD"),
    "EUR": ("欧元", "EUR"),
    "GBP": ("英镑", "GBP"),
    "JPY": ("日元", "JPY"),
}
"""ISO 4217 code -> (Chinese, English) unit word after an amount in prose. Formatting data keyed by
currency code, like :data:`CURRENCY_SIGNS` and the 万/亿 scales (an unknown code is written as
itself), so it stays here rather than in :mod:`baton.messages`."""


def currency_sign(currency: str | None) -> str:
    """The sign written before an amount: ``¥``, ``$``; an unknown code is written as ``"CHF "``."""
    if currency is None:
        return ""
    return CURRENCY_SIGNS.get(currency, currency + " ")


def currency_word(currency: str | None, language: Language) -> str:
    """The unit word after an amount in prose: 元 / 美元, or the ISO code."""
    if currency is None:
        return text("numbers.no_currency", language)
    zh, en = _CURRENCY_WORDS.get(currency, (currency, currency))
    return pick(language, zh, en)


# (threshold, divisor, suffix), largest first.
_ZH_SCALES: tuple[tuple[Decimal, Decimal, str], ...] = (
    (Decimal("1e8"), Decimal("1e8"), "亿"),
    (Decimal("1e4"), Decimal("1e4"), "万"),
)
_EN_SCALES: tuple[tuple[Decimal, Decimal, str], ...] = (
    (Decimal("1e12"), Decimal("1e12"), "T"),
    (Decimal("1e9"), Decimal("1e9"), "B"),
    (Decimal("1e6"), Decimal("1e6"), "M"),
    (Decimal("1e3"), Decimal("1e3"), "K"),
)
_TWO = Decimal("0.01")
_ONE = Decimal("0.1")


SCALE_SUFFIXES: dict[str, Decimal] = {suffix: divisor for _, divisor, suffix in (*_ZH_SCALES, *_EN_SCALES)}
"""Every scale suffix this module writes -> its multiplier (the output gate reads them back)."""


def scales_for(language: Language) -> tuple[tuple[Decimal, Decimal, str], ...]:
    return _ZH_SCALES if language == "zh" else _EN_SCALES


def decimal_of(value: object) -> Decimal | None:
    """Exact decimal of a cell (``1,234.5`` read as text too); ``None`` for a missing,
    non-finite or non-numeric value."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        return value if value.is_finite() else None
    if isinstance(value, int):
        return Decimal(value)
    if isinstance(value, float):
        return Decimal(repr(value)) if math.isfinite(value) else None
    if isinstance(value, str):
        try:
            parsed = Decimal(value.strip().replace(",", ""))
        except InvalidOperation:
            return None
        return parsed if parsed.is_finite() else None
    return None


def _to_decimal(value: object) -> Decimal | None:
    """:func:`decimal_of` for a value that is to be shown: text that is not a number, or a
    value of another type, is an error rather than a blank."""
    if isinstance(value, str) and decimal_of(value) is None:
        try:
            Decimal(value.strip().replace(",", ""))
        except InvalidOperation as exc:
            raise InvalidInput(*both("numbers.not_a_number", value=value)) from exc
    elif not isinstance(value, str | int | float | Decimal | type(None)):
        raise InvalidInput(*both("numbers.cannot_format", kind=type(value).__name__))
    return decimal_of(value)


def _group(d: Decimal, places: Decimal | None) -> str:
    """Thousands-grouped text of a non-negative decimal, rounded half up to ``places``."""
    if places is None:
        rounded = d.quantize(Decimal(1), rounding=ROUND_HALF_UP)
        return f"{rounded:,.0f}"
    rounded = d.quantize(places, rounding=ROUND_HALF_UP)
    digits = -places.as_tuple().exponent  # type: ignore[operator]
    return f"{rounded:,.{digits}f}"


def _scaled(magnitude: Decimal, language: Language) -> str:
    """``1284317`` → ``128.43万`` / ``1.28M``; below the smallest scale, grouped digits."""
    scales = scales_for(language)
    for i, (threshold, divisor, suffix) in enumerate(scales):
        if magnitude >= threshold:
            shown = (magnitude / divisor).quantize(_TWO, rounding=ROUND_HALF_UP)
            # 99_999_999 rounds to 10000.00万: promote to the next larger unit (1.00亿).
            if i > 0 and shown * divisor >= scales[i - 1][0]:
                _, bigger, bigger_suffix = scales[i - 1]
                shown = (magnitude / bigger).quantize(_TWO, rounding=ROUND_HALF_UP)
                return f"{shown:,.2f}{bigger_suffix}"
            return f"{shown:,.2f}{suffix}"
    if magnitude == magnitude.to_integral_value():
        return _group(magnitude, None)
    return _group(magnitude, _TWO)


def format_number(value: object, unit: Unit = "number", language: Language = "zh", currency: str | None = None) -> str:
    """A number as a reader of ``language`` expects it (scaled).

    >>> format_number(1284317, "count", "zh"), format_number(3.2e8, "currency", "zh")
    ('128.43万', '¥3.20亿')
    >>> format_number(1284317, "count", "en"), format_number(0.1234, "ratio", "en")
    ('1.28M', '12.3%')
    """
    d = _to_decimal(value)
    if d is None:
        return MISSING
    sign = "-" if d < 0 else ""
    magnitude = abs(d)
    if unit == "ratio":
        percent = (magnitude * 100).quantize(_ONE, rounding=ROUND_HALF_UP)
        if percent == 0:
            sign = ""
        return f"{sign}{percent:,.1f}%"
    shown = _scaled(magnitude, language)
    if shown.strip("0.,") == "":
        sign = ""
    prefix = currency_sign(currency) if unit == "currency" else ""
    return f"{sign}{prefix}{shown}"


def format_change(current: object, previous: object, language: Language) -> str:
    """Relative change ``+12.3%`` (or an absolute note when the base is zero or missing)."""
    cur, prev = _to_decimal(current), _to_decimal(previous)
    if cur is None or prev is None:
        return MISSING
    if prev == 0:
        return text("numbers.base_zero", language)
    change = (cur - prev) / abs(prev)
    shown = format_number(change, "ratio", language)
    return shown if shown.startswith("-") else f"+{shown}"


def axis_label_expr(unit: Unit, language: Language, currency: str | None = None) -> str:
    """A Vega expression for axis labels that follows :func:`format_number`'s scales.

    Axis ticks are round numbers, so trailing zeros are trimmed (``500万`` rather than
    ``500.00万``); the unit suffix and currency sign match the Python formatter.
    """
    if unit == "ratio":
        return "format(datum.value, '.0~%')"
    prefix = f"'{currency_sign(currency)}'" if unit == "currency" else "''"
    v = "abs(datum.value)"
    sign = "(datum.value < 0 ? '-' : '')"
    expr = f"format({v}, ',.2~f')"
    for threshold, divisor, suffix in reversed(scales_for(language)):
        expr = f"({v} >= {threshold:.0f} ? format({v} / {divisor:.0f}, ',.2~f') + '{suffix}' : {expr})"
    return f"{sign} + {prefix} + {expr}"


def format_exact(value: object, unit: Unit, language: Language, currency: str | None = None) -> str:
    """A result cell as an answer sentence states it, unscaled: ``¥25,413,813.40``,
    ``1,234``, ``12.34%`` (a ratio × 100, two decimals); a negative amount as ``-¥1.00``."""
    if value is None:
        return text("numbers.missing", language)
    if isinstance(value, str):
        return value
    number = float(value)  # type: ignore[arg-type]
    if unit == "ratio":
        return f"{number * 100:.2f}%"
    if unit == "currency":
        sign = "-" if number < 0 else ""
        return f"{sign}{currency_sign(currency)}{abs(number):,.2f}"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:,.2f}"
    return f"{int(number):,}" if isinstance(value, int | float) else str(value)


def format_signed_percent(value: object, language: Language, places: int = 2) -> str:
    """A relative change given as a ratio: ``+12.34%`` / ``-3.10%`` (``places`` decimals)."""
    if value is None:
        return text("numbers.missing", language)
    return f"{float(value) * 100:+.{places}f}%"  # type: ignore[arg-type]


def plural_noun(word: str) -> str:
    """An English noun's plural, for a dimension label after a count ("Top 3 regions", "categories")."""
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    if word.endswith(("s", "x", "ch", "sh")):
        return word + "es"
    return word + "s"


def possessive(name: str, language: str = "en") -> str:
    """A name as its owner in a sentence: in English "app's", "new users'" (never "users's"); in
    Chinese the name itself ("新用户占比")."""
    if language != "en":
        return name
    return f"{name}'" if name.endswith("s") else f"{name}'s"


PROBABILITY_FLOOR = Decimal("0.000001")
"""Below this a p or q value is written as a bound: a test never shows ``0``."""


def format_probability(value: object) -> str:
    """A p or q value for a reader: ``0.0240``, ``0.000023``, or ``< 0.000001`` (never 0)."""
    d = _to_decimal(value)
    if d is None:
        return MISSING
    if d < PROBABILITY_FLOOR:
        return f"< {PROBABILITY_FLOOR:f}"
    places = Decimal("0.0001") if d >= Decimal("0.0001") else PROBABILITY_FLOOR
    return f"{d.quantize(places, rounding=ROUND_HALF_UP):f}"


def display(number: KeyNumber) -> str:
    """A structured number at its exact precision with a reader's unit: 12.30% / 1,234.50 元 / 0.0003
    (amounts grouped by thousands; nothing is rounded away). A change in per cent carries its
    sign (+19.52%); a plain count in English carries no unit word ("8,623", not "8,623 count")."""
    if number.unit == "%":
        sign = "+" if number.key.endswith("change_pct") else ""
        return f"{number.value:{sign}.{number.precision}f}%"
    if number.unit in ("p", "q", "d", "h"):
        return f"{number.value:.{number.precision}f}"
    if number.unit in _BARE_UNITS:
        return f"{number.value:,.{number.precision}f}"
    return f"{number.value:,.{number.precision}f} {number.unit}"


_BARE_UNITS = frozenset({"count", "units"})
"""English unit words of counts and plain numbers, which a reader does not need spelled out."""


def bucket_label(value: object, grain: str | None, language: Language) -> str:
    """A time bucket as a reader names it: a month ``2026-01`` (not its first day ``2026-01-01``),
    a quarter ``2026 Q1`` / ``2026年第1季度``, a year ``year 2026`` / ``2026年``; a day or a week
    (its Monday) keeps its date. Written so the output gate reads none of them as a quantity."""
    shown = "" if value is None else str(value)[:10]
    if grain not in ("month", "quarter", "year") or len(shown) != 10 or shown[4] != "-":
        return shown
    year, month = shown[:4], int(shown[5:7])
    if grain == "month":
        return shown[:7]
    if grain == "quarter":
        quarter = (month - 1) // 3 + 1
        return text("numbers.bucket_quarter", language, year=year, quarter=quarter)
    return text("numbers.bucket_year", language, year=year)


def place_word(n: int, language: Language) -> str:
    """A place in a ranking as a sentence says it: "2nd", "11th", "21st"; in Chinese the number
    alone ("第2")."""
    if language == "zh":
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def percent_change(current: float, base: float) -> float | None:
    """The change from ``base`` to ``current`` in percent — of a base above zero only: from -5.44 to
    -3.14 is up, and "-42%" (its sign turned by a negative base) would say down; from 0 there is none."""
    return (current / base - 1.0) * 100.0 if base > 0 else None


def direction_of(change: Any) -> Literal["up", "down", "flat"]:
    """Which way a change went; no change (or none computed) is flat."""
    if change is None or float(change) == 0:
        return "flat"
    return "up" if float(change) > 0 else "down"
