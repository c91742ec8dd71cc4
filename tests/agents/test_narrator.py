"""The deterministic narrator over time series: one first→last per group, a ranking over periods
read as a ranking, and edge buckets the period cuts named instead of read as a collapse."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.agents.buckets import partial_buckets, partial_notes
from baton.agents.narrator import Narrator
from baton.catalog.loader import load_catalog
from baton.catalog.spine import bucket_end
from baton.contracts.answer import Column, ResultTable
from baton.contracts.semantic import SemanticQuery, TimeRange
from baton.policy.output_gate import check_output

CATALOG = load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml")
JUNE = TimeRange(start=date(2026, 6, 1), end=date(2026, 6, 30), text="last month")
AS_OF = date(2026, 7, 1)
WEEKS = ["2026-06-01", "2026-06-08", "2026-06-15", "2026-06-22", "2026-06-29"]


def _table(names: list[str], rows: list[list[Any]]) -> ResultTable:
    return ResultTable(columns=[Column(name=n, type="VARCHAR") for n in names], rows=rows, row_count=len(rows))


def _say(query: SemanticQuery, table: ResultTable, language: str = "en") -> str:
    said = Narrator(CATALOG).compose(query, table, language)  # type: ignore[arg-type]
    assert check_output(said, evidence=table.rows, derived=[len(table.rows)], language=language).ok  # type: ignore[arg-type]
    return said


WEEKLY_BY_CHANNEL = SemanticQuery(
    metrics=("gmv",), dimensions=("channel",), time_range=JUNE, grain="week", intent="trend", as_of=AS_OF
)
BY_CHANNEL_ROWS = [
    [week, channel, value]
    for week, app, web in zip(
        WEEKS,
        [1412529.7, 1457312.4, 1731899.2, 1192878.0, 252851.0],
        [324166.9, 326836.8, 555353.9, 388089.3, 66404.8],
        strict=True,
    )
    for channel, value in (("app", app), ("web", web))
]


def test_a_series_per_group_never_compares_one_groups_first_with_anothers_last() -> None:
    said = _say(WEEKLY_BY_CHANNEL, _table(["period", "channel", "gmv"], BY_CHANNEL_ROWS))
    assert "app from ¥1,412,529.70 (2026-06-01) to ¥1,192,878.00 (2026-06-22)" in said
    assert "from ¥324,166.90 (2026-06-01) to ¥388,089.30 (2026-06-22)" in said
    assert "¥66,404.80" not in said  # the cut week is not an end point
    zh = _say(WEEKLY_BY_CHANNEL, _table(["period", "channel", "gmv"], BY_CHANNEL_ROWS), "zh")
    assert "APP 从 2026-06-01 的 ¥1,412,529.70 到 2026-06-22 的 ¥1,192,878.00" in zh
    assert "2026-06-29 所在的周只含部分日期" in zh


def test_a_weekly_series_names_its_cut_last_week_and_reads_over_the_full_ones() -> None:
    query = WEEKLY_BY_CHANNEL.model_copy(update={"dimensions": ()})
    rows = [[w, v] for w, v in zip(WEEKS, [10172914.4, 11000000.0, 13463779.0, 8977244.1, 2243223.3], strict=True)]
    table = _table(["period", "gmv"], rows)
    said = _say(query, table)
    assert "from ¥10,172,914.40 (2026-06-01) to ¥8,977,244.10 (2026-06-22)" in said
    assert "The week of 2026-06-29 holds only part of its days" in said
    assert partial_notes(query, table, "en") == [
        "The last week, 2026-06-29, holds 2 of its 7 days (the period ends 2026-06-30)."
    ]
    assert partial_notes(query, table, "zh") == [
        "最后一个周（2026-06-29 起）只含其 7 天中的 2 天（期间止于 2026-06-30）。"
    ]


def test_edge_buckets_by_grain() -> None:
    assert bucket_end(date(2026, 11, 1), "quarter") == date(2027, 1, 31)
    assert bucket_end(date(2026, 2, 1), "month") == date(2026, 2, 28)
    assert bucket_end(date(2026, 6, 1), "day") is None
    mid = TimeRange(start=date(2026, 5, 15), end=date(2026, 7, 1))
    monthly = SemanticQuery(metrics=("gmv",), time_range=mid, grain="month", as_of=AS_OF)
    rows = [{"period": d} for d in ("2026-05-01", "2026-06-01", "2026-07-01")]
    cut = partial_buckets(monthly, rows)
    assert [(b.label, b.edge, b.days, b.total) for b in cut] == [
        ("2026-05-01", "first", 17, 31),
        ("2026-07-01", "last", 1, 31),
    ]
    june_only = SemanticQuery(metrics=("gmv",), time_range=JUNE, grain="month", as_of=AS_OF)
    assert partial_buckets(june_only, [{"period": "2026-06-01"}]) == []  # a whole month is not cut


def test_rows_ordered_by_the_metric_are_a_ranking_not_a_series() -> None:
    query = SemanticQuery(
        metrics=("gmv",),
        dimensions=("region",),
        time_range=TimeRange(start=date(2025, 7, 1), end=date(2026, 6, 30)),
        grain="month",
        order_by=("-gmv",),
        limit=3,
        as_of=AS_OF,
    )
    rows = [["2025-11-01", "华东", 17451424.5], ["2026-05-01", "华东", 17146635.1], ["2026-04-01", "华东", 16315583.4]]
    said = _say(query, _table(["period", "region", "gmv"], rows))
    assert "Top 3 rows by GMV: 2025-11 / East China (¥17,451,424.50), 2026-05 / East China" in said
    assert " to " not in said.split(":", 1)[1] and "peak" not in said


def test_english_sentences_start_with_a_capital_and_top_n_names_plural_groups() -> None:
    query = SemanticQuery(
        metrics=("gmv",), dimensions=("region",), time_range=JUNE, top_n=2, intent="ranking", as_of=AS_OF
    )
    rows = [["华东", 14158986.8], ["华南", 10526894.1]]
    said = _say(query, _table(["region", "gmv"], rows))
    assert said.startswith("Top 2 regions by GMV, last month")
    refund = SemanticQuery(metrics=("refund_rate",), dimensions=("channel",), time_range=JUNE, as_of=AS_OF)
    said = _say(refund, _table(["channel", "refund_rate"], [["web", 0.0492], ["app", 0.0440]]))
    assert said[0].isupper() and said[1:].startswith(CATALOG.metrics["refund_rate"].label.en[1:])


def test_a_chinese_period_that_ends_in_a_date_keeps_a_space_before_the_next_word() -> None:
    query = SemanticQuery(
        metrics=("gmv",), dimensions=("region",), time_range=JUNE.model_copy(update={"text": None}), as_of=AS_OF
    )
    said = _say(query, _table(["region", "gmv"], [["华东", 14158986.8], ["东北", 1621174.5]]), "zh")
    assert said.startswith("2026-06-01 至 2026-06-30 按区域拆分")


@pytest.mark.parametrize(
    ("value", "bound", "signed", "said"),
    [
        (0.03004, 0.03, False, "3.004%"),  # would read "3.00%" beside "高于 3.00%"
        (0.0300001, 0.03, False, "3.00001%"),
        (0.035, 0.03, False, "3.50%"),  # apart already: as ever
        (-0.05004, -0.05, True, "-5.004%"),
        (0.03, 0.03, False, "3.00%"),  # the bound itself
    ],
)
def test_a_listed_percentage_is_told_apart_from_its_bound(value: float, bound: float, signed: bool, said: str) -> None:
    from baton.agents.bound_sentences import apart_from_bound
    from baton.numbers import format_exact, format_signed_percent

    def fmt(v: object) -> str:
        return format_signed_percent(v, "en") if signed else format_exact(v, "ratio", "en")

    assert apart_from_bound(fmt, bound)(value) == said


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Orders by channel, last month (2026-06-01 to 2026-06-30): app, web all 120; 3 groups."),
        ("zh", "按渠道拆分的订单量：APP、网页 均为 120，共 3 组。"),
    ],
)
def test_a_breakdown_whose_members_all_tie_names_no_highest_or_lowest(language: str, said: str) -> None:
    """Two members at the same value (the third group's key is empty): "highest app, web (120),
    lowest app, web (120)" said nothing; the members are named once, with their one value."""
    query = SemanticQuery(metrics=("order_count",), dimensions=("channel",), time_range=JUNE, as_of=AS_OF)
    table = _table(["channel", "order_count"], [["app", 120], ["web", 120], [None, 7]])
    assert said in _say(query, table, language)


SINCE_2025 = TimeRange(start=date(2025, 1, 1), end=date(2026, 6, 30))
YEARS: list[list[Any]] = [["2025-01-01", 533856064.0], ["2026-01-01", 294020228.0]]


@pytest.mark.parametrize(
    ("language", "said", "unsaid"),
    [
        ("en", "¥533,856,064.00 (year 2025); ¥294,020,228.00 (year 2026, part of its days only).", "from ¥"),
        ("zh", "2025年 ¥533,856,064.00；2026年（仅部分日期）¥294,020,228.00。", "首个"),
    ],
)
def test_a_series_with_one_whole_bucket_says_each_point(language: str, said: str, unsaid: str) -> None:
    """A whole 2025 and half of 2026: once "from ¥533,856,064.00 (2025) to ¥533,856,064.00 (2025)"."""
    query = SemanticQuery(metrics=("gmv",), time_range=SINCE_2025, grain="year", intent="trend", as_of=AS_OF)
    out = _say(query, _table(["period", "gmv"], YEARS), language)
    assert said in out and unsaid not in out


def test_a_yearly_series_per_group_names_years_not_their_first_days() -> None:
    query = SemanticQuery(
        metrics=("gmv",), dimensions=("channel",), time_range=SINCE_2025, grain="year", intent="trend", as_of=AS_OF
    )
    rows = [[year, channel, float(value) / n] for year, value in YEARS for channel, n in (("app", 2), ("web", 4))]
    out = _say(query, _table(["period", "channel", "gmv"], rows))
    assert "app ¥266,928,032.00 (year 2025)" in out and "Year 2026 holds only part of its days" in out
    assert "(2025-01-01)" not in out and "2026-01-01" not in out
    zh = _say(query, _table(["period", "channel", "gmv"], rows), "zh")
    assert "其中 2026年只含部分日期" in zh and "2026-01-01" not in zh


APP_SHARE_AGAINST_MAY = SemanticQuery(
    metrics=("gmv",),
    time_range=JUNE,
    comparison={"kind": "previous_period", "range": {"start": date(2026, 5, 1), "end": date(2026, 5, 31)}},
    share=True,
    share_filters=({"dimension": "channel", "members": ("app",)},),
    intent="comparison",
    premise="up",
    as_of=AS_OF,
)
SHARE_COLUMNS = [
    "gmv", "gmv_share", "gmv_whole", "gmv_previous", "gmv_previous_share", "gmv_previous_whole",
    "gmv_share_change", "gmv_change", "gmv_change_pct",
]  # fmt: skip


@pytest.mark.parametrize(
    ("row", "contradicted"),
    [
        ([25.0, 0.25, 100.0, 30.0, 0.3, 100.0, -0.05, -5.0, -1 / 6], True),  # the share fell: said first
        ([25.0, 0.25, 100.0, 0.0, None, 0.0, None, 25.0, None], False),  # no share before: no move to contradict
    ],
)
def test_a_share_premise_is_checked_against_the_shares_move(row: list[Any], contradicted: bool) -> None:
    """ "app占比比上月高了多少": the premise is the share's (not GMV's) — said wrong first when the
    share fell, and never "it did not change" when there is no share to compare (a whole of 0)."""
    said = _say(APP_SHARE_AGAINST_MAY, _table(SHARE_COLUMNS, [row]), "zh")
    assert said.startswith("问题说APP占成交总额的比例上升，但实际下降") == contradicted, said
    assert "没有变化" not in said


@pytest.mark.parametrize(
    ("premise", "row", "verdict"),
    [
        ("up", [35.0, 0.25, 140.0, 30.0, 0.3, 100.0, -0.05, 5.0, 1 / 6], "No: app's share of GMV fell"),  # GMV rose
        ("down", [25.0, 0.25, 100.0, 30.0, 0.3, 100.0, -0.05, -5.0, -1 / 6], "Yes: app's share of GMV fell"),
        ("up", [35.0, 0.35, 100.0, 30.0, 0.3, 100.0, 0.05, 5.0, 1 / 6], "Yes: app's share of GMV rose"),
    ],
)
def test_a_parts_share_move_asked_yes_or_no_is_answered_by_the_share(
    premise: str, row: list[Any], verdict: str
) -> None:
    """ "did app's share of GMV grow": yes or no by the share's move in points, never by GMV's."""
    query = APP_SHARE_AGAINST_MAY.model_copy(update={"premise": premise, "premise_asked": "every"})
    said = _say(query, _table(SHARE_COLUMNS, [row]))
    assert said.startswith(verdict), said


@pytest.mark.parametrize(
    ("language", "rows", "said"),
    [
        (
            "en",
            [["app", 120], ["web", 80], [None, 390]],
            "The (empty) rows, which have no channel (390), are not named",
        ),
        ("zh", [["app", 120], ["web", 80], [None, 390]], "表中“（空）”行的渠道为空（390），不计为最高或最低。"),
        ("en", [["app", 120], ["web", 120], [None, 7]], "which have no channel (7)"),
    ],
)
def test_a_breakdown_says_the_empty_key_group_it_names_neither_highest_nor_lowest(
    language: str, rows: list[list[Any]], said: str
) -> None:
    """ "highest app (120)" beside a group with no channel holding 390: the empty group is no member,
    so it is not named the highest — and the sentence says so, with its value."""
    query = SemanticQuery(metrics=("order_count",), dimensions=("channel",), time_range=JUNE, as_of=AS_OF)
    assert said in _say(query, _table(["channel", "order_count"], rows), language)


def test_a_breakdown_of_members_only_says_nothing_of_empty_keys() -> None:
    query = SemanticQuery(metrics=("order_count",), dimensions=("channel",), time_range=JUNE, as_of=AS_OF)
    assert "empty" not in _say(query, _table(["channel", "order_count"], [["app", 120], ["web", 80]]))


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "The (empty) rows, which have no channel (now 39, -36.07%), are not named among the rises and falls."),
        ("zh", "表中“（空）”行的渠道为空（本期 39，-36.07%），不计入涨跌排名。"),
    ],
)
def test_groups_compared_say_the_empty_key_groups_own_change(language: str, said: str) -> None:
    query = SemanticQuery(
        metrics=("order_count",),
        dimensions=("channel",),
        time_range=JUNE,
        comparison={"kind": "previous_period", "range": {"start": date(2026, 5, 1), "end": date(2026, 5, 31)}},
        as_of=AS_OF,
    )
    names = ["channel", "order_count", "order_count_previous", "order_count_change", "order_count_change_pct"]
    rows: list[list[Any]] = [
        ["app", 10, 24, -14, -0.5833333],
        ["web", 20, 42, -22, -0.5238095],
        [None, 39, 61, -22, -0.3606557],
    ]
    assert said in _say(query, _table(names, rows), language)


