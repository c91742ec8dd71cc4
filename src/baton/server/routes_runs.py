"""Runs and conversations: lists, one run with its answer, its report, its progress events.

Runs belong to the user they ran as (the library's rules, :mod:`baton.orchestrator.access`):
a user sees their own, a ``runs: all`` user everyone's. Another user's run is answered 404,
exactly like a run that does not exist, so its id reveals nothing. A run whose owner's grants
changed since it read its data is 403 (re-run it), as in ``baton runs show``.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.answer import Answer
from baton.contracts.run import RunStatus
from baton.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from baton.messages import both
from baton.server.auth import CurrentUser, ServerUser
from baton.server.errors import ERROR_RESPONSES
from baton.server.events import Channel, Item, follow_stored, sse_lines
from baton.server.workers import Runtime, runtime

if TYPE_CHECKING:
    from baton.contracts.run import RunState

router = APIRouter(tags=["runs"])
RunId = Annotated[str, Path(min_length=1, max_length=200, description="a run id (run_…)")]


class RunOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str
    kind: str | None = Field(description="ask | analyze | query | sql | export")
    status: RunStatus
    question: str
    user: str
    started_at: datetime
    finished_at: datetime | None


class RunList(BaseModel):
    model_config = ConfigDict(extra="forbid")
    runs: list[RunOut]


class RunDetail(RunOut):
    answer: Answer | None = Field(description="the run's answer (null while it runs)")


class ConversationOut(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conversation_id: str
    user: str = Field(description="whose conversation it is")
    started_at: datetime
    turns: list[str] = Field(description="its runs, in order")


class ConversationList(BaseModel):
    model_config = ConfigDict(extra="forbid")
    conversations: list[ConversationOut]


@router.get("/api/runs", responses=ERROR_RESPONSES)
def list_runs(
    user: CurrentUser,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    status: Annotated[RunStatus | None, Query()] = None,
) -> RunList:
    """The runs the user may see, newest first: their own (a ``runs: all`` user: everyone's)."""
    reader = runtime(request).reader
    found = reader.runs(user=user.user, status=status, limit=limit)
    kinds = reader.store.kinds([r.run_id for r in found])
    return RunList(
        runs=[
            RunOut(
                run_id=r.run_id,
                kind=kinds.get(r.run_id),
                status=r.status,
                question=r.question,
                user=r.user,
                started_at=r.started_at,
                finished_at=r.finished_at,
            )
            for r in found
        ]
    )


@router.get("/api/runs/{run_id}", responses=ERROR_RESPONSES)
def get_run(run_id: RunId, user: CurrentUser, request: Request) -> RunDetail:
    """One run and its answer (null while it is still running)."""
    from baton.report.deliver import check_run_export

    rt = runtime(request)
    state = visible_state(rt, run_id, user)
    if state is None:  # handed out by wait=false and not stored (yet, or ever: it failed first)
        channel = _own_channel(rt, run_id, user)
        return RunDetail(
            run_id=run_id,
            kind=channel.kind,
            status=cast(RunStatus, channel.status),
            question=channel.question or "",
            user=channel.owner,
            started_at=channel.opened_at,
            finished_at=channel.finished_at,
            answer=None,
        )
    check_run_export(state, rt.reader.engine.dialect, rt.reader.principal(user.user))
    return RunDetail(
        run_id=state.run_id,
        kind=state.kind,
        status=state.status,
        question=state.question,
        user=state.user,
        started_at=state.started_at,
        finished_at=state.finished_at,
        answer=state.answer,
    )


@router.get(
    "/api/runs/{run_id}/report",
    response_class=Response,
    responses={
        200: {"content": {"text/html": {}, "text/markdown": {}}, "description": "The report"},
        409: {"description": "The run has no answer yet"},
        **ERROR_RESPONSES,
    },
)
def run_report(
    run_id: RunId,
    user: CurrentUser,
    request: Request,
    fmt: Annotated[Literal["html", "md"], Query(alias="format")] = "html",
) -> Response:
    """The run's report: a self-contained HTML page, or Markdown (the chart is in the HTML only)."""
    from baton.report.deliver import check_export

    rt = runtime(request)
    state = visible_state(rt, run_id, user)
    if state is None or state.answer is None:
        status = _own_channel(rt, run_id, user).status if state is None else state.status
        raise Conflict(*both("server.no_answer_yet", run_id=run_id, status=status), detail={"run_id": run_id})
    check_export(state.answer, fmt, rt.reader.principal(user.user))
    headers = {"X-Content-Type-Options": "nosniff"}
    if fmt == "md":
        from baton.report.markdown import render_markdown

        page = render_markdown(state.answer, catalog=rt.reader.catalog)
        return Response(page, media_type="text/markdown; charset=utf-8", headers=headers)
    from baton.report.html import render_html

    page = render_html(state.answer, catalog=rt.reader.catalog)
    return Response(page, media_type="text/html; charset=utf-8", headers=headers)


@router.get(
    "/api/runs/{run_id}/events",
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "transition events, then done"},
        **ERROR_RESPONSES,
    },
)
async def run_events(run_id: RunId, user: CurrentUser, request: Request) -> StreamingResponse:
    """The run's progress as server-sent events: ``transition`` for each state it enters and
    each agent handoff (earlier ones first), then ``done``; the stream then closes."""
    rt = runtime(request)
    channel = rt.bus.channel(run_id)
    source: AsyncIterator[Item | None]
    if channel is not None:
        if channel.owner != user.user and not user.admin:
            raise _not_found(run_id)
        source = rt.bus.follow(channel)
    else:
        state = await asyncio.to_thread(visible_state, rt, run_id, user, data=False)
        if state is None:
            raise _not_found(run_id)
        trace = await asyncio.to_thread(_trace_of, rt, state)
        source = follow_stored(rt.reader.store, state, trace)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(_sse(source), media_type="text/event-stream", headers=headers)


