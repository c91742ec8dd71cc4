"""Typer application: `baton ask`, `baton demo init`, `baton eval`, …

Exit codes: 0 answered/approved, 1 failed, 2 clarification needed, 3 refused.
A BatonError is printed as its message in the user's language (and JSON with --json);
nothing prints a stack trace.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from datetime import date
from pathlib import Path
from typing import Annotated, Literal

import typer
from pydantic import ValidationError
from rich.console import Console

from baton.cli.render import render_answer
from baton.config import Settings, resolve_config
from baton.contracts.run import Budget
from baton.errors import BatonError, Language

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Baton — a data analyst that never drops the baton.",
)
demo_app = typer.Typer(no_args_is_help=True, help="Build the embedded demo warehouse.")
app.add_typer(demo_app, name="demo")

EXIT = {"answered": 0, "failed": 1, "clarification_needed": 2, "refused": 3}

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", envvar="BATON_CONFIG", help="baton.toml to use (default: the demo).")
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
MaxTokensOpt = Annotated[int | None, typer.Option("--max-tokens", help="Budget: tokens across packets.")]
MaxCostOpt = Annotated[float | None, typer.Option("--max-cost", help="Budget: estimated query cost.")]


def read_question(raw: str) -> str:
    """The question argument, or standard input for "-" (must be UTF-8 text)."""
    if raw != "-":
        if any("\ud800" <= ch <= "\udfff" for ch in raw):  # undecodable argv bytes (surrogateescape)
            from baton.errors import InvalidInput

            raise InvalidInput(
                "The question is not UTF-8 text (binary input).",
                "问题不是 UTF-8 文本（二进制输入）。",
                detail={"reason": "not_utf8"},
            )
        return raw
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        from baton.errors import InvalidInput

        raise InvalidInput(
            "The question is not UTF-8 text (binary input).",
            "问题不是 UTF-8 文本（二进制输入）。",
            detail={"reason": "not_utf8", "bytes": len(data)},
        ) from exc


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
    try:
        return (
            settings.budget.model_copy(update=overrides)
            if not overrides
            else Budget.model_validate({**settings.budget.model_dump(), **overrides})
        )
    except ValidationError as exc:
        from baton.errors import InvalidInput

        raise InvalidInput(
            f"Invalid budget: {exc.errors()[0]['msg']}", f"预算参数无效：{exc.errors()[0]['msg']}"
        ) from exc


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
            kind="analyze" if kind == "analyze" else "ask",
            question=question[:2000],
            user=user or "unknown",
            language=language,
            as_of=date.today(),
            error=exc.to_dict(language),
        )


def _console() -> Console:
    return Console(soft_wrap=False, highlight=False)


def _fail(exc: BatonError, *, as_json: bool, language: str = "en") -> None:
    lang: Language = "zh" if language == "zh" else "en"
    if as_json:
        print(json.dumps({"error": exc.to_dict(lang)}, ensure_ascii=False))
    else:
        Console(stderr=True).print(f"[red]{exc.error_code}[/red]: {exc.message(lang)}")
    raise typer.Exit(1 if exc.kind == "internal" else 3 if exc.kind == "policy" else 1)


def settings_for(config: Path | None) -> Settings:
    """The settings a command uses; builds the default demo on first use."""
    from baton.demo.generator import build_demo

    return resolve_config(config, build_default=build_demo)


_settings = settings_for


def _as_of(raw: str | None) -> date | None:
    if raw is None:
        return None
    try:
        return date.fromisoformat(raw)
    except ValueError as exc:
        from baton.errors import InvalidInput

        raise InvalidInput(
            f"--as-of must be YYYY-MM-DD, got {raw!r}", f"--as-of 必须是 YYYY-MM-DD 格式，收到 {raw!r}"
        ) from exc


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
) -> None:
    """The shared walk of `ask` and `analyze`: settings, input, run, deliver, exit code."""
    from baton.cli.analyze_cmd import render_analysis
    from baton.nlu.gate import detect_language
    from baton.orchestrator.analyze import analyze_session
    from baton.orchestrator.ask import ask as run_ask
    from baton.orchestrator.session import Session
    from baton.report.deliver import deliver, parse_format

    lang = "en"
    try:
        fmt = parse_format(output_format, as_json=as_json)
    except BatonError as exc:
        _fail(exc, as_json=as_json, language=lang)
        return
    try:
        try:
            settings = _settings(config)
        except BatonError as exc:
            record_early_failure(kind, question, user, exc, None)
            raise
        try:
            question = read_question(question)
        except BatonError as exc:
            record_early_failure(kind, "<stdin>" if question == "-" else "<binary>", user, exc, settings.runs_dir)
            raise
        lang = detect_language(question)
        session = Session(settings)
        budget = budget_for(settings, *limits)
        try:
            run = run_ask if kind == "ask" else analyze_session
            answer = run(session, question, as_of=_as_of(as_of), user=user, budget=budget)
        except KeyboardInterrupt:
            # the run was marked cancelled (state kept, resumable) before the interrupt got here
            Console(stderr=True).print("user_cancelled: cancelled / 已取消 — `baton runs resume` can continue it")
            raise typer.Exit(130) from None
        finally:
            session.close()
        # the terminal report's chart goes beside the run's trace unless --out says otherwise
        delivery = deliver(answer, fmt, out, catalog=session.catalog, cwd=settings.runs_dir / answer.run_id)
    except BatonError as exc:
        _fail(exc, as_json=fmt == "json", language=lang)
        return
    console = _console()
    if fmt == "terminal":
        (render_answer if kind == "ask" else render_analysis)(answer, console)
        if delivery.chart_png is not None:
            console.print(("图表已保存：" if answer.language == "zh" else "Chart saved: ") + str(delivery.chart_png))
    if delivery.stdout is not None:
        print(delivery.stdout)
    if fmt != "terminal":
        for path in delivery.written:
            Console(stderr=True).print(("已写入：" if answer.language == "zh" else "Wrote: ") + str(path))
    for warning in delivery.warnings:
        Console(stderr=True).print(f"[yellow]{warning}[/yellow]")
    raise typer.Exit(EXIT[answer.status])


@demo_app.command("init")
def demo_init(
    path: Annotated[Path | None, typer.Option("--path", help="Directory to write the demo into.")] = None,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario YAML with planted effects.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 7,
    scale: Annotated[float, typer.Option("--scale", help="Size multiplier (1 ≈ 1M orders).")] = 1.0,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if it exists.")] = False,
    warehouse: Annotated[
        str | None, typer.Option("--warehouse", help="postgresql://… to load the demo into PostgreSQL as well.")
    ] = None,
) -> None:
    """Build the demo DuckDB warehouse, its catalog, policies and baton.toml."""
    from baton.config import default_demo_dir
    from baton.demo.generator import build_demo

    target = path or default_demo_dir()
    try:
        build = build_demo(target, scenario=scenario, seed=seed, scale=scale, force=force)
    except BatonError as exc:
        _fail(exc, as_json=False)
        return
    console = _console()
    if warehouse is not None:
        from baton.warehouse.pg_loader import load_demo, point_config_at

        try:
            reader_url = load_demo(build.warehouse, warehouse)
            point_config_at(build.config, reader_url)
        except BatonError as exc:
            _fail(exc, as_json=False)
            return
        console.print(f"Loaded into PostgreSQL; queries run as a read-only role: {reader_url}")
    console.print(
        f"Demo warehouse ready: {build.warehouse}\n"
        f"  scenario {build.scenario}, {build.orders:,} orders, built in {build.seconds:.1f} s\n"
        f"  config   {build.config}\n"
        f"  ground truth {build.ground_truth}"
    )


@app.command("eval")
def eval_cmd(
    dataset: Annotated[
        Path | None, typer.Option("--dataset", help="JSONL dataset (default: the shipped demo set).")
    ] = None,
    config: ConfigOpt = None,
    as_json: JsonOpt = False,
    min_score: Annotated[float, typer.Option("--min-score", help="Exit 1 when the pass rate is below this.")] = 0.0,
) -> None:
    """Run an eval dataset and print a score table (graded by execution result)."""
    from baton.evals.runner import render_report, run_eval

    try:
        report = run_eval(_settings(config), dataset)
    except BatonError as exc:
        _fail(exc, as_json=as_json)
        return
    if as_json:
        print(report.model_dump_json(indent=2))
    else:
        render_report(report, _console())
    if report.pass_rate < min_score:
        raise typer.Exit(1)


def _register_subcommands() -> None:
    from baton.cli.bench_cmd import bench_app
    from baton.cli.runs_cmd import runs_app
    from baton.cli.sql_cmd import sql_app

    app.add_typer(sql_app, name="sql")
    app.add_typer(bench_app, name="bench")
    app.add_typer(runs_app, name="runs")


_register_subcommands()


def main() -> None:
    """Console entry point: no stack trace ever reaches the user (the run trace keeps details)."""
    try:
        app()
    except KeyboardInterrupt:
        Console(stderr=True).print("cancelled / 已取消 (user_cancelled)")
        sys.exit(130)
    except BatonError as exc:
        Console(stderr=True).print(f"[red]{exc.error_code}[/red]: {exc.message('en')} / {exc.message('zh')}")
        sys.exit(3 if exc.kind == "policy" else 1)
    except Exception as exc:
        Console(stderr=True).print(
            f"[red]tool_failure[/red]: internal error ({type(exc).__name__}); "
            "run with BATON_DEBUG=1 for details / 内部错误，设置 BATON_DEBUG=1 查看详情"
        )
        if os.environ.get("BATON_DEBUG"):
            raise
        sys.exit(1)
