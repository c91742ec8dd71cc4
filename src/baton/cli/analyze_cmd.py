"""`baton analyze "QUESTION"`: why did a metric move? (registered in ``baton.cli.app``).

Exit codes as for `baton ask`: 0 answered, 1 failed, 2 clarification needed, 3 refused.
The JSON is exactly ``Answer.model_dump_json()`` (with drivers, findings, tests, quality
flags, excluded paths and handoffs).
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from baton.contracts.answer import Answer
from baton.errors import BatonError, InvalidInput

EXIT = {"answered": 0, "failed": 1, "clarification_needed": 2, "refused": 3}

_TITLES = {
    "zh": ("分析", "驱动因素", "成员", "因子", "贡献", "占比", "q", "95% 区间", "交接", "运行编号"),
    "en": ("Analysis", "Drivers", "members", "factor", "change", "share", "q", "95% CI", "handoffs", "Run id"),
}


def _as_of(raw: str | None) -> date | None:
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError as exc:
        raise InvalidInput(
            f"--as-of must be YYYY-MM-DD, got {raw!r}", f"--as-of 必须是 YYYY-MM-DD 格式，收到 {raw!r}"
        ) from exc


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


def analyze(
    question: Annotated[str, typer.Argument(help="The why-question, in Chinese or English.")],
    config: Annotated[
        Path | None, typer.Option("--config", envvar="BATON_CONFIG", help="baton.toml to use (default: the demo).")
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Analysis date YYYY-MM-DD.")] = None,
    user: Annotated[str | None, typer.Option("--user", help="Acting user (default: from config).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for machines.")] = False,
) -> None:
    """Explain why a metric moved: data checks, tests, drivers, excluded paths."""
    from baton.cli.app import settings_for
    from baton.nlu.gate import detect_language
    from baton.orchestrator.analyze import analyze_session
    from baton.orchestrator.session import Session

    lang = "zh" if detect_language(question) == "zh" else "en"
    try:
        session = Session(settings_for(config))
        try:
            answer = analyze_session(session, question, as_of=_as_of(as_of), user=user)
        finally:
            session.close()
    except BatonError as exc:
        if as_json:
            print(json.dumps({"error": exc.to_dict("zh" if lang == "zh" else "en")}, ensure_ascii=False))
        else:
            Console(stderr=True).print(f"[red]{exc.error_code}[/red]: {exc.message('zh' if lang == 'zh' else 'en')}")
        raise typer.Exit(3 if exc.kind == "policy" else 1) from None
    if as_json:
        print(answer.model_dump_json(indent=2))
    else:
        render_analysis(answer, Console(soft_wrap=False, highlight=False))
    raise typer.Exit(EXIT[answer.status])
