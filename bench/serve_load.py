"""Load on ``baton serve``: many clients at once, and a simple ask beside running analyses.

Builds the demo at ``--scale`` (default 1, about 1 M orders; cached under ``--dir``), creates an
API token with ``baton token create``, starts ``baton serve`` as its own process on a free port
and then, over real HTTP:

* **load**: ``--clients`` (default 50) concurrent clients ask for ``--duration`` seconds (default
  60) a mix of *cached* questions (a fixed set at a fixed ``as_of``: after the first ask each one is
  a result-cache hit) and *uncached* ones (questions over a range of days drawn inside the data, so
  the SQL — the result cache's key — is new each time) — requests per second, p50/p95/p99
  latency, errors (anything but HTTP 200 with an ``answered`` status), and the server's peak RSS
  (``VmHWM``);
* **beside analyses**: two analyses kept running (each restarted when it finishes) while one client
  asks a simple question over a new range each time — the p95 of that ask, next to its p95 on an
  idle server.

    .venv/bin/python bench/serve_load.py [--scale 1] [--clients 50] [--duration 60] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx2 as httpx

CACHED_AS_OF = "2026-07-01"
QUESTIONS = (
    "上个月各渠道的GMV是多少？",
    "What was GMV by region last month?",
    "上个月每天的订单量",
    "二季度各品类的退款率",
    "上个月GMV最高的3个品类",
    "What was the conversion rate by channel last month?",
)
UNCACHED = (
    "{start}到{end}各渠道的GMV是多少？",
    "What was GMV by region from {start} to {end}?",
    "{start}到{end}各品类的退款率",
    "{start}到{end}每天的订单量",
)
"""Questions over a range of days drawn inside the demo's data (2025-01-01 to 2026-06-30)."""
SIMPLE = "{start}到{end}的GMV是多少？"
ANALYSES = ("为什么2026年6月的GMV下降了？", "Why did the order count fall in June 2026?")
UNCACHED_SHARE = 0.3


def _baton() -> str:
    return str(Path(sys.executable).with_name("baton"))


def _build(folder: Path, scale: float) -> Path:
    config = folder / "baton.toml"
    if not config.exists():
        subprocess.run([_baton(), "demo", "init", "--path", str(folder), "--scale", str(scale)], check=True)
    return config


def _token(config: Path, user: str) -> str:
    out = subprocess.run(
        [_baton(), "token", "create", "--user", user, "--config", str(config), "--json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return str(json.loads(out)["token"])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _start(config: Path, port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [_baton(), "serve", "--config", str(config), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                # the page's CJK font is cut in the background at start: wait for it off the clock
                httpx.get(f"http://127.0.0.1:{port}/static/fonts/baton-cjk.woff", timeout=300)
                return server
        except httpx.HTTPError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("baton serve did not come up within 60 s")


def _peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")


def _new_range(rng: random.Random, template: str) -> str:
    """``template`` over a range of 1 to 60 days inside the data: a new period, so new SQL."""
    start = date(2025, 1, 1) + timedelta(days=rng.randrange(480))
    end = start + timedelta(days=rng.randrange(60))
    return template.format(start=start.isoformat(), end=end.isoformat())


async def _ask(client: httpx.AsyncClient, question: str, as_of: str) -> tuple[float, bool]:
    start = time.perf_counter()
    try:
        response = await client.post("/api/ask", json={"question": question, "as_of": as_of})
        ok = response.status_code == 200 and response.json().get("status") == "answered"
    except httpx.HTTPError:
        ok = False
    return time.perf_counter() - start, ok


async def _client(base: str, token: str, until: float, seed: int, out: list[tuple[float, bool, bool]]) -> None:
    rng = random.Random(seed)
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=120) as client:
        while time.monotonic() < until:
            uncached = rng.random() < UNCACHED_SHARE
            question = _new_range(rng, rng.choice(UNCACHED)) if uncached else rng.choice(QUESTIONS)
            seconds, ok = await _ask(client, question, CACHED_AS_OF)
            out.append((seconds, ok, uncached))


async def _load(base: str, token: str, clients: int, duration: float) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, headers={"Authorization": f"Bearer {token}"}, timeout=120) as warm:
        for question in QUESTIONS:  # the cached set: asked once before the clock starts
            await _ask(warm, question, CACHED_AS_OF)
    samples: list[tuple[float, bool, bool]] = []
    start = time.monotonic()
    await asyncio.gather(*(_client(base, token, start + duration, seed, samples) for seed in range(clients)))
    elapsed = time.monotonic() - start
    latencies = [s for s, _, _ in samples]
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "requests": len(samples),
        "uncached": sum(1 for *_, u in samples if u),
        "rps": round(len(samples) / elapsed, 1),
        "p50_ms": round(_percentile(latencies, 0.50) * 1000, 1),
        "p95_ms": round(_percentile(latencies, 0.95) * 1000, 1),
        "p99_ms": round(_percentile(latencies, 0.99) * 1000, 1),
        "errors": sum(1 for _, ok, _ in samples if not ok),
    }


