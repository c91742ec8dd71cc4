"""Baton as an MCP server: ``ask``, ``analyze``, ``query``, ``list_metrics`` and ``describe_metric``
as governed tools for agents (Claude Desktop, Cursor, …), over stdio (``baton mcp``) or
streamable HTTP (``/mcp`` under ``baton serve``).

Every tool calls the Session method the CLI calls (no logic of its own, DESIGN §2): the same
planner, grants, firewall, runs and traces. The acting user is never a tool argument: over
stdio it is fixed when the server starts, over HTTP it is the owner of the bearer token. A
refused or failed run comes back as the run's status and reason with ``isError`` set and no
rows; an error before any run (a bad date, someone else's conversation) as its code and message,
and anything unexpected as a generic ``tool_failure`` (the details go to the server's log only).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import date
from typing import TYPE_CHECKING, Annotated, Any, Protocol, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field

from baton.contracts.agent_outputs import Driver, QualityFlag, ReportSection, StatTest
from baton.contracts.answer import AnswerTimeRange, ErrorInfo, MetricInfo, ResultTable, Status
from baton.contracts.common import Language, Unit
from baton.errors import BatonError
from baton.orchestrator.catalog_view import MetricType

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import ASGIApp, Receive, Scope, Send

    from baton.contracts.answer import Answer
    from baton.orchestrator.catalog_view import DimensionView, MetricView
    from baton.orchestrator.session import Session
    from baton.server.questions import Kind
    from baton.server.workers import Runtime

log = logging.getLogger("baton.server")
T = TypeVar("T")
UserOf = Callable[["Context[Any, Any]"], str]
"""The acting user of a call: fixed over stdio, the bearer token's owner over HTTP."""
LanguageOf = Callable[["Context[Any, Any]"], Language]
"""The language of a call with no question to tell it by (HTTP: Accept-Language)."""

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
INSTRUCTIONS = (
    "Baton is a governed data analyst over one warehouse. Ask business questions in Chinese or "
    "English with `ask` (what / how much) or `analyze` (why did a metric move). Every answer "
    "starts with its interpretation: read it before using the numbers. `list_metrics` and "
    "`describe_metric` show the catalog (definitions, dimensions, owners); `query` computes "
    "catalog metrics by name. A refused answer is final for this user: do not work around it."
)


# -- what the tools return ------------------------------------------------------------------------
class AskOutput(BaseModel):
    """One run's answer as an agent needs it: how the question was read, what the answer says,
    the rows and the SQL behind them, the definitions (口径), assumptions and freshness."""

    model_config = ConfigDict(extra="forbid")
    run_id: str = Field(description="the run, with its trace (`baton runs show RUN_ID`)")
    status: Status = Field(description="answered | clarification_needed | refused | failed")
    question: str
    language: Language
    interpretation: str | None = Field(default=None, description="exactly what was computed: read it first")
    answer: str = Field(description="the answer, or the refusal, the question asked back, the failure")
    table: ResultTable | None = Field(default=None, description="the result rows (never present when refused)")
    sql: str | None = Field(default=None, description="the governed SQL that ran")
    metrics: list[MetricInfo] = Field(default_factory=list, description="the definitions of the metrics used")
    assumptions: list[str] = Field(default_factory=list)
    time_range: AnswerTimeRange | None = None
    data_freshness: str | None = None
    as_of: date | None = None
    conversation_id: str | None = Field(default=None, description="pass it back for a follow-up")
    suggestions: list[str] = Field(default_factory=list, description="questions that can be answered instead")
    partial: bool = Field(default=False, description="stopped early (a budget): what finished is kept")
    error: ErrorInfo | None = Field(default=None, description="why it was refused or failed: code and message")
    user: str | None = Field(default=None, description="whose grants it ran under")


class AnalyzeOutput(AskOutput):
    """An analysis: the answer plus its report sections, the drivers with their contributions,
    the statistical tests with intervals and effect sizes, and the paths ruled out."""

    sections: list[ReportSection] = Field(default_factory=list)
    drivers: list[Driver] = Field(default_factory=list)
    tests: list[StatTest] = Field(default_factory=list)
    quality_flags: list[QualityFlag] = Field(default_factory=list)
    excluded_paths: list[str] = Field(default_factory=list)


class MetricSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="the catalog name (what `query` and `describe_metric` take)")
    label: str
    description: str = Field(description="its definition: what is counted, and how")
    unit: Unit
    currency: str | None = None
    type: MetricType = Field(description="simple | ratio | derived")
    available: bool = Field(description="whether this user's grants let them query it")


class MetricList(BaseModel):
    model_config = ConfigDict(extra="forbid")
    user: str
    metrics: list[MetricSummary]


class MemberInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    value: str = Field(description="the value in the data (what a `query` filter compares with)")
    label: str


class DimensionInfo(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(description="what `query` takes in group_by and in a where filter")
    label: str
    members: list[MemberInfo] = Field(default_factory=list, description="the members the catalog lists")


class MetricDescription(BaseModel):
    """A metric's whole definition, and what `query` may group and filter it by."""

    model_config = ConfigDict(extra="forbid")
    name: str
    label: str
    description: str = Field(description="its definition: what is counted, and how")
    unit: Unit
    currency: str | None = None
    type: MetricType = Field(description="simple | ratio | derived")
    expression: str = Field(description="the aggregate it computes")
    filters: list[str] = Field(default_factory=list, description="conditions every row it counts meets")
    time_dimension: str | None = Field(default=None, description="the date column(s) it is counted by")
    time_grains: list[str] = Field(description="group_by names for time (metric_time__day … __year)")
    dimensions: list[DimensionInfo]
    owner: str = Field(description="who answers for the definition")
    available: bool = Field(description="whether this user's grants let them query it")


# -- the tools ------------------------------------------------------------------------------------
class Runner(Protocol):
    """Runs ``job`` on a Session without blocking the event loop, and returns what it returns."""

    def __call__(self, job: Callable[[Session], T], /) -> Awaitable[T]: ...


QuestionArg = Annotated[str, Field(description="a business question, in Chinese or English")]
AsOfArg = Annotated[str | None, Field(description="analysis date YYYY-MM-DD (default: the config's, else today)")]
ConversationArg = Annotated[
    str | None, Field(description="a conversation_id from an earlier answer (a follow-up), or 'new' to start one")
]
LanguageArg = Annotated[Language | None, Field(description="language of labels and messages (default: en)")]


class BatonTools:
    """The five tools. ``run`` runs a question on a Session of its own (it may take seconds);
    ``read`` reads the catalog and policy; ``user_of(ctx)`` is whose grants a call runs under."""

    def __init__(self, run: Runner, read: Runner, user_of: UserOf, language_of: LanguageOf) -> None:
        self.run = run
        self.read = read
        self.user_of = user_of
        self.language_of = language_of

    def register(self, server: MCPServer[Any]) -> None:
        for tool, title in (
            (self.ask, "Ask a data question"),
            (self.analyze, "Explain why a metric moved"),
            (self.query, "Query catalog metrics by name"),
            (self.list_metrics, "List the catalog's metrics"),
            (self.describe_metric, "Describe one metric"),
        ):
            server.add_tool(tool, title=title, annotations=READ_ONLY)

    async def ask(
        self,
        question: QuestionArg,
        ctx: Context[Any, Any],
        as_of: AsOfArg = None,
        conversation_id: ConversationArg = None,
    ) -> Annotated[CallToolResult, AskOutput]:
        """Answer a metric question ("revenue by channel last month", "上个月各渠道的收入") with governed
        SQL: the interpretation, the answer, the result rows, the SQL, the metric definitions,
        assumptions and data freshness. Within a conversation, a why-question runs an analysis."""
        if not question.strip():
            return self._empty_question(ctx)
        return await self._answer(
            ctx, _language_of(question), AskOutput, lambda s, u: _asked(s, u, "ask", question, as_of, conversation_id)
        )

    async def analyze(
        self,
        question: QuestionArg,
        ctx: Context[Any, Any],
        as_of: AsOfArg = None,
        conversation_id: ConversationArg = None,
    ) -> Annotated[CallToolResult, AnalyzeOutput]:
        """Explain why a metric moved ("why did revenue drop in June?"): data checks, statistical tests
        with intervals, the drivers and their contributions, and the paths ruled out. Takes seconds."""
        if not question.strip():
            return self._empty_question(ctx)
        return await self._answer(
            ctx,
            _language_of(question),
            AnalyzeOutput,
            lambda s, u: _asked(s, u, "analyze", question, as_of, conversation_id),
        )

    async def query(
        self,
        metrics: Annotated[list[str], Field(description="catalog metric names (see list_metrics)")],
        ctx: Context[Any, Any],
        group_by: Annotated[
            list[str] | None, Field(description="dimension names and/or metric_time__day|week|month|quarter|year")
        ] = None,
        where: Annotated[
            list[str] | None, Field(description="filters that must all hold, e.g. \"{{ Dimension('name') }} = 'x'\"")
        ] = None,
        order_by: Annotated[list[str] | None, Field(description="output columns, '-' first for descending")] = None,
        limit: Annotated[int | None, Field(description="at most this many rows")] = None,
        start_time: Annotated[str | None, Field(description="first date included, YYYY-MM-DD")] = None,
        end_time: Annotated[str | None, Field(description="last date included, YYYY-MM-DD (default: as-of)")] = None,
        as_of: AsOfArg = None,
        language: LanguageArg = None,
    ) -> Annotated[CallToolResult, AskOutput]:
        """Compute catalog metrics by name, grouped and filtered (MetricFlow's query syntax),
        governed like `ask`: the same grants, row filters, firewall and run trace."""
        from baton.orchestrator.query import read_date
        from baton.server.questions import leaving

        lang: Language = language or self.language_of(ctx)

        def run(session: Session, user: str) -> Answer:
            answer = session.query(
                metrics,
                group_by=group_by or (),
                where=where or (),
                order=order_by or (),
                limit=limit,
                start_time=read_date("start_time", start_time),
                end_time=read_date("end_time", end_time),
                as_of=read_date("as_of", as_of),
                user=user,
                language=lang,
            )
            return leaving(answer, session, user)

        return await self._answer(ctx, lang, AskOutput, run)

    async def list_metrics(
        self, ctx: Context[Any, Any], language: LanguageArg = None
    ) -> Annotated[CallToolResult, MetricList]:
        """The catalog's metrics: name, label, definition, unit, and whether this user may query each."""
        lang: Language = language or self.language_of(ctx)

        def listed(session: Session, user: str) -> MetricList:
            from baton.orchestrator.catalog_view import metric_view

            catalog, principal = session.catalog, session.principal(user)
            views = [metric_view(catalog, principal, name, lang) for name in catalog.metrics]
            return MetricList(user=user, metrics=[_summary(view) for view in views])

        return await self._read(ctx, lang, listed)

    async def describe_metric(
        self,
        name: Annotated[str, Field(description="a catalog metric name (see list_metrics)")],
        ctx: Context[Any, Any],
        language: LanguageArg = None,
    ) -> Annotated[CallToolResult, MetricDescription]:
        """One metric's whole definition: description, expression and filters, unit, time dimension,
        the dimensions (and listed members) it can be grouped and filtered by, and its owner."""
        lang: Language = language or self.language_of(ctx)

        def described(session: Session, user: str) -> MetricDescription:
            from baton.orchestrator.catalog_view import describe_metric

            return _description(*describe_metric(session.catalog, session.principal(user), name, lang))

        return await self._read(ctx, lang, described)

    # -- one call -------------------------------------------------------------------------------
    def _empty_question(self, ctx: Context[Any, Any]) -> CallToolResult:
        """A blank question is bad input (REST answers it 422), refused before any run exists."""
        from baton.errors import InvalidInput
        from baton.messages import both

        return error_result(InvalidInput(*both("mcp.empty_question")), self.language_of(ctx))

    async def _answer(
        self, ctx: Context[Any, Any], lang: Language, model: type[AskOutput], ask: Callable[[Session, str], Answer]
    ) -> CallToolResult:
        """A run as ``user_of(ctx)`` (``ask`` makes the export check of `--json`: the answer leaves Baton)."""
        return await self._guarded(ctx, lang, self.run, ask, lambda answer: answer_result(answer, model))

    async def _read(
        self, ctx: Context[Any, Any], lang: Language, read: Callable[[Session, str], BaseModel]
    ) -> CallToolResult:
        def shown(out: BaseModel) -> CallToolResult:
            return CallToolResult(
                content=[TextContent(type="text", text=out.model_dump_json())],
                structured_content=out.model_dump(mode="json"),
            )

        return await self._guarded(ctx, lang, self.read, read, shown)

    async def _guarded(
        self,
        ctx: Context[Any, Any],
        lang: Language,
        on: Runner,
        work: Callable[[Session, str], T],
        result: Callable[[T], CallToolResult],
    ) -> CallToolResult:
        """``work`` as ``user_of(ctx)`` through ``on`` (a worker or the reader); a Baton error is
        the tool's error, anything else a generic failure whose text stays in the server's log."""
        try:
            user = self.user_of(ctx)
            out = await on(lambda session: work(session, user))
        except BatonError as exc:
            return error_result(exc, lang)
        except Exception:  # never str(exc) to a client: the log has it
            log.exception("MCP tool call failed")
            return failure_result(lang)
        return result(out)


def _asked(
    session: Session, user: str, kind: Kind, question: str, as_of: str | None, conversation_id: str | None
) -> Answer:
    """The REST API's question (:mod:`baton.server.questions`): a turn of a conversation when one is
    named ('new' starts one; someone else's is not found), checked for leaving Baton."""
    from baton.orchestrator.query import read_date
    from baton.server.questions import answer_question, open_conversation

    when = read_date("as_of", as_of)
    conversation = open_conversation(session, conversation_id, user)
    return answer_question(session, kind, question, user=user, as_of=when, conversation=conversation)


def _language_of(question: str) -> Language:
    from baton.nlu.gate import detect_language

    return "zh" if detect_language(question) == "zh" else "en"


# -- results --------------------------------------------------------------------------------------
def answer_result(answer: Answer, model: type[AskOutput]) -> CallToolResult:
    """The Answer as ``model``: a refusal keeps its status and reason but never a row; a refused or
    failed run is an error result (``isError``) that still carries the structured answer."""
    dumped = answer.model_dump(mode="json")
    dumped["table"] = None if answer.status == "refused" else dumped.get("result")
    out = model.model_validate({name: dumped[name] for name in model.model_fields if name in dumped})
    return CallToolResult(
        content=[TextContent(type="text", text=out.model_dump_json())],
        structured_content=out.model_dump(mode="json"),
        is_error=answer.status in ("refused", "failed"),
    )


def error_result(exc: BatonError, language: Language) -> CallToolResult:
    """A typed error as a tool error: its code and message (never a stack trace or internals)."""
    from baton.messages import text

    error: dict[str, Any] = {"code": exc.error_code, "message": exc.message(language)}
    safe = {key: value for key, value in exc.detail.items() if key in SAFE_DETAIL and _plain(value)}
    if safe:
        error["detail"] = safe
    line = text("mcp.tool_error", language, code=exc.error_code, message=exc.message(language))
    return CallToolResult(
        content=[TextContent(type="text", text=line)], structured_content={"error": error}, is_error=True
    )


SAFE_DETAIL = frozenset({"term", "suggestions", "metric", "conversation_id", "run_id", "format", "user"})
"""Detail an agent may act on (the closest names, what was not found); never paths, SQL or internals."""


def _plain(value: object) -> bool:
    """A string, number or list of strings: nothing nested to carry internals out."""
    if isinstance(value, list):
        return all(isinstance(item, str) for item in value)
    return isinstance(value, str | int | float | bool)


def failure_result(language: Language) -> CallToolResult:
    """An unexpected failure as a tool error: a generic ``tool_failure``, nothing of the exception."""
    from baton.messages import text

    message = text("mcp.tool_failure", language)
    line = text("mcp.tool_error", language, code="tool_failure", message=message)
    error = {"code": "tool_failure", "message": message}
    return CallToolResult(
        content=[TextContent(type="text", text=line)], structured_content={"error": error}, is_error=True
    )


def _summary(view: MetricView) -> MetricSummary:
    return MetricSummary.model_validate(view.model_dump(include=set(MetricSummary.model_fields)))


def _description(view: MetricView, dimensions: list[DimensionView]) -> MetricDescription:
    """The catalog view of one metric (:mod:`baton.orchestrator.catalog_view`) in the tool's terms."""
    fields = view.model_dump(include=set(MetricDescription.model_fields) - {"dimensions"})
    return MetricDescription(
        **fields,
        time_dimension=view.time_column,
        dimensions=[
            DimensionInfo(
                name=dim.name,
                label=dim.label,
                members=[MemberInfo(value=member.name, label=member.label) for member in dim.members],
            )
            for dim in dimensions
        ],
    )


# -- serving --------------------------------------------------------------------------------------
SCOPE_USER = "baton.user"
"""Where the HTTP endpoint leaves the token's user in the request scope for the tools to read."""


def build_server(tools: BatonTools) -> MCPServer[Any]:
    from baton.config import baton_version

    server: MCPServer[Any] = MCPServer(
        "baton", title="Baton", instructions=INSTRUCTIONS, version=baton_version(), log_level="WARNING"
    )
    tools.register(server)
    return server


def serve_stdio(session: Session, user: str) -> None:
    """Serve the tools on stdin/stdout as ``user`` until the client closes the pipe: one Session,
    one run at a time (a Session is not thread-safe; runs go to a worker thread). An edited policy
    file applies to the next call."""
    import threading

    import anyio.to_thread

    from baton.server.policy_watch import PolicyWatch

    lock = threading.Lock()
    watch = PolicyWatch(session.settings.policy_path)

    def locked(job: Callable[[Session], T]) -> T:
        with lock:
            policy = watch.changed()
            if policy is not None:
                session.reload_policy(policy)
            return job(session)

    async def on_session(job: Callable[[Session], T]) -> T:
        return await anyio.to_thread.run_sync(locked, job)

    build_server(BatonTools(on_session, on_session, lambda _ctx: user, lambda _ctx: "en")).run("stdio")


def mount_mcp(app: FastAPI, rt: Runtime, path: str = "/mcp") -> None:
    """The tools as streamable HTTP at ``path`` of ``baton serve``: each request signs in with its
    bearer token (401 in the API's error shape otherwise) and each call runs as that token's
    user, questions on the server's worker Sessions (the REST API's queue and limits)."""
    from mcp.server.transport_security import TransportSecuritySettings
    from starlette.routing import Route

    async def read(job: Callable[[Session], T]) -> T:
        import anyio.to_thread

        return await anyio.to_thread.run_sync(job, rt.reader)  # catalog and policy: loaded at start, then only read

    server = build_server(BatonTools(rt.run, read, _token_user, _request_language))
    # A bearer token is no ambient credential (unlike a cookie), so a rebound DNS name gains a page
    # nothing: the Host check would only refuse `baton serve --host 0.0.0.0` behind its own name.
    server.streamable_http_app(
        streamable_http_path=path, transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False)
    )
    manager = server.session_manager
    endpoint = BearerOnly(manager.handle_request)  # an ASGI app, not a request handler: Route passes it the scope
    app.router.routes.append(Route(path, endpoint, methods=["GET", "POST", "DELETE"], include_in_schema=False))
    rt.lifespans.append(lambda _app: manager.run())


