"""The fixed lines of the prompt an agent receives (``prompt.<key>``), and of the handoff
benchmark's frames.

An agent reads its packet whatever the user's language, so every heading is deliberately
bilingual: each line holds both languages and is its own English and Chinese template.
"""

from __future__ import annotations

_LINES: dict[str, str] = {
    # the must_keep header -------------------------------------------------------------------------
    "must_keep_title": "# MUST KEEP · 必须保留（never compressed · 不得压缩、不得改写）",
    "nothing_yet": "(nothing yet · 暂无)",
    "filters": "## Filters applied · 过滤条件",
    "assumptions": "## Assumptions · 前置假设",
    "excluded": "## Excluded paths · 已排除路径",
    "key_numbers": "## Key numbers · 关键数字（quote exactly · 原样引用）",
    "contradictions": "## Contradictions · 矛盾（report both values · 两个值都要报告）",
    # the frame --------------------------------------------------------------------------------------
    "task": "# Task · 任务",
    "constraints": "# Constraints · 约束",
    "your_step": "# Your step · 本步任务 ({agent}, {task_id}, context {context_id})",
    "project": "Project · 项目: {project}",
    "hidden_columns": "Hidden columns · 已隐藏列: {columns}",
    "input_data": "# Input data · 输入数据",
    "earlier_steps": "# Earlier steps · 之前的步骤",
    "notes": "# Notes from the previous step · 上一步备注",
    "answer_format": "# Answer format · 输出格式",
    "reply_with": "Reply with JSON matching · 以 JSON 回复: {schema}",
    "given_whole": "(given whole under input data · 见输入数据 {key})",
    # the handoff benchmark's raw messages and frames ----------------------------------------------------
    "bench_title": "Handoff benchmark · 交接基准（what each receiving agent is given）",
    "bench_reasoning": "思考 · reasoning: {reasoning}",
    "bench_tool_output": "工具输出 · tool output:\n{output}",
    "bench_constraints_added": "新增约束 · constraints added: {constraints}",
    "bench_notes": "备注 · notes: {notes}",
    "bench_item_sep": "；",
    "bench_your_step": "# Your step · 本步任务 ({agent}, {task_id})",
    "bench_full_history": "# Conversation so far · 对话历史",
    "bench_last_output": "# Previous agent's output · 上一步输出",
    "bench_window": "# Last {k} outputs · 最近 {k} 步输出",
}

MESSAGES: dict[str, tuple[str, str]] = {key: (line, line) for key, line in _LINES.items()}
