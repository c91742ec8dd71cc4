"""A reply to a question asked back completes that question (``baton.nlu.replies``)."""

from __future__ import annotations

import pytest

from baton.nlu.replies import completions

CASES = [
    # (asked, reply, detail, language, the likeliest completion or None)
    ("上个月华南各渠道的收入", "GMV", {"term": "收入"}, "zh", "上个月华南各渠道的GMV"),
    ("华东和华南总收入", "GMV", {"term": "收入"}, "zh", "华东和华南总GMV"),
    ("华东收入前三的品类", "GMV，上个月", {"term": "收入"}, "zh", "华东GMV前三的品类，上个月"),
    ("上个月利润多少", "那GMV呢？", {"term": "利润"}, "zh", "上个月GMV多少"),
    ("last month revenue in the south", "GMV please", {"term": "revenue"}, "en", "last month GMV in the south"),
    ("双11 GMV", "当天", {"missing": "time_range", "term": "双11"}, "zh", "双11当天 GMV"),
    ("双11华东的订单量", "整个活动期间", {"missing": "time_range", "term": "双11"}, "zh", "双11期间华东的订单量"),
    ("GMV", "上个月", {"missing": "time_range"}, "zh", "GMV，上个月"),
    ("orders by channel", "last month", {"missing": "time_range"}, "en", "orders by channel, last month"),
    ("上个月各渠道", "订单量", {"missing": "metric"}, "zh", "上个月各渠道，订单量"),
    ("上个月华南的GMV谁高", "哪个更高", {"unknown": ["谁高"]}, "zh", "上个月华南的GMV哪个更高"),
    # a choice offered and taken: the same period a year back, or the whole weeks inside the period
    (
        "去年呢",
        "同期",
        {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"},
        "zh",
        "2025-06-01至2025-06-30呢",
    ),
    ("去年呢", "全年吧", {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"}, "zh", "去年全年呢"),
    (
        "what about last year",
        "same period, June last year",
        {"said": "last year", "same_from": "2025-06-01", "same_to": "2025-06-30"},
        "en",
        "what about 2025-06-01 to 2025-06-30",
    ),
    (
        "上个月每周GMV环比",
        "就按完整的周吧",
        {"period": "上个月", "whole_inside": ["2026-06-01", "2026-06-28"]},
        "zh",
        "2026-06-01至2026-06-28每周GMV环比",
    ),
    (
        "weekly GMV last month, wow",
        "ok, use those",
        {"period": "last month", "whole_inside": ["2026-06-01", "2026-06-28"]},
        "en",
        "weekly GMV 2026-06-01 to 2026-06-28, wow",
    ),
    # nothing to complete: no word named, nothing missing, or a reply too long to be one
    ("上个月GMV", "订单量", {"dimensions": ["region"]}, "zh", None),
    ("上个月华南的收入", "我想看的是去年同期所有渠道的成交总额和订单量，按月拆开", {"term": "收入"}, "zh", None),
    ("双11 GMV", "嗯", {"missing": "time_range", "term": "双11"}, "zh", None),
    ("去年呢", "全年还是同期都行", {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"}, "zh", None),
    ("上个月每周GMV环比", "换成订单量", {"period": "上个月", "whole_inside": ["2026-06-01", "2026-06-28"]}, "zh", None),
    # a choice with more said, or refused, is a question of its own (review s4)
    ("去年呢", "同期，只看华东", {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"}, "zh", None),
    ("去年呢", "不是同期", {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"}, "zh", None),
    (
        "去年呢",
        "那看一下去年全年各区域的订单量",
        {"said": "去年", "same_from": "2025-06-01", "same_to": "2025-06-30"},
        "zh",
        None,
    ),
    (
        "what about last year",
        "same period, May last year",
        {"said": "last year", "same_from": "2025-06-01", "same_to": "2025-06-30"},
        "en",
        None,
    ),
    (
        "上个月每周GMV环比",
        "嗯",
        {"period": "上个月", "whole_inside": ["2026-06-01", "2026-06-28"]},
        "zh",
        "2026-06-01至2026-06-28每周GMV环比",
    ),
    (
        "what about last year",
        "same period, april last year",
        {"said": "last year", "same_from": "2025-04-01", "same_to": "2025-06-30"},
        "en",
        None,
    ),
    # a member of several dimensions: the reply says which, with the member or without it (p66)
    (
        "LGA的取消率 2013年2月",
        "出发机场LGA",
        {"member": "LGA", "suggestions": ["dest", "origin"]},
        "zh",
        "出发机场LGA的取消率 2013年2月",
    ),
    (
        "LGA的取消率 2013年2月",
        "出发机场",
        {"member": "LGA", "suggestions": ["dest", "origin"]},
        "zh",
        "出发机场LGA的取消率 2013年2月",
    ),
    (
        "LGA cancel rate in Feb",
        "origin",
        {"member": "LGA", "suggestions": ["dest", "origin"]},
        "en",
        "origin LGA cancel rate in Feb",
    ),
    (
        "上个月每周GMV环比",
        "好的，换成订单量",
        {"period": "上个月", "whole_inside": ["2026-06-01", "2026-06-28"]},
        "zh",
        None,
    ),
]


@pytest.mark.parametrize(("asked", "reply", "detail", "language", "expected"), CASES, ids=[c[1] for c in CASES])
def test_a_reply_completes_the_question_asked_back(
    asked: str, reply: str, detail: dict[str, object], language: str, expected: str | None
) -> None:
    found = completions(asked, reply, detail, language)
    if expected is None:
        assert found == []
    else:
        assert expected in found, found
