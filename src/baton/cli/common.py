"""What every ``baton`` subcommand shares: its options, the question, budgets and settings.

Kept apart from the command modules so that none of them imports another (no import cycle).
"""

from __future__ import annotations

import contextlib
import sys
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from baton.config import Settings, resolve_config
from baton.contracts.common import Language
from baton.contracts.run import Budget
from baton.errors import BatonError, InvalidInput
from baton.messages import both

if TYPE_CHECKING:
    from baton.orchestrator.session import Session
    from baton.policy import Principal

ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config",
        envvar="BATON_CONFIG",
        help="baton.toml to use (default: ./baton.toml if there is one, else the demo).",
    ),
]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Analysis date YYYY-MM-DD (default: config or today).")]
UserOpt = Annotated[str | None, typer.Option("--user", help="Acting user (default: from config).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]
FormatOpt = Annotated[
    str | None, typer.Option("--format", help="terminal | md | html | json (default: terminal; --json = json).")
]
OutOpt = Annotated[
    Path | None,
    typer.Option("--out", help="Write the report to FILE (atomically); terminal: folder or .png for the chart."),
]


MaxStepsOpt = Annotated[int | None, typer.Option("--max-steps", help="Budget: state-machine/agent steps.")]
MaxToolCallsOpt = Annotated[int | None, typer.Option("--max-tool-calls", help="Budget: tool calls (queries).")]
MaxTokensOpt = Annotated[
    int | None, typer.Option("--max-tokens", help="Budget: tokens across packets and language-model calls.")
]
ConversationOpt = Annotated[
    str | None,
    typer.Option(
        "--conversation", help="Ask as the next turn of conversation ID (`new` starts one; see `baton chat`)."
    ),
]
MaxCostOpt = Annotated[float | None, typer.Option("--max-cost", help="Budget: estimated query cost.")]


def read_question(raw: str) -> str:
    """The question argument, or standard input for "-" (must be UTF-8 text)."""
    if raw != "-":
        if any("\ud800" <= ch <= "\udfff" for ch in raw):  # undecodable argv bytes (surrogateescape)
            raise InvalidInput(*both("cli.not_utf8"), detail={"reason": "not_utf8"})
        return raw
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidInput(*both("cli.not_utf8"), detail={"reason": "not_utf8", "bytes": len(data)}) from exc


def budget_for(
    settings: Settings,
    max_steps: int | None,
    max_tool_calls: int | None,
    max_tokens: int | None,
    max_cost: float | None,
) -> Budget:
    """Config defaults, overridden per call."""
    overrides = {
        k: v
        for k, v in {
            "max_steps": max_steps,
            "max_tool_calls": max_tool_calls,
            "max_tokens": max_tokens,
            "max_cost": max_cost,
        }.items()
        if v is not None
    }
    from pydantic import ValidationError

    try:
        return (
            settings.budget.model_copy(update=overrides)
            if not overrides
            else Budget.model_validate({**settings.budget.model_dump(), **overrides})
        )
    except ValidationError as exc:
        raise InvalidInput(*both("cli.bad_budget", error=exc.errors()[0]["msg"])) from exc


def record_early_failure(kind: str, question: str, user: str | None, exc: BatonError, runs_dir: Path | None) -> None:
    """A run that failed before a session existed still leaves a failed run and a trace
    (in the config's runs directory, or the user's data directory when no config loaded)."""
    from baton.config import fallback_runs_dir
    from baton.nlu.gate import detect_language
    from baton.orchestrator.run import record_failed_run

    language: Language = "zh" if detect_language(question) == "zh" else "en"
    with contextlib.suppress(OSError, BatonError):  # best effort; the typed error is still reported
        record_failed_run(
            runs_dir=runs_dir or fallback_runs_dir(),
            kind="analyze" if kind == "analyze" else "query" if kind == "query" else "sql" if kind == "sql" else "ask",
            question=question[:2000],
            user=user or "unknown",
            language=language,
            as_of=date.today(),
            error=exc.to_dict(language),
        )


def exporter(session: Session, user: str | None) -> Principal | None:
    """The grants of the user taking a report (``user``, else the session's); ``None`` when the
    policy does not know them (then no detail row may be exported)."""
    try:
        return session.principal(user or session.user)
    except BatonError:
        return None


def settings_for(config: Path | None) -> Settings:
    """The settings a command uses; builds the default demo on first use."""
    return resolve_config(config, build_default=_build_default_demo)


def _build_default_demo(folder: Path) -> object:
    from baton.demo.generator import build_demo  # imported only when the demo must be built

    return build_demo(folder)


def parse_as_of(raw: str | None) -> date | None:
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError as exc:
        raise InvalidInput(*both("cli.bad_as_of", raw=raw)) from exc


def settings_or_record(kind: str, question: str, user: str | None, config: Path | None) -> Settings:
    try:
        return settings_for(config)
    except BatonError as exc:
        record_early_failure(kind, question, user, exc, None)
        raise


def question_or_record(kind: str, question: str, user: str | None, settings: Settings) -> str:
    try:
        return read_question(question)
    except BatonError as exc:
        record_early_failure(kind, "<stdin>" if question == "-" else "<binary>", user, exc, settings.runs_dir)
        raise


def err(line: str) -> None:
    from rich.console import Console

    Console(stderr=True, highlight=False).print(line, soft_wrap=True)  # one line, however long


def shown_path(path: Path) -> str:
    """A path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
