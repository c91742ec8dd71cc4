"""How Baton scales: analyses by table size and engine, asks next to their raw SQL, concurrency.

Builds the default demo at each DuckDB scale (cached under ``--dir``), loads it into a Spark
database per Spark scale (``baton_bench_s<N>``, reused when its row counts match) and, for the
ask comparison, into PostgreSQL (``baton_bench_s<N>``, reused likewise). Then measures

* **analyze**: the June GMV analysis in a fresh child process per engine and scale: the
  process's wall time (import, session, analysis), the analysis alone, peak RSS (VmHWM), and
  from the run's records the statements run, the cost estimates asked for and the rows returned
  to Python. Heavy work stays in the warehouse, so memory should stay nearly flat with scale;
* **ask vs raw**: a warm ``session.ask`` (result cache cleared before each) next to the same
  approved SQL sent straight through the engine's own client on a warm connection (medians);
* **concurrency**: on Spark, the warm analysis with drill-downs one at a time and with
  ``max_concurrent_statements`` of them at once.

    .venv/bin/python bench/scale.py [--duckdb-scales 1 10 30] [--spark-scales 1 10] [--repeat 3]

Prints Markdown tables and writes ``--dir/scale.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import duckdb

QUESTION = "为什么2026年6月的GMV下降了？"
AS_OF = "2026-07-01"
ASKS = ("上个月各渠道的GMV是多少？", "上个月每天的订单量", "二季度各品类的退款率")
SPARK = "sc://127.0.0.1:15002"
PG = "postgresql://postgres@127.0.0.1:5432/postgres"

CHILD = r"""
import json, resource, sys, time
from datetime import date
from pathlib import Path
from baton.config import load_settings
from baton.orchestrator.session import Session

