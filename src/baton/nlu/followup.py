"""Follow-up questions: the previous question's reading, changed only where the follow-up says.

Document 04's parent → child inheritance, for questions: a follow-up ("那华南呢？", "换成按周看",
"只看新用户", "和去年比呢", "按品类拆开", "为什么app下降了？") is read like any question — every word
accounted for — but may leave out what it inherits. Its reading is then laid over the
previous one, part by part, each change named:

- a metric replaces the metrics; a period replaces the period (a comparison of the same kind
  follows it);
- members replace the filter on their dimension, or add one; a single member of a dimension
  the previous answer was broken down by narrows to that member;
- a dimension word adds a breakdown ("换成"/"instead" replaces them); a grain makes a series;
  a comparison word compares the inherited period; a ranking, a share or a why applies to the
  inherited rest.

A follow-up that changes nothing Baton can place, or that cannot apply to the previous
question (a dimension its metric has no breakdown by), is asked back — never guessed. A
question that stands on its own (it names a metric and a period and no word ties it to the
previous one) is answered on its own, and says it inherited nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import replace
from datetime import date

from baton.contracts.semantic import MemberFilter, SemanticQuery, TimeRange
from baton.errors import AmbiguousQuestion, OutOfScope, TimeExpressionError
from baton.messages import both
from baton.nlu import timeexpr
from baton.nlu import vocabulary as vocab
from baton.nlu.change_words import kept_by_change
from baton.nlu.follow_merge import FollowUpMerge, NothingChanged
from baton.nlu.follow_parts import PARTS, FollowUp, Part, compare_parts
from baton.nlu.follow_pointers import ListedRows, named_across_turns
from baton.nlu.guards import the_groups_that_moved
from baton.nlu.lexicon import normalise
from baton.nlu.metric_words import metric_over_the_previous
from baton.nlu.one_before import the_one_after, the_one_before
from baton.nlu.parser import Planner
from baton.nlu.per_unit import per_unit_question
from baton.nlu.side_by_side import side_by_side
from baton.nlu.take_away import put_back_said, taken_away, taken_first
from baton.nlu.ties import has_ties


def read_follow_up(
    planner: Planner,
    question: str,
    parent: SemanticQuery,
    *,
    as_of: date,
    default_breakdown: str | None = None,
    prefer: Sequence[str] = (),
    earlier: TimeRange | None = None,
    earlier_filter: MemberFilter | None = None,
    listed: ListedRows | None = None,
) -> FollowUp:
    """``question`` as it follows ``parent``: a whole question of its own, or ``parent``
    changed where the follow-up says. A breakdown asked for without its dimension ("拆开看看",
    "top 3?" of a single figure) is asked back, or by ``default_breakdown`` when given.
    ``earlier``: the period of the turn before ``parent`` when ``parent`` changed only the period
    ("6月GMV" then "5月呢"): a bare change asked next ("变化多少") is between those two periods.
    ``earlier_filter``: likewise the filter of that turn when ``parent`` changed only its member
    ("华东GMV" then "华南呢"): "两者对比一下" then sets the two members side by side.
    ``listed``: the rows ``parent``'s answer listed, which a pointer ("这两个区域", "那天") names."""
    together = side_by_side(question, parent, earlier, earlier_filter)
    if together is not None:  # "6月GMV", "5月呢", "两者对比一下": the last two answers at once
        changed, inherited = compare_parts(parent, together)
        return FollowUp(together, changed=changed, inherited=inherited)
    without = taken_away(question, parent, planner.catalog, as_of)
    if without is not None:  # "去掉同比" / "不分月，给个总数": the same question, a part taken away
        changed, inherited = compare_parts(parent, without)
        return FollowUp(without, changed=changed, inherited=inherited)
    first = taken_first(question, parent, planner.catalog, as_of)
    rest: FollowUp | None = None
    if first is not None:  # "去掉同比，那天各渠道分别多少": the rest follows the question without it
        with contextlib.suppress(AmbiguousQuestion, OutOfScope):  # not read so: read as said whole, below
            rest = read_follow_up(planner, first[1], first[0], as_of=as_of, default_breakdown=default_breakdown,
                                  prefer=prefer, listed=listed)  # fmt: skip
        if rest is not None and not rest.standalone:
            changed, inherited = compare_parts(parent, rest.query)
            return FollowUp(rest.query, changed=changed, inherited=inherited)
        if rest is not None:  # "不看占比了，华南上个月GMV环比": a whole question after the part dropped
            return rest
    per_unit = per_unit_question(question, parent, planner.catalog)
    if per_unit is not None:  # "how about per buyer?": the catalog's ratio of the metric shown, as if named
        return read_follow_up(planner, per_unit, parent, as_of=as_of, default_breakdown=default_breakdown,
                              prefer=prefer, earlier=earlier, earlier_filter=earlier_filter, listed=listed)  # fmt: skip
    before = the_one_before(question, parent, as_of, listed) or the_one_after(question, parent, as_of, listed)
    if before is not None:  # "how about the month before" / "下个月呢": the same question, a period moved
        query, _dropped = before
        changed, inherited = compare_parts(parent, query)
        return FollowUp(query, changed=changed, inherited=inherited)
    standalone_error: AmbiguousQuestion | OutOfScope | None = None
    if not has_ties(question):
        try:
            query = planner.plan(question, as_of=as_of, default_breakdown=default_breakdown, prefer=prefer)
            return FollowUp(query, changed=(), inherited=(), standalone=True)
        except (AmbiguousQuestion, OutOfScope) as exc:
            standalone_error = exc
    kept = kept_by_change(question)  # "各区域GMV" then "哪些环比下降了": the groups that moved, named
    try:
        reading = planner.read(question, as_of=as_of, context=parent, prefer=prefer, which_moved=kept is not None)
    except OutOfScope as exc:
        unknown = [str(w) for w in exc.detail.get("unknown", [])]
        bound = next(
            (m for m in vocab.THRESHOLD.finditer(normalise(question)) if m.group("op") or m.group("post")), None
        )
        if bound is not None and not exc.detail.get("final"):  # "都超过500万吗" after a breakdown: never "not data"
            raise AmbiguousQuestion(*both("conversation.bound_in_one_question"), detail={"follow_up": True}) from None
        # a follow-up comparing with a period ("跟前年同期比"), or putting back what taken_away could not
        # ("把6月加回来"), is about the data, whatever word is not understood
        compared = vocab.COMPARE.search(normalise(question)) is not None
        puts_back = put_back_said(question) is not None
        tied = has_ties(question) or (compared and _names_a_period(question, as_of)) or puts_back
        if exc.detail.get("final") or not unknown or not tied:
            raise (standalone_error or exc) from None
        # "What about Tmall?": a follow-up naming something Baton does not know is asked back
        raise AmbiguousQuestion(
            *Planner.not_understood(unknown), detail={"unknown": unknown, "follow_up": True}
        ) from None
    metric_over_the_previous(reading.scan, reading.terms.metric_hits, parent.metrics)
    listed = listed or named_across_turns(parent, earlier_filter)  # "华东", "华南呢", "这两个…": both
    try:
        follow = FollowUpMerge(planner, parent, reading, as_of, default_breakdown, earlier, listed).build()
    except NothingChanged:
        if standalone_error is not None and not isinstance(standalone_error, AmbiguousQuestion):
            raise standalone_error from None
        raise AmbiguousQuestion(*both("conversation.unclear_follow_up"), detail={"follow_up": True}) from None
    if kept is None:
        return follow
    directed = follow.query.model_copy(update={"premise": reading.cues.premise})  # the direction said
    return replace(follow, query=the_groups_that_moved(directed, kept))


def _names_a_period(question: str, as_of: date) -> bool:
    try:
        return timeexpr.parse_time_range(question, as_of) is not None
    except (TimeExpressionError, AmbiguousQuestion):
        return True  # a period said, if not one Baton can read


__all__ = ["PARTS", "FollowUp", "Part", "compare_parts", "read_follow_up"]
