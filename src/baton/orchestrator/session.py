"""A Session holds what every question on one config shares — catalog, planner, policy, engine
profile, warehouse connection, approval registry, result cache and run store — loads each
once, lazily, and answers many questions.

    >>> import baton
    >>> with baton.Session(config="demo/baton.toml", user="analyst") as session:  # doctest: +SKIP
    ...     answer = session.ask("上个月各渠道的GMV是多少？")
    ...     why = session.analyze("为什么2026年6月的GMV下降了？")
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import date, datetime
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from baton.catalog.model import Catalog
from baton.config import Settings, resolve_config
from baton.contracts.common import Language
from baton.contracts.run import Budget, RunState, RunSummary
from baton.errors import InvalidInput
from baton.messages import both

if TYPE_CHECKING:
    from threading import Thread
    from types import TracebackType

    from baton.catalog.members import IndexedDimension
    from baton.catalog.search import CatalogIndex
    from baton.contracts.answer import Answer
    from baton.contracts.trace import TraceEvent
    from baton.errors import BatonError
    from baton.llm.protocol import Provider
    from baton.memory import Memory
    from baton.nlu.parser import Planner
    from baton.orchestrator.conversation import Conversation
    from baton.orchestrator.governed import GovernedQuery, RunHooks
    from baton.orchestrator.run import RunObserver
    from baton.orchestrator.store import SqliteRunStore
    from baton.policy import Policy, Principal
    from baton.sql import ApprovalRegistry
    from baton.warehouse.engine import Backend, Engine
    from baton.warehouse.runner import Runner


class Session:
    """One loaded configuration answering many questions (thread-compatible, not thread-safe)."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        config: Path | str | None = None,
        user: str | None = None,
        build_default: Callable[[Path], object] | None = None,
        remember: bool = True,
    ) -> None:
        """Settings from ``settings``, else ``config`` (a baton.toml), else ``BATON_CONFIG``,
        else the default demo folder (``build_default`` builds it when it does not exist).
        ``remember=False`` leaves the users' memory out (neither read nor written): an eval
        measures the planner, not what a user taught it."""
        if settings is None:
            settings = resolve_config(Path(config) if config is not None else None, build_default=build_default)
        self.settings = settings
        self._user = user
        self.remember = remember
        self.member_index_error: BatonError | None = None
        self.observer: RunObserver | None = None
        """Told of every run's moves on this session as they happen (``baton serve`` streams them)."""
        self._opening: Thread | None = None

    @property
    def user(self) -> str:
        """The acting user: the one given here, else the config's ``[defaults].user``, else the
        policy's ``default_user`` (a policy names its own users; none is assumed)."""
        return self._user or self.settings.user or self.policy.default_user

    # -- what every run shares ------------------------------------------------------------------
    @cached_property
    def catalog(self) -> Catalog:
        from baton.catalog.loader import load_catalog

        return load_catalog(self.settings.catalog_path)

    @cached_property
    def planner(self) -> Planner:
        """The planner over :attr:`planning_catalog` (the catalog plus indexed members)."""
        from baton.nlu.parser import Planner

        return Planner(self.planning_catalog)

    @cached_property
    def member_index(self) -> tuple[IndexedDimension, ...]:
        """Members of the ``index_members`` dimensions, read from the warehouse once per data
        version and cached in the runs folder; empty when no dimension asks for it or the
        warehouse cannot be read (questions then see the listed members only)."""
        from baton.catalog.members import indexed_dimensions, read_member_index
        from baton.errors import BatonError

        if not indexed_dimensions(self.catalog):
            return ()
        try:
            return read_member_index(
                self.catalog,
                self.backend,
                self.runs_dir / "member_index",
                dialect=self.engine.dialect,
                timeout_s=self.settings.timeout_s,
                exclude_columns=tuple(self.policy.pii_columns),
            )
        except BatonError as exc:
            self.member_index_error = exc
            return ()

    @cached_property
    def planning_catalog(self) -> Catalog:
        """The catalog the planner reads: :attr:`catalog` (kept as loaded) with the indexed
        members added; the catalog itself when no dimension is indexed."""
        from baton.catalog.members import with_members
        from baton.nlu.lexicon import reserved_words

        if not self.member_index:
            return self.catalog
        index = {d.dimension: d.members for d in self.member_index}
        return with_members(self.catalog, index, reserved=reserved_words())

    @cached_property
    def catalog_index(self) -> CatalogIndex:
        """The planning catalog's search index (built on first use: only a model planner needs it)."""
        from baton.catalog.search import CatalogIndex

        return CatalogIndex(self.planning_catalog)

    @cached_property
    def model_provider(self) -> Provider:
        """The configured language model (``[llm]``); ``ModelFailure`` when none is configured."""
        from baton.errors import ModelFailure
        from baton.llm import open_provider
        from baton.messages import both

        if self.settings.llm is None:
            raise ModelFailure(*both("conversation.no_model"), detail={"reason": "not_configured"})
        return open_provider(self.settings.llm)

    @cached_property
    def policy(self) -> Policy:
        from baton.policy import load_policy

        return load_policy(self.settings.policy_path)

    def reload_policy(self, policy: Policy | None = None) -> Policy:
        """Read the policy file again, or take ``policy`` already read, so a long-lived session
        (``baton serve``) follows an edited policy without a restart. The member index leaves
        PII columns out, so it (and the planner built on it) is rebuilt when those changed."""
        from baton.policy import load_policy

        new = policy if policy is not None else load_policy(self.settings.policy_path)
        old: Policy | None = self.__dict__.get("policy")
        self.__dict__["policy"] = new
        if old is not None and old.pii_columns != new.pii_columns:
            for derived in ("member_index", "planning_catalog", "planner", "catalog_index"):
                self.__dict__.pop(derived, None)
        return new

    def principal(self, user: str) -> Principal:
        return self.policy.principal(user)

    @cached_property
    def engine(self) -> Engine:
        from baton.warehouse.engine import engine_named

        return engine_named(self.settings.engine)

    @cached_property
    def backend(self) -> Backend:
        return self.engine.open(self.settings)

    def open_early(self) -> None:
        """Start opening a local warehouse on a thread, so a new process's first question plans
        and compiles meanwhile (DuckDB opens its file without holding the GIL: about 30 ms of a
        command's wall time). A failure is left to the first statement, which opens it again
        and reports it; the thread is not a daemon, so a command never exits mid-open."""
        if not self.engine.opens_locally:
            return
        import contextlib
        import threading

        backend = self.backend

        def open_quietly() -> None:
            with contextlib.suppress(Exception):
                backend.connect()

        self._opening = threading.Thread(target=open_quietly, name="baton-open-warehouse")
        self._opening.start()

    @cached_property
    def registry(self) -> ApprovalRegistry:
        from baton.sql import ApprovalRegistry

        return ApprovalRegistry()

    @cached_property
    def runner(self) -> Runner:
        from baton.catalog.freshness import freshness_query, load_key_to_table, tracked_tables
        from baton.warehouse.runner import Runner

        fresh = freshness_query(self.catalog).sql(dialect=self.engine.dialect) if tracked_tables(self.catalog) else None
        return Runner(
            self.backend,
            self.registry,
            timeout_s=self.settings.timeout_s,
            row_cap=self.settings.row_cap,
            freshness_sql=fresh,
            table_names=load_key_to_table(self.catalog),
        )

    @cached_property
    def schema(self) -> dict[str, dict[str, str]]:
        return self.backend.schema()

    @property
    def runs_dir(self) -> Path:
        return self.settings.runs_dir

    @cached_property
    def store(self) -> SqliteRunStore:
        from baton.orchestrator.run import open_store

        return open_store(self.settings.runs_dir)

    @cached_property
    def memory(self) -> Memory:
        """The users' remembered preferences (``memory.sqlite`` in the runs folder), read and
        applied against :attr:`catalog`."""
        from baton.memory import Memory

        return Memory(self.runs_dir, self.catalog)

    def governed(self, user: str, language: Language, hooks: RunHooks | None = None) -> GovernedQuery:
        """The one governed query path for ``user`` (traced into a run when ``hooks`` is given)."""
        from baton.orchestrator.governed import GovernedQuery

        return GovernedQuery(
            principal=self.principal(user),
            schema=self.schema,
            registry=self.registry,
            runner=self.runner,
            backend=self.backend,
            large_tables=self.catalog.large_tables(),
            language=language,
            row_cap=self.settings.row_cap,
            hooks=hooks,
        )

    # -- questions -------------------------------------------------------------------------------
    def ask(
        self,
        question: str,
        *,
        as_of: date | str | None = None,
        user: str | None = None,
        budget: Budget | None = None,
        run_id: str | None = None,
    ) -> Answer:
        """Answer a metric question. Never raises for a bad question: the Answer carries the status."""
        from baton.orchestrator.ask import ASK

        return self._start(ASK, question, as_of=as_of, user=user, budget=budget, run_id=run_id)

    def analyze(
        self,
        question: str,
        *,
        as_of: date | str | None = None,
        user: str | None = None,
        budget: Budget | None = None,
        run_id: str | None = None,
    ) -> Answer:
        """Explain why a metric moved (the analysis relay). Never raises for a bad question."""
        from baton.orchestrator.analyze import ANALYZE

        return self._start(ANALYZE, question, as_of=as_of, user=user, budget=budget, run_id=run_id)

    def query(
        self,
        metrics: str | Sequence[str],
        *,
        group_by: str | Sequence[str] = (),
        where: str | Sequence[str] = (),
        start_time: date | None = None,
        end_time: date | None = None,
        order: str | Sequence[str] = (),
        limit: int | None = None,
        user: str | None = None,
        as_of: date | str | None = None,
        language: Language = "en",
        budget: Budget | None = None,
    ) -> Answer:
        """A semantic-layer query by catalog names (MetricFlow's ``mf query``), governed like
        :meth:`ask`. Lists may be comma-separated strings; a ``where`` string is one filter.
        Never raises for a bad request: the Answer carries the status."""
        from baton.orchestrator.query import QUERY, command_text

        line = command_text(
            metrics, group_by=group_by, where=where, start_time=start_time, end_time=end_time, order=order, limit=limit
        )
        lang: Language = "zh" if language == "zh" else "en"
        return self._start(QUERY, line, as_of=as_of, user=user, budget=budget, language=lang)

    def sql(
        self, statement: str, *, user: str | None = None, as_of: date | str | None = None, budget: Budget | None = None
    ) -> Answer:
        """Run one SQL statement through the firewall as ``user``, as a run (kind ``sql``) with
        its trace, like every read of the warehouse. Never raises for a refused or failing
        statement: the Answer carries the status and the code."""
        from baton.orchestrator.sql_run import SQL

        return self._start(SQL, statement, as_of=as_of, user=user, budget=budget)

    def conversation(self, conversation_id: str | None = None, *, user: str | None = None) -> Conversation:
        """A conversation as ``user``: a new one, or the one named (its owner's only). Each
        :meth:`Conversation.ask` is a run that follows the answered turn before it."""
        from baton.orchestrator.conversation import open_conversation

        return open_conversation(self, conversation_id, user or self.user)

    def resume(self, run_id: str, *, user: str | None = None) -> Answer:
        """Continue a stopped run from its checkpoints, as its owner under today's grants;
        finished steps whose approvals still hold are not run again."""
        from baton.orchestrator.replay import resume_run

        return resume_run(self, run_id, user)

    def replay(self, run_id: str, *, user: str | None = None) -> Answer:
        """A run's answer rebuilt from its checkpoints and evidence (no warehouse access), for
        its owner while their grants are unchanged, or a ``runs: all`` user."""
        from baton.orchestrator.replay import replay_run

        return replay_run(self, run_id, user)

    def runs(
        self, *, user: str | None = None, status: str | None = None, owner: str | None = None, limit: int = 100
    ) -> list[RunSummary]:
        """The runs ``user`` may see, newest first (their own; everyone's for ``runs: all``)."""
        from baton.orchestrator.access import visible_runs

        return visible_runs(self, user, status=status, owner=owner, limit=limit)

    def run_trace(self, run_id: str, *, user: str | None = None) -> list[TraceEvent]:
        """A run's trace events as ``user`` may read them (:func:`access.trace_as_seen`)."""
        from baton.orchestrator.access import check_data_visible, trace_as_seen
        from baton.trace.writer import read_trace

        asking = check_data_visible(self, self.store.load(run_id), user)
        return trace_as_seen(read_trace(self.runs_dir / run_id / "trace.jsonl"), asking)

    def run_state(self, run_id: str, *, user: str | None = None, data: bool = True) -> RunState:
        """A stored run as ``user`` may see it: refused for another user's run, and — when
        ``data`` — while the owner's grants have changed since it read its rows."""
        from baton.orchestrator.access import check_can_view, check_data_visible

        state = self.store.load(run_id)
        if data:
            check_data_visible(self, state, user)
        else:
            check_can_view(self, state, user)
        return state

    def _start(self, pipeline: Any, question: str, **options: Any) -> Answer:
        from baton.orchestrator.driver import start

        options["as_of"] = as_of_date(options.get("as_of"))
        return start(self, pipeline, question, **options)

    # -- lifecycle -------------------------------------------------------------------------------
    def close(self) -> None:
        if self._opening is not None:  # never close a connection while it is being opened
            self._opening.join()
        backend = self.__dict__.get("backend")
        if backend is not None:
            backend.close()
        store = self.__dict__.get("store")
        if store is not None:
            store.close()
        memory = self.__dict__.get("memory")
        if memory is not None:
            memory.close()

    def __enter__(self) -> Session:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def as_of_date(value: date | str | None) -> date | None:
    """``as_of`` as a date: a ``YYYY-MM-DD`` string is read as one (a notebook's ``as_of="2026-07-01"``);
    anything else is an InvalidInput naming it, before any run starts."""
    if value is None or (isinstance(value, date) and not isinstance(value, datetime)):
        return value
    if isinstance(value, datetime):
        return value.date()
    try:
        return date.fromisoformat(str(value))
    except ValueError as exc:
        raise InvalidInput(*both("runs.bad_as_of", raw=str(value)), detail={"as_of": str(value)}) from exc
