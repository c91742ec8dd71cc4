"""Reading the question of a run: the rule planner, a follow-up laid over its parent, a
language model when the rules cannot account for the question, remembered defaults.

One path for every kind of run. The rule planner reads first; a turn of a conversation is read
against the answered turn before it. Only when the rules ask back or refuse for want of
understanding — and a model is configured — is the model asked, with the question, the
parent reading and a retrieved slice of the catalog (never data rows); its reply is validated
against the catalog exactly as strictly, and any failure ends in the rule planner's own
question back, with the model's reason added. With ``planner = "always"`` the model reads
every question and a disagreement is stated; the rule reading is used.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from baton import patterns
from baton.catalog.members import indexed_dimensions
from baton.contracts.common import Language
from baton.contracts.conversation import FollowUpInfo, PlannedBy
from baton.contracts.run import RunState
from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, BatonError, BudgetExceeded, OutOfScope, UnknownMetric, UnsupportedMetric
from baton.messages import localized, text
from baton.orchestrator.driver import RunScope

if TYPE_CHECKING:
    from baton.nlu.follow_pointers import ListedRows
    from baton.nlu.parser import Planner

_MODEL_READS = (AmbiguousQuestion, UnknownMetric, OutOfScope)
"""The rule planner's errors a model may resolve: it did not understand (a catalog refusal,
an action or advice asked for, is final)."""


@dataclass
class Read:
    """A question read: its query, the planner's assumptions, who read it, what it inherited."""

    query: SemanticQuery
    notes: list[str] = field(default_factory=list)
    planned_by: PlannedBy = field(default_factory=PlannedBy)
    follow_up: FollowUpInfo | None = None
    defaulted: bool = False
    """A remembered default filled the breakdown (not a choice of the user's to learn from)."""


@dataclass(frozen=True)
class Parent:
    run_id: str
    query: SemanticQuery
    earlier: TimeRange | None = None
    """The period of the turn before, when this one changed only the period ("5月呢" after "6月GMV")."""
    earlier_filter: MemberFilter | None = None
    """The filter of the turn before, when this one changed only its member ("华南呢" after "华东GMV")."""
    listed: ListedRows | None = None
    """The rows its answer listed, which a follow-up's pointer names ("这两个区域", "那天")."""


def read_question(scope: RunScope) -> Read:
    """The run's question as a SemanticQuery (or the typed error that asks back or refuses)."""
    state = scope.state
    planner = planner_for(scope)
    parent = parent_of(scope)
    language_note = _remembered_language(scope)
    try:
        read = _read_by_rules(scope, planner, parent)
    except _MODEL_READS as exc:
        if isinstance(exc, UnsupportedMetric) or _detail_is_final(exc) or _model_mode(scope) == "off":
            raise
        read = _read_by_model(scope, exc, parent)
    else:
        if _model_mode(scope) == "always":
            read.notes += _second_opinion(scope, read.query, parent)
    from baton.nlu.events import moving_event_last_year  # lazy, as the other nlu imports of this module

    moving_event_last_year(planner.catalog.calendar, read.query)  # by rules or model, asked or followed
    if language_note:
        read.notes.insert(0, language_note)
    if not read.defaulted and not _breakdown_inherited(read):
        _observe_choice(scope, read.query)
    if state.conversation_id is not None and read.follow_up is None:
        read.follow_up = FollowUpInfo(conversation_id=state.conversation_id)
    return read


def _read_by_rules(scope: RunScope, planner: Planner, parent: Parent | None) -> Read:
    """The rules' reading. A question that asks for a breakdown without naming one ("拆开看看",
    "top 3?") is asked back — unless the user keeps a default breakdown, which then fills it,
    said in the assumptions."""
    try:
        return _rules(scope, planner, parent, None)
    except AmbiguousQuestion as exc:
        favourite = _favourite_tie_break(scope, exc)
        if favourite is not None:
            read = _rules(scope, planner, parent, None, prefer=(favourite[0],))
            read.notes.append(favourite[1])
            return read
        if exc.detail.get("missing") != "breakdown" or _which_of_those(scope, parent):
            raise
        default = _remembered_breakdown(scope)
        if default is None:
            raise
        read = _rules(scope, planner, parent, default[0])
        read.notes.append(default[1])
        read.defaulted = True
        return read


