"""Terminal rendering of an Answer — of any kind of run: the answer first, then the ranked
drivers (an analysis), the result table, SQL, definitions, freshness, assumptions, handoffs."""

from __future__ import annotations

from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.messages import text

_LABELS = (
    "answer",
    "table",
    "sql",
    "metrics",
    "assumptions",
    "run",
    "truncated",
    "owner",
    "filters",
    "suggest",
    "error",
    "analysis",
    "drivers",
    "handoffs",
)
_DRIVER_COLUMNS = ("members", "factor", "change", "share", "q", "ci")


def _labels(language: Language) -> dict[str, str]:
    return {name: text(f"cli.{name}", language) for name in _LABELS}


_STYLE = {"answered": "green", "clarification_needed": "yellow", "refused": "red", "failed": "red"}


def render_answer(answer: Answer, console: Console) -> None:
    lang = answer.language
    t = _labels(lang)
    title = t["analysis"] if answer.handoffs else t["answer"]
    body = (
        [Text(answer.interpretation, style="bold"), Text(answer.answer)]
        if answer.interpretation
        else [Text(answer.answer)]
    )
    console.print(Panel(Group(*body), title=f"{title} · {answer.status}", border_style=_STYLE[answer.status]))
    if answer.error is not None:
        console.print(f"[dim]{t['error']}: {escape(answer.error.code)}[/dim]")
    if answer.suggestions:
        console.print(Text(f"{t['suggest']}: " + ", ".join(answer.suggestions)))
    if answer.drivers:
        _drivers(answer, console)
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
        console.print(Text(answer.data_freshness))
    if answer.assumptions:
        console.print(Panel(Group(*[Text("• " + a) for a in answer.assumptions]), title=t["assumptions"]))
    if answer.handoffs:
        console.print(Text(f"{t['handoffs']}: " + ", ".join(f"{h.step}.{h.agent} {h.tokens}" for h in answer.handoffs)))
    console.print(f"[dim]{t['run']}: {escape(answer.run_id)}[/dim]")


def _drivers(answer: Answer, console: Console) -> None:
    table = Table(title=text("cli.drivers", answer.language))
    for name in _DRIVER_COLUMNS:
        table.add_column(text(f"cli.driver_{name}", answer.language))
    for d in answer.drivers:
        table.add_row(
            " × ".join(f"{k}={v}" for k, v in d.members.items()),
            d.factor,
            f"{d.change:,.4g}",
            f"{d.share_of_change:.1%}",
            f"{d.q_value:.2g}" if d.q_value is not None else "",
            f"[{d.ci.low:+.1%}, {d.ci.high:+.1%}]" if d.ci is not None else "",
        )
    console.print(table)


def _cell(value: object, lang: str) -> str:
    if isinstance(value, float):
        return f"{value:,.4f}" if abs(value) < 10 else f"{value:,.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)
