"""Governed exports on the real demo: preview first, files only after approval, read back with
csv / openpyxl / pyarrow and compared with an independent DuckDB query; masking, detail rows,
idempotency, ownership, expiry and the trace."""

from __future__ import annotations

import csv
import io
import re
import sys
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import duckdb
import openpyxl  # type: ignore[import-untyped]
import pyarrow.parquet as pq  # type: ignore[import-untyped]
import pytest

from baton.contracts.answer import Answer
from baton.contracts.export import PREVIEW_ROWS, ExportPreview
from baton.errors import Conflict, ExportNotPermitted, MissingDependency, NotFound, PermissionDenied
from baton.exports import approve_export, export_file, preview_export, request_export
from baton.exports.store import ExportStore
from baton.orchestrator.session import Session
from baton.report.deliver import check_run_export
from baton.trace.writer import read_trace

ASK = "上个月各渠道的GMV是多少？"
INDEPENDENT_GMV = """
    SELECT channel, SUM(gmv_amount) FROM fact_order
    WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-30' AND status IN ('paid', 'refunded')
    GROUP BY channel ORDER BY channel
"""
DAILY = (
    "SELECT order_date, channel, SUM(gmv_amount) AS gmv, COUNT(*) AS orders FROM fact_order "
    "WHERE order_date BETWEEN DATE '2026-06-01' AND DATE '2026-06-03' GROUP BY order_date, channel "
    "ORDER BY order_date, channel"
)
USERS = "SELECT user_id, name, phone, email, region FROM dim_user ORDER BY user_id LIMIT 40"


def _duck(session: Session, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(session.settings.config_path.parent / "warehouse.duckdb"), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def _files(session: Session, export_id: str) -> list[str]:
    """What the export run's folder holds besides its trace."""
    return sorted(p.name for p in (session.runs_dir / export_id).iterdir() if p.name != "trace.jsonl")


def _holds_only_the_preview(session: Session, preview: ExportPreview) -> None:
    """The unapproved export run's answer holds the preview's rows only, and nothing that serves a
    whole stored run (`runs show --json`, GET /api/runs/{id}) serves its evidence's rows."""
    state = session.store.load(preview.export_id)
    assert state.answer is not None and state.answer.result is not None
    assert state.answer.result.rows == preview.rows and len(preview.rows) <= PREVIEW_ROWS
    assert state.answer.result.row_count == preview.row_count
    with pytest.raises(ExportNotPermitted) as refused:
        check_run_export(state, session.engine.dialect, session.principal("analyst"))
    assert refused.value.detail["reason"] == "export_not_approved"


@pytest.fixture(scope="module")
def gmv_run(session: Session) -> Answer:
    answer = session.ask(ASK, user="analyst")
    assert answer.status == "answered"
    return answer


@pytest.fixture(scope="module")
def users_run(session: Session) -> Answer:
    answer = session.sql(USERS, user="analyst")
    assert answer.status == "answered" and answer.result is not None and answer.result.detail_rows
    return answer


def test_preview_writes_nothing_then_approval_writes_the_csv_duckdb_computes(session: Session, gmv_run: Answer) -> None:
    preview = preview_export(session, gmv_run.run_id, "csv", user="analyst")
    assert [c.name for c in preview.columns] == ["channel", "gmv"]
    assert preview.row_count == 4 and len(preview.rows) == 4 and not preview.detail_rows
    assert not preview.approval_required and not preview.approved and preview.masked == []
    assert preview.expires_at > datetime.now(UTC) and preview.export_id != gmv_run.run_id
    assert _files(session, preview.export_id) == []  # a preview writes nothing
    _holds_only_the_preview(session, preview)  # ... nor keeps more than the preview where runs are shown

    result = approve_export(session, preview.export_id, user="analyst")
    assert result is not None and result.rows == 4 and result.path is not None
    data = Path(result.path).read_bytes()
    assert len(data) == result.bytes and _files(session, preview.export_id) == [f"{gmv_run.run_id}.csv"]
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))
    assert rows[0] == ["channel", "gmv"]
    expected = _duck(session, INDEPENDENT_GMV)
    assert [(r[0], round(float(r[1]), 2)) for r in rows[1:]] == [(c, round(float(str(v)), 2)) for c, v in expected]
    assert oct(Path(result.path).stat().st_mode & 0o777) == "0o600"


