"""Fuzz: an unknown content word inserted anywhere into an answered question is never ignored.

The planner must ask back (or refuse) or read a different query; it may never return the
query it read without the word, because that would answer a question nobody asked.
"""

from __future__ import annotations

import json
import random
from datetime import date
from importlib import resources
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import BatonError
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
WORDS = {
    "en": ["penguin", "profit", "warehouse", "weather", "zorblat", "inventory", "refurbished", "loyalty"],
    "zh": ["企鹅", "利润", "天气", "库存", "咕噜", "积分", "翻新", "会员等级"],
}
SEED = 20261130


def _cases() -> list[tuple[str, str, str, str]]:
    lines = resources.files("baton.demo").joinpath("data/eval/dev.jsonl").read_text(encoding="utf-8").splitlines()
    cases = [json.loads(line) for line in lines if line.strip()]
    return [(c["id"], c["question"], c["lang"], c["as_of"]) for c in cases if c["expect_status"] == "answered"]


def _insertions(question: str, lang: str, rng: random.Random) -> list[str]:
    """The question with an unknown word at its start, its end and three places inside."""
    if lang == "en":
        tokens = question.split(" ")
        places = sorted({0, len(tokens), *(rng.randrange(1, len(tokens)) for _ in range(3) if len(tokens) > 1)})
        word = rng.choice(WORDS["en"])
        return [" ".join([*tokens[:i], word, *tokens[i:]]) for i in places]
    places = sorted({0, len(question), *(rng.randrange(1, len(question)) for _ in range(3))})
    word = rng.choice(WORDS["zh"])
    return [question[:i] + word + question[i:] for i in places]


CASES = _cases()


@pytest.mark.parametrize(("case_id", "question", "lang", "as_of_text"), CASES, ids=[c[0] for c in CASES])
def test_an_unknown_word_is_never_dropped(case_id: str, question: str, lang: str, as_of_text: str) -> None:
    as_of = date.fromisoformat(as_of_text)
    original = PLANNER.plan(question, as_of=as_of)
    rng = random.Random(f"{SEED}:{case_id}")
    for changed in _insertions(question, lang, rng):
        try:
            read = PLANNER.plan(changed, as_of=as_of)
        except BatonError:
            continue  # asked back or refused: the word was noticed
        assert read != original, f"{changed!r} was read exactly as {question!r}"
