"""A typo is corrected only when the word is no word of its own: "dairy" is not a misspelt
"daily", "API" not a misspelt "app", "NMV" not GMV — those are asked about. A misspelling that
is no English word ("chanel", "regoin", "GVM"), or a plural, is corrected and stated."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner
from baton.nlu.typos import correct

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)
VOCABULARY = ["daily", "app", "gmv", "channel", "region", "week", "buyers", "separately"]

CORRECTED = [
    ("GMV by chanel", "GMV by channel"),
    ("GMV by regoin", "GMV by region"),
    ("GVM last month", "gmv last month"),  # an acronym's letters swapped
    ("orders from apps", "orders from app"),  # a plural is the same word
]
KEPT = [
    "dairy sales",  # a word of its own
    "orders via API",  # an acronym with another letter is another name
    "NMV last month",
    "GMW last month",
    "the weak days",
]


@pytest.mark.parametrize(("written", "read"), CORRECTED)
def test_a_misspelling_is_corrected(written: str, read: str) -> None:
    text, corrections = correct(written, VOCABULARY, [])
    assert text == read and len(corrections) == 1


@pytest.mark.parametrize("written", KEPT)
def test_a_word_of_its_own_is_kept(written: str) -> None:
    assert correct(written, VOCABULARY, []) == (written, ())


@pytest.mark.parametrize(
    ("question", "word"),
    [("dairy sales last month", "dairy"), ("orders via API last month", "api"), ("NMV last month", "nmv")],
)
def test_the_kept_word_is_asked_about(question: str, word: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert word in caught.value.detail["unknown"]


@pytest.mark.parametrize(
    ("question", "written", "read"),
    [
        ("GMV of app and web seperately last month", "seperately", "separately"),
        ("GMV last month exluding live stream", "exluding", "excluding"),
    ],
)
def test_an_operator_word_misspelt_is_read_as_it(question: str, written: str, read: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert [(c.written, c.read_as) for c in query.corrections] == [(written, read)]
    assert query.filters and query.filters[0].members in (("app", "web"), ("live_stream",))


def test_a_short_word_is_not_read_as_a_short_operator_word() -> None:
    """ "www" is one letter off "wow": only long operator words are typo targets ("seperately")."""
    query = PLANNER.plan("我在准备周报 www.example.com；上个月各区域GMV", as_of=AS_OF)
    assert query.corrections[0].kind == "context" and all(c.kind != "typo" for c in query.corrections)
