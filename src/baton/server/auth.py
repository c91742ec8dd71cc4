"""Sign-in: API tokens mapped to policy users, and the web page's cookie sessions with CSRF.

A request authenticates with ``Authorization: Bearer <token>`` (:mod:`baton.server.tokens`),
or with the ``baton_session`` cookie that ``POST /api/session`` sets after checking a token
(HttpOnly, SameSite=Strict, Path=/); a request signed in by cookie that changes anything (POST,
DELETE, ...) must also carry the session's CSRF token in ``X-CSRF-Token``. Whoever signs in
acts as the token's policy user, with that user's grants as the policy file says now (an edited
file is read again); revoking the token ends its sessions, and a user removed from the policy is
signed out on their next request.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Annotated, Literal

from fastapi import Depends, Request
from fastapi.security import APIKeyCookie, HTTPAuthorizationCredentials, HTTPBearer

from baton.errors import PermissionDenied, Unauthorized
from baton.messages import both
from baton.server.tokens import TokenInfo, token_hash

COOKIE = "baton_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_HOURS = 12
SESSIONS_PER_TOKEN = 20
"""Sign-ins kept per API token: a new one beyond this ends the oldest."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


# -- cookie sessions ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SignedIn:
    """A web page's session: whose it is, its CSRF token, the API token it was opened with."""

    user: str
    csrf: str
    token_id: str
    expires_at: datetime


class SignInSessions:
    """Cookie sessions in memory (a restart signs everyone out), keyed by the SHA-256 of the cookie."""

    def __init__(self, clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._lock = threading.Lock()
        self._sessions: dict[str, SignedIn] = {}
        self._now = clock  # the time sessions expire by (a test's own clock)

    def open(self, token: TokenInfo) -> tuple[str, SignedIn]:
        """A new session for ``token``'s user: the cookie value and the session (with its CSRF token)."""
        cookie = secrets.token_urlsafe(32)
        expires = self._now() + timedelta(hours=SESSION_HOURS)
        if token.expires_at is not None:
            expires = min(expires, token.expires_at)
        signed = SignedIn(user=token.user, csrf=secrets.token_urlsafe(32), token_id=token.token_id, expires_at=expires)
        with self._lock:
            now = self._now()
            self._sessions = {k: v for k, v in self._sessions.items() if v.expires_at > now}
            same = [k for k, v in self._sessions.items() if v.token_id == token.token_id]  # oldest first
            for key in same[: max(0, len(same) - SESSIONS_PER_TOKEN + 1)]:
                del self._sessions[key]
            self._sessions[token_hash(cookie)] = signed
        return cookie, signed

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)

    def get(self, cookie: str) -> SignedIn | None:
        with self._lock:
            found = self._sessions.get(token_hash(cookie))
        if found is None or found.expires_at <= self._now():
            return None
        return found

    def close(self, cookie: str) -> None:
        with self._lock:
            self._sessions.pop(token_hash(cookie), None)


# -- the dependency ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class ServerUser:
    """Who a request acts for: a policy user, their roles, whether they see every run (``runs: all``)."""

    user: str
    admin: bool
    roles: tuple[str, ...]
    via: Literal["token", "cookie"]
    token_id: str


_bearer = HTTPBearer(auto_error=False, scheme_name="token", description="An API token from `baton token create`.")
_cookie = APIKeyCookie(name=COOKIE, auto_error=False, scheme_name="session", description="Set by POST /api/session.")


def current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
    cookie: Annotated[str | None, Depends(_cookie)],
) -> ServerUser:
    """The signed-in user of a request (FastAPI dependency): a bearer token, else the session
    cookie (with its CSRF token on anything but GET/HEAD/OPTIONS); 401 otherwise."""
    from baton.server.workers import runtime

    rt = runtime(request)
    rt.follow_policy()
    if credentials is not None:
        info = rt.tokens.verify(credentials.credentials)
        if info is None:
            raise Unauthorized(*both("server.bad_token"))
        return _as_user(request, info.user, "token", info.token_id)
    if cookie:
        signed = rt.sign_ins.get(cookie)
        if signed is None or not rt.tokens.active(signed.token_id):
            raise Unauthorized(*both("server.bad_session"))
        if request.method not in SAFE_METHODS:
            sent = request.headers.get(CSRF_HEADER, "")
            if not hmac.compare_digest(sent.encode("utf-8"), signed.csrf.encode("utf-8")):
                raise PermissionDenied(*both("server.csrf"), detail={"reason": "csrf"})
        return _as_user(request, signed.user, "cookie", signed.token_id)
    raise Unauthorized(*both("server.no_credentials"))


def _as_user(request: Request, user: str, via: Literal["token", "cookie"], token_id: str) -> ServerUser:
    from baton.server.workers import runtime

    try:
        principal = runtime(request).reader.principal(user)
    except PermissionDenied as exc:
        raise Unauthorized(*both("server.user_gone", user=user)) from exc
    return ServerUser(user=user, admin=principal.sees_all_runs, roles=principal.roles, via=via, token_id=token_id)


CurrentUser = Annotated[ServerUser, Depends(current_user)]
"""A route parameter that is the signed-in user (401 when there is none)."""
