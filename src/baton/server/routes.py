"""Questions: ``POST /api/ask``, ``/api/analyze`` (natural language) and ``/api/query`` (catalog names).

Each runs on a worker thread's own Session through the one driver, as the signed-in user.
``wait`` (default) answers 200 with the Answer; ``wait: false`` answers 202 with the run id
at once and the run goes on (its progress at ``/api/runs/<id>/events``). A refused or
asked-back question is still an Answer (its status says so): only sign-in, input and
transport problems are HTTP errors. With ``conversation_id`` the question is the next turn
of that conversation (``"new"`` starts one), read against its last answered turn.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future
from datetime import date
from functools import partial
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from baton.contracts.answer import Answer
from baton.contracts.common import Language
from baton.server.auth import CurrentUser
from baton.server.errors import ERROR_RESPONSES, request_language
from baton.server.questions import Kind, answer_question, leaving, open_conversation
from baton.server.workers import Runtime, runtime

if TYPE_CHECKING:
    from baton.orchestrator.session import Session

log = logging.getLogger("baton.server")
router = APIRouter(tags=["questions"])


def _printable(value: str) -> str:
    """No NUL and no lone surrogate (neither can be stored or traced as UTF-8)."""
    if "\x00" in value or any("\ud800" <= ch <= "\udfff" for ch in value):
        raise ValueError("text must be UTF-8 without NUL characters")
    return value


Text = Annotated[str, Field(pattern=r"^[^\x00]*$"), AfterValidator(_printable)]
"""Text a client sends: the schema says no NUL; a lone surrogate (not UTF-8) is refused too."""


class QuestionRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: Text = Field(min_length=1, max_length=10_000, description="in Chinese or English")
    as_of: date | None = Field(default=None, description="the date relative periods are read against")
    conversation_id: Text | None = Field(
        default=None, max_length=100, description='ask as the next turn of this conversation; "new" starts one'
    )
    wait: bool = Field(default=True, description="false: answer 202 with the run id at once")


class QueryRequest(BaseModel):
    """A semantic-layer query by catalog names (MetricFlow's ``mf query``)."""

    model_config = ConfigDict(extra="forbid")
    metrics: list[Annotated[Text, Field(min_length=1, max_length=200)]] = Field(min_length=1, max_length=20)
    group_by: list[Annotated[Text, Field(min_length=1, max_length=200)]] = Field(default_factory=list, max_length=20)
    where: list[Annotated[Text, Field(min_length=1, max_length=1000)]] = Field(default_factory=list, max_length=20)
    order_by: list[Annotated[Text, Field(min_length=1, max_length=200)]] = Field(default_factory=list, max_length=20)
    limit: int | None = Field(default=None, ge=1, le=1_000_000)
    start_time: date | None = None
    end_time: date | None = None
    as_of: date | None = None
    language: Language | None = Field(default=None, description="default: the request's Accept-Language")


class Accepted(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    events: str = Field(description="the run's server-sent progress events")


ANSWERED: dict[int | str, dict[str, Any]] = {
    200: {"model": Answer, "description": "The Answer (refused and asked-back questions too: see its status)"},
    202: {"model": Accepted, "description": "wait=false: the run goes on; follow its events"},
    503: {"description": "Every worker is busy and the queue is full"},
    **ERROR_RESPONSES,
}


@router.post("/api/ask", response_model=None, responses=ANSWERED)
async def ask(body: QuestionRequest, user: CurrentUser, request: Request) -> JSONResponse:
    """Answer a metric question with governed SQL, its definitions (口径) and data freshness."""
    return await _question(runtime(request), user.user, body, "ask")


@router.post("/api/analyze", response_model=None, responses=ANSWERED)
async def analyze(body: QuestionRequest, user: CurrentUser, request: Request) -> JSONResponse:
    """Explain why a metric moved: data checks, tests, drivers with intervals, excluded paths."""
    return await _question(runtime(request), user.user, body, "analyze")


@router.post("/api/query", response_model=None, responses={k: v for k, v in ANSWERED.items() if k != 202})
async def query(body: QueryRequest, user: CurrentUser, request: Request) -> JSONResponse:
    """A semantic-layer query by catalog names, governed like a question (same as ``baton.query``)."""
    language = body.language or request_language(request)
    job = partial(_query, body, user.user, language)
    answer = await runtime(request).run(job)
    return JSONResponse(answer.model_dump(mode="json"))


async def _question(rt: Runtime, user: str, body: QuestionRequest, kind: Kind) -> JSONResponse:
    from baton.orchestrator.run import new_run_id

    # before a run id is handed out: an unknown or foreign conversation is 404, never a failed run
    conversation = await asyncio.to_thread(open_conversation, rt.reader, body.conversation_id, user)
    run_id = new_run_id()
    job = partial(_asked, kind, body.question, body.as_of, user, conversation, run_id)
    if body.wait:
        answer = await rt.run(job)
        return JSONResponse(answer.model_dump(mode="json"))
    future = rt.submit(job)
    rt.bus.open(run_id, user, kind=kind, question=body.question)
    future.add_done_callback(partial(_ended, rt, run_id, user))
    accepted = Accepted(run_id=run_id, events=f"/api/runs/{run_id}/events")
    return JSONResponse(accepted.model_dump(), status_code=202)


def _asked(
    kind: Kind, question: str, as_of: date | None, user: str, conversation: str | None, run_id: str, session: Session
) -> Answer:
    return answer_question(session, kind, question, user=user, as_of=as_of, conversation=conversation, run_id=run_id)


def _query(body: QueryRequest, user: str, language: Language, session: Session) -> Answer:
    answer = session.query(
        body.metrics,
        group_by=body.group_by,
        where=body.where,
        start_time=body.start_time,
        end_time=body.end_time,
        order=body.order_by,
        limit=body.limit,
        user=user,
        as_of=body.as_of,
        language=language,
    )
    return leaving(answer, session, user)


def _ended(rt: Runtime, run_id: str, user: str, future: Future[Answer]) -> None:
    """A run answered with 202 ended: its subscribers get ``done`` even when it failed before
    the driver could record it."""
    error = future.exception() if not future.cancelled() else None
    if error is not None:
        log.warning("run %s failed outside the driver: %r", run_id, error)
    if future.cancelled() or error is not None:
        rt.bus.finish(run_id, user, "cancelled" if future.cancelled() else "failed")
    else:
        from baton.orchestrator.driver import terminal_of

        rt.bus.finish(run_id, user, terminal_of(future.result().status))
