"""Chart titles, axis and legend labels, notes, choice reasons and chart errors (``charts.<key>``).

Fields named ``x_zh`` carry the Chinese form of ``x`` where the two differ (an English title
starts with a capital letter; a Chinese one keeps the catalog label as it is).
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # labels of the chart agent ------------------------------------------------------------------
    "grain_day": ("Date", "日期"),
    "grain_week": ("Week", "周"),
    "grain_month": ("Month", "月份"),
    "grain_quarter": ("Quarter", "季度"),
    "grain_year": ("Year", "年份"),
    "every_day": ("Daily", "每日"),
    "every_week": ("Weekly", "每周"),
    "every_month": ("Monthly", "每月"),
    "every_quarter": ("Quarterly", "每季度"),
    "every_year": ("Yearly", "每年"),
    "month": ("{date:%b %Y}", "{date.year}年{date.month}月"),
    "span": ("{start} – {end}", "{start} 至 {end}"),
    "peak": ("Peak", "最高"),
    "top": ("Top", "最高"),
    "bottom": ("Bottom", "最低"),
    "dims_sep": (" and ", "、"),
    "two_measures": ("{label} and {second}", "{label}与{second}"),
    "vs_previous_period": ("vs previous period", "环比"),
    "vs_same_period_last_year": ("vs same period last year", "同比"),
    "vs_custom": ("vs the period named", "对比"),
    "vs_same_weekday": ("vs the same weekday of earlier weeks", "对比前几周同星期"),
    "title_comparison": ("{label} {kind} ({when})", "{label_zh}{kind}（{when}）"),
    "title_trend": ("{every} {label} ({when})", "{every}{label}（{when}）"),
    "title_trend_by": ("{every} {label} by {dims} ({when})", "各{dims}{every}{label}（{when}）"),
    "title_top": ("{word} {count} {dims} by {label} ({when})", "{label}{word}的 {count} 个{dims}（{when}）"),
    "title_by": ("{label} by {dims} ({when})", "各{dims}{label_zh}（{when}）"),
    "title": ("{label} ({when})", "{label_zh}（{when}）"),
    "current_period": ("Current: {span}", "本期 {span}"),
    "previous_period": ("Previous: {span}", "对比期 {span}"),
    "incomplete_mark": ("incomplete data", "数据不完整"),
    "change_point": ("change point", "均值变点"),
    "title_daily": ("Daily {label} ({start} to {end})", "每日{label}（{start} 至 {end}）"),
    "date_axis": ("date", "日期"),
    # why this chart (the rule's reason) ----------------------------------------------------------
    "no_chart_single_value": ("a single value or an empty result needs no chart", "单个数值或空结果，不需要图表"),
    "reason_no_measure": ("no measure column: shown as a table", "没有度量列，以表格展示"),
    "reason_empty": ("empty result: shown as a table", "结果为空，以表格展示"),
    "reason_single_number": ("a single number needs no chart", "单个数值，不需要图表"),
    "reason_scatter": ("two measures against each other: scatter", "两个度量之间的关系：散点图"),
    "reason_measures_grouped": ("several measures per member: grouped bars", "多个度量按成员比较：分组柱状图"),
    "reason_too_few": ("too few points: shown as a table", "数据点太少，以表格展示"),
    "reason_boxplot_members": (
        "many observations per member: boxplot",
        "每个成员有多个观测值：箱线图（显示离群值）",
    ),
    "reason_two_dimensions": ("comparison across two dimensions: grouped bars", "两个维度上的比较：分组柱状图"),
    "reason_share_over_time": ("parts of a whole over time: stacked bars", "各部分占比随时间变化：堆叠柱状图"),
    "reason_line_folded": (
        "time series ({points} points): line chart; {series} members, the top {kept} by total kept and the rest "
        "merged into 'Other'",
        "时间序列（{points} 个时间点）：折线图；{series} 个成员，按合计保留前 {kept} 个，其余合并为“其他”",
    ),
    "reason_line": (
        "time series ({points} points, {series} line(s)): line chart",
        "时间序列（{points} 个时间点，{series} 条线）：折线图",
    ),
    "reason_boxplot_groups": ("distribution by group: boxplot", "按组比较分布：箱线图（显示离群值）"),
    "reason_histogram": ("distribution of one measure: histogram", "单个度量的分布：直方图"),
    "reason_donut": ("share of a whole ({parts} parts): donut", "占比（{parts} 个部分）：环形图"),
    "reason_share_stacked": (
        "share of a whole ({parts} parts): stacked bar",
        "占比（{parts} 个部分）：百分比堆叠柱状图",
    ),
    "reason_bars_folded_note": (
        "; over {limit} members, the rest merged into 'Other'",
        "；超过 {limit} 个成员，其余合并为“其他”",
    ),
    "reason_horizontal_bars": (
        "comparison across {members} members with long labels or many members: horizontal bars sorted by value{note}",
        "成员间比较（{members} 个，标签较长或成员较多）：按数值排序的横向条形图{note}",
    ),
    "reason_bars": (
        "comparison across {members} members: bars sorted by value",
        "成员间比较（{members} 个）：按数值排序的柱状图",
    ),
    "reason_period_comparison": (
        "current vs previous period: grouped bars with change",
        "本期与上期对比：分组柱状图并标注变化",
    ),
    "reason_period_comparison_table": (
        "a period comparison needs two measures or a period dimension: shown as a table",
        "期间对比需要两个度量列或一个期间维度，以表格展示",
    ),
    # what a chart shows ---------------------------------------------------------------------------
    "other": ("Other", "其他"),
    "blank": ("(blank)", "（空）"),
    "status_incomplete": ("incomplete", "数据不完整"),
    "status_complete": ("complete", "完整"),
    "data_status": ("Data status", "数据状态"),
    "axis_month_format": ("%b %Y", "%Y年%-m月"),
    "axis_day_format": ("%b %-d", "%-m月%-d日"),
    "share": ("Share", "占比"),
    "share_of": ("Share of {label}", "{label}占比"),
    "total": ("Total", "合计"),
    "period": ("Period", "期间"),
    "measure": ("Measure", "指标"),
    "count": ("Count", "数量"),
    "mark_at": ("{label} ({at})", "{label}（{at}）"),
    "note_incomplete": ("{how}: incomplete data ({count})", "{how}：数据不完整（{count} 个）"),
    "note_interval": ("{how}: {low} – {high}", "{how}：{low} – {high}"),
    "note_folded": ("{count} more members merged into '{other}'", "另有 {count} 个成员合并为“{other}”"),
    "note_change_labels": ("Labels: change of {current} vs {previous}", "标注：{current}相对{previous}的变化"),
    "note_boxplot": ("Box: IQR; whiskers 1.5×IQR; dots: outliers", "箱线：四分位距；须线 1.5 倍四分位距；点为离群值"),
    "how_error_bars": ("Error bars", "误差线"),
    "how_band": ("Band", "阴影"),
    "how_dashed_bars": ("Pale dashed bars", "浅色虚线框"),
    "how_dashed_segments": ("Pale dashed segments", "浅色虚线框"),
    "how_dashed_slices": ("Pale dashed slices", "浅色虚线扇区"),
    "how_in_bins": ("Counted in the bins", "计入直方图"),
    "how_hollow_points": ("Hollow points", "空心点"),
    "how_hollow_dashed": ("Hollow points and dashed lines", "空心点和虚线"),
    # chart errors -------------------------------------------------------------------------------
    "needs_measure": ("a chart needs a measure column", "图表需要一个度量列"),
    "not_applicable": (
        "a {kind} chart needs {missing}: {reason}",
        "{kind} 图表无法绘制此结果（需要 {missing}）：{reason}",
    ),
    "duplicate_columns": ("chart columns must have unique names, got {names}", "图表列名必须唯一，实际为 {names}"),
    "row_width": (
        "chart row {row} has {values} values but there are {width} columns",
        "图表第 {row} 行有 {values} 个值，但共有 {width} 列",
    ),
    "one_role_column": ("at most one '{role}' column is allowed", "最多只能有一个“{role}”列"),
    "font_register_failed": (
        "could not register the CJK font folder {folder}: {error}",
        "无法注册中文字体目录 {folder}：{error}",
    ),
    "no_cjk_font": (
        "no CJK font is available, so Chinese labels would render as boxes; install the '{package}' package "
        "or set {env}",
        "没有可用的中文字体，中文标签会显示为方框；请安装 {package} 或设置 {env}",
    ),
    "render_failed": ("chart rendering failed: {error}", "图表渲染失败：{error}"),
    "spec_not_object": ("a chart spec must be a JSON object, got {kind}", "图表规格必须是 JSON 对象，实际为 {kind}"),
    "spec_invalid_at": (
        "chart spec is not valid Vega-Lite v5 at {where}: {error}",
        "图表规格不符合 Vega-Lite v5 规范（位置 {where}）：{error}",
    ),
    "spec_invalid": ("chart spec is not valid Vega-Lite v5", "图表规格不符合 Vega-Lite v5 规范"),
}
