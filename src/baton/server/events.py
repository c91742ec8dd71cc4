"""Progress of runs as server-sent events: a small in-process publish/subscribe keyed by run id.

Worker threads publish (the :class:`EventBus` is every worker Session's run observer: each
state the run enters, each agent handoff with its step, agent and packet tokens, the start
and the end); the event loop subscribes. A channel keeps its run's events, so a subscriber
that comes late is sent them all first, then the new ones as they happen, then ``done``.
A run this process did not see (finished before it started, or run by another process) is
streamed from its stored trace, and followed in the store while it is still running.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from baton.contracts.run import RunState
    from baton.contracts.trace import TraceEvent
    from baton.orchestrator.store import RunStore

log = logging.getLogger("baton.server")

TERMINAL = frozenset({"done", "asked_back", "failed", "refused", "cancelled"})
KEEP_FINISHED = 500
"""Finished runs whose events stay in memory (older ones are streamed from their stored trace)."""
KEEPALIVE_S = 15.0
POLL_S = 0.5

Item = tuple[str, dict[str, Any]]
"""(event name, data): ``transition`` or ``done``."""


def transition(
    run_id: str,
    status: str,
    step: str | None,
    *,
    kind: str,
    agent: str | None = None,
    tokens: int | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    """One ``transition`` event's data: ``kind`` is started | state | handoff | finished."""
    return {
        "run_id": run_id,
        "status": status,
        "step": step,
        "agent": agent,
        "tokens": tokens,
        "at": (at or datetime.now(UTC)).isoformat(),
        "kind": kind,
    }


@dataclass
class _Subscriber:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[Item]

    def send(self, item: Item) -> None:
        with contextlib.suppress(RuntimeError):  # the subscriber's loop has closed
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)


@dataclass
class Channel:
    """One run's events so far, its owner and who is listening."""

    run_id: str
    owner: str
    kind: str | None = None
    question: str | None = None
    opened_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    events: list[dict[str, Any]] = field(default_factory=list)
    done: dict[str, Any] | None = None
    finished_at: datetime | None = None
    step: str | None = None
    subscribers: list[_Subscriber] = field(default_factory=list)

    @property
    def status(self) -> str:
        """``running`` until the run ends, then how it ended (a run that failed before the driver
        stored it is known only here)."""
        return str(self.done["status"]) if self.done is not None else "running"


