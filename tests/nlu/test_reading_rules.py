"""The planner's reading rules, one row each: what it reads, and what it asks back or refuses.

Rows name the rule they pin down; each would read differently (or answer a different
question) if the rule were removed.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.catalog.loader import load_catalog
from baton.errors import AmbiguousQuestion, BatonError, OutOfScope, TimeExpressionError, UnknownMetric
from baton.nlu.parser import Planner

PLANNER = Planner(load_catalog(Path(__file__).parents[2] / "src/baton/demo/data/catalog.yaml"))
AS_OF = date(2026, 7, 1)  # a Wednesday


def _within(expected: Any, actual: Any) -> bool:
    """``expected`` holds (a dict: the keys it names hold the same values; a list: as many items, each held)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        return all(k in actual and _within(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_within(e, a) for e, a in zip(expected, actual, strict=True))
    return bool(expected == actual)


def _read(question: str) -> dict[str, Any]:
    return PLANNER.plan(question, as_of=AS_OF).model_dump(mode="json")


EAST_OUT = [{"dimension": "region", "members": ["华东"], "exclude": True}]
READ: list[tuple[str, str, dict[str, Any]]] = [
    ("a place of three digits is all of them", "上个月订单量排名第100的品类", {"rank_place": 100, "top_n": None}),
    # a dimension naming the set an exclusion applies to is the breakdown when each group is asked
    (
        "the set of a ranking is its breakdown",
        "top 3 regions excluding east china by orders in june",
        {"dimensions": ["region"], "top_n": 3, "filters": EAST_OUT},
    ),
    (
        "the set ranked by a metric is its breakdown",
        "regions other than east china ranked by gmv last month",
        {"dimensions": ["region"], "intent": "ranking", "filters": EAST_OUT},
    ),
    (
        "the set before 'by <metric>' is its breakdown",
        "categories excluding phones by orders in june",
        {"dimensions": ["category"], "filters": [{"dimension": "category", "members": ["手机数码"], "exclude": True}]},
    ),
    (
        "the set alone is one figure",
        "GMV for regions other than east china last month",
        {"dimensions": [], "filters": EAST_OUT},
    ),
    # fillers, negations and counts of Slack English
    ("'make' and 'thx' are fillers", "how much more gmv did app make than web last month thx", {"difference": True}),
    (
        "isn't excludes a member",
        "gmv where channel isn't app, june",
        {"filters": [{"dimension": "channel", "members": ["app"], "exclude": True}]},
    ),
    ("top3 before a Chinese word", "上个月GMV top3的品类", {"top_n": 3, "dimensions": ["category"]}),
    ("TOP5 before a Chinese word", "上个月GMV TOP5品类", {"top_n": 5, "dimensions": ["category"]}),
    ("the top in each group", "上个月各区域GMV最高的品类", {"rank_within": ["region"], "top_n": 1}),
    ("the top in each group, in English", "top category by GMV in each region last month", {"rank_within": ["region"]}),
    # exclusions, whole lists, negated verbs
    (
        "exclusion chain with 'or the'",
        "orders last week that didn't come through live stream or the app, by region",
        {"filters": [{"dimension": "channel", "members": ["live_stream", "app"], "exclude": True}]},
    ),
    (
        "drop X is an exclusion, never a fall",
        "orders last week by channel, drop live stream",
        {
            "filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}],
            "comparison": None,
            "dimensions": ["channel"],
        },
    ),
    (
        "remove the X",
        "remove the app from last month's orders by channel",
        {"filters": [{"dimension": "channel", "members": ["app"], "exclude": True}], "comparison": None},
    ),
    (
        "A minus B of one dimension is their gap, never an exclusion",
        "GMV last month app minus web",
        {
            "dimensions": ["channel"],
            "difference": True,
            "filters": [{"dimension": "channel", "members": ["app", "web"], "exclude": False}],
        },
    ),
    (
        "a catalog synonym with 'per' is its metric, never a breakdown",
        "gmv per order by channel in may",
        {"metrics": ["aov"], "dimensions": ["channel"]},
    ),
    (
        "a comparative closing a 比 clause compares the periods",
        "6月GMV比5月高吗",
        {"comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}}, "top_n": None},
    ),
    (
        "a comparative closing a 比 clause of two members shows both",
        "上个月华东的GMV比华南高吗",
        {
            "top_n": None,
            "dimensions": ["region"],
            "filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}],
        },
    ),
    (
        "a bare 'up' in 'look it up' is no direction",
        "can you look it up for june, gmv",
        {"comparison": None, "metrics": ["gmv"]},
    ),
    (
        "a bare 'up' after the metric asks for the change",
        "is gmv up this year",
        {"comparison": {"kind": "previous_period"}, "top_n": None, "dimensions": []},
    ),
    (
        "a bare 'down' after a member's metric asks for the change",
        "app gmv down last month?",
        {
            "comparison": {"kind": "previous_period"},
            "filters": [{"dimension": "channel", "members": ["app"], "exclude": False}],
        },
    ),
    (
        "a comparative before 'than' and a period compares the periods, never ranks",
        "is june gmv lower than may",
        {"comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}}, "top_n": None},
    ),
    (
        "a comparative before 'than' and a member shows both members, never the top one",
        "is east china gmv higher than south china last month",
        {
            "top_n": None,
            "dimensions": ["region"],
            "filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}],
        },
    ),
    (
        "how many percent higher one member is than another is their gap",
        "上个月华东比华南GMV高百分之几",
        {
            "dimensions": ["region"],
            "difference": True,
            "filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}],
        },
    ),
    (
        "A的X减去B的X",
        "上个月华东的订单量减去华南的订单量",
        {
            "dimensions": ["region"],
            "difference": True,
            "filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}],
        },
    ),
    (
        "minus before a member alone still excludes",
        "GMV minus live stream last month",
        {"filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}], "difference": False},
    ),
    (
        "几倍 between two members is their ratio",
        "上个月华东的GMV是华南的几倍",
        {"dimensions": ["region"], "difference": True, "ratio": True},
    ),
    ("ratio of A to B", "ratio of app to web GMV last month", {"difference": True, "ratio": True}),
    (
        "a why with a comparative takes its direction as the premise",
        "4月份GMV为什么比3月低",
        {
            "intent": "why",
            "premise": "down",
            "time_range": {"start": "2026-04-01", "end": "2026-04-30"},
            "comparison": {"kind": "custom", "range": {"start": "2026-03-01", "end": "2026-03-31"}},
        },
    ),
    (
        "an English comparative in a why",
        "why is AOV lower in June than May",
        {"intent": "why", "premise": "down", "time_range": {"start": "2026-06-01", "end": "2026-06-30"}},
    ),
    (
        "a why over a range with a direction compares its ends",
        "从5月到6月GMV为什么降了",
        {
            "intent": "why",
            "premise": "down",
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
        },
    ),
    (
        "why … between May and June is June against May",
        "why did orders fall between May and June",
        {"intent": "why", "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}}},
    ),
    ("为啥 is why", "为啥上个月GMV涨了这么多", {"intent": "why", "premise": "up"}),
    ("头两名 is a top 2", "上个月GMV头两名的渠道", {"top_n": 2, "dimensions": ["channel"]}),
    (
        "each group's value, then which is highest: the whole ranking",
        "各区域上个月退款率多少，哪个最高",
        {"top_n": None, "dimensions": ["region"], "intent": "ranking"},
    ),
    (
        "by channel and which was highest",
        "GMV by channel last month and which was highest",
        {"top_n": None, "dimensions": ["channel"]},
    ),
    (
        "named members each, then which is higher: both, highest first",
        "app和小程序上个月GMV分别多少，哪个高",
        {"top_n": None, "dimensions": ["channel"], "intent": "ranking"},
    ),
    (
        "each group's value then a bare comparative: the whole ranking",
        "上个月app和小程序的GMV分别是多少？哪个更高？",
        {"top_n": None, "dimensions": ["channel"]},
    ),
    (
        "named members' values, then which was higher in English",
        "GMV for app and web last month, and which was higher",
        {"top_n": None, "dimensions": ["channel"]},
    ),
    (
        "each group, then the lowest after 以及: the whole ranking, lowest first",
        "上个月各品类的订单量以及最少的品类",
        {"top_n": None, "dimensions": ["category"], "order": "asc"},
    ),
    (
        "each group, then which is highest after 以及",
        "上个月各区域的GMV，以及GMV最高的是哪个",
        {"top_n": None, "dimensions": ["region"]},
    ),
    (
        "each month, then which month was highest: every month",
        "今年各月新增用户数，以及哪个月最多",
        {"top_n": None, "grain": "month"},
    ),
    (
        "a weekend's previous period is the weekend before",
        "上周末GMV环比",
        {
            "time_range": {"start": "2026-06-27", "end": "2026-06-28"},
            "comparison": {"kind": "previous_period", "range": {"start": "2026-06-20", "end": "2026-06-21"}},
        },
    ),
    # a week under way against the same days of the week before; "vs 前7天"
    (
        "a partial week's week-over-week",
        "本周GMV周环比",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-06-22", "end": "2026-06-23"}}},
    ),
    (
        "weekdays of a week against the same weekdays of the week before",
        "上周一到周五GMV环比",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-06-15", "end": "2026-06-19"}}},
    ),
    (
        "the n days before after vs",
        "过去7天 vs 前7天 订单量",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-06-17", "end": "2026-06-23"}}},
    ),
    (
        "how many orders fewer",
        "上周订单量环比少了多少单",
        {"metrics": ["order_count"], "comparison": {"kind": "previous_period"}},
    ),
    # every member of a dimension: each one when listing is asked, their total when said so
    ("all of them listed", "上周所有区域的笔单价都列出来", {"dimensions": ["region"], "metrics": ["aov"]}),
    ("across all of them is their total", "GMV across all regions last week", {"dimensions": [], "filters": []}),
    ("all of them added up", "上周所有区域的GMV加起来", {"dimensions": [], "filters": []}),
    # a why's premise said colloquially; "没涨" takes no direction for granted
    ("lower by so much", "6月GMV为啥比5月低这么多", {"premise": "down", "intent": "why"}),
    ("咋 is why", "5月GMV咋下降了", {"premise": "down", "intent": "why"}),
    ("did not rise", "6月GMV为什么没涨", {"premise": None, "intent": "why"}),
    ("didn't grow", "why didn't GMV grow in June", {"premise": None, "intent": "why"}),
    ("converting less", "why are returning customers converting less in June?", {"premise": "down"}),
    ("fell off a cliff", "East China conversion fell off a cliff in May, why?", {"premise": "down"}),
    # a period's length said after it is the period itself
    ("a weekend's two days", "上周末两天的GMV", {"time_range": {"start": "2026-06-27", "end": "2026-06-28"}}),
    ("a month's thirty days", "上个月30天的订单量", {"time_range": {"start": "2026-06-01", "end": "2026-06-30"}}),
    (
        "the first days of two months set against each other",
        "6月前10天的GMV比5月前10天多了多少",
        {"time_range": {"start": "2026-06-01", "end": "2026-06-10"}, "comparison": {"kind": "custom"}},
    ),
    (
        "a superlative closing a 比, never a comparative",
        "哪个区域上周订单量比上上周降得最多",
        {"rank_by": "change", "top_n": 1},
    ),
    ("one member and two months each", "1月和2月华东的买家数分别是多少", {"comparison": {"kind": "custom"}}),
    (
        "a rate moved is a change",
        "how much conversion rate did the app move last month",
        {"comparison": {"kind": "previous_period"}},
    ),
    (
        "months from January against the bare year before",
        "2026年前三个月GMV比去年高吗",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-01-01", "end": "2025-03-31"}}},
    ),
    ("a base said before the range, each", "去年同期和3-4月GMV分别是多少", {"grain": None}),
    ("an end word at the ranking's own end", "上个月GMV最高的品类，前三名分别是多少", {"top_n": 3, "order": "desc"}),
    (
        "a run of months cut at a day, compared",
        "截止到5月20号，4到6月的GMV环比",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-02-10", "end": "2026-03-31"}}},
    ),
    ("the numbers of a listed breakdown", "上个月GMV按渠道和区域的数", {"dimensions": ["channel", "region"]}),
    ("each of a range, bare", "Q1 to Q2 GMV, each", {"grain": "quarter"}),
    (
        "each of a range, compared",
        "3-4月GMV分别同比多少",
        {"grain": "month", "comparison": {"kind": "same_period_last_year"}},
    ),
    (
        "a named period cut at a day said after it",
        "二季度截至5月20号的GMV",
        {"time_range": {"start": "2026-04-01", "end": "2026-05-20"}},
    ),
    (
        "a range cut at a day",
        "截止到5月20号，4到6月的GMV",
        {"time_range": {"start": "2026-04-01", "end": "2026-05-20"}},
    ),
    ("the first place among a top N", "上个月GMV前5的品类中排第一的是哪个", {"top_n": 5, "order": "desc"}),
    ("each of a period and its base", "1-3月的GMV和去年同期分别是多少", {"grain": None}),
    ("each as a unit", "from January to March, how much was each order worth on average", {"grain": None}),
    (
        "a month so far, compared",
        "6月截至20号的GMV环比",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-05-01", "end": "2026-05-20"}}},
    ),
    ("the numbers of a breakdown", "上个月GMV，各渠道的数", {"metrics": ["gmv"], "dimensions": ["channel"]}),
    ("each month of a range", "三四月份华东的买家数分别是多少", {"grain": "month", "dimensions": []}),
    ("each quarter of a range", "Q1到Q2的GMV分别是多少", {"grain": "quarter"}),
    ("each of two metrics over a range", "3-4月GMV和订单量分别是多少", {"grain": None}),
    (
        "an end beside its period",
        "截止到6月20号，6月的GMV",
        {"time_range": {"start": "2026-06-01", "end": "2026-06-20"}},
    ),
    (
        "an end beside its period, compared",
        "截止到6月20号，6月的GMV环比",
        {
            "time_range": {"start": "2026-06-01", "end": "2026-06-20"},
            "comparison": {"kind": "previous_period", "range": {"start": "2026-05-01", "end": "2026-05-20"}},
        },
    ),
    (
        "an end beside its year",
        "as of June 20, this year's orders",
        {"time_range": {"start": "2026-01-01", "end": "2026-06-20"}},
    ),
    (
        "a period's length before a daily average",
        "上周末两天日均GMV",
        {"time_range": {"start": "2026-06-27", "end": "2026-06-28"}, "average_per": "day"},
    ),
    (
        "the weekend before last",
        "GMV the weekend before last",
        {"time_range": {"start": "2026-06-20", "end": "2026-06-21"}},
    ),
    (
        "all regions after a ranking of regions: the ranking goes",
        "regions by GMV last month, all of them",
        {"top_n": None, "dimensions": ["region"]},
    ),
    (
        "其中 a member, after the total: the member's share of the whole (the whole stated)",
        "上月总订单多少单，其中直播多少单",
        {"share": True, "share_filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": False}]},
    ),
    (
        "哪个比较高 is which is higher, 比较 no 比 of a comparison",
        "华东和华南上个月GMV哪个比较高",
        {"top_n": 1, "dimensions": ["region"]},
    ),
    (
        "each, which is higher and by how much, parted by spaces",
        "上个月食品和美妆的GMV分别多少 哪个高 高多少",
        {"top_n": None, "dimensions": ["category"], "difference": True},
    ),
    (
        "A比B更高吗 of two members: both, and the gap",
        "上个月华东的GMV比华南更高吗",
        {"dimensions": ["region"], "difference": True, "comparison": None},
    ),
    # the rest after an exclusion, each asked with 都: each one checked, never their sum
    (
        "其他渠道都…吗 checks each of the rest",
        "上个月除了直播，其他渠道GMV都比5月低吗",
        {"dimensions": ["channel"], "premise_asked": "every", "premise": "down"},
    ),
    (
        "其他区域都超过…吗 checks each of the rest against the bound",
        "除了华东，其他区域上个月GMV都超过200万吗",
        {"dimensions": ["region"], "threshold": {"metric": "gmv", "op": ">", "value": 2_000_000, "check": "all"}},
    ),
    (
        "the rest added up is their sum",
        "上个月除了直播，其他渠道GMV加起来比5月低吗",
        {"dimensions": [], "premise_asked": "every"},
    ),
    # whether one member is first: every member ranked, the verdict said
    ("is one member first", "was east china the top region by GMV last month", {"asked_member": "华东", "top_n": None}),
    ("是不是最高的", "上个月app是不是GMV最高的渠道", {"asked_member": "app", "dimensions": ["channel"]}),
    ("the member's own dimension", "上个月华东的GMV是最高的吗", {"asked_member": "华东", "dimensions": ["region"]}),
    # 有 before a move is no "any": 都 / 每个 ask of every group
    ("比5月有下降吗 of every channel", "6月每个渠道GMV都比5月有下降吗", {"premise_asked": "every", "premise": "down"}),
    ("a yes/no with 下降的渠道 keeps its verdict", "上个月有GMV环比下降的渠道吗", {"premise_asked": "any"}),
    (
        "各…有…吗 is of any group",
        "上个月华东各渠道有GMV环比下降的吗",
        {"premise_asked": "any", "dimensions": ["channel"]},
    ),
    (
        "所有…都 is of every group",
        "上个月所有渠道GMV都比5月高吗",
        {"premise_asked": "every", "dimensions": ["channel"]},
    ),
    *[
        (f"any group, said with a bare move: {question}", question, {"premise_asked": "any", "premise": way})
        for question, way in [
            ("有没有哪个渠道上个月GMV涨了", "up"),  # 哪个 of any one, never a ranking
            ("上个月各渠道GMV有没有涨的", "up"),  # 涨的: the ones that rose
            ("上个月各品类退款率有降的吗", "down"),
        ]
    ],
    # a date range whose end only looks like an event of the calendar ("6.18" is the 618 sale's day)
    (
        "a range ending on an event's day",
        "6.1-6.18 GMV多少",
        {"time_range": {"start": "2026-06-01", "end": "2026-06-18"}},
    ),
    ("an event's day alone", "6.18当天的GMV", {"time_range": {"start": "2026-06-18", "end": "2026-06-18"}}),
    ("a day after since, before a comma", "since May 20, GMV by channel", {"time_range": {"start": "2026-05-20"}}),
    (
        "a bound in 千 and 百 of 万",
        "哪些渠道上个月GMV在4千5百万以上",
        {"threshold": {"metric": "gmv", "op": ">=", "value": 45_000_000}},
    ),
    # the place of one member: every member ranked
    *[
        (f"a member's place: {question}", question, {"asked_member": member, "place_asked": True, "top_n": None})
        for question, member in [
            ("华南上个月gmv排第几", "华南"),
            ("上个月华南的GMV排名", "华南"),
            ("where does south china rank among regions by gmv last month", "华南"),
            ("上个月app的订单量排名如何", "app"),
            ("今年上半年家电GMV在品类里排名多少", "家用电器"),
        ]
    ],
    (
        "倒数第几 counts from the lowest",
        "东北上个月订单量倒数第几",
        {"asked_member": "东北", "place_asked": True, "order": "asc"},
    ),
    ("a ranking of every member is no place", "上个月各区域GMV排名", {"place_asked": False, "asked_member": None}),
    ("各…有没有上涨 is of each group", "上个月各渠道GMV有没有上涨", {"premise_asked": "every", "premise": "up"}),
    ("a bare 涨 after 有没有 is a rise", "上个月GMV有没有涨", {"premise_asked": "every", "premise": "up"}),
    ("有点 is no any", "我们有点担心，上个月GMV有没有跌", {"premise_asked": "every", "premise": "down"}),
    ("a comparative closing with a question mark asks", "6月GMV比5月高?", {"premise_asked": "every", "premise": "up"}),
    ("each group and the lowest after 和", "上个月各区域订单量和最低的区域", {"top_n": None, "dimensions": ["region"]}),
    # one question, however many clauses: never asked back as two
    (
        "a breakdown after a comma, no value asked of it",
        "How many orders last month, per channel?",
        {"dimensions": ["channel"]},
    ),
    (
        "an average of the one metric, in its own clause",
        "上个月GMV，日均多少",
        {"average_per": "day", "metrics": ["gmv"]},
    ),
    ("the top value, then whose it is", "上个月GMV最高是多少，哪个渠道", {"top_n": 1, "dimensions": ["channel"]}),
    (
        "two metrics of one member, joined by 'and the'",
        "What was GMV and the number of orders for web last month?",
        {
            "metrics": ["gmv", "order_count"],
            "filters": [{"dimension": "channel", "members": ["web"], "exclude": False}],
        },
    ),
    ("among the regions, which is highest: the top one", "各区域中，上个月GMV最高的是哪个", {"top_n": 1}),
    (
        "吧 closing a request is no yes/no: the days kept",
        "查一下上个月每天GMV超过150万的日子吧",
        {"grain": "day", "threshold": {"metric": "gmv", "op": ">", "value": 1_500_000, "check": "keep"}},
    ),
    # the groups that moved one way: every group's change, the answer naming those that moved so
    *[
        (f"which groups moved: {question}", question, {"premise_asked": "which", "dimensions": [dim], "premise": way})
        for question, dim, way in [
            ("哪些渠道上个月GMV环比下降了", "channel", "down"),
            ("which channels grew GMV last month vs May", "channel", "up"),
            ("channels where gmv grew mom", "channel", "up"),
            ("regions where refund rate went up last month compared with May", "region", "up"),
            ("which channels saw GMV decline last month vs May, excluding live stream", "channel", "down"),
            ("上个月GMV环比下降的品类", "category", "down"),
            ("上个月订单量同比上涨的区域", "region", "up"),
            ("上个月GMV降了的渠道", "channel", "down"),
        ]
    ],
    # a bare half right after a half of a month is that month's other half, never half a year
    *[
        (
            f"the other half of the month: {question}",
            question,
            {
                "time_range": {"start": "2026-06-16", "end": "2026-06-30"},
                "comparison": {"kind": "custom", "range": {"start": "2026-06-01", "end": "2026-06-15"}},
            },
        )
        for question in ["GMV in the first half of June vs the second half", "6月上半月和下半月的GMV对比"]
    ],
    # a percent right after a comparison word is the change's, never a share
    (
        "wow %: the change in percent",
        "weekly order count with wow % for the last 6 weeks",
        {"share": False, "grain": "week", "comparison": {"kind": "previous_period"}},
    ),
    (
        "环比%: the change in percent",
        "上个月各渠道GMV环比%",
        {"share": False, "comparison": {"kind": "previous_period"}},
    ),
    # a percent right after a rate is the rate's own unit, never a share of it
    *[
        (f"a rate in percent: {question}", question, {"share": False, "metrics": [metric], "dimensions": dims})
        for question, metric, dims in [
            ("refund rate pct by channel last month", "refund_rate", ["channel"]),
            ("conversion rate % last month", "conversion_rate", []),
            ("conversion rate in percent by region last month", "conversion_rate", ["region"]),
            ("上个月各渠道退款率%", "refund_rate", ["channel"]),
        ]
    ],
    # two metrics said one over the other: the catalog's ratio of them, said so
    *[
        (
            f"a ratio said in its parts: {question}",
            question,
            {"metrics": [metric], "corrections": [{"written": written, "kind": "ratio"}]},
        )
        for question, metric, written in [
            ("orders over visitors last month", "conversion_rate", "orders over visitors"),
            ("上个月订单量除以访客数", "conversion_rate", "订单量除以访客数"),
            ("上个月订单量占访客数的比例是多少", "conversion_rate", "订单量占访客数的比例"),
            ("gmv divided by orders by channel last month", "aov", "gmv divided by orders"),
            ("orders as a % of visitors by region last month", "conversion_rate", "orders as a % of visitors"),
            ("上个月GMV/买家数", "gmv_per_buyer", "GMV/买家数"),
        ]
    ],
    # the periods of a series that moved one way, each against the one before it (or last year's)
    *[
        (
            f"which periods moved: {question}",
            question,
            {"premise_asked": "which", "dimensions": [], "grain": grain, "premise": way, "comparison": {"kind": kind}},
        )
        for question, grain, way, kind in [
            ("今年哪几个月GMV环比下降了", "month", "down", "previous_period"),
            ("今年GMV环比下降的月份", "month", "down", "previous_period"),
            ("今年每个月GMV环比，哪些月下降了", "month", "down", "previous_period"),
            ("近8周哪几周订单量环比增长了", "week", "up", "previous_period"),
            ("今年哪些月份GMV同比下降了", "month", "down", "same_period_last_year"),
            ("which months this year did gmv fall month over month", "month", "down", "previous_period"),
            ("which weeks saw orders decline wow over the last 8 weeks", "week", "down", "previous_period"),
            ("今年哪几个月新增用户数环比下降", "month", "down", "previous_period"),  # no 了
            ("近12周GMV环比下降的有哪几周", "week", "down", "previous_period"),
            ("上个月每天的订单量环比下降的有哪些天", "day", "down", "previous_period"),
            ("今年哪几个月的退款率比上个月高", "month", "up", "previous_period"),  # higher than the month before
            ("今年有哪几个月订单量比上月少", "month", "down", "previous_period"),
            ("which months this year had a higher refund rate than the month before", "month", "up", "previous_period"),
        ]
    ],
    # the groups that moved one way, said as higher or lower than the period before
    *[
        (
            f"which groups moved, said with a comparative: {question}",
            question,
            {"premise_asked": "which", "dimensions": [dim], "premise": way, "comparison": {"kind": "previous_period"}},
        )
        for question, dim, way in [
            ("上个月哪几个渠道的GMV比前一个月高", "channel", "up"),
            ("which channels had more orders last month than the previous month", "channel", "up"),
            ("which regions had lower gmv last month than in the previous month", "region", "down"),
        ]
    ],
    *[
        (
            f"two periods that meet, added up: {question}",
            question,
            {"time_range": {"start": "2026-04-01", "end": "2026-05-31"}, "comparison": None},
        )
        for question in ["4月和5月的GMV加起来是多少", "GMV for April and May combined", "4月和5月GMV合计"]
    ],
    (
        "which groups had more in one named period than in another",
        "Which regions had more orders in June than in May?",
        {
            "premise_asked": "which",
            "premise": "up",
            "dimensions": ["region"],
            "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
        },
    ),
    (
        "the earlier period said first against the later: the first is asked about",
        "was gmv higher in May than in June",
        {
            "premise": "up",
            "time_range": {"start": "2026-05-01", "end": "2026-05-31"},
            "comparison": {"kind": "custom", "range": {"start": "2026-06-01", "end": "2026-06-30"}},
        },
    ),
    (
        "higher in one named period than in another: a yes/no of the first against the second",
        "was gmv higher in June than in May",
        {"premise": "up", "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}}},
    ),
    *[
        (
            f"the top period of each group: {question}",
            question,
            {"rank_within": ["channel"], "dimensions": ["channel"], "grain": "month", "top_n": 1, "order": "desc"},
        )
        for question in [
            "每个渠道今年GMV最高的月份",
            "今年每个渠道GMV最高的是哪个月",
            "each channel's best month by gmv this year",
        ]
    ],
    (
        "最高的是哪两个: which N after the superlative",
        "上个月GMV最高的是哪两个渠道",
        {"top_n": 2, "dimensions": ["channel"]},
    ),
    (
        "交叉 ranks the pairs",
        "上月GMV按渠道和区域交叉，前5",
        {"top_n": 5, "dimensions": ["channel", "region"], "rank_within": []},
    ),
    ("差几倍 is how many times", "5月买家数最多的渠道和最少的渠道差几倍", {"ratio": True, "dimensions": ["channel"]}),
    (
        "the top 3 months of each channel",
        "各渠道2025年GMV最高的3个月",
        {"rank_within": ["channel"], "dimensions": ["channel"], "grain": "month", "top_n": 3},
    ),
    *[
        (f"a unit the value is asked in is how it is written: {question}", question, {"metrics": ["gmv"]})
        for question in ["上个月GMV多少万元", "上个月GMV是多少亿", "what was gmv last month in rmb"]
    ],
    (
        "这周一共 is this week in total, no Monday",
        "这周一共卖了多少",
        {"metrics": ["gmv"], "time_range": {"start": "2026-06-29", "end": "2026-06-30"}},
    ),
    (
        "which of two members, said alone, is the top one",
        "华东和华南上个月GMV哪个高",
        {"top_n": 1, "dimensions": ["region"]},
    ),
    (
        "which is higher and by how much: the gap",
        "which is higher last month, app or web refund rate, and by how much",
        {"difference": True, "dimensions": ["channel"]},
    ),
    (
        "vs between Chinese words compares",
        "2025年上半年vs下半年GMV",  # side by side: the later half asked, against the earlier
        {"comparison": {"kind": "custom", "range": {"start": "2025-01-01", "end": "2025-06-30"}}},
    ),
    (
        "仅限 narrows like 只看",
        "仅限app和小程序，上个月各区域GMV",
        {
            "dimensions": ["region"],
            "filters": [{"dimension": "channel", "members": ["app", "mini_program"], "exclude": False}],
        },
    ),
    (
        "only A and B beside a breakdown is one subset",
        "只看app和小程序，上个月各区域GMV",
        {
            "dimensions": ["region"],
            "filters": [{"dimension": "channel", "members": ["app", "mini_program"], "exclude": False}],
        },
    ),
    (
        "only A and B, by another dimension",
        "only East and North China, categories with refund rate above 7% last month",
        {
            "dimensions": ["category"],
            "filters": [{"dimension": "region", "members": ["华东", "华北"], "exclude": False}],
        },
    ),
    (
        "A and B beside a breakdown, no only: each of them",
        "上个月app和小程序各区域GMV",
        {"dimensions": ["region", "channel"]},
    ),
    (
        "几倍 between two periods is the first over the second",
        "6月GMV是5月的几倍",
        {
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
            "ratio": True,
            "difference": False,
        },
    ),
    ("相差多少 is the gap", "上个月华东和华南的GMV相差多少", {"difference": True, "ratio": False}),
    ("差距多大 is the gap", "上个月华东和华南GMV差距多大", {"difference": True}),
    ("差别多大 is the gap", "上个月app和web订单量差别多大", {"difference": True}),
    ("the gap between A and B", "gap between app and web GMV last month", {"difference": True}),
    ("A beat B sets them side by side", "did app beat web on GMV last month", {"dimensions": ["channel"]}),
    (
        "N months ago is that calendar month",
        "GMV 2 months ago",
        {"time_range": {"start": "2026-05-01", "end": "2026-05-31"}},
    ),
    (
        "N weeks ago is that ISO week",
        "orders three weeks ago",
        {"time_range": {"start": "2026-06-08", "end": "2026-06-14"}},
    ),
    (
        "a compare word between a member and a period compares the periods",
        "Q2 refund rate for apparel vs Q1",
        {
            "comparison": {"range": {"start": "2026-01-01", "end": "2026-03-31"}},
            "filters": [{"dimension": "category", "members": ["服饰鞋包"], "exclude": False}],
        },
    ),
    (
        "the prior year is the same period a year earlier",
        "app gmv last month vs prior year",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-06-01", "end": "2025-06-30"}}},
    ),
    (
        "the previous year after a quarter",
        "q1 orders vs the previous year",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-01-01", "end": "2025-03-31"}}},
    ),
    (
        "the year before",
        "gmv for june this year vs june the year before",
        {"comparison": {"kind": "same_period_last_year"}},
    ),
    ("vs LY", "june gmv vs LY", {"comparison": {"kind": "same_period_last_year"}}),
    (
        "the previous month stays the previous period",
        "gmv last month vs the previous month",
        {"comparison": {"kind": "previous_period"}},
    ),
    (
        "may listed before a month is a month",
        "gmv for may and june respectively",
        {"comparison": {"range": {"start": "2026-05-01", "end": "2026-05-31"}}},
    ),
    ("may vs a month", "refund rate may vs april", {"time_range": {"start": "2026-05-01", "end": "2026-05-31"}}),
    ("may as a verb is no month", "may I see GMV last month", {"time_range": {"start": "2026-06-01"}}),
    ("a whole asked again without a member is the whole", "上个月GMV，全国呢", {"filters": [], "metrics": ["gmv"]}),
    (
        "may after 'how did' is the month",
        "how did May net revenue compare with the month before",
        {"time_range": {"start": "2026-05-01"}},
    ),
    ("may's is the month's", "June GMV is how many times May's", {"comparison": {"range": {"start": "2026-05-01"}}}),
    (
        "a fall said with force is the largest fall",
        "上个月GMV环比跌得最狠的是哪个区",
        {"rank_by": "change", "order": "asc", "top_n": 1},
    ),
    (
        "a rise said with force is the largest rise",
        "上个月哪个渠道订单量涨得最猛",
        {"rank_by": "change", "order": "desc", "top_n": 1},
    ),
    (
        "'In X,' opening a share question is its whole",
        "In East China, what share of last month's GMV came from new customers?",
        {
            "filters": [{"dimension": "region", "members": ["华东"]}],
            "share_filters": [{"dimension": "user_type", "members": ["new"]}],
        },
    ),
    (
        "'for X' right after a share's metric is its whole",
        "share of app in gmv for 华南 last month?",
        {
            "filters": [{"dimension": "region", "members": ["华南"]}],
            "share_filters": [{"dimension": "channel", "members": ["app"]}],
        },
    ),
    (
        "a period between the whole's member and its metric",
        "华东上个月GMV里新客占比多少",
        {
            "filters": [{"dimension": "region", "members": ["华东"]}],
            "share_filters": [{"dimension": "user_type", "members": ["new"]}],
        },
    ),
    (
        "a whole of another dimension in a later clause is no second figure",
        "East China GMV last month, all channels combined",
        {"filters": [{"dimension": "region", "members": ["华东"]}]},
    ),
    (
        "'For X,' with the whole named is X's share of it",
        "For East China, what share of total GMV last month does it make up?",
        {"filters": [], "share_filters": [{"dimension": "region", "members": ["华东"]}]},
    ),
    ("first place is the top one", "which channel was in first place by GMV last month", {"top_n": 1, "order": "desc"}),
    ("增长得最猛 is the largest rise", "上个月哪个渠道GMV增长得最猛", {"rank_by": "change", "order": "desc"}),
    ("who asks is no filter", "老板想知道上个月的GMV", {"metrics": ["gmv"], "filters": []}),
    ("may with its subject is no month", "may we get orders for June", {"time_range": {"start": "2026-06-01"}}),
    ("may opening a question is the month", "May GMV of app", {"time_range": {"start": "2026-05-01"}}),
    (
        "place as the verb of ordering",
        "how many orders did new customers place last month",
        {"metrics": ["order_count"]},
    ),
    *[
        (
            f"the verb of what is counted: {verb}",
            f"how many orders did each channel {verb} last month",
            {"dimensions": ["channel"]},
        )
        for verb in ("make", "get", "receive", "process", "handle", "record")
    ],
    ("may after 'for' is the month", "GMV for May by region", {"time_range": {"end": "2026-05-31"}}),
    ("a place said as 'in second place'", "which channel came in second place by GMV last month", {"rank_place": 2}),
    (
        "a top two's gap is the gap between the two",
        "最高的两个渠道上个月GMV差多少",
        {"top_n": 2, "difference": True, "comparison": None, "rank_by": "value"},
    ),
    (
        "a gap over a two-member breakdown is the gap between the two",
        "上个月新老用户GMV差了多少",
        {
            "dimensions": ["user_type"],
            "difference": True,
            "comparison": None,
            "filters": [{"dimension": "user_type", "members": ["new", "returning"], "exclude": False}],
        },
    ),
    (
        "a gap with a named comparison stays a change",
        "上个月各渠道GMV比上月差多少",
        {"comparison": {"kind": "previous_period"}, "difference": False},
    ),
    (
        "the dimension after an exclusion names the rest: one figure",
        "上个月除了app以外的渠道GMV",
        {"dimensions": [], "filters": [{"dimension": "channel", "members": ["app"], "exclude": True}]},
    ),
    (
        "… and its share of the whole",
        "上个月除了app以外的渠道GMV占比是多少",
        {
            "dimensions": [],
            "share": True,
            "share_filters": [{"dimension": "channel", "members": ["app"], "exclude": True}],
        },
    ),
    (
        "… each one when asked so",
        "上个月除了app以外的渠道GMV分别是多少",
        {"dimensions": ["channel"], "filters": [{"dimension": "channel", "members": ["app"], "exclude": True}]},
    ),
    (
        "MoM with no period is the latest whole month against the one before",
        "gmv mom by region",
        {
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "comparison": {"kind": "previous_period", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
        },
    ),
    (
        "周环比 with no period is last week",
        "各品类订单量周环比",
        {"time_range": {"start": "2026-06-22", "end": "2026-06-28"}},
    ),
    (
        "vs the previous N days",
        "gmv last 7 days vs the previous 7 days",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-06-17", "end": "2026-06-23"}}},
    ),
    (
        "the same quarter a year earlier",
        "web aov in q2 vs the same quarter a year earlier",
        {"comparison": {"kind": "same_period_last_year"}},
    ),
    (
        "a compare word beside a breakdown sets its groups side by side",
        "上个月新老用户GMV对比",
        {"dimensions": ["user_type"], "comparison": None},
    ),
    (
        "compare across a breakdown",
        "compare GMV across channels last month",
        {"dimensions": ["channel"], "comparison": None},
    ),
    (
        "不是 before a member excludes it",
        "上个月不是新用户的GMV",
        {"filters": [{"dimension": "user_type", "members": ["new"], "exclude": True}]},
    ),
    (
        "outside excludes",
        "gmv outside east china last month",
        {"filters": [{"dimension": "region", "members": ["华东"], "exclude": True}]},
    ),
    (
        "everything but excludes",
        "gmv for everything but app in may",
        {"filters": [{"dimension": "channel", "members": ["app"], "exclude": True}]},
    ),
    ("top N right after Chinese", "上个月top 3 品类 by GMV", {"top_n": 3, "dimensions": ["category"]}),
    ("是不是下降了 asks the change", "上个月GMV是不是下降了", {"comparison": {"kind": "previous_period"}}),
    (
        "降了多少个点 asks the change",
        "6月app新客转化率跟5月比降了多少个点",
        {"comparison": {"range": {"start": "2026-05-01"}}},
    ),
    (
        "the gap between the two ends of a ranking",
        "上个月GMV最高和最低的区域差多少",
        {"dimensions": ["region"], "difference": True, "comparison": None, "top_n": None, "intent": "ranking"},
    ),
    ("最高的比最低的高多少", "上月gmv最高的渠道比最低的高多少", {"difference": True, "comparison": None}),
    ("the highest as a multiple of the lowest", "上个月GMV最高的区域是最低的几倍", {"difference": True, "ratio": True}),
    ("差了几个百分点 is the gap", "上个月直播和APP的退款率差了几个百分点", {"difference": True, "comparison": None}),
    ("之比 is the ratio", "上个月app和web的GMV之比", {"difference": True, "ratio": True}),
    ("是…的百分之多少 is the ratio", "上个月华东GMV是华南的百分之多少", {"difference": True, "ratio": True}),
    ("是…的几成 is the ratio", "上个月华南订单量是华东的几成", {"difference": True, "ratio": True}),
    ("是…的多少 is the ratio", "上个月华东GMV是华南的多少", {"difference": True, "ratio": True}),
    ("divided by is the ratio", "app gmv divided by web gmv last month", {"difference": True, "ratio": True}),
    ("和上一年比 is year on year", "5月的买家数和上一年比", {"comparison": {"kind": "same_period_last_year"}}),
    (
        "compare with last year",
        "June signups compare with last year",
        {"comparison": {"kind": "same_period_last_year"}},
    ),
    ("a subject's drop is a fall", "did GMV drop last month", {"filters": [], "intent": "comparison"}),
    (
        "排除掉…后",
        "5月份排除掉家居日用后的优惠金额",
        {"filters": [{"dimension": "category", "members": ["家居日用"], "exclude": True}]},
    ),
    (
        "isn't a",
        "GMV last month from everyone who isn't a new customer, by category",
        {"filters": [{"dimension": "user_type", "members": ["new"], "exclude": True}], "dimensions": ["category"]},
    ),
    # members: broken down unless a total is asked; "加"/"plus" sum
    ("A比B多多少 compares members", "上个月华东的GMV比华南多多少", {"dimensions": ["region"], "comparison": None}),
    (
        "加 sums",
        "去年华东加华南一共卖了多少钱",
        {"dimensions": [], "filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}]},
    ),
    (
        "只看 narrows to the member it names",
        "只看APP，上个月各区域的订单量",
        {"dimensions": ["region"], "filters": [{"dimension": "channel", "members": ["app"], "exclude": False}]},
    ),
    (
        "分别 sets two periods side by side",
        "5月和6月的GMV分别是多少",
        {
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
        },
    ),
    ("三个区 restates the members", "华北、华中、东北三个区上个月的订单量各多少", {"dimensions": ["region"]}),
    ("哪个…高 ranks the members", "上个月华东和华南哪个GMV高", {"top_n": 1, "order": "desc"}),
    # rankings: every row, direction words, best/worst by the metric's `better`
    (
        "rank without N",
        "Rank the regions by GMV last month, lowest first",
        {"intent": "ranking", "order": "asc", "top_n": None},
    ),
    (
        "from highest to lowest",
        "rank categories by refund rate in Q2 2026, from highest to lowest",
        {"intent": "ranking", "order": "desc", "top_n": None},
    ),
    (
        "worst cancellation rate is the highest",
        "Which region was worst on cancellation rate last quarter?",
        {"top_n": 1, "order": "desc"},
    ),
    (
        "best conversion rate is the highest",
        "List all regions by conversion rate in Q2'26, best first",
        {"order": "desc", "dimensions": ["region"]},
    ),
    # periods
    (
        "Q2'26 and Q2'25",
        "How much did orders grow in Q2'26 compared with Q2'25?",
        {
            "time_range": {"start": "2026-04-01", "end": "2026-06-30"},
            "comparison": {"kind": "custom", "range": {"start": "2025-04-01", "end": "2025-06-30", "text": "Q2'25"}},
        },
    ),
    (
        "the last week of May",
        "Give me net revenue for the last week of May",
        {"time_range": {"start": "2026-05-25", "end": "2026-05-31"}},
    ),
    ("6月中旬", "6月中旬的订单量", {"time_range": {"start": "2026-06-11", "end": "2026-06-20"}}),
    (
        "year to date through the end of May",
        "Year to date through the end of May: discount amount by channel",
        {"time_range": {"start": "2026-01-01", "end": "2026-05-31"}},
    ),
    (
        "a failed period does not hide the next",
        "GMV last month vs June 2025",
        {"comparison": {"kind": "custom", "range": {"start": "2025-06-01", "end": "2025-06-30", "text": "June 2025"}}},
    ),
    ("on an event is its day", "GMV on Double 11 2025", {"time_range": {"start": "2025-11-11", "end": "2025-11-11"}}),
    ("an event's window", "今年618期间各渠道的GMV", {"time_range": {"start": "2026-06-01", "end": "2026-06-18"}}),
    ("an event's two-digit year", "25年双11当天GMV多少", {"time_range": {"start": "2025-11-11", "end": "2025-11-11"}}),
    (
        "same dates said twice are one period",
        "老板刚问我，618活动期间（6月1号到18号）直播渠道一共卖了多少钱，能帮忙查一下吗",
        {"time_range": {"start": "2026-06-01", "end": "2026-06-18"}},
    ),
    (
        "a change word over a series is the series",
        "我们最近有点担心取消率，帮我看看近4周每周的订单取消率有没有变高",
        {"grain": "week", "comparison": None},
    ),
    (
        "the change from one end of a range to the other",
        "从5月到6月GMV涨了多少",
        {
            "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
            "comparison": {"kind": "custom", "range": {"start": "2026-05-01", "end": "2026-05-31"}},
        },
    ),
    (
        "a dimension word before its exclusion names the set",
        "conversion rate for regions other than East China, last 7 days",
        {"dimensions": [], "filters": [{"dimension": "region", "members": ["华东"], "exclude": True}]},
    ),
    (
        "a dimension word with an exclusion later is a breakdown",
        "region GMV last month excluding east",
        {"dimensions": ["region"]},
    ),
    ("plural time units are a grain", "GMV last year by months", {"grain": "month"}),
    ("一起 is a total", "上个月华东和华南一起的GMV", {"dimensions": []}),
    # a ranking with several metrics ranks by the one its words attach to, put first
    ("'by X' ranks by X", "orders for the top 2 channels by AOV last month", {"metrics": ["aov", "order_count"]}),
    ("'X最高的' ranks by X", "上个月笔单价最高的两个渠道的订单量", {"metrics": ["aov", "order_count"], "top_n": 2}),
    ("'X前三' ranks by X", "上个月GMV前三的品类各自的退款率", {"metrics": ["gmv", "refund_rate"], "top_n": 3}),
    (
        "'highest X' ranks by X",
        "buyers in the 2 categories with the highest refund rate last month",
        {"metrics": ["refund_rate", "buyer_count"], "order": "desc"},
    ),
    (
        "'X最低的' ranks by X, lowest first",
        "上个月退款率最低的品类的订单量",
        {"metrics": ["refund_rate", "order_count"], "order": "asc"},
    ),
    # a money word is read with a money metric
    ("GMV amount", "GMV amount last month", {"metrics": ["gmv"]}),
    ("GMV金额", "上个月GMV金额", {"metrics": ["gmv"]}),
    # one place of a ranking: the row at that place, highest or lowest first
    (
        "排名第二",
        "上个月订单量排名第二的品类是哪个",
        {"rank_place": 2, "top_n": None, "order": "desc", "intent": "ranking"},
    ),
    ("倒数第二", "去年各品类GMV倒数第二的是哪个", {"rank_place": 2, "order": "asc"}),
    ("第二高", "上个月GMV第二高的区域", {"rank_place": 2, "order": "desc", "dimensions": ["region"]}),
    ("second highest", "which channel had the second highest GMV last month", {"rank_place": 2, "order": "desc"}),
    ("third-lowest", "third-lowest region by orders last month", {"rank_place": 3, "order": "asc"}),
    ("排名第一 is a top 1", "上个月GMV排名第一的渠道", {"rank_place": None, "top_n": 1}),
    ("best N periods", "best 3 months by GMV in 2025", {"grain": "month", "top_n": 3, "order": "desc"}),
    ("worst N periods follow the metric", "worst 2 months by refund rate in 2025", {"top_n": 2, "order": "desc"}),
    ("最后一名 is a bottom 1", "2026年6月GMV最后一名的区域", {"top_n": 1, "order": "asc", "dimensions": ["region"]}),
    (
        "vs same period last year",
        "last month GMV for new users vs same period last year",
        {"comparison": {"kind": "same_period_last_year"}},
    ),
    (
        "a hyphenated member",
        "which channel had the most new-user orders last month",
        {"filters": [{"dimension": "user_type", "members": ["new"], "exclude": False}], "top_n": 1},
    ),
    (
        "the week of an ISO day",
        "GMV in the week of 2026-06-24",
        {"time_range": {"start": "2026-06-22", "end": "2026-06-28"}},
    ),
    (
        "和上月相比 after that month itself: the month before it",
        "2026年6月GMV最高的区域，和上月相比",
        {"top_n": 1, "comparison": {"kind": "previous_period", "range": {"start": "2026-05-01", "end": "2026-05-31"}}},
    ),
    *[
        (f"both ends: {q}", q, {"top_n": None, "rank_place": None, "intent": "ranking", "order": "desc"})
        for q in [
            "2026年6月GMV最高和最低的区域分别是哪个",
            "Which regions had the highest and lowest GMV in June 2026?",
            "best and worst category by refund rate in Q2 2026",
            "上个月订单量最多和最少的渠道",
            "2025年GMV最高和最低的月份",
        ]
    ],
    ("a place over periods", "哪个月的GMV排名第二（今年）", {"rank_place": 2, "grain": "month", "top_n": None}),
    *[
        (f"'{said}' is a bottom 1", question, {"top_n": 1, "order": "asc", "dimensions": [dim]})
        for said, question, dim in [
            ("came last", "which region came last by GMV in June 2026", "region"),
            ("ranked last", "which channel ranked last for orders last month", "channel"),
            ("in last place", "which category was in last place by GMV last month", "category"),
        ]
    ],
    (
        "'ranked last month' is the month",
        "which region ranked last month highest by GMV",
        {"top_n": 1, "order": "desc"},
    ),
    # a share with an exclusion: what is excluded leaves the whole, what is named is the part
    (
        "excluded from a share's whole",
        "除了直播以外，APP的GMV占比多少（上个月）",
        {
            "filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}],
            "share_filters": [{"dimension": "channel", "members": ["app"], "exclude": False}],
        },
    ),
    (
        "a member's longer name gives way to its short name and the dimension word after it",
        "上个月华东区域gmv是多少啊",
        {"filters": [{"dimension": "region", "members": ["华东"], "exclude": False}], "metrics": ["gmv"]},
    ),
    (
        "two members side by side after an exclusion word are both taken out",
        "上个月不含华东华南的销售额",
        {"filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": True}]},
    ),
    (
        "a comma ends an exclusion before members of another dimension",
        "上个月除了直播，华东和华南的订单量分别是多少",
        {
            "filters": [
                {"dimension": "channel", "members": ["live_stream"], "exclude": True},
                {"dimension": "region", "members": ["华东", "华南"], "exclude": False},
            ]
        },
    ),
    (
        "a comma ends an English exclusion before members of another dimension",
        "june orders without new users, web and app only",
        {
            "filters": [
                {"dimension": "user_type", "members": ["new"], "exclude": True},
                {"dimension": "channel", "members": ["web", "app"], "exclude": False},
            ]
        },
    ),
    (
        "、 lists what an exclusion takes out, across dimensions too",
        "上个月除了直播、华东的GMV",
        {
            "filters": [
                {"dimension": "channel", "members": ["live_stream"], "exclude": True},
                {"dimension": "region", "members": ["华东"], "exclude": True},
            ]
        },
    ),
    (
        "a comma inside a list of one dimension's exclusions goes on",
        "excluding app, web and live stream, gmv last month",
        {"filters": [{"dimension": "channel", "members": ["app", "web", "live_stream"], "exclude": True}]},
    ),
    (
        "不看 takes a member out",
        "上个月不看新客的GMV",
        {"filters": [{"dimension": "user_type", "members": ["new"], "exclude": True}]},
    ),
    (
        "不要 takes two members side by side out",
        "上个月不要直播小程序的订单量",
        {"filters": [{"dimension": "channel", "members": ["live_stream", "mini_program"], "exclude": True}]},
    ),
    (
        "two members side by side after a space are both taken out",
        "上个月GMV exclude 华东 华南",
        {"filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": True}]},
    ),
    (
        "two members side by side before a closing exclusion word are both taken out",
        "上个月华东华南以外的GMV",
        {"filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": True}]},
    ),
    (
        "a kept member before an exclusion of two side by side",
        "上个月华东不含app小程序的GMV",
        {
            "filters": [
                {"dimension": "region", "members": ["华东"], "exclude": False},
                {"dimension": "channel", "members": ["app", "mini_program"], "exclude": True},
            ]
        },
    ),
    (
        "an exclusion alone is the part",
        "上个月非直播渠道的GMV占比",
        {"filters": [], "share_filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}]},
    ),
    # each group of the breakdown its own whole: the member named is the part
    *[
        (
            f"a share within each group: {rule}",
            question,
            {
                "filters": [],
                "share_filters": [{"dimension": part[0], "members": [part[1]], "exclude": False}],
                "dimensions": [within],
                "share_within": [within],
            },
        )
        for rule, question, within, part in [
            ("每个X的订单中", "2026年6月每个区域的订单中APP渠道占多少比例", "region", ("channel", "app")),
            ("每个X里", "上个月每个渠道里新用户GMV占比", "channel", ("user_type", "new")),
            (
                "for each X … its",
                "For each region, what percent of its June 2026 orders came from the app?",
                "region",
                ("channel", "app"),
            ),
            ("in each X", "new users' share of orders in each channel in June 2026", "channel", ("user_type", "new")),
        ]
    ],
    (
        "a member before each group's whole bounds it; the member marked the part is the part",
        "2026年6月华东每个品类的订单中直播占多少",
        {
            "filters": [{"dimension": "region", "members": ["华东"], "exclude": False}],
            "share_filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": False}],
            "share_within": ["category"],
        },
    ),
    (
        "each group its own whole, a second breakdown the parts",
        "每个区域的订单中各渠道占比（上个月）",
        {"share_filters": [], "dimensions": ["region", "channel"], "share_within": ["region"]},
    ),
    (
        "各X中 picks among the groups: the member filters the whole",
        "上个月华东地区各品类中哪个品类GMV占比最高",
        {"filters": [{"dimension": "region", "members": ["华东"], "exclude": False}], "share_within": []},
    ),
    (
        "the part's split across a breakdown",
        "APP的订单在各区域的占比（上个月）",
        {"filters": [{"dimension": "channel", "members": ["app"], "exclude": False}], "share_within": []},
    ),
    # a share's whole named with a member: it filters the whole, the other member is the part
    *[
        (
            f"the whole of a share: {rule}",
            question,
            {
                "filters": [{"dimension": whole[0], "members": [whole[1]], "exclude": False}],
                "share_filters": [{"dimension": part[0], "members": [part[1]], "exclude": False}],
                "corrections": [],
            },
        )
        for rule, question, whole, part in [
            ("X的订单中", "上个月新用户的订单中APP占比多少", ("user_type", "new"), ("channel", "app")),
            ("X地区里", "上个月华东地区里，新用户订单占比", ("region", "华东"), ("user_type", "new")),
            ("占X GMV", "上个月手机数码的GMV占华东GMV的比例", ("region", "华东"), ("category", "手机数码")),
            (
                "among X",
                "among new users, what percentage of orders came from the app last month",
                ("user_type", "new"),
                ("channel", "app"),
            ),
            (
                "of X GMV",
                "what percentage of East China GMV came from phones last month",
                ("region", "华东"),
                ("category", "手机数码"),
            ),
        ]
    ],
    # members of the breakdown's own dimension: the part, of the whole they do not filter
    *[
        (
            f"the breakdown's own members are the part: {rule}",
            question,
            {
                "filters": [],
                "share_filters": [{"dimension": dim, "members": members, "exclude": False}],
                "dimensions": [dim],
                "share_within": [],
            },
        )
        for rule, question, dim, members in [
            ("各X中A", "2026年6月各渠道中APP的GMV占比", "channel", ["app"]),
            ("每个X中A", "每个渠道中APP的GMV占多少（2026年6月）", "channel", ["app"]),
            ("各X中A和B", "2026年6月各区域中华东和华南的GMV占比", "region", ["华东", "华南"]),
            ("A占比，按X", "2026年6月华东GMV占比，按区域", "region", ["华东"]),
            ("A share by X", "app share of GMV by channel in June 2026", "channel", ["app"]),
            ("among Xs, A's share", "among channels, the app's share of GMV in June 2026", "channel", ["app"]),
        ]
    ],
    (
        "of A's metric, across a breakdown said after it",
        "what share of app orders came from each region in June 2026",
        {"filters": [{"dimension": "channel", "members": ["app"], "exclude": False}], "share_within": []},
    ),
    (
        "of X GMV by Y: the named whole broken down",
        "share of East China GMV by category in June 2026",
        {"filters": [{"dimension": "region", "members": ["华东"], "exclude": False}], "share_within": []},
    ),
    *[
        (f"'{said}' is the period ranked", question, {"grain": grain, "top_n": 1, "dimensions": []})
        for said, question, grain in [
            ("单日最高", "上个月单日最高订单量", "day"),
            ("单月最高", "去年单月最高GMV", "month"),
            ("是几月", "去年GMV最高的是几月", "month"),
            ("几号", "上个月几号GMV最高", "day"),
            ("what month", "what month had the highest gmv last year", "month"),
            ("a metric between the superlative and the period", "best orders week in 2025", "week"),
        ]
    ],
    ("a share of the whole names it", "今年每个月华东的订单量占全国的比例", {"share": True, "grain": "month"}),
    ("a why is no ranking", "why was the refund rate higher in q2", {"intent": "why", "top_n": None, "dimensions": []}),
    ("'total GMV by channel' is the breakdown", "total GMV by channel last month", {"dimensions": ["channel"]}),
    ("'by total GMV' ranks by the metric", "top 3 channels by total gmv last month", {"top_n": 3}),
    (
        "A、B加C is one list summed",
        "上个月华东、华南加华北的GMV合计",
        {"dimensions": [], "filters": [{"dimension": "region", "members": ["华东", "华南", "华北"], "exclude": False}]},
    ),
    ("the gap between two members", "上个月华东比华南的GMV多多少", {"difference": True, "dimensions": ["region"]}),
    (
        "the gap between two members, in English",
        "how many more orders did app get than web in may",
        {"difference": True},
    ),
    ("two members shown, no gap asked", "上个月华东和华南的GMV对比", {"difference": False, "dimensions": ["region"]}),
    (
        "a member before the first metric is of every metric",
        "上个月华东的GMV和订单量",
        {
            "metrics": ["gmv", "order_count"],
            "filters": [{"dimension": "region", "members": ["华东"], "exclude": False}],
        },
    ),
    (
        "a member among a metric's rows is where, not a second metric's own",
        "Which category had the highest AOV among live stream orders last quarter?",
        {"filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": False}], "top_n": 1},
    ),
    # a comma closes an exclusion's clause unless its list goes on to an "and"
    (
        "除了A，B: B is not excluded",
        "除了APP，小程序上个月的GMV",
        {
            "filters": [
                {"dimension": "channel", "members": ["app"], "exclude": True},
                {"dimension": "channel", "members": ["mini_program"], "exclude": False},
            ]
        },
    ),
    (
        "除了A，B和C以外: one list",
        "除了APP，小程序和网页以外，上个月的GMV",
        {"filters": [{"dimension": "channel", "members": ["app", "mini_program", "web"], "exclude": True}]},
    ),
    (
        "excluding A, B and C: one list",
        "excluding app, web and live stream, GMV last month",
        {"filters": [{"dimension": "channel", "members": ["app", "web", "live_stream"], "exclude": True}]},
    ),
    # the whole named as the set the members are listed in: one list, no whole asked beside them
    ("所有渠道中app和web", "上个月所有渠道中app和web的GMV", {"dimensions": ["channel"]}),
    ("全部品类中A和B", "上个月全部品类中家电和服饰的GMV", {"dimensions": ["category"]}),
    # a Chinese comma ends an exclusion unless 以外 closes the list after it
    (
        "除了A，B和C: C and B kept",
        "上个月除了华东，华南和华北的GMV分别是多少",
        {
            "filters": [
                {"dimension": "region", "members": ["华东"], "exclude": True},
                {"dimension": "region", "members": ["华南", "华北"], "exclude": False},
            ]
        },
    ),
    (
        "不含A，B of another dimension: B kept",
        "上个月不含直播，华东的GMV",
        {
            "filters": [
                {"dimension": "channel", "members": ["live_stream"], "exclude": True},
                {"dimension": "region", "members": ["华东"], "exclude": False},
            ]
        },
    ),
    # 仅 narrows, 且 / 并且 join conditions, 之和 / 加在一起 sum the members
    (
        "仅 before a member",
        "上个月仅老客的GMV",
        {"filters": [{"dimension": "user_type", "members": ["returning"], "exclude": False}]},
    ),
    (
        "且 joins two conditions",
        "上个月华东且app的GMV",
        {
            "filters": [
                {"dimension": "region", "members": ["华东"], "exclude": False},
                {"dimension": "channel", "members": ["app"], "exclude": False},
            ]
        },
    ),
    ("之和 sums the members", "上个月华东和华南之和的GMV", {"dimensions": []}),
    ("加在一起 sums the members", "上个月华东和华南加在一起的订单量", {"dimensions": []}),
    # 去年当月 / 当季: the same period last year as the one named
    (
        "去年当月",
        "5月GMV和去年当月比怎么样",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-05-01", "end": "2025-05-31"}}},
    ),
    (
        "去年当季",
        "二季度GMV比去年当季增长了多少",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-04-01", "end": "2025-06-30"}}},
    ),
    (
        "a YoY of a span from a point on",
        "6月10日起GMV同比",
        {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-06-10", "end": "2025-06-30"}}},
    ),
    ("总数 of another metric is no whole", "上个月APP的订单量和买家总数", {"metrics": ["order_count", "buyer_count"]}),
    (
        "除了A，B，其他: one list",
        "上个月除了华东，华南，其他区域的GMV",
        {"filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": True}]},
    ),
    # the top by value, then its change asked in a clause of its own
    (
        "最高的区域，环比增长了多少",
        "上个月GMV最高的区域，环比增长了多少",
        {"top_n": 1, "order": "desc", "rank_by": "value", "dimensions": ["region"]},
    ),
    (  # p65: a space between Chinese words ends a clause as a comma does
        "最高的地区 同比变化多少",
        "6月退款率最高的地区 同比变化多少",
        {"top_n": 1, "order": "desc", "rank_by": "value", "dimensions": ["region"]},
    ),
    (
        "the highest region, and how much did it grow",
        "the region with the highest GMV last month, and how much did it grow MoM",
        {"top_n": 1, "order": "desc", "rank_by": "value", "dimensions": ["region"]},
    ),
    ("增长最多 still ranks by the change", "上个月GMV环比增长最多的区域", {"rank_by": "change", "order": "desc"}),
    (
        "a share's parts listed as said",
        "上个月各渠道GMV占比，从低到高",
        {"share": True, "listed": "asc", "top_n": None},
    ),
    # more ways to leave a member out, and to say the top
    ("不在A", "上个月不在华东的GMV", {"filters": EAST_OUT}),
    ("撇开A", "撇开华东，上个月GMV是多少", {"filters": EAST_OUT}),
    ("拿掉A后", "拿掉华东后上个月的GMV", {"filters": EAST_OUT}),
    ("下过单: an aspect particle inside a term", "今年上半年有多少人下过单", {"metrics": ["buyer_count"]}),
    ("破一个亿", "上个月GMV有没有破一个亿？", {"threshold": {"metric": "gmv", "op": ">", "value": 100_000_000}}),
    ("剩下的 restates the exclusion", "上个月去掉华东，只看剩下的GMV", {"filters": EAST_OUT, "dimensions": []}),
    ("剩下区域 names the set left", "上个月去掉华东，剩下区域的GMV", {"filters": EAST_OUT, "dimensions": []}),
    ("just the rest", "last month's GMV excluding East China, just the rest", {"filters": EAST_OUT}),
    ("everything else", "GMV last month except East China, everything else", {"filters": EAST_OUT}),
    (
        "add them up: one figure of the members named",
        "GMV for East China and South China last month, add them up",
        {"filters": [{"dimension": "region", "members": ["华东", "华南"], "exclude": False}], "dimensions": []},
    ),
    (
        "barring A",
        "GMV last month barring live stream",
        {"filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}]},
    ),
    ("榜首", "上个月GMV榜首的渠道", {"top_n": 1, "order": "desc", "dimensions": ["channel"]}),
    ("#1", "which channel was #1 by GMV last month", {"top_n": 1, "order": "desc", "dimensions": ["channel"]}),
    ("number one", "the number one region by orders last month", {"top_n": 1, "order": "desc"}),
    ("头部N个", "上个月GMV头部3个品类", {"top_n": 3, "order": "desc", "dimensions": ["category"]}),
    # spoken counts and the bottom said with 前
    ("倒数前N", "上个月订单量倒数前三的品类", {"top_n": 3, "order": "asc", "dimensions": ["category"]}),
    ("后N名", "上个月GMV后三名的品类", {"top_n": 3, "order": "asc", "dimensions": ["category"]}),
    ("前仨", "上个月GMV前仨品类", {"top_n": 3, "order": "desc", "dimensions": ["category"]}),
    ("最低的俩", "上个月GMV最低的俩渠道", {"top_n": 2, "order": "asc", "dimensions": ["channel"]}),
    # a ranking of periods: the unit is the grain
    ("最高的N个月", "2025年GMV最高的3个月", {"grain": "month", "top_n": 3, "order": "desc", "dimensions": []}),
    ("最少的一天", "2026年6月订单量最少的一天", {"grain": "day", "top_n": 1, "order": "asc"}),
    ("最多的两周", "上个季度订单最多的两周", {"grain": "week", "top_n": 2, "order": "desc"}),
    ("top N days", "top 5 days by orders last month", {"grain": "day", "top_n": 5, "order": "desc"}),
    ("bottom N weeks", "bottom 2 weeks by GMV in 2026 Q2", {"grain": "week", "top_n": 2, "order": "asc"}),
    (
        "which N months … lowest",
        "which 3 months of 2025 had the lowest GMV",
        {"grain": "month", "top_n": 3, "order": "asc"},
    ),
    ("最高的月份", "2025年GMV最高的月份", {"grain": "month", "top_n": 1, "order": "desc"}),
    ("排名第N的一天", "2026年6月GMV排名第二的一天", {"grain": "day", "rank_place": 2, "top_n": None}),
    ("lowest week", "lowest week by orders in 2026 Q1", {"grain": "week", "top_n": 1, "order": "asc"}),
    ("前N个月 is no ranking", "最近3个月GMV最高的2个品类", {"grain": None, "top_n": 2, "dimensions": ["category"]}),
    (
        "combinations ranked as a whole",
        "上个月GMV最高的3个区域和品类组合",
        {"dimensions": ["region", "category"], "top_n": 3},
    ),
    (
        "pairs ranked as a whole",
        "top 3 region and channel pairs by GMV last month",
        {"dimensions": ["region", "channel"], "top_n": 3},
    ),
    (
        "ranked Nth-lowest is a place",
        "Which category ranked second-lowest by orders last month?",
        {"rank_place": 2, "order": "asc", "top_n": None},
    ),
    # words read as something else, always recorded
    (
        "one wrong character",
        "今年一季度的退宽率",
        {"corrections": [{"written": "退宽率", "read_as": "退款率", "kind": "typo"}]},
    ),
    (
        "a context clause is stated",
        "我在准备周会，想看下上周各个大区的成交额，顺便把订单量也带上，谢谢",
        {"metrics": ["gmv", "order_count"], "dimensions": ["region"]},
    ),
    # 前N / top N take the highest; a listing order only orders the rows shown
    ("前N with a listing order", "上个月GMV前三的地区，从低到高排", {"top_n": 3, "order": "desc", "listed": "asc"}),
    ("前N listed 升序", "上个月华东GMV前3的品类 从小到大", {"top_n": 3, "order": "desc", "listed": "asc"}),
    (
        "top N listed in ascending order",
        "top 5 categories by GMV last month in ascending order",
        {"top_n": 5, "order": "desc", "listed": "asc"},
    ),
    (
        "top N listed lowest first",
        "top 2 channels by orders last month, from lowest to highest",
        {"top_n": 2, "order": "desc", "listed": "asc"},
    ),
    (
        "bottom N listed highest first",
        "bottom 3 regions by GMV last month, highest first",
        {"order": "asc", "listed": "desc"},
    ),
    ("最高的N listed 升序", "上个月GMV最高的三个品类，升序", {"top_n": 3, "order": "desc", "listed": "asc"}),
    ("the top one has no listing order", "上个月GMV最高的品类，升序", {"top_n": 1, "order": "desc", "listed": None}),
    ("a listing in the ranking's own order", "上个月GMV最低的3个地区，从低到高", {"order": "asc", "listed": None}),
    ("a ranking of days listed apart", "上个月GMV最高的3天，从低到高", {"top_n": 3, "order": "desc", "listed": "asc"}),
    (
        "a ranking by a change listed apart",
        "上个月各地区GMV同比增速前两名，升序",
        {"top_n": 2, "rank_by": "change_pct", "order": "desc", "listed": "asc"},
    ),
    (
        "best follows the metric, listed apart",
        "上个月退款率最好的两个品类，从高到低",
        {"top_n": 2, "order": "asc", "listed": "desc"},
    ),
    (
        "the rest of an excluded member's dimension is ranked",
        "上个月非华东地区GMV最高的3个",
        {"top_n": 3, "dimensions": ["region"]},
    ),
    (
        "a ranking of days keeps an exclusion a filter",
        "上个月非app渠道GMV最高的一天",
        {"dimensions": [], "grain": "day"},
    ),
    ("非X渠道 names the set a ranking ranks", "上个月非app渠道GMV前两名", {"top_n": 2, "dimensions": ["channel"]}),
    ("a whole ranking lowest first", "上个月各地区GMV从低到高排名", {"top_n": None, "order": "asc", "listed": None}),
    ("总 before a metric over two members sums them", "上个月华东和华南总GMV", {"dimensions": [], "metrics": ["gmv"]}),
    ("总 before a ranking is the metric's name", "上个月总GMV最高的3个渠道", {"top_n": 3, "dimensions": ["channel"]}),
    ("各…总 is each group's", "上个月各渠道总GMV", {"dimensions": ["channel"], "top_n": None}),
    ("总X和Y: two totals", "上个月总GMV和订单量", {"metrics": ["gmv", "order_count"], "dimensions": []}),
    (
        "the highest and the lowest: one ranking",
        "上个月GMV最高和最低的渠道",
        {"dimensions": ["channel"], "top_n": None},
    ),
    ("a bare 排名 inside a member", "上个月华南各渠道GMV排名", {"dimensions": ["channel"], "asked_member": None}),
    ("a ranking said in two breaths", "GMV上个月，哪个渠道最高", {"dimensions": ["channel"], "top_n": 1}),
    ("ppl, and stuff bought", "how many ppl bought stuff on the mini progam last week", {"metrics": ["buyer_count"]}),
    (
        "各X的M，只看超过N: a filter",
        "上个月各渠道GMV，只看超过500万的",
        {"dimensions": ["channel"], "threshold": {"op": ">"}},
    ),
    (
        "a day of last month",
        "上个月5号的GMV",
        {"time_range": {"start": "2026-06-05", "end": "2026-06-05"}},
    ),
    ("a month/day date", "6/18的GMV", {"time_range": {"start": "2026-06-18", "end": "2026-06-18"}}),
    (
        "prev is never corrected into a metric",
        "prev month GMV",
        {"metrics": ["gmv"], "time_range": {"start": "2026-06-01"}},
    ),
    ("last 7d", "GMV last 7d", {"time_range": {"start": "2026-06-24", "end": "2026-06-30"}}),
    ("urgency is a filler", "老板要的，急，上个月GMV", {"metrics": ["gmv"], "dimensions": []}),
    (
        "a count after fastest",
        "上个月GMV环比增长最快的两个地区",
        {"top_n": 2, "rank_by": "change_pct", "order": "desc", "dimensions": ["region"]},
    ),
    (
        "谁高 right after the which-word",
        "上个月华东和华南GMV谁高",
        {"top_n": 1, "order": "desc", "dimensions": ["region"]},
    ),
    (
        "a count of groups without 'the'",
        "3 regions with the biggest MoM drop in GMV last month",
        {"top_n": 3, "rank_by": "change", "order": "asc", "dimensions": ["region"]},
    ),
    ("咋回事 asks why", "6月GMV咋回事", {"intent": "why", "metrics": ["gmv"]}),
    ("what happened to asks why", "what happened to GMV in June", {"intent": "why", "metrics": ["gmv"]}),
    ("1kw is ten million", "上个月GMV超过1kw的品类", {"threshold": {"op": ">", "value": 10_000_000}}),
    ("超N", "上个月订单量超2k的品类", {"threshold": {"op": ">", "value": 2_000}}),
    # a bound's scale is kept when a comma or a stop follows it
    ("万 then a comma", "上个月GMV超过1000万，按品类", {"threshold": {"op": ">", "value": 10_000_000}}),
    ("万 then a stop", "上个月各区域订单量超过1万.", {"threshold": {"op": ">", "value": 10_000}}),
    ("M then a comma", "regions with GMV over 5M, last month", {"threshold": {"op": ">", "value": 5_000_000}}),
    ("thousands grouped", "上个月订单量超过1,000的品类", {"threshold": {"op": ">", "value": 1_000}}),
    ("所有…都…吗: each one", "上个月所有渠道都有订单吗", {"dimensions": ["channel"], "threshold": None}),
    (
        "是什么 is no yes/no",
        "上个月各品类中GMV超过1000万的是什么",
        {"threshold": {"op": ">", "value": 10_000_000, "check": "keep"}},
    ),
    ("全渠道 is their total", "上个月全渠道GMV超过4000万吗", {"dimensions": []}),
    ("N+ is N or more", "上个月GMV 500w+ 的区域", {"threshold": {"op": ">=", "value": 5_000_000}}),
    ("a + between members is no bound", "上个月华东+华南的GMV", {"threshold": None}),
    ("B is a billion", "categories with GMV above 0.1B in 2025", {"threshold": {"op": ">", "value": 100_000_000}}),
    # colloquial moves and whys
    ("为啥掉了", "6月APP订单量为啥掉了", {"intent": "why", "premise": "down"}),
    ("怎么掉这么多", "GMV在6月份怎么掉这么多", {"intent": "why", "premise": "down"}),
    ("a dip", "what's behind the GMV dip in June?", {"intent": "why", "premise": "down"}),
    ("explain", "explain the June GMV decline", {"intent": "why", "premise": "down"}),
    ("是什么导致 is why", "是什么导致3月成交额比2月高？", {"intent": "why", "premise": "up"}),
    ("什么原因导致 is why", "什么原因导致4月转化率下降", {"intent": "why", "premise": "down"}),
    ("环比变了: a change, no direction", "2026年2月订单量为什么环比变了？", {"intent": "why", "premise": None}),
    (
        "一路走低 is down",
        "网页端5月转化率为什么一路走低？",
        {
            "intent": "why",
            "premise": "down",
            "filters": [{"dimension": "channel", "members": ["web"], "exclude": False}],
        },
    ),
    ("哪块拖累的 is why", "5月份GMV掉了，主要是哪块拖累的？", {"intent": "why", "premise": "down"}),
    ("what's driving", "what's driving the GMV drop in June?", {"intent": "why", "premise": "down"}),
    ("去掉 is no fall", "去掉直播后上个月GMV", {"premise": None, "intent": "value"}),
    ("拆一下 after a dimension", "近7天 GMV 按渠道拆一下", {"dimensions": ["channel"]}),
    ("按高到低", "上季度各区域GMV，按高到低", {"order": "desc", "top_n": None, "dimensions": ["region"]}),
    ("由低到高", "上个月各渠道GMV由低到高", {"order": "asc", "top_n": None, "dimensions": ["channel"]}),
    (
        "ex-member",
        "gmv ex-livestream last month",
        {"filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}]},
    ),
    ("a greeting to the bot", "hi bot, 上个月 orders 多少 thx", {"metrics": ["order_count"]}),
    ("1个亿 is a hundred million", "上个月GMV 1个亿以上的渠道", {"threshold": {"op": ">=", "value": 100_000_000}}),
    ("排列 is a ranking word", "上个月各地区GMV从低到高排列", {"intent": "ranking", "order": "asc"}),
    # "last June" alone is the latest June; set against a June it is the June a year before
    *(
        (
            f"last June against June: {q}",
            q,
            {
                "time_range": {"start": "2026-06-01", "end": "2026-06-30"},
                "comparison": {"kind": "same_period_last_year", "range": {"start": "2025-06-01", "end": "2025-06-30"}},
            },
        )
        for q in ("GMV in June compared with last June", "GMV this June vs last June", "last June vs June orders")
    ),
    ("last June alone", "GMV last June", {"time_range": {"start": "2026-06-01", "end": "2026-06-30"}}),
    # a comparison word set against a member after a member: the two side by side (tests/orchestrator)
    ("过了 before an amount is a bound", "上周哪些区域GMV过了200万", {"threshold": {"op": ">", "value": 2_000_000}}),
    ("涨了没 is a yes/no of a rise", "上周GMV环比涨了没", {"premise": "up", "premise_asked": "every"}),
    ("跌最多 ranks by the fall", "上周各品类GMV环比，哪个跌最多", {"rank_by": "change", "order": "asc"}),
    ("涨跌 is a change either way", "上周直播GMV和订单量环比分别涨跌多少", {"premise": None}),
    ("掉了多少 takes a fall for granted", "直播上个月GMV环比掉了多少", {"premise": "down"}),
    ("降低了多少 is a change", "上个月GMV降低了多少", {"comparison": {"kind": "previous_period"}}),
    *(
        (
            f"a run of days set against last year: {q}",
            q,
            {"comparison": {"kind": "same_period_last_year", "range": {"start": "2025-06-01", "end": "2025-06-18"}}},
        )
        for q in ("618期间GMV比去年低吗", "6月1日到18日的GMV比去年高吗")
    ),
    *(
        (
            f"which of two members, said after: {q}",
            q,
            {
                "dimensions": ["channel"],
                "filters": [{"dimension": "channel", "members": ["app", "web"], "exclude": False}],
                "top_n": 1,
                "order": order,
            },
        )
        for q, order in (
            ("which had more orders last month, app or web?", "desc"),
            ("which channel had fewer orders last month, app or web?", "asc"),
            ("which channel had higher GMV last month, app or web?", "desc"),
            ("上个月哪个渠道订单多，APP还是网页？", "desc"),
            ("上个月哪个渠道退款率低，app或者web", "asc"),
        )
    ),
    *(
        (
            f"a member said again after its pair: {q}",
            q,
            {"filters": [{"dimension": "channel", "members": ["app", "web"], "exclude": False}], "difference": True},
        )
        for q in ("6月APP和网页的GMV，APP比网页多多少", "app vs web GMV in June, and how much bigger is app")
    ),
    (
        "多卖了多少: the gap, the metric said after",
        "上个月APP比网页多卖了多少",
        {"difference": True, "metrics": ["gmv"]},
    ),
    (
        "最多卖了多少 is the top, never a gap",
        "上个月单日最多卖了多少钱",
        {"top_n": 1, "grain": "day", "difference": False},
    ),
    (
        "excluding a member that is also a metric's name",
        "GMV by region last month excluding new users",
        {"filters": [{"dimension": "user_type", "members": ["new"], "exclude": True}]},
    ),
    (
        "a bound said after both breakdowns is of the cells",
        "上个月各区域各渠道GMV超过100万的有哪些",
        {"dimensions": ["region", "channel"], "threshold": {"value": 1_000_000}},
    ),
    (
        "前一周 before a comparative",
        "上周日均订单量比前一周少多少",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-06-15", "end": "2026-06-21"}}},
    ),
    ("少了这么多 takes a fall for granted", "为什么上周GMV比前一周少了这么多", {"intent": "why", "premise": "down"}),
    (
        "a share's bound said of its part",
        "Did new users account for more than half of orders last month?",
        {
            "threshold": {"of": "share", "value": 0.5},
            "share_filters": [{"dimension": "user_type", "members": ["new"], "exclude": False}],
        },
    ),
    (
        "整个 before a member",
        "上个月整个华南的GMV",
        {"filters": [{"dimension": "region", "members": ["华南"], "exclude": False}]},
    ),
    # review s4: the readings added this session, each with its bound
    (
        "占比上个月 is no 比上个月",
        "网页GMV占比上个月同比",
        {"share": True, "comparison": {"kind": "same_period_last_year"}},
    ),
    ("move is a change", "how did app's share of GMV move last month", {"comparison": {"kind": "previous_period"}}),
    ("变化大吗 is no premise", "上个月GMV和上上个月比变化大吗", {"premise": None, "premise_asked": None}),
    (
        "a share's move asked yes or no",
        "did app's share of GMV grow last month",
        {"premise": "up", "premise_asked": "every"},
    ),
    ("by June GMV after a ranking", "top 3 channels by June GMV", {"top_n": 3, "time_range": {"start": "2026-06-01"}}),
    (
        "members before a possessive share, a bare metric after",
        "App new users' share of June orders",
        {"filters": [], "share_filters": [{"dimension": "channel"}, {"dimension": "user_type"}]},
    ),
    (
        "a value's move beside a share: no premise",
        "上个月华南GMV环比下降了吗，占全国的比例呢",
        {"premise": None, "share": True},
    ),
    (
        "a share's move said after 跟…比",
        "上个月app的GMV占比跟5月比下降了吗",
        {"premise": "down", "premise_asked": "every"},
    ),
    (
        "members before a possessive share, after a scope word",
        "what was app new users' share of June orders",
        {"share_filters": [{"dimension": "channel"}, {"dimension": "user_type"}]},
    ),
    (
        "a floor, then 哪个…最高？ in a clause of its own (最高？ is no yes/no)",
        "上个月订单量至少8000的品类里，哪个退款率最高？",
        {"top_n": 1, "threshold": {"metric": "order_count", "op": ">="}},
    ),
    (
        "a floor, then which two (its count no bound's which)",
        "Among categories with over 8000 orders in February, which two had the lowest refund rate?",
        {"top_n": 2, "order": "asc", "threshold": {"metric": "order_count"}},
    ),
    (
        "among those with a …",
        "top 3 categories by GMV in Q2 among those with a refund rate below 5%",
        {"top_n": 3, "metrics": ["gmv", "refund_rate"], "threshold": {"metric": "refund_rate", "op": "<"}},
    ),
    (
        "a floor said first",
        "上个月订单量超过8000的品类中退款率最高的2个",
        {"metrics": ["refund_rate", "order_count"], "top_n": 2, "threshold": {"metric": "order_count"}},
    ),
    # "both" of a sum is each member (an order is in one channel); of people it is asked (see ASKED)
    (
        "both members of a sum are each",
        "GMV on both app and web last month",
        {"dimensions": ["channel"], "filters": [{"dimension": "channel", "members": ["app", "web"]}]},
    ),
    ("'都' of a count asked of each", "上个月app和web都是多少买家", {"dimensions": ["channel"]}),
    ("a count's name in the singular before 'share'", "order share by region last month", {"share": True}),
    ("a place said with #", "which category ranked #2 by gmv in 2025", {"rank_place": 2, "order": "desc"}),
    ("'for both' is each", "show buyers for both app and web last month", {"dimensions": ["channel"]}),
    ("'都看一下' is each", "6月买家数app和web都看一下", {"dimensions": ["channel"]}),
    ("能到多少 of a past period is no forecast", "上个月单日GMV最高能到多少", {"top_n": 1, "grain": "day"}),
    ("能有多少 of a past period is no forecast", "上个月去掉直播GMV能有多少", {"filters": [{"exclude": True}]}),
    ("破 before a number", "单量破5000的品类有哪些（上个月）", {"threshold": {"op": ">", "value": 5000}}),
    ("a place said with # before a comma", "which channel was #2, by GMV last month", {"rank_place": 2}),
    ("moved as sold", "how many orders did the app move last month", {"metrics": ["order_count"], "comparison": None}),
    ("the numbers of a metric", "上个月GMV的数", {"metrics": ["gmv"], "dimensions": []}),
    (
        "moved with an adverb is a change",
        "how much exactly did GMV move last month",
        {"comparison": {"kind": "previous_period"}},
    ),
    (
        "前两个月 of a year is no comparison",
        "订单量今年前两个月减少了吗",
        {"time_range": {"start": "2026-01-01", "end": "2026-02-28"}},
    ),
    ("a count's plural name before 'by'", "order counts by region last month", {"metrics": ["order_count"]}),
    (
        "a dimension word naming the member after it",
        "my category (home appliances) refund rate in Q2",
        {"dimensions": []},
    ),
    (
        "a dimension word and a colon",
        "品类：家电，上个月退款率",
        {"dimensions": [], "filters": [{"members": ["家用电器"]}]},
    ),
    (
        "a period between a metric and its bound",
        "家电退款率上个月超过5%了吗",
        {"threshold": {"op": ">", "check": "all"}},
    ),
    ("到 a level, in a yes/no", "我们华东上个月GMV到1000万了吗", {"threshold": {"op": ">=", "value": 10_000_000}}),
    ("points of a fall", "华东app新用户转化率6月比5月掉了几个百分点", {"comparison": {"kind": "custom"}}),
    (
        "points of a change, against the month before",
        "华东上个月取消率多少，比前一个月变了几个百分点",
        {"comparison": {"kind": "previous_period"}},
    ),
    ("why fewer", "华南6月订单为什么少了", {"intent": "why", "premise": "down"}),
    ("moved as a change", "how much did GMV move last month", {"comparison": {"kind": "previous_period"}}),
    # review s8: answered again, as asked
    ("能有多少 of a span to date", "5月以来GMV能有多少", {"time_range": {"start": "2026-05-01", "end": "2026-06-30"}}),
    (
        "能有多少 of a past half year",
        "今年上半年GMV能有多少",
        {"time_range": {"start": "2026-01-01", "end": "2026-06-30"}},
    ),
    ("最高能到多少 so far is no forecast", "今年单日GMV最高能到多少", {"top_n": 1, "grain": "day"}),
    ("到 after a period", "GMV上个月到4000万了吗", {"threshold": {"op": ">=", "value": 40_000_000}}),
    ("到 after 是不是", "上个月GMV是不是到4000万了吗", {"threshold": {"op": ">=", "check": "all"}}),
    (
        "sold by region",
        "how many orders did the app move by region last month",
        {"dimensions": ["region"], "comparison": None},
    ),
    ("'compare … on both' is each", "compare buyers on both app and web last month", {"dimensions": ["channel"]}),
    ("points of a change, said plainly", "上个月退款率变了几个百分点", {"comparison": {"kind": "previous_period"}}),
    (
        "points higher than a month",
        "how many points higher than May was refund rate in June",
        {"comparison": {"kind": "custom"}},
    ),
    (
        "points higher than a member is their gap",
        "how many points higher was app's refund rate than web's last month",
        {"dimensions": ["channel"], "comparison": None},
    ),
    ("a place said as 'was second'", "which region was second by GMV last month", {"rank_place": 2}),
    (
        "May after 'of' is the month",
        "what share of May GMV came from new users outside East China",
        {"share": True, "time_range": {"start": "2026-05-01", "end": "2026-05-31"}},
    ),
    ("a place said with no.", "which region was no. 3 by orders last month", {"rank_place": 3}),
    ("#1 is still the top", "which channel was #1 by GMV last month", {"top_n": 1, "rank_place": None}),
    ("a report asked for is its figures", "出个6月报表：GMV、单量", {"metrics": ["gmv", "order_count"]}),
    (
        "a floor with no ranking lists the other metric",
        "refund rate by category last month among those with more than 8000 orders",
        {"metrics": ["refund_rate", "order_count"], "top_n": None, "threshold": {"metric": "order_count"}},
    ),
    (
        "a floor said before the metric listed",
        "上个月退款率超过5%的品类的订单量",
        {"metrics": ["order_count", "refund_rate"], "threshold": {"metric": "refund_rate"}},
    ),
    # p65: "per buyer GMV" is "GMV per buyer" said the other way round
    ("a ratio said per-first", "per buyer GMV in June", {"metrics": ["gmv_per_buyer"]}),
    ("a ratio said per-first, by its synonym", "per order GMV last month", {"metrics": ["aov"]}),
    (
        "who generated it is no breakdown",
        "how much GMV was generated by users on the app last month",
        {"dimensions": []},
    ),
    # p69: "食品不算" is an exclusion as "食品除外" is; "不算高" is no exclusion
    (
        "不算 after a member",
        "上月各渠道GMV，食品不算",
        {"dimensions": ["channel"], "filters": [{"dimension": "category", "members": ["食品生鲜"], "exclude": True}]},
    ),
    (
        "都不算 after a list",
        "上月各渠道GMV，直播和小程序都不算",
        {"filters": [{"dimension": "channel", "members": ["live_stream", "mini_program"], "exclude": True}]},
    ),
    ("不计入 before the rest", "食品不计入，上月各渠道GMV", {"filters": [{"dimension": "category", "exclude": True}]}),
    # the same period two years back, never the year before last as a whole
    (  # review s26: the months that remain are compared as months (环比 from February, not January 30)
        "a period left out compared",
        "Q2 GMV excluding June 环比",
        {"comparison": {"kind": "previous_period", "range": {"start": "2026-02-01", "end": "2026-03-31"}}},
    ),
    (
        "前年同期",
        "上个月GMV和前年同期比",
        {"comparison": {"kind": "custom", "range": {"start": "2024-06-01", "end": "2024-06-30"}}},
    ),
    (  # review s25: the year before last is counted from the as-of date, never from the period asked
        "前年同期 of last year's half",
        "去年上半年GMV和前年同期比",
        {"comparison": {"kind": "custom", "range": {"start": "2024-01-01", "end": "2024-06-30"}}},
    ),
    (
        "the same quarter two years earlier",
        "GMV in Q2 vs the same quarter two years earlier",
        {"comparison": {"kind": "custom", "range": {"start": "2024-04-01", "end": "2024-06-30"}}},
    ),
    (
        "the same month two years ago",
        "GMV last month vs the same month two years ago",
        {"comparison": {"kind": "custom", "range": {"start": "2024-06-01", "end": "2024-06-30"}}},
    ),
    # p69/p70: a period left out of the end of another is the days that remain, one run of them
    *[
        (f"a period left out: {question}", question, {"time_range": {"start": start, "end": end}, "filters": []})
        for question, start, end in [
            ("2026年上半年每月GMV，不含6月", "2026-01-01", "2026-05-31"),
            ("上半年GMV除了1月", "2026-02-01", "2026-06-30"),
            ("Q2 GMV excluding June", "2026-04-01", "2026-05-31"),
            ("GMV in Q2 2026 except April", "2026-05-01", "2026-06-30"),
            ("上个月GMV，6月1日除外", "2026-06-02", "2026-06-30"),
            ("2025年下半年GMV不含12月", "2025-07-01", "2025-11-30"),  # December of the year said
            ("不含6月的上半年GMV", "2026-01-01", "2026-05-31"),
            ("GMV in 2025 excluding December", "2025-01-01", "2025-11-30"),  # review s24: the year said apart
            ("this year GMV excluding January", "2026-02-01", "2026-06-30"),
            ("2025年GMV，不含上半年", "2025-07-01", "2025-12-31"),  # 上半年's 年 is no year of its own
            ("上半年的GMV，除6月外", "2026-01-01", "2026-05-31"),
        ]
    ],
    # review s24: the exclusion word of a period left out excludes no member after it
    *[
        (
            f"a member after a period left out is kept: {question}",
            question,
            {"time_range": {"start": start, "end": end}, "filters": [kept]},
        )
        for question, start, end, kept in [
            (
                "orders in Q2 2026 except June, app only",
                "2026-04-01",
                "2026-05-31",
                {"dimension": "channel", "members": ["app"], "exclude": False},
            ),
            (
                "Q2 GMV except June in East China",
                "2026-04-01",
                "2026-05-31",
                {"dimension": "region", "members": ["华东"], "exclude": False},
            ),
            (
                "上半年，不含6月，华东的GMV",
                "2026-01-01",
                "2026-05-31",
                {"dimension": "region", "members": ["华东"], "exclude": False},
            ),
            (
                "上半年除6月外华东的GMV",
                "2026-01-01",
                "2026-05-31",
                {"dimension": "region", "members": ["华东"], "exclude": False},
            ),
            (
                "GMV in 2025 excluding December, app only",
                "2025-01-01",
                "2025-11-30",
                {"dimension": "channel", "members": ["app"], "exclude": False},
            ),
            (
                "上半年GMV华东，6月除外",
                "2026-01-01",
                "2026-05-31",
                {"dimension": "region", "members": ["华东"], "exclude": False},
            ),
        ]
    ],
    (
        "的不算 after a member",
        "上月各渠道GMV，直播的不算",
        {"filters": [{"dimension": "channel", "members": ["live_stream"], "exclude": True}]},
    ),
]


@pytest.mark.parametrize(("rule", "question", "expected"), READ, ids=[r for r, _, _ in READ])
def test_the_question_is_read_so(rule: str, question: str, expected: dict[str, Any]) -> None:
    read = _read(question)
    for key, value in expected.items():
        assert _within(value, read[key]), (rule, key, read[key])


ASKED: list[tuple[str, str, type[BatonError], str]] = [
    ("every member with nothing more: one total or each?", "上周所有区域的笔单价", AmbiguousQuestion, "所有区域"),
    ("all of a dimension in English", "GMV of all regions last week", AmbiguousQuestion, "all regions"),
    ("groups that did not grow keep groups by their change", "上个月哪些品类GMV没有增长", AmbiguousQuestion, ""),
    ("a number of days that is not the period's length", "上周末三天的GMV", AmbiguousQuestion, "三天"),
    # two metrics with "/" and 分别: each one asked, never their ratio; an ambiguous word is never picked by a ratio
    ("a slash between metrics asked each", "上个月GMV/订单量分别是多少", AmbiguousQuestion, ""),
    ("an ambiguous word over a metric", "上个月收入除以订单量", AmbiguousQuestion, "收入"),
    # a ranking of periods inside one such period ranks one row: never "yes, June was the worst"
    ("one month ranked among months", "was june our worst month for orders this year?", AmbiguousQuestion, "june"),
    ("one day ranked among days", "昨天哪天GMV最高", AmbiguousQuestion, "昨天"),
    ("the event alone is its day or its window", "618的GMV", AmbiguousQuestion, "618"),
    ("a moment of last year is asked back", "去年这个时候GMV多少", AmbiguousQuestion, "这个时候"),
    ("a moment of last week is asked back", "上周这个时候的订单量", AmbiguousQuestion, "这个时候"),
    ("a member said of the second metric", "上个月APP的访客数和新用户订单量", AmbiguousQuestion, "新用户"),
    ("a member said of the second metric only", "上个月GMV和新用户订单量", AmbiguousQuestion, "新用户"),
    ("the rest with nothing taken out", "上个月剩下的GMV", AmbiguousQuestion, "剩下"),
    ("a rate of a member is named whole", "上个月直播率", UnknownMetric, "直播率"),
    (
        "the rest beside a member kept: a second figure",
        "上个月不算直播，华东和其余的GMV分别多少",
        AmbiguousQuestion,
        "其余",
    ),
    (
        "the rest of a top 3: the others, or all?",
        "上个月除手机数码外GMV前三的品类，剩下的呢",
        AmbiguousQuestion,
        "剩下",
    ),
    (
        "a member and nationwide: two figures",
        "GMV in East China and nationwide last month",
        AmbiguousQuestion,
        "nationwide",
    ),
    ("带 before no comparison is no filler", "上个月华东GMV带全国", AmbiguousQuestion, "带"),
    ("其中 of a top 5 already taken", "上个月GMV前5的品类，其中最低的", AmbiguousQuestion, "其中"),
    ("a person's phone number is no metric", "把上个月下单最多的用户手机号导出来", OutOfScope, "手机号"),
    (
        "phone numbers, one letter off a member",
        "Show me customer phone numbers for users in East China",
        OutOfScope,
        "phone numbers",
    ),
    ("email addresses", "list the email addresses of new users", OutOfScope, "email addresses"),
    ("a count by a person's data is read, not refused", "上个月绑定了手机号的新增用户数", AmbiguousQuestion, "绑定"),
    (
        "add them up beside a breakdown: each, or the sum?",
        "GMV by channel last month, add them up",
        AmbiguousQuestion,
        "add them up",
    ),
    ("add them up of a top 3", "top 3 categories by GMV last month, add them up", AmbiguousQuestion, "top 3"),
    ("the rest of a dimension with nothing taken out", "上个月剩下区域的GMV", AmbiguousQuestion, "region"),
    (
        "a member said of the second metric, in English",
        "gmv and new-user orders last month",
        AmbiguousQuestion,
        "new-user",
    ),
    *[
        (f"an end with no start: {said}", question, AmbiguousQuestion, said)
        for said, question in [
            ("累计到3月底", "累计到3月底的GMV"),
            ("至5月", "至5月的订单量"),
            ("到6月15日", "到6月15日各渠道的GMV"),
            ("up to March 31", "GMV up to March 31"),
            ("through end of March", "GMV through end of March"),
            ("as of June 15", "GMV as of June 15"),
            ("by end of April", "orders by end of April"),
        ]
    ],
    ("a change from a point on", "GMV从5月开始下降了多少", AmbiguousQuestion, "从5月开始"),
    ("the lowest and the second lowest at once", "上个月哪个区域的退款率最低，第二低的是谁", AmbiguousQuestion, "最低"),
    ("a comparison sorted: by value or change?", "上个月各渠道GMV环比，从低到高排", AmbiguousQuestion, "channel"),
    ("this month last year beside another period", "上个月GMV和去年这个月比", AmbiguousQuestion, "去年这个月"),
    ("the lowest overall, month by month", "上半年GMV最低的2个品类每个月的GMV", AmbiguousQuestion, "month"),
    (
        "a change from a point on, in English",
        "how much did orders grow from June 10 onwards",
        AmbiguousQuestion,
        "June 10 onwards",
    ),
    ("each and the total at once", "上个月华东和华北的订单量，分别和合计", AmbiguousQuestion, "in total"),
    ("the total of a top N", "total gmv of the top 3 categories last month", AmbiguousQuestion, "top 3"),
    ("a top N combined", "上个月GMV最高的3个品类合计多少", AmbiguousQuestion, "top 3"),
    ("a sum against a member", "is east china gmv bigger than north + south combined in may", AmbiguousQuestion, "sum"),
    (
        "a combined pair against a member",
        "app and web combined gmv vs mini program last month",
        AmbiguousQuestion,
        "sum",
    ),
    ("a share over two breakdowns", "channel mix of gmv for new vs returning users in june", AmbiguousQuestion, "each"),
    ("'per session' is no sort", "gmv per session by channel in may", UnknownMetric, "gmv per session"),
    *[
        (f"a member beside the whole: {said}", question, AmbiguousQuestion, "the whole")
        for said, question in [
            ("比整体高多少", "二季度家电的退款率比整体高多少"),
            ("比全国", "上个月华东的转化率比全国高多少"),
            ("than overall", "how much higher was east china's conversion rate than overall last month"),
            ("总GMV beside a member's orders", "上个月新用户的订单量和总GMV"),
            ("total GMV beside a member's orders", "orders from new users and total gmv last month"),
            ("整体退款率 beside a member's", "上个月家电的退款率和整体退款率"),
            ("全国和华东", "上个月全国和华东的GMV分别是多少"),
            ("app和全部渠道", "上个月app和全部渠道的退款率"),
            ("新用户和全部用户", "上个月新用户和全部用户的笔单价"),
            ("全部…以及新用户", "上个月全部订单量以及新用户订单量"),
            ("overall and for the app", "orders overall and for the app last month"),
            ("整体呢 in a later clause", "上个月家电的退货率是多少，整体呢"),
            ("全国呢 after a question mark", "华东上个月GMV多少？全国呢？"),
            ("and overall? in a later clause", "appliances refund rate last month, and overall?"),
            ("what about nationwide?", "East China GMV last month; what about nationwide?"),
        ]
    ],
    *[
        (f"each and the total: {said}", question, AmbiguousQuestion, "in total")
        for said, question in [
            ("以及全国合计", "上个月各区域GMV，以及全国合计"),
            ("和总计", "上个月每个渠道的GMV和总计"),
            ("and in total", "gmv by channel last month and in total"),
            ("each and combined", "app and web gmv last month, each and combined"),
        ]
    ],
    ("a gap among three members", "上个月华东、华南和华北的GMV差多少", AmbiguousQuestion, "two members"),
    *[
        (f"shares against another period, not built: {said}", question, AmbiguousQuestion, "inside each group")
        for said, question in [
            ("inside each group", "上个月每个区域内各渠道的GMV占比环比变化"),
            ("ranked by the value's change", "上个月GMV环比下降最多的两个品类及其占比"),
            ("ranked by the share's change", "上个月GMV占比下降最多的渠道"),
            ("a growth rate of a share", "上个月app的GMV占比同比增长率"),
        ]
    ],
    ("a breakdown by a word no catalog names", "GMV by place last month", AmbiguousQuestion, "place"),
    ("may with a chat pronoun is no month", "may u send me GMV by channel", AmbiguousQuestion, "may"),
    ("a top two set against the lowest", "上个月GMV最高的两个区域和最低的区域差多少", AmbiguousQuestion, "which way"),
    (
        "a top two set against the bottom one",
        "gap between the top two regions and the bottom region by GMV last month",
        AmbiguousQuestion,
        "which way",
    ),
    ("a top two set against a member", "上个月最高的两个区域和华北GMV差多少", AmbiguousQuestion, "rank"),
    *[
        (f"'last month' beside a named month of {rule}", question, AmbiguousQuestion, before)
        for rule, question, before in [
            ("去年", "去年12月GMV和上个月比", "2025-11-01~2025-11-30"),
            ("今年", "今年3月GMV和上个月比", "2026-02-01~2026-02-28"),
            ("去年, a quarter", "去年Q3 GMV和上季度比", "2025-04-01~2025-06-30"),
        ]
    ],
    (
        "a breakdown named before 'share of A's orders'",
        "which region had the highest share of app orders in June 2026",
        AmbiguousQuestion,
        "inside each group",
    ),
    ("'last Monday' on a Wednesday", "How many buyers did we have last Monday?", AmbiguousQuestion, "2026-06-22"),
    ("a bare event name", "去年双11的GMV", AmbiguousQuestion, "2025-11-11"),
    ("day or month first", "GMV on 6/5/2025", AmbiguousQuestion, "6/5/2025"),
    ("top and bottom at once", "top 3 and bottom 3 categories by GMV last month", AmbiguousQuestion, "two rankings"),
    ("the second best is not a place by value", "上个月第二好的渠道", AmbiguousQuestion, "第二好"),
    ("best of a metric without `better`", "worst channel by discount amount last month", AmbiguousQuestion, "better"),
    ("a series compared with a named period", "近7天每天GMV和前7天比", AmbiguousQuestion, "series"),
    ("a fiscal year the catalog does not define", "GMV in FY2025 by category", AmbiguousQuestion, "FY2025"),
    ("a two-character near miss is not corrected", "上个月各区遇的定单量", AmbiguousQuestion, "遇"),
    ("a number no reader placed", "GMV last month, not counting 5 orders", AmbiguousQuestion, "5"),
    ("a ratio the catalog lacks", "orders per buyer last quarter", UnknownMetric, "orders per buyer"),
    ("a metric-type character is another metric", "上个月的下单率", UnknownMetric, "下单率"),
    ("an action", "Send a coupon email to every user in East China", OutOfScope, "actions"),
    ("advice", "下个季度应该给直播渠道多少预算？", OutOfScope, "budgets"),
    ("a forecast", "预测下个月的GMV", OutOfScope, "does not forecast"),
    ("能有多少 of a running year is a forecast", "今年GMV能有多少", OutOfScope, "does not forecast"),
    ("what will a running year be", "what will this year's GMV be", OutOfScope, "does not forecast"),
    ("最终 of a running year", "今年GMV最终能有多少", OutOfScope, "does not forecast"),
    ("会是多少 of a month to come", "下个月GMV会是多少", OutOfScope, "does not forecast"),
    (
        "buyers in two members at once",
        "how many customers bought on both app and web in june",
        AmbiguousQuestion,
        "overlap",
    ),
    ("跌到 a level is never 'at least' it", "华东上个月GMV跌到1000万了吗", AmbiguousQuestion, ""),
    # review s7: each of these was answered as another question
    ("增加到 a level is no change bound", "上个月订单量增加到5万了吗", AmbiguousQuestion, ""),
    ("提升到 a level is no change bound", "上个月GMV提升到4000万了吗", AmbiguousQuestion, ""),
    ("people in two members, of both", "buyers of both app and web in june", AmbiguousQuestion, "overlap"),
    (
        "people in two members, beside a series",
        "buyers on both app and web each month this year",
        AmbiguousQuestion,
        "overlap",
    ),
    (
        "'did both … have': the overlap, or each?",
        "how many buyers did both app and web have last month",
        AmbiguousQuestion,
        "overlap",
    ),
    ("each member's move with no base", "APP和网页上个月GMV分别涨了多少", AmbiguousQuestion, ""),
    ("which grew more, of two members", "上个月APP的GMV比网页涨得多吗", AmbiguousQuestion, ""),
    ("again of people is no filler", "how many buyers came again last month", AmbiguousQuestion, "again"),
    ("a change between two members", "APP的退款率比网页变化了多少（上个月）", AmbiguousQuestion, "gap between the two"),
    ("变了几个点 between members", "APP的退款率比网页变了几个百分点（上个月）", AmbiguousQuestion, ""),
    ("a why of a share", "为什么上个月app的GMV占比下降了", AmbiguousQuestion, "not why a share"),
    ("a member said of a floor's metric", "上个月华东订单量超过2000的品类中退款率最高的2个", AmbiguousQuestion, "华东"),
    # a bound on another metric is no floor where it could bound something else (review s6)
    ("a per-day figure beside a floor", "上个月GMV超过500万的区域的日均订单量", AmbiguousQuestion, ""),
    (
        "'those' beside a count of people",
        "buyers by channel last month among those with more than 2 orders",
        AmbiguousQuestion,
        "",
    ),
    (
        "a total over the kept groups",
        "Among categories with more than 8000 orders, what was the overall refund rate last month",
        AmbiguousQuestion,
        "",
    ),
    ("整体 over the kept groups", "上个月订单量超过8000的品类的整体退款率", AmbiguousQuestion, ""),
    ("a member said of the bounded metric", "上个月APP GMV超过500万的区域的买家数", AmbiguousQuestion, ""),
    ("'order total' may be an amount", "what was the order total in June", AmbiguousQuestion, ""),
    ("a monthly report of a half year", "今年GMV月报", AmbiguousQuestion, ""),
    ("buyers in two members, said after", "上个月app和web都有的买家数", AmbiguousQuestion, "overlap"),
    ("a forecast said as an estimate", "预估一下下个月的GMV", OutOfScope, "does not forecast"),
    ("a forecast by a named month", "predict orders for July by channel", OutOfScope, "does not forecast"),
    ("about the data, not answerable", "下单超过3次的用户有多少", AmbiguousQuestion, "下单超过"),
    ("a per-person figure the catalog lacks", "上个月每人GMV多少", UnknownMetric, "每人GMV"),
    ("per a filler noun is still per", "GMV per user last month", UnknownMetric, "GMV per user"),
    ("per an article and a filler noun", "GMV per a user last month", UnknownMetric, "GMV per a user"),
    ("per a filler noun, broken down", "GMV per user by region last month", UnknownMetric, "GMV per user"),
    ("每 a filler noun before the metric", "上个月每用户GMV", UnknownMetric, "每用户GMV"),
    ("a comparison window of another length", "上个月GMV和之前3个月比", AmbiguousQuestion, "not as long"),
    ("periods of different lengths", "GMV last month versus last year", AmbiguousQuestion, "differ in length"),
    ("a week earlier for a long period", "今年GMV和上周同期比", AmbiguousQuestion, "a week"),
    ("other than nothing", "上个月其他渠道的GMV", AmbiguousQuestion, "Other"),
    ("a ranking of one member", "上个月华东GMV最高的区域", AmbiguousQuestion, "single member"),
    ("why two members differ", "why is GMV lower in east than south last month", AmbiguousQuestion, "two members"),
    ("a clause that narrows is not context", "老板只看线上，上个月GMV多少", AmbiguousQuestion, "只看线上"),
    (
        "each channel is a breakdown, not two periods side by side",
        "What was the total GMV in May and June for each channel?",  # each month's total, or both's?
        AmbiguousQuestion,
        "two periods",
    ),
    ("只看 what the catalog does not name", "只看大客户，上个月的GMV", AmbiguousQuestion, "大"),
    ("a comparison word with nothing to compare", "上个月GMV对比一下", AmbiguousQuestion, "对比"),
    ("a comparison word next to a member", "上个月GMV环比变化，跟华东比", AmbiguousQuestion, "比"),
    ("another metric's name is not a typo", "上个月的卖家数", UnknownMetric, "卖家数"),
    ("hourly data", "昨天分时GMV", AmbiguousQuestion, "分时"),
    (
        "a ranking by a change of no direction",
        "Which category had the biggest change in GMV last month?",
        AmbiguousQuestion,
        "change",
    ),
    ("a ranking by two metrics", "GMV和订单量最高的3个渠道（上个月）", AmbiguousQuestion, "which metric"),
    ("two comparisons at once", "上个月GMV同比和环比", AmbiguousQuestion, "two comparisons"),
    ("YoY and MoM at once", "What was GMV last month, YoY and MoM?", AmbiguousQuestion, "two comparisons"),
    ("a top percentage is no top N", "上个月GMV前10%的区域", AmbiguousQuestion, "10"),
    ("top 10 percent is no top 10", "top 10 percent of categories by GMV last month", AmbiguousQuestion, "10"),
    ("a metric as a condition on rows", "上个月有优惠的订单数", AmbiguousQuestion, "优惠"),
    (
        "a metric as a condition, in English",
        "GMV of orders with a discount last month",
        AmbiguousQuestion,
        "is a condition",
    ),
    ("a per-unit phrase before another metric", "上个月平均每单优惠多少", AmbiguousQuestion, "平均每单优惠"),
    ("money asked of a count", "上个月新订单的金额是多少，按渠道看订单量", AmbiguousQuestion, "asks for money"),
    ("an amount of a count", "orders amount last month", AmbiguousQuestion, "asks for money"),
    ("a share of two members, no whole named", "上个月华东新用户的GMV占比", AmbiguousQuestion, "a whole and a part"),
    (
        "last month from today beside a named month",
        "GMV in September 2025 compared with last month",
        AmbiguousQuestion,
        "2025-08-01~2025-08-31",
    ),
    (
        "上一季度 from today beside a named quarter",
        "2025年Q3的GMV和上一季度比",
        AmbiguousQuestion,
        "2025-04-01~2025-06-30",
    ),
    ("drop with no member after it", "orders by channel last week, drop the channel split", AmbiguousQuestion, "drop"),
    ("a part beside a breakdown", "app share of orders by region last month", AmbiguousQuestion, "inside each group"),
    ("a part beside a breakdown, in Chinese", "上个月各区域APP订单占比", AmbiguousQuestion, "each group"),
    ("two English member words side by side", "household appliances GMV last month", AmbiguousQuestion, "side by side"),
    ("the top of two keys, no group marked", "上个月GMV最高的区域和品类", AmbiguousQuestion, "within each group"),
    (
        "the top of two keys, both marked, in English",
        "top category by GMV for each region and each channel last month",
        AmbiguousQuestion,
        "within each group",
    ),
    ("a member kept and another excluded", "last month GMV for app excluding web", AmbiguousQuestion, "minus web"),
    ("A不含B of one dimension", "上个月app不含web的GMV", AmbiguousQuestion, "kept"),
    ("a ratio of a change", "上个月GMV增长了几倍", AmbiguousQuestion, "two members"),
    (
        "three listed months, may among them",
        "gmv in april, may and june respectively",
        AmbiguousQuestion,
        "more periods",
    ),
    ("jan, feb and mar", "orders in jan, feb and mar", AmbiguousQuestion, "more periods"),
    ("may left unread is never dropped", "gmv may", AmbiguousQuestion, "may"),
    ("a gap over a breakdown of many", "上个月各渠道GMV差多少", AmbiguousQuestion, "two members"),
    ("a metric said of a metric", "上个月新注册用户的GMV", AmbiguousQuestion, "新注册用户的GMV"),
    ("a metric of a metric, English", "GMV of new signups last month", AmbiguousQuestion, "GMV of new signups"),
    ("a metric's possessive", "new signups' GMV last month", AmbiguousQuestion, "said of another metric"),
    (
        "the share of a member in a metric, beside a breakdown",
        "share of new users in orders by channel last month",
        AmbiguousQuestion,
        "inside each group",
    ),
    (
        "a plural possessive share beside a breakdown",
        "new users' share of orders by channel last month",
        AmbiguousQuestion,
        "inside each group",
    ),
    ("环比 with no period or length", "GMV环比", AmbiguousQuestion, "time_range"),
    *[
        (f"a gap per month or inside each group: {q}", q, AmbiguousQuestion, "not built yet")
        for q in [
            "今年每月华东比华南多多少GMV",
            "monthly gap between app and web GMV in 2026",
            "每个月app GMV是web的几倍，今年",
            "今年每个月新老用户的GMV差距",
            "上个月各品类新老用户的GMV差多少",
            "by region, new minus returning orders in june",
        ]
    ],
    ("which day of each month", "2025年每个月哪天GMV最高", AmbiguousQuestion, "month × day"),
    ("the top days of each month", "2025年每个月GMV最高的3天", AmbiguousQuestion, "month × day"),
    ("the top of two named members", "上个月华东和华南GMV最高的品类", AmbiguousQuestion, "within each group"),
    (
        "a ranking by a list of metrics",
        "top 3 channels by GMV and orders last month",
        AmbiguousQuestion,
        "which metric",
    ),
    (
        "a ranking no metric is attached to",
        "上个月各渠道的GMV和订单量，从高到低排序",
        AmbiguousQuestion,
        "which metric",
    ),
    # members of two dimensions joined as a list: either, or each — never both at once
    ("'or' across two dimensions", "上个月华东或者直播渠道的GMV", AmbiguousQuestion, "members_of_two_dimensions"),
    ("'respectively' across two dimensions", "华东和直播上个月的GMV分别是多少", AmbiguousQuestion, "直播"),
    ("each of two dimensions", "app和华南各自上个月的订单量", AmbiguousQuestion, "华南"),
    ("a list past a metric's name", "华东的GMV和直播的GMV，上个月", AmbiguousQuestion, "members_of_two_dimensions"),
    (
        "'or' across two dimensions, in English",
        "orders last month where channel is app or category is beauty",
        AmbiguousQuestion,
        "different dimensions",
    ),
    (
        "'and for' across two dimensions",
        "GMV last month for East China and for live stream, respectively",
        AmbiguousQuestion,
        "live stream",
    ),
    # counting words said of an amount, and one metric over another
    ("'number of' an amount", "number of sales last month", AmbiguousQuestion, "count_of_an_amount"),
    ("'how many' of an amount", "how many sales in June", AmbiguousQuestion, "how many sales"),
    ("an amount's 'count'", "sales count by channel last month", AmbiguousQuestion, "sales count"),
    ("a period left out of the middle", "上个月GMV，不含6月18日", AmbiguousQuestion, "period_left_out_of_the_middle"),
    ("前年同期 and 同比 at once", "上个月GMV，同比和前年同期比", AmbiguousQuestion, "two comparisons"),
    ("前年同期 of a period in 前年", "2024年GMV和前年同期比", AmbiguousQuestion, "year_before_last_not_before"),
    ("大前年 is no 前年", "前年的GMV和大前年同期比", AmbiguousQuestion, "大"),
    # review s24: a member in the same exclusion as a period left out — that member in it, or both?
    *[
        (f"a period and a member left out: {q}", q, AmbiguousQuestion, "period_and_member_left_out")
        for q in [
            "GMV in H1 excluding June and live stream",
            "上半年的GMV，不含6月的直播",
            "上半年不含6月华东的GMV",
            "GMV in H1 excluding June, live stream and web",  # review s25: a comma list goes on
            "GMV in 2025 excluding December's live stream",
            "上半年GMV，直播和6月的都不算",  # a member before it in the same exclusion
            "GMV in Q2 2026 except June and also live stream",
            "上半年GMV，不含6月，以及直播",  # review s26: a Chinese comma then a join goes on
            "上半年GMV，不算6月跟直播",
            "H1 GMV excluding June together with live stream",
        ]
    ],
    (
        "a period left out of one not holding it",
        "2025年Q1 GMV excluding June",
        AmbiguousQuestion,
        "period_left_out_unplaced",
    ),
    ("不算 before another word", "上月华东的GMV不算高吧", AmbiguousQuestion, "不算高"),
    # p69: two words for one member, listed side by side, ask for two figures there is one of
    ("one member said twice", "web端和PC端上月订单量分别", AmbiguousQuestion, "one_member_said_twice"),
    ("one member said twice, in English", "orders last month for web and website", AmbiguousQuestion, "website"),
    ("'number of' a rate", "number of conversion last month", AmbiguousQuestion, "count_of_an_average"),
    ("'how many' of a rate", "how many conversion by channel in June", AmbiguousQuestion, "how many conversion"),
    ("one metric over another", "2025年Q4各渠道的优惠金额占GMV的比例", AmbiguousQuestion, "ratio_of_two"),
    (
        "one metric as a share of another",
        "discount as a share of GMV by channel last month",
        AmbiguousQuestion,
        "ratio",
    ),
    ("a metric among another's", "上个月新注册的用户里有多少人下了单", AmbiguousQuestion, "metric_as_a_word"),
    ("a metric for another, a period between", "GMV last month for buyers", AmbiguousQuestion, "metric_as_a_word"),
    (
        "a metric of another, a member between",
        "orders in East China for new signups last month",
        AmbiguousQuestion,
        "metric_as_a_word",
    ),
    ("a member in each group's share", "上个月APP在各区域的GMV占比", AmbiguousQuestion, "inside each group"),
    ("a difference said of two metrics", "gmv and net revenue difference last month", AmbiguousQuestion, "gap_of_two"),
    ("a difference said of two metrics, in Chinese", "GMV和净收入差多少（上个月）", AmbiguousQuestion, "gap_of_two"),
    (
        "an average of a rate across groups",
        "average aov across channels last month",
        AmbiguousQuestion,
        "average_across",
    ),
    ("a rate's name in the plural", "conversions last month", AmbiguousQuestion, "conversions"),
    ("a comparative against one period only", "is refund rate higher than last month", AmbiguousQuestion, "last month"),
    (
        "a comparative apart from its 'than'",
        "regions with higher refund rate than last month",
        AmbiguousQuestion,
        "higher",
    ),
    # "哪些…比上个月更高": the groups that rose — against last month, but of which period?
    (
        "a comparative after 比 with no period of its own",
        "哪些品类的退款率比上个月更高",
        AmbiguousQuestion,
        "time_range",
    ),
    ("A比B of two metrics", "上个月GMV比净收入高多少", AmbiguousQuestion, "gap_of_two"),
    ("every member taken out", "上个月不看新客老客的GMV", AmbiguousQuestion, "everything_excluded"),
    (
        "members of two dimensions side by side after an exclusion word",
        "上个月不含华东app的GMV",
        AmbiguousQuestion,
        "exclusion_across_dimensions",
    ),
    ("a ranking longer than Baton lists", "top 5000 categories by GMV last month", AmbiguousQuestion, "5000"),
    # a period said only as the base of a comparison is never the period asked about
    ("only the base, after 比", "GMV比5月变化了多少", AmbiguousQuestion, "only the period it compares with"),
    ("only the base, after 环比", "GMV环比5月", AmbiguousQuestion, "only the period it compares with"),
    ("only the base, after vs", "GMV change vs May", AmbiguousQuestion, "only the period it compares with"),
    ("only the base, a year", "GMV比去年增长了多少", AmbiguousQuestion, "only the period it compares with"),
    # a metric per member: a ratio, never the member's total
    ("per a member", "GMV per new user in June", AmbiguousQuestion, "per_member"),
    ("each of a member", "how much GMV does each new user bring in June", AmbiguousQuestion, "per_member"),
    ("每位 a member", "上个月每位老客的订单量", AmbiguousQuestion, "per_member"),
    # each member with its own period: a crosswise pair no one query answers
    (
        "members paired with periods",
        "Compare GMV for East China in May with South China in June",
        AmbiguousQuestion,
        "paired",
    ),
    ("members paired with periods, zh", "华东5月和华南6月的GMV对比", AmbiguousQuestion, "paired"),
    # groups kept by the way they moved: a filter on the change, never dropped
    ("one share of the top N", "what share of GMV came from the top 3 regions last month", AmbiguousQuestion, "top 3"),
    ("against the average", "二季度哪个品类退款率最高，比平均高多少", AmbiguousQuestion, "against_the_average"),
    ("above average", "which category had a refund rate above average in Q2", AmbiguousQuestion, "average"),
    # a ranking among the groups a ranking picked
    ("a ranking inside a ranking", "上个月GMV最高的5个区域里哪个最低", AmbiguousQuestion, "two_rankings"),
    (
        "a ranking inside a ranking, en",
        "of the top 5 regions by GMV last month, which is the lowest?",
        AmbiguousQuestion,
        "two_rankings",
    ),
    # a member's metric "在每个<dimension>的占比": inside each group, or across them?
    ("a part's share in each group, 中", "上个月新客的GMV在各渠道中的占比", AmbiguousQuestion, "inside each group"),
    ("a part's share in each group", "上个月新客GMV在每个渠道的占比", AmbiguousQuestion, "inside each group"),
    (
        "changed the most, no direction",
        "Which region's GMV changed the most last month?",
        AmbiguousQuestion,
        "which way",
    ),
    # "N月之前" is before month N, never "N months ago" (that is 个月前); "N日之前" before the Nth day
    ("a slash date whose day could be a month", "6/5的GMV", AmbiguousQuestion, "6/5"),
    ("a period compared with itself, zh", "6月GMV和6月比", AmbiguousQuestion, "same dates"),
    ("last month against its own month", "GMV last month vs June", AmbiguousQuestion, "same dates"),
    ("a month against the bare year before may mean the whole year", "6月GMV比去年低吗", AmbiguousQuestion, "去年"),
    ("more than a period is no ranking", "which channels had more orders than last month", AmbiguousQuestion, "more"),
    # "more" ranks only candidates named with "or": never the groups, never against a period
    ("more with no candidates", "which regions had more orders last month", AmbiguousQuestion, "more"),
    ("more compared with a period", "which channels had more orders compared with May?", AmbiguousQuestion, "more"),
    # a bound said of one breakdown's groups, then another breakdown: the first's totals, or the cells?
    (
        "a bound of regions, split by channel",
        "上个月GMV超过1000万的区域，按渠道拆开看",
        AmbiguousQuestion,
        "threshold_of_which_groups",
    ),
    (
        "a bound of regions, split, en",
        "regions with GMV over 10M last month, split by channel",
        AmbiguousQuestion,
        "region",
    ),
    ("before a month is not months ago", "5月之前gmv", AmbiguousQuestion, "之前"),
    ("before March is not three months ago", "3月之前各渠道gmv", AmbiguousQuestion, "之前"),
    ("before a day of the month is not days ago", "15日之前gmv", AmbiguousQuestion, "日之前"),
    ("总 of the groups a bound keeps beside them", "上个月GMV超过100万的品类的总GMV", AmbiguousQuestion, "their total"),
    ("总 of a top N", "上个月GMV前三的品类的总GMV", AmbiguousQuestion, "top 3"),
    # a count or place of none
    ("前0", "上个月GMV前0的品类", AmbiguousQuestion, "前0"),
    ("top 0", "top 0 categories by GMV last month", AmbiguousQuestion, "top 0"),
    ("第0", "上个月GMV排名第0的品类", AmbiguousQuestion, "排名第0"),
    # a bare week beside a week of a month: the year's week or the month's?
    ("第N周 beside 6月第3周", "为什么6月第3周的GMV比第2周低", AmbiguousQuestion, "week 2 of the year"),
    # a move said right before the groups keeps those that moved that way: a filter on the change
    # after 不含 / 排除 a member of the same dimension past a Chinese comma: excluded too, or the one asked?
    ("不含A，B of one dimension", "上个月不含直播，app和小程序的GMV", AmbiguousQuestion, "直播"),
    ("排除A，B of one dimension", "上个月排除华东，华南的GMV", AmbiguousQuestion, "华南 only"),
    # the whole, then a member, in clauses of their own: two figures, never the member's alone
    ("a total then members' values", "上个月GMV多少；app多少；web多少", AmbiguousQuestion, "app"),
    ("a metric then a member's", "上个月的退款率，以及家电品类的退款率", AmbiguousQuestion, "家电"),
    ("buyers then a region's", "上个月买家数，以及华东的买家数", AmbiguousQuestion, "华东"),
    # each group and the total, however the total is said
    ("each and the total", "June GMV for each channel and the total", AmbiguousQuestion, "total"),
    ("by a dimension, and the total", "orders last month by user type, and the total", AmbiguousQuestion, "total"),
    ("各区域和全国", "上个月各区域GMV和全国GMV", AmbiguousQuestion, "全国"),
    ("a total, then each", "6月新注册用户多少，各渠道分别多少", AmbiguousQuestion, "total"),
    (
        "a series and each one's total",
        "Q2 GMV by month for each channel, and Q2 total per channel",
        AmbiguousQuestion,
        "total",
    ),
    # a month's end or start said loosely, on its own: one day, or the days around it?
    ("end of May alone", "end of May GMV", AmbiguousQuestion, "2026-05-31"),
    ("5月底 alone", "5月底GMV", AmbiguousQuestion, "5月底"),
    # an average in a later clause than metrics asked plain
    ("月均 after plain totals", "去年全年GMV和订单量，以及月均GMV", AmbiguousQuestion, "月均"),
    ("总额 and each", "GMV总额和各渠道GMV，上个月", AmbiguousQuestion, "total"),
    ("total orders and each", "total orders and each channel's orders last month", AmbiguousQuestion, "total"),
    # the total of a metric and the metric by group, the metric named between
    ("总X和各Y的X", "上个月总GMV和各渠道GMV", AmbiguousQuestion, "总"),
    ("各Y的X和总X", "上个月各区域订单量和总订单量", AmbiguousQuestion, "总"),
    ("整体X和各Y的X", "上个月整体退款率和各品类退款率", AmbiguousQuestion, "整体"),
    ("total X and X by Y", "What was total GMV and GMV by channel last month?", AmbiguousQuestion, "total"),
    ("total X and X per Y", "total orders and orders per region in June", AmbiguousQuestion, "total"),
    # a total asked, then which group ranks first: two questions, never the ranking alone
    ("a total then which region", "上个月GMV多少，哪个区域最高", AmbiguousQuestion, "ranks first"),
    ("the top of the groups that fell", "上个月GMV环比下降的品类里GMV最高的", AmbiguousQuestion, "下降的品类"),
    ("only those that grew: a filter of rows", "上个月各品类GMV同比，只看增长的", AmbiguousQuestion, "kept_by_change"),
    ("a total then which, in English", "How much GMV last month and which region was top?", AmbiguousQuestion, "total"),
    (
        "total X and which Y was highest",
        "total GMV last month and which region was the highest?",
        AmbiguousQuestion,
        "total",
    ),
    ("总X以及最高的Y", "上个月总GMV以及最高的区域", AmbiguousQuestion, "total"),
    ("X总量以及X最多的Y", "上个月订单总量以及订单最多的渠道", AmbiguousQuestion, "total"),
    ("X, and the top Y", "what was last month's GMV, and the top region?", AmbiguousQuestion, "total"),
    # each group's value in a clause, then which of them pass a bound: two answers
    ("各X的M，哪些超过N", "上个月各渠道GMV，哪些超过500万", AmbiguousQuestion, "哪些超过500万"),
    ("各X的M多少，哪几个超过N", "上个月各区域GMV是多少，哪几个超过800万", AmbiguousQuestion, "哪几个"),
    ("各X的M，哪些环比下降超过N", "上个月各品类GMV，哪些环比下降超过15%", AmbiguousQuestion, "15%"),
    ("各X的M多少，低于N的有哪些", "上个月各渠道转化率多少，低于2%的有哪些", AmbiguousQuestion, "2%"),
    # a weekday after a week word: never the week, nor weekly rows ("一" is no filler there)
    ("第一个周一", "上个月的第一个周一各渠道订单", AmbiguousQuestion, "周一"),
    ("每周一", "上个月每周一的GMV", AmbiguousQuestion, "周一"),
    # a unit asked in another currency, or of no amount of money: never the figure as if converted
    ("多少万美元 of a CNY metric", "上个月GMV多少万美元", AmbiguousQuestion, "CNY"),
    ("in usd of a CNY metric", "what was gmv last month in usd", AmbiguousQuestion, "CNY"),
    ("多少万元 of a count", "上个月订单量多少万元", AmbiguousQuestion, "money"),
    # which periods moved, no span said: over which weeks? never the last week alone
    ("which weeks, no span", "which weeks saw orders decline week over week", AmbiguousQuestion, "time_range"),
    ("two periods apart, added up: the days between?", "3月和5月的GMV加起来", AmbiguousQuestion, "3月"),
    ("a total of each period, in two clauses", "4月GMV一共多少，5月一共多少", AmbiguousQuestion, "4月"),
    # a sum said over a series: each day's, or the period's? never the series with the sum dropped
    ("每天…加起来", "上周每天的GMV加起来是多少", AmbiguousQuestion, "加起来"),
    ("每天…合计", "上个月每天的订单量合计", AmbiguousQuestion, "合计"),
    ("monthly … in total", "monthly gmv this year in total", AmbiguousQuestion, "in total"),
    ("each period's total", "GMV for April and May, each in total", AmbiguousQuestion, "April"),
    ("每个星期一", "上个月每个星期一的订单量", AmbiguousQuestion, "星期一"),
    ("N月第一个周一", "5月第一个周一的GMV", AmbiguousQuestion, "周一"),
    # an English word written against Chinese is a name to place, never a filler
    ("us written against Chinese", "2020年3月us的GMV", AmbiguousQuestion, "us"),
    # a member's place asked among groups of another kind
    ("华南 among channels", "上个月华南GMV在各渠道里排第几", AmbiguousQuestion, "华南"),
    (
        "east china among channels",
        "where did east china rank among channels by GMV last month",
        AmbiguousQuestion,
        "east china",
    ),
    # review s4: a yes/no of the value beside a share, a member scoping a share's whole, "by" as until
    (
        "a value's move beside a share",
        "did South China's GMV grow last month vs May, and what share of the total was it?",
        AmbiguousQuestion,
        "share_or_value_moved",
    ),
    ("GMV占比和GMV都涨了吗", "华南的GMV占比和GMV上个月都涨了吗", AmbiguousQuestion, "share_or_value_moved"),
    ("a member after a share's metric", "app's share of June GMV in East China", AmbiguousQuestion, ""),
    ("by end of June with no ranking", "by end of June orders were how many", AmbiguousQuestion, "by end of June"),
    ("a bound said after a ranking", "上个月退款率最高的2个品类，订单量超过8000的", AmbiguousQuestion, "8000"),
    ("a member scoping a possessive share", "in East China app's share of June GMV", AmbiguousQuestion, ""),
    ("the widest gap is no top two", "上个月GMV差距最大的是哪两个区域", AmbiguousQuestion, "widest_gap"),
    (
        "the biggest gap is no top two",
        "which two regions had the biggest gap in GMV last month",
        AmbiguousQuestion,
        "biggest gap",
    ),
    # p61: "gmv and new users" read as the GMV of new users; listed, the word may be the second metric
    ("a metric-or-member listed after a metric", "gmv and new users last month", AmbiguousQuestion, "new users"),
    ("a top and a place at once", "今年GMV最高的一天和第二高的一天", AmbiguousQuestion, "two rankings"),
    (
        "a share of a rate, said with a percent sign",
        "cancel rate % of total by channel last month",
        AmbiguousQuestion,
        "rate",
    ),
    (
        "a metric-or-member listed before a metric",
        "new users and orders by channel last month",
        AmbiguousQuestion,
        "new users",
    ),
    # all time has no period before it, and "每月历史累计" may be a running total
    ("all time compared", "all time GMV vs last year", AmbiguousQuestion, "all time"),
    ("all time with a change", "历史累计GMV环比", AmbiguousQuestion, "历史累计"),
    ("a running total all time", "每月历史累计GMV", AmbiguousQuestion, "累计"),
    # p65: "per user GMV" was answered as GMV: "per user" is a value per an entity no term names
    ("a value per user", "per user GMV in H1", AmbiguousQuestion, "per user"),
    ("orders per customer said first", "per customer orders in June", AmbiguousQuestion, "per customer"),
    ("a value per head", "GMV per head last month", UnknownMetric, "GMV per head"),
    # s21: "each" is read as a breakdown word, the user left as filler
    ("a value of each user", "GMV of each user last month", AmbiguousQuestion, "each user"),
    ("every user said first", "every user GMV last month", AmbiguousQuestion, "every user"),
    ("orders from each user", "orders from each user in June", AmbiguousQuestion, "each user"),
    ("a value per-user", "GMV per-user last month", AmbiguousQuestion, "per-user"),
    ("a breakdown by user", "GMV by user last month", AmbiguousQuestion, "by user"),
    ("no data yet at the end of the latest months", "GMV last 3 months through this month", TimeExpressionError, ""),
    # s21: all time beside a period said is no comparison of two lengths: which one?
    ("all time beside a year", "best month ever in 2025 by GMV", AmbiguousQuestion, "ever"),
    ("历史 beside a year", "2025年历史最高的一天GMV", AmbiguousQuestion, "2025"),
]


@pytest.mark.parametrize(("rule", "question", "error", "named"), ASKED, ids=[r for r, _, _, _ in ASKED])
def test_the_question_is_asked_back_or_refused(rule: str, question: str, error: type[BatonError], named: str) -> None:
    with pytest.raises(error) as info:
        PLANNER.plan(question, as_of=AS_OF)
    assert named in info.value.message("en") or named in str(info.value.detail), (rule, info.value.message("en"))


def test_a_remembered_breakdown_never_replaces_a_dimension_the_question_names() -> None:
    """ "GMV for regions other than East China": the question names regions (as the set it keeps),
    so a user's remembered default (channel) does not become its breakdown."""
    query = PLANNER.plan("GMV for regions other than east china last month", as_of=AS_OF, default_breakdown="channel")
    assert query.dimensions == ()
    assert PLANNER.plan("GMV last month", as_of=AS_OF, default_breakdown="channel").dimensions == ("channel",)
    # "非华东地区GMV最高的3个": a ranking whose only member is excluded ranks the rest of its dimension
    ranked = PLANNER.plan("上个月非华东地区GMV最高的3个", as_of=AS_OF, default_breakdown="channel")
    assert ranked.dimensions == ("region",) and ranked.top_n == 3


def test_a_distribution_is_over_a_dimension_the_question_names() -> None:
    """ "按渠道分布" is a breakdown by channel; "笔单价分布" alone may mean a histogram of order
    values, so over which dimension is asked back, never a remembered default."""
    named = PLANNER.plan("上月新注册用户按渠道分布", as_of=AS_OF, default_breakdown="region")
    assert named.dimensions == ("channel",) and named.metrics == ("new_users",)
    for question in ("上个月笔单价分布", "上个月GMV分布情况"):
        with pytest.raises(AmbiguousQuestion) as info:
            PLANNER.plan(question, as_of=AS_OF, default_breakdown="channel")
        assert info.value.detail.get("missing") == "breakdown"
