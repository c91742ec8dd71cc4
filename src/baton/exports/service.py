"""Governed exports, in two steps: preview, then approve (decisions in docs/exports.md).

* :func:`preview_export` runs the export's run (:mod:`baton.exports.pipeline`: the exported
  run's statement approved again and run as the exporting user under today's policy) and
  returns what the file would hold. Nothing is written. A preview can be approved until it
  expires (:data:`EXPORT_TTL`).
* :func:`approve_export` writes the file — only now, atomically (temp file + rename), into the
  export run's folder — after checking again that the preview has not expired, that the user's
  grants are the ones the preview ran under, and (detail rows) that the user may export them.
  The approval and the write are appended to the export run's trace.
* Detail rows (one row per record) need ``export_detail`` *and* an explicit approval: a
  separate call naming the previewed ``export_id`` (``explicit=True``). An aggregate export
  may be approved in the same request as its preview (:func:`request_export` ``approve=True``).
* An idempotency key (per user) makes a repeated request return the same export — the same
  ``export_id`` and, once approved, the same file — instead of a second one; a key reused for
  another run or format is a conflict. A refused preview leaves its key free.
* An export belongs to its user: anyone else is told it does not exist. Whatever is shown or
  served again (a repeated request, a download) is shown only while the user's grants are still
  the ones it was read under, as for replaying a run.
"""

from __future__ import annotations

import hashlib
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

from baton.contracts.common import Language
from baton.contracts.export import (
    EXPORT_FORMATS,
    PREVIEW_ROWS,
    ExportFormat,
    ExportOutcome,
    ExportPreview,
    ExportResult,
)
from baton.contracts.run import RunKind, RunState
from baton.contracts.trace import EventType
from baton.errors import BatonError, Conflict, ExportNotPermitted, InvalidInput, NotFound, PermissionDenied, ToolFailure
from baton.exports.pipeline import ExportPipeline, ExportRows, ExportSource, export_question
from baton.exports.store import ExportRecord, ExportStore, Status
from baton.exports.writers import MEDIA_TYPES, render, require_writer
from baton.messages import both
from baton.orchestrator.driver import RunScope, start
from baton.orchestrator.run import new_run_id
from baton.orchestrator.session import Session
from baton.report.files import atomic_write_bytes
from baton.sql import ApprovedSql
from baton.trace.writer import TraceWriter, args_hash

EXPORT_TTL = timedelta(minutes=15)
"""How long a preview can be approved: after that, today's policy must be asked again."""
WAIT_S = 30.0
"""How long a request waits for another request working on the same export."""
STALE = timedelta(minutes=10)
"""A preview still pending, or a file still being written, this long after it started died with
its process (a live one ends far sooner): any request recovers it (:meth:`ExportStore.recover_stale`)."""
_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")


def parse_format(raw: str | None, out: Path | None = None) -> ExportFormat:
    """``--format`` (or the ``--out`` file's suffix when no format is given)."""
    value = (raw or (out.suffix.lstrip(".") if out is not None else "")).strip().lower()
    if not value:
        raise InvalidInput(*both("exports.no_format"))
    if value not in EXPORT_FORMATS:
        raise InvalidInput(*both("exports.bad_format", raw=raw or value), detail={"format": value[:40]})
    return value


def check_key(raw: str | None) -> str | None:
    """An idempotency key: 1 to 200 printable ASCII characters (or none)."""
    if raw is None:
        return None
    if not _KEY.match(raw):
        raise InvalidInput(*both("exports.bad_key"), detail={"reason": "bad_idempotency_key"})
    return raw


class _Capture:
    """The export pipeline factory for one preview, keeping the pipeline to read its error."""

    kind: ClassVar[RunKind] = "export"
    question_limit: ClassVar[int] = ExportPipeline.question_limit

    def __init__(self) -> None:
        self.pipeline: ExportPipeline | None = None

    def __call__(self, scope: RunScope) -> ExportPipeline:
        self.pipeline = ExportPipeline(scope)
        return self.pipeline


