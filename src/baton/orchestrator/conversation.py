"""Conversations: a chain of runs, each follow-up read against the answered turn before it.

A conversation is stored in the run store (its owner and its runs, in order); every turn is
an ordinary run of the one driver — planned, governed, traced, resumable and replayable on its
own — that carries its conversation and its parent (the last answered turn). The parent's
reading is the only thing a turn inherits (document 04: the child gets the slice it needs,
explicitly); how it is laid over the follow-up is :mod:`baton.nlu.followup`. A why-question
("为什么app下降了？", ``/why``) turns into an analysis scoped to that reading.
"""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING

from baton.contracts.conversation import ConversationSummary
from baton.errors import AmbiguousQuestion, BatonError, InvalidInput, PermissionDenied
from baton.messages import both, text

if TYPE_CHECKING:
    from baton.contracts.answer import Answer
    from baton.contracts.common import Language
    from baton.contracts.run import Budget, RunState, RunSummary
    from baton.orchestrator.session import Session


def new_conversation_id() -> str:
    return "conv_" + datetime.now(UTC).strftime("%Y%m%dT%H%M%S") + "_" + secrets.token_hex(3)


def open_conversation(session: Session, conversation_id: str | None, user: str) -> Conversation:
    """A new conversation for ``user``, or ``conversation_id`` when it is theirs."""
    session.principal(user)  # a user the policy does not know is refused before anything is stored
    store = session.store
    if conversation_id is None:
        conversation_id = new_conversation_id()
        store.start_conversation(conversation_id, user)
        return Conversation(session, conversation_id, user)
    found = store.conversation(conversation_id)
    if found is None:
        raise InvalidInput(
            *both("conversation.no_conversation", conversation_id=conversation_id),
            detail={"conversation_id": conversation_id},
        )
    if found.user != user:
        raise PermissionDenied(
            *both("conversation.not_yours", conversation_id=conversation_id),
            detail={"conversation_id": conversation_id},
        )
    return Conversation(session, conversation_id, user)