@router.get("/api/conversations", responses=ERROR_RESPONSES)
def conversations(
    user: CurrentUser, request: Request, limit: Annotated[int, Query(ge=1, le=500)] = 50
) -> ConversationList:
    """The user's own conversations (a ``runs: all`` user: everyone's), newest first, each with
    its runs in order."""
    from baton.orchestrator.access import visible_conversations

    found = visible_conversations(runtime(request).reader, user.user, limit=limit)
    return ConversationList(
        conversations=[
            ConversationOut(
                conversation_id=c.conversation_id, user=c.user, started_at=c.started_at, turns=list(c.turns)
            )
            for c in found
        ]
    )


def visible_state(rt: Runtime, run_id: str, user: ServerUser, *, data: bool = True) -> RunState | None:
    """The stored run as ``user`` may see it; ``None`` for a run handed out but not stored yet
    (the user's own); 404 for an unknown run or another user's; 403 when the owner's grants changed."""
    try:
        return rt.reader.run_state(run_id, user=user.user, data=data)
    except (InvalidInput, NotFound):
        if rt.bus.channel(run_id) is not None:
            _own_channel(rt, run_id, user)
            return None
        raise _not_found(run_id) from None
    except PermissionDenied as exc:
        if exc.detail.get("reason") == "grants_changed":
            raise
        raise _not_found(run_id) from None


def _own_channel(rt: Runtime, run_id: str, user: ServerUser) -> Channel:
    channel = rt.bus.channel(run_id)
    if channel is None or (channel.owner != user.user and not user.admin):
        raise _not_found(run_id)
    return channel


def _not_found(run_id: str) -> NotFound:
    return NotFound(*both("server.no_run", run_id=run_id), detail={"run_id": run_id})


def _trace_of(rt: Runtime, state: RunState) -> list[Any]:
    from baton.trace.writer import read_trace

    path = rt.settings.runs_dir / state.run_id / "trace.jsonl"
    return read_trace(path) if path.is_file() else []


async def _sse(source: AsyncIterator[Item | None]) -> AsyncIterator[str]:
    async for item in source:
        yield sse_lines(item)
