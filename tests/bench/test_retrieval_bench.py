"""``baton bench retrieval``: the command, its JSON and table, and the eval comparison on the
large catalog (a real eval run on a few real cases, on the configured and the large catalog)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from baton.bench.retrieval import (
    gold_dimensions,
    gold_metrics,
    large_settings,
    recall_by_group,
    render_eval_table,
    render_summary,
    render_table,
    run_eval_comparison,
)
from baton.catalog.loader import load_catalog
from baton.config import Settings, load_settings
from baton.evals.runner import EvalCase, EvalReport, default_datasets, load_cases, run_eval

BATON = [sys.executable, "-m", "baton"]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([*BATON, *args], capture_output=True, text=True, timeout=300, env=env, check=False)


@pytest.fixture(scope="module")
def bench_json(demo_dir: Path) -> dict[str, Any]:
    done = _run("bench", "retrieval", "--size", "300", "--json", "--config", str(demo_dir / "baton.toml"))
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_json_has_recall_tokens_and_timings(bench_json: dict[str, Any]) -> None:
    assert bench_json["catalog"]["metrics"] == 300 and bench_json["catalog"]["base_metrics"] == 12
    for split in ("dev", "heldout"):
        for lang in ("zh", "en", "all"):
            row = bench_json["recall"][split][lang]
            assert row["cases"] > 0 and 0 <= row["@1"] <= row["@5"] <= row["@10"] <= 1
            assert bench_json["recall_without_bigrams"][split][lang]["cases"] == row["cases"]
            assert bench_json["recall_base_catalog"][split][lang]["cases"] == row["cases"]
    tokens = bench_json["prompt_tokens"]
    assert tokens["slice"]["median"] <= tokens["slice"]["p95"] <= tokens["slice"]["max"] < tokens["full_catalog"]
    assert bench_json["search_ms"]["median"] > 0 and bench_json["build_ms"]["index"] > 0
    assert all(m["id"] and m["gold"] for m in bench_json["misses_dev"])
    assert isinstance(bench_json["misses_heldout"], int)  # held-out misses are counted, not listed


def test_the_table_shows_every_split_and_language(bench_json: dict[str, Any]) -> None:
    console = Console(width=200, record=True)
    console.print(render_table(bench_json))
    console.print(render_summary(bench_json))
    out = console.export_text()
    for text in ("recall@10", "dev", "heldout", "zh", "en", "all", f"{bench_json['prompt_tokens']['full_catalog']:,}"):
        assert text in out


def test_a_size_out_of_range_is_refused(demo_dir: Path) -> None:
    done = _run("bench", "retrieval", "--size", "0", "--config", str(demo_dir / "baton.toml"))
    assert done.returncode != 0
    assert "--size" in done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_gold_metrics_come_from_tags_else_from_the_gold_sql() -> None:
    catalog = load_catalog(Path(str(default_datasets()[0])).parents[1] / "catalog.yaml")
    tagged = EvalCase(
        id="t",
        question="q",
        lang="en",
        expect_status="answered",
        gold_sql="SELECT 1 AS order_count",
        tags=("metric:gmv", "group:channel", "filter:region", "metric:nope"),
    )
    assert gold_metrics(tagged, catalog) == ("gmv",)
    assert gold_dimensions(tagged, catalog) == ("channel", "region")
    untagged = tagged.model_copy(update={"tags": ()})
    assert gold_metrics(untagged, catalog) == ("order_count",)


def test_recall_counts_the_share_of_gold_metrics_found() -> None:
    rows = [
        ("dev", "zh", ("a",), ["a", "b"]),
        ("dev", "zh", ("a", "b"), ["c", "a", "x", "y", "z", "b"]),
        ("dev", "en", ("a",), ["b"]),
    ]
    got = recall_by_group(rows, ks=(1, 5, 10))
    assert got["dev"]["zh"] == {"cases": 2, "@1": 0.5, "@5": 0.75, "@10": 1.0}
    assert got["dev"]["en"]["@10"] == 0.0
    assert got["dev"]["all"]["cases"] == 3


def test_the_large_catalog_is_written_beside_and_read_back(demo_dir: Path, tmp_path: Path) -> None:
    settings = load_settings(demo_dir / "baton.toml")
    large = large_settings(settings, tmp_path, size=200)
    assert large.catalog_path == tmp_path / "catalog.yaml" and large.runs_dir == tmp_path / "runs"
    assert large.warehouse_url == settings.warehouse_url and large.policy_path == settings.policy_path
    assert len(load_catalog(large.catalog_path).metrics) == 200


def test_the_eval_comparison_runs_the_real_eval_on_both_catalogs(demo_dir: Path, tmp_path: Path) -> None:
    """A few real dev cases: two answered, and one refusal of a metric the demo lacks but
    the large catalog defines (its change is counted as such, not as a regression)."""
    cases = {c.id: c for c in load_cases(default_datasets()[0])}
    answered = [c for c in cases.values() if c.expect_status == "answered"][:2]
    refusals = [c for c in cases.values() if c.expect_code == "unknown_metric"]
    chosen = [*answered, *refusals]
    subset = tmp_path / "subset.jsonl"
    subset.write_text("\n".join(c.model_dump_json() for c in chosen) + "\n", encoding="utf-8")

    def evaluate(settings: Settings) -> EvalReport:
        return run_eval(settings, [subset])

    result = run_eval_comparison(load_settings(demo_dir / "baton.toml"), evaluate, chosen, size=1000)
    assert result["plain"]["dev"]["right"] == len(chosen)  # the demo refuses metrics it lacks
    large = result["large"]["dev"]
    changed = result["changed"]["dev"]
    assert large["cases"] == len(chosen)
    assert changed["regressions"]["count"] == 0
    assert large["right"] == len(chosen) - changed["defined_now"]["count"]
    assert changed["defined_now"]["count"] >= 1  # e.g. a repurchase rate the large catalog defines
    assert all(c["before"] == "right" for c in changed["defined_now"]["cases"])
    console = Console(width=200, record=True)
    console.print(render_eval_table(result))
    assert "metric now defined" in console.export_text()
