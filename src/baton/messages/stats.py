"""Why a statistic cannot be computed from its arguments (``stats.<key>``)."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "alpha_range": ("alpha must be in (0, 1), got {alpha!r}", "显著性水平 alpha 必须在 (0, 1) 之间，实际为 {alpha!r}"),
    "days_values_length": (
        "days and values differ in length ({days} vs {values})",
        "日期与数值长度不同（{days} 对 {values}）",
    ),
    "days_unique": ("days must be unique", "日期不能重复"),
    "anomaly_settings": (
        "need weeks ≥ 1, 1 ≤ min_history ≤ weeks and threshold > 0",
        "需要 weeks ≥ 1、1 ≤ min_history ≤ weeks 且 threshold > 0",
    ),
    "not_finite_series": ("the series contains NaN or infinite values", "序列中含有 NaN 或无穷值"),
    "min_size": ("min_size must be ≥ 1", "min_size 必须 ≥ 1"),
    "change_points_min": (
        "change-point detection needs at least {need} points, got {n}",
        "变点检测至少需要 {need} 个点，实际为 {n}",
    ),
    "unknown_penalty": ("unknown penalty {penalty!r}", "未知的惩罚项 {penalty!r}"),
    "member_not_finite": ("non-finite value for member {member!r}", "成员 {member!r} 的数值不是有限数"),
    "member_ratio_parts": (
        "member {member!r}: need finite numerator and denominator ≥ 0",
        "成员 {member!r}：分子须为有限数，分母须 ≥ 0",
    ),
    "member_no_denominator": (
        "member {member!r}: numerator without denominator",
        "成员 {member!r}：分母为零但分子非零",
    ),
    "zero_denominator": (
        "a period has a zero denominator: the ratio is undefined",
        "某一期分母合计为零，比率无定义",
    ),
    "same_factors": (
        "before and after must name the same factors in the same order",
        "前后两期的因子必须相同且顺序一致",
    ),
    "no_factors": ("no factors given", "没有提供任何因子"),
    "factor_not_positive": (
        "factor {factor!r} must be positive in both periods for a log decomposition",
        "因子 {factor!r} 在两期都必须为正才能进行对数分解",
    ),
    "sample_min": (
        "sample {label} needs at least 2 observations, got {n}",
        "样本 {label} 至少需要 2 个观测值，实际为 {n}",
    ),
    "zero_variance_both": (
        "both samples have zero variance: the t statistic is undefined",
        "两个样本的方差均为零，无法计算 t 统计量",
    ),
    "zero_variance": ("the sample has zero variance", "样本方差为零，无法计算 t 统计量"),
    "anova_groups": ("ANOVA needs at least 2 groups", "方差分析至少需要 2 个分组"),
    "anova_empty_group": ("every ANOVA group needs at least 1 observation", "方差分析的每个分组至少需要 1 个观测值"),
    "anova_observations": ("ANOVA needs more observations than groups", "方差分析需要观测值多于分组数"),
    "anova_zero_variance": ("zero within-group variance: F is undefined", "组内方差为零，无法计算 F 统计量"),
    "p_range": ("p-values must lie in [0, 1], got {p!r}", "p 值必须在 [0, 1] 之间，实际为 {p!r}"),
    "q_range": ("q must be in (0, 1), got {q!r}", "q 必须在 (0, 1) 之间，实际为 {q!r}"),
    "events_positive": (
        "a rate change from counts needs events and exposure in every cell, got {counts}",
        "按计数比较比率变化需要每个单元都有事件和暴露量，实际为 {counts}",
    ),
    "counts_integers": ("counts {label} must be integers", "{label} 的计数必须是整数"),
    "counts_range": (
        "need 0 ≤ x ≤ n and n > 0 for {label}, got x={x}, n={n}",
        "{label} 需满足 0 ≤ x ≤ n 且 n > 0，实际 x={x}, n={n}",
    ),
    "z_undefined": (
        "both groups are all successes or all failures: the z test is undefined",
        "两组比例均为 0 或均为 1，无法进行 z 检验",
    ),
    "xy_length": ("x and y differ in length ({x} vs {y})", "x 与 y 长度不同（{x} 对 {y}）"),
    "no_points": ("no data points", "没有数据点"),
    "slope_min": ("a slope with a CI needs at least 3 points, got {n}", "斜率及其置信区间至少需要 3 个点，实际为 {n}"),
    "x_constant": ("x does not vary: the slope is undefined", "x 没有变化，斜率无法确定"),
    "n_integer": ("n must be a non-negative integer, got {n!r}", "样本量 n 必须是非负整数，实际为 {n!r}"),
    "not_finite": ("{name} must be finite, got {value!r}", "{name} 必须是有限数，实际为 {value!r}"),
    "sum_sq_negative": ("sum_sq must be non-negative, got {value!r}", "平方和 sum_sq 不能为负，实际为 {value!r}"),
    "variance_negative": ("variance must be ≥ 0, got {value!r}", "方差必须非负，实际为 {value!r}"),
    "empty_sample": ("the sample is empty: no mean", "样本为空，无法计算均值"),
    "variance_min": ("a variance needs at least 2 observations, got {n}", "计算方差至少需要 2 个观测值，实际为 {n}"),
    "x_values_length": ("x and values differ in length ({x} vs {values})", "x 与数值长度不同（{x} 对 {values}）"),
    "x_increasing": ("x must be strictly increasing", "x 必须严格递增"),
    "trend_min": ("a trend test needs at least 3 points, got {n}", "趋势检验至少需要 3 个点，实际为 {n}"),
    "constant_series": ("the series is constant: no trend test possible", "序列为常数，无法进行趋势检验"),
}
