"""The rule table: every time expression Baton reads, as a pattern and the handler that resolves it."""

from __future__ import annotations

import re

from baton import patterns
from baton.nlu.timeexpr.handlers import (
    _AMOUNT_AFTER,
    _UNIT_GRAIN,
    _ago_cn,
    _ago_en,
    _all_time,
    _current,
    _current_en,
    _day,
    _day_of_month_said,
    _day_span,
    _days_ago,
    _days_of_month,
    _days_of_week,
    _days_of_week_en,
    _dot_day,
    _edge_of_month,
    _first_months,
    _fortnight,
    _half,
    _half_of_month,
    _holiday,
    _iso_week,
    _last_n,
    _last_n_abbrev,
    _last_n_cn,
    _last_n_en,
    _last_named_month,
    _last_weekday_en,
    _month,
    _month_first_span,
    _month_listed_before,
    _month_pair,
    _month_span,
    _month_until_day,
    _part_of_month,
    _previous,
    _previous_en,
    _quarter,
    _same_day_last_month,
    _same_day_last_week,
    _same_day_last_year,
    _this_period_last_year,
    _us_day,
    _week_containing,
    _week_ending,
    _week_of_iso_day,
    _weekday_of_week,
    _weekend,
    _year,
    month_pair_last,
)
from baton.nlu.timeexpr.raw import _p, _Rule

_WD_EN = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)"
_DAYS_EN = (
    rf"(?:(?:the\s+)?weekdays|(?P<a>{_WD_EN})\s*(?:to|through|thru|till|until|-|–|—)\s*(?P<b>{_WD_EN})"
    rf"|(?:on\s+)?(?:the\s+)?(?P<one>{_WD_EN}))"
)
"""Days of a week said in English: "Monday to Friday", "Mon-Wed", "weekdays" (Monday to Friday)."""
_WEEK_EN = r"(?:(?P<wk>last|previous|this)\s+week|(?:the\s+)?(?P<wbl>week\s+before\s+last))"

_COUNT_BEFORE = patterns.compile(r"(?:(?<![A-Za-z])top|前|第|共)\s*$", re.IGNORECASE | re.ASCII)
_YEAR_ALONE = patterns.compile(r"(?:19|20)\d\d(?!\d)")


def _bare_year_ok(m: re.Match[str]) -> bool:
    """A 4-digit number is a year only when it stands alone (see the module docstring)."""
    text, start, end = m.string, m.start(), m.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if before and ((before.isascii() and (before.isalnum() or before in "_.$#/:'")) or before in "¥€£"):
        return False
    if before == "-" and not re.search(r"(?<!\d)(?:19|20)\d\d\s*$", text[: start - 1]):
        return False
    if after and after.isascii() and (after.isalnum() or after in "_%/:"):
        return False
    if after == "." and text[end + 1 : end + 2].isdigit():
        return False
    if after == "-" and not _YEAR_ALONE.match(text, end + 1):
        return False
    return not (_AMOUNT_AFTER.match(text, end) or _COUNT_BEFORE.search(text, 0, start))


