"""The semantic-layer query, ``baton query`` (``query.<key>``): reading the request, checking
its names against the catalog, and how its filters, order and limit read in an answer."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # reading the request -------------------------------------------------------------------------
    "no_metrics": (
        "A query needs at least one metric (--metrics m1,m2).",
        "查询至少需要一个指标（--metrics m1,m2）。",
    ),
    "not_a_query": (
        "Not a semantic-layer query: {text!r} (expected 'query --metrics …').",
        "不是语义层查询：{text!r}（应为 “query --metrics …”）。",
    ),
    "bad_quoting": ("Cannot read the query's quoting: {reason}.", "无法解析查询中的引号：{reason}。"),
    "unknown_option": (
        "Unknown option {option!r}; a query takes {options}.",
        "未知选项 {option!r}；查询可用的选项：{options}。",
    ),
    "needs_value": ("The option {option} needs a value.", "选项 {option} 需要一个值。"),
    "repeated_option": ("The option {option} may be given only once.", "选项 {option} 只能给出一次。"),
    "bad_date": (
        "{option} must be a date YYYY-MM-DD, not {raw!r}.",
        "{option} 必须是 YYYY-MM-DD 格式的日期，而不是 {raw!r}。",
    ),
    "bad_limit": (
        "--limit must be a whole number from 1 to 1,000,000, not {raw!r}.",
        "--limit 必须是 1 到 1,000,000 之间的整数，而不是 {raw!r}。",
    ),
    "bad_language": ("--lang must be en or zh, not {raw!r}.", "--lang 只能是 en 或 zh，而不是 {raw!r}。"),
    # checking names against the catalog -----------------------------------------------------------
    "unknown_metric": (
        "The catalog has no metric {name!r}, so nothing was computed. Close names: {closest}.",
        "指标目录中没有指标 {name!r}，未做任何计算。相近的指标：{closest}。",
    ),
    "no_close_names": ("none", "无"),
    "refused_metric": (
        "The catalog knows the metric {name!r}, but Baton does not compute it: {reason}",
        "指标目录中有指标 {name!r}，但 Baton 不计算它：{reason_zh}",
    ),
    "unknown_group_by": (
        "{name!r} is not a dimension in the catalog. {metrics} can be grouped by: {allowed}.",
        "{name!r} 不是指标目录中的维度。{metrics} 可按以下维度分组：{allowed}。",
    ),
    "group_by_not_allowed": (
        "{metrics} cannot be grouped by {name!r}. {metrics} can be grouped by: {allowed}.",
        "{metrics} 不能按 {name!r} 分组。{metrics} 可按以下维度分组：{allowed}。",
    ),
    "time_names": (
        "metric_time or metric_time__day|week|month|quarter|year",
        "metric_time 或 metric_time__day|week|month|quarter|year",
    ),
    "two_time_group_bys": (
        "Group by one time grain only, not both {first!r} and {second!r}.",
        "只能按一个时间粒度分组，不能同时按 {first!r} 和 {second!r}。",
    ),
    "bad_where": (
        "Cannot use the filter {where!r}: {reason}. A filter may name: {allowed}.",
        "无法使用过滤条件 {where!r}：{reason}。过滤条件可使用的名称：{allowed}。",
    ),
    "bad_order": (
        "Cannot order by {key!r}: the result has the columns {columns} (metric_time is the column period, "
        "when the query groups by time).",
        "无法按 {key!r} 排序：结果的列是 {columns}（按时间分组时，metric_time 即 period 列）。",
    ),
    "start_after_end": (
        "The start time {start} is after the end time {end}.",
        "开始日期 {start} 晚于结束日期 {end}。",
    ),
    "start_after_as_of": (
        "The start time {start} is after the as-of date {end}, where a query without --end-time ends.",
        "开始日期 {start} 晚于分析日期 {end}（未给出 --end-time 时，查询截止于分析日期）。",
    ),
    # how the request reads in the answer -------------------------------------------------------------
    "open_range": ("all dates up to the as-of date {end}", "截至分析日期 {end} 的全部日期"),
    "open_start": ("all dates up to {end}", "截至 {end} 的全部日期"),
    "open_end": ("from {start} up to the as-of date {end}", "{start} 起至分析日期 {end}"),
    "interpret_where": (", where {conditions}", "、满足 {conditions}"),
    "where_sep": (" and ", " 且 "),
    "where_note": (" (where {conditions})", "（满足 {conditions}）"),
    "interpret_order": (", ordered by {keys}", "，按{keys}排序"),
    "order_asc": ("{name} ascending", "{name}升序"),
    "order_desc": ("{name} descending", "{name}降序"),
    "period_column": ("period", "时间"),
    "interpret_limit": (", first {n} rows", "，取前 {n} 行"),
}
