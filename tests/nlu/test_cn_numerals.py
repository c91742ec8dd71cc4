"""Chinese numerals in sections of 亿 and 万, as bounds say them: exact Decimals, spoken forms too."""

from __future__ import annotations

from decimal import Decimal

import pytest

from baton.nlu.cn_numerals import approximate, parse_large

LARGE = [
    ("一亿五千万", 150_000_000),
    ("1亿5千万", 150_000_000),
    ("五万四千", 54_000),
    ("1万5", 15_000),  # spoken: the bare digit is the next place down
    ("1亿5", 150_000_000),
    ("三千万", 30_000_000),
    ("2亿零5万", 200_050_000),
    ("1万零5", 10_005),  # a place skipped: never the next place down
    ("十万零五", 100_005),
    ("1亿2000万", 120_000_000),
    ("1.5万", 15_000),
    ("十万", 100_000),
    ("五百", 500),
    ("12", 12),
    ("4千5百万", 45_000_000),  # digits beside the units
    ("四千五", 4_500),  # spoken: the bare digit after 千 is the next place down
    ("四千零五", 4_005),
    ("三百五", 350),
    ("4千5", 4_500),
]


@pytest.mark.parametrize(("said", "value"), LARGE, ids=[s for s, _ in LARGE])
def test_a_large_numeral_is_read_exactly(said: str, value: int) -> None:
    assert parse_large(said) == Decimal(value)


@pytest.mark.parametrize("said", ["", "万", "亿万", "五x"])
def test_what_is_no_numeral_is_refused(said: str) -> None:
    with pytest.raises(ValueError):
        parse_large(said)


@pytest.mark.parametrize(
    ("said", "rough"),
    [
        ("两三", True),
        ("一两", True),
        ("一二", True),
        ("三四", True),
        ("九十", False),
        ("二〇", False),
        ("十二", False),
        ("三五", True),
        ("十七八", True),
        ("一千二三百", True),
        ("二三十", True),
        ("两三千", True),
        ("一九九八", False),
        ("二十三", False),
        ("两", False),
        ("二〇二六", False),
    ],
)
def test_two_counts_side_by_side_are_a_rough_number(said: str, rough: bool) -> None:
    """ "近两三个月" is two or three months: never 23, as a digit-by-digit reading makes it."""
    assert approximate(said) is rough
