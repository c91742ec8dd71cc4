"""Peak memory (RSS) and wall time of `baton analyze` by table size.

Builds the default demo at each scale (cached under --dir), then runs the analysis in a fresh
child process per scale and question, which reports its own peak RSS (ru_maxrss) after
importing Baton and after the analysis. Heavy work is pushed down to the warehouse as
aggregates, so the analysis should cost about the same memory at scale 10 as at scale 1.

    .venv/bin/python bench/analyze_memory.py --scales 1 10
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

CHILD = r"""
import json, sys, time
from datetime import date
from pathlib import Path
from baton.config import load_settings
from baton.orchestrator.session import Session
def hwm():
    # VmHWM: peak RSS of this process image (ru_maxrss would include the forking parent)
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return 0
rss_imported = hwm()
settings = load_settings(Path(sys.argv[1]) / "baton.toml")
if sys.argv[3] != "-":
    settings = settings.model_copy(update={"memory_limit": sys.argv[3]})
session = Session(settings)
started = time.perf_counter()
answer = session.analyze(sys.argv[2], as_of=date(2026, 7, 1))
seconds = time.perf_counter() - started
session.close()
top = answer.drivers[0] if answer.drivers else None
print(json.dumps({
    "status": answer.status,
    "seconds": round(seconds, 2),
    "rss_after_import_mb": round(rss_imported / 1024, 1),
    "peak_rss_mb": round(hwm() / 1024, 1),
    "top_driver": None if top is None else {"members": top.members, "factor": top.factor},
    "queries": sum(1 for h in answer.handoffs),
}, ensure_ascii=False))
"""

BUILD = r"""
import sys
from pathlib import Path
from baton.demo.generator import build_demo
print(build_demo(Path(sys.argv[1]), scale=float(sys.argv[2])).orders)
"""

QUESTIONS = ("为什么2026年6月的GMV下降了？", "为什么二季度退款率上升了？")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/baton-bench-analyze"))
    parser.add_argument("--memory-limit", default="-", help="DuckDB memory_limit for the analysis (default: config)")
    args = parser.parse_args()
    rows = []
    for scale in args.scales:
        folder = args.dir / f"scale_{scale:g}"
        t0 = time.perf_counter()
        # built in its own process, so the generator's arrays never inflate the measurements
        out = subprocess.run(
            [sys.executable, "-c", BUILD, str(folder), str(scale)], capture_output=True, text=True, check=True
        )
        orders = int(out.stdout.strip().splitlines()[-1])
        built = time.perf_counter() - t0
        for question in QUESTIONS:
            proc = subprocess.run(
                [sys.executable, "-c", CHILD, str(folder), question, args.memory_limit],
                capture_output=True,
                text=True,
                check=True,
            )
            result = json.loads(proc.stdout.strip().splitlines()[-1])
            result.update({"scale": scale, "orders": orders, "question": question, "build_s": round(built, 1)})
            rows.append(result)
            print(json.dumps(result, ensure_ascii=False), flush=True)
    print("\nscale  orders      question                      time s  peak RSS MB  (after import MB)")
    for r in rows:
        print(
            f"{r['scale']:<6g} {r['orders']:<11,} {r['question']:<24} {r['seconds']:>8} {r['peak_rss_mb']:>12} ({r['rss_after_import_mb']})"
        )


if __name__ == "__main__":
    main()