_CN_WEEK = r"(?:周|星期|礼拜)"
_MONTH_WORD = (
    r"(?<![A-Za-z0-9])(?:january|february|march|april|may|june|july|august|september|october|november|december"
    r"|sept|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![A-Za-z])"
)
"""A month's English name, ungrouped: what a listed month word stands beside."""
_RULES: tuple[_Rule, ...] = (
    # comparison markers, not ranges
    _Rule("same_period_cn", _p(r"(?:去年|<UP>年|<UP>一年|<UP>个?月|<UP>周|<UP>个?季度)同期"), None),
    _Rule(
        "same_period_en",
        _p(
            r"<NB>same\s+(?:(?:\d{1,3}\s+)?(?:days?|weeks?)|period|time|dates|month|quarter)\s+(?:of\s+|in\s+)?(?:the\s+)?"
            r"(?:last|previous|prior)\s+(?:year|month|week|quarter)<NA>"
            r"|<NB>(?:last|previous|prior)\s+(?:year|month|week|quarter)(?:'s)?\s+same\s+(?:period|time|dates)<NA>"
        ),
        None,
    ),
    # single days relative to as_of
    _Rule(
        "same_day_last_year",
        _p(r"去年的?(?:今天|今日|同一天|这一?天)|<NB>(?:this|the\s+same)\s+day\s+last\s+year<NA>"),
        _same_day_last_year,
    ),
    _Rule(
        "same_day_last_month",
        _p(r"上个?月的?(?:今天|今日|同一天|这一?天)|<NB>(?:this|the\s+same)\s+day\s+last\s+month<NA>"),
        _same_day_last_month,
    ),
    _Rule(
        "same_day_last_week",
        _p(r"上个?(?:周|星期|礼拜)的?(?:今天|今日)|<NB>(?:this|the\s+same)\s+day\s+last\s+week<NA>"),
        _same_day_last_week,
    ),
    _Rule("today", _p(r"今天|今日|<NB>today<NA>"), _days_ago(0)),
    # every day there is: from the data's first day up to the as-of date ("highest GMV ever", 历史最高)
    _Rule(
        "all_time",
        _p(
            r"有史以来|(?:全部|所有)历史|历史(?:上|总计|以来|累计)|全部时间|所有时间|"
            r"(?:自|从)?(?:上线|开业|成立)以来|<NB>ever<NA>(?!\s+(?:since|before|after|again|so|more|less)\b)|"
            r"<NB>(?:(?:of|in|for|over)\s+)?all[- ]time<NA>|<NB>(?:over\s+(?:the|its|our)\s+)?(?:whole|entire)\s+history<NA>"
            r"|<NB>since\s+(?:the\s+)?(?:beginning|start|launch|inception)<NA>(?!\s+(?:of|in)\b)"
        ),
        _all_time,
    ),
    _Rule("yesterday", _p(r"昨天|昨日|<NB>yesterday<NA>"), _days_ago(1)),
    _Rule("day_before_yesterday", _p(r"前天|<NB>(?:the\s+)?day\s+before\s+yesterday<NA>"), _days_ago(2)),
    _Rule("three_days_ago", _p(r"大前天"), _days_ago(3)),
    # weekdays: 上周三 (the Wednesday of last week), 本周一, last Wednesday (the latest before today)
    _Rule(
        "weekday_week_before_last_cn",
        _p(r"<UP>上个?(?:周|星期|礼拜)(?:的?(?:周|星期|礼拜))?(?P<wd>[一二三四五六日天1-7])"),
        _weekday_of_week(2),
    ),
    _Rule(
        "weekday_last_week_cn",
        _p(r"<UP>(?:一个|一|个)?(?:周|星期|礼拜)(?:的?(?:周|星期|礼拜))?(?P<wd>[一二三四五六日天1-7])"),
        _weekday_of_week(1),
    ),
    _Rule(
        "weekday_this_week_cn",
        _p(r"(?:本|这个?|当)(?:周|星期|礼拜)(?:的?(?:周|星期|礼拜))?(?P<wd>[一二三四五六日天1-7])"),
        _weekday_of_week(0),
    ),
    _Rule(
        "weekday_en",
        _p(
            r"<NB>(?:last|past|previous|on|this)\s+(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday"
            r"|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)<NA>"
        ),
        _last_weekday_en,
    ),
    # last N days / weeks / months / quarters / years
    _Rule(
        "last_n_cn",
        _p(r"(?:最近|近|过去的?)\s*(?P<n><CNUM>)\s*(?P<u>天|日|个?(?:周|星期|礼拜)|个?(?:自然)?月|个?季度|个?季|年)"),
        _last_n_cn,
    ),
    # the past year: the twelve whole months before the current one, like 近一年 — and "over the
    # last year" (p75: a span back from now, never the calendar year "last year" names)
    _Rule(
        "past_year_en",
        _p(
            r"<NB>(?:the\s+)?(?:past|trailing)\s+year<NA>|(?:(?<=over\s)|(?<=in\s)|(?<=during\s)|(?<=across\s)|(?<=throughout\s))the\s+last\s+year<NA>"
        ),
        lambda m, ctx, text: _last_n("year", 1, ctx, text),
    ),
    # the last half year: the six whole months before the current one, like 近6个月
    _Rule(
        "last_half_year",
        _p(r"(?:最近|近|过去的?)\s*(?:半年|半个年)|<NB>(?:the\s+)?(?:last|past|previous|prior)\s+half[- ]year<NA>"),
        lambda m, ctx, text: _last_n("month", 6, ctx, text),
    ),
    _Rule(  # TTM / LTM: the trailing twelve whole months, as "the last 12 months" is
        "trailing_twelve_en",
        _p(r"<NB>(?:ttm|ltm)<NA>"),
        lambda m, ctx, text: _last_n("month", 12, ctx, text),
    ),
    _Rule(  # "the past week", "over the past month": the one before the current, as 过去一周 is
        "past_one_en",
        _p(r"<NB>(?:the\s+)?past\s+(?P<u>week|month|quarter)<NA>"),
        lambda m, ctx, text: _last_n(_UNIT_GRAIN[m.group("u").lower()], 1, ctx, text),
    ),
    _Rule(
        "last_n_en",
        _p(
            r"<NB>(?:last|past|previous|prev|prior|trailing)\s+(?P<n><ENUM>)\s*"
            r"(?P<u>days?|weeks?|months?|quarters?|years?|d|wks?|mths?|mos?|qtrs?|yrs?)<NA>"
        ),
        _last_n_en,
    ),
    # the current period's whole namesake a year back: 去年这个月, 去年本季度, "this month last year"
    # (去年当月 / 当季 is the same period of last year as the one discussed: a comparison word)
    _Rule(
        "this_period_last_year",
        _p(
            r"(?:去年|上一年)的?\s*(?:(?P<zh_w>本周|这周)|(?P<zh_m>本月份?|这个?月)|(?P<zh_q>本季度?|这个?季度))"
            r"|<NB>(?:this|the\s+current)\s+(?P<u>week|month|quarter)\s+(?:of\s+)?last\s+year<NA>"
        ),
        _this_period_last_year,
    ),
    # the current period, to date
    _Rule("this_week_cn", _p(r"本周|这周|这个?" + _CN_WEEK + "|本星期|本礼拜|当周"), _current("week")),
    _Rule(
        "this_month_cn", _p(r"本月份?|这个?月|当月|(?:本月)?月初(?=\s*(?:至今|以来|到现在|到目前))"), _current("month")
    ),
    _Rule("this_quarter_cn", _p(r"本季度?|这个?季度|当季度?|当前季度"), _current("quarter")),
    _Rule("this_year_cn", _p(r"今年|本年度?|(?:今年)?年初(?=\s*(?:至今|以来|到现在|到目前))"), _current("year")),
    _Rule(
        "this_period_en",
        _p(
            r"<NB>(?:(?:so\s+far\s+)?(?:this|current)\s+(?P<u>week|month|quarter|year|wk|mth|mo|qtr|yr)"
            r"|(?P<u2>week|month|quarter|year)[- ]to[- ]date"
            r"|(?:since|from)\s+the\s+(?:start|beginning)\s+of\s+(?:the|this)\s+(?P<u3>week|month|quarter|year)"
            r"(?:\s+(?:until|till|to|through)\s+(?:now|today|date))?)<NA>"
        ),
        _current_en,
    ),
    _Rule(
        "to_date_abbrev",
        _p(r"<NB>(?P<u>[wmqy])td<NA>"),
        _current_en,
    ),
    # weekends: 上周末 / last weekend (Saturday and Sunday of last week), 本周末 / this weekend
    _Rule(
        "weekend_before_last",
        _p(r"<UP>上个?周末|<NB>(?:the\s+)?weekend\s+before\s+last<NA>"),
        _weekend(2),
    ),
    _Rule("last_weekend", _p(r"<UP>个?周末|<NB>(?:last|past|previous)\s+weekend<NA>"), _weekend(1)),
    _Rule("this_weekend", _p(r"(?:本|这个?)周末|<NB>this\s+weekend<NA>"), _weekend(0)),
    # previous periods
    _Rule(  # "上周之前那周", "上周的前一周": the week before last, said of last week
        "week_before_last_cn",
        _p(
            rf"<UP>上个?{_CN_WEEK}|大上个?{_CN_WEEK}"
            rf"|<UP>(?:一个|一|个)?{_CN_WEEK}(?:(?:之前|以前|前)的?(?:那|那一|那个)|的前一个?){_CN_WEEK}"
        ),
        _previous("week", 2),
    ),
    _Rule("last_week_cn", _p(r"<UP>(?:一个|一|个)?" + _CN_WEEK), _previous("week", 1)),
    _Rule(  # "上个月之前那个月", "上个月的前一个月": the month before last
        "month_before_last_cn",
        _p(r"<UP>上个?月份?|<UP>(?:一个|一|个)?月(?:(?:之前|以前|前)的?那一?个?月|的前一个?月)"),
        _previous("month", 2),
    ),
    _Rule("last_month_cn", _p(r"<UP>(?:一个|一|个)?月份?"), _previous("month", 1)),
    _Rule("quarter_before_last_cn", _p(r"<UP>上个?季度"), _previous("quarter", 2)),
    _Rule("last_quarter_cn", _p(r"<UP>(?:一个|一|个)?季度?"), _previous("quarter", 1)),
    _Rule("last_year_cn", _p(r"(?:去年|<UP>一年|<UP>年)(?:度|全年|整年)?"), _previous("year", 1)),
    _Rule("year_before_last_cn", _p(r"前年(?:全年|整年)?"), _previous("year", 2)),
    _Rule(
        "previous_en",
        _p(
            r"<NB>(?:(?:last|previous|prev|prior|most\s+recent|latest)\s+(?:(?:full|complete|whole|entire)\s+)?"
            r"(?P<u>week|month|quarter|year|wk|mth|mo|qtr|yr)"
            r"|the\s+(?P<u2>week|month|quarter|year)\s+before\s+(?P<two>last))<NA>"
        ),
        _previous_en,
    ),
    # "两个月前" (one period; "三个月前至今" / "以来" / "到现在" extend it to the latest day, as "since 3
    # months ago" is; never the start of another range: "三个月前到上个月", "三个月前开始")
    _Rule(
        "ago_cn",
        _p(
            r"<CNB>(?P<n><CNUM>)\s*(?P<u>天|个?(?:周|星期|礼拜)|个月|个?季度)\s*(?:之前|以前|前)"
            r"(?!\s*(?:(?:至|到)(?!今|\s*(?:现在|目前|当前|今天|今日))|开始|起|的?[一二三四五六七八九十\d]))"
        ),
        _ago_cn,
    ),
    _Rule("ago_en", _p(r"<NB>(?P<n><ENUM>)\s+(?P<u>days?|weeks?|months?|quarters?|years?)\s+ago<NA>"), _ago_en),
    # future periods: recognised so that they fail loudly ("no data yet") instead of being ignored
    _Rule("next_week_cn", _p(r"<DOWN>(?:一个|一|个)?" + _CN_WEEK), _previous("week", -1)),
    _Rule("next_month_cn", _p(r"<DOWN>(?:一个|一|个)?月份?"), _previous("month", -1)),
    _Rule("next_quarter_cn", _p(r"<DOWN>(?:一个|一|个)?季度?"), _previous("quarter", -1)),
    _Rule("next_year_cn", _p(r"明年|下一年"), _previous("year", -1)),
    _Rule(
        "next_en",
        _p(r"<NB>next\s+(?P<u>week|month|quarter|year)<NA>"),
        lambda m, ctx, text: _previous(_UNIT_GRAIN[m.group("u").lower()], -1)(m, ctx, text),
    ),
    # ISO weeks: 2026年第23周, 第23周, week 23 of 2026, 2026-W23
    _Rule(
        "iso_week",
        _p(
            r"(?:(?:<YEAR_CN>)?第\s*(?P<w>\d{1,2}|[一二三四五六七八九十]{1,3})\s*(?:周|星期)"
            r"|<NB>(?:(?:(?P<y3>[12]\d{3})-?)?W(?P<w2>\d{1,2})|(?:week|wk)\.?\s*(?P<w3>\d{1,2})(?:<YEAR_SUF>)?)<NA>)"
        ),
        _iso_week,
    ),
    # quarters
    _Rule(
        "quarter_cn",
        _p(r"(?<!\d)(?:<YEAR_CN>)?(?:第?\s*(?P<q>[一二三四1-4])\s*季度|第\s*(?P<q2>[一二三四1-4])\s*季)"),
        _quarter,
    ),
    _Rule("quarter_nth_cn", _p(r"<YEAR_CN>的?\s*(?P<ord>第一个|首个|最后一个?)\s*季度"), _quarter),
    _Rule("quarter_q", _p(r"<NB>(?:<YEAR_PRE>)?Q(?P<q>[1-4])(?:<YEAR_SUF>)?<NA>"), _quarter),
    _Rule("quarter_nq", _p(r"<NB>(?P<q>[1-4])Q(?:\s*'?(?P<yy>\d{2})(?!\d)|\s*(?P<y2>[12]\d{3})(?!\d))<NA>"), _quarter),
    _Rule(
        "quarter_en",
        _p(r"<NB>(?P<ord>first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:<YEAR_SUF>)?<NA>"),
        _quarter,
    ),
    # a part of a month: the last week of May, the first week of June, 6月上旬/中旬/下旬, 5月最后一周
    _Rule(
        "week_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<nth>first|second|third|fourth|last|final)\s+week\s+of\s+<MONTH_EN>"),
        _part_of_month,
    ),
    _Rule(
        "part_of_month_cn",
        _p(
            r"<MONTH_CN>的?\s*(?:(?P<xun>上|中|下)旬|第(?P<nth>[一二三四1-4])(?:个)?(?:周|星期|礼拜)"
            r"|(?P<last>最后一)(?:个)?(?:周|星期|礼拜)|(?P<first>头一?|第一)(?:个)?(?:周|星期|礼拜))"
        ),
        _part_of_month,
    ),
    # the week a day falls in: the week of June 15, 6月15日那周 / 所在的那一周
    _Rule(
        "week_containing_en",
        _p(r"<NB>(?:the\s+)?week\s+of\s+<MON_ANY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d)(?:<YEAR_SUF>)?<NA>"),
        _week_containing,
    ),
    _Rule(
        "week_ending_en",
        _p(
            r"<NB>(?:the\s+)?(?:week|wk)\s+end(?:ing|ed|s)\s+(?:on\s+)?<MON_ANY>\.?\s+(?P<d>\d{1,2})"
            r"(?:st|nd|rd|th)?(?!\d)(?:<YEAR_SUF>)?<NA>"
        ),
        _week_ending,
    ),
    _Rule(
        "week_of_iso_day",
        _p(r"<NB>(?:the\s+)?week\s+of\s+(?P<iso>[12]\d{3}-\d{2}-\d{2})(?![\d-])"),
        _week_of_iso_day,
    ),
    _Rule(
        "week_containing_cn",
        _p(
            r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]\s*"
            r"(?:那|这|所在的?|所处的?)\s*(?:那|这)?\s*(?:一)?\s*(?:个)?\s*(?:周|星期|礼拜)"
        ),
        _week_containing,
    ),
    # a fortnight: the last two whole weeks, like 近两周
    _Rule("fortnight", _p(r"<NB>(?:the\s+)?(?:last|past|previous)\s+fortnight<NA>"), _fortnight),
    # L7D, L4W, L3M: the last N days, weeks or months
    _Rule("last_n_abbrev", _p(r"<NB>L(?P<n>\d{1,3})(?P<u>[DWM])<NA>"), _last_n_abbrev),
    # the first half of June, the last ten days of June, 6月上半月, the end of May, 5月底
    _Rule(
        "half_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<h>first|second|1st|2nd)\s+half\s+of\s+<MONTH_EN>"),
        _half_of_month,
    ),
    _Rule("half_of_month_cn", _p(r"<MONTH_CN>的?\s*(?P<h>上|下|前|后)半个?月"), _half_of_month),
    _Rule(
        "days_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<which>first|last)\s+(?P<n><ENUM>)\s+(?P<u>days|weeks)\s+of\s+<MONTH_EN>"),
        _days_of_month,
    ),
    _Rule(
        "edge_of_month_en",
        _p(r"<NB>(?:the\s+)?(?P<edge>end|start|beginning|first\s+day|last\s+day)\s+of\s+<MONTH_EN>"),
        _edge_of_month,
    ),
    _Rule(
        "edge_of_month_cn",
        _p(r"<MONTH_CN>(?:(?P<edge>底|末)|的?\s*(?P<edge2>第一天|首日|最后一天|最后1天|末日))"),
        _edge_of_month,
    ),
    _Rule(
        "days_of_week_cn",
        _p(
            r"(?P<wk>本|这个?|当|上上个?|上个?)(?:周|星期|礼拜)的?\s*(?P<which>前|头|后|最后)\s*(?P<n><CNUM>)\s*[天日]"
            r"(?![均])"
        ),
        _days_of_week,
    ),
    _Rule("days_of_week_en", _p(rf"<NB>(?:from\s+)?{_DAYS_EN}(?:\s+of|,)?\s+{_WEEK_EN}<NA>"), _days_of_week_en),
    _Rule("week_days_en", _p(rf"<NB>{_WEEK_EN}(?:'s)?,?\s+(?:from\s+)?{_DAYS_EN}<NA>"), _days_of_week_en),
    # after the edges: "上个月最后一天" is a day, not the last one day of a month
    _Rule(
        "days_of_month_cn",
        _p(
            r"<MONTH_CN>的?\s*(?P<which>前|头|后|最后|月初|月底|月末)(?:的|最后)?\s*(?P<n><CNUM>)\s*"
            r"(?:[天日]|个?(?P<u>周|星期|礼拜))"
        ),
        _days_of_month,
    ),
    _Rule("day_us", _p(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>[12]\d{3})(?![\d/])"), _us_day),
    # 6/18: month first, as both Chinese and US dates write it — only when the day cannot be a
    # month (6/5 could be May 6 written day first, and is left to be asked)
    _Rule("day_slash", _p(r"(?<![\d/.])(?P<m>1[0-2]|0?[1-9])/(?P<d>1[3-9]|2\d|3[01])(?![\d/.%])"), _day),
    # day first when only the day can be over 12 ("15/6": 15 June); "6/5" stays unread, either way round
    _Rule("day_slash_dm", _p(r"(?<![\d/.])(?P<d>1[3-9]|2\d|3[01])/(?P<m>1[0-2]|0?[1-9])(?![\d/.%])"), _day),
    # "6.12 订单量", "订单量 6.12": month.day beside Chinese words, as Chinese writes a date with a dot
    # (never a number: a unit, a percent or a multiple after it; "6.12." in German is 6 December)
    _Rule(
        "day_dot_cn",
        _p(
            r"(?:^|(?<=[\s，,。;；:：]))(?P<m>1[0-2]|0?[1-9])\.(?P<d>[12]\d|3[01]|0?[1-9])(?![\d.%％a-zA-Z])"
            r"(?!\s*(?:-|~|–|—|到|至)\s*\d)(?=\s?[\u4e00-\u9fff])"
            r"(?!\s?(?:万|亿|千|百|元|块|倍|个|次|人|单|件|以上|以下|左右|之间|以内))"
            r"|(?:(?<=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]\s))(?<![在过于到为是约破])(?<![在过于到为是约破]\s)(?P<m2>1[0-2]|0?[1-9])\."
            r"(?P<d2>[12]\d|3[01]|0?[1-9])(?=\s*(?:的|日|号|当天|那天|这天)|\s*[?？]?\s*$)"
        ),
        _dot_day,
    ),
    # the first N months (quarters) of a year: 今年前六个月, 2025年前三季度, the first six months of 2026
    _Rule(
        "first_months_cn",
        _p(
            r"(?:(?P<y>[12]\d{3})\s*年|(?P<yrel>今年|本年|去年|前年))的?\s*(?:前|头)\s*(?P<n><CNUM>)\s*"
            r"(?:个月|(?P<q>个?季度?))"
        ),
        _first_months,
    ),
    _Rule(
        "first_months_en",
        _p(
            r"<NB>(?:the\s+)?first\s+(?P<n><ENUM>)\s+(?:months|(?P<q>quarters))\s+of\s+"
            r"(?:(?P<y>[12]\d{3})|(?P<yen>this|current|last|previous)\s+year)<NA>"
        ),
        _first_months,
    ),
    # halves
    _Rule("half_cn", _p(r"(?:<YEAR_CN>)?(?P<h>上|下)半年度?"), _half),
    _Rule("half_h", _p(r"<NB>(?:<YEAR_PRE>)?H(?P<h>[12])(?:<YEAR_SUF>)?<NA>"), _half),
    # the finance shorthand, always with its year: 1H26, 2H 2025 (and 2Q26 below); a bare "1h" may be an hour
    _Rule("half_nh", _p(r"<NB>(?P<h>[12])H(?:\s*'?(?P<yy>\d{2})(?!\d)|\s*(?P<y2>[12]\d{3})(?!\d))<NA>"), _half),
    _Rule(
        "half_en",
        _p(
            r"<NB>(?P<h>first|second|1st|2nd)\s+half"
            r"(?!\s+of\s+(?:the\s+|this\s+|last\s+)?(?:month|week|quarter|day))"
            r"(?:\s+of\s+the\s+year|<YEAR_SUF>)?<NA>"
        ),
        _half,
    ),
    # months
    _Rule("month_cn", _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月份?"), _month),
    _Rule("month_numeric", _p(r"(?<![\d./])(?P<y>[12]\d{3})[-/](?P<m>0?[1-9]|1[0-2])(?!\d)"), _month),
    _Rule(  # "2026.6", "2026.06": a month with a dot, never a number ("2026.6万", "2026.6%", "2026.6.18")
        "month_dotted",
        _p(r"(?<![\d./])(?P<y>20\d{2})\.(?P<m>0?[1-9]|1[0-2])(?![\d%万亿千百元kKmMbB]|\.\d|\s*(?:万|亿|元|块))"),
        _month,
    ),
    _Rule("month_en_year", _p(r"<NB><MON_ANY><YEAR_SUF>"), _month),
    _Rule("month_en", _p(r"<NB><MON_SAFE>"), _month),
    _Rule("month_en_in", _p(r"<NB>(?:in|during|since)\s+(?P<t><MON_ANY>)"), _month),
    # "last December": the latest December before the as-of month
    _Rule("month_en_last", _p(r"<NB>(?:last|this\s+past)\s+<MON_ANY><NA>"), _last_named_month),
    _Rule(  # "may and june", "jan, feb and mar", "may vs april": a month word that is also a word, before a month
        "month_listed_before",
        _p(
            r"<NB>(?P<t>(?P<mn>may|mar|jan|dec))(?=\s*(?:,|，|、|/|&|and\b|or\b|vs\b\.?|versus\b|against\b"
            r"|compared\s+(?:with|to)\b)\s*(?:and\s+|or\s+)?" + _MONTH_WORD + ")"
        ),
        _month,
    ),
    _Rule(  # "april, may and june", "june or may": … or listed after one
        "month_listed_after",
        _p(_MONTH_WORD + r"\s*(?:,|，|、|/|&|and\b|or\b)\s*(?:and\s+|or\s+)?(?P<t>(?P<mn>may|mar|jan|dec))<NA>"),
        _month,
    ),
    _Rule(  # "orders by region, may": May alone after a comma, at the end of the question
        "month_may_alone",
        _p(r"(?<=[,，:：;])\s*(?P<t>(?P<mn>may))\s*[?.!]?\s*$"),
        _month,
    ),
    _Rule(  # "what about May?", "and for May?", "May?": May alone closing a (follow-up) question
        "month_may_closing",
        _p(r"(?:^\s*|<NB>(?:about|for)\s+)(?P<t>(?P<mn>may))\s*[?.!]?\s*$"),
        _month,
    ),
    _Rule(
        "month_en_against",
        _p(r"<NB>(?:vs\.?|versus|than|against|and|compared?\s+(?:with|to)|relative\s+to)\s+(?P<t>(?P<mn>may))<NA>"),
        _month,
    ),
    _Rule(  # "Compare June GMV to May": "to May" after "compare" is the other side, not a range's end
        "month_en_compare_to",
        _p(r"<NB>compare<NA>[^?.!;]{1,60}?<NB>(?:to|with)\s+(?P<t>(?P<mn>may))<NA>"),
        _month,
    ),
    _Rule(  # "May GMV vs April", "How does May GMV compare to April?": May opening a question (or
        # after "what was", "how does", "the") and set against another month is the month, not "may I"
        "month_may_against",
        _p(
            r"(?:^\s*|<NB>(?:what(?:'s|\s+(?:is|was|were))?|how\s+(?:does|did|do|was|is|were)|show(?:\s+me)?"
            r"|give\s+me|compare|the|is|was|were)\s+)(?P<t>(?P<mn>may))<NA>"
            r"(?!\s+(?:i|we|you|he|she|they|it|this|that|these|those|there|be|have|not|also|still)(?![A-Za-z]))"
            r"(?=[^?.!;]{1,60}?<NB>(?:vs\.?|versus|than|against|compared?\s+(?:with|to)|compare\s+(?:with|to))\s+<MON2>)"
        ),
        _month,
    ),
    _Rule(  # "May GMV of app", "what was May GMV by channel", "GMV for May by region", "share of May GMV": May
        # opening a question (or after "what was", "for", "of", "the") is the month unless a modal's subject or verb follows
        "month_may_opening",
        _p(
            r"(?:^\s*|<NB>(?:what(?:'s|\s+(?:is|was|were))?|how\s+(?:does|did|do|was|is|were)|show(?:\s+me)?"
            r"|give\s+me|the|for|of)\s+)(?P<t>(?P<mn>may))<NA>"
            r"(?!\s+(?:(?!by|vs|to|of|in|on)[a-z]{1,2}|you|she|they|this|that|these|those|there|have|not|also|still|well|need|want|ask|help"
            r"|get|see|know|check|pull|show|give|look|send|tell|our|your|his|her|their|someone|somebody|anyone"
            r"|anybody|one|please|pls|plz|kindly|request|view|access|share|run|find|use|take)(?![A-Za-z]))"
        ),
        _month,
    ),
    _Rule("month_may_possessive", _p(r"<NB>(?P<t>(?P<mn>may))(?='s\b)"), _month),  # "May's": the month's
    _Rule(  # "一二月", "十一二月份": two months in a row, said with one 月, the whole of both
        "month_pair_cn",
        _p(
            r"<CNB>(?<![周期拜第])(?:<YEAR_CN>)?(?P<m>十一|[一二三四五六七八九])(?P<m2>[二三四五六七八九十])月份?(?![\d一二三四五六七八九十])"
        ),
        _month_pair,
        lambda m: month_pair_last(m) is not None,
    ),
    _Rule(  # the "3" of "3、4月份", "2025年3、5月": a month listed before another with 、 and one 月,
        # two months as "3月、4月" are
        "month_listed_before_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?(?P<m>\d{1,2})(?=\s*、\s*\d{1,2}\s*月)"),
        _month_listed_before,
    ),
    _Rule(  # "6月截至20号", "2026年6月到20日": the month's first days, up to the day said
        "month_until_day_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月份?\s*(?:截至|截止到?|截止至|到|至)\s*<DCN2>\s*[日号]"),
        _month_until_day,
    ),
    _Rule(  # "June through the 20th", "June 2026 up to the 20th": an ordinal day, never "June to 20"
        "month_until_day_en",
        _p(
            r"<NB><MON_ANY>(?:<YEAR_SUF>)?\s+(?:through|thru|to|until|till|up\s+to)\s+(?:the\s+)?"
            r"(?P<d2>\d{1,2})(?:st|nd|rd|th)(?![A-Za-z\d])"
        ),
        _month_until_day,
    ),
    _Rule(
        "month_span_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*(?:月份?)?\s*(?:-|~|–|—|到|至)\s*<MCN2>\s*月份?"),
        _month_span,
    ),
    _Rule(
        "month_span_en",
        _p(r"<NB><MON_ANY>\s*(?:-|–|~|<NB>(?:to|through|until)\s)\s*<MON2>(?:<YEAR_SUF>)?"),
        _month_span,
    ),
    # days
    _Rule(
        "day_iso",
        _p(r"(?<![\d./])(?P<y>[12]\d{3})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?!\d)"),
        _day,
    ),
    # 20250301: a compact date, as systems print them (never part of a longer number, never a bare count)
    _Rule(
        "day_compact",
        _p(r"(?<![\d.,])(?P<y>(?:19|20)\d{2})(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?![\d.,%])"),
        _day,
    ),
    _Rule("day_cn", _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]"), _day),
    # a day of a month counted from the as-of month: 上个月5号, 上上个月的10日, 本月3号
    _Rule(
        "day_of_relative_month_cn",
        _p(r"(?P<rel><UP>上个?月份?|<UP>(?:一个|一|个)?月份?|本月份?|这个?月|当月)的?\s*<DCN>\s*[日号](?!\s*[至到~-])"),
        _day_of_month_said,
    ),
    _Rule(
        "day_en_month_first",
        _p(r"<NB><MON_ANY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?(?!\d|\s*(?:%|percent|per cent))(?:<YEAR_SUF>)?<NA>"),
        _day,
    ),
    _Rule(
        "day_en_day_first",
        _p(r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?<MON_NOMAY>(?:<YEAR_SUF>)?<NA>"),
        _day,
    ),
    _Rule(
        "day_en_day_first_may",
        _p(r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mn>may)\s*,?\s*(?P<y2>[12]\d{3})<NA>"),
        _day,
    ),
    _Rule(
        "day_en_may_first",
        _p(r"<NB>(?P<mn>may)\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*,?\s*(?P<y2>[12]\d{3})<NA>"),
        _day,
    ),
    _Rule(  # "May 1" with no year where a date is expected ("between May 1 and May 5", "on May 3")
        "day_en_may_in_context",
        _p(
            r"<NB>(?:between|from|on|since|until|till|through|to|and|vs\.?|versus|than)\s+"
            r"(?P<t>(?P<mn>may)\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?)(?!\d|,\s*\d)"
        ),
        _day,
    ),
    _Rule(
        "day_span_cn",
        _p(r"<CNB>(?:<YEAR_CN>)?<MCN>\s*月\s*<DCN>\s*[日号]?\s*(?:-|~|–|—|到|至)\s*<DCN2>\s*[日号]"),
        _day_span,
    ),
    _Rule(  # "6.1-6.15", "6.1到6.15": month.day, both ends in one month
        "day_span_dot",
        _p(
            r"(?<![\d.])(?P<m>1[0-2]|0?[1-9])\.<DCN>\s*(?:-|~|–|—|到|至)\s*(?:(?P=m)\.)?<DCN2>(?![\d.%％万千百亿倍元块个a-zA-Z])"
        ),
        _day_span,
    ),
    _Rule(  # "6/1-6/18", "5/20到6/10", "5.20-6.10": month first at both ends, which a day over 12 at
        # either end (or one month at both) says; "6/5-7/5" could be either way round and stays unread
        "day_span_month_first",
        _p(
            r"(?<![\d/.])(?P<m>1[0-2]|0?[1-9])(?P<sep>[/.])(?P<d>\d{1,2})\s*(?:-|~|–|—|到|至)\s*"
            r"(?P<m2>1[0-2]|0?[1-9])(?P=sep)(?P<d2>\d{1,2})(?![\d/.%％万千百亿倍元块个a-zA-Z])"
        ),
        _month_first_span,
        lambda m: int(m["d"]) > 12 or int(m["d2"]) > 12 or (m["sep"] == "/" and int(m["m"]) == int(m["m2"])),
    ),
    _Rule(  # "1-15 June", "1st to 15th of May": days of one month, the days said first
        "day_span_en_day_first",
        _p(
            r"<NB>(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|~|<NB>to<NA>)\s*(?P<d2>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
            r"<MON_ANY>(?:<YEAR_SUF>)?<NA>"
        ),
        _day_span,
    ),
    _Rule(
        "day_span_en",
        _p(
            r"<NB><MON_ANY>\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?\s*(?:-|–|~)\s*(?P<d2>\d{1,2})(?:st|nd|rd|th)?"
            r"(?!\d)(?:\s*,?\s*(?P<y2>[12]\d{3})(?!\d))?<NA>"
        ),
        _day_span,
    ),
    # holidays on a fixed day: 2025年圣诞节, Christmas Day 2025, New Year's Day last year
    _Rule(
        "holiday",
        _p(
            r"(?:<YEAR_PRE>)?(?:(?P<new_year>元旦|<NB>new\s+year'?s\s+day<NA>)|(?P<valentine>情人节"
            r"|<NB>valentine'?s(?:\s+day)?<NA>)|(?P<halloween>万圣节|<NB>halloween<NA>)"
            r"|(?P<christmas_eve>平安夜|<NB>christmas\s+eve<NA>)|(?P<christmas>圣诞节?|<NB>christmas(?:\s+day)?<NA>))"
            r"(?:当天|那天)?(?:<YEAR_SUF>)?"
        ),
        _holiday,
    ),
    # years
    _Rule(
        "year_cn",
        _p(
            r"(?<!\d)(?:(?P<y>[12]\d{3})|(?P<ycn>[〇零一二三四五六七八九]{4}))\s*(?:年(?:度|全年|整年)?|全年|整年)"
            r"|(?<![\d.近前后第])(?P<ys>\d{2})年(?:度|全年|整年)?(?![以之内来间])"
        ),
        _year,
    ),
    _Rule("year_bare", _p(r"(?P<y>(?:19|20)\d\d)"), _year, _bare_year_ok),
)