def test_xlsx_and_parquet_hold_typed_values_equal_to_duckdb(session: Session) -> None:
    daily = session.sql(DAILY, user="analyst")
    assert daily.status == "answered"
    expected = _duck(session, DAILY)
    for fmt in ("xlsx", "parquet"):
        outcome = request_export(session, daily.run_id, fmt, user="analyst", approve=True)
        assert outcome.export is not None and outcome.preview.approved, fmt
        result, data = export_file(session, outcome.export.export_id, user="analyst")
        if fmt == "xlsx":
            sheet = openpyxl.load_workbook(io.BytesIO(data)).active
            values = list(sheet.iter_rows(values_only=True))
            assert values[0] == ("order_date", "channel", "gmv", "orders")
            got = [(d.date(), c, g, n) for d, c, g, n in values[1:]]  # Excel dates come back as datetimes
        else:
            table = pq.read_table(io.BytesIO(data))
            assert [str(t) for t in table.schema.types] == ["date32[day]", "string", "double", "int64"]
            got = [tuple(r.values()) for r in table.to_pylist()]
        assert len(got) == len(expected) == result.rows == 12
        for (d, c, g, n), (ed, ec, eg, en) in zip(got, expected, strict=True):
            assert (d, c, n) == (ed, ec, en) and isinstance(d, date)
            assert g == pytest.approx(float(str(eg)), abs=0.005)


def test_masked_personal_data_stays_masked_in_the_file(session: Session, users_run: Answer) -> None:
    preview = preview_export(session, users_run.run_id, "csv", user="analyst")
    assert {(m.column, m.style) for m in preview.masked} == {
        ("dim_user.name", "full"),
        ("dim_user.phone", "phone"),
        ("dim_user.email", "email"),
    }
    result = approve_export(session, preview.export_id, user="analyst")
    assert result is not None
    _, data = export_file(session, preview.export_id, user="analyst")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert len(rows) == 40
    assert {r["name"] for r in rows} == {"***"}
    assert all(re.fullmatch(r"\d{3}\*{4}\d{4}", r["phone"]) for r in rows)
    assert all(re.fullmatch(r".\*\*\*@[\w.]+", r["email"]) for r in rows)
    real = _duck(session, "SELECT name, phone, email FROM dim_user ORDER BY user_id LIMIT 40")
    text = data.decode("utf-8-sig")
    assert not any(value in text for row in real for value in row if isinstance(value, str) and len(value) > 3)


def test_detail_rows_need_an_explicit_approval(session: Session, users_run: Answer) -> None:
    outcome = request_export(session, users_run.run_id, "parquet", user="analyst", approve=True)
    preview = outcome.preview
    assert outcome.export is None and preview.detail_rows and preview.approval_required and not preview.approved
    assert _files(session, preview.export_id) == []  # approve=True alongside the preview is not enough
    assert preview.row_count == 40 and len(preview.rows) == PREVIEW_ROWS
    _holds_only_the_preview(session, preview)
    again = request_export(session, None, None, user="analyst", approve=True, export_id=preview.export_id)
    assert again.export is not None and again.preview.approved and again.export.rows == 40
    assert _files(session, preview.export_id) == [f"{users_run.run_id}.parquet"]
    approved = session.store.load(preview.export_id)  # approved: the rows have left as the file
    check_run_export(approved, session.engine.dialect, session.principal("analyst"))
    assert approved.answer is not None and approved.answer.result is not None
    assert len(approved.answer.result.rows) == PREVIEW_ROWS


def test_marketing_may_not_export_detail_rows_and_nothing_runs(session: Session) -> None:
    traffic = session.sql(
        "SELECT visit_date, channel, region, visitors FROM fact_traffic "
        "WHERE visit_date = DATE '2026-06-01' ORDER BY channel, region LIMIT 20",
        user="marketing",
    )
    assert traffic.status == "answered" and traffic.result is not None and traffic.result.detail_rows
    before = {r.run_id for r in session.runs(user="marketing", limit=500)}
    with pytest.raises(ExportNotPermitted) as refused:
        preview_export(session, traffic.run_id, "csv", user="marketing")
    assert "export_detail" in refused.value.message("en")
    (export_run,) = [r for r in session.runs(user="marketing", limit=500) if r.run_id not in before]
    state = session.store.load(export_run.run_id)
    assert state.kind == "export" and state.status == "refused" and state.sql == [] and state.evidence == []
    assert _files(session, export_run.run_id) == []
    denials = [
        e for e in read_trace(session.runs_dir / export_run.run_id / "trace.jsonl") if e.type == "policy_decision"
    ]
    assert denials[-1].payload["decision"] == "deny"
    assert denials[-1].payload["error"]["code"] == "export_not_permitted"
    # the same person aggregating the rows may export them
    agg = session.sql(
        "SELECT channel, SUM(visitors) AS visitors FROM fact_traffic WHERE visit_date = DATE '2026-06-01' "
        "GROUP BY channel ORDER BY channel",
        user="marketing",
    )
    outcome = request_export(session, agg.run_id, "csv", user="marketing", approve=True)
    assert outcome.export is not None and not outcome.preview.detail_rows


