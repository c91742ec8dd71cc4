"""What the question reader says when it cannot read a question (``nlu.<key>``): the input
gate, the rule parser's clarifications and the time-expression errors.

The words the reader *matches* (vocabularies, regular expressions) are language data and live
with the parser in :mod:`baton.nlu`, not here.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # the input gate -------------------------------------------------------------------------------
    "control_characters": ("The question contains binary or control characters.", "问题中包含二进制或控制字符。"),
    "empty": ("The question is empty.", "问题为空。"),
    "too_long": (
        "The question is too long ({length} characters; at most {limit}).",
        "问题过长（{length} 个字符，上限 {limit}）。",
    ),
    "out_of_scope": (
        "Baton is a read-only analyst: it cannot change data or its rules ({matched!r}). "
        "Ask a question about the data instead.",
        "Baton 是只读的数据分析助手，不能修改数据或绕过规则（“{matched}”）。请改为询问数据相关的问题。",
    ),
    # the rule parser ------------------------------------------------------------------------------
    "which_metric": ("Which metric do you mean? For example: {examples}.", "请问您想看哪个指标？例如：{examples}。"),
    "which_period": (
        "Which period do you mean? For example: last month, June 2026, the last 7 days.",
        "请问时间范围是？例如：上个月、2026年6月、近7天。",
    ),
    "several_metrics": (
        "{term!r} can mean several metrics: {labels}. Which one?",
        "“{term}”可能指多个指标：{labels}。请问是哪一个？",
    ),
    "unsupported_dimension": (
        "{metric} cannot be split or filtered by {dimension}; it allows: {allowed}.",
        "{metric}不支持按{dimension}拆分或筛选；可用维度：{allowed}。",
    ),
    "no_dimensions": ("no dimensions", "无"),
    "metric_item": ("{label} ({name})", "{label}（{name}）"),
    "unknown_metric": (
        "The catalog has no metric {term!r}, so Baton will not guess its definition. Closest catalog metrics: "
        "{closest}.",
        "指标目录中没有“{term}”这个指标，Baton 不会猜测它的口径。最接近的目录指标：{closest}。",
    ),
    # time expressions -----------------------------------------------------------------------------
    "range_reversed": ("Range starts after it ends: {start}..{end}.", "时间范围的开始晚于结束：{start}..{end}。"),
    "invalid_time": (
        "'{text}' is not a valid date or period: {reason}.",
        "“{text}”不是有效的日期或时间段：{reason_zh}。",
    ),
    "no_data_yet": (
        "No data yet for '{text}': it starts on {start}, after the latest complete day ({last}).",
        "“{text}”还没有数据：它从{start}开始，而最新的完整数据日是{last}。",
    ),
    "period_month": ("month", "月"),
    "period_quarter": ("quarter", "季度"),
    "period_half": ("half", "半年"),
    "no_such_period": ("there is no {kind} {number}", "不存在第{number}个{kind_zh}"),
    "no_such_month": ("there is no month {month}", "不存在{month}月"),
    "no_such_day": ("month {month} has no day {day}", "{month}月没有{day}日"),
    "year_out_of_range": ("year {year} is out of range", "年份{year}超出范围"),
    "no_such_date": ("{year}-{month:02d}-{day:02d} does not exist", "{year}年{month}月{day}日不存在"),
    "periods_at_least_one": ("the number of periods must be at least 1", "时间段的数量至少为1"),
    "no_such_week": ("ISO year {year} has no week {week}", "{year}年没有第{week}周"),
    "ends_before_start_date": ("the range ends before it starts", "结束日期早于开始日期"),
    "ends_before_start_time": ("the range ends before it starts", "结束时间早于开始时间"),
}
