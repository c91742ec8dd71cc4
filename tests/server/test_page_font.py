"""The web page's character set: what the CJK web font is cut to (no browser, no font cutting)."""

from __future__ import annotations

import re
from importlib import resources

from baton.orchestrator.session import Session
from baton.server.page import gb2312_characters, page_characters


def test_gb2312_rows_give_its_6763_hanzi() -> None:
    hanzi = gb2312_characters()
    assert len(hanzi) == 6763 == len(set(hanzi))
    assert hanzi[0] == "啊" and "齄" in hanzi and "蘸" in hanzi
    assert all("\u4e00" <= c <= "\u9fff" for c in hanzi)


def test_page_characters_cover_the_page_the_messages_and_the_catalog(demo_session: Session) -> None:
    chars = set(page_characters(demo_session.catalog.model_dump_json()))
    app_js = resources.files("baton.server").joinpath("static", "app.js").read_text(encoding="utf-8")
    ui = set("".join(re.findall(r"[\u3000-\u9fff\uff00-\uffef]+", app_js)))
    assert ui and ui <= chars, sorted(ui - chars)
    catalog = demo_session.catalog
    for dimension in catalog.dimensions.values():
        assert set(dimension.label.zh) <= chars
        for member in dimension.members.values():
            assert set(member.label.zh) <= chars, member.label.zh
    for metric in catalog.metrics.values():
        assert set(metric.description.zh) <= chars
    assert set("，。？！：；（）“”、—¥×≤≥→") <= chars, "punctuation and symbols answers use"
    assert "\n" not in chars and chars == set(page_characters(catalog.model_dump_json()))