def _which_of_those(scope: RunScope, parent: Parent | None) -> bool:
    """ "华南的GMV", "华北呢", then "which one is bigger?": of the two said, never the top group of a
    remembered default breakdown."""
    from baton.nlu.lexicon import normalise
    from baton.nlu.ties import WHICH_OF_THOSE

    return parent is not None and WHICH_OF_THOSE.search(normalise(scope.question)) is not None


def _rules(
    scope: RunScope, planner: Planner, parent: Parent | None, breakdown: str | None, prefer: tuple[str, ...] = ()
) -> Read:
    state = scope.state
    if parent is None:
        return Read(planner.plan(scope.question, as_of=state.as_of, default_breakdown=breakdown, prefer=prefer))
    from baton.nlu.follow_parts import dropped_parts
    from baton.nlu.followup import read_follow_up

    follow = read_follow_up(
        planner,
        scope.question,
        parent.query,
        as_of=state.as_of,
        default_breakdown=breakdown,
        prefer=prefer,
        earlier=parent.earlier,
        earlier_filter=parent.earlier_filter,
        listed=parent.listed,
    )
    info = FollowUpInfo(
        conversation_id=state.conversation_id or "",
        parent_run_id=parent.run_id,
        standalone=follow.standalone,
        changed=follow.changed,
        inherited=follow.inherited,
        dropped=tuple(p for p in dropped_parts(parent.query, follow.query) if p in follow.changed),
    )
    return Read(_periods_in(follow.query, state.language), follow_up=info)


def _periods_in(query: SemanticQuery, language: Language) -> SemanticQuery:
    """``query`` with the words of inherited periods dropped where they are of the other language
    ("上个月" asked in Chinese, then "is that up or down?"): the answer names those by their dates,
    never quoting Chinese in an English sentence."""

    def said(period: TimeRange) -> TimeRange:
        words = period.text or ""
        other = _CJK.search(words) if language == "en" else _LATIN_WORD.search(words)
        return period.model_copy(update={"text": None}) if other else period

    comparison = query.comparison
    update: dict[str, object] = {"time_range": said(query.time_range)}
    if comparison is not None:
        update["comparison"] = comparison.model_copy(update={"range": said(comparison.range)})
    return query.model_copy(update=update)


_CJK = patterns.compile(r"[\u3400-\u9fff]")
_LATIN_WORD = patterns.compile(r"[A-Za-z]{3,}")


def _breakdown_inherited(read: Read) -> bool:
    """A follow-up that kept its parent's breakdown did not choose it again: not a repeated choice."""
    info = read.follow_up
    return (
        info is not None
        and info.parent_run_id is not None
        and not info.standalone
        and "breakdown" not in info.changed
        and bool(read.query.dimensions)
    )


def _remembered_language(scope: RunScope) -> str | None:
    """A question that does not say its language ("GMV?", "top 3 GMV") is answered in the user's
    remembered language; the sentence stating it, or ``None`` (nothing changed)."""
    from baton.nlu.gate import language_is_clear

    session, state = scope.session, scope.state
    if not session.remember or language_is_clear(scope.question) or state.parent_run_id is not None:
        return None  # a turn of a conversation speaks the conversation's language
    try:
        remembered = session.memory.language(state.user)
        source = session.memory.source(state.user, "language")
    except BatonError:  # memory never fails a question
        return None
    if remembered is None or remembered == state.language:
        return None
    state.language = remembered
    return text(
        "memory.applied_language",
        remembered,
        **localized("lang", f"memory.lang_{remembered}"),
        **localized("how", f"memory.how_{source or 'stated'}"),
    )


