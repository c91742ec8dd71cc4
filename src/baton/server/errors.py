"""One JSON error shape for every error the API returns, whatever raised it.

``{"error": {"code", "message", "status"}}``: the code is a :mod:`baton.errors` code, the
message is in the request's language (``Accept-Language``: zh* → Chinese, else English) and
the status is the HTTP status, chosen from the code (:data:`STATUS_BY_CODE`) or, for a code
not listed, from the error's kind. No traceback ever reaches a client: an exception that is
not a :class:`BatonError` is logged and answered 500 ``tool_failure``.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from baton.contracts.common import Language
from baton.errors import BatonError
from baton.messages import text

if TYPE_CHECKING:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

log = logging.getLogger("baton.server")

STATUS_BY_CODE: dict[str, int] = {
    "unauthorized": 401,
    "permission_denied": 403,
    "export_not_permitted": 403,
    "not_found": 404,
    "conflict": 409,
    "invalid_input": 422,
    "server_busy": 503,
    "warehouse_unavailable": 503,
    "timeout": 504,
}
"""HTTP status of an error code; codes not listed follow :data:`STATUS_BY_KIND`."""

STATUS_BY_KIND: dict[str, int] = {"user": 422, "policy": 403, "internal": 500}


class ErrorBody(BaseModel):
    """What went wrong, as a client reads it."""

    model_config = ConfigDict(extra="forbid")
    code: str
    message: str
    status: int


class ErrorResponse(BaseModel):
    """The one error shape of every API response that is not a success."""

    model_config = ConfigDict(extra="forbid")
    error: ErrorBody


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorResponse, "description": what}
    for status, what in (
        (401, "No valid API token or session"),
        (403, "Forbidden (grants, or a cookie request without its CSRF token)"),
        (404, "No such resource for this user"),
        (422, "Invalid input"),
    )
}
"""The error responses every authenticated operation documents in the OpenAPI schema."""


def request_language(request: Request) -> Language:
    """``zh`` when the client's most preferred ``Accept-Language`` is Chinese, else ``en``."""
    best, best_q = "", -1.0
    for part in request.headers.get("accept-language", "").split(","):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if tag and q > best_q:
            best, best_q = tag.lower(), q
    return "zh" if best.startswith("zh") else "en"


def status_of(exc: BatonError) -> int:
    return STATUS_BY_CODE.get(exc.error_code, STATUS_BY_KIND.get(exc.kind, 500))


def error_response(code: str, message: str, status: int, headers: dict[str, str] | None = None) -> JSONResponse:
    from fastapi.responses import JSONResponse

    body = ErrorResponse(error=ErrorBody(code=code, message=message, status=status))
    return JSONResponse(body.model_dump(), status_code=status, headers=headers)


def baton_error_response(exc: BatonError, language: Language) -> JSONResponse:
    status = status_of(exc)
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return error_response(exc.error_code, exc.message(language), status, headers)


def install_error_handlers(app: FastAPI) -> None:
    """Every error — ours, FastAPI's validation errors, Starlette's HTTP errors, anything
    unexpected — leaves in the one shape."""
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException

    async def on_baton_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, BatonError)
        if exc.kind == "internal":
            log.warning("%s %s: %s", request.method, request.url.path, exc.to_trace_dict("en"))
        return baton_error_response(exc, request_language(request))

    async def on_validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        language = request_language(request)
        errors = "; ".join(_validation_line(e) for e in exc.errors()[:5])
        return error_response("invalid_input", text("server.bad_request", language, errors=errors), 422)

    async def on_http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)
        language = request_language(request)
        where = {"method": request.method, "path": request.url.path}
        if exc.status_code == 404:
            return error_response("not_found", text("server.no_path", language, **where), 404)
        if exc.status_code == 405:
            return error_response("invalid_input", text("server.no_method", language, **where), 405)
        code = {401: "unauthorized", 403: "permission_denied"}.get(exc.status_code, "invalid_input")
        message = text("server.http_error", language, status=exc.status_code, detail=exc.detail)
        return error_response(code, message, exc.status_code, dict(exc.headers or {}))

    async def on_anything(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path, exc_info=exc)
        message = text("server.internal", request_language(request), error=type(exc).__name__)
        return error_response("tool_failure", message, 500)

    app.add_exception_handler(BatonError, on_baton_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
    app.add_exception_handler(Exception, on_anything)


def _validation_line(error: Any) -> str:
    where = ".".join(str(part) for part in error.get("loc", ()))
    return f"{where}: {error.get('msg', '')}"
