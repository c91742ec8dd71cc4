"""`baton bench handoff`: what each receiving agent is given, under four context strategies;
`baton bench retrieval`: catalog search on a large generated catalog."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from baton.cli.common import ConfigOpt
from baton.errors import InvalidInput
from baton.messages import both

bench_app = typer.Typer(no_args_is_help=True, help="Benchmarks that back Baton's claims with numbers.")


def _steps(raw: str) -> list[int]:
    try:
        steps = [int(part) for part in raw.split(",") if part.strip()]
    except ValueError as exc:
        raise InvalidInput(*both("cli.bad_steps", raw=raw)) from exc
    if not steps or any(s < 1 or s > 500 for s in steps):
        raise InvalidInput(*both("cli.steps_range"))
    return steps


@bench_app.command("handoff")
def handoff(
    steps: Annotated[str, typer.Option("--steps", help="Chain lengths, comma separated.")] = "6,20,50",
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Retention of must-keep items, drift, leaks and tokens: full history vs last output vs window vs Baton."""
    from baton.bench import render_table, run_handoff_bench

    result = run_handoff_bench(_steps(steps))
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    else:
        from rich.console import Console

        console = Console()
        console.width = max(console.width, 160)
        console.print(render_table(result))


@bench_app.command("retrieval")
def retrieval(
    config: ConfigOpt = None,
    size: Annotated[int, typer.Option("--size", help="Metrics in the generated catalog.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the generated catalog.")] = 0,
    with_eval: Annotated[
        bool, typer.Option("--eval", help="Also run the eval on the configured and the large catalog (slower).")
    ] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Catalog search on a generated large catalog: recall@1/5/10 of the eval's metrics, prompt tokens, search time."""
    from baton.bench.large_catalog import CannotGenerate
    from baton.bench.retrieval import render_eval_table, run_eval_comparison, run_retrieval_bench
    from baton.catalog.loader import load_catalog
    from baton.cli.common import settings_for
    from baton.evals.runner import default_datasets, load_cases, run_eval

    if not 1 <= size <= 5000:
        raise InvalidInput(*both("retrieval.bad_size", low=1, high=5000, size=size))
    settings = settings_for(config)
    cases = [case for path in default_datasets() for case in load_cases(path)]
    try:
        result = run_retrieval_bench(load_catalog(settings.catalog_path), cases, size=size, seed=seed)
        if with_eval:
            result["eval"] = run_eval_comparison(settings, run_eval, cases, size=size, seed=seed)
    except CannotGenerate as exc:
        raise InvalidInput(*both("retrieval.cannot_generate", size=size, error=exc)) from exc
    if as_json:
        print(json.dumps(result, ensure_ascii=False, indent=2, default=str))
        return
    from rich.console import Console

    from baton.bench.retrieval import render_summary, render_table

    console = Console()
    console.width = max(console.width, 120)
    console.print(render_table(result))
    console.print(render_summary(result))
    if with_eval:
        console.print(render_eval_table(result["eval"]))
