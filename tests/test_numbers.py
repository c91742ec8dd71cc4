"""English word forms the answer sentences are built with."""

from __future__ import annotations

import pytest

from baton.numbers import percent_change, plural_noun, possessive


@pytest.mark.parametrize(
    ("name", "expected"), [("app", "app's"), ("new users", "new users'"), ("East China", "East China's")]
)
def test_a_possessive_never_doubles_the_s(name: str, expected: str) -> None:
    assert possessive(name) == expected


@pytest.mark.parametrize(
    ("word", "expected"), [("region", "regions"), ("category", "categories"), ("day", "days"), ("box", "boxes")]
)
def test_a_plural_follows_the_spelling(word: str, expected: str) -> None:
    assert plural_noun(word) == expected


def test_a_chinese_owner_is_the_name_itself() -> None:
    assert possessive("新用户", "zh") == "新用户"


@pytest.mark.parametrize(
    ("current", "base", "pct"),
    [(120.0, 100.0, 20.0), (80.0, 100.0, -20.0), (-3.14, -5.44, None), (5.0, 0.0, None), (-2.0, 4.0, -150.0)],
)
def test_a_percent_change_is_of_a_base_above_zero_only(current: float, base: float, pct: float | None) -> None:
    got = percent_change(current, base)
    assert got == pytest.approx(pct) if pct is not None else got is None
