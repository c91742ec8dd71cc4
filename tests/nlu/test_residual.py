"""What is left of a question after every reader: plain questions never load the segmenter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
from datetime import date
from pathlib import Path
from baton.catalog.loader import load_catalog
from baton.nlu.parser import Planner
planner = Planner(load_catalog(Path(sys.argv[1])))
read = [list(planner.plan(q, as_of=date(2026, 7, 1)).dimensions) for q in sys.argv[2:]]
print(json.dumps({"read": read, "jieba": "jieba" in sys.modules}))
"""


def test_a_lone_filler_character_never_loads_the_segmenter() -> None:
    """ "各" left alone between two claimed terms is a filler: no dictionary load (about 1.4 s)
    for "上个月各渠道的GMV" in a fresh process."""
    catalog = ROOT / "src/baton/demo/data/catalog.yaml"
    questions = ["上个月各渠道的GMV", "各区域上个月订单量", "上个月每个渠道的GMV是多少"]
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(catalog), *questions], capture_output=True, text=True, check=True
    )
    out = json.loads(done.stdout)
    assert out["read"] == [["channel"], ["region"], ["channel"]]
    assert out["jieba"] is False


def test_an_english_filler_written_against_chinese_is_a_word_to_place() -> None:
    """ "2020年3月us的订单量": "us" is a member the catalog may not know (a country code), never the
    English pronoun dropped as filler — dropped, the answer would be every country's."""
    from baton.nlu.residual import unknown_words

    assert unknown_words("       us的   ") == ["us"]
    assert unknown_words("how many did us customers place") == ["customers place"]  # in English, a filler
    assert unknown_words("   the app   ") == ["app"]


def test_a_chat_word_written_against_chinese_is_still_a_filler() -> None:
    from baton.nlu.residual import unknown_words

    assert unknown_words("         多少ok") == []


def test_a_pronoun_written_in_capitals_is_a_code_to_place() -> None:
    """p60: "bookings in the US in 2020", where the catalog lists no country values, dropped "US" as
    the pronoun and answered every country's bookings; in capitals it is a word to account for."""
    from baton.nlu.residual import unknown_words

    assert unknown_words("bookings in the US") == ["bookings us"]
    assert unknown_words("show us bookings") == ["bookings"]
    assert unknown_words("ME listings") == ["me listings"]


def test_a_pronoun_in_a_question_in_capitals_or_after_a_verb_is_still_the_pronoun() -> None:
    """Review s17: "SHOW ME GMV LAST MONTH" and "Show ME the GMV" were asked back for "me"."""
    from baton.nlu.residual import unknown_words

    assert unknown_words("SHOW ME          ") == []
    assert unknown_words("Show ME the          ") == []
    assert unknown_words("GIVE US    ") == []