# -- preview ------------------------------------------------------------------------------------
def preview_export(
    session: Session,
    run_id: str,
    fmt: str,
    *,
    user: str | None = None,
    idempotency_key: str | None = None,
    language: Language | None = None,
) -> ExportPreview:
    """Preview exporting ``run_id`` as ``fmt`` for ``user`` (a new export, or the one the key
    already names). Raises the typed error that refused it; nothing is written."""
    export_format = parse_format(fmt)
    key = check_key(idempotency_key)
    asking = session.principal(user or session.user).user  # an unknown user is refused first
    require_writer(export_format)  # a missing optional package, before anything runs
    with ExportStore(session.runs_dir) as store:
        while True:
            if key is not None and (existing := store.by_key(asking, key)) is not None:
                if store.recover_stale(existing.export_id, datetime.now(UTC) - STALE) is None:
                    continue  # its preview died with its process: start again
                return _repeat(session, store, existing, run_id, export_format)
            export_id = new_run_id()
            if store.reserve(export_id, asking, key, run_id, export_format, datetime.now(UTC)):
                break  # else another request took the key first: return its export
        return _run_preview(session, store, export_id, run_id, export_format, asking, language)


def _run_preview(
    session: Session,
    store: ExportStore,
    export_id: str,
    run_id: str,
    fmt: ExportFormat,
    user: str,
    language: Language | None,
) -> ExportPreview:
    capture = _Capture()
    try:
        answer = start(
            session,
            capture,
            export_question(run_id, fmt),
            user=user,
            language=language or _language_of(session, run_id),
            run_id=export_id,
        )
    except BaseException:
        store.release(export_id)
        raise
    if answer.status != "answered":
        store.release(export_id)
        raised = capture.pipeline.raised if capture.pipeline is not None else None
        if raised is not None:
            raise raised
        message = answer.error.message if answer.error is not None else answer.answer
        raise ToolFailure(message, message, code=answer.error.code if answer.error is not None else None)
    state = session.store.load(export_id)
    source = ExportSource.model_validate(state.checkpoints["source"])
    created = datetime.now(UTC)
    store.previewed(export_id, detail_rows=source.detail_rows, created_at=created, expires_at=created + EXPORT_TTL)
    record = store.get(export_id)
    assert record is not None
    return preview_of(session, record, state)


def _language_of(session: Session, run_id: str) -> Language:
    """The exported run's language (the export speaks it); English when there is no such run."""
    try:
        return session.store.load(run_id).language
    except BatonError:
        return "en"


def _repeat(
    session: Session, store: ExportStore, record: ExportRecord, run_id: str, fmt: ExportFormat
) -> ExportPreview:
    """The export a repeated request (same user, same key) names — the same one, not a second."""
    if record.source_run_id != run_id or record.format != fmt:
        raise Conflict(
            *both("exports.key_conflict", user=record.user, run_id=record.source_run_id, format=record.format),
            detail={"export_id": record.export_id},
        )
    record = _settled(store, record, ("pending",))
    state = session.store.load(record.export_id)
    _check_grants_hold(session, state, record)
    return preview_of(session, record, state)


def preview_of(session: Session, record: ExportRecord, state: RunState | None = None) -> ExportPreview:
    """The preview, rebuilt from the export run's checkpoints and evidence (no warehouse)."""
    state = state or session.store.load(record.export_id)
    source = ExportSource.model_validate(state.checkpoints["source"])
    approved = ApprovedSql.model_validate(state.checkpoints["policy"])
    rows = ExportRows.model_validate(state.checkpoints["execute"])
    evidence = state.evidence_by_id(rows.evidence_id)
    assert evidence is not None and evidence.result is not None
    result = evidence.result
    return ExportPreview(
        export_id=record.export_id,
        run_id=record.source_run_id,
        user=record.user,
        format=record.format,
        columns=result.columns,
        rows=result.rows[:PREVIEW_ROWS],
        row_count=result.row_count,
        truncated=result.truncated,
        masked=rows.masked,
        row_filters=approved.row_filters_applied,
        min_group_size=result.min_group_size,
        suppressed_groups=result.suppressed_groups,
        detail_rows=source.detail_rows,
        approval_required=source.detail_rows,
        approved=record.status == "approved",
        sql=approved.display_sql or approved.sql,
        policy_version=approved.policy_version,
        data_version=result.data_version,
        created_at=record.created_at,
        expires_at=record.expires_at or record.created_at + EXPORT_TTL,
    )