class EventBus:
    """Channels by run id; thread-safe (published from worker threads, read on the event loop)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._channels: OrderedDict[str, Channel] = OrderedDict()

    def open(self, run_id: str, owner: str, *, kind: str | None = None, question: str | None = None) -> Channel:
        """A channel for a run about to start (its id is handed out before it runs)."""
        with self._lock:
            channel = self._channel(run_id, owner)
            channel.kind, channel.question = kind, question
            return channel

    def channel(self, run_id: str) -> Channel | None:
        with self._lock:
            return self._channels.get(run_id)

    def observe(self, state: RunState, event: TraceEvent | None) -> None:
        """The workers' run observer: turns a run's moves into transitions. Never raises."""
        try:
            self._observe(state, event)
        except Exception:  # a broken progress stream must never cost the run
            log.exception("progress event of run %s dropped", state.run_id)

    def _observe(self, state: RunState, event: TraceEvent | None) -> None:
        if event is None:
            self._publish(state.run_id, state.user, transition(state.run_id, state.status, state.step, kind="state"))
        elif event.type == "run_started":
            data = transition(state.run_id, "running", state.step, kind="started", at=event.ts)
            self._publish(state.run_id, state.user, data)
        elif event.type == "handoff":
            tokens = event.payload.get("tokens")
            data = transition(
                state.run_id,
                state.status,
                state.step,
                kind="handoff",
                agent=str(event.payload.get("agent")),
                tokens=tokens if isinstance(tokens, int) else None,
                at=event.ts,
            )
            self._publish(state.run_id, state.user, data)
        elif event.type == "run_finished":
            status = str(event.payload.get("status", state.status))
            data = transition(state.run_id, status, status, kind="finished", tokens=state.usage.tokens, at=event.ts)
            self._publish(state.run_id, state.user, data)
            self.finish(state.run_id, state.user, status)

    def finish(self, run_id: str, owner: str, status: str) -> None:
        """The run ended: ``done`` to every subscriber (once), and the channel is kept for late ones."""
        with self._lock:
            channel = self._channel(run_id, owner)
            if channel.done is not None:
                return
            channel.done = {"run_id": run_id, "status": status}
            channel.finished_at = datetime.now(UTC)
            listeners, channel.subscribers = channel.subscribers, []
            self._forget_old()
        for subscriber in listeners:
            subscriber.send(("done", channel.done))

    def _publish(self, run_id: str, owner: str, data: dict[str, Any]) -> None:
        with self._lock:
            channel = self._channel(run_id, owner)
            if channel.done is not None:
                return
            if data["kind"] == "state" and data["step"] == channel.step:
                return  # the same state again (a step charged inside it): not a move
            channel.step = data["step"]
            channel.events.append(data)
            listeners = list(channel.subscribers)
        for subscriber in listeners:
            subscriber.send(("transition", data))

    def _channel(self, run_id: str, owner: str) -> Channel:
        channel = self._channels.get(run_id)
        if channel is None:
            channel = self._channels[run_id] = Channel(run_id, owner)
        return channel

    def _forget_old(self) -> None:
        finished = [key for key, c in self._channels.items() if c.done is not None]
        for key in finished[: max(0, len(finished) - KEEP_FINISHED)]:
            del self._channels[key]

    async def follow(self, channel: Channel) -> AsyncIterator[Item | None]:
        """Every event of a channel: those so far, then new ones, then ``done``; ``None`` is a
        keep-alive tick when nothing happened for a while."""
        loop = asyncio.get_running_loop()
        subscriber = _Subscriber(loop, asyncio.Queue())
        with self._lock:
            history, done = list(channel.events), channel.done
            if done is None:
                channel.subscribers.append(subscriber)
        try:
            for data in history:
                yield "transition", data
            if done is not None:
                yield "done", done
                return
            while True:
                try:
                    item = await asyncio.wait_for(subscriber.queue.get(), timeout=KEEPALIVE_S)
                except TimeoutError:
                    yield None
                    continue
                yield item
                if item[0] == "done":
                    return
        finally:
            with self._lock:
                if subscriber in channel.subscribers:
                    channel.subscribers.remove(subscriber)


async def follow_stored(store: RunStore, state: RunState, trace: list[TraceEvent]) -> AsyncIterator[Item | None]:
    """A run this process did not publish: the transitions its trace recorded, then — while it
    is still running elsewhere — its state followed in the store, then ``done``."""
    run_id = state.run_id
    for event in trace:
        if event.type == "run_started":
            yield "transition", transition(run_id, "running", None, kind="started", at=event.ts)
        elif event.type == "handoff":
            tokens = event.payload.get("tokens")
            agent = str(event.payload.get("agent"))
            count = tokens if isinstance(tokens, int) else None
            yield (
                "transition",
                transition(run_id, "running", None, kind="handoff", agent=agent, tokens=count, at=event.ts),
            )
    step, ticks = None, 0
    while state.status not in TERMINAL:
        ticks += 1
        if state.step != step:
            step = state.step
            yield "transition", transition(run_id, state.status, state.step, kind="state")
        elif ticks * POLL_S >= KEEPALIVE_S:
            ticks = 0
            yield None
        await asyncio.sleep(POLL_S)
        state = await asyncio.to_thread(store.load, run_id)
    yield "transition", transition(run_id, state.status, state.step, kind="finished", tokens=state.usage.tokens)
    yield "done", {"run_id": run_id, "status": state.status}


def sse_lines(item: Item | None) -> str:
    """One server-sent event (or a keep-alive comment)."""
    if item is None:
        return ": keep-alive\n\n"
    name, data = item
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"
