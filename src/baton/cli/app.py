"""Typer application: `baton ask`, `baton analyze`, `baton demo init`, `baton eval`, …

Exit codes: 0 answered/approved, 1 failed, 2 clarification needed, 3 refused. Every error is
reported by :mod:`baton.cli.errors` (one line, or JSON with --json); nothing prints a stack
trace. Imports are lazy: a question loads only what its run needs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from baton.cli.common import (
    AsOfOpt,
    ConfigOpt,
    ConversationOpt,
    FormatOpt,
    JsonOpt,
    MaxCostOpt,
    MaxStepsOpt,
    MaxTokensOpt,
    MaxToolCallsOpt,
    OutOpt,
    UserOpt,
    budget_for,
    err,
    parse_as_of,
    question_or_record,
    settings_for,
    settings_or_record,
)
from baton.cli.errors import error_line, reported
from baton.contracts.common import Language
from baton.errors import BatonError, exit_code
from baton.messages import bilingual

if TYPE_CHECKING:
    from rich.console import Console
    from typer._click.exceptions import UsageError

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Baton — a data analyst that never drops the baton.",
)
demo_app = typer.Typer(no_args_is_help=True, help="Build the embedded demo warehouse.")
app.add_typer(demo_app, name="demo")


def _print_version(value: bool) -> None:
    if value:
        from baton.config import baton_version

        print(f"baton {baton_version()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", "-V", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Baton — a data analyst that never drops the baton."""


def _console() -> Console:
    from rich.console import Console

    return Console(soft_wrap=False, highlight=False)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in Chinese or English.")],
    config: ConfigOpt = None,
    as_of: AsOfOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
    output_format: FormatOpt = None,
    out: OutOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tool_calls: MaxToolCallsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    conversation: ConversationOpt = None,
) -> None:
    """Answer a metric question with governed SQL, its definitions and data freshness.

    QUESTION "-" reads the question from standard input (UTF-8)."""
    _answer_question(
        "ask",
        question,
        config,
        as_of,
        user,
        as_json,
        output_format,
        out,
        (max_steps, max_tool_calls, max_tokens, max_cost),
        conversation,
    )


@app.command()
def analyze(
    question: Annotated[str, typer.Argument(help="The why-question, in Chinese or English.")],
    config: ConfigOpt = None,
    as_of: AsOfOpt = None,
    user: UserOpt = None,
    as_json: JsonOpt = False,
    output_format: FormatOpt = None,
    out: OutOpt = None,
    max_steps: MaxStepsOpt = None,
    max_tool_calls: MaxToolCallsOpt = None,
    max_tokens: MaxTokensOpt = None,
    max_cost: MaxCostOpt = None,
    conversation: ConversationOpt = None,
) -> None:
    """Explain why a metric moved: data checks, tests, drivers with intervals, excluded paths.

    QUESTION "-" reads the question from standard input (UTF-8)."""
    _answer_question(
        "analyze",
        question,
        config,
        as_of,
        user,
        as_json,
        output_format,
        out,
        (max_steps, max_tool_calls, max_tokens, max_cost),
        conversation,
    )


def _answer_question(
    kind: Literal["ask", "analyze"],
    question: str,
    config: Path | None,
    as_of: str | None,
    user: str | None,
    as_json: bool,
    output_format: str | None,
    out: Path | None,
    limits: tuple[int | None, int | None, int | None, float | None],
    conversation: str | None = None,
) -> None:
    """The shared walk of `ask` and `analyze`: settings, input, run, deliver, exit code; with
    ``--conversation`` the question is the next turn of that conversation (``new`` starts one)."""
    from baton.cli.delivered import deliver_answer, run_answer, show_and_exit
    from baton.nlu.gate import detect_language
    from baton.orchestrator.session import Session
    from baton.report.deliver import parse_format

    lang: Language | None = None
    fmt = "json" if as_json else "terminal"
    with reported(as_json=as_json):
        fmt = parse_format(output_format, as_json=as_json)
    with reported(as_json=fmt == "json", language=None):
        settings = settings_or_record(kind, question, user, config)
        question = question_or_record(kind, question, user, settings)
    lang = "zh" if detect_language(question) == "zh" else "en"
    with reported(as_json=fmt == "json", language=lang):
        session = Session(settings, user=user)
        session.open_early()
        budget = budget_for(settings, *limits)
        when = parse_as_of(as_of)
        if conversation is not None:
            chain = session.conversation(None if conversation == "new" else conversation, user=user)
            analyze = True if kind == "analyze" else None
            answer = run_answer(session, lambda: chain.ask(question, as_of=when, budget=budget, analyze=analyze))
        else:
            run = session.ask if kind == "ask" else session.analyze
            answer = run_answer(session, lambda: run(question, as_of=when, budget=budget))
        delivery = deliver_answer(answer, fmt, out, session, settings, user)
    show_and_exit(answer, delivery, fmt, session)


