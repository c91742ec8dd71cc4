"""Governed exports over HTTP: ``POST /api/exports`` (preview, approval), ``GET
/api/exports/{id}`` and ``GET /api/exports/{id}/file`` — the library's flow
(:mod:`baton.exports.service`), run on a worker's Session as the signed-in user.

* ``{"run_id", "format"}`` previews a new export (200 with the preview, ``export`` null);
  ``"approve": true`` also approves it when its rows are aggregates. Detail rows are approved
  only by a second request naming the preview: ``{"export_id", "approve": true}``.
* ``Idempotency-Key`` (per user): a repeated request returns the same export (same
  ``export_id``, same file) rather than a second one; the key used for another run or format
  is 409.
* Another user's run or export is 404, exactly like one that does not exist. The file is
  served to its owner only, while their grants are the ones it was read under (else 403).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Header, Path, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.common import Language
from baton.contracts.export import ExportFormat, ExportOutcome, ExportPreview
from baton.errors import InvalidInput, NotFound, PermissionDenied
from baton.messages import both
from baton.server.auth import CurrentUser
from baton.server.errors import ERROR_RESPONSES, request_language
from baton.server.workers import runtime

if TYPE_CHECKING:
    from baton.orchestrator.session import Session

router = APIRouter(tags=["exports"])
Id = Annotated[str, Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.-]+$")]
ExportId = Annotated[str, Path(min_length=1, max_length=200, description="an export id (its run: run_…)")]


class NewExport(BaseModel):
    """A new (or, with the same Idempotency-Key, repeated) export of a run."""

    model_config = ConfigDict(extra="forbid")
    run_id: Id = Field(description="the run whose result to export")
    format: ExportFormat = Field(description="csv | xlsx | parquet")
    approve: bool = Field(default=False, description="write the file now (aggregates only; detail rows: see export_id)")


class ApproveExport(BaseModel):
    """An earlier preview, named by its id: approved (``approve``) or shown again."""

    model_config = ConfigDict(extra="forbid")
    export_id: Id = Field(description="the previewed export")
    approve: bool = Field(default=False, description="write the file (the explicit approval detail rows need)")
    run_id: Id | None = Field(default=None, description="when given, must be the export's run")
    format: ExportFormat | None = Field(default=None, description="when given, must be the export's format")


ExportRequest = NewExport | ApproveExport


class ExportLink(BaseModel):
    """An approved export and where to download it."""

    model_config = ConfigDict(extra="forbid")
    export_id: str
    run_id: str
    format: ExportFormat
    filename: str
    media_type: str
    sha256: str
    rows: int
    bytes: int
    approved_at: datetime
    download: str = Field(description="GET this for the file's bytes")


class ExportResponse(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preview: ExportPreview
    export: ExportLink | None = Field(description="null until the export is approved")


RESPONSES: dict[int | str, dict[str, Any]] = {
    409: {"description": "The idempotency key names another export, or the preview expired"},
    **ERROR_RESPONSES,
}


@router.post("/api/exports", responses=RESPONSES)
async def create_export(
    body: ExportRequest,
    user: CurrentUser,
    request: Request,
    idempotency_key: Annotated[
        str | None,
        Header(alias="Idempotency-Key", min_length=1, max_length=200, pattern=r"^[\x21-\x7e]+$"),
    ] = None,
) -> ExportResponse:
    """Preview an export of a run (under today's policy), approve it, or repeat a request."""
    job = partial(_request, body, user.user, idempotency_key, request_language(request))
    return _response(await runtime(request).run(job))


@router.get("/api/exports/{export_id}", responses=ERROR_RESPONSES)
async def get_export(export_id: ExportId, user: CurrentUser, request: Request) -> ExportResponse:
    """An export's preview, and its result once approved (its owner only)."""
    from baton.exports import export_preview, export_result

    def job(session: Session) -> ExportOutcome:
        preview = export_preview(session, export_id, user=user.user)
        return ExportOutcome(preview=preview, export=export_result(session, export_id, user=user.user))

    return _response(await runtime(request).run(job))


@router.get(
    "/api/exports/{export_id}/file",
    response_class=Response,
    responses={200: {"content": {"application/octet-stream": {}}, "description": "The file"}, **RESPONSES},
)
async def export_file(export_id: ExportId, user: CurrentUser, request: Request) -> Response:
    """The approved export's bytes (its owner only; checked against its sha256)."""
    from baton.exports import export_file as read

    result, data = await runtime(request).run(lambda session: read(session, export_id, user=user.user))
    headers = {
        "Content-Disposition": f'attachment; filename="{result.filename}"',
        "X-Content-Type-Options": "nosniff",
        "Cache-Control": "no-store",
        "ETag": f'"{result.sha256}"',
    }
    return Response(data, media_type=result.media_type, headers=headers)


def _request(body: ExportRequest, user: str, key: str | None, language: Language, session: Session) -> ExportOutcome:
    from baton.exports import request_export

    if isinstance(body, NewExport):
        _visible(session, body.run_id, user)
        return request_export(
            session, body.run_id, body.format, user=user, approve=body.approve, idempotency_key=key, language=language
        )
    return request_export(session, body.run_id, body.format, user=user, approve=body.approve, export_id=body.export_id)


def _visible(session: Session, run_id: str, user: str) -> None:
    """The run exists for ``user`` (theirs, or any for ``runs: all``); else 404, like a missing run."""
    try:
        session.run_state(run_id, user=user, data=False)
    except (InvalidInput, NotFound, PermissionDenied):
        raise NotFound(*both("server.no_run", run_id=run_id), detail={"run_id": run_id}) from None


def _response(outcome: ExportOutcome) -> ExportResponse:
    result = outcome.export
    link = None
    if result is not None:
        fields = result.model_dump(exclude={"path"})
        link = ExportLink(**fields, download=f"/api/exports/{result.export_id}/file")
    return ExportResponse(preview=outcome.preview, export=link)
