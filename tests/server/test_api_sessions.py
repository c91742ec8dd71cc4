"""The web page's sign-in sessions: read back after a page reload (``GET /api/session``), expired ones
purged and at most :data:`SESSIONS_PER_TOKEN` kept per token (the oldest ends first)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from baton.server.auth import COOKIE, SESSIONS_PER_TOKEN, SignInSessions
from baton.server.tokens import TokenInfo
from tests.server.conftest import BatonServer


def test_a_reloaded_page_reads_its_session_back(baton_server: BatonServer) -> None:
    with baton_server.client() as browser:
        signed = browser.post("/api/session", json={"token": baton_server.tokens["east_manager"]}).json()
        again = browser.get("/api/session")
        assert again.status_code == 200, again.text
        assert again.json() == {"user": "east_manager", "csrf_token": signed["csrf_token"]}
        assert browser.delete("/api/session", headers={"X-CSRF-Token": signed["csrf_token"]}).status_code == 204
        assert browser.get("/api/session").status_code == 401
    with baton_server.client("analyst") as bearer:  # a bearer token has no session to read
        refused = bearer.get("/api/session")
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"


def test_sign_ins_per_token_are_capped_oldest_first(baton_server: BatonServer) -> None:
    cookies = []
    for _ in range(SESSIONS_PER_TOKEN + 1):
        with baton_server.client() as browser:
            assert browser.post("/api/session", json={"token": baton_server.tokens["analyst"]}).status_code == 200
            cookies.append(browser.cookies[COOKIE])
    with baton_server.client(None, cookies={COOKIE: cookies[0]}) as oldest:
        assert oldest.get("/api/me").status_code == 401
    with baton_server.client(None, cookies={COOKIE: cookies[-1]}) as newest:
        assert newest.get("/api/me").json()["user"] == "analyst"
    with baton_server.client(None, cookies={COOKIE: cookies[1]}) as kept:
        assert kept.get("/api/me").status_code == 200


def _token(token_id: str, expires_at: datetime | None = None) -> TokenInfo:
    now = datetime.now(UTC)
    return TokenInfo(
        token_id=token_id, user="analyst", created_at=now, expires_at=expires_at, last_used_at=None, revoked_at=None
    )


def test_expired_sessions_are_purged_on_every_sign_in() -> None:
    now = [datetime.now(UTC)]
    sessions = SignInSessions(clock=lambda: now[0])  # time moves only when the test moves it
    ending = _token("tok_ending", now[0] + timedelta(minutes=1))
    for _ in range(5):
        sessions.open(ending)
    assert len(sessions) == 5
    now[0] += timedelta(minutes=2)  # the token, and so its sessions, have expired
    sessions.open(_token("tok_other"))
    assert len(sessions) == 1
    for _ in range(SESSIONS_PER_TOKEN * 2):
        sessions.open(_token("tok_busy"))
    assert len(sessions) == 1 + SESSIONS_PER_TOKEN