# -- approval -----------------------------------------------------------------------------------
def approve_export(
    session: Session, export_id: str, *, user: str | None = None, explicit: bool = True
) -> ExportResult | None:
    """Write the previewed export (once; a repeat returns the same file). ``explicit``: the
    user approves this very preview (required for detail rows; ``None`` is returned, nothing
    written, when an export of detail rows is approved together with its preview)."""
    asking = user or session.user
    with ExportStore(session.runs_dir) as store:
        record = _settled(store, _own(store, export_id, asking), ("pending", "writing"))
        state = session.store.load(export_id)
        if record.status == "approved":
            _check_grants_hold(session, state, record)
            return _result(session, record)
        if record.status != "previewed":
            raise Conflict(*both("exports.not_ready", export_id=export_id, status=record.status))
        trace = _Appended(session, export_id)
        try:
            _check_approvable(session, state, record, trace)
            if record.detail_rows and not explicit:
                trace.emit(
                    "policy_decision", decision="hold", gate="export_approval", reason="explicit_approval_needed"
                )
                return None
            if not store.move(export_id, "previewed", "writing"):  # another request is approving it
                return approve_export(session, export_id, user=asking, explicit=explicit)
            trace.emit("policy_decision", decision="allow", gate="export_approval", user=asking, explicit=explicit)
            try:
                result = _write(session, store, record, state, trace)
            except BaseException:
                store.move(export_id, "writing", "previewed")
                raise
        finally:
            trace.close()
    state.checkpoints["approval"] = result.model_dump(mode="json")
    state.completed_steps.append("approval")
    session.store.save(state)
    return result


def _check_approvable(session: Session, state: RunState, record: ExportRecord, trace: _Appended) -> None:
    """Not expired, the same grants as the preview, and detail rows only with export_detail —
    each refusal traced before it is raised."""
    try:
        now = datetime.now(UTC)
        if record.expires_at is None or now > record.expires_at:
            expires = record.expires_at.isoformat(timespec="seconds") if record.expires_at else "-"
            raise Conflict(
                *both("exports.expired", export_id=record.export_id, expires_at=expires), detail={"reason": "expired"}
            )
        _check_grants_hold(session, state, record)
        if record.detail_rows and not session.principal(record.user).can_export_detail:
            raise ExportNotPermitted(
                *both("exports.detail_not_permitted", user=record.user),
                detail={"user": record.user, "export_id": record.export_id},
            )
    except BatonError as exc:
        trace.emit("policy_decision", decision="deny", gate="export_approval", error=exc.to_dict("en"))
        raise


def _check_grants_hold(session: Session, state: RunState, record: ExportRecord) -> None:
    """The user's grants are the ones the preview read its rows under (else nothing is shown)."""
    try:
        now: str | None = session.principal(record.user).grants_fingerprint()
    except PermissionDenied:  # no longer in the policy
        now = None
    if now is None or now != state.grants_fingerprint:
        raise PermissionDenied(
            *both("exports.grants_changed", user=record.user, export_id=record.export_id),
            detail={"export_id": record.export_id, "reason": "grants_changed"},
        )


def _write(
    session: Session, store: ExportStore, record: ExportRecord, state: RunState, trace: _Appended
) -> ExportResult:
    rows = ExportRows.model_validate(state.checkpoints["execute"])
    evidence = state.evidence_by_id(rows.evidence_id)
    assert evidence is not None and evidence.result is not None
    result = evidence.result
    filename = f"{record.source_run_id}.{record.format}"
    started = time.perf_counter()
    args = {"export_id": record.export_id, "format": record.format, "file": filename}
    try:
        data = render(record.format, result.columns, result.rows)
        path = atomic_write_bytes(session.runs_dir / record.export_id / filename, data)
    except BatonError as exc:
        trace.emit("tool_call", tool="export.write", args_hash=args_hash(args), ok=False, error_code=exc.error_code)
        raise
    digest = hashlib.sha256(data).hexdigest()
    approved_at = datetime.now(UTC)
    trace.emit(
        "tool_call",
        tool="export.write",
        args_hash=args_hash(args),
        latency_ms=round((time.perf_counter() - started) * 1000, 3),
        ok=True,
        error_code=None,
        sha256=digest,
        rows=result.row_count,
        bytes=len(data),
    )
    store.approved(
        record.export_id,
        filename=filename,
        sha256=digest,
        rows=result.row_count,
        size=len(data),
        approved_at=approved_at,
    )
    return ExportResult(
        export_id=record.export_id,
        run_id=record.source_run_id,
        format=record.format,
        filename=filename,
        media_type=MEDIA_TYPES[record.format],
        path=str(path),
        sha256=digest,
        rows=result.row_count,
        bytes=len(data),
        approved_at=approved_at,
    )


# -- reading an export back ---------------------------------------------------------------------
def export_preview(session: Session, export_id: str, *, user: str | None = None) -> ExportPreview:
    """An export's preview, for its owner while their grants hold."""
    with ExportStore(session.runs_dir) as store:
        record = _settled(store, _own(store, export_id, user or session.user), ("pending",))
    state = session.store.load(export_id)
    _check_grants_hold(session, state, record)
    return preview_of(session, record, state)


