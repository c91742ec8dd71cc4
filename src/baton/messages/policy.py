"""The permission policy and the output gate (``policy.<key>``): policy-file errors, unknown
users, the gate's violation reasons and the rounding rule it states.

The gate's regular expressions and numeral tables are what it *reads*; they stay in
:mod:`baton.policy.output_gate`.
"""

from __future__ import annotations

MESSAGES: dict[str, tuple[str, str]] = {
    # the policy file ----------------------------------------------------------------------------
    "cannot_read": ("Cannot read policy file {path}: {error}", "无法读取权限策略文件 {path}：{error}"),
    "not_yaml": ("Policy file {path} is not valid YAML: {error}", "权限策略文件 {path} 不是合法的 YAML：{error}"),
    "not_mapping": (
        "Policy file {path} must hold a mapping at the top level",
        "权限策略文件 {path} 的顶层必须是映射（键值对）",
    ),
    "bad_field": ("Policy file {path}: field {field}: {error}", "权限策略文件 {path}：字段 {field}：{error}"),
    "unknown_user": (
        "Not permitted: '{user}' is not a known user in policy {version}.",
        "不允许：用户“{user}”不在权限策略（版本 {version}）中。",
    ),
    "row_filters_conflict": (
        "Roles of user '{user}' filter rows of '{table}' on different columns; Baton cannot merge them safely",
        "用户“{user}”的多个角色对表 {table} 的行过滤列不同，无法安全合并",
    ),
    # the output gate ----------------------------------------------------------------------------
    "rounding_rule": (
        "Every number in the narrative must equal a result cell or a derived value rounded (half up or half "
        "to even) to the decimals displayed; percentages are ratio × 100 (or a cell already in percent), "
        "万/亿 divide by 10^4/10^8 and K/M/B/T by 10^3/10^6/10^9/10^12; a written sign must agree with the "
        "evidence. Dates and period text are not checked as numbers.",
        "叙述中的每个数字须等于某个结果单元格或派生值按显示的小数位数四舍五入（允许银行家舍入）后的结果；"
        "百分数为比率×100（或本身即为百分数的单元格），万/亿为除以10⁴/10⁸，K/M/B/T为除以10³/10⁶/10⁹/10¹²；"
        "写出的正负号须与证据一致。日期与期间文字不作数字核对。",
    ),
    "pii_value": ("personal data the user may not see", "个人信息不得出现在回答中（用户无此权限）"),
    "pii_pattern": (
        "looks like personal data ({kind}) the user may not see",
        "疑似个人信息（{kind}），用户无权查看",
    ),
    "no_test_run": ("no statistical test was run", "没有做过统计检验，不能判断是否显著"),
    "not_significant": ("no statistical test says this is significant", "没有统计检验表明差异显著"),
    "causal_without_evidence": (
        "causal wording without a finding marked causal (correlation is not causation)",
        "因果表述缺少因果证据（相关不等于因果）",
    ),
    "number_unsupported": (
        "matches no result cell or derived value at the displayed precision",
        "该数字与任何结果单元格或派生值（按显示精度舍入）都不一致",
    ),
    "violation": ("{kind} '{text}': {reason}", "{kind}「{text}」：{reason}"),
    "violation_sep": ("; ", "；"),
    "blocked": (
        "The answer was withheld: its text could not be traced to the evidence ({violations}).",
        "回答已被拦截：其文字无法对应到证据（{violations}）。",
    ),
}
