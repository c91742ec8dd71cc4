"""Health, who am I, sign-in sessions for the web page, and the catalog (metrics with 口径)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from baton.errors import PermissionDenied, Unauthorized
from baton.messages import both
from baton.orchestrator.catalog_view import CatalogView
from baton.server.auth import COOKIE, CurrentUser
from baton.server.errors import ERROR_RESPONSES, request_language
from baton.server.workers import runtime

router = APIRouter(tags=["meta"])


class Health(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["ok"]
    version: str


class Me(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user: str
    roles: list[str]
    admin: bool = Field(description="sees every user's runs (a role with runs: all)")


class SignInRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=200, description="an API token from `baton token create`")


class SignedInOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user: str
    csrf_token: str = Field(description="send it as X-CSRF-Token on every POST/DELETE made with the cookie")


@router.get("/api/health")
def health() -> Health:
    """Liveness (no sign-in needed)."""
    from baton.config import baton_version

    return Health(status="ok", version=baton_version())


@router.get("/api/me", responses=ERROR_RESPONSES)
def me(user: CurrentUser) -> Me:
    """The signed-in user, their roles, and whether they see every run."""
    return Me(user=user.user, roles=list(user.roles), admin=user.admin)


@router.post("/api/session", responses=ERROR_RESPONSES)
def sign_in(body: SignInRequest, request: Request, response: Response) -> SignedInOut:
    """Sign in with an API token: sets the ``baton_session`` cookie (HttpOnly, SameSite=Strict)
    and returns the CSRF token every cookie-authenticated POST/DELETE must carry."""
    rt = runtime(request)
    rt.follow_policy()
    info = rt.tokens.verify(body.token)
    if info is None:
        raise Unauthorized(*both("server.bad_token"))
    try:
        rt.reader.principal(info.user)
    except PermissionDenied as exc:  # a user no longer in the policy cannot sign in
        raise Unauthorized(*both("server.user_gone", user=info.user)) from exc
    cookie, signed = rt.sign_ins.open(info)
    max_age = max(1, int((signed.expires_at - datetime.now(UTC)).total_seconds()))
    secure = request.url.scheme == "https"  # behind a TLS proxy that says so (X-Forwarded-Proto)
    response.set_cookie(COOKIE, cookie, max_age=max_age, path="/", httponly=True, samesite="strict", secure=secure)
    return SignedInOut(user=signed.user, csrf_token=signed.csrf)


@router.get("/api/session", responses=ERROR_RESPONSES)
def session(user: CurrentUser, request: Request) -> SignedInOut:
    """The web page's session as its cookie says (after a page reload: no need to sign in again):
    its user and CSRF token; 401 without a live session cookie."""
    cookie = request.cookies.get(COOKIE)
    signed = runtime(request).sign_ins.get(cookie) if cookie and user.via == "cookie" else None
    if signed is None:
        raise Unauthorized(*both("server.no_session"))
    return SignedInOut(user=signed.user, csrf_token=signed.csrf)


@router.delete("/api/session", status_code=204, responses=ERROR_RESPONSES)
def sign_out(user: CurrentUser, request: Request) -> Response:
    """Sign out: the session ends and its cookie is cleared (a bearer request has nothing to end)."""
    cookie = request.cookies.get(COOKIE)
    if cookie and user.via == "cookie":
        runtime(request).sign_ins.close(cookie)
    response = Response(status_code=204)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return response


@router.get("/api/catalog", responses=ERROR_RESPONSES)
def catalog(user: CurrentUser, request: Request) -> CatalogView:
    """The metrics (with their definitions, 口径, and whether this user may query each) and the
    dimensions, labelled in the request's language."""
    from baton.orchestrator.catalog_view import catalog_view

    reader = runtime(request).reader
    return catalog_view(reader.catalog, reader.principal(user.user), request_language(request))
