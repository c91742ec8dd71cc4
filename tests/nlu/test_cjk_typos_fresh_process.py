"""A one-character difference that makes a word of its own is another metric, never a typo —
in a fresh process too, where nothing else has loaded the segmenter's dictionary yet (it once
answered 付款率 with the refund rate there, and refused it after a catalog search)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import UnknownMetric
from baton.nlu.parser import Planner

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import json, sys
from datetime import date
from pathlib import Path
from baton.catalog.loader import load_catalog
from baton.errors import BatonError
from baton.nlu.parser import Planner
planner = Planner(load_catalog(Path(sys.argv[1])))
out = {}
for question in sys.argv[2:]:
    try:
        query = planner.plan(question, as_of=date(2026, 7, 1))
        out[question] = [list(query.metrics), [c.read_as for c in query.corrections]]
    except BatonError as exc:
        out[question] = exc.error_code
print(json.dumps(out, ensure_ascii=False))
"""

OTHER_METRICS = [
    "上个月的付款率",
    "上个月的卖家数",
    "上个月的注销数",
    "上个月的换货率",
    "上个月的转发率",
    "上个月的访问数",
]
TYPOS = {"上个月的取销率": "cancel_rate", "上个月的退宽率": "refund_rate"}


def test_a_word_of_its_own_is_not_corrected_in_a_fresh_process() -> None:
    catalog = ROOT / "src/baton/demo/data/catalog.yaml"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(catalog), *OTHER_METRICS, *TYPOS],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    read = json.loads(done.stdout.strip().splitlines()[-1])
    assert {q: read[q] for q in OTHER_METRICS} == dict.fromkeys(OTHER_METRICS, "unknown_metric")
    assert {q: read[q][0] for q in TYPOS} == {q: [m] for q, m in TYPOS.items()}
    assert "Building prefix dict" not in done.stderr  # the dictionary loads quietly


def test_a_character_that_makes_a_word_of_another_catalog_name_is_no_typo() -> None:
    """营收额: 营收 is a word of 净营收 (net revenue); one character from 营业额 (GMV) it is not a
    misspelt GMV — the catalog has no 营收额, and says so."""
    planner = Planner(load_catalog(ROOT / "src/baton/demo/data/catalog.yaml"))
    with pytest.raises(UnknownMetric):
        planner.plan("上个月的营收额", as_of=date(2026, 7, 1))