def export_result(session: Session, export_id: str, *, user: str | None = None) -> ExportResult | None:
    """An export's result once approved (``None`` before), for its owner while their grants hold."""
    with ExportStore(session.runs_dir) as store:
        record = _own(store, export_id, user or session.user)
    if record.status != "approved":
        return None
    _check_grants_hold(session, session.store.load(export_id), record)
    return _result(session, record)


def export_file(session: Session, export_id: str, *, user: str | None = None) -> tuple[ExportResult, bytes]:
    """The approved export's bytes, checked against its sha256 (owner only, grants unchanged)."""
    result = export_result(session, export_id, user=user)
    if result is None:
        raise Conflict(*both("exports.not_approved", export_id=export_id), detail={"reason": "not_approved"})
    assert result.path is not None
    try:
        data = Path(result.path).read_bytes()
    except OSError:
        data = b""
    if hashlib.sha256(data).hexdigest() != result.sha256:
        raise ToolFailure(*both("exports.file_changed", export_id=export_id))
    return result, data


def request_export(
    session: Session,
    run_id: str | None,
    fmt: str | None,
    *,
    user: str | None = None,
    approve: bool = False,
    export_id: str | None = None,
    idempotency_key: str | None = None,
    language: Language | None = None,
) -> ExportOutcome:
    """One request of the REST API (and the CLI): a new or repeated preview — approved in the
    same request when ``approve`` and the rows are aggregates — or, naming ``export_id``, the
    explicit approval of an earlier preview."""
    asking = user or session.user
    if export_id is not None:
        preview = export_preview(session, export_id, user=asking)
        if (run_id is not None and run_id != preview.run_id) or (fmt is not None and fmt != preview.format):
            raise Conflict(*both("exports.mismatch", export_id=export_id, run_id=preview.run_id, format=preview.format))
        result = (
            approve_export(session, export_id, user=asking)
            if approve
            else export_result(session, export_id, user=asking)
        )
    else:
        if run_id is None:
            raise InvalidInput(*both("exports.nothing_to_export", run_id="-"), detail={"reason": "nothing_to_export"})
        preview = preview_export(
            session, run_id, fmt or "", user=asking, idempotency_key=idempotency_key, language=language
        )
        if approve:
            result = approve_export(session, preview.export_id, user=asking, explicit=False)
        else:
            result = export_result(session, preview.export_id, user=asking)
    if result is not None:
        preview = preview.model_copy(update={"approved": True})
    return ExportOutcome(preview=preview, export=result)


# -- helpers --------------------------------------------------------------------------------------
def _own(store: ExportStore, export_id: str, user: str) -> ExportRecord:
    """The user's own export; anyone else's does not exist for them. A record whose process
    died mid-preview or mid-write is recovered first (:data:`STALE`)."""
    record = store.recover_stale(export_id, datetime.now(UTC) - STALE)
    if record is None or record.user != user:
        raise NotFound(*both("exports.no_export", export_id=export_id), detail={"export_id": export_id})
    return record


def _settled(store: ExportStore, record: ExportRecord, busy: tuple[Status, ...]) -> ExportRecord:
    """``record`` once another request's work on it (a status in ``busy``) is done."""
    deadline = time.monotonic() + WAIT_S
    while record.status in busy:
        if time.monotonic() > deadline:
            raise Conflict(*both("exports.in_progress", export_id=record.export_id), detail={"reason": "in_progress"})
        again = store.recover_stale(record.export_id, datetime.now(UTC) - STALE)
        if again is None:  # the other request's preview was refused (or died): its key is free again
            raise Conflict(*both("exports.in_progress", export_id=record.export_id), detail={"reason": "in_progress"})
        if again.status in busy:
            time.sleep(0.05)
        record = again
    return record


def _result(session: Session, record: ExportRecord) -> ExportResult:
    assert record.filename and record.sha256 and record.approved_at is not None
    return ExportResult(
        export_id=record.export_id,
        run_id=record.source_run_id,
        format=record.format,
        filename=record.filename,
        media_type=MEDIA_TYPES[record.format],
        path=str(session.runs_dir / record.export_id / record.filename),
        sha256=record.sha256,
        rows=record.rows or 0,
        bytes=record.bytes or 0,
        approved_at=record.approved_at,
    )


class _Appended:
    """Events appended to a finished export run's trace (its approval), indexed like its own."""

    def __init__(self, session: Session, run_id: str) -> None:
        self._writer = TraceWriter(run_id, session.runs_dir)
        self._store = session.store

    def emit(self, type_: EventType, **payload: Any) -> None:
        self._store.index_event(self._writer.emit(type_, **payload))

    def close(self) -> None:
        self._writer.close()
