"""Concurrent drill-downs give exactly the serial analysis: drivers, evidence, trace.

The insight agent runs each stage's drill-downs as one batch (``GovernedQuery.run_all``); an
engine that takes several statements at once (Spark Connect) runs them concurrently, while the
run records everything in the serial order. DuckDB's backend serialises statements behind a
lock, so forcing its concurrency setting exercises the concurrent path on a real warehouse.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from baton.warehouse.duckdb_backend import DuckDBBackend, DuckDBEngine
from baton.warehouse.engine import Engine

QUESTION = "为什么2026年6月的GMV下降了？"
AS_OF = date(2026, 7, 1)
VOLATILE = {"latency_ms", "duration_ms", "elapsed_ms", "tokens"}
"""Timings, and token counts (a handoff's packet quotes its random context id)."""
CONTEXT_KEYS = ("context_id", "packet_ref", "report_ref", "parent_context_id")


def _stable(payload: dict[str, Any], contexts: dict[str, str]) -> dict[str, Any]:
    """A trace payload without timings, its random context ids numbered by first appearance."""
    out = {k: v for k, v in payload.items() if k not in VOLATILE}
    if isinstance(out.get("cost"), dict):  # the run's usage: tokens again
        out["cost"] = {k: v for k, v in out["cost"].items() if k not in VOLATILE}
    for key in CONTEXT_KEYS:
        if isinstance(out.get(key), str):
            ctx, _, rest = out[key].partition(":")
            out[key] = contexts.setdefault(ctx, f"ctx{len(contexts)}") + (":" + rest if rest else "")
    return out


def _analysis(config: Path, runs: Path) -> tuple[Answer, list[tuple[str, str, dict[str, Any]]], list[Any]]:
    """One fresh session's June GMV analysis: the answer, its trace (timings left out) and its evidence."""
    settings = load_settings(config).model_copy(update={"runs_dir": runs})
    with Session(settings) as session:
        answer = session.analyze(QUESTION, as_of=AS_OF)
        contexts: dict[str, str] = {}
        trace = [(str(e.type), e.actor, _stable(e.payload, contexts)) for e in session.run_trace(answer.run_id)]
        state = session.run_state(answer.run_id)
    evidence = [(e.evidence_id, e.result.rows if e.result else None) for e in state.evidence]
    return answer, trace, evidence


def _rounded(value: Any) -> Any:
    """Floats to 9 significant digits, in any nesting: an engine sums doubles in whatever
    order its threads or tasks finish, so any two runs (serial or not) may differ in the last bits."""
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_rounded(v) for v in value]
    return value


def _threads(backend: type[Any], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the threads the backend's statements run on (the backend itself unchanged)."""
    seen: list[str] = []
    execute = backend.execute

    def spied(self: Any, sql: str, **options: Any) -> Any:
        seen.append(threading.current_thread().name)
        return execute(self, sql, **options)

    monkeypatch.setattr(backend, "execute", spied)
    return seen


def _same_analysis(
    config: Path, tmp_path: Path, engine: type[Engine], backend: type[Any], monkeypatch: pytest.MonkeyPatch
) -> int:
    """Run serially, then concurrently; assert they agree; return how many drill-downs ran."""
    threads = _threads(backend, monkeypatch)
    monkeypatch.setattr(engine, "max_concurrent_statements", 1)
    serial, serial_trace, serial_evidence = _analysis(config, tmp_path / "serial")
    assert not any(name.startswith("baton-query") for name in threads)
    monkeypatch.setattr(engine, "max_concurrent_statements", 4)
    concurrent, trace, evidence = _analysis(config, tmp_path / "concurrent")
    assert len({name for name in threads if name.startswith("baton-query")}) > 1, "statements ran on the pool"
    assert serial.status == concurrent.status == "answered", (serial.error, concurrent.error)
    assert serial.drivers, "the June GMV analysis names drivers"
    assert _rounded([d.model_dump() for d in concurrent.drivers]) == _rounded([d.model_dump() for d in serial.drivers])
    assert concurrent.answer == serial.answer
    assert _rounded(evidence) == _rounded(serial_evidence)
    assert [t[:2] for t in trace] == [t[:2] for t in serial_trace]
    assert trace == serial_trace
    drills = [p for t, _, p in trace if t == "policy_decision" and str(p.get("query", "")).startswith("insight:")]
    return len(drills)


def test_forced_concurrency_on_duckdb_matches_serial(
    small_demo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    drills = _same_analysis(small_demo_dir / "baton.toml", tmp_path, DuckDBEngine, DuckDBBackend, monkeypatch)
    assert drills >= 4, "single dimensions and pairs were drilled"


@pytest.fixture(scope="module")
def spark_demo_config(spark_url: str, small_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The small demo loaded into a Spark database of this test process (dropped afterwards),
    with a baton.toml pointing at it."""
    from baton.demo.pg_loader import point_config_at
    from baton.demo.spark_loader import load_demo
    from baton.warehouse.spark_backend import connect_session

    folder = tmp_path_factory.mktemp("spark_concurrency")
    for name in ("catalog.yaml", "policies.yaml", "baton.toml"):
        shutil.copy(small_demo_dir / name, folder / name)
    database = f"baton_conc_{os.getpid()}"
    reader = load_demo(small_demo_dir / "warehouse.duckdb", spark_url, database=database)
    point_config_at(folder / "baton.toml", reader)
    yield folder / "baton.toml"
    session = connect_session(spark_url)
    try:
        session.sql(f"DROP DATABASE IF EXISTS `{database}` CASCADE").collect()
    finally:
        session.stop()


@pytest.mark.spark
@pytest.mark.spark_full  # two analyses on Spark: make test-spark
def test_concurrent_drilldowns_on_spark_match_serial(
    spark_demo_config: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from baton.warehouse.spark_backend import SparkBackend, SparkEngine

    assert SparkEngine.max_concurrent_statements > 1, "Spark Connect takes several statements at once"
    drills = _same_analysis(spark_demo_config, tmp_path, SparkEngine, SparkBackend, monkeypatch)
    assert drills >= 4


def _statements(backend: type[Any], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The statements (not cost estimates) the backend runs."""
    seen: list[str] = []
    execute = backend.execute

    def spied(self: Any, sql: str, **options: Any) -> Any:
        if not sql.lstrip().upper().startswith("EXPLAIN"):
            seen.append(sql)
        return execute(self, sql, **options)

    monkeypatch.setattr(backend, "execute", spied)
    return seen


@pytest.mark.parametrize("max_tool_calls", [9, 12, 15])
def test_a_batch_never_runs_past_the_tool_call_budget(
    small_demo_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, max_tool_calls: int
) -> None:
    """Where the budget ends inside a drill-down stage, the concurrent run stops where the
    serial one does and sends the warehouse no statement the serial run would not."""
    from baton.contracts.run import Budget

    sent = _statements(DuckDBBackend, monkeypatch)
    results = []
    for width in (1, 4):
        monkeypatch.setattr(DuckDBEngine, "max_concurrent_statements", width)
        sent.clear()
        settings = load_settings(small_demo_dir / "baton.toml").model_copy(update={"runs_dir": tmp_path / str(width)})
        with Session(settings) as session:
            answer = session.analyze(QUESTION, as_of=AS_OF, budget=Budget(max_tool_calls=max_tool_calls))
        results.append((answer.status, answer.error.code if answer.error else None, len(sent)))
    assert results[0] == results[1]
    assert results[0][1] == "budget_exceeded", results[0]