def test_groups_below_the_minimum_size_stay_out_and_the_preview_says_so(session: Session) -> None:
    fine = session.sql(
        "SELECT channel, region, category, user_type, COUNT(*) AS orders FROM fact_order "
        "WHERE order_date = DATE '2026-06-01' GROUP BY channel, region, category, user_type",
        user="marketing",
    )
    assert fine.status == "answered"
    outcome = request_export(session, fine.run_id, "csv", user="marketing", approve=True)
    preview, result = outcome.preview, outcome.export
    assert result is not None and preview.min_group_size == 10
    assert preview.suppressed_groups is not None and preview.suppressed_groups > 0
    rows = list(
        csv.DictReader(io.StringIO(export_file(session, result.export_id, user="marketing")[1].decode("utf-8-sig")))
    )
    assert len(rows) == preview.row_count and all(int(r["orders"]) >= 10 for r in rows)


def test_an_idempotency_key_returns_the_same_export(session: Session, gmv_run: Answer) -> None:
    first = request_export(session, gmv_run.run_id, "xlsx", user="analyst", approve=True, idempotency_key="k-1")
    exports_before = [r for r in session.runs(user="analyst", limit=500) if r.question.startswith("export ")]
    second = request_export(session, gmv_run.run_id, "xlsx", user="analyst", approve=True, idempotency_key="k-1")
    exports_after = [r for r in session.runs(user="analyst", limit=500) if r.question.startswith("export ")]
    assert first.export is not None and second.export is not None
    assert second.preview.export_id == first.preview.export_id and second.export == first.export
    assert len(exports_after) == len(exports_before)  # no second export run
    assert (
        export_file(session, first.preview.export_id, user="analyst")[1] == Path(first.export.path or "").read_bytes()
    )
    with pytest.raises(Conflict):  # the key names another export
        request_export(session, gmv_run.run_id, "csv", user="analyst", idempotency_key="k-1")
    # per user: another user's identical key is another export
    other = request_export(session, gmv_run.run_id, "xlsx", user="admin", idempotency_key="k-1")
    assert other.preview.export_id != first.preview.export_id


def test_another_users_run_and_export_do_not_exist_for_them(session: Session, gmv_run: Answer) -> None:
    with pytest.raises(PermissionDenied) as refused:
        preview_export(session, gmv_run.run_id, "csv", user="east_manager")
    with pytest.raises(PermissionDenied) as shown:  # the same error `runs show` gives
        session.run_state(gmv_run.run_id, user="east_manager")
    assert refused.value.error_code == shown.value.error_code and refused.value.message("en") == shown.value.message(
        "en"
    )
    preview = preview_export(session, gmv_run.run_id, "csv", user="analyst")
    for call in (
        lambda: approve_export(session, preview.export_id, user="east_manager"),
        lambda: export_file(session, preview.export_id, user="east_manager"),
        lambda: request_export(session, None, None, user="east_manager", export_id=preview.export_id),
    ):
        with pytest.raises(NotFound):
            call()
    assert _files(session, preview.export_id) == []


def test_an_expired_preview_cannot_be_approved(session: Session, gmv_run: Answer) -> None:
    preview = preview_export(session, gmv_run.run_id, "csv", user="analyst")
    with ExportStore(session.runs_dir) as store:
        store.set_expiry(preview.export_id, datetime.now(UTC) - timedelta(seconds=1))
    with pytest.raises(Conflict) as expired:
        approve_export(session, preview.export_id, user="analyst")
    assert expired.value.detail["reason"] == "expired" and _files(session, preview.export_id) == []


def test_every_export_is_a_traced_run_of_its_owner(session: Session, gmv_run: Answer) -> None:
    outcome = request_export(session, gmv_run.run_id, "csv", user="analyst", approve=True)
    export_id = outcome.preview.export_id
    state = session.run_state(export_id, user="analyst")
    assert state.kind == "export" and state.status == "done" and state.user == "analyst"
    assert [r.name for r in state.sql] == ["export"] and "approval" in state.completed_steps
    events = session.run_trace(export_id, user="analyst")
    kinds = [(e.type, e.payload.get("gate") or e.payload.get("tool")) for e in events]
    assert kinds.index(("policy_decision", "firewall")) < kinds.index(("tool_call", "warehouse.query"))
    assert kinds.index(("policy_decision", "export_approval")) < kinds.index(("tool_call", "export.write"))
    write = next(e for e in events if e.payload.get("tool") == "export.write")
    assert outcome.export is not None and write.payload["sha256"] == outcome.export.sha256
    assert export_id in {r.run_id for r in session.runs(user="analyst", limit=500)}
    assert export_id not in {r.run_id for r in session.runs(user="east_manager", limit=500)}
    assert session.replay(export_id, user="analyst").result is not None  # replayable like any run