@demo_app.command("init")
def demo_init(
    path: Annotated[Path | None, typer.Option("--path", help="Directory to write the demo into.")] = None,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario YAML with planted effects.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 7,
    scale: Annotated[float, typer.Option("--scale", help="Size multiplier (1 ≈ 1M orders).")] = 1.0,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if it exists.")] = False,
    warehouse: Annotated[
        str | None,
        typer.Option(
            "--warehouse",
            help="Also copy the demo there and point baton.toml at it: postgresql://… (read-only role) "
            "or sc://HOST:PORT/;database=DB (Spark Connect; the database is baton_demo when none is named).",
        ),
    ] = None,
) -> None:
    """Build the demo DuckDB warehouse, its catalog, policies and baton.toml."""
    from baton.cli.terminal import terminal_text
    from baton.config import default_demo_dir
    from baton.demo.copy_to import copy_demo, target_engine
    from baton.demo.generator import build_demo

    target = path or default_demo_dir()
    with reported():
        if warehouse is not None:
            target_engine(warehouse)  # an unsupported URL fails before minutes of building
        build = build_demo(target, scenario=scenario, seed=seed, scale=scale, force=force)
    console = _console()
    if warehouse is not None:
        with reported():
            loaded = copy_demo(build.warehouse, build.config, warehouse)
        console.print(terminal_text(loaded))
    console.print(
        terminal_text(
            f"Demo warehouse ready: {build.warehouse}\n"
            f"  scenario {build.scenario}, {build.orders:,} orders, built in {build.seconds:.1f} s\n"
            f"  config   {build.config}\n"
            f"  ground truth {build.ground_truth}"
        )
    )


@app.command("eval")
def eval_cmd(
    dataset: Annotated[
        list[Path] | None, typer.Option("--dataset", help="JSONL dataset(s) (default: the demo's dev + held-out).")
    ] = None,
    split: Annotated[str | None, typer.Option("--split", help="Only this split: dev | heldout.")] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
    min_score: Annotated[float, typer.Option("--min-score", help="Exit 1 when the share right is below this.")] = 0.0,
) -> None:
    """Run eval datasets and print right / asked back / silently wrong by phrasing class.

    Exits 1 when any answer is silently wrong (answered, but not what the gold SQL returns),
    or when the share right is below --min-score."""
    from baton.evals.runner import render_report, run_eval

    with reported(as_json=as_json):
        report = run_eval(settings_for(config), dataset, split=split)
    if as_json:
        print(report.model_dump_json(indent=2))
    else:
        render_report(report, _console())
    if report.score().silently_wrong or report.pass_rate < min_score:
        raise typer.Exit(1)


def _register_subcommands() -> None:
    from baton.cli.bench_cmd import bench_app
    from baton.cli.catalog_cmd import catalog_app
    from baton.cli.chat_cmd import chat
    from baton.cli.export_cmd import export_command
    from baton.cli.init_cmd import init_command
    from baton.cli.mcp_cmd import mcp_command
    from baton.cli.memory_cmd import memory_app
    from baton.cli.query_cmd import query_command
    from baton.cli.runs_cmd import runs_app
    from baton.cli.serve_cmd import serve_command
    from baton.cli.sql_cmd import sql_app
    from baton.cli.token_cmd import token_app

    app.add_typer(catalog_app, name="catalog")
    app.add_typer(sql_app, name="sql")
    app.add_typer(bench_app, name="bench")
    app.add_typer(runs_app, name="runs")
    app.add_typer(memory_app, name="memory")
    app.command("query")(query_command)
    app.command("init")(init_command)
    app.command("chat")(chat)
    app.command("export")(export_command)
    app.command("serve")(serve_command)
    app.add_typer(token_app, name="token")
    app.command("mcp")(mcp_command)


_register_subcommands()


def _flags_show_no_type() -> None:
    """``--json`` and ``--help`` take no value: the help shows none (typer shows ``<bool>``)."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich
    if getattr(shown, "baton_flags", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag else shown(self, ctx)

    display_type_rich.baton_flags = True  # type: ignore[attr-defined]
    setattr(TyperOption, "display_type_rich", display_type_rich)  # noqa: B010


_flags_show_no_type()


def main() -> None:
    """Console entry point: no stack trace ever reaches the user (the run trace keeps details)."""
    from typer._click.exceptions import NoArgsIsHelpError, UsageError  # typer's own copy of click

    try:
        code = app(standalone_mode=False)  # click's own usage errors come here, to be reported as ours
    except NoArgsIsHelpError as exc:
        exc.show()  # `baton runs` alone: the help, with the invalid-input exit code (2 is a clarification)
        sys.exit(exit_code(_usage_error(exc)))
    except UsageError as exc:
        usage = _usage_error(exc)
        err(error_line(usage, None))
        sys.exit(exit_code(usage))
    except (KeyboardInterrupt, typer.Abort):
        err(bilingual("cli.cancelled"))
        sys.exit(130)
    except BatonError as exc:
        err(error_line(exc, None))
        sys.exit(exit_code(exc))
    except Exception as exc:
        err(bilingual("cli.internal_error", error=type(exc).__name__))
        if os.environ.get("BATON_DEBUG"):
            raise
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def _usage_error(exc: UsageError) -> BatonError:
    """A command line click cannot parse, as our ``invalid_input`` (click says what is wrong)."""
    from baton.errors import InvalidInput
    from baton.messages import both

    command = exc.ctx.command_path if exc.ctx is not None else "baton"
    return InvalidInput(*both("cli.usage_error", error=exc.format_message(), command=command))
