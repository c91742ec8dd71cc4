"""How long a question takes, next to the query it runs.

Builds the demo at ``--scale`` (default 10, about 10 M orders; cached under ``--dir``), then
for each typical question measures

* **CLI**: median wall time of a fresh ``baton ask … --json`` process (after one warm-up run,
  bytecode caching on), next to a fresh Python
  process that only opens the DuckDB file read-only and runs the same SQL (the statement the
  answer reports, as the firewall approved it) — the floor any CLI on this machine pays;
* **in process**: median time of a warm ``session.ask`` on one open :class:`baton.Session`,
  next to the same statements run alone on the session's own connection (the answer's query,
  and for a daily series the completeness count) — what Baton adds per question (planning,
  firewall with its cost estimate, freshness, chart, narrative, gate, run store and trace).

    .venv/bin/python bench/cli_latency.py [--scale 10] [--repeat 7] [--json]

Targets (issue "One pipeline"): CLI ≤ 4× the raw process; warm ``session.ask`` ≤ 15 ms above
the query's own time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

QUESTIONS = (
    "上个月各渠道的GMV是多少？",
    "What was GMV by region last month?",
    "上个月每天的订单量",
    "二季度各品类的退款率",
)
AS_OF = "2026-07-01"
RAW = "import sys, duckdb; con = duckdb.connect(sys.argv[1], read_only=True); con.execute(sys.argv[2]).fetchall()"


def _build(folder: Path, scale: float) -> Path:
    config = folder / "baton.toml"
    if not config.is_file():
        subprocess.run(
            [sys.executable, "-m", "baton", "demo", "init", "--path", str(folder), "--scale", str(scale)], check=True
        )
    return config


def _env() -> dict[str, str]:
    """The environment a user runs in: bytecode caching on (some sandboxes set
    PYTHONDONTWRITEBYTECODE, which makes every process recompile every module)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _wall(argv: list[str], repeat: int) -> float:
    subprocess.run(argv, check=True, capture_output=True, env=_env())  # warm: bytecode and OS caches
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=_env())
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(config: Path, repeat: int) -> list[dict[str, object]]:
    from baton import Session

    rows: list[dict[str, object]] = []
    with Session(config=config) as session:
        warehouse = str(session.settings.duckdb_path())
        for question in QUESTIONS:
            answer = session.ask(question, as_of=date.fromisoformat(AS_OF))
            assert answer.status == "answered", (question, answer.error)
            statements = [r.approved_sql or "" for r in session.store.load(answer.run_id).sql]
            executed = statements[0]  # the answer's own query (a daily series adds a completeness count)
            cli = _wall(
                [sys.executable, "-m", "baton", "ask", question, "--json", "--config", str(config), "--as-of", AS_OF],
                repeat,
            )
            raw = _wall([sys.executable, "-c", RAW, warehouse, executed], repeat)
            warm, alone = [], []
            for _ in range(repeat):
                # every ask runs its statements for real; the tables' first days stay known, as
                # in any warm session once a question has read them (until the data changes)
                session.runner.clear_cache(metadata=False)
                started = time.perf_counter()
                session.ask(question, as_of=date.fromisoformat(AS_OF))
                warm.append(time.perf_counter() - started)
                started = time.perf_counter()
                for statement in statements:
                    session.backend.execute(statement)
                alone.append(time.perf_counter() - started)
            rows.append(
                {
                    "question": question,
                    "cli_s": round(cli, 3),
                    "raw_process_s": round(raw, 3),
                    "cli_over_raw": round(cli / raw, 2),
                    "session_ask_ms": round(statistics.median(warm) * 1000, 1),
                    "query_alone_ms": round(statistics.median(alone) * 1000, 1),
                    "overhead_ms": round((statistics.median(warm) - statistics.median(alone)) * 1000, 1),
                }
            )
    return rows


def table(rows: list[dict[str, object]]) -> str:
    head = (
        "| question | `baton ask --json` | Python + DuckDB, same SQL | ratio | warm `session.ask` | its SQL alone "
        "| Baton's own time |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    )
    body = [
        f"| {r['question']} | {r['cli_s']:.2f} s | {r['raw_process_s']:.2f} s | {r['cli_over_raw']:.1f}× | "
        f"{r['session_ask_ms']:.1f} ms | {r['query_alone_ms']:.1f} ms | {r['overhead_ms']:.1f} ms |"
        for r in rows
    ]
    return "\n".join([head, *body])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=10.0)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dir", type=Path, default=Path(".bench") / "latency")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = _build(args.dir / f"scale-{args.scale:g}", args.scale)
    rows = measure(config, args.repeat)
    print(json.dumps(rows, ensure_ascii=False, indent=2) if args.json else table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