async def _simple_p95(base: str, token: str, seconds: float, *, analyses: bool) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"}
    stop = time.monotonic() + seconds
    started: list[str] = []

    async def keep_analysing(question: str) -> None:
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=600) as client:
            while time.monotonic() < stop:
                response = await client.post("/api/analyze", json={"question": question, "as_of": CACHED_AS_OF})
                started.append(str(response.status_code))

    async def simple() -> list[tuple[float, bool]]:
        rng = random.Random(1)
        timings = []
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=120) as client:
            await asyncio.sleep(1.0 if analyses else 0.0)  # let the analyses get going
            while time.monotonic() < stop:
                timings.append(await _ask(client, _new_range(rng, SIMPLE), CACHED_AS_OF))
        return timings

    tasks = [asyncio.create_task(keep_analysing(q)) for q in ANALYSES] if analyses else []
    timings = await simple()
    for task in tasks:
        task.cancel()
    latencies = [s for s, _ in timings]
    return {
        "analyses_running": 2 if analyses else 0,
        "asks": len(timings),
        "p95_ms": round(_percentile(latencies, 0.95) * 1000, 1),
        "median_ms": round(statistics.median(latencies) * 1000, 1),
        "errors": sum(1 for _, ok in timings if not ok),
        "analyses_finished": len(started),
    }


def table(result: dict[str, Any]) -> str:
    load, idle, busy = result["load"], result["idle"], result["beside_analyses"]
    return "\n".join(
        [
            "| clients | seconds | requests (uncached) | req/s | p50 | p95 | p99 | errors | peak RSS |",
            "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            f"| {load['clients']} | {load['seconds']} | {load['requests']} ({load['uncached']}) | {load['rps']} "
            f"| {load['p50_ms']} ms | {load['p95_ms']} ms | {load['p99_ms']} ms | {load['errors']} "
            f"| {result['peak_rss_mb']:.0f} MB |",
            "",
            "| simple ask | asks | median | p95 | errors |",
            "|---|---:|---:|---:|---:|",
            f"| idle server | {idle['asks']} | {idle['median_ms']} ms | {idle['p95_ms']} ms | {idle['errors']} |",
            f"| two analyses running | {busy['asks']} | {busy['median_ms']} ms | {busy['p95_ms']} ms "
            f"| {busy['errors']} |",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--side-seconds", type=float, default=30.0, help="how long each simple-ask phase runs")
    parser.add_argument("--dir", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "baton-bench-serve")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    config = _build(args.dir / f"scale-{args.scale:g}", args.scale)
    token = _token(config, "analyst")
    port = _free_port()
    server = _start(config, port)
    base = f"http://127.0.0.1:{port}"
    try:
        result = {
            "scale": args.scale,
            "load": asyncio.run(_load(base, token, args.clients, args.duration)),
            "idle": asyncio.run(_simple_p95(base, token, args.side_seconds, analyses=False)),
            "beside_analyses": asyncio.run(_simple_p95(base, token, args.side_seconds, analyses=True)),
            "peak_rss_mb": _peak_rss_mb(server.pid),
        }
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(json.dumps(result, indent=2) if args.json else table(result))
    return 0 if result["load"]["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
