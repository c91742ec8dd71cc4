"""Typer application: `baton ask`, `baton demo init`, `baton eval`, …

Exit codes: 0 answered/approved, 1 failed, 2 clarification needed, 3 refused.
A BatonError is printed as its message in the user's language (and JSON with --json);
nothing prints a stack trace.
"""

from __future__ import annotations

import json
import sys
from datetime import date
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from baton.cli.render import render_answer
from baton.config import Settings, resolve_config
from baton.errors import BatonError, Language

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Baton — a data analyst that never drops the baton.")
demo_app = typer.Typer(no_args_is_help=True, help="Build the embedded demo warehouse.")
app.add_typer(demo_app, name="demo")

EXIT = {"answered": 0, "failed": 1, "clarification_needed": 2, "refused": 3}

ConfigOpt = Annotated[
    Path | None, typer.Option("--config", envvar="BATON_CONFIG", help="baton.toml to use (default: the demo).")
]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="Analysis date YYYY-MM-DD (default: config or today).")]
UserOpt = Annotated[str | None, typer.Option("--user", help="Acting user (default: from config).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for machines.")]


def _console() -> Console:
    return Console(soft_wrap=False, highlight=False)


def _fail(exc: BatonError, *, as_json: bool, language: str = "en") -> None:
    lang: Language = "zh" if language == "zh" else "en"
    if as_json:
        print(json.dumps({"error": exc.to_dict(lang)}, ensure_ascii=False))
    else:
        Console(stderr=True).print(f"[red]{exc.error_code}[/red]: {exc.message(lang)}")
    raise typer.Exit(1 if exc.kind == "internal" else 3 if exc.kind == "policy" else 1)


def _settings(config: Path | None) -> Settings:
    from baton.demo.generator import build_demo

    return resolve_config(config, build_default=build_demo)


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
) -> None:
    """Answer a metric question with governed SQL, its definitions and data freshness."""
    from baton.nlu.gate import detect_language
    from baton.orchestrator.ask import ask as run_ask
    from baton.orchestrator.session import Session

    lang = detect_language(question)
    try:
        session = Session(_settings(config))
        answer = run_ask(session, question, as_of=_as_of(as_of), user=user)
        session.close()
    except BatonError as exc:
        _fail(exc, as_json=as_json, language=lang)
        return
    if as_json:
        print(answer.model_dump_json(indent=2))
    else:
        render_answer(answer, _console())
    raise typer.Exit(EXIT[answer.status])


@demo_app.command("init")
def demo_init(
    path: Annotated[Path | None, typer.Option("--path", help="Directory to write the demo into.")] = None,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario YAML with planted effects.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Random seed.")] = 7,
    scale: Annotated[float, typer.Option("--scale", help="Size multiplier (1 ≈ 1M orders).")] = 1.0,
    force: Annotated[bool, typer.Option("--force", help="Rebuild even if it exists.")] = False,
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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        Console(stderr=True).print("cancelled / 已取消")
        sys.exit(130)
