"""Table-driven tests for the bilingual time-expression parser (baton.nlu.timeexpr)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from baton.errors import TimeExpressionError
from baton.nlu.cn_numerals import parse_cn_int
from baton.nlu.timeexpr import (
    Grain,
    comparison_range,
    find_time_expressions,
    parse_time_range,
    previous_period,
    read_periods,
    same_period_last_year,
)

D = date.fromisoformat
A = D("2026-07-01")  # a Wednesday, first day of a month, a quarter and a half
MID_MARCH = D("2026-03-15")  # a Sunday
MONDAY = D("2026-06-29")
SUNDAY = D("2026-06-28")
NEW_YEAR = D("2025-01-01")

# (expression, as_of, expected start, expected end, expected grain)
RANGES: list[tuple[str, date, str, str, Grain]] = [
    # ---- day ranges written with -, ~ or / (month first at both ends)
    ("6.1-6.18 GMV多少", A, "2026-06-01", "2026-06-18", "custom"),
    ("6/1-6/18", A, "2026-06-01", "2026-06-18", "custom"),
    ("20250301-20250315 各区域新增用户", A, "2025-03-01", "2025-03-15", "custom"),  # compact dates
    ("20260618的订单量", A, "2026-06-18", "2026-06-18", "day"),
    ("2026.6 gmv", A, "2026-06-01", "2026-06-30", "month"),  # a month written with a dot
    ("2025.12的订单", A, "2025-12-01", "2025-12-31", "month"),
    ("5/20-6/10", A, "2026-05-20", "2026-06-10", "custom"),
    ("5/20到6/10的订单量", A, "2026-05-20", "2026-06-10", "custom"),
    ("5.20~6.10", A, "2026-05-20", "2026-06-10", "custom"),
    ("GMV for 1-15 June", A, "2026-06-01", "2026-06-15", "custom"),
    ("1st to 15th of May", A, "2026-05-01", "2026-05-15", "custom"),
    ("12/20-1/5各渠道GMV", A, "2025-12-20", "2026-01-05", "custom"),  # into the next year
    ("上个月月底三天", A, "2026-06-28", "2026-06-30", "custom"),  # 月底 N 天: the last N days
    ("6月月初3天", A, "2026-06-01", "2026-06-03", "custom"),
    # ---- Chinese
    ("昨天", A, "2026-06-30", "2026-06-30", "day"),
    ("昨日的订单量", A, "2026-06-30", "2026-06-30", "day"),
    ("前天", A, "2026-06-29", "2026-06-29", "day"),
    ("近7天", A, "2026-06-24", "2026-06-30", "custom"),
    ("最近十四天", A, "2026-06-17", "2026-06-30", "custom"),
    ("过去三十天", A, "2026-06-01", "2026-06-30", "custom"),
    ("近七日", A, "2026-06-24", "2026-06-30", "custom"),
    ("最近两天", A, "2026-06-29", "2026-06-30", "custom"),
    ("本周", A, "2026-06-29", "2026-06-30", "week"),
    # a weekday of a named week, the week word said twice; a bare weekday ending its range
    ("上周周一的GMV", A, "2026-06-22", "2026-06-22", "day"),
    ("上周的周三订单量", A, "2026-06-24", "2026-06-24", "day"),
    ("上上周周五", A, "2026-06-19", "2026-06-19", "day"),
    ("上周一到周五GMV", A, "2026-06-22", "2026-06-26", "custom"),
    ("上周周一到周日每天的GMV", A, "2026-06-22", "2026-06-28", "custom"),
    ("本周一到周二", A, "2026-06-29", "2026-06-30", "custom"),
    # ---- the same in English: days of a named week, either order
    ("GMV from Monday to Friday last week", A, "2026-06-22", "2026-06-26", "custom"),
    ("last week Mon-Fri GMV", A, "2026-06-22", "2026-06-26", "custom"),
    ("last week's weekdays", A, "2026-06-22", "2026-06-26", "custom"),
    ("the weekdays of the week before last", A, "2026-06-15", "2026-06-19", "custom"),
    ("wed through sun of last week", A, "2026-06-24", "2026-06-28", "custom"),
    ("last week Mon-Thu", A, "2026-06-22", "2026-06-25", "custom"),
    ("this week's Mon to Tue", A, "2026-06-29", "2026-06-30", "custom"),
    # all time: every day up to the as-of date, from before any first row (shown by its words)
    ("GMV all time", A, "1900-01-01", "2026-06-30", "custom"),
    ("all-time orders by channel", A, "1900-01-01", "2026-06-30", "custom"),
    ("orders since the beginning", A, "1900-01-01", "2026-06-30", "custom"),
    ("有史以来GMV最高的一天", A, "1900-01-01", "2026-06-30", "custom"),
    ("全部历史的订单量", A, "1900-01-01", "2026-06-30", "custom"),
    ("自上线以来GMV", A, "1900-01-01", "2026-06-30", "custom"),
    ("highest monthly GMV ever", A, "1900-01-01", "2026-06-30", "custom"),
    ("史上最高的一天订单量", A, "1900-01-01", "2026-06-30", "custom"),
    ("历史最高的月GMV", A, "1900-01-01", "2026-06-30", "custom"),
    ("历史GMV最高的月份", A, "1900-01-01", "2026-06-30", "custom"),
    ("历史总GMV", A, "1900-01-01", "2026-06-30", "custom"),
    ("GMV all-time up to last quarter", A, "1900-01-01", "2026-06-30", "custom"),
    ("GMV all-time up to May 2026", A, "1900-01-01", "2026-05-31", "custom"),
    # the latest N counted back from an end said, as they are from today (s21: was April to May)
    ("last 3 months through May 2026", A, "2026-03-01", "2026-05-31", "month"),
    ("过去3个月截至2026年5月", A, "2026-03-01", "2026-05-31", "month"),
    ("last 7 days through June 20", A, "2026-06-14", "2026-06-20", "custom"),
    ("GMV last 3 months through this month", date(2026, 6, 20), "2026-04-01", "2026-06-19", "month"),  # s23
    # all time up to an end said, in either order: one period open at its start
    ("截至去年底历史累计GMV", A, "1900-01-01", "2025-12-31", "custom"),
    ("截至去年底的历史累计GMV", A, "1900-01-01", "2025-12-31", "custom"),
    ("截止到2025年底为止历史累计订单量", A, "1900-01-01", "2025-12-31", "custom"),
    ("历史累计到去年底的GMV", A, "1900-01-01", "2025-12-31", "custom"),
    ("all time through March 2026", A, "1900-01-01", "2026-03-31", "custom"),
    # one day of a named week, as 上周三 is read
    ("GMV on wed last week", A, "2026-06-24", "2026-06-24", "day"),
    ("orders on Tuesday of last week", A, "2026-06-23", "2026-06-23", "day"),
    ("last week's Friday", A, "2026-06-26", "2026-06-26", "day"),
    ("the Friday of the week before last", A, "2026-06-19", "2026-06-19", "day"),
    ("this week's Monday", A, "2026-06-29", "2026-06-29", "day"),
    # the first or last days of a week counted from today
    ("本周前两天GMV跟上周同期比", A, "2026-06-29", "2026-06-30", "custom"),
    ("上周后两天的订单量", A, "2026-06-27", "2026-06-28", "custom"),
    ("上上周前5天", A, "2026-06-15", "2026-06-19", "custom"),
    ("上周最后三天", A, "2026-06-26", "2026-06-28", "custom"),
    ("2025全年", A, "2025-01-01", "2025-12-31", "year"),
    # from a point on to the latest complete day, as 以来 / since
    ("6月10日起", A, "2026-06-10", "2026-06-30", "custom"),
    ("从6月10日开始的订单量", A, "2026-06-10", "2026-06-30", "custom"),
    ("orders from June 20 onwards", A, "2026-06-20", "2026-06-30", "custom"),
    ("最近仨月", A, "2026-04-01", "2026-06-30", "month"),
    # the first N months: whole months, so the period before them is the N months before
    ("今年头两个月", A, "2026-01-01", "2026-02-28", "month"),
    ("the first three months of 2025", A, "2025-01-01", "2025-03-31", "month"),
    # two months in a row said with one 月 (the 十 of 十二 said once): both whole months
    ("今年一二月", A, "2026-01-01", "2026-02-28", "month"),
    ("去年十一二月", A, "2025-11-01", "2025-12-31", "month"),
    ("2025年三四月份", A, "2025-03-01", "2025-04-30", "month"),
    ("二三月", MID_MARCH, "2026-02-01", "2026-03-14", "month"),  # the pair's year is its last month's, as "2-3月"
    ("六七月", A, "2025-06-01", "2025-07-31", "month"),
    # the week or month before last, said of the last one
    ("上周之前那周", A, "2026-06-15", "2026-06-21", "week"),
    ("上周的前一周", A, "2026-06-15", "2026-06-21", "week"),
    ("上个月的前一个月", A, "2026-05-01", "2026-05-31", "month"),
    ("since the start of the year", A, "2026-01-01", "2026-06-30", "year"),
    ("from the beginning of the quarter to date", MID_MARCH, "2026-01-01", "2026-03-14", "quarter"),
    # a month up to a day said after it
    ("6月截至20号", A, "2026-06-01", "2026-06-20", "month"),  # a month so far: its previous period the same days
    ("June through the 20th", A, "2026-06-01", "2026-06-20", "month"),
    ("June 2025 up to the 20th", A, "2025-06-01", "2025-06-20", "month"),
    # the current period's whole namesake a year back (the week 52 weeks back, weekdays aligned)
    ("去年这个月", A, "2025-07-01", "2025-07-31", "month"),
    ("去年本季度", A, "2025-07-01", "2025-09-30", "quarter"),
    ("去年本周", A, "2025-06-30", "2025-07-06", "week"),
    ("this month last year", MID_MARCH, "2025-03-01", "2025-03-31", "month"),
    ("this quarter last year", MID_MARCH, "2025-01-01", "2025-03-31", "quarter"),
    ("这周", SUNDAY, "2026-06-22", "2026-06-27", "week"),
    ("本月", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("这个月", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("本季度", MID_MARCH, "2026-01-01", "2026-03-14", "quarter"),
    ("今年", A, "2026-01-01", "2026-06-30", "year"),
    ("6月15日那周的GMV", A, "2026-06-15", "2026-06-21", "week"),  # the Monday-to-Sunday week of a day
    ("6月17号所在的那一周", A, "2026-06-15", "2026-06-21", "week"),
    ("2025年6月15日那个星期", A, "2025-06-09", "2025-06-15", "week"),
    ("GMV for the week of June 15", A, "2026-06-15", "2026-06-21", "week"),
    ("the week of May 6, 2026", A, "2026-05-04", "2026-05-10", "week"),
    ("week of June 29", A, "2026-06-29", "2026-06-30", "week"),  # cut at the last day with data
    ("本年", MID_MARCH, "2026-01-01", "2026-03-14", "year"),
    ("本月至今", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("今年以来", A, "2026-01-01", "2026-06-30", "year"),
    ("上周", A, "2026-06-22", "2026-06-28", "week"),
    ("上周", MONDAY, "2026-06-22", "2026-06-28", "week"),
    ("上周", SUNDAY, "2026-06-15", "2026-06-21", "week"),
    ("上个星期", A, "2026-06-22", "2026-06-28", "week"),
    ("上上周", A, "2026-06-15", "2026-06-21", "week"),
    ("上个月", A, "2026-06-01", "2026-06-30", "month"),
    ("上月", MID_MARCH, "2026-02-01", "2026-02-28", "month"),
    ("上个月", NEW_YEAR, "2024-12-01", "2024-12-31", "month"),
    ("上上个月", A, "2026-05-01", "2026-05-31", "month"),
    ("两个月前", A, "2026-05-01", "2026-05-31", "month"),
    ("3个月之前", MID_MARCH, "2025-12-01", "2025-12-31", "month"),
    ("3天前", A, "2026-06-28", "2026-06-28", "day"),
    ("两周前", A, "2026-06-15", "2026-06-21", "week"),
    ("三个月前至今", A, "2026-04-01", "2026-06-30", "custom"),
    ("从三个月前到现在", A, "2026-04-01", "2026-06-30", "custom"),
    ("两周前以来", A, "2026-06-15", "2026-06-30", "custom"),
    ("一个季度以前", A, "2026-04-01", "2026-06-30", "quarter"),
    ("两个季度前", A, "2026-01-01", "2026-03-31", "quarter"),
    ("去年的今天", A, "2025-07-01", "2025-07-01", "day"),
    ("去年今日", D("2028-02-29"), "2027-02-28", "2027-02-28", "day"),
    ("this day last year", A, "2025-07-01", "2025-07-01", "day"),
    ("上个月的今天", A, "2026-06-01", "2026-06-01", "day"),
    ("上月今天", D("2026-03-31"), "2026-02-28", "2026-02-28", "day"),
    ("this day last month", A, "2026-06-01", "2026-06-01", "day"),
    ("上周的今天", A, "2026-06-24", "2026-06-24", "day"),
    ("上季度", A, "2026-04-01", "2026-06-30", "quarter"),
    ("上个季度", NEW_YEAR, "2024-10-01", "2024-12-31", "quarter"),
    ("去年", A, "2025-01-01", "2025-12-31", "year"),
    ("上一年", NEW_YEAR, "2024-01-01", "2024-12-31", "year"),
    ("近3个月", A, "2026-04-01", "2026-06-30", "month"),
    ("最近两个月", MID_MARCH, "2026-01-01", "2026-02-28", "month"),
    ("近两周", A, "2026-06-15", "2026-06-28", "week"),
    ("近2个季度", A, "2026-01-01", "2026-06-30", "quarter"),
    ("过去半年", A, "2026-01-01", "2026-06-30", "month"),
    ("the week of 2026-06-22", A, "2026-06-22", "2026-06-28", "week"),
    ("the week of 2026-06-24", A, "2026-06-22", "2026-06-28", "week"),
    ("年初至今", A, "2026-01-01", "2026-06-30", "year"),
    ("今年年初以来", MID_MARCH, "2026-01-01", "2026-03-14", "year"),
    ("近一年", A, "2025-07-01", "2026-06-30", "month"),
    ("过去一年", MID_MARCH, "2025-03-01", "2026-02-28", "month"),
    ("最近两年", A, "2024-07-01", "2026-06-30", "month"),
    ("the past year", A, "2025-07-01", "2026-06-30", "month"),
    # finance shorthand
    ("TTM", A, "2025-07-01", "2026-06-30", "month"),
    ("LTM", MID_MARCH, "2025-03-01", "2026-02-28", "month"),
    ("1H26", A, "2026-01-01", "2026-06-30", "half"),
    ("2H 2025", A, "2025-07-01", "2025-12-31", "half"),
    ("2Q26", A, "2026-04-01", "2026-06-30", "quarter"),
    ("W26", A, "2026-06-22", "2026-06-28", "week"),
    ("2026-W26", A, "2026-06-22", "2026-06-28", "week"),
    ("the week ending June 28", A, "2026-06-22", "2026-06-28", "week"),
    ("week ending Jun 27", A, "2026-06-21", "2026-06-27", "custom"),
    # p75: "over the last year" is a span back from now, "last year" alone the calendar year
    ("over the last year", A, "2025-07-01", "2026-06-30", "month"),
    ("in the last year", MID_MARCH, "2025-03-01", "2026-02-28", "month"),
    ("last year", A, "2025-01-01", "2025-12-31", "year"),
    ("last 2 years", A, "2024-07-01", "2026-06-30", "month"),
    ("去年", A, "2025-01-01", "2025-12-31", "year"),
    ("近半年", MID_MARCH, "2025-09-01", "2026-02-28", "month"),
    ("the past half-year", A, "2026-01-01", "2026-06-30", "month"),
    ("last half year", A, "2026-01-01", "2026-06-30", "month"),
    ("2026年Q2", A, "2026-04-01", "2026-06-30", "quarter"),
    ("2026年二季度", A, "2026-04-01", "2026-06-30", "quarter"),
    ("第一季度", A, "2026-01-01", "2026-03-31", "quarter"),
    ("1季度", MID_MARCH, "2026-01-01", "2026-03-14", "quarter"),
    ("三季度", A, "2025-07-01", "2025-09-30", "quarter"),
    ("去年四季度", A, "2025-10-01", "2025-12-31", "quarter"),
    ("上半年", A, "2026-01-01", "2026-06-30", "half"),
    ("下半年", A, "2025-07-01", "2025-12-31", "half"),
    ("2026年上半年", A, "2026-01-01", "2026-06-30", "half"),
    ("2025年下半年", A, "2025-07-01", "2025-12-31", "half"),
    ("2026年6月", A, "2026-06-01", "2026-06-30", "month"),
    ("6月", A, "2026-06-01", "2026-06-30", "month"),
    ("12月", A, "2025-12-01", "2025-12-31", "month"),
    ("十二月份", A, "2025-12-01", "2025-12-31", "month"),
    ("3月", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("２０２６年６月", A, "2026-06-01", "2026-06-30", "month"),
    ("2025年", A, "2025-01-01", "2025-12-31", "year"),
    ("2025年全年", A, "2025-01-01", "2025-12-31", "year"),
    # two-digit years, as people write them: 25年, 26年1月, 25年Q4, 26年上半年
    ("25年GMV是多少", A, "2025-01-01", "2025-12-31", "year"),
    ("26年1月的订单量", A, "2026-01-01", "2026-01-31", "month"),
    ("25年Q4的GMV", A, "2025-10-01", "2025-12-31", "quarter"),
    ("26年上半年", A, "2026-01-01", "2026-06-30", "half"),
    ("25年第48周", A, "2025-11-24", "2025-11-30", "week"),
    ("近25年", A, "2001-07-01", "2026-06-30", "month"),  # 25 years, not the year 2025
    # 截至 / 截止到 joins a range like 到
    ("今年截至6月15日的GMV", A, "2026-01-01", "2026-06-15", "custom"),
    ("3月1日截止到5月31日", A, "2026-03-01", "2026-05-31", "custom"),
    ("2026年6月12日", A, "2026-06-12", "2026-06-12", "day"),
    ("6月12日", A, "2026-06-12", "2026-06-12", "day"),
    ("6月12号", A, "2026-06-12", "2026-06-12", "day"),
    ("12月25日", A, "2025-12-25", "2025-12-25", "day"),
    ("2026年第23周", A, "2026-06-01", "2026-06-07", "week"),
    ("上个月各渠道的GMV是多少？", A, "2026-06-01", "2026-06-30", "month"),
    ("2026年6月华东的订单量", A, "2026-06-01", "2026-06-30", "month"),
    ("近7天每天的GMV趋势", A, "2026-06-24", "2026-06-30", "custom"),
    ("今年上半年各品类销售额", A, "2026-01-01", "2026-06-30", "half"),
    ("从2026年1月到3月的GMV", A, "2026-01-01", "2026-03-31", "month"),
    ("2026年1月至2026年3月", A, "2026-01-01", "2026-03-31", "month"),
    ("2026年1-3月", A, "2026-01-01", "2026-03-31", "month"),
    ("11月到2月", A, "2025-11-01", "2026-02-28", "month"),
    ("6月1日到15日", A, "2026-06-01", "2026-06-15", "custom"),
    ("2026年6月1日至2026年6月15日", A, "2026-06-01", "2026-06-15", "custom"),
    ("自2026年3月以来", A, "2026-03-01", "2026-06-30", "custom"),
    ("本月和去年同期比", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    # ---- English
    ("yesterday", A, "2026-06-30", "2026-06-30", "day"),
    ("the day before yesterday", A, "2026-06-29", "2026-06-29", "day"),
    ("last 7 days", A, "2026-06-24", "2026-06-30", "custom"),
    ("past seven days", A, "2026-06-24", "2026-06-30", "custom"),
    ("the last 30 days", NEW_YEAR, "2024-12-02", "2024-12-31", "custom"),
    ("this week", A, "2026-06-29", "2026-06-30", "week"),
    ("this month", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("MTD", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    ("this quarter", A + timedelta(days=14), "2026-07-01", "2026-07-14", "quarter"),
    ("QTD", MID_MARCH, "2026-01-01", "2026-03-14", "quarter"),
    ("this year", A, "2026-01-01", "2026-06-30", "year"),
    ("year to date", MID_MARCH, "2026-01-01", "2026-03-14", "year"),
    ("YTD revenue", A, "2026-01-01", "2026-06-30", "year"),
    ("last week", A, "2026-06-22", "2026-06-28", "week"),
    ("previous week", SUNDAY, "2026-06-15", "2026-06-21", "week"),
    ("last month", A, "2026-06-01", "2026-06-30", "month"),
    ("previous month", NEW_YEAR, "2024-12-01", "2024-12-31", "month"),
    ("the month before last", A, "2026-05-01", "2026-05-31", "month"),
    ("last quarter", MID_MARCH, "2025-10-01", "2025-12-31", "quarter"),
    ("the most recent quarter", MID_MARCH, "2025-10-01", "2025-12-31", "quarter"),  # complete, as 最近一个季度
    ("the latest month", A, "2026-06-01", "2026-06-30", "month"),
    ("last year", NEW_YEAR, "2024-01-01", "2024-12-31", "year"),
    ("past 3 months", A, "2026-04-01", "2026-06-30", "month"),
    ("last 2 quarters", A, "2026-01-01", "2026-06-30", "quarter"),
    ("last twelve months", A, "2025-07-01", "2026-06-30", "month"),
    ("Q2 2026", A, "2026-04-01", "2026-06-30", "quarter"),
    ("2026 Q2", A, "2026-04-01", "2026-06-30", "quarter"),
    ("2026Q2", A, "2026-04-01", "2026-06-30", "quarter"),
    ("second quarter of 2026", A, "2026-04-01", "2026-06-30", "quarter"),
    ("Q3", A, "2025-07-01", "2025-09-30", "quarter"),
    ("q1 of last year", A, "2025-01-01", "2025-03-31", "quarter"),
    ("H1", A, "2026-01-01", "2026-06-30", "half"),
    ("H2 2025", A, "2025-07-01", "2025-12-31", "half"),
    ("first half of 2026", A, "2026-01-01", "2026-06-30", "half"),
    ("second half", MID_MARCH, "2025-07-01", "2025-12-31", "half"),
    ("June 2026", A, "2026-06-01", "2026-06-30", "month"),
    ("Jun 2026", A, "2026-06-01", "2026-06-30", "month"),
    ("2026-06", A, "2026-06-01", "2026-06-30", "month"),
    ("2026/06", A, "2026-06-01", "2026-06-30", "month"),
    ("June", A, "2026-06-01", "2026-06-30", "month"),
    ("December", A, "2025-12-01", "2025-12-31", "month"),
    ("in March", A, "2026-03-01", "2026-03-31", "month"),
    ("orders in may", A, "2026-05-01", "2026-05-31", "month"),
    ("May 2025", A, "2025-05-01", "2025-05-31", "month"),
    ("June last year", A, "2025-06-01", "2025-06-30", "month"),
    ("2025", A, "2025-01-01", "2025-12-31", "year"),
    ("revenue in 2025", A, "2025-01-01", "2025-12-31", "year"),
    ("2026-06-12", A, "2026-06-12", "2026-06-12", "day"),
    ("2026/6/12", A, "2026-06-12", "2026-06-12", "day"),
    ("15/6", A, "2026-06-15", "2026-06-15", "day"),  # day first: only 15 can be the day
    ("上上周末", A, "2026-06-20", "2026-06-21", "weekend"),
    ("the weekend before last", A, "2026-06-20", "2026-06-21", "weekend"),
    ("June 12, 2026", A, "2026-06-12", "2026-06-12", "day"),
    ("12 June 2026", A, "2026-06-12", "2026-06-12", "day"),
    ("Jun 12", A, "2026-06-12", "2026-06-12", "day"),
    ("Dec 25", A, "2025-12-25", "2025-12-25", "day"),
    ("week 23 of 2026", A, "2026-06-01", "2026-06-07", "week"),
    ("What was GMV by channel last month?", A, "2026-06-01", "2026-06-30", "month"),
    ("GMV in June 2026 by region", A, "2026-06-01", "2026-06-30", "month"),
    ("Why did orders drop last week?", MONDAY, "2026-06-22", "2026-06-28", "week"),
    ("between March and May 2026", A, "2026-03-01", "2026-05-31", "month"),
    ("from Q1 to Q2 2026", A, "2026-01-01", "2026-06-30", "quarter"),
    ("from 2026-06-01 to 2026-06-15", A, "2026-06-01", "2026-06-15", "custom"),
    ("June 1-15, 2026", A, "2026-06-01", "2026-06-15", "custom"),
    ("Jan-Mar 2026", A, "2026-01-01", "2026-03-31", "month"),
    ("from Nov to Feb", A, "2025-11-01", "2026-02-28", "month"),
    ("March 2026 vs March 2025", A, "2026-03-01", "2026-03-31", "month"),
    ("since March", A, "2026-03-01", "2026-06-30", "custom"),
    ("from 2026-06-01 to today", A, "2026-06-01", "2026-06-30", "custom"),
    ("GMV this month vs the same period last year", MID_MARCH, "2026-03-01", "2026-03-14", "month"),
    # ---- a part of a month counted from today, or of a named one
    ("上个月第一周", A, "2026-06-01", "2026-06-07", "custom"),
    ("上个月的第2周", A, "2026-06-08", "2026-06-14", "custom"),
    ("上月最后一周", A, "2026-06-24", "2026-06-30", "custom"),
    ("上上个月下旬", A, "2026-05-21", "2026-05-31", "custom"),
    ("上个月后半月", A, "2026-06-16", "2026-06-30", "custom"),
    ("上个月前半个月", A, "2026-06-01", "2026-06-15", "custom"),
    ("上个月前10天", A, "2026-06-01", "2026-06-10", "custom"),
    ("5月的后五天", A, "2026-05-27", "2026-05-31", "custom"),
    ("上个月最后一天", A, "2026-06-30", "2026-06-30", "day"),
    ("6月的第一天", A, "2026-06-01", "2026-06-01", "day"),
    ("上月底", A, "2026-06-30", "2026-06-30", "day"),
    ("the first week of last month", A, "2026-06-01", "2026-06-07", "custom"),
    ("the second half of the previous month", A, "2026-06-16", "2026-06-30", "custom"),
    ("the first 10 days of last month", A, "2026-06-01", "2026-06-10", "custom"),
    ("the last day of last month", A, "2026-06-30", "2026-06-30", "day"),
    ("the first day of June 2025", A, "2025-06-01", "2025-06-01", "day"),
    ("上个月头一周", A, "2026-06-01", "2026-06-07", "custom"),
    # weeks of a month are seven days from its first (or back from its last), as its first or last week
    ("6月头两周", A, "2026-06-01", "2026-06-14", "custom"),
    ("6月前两周", A, "2026-06-01", "2026-06-14", "custom"),
    ("6月最后两周", A, "2026-06-17", "2026-06-30", "custom"),
    ("the first two weeks of june", A, "2026-06-01", "2026-06-14", "custom"),
    ("the last 2 weeks of may", A, "2026-05-18", "2026-05-31", "custom"),
    # more ways analysts say a period
    ("大上周", A, "2026-06-15", "2026-06-21", "week"),
    ("去年最后一个季度", A, "2025-10-01", "2025-12-31", "quarter"),
    ("2026年第一个季度", A, "2026-01-01", "2026-03-31", "quarter"),
    ("6.1-6.15", A, "2026-06-01", "2026-06-15", "custom"),
    ("5.20到5.31", A, "2026-05-20", "2026-05-31", "custom"),
    ("GMV last December", A, "2025-12-01", "2025-12-31", "month"),
    ("the past week", A, "2026-06-22", "2026-06-28", "week"),
    ("since May", A, "2026-05-01", "2026-06-30", "custom"),
]


@pytest.mark.parametrize(("expression", "as_of", "start", "end", "grain"), RANGES)
def test_parse_time_range(expression: str, as_of: date, start: str, end: str, grain: Grain) -> None:
    match = parse_time_range(expression, as_of)
    assert match is not None
    assert (match.start, match.end, match.grain) == (D(start), D(end), grain)
    assert match.text == expression[match.span[0] : match.span[1]]
    assert match.end <= as_of - timedelta(days=1)


def test_table_is_large_and_bilingual() -> None:
    chinese = [row for row in RANGES if any("\u4e00" <= ch <= "\u9fff" for ch in row[0])]
    assert len(RANGES) >= 80
    assert len(chinese) >= 40
    assert len(RANGES) - len(chinese) >= 40


# (expression, as_of, clamped)
CLAMPING: list[tuple[str, date, bool]] = [
    ("本月", MID_MARCH, True),
    ("今年", A, True),
    ("this week", D("2026-07-03"), True),
    ("3月", MID_MARCH, True),
    ("2026", A, True),
    ("上个月", A, False),
    ("近7天", A, False),
    ("2026年6月", A, False),
    ("last quarter", A, False),
    ("since March", A, True),
]


@pytest.mark.parametrize(("expression", "as_of", "clamped"), CLAMPING)
def test_clamped_flag(expression: str, as_of: date, clamped: bool) -> None:
    match = parse_time_range(expression, as_of)
    assert match is not None
    assert match.clamped is clamped


NO_TIME = [
    "GMV by channel",
    "周一到周五的GMV",  # weekdays of no named week
    "客单价在1.5-2万之间的区域",  # a range of amounts, never January 5 to 2
    "退款率1.5-3%的品类",
    "各渠道的GMV是多少",
    "SQ2X sales by region",
    "What may have caused the drop?",
    "top 2000 customers",
    "2000个客户的订单",
    "price 2026.50",
    "订单号 202603011234 的金额",  # a longer number, never a compact date
    "金额 20250301.5",
    "以上月份",  # 以上 = "above", not 上月
    "线上月活用户",  # 线上 = online
    "first half of the month",
    "去年同期",
    "二五月的GMV",  # two months not in a row said with one 月: no period
    "星期一二月",  # a weekday before a month, never January and February
    "GMV above 2026.6万",  # a number, never the month 2026.6
    "refund rate above 2026.5%",
    "历史同期",  # the same period of earlier years, never all time
    "和历史同比",
    "历史客户的订单量",  # 历史 alone is no period (s21)
    "历史平均",
    "GMV ever since",  # "ever since" says a start, never all time
    "GMV 6.12",  # a dotted month.day is read beside Chinese words only
    "GMV 6.12万",  # a number with its unit
    "笔单价大于6.12",  # a number after a comparison
    "笔单价超过6.12元",
]


@pytest.mark.parametrize(
    ("text", "said", "day"),
    [
        ("6.12 订单量", "6.12", "2026-06-12"),  # p76
        ("订单量 6.12", "6.12", "2026-06-12"),
        ("6.12的GMV", "6.12", "2026-06-12"),
    ],
)
def test_a_chinese_dotted_day(text: str, said: str, day: str) -> None:
    found = find_time_expressions(text, A)
    assert [(f.text, f.start.isoformat(), f.end.isoformat()) for f in found] == [(said, day, day)]


@pytest.mark.parametrize("text", NO_TIME)
def test_no_time_expression(text: str) -> None:
    assert parse_time_range(text, A) is None
    assert find_time_expressions(text, A) == []


# (expression, as_of, a fragment both messages must contain)
ERRORS: list[tuple[str, date, str]] = [
    ("上周前八天", A, "8"),
    ("今天", A, "今天"),
    ("today", A, "today"),
    ("本月", A, "本月"),
    ("this month", A, "this month"),
    ("本季度", A, "本季度"),
    ("this week", MONDAY, "this week"),
    ("今年", NEW_YEAR, "今年"),
    ("YTD", NEW_YEAR, "YTD"),
    ("2026年13月", A, "2026年13月"),
    ("2026-02-30", A, "2026-02-30"),
    ("6月31日", A, "6月31日"),
    ("2026年7月", A, "2026年7月"),
    ("July 2026", A, "July 2026"),
    ("2027", A, "2027"),
    ("今年下半年", A, "今年下半年"),
    ("下个月", A, "下个月"),
    ("next quarter", A, "next quarter"),
    ("近0天", A, "近0天"),
    ("从2026年3月到2026年1月", A, "2026年3月到2026年1月"),
    ("friday to monday last week", A, "friday to monday last week"),
]


@pytest.mark.parametrize(("expression", "as_of", "fragment"), ERRORS)
def test_errors_are_bilingual(expression: str, as_of: date, fragment: str) -> None:
    with pytest.raises(TimeExpressionError) as info:
        parse_time_range(expression, as_of)
    error = info.value
    assert error.error_code == "invalid_time"
    assert fragment in error.message_en
    assert fragment in error.message_zh
    assert error.message_en != error.message_zh


def test_no_data_message_names_the_latest_complete_day() -> None:
    with pytest.raises(TimeExpressionError) as info:
        find_time_expressions("本月各渠道GMV", A)
    assert "2026-06-30" in info.value.message_en
    assert "还没有数据" in info.value.message_zh


# (text, as_of, expected [(matched text, span)])
SPANS: list[tuple[str, date, list[tuple[str, tuple[int, int]]]]] = [
    ("上个月各渠道的GMV是多少？", A, [("上个月", (0, 3))]),
    # the 到现在 of the range before is never taken again as this one's start (hypothesis found it)
    ("从三个月前到现在12/20-1/5各渠道GMV", date(2020, 1, 1), [("从三个月前到现在", (0, 8)), ("12/20-1/5", (8, 17))]),
    ("What was GMV by channel last month?", A, [("last month", (24, 34))]),
    ("GMV in June 2026 by region", A, [("June 2026", (7, 16))]),
    ("2026年6月华东的订单量", A, [("2026年6月", (0, 7))]),
    ("对比２０２６年６月和去年6月", A, [("２０２６年６月", (2, 9)), ("去年6月", (10, 14))]),
    ("Q1 and Q2 2026 revenue", A, [("Q1", (0, 2)), ("Q2 2026", (7, 14))]),
    ("近7天和上周的订单", A, [("近7天", (0, 3)), ("上周", (4, 6))]),
    ("orders in may", A, [("may", (10, 13))]),
    ("2026年6月12日的GMV", A, [("2026年6月12日", (0, 10))]),
    ("上上个月", A, [("上上个月", (0, 4))]),
    ("GMV 2024 vs 2025", A, [("2024", (4, 8)), ("2025", (12, 16))]),
    (
        "2025年3、4月份的GMV",
        A,
        [("2025年3月", (0, 6)), ("4月份", (7, 10))],
    ),  # two months listed with 、, the first called by its month
]


@pytest.mark.parametrize(
    ("text", "first", "second"),
    [
        ("2025年3、4月份的GMV", ("2025-03-01", "2025-03-31"), ("2025-04-01", "2025-04-30")),
        ("去年11、12月", ("2025-11-01", "2025-11-30"), ("2025-12-01", "2025-12-31")),
        ("3、5月的订单", ("2026-03-01", "2026-03-31"), ("2026-05-01", "2026-05-31")),
    ],
)
def test_months_listed_with_one_month_word_are_two_months(
    text: str, first: tuple[str, str], second: tuple[str, str]
) -> None:
    """ "3、4月" is "3月、4月": two months, each whole, the year said once for both."""
    matches = [reading.match for reading in read_periods(text, A)]
    assert [(m.start.isoformat(), m.end.isoformat()) for m in matches if m is not None] == [first, second]


@pytest.mark.parametrize(("text", "as_of", "expected"), SPANS)
def test_spans_and_longest_match(text: str, as_of: date, expected: list[tuple[str, tuple[int, int]]]) -> None:
    matches = find_time_expressions(text, as_of)
    assert [(m.text, m.span) for m in matches] == expected
    for m in matches:  # its words, or those words called as what they name ("3" of "3、4月": 3月)
        assert m.text in (text[m.span[0] : m.span[1]], text[m.span[0] : m.span[1]] + "月")


def test_range_span_covers_both_ends() -> None:
    text = "请看从2026年1月到3月的GMV"
    match = parse_time_range(text, A)
    assert match is not None
    assert match.text == "从2026年1月到3月"
    assert text[match.span[0] : match.span[1]] == match.text


# (start, end, grain, expected previous start, expected previous end)
PREVIOUS: list[tuple[str, str, Grain, str, str]] = [
    ("2026-06-01", "2026-06-30", "month", "2026-05-01", "2026-05-31"),
    ("2026-03-01", "2026-03-31", "month", "2026-02-01", "2026-02-28"),
    ("2026-04-01", "2026-06-30", "quarter", "2026-01-01", "2026-03-31"),
    ("2026-01-01", "2026-03-31", "quarter", "2025-10-01", "2025-12-31"),
    ("2026-01-01", "2026-06-30", "half", "2025-07-01", "2025-12-31"),
    ("2025-01-01", "2025-12-31", "year", "2024-01-01", "2024-12-31"),
    ("2026-06-22", "2026-06-28", "week", "2026-06-15", "2026-06-21"),
    ("2026-06-01", "2026-06-15", "month", "2026-05-01", "2026-05-15"),  # clamped partial month
    ("2026-03-01", "2026-03-30", "month", "2026-02-01", "2026-02-28"),  # capped at month end
    ("2026-06-29", "2026-06-30", "week", "2026-06-22", "2026-06-23"),  # partial week
    ("2026-01-01", "2026-03-14", "year", "2025-01-01", "2025-03-14"),  # YTD
    ("2026-04-01", "2026-06-30", "month", "2026-01-01", "2026-03-31"),  # last 3 whole months
    ("2026-06-24", "2026-06-30", "custom", "2026-06-17", "2026-06-23"),  # last 7 days
    ("2026-06-12", "2026-06-12", "day", "2026-06-11", "2026-06-11"),
    ("2026-03-10", "2026-03-20", "month", "2026-02-27", "2026-03-09"),  # not on a boundary: by length
    ("2026-06-27", "2026-06-28", "weekend", "2026-06-20", "2026-06-21"),  # a weekend: the weekend before
    ("2026-06-27", "2026-06-28", "custom", "2026-06-25", "2026-06-26"),  # the last two days: by length
]


@pytest.mark.parametrize(("start", "end", "grain", "prev_start", "prev_end"), PREVIOUS)
def test_previous_period(start: str, end: str, grain: Grain, prev_start: str, prev_end: str) -> None:
    assert previous_period(D(start), D(end), grain) == (D(prev_start), D(prev_end))


SAME_LAST_YEAR: list[tuple[str, str, str, str]] = [
    ("2026-06-01", "2026-06-30", "2025-06-01", "2025-06-30"),
    ("2024-02-29", "2024-02-29", "2023-02-28", "2023-02-28"),
    ("2024-02-01", "2024-02-29", "2023-02-01", "2023-02-28"),
    ("2025-02-01", "2025-02-28", "2024-02-01", "2024-02-29"),  # a whole month stays whole
    ("2026-03-01", "2026-03-14", "2025-03-01", "2025-03-14"),
    ("2026-01-01", "2026-06-30", "2025-01-01", "2025-06-30"),
]


@pytest.mark.parametrize(("start", "end", "ly_start", "ly_end"), SAME_LAST_YEAR)
def test_same_period_last_year(start: str, end: str, ly_start: str, ly_end: str) -> None:
    assert same_period_last_year(D(start), D(end)) == (D(ly_start), D(ly_end))


def test_period_helpers_reject_inverted_ranges() -> None:
    with pytest.raises(TimeExpressionError):
        previous_period(D("2026-06-30"), D("2026-06-01"), "custom")
    with pytest.raises(TimeExpressionError):
        same_period_last_year(D("2026-06-30"), D("2026-06-01"))


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("7", 7),
        ("七", 7),
        ("十", 10),
        ("十四", 14),
        ("三十", 30),
        ("两", 2),
        ("一百零五", 105),
        ("二〇二六", 2026),
        ("三百五", 350),
    ],
)
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert parse_cn_int(numeral) == value


def test_results_are_frozen() -> None:
    match = parse_time_range("上个月", A)
    assert match is not None
    with pytest.raises(AttributeError):
        match.start = D("2020-01-01")  # type: ignore[misc]


_PHRASES = [row[0] for row in RANGES] + [row[0] for row in ERRORS] + NO_TIME
_FILLER = st.sampled_from(["", " ", "的", " GMV ", "和", " and ", "，", "到", " to ", "-", "各渠道", "x"])


@settings(max_examples=300, deadline=None)
@given(
    as_of=st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31)),
    parts=st.lists(st.tuples(st.sampled_from(_PHRASES), _FILLER), min_size=1, max_size=4),
)
def test_property_matches_stay_inside_the_data(as_of: date, parts: list[tuple[str, str]]) -> None:
    text = "".join(phrase + filler for phrase, filler in parts)
    try:
        matches = find_time_expressions(text, as_of)
        joined = parse_time_range(text, as_of)
    except TimeExpressionError as error:
        messages = (error.message_en, error.message_zh)
        assert all(messages), messages
        return
    last = as_of - timedelta(days=1)
    previous_end = 0
    for m in matches + ([joined] if joined else []):
        assert m.start <= m.end <= last
        assert text[m.span[0] : m.span[1]] == m.text
    for m in matches:
        assert m.span[0] >= previous_end
        previous_end = m.span[1]


@settings(max_examples=200, deadline=None)
@given(
    as_of=st.dates(min_value=date(2020, 1, 1), max_value=date(2030, 12, 31)),
    text=st.text(alphabet="0123456789年月日号周季度上下本今去近天-/QHqh 半第一二三四十个lastJune", max_size=20),
)
def test_property_random_text_never_crashes(as_of: date, text: str) -> None:
    try:
        matches = find_time_expressions(text, as_of)
    except TimeExpressionError:
        return
    for m in matches:
        assert m.start <= m.end <= as_of - timedelta(days=1)
        assert text[m.span[0] : m.span[1]] == m.text


@pytest.mark.parametrize(
    ("start", "end", "ly_start", "ly_end"),
    [
        ("2026-06-15", "2026-06-21", "2025-06-16", "2025-06-22"),  # ISO week 25 against week 25
        ("2026-06-29", "2026-06-30", "2025-06-30", "2025-07-01"),  # a week so far: Monday against Monday
        ("2027-01-01", "2027-01-03", "2026-01-02", "2026-01-04"),  # week 53 of 2026: 2025 has none, 52 weeks back
    ],
)
def test_a_weeks_same_period_last_year_is_the_same_iso_week(start: str, end: str, ly_start: str, ly_end: str) -> None:
    assert comparison_range("same_period_last_year", D(start), D(end), grain="week") == (D(ly_start), D(ly_end))


def test_a_weekend_read_back_from_its_dates_is_compared_with_the_weekend_before() -> None:
    """A follow-up's inherited weekend ("上周末GMV" then "环比呢") keeps its weekdays."""
    assert comparison_range("previous_period", D("2026-06-27"), D("2026-06-28")) == (D("2026-06-20"), D("2026-06-21"))


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("截至目前今年的GMV", ("2026-01-01", "2026-06-19")),  # a running period, to date
        ("到目前为止，本月的订单", ("2026-06-01", "2026-06-19")),
        ("截至目前去年的GMV", ("2025-01-01", "2025-12-31")),  # a finished one: "截至目前" left unread
        ("截至目前上周GMV", ("2026-06-08", "2026-06-14")),
        ("截至目前近30天的GMV", ("2026-05-21", "2026-06-19")),  # a window ending yesterday runs to date
    ],
)
def test_now_said_before_a_period_runs_only_a_running_one_to_date(text: str, span: tuple[str, str]) -> None:
    (match,) = find_time_expressions(text, D("2026-06-20"))
    assert (match.start.isoformat(), match.end.isoformat()) == span
    assert match.text.startswith(("截至", "到目前")) == (span[1] == "2026-06-19")


