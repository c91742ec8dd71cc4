"""The catalog's words found in a question: two synonyms of one term that overlap are one hit."""

from __future__ import annotations

from pathlib import Path

import yaml

from baton.catalog.loader import load_catalog
from baton.nlu.lexicon import Lexicon

SAAS = Path(__file__).resolve().parents[1] / "fixtures" / "saas" / "catalog.yaml"


def test_two_synonyms_of_one_term_that_overlap_are_one_hit(tmp_path: Path) -> None:
    """ "new accounts signed up": "new accounts" and "accounts signed up" both name new accounts —
    one hit over both, never the longer one and a stray "new" asked back."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["metrics"]["new_accounts"]["synonyms"].append("accounts signed up")
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = Lexicon(load_catalog(path))
    hits = lexicon.find("how many new accounts signed up in 2025 by country")
    assert [(h.text, {t.target for t in h.terms}) for h in hits] == [
        ("new accounts signed up", {"new_accounts"}),
        ("country", {"country"}),
    ]
    # terms of different things that overlap stay apart: the longer is taken
    assert [h.text for h in lexicon.find("new subscriptions by plan")] == ["new subscriptions", "plan"]


def test_a_chat_word_glued_to_chinese_is_never_a_member_spelled_in_capitals(tmp_path: Path) -> None:
    """A state code "OK" beside the word "ok": "…多少ok" is a chat word; "OK的…" (in capitals) is the member."""
    data = yaml.safe_load(SAAS.read_text(encoding="utf-8"))
    data["dimensions"]["plan"]["members"]["oklahoma"] = {"label": {"zh": "俄州", "en": "Oklahoma"}, "synonyms": ["OK"]}
    path = tmp_path / "catalog.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    lexicon = Lexicon(load_catalog(path))
    assert [h.text for h in lexicon.find("上个月新订阅数多少ok")] == ["新订阅数"]
    assert [h.text for h in lexicon.find("上个月OK的新订阅数")] == ["OK", "新订阅数"]
