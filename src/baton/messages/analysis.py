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
    "column_change_whole": ("{label} change, all groups", "{label} 变化量（所有组合计）"),
    "column_change_share": ("part of the {label} change", "占{label}变化量的比例"),
    "headline_change_label": ("{label} change", "{label} 变化量"),
    "headline_change_pct_label": ("{label} relative change", "{label} 变化率"),
    "headline": (
        "{num:headline.current} (current) vs {num:headline.previous} (comparison), change {num:headline.change}.",
        "本期 {num:headline.current}，对比期 {num:headline.previous}，变化 {num:headline.change}。",
    ),
    "headline_pct": (
        "{num:headline.current} (current) vs {num:headline.previous} (comparison), change {num:headline.change} "
        "({num:headline.change_pct}).",
        "本期 {num:headline.current}，对比期 {num:headline.previous}，变化 {num:headline.change}"
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
    # quality agent -------------------------------------------------------------------------
    "quality_summary": ("Ran {checks} checks; {flags} flags.", "运行 {checks} 项检查，{flags} 个问题。"),
    "quality_no_freshness": (
        "no freshness information for the analysed periods",
        "分析期内没有该表的数据更新信息",
    ),
    "quality_stale_in_period": (
        "data only reaches {day}; the analysis runs to {last}",
        "数据只更新到 {day}，分析期截至 {last}",
    ),
    "quality_stale_assumption": ("Days after {day} are treated as having no data.", "{day} 之后的日期按无数据处理。"),
    "quality_stale_lag": ("data lags {lag} days (up to {day})", "数据滞后 {lag} 天（截至 {day}）"),
    "quality_freshness": ("Data up to (loaded at): {tables}", "数据更新至（加载时间）：{tables}"),
    "quality_completeness_label": ("{table} {day} completeness", "{table} {day} 完整度"),
    "quality_current": ("current period", "本期"),
    "quality_comparison": ("comparison period", "对比期"),
    "quality_incomplete": (
        "{rows} rows, about {share} of {usual} ({where})",
        "行数 {rows}，约为{usual}的 {share}（{where}）",
    ),
    "quality_incomplete_assumption": (
        "{table} on {day} is incomplete (about {share} of {usual}): the day is left out "
        "of every comparison (headline change, tests, metric tree, drivers); {direction}",
        "{day} 的 {table} 数据不完整（约为{usual}的 {share}）：该日在所有比较中剔除（总体变化、检验、指标树、"
        "驱动因素）；{direction}",
    ),
    "quality_usual_weekday": ("the usual rows for that weekday in earlier weeks", "前几周同星期常规量"),
    "quality_usual_event": (
        "the rows last year's {event} predicts for its peak day (scaled by this year's other days of it)",
        "按去年{event}折算的峰值日常规量（以今年活动其他日的水平折算）",
    ),
    "quality_bias_low": (
        "as loaded, {label} for that day is understated ({table} enters it as {part}).",
        "按已加载数据，该日的{label}偏低（{table} 是其{part}）。",
    ),
    "quality_bias_high": (
        "as loaded, {label} for that day is overstated ({table} enters it as the denominator).",
        "按已加载数据，该日的{label}偏高（{table} 是其分母）。",
    ),
    "quality_bias_either": (
        "as loaded, {label} for that day may be off in either direction ({table} holds both its numerator and "
        "its denominator).",
        "按已加载数据，该日的{label}可能偏高也可能偏低（{table} 同时提供分子与分母）。",
    ),
    "quality_bias_none": (
        "{label} itself does not read {table}; only the factors of its metric tree that do are affected.",
        "{label}本身不读取 {table}，只影响指标树中读取该表的因子。",
    ),
    "quality_part_numerator": ("the numerator", "分子"),
    "quality_part_whole": ("its source", "数据来源"),
    "quality_incomplete_finding": (
        "{table} on {day} holds only about {num:{key}} of its usual rows.",
        "{table} 在 {day} 只加载了约 {num:{key}} 的数据。",
    ),
    "quality_complete": (
        "{table}: all {days} days of the analysed periods look complete.",
        "{table} 在分析期内 {days} 天数据完整。",
    ),
    "quality_nulls": (
        "{column} is empty on {missing} rows ({share})",
        "{column} 有 {missing} 行为空（{share}）",
    ),
    "quality_nulls_label": ("{table}.{column} empty share", "{table}.{column} 为空占比"),
    "quality_nulls_assumption": (
        "Rows with an empty {column} belong to no {column} member.",
        "{column} 为空的行不属于任何 {column} 成员。",
    ),
    "quality_duplicates": (
        "{rows} rows repeat the key ({keys})",
        "键 ({keys}) 有 {rows} 行重复",
    ),
    "quality_duplicates_assumption": ("Duplicate rows are counted as they are.", "重复行按原样计入。"),
    "quality_late_label": ("{table} late updates", "{table} 晚到更新占比"),
    "quality_late": (
        "about {share} of rows are updated more than {lag} days after their date (e.g. refunds); "
        "the last days of the period may still change",
        "约 {share} 的行在其日期 {lag} 天后仍被更新（如退款），本期末几天可能仍会变化",
    ),
    "quality_late_assumption": (
        "The last days of the period are taken as loaded, as if final.",
        "本期最后几天的数据按当前加载状态视为最终值。",
    ),
    # stats agent ----------------------------------------------------------------------------
    "ci_low": ("95% CI low", "95% 区间下限"),
    "ci_high": ("95% CI high", "95% 区间上限"),
    "stats_period_without_data": ("a period has no data", "某一期没有数据"),
    "stats_period_incomplete": (
        "Every day of {start} to {end} is incomplete (far fewer rows than the same weekday in earlier weeks): "
        "its change is the data's, not the business's, so there is nothing to explain until it is loaded in full.",
        "{start} 至 {end} 的每一天数据都不完整（行数明显低于前几周同星期）：这一变化来自数据加载，而非业务；"
        "数据完整加载前无法分析这一变化。",
    ),
    "stats_day_incomplete": (
        "{start} is incomplete (far fewer rows than the same weekday in earlier weeks): its change is the data's, "
        "not the business's, so there is nothing to explain until it is loaded in full.",
        "{start} 的数据不完整（行数明显低于前几周同星期）：这一变化来自数据加载，而非业务；数据完整加载前无法分析这一变化。",
    ),
    "stats_days_left_out": (" (incomplete days left out: {days})", "（剔除不完整日期 {days}）"),
    "method_welch": ("Welch two-sample t-test", "Welch 双样本 t 检验"),
    "method_student": ("Student two-sample t-test (pooled variance)", "Student 双样本 t 检验（合并方差）"),
    "stats_independent_days": (
        "Daily values are treated as independent samples ({method}){note}.",
        "每日数值视为相互独立的样本（{method}）{note}。",
    ),
    "stats_next_step": (
        "Drill down by dimension to find where the change came from.",
        "按维度下钻，找出变化来源。",
    ),
    "stats_significant": ("Significant change.", "变化显著。"),
    "stats_not_significant": ("Change not significant.", "变化不显著。"),
    "stats_welch_name": ("{label} daily mean: current vs comparison", "{label} 日均值：本期与对比期之差"),
    "stats_relative_name": ("{label} daily mean, relative change", "{label} 日均值相对变化"),
    "stats_rel_label": ("relative change of the daily mean", "日均值相对变化"),
    "stats_verdict_yes": ("; the change is significant.", "，变化显著。"),
    "stats_verdict_no": ("; the change is not significant.", "，变化不显著。"),
    "stats_headline": (
        "The daily mean changed by {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to "
        "{num:stats.rel_ci_high}), p {p_rel} {num:stats.p_value}, Cohen's d = {num:stats.cohen_d}{verdict}",
        "日均值相对变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），"
        "p {p_rel} {num:stats.p_value}，Cohen's d = {num:stats.cohen_d}{verdict}",
    ),
    "stats_headline_p_only": (
        "Daily mean change: p {p_rel} {num:stats.p_value}{verdict}",
        "日均值变化：p {p_rel} {num:stats.p_value}{verdict}",
    ),
    "stats_rate_name": ("{label}: current vs comparison", "{label}：本期与对比期之差"),
    "stats_rate_previous": ("comparison rate", "对比期比率"),
    "stats_rate_current": ("current rate", "本期比率"),
    "stats_rate_diff": ("rate difference", "比率差"),
    "stats_rate_finding": (
        "The rate moved from {num:stats.rate_previous} to {num:stats.rate_current}, a difference of "
        "{num:stats.rate_diff} (Newcombe 95% CI {num:stats.rate_ci_low} to {num:stats.rate_ci_high}), "
        "p {p_rel} {num:stats.rate_p}, Cohen's h = {num:stats.cohen_h}.",
        "比率由 {num:stats.rate_previous} 变为 {num:stats.rate_current}，差 {num:stats.rate_diff}（Newcombe 95% 区间 "
        "{num:stats.rate_ci_low} 至 {num:stats.rate_ci_high}），p {p_rel} {num:stats.rate_p}，Cohen's h = {num:stats.cohen_h}。",
    ),
    "comparable_previous": ("comparison period, comparable days", "对比期（可比口径）"),
    "comparable_current": ("current period, comparable days", "本期（可比口径）"),
    "comparable_change": ("change, comparable days", "变化量（可比口径）"),
    "comparable_change_pct": ("relative change, comparable days", "变化率（可比口径）"),
    "comparable_basis": (
        "both periods per day, put on the current period's length",
        "两期按日均折算到本期天数",
    ),
    "comparable_basis_excluded": (
        "both periods per complete day (left out: {days}), put on the current period's length",
        "两期按完整日的日均（剔除 {days}）折算到本期天数",
    ),
    "per_day_distinct": ("{label} (distinct per day, days added up)", "{label}（按日去重后相加）"),
    "comparable_basis_distinct": (
        "; a distinct count in {metric} is counted per day and added up (e.g. buyer-days), not once over the "
        "whole period as its definition counts it",
        "；{metric}中的去重计数按日去重后相加（如买家·天），不是其口径的整期去重",
    ),
    "comparable_pct": (
        "On comparable days ({basis}): {num:comparable.current} vs {num:comparable.previous}, change "
        "{num:comparable.change} ({num:comparable.change_pct}).",
        "可比口径（{basis}）：本期 {num:comparable.current}，对比期 {num:comparable.previous}，"
        "变化 {num:comparable.change}（{num:comparable.change_pct}）。",
    ),
    "comparable": (
        "On comparable days ({basis}): {num:comparable.current} vs {num:comparable.previous}, change "
        "{num:comparable.change}.",
        "可比口径（{basis}）：本期 {num:comparable.current}，对比期 {num:comparable.previous}，变化 {num:comparable.change}。",
    ),
    "event_peak": ("{day} is the peak day of {event} (catalog calendar).", "{day} 是{event}的高峰日（目录日历）。"),
    "event_window": ("{day} falls within {event} (catalog calendar).", "{day} 处于{event}期间（目录日历）。"),
    "event_in_previous_only": (
        "The comparison period ({period}) holds days of {event} ({first} to {last}{peak}) and the current one "
        "none: the two are not like for like (catalog calendar).",
        "对比期（{period}）含{event}的日子（{first} 至 {last}{peak}），本期没有：两期不是同类日子相比（目录日历）。",
    ),
    "event_on_unlike_days": (
        "Both periods hold days of {event}, but not alike: the current one {current}, the comparison period "
        "{previous} (catalog calendar).",
        "两期都含{event}的日子，但并不相同：本期 {current}，对比期 {previous}（目录日历）。",
    ),
    "event_days_held": ("{first} to {last}, {count} days{peak}", "{first} 至 {last}，共 {count} 天{peak}"),
    "event_in_current_only": (
        "The current period ({period}) holds days of {event} ({first} to {last}{peak}) and the comparison "
        "period none: the two are not like for like (catalog calendar).",
        "本期（{period}）含{event}的日子（{first} 至 {last}{peak}），对比期没有：两期不是同类日子相比（目录日历）。",
    ),
    "event_peak_said": ("; its peak {day}", "，高峰日 {day}"),
    "event_period": ("{start} to {end}", "{start} 至 {end}"),
    # trend agent ----------------------------------------------------------------------------
    "ratio_part_num": ("{label}'s numerator", "{label}的分子"),
    "ratio_part_den": ("{label}'s denominator", "{label}的分母"),
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
        "Mann–Kendall p {p_rel} {num:trend.mk_p}.",
        "本期（剔除日历事件与不完整日期）{words}：斜率 {num:trend.slope}（95% 区间 {num:trend.slope_low} 至 "
        "{num:trend.slope_high}），Mann–Kendall p {p_rel} {num:trend.mk_p}。",
    ),
    "trend_change_point": (
        "Over both periods the mean shifts around {days} ({count} change point(s), calendar-event days left out).",
        "两期合并看，均值在 {days} 前后发生变化（共 {count} 个变点，已剔除日历事件日期）。",
    ),
    "trend_high_day": ("high", "高"),
    "trend_low_day": ("low", "低"),
    "trend_day_marked": ("{day} ({mark})", "{day}（{mark}）"),
    "trend_anomalies": (
        "Days unusual against the same weekday of earlier weeks: {days}.",
        "与前几周同星期相比的异常日：{days}。",
    ),
    "trend_events": (
        "The periods include {events}: treated as calendar-event peaks, not as trend or anomaly.",
        "两期中包含 {events}：按日历事件高峰处理，不计为趋势或异常。",
    ),
    "trend_summary": ("Analysed {days} days of trend.", "分析了 {days} 天的走势。"),
    # insight agent --------------------------------------------------------------------------
    "insight_summary": (
        "{drills} drill-downs, {tests} tests, {drivers} drivers.",
        "{drills} 个下钻，{tests} 个检验，{drivers} 个驱动因素。",
    ),
    "insight_no_driver": (
        "Tested {tests} member × factor combinations (BH-adjusted): no member changed significantly both on its own "
        "and against the rest, so the change cannot be pinned on any one member.",
        "检验了 {tests} 个成员×因子组合（BH 校正）：没有成员在自身和相对其余部分上都有显著变化，因此无法把变化落在某一个成员上。",
    ),
    "insight_no_driver_most": (
        "Tested {tests} member × factor combinations (BH-adjusted): none passed both tests. {members} carries most "
        "of the change, but at this volume it cannot be told apart from the rest, so it is not called a driver.",
        "检验了 {tests} 个成员×因子组合（BH 校正）：没有成员同时通过两项检验。{members} 占了大部分变化，但在这样的数据量下"
        "无法与其余部分区分开，因此不称为驱动因素。",
    ),
    "insight_no_dimension": (
        "No dimension to drill into (the metric has none, or filters fix each to one member): where the change "
        "sits cannot be said.",
        "没有可下钻的维度（指标没有维度，或筛选条件已将每个维度固定为单一成员）：无法说明变化发生在哪里。",
    ),
    "insight_no_driver_broad": (
        "Tested {tests} member × factor combinations (BH-adjusted): {passed} changed significantly, but each "
        "carries less than 5% of the change, so none is a driver: the change happened broadly, inside every member.",
        "检验了 {tests} 个成员×因子组合（BH 校正）：{passed} 个有显著变化，但每个都不足总变化的 5%，均不构成驱动因素："
        "变化普遍发生在各成员内部。",
    ),
    "insight_no_driver_mixed": (
        "Tested {tests} member × factor combinations (BH-adjusted): {passed} changed significantly, but each "
        "less than or against the rest, so none is a driver of the change.",
        "检验了 {tests} 个成员×因子组合（BH 校正）：{passed} 个有显著变化，但变化幅度小于其余部分或方向相反，均不构成驱动因素。",
    ),
    "insight_stance_driver": ("driver", "驱动因素"),
    "insight_stance_offset": ("offsetting", "反向抵消"),
    "insight_stance_contribution": ("contribution", "贡献"),
    "insight_contribution_label": ("contribution of {members}", "{members} 的贡献"),
    "insight_share_label": ("share of the change", "占总变化"),
    "insight_factor_change_label": ("{factor}, change of the daily mean", "{factor} 日均值变化"),
    "insight_excess_label": ("change relative to the rest", "相对其余部分的变化"),
    "insight_before": ("before", "变化前"),
    "insight_after": ("after", "变化后"),
    "insight_weight_before": ("share before", "变化前占比"),
    "insight_weight_after": ("share after", "变化后占比"),
    "insight_per_day_total_label": ("total change, distinct per day added up", "总变化（按日去重后相加）"),
    "insight_share_of_per_day": (
        " of {{num:{k}.basis_total}}, the change with distinct counts per day added up",
        "，总变化按日去重后相加为 {{num:{k}.basis_total}}",
    ),
    "insight_share_beyond": (
        "; more than the whole change: other parts moved the other way",
        "；超过总变化：其他部分反向变动",
    ),
    "insight_driver": (
        "{members} ({stance}): {factor} {num:{k}.before} → {num:{k}.after}, daily values {num:{k}.own} on "
        "average (95% CI "
        "{num:{k}.ci_low} to {num:{k}.ci_high}), {num:{k}.excess} relative to the rest, q {rel} {num:{k}.q}; "
        "contribution {num:{k}.change} ({num:{k}.share} of the change{beyond}).",
        "{members}（{stance}）：{factor} {num:{k}.before} → {num:{k}.after}，日均值变化 {num:{k}.own}（95% 区间 "
        "{num:{k}.ci_low} 至 {num:{k}.ci_high}），相对其余部分 {num:{k}.excess}，q {rel} {num:{k}.q}；"
        "贡献 {num:{k}.change}（占总变化 {num:{k}.share}{beyond}）。",
    ),
    "insight_mix_driver": (
        "{members} ({stance}): its share of {factor} went from {num:{k}.before} to {num:{k}.after} "
        "(daily share {num:{k}.own} on average, 95% CI {num:{k}.ci_low} to {num:{k}.ci_high}, q {rel} {num:{k}.q}), "
        "the largest shift; "
        "the shift of {factor} between all {dim} members together contributed {num:{k}.change} "
        "({num:{k}.share} of the change{beyond}).",
        "{members}（{stance}）：其在{factor}中的占比由 {num:{k}.before} 变为 {num:{k}.after}（日占比平均变化 {num:{k}.own}，95% 区间 "
        "{num:{k}.ci_low} 至 {num:{k}.ci_high}，q {rel} {num:{k}.q}），变动最大；{factor}在全部{dim}之间的"
        "结构变化合计贡献 {num:{k}.change}（占总变化 {num:{k}.share}{beyond}）。",
    ),
    "insight_within_label": ("rate effect within members", "成员内比率效应"),
    "insight_between_label": ("mix effect between members", "成员间结构效应"),
    "insight_mix_dominates": (
        "By {dim}, the change is mostly mix: the shift of {weight} between {dim} members contributed "
        "{num:mix.between}, while {label} within each {dim} member contributed only {num:mix.within}.",
        "按{dim}看，变化主要来自结构：{weight}在各{dim}之间的转移贡献 {num:mix.between}，各{dim}内部的{label}"
        "变化只贡献 {num:mix.within}。",
    ),
    "insight_rate_dominates": (
        "By {dim}, the change is mostly rate: {label} within the {dim} members contributed {num:mix.within}, "
        "the shift of {weight} between them {num:mix.between}.",
        "按{dim}看，变化主要来自比率本身：各{dim}内部的{label}变化贡献 {num:mix.within}，{weight}在各{dim}之间的"
        "转移贡献 {num:mix.between}。",
    ),
    "insight_path_dimension": ("dimension: {label}", "维度：{label}"),
    "insight_dimension_echo": (
        "its significant changes are part of the drivers above (smallest q {q}).",
        "其显著变化已包含在上述驱动因素中（最小 q {q}）。",
    ),
    "insight_dimension_composition": (
        "its significant changes are composition — members' mix shifting inside it, or another dimension's mix "
        "echoed — not changes of their own (smallest q {q}).",
        "其显著变化只是结构变化（内部构成或另一维度的结构变化的反映），并非自身变化（最小 q {q}）。",
    ),
    "insight_dimension_immaterial": (
        "its significant changes each carry less than 5% of the whole change (smallest q {q}).",
        "其显著变化各自不足总变化的 5%（最小 q {q}）。",
    ),
    "insight_dimension_minor": (
        "its significant changes are small next to the drivers above (smallest q {q}).",
        "其显著变化与上述驱动因素相比很小（最小 q {q}）。",
    ),
    "insight_dimension_against": (
        "members that changed significantly moved less than, or against, the rest (smallest q {q}).",
        "有显著变化的成员，其变化小于其余部分或方向相反（最小 q {q}）。",
    ),
    "insight_dimension_shared": (
        "its members changed, but together with the rest of the data (smallest q {q}).",
        "其成员有变化，但与其余部分同步（最小 q {q}）。",
    ),
    "insight_dimension_sparse": (
        "its members changed, but too few events a day to tell whether any moved apart from the rest (smallest q {q}).",
        "其成员有变化，但每天的事件太少，无法判断是否有成员与其余部分不同（最小 q {q}）。",
    ),
    "insight_dimension_flat": (
        "no significant change of any {label} member, on its own or against the rest (smallest q {q}).",
        "没有哪个{label}成员有显著变化（自身或相对其余部分；最小 q {q}）。",
    ),
    "insight_dimension_fixed": (
        "a filter fixes {label} to one member: not drilled.",
        "筛选条件已将{label}固定为单一成员，不做下钻。",
    ),
    "insight_path_factor": ("factor: {label}", "因子：{label}"),
    "insight_factor_echo": (
        "its significant changes are part of the drivers above (smallest q {q}).",
        "{label}的显著变化已包含在上述驱动因素中（最小 q {q}）。",
    ),
    "insight_factor_composition": (
        "its significant changes are composition — members' mix shifting — not changes of {label} itself "
        "(smallest q {q}).",
        "{label}的显著变化只是结构变化，并非{label}本身的变化（最小 q {q}）。",
    ),
    "insight_factor_immaterial": (
        "the significant changes of {label} each carry less than 5% of the whole change (smallest q {q}).",
        "{label}的显著变化各自不足总变化的 5%（最小 q {q}）。",
    ),
    "insight_factor_minor": (
        "the significant changes of {label} are small next to the drivers above (smallest q {q}).",
        "{label}的显著变化与上述驱动因素相比很小（最小 q {q}）。",
    ),
    "insight_factor_against": (
        "members whose {label} changed significantly moved less than, or against, the rest (smallest q {q}).",
        "{label}有显著变化的成员，其变化小于其余部分或方向相反（最小 q {q}）。",
    ),
    "insight_factor_shared": (
        "{label} changed, but alike in every member (smallest q {q}).",
        "{label}有变化，但各成员同步（最小 q {q}）。",
    ),
    "insight_factor_sparse": (
        "{label} changed, but too few events a day to tell whether any member moved apart from the rest "
        "(smallest q {q}).",
        "{label}有变化，但每天的事件太少，无法判断是否有成员与其余部分不同（最小 q {q}）。",
    ),
    "insight_factor_flat": (
        "no significant change of {label} in any member (smallest q {q}).",
        "任何成员的{label}都没有显著变化（最小 q {q}）。",
    ),
    "insight_path_single": ("single-dimension readings: {members}", "单维度解释：{members}"),
    "insight_single_reason": (
        "their change is concentrated in a more specific pair, or is composition inside them (see drivers).",
        "其变化集中在更具体的维度组合中，或只是其内部结构变化（见驱动因素）。",
    ),
    "insight_tree_effect_label": ("{factor} effect", "{factor} 的贡献"),
    "insight_tree": (
        "Metric tree (LMDI on comparable days; the factor effects sum to the change): {parts}.",
        "指标树分解（LMDI，可比口径，各因子贡献之和等于总变化）：{parts}。",
    ),
    "insight_tree_mix_label": ("of which mix", "其中结构效应"),
    "insight_tree_mix": (
        " Of {factor}'s effect, {num:tree.mix} is the {dim} mix (weight moving between {dim} members), not "
        "{factor} within them.",
        "其中{factor}的贡献里有 {num:tree.mix} 来自{dim}结构变化（权重在各{dim}之间转移），而非各{dim}内部的{factor}变化。",
    ),
    "insight_rule": (
        "A driver is a member whose factor changed on its own and relative to the rest of the data, the same way "
        "(Welch tests on daily values, both required; BH across {tests} tests, q ≤ {q}); contributions are LMDI "
        "for sums and rate/mix shift-share for ratios, so they add up to the change on comparable days. "
        "Drivers say where the change sits; they are not evidence of what produced it.",
        "驱动因素的判定：某成员因子的自身变化与相对其余部分的变化都通过检验且方向一致（每日数值 Welch 检验，两者都须成立；"
        "BH 校正 {tests} 个检验，q ≤ {q}）；贡献按 LMDI（加总指标）或比率/结构分解（比率指标）计算，"
        "各部分之和等于可比口径下的总变化。驱动因素说明变化发生在哪里，不代表因果。",
    ),
    "insight_against": (
        "{count} significant member changes moved less than, or against, the rest: not treated as drivers.",
        "{count} 个显著的成员变化小于其余部分或方向相反，不列为驱动因素。",
    ),
    "insight_fixed": (
        "Dimensions with a single member in the data (fixed by a filter): {dims} — not drilled.",
        "数据中只有单一成员的维度（被筛选条件固定）：{dims}——不做下钻。",
    ),
    "insight_against_label": ("changes less than or against the rest", "小于或反向于其余部分的变化数"),
    "insight_tests_label": ("tests run", "检验数"),
    "insight_passed_label": ("member tests passed", "通过检验的成员数"),
    "insight_q_label": ("q threshold", "显著性阈值 q"),
    "insight_drills_label": ("drill-downs", "下钻数"),
    "insight_best_q_label": ("smallest q", "最小 q"),
}