@pytest.mark.parametrize(
    ("text", "as_of", "span", "grain"),
    [
        ("GMV MTD as of June 20", "2026-07-01", ("2026-06-01", "2026-06-20"), "month"),  # June's MTD, not July's
        ("GMV MTD as of June 20", "2026-06-25", ("2026-06-01", "2026-06-20"), "month"),
        ("orders year to date as of June 20", "2026-07-01", ("2026-01-01", "2026-06-20"), "year"),
        ("as of June 20, QTD orders", "2026-07-01", ("2026-04-01", "2026-06-20"), "quarter"),
        ("GMV WTD through June 17", "2026-07-01", ("2026-06-15", "2026-06-17"), "week"),
    ],
)
def test_a_period_to_date_as_of_a_day_is_that_days_period_to_it(
    text: str, as_of: str, span: tuple[str, str], grain: Grain
) -> None:
    (period,) = read_periods(text, D(as_of))
    assert period.match is not None
    assert (period.match.start.isoformat(), period.match.end.isoformat(), period.match.grain) == (*span, grain)


@pytest.mark.parametrize("text", ["GMV MTD, June 20", "GMV MTD and June 20", "June 20 GMV MTD"])
def test_a_day_not_said_as_the_end_of_a_period_to_date_stays_apart(text: str) -> None:
    assert len(read_periods(text, D("2026-06-25"))) == 2
