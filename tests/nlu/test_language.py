"""The question's language, one row each: an English sentence naming Chinese members is English;
Chinese function words or full-width punctuation make a code-mixed question Chinese."""

from __future__ import annotations

import pytest

from baton.nlu.gate import detect_language

CASES = [
    ("上个月各渠道的GMV是多少？", "zh"),
    ("What was GMV last month?", "en"),
    ("daily orders of 手机数码 via live stream in 东北 in June 2026", "en"),
    ("Why did GMV in 华东 drop last month?", "en"),
    ("What about 华南?", "en"),
    ("Q1各region的refund rate", "zh"),
    ("show me 华东 last week 的 buyers", "zh"),
    ("近7天 conversion rate，mini program vs web", "zh"),
    ("上个月app和web和mini program的GMV", "zh"),
    ("那华南呢", "zh"),
    ("GMV 华东", "zh"),
    ("上周订单量 vs the same week last year", "zh"),  # p65: a Chinese word of time
    ("去年GMV by channel please", "zh"),
]


@pytest.mark.parametrize(("question", "language"), CASES, ids=[q for q, _ in CASES])
def test_the_language_of_a_question(question: str, language: str) -> None:
    assert detect_language(question) == language
