"""English word forms the answer sentences are built with."""

from __future__ import annotations

import pytest

from baton.numbers import plural_noun, possessive


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