class Conversation:
    """One user's chain of questions on one session."""

    def __init__(self, session: Session, conversation_id: str, user: str) -> None:
        self.session = session
        self.conversation_id = conversation_id
        self.user = user

    def ask(
        self,
        question: str,
        *,
        as_of: date | str | None = None,
        budget: Budget | None = None,
        analyze: bool | None = None,
        run_id: str | None = None,
    ) -> Answer:
        """The next turn: read against the last answered turn. A why-question is analysed
        (``analyze`` forces the kind of run either way); ``run_id`` names the run in advance."""
        from baton.nlu import vocabulary as vocab
        from baton.nlu.gate import language_is_clear
        from baton.nlu.lexicon import normalise

        parent = self.last_answered()
        last = self._last_turn()
        if last is not None and last.status == "asked_back" and vocab.ONE_OF_THE_OPTIONS.match(question):
            # "the second one" after "share inside each group, or across the groups?": an option
            # of the question asked back, never the last answer's second row — read on its own
            parent = None
        question = self._completed(question, parent, last, as_of) or question
        why = bool(vocab.WHY.search(normalise(question))) if analyze is None else analyze
        if analyze is None and not why and parent is not None:
            why = self._still_why(question, parent, as_of) or self._answers_a_why(question, parent, last, as_of)
        # "APP" says no language: the turn speaks the conversation's
        language = None if last is None or language_is_clear(question) else last.language
        return self._turn(question, parent, as_of=as_of, budget=budget, analyze=why, run_id=run_id, language=language)

    def _last_turn(self) -> RunState | None:
        turns = self.summary().turns
        return self.session.store.load(turns[-1]) if turns else None

    def _answers_a_why(self, reply: str, parent: RunState, last: RunState | None, as_of: date | str | None) -> bool:
        """ "APP" after "为什么它跌了这么多 → 要分析哪个渠道？": a reply that only moves the scope of a
        why asked back keeps the why (it was once answered with the change alone)."""
        from baton.nlu import vocabulary as vocab
        from baton.nlu.followup import read_follow_up
        from baton.nlu.lexicon import normalise
        from baton.orchestrator.session import as_of_date

        if last is None or last.status != "asked_back" or not vocab.WHY.search(normalise(last.question or "")):
            return False
        if parent.semantic_query is None:
            return False
        try:
            follow = read_follow_up(
                self.session.planner, reply, parent.semantic_query, as_of=as_of_date(as_of) or parent.as_of
            )
        except BatonError:
            return False
        return not follow.standalone

    def _completed(
        self, reply: str, parent: RunState | None, last: RunState | None, as_of: date | str | None
    ) -> str | None:
        """The question asked back last, completed by ``reply`` when the reply is no question of
        its own ("GMV" after "收入: GMV or net revenue?"); ``None``: the reply is read as it is
        (``baton.nlu.replies``). A completion that still lacks something ("收入环比" → "GMV": which
        period?) is kept, so the next reply completes it in turn and nothing said is lost."""
        from baton.errors import AmbiguousQuestion
        from baton.nlu.replies import completions, only_a_period
        from baton.orchestrator.session import as_of_date

        if last is None:
            return None
        asked = last.answer
        if asked is None or asked.error is None:
            return None
        refused_word = asked.status == "refused" and asked.error.code == "unknown_metric"  # "利润" then "那GMV呢"
        if asked.status != "clarification_needed" and not refused_word:
            return None
        day = as_of_date(as_of) or last.as_of
        # a word asked about ("收入: GMV or net revenue?"): the reply answers it even when it reads
        # on its own too ("GMV，上个月"); a part missing ("which period?"): a whole question replaces it
        detail = asked.error.detail
        member_of_several = "member" in detail and isinstance(detail.get("suggestions"), list)  # "LGA: origin?"
        answers_a_word = ("term" in detail or member_of_several) and detail.get("missing") is None
        # "which whole weeks?" then "最近8周": the period asked for, never the period alone moved
        # … or a period that has no data yet: "this quarter" then "ok, last quarter then"
        period_asked = asked.error.detail.get("missing") == "time_range" or "latest_complete_day" in asked.error.detail
        answers_a_period = period_asked and only_a_period(reply, day)
        # "对比一下华东和华南" (which metric?) then "客单价，今年以来": the metric asked for, never a new
        # question of the whole that drops the two regions
        answers_a_metric = asked.error.detail.get("missing") == "metric" and self._names_no_groups(reply, day)
        # "去年呢" (the whole year, or the same period?) then "同期" / "the whole year"; "whole weeks
        # only: 06-01 to 06-28?" then "ok": the choice offered, taken
        answers_a_choice = "same_from" in asked.error.detail or "whole_inside" in asked.error.detail
        alone = self._reading_error(reply, parent, day)
        if not (answers_a_choice or answers_a_word or answers_a_period or answers_a_metric) and alone is None:
            return None
        still_asked: str | None = None
        candidates = completions(last.question, reply, asked.error.detail, asked.language)
        for candidate in candidates:
            error = self._reading_error(candidate, parent, day)
            if error is None:
                return candidate
            lacking = isinstance(error, AmbiguousQuestion) and bool(error.detail.get("missing"))
            if lacking and error.detail != asked.error.detail and still_asked is None:
                still_asked = candidate  # "GMV环比": only a part is still missing (which period?)
        if answers_a_metric and still_asked is None and candidates:
            return candidates[0]  # "上个月对比华东和华南" then "GMV，今年以来": which period? asked, never the whole
        return still_asked if alone is not None or answers_a_period or answers_a_metric else None

    def _names_no_groups(self, reply: str, day: date) -> bool:
        """Whether ``reply`` read on its own names a metric (and perhaps a period) but no member,
        breakdown, ranking or comparison: what answers "which metric?", not a question of its own."""
        from baton.nlu import vocabulary as vocab

        if vocab.TOTAL.search(reply):  # "total GMV last month": the members pooled, or the whole? its own
            return False
        try:
            query = self.session.planner.plan(reply, as_of=day)
        except BatonError:
            return False
        return not (query.filters or query.dimensions or query.ranked or query.comparison or query.share or query.grain)

    def _reading_error(self, question: str, parent: RunState | None, day: date) -> BatonError | None:
        """What the rules say to ``question`` (after ``parent``): ``None`` when they read it."""
        from baton.nlu.followup import read_follow_up
        from baton.orchestrator.reading import listed_by

        try:
            if parent is None or parent.semantic_query is None:
                self.session.planner.plan(question, as_of=day)
            else:
                listed = listed_by(parent)
                read_follow_up(self.session.planner, question, parent.semantic_query, as_of=day, listed=listed)
        except BatonError as exc:
            return exc
        return None

    def _still_why(self, question: str, parent: RunState, as_of: date | str | None) -> bool:
        """A follow-up to an analysis that only moves its scope ("only East China" after "why did
        it drop?") asks the same why: it is analysed too, never answered with the change alone."""
        from baton.nlu.followup import read_follow_up
        from baton.orchestrator.session import as_of_date

        previous = parent.semantic_query
        if previous is None or previous.intent != "why":
            return False
        try:
            follow = read_follow_up(self.session.planner, question, previous, as_of=as_of_date(as_of) or parent.as_of)
        except BatonError:  # asked back or refused: the turn itself says so
            return False
        return not follow.standalone and follow.query.intent == "why"

    def why(self, *, as_of: date | str | None = None, budget: Budget | None = None) -> Answer:
        """``/why``: why the last answer's figure moved (an analysis of its reading)."""
        parent = self.last_answered()
        if parent is None:
            raise AmbiguousQuestion(*both("conversation.why_needs_answer"))
        question = text("conversation.why_question", parent.language)
        return self._turn(question, parent, as_of=as_of, budget=budget, analyze=True)

    def _turn(
        self,
        question: str,
        parent: RunState | None,
        *,
        as_of: date | str | None,
        budget: Budget | None,
        analyze: bool,
        run_id: str | None = None,
        language: Language | None = None,
    ) -> Answer:
        from baton.orchestrator.analyze import ANALYZE
        from baton.orchestrator.ask import ASK
        from baton.orchestrator.driver import start
        from baton.orchestrator.session import as_of_date

        return start(
            self.session,
            ANALYZE if analyze else ASK,
            question,
            as_of=as_of_date(as_of) or (parent.as_of if parent is not None else None),
            user=self.user,
            budget=budget,
            conversation_id=self.conversation_id,
            parent_run_id=parent.run_id if parent is not None else None,
            run_id=run_id,
            language=language,
        )

    def summary(self) -> ConversationSummary:
        found = self.session.store.conversation(self.conversation_id)
        assert found is not None  # opened through open_conversation
        return found

    def runs(self) -> list[RunSummary]:
        """The turns so far, in order."""
        from baton.contracts.run import RunSummary

        out = []
        for run_id in self.summary().turns:
            state = self.session.store.load(run_id)
            out.append(
                RunSummary(
                    run_id=state.run_id,
                    status=state.status,
                    question=state.question,
                    user=state.user,
                    started_at=state.started_at,
                    finished_at=state.finished_at,
                    step=state.step,
                )
            )
        return out

    def last_answered(self) -> RunState | None:
        """The latest turn that was answered (a question asked back is not followed up)."""
        for run_id in reversed(self.summary().turns):
            state = self.session.store.load(run_id)
            answered = state.answer is not None and state.answer.status == "answered"
            if answered and state.semantic_query is not None:
                return state
        return None

    def replay(self) -> list[Answer]:
        """Every turn's answer rebuilt from its checkpoints (no warehouse access)."""
        return [self.session.replay(run_id, user=self.user) for run_id in self.summary().turns]