def _favourite_tie_break(scope: RunScope, exc: AmbiguousQuestion) -> tuple[str, str] | None:
    """Several metrics a word names equally, one of them a favourite of the user's: that one, and
    the sentence stating the choice (never silently: the other readings are named)."""
    suggestions = exc.detail.get("suggestions")
    term = exc.detail.get("term")
    if not scope.session.remember or not isinstance(suggestions, list) or not isinstance(term, str):
        return None
    try:
        favourites = scope.session.memory.favourite_metrics(scope.state.user)
        source = scope.session.memory.source(scope.state.user, "favourite_metrics")
    except BatonError:
        return None
    chosen = [m for m in suggestions if m in favourites]
    if len(chosen) != 1:
        return None
    catalog, language = scope.session.catalog, scope.state.language
    labels = text("answer.list_sep", language).join(
        catalog.metrics[m].label.for_lang(language) for m in suggestions if m in catalog.metrics
    )
    note = text(
        "memory.applied_favourite",
        language,
        term=term,
        labels=labels,
        metric=catalog.metrics[chosen[0]].label.for_lang(language),
        **localized("how", f"memory.how_{source or 'stated'}"),
    )
    return chosen[0], note


def _remembered_breakdown(scope: RunScope) -> tuple[str, str] | None:
    """The user's remembered default breakdown and the sentence stating its use."""
    if not scope.session.remember:
        return None
    try:
        return scope.session.memory.default_breakdown(scope.state.user, scope.state.language)
    except BatonError:  # memory never fails a question: without it, the question is asked back
        return None


def _read_by_model(scope: RunScope, rule_error: BatonError, parent: Parent | None) -> Read:
    """The model's reading, validated; any failure raises the rules' error with its reason."""
    from baton.nlu.follow_parts import compare_parts, dropped_parts
    from baton.nlu.llm_planner import LlmPlanner
    from baton.orchestrator.model_calls import RunModel

    session, state = scope.session, scope.state
    try:
        provider = session.model_provider
        settings = session.settings.llm
        assert settings is not None  # _model_mode is not "off"
        model = RunModel(provider, scope.running, purpose="plan", max_tokens=settings.max_tokens)
        from baton.context.tokens import count_tokens

        catalog_slice = session.catalog_index.prompt_slice(scope.question, count_tokens=count_tokens).to_prompt_json()
        reading = LlmPlanner(session.planning_catalog, model).plan(
            scope.question,
            as_of=state.as_of,
            language=state.language,
            parent=parent.query if parent is not None else None,
            catalog_slice_json=catalog_slice,
        )
    except BudgetExceeded:
        raise
    except BatonError as model_error:
        scope.running.policy_decision(
            "deny", gate="model_plan", error=model_error.to_trace_dict(state.language), fallback=rule_error.error_code
        )
        raise with_model_reason(rule_error, model_error) from model_error
    scope.running.policy_decision("allow", gate="model_plan", rules=rule_error.error_code)
    info = None
    if parent is not None:
        changed, inherited = compare_parts(parent.query, reading.query)
        info = FollowUpInfo(
            conversation_id=state.conversation_id or "",
            parent_run_id=parent.run_id,
            changed=changed,
            inherited=inherited,
            dropped=tuple(p for p in dropped_parts(parent.query, reading.query) if p in changed),
        )
    by = PlannedBy(planner="model", model=model.model, reason=rule_error.error_code)
    return Read(reading.query, notes=list(reading.assumptions), planned_by=by, follow_up=info)


def _second_opinion(scope: RunScope, rule_query: SemanticQuery, parent: Parent | None) -> list[str]:
    """``planner = "always"``: the model reads the question too; where the readings differ,
    the rule reading is used and the difference is stated. A model failure costs nothing."""
    from baton.nlu.llm_planner import compare_readings

    try:
        model_read = _read_by_model(scope, AmbiguousQuestion("", ""), parent)
    except BudgetExceeded:
        raise
    except BatonError:
        return []
    return compare_readings(rule_query, model_read.query, scope.session.catalog, scope.state.language)


def with_model_reason(rule_error: BatonError, model_error: BatonError) -> BatonError:
    """The rule planner's own question back (or refusal), saying why the model's reading was
    not used: what the user sees stays the rules' clarification, never the model's query."""

    def said(language: Language) -> str:
        reason = text("conversation.model_rejected", language, reason=model_error.message(language))
        return f"{rule_error.message(language)} {reason}".strip()

    detail = {
        **rule_error.detail,
        "model": {"code": model_error.error_code, "reason": model_error.detail.get("reason", model_error.error_code)},
    }
    return type(rule_error)(said("en"), said("zh"), detail=detail)


def _detail_is_final(exc: BatonError) -> bool:
    """An action or advice asked for ("send a coupon"): out of scope whatever reads it."""
    return isinstance(exc, OutOfScope) and bool(exc.detail.get("final"))