def test_a_missing_writer_package_is_a_typed_error_naming_the_extra(
    session: Session, gmv_run: Answer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if the dataframes extra were not installed
    before = len(session.runs(user="analyst", limit=500))
    with pytest.raises(MissingDependency) as missing:
        preview_export(session, gmv_run.run_id, "parquet", user="analyst")
    assert "baton-analyst[dataframes]" in missing.value.message("en")
    assert len(session.runs(user="analyst", limit=500)) == before  # refused before any run


def test_text_cells_never_become_formulas(session: Session) -> None:
    run = session.sql(
        "SELECT '=HYPERLINK(''http://x'')' AS link, COUNT(*) AS orders FROM fact_order "
        "WHERE order_date = DATE '2026-06-01'",
        user="analyst",
    )
    assert run.status == "answered"
    csv_out = request_export(session, run.run_id, "csv", user="analyst", approve=True).export
    xlsx_out = request_export(session, run.run_id, "xlsx", user="analyst", approve=True).export
    assert csv_out is not None and xlsx_out is not None
    text = Path(csv_out.path or "").read_bytes().decode("utf-8-sig")
    assert text.splitlines()[1].startswith("'=HYPERLINK")
    cell = openpyxl.load_workbook(xlsx_out.path or "").active["A2"]
    assert cell.data_type == "s" and cell.value == "=HYPERLINK('http://x')"


def test_concurrent_requests_with_one_key_make_one_export(session: Session, gmv_run: Answer) -> None:
    """Four requests racing with one key, each on its own Session (as the server's workers are)."""
    from concurrent.futures import ThreadPoolExecutor

    settings = session.settings

    def request(_: int) -> tuple[str, str | None]:
        with Session(settings) as own:
            outcome = request_export(own, gmv_run.run_id, "csv", user="analyst", approve=True, idempotency_key="race")
            return outcome.preview.export_id, outcome.export.sha256 if outcome.export else None

    def made() -> set[str]:
        return {r.run_id for r in session.runs(user="analyst", limit=1000) if r.question.startswith("export ")}

    before = made()
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(request, range(4)))
    assert len(set(results)) == 1 and results[0][1] is not None, results
    assert made() - before == {results[0][0]}  # one export run, not four


def _force(session: Session, export_id: str, status: str, minutes_ago: float) -> None:
    """Put the export's record in ``status`` since ``minutes_ago``, as a process that died there left it."""
    import sqlite3

    when = (datetime.now(UTC) - timedelta(minutes=minutes_ago)).isoformat()
    con = sqlite3.connect(str(session.runs_dir / "exports.sqlite"), isolation_level=None)
    try:
        con.execute("UPDATE exports SET status = ?, status_at = ? WHERE export_id = ?", (status, when, export_id))
    finally:
        con.close()


def test_an_export_whose_process_died_mid_write_recovers(session: Session, gmv_run: Answer) -> None:
    preview = preview_export(session, gmv_run.run_id, "csv", user="analyst")
    _force(session, preview.export_id, "writing", minutes_ago=11)
    started = time.monotonic()
    result = approve_export(session, preview.export_id, user="analyst")  # not Conflict in_progress
    assert result is not None and result.rows == 4 and time.monotonic() - started < 10
    assert _files(session, preview.export_id) == [f"{gmv_run.run_id}.csv"]
    # any request recovers it, not only a reused key: a dead write seen by GET /api/exports/{id}
    other = preview_export(session, gmv_run.run_id, "xlsx", user="analyst")
    _force(session, other.export_id, "writing", minutes_ago=11)
    assert not request_export(session, None, None, user="analyst", export_id=other.export_id).preview.approved
    with ExportStore(session.runs_dir) as store:
        record = store.get(other.export_id)
    assert record is not None and record.status == "previewed"
    # a preview that died mid-run no longer exists for any request
    dead = preview_export(session, gmv_run.run_id, "parquet", user="analyst")
    _force(session, dead.export_id, "pending", minutes_ago=11)
    with pytest.raises(NotFound):
        request_export(session, None, None, user="analyst", export_id=dead.export_id)
