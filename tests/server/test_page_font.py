"""The web page's strings and character set: what the page says and what its CJK web font is cut to
(no browser, no font cutting)."""

from __future__ import annotations

import json
import re
from importlib import resources

from baton.messages import MESSAGES
from baton.orchestrator.session import Session
from baton.server.page import gb2312_characters, page_characters, page_html, page_strings


def test_gb2312_rows_give_its_6763_hanzi() -> None:
    hanzi = gb2312_characters()
    assert len(hanzi) == 6763 == len(set(hanzi))
    assert hanzi[0] == "啊" and "齄" in hanzi and "蘸" in hanzi
    assert all("\u4e00" <= c <= "\u9fff" for c in hanzi)


def test_page_characters_cover_the_page_the_messages_and_the_catalog(demo_session: Session) -> None:
    chars = set(page_characters(demo_session.catalog.model_dump_json()))
    ui = set("".join(page_strings()["zh"].values()))
    assert len(ui) > 200 and ui <= chars, sorted(ui - chars)
    catalog = demo_session.catalog
    for dimension in catalog.dimensions.values():
        assert set(dimension.label.zh) <= chars
        for member in dimension.members.values():
            assert set(member.label.zh) <= chars, member.label.zh
    for metric in catalog.metrics.values():
        assert set(metric.description.zh) <= chars
    assert set("，。？！：；（）“”、—¥×≤≥→") <= chars, "punctuation and symbols answers use"
    assert "\n" not in chars and chars == set(page_characters(catalog.model_dump_json()))


def _static(name: str) -> str:
    return resources.files("baton.server").joinpath("static", name).read_text(encoding="utf-8")


def test_page_strings_are_the_web_messages_inlined_as_json_data() -> None:
    strings = page_strings()
    assert strings["zh"]["ask"] == MESSAGES["web.ask"][1] and strings["en"]["ask"] == MESSAGES["web.ask"][0]
    assert strings["zh"]["status_refused"] == MESSAGES["answer.status_refused"][1] == "已拒绝"
    assert set(strings["en"]) == set(strings["zh"])
    html = page_html()
    block = re.search(r'<script type="application/json" id="baton-strings">(.*?)</script>', html, re.DOTALL)
    assert block is not None and json.loads(block.group(1)) == strings, "the page carries them as data"
    assert "{{strings}}" not in html and "<" not in block.group(1), "nothing in the data can close its block"
    used = set(re.findall(r'data-i18n(?:-placeholder)?="(\w+)"', _static("index.html")))
    used |= set(re.findall(r'\bt\("(\w+)"', _static("app.js") + _static("answer.js")))
    assert used and used <= set(strings["en"]), sorted(used - set(strings["en"]))


def test_the_page_scripts_hold_no_chinese_of_their_own() -> None:
    for name in ("index.html", "app.js", "answer.js", "api.js"):
        # data, not words: the scale suffixes (万, 亿) of the table's number pattern, the font's probe character
        data = ("const NUMERIC =", "await Promise.race([document.fonts.load(")
        code = "\n".join(line for line in _static(name).splitlines() if not line.strip().startswith(data))
        found = re.findall(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]", code)
        assert not found, f"{name}: {found} (its words belong in baton.messages.web)"