class BearerOnly:
    """An ASGI app behind an API token: ``Authorization: Bearer <token>``, checked like every API
    request, never the web page's cookie. The token's user goes in the scope (:data:`SCOPE_USER`),
    and as the SDK's authenticated user, so an MCP session answers only the token that opened it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from functools import partial

        import anyio.to_thread
        from fastapi.security import HTTPAuthorizationCredentials
        from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
        from mcp.server.auth.provider import AccessToken
        from starlette.requests import Request

        from baton.errors import Unauthorized
        from baton.messages import both
        from baton.server.auth import current_user
        from baton.server.errors import baton_error_response, request_language

        request = Request(scope, receive)
        scheme, _, token = request.headers.get("authorization", "").partition(" ")
        bearer = scheme.lower() == "bearer" and token.strip()
        credentials = HTTPAuthorizationCredentials(scheme="Bearer", credentials=token.strip()) if bearer else None
        try:
            if credentials is None:  # the cookie of the web page does not sign in here
                raise Unauthorized(*both("mcp.no_token"))
            signed = await anyio.to_thread.run_sync(partial(current_user, request, credentials, None))
        except BatonError as exc:
            await baton_error_response(exc, request_language(request))(scope, receive, send)
            return
        scope[SCOPE_USER] = signed.user
        held = AccessToken(token=signed.token_id, client_id=signed.user, scopes=[], subject=signed.token_id)
        scope["user"] = AuthenticatedUser(held)
        await self.app(scope, receive, send)


def _token_user(ctx: Context[Any, Any]) -> str:
    from baton.errors import Unauthorized
    from baton.messages import both

    request = ctx.request_context.request
    user = getattr(request, "scope", {}).get(SCOPE_USER)
    if not isinstance(user, str):
        raise Unauthorized(*both("mcp.no_token"))
    return user


def _request_language(ctx: Context[Any, Any]) -> Language:
    from starlette.requests import Request

    from baton.server.errors import request_language

    request = ctx.request_context.request
    return request_language(request) if isinstance(request, Request) else "en"
