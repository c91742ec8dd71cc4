"""Answer sentences, report headings and failure texts (``answer.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "list_sep": (", ", "、"),
    "and_sep": (" and ", "、"),
    # the answer sentence (the narrator) -----------------------------------------------------------
    "grain_day": ("day", "天"),
    "grain_week": ("week", "周"),
    "grain_month": ("month", "月"),
    "grain_quarter": ("quarter", "季度"),
    "grain_year": ("year", "年"),
    "filter_part": ("{dim} = {members}", "{dim}={members}"),
    "filter_sep": ("; ", "；"),
    "filters": (" ({parts})", "（{parts}）"),
    "metric_sep": (" ", ""),
    "no_rows": ("No data matched for {period}{filters}.", "{period}{filters}没有查到符合条件的数据。"),
    "value": ("{label}{filters} for {period} was {value}.", "{period}{filters}的{label}为 {value}。"),
    "kind_previous_period": ("vs the previous period", "环比"),
    "kind_same_period_last_year": ("vs the same period last year", "同比"),
    "comparison": (
        "{label}{filters} for {period} was {current}, {pct} {kind} ({previous_period}: {previous}).",
        "{period}{filters}的{label}为 {current}，对比期（{previous_period}）为 {previous}，{kind} {pct}。",
    ),
    "smallest_rise": ("smallest rise", "增幅最小"),
    "largest_fall": ("largest fall", "降幅最大"),
    "smallest_fall": ("smallest fall", "降幅最小"),
    "largest_rise": ("largest rise", "增幅最大"),
    "comparison_groups": (
        "{label}{filters} for {period}, {kind} ({previous_period}): {low_word} {low} ({low_pct}, {low_value}), "
        "{high_word} {high} ({high_pct}, {high_value}).",
        "{period}{filters}各组{label}{kind}：{low_word}的是 {low}（{low_pct}，{low_value}），"
        "{high_word}的是 {high}（{high_pct}，{high_value}）；对比期为 {previous_period}。",
    ),
    "series": (
        "{label}{filters} by {grain} for {period}: {count} points, from {first_value} ({first}) to {last_value} "
        "({last}); peak {peak_value} ({peak}).",
        "{period}{filters}的{label}按{grain}共 {count} 个数据点：首个 {first} 为 {first_value}，最近 {last} 为 "
        "{last_value}；最高为 {peak}（{peak_value}）。",
    ),
    "item_value": ("{item} ({value})", "{item}（{value}）"),
    "top_word": ("Top", "最高"),
    "bottom_word": ("Bottom", "最低"),
    "top_n": (
        "{word} {count} {dims} by {label}{filters}, {period}: {items}.",
        "{period}{filters}{label}{word}的{count}个{dims}：{items}。",
    ),
    "no_values": ("No {label} values for {period}.", "{period}{filters}{label}没有数值。"),
    "breakdown_one": (
        "{label} by {dims}{filters}, {period}: one group, {high} ({high_value}).",
        "{period}{filters}按{dims}拆分的{label}：仅 1 组，{high} 为 {high_value}。",
    ),
    "breakdown": (
        "{label} by {dims}{filters}, {period}: highest {high} ({high_value}), lowest {low} ({low_value}); "
        "{count} groups.",
        "{period}{filters}按{dims}拆分的{label}：最高为 {high}（{high_value}），最低为 {low}（{low_value}），"
        "共 {count} 组。",
    ),
    "incomplete_day": (
        "far fewer rows than the same weekday in earlier weeks",
        "当日行数明显低于前几周同星期",
    ),
    "incomplete_day_assumption": (
        "{day} is incomplete: marked on the chart; its value uses the data as loaded and may be understated.",
        "{day} 的数据不完整：图中单独标出，数值按已加载数据计算，可能偏低。",
    ),
    # how the question was read --------------------------------------------------------------------
    "span": ("{start} to {end}", "{start} 至 {end}"),
    "span_day": ("{day}", "{day}"),
    "period_words": ("{words} ({span})", "{words}（{span}）"),
    "period_read_as": (
        "{words!r} is read relative to as-of date {as_of}: {period}.",
        "“{words}”按分析日期 {as_of} 解释为 {period}。",
    ),
    "compared_previous_period": (
        "Compared with the previous period: {period}.",
        "对比期为环比（上一个同长度/同类周期）：{period}。",
    ),
    "compared_same_period_last_year": (
        "Compared with the same period last year: {period}.",
        "对比期为同比（去年同期）：{period}。",
    ),
    "fresh_loaded": ("Data up to {newest} (loaded: {loads})", "数据更新至 {newest}（加载时间：{loads}）"),
    "fresh": ("Data up to {newest}", "数据更新至 {newest}"),
    "range_past_data": (
        "The range ends {end} but data only reaches {newest}; later days have no data.",
        "所选时间范围截至 {end}，但数据只更新到 {newest}，之后的日期没有数据。",
    ),
    # how a run ends ---------------------------------------------------------------------------------
    "cancelled": ("Cancelled by the user.", "用户已取消。"),
    "internal_error": (
        "Internal error ({error}); the details are in the run trace.",
        "内部错误，本次未能回答；详情已记录在运行轨迹中。",
    ),
    "budget_stopped": (
        "{message} The run stopped; finished steps: {finished}. Partial results below, not fully checked.",
        "{message} 运行已停止，已完成的步骤：{finished}；以下为部分结果，未经完整核对。",
    ),
    "replay_cannot_run": (
        "A replay reads the run's checkpoints only; this run needs a step that never finished.",
        "回放只读取运行的检查点；该运行缺少未完成的步骤。",
    ),
    "missing_step": (
        "Run {run_id} has no finished step {step}; resume it instead.",
        "运行 {run_id} 缺少已完成的步骤 {step}，请改用 resume 继续。",
    ),
    "replay_unfinished": (
        "Run {run_id} stopped before executing anything; resume it instead.",
        "运行 {run_id} 在执行查询前就已停止，请改用 resume 继续。",
    ),
    "evidence_missing": ("Evidence {evidence_id} is missing from the run.", "运行记录缺少证据 {evidence_id}。"),
    # refusals on the question -------------------------------------------------------------------
    "not_permitted_metric": (
        "Not permitted: user {user!r} may not read {label} (table {table}).",
        "不允许：用户“{user}”无权查看{label_zh}（数据表 {table}）。",
    ),
    "not_permitted_members": (
        "Not permitted: user {user!r} may only see {column} in {allowed}, not {outside}.",
        "不允许：用户“{user}”只能查看 {column} 为 {allowed_zh} 的数据，无权查看 {outside_zh}。",
    ),
    "row_filter_note": (
        "Per the grants of user {user}, {table} is limited to {column} in ({allowed}).",
        "按用户 {user} 的权限，{table} 仅包含 {column} 为 {allowed} 的数据。",
    ),
    "clause_sep": (", ", "，"),
    "sentence_sep": (" ", " "),
    # the analysis report ------------------------------------------------------------------------
    "analysis_title": ("Why {label} moved: {period}", "{period}{label}变化分析"),
    "analysis_headline_down": (
        "{label} for {period} fell against the comparison period (change {num:headline.change_pct}): "
        "{num:headline.current} vs {num:headline.previous}.",
        "{period}{label}较对比期下降（变化 {num:headline.change_pct}）：{num:headline.current}，对比期 {num:headline.previous}。",
    ),
    "analysis_headline_up": (
        "{label} for {period} rose against the comparison period (change {num:headline.change_pct}): "
        "{num:headline.current} vs {num:headline.previous}.",
        "{period}{label}较对比期上升（变化 {num:headline.change_pct}）：{num:headline.current}，对比期 {num:headline.previous}。",
    ),
    "analysis_headline_change": (
        "{label} for {period} changed by {num:headline.change}.",
        "{period}{label}变化 {num:headline.change}。",
    ),
    "analysis_mean_significant": (
        "The daily mean changed {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}), "
        "statistically significant.",
        "日均值变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），统计上显著。",
    ),
    "analysis_mean_not_significant": (
        "The daily mean changed {num:stats.rel_change} (95% CI {num:stats.rel_ci_low} to {num:stats.rel_ci_high}), "
        "not statistically significant.",
        "日均值变化 {num:stats.rel_change}（95% 区间 {num:stats.rel_ci_low} 至 {num:stats.rel_ci_high}），统计上不显著。",
    ),
    "analysis_main_driver": ("Main driver: {text}", "主要原因：{text}"),
    "analysis_no_driver": (
        "No significant driver: the change is shared across every dimension.",
        "没有发现显著的驱动因素：变化在各维度上是普遍的。",
    ),
    "analysis_quality_note": (
        "Note: {count} data-quality issue(s) touch the analysed periods (see below).",
        "注意：{count} 个数据质量问题涉及分析期（见下文）。",
    ),
    "analysis_no_conclusion": ("No conclusion could be drawn.", "没有得到结论。"),
    "heading_drivers": ("Drivers", "驱动因素"),
    "heading_tree": ("Metric tree", "指标树"),
    "heading_tests": ("Tests", "显著性检验"),
    "heading_trend": ("Trend", "走势"),
    "heading_quality": ("Data quality", "数据质量"),
    "heading_assumptions": ("Assumptions", "前置假设"),
    "heading_excluded": ("Ruled out", "已排除的路径"),
    "heading_definition": ("Definition and filters", "口径与过滤条件"),
}
