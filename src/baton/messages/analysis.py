"""Findings, assumptions, flags and excluded paths of the analysis agents (``analysis.<key>``).

Templates may hold ``{num:key}`` placeholders: they survive formatting and are rendered later
from the structured number (its exact value and precision), never re-typed here.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # shared ---------------------------------------------------------------------------------
    "no_plan": ("The packet carries no plan.", "任务包中没有查询计划。"),
    "unit_count": ("count", "个"),
    "unit_number": ("units", "单位"),
    "unit_pp": ("pp", "个百分点"),
    "agent_failed": ("The {agent} agent could not finish: {issues}", "{agent} 智能体未能完成：{issues}"),
    "goal_why": ("explain why the metric moved", "解释指标变化的原因"),
    "constraint_read_only": (
        "Read-only; every query compiles through the catalog and passes the firewall as the asking user.",
        "只读；所有查询经目录编译并以提问用户身份通过防火墙。",
    ),
    "constraint_exact_numbers": ("Quote numbers exactly; never re-tell them.", "数字原样引用，不得改写。"),
    # sql agent ----------------------------------------------------------------------------------
    "column_previous": ("{label} (comparison period)", "{label}（对比期）"),
    "column_change_pct": ("{label} relative change", "{label} 变化率"),
    "column_change": ("{label} change", "{label} 变化量"),
    "headline_change_label": ("{label} change", "{label} 变化量"),
    "headline_change_pct_label": ("{label} relative change", "{label} 变化率"),
    "headline": (
        "{num:headline.current} (current) vs {num:headline.previous} (comparison), change {num:headline.change}.",
        "{num:headline.current}（本期） vs {num:headline.previous}（对比期），变化 {num:headline.change}。",
    ),
    "headline_pct": (
        "{num:headline.current} (current) vs {num:headline.previous} (comparison), change {num:headline.change} "
        "({num:headline.change_pct}).",
        "{num:headline.current}（本期） vs {num:headline.previous}（对比期），变化 {num:headline.change}"
        "（{num:headline.change_pct}）。",
    ),
    "no_comparison_value": ("The comparison returned no value for one period.", "对比查询没有返回两期的数值。"),
    "days_without_rows": ("No rows on: {days}", "以下日期没有数据：{days}"),
    "filter_definition": ("metric definition", "指标口径"),
    "filter_question": ("filter from the question", "问题中的筛选"),
    "filter_periods": ("current and comparison periods", "本期与对比期"),
    "sql_summary": ("Ran 2 queries ({first}, {second}).", "运行了 2 条查询（{first}, {second}）。"),
    "daily_series_logic": (
        "daily series (evidence {evidence}): {components} summed per day, {start} to {end}",
        "日序列（证据 {evidence}）：按天汇总 {components}，{start} 至 {end}",
    ),
    "daily_series_note": ("rows are the daily series (evidence {evidence})", "rows 为日序列（证据 {evidence}）"),
    "comparison_previous_period": (
        "The comparison period is {start} to {end} (previous period).",
        "对比期为 {start} 至 {end}（环比）。",
    ),
    "comparison_custom": (
        "The comparison period is {start} to {end} (the period the question names).",
        "对比期为 {start} 至 {end}（问题中指定的期间）。",
    ),
    "comparison_same_period_last_year": (
        "The comparison period is {start} to {end} (same period last year).",
        "对比期为 {start} 至 {end}（同比）。",
    ),
    # quality agent -------------------------------------------------------------------------
    "quality_summary": ("Ran {checks} checks; {flags} flags.", "运行 {checks} 项检查，{flags} 个问题。"),
    "quality_no_freshness": (
        "stale: no freshness information for the analysed periods",
        "stale: 分析期内没有该表的数据更新信息",
    ),
    "quality_stale_in_period": (
        "stale: data only reaches {day}; the analysis runs to {last}",
        "stale: 数据只更新到 {day}，分析期截至 {last}",
    ),
    "quality_stale_assumption": ("Days after {day} are treated as having no data.", "{day} 之后的日期按无数据处理。"),
    "quality_stale_lag": ("stale: data lags {lag} days (up to {day})", "stale: 数据滞后 {lag} 天（截至 {day}）"),
    "quality_freshness": ("Data up to (loaded at): {tables}", "数据更新至（加载时间）：{tables}"),
    "quality_completeness_label": ("{table} {day} completeness", "{table} {day} 完整度"),
    "quality_current": ("current period", "本期"),
    "quality_comparison": ("comparison period", "对比期"),
    "quality_incomplete": (
        "incomplete: {rows} rows, about {share} of the same weekday in earlier weeks ({where})",
        "incomplete: 行数 {rows}，约为同星期前几周的 {share}（{where}）",
    ),
    "quality_incomplete_assumption": (
        "{table} on {day} is incomplete (about {share} of the usual rows for that weekday): it is left out of "
        "the daily tests; period totals use the data as loaded and may be understated.",
        "{day} 的 {table} 数据不完整（约为同星期常规量的 {share}）：日均值检验剔除该日；期间合计按已加载数据计算，可能偏低。",
    ),
    "quality_incomplete_finding": (
        "{table} on {day} holds only about {num:{key}} of its usual rows.",
        "{table} 在 {day} 只加载了约 {num:{key}} 的数据。",
    ),
    "quality_complete": (
        "{table}: all {days} days of the analysed periods look complete.",
        "{table} 在分析期内 {days} 天数据完整。",
    ),
    "quality_nulls": (
        "nulls: {column} is empty on {missing} rows ({share})",
        "nulls: {column} 有 {missing} 行为空（{share}）",
    ),
    "quality_nulls_assumption": (
        "Rows with an empty {column} belong to no {column} member.",
        "{column} 为空的行不属于任何 {column} 成员。",
    ),
    "quality_duplicates": (
        "duplicates: {rows} rows repeat the key ({keys})",
        "duplicates: 键 ({keys}) 有 {rows} 行重复",
    ),
    "quality_duplicates_assumption": ("Duplicate rows are counted as they are.", "重复行按原样计入。"),
    "quality_late_label": ("{table} late updates", "{table} 晚到更新占比"),
    "quality_late": (
        "late_arriving: about {share} of rows are updated more than {lag} days after their date (e.g. refunds); "
        "the last days of the period may still change",
        "late_arriving: 约 {share} 的行在其日期 {lag} 天后仍被更新（如退款），本期末几天可能仍会变化",
    ),
    "quality_late_assumption": (
        "The last days of the period are taken as loaded, as if final.",
        "本期最后几天的数据按当前加载状态视为最终值。",
    ),
    # stats agent ----------------------------------------------------------------------------
    "ci_low": ("95% CI low", "95% 区间下限"),
    "ci_high": ("95% CI high", "95% 区间上限"),
    "stats_period_without_data": ("a period has no data", "某一期没有数据"),
    "stats_days_left_out": (" (incomplete days left out: {days})", "（剔除不完整日期 {days}）"),
    "stats_independent_days": (
        "Daily values are treated as independent samples (Welch t-test){note}.",
        "每日数值视为相互独立的样本（Welch t 检验）{note}。",
    ),
    "stats_next_step": (
        "Drill down by dimension to find where the change came from.",
        "按维度下钻，找出变化来源。",
    ),
    "stats_significant": ("Significant change.", "变化显著。"),
    "stats_not_significant": ("Change not significant.", "变化不显著。"),
    "stats_welch_name": ("{label} daily mean: current vs comparison", "{label} 日均值：本期 vs 对比期"),
    "stats_relative_name": ("{label} daily mean, relative change", "{label} 日均值相对变化"),
    "stats_rel_label": ("relative change of the daily mean", "日均值相对变化"),
    "stats_verdict_yes": ("; the change is significant.", "，变化显著。"),
    "stats_verdict_no": ("; the change is not significant.", "，变化不显著。"),
    "stats_headline": (
        "The daily mean changed by {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to "
        "{num:stats.rel_ci_high}), p = {num:stats.p_value}, Cohen's d = {num:stats.cohen_d}{verdict}",
        "日均值相对变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），"
        "p = {num:stats.p_value}，Cohen's d = {num:stats.cohen_d}{verdict}",
    ),
    "stats_headline_p_only": ("Daily mean change: p = {num:stats.p_value}.", "日均值变化：p = {num:stats.p_value}。"),
    "stats_rate_name": ("{label}: current vs comparison", "{label}：本期 vs 对比期"),
    "stats_rate_previous": ("comparison rate", "对比期比率"),
    "stats_rate_current": ("current rate", "本期比率"),
    "stats_rate_diff": ("rate difference", "比率差"),
    "stats_rate_finding": (
        "The rate moved from {num:stats.rate_previous} to {num:stats.rate_current}, a difference of "
        "{num:stats.rate_diff} (Newcombe 95% CI {num:stats.rate_ci_low} to {num:stats.rate_ci_high}), "
        "p = {num:stats.rate_p}, Cohen's h = {num:stats.cohen_h}.",
        "比率由 {num:stats.rate_previous} 变为 {num:stats.rate_current}，差 {num:stats.rate_diff}（Newcombe 95% 区间 "
        "{num:stats.rate_ci_low} 至 {num:stats.rate_ci_high}），p = {num:stats.rate_p}，Cohen's h = {num:stats.cohen_h}。",
    ),
    # trend agent ----------------------------------------------------------------------------
    "trend_per_day": ("{unit}/day", "{unit}/天"),
    "trend_slope_label": ("{label} daily slope, current period", "{label} 本期日斜率"),
    "trend_slope_low": ("slope 95% CI low", "斜率 95% 区间下限"),
    "trend_slope_high": ("slope 95% CI high", "斜率 95% 区间上限"),
    "trend_up": ("rising", "上升"),
    "trend_down": ("falling", "下降"),
    "trend_flat": ("without a clear trend", "无明显趋势"),
    "trend_slope": (
        "Within the current period (calendar events and incomplete days left out) the series is {words}: "
        "slope {num:trend.slope} (95% CI {num:trend.slope_low} to {num:trend.slope_high}), "
        "Mann–Kendall p = {num:trend.mk_p}.",
        "本期（剔除日历事件与不完整日期）{words}：斜率 {num:trend.slope}（95% 区间 {num:trend.slope_low} 至 "
        "{num:trend.slope_high}），Mann–Kendall p = {num:trend.mk_p}。",
    ),
    "trend_change_point": (
        "The mean shifts around {day} ({count} change point(s), calendar-event days left out).",
        "均值在 {day} 前后发生变化（共 {count} 个变点，已剔除日历事件日期）。",
    ),
    "trend_high_day": ("high", "高"),
    "trend_low_day": ("low", "低"),
    "trend_anomalies": (
        "Days unusual against the same weekday of earlier weeks: {days}.",
        "与前几周同星期相比的异常日：{days}。",
    ),
    "trend_events": (
        "The periods include {events}: treated as calendar-event peaks, not as trend or anomaly.",
        "分析期包含 {events}：按日历事件高峰处理，不计为趋势或异常。",
    ),
    "trend_summary": ("Analysed {days} days of trend.", "分析了 {days} 天的走势。"),
    # insight agent --------------------------------------------------------------------------
    "insight_summary": (
        "{drills} drill-downs, {tests} tests, {drivers} drivers.",
        "{drills} 个下钻，{tests} 个检验，{drivers} 个驱动因素。",
    ),
    "insight_no_driver": (
        "Tested {tests} member × factor combinations (BH-adjusted): no significant driver; the change is shared "
        "across every dimension.",
        "检验了 {tests} 个成员×因子组合（BH 校正），没有显著的驱动因素：变化在各维度上是普遍的。",
    ),
    "insight_contribution_label": ("contribution of {members}", "{members} 的贡献"),
    "insight_share_label": ("share of the change", "占总变化"),
    "insight_factor_change_label": ("{factor} change", "{factor} 变化"),
    "insight_excess_label": ("change relative to the rest", "相对其余部分的变化"),
    "insight_driver": (
        "{members}: {factor} changed {num:{k}.factor_change}, {num:{k}.excess} relative to the rest (95% CI "
        "{num:{k}.ci_low} to {num:{k}.ci_high}, q {rel} {num:{k}.q}), contributing {num:{k}.change} "
        "({num:{k}.share} of the change).",
        "{members}：{factor}变化 {num:{k}.factor_change}，相对其余部分 {num:{k}.excess}（95% 区间 {num:{k}.ci_low} 至 "
        "{num:{k}.ci_high}，q {rel} {num:{k}.q}），贡献 {num:{k}.change}（占总变化 {num:{k}.share}）。",
    ),
    "insight_path_dimension": ("dimension: {label}", "维度：{label}"),
    "insight_dimension_echo": (
        "its significant differences only echo the drivers above (smallest q {q}).",
        "其显著差异只是上述驱动因素的反映（最小 q {q}）。",
    ),
    "insight_dimension_flat": (
        "no {label} member moved differently from the rest (smallest q {q}).",
        "没有哪个{label}成员的变化与其余部分显著不同（最小 q {q}）。",
    ),
    "insight_path_factor": ("factor: {label}", "因子：{label}"),
    "insight_factor_echo": (
        "its significant differences only echo the drivers above or are immaterial (smallest q {q}).",
        "{label}的显著差异只是上述驱动因素的反映或影响很小（最小 q {q}）。",
    ),
    "insight_factor_flat": (
        "no member's {label} moved differently from the rest (smallest q {q}).",
        "任何成员的{label}都没有与其余部分显著不同的变化（最小 q {q}）。",
    ),
    "insight_path_single": ("single-dimension readings: {members}", "单维度解释：{members}"),
    "insight_single_reason": (
        "their change is concentrated in a more specific pair (see drivers).",
        "其变化集中在更具体的维度组合中（见驱动因素）。",
    ),
    "insight_tree_effect_label": ("{factor} effect", "{factor} 的贡献"),
    "insight_tree": (
        "Metric tree (LMDI; the factor effects sum to the change): {parts}.",
        "指标树分解（LMDI，各因子贡献之和等于总变化）：{parts}。",
    ),
    "insight_rule": (
        "A driver is a member whose factor moved relative to the rest of the data: daily member/rest ratios, "
        "Welch test, BH across {tests} tests (q ≤ {q}).",
        "驱动因素按“相对其余部分的变化”判定：每日成员/其余之比，Welch 检验，BH 校正 {tests} 个检验（q ≤ {q}）。",
    ),
    "insight_offsets": (
        "{count} significant differences against the direction of the change are treated as offsets, not drivers.",
        "{count} 个与总变化方向相反的显著差异按“抵消项”处理，不列为驱动因素。",
    ),
    "insight_tests_label": ("tests run", "检验数"),
    "insight_q_label": ("q threshold", "显著性阈值 q"),
    "insight_offsets_label": ("offsets", "抵消项数"),
    "insight_drills_label": ("drill-downs", "下钻数"),
    "insight_best_q_label": ("smallest q", "最小 q"),
}
