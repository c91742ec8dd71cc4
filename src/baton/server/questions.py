"""One question as the server's faces ask it (REST ``/api/ask``/``/api/analyze`` and MCP's ``ask``/
``analyze``): which conversation it is a turn of, ask or analyze, and the export check an answer
passes before it leaves Baton as JSON. Written once, so both faces behave the same.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING, Literal

from baton.errors import BatonError, InvalidInput, NotFound, PermissionDenied
from baton.messages import both

if TYPE_CHECKING:
    from baton.contracts.answer import Answer
    from baton.orchestrator.session import Session
    from baton.policy import Principal

Kind = Literal["ask", "analyze"]


def open_conversation(session: Session, conversation_id: str | None, user: str) -> str | None:
    """The conversation a question is a turn of: none (``None`` or blank), a new one (``"new"``),
    or the user's own; another user's, or one that does not exist, is ``not_found``."""
    wanted = (conversation_id or "").strip()
    if not wanted:
        return None
    if wanted == "new":
        return session.conversation(None, user=user).conversation_id
    try:
        return session.conversation(wanted, user=user).conversation_id
    except (InvalidInput, NotFound, PermissionDenied) as exc:
        raise NotFound(
            *both("server.no_conversation", conversation_id=wanted), detail={"conversation_id": wanted}
        ) from exc


def answer_question(
    session: Session,
    kind: Kind,
    question: str,
    *,
    user: str,
    as_of: date | None = None,
    conversation: str | None = None,
    run_id: str | None = None,
) -> Answer:
    """One question on ``session`` as ``user``: a turn of ``conversation`` (an id from
    :func:`open_conversation`) or a run of its own, checked for leaving (:func:`leaving`)."""
    if conversation is not None:
        chain = session.conversation(conversation, user=user)
        answer = chain.ask(question, as_of=as_of, analyze=True if kind == "analyze" else None, run_id=run_id)
    elif kind == "analyze":
        answer = session.analyze(question, as_of=as_of, user=user, run_id=run_id)
    else:
        answer = session.ask(question, as_of=as_of, user=user, run_id=run_id)
    return leaving(answer, session, user)


def leaving(answer: Answer, session: Session, user: str) -> Answer:
    """``answer`` once it may leave Baton as JSON (the check ``baton ask --json`` makes): detail
    rows only for a user with ``export_detail`` (a user no longer in the policy has none)."""
    from baton.report.deliver import check_export

    try:
        exporter: Principal | None = session.principal(user)
    except BatonError:
        exporter = None
    check_export(answer, "json", exporter)
    return answer
