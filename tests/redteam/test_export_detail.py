"""Issue 14, finding 8b: ``export_detail: false`` is enforced wherever detail rows would leave.

A role's ``export_detail`` says whether its users may take detail rows (not aggregates) out of
Baton as a report or an export. The terminal display is the user's own reading and stays
allowed; a report in any format (md, html, json), to a file (``--out``) or to standard output
(``--format``, ``--json``), from ``sql run`` and from ``runs replay`` is refused with
``export_not_permitted`` (exit 3), and nothing is written. Answers compiled by the catalog
(ask, analyze, query) are aggregates and export as before.

The demo policy: marketing may read fact_traffic detail rows but has ``export_detail: false``;
analyst has it true.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.contracts.answer import Answer, Column, ResultTable
from baton.errors import PermissionDenied
from baton.orchestrator.session import Session
from baton.report.deliver import deliver
from tests.redteam.private_demo import baton

DETAIL = "SELECT * FROM fact_traffic WHERE visit_date >= DATE '2026-06-01' ORDER BY visit_date, channel LIMIT 5"
AGGREGATE = (
    "SELECT channel, SUM(visitors) AS visitors FROM fact_traffic WHERE visit_date >= DATE '2026-06-01' GROUP BY channel"
)


def _refused(proc: object, out_dir: Path, before: set[str]) -> None:
    import subprocess

    assert isinstance(proc, subprocess.CompletedProcess)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    assert "export_not_permitted" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    assert {p.name for p in out_dir.iterdir()} == before, "a refused export left a file behind"


def test_marketing_cannot_export_detail_rows_in_any_format(demo_copy: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for fmt in ("md", "html", "json"):
        proc = baton(
            ["sql", "run", DETAIL, "--user", "marketing", "--format", fmt, "--out", str(out_dir / f"x.{fmt}")],
            demo_copy,
            cwd=out_dir,
        )
        _refused(proc, out_dir, set())
    for args in (["--format", "md"], ["--format", "html"], ["--json"]):  # a report on standard output
        proc = baton(["sql", "run", DETAIL, "--user", "marketing", *args], demo_copy, cwd=out_dir)
        _refused(proc, out_dir, set())
        assert "2026-06" not in proc.stdout, "detail rows reached standard output"
    as_json = baton(["sql", "run", DETAIL, "--user", "marketing", "--json"], demo_copy, cwd=out_dir)
    assert json.loads(as_json.stdout)["error"]["code"] == "export_not_permitted"


def test_marketing_reads_detail_rows_in_the_terminal(demo_copy: Path, tmp_path: Path) -> None:
    proc = baton(["sql", "run", DETAIL, "--user", "marketing"], demo_copy, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "5 rows." in proc.stdout and "2026-06-01" in proc.stdout


def test_analyst_may_export_detail_rows(demo_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "x.md"
    proc = baton(
        ["sql", "run", DETAIL, "--user", "analyst", "--format", "md", "--out", str(out)], demo_copy, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.is_file() and "2026-06-01" in out.read_text(encoding="utf-8")
    proc = baton(["sql", "run", DETAIL, "--user", "analyst", "--json"], demo_copy, cwd=tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["result"]["detail_rows"] is True


def test_marketing_exports_aggregates(duck_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "agg.md"
    proc = baton(
        ["sql", "run", AGGREGATE, "--user", "marketing", "--format", "md", "--out", str(out)], duck_copy, cwd=tmp_path
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert out.is_file()
    proc = baton(["sql", "run", AGGREGATE, "--user", "marketing", "--json"], duck_copy, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["result"]["detail_rows"] is False
    asked = tmp_path / "ask.html"
    proc = baton(
        ["ask", "上个月各渠道的访客数", "--user", "marketing", "--format", "html", "--out", str(asked)],
        duck_copy,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert asked.is_file()


def test_replay_export_is_checked_for_the_exporting_user(duck_copy: Path, tmp_path: Path) -> None:
    with Session(load_settings(duck_copy / "baton.toml")) as session:
        run_id = session.sql(DETAIL, user="marketing").run_id
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    for args in (["--format", "md", "--out", str(out_dir / "r.md")], ["--format", "json"], ["--json"]):
        proc = baton(["runs", "replay", run_id, "--user", "marketing", *args], duck_copy, cwd=out_dir)
        _refused(proc, out_dir, set())
    shown = baton(["runs", "replay", run_id, "--user", "marketing"], duck_copy, cwd=out_dir)
    assert shown.returncode == 0 and "2026-06-01" in shown.stdout, shown.stdout + shown.stderr
    admin = baton(
        ["runs", "replay", run_id, "--user", "admin", "--format", "md", "--out", str(out_dir / "a.md")],
        duck_copy,
        cwd=out_dir,
    )
    assert admin.returncode == 0, admin.stdout + admin.stderr  # admin: runs: all and export_detail: true
    assert (out_dir / "a.md").is_file()


def _detail_answer() -> Answer:
    return Answer(
        run_id="run_x",
        status="answered",
        question="SELECT * FROM t",
        language="en",
        answer="1 rows.",
        as_of=date(2026, 7, 1),
        result=ResultTable(
            columns=[Column(name="a", type="VARCHAR")], rows=[["secret"]], row_count=1, detail_rows=True
        ),
    )


def test_deliver_refuses_detail_without_an_exporter_and_writes_nothing(tmp_path: Path, demo_dir: Path) -> None:
    answer = _detail_answer()
    with Session(load_settings(demo_dir / "baton.toml")) as session:
        marketing, analyst = session.principal("marketing"), session.principal("analyst")
    for fmt in ("md", "html", "json"):
        target = tmp_path / f"r.{fmt}"
        for exporter in (None, marketing):
            with pytest.raises(PermissionDenied) as refused:
                deliver(answer, fmt, target, cwd=tmp_path, exporter=exporter)
            assert refused.value.error_code == "export_not_permitted"
            assert "export" in refused.value.message("en") and refused.value.message("zh") != refused.value.message(
                "en"
            )
            assert not target.exists()
        assert deliver(answer, fmt, target, cwd=tmp_path, exporter=analyst).written == [target]
    assert deliver(answer, "terminal", None, cwd=tmp_path, exporter=marketing).stdout is None  # the user's own reading
