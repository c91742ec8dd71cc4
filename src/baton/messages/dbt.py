"""Importing a dbt semantic project (``dbt.<key>``): file errors and why a metric is refused."""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    "description": ("Imported from the dbt project {name}", "从 dbt 项目 {name} 导入"),
    "not_found": ("{path}: no such dbt project folder or manifest", "{path}：找不到该 dbt 项目目录或 manifest 文件"),
    "empty": (
        "{path}: no semantic_models or metrics found in its YAML files (and no target/semantic_manifest.json)",
        "{path}：其 YAML 文件中没有 semantic_models 或 metrics（也没有 target/semantic_manifest.json）",
    ),
    "cannot_read": ("Cannot read {path}: {error}", "无法读取 {path}：{error}"),
    "not_yaml": ("{path}:{line}: not valid YAML ({error})", "{path} 第 {line} 行：YAML 格式错误（{error}）"),
    "bad_manifest": ("{path}: not a semantic manifest ({error})", "{path}：不是有效的 semantic manifest（{error}）"),
    "not_importable": (
        "{path}: the project cannot be held by a Baton catalog: {error}",
        "{path}：该项目无法转换为 Baton 指标目录：{error}",
    ),
    "invalid": (
        "{path}:{line}: the dbt semantic project is invalid: {error}",
        "{path} 第 {line} 行：dbt 语义项目校验未通过：{error}",
    ),
    "more": (" (and {count} more)", "（另有 {count} 处）"),
    "also": ("; {problem}", "；{problem}"),
    "label_of_path": ("{label} ({path})", "{label_zh}（{path}）"),
    "member_true": ("{word}", "{word}"),
    "member_false": ("not {word}", "非{word}"),
    "note_partitioned": (
        "{model} is partitioned by a time dimension (a snapshot per partition), so other tables do not join to it",
        "{model} 按时间维度分区（每个分区一份快照），因此其他表不与它关联",
    ),
    "refused_cumulative": (
        "{metric} is a cumulative metric; Baton does not compute cumulative metrics yet and will not approximate one.",
        "{metric} 是累计指标；Baton 暂不计算累计指标，也不会用近似值代替。",
    ),
    "refused_conversion": (
        "{metric} is a conversion metric; Baton does not compute conversion metrics yet and will not approximate one.",
        "{metric} 是转化指标；Baton 暂不计算转化指标，也不会用近似值代替。",
    ),
    "refused_kind": (
        "{metric}: metrics of the kind '{kind}' are not supported yet.",
        "{metric}：暂不支持“{kind}”类型的指标。",
    ),
    "refused_fill": (
        "{metric} fills empty periods over the whole time spine (join_to_timespine / fill_nulls_with); Baton fills "
        "a sum's empty periods with 0 only between the first and last the table holds, so the rows could differ — "
        "refused rather than approximated.",
        "{metric} 会在整个时间轴上补齐无数据的周期（join_to_timespine / fill_nulls_with）；Baton 只在表中首末有数据的周期之间"
        "以 0 补齐求和类指标，结果可能不同，因此拒绝而非近似。",
    ),
    "refused_semi_additive": (
        "{metric} reads the semi-additive measure {measure} (non_additive_dimension), which Baton does not compute yet.",
        "{metric} 使用半可加度量 {measure}（non_additive_dimension），Baton 暂不支持。",
    ),
    "refused_agg": (
        "{metric}: the aggregation {agg} of measure {measure} is not supported.",
        "{metric}：度量 {measure} 的聚合方式 {agg} 暂不支持。",
    ),
    "refused_filter": (
        "{metric}: its filter reads {reference}, which cannot be placed on the tables it reads.",
        "{metric}：其过滤条件引用了 {reference}，无法落到该指标读取的表上。",
    ),
    "refused_offset": (
        "{metric} reads a metric at an offset in time (offset_window / offset_to_grain), which Baton does not compute yet.",
        "{metric} 引用了时间偏移后的指标（offset_window / offset_to_grain），Baton 暂不支持。",
    ),
    "refused_nested": (
        "{metric}: a ratio's numerator and denominator must be simple metrics ({input} is not).",
        "{metric}：比率指标的分子和分母必须是简单指标（{input} 不是）。",
    ),
    "refused_input": (
        "{metric} is computed from {input}, which is refused.",
        "{metric} 由 {input} 计算得出，而 {input} 已被拒绝。",
    ),
}
