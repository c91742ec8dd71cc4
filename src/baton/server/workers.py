"""What one running server holds: settings, tokens, sign-in sessions, progress events, and the
worker threads that answer questions.

A Session is not thread-safe, so every worker thread opens its own (its own warehouse
connection and run-store connection) on its first job and keeps it; one slow analysis holds
one worker while the others go on answering. Reads that run nothing (run lists, the
catalog, the policy) share one reader Session: its catalog is loaded once, and the run store
serialises its own connection. The policy file is watched (:class:`PolicyWatch`, at most once
a second, on every signed-in request): an edited policy applies to the next request, for the
reader and every worker Session, without a restart.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from baton.errors import ServerBusy
from baton.messages import both
from baton.server.auth import SignInSessions
from baton.server.events import EventBus
from baton.server.policy_watch import PolicyWatch
from baton.server.tokens import TokenStore

if TYPE_CHECKING:
    from fastapi import FastAPI, Request

    from baton.config import Settings
    from baton.orchestrator.session import Session
    from baton.policy import Policy

log = logging.getLogger("baton.server")
T = TypeVar("T")

DEFAULT_WORKERS = 4
QUEUE_PER_WORKER = 16
"""Questions that may wait per worker before a new one is refused (503 server_busy)."""


class Runtime:
    """The server's shared state (``app.state.baton``)."""

    def __init__(self, settings: Settings, *, workers: int = DEFAULT_WORKERS) -> None:
        from baton.orchestrator.session import Session

        self.settings = settings
        self.workers = max(1, workers)
        self.tokens = TokenStore(settings.runs_dir / "tokens.sqlite")
        self.sign_ins = SignInSessions()
        self.bus = EventBus()
        self.reader = Session(settings)
        self.lifespans: list[Callable[[FastAPI], AbstractAsyncContextManager[Any]]] = []
        """Async context managers entered for the app's lifetime (e.g. a mounted MCP session manager)."""
        self._pool = ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="baton-worker")
        self._local = threading.local()
        self._sessions: list[Session] = []
        self._lock = threading.Lock()
        self._pending = 0
        self.policy_watch = PolicyWatch(settings.policy_path)
        self._policy_generation = 0
        self._policy: Policy | None = None

    def warm(self) -> None:
        """Load what every request reads (catalog, policy, run store) before the first one."""
        _ = self.reader.catalog, self.reader.store, self.reader.engine
        with self._lock:
            self._policy = self.reader.policy

    def follow_policy(self) -> None:
        """Take an edited policy file: at once for the reader, on its next job for each worker."""
        policy = self.policy_watch.changed()
        if policy is None:
            return
        with self._lock:
            self.reader.reload_policy(policy)
            self._policy, self._policy_generation = policy, self._policy_generation + 1
        log.info("policy %s reloaded", self.settings.policy_path)

    # -- workers ---------------------------------------------------------------------------
    def worker_session(self) -> Session:
        """This worker thread's own Session (opened on its first job), reporting progress to the bus."""
        session: Session | None = getattr(self._local, "session", None)
        if session is None:
            from baton.orchestrator.session import Session

            session = Session(self.settings)
            session.observer = self.bus.observe
            self._local.session = session
            self._local.generation = -1
            with self._lock:
                self._sessions.append(session)
        with self._lock:
            generation, policy = self._policy_generation, self._policy
        if self._local.generation != generation and policy is not None:
            session.reload_policy(policy)  # the reader's (already read), not the file again
            self._local.generation = generation
        return session

    def submit(self, job: Callable[[Session], T]) -> Future[T]:
        """Run ``job`` on a worker's Session; refused (``server_busy``) when the queue is full."""
        limit = self.workers * QUEUE_PER_WORKER
        with self._lock:
            if self._pending >= limit:
                raise ServerBusy(*both("server.busy", pending=self._pending), detail={"pending": self._pending})
            self._pending += 1
        try:
            future = self._pool.submit(lambda: job(self.worker_session()))
        except BaseException:
            self._done()
            raise
        future.add_done_callback(lambda _f: self._done())
        return future

    async def run(self, job: Callable[[Session], T]) -> T:
        """:meth:`submit` and wait without holding the event loop."""
        return await asyncio.wrap_future(self.submit(job))

    def _done(self) -> None:
        with self._lock:
            self._pending -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            sessions, self._sessions = self._sessions, []
        for session in [*sessions, self.reader]:
            try:
                session.close()
            except Exception:  # closing what is left at shutdown: nothing to tell a client
                log.exception("closing a session failed")
        self.tokens.close()


def runtime(request: Request) -> Runtime:
    """The server state of the app handling ``request``."""
    found = getattr(request.app.state, "baton", None)
    assert isinstance(found, Runtime), "create_app sets app.state.baton"
    return found


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The app's lifetime: warm the reader, enter the extra lifespans, close everything at the end."""
    rt = app.state.baton
    assert isinstance(rt, Runtime)
    await asyncio.to_thread(rt.warm)
    try:
        async with AsyncExitStack() as stack:
            for enter in rt.lifespans:
                await stack.enter_async_context(enter(app))
            yield
    finally:
        await asyncio.to_thread(rt.close)