def hwm():
    for line in open("/proc/self/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0

def counts(session, answer):
    state = session.run_state(answer.run_id)
    trace = session.run_trace(answer.run_id)
    allowed = [  # the firewall's approvals, each with the engine's cost estimate (EXPLAIN)
        e for e in trace
        if e.type == "policy_decision" and e.payload.get("decision") == "allow" and e.payload.get("gate") == "firewall"
    ]
    return {
        "statements": len(state.sql),
        "estimates": len(allowed),
        "rows_to_python": sum(e.result.row_count for e in state.evidence if e.result is not None),
        "drilldowns": sum(1 for r in state.sql if r.name.startswith("insight:drilldown")),
    }

config, question, as_of, repeat = Path(sys.argv[1]), sys.argv[2], date.fromisoformat(sys.argv[3]), int(sys.argv[4])
launched = float(sys.argv[5])  # the parent's clock when it started this process
imported = hwm()
session = Session(load_settings(config))
engine = type(session.backend.engine)
started = time.perf_counter()
answer = session.analyze(question, as_of=as_of)
seconds = time.perf_counter() - started
process = time.time() - launched  # what `baton analyze` costs: interpreter, imports, session, analysis
top = answer.drivers[0] if answer.drivers else None
usage = resource.getrusage(resource.RUSAGE_SELF)  # this process and DuckDB's threads, not a server's
out = {"status": answer.status, "process_s": round(process, 2), "analyze_s": round(seconds, 2),
       "cpu_s": round(usage.ru_utime + usage.ru_stime, 2), "rss_after_import_mb": round(imported, 1),
       "peak_rss_mb": round(hwm(), 1), "top_driver": None if top is None else [top.members, top.factor],
       **counts(session, answer), "width": engine.max_concurrent_statements}
if repeat:  # warm: drill-downs one at a time, then concurrently (cache cleared before each)
    width, times = engine.max_concurrent_statements, {"serial": [], "concurrent": []}
    for _ in range(repeat):
        for mode, w in (("serial", 1), ("concurrent", width)):
            engine.max_concurrent_statements = w
            session.runner.clear_cache()
            t0 = time.perf_counter()
            again = session.analyze(question, as_of=as_of)
            times[mode].append(time.perf_counter() - t0)
            assert [d.model_dump() for d in again.drivers] == [d.model_dump() for d in answer.drivers]
    engine.max_concurrent_statements = width
    out["warm_s"] = {m: [round(t, 2) for t in ts] for m, ts in times.items()}
session.close()
print(json.dumps(out, ensure_ascii=False))
"""


# -- the machine ------------------------------------------------------------------------------
def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if "model name" in line
        ),
        platform.processor(),
    )
    mem_kb = int(next(x for x in Path("/proc/meminfo").read_text().splitlines() if x.startswith("MemTotal")).split()[1])
    return {
        "nproc": os.cpu_count(),
        "ram_gb": round(mem_kb / 1024**2, 1),
        "cpu": model,
        "python": platform.python_version(),
        "duckdb": duckdb.__version__,
    }


def spark_version(url: str) -> str:
    from baton.warehouse.spark_backend import connect_session, split_url

    session = connect_session(split_url(url)[0])
    try:
        return str(session.version)
    finally:
        session.stop()


# -- warehouses ---------------------------------------------------------------------------------
def build_duckdb(root: Path, scale: float) -> Path:
    """The demo at ``scale`` (built once, in its own process), its baton.toml."""
    folder = root / f"duckdb-{scale:g}"
    if not (folder / "baton.toml").is_file():
        argv = [sys.executable, "-m", "baton", "demo", "init", "--path", str(folder), "--scale", str(scale)]
        subprocess.run(argv, check=True)
    return folder / "baton.toml"


def table_counts(source: Path) -> dict[str, int]:
    con = duckdb.connect(str(source), read_only=True)
    try:
        names = [r[0] for r in con.execute("SELECT table_name FROM information_schema.tables").fetchall()]
        return {n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in names}  # type: ignore[index]
    finally:
        con.close()


def _copy_config(source: Path, folder: Path, url: str) -> Path:
    from baton.demo.pg_loader import point_config_at

    folder.mkdir(parents=True, exist_ok=True)
    for name in ("catalog.yaml", "policies.yaml", "baton.toml"):
        shutil.copy(source.parent / name, folder / name)
    point_config_at(folder / "baton.toml", url)
    return folder / "baton.toml"


def spark_config(root: Path, source: Path, scale: float, url: str) -> Path:
    """The demo in Spark database ``baton_bench_s<scale>``, loaded unless its row counts match."""
    from baton.demo.spark_loader import load_demo
    from baton.warehouse.spark_backend import connect_session, split_url

    database = f"baton_bench_s{scale:g}".replace(".", "_")
    want = table_counts(source.parent / "warehouse.duckdb")
    session = connect_session(split_url(url)[0])
    try:
        have = {}
        for name in want:
            try:
                have[name] = int(session.sql(f"SELECT count(*) FROM `{database}`.`{name}`").collect()[0][0])
            except Exception:  # no such database or table: load it
                break
    finally:
        session.stop()
    if have == want:
        reader = f"{url.rstrip('/')}/;database={database}"
    else:
        started = time.perf_counter()
        reader = load_demo(source.parent / "warehouse.duckdb", url, database=database)
        print(f"loaded scale {scale:g} into Spark in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return _copy_config(source, root / f"spark-{scale:g}", reader)


def pg_config(root: Path, source: Path, scale: float, admin: str) -> Path:
    """The demo in PostgreSQL database ``baton_bench_s<scale>``, loaded unless its row counts match."""
    import psycopg

    from baton.demo.pg_loader import load_demo

    dbname = f"baton_bench_s{scale:g}".replace(".", "_")
    url = admin.rsplit("/", 1)[0] + "/" + dbname
    folder = root / f"pg-{scale:g}"
    want = table_counts(source.parent / "warehouse.duckdb")
    try:
        with psycopg.connect(url, connect_timeout=5) as con:
            have = {n: int(con.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0]) for n in want}  # type: ignore[index]
    except psycopg.Error:
        have = {}
    if have == want and (folder / "baton.toml").is_file():
        return folder / "baton.toml"
    return _copy_config(source, folder, load_demo(source.parent / "warehouse.duckdb", url))


# -- measurements -----------------------------------------------------------------------------
def analyze(config: Path, repeat: int) -> dict[str, Any]:
    """The analysis in a fresh process, as the child measures it (``repeat`` warm pairs after it)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    load = os.getloadavg()[0]
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(config), QUESTION, AS_OF, str(repeat), repr(time.time())],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-3000:])
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    result["load_before"] = round(load, 1)  # other work on the machine (1-minute load average)
    return result