@pytest.mark.parametrize(
    ("language", "said", "unsaid"),
    [
        (
            "en",
            "No ratio: the value it would be divided by is not above zero; the gap instead: App is ¥8.00 higher",
            "—",
        ),
        ("zh", "没有倍数：作为除数的数值不大于零；以下为差值：APP比网页高 ¥8.00。", "—"),
    ],
)
def test_a_ratio_asked_of_a_base_not_above_zero_says_there_is_none(language: str, said: str, unsaid: str) -> None:
    """Review s16: "9E是HA的几倍" with HA at -3.14 answered a gap with an unexplained "(—)"."""
    query = SemanticQuery(
        metrics=("aov",),
        dimensions=("channel",),
        filters=({"dimension": "channel", "members": ("app", "web")},),
        time_range=JUNE,
        difference=True,
        ratio=True,
        as_of=AS_OF,
    )
    text_ = Narrator(CATALOG).compose(query, _table(["channel", "aov"], [["app", 5.0], ["web", -3.0]]), language)  # type: ignore[arg-type]
    assert said in text_ and unsaid not in text_


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Top 3 channels by GMV, last month (2026-06-01 to 2026-06-30), vs the previous period"),
        ("zh", "（2026-06-01 至 2026-06-30）成交总额最高的 3 个渠道（环比，对比期为 2026-05-01 至 2026-05-31）：APP"),
    ],
)
def test_a_top_n_compared_lists_every_group_kept_in_its_order(language: str, said: str) -> None:
    """p70: "top 3 carriers by cancellations in December compared with November" named the
    smallest and largest rise among the three, and never the top one."""
    may = TimeRange(start=date(2026, 5, 1), end=date(2026, 5, 31), text="the month before")
    query = SemanticQuery(
        metrics=("gmv",), dimensions=("channel",), time_range=JUNE, top_n=3, intent="ranking", as_of=AS_OF,
        comparison={"kind": "previous_period", "range": may},
    )  # fmt: skip
    rows = [
        ["app", 398.0, 82.0, 316.0, 316 / 82],
        ["web", 141.0, 45.0, 96.0, 96 / 45],
        ["live_stream", 106.0, 19.0, 87.0, 87 / 19],
    ]
    table = _table(["channel", "gmv", "gmv_previous", "gmv_change", "gmv_change_pct"], rows)
    text = _say(query, table, language)
    assert said in text
    labels = [CATALOG.member_label("channel", r[0], language) for r in rows]
    assert text.index(labels[0]) < text.index(labels[1]) < text.index(labels[2])
    assert ("+385.37%" in text) and ("+213.33%" in text) and ("+457.89%" in text)
