"""`baton bench handoff`: what each receiving agent is given, under four context strategies."""

from __future__ import annotations

import json
from typing import Annotated

import typer

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
