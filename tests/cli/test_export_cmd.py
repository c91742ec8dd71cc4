"""`baton export` as a user runs it (the console script in a subprocess): the preview is printed,
the file is written only once approved (prompt, --yes for aggregates, --approve ID for detail
rows), refusals exit 3 with nothing written, and an idempotency key returns the same export."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer
from baton.orchestrator.session import Session
from tests.redteam.private_demo import BATON, baton, private_copy


@pytest.fixture(scope="module")
def demo(demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return private_copy(demo_dir, tmp_path_factory.mktemp("export_cli") / "demo")


@pytest.fixture(scope="module")
def runs(demo: Path) -> Iterator[dict[str, Answer]]:
    """An aggregate run and a detail run of the analyst, a detail run of marketing."""
    with Session(load_settings(demo / "baton.toml")) as session:
        yield {
            "gmv": session.ask("上个月各渠道的GMV是多少？", user="analyst"),
            "users": session.sql("SELECT user_id, phone FROM dim_user ORDER BY user_id LIMIT 25", user="analyst"),
            "traffic": session.sql(
                "SELECT visit_date, channel, visitors FROM fact_traffic WHERE visit_date = DATE '2026-06-01' LIMIT 5",
                user="marketing",
            ),
        }


def _export(demo: Path, args: list[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    """The real console script (``baton export … --config``), with ``stdin`` as the user's typing."""
    env = {**os.environ, "COLUMNS": "200", "PYTHONIOENCODING": "utf-8"}
    env.pop("BATON_DEBUG", None)
    return subprocess.run(
        [*BATON, "export", *args, "--config", str(demo / "baton.toml")],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=180,
        env=env,
        check=False,
    )


def test_aggregates_with_yes_and_a_key_write_the_same_file_twice(
    demo: Path, runs: dict[str, Answer], tmp_path: Path
) -> None:
    run_id = runs["gmv"].run_id
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    done = _export(demo, [run_id, "--out", str(first), "--yes", "--idempotency-key", "nightly-1", "--json"])
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    assert said["preview"]["row_count"] == 4 and said["preview"]["masked"] == [] and not said["preview"]["detail_rows"]
    rows = list(csv.reader(io.StringIO(first.read_bytes().decode("utf-8-sig"))))
    assert rows[0] == ["channel", "gmv"] and len(rows) == 5
    assert hashlib.sha256(first.read_bytes()).hexdigest() == said["export"]["sha256"]
    again = _export(demo, [run_id, "--out", str(second), "--yes", "--idempotency-key", "nightly-1"])
    assert again.returncode == 0, again.stderr
    assert said["export"]["export_id"] in again.stderr.replace("\n", "") and first.read_bytes() == second.read_bytes()
    assert "channel" in again.stdout and "APP" in again.stdout  # the preview, labelled as the terminal table is
    assert "¥7,371,750.00" in again.stdout  # and formatted as it is: money with its unit and cents


def test_the_prompt_decides_and_a_no_writes_nothing(demo: Path, runs: dict[str, Answer], tmp_path: Path) -> None:
    target = tmp_path / "gmv.xlsx"
    declined = _export(demo, [runs["gmv"].run_id, "--out", str(target)], stdin="n\n")
    assert declined.returncode == 1 and not target.exists()
    assert "nothing was written" in declined.stderr or "未写出任何文件" in declined.stderr
    accepted = _export(demo, [runs["gmv"].run_id, "--out", str(target)], stdin="y\n")
    assert accepted.returncode == 0, accepted.stderr
    assert target.read_bytes()[:2] == b"PK"  # an xlsx (zip) file, from --out's suffix


