"""A member named by a word that also begins another member's name ("Airbus": AIRBUS, and AIRBUS
INDUSTRIE — one maker spelt twice in the data) is asked back, never read as the exact one alone;
named in full, or both named, it is read as said."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.catalog.members import with_members
from baton.errors import AmbiguousQuestion
from baton.nlu.lexicon import reserved_words
from baton.nlu.parser import Planner

DEMO = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
# two spellings of one shop read from the data, as an indexed dimension holds them
PLANNER = Planner(with_members(DEMO, {"channel": ["TMALL", "TMALL GLOBAL"]}, reserved=reserved_words()))
JULY = date(2026, 7, 1)


@pytest.mark.parametrize(
    "question", ["GMV on TMALL last month", "TMALL orders last month", "TMALL vs web GMV last month"]
)
def test_a_name_that_begins_another_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as asked:
        PLANNER.plan(question, as_of=JULY)
    assert "TMALL GLOBAL" in asked.value.message_en and "TMALL GLOBAL" in asked.value.message_zh


@pytest.mark.parametrize(
    ("question", "members"),
    [
        ("TMALL GLOBAL GMV last month", ("TMALL GLOBAL",)),
        ("GMV on TMALL and TMALL GLOBAL last month", ("TMALL", "TMALL GLOBAL")),
        ("GMV in the north last month", ("华北",)),  # a synonym the catalog gave: its member, as written
    ],
)
def test_a_full_name_both_names_or_a_synonym_are_read_as_said(question: str, members: tuple[str, ...]) -> None:
    query = PLANNER.plan(question, as_of=JULY)
    assert sorted(m for f in query.filters for m in f.members) == sorted(members)