def _model_mode(scope: RunScope) -> str:
    settings = scope.session.settings.llm
    return "off" if settings is None else settings.planner


def _observe_choice(scope: RunScope, query: SemanticQuery) -> None:
    """The breakdown this question chose, for preferences learned from repeated choices."""
    if scope.session.remember:
        with contextlib.suppress(BatonError):  # memory never fails a question
            scope.session.memory.observe(scope.state.user, query)


def parent_of(scope: RunScope) -> Parent | None:
    """The answered turn a follow-up inherits from (its stored reading)."""
    parent_id = scope.state.parent_run_id
    if parent_id is None:
        return None
    parent = scope.session.store.load(parent_id)
    if parent.semantic_query is None:
        return None
    earlier, earlier_filter = _turn_before(scope, parent)
    return Parent(parent_id, parent.semantic_query, earlier, earlier_filter, listed_by(parent))


def listed_by(parent: RunState) -> ListedRows | None:
    """The rows ``parent``'s answer listed (its result table, whole): what a pointer may name."""
    from baton.nlu.follow_pointers import listed_rows

    answer, query = parent.answer, parent.semantic_query
    if answer is None or answer.result is None or answer.result.truncated or query is None:
        return None
    columns = [c.name for c in answer.result.columns]
    return listed_rows(query, columns, answer.result.rows)


def _turn_before(scope: RunScope, parent: RunState) -> tuple[TimeRange | None, MemberFilter | None]:
    """The period, or the filter, of the turn before ``parent`` when ``parent`` changed nothing
    else ("6月GMV" then "5月呢"; "华东GMV" then "华南呢"): the two a following "变化多少" or
    "两者对比一下" sets against each other."""
    from baton.nlu.side_by_side import member_changed

    info = parent.follow_up
    if info is None or info.standalone or info.parent_run_id is None or info.changed not in (("period",), ("filter",)):
        return None, None
    try:
        before = scope.session.store.load(info.parent_run_id).semantic_query
    except BatonError:  # that turn is gone: the change is against the period before, as said alone
        return None, None
    if before is None or parent.semantic_query is None:
        return None, None
    if info.changed == ("filter",):
        return None, member_changed(before, parent.semantic_query)
    return (None if before.comparison is not None else before.time_range), None


def follow_up_text(info: FollowUpInfo, language: Language) -> str:
    """ "接上一问：沿用指标、时间；改为筛选。" — what a follow-up kept and changed."""
    if info.standalone:
        return text("conversation.standalone", language)
    sep = text("answer.list_sep", language)

    def parts(names: tuple[str, ...]) -> str:
        return sep.join(text(f"conversation.part_{p}", language) for p in names) or text(
            "conversation.nothing", language
        )

    if not info.changed:
        return text("conversation.follow_up_kept_only", language, kept=parts(info.inherited))
    kept, changed = parts(info.inherited), parts(tuple(p for p in info.changed if p not in info.dropped))
    if not info.dropped:
        return text("conversation.follow_up", language, kept=kept, changed=changed)
    if len(info.dropped) == len(info.changed):
        return text("conversation.follow_up_took_away", language, kept=kept, dropped=parts(info.dropped))
    return text(
        "conversation.follow_up_changed_took_away", language, kept=kept, changed=changed, dropped=parts(info.dropped)
    )


def planner_for(scope: RunScope) -> Planner:
    """The session's planner; when the catalog indexes members, the run's trace says where they
    came from (the cache or the warehouse) and which dimensions were not indexed."""
    session, ctx = scope.session, scope.running
    if not indexed_dimensions(session.catalog):
        return session.planner
    ctx.policy_decision("allow", tool="catalog.member_index", reason="system metadata (members of indexed dimensions)")
    planner = session.planner
    error = session.member_index_error
    ctx.trace.emit(
        "tool_call",
        tool="catalog.member_index",
        ok=error is None,
        error_code=error.error_code if error is not None else None,
        dimensions={
            d.dimension: {
                "table": d.table,
                "members": len(d.members),
                "complete": d.complete,
                "cached": d.cached,
                "dropped": d.dropped,
            }
            for d in session.member_index
        },
    )
    return planner