def test_detail_rows_need_the_preview_approved_by_its_id(demo: Path, runs: dict[str, Answer], tmp_path: Path) -> None:
    run_id, target = runs["users"].run_id, tmp_path / "users.parquet"
    held = _export(demo, [run_id, "--out", str(target), "--yes", "--json"])
    assert held.returncode == 2 and not target.exists()
    preview = json.loads(held.stdout)["preview"]
    assert preview["detail_rows"] and preview["approval_required"]
    assert {m["column"]: m["style"] for m in preview["masked"]}["dim_user.phone"] == "phone"
    assert f"--approve {preview['export_id']}" in held.stderr.replace("\n", " ")
    approved = _export(demo, [run_id, "--out", str(target), "--approve", preview["export_id"]])
    assert approved.returncode == 0, approved.stderr
    assert target.read_bytes()[:4] == b"PAR1"


def test_refusals_exit_3_and_write_nothing(demo: Path, runs: dict[str, Answer], tmp_path: Path) -> None:
    target = tmp_path / "x.csv"
    detail = _export(demo, [runs["traffic"].run_id, "--out", str(target), "--yes", "--user", "marketing"])
    assert detail.returncode == 3 and "export_not_permitted" in detail.stderr and not target.exists()
    foreign = _export(demo, [runs["gmv"].run_id, "--out", str(target), "--yes", "--user", "east_manager"])
    assert foreign.returncode == 3 and "permission_denied" in foreign.stderr and not target.exists()
    shown = baton(["runs", "show", runs["gmv"].run_id, "--user", "east_manager"], demo)
    assert shown.returncode == 3 and shown.stderr.split(":")[0] == foreign.stderr.split(":")[0]
    bad = _export(demo, [runs["gmv"].run_id, "--out", str(tmp_path / "x.json")])
    assert bad.returncode == 1 and "csv, xlsx or parquet" in bad.stderr
    assert "Traceback" not in detail.stderr + foreign.stderr + bad.stderr


def test_the_preview_is_all_an_unapproved_export_run_shows(demo: Path, runs: dict[str, Answer], tmp_path: Path) -> None:
    """`runs show --json` of a detail export not yet approved serves none of its rows (issue 16)."""
    run_id, target = runs["users"].run_id, tmp_path / "held.csv"
    assert runs["users"].result is not None and len(runs["users"].result.rows) == 25
    held = _export(demo, [run_id, "--out", str(target), "--json"])
    assert held.returncode == 2 and not target.exists()
    export_id = json.loads(held.stdout)["preview"]["export_id"]
    later = [str(row[1]) for row in runs["users"].result.rows[10:]]  # masked phones past the preview
    shown = baton(["runs", "show", export_id, "--json", "--user", "analyst"], demo)
    assert shown.returncode == 3 and json.loads(shown.stdout)["error"]["code"] == "export_not_permitted"
    assert not any(phone in shown.stdout + shown.stderr for phone in later)
    with Session(load_settings(demo / "baton.toml")) as session:
        answer = session.store.load(export_id).answer
    assert answer is not None and answer.result is not None
    assert len(answer.result.rows) == 10 and answer.result.row_count == 25  # the preview, not every row
    approved = _export(demo, [run_id, "--out", str(target), "--approve", export_id])
    assert approved.returncode == 0, approved.stderr
    after = baton(["runs", "show", export_id, "--json", "--user", "analyst"], demo)
    assert after.returncode == 0, after.stderr  # approved: its rows have left as the file anyway
    assert json.loads(after.stdout)["run_id"] == export_id


def test_the_preview_cells_are_written_by_the_one_formatter(
    demo: Path, runs: dict[str, Answer], tmp_path: Path
) -> None:
    gmv = runs["gmv"]
    assert gmv.result is not None
    shown = _export(demo, [gmv.run_id, "--out", str(tmp_path / "g.csv")], stdin="n\n")
    assert shown.returncode == 1
    raw = [repr(float(row[1])) for row in gmv.result.rows]  # e.g. 25413813.4
    assert all(float(r) >= 1000 for r in raw) and not any(r in shown.stdout for r in raw)
    grouped = re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", shown.stdout)
    assert len(grouped) == len(raw), shown.stdout
    assert sorted(float(g.replace(",", "")) for g in grouped) == pytest.approx(sorted(float(r) for r in raw))
