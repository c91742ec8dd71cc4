"""Values the catalog holds in several places: a member of two dimensions, a word that begins a
member's name. Each is read as one thing or asked back, never read as two or as a plain word."""

from __future__ import annotations

from datetime import date

import pytest

from baton.catalog.model import Catalog
from baton.errors import AmbiguousQuestion
from baton.nlu.parser import Planner

AS_OF = date(2014, 1, 1)


def _label(text: str) -> dict[str, str]:
    return {"zh": text, "en": text}


def _members(*names: str) -> dict[str, dict[str, object]]:
    return {n: {"label": _label(n)} for n in names}


CATALOG = Catalog.model_validate(
    {
        "name": "flights",
        "tables": {"flights": {"label": _label("flights"), "time_column": "flight_date"}},
        "dimensions": {
            "origin": {
                "label": {"zh": "出发机场", "en": "origin"},
                "synonyms": ["出发", "departing from"],
                "columns": {"flights": "origin"},
                "members": _members("JFK", "LGA"),
            },
            "dest": {
                "label": {"zh": "目的地", "en": "destination"},
                "synonyms": ["飞往", "flying to"],
                "columns": {"flights": "dest"},
                "members": _members("ORD", "LGA"),
            },
            "airline": {
                "label": {"zh": "航空公司", "en": "airline"},
                "columns": {"flights": "carrier_name"},
                "members": _members("Delta Air Lines Inc.", "United Air Lines Inc."),
            },
        },
        "metrics": {
            "flights": {
                "label": {"zh": "航班数", "en": "flights"},
                "description": _label("flights"),
                "table": "flights",
                "expression": "COUNT(*)",
                "dimensions": ["origin", "dest", "airline"],
                "unit": "count",
                "owner": "ops",
            }
        },
    }
)
PLANNER = Planner(CATALOG)


@pytest.mark.parametrize(
    ("question", "dimension", "member"),
    [
        ("2013年下半年从LGA出发的航班有多少？", "origin", "LGA"),
        ("2013年12月飞往LGA的航班数", "dest", "LGA"),
        ("flights departing from LGA in December 2013", "origin", "LGA"),
        ("flights in December 2013 from JFK", "origin", "JFK"),
        ("flights of Delta Air Lines Inc. in December 2013", "airline", "Delta Air Lines Inc."),
    ],
)
def test_a_value_is_read_as_one_dimension(question: str, dimension: str, member: str) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert [(f.dimension, f.members) for f in query.filters] == [(dimension, (member,))]


@pytest.mark.parametrize(
    ("question", "said"),
    [
        ("2013年下半年LGA的航班有多少？", "LGA"),
        ("flights at LGA in December 2013", "LGA"),
    ],
)
def test_a_value_that_could_mean_several_things_is_asked_back(question: str, said: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert said in caught.value.message_en and said in caught.value.message_zh


@pytest.mark.parametrize(
    ("question", "said", "member"),
    [
        ("flights of United in December 2013", "United", "United Air Lines Inc."),
        ("United flights in December 2013", "United", "United Air Lines Inc."),
    ],
)
def test_a_name_said_in_part_is_the_one_member_it_begins_and_the_answer_says_so(
    question: str, said: str, member: str
) -> None:
    query = PLANNER.plan(question, as_of=AS_OF)
    assert [(f.dimension, f.members) for f in query.filters] == [("airline", (member,))]
    assert [(c.written, c.read_as) for c in query.corrections] == [(said, member)]


def test_a_name_begun_by_several_members_is_asked_back() -> None:
    raw = CATALOG.model_dump(mode="json", exclude_defaults=True)
    raw["dimensions"]["airline"]["members"]["United Express"] = {"label": _label("United Express")}
    catalog = Catalog.model_validate(raw)
    with pytest.raises(AmbiguousQuestion) as caught:
        Planner(catalog).plan("United flights in December 2013", as_of=AS_OF)
    assert "United Air Lines Inc." in caught.value.message_en and "United Express" in caught.value.message_en


@pytest.mark.parametrize(
    "question",
    [
        "Delta of flights, June 2013 vs May 2013",
        "What was the Delta in flights in December 2013?",
        "Delta flights in December 2013",  # the airline, or the change? asked, never guessed
        "What's the Delta vs November for flights in December 2013",  # review s16: read as the airline
        "flights December 2013 vs November 2013, what's the Delta?",
        "Show the Delta on flights, December 2013 vs November 2013",
    ],
)
def test_a_name_that_is_also_an_operator_word_is_asked_back(question: str) -> None:
    with pytest.raises(AmbiguousQuestion) as caught:
        PLANNER.plan(question, as_of=AS_OF)
    assert "Delta Air Lines Inc." in caught.value.message_en


@pytest.mark.parametrize(
    "question", ["How many flights did Delta have in December 2013", "December 2013 flights, Delta only"]
)
def test_a_name_that_is_also_an_operator_word_said_inside_the_question_is_the_name(question: str) -> None:
    """p59: "Delta" mid-sentence, followed by no "of"/"in", is the airline (said as read)."""
    query = PLANNER.plan(question, as_of=AS_OF)
    assert [(f.dimension, f.members) for f in query.filters] == [("airline", ("Delta Air Lines Inc.",))]
    assert [(c.written, c.read_as, c.kind) for c in query.corrections] == [("Delta", "Delta Air Lines Inc.", "partial")]


def test_the_word_delta_in_lower_case_is_still_a_change() -> None:
    query = PLANNER.plan("what was the delta in flights in December 2013", as_of=AS_OF)
    assert query.comparison is not None and not query.filters
