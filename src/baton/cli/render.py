"""Terminal rendering of an Answer: the answer first, then table, SQL, definitions, freshness."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from baton.contracts.answer import Answer

_LABELS = {
    "zh": {
        "answer": "回答",
        "table": "结果",
        "sql": "SQL",
        "metrics": "指标口径",
        "assumptions": "假设与说明",
        "run": "运行编号",
        "truncated": "（结果已截断）",
        "owner": "负责人",
        "filters": "过滤条件",
        "suggest": "建议",
        "error": "错误码",
    },
    "en": {
        "answer": "Answer",
        "table": "Result",
        "sql": "SQL",
        "metrics": "Metric definitions",
        "assumptions": "Assumptions",
        "run": "Run id",
        "truncated": "(result truncated)",
        "owner": "owner",
        "filters": "filters",
        "suggest": "Suggestions",
        "error": "error code",
    },
}
_STYLE = {"answered": "green", "clarification_needed": "yellow", "refused": "red", "failed": "red"}


def render_answer(answer: Answer, console: Console) -> None:
    lang = answer.language
    t = _LABELS[lang]
    console.print(
        Panel(Text(answer.answer), title=f"{t['answer']} · {answer.status}", border_style=_STYLE[answer.status])
    )
    if answer.error is not None:
        console.print(f"[dim]{t['error']}: {answer.error.code}[/dim]")
    if answer.suggestions:
        console.print(f"{t['suggest']}: " + ", ".join(answer.suggestions))
    if answer.result is not None:
        table = Table(title=t["table"] + (" " + t["truncated"] if answer.result.truncated else ""), show_lines=False)
        for col in answer.result.columns:
            table.add_column(col.name, justify="right" if col.type not in ("VARCHAR", "DATE") else "left")
        for row in answer.result.rows[:50]:
            table.add_row(*[_cell(v, lang) for v in row])
        console.print(table)
    if answer.sql:
        console.print(Panel(Syntax(answer.sql, "sql", word_wrap=True), title=t["sql"]))
    if answer.metrics:
        lines = []
        for m in answer.metrics:
            lines.append(Text.assemble((f"{m.label} ({m.name})", "bold"), f": {m.definition}"))
            lines.append(
                Text(f"    {m.expression}" + (f"  | {t['filters']}: " + "; ".join(m.filters) if m.filters else ""))
            )
            lines.append(Text(f"    {t['owner']}: {m.owner}", style="dim"))
        console.print(Panel(Group(*lines), title=t["metrics"]))
    if answer.data_freshness:
        console.print(answer.data_freshness)
    if answer.assumptions:
        console.print(Panel(Group(*[Text("• " + a) for a in answer.assumptions]), title=t["assumptions"]))
    console.print(f"[dim]{t['run']}: {answer.run_id}[/dim]")


def _cell(value: object, lang: str) -> str:
    if isinstance(value, float):
        return f"{value:,.4f}" if abs(value) < 10 else f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)