# "X以来", "X至今", "X起", "从X开始", "X so far", "X to date", "X onwards": from the start of X to the
# latest complete day (the planner asks back a change said from a point on: "从5月开始下降了多少").
_UNTIL_NOW = _p(
    r"\s*(?:以来|至今(?!年)|迄今|(?:到|至|直到|截至|截止到?)\s*(?:今天|今日|现在|目前|当前)(?:为止)?"
    r"|(?:起|开始)(?!\s*(?:算|了|的?时候?|之前|以前|前|以来))"
    r"|(?:up\s+)?(?:to|until|till|through)\s+(?:today|now|date)<NA>|so\s+far<NA>|to\s+date<NA>"
    r"|onwards?<NA>|and\s+(?:after|later)<NA>)"
)
_SINCE_BEFORE = _p(r"<NB>since\s+(?:the\s+(?:start|beginning)\s+of\s+)?$")
_NOW_BEFORE = _p(r"(?:(?:截至|截止到?|到|至)\s*(?:今天|今日|现在|目前|当前)|迄今)(?:为止)?\s*[,，]?\s*$")
"""Before a period still running, "as it stands today": "截至目前，今年" is this year to date. Before
a finished one ("截至目前去年的GMV") it says nothing of the period's days, so it is left unread."""
_FROM_BEFORE = _p(r"(?:自从|自|从|<NB>from\s+)\s*$")
_RANGE_JOIN = _p(r"\s*(?:-|~|–|—|截至|截止到?|截止至|直到|到|至|<NB>(?:to|through|thru|until|till)<NA>)\s*")
_AND_JOIN = _p(r"\s*<NB>and<NA>\s*")
_BETWEEN_BEFORE = _p(r"<NB>between\s+$")
_RANGE_PREFIX = _p(r"(?:从|自|由|<NB>between\s+|<NB>from\s+)\s*$")


_SPAN_RULES = frozenset(
    {
        "month_pair_cn",
        "month_until_day_cn",
        "month_until_day_en",
        "month_span_cn",
        "month_span_en",
        "day_span_cn",
        "day_span_en",
        "day_span_dot",
        "day_span_month_first",
        "day_span_en_day_first",
    }
)
