"""Terminal rendering of a `baton analyze` answer (the command itself lives in ``baton.cli.app``).

The JSON is exactly ``Answer.model_dump_json()`` (with drivers, findings, tests, quality
flags, excluded paths and handoffs).
"""

from __future__ import annotations

from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from baton.contracts.answer import Answer

EXIT = {"answered": 0, "failed": 1, "clarification_needed": 2, "refused": 3}

_TITLES = {
    "zh": ("分析", "驱动因素", "成员", "因子", "贡献", "占比", "q", "95% 区间", "交接", "运行编号"),
    "en": ("Analysis", "Drivers", "members", "factor", "change", "share", "q", "95% CI", "handoffs", "Run id"),
}


def render_analysis(answer: Answer, console: Console) -> None:
    """The report text first, then the ranked drivers and the packet sizes of the relay."""
    t = _TITLES[answer.language]
    style = "green" if answer.status == "answered" else "yellow" if answer.status == "clarification_needed" else "red"
    console.print(Panel(Text(answer.answer), title=f"{t[0]} · {answer.status}", border_style=style))
    if answer.drivers:
        table = Table(title=t[1])
        for name in t[2:8]:
            table.add_column(name)
        for d in answer.drivers:
            ci = f"[{d.ci[0]:+.1%}, {d.ci[1]:+.1%}]" if d.ci else ""
            table.add_row(
                " × ".join(f"{k}={v}" for k, v in d.members.items()),
                d.factor,
                f"{d.change:,.4g}",
                f"{d.share_of_change:.1%}",
                f"{d.q_value:.2g}" if d.q_value is not None else "",
                ci,
            )
        console.print(table)
    if answer.sql:
        console.print(Panel(answer.sql, title="SQL"))
    if answer.handoffs:
        console.print(f"{t[8]}: " + ", ".join(f"{h.step}.{h.agent} {h.tokens}" for h in answer.handoffs))
    console.print(f"[dim]{t[9]}: {answer.run_id}[/dim]")
