"""An export follows the policy of the day it is made, never the one the run was made under
(issue 14's rule for replay and resume): a tightened row filter narrows the file, a removed
grant refuses it, and a preview made before a change can no longer be approved or shown."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from baton.config import load_settings
from baton.errors import FirewallError, PermissionDenied
from baton.exports import approve_export, export_preview, preview_export, request_export
from baton.orchestrator.session import Session
from tests.exports.conftest import edit_policy
from tests.redteam.private_demo import private_copy

BY_REGION = "上个月各区域的GMV是多少？"
ANALYST_ORDERS = '  analyst:\n    description: "All demo tables; personal data masked / 全部演示表，个人信息脱敏"\n'


@pytest.fixture
def copy(demo_dir: Path, tmp_path: Path) -> Path:
    return private_copy(demo_dir, tmp_path / "demo")


def _session(folder: Path) -> Session:
    return Session(load_settings(folder / "baton.toml"))


def _only_south(folder: Path) -> None:
    """The analyst's orders are narrowed to 华南 (the analyst role is the first one listed)."""
    edit_policy(
        folder, "      fact_order: {}\n", '      fact_order:\n        row_filter: {region: ["华南"]}\n', "v-south"
    )


def test_a_tightened_row_filter_narrows_the_export(copy: Path) -> None:
    with _session(copy) as session:
        run = session.ask(BY_REGION, user="analyst")
        assert run.status == "answered" and run.result is not None and run.result.row_count == 7
        stale = preview_export(session, run.run_id, "csv", user="analyst")
    _only_south(copy)
    with _session(copy) as session:
        outcome = request_export(session, run.run_id, "csv", user="analyst", approve=True)
        assert outcome.export is not None
        assert outcome.preview.row_count == 1 and outcome.preview.rows[0][0] == "华南"
        assert any("华南" in f for f in outcome.preview.row_filters)
        body = Path(outcome.export.path or "").read_bytes().decode("utf-8-sig")
        assert [r[0] for r in csv.reader(io.StringIO(body))] == ["region", "华南"]
        # the preview made under yesterday's grants is neither written nor shown again
        for call in (
            lambda: approve_export(session, stale.export_id, user="analyst"),
            lambda: export_preview(session, stale.export_id, user="analyst"),
        ):
            with pytest.raises(PermissionDenied) as changed:
                call()
            assert changed.value.detail["reason"] == "grants_changed"
        assert not any(p.suffix == ".csv" for p in (session.runs_dir / stale.export_id).iterdir())


def test_a_removed_grant_refuses_the_export(copy: Path) -> None:
    with _session(copy) as session:
        run = session.ask(BY_REGION, user="east_manager")
        assert run.status == "answered"
    edit_policy(copy, '      fact_order:\n        row_filter: {region: ["华东"]}\n', "", "v-revoked")
    with _session(copy) as session:
        with pytest.raises(FirewallError) as refused:
            preview_export(session, run.run_id, "csv", user="east_manager")
        assert refused.value.error_code == "table_not_permitted"
        export_runs = [r for r in session.runs(user="east_manager") if r.question.startswith("export ")]
        assert [r.status for r in export_runs] == ["refused"]
        assert session.store.load(export_runs[0].run_id).evidence == []