def raw_runner(config: Path) -> Any:
    """The engine's own client on a warm connection: a function running one SQL text."""
    from baton.config import load_settings

    settings = load_settings(config)
    url = settings.warehouse_url
    if url.startswith("sc://"):
        from baton.warehouse.spark_backend import connect_session, split_url

        client, database = split_url(url)
        spark = connect_session(client)
        if database:
            spark.catalog.setCurrentDatabase(database)
        return lambda sql: spark.sql(sql).toArrow(), spark.stop
    if url.startswith("postgres"):
        import psycopg

        con = psycopg.connect(url, autocommit=True)
        return lambda sql: con.execute(sql).fetchall(), con.close
    dcon = duckdb.connect(str(settings.duckdb_path()), read_only=True)
    return lambda sql: dcon.execute(sql).fetchall(), dcon.close


def asks(config: Path, repeat: int) -> list[dict[str, Any]]:
    """Warm ``session.ask`` per question next to its approved statements through the raw client."""
    from datetime import date

    from baton import Session

    run, close = raw_runner(config)
    rows = []
    try:
        with Session(config=config) as session:
            for question in ASKS:
                answer = session.ask(question, as_of=date.fromisoformat(AS_OF))
                assert answer.status == "answered", (question, answer.error)
                statements = [r.approved_sql or "" for r in session.store.load(answer.run_id).sql]
                for statement in statements:
                    run(statement)  # warm the raw path too
                warm, raw = [], []
                for _ in range(repeat):
                    session.runner.clear_cache()
                    t0 = time.perf_counter()
                    session.ask(question, as_of=date.fromisoformat(AS_OF))
                    warm.append(time.perf_counter() - t0)
                    t0 = time.perf_counter()
                    for statement in statements:
                        run(statement)
                    raw.append(time.perf_counter() - t0)
                ask_ms, raw_ms = statistics.median(warm) * 1000, statistics.median(raw) * 1000
                rows.append(
                    {
                        "question": question,
                        "statements": len(statements),
                        "ask_ms": round(ask_ms, 1),
                        "raw_ms": round(raw_ms, 1),
                        "overhead_ms": round(ask_ms - raw_ms, 1),
                    }
                )
    finally:
        close()
    return rows


def _median(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The first run's record with its timings and memory replaced by the median over all runs."""
    out = dict(runs[0])
    for key in ("process_s", "analyze_s", "cpu_s", "peak_rss_mb", "load_before"):
        out[key] = round(statistics.median(r[key] for r in runs), 2)
    return out


# -- tables -----------------------------------------------------------------------------------
def machine_line(m: dict[str, Any]) -> str:
    spark = f", Spark {m['spark']} (local, Spark Connect)" if m.get("spark") else ""
    return f"{m['nproc']} cores ({m['cpu']}), {m['ram_gb']} GB RAM, Python {m['python']}, DuckDB {m['duckdb']}{spark}"


def analyze_table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| engine | scale | orders | `baton analyze` process | analysis | its CPU | peak RSS | statements "
        "(drill-downs) | cost estimates | rows to Python | top driver | load |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |"
    )
    body = [
        f"| {r['engine']} | {r['scale']:g} | {r['orders']:,} | {r['process_s']:.1f} s | {r['analyze_s']:.1f} s | "
        f"{r['cpu_s']:.1f} s | "
        f"{r['peak_rss_mb']:.0f} MB | {r['statements']} ({r['drilldowns']}) | {r['estimates']} | "
        f"{r['rows_to_python']:,} | {_driver(r['top_driver'])} | {r['load_before']} |"
        for r in rows
    ]
    return "\n".join([head, *body])


def _driver(top: Any) -> str:
    if not top:
        return "—"
    members, factor = top
    return ", ".join(f"{k}={v}" for k, v in members.items()) + f" · {factor}"


