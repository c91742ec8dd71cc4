"""Terminal rendering of an Answer — of any kind of run: the answer first, then (an analysis)
its sections under a rule each with the ranked drivers in theirs, the result table, SQL,
definitions, freshness, assumptions, handoffs.

Every text from a user or the data (and every text that may quote one) reaches the terminal
through :func:`~baton.cli.terminal.terminal_text`: a rich ``Text``, so no markup in it is
interpreted, with its control characters shown as escapes (``\\x1b``), so no escape sequence
reaches the terminal."""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from baton.catalog.model import Catalog
from baton.cli.terminal import Prose, terminal_str, terminal_text
from baton.contracts.agent_outputs import Driver, ReportSection
from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.messages import text
from baton.numbers import display, format_number, format_probability, format_signed_percent
from baton.report.analysis import analysis_sections, factor_text, members_text

_LABELS = (
    "answer",
    "table",
    "sql",
    "metrics",
    "assumptions",
    "run",
    "truncated",
    "owner",
    "time_column",
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


def render_answer(answer: Answer, console: Console, *, catalog: Catalog | None = None) -> None:
    """Print ``answer``; ``catalog`` (when given) names the drivers' members and factors."""
    lang = answer.language
    t = _labels(lang)
    title = t["analysis"] if answer.handoffs else t["answer"]
    body = (
        [Prose(answer.interpretation, "bold"), Prose(answer.answer)]
        if answer.interpretation
        else [Prose(answer.answer)]
    )
    status = text(f"answer.status_{answer.status}", lang)
    console.print(Panel(Group(*body), title=f"{title} · {status}", border_style=_STYLE[answer.status]))
    if answer.error is not None:
        console.print(terminal_text(f"{t['error']}: {answer.error.code}", "dim"))
    if answer.suggestions:
        console.print(Prose(f"{t['suggest']}: " + ", ".join(answer.suggestions)))
    sections = analysis_sections(answer)
    for section in sections:
        _section(section, console)
        if section.kind == "drivers" and answer.drivers:
            _drivers(answer, console, catalog)
    if answer.drivers and not any(s.kind == "drivers" for s in sections):
        _drivers(answer, console, catalog)
    if answer.result is not None:
        _result_table(answer, console, catalog, t)
    if answer.sql:
        console.print(Panel(Syntax(terminal_str(answer.sql), "sql", word_wrap=True), title=t["sql"]))
    if answer.metrics:
        lines: list[RenderableType] = []
        for m in answer.metrics:
            lines.append(
                Text.assemble((terminal_str(f"{m.label} ({m.name})"), "bold"), terminal_str(f": {m.definition}"))
            )
            filters = f"  | {t['filters']}: " + "; ".join(m.filters) if m.filters else ""
            lines.append(Prose(f"    {m.expression}{filters}"))
            if m.time_column:
                lines.append(Prose(f"    {t['time_column']}: {m.time_column}"))
            lines.append(Prose(f"    {t['owner']}: {m.owner}", "dim"))
        console.print(Panel(Group(*lines), title=t["metrics"]))
    if answer.data_freshness:
        console.print(Prose(answer.data_freshness))
    if answer.assumptions and not sections:  # an analysis states them in its sections
        console.print(Panel(Group(*[Prose("• " + a) for a in answer.assumptions]), title=t["assumptions"]))
    if answer.handoffs:
        handoffs = ", ".join(f"{h.step}.{h.agent} {h.tokens}" for h in answer.handoffs)
        console.print(Prose(f"{t['handoffs']}: {handoffs}"))
    console.print(terminal_text(f"{t['run']}: {answer.run_id}", "dim"))


def _section(section: ReportSection, console: Console) -> None:
    """A heading rule, then one bullet per item (wrapped lines hang under the text)."""
    console.print(Rule(terminal_text(section.heading, "bold", multiline=False), align="left"))
    items = Table.grid(padding=(0, 1))
    items.add_column(no_wrap=True)
    items.add_column(overflow="fold")
    for item in section.items:
        items.add_row(Text("•"), Prose(item))
    console.print(items)


def _drivers(answer: Answer, console: Console, catalog: Catalog | None) -> None:
    lang = answer.language
    table = Table(title=text("cli.drivers", lang))
    for name in _DRIVER_COLUMNS:
        table.add_column(text(f"cli.driver_{name}", lang), justify="left" if name in ("members", "factor") else "right")
    for d in answer.drivers:
        table.add_row(
            *(
                Prose(cell, multiline=False)
                for cell in (
                    members_text(d.members, catalog, lang),
                    factor_text(d.factor, catalog, lang),
                    display(d.contribution) if d.contribution is not None else format_number(d.change, "number", lang),
                    format_number(d.share_of_change, "ratio", lang),
                    format_probability(d.q_value) if d.q_value is not None else "",
                    _interval(d, lang),
                )
            )
        )
    console.print(table)


def _interval(d: Driver, lang: Language) -> str:
    """The driver's 95% interval as a range of relative changes: ``-51.92% 至 -37.95%``."""
    if d.ci is None:
        return ""
    low, high = (format_signed_percent(v, lang) for v in d.ci)
    return text("report.range", lang, low=low, high=high)


def _result_table(answer: Answer, console: Console, catalog: Catalog | None, t: dict[str, str]) -> None:
    """The result as the reports show it: catalog labels for columns and members, cells by the
    one formatter (money with its sign, rates as percentages), a breakdown ranked by its metric."""
    from baton.report.content import table_view

    assert answer.result is not None
    view = table_view(answer, catalog)
    table = Table(title=t["table"] + (" " + t["truncated"] if answer.result.truncated else ""), show_lines=False)
    for label, numeric in zip(view.header, view.numeric, strict=True):
        table.add_column(terminal_text(label, multiline=False), justify="right" if numeric else "left")
    for row in view.rows:
        table.add_row(*[Prose(cell, multiline=False) for cell in row])
    console.print(table)
    for note in view.notes:
        console.print(terminal_text(note, "dim"))
