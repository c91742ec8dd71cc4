"""Number formats per language: 万/亿, K/M/B, ¥ and %, with the stated half-up rounding."""

from __future__ import annotations

import math
from decimal import Decimal

import pytest

from baton.charts import format_change, format_number
from baton.contracts.common import Language, Unit
from baton.errors import InvalidInput

FORMAT_CASES: list[tuple[object, Unit, Language, str]] = [
    (1284317, "count", "zh", "128.43万"),
    (3.2e8, "number", "zh", "3.20亿"),
    (3.2e8, "currency", "zh", "¥3.20亿"),
    (1284317, "currency", "zh", "¥128.43万"),
    (9999, "count", "zh", "9,999"),
    (10000, "count", "zh", "1.00万"),
    (99_999_999, "count", "zh", "1.00亿"),  # 10000.00万 is promoted to 亿
    (99_994_999, "count", "zh", "9,999.50万"),
    (12.5, "number", "zh", "12.50"),
    (-1284317, "currency", "zh", "-¥128.43万"),
    (Decimal("12345.675"), "number", "zh", "1.23万"),
    (1284317, "count", "en", "1.28M"),
    (3.2e8, "currency", "en", "¥320.00M"),
    (4.5e9, "number", "en", "4.50B"),
    (999, "count", "en", "999"),
    (1000, "count", "en", "1.00K"),
    (999_995, "count", "en", "1.00M"),  # 1000.00K is promoted to M
    (-2500, "number", "en", "-2.50K"),
    (0.1234, "ratio", "en", "12.3%"),
    (0.1234, "ratio", "zh", "12.3%"),
    (1.5, "ratio", "en", "150.0%"),
    (-0.0004, "ratio", "en", "0.0%"),
    (Decimal("0.00125"), "ratio", "zh", "0.1%"),  # half up, not half even
    (0.125, "number", "en", "0.13"),  # half up on the exact decimal of 0.125
    (None, "count", "zh", "—"),
    (math.nan, "currency", "en", "—"),
    (math.inf, "number", "zh", "—"),
    ("1,284,317", "count", "zh", "128.43万"),
    (0, "currency", "zh", "¥0"),
]
CURRENCY_CASES = [
    (1284317, "zh", "USD", "$128.43万"),
    (3.2e8, "en", "EUR", "€320.00M"),
    (-5.5, "en", "CHF", "-CHF 5.50"),
    (5.5, "en", None, "5.50"),  # a currency metric whose currency is not known shows no sign
]


@pytest.mark.parametrize(("value", "unit", "language", "expected"), FORMAT_CASES)
def test_format_number(value: object, unit: Unit, language: Language, expected: str) -> None:
    assert format_number(value, unit, language, "CNY") == expected


@pytest.mark.parametrize(("value", "language", "currency", "expected"), CURRENCY_CASES)
def test_the_currency_comes_from_the_metric(
    value: float, language: Language, currency: str | None, expected: str
) -> None:
    assert format_number(value, "currency", language, currency) == expected


def test_format_number_rejects_text_that_is_not_a_number() -> None:
    with pytest.raises(InvalidInput):
        format_number("abc", "count", "zh")


@pytest.mark.parametrize(
    ("current", "previous", "language", "expected"),
    [
        (112, 100, "zh", "+12.0%"),
        (90, 100, "en", "-10.0%"),
        (5, 0, "zh", "基期为0"),
        (5, 0, "en", "base 0"),
        (None, 3, "en", "—"),
        (-50, -100, "en", "+50.0%"),
    ],
)
def test_format_change(current: object, previous: object, language: Language, expected: str) -> None:
    assert format_change(current, previous, language) == expected