def ask_table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| engine | scale | question | warm `session.ask` | same SQL, engine's client | Baton's own time |\n"
        "| --- | ---: | --- | ---: | ---: | ---: |"
    )
    body = [
        f"| {r['engine']} | {r['scale']:g} | {r['question']} | {r['ask_ms']:.0f} ms | {r['raw_ms']:.0f} ms | "
        f"{r['overhead_ms']:.0f} ms |"
        for r in rows
    ]
    return "\n".join([head, *body])


def concurrency_table(rows: list[dict[str, Any]]) -> str:
    head = (
        "| engine | scale | drill-downs | one at a time | concurrent (width) | saved |\n"
        "| --- | ---: | ---: | ---: | ---: | ---: |"
    )
    body = []
    for r in rows:
        serial, concurrent = statistics.median(r["warm_s"]["serial"]), statistics.median(r["warm_s"]["concurrent"])
        body.append(
            f"| {r['engine']} | {r['scale']:g} | {r['drilldowns']} | {serial:.1f} s | {concurrent:.1f} s "
            f"({r['width']}) | {1 - concurrent / serial:.0%} |"
        )
    return "\n".join([head, *body])


# -- main -------------------------------------------------------------------------------------
def _log(row: dict[str, Any]) -> None:
    print(json.dumps(row, ensure_ascii=False), file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duckdb-scales", type=float, nargs="*", default=[1.0, 10.0, 30.0])
    parser.add_argument("--spark-scales", type=float, nargs="*", default=[1.0, 10.0])
    parser.add_argument("--ask-scale", type=float, default=1.0, help="the scale of the ask comparison")
    parser.add_argument("--repeat", type=int, default=5, help="warm repetitions of each ask")
    parser.add_argument("--runs", type=int, default=1, help="fresh analysis processes per engine and scale")
    parser.add_argument("--out", type=Path, help="the JSON report (default: DIR/scale.json)")
    parser.add_argument("--warm", type=int, default=2, help="warm serial/concurrent analysis pairs on Spark")
    parser.add_argument("--spark", default=SPARK, help="Spark Connect URL ('' to leave Spark out)")
    parser.add_argument("--pg", default=PG, help="PostgreSQL admin URL ('' to leave PostgreSQL out)")
    parser.add_argument("--dir", type=Path, default=Path(".bench") / "scale")
    args = parser.parse_args()
    report: dict[str, Any] = {"machine": machine(), "question": QUESTION, "as_of": AS_OF}
    if args.spark:
        report["machine"]["spark"] = spark_version(args.spark)
    sources = {s: build_duckdb(args.dir, s) for s in sorted({*args.duckdb_scales, *args.spark_scales, args.ask_scale})}
    orders = {s: table_counts(c.parent / "warehouse.duckdb").get("fact_order", 0) for s, c in sources.items()}
    configs = [("DuckDB", s, sources[s]) for s in args.duckdb_scales]
    if args.spark:
        configs += [("Spark", s, spark_config(args.dir, sources[s], s, args.spark)) for s in args.spark_scales]
    analyses = []
    for engine, scale, config in configs:
        runs = []
        for index in range(args.runs):  # warm pairs on Spark once, after the first fresh process
            runs.append(analyze(config, args.warm if engine == "Spark" and index == 0 else 0))
            _log({"engine": engine, "scale": scale, **runs[-1]})
        analyses.append({"engine": engine, "scale": scale, "orders": orders[scale], **_median(runs), "runs": runs})
    source = sources[args.ask_scale]
    ask_configs = [("DuckDB", source)]
    if args.pg:
        ask_configs.append(("PostgreSQL", pg_config(args.dir, source, args.ask_scale, args.pg)))
    if args.spark:
        ask_configs.append(("Spark", spark_config(args.dir, source, args.ask_scale, args.spark)))
    ask_rows = []
    for engine, config in ask_configs:
        for r in asks(config, args.repeat):
            ask_rows.append({"engine": engine, "scale": args.ask_scale, **r})
            _log(ask_rows[-1])
    report |= {"analyze": analyses, "ask": ask_rows}
    (args.out or args.dir / "scale.json").write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    print(f"Machine: {machine_line(report['machine'])}.\n")
    print(analyze_table(analyses) + "\n")
    print(ask_table(ask_rows) + "\n")
    spark_rows = [r for r in analyses if "warm_s" in r]
    if spark_rows:
        print(concurrency_table(spark_rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
